"""IR loaded from JSON: the closed sets that keep outside text out of generated code, and the
round trip of every shipped ruleset through ``rulesplay compile --json``."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pydantic import ValidationError

from rulesplay import RulesError, ir
from rulesplay.cli import main
from rulesplay.compose import load_ruleset
from rulesplay.engine.game import Game
from rulesplay.validate import check

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(str(p) for p in (ROOT / "rulesets").rglob("*.rules"))
CH = str(ROOT / "rulesets" / "card_hunt.rules")
BQ = str(ROOT / "rulesets" / "bargain_quest.rules")
EVIL = "__import__('os').system('touch PWNED')"


def _first(node: Any, match: Callable[[dict[str, Any]], bool]) -> dict[str, Any] | None:
    """The first JSON object inside ``node`` (depth first) for which ``match`` holds."""
    if isinstance(node, dict):
        if match(node):
            return node
        children: Any = node.values()
    elif isinstance(node, list):
        children = node
    else:
        return None
    for child in children:
        found = _first(child, match)
        if found is not None:
            return found
    return None


@functools.cache
def _dump(path: str) -> str:
    return load_ruleset(path)[0].model_dump_json()


def _hostile(path: str, match: Callable[[dict[str, Any]], bool], key: str, value: Any) -> str:
    data = json.loads(_dump(path))
    target = _first(data, match)
    assert target is not None, "the ruleset has no such node"
    target[key] = value
    return json.dumps(data)


def _play_from_json(text: str) -> None:
    """Load IR JSON the way an embedding program would, then play a whole game."""
    ruleset = ir.Ruleset.model_validate_json(text)
    game = Game(ruleset, check(ruleset))
    lo = game.player_range[0]
    state = game.new_state(lo, seed=1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))


def _node(kind: str, **fields: Any) -> Callable[[dict[str, Any]], bool]:
    return lambda d: d.get("node") == kind and all(d.get(k) == v for k, v in fields.items())


# Fields whose value is written into generated source: pydantic refuses anything outside the
# closed set when the JSON is loaded, naming the field.
@pytest.mark.parametrize("match,key,value,field", [
    (_node("binop", op="+"), "op", f"+ {EVIL} +", "binop.op"),
    (_node("binop", op="=="), "op", f"== {EVIL} ==", "binop.op"),
    (_node("unop", op="not"), "op", f"not {EVIL} or not", "unop.op"),
    (_node("num"), "value", f"1 + {EVIL}", "num.value"),
    (_node("bool"), "value", EVIL, "bool.value"),
    (_node("seat"), "side", EVIL, "seat.side"),
], ids=["binop-arith", "binop-compare", "unop", "num", "bool", "seat"])
def test_hostile_ir_json_is_refused_on_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            match: Callable[[dict[str, Any]], bool], key: str,
                                            value: str, field: str) -> None:
    monkeypatch.chdir(tmp_path)
    text = _hostile(BQ, match, key, value)
    with pytest.raises(ValidationError) as exc:
        _play_from_json(text)
    assert field in str(exc.value) and "Input should be" in str(exc.value)
    assert not (tmp_path / "PWNED").exists()


# Free-text fields that name things: the validator resolves them, so a name that is not
# declared is a diagnostic, and a kind name only ever reaches the code as a constant.
@pytest.mark.parametrize("match,key", [
    (_node("call", func="count"), "func"),
    (_node("call", func="max"), "func"),
    (_node("name"), "id"),
    (_node("attr"), "name"),
], ids=["call", "call-max", "name", "attr"])
def test_hostile_names_in_ir_json_are_diagnostics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  match: Callable[[dict[str, Any]], bool],
                                                  key: str) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesError):
        _play_from_json(_hostile(BQ, match, key, f"max({EVIL})"))
    assert not (tmp_path / "PWNED").exists()


def test_a_hostile_kind_name_is_a_constant_not_code(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = _hostile(BQ, _node("is"), "kind", f"x' or {EVIL} or '")
    with pytest.raises(RulesError, match="unknown|undefined|kind"):
        _play_from_json(text)
    assert not (tmp_path / "PWNED").exists()


def test_the_engine_refuses_an_operator_outside_the_closed_set(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    """Even an IR changed after validation (no pydantic check) cannot put text in the code."""
    monkeypatch.chdir(tmp_path)
    ruleset, checked = load_ruleset(CH)
    binop = next(n for n in ir.walk(ruleset) if isinstance(n, ir.BinOp) and n.op == "+")
    object.__setattr__(binop, "op", f"+ {EVIL} +")
    with pytest.raises(ValueError, match="unknown operator"):
        Game(ruleset, checked).new_state(2, seed=1)
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: Path(p).name)
def test_every_shipped_ruleset_round_trips_through_compile_json(path: str) -> None:
    result = CliRunner().invoke(main, ["compile", path, "--json"])
    assert result.exit_code == 0, result.output
    assert ir.Ruleset.model_validate_json(result.output) == load_ruleset(path)[0]
