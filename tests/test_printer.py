"""The printer (``show.py``): a whole ruleset printed back as text parses to the same IR.

Over every shipped ruleset, card file and variant, and ``tests/printer/`` (every statement,
expression and declaration of the language, in most of their forms): ``parse(print(parse(x)))
== parse(x)``, spans aside, with the same fields written; printing is stable (printing the
reparsed ruleset gives the same text). A new construct must appear in ``tests/printer/``
(:func:`test_the_corpus_holds_every_node_kind`), so its printer is tested here.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulesplay
from rulesplay import ir
from rulesplay.errors import Span
from rulesplay.parse import parse_text
from rulesplay.show import expr_text, quote, ruleset_text

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "printer"
FILES = sorted(
    [*(ROOT / "rulesets").glob("*.rules"), *(ROOT / "rulesets").glob("*.part"),
     *(ROOT / "rulesets" / "variants").glob("*.rules"),
     *(ROOT / "rulesets" / "classics").glob("*.rules"),
     *(ROOT / "rulesets" / "classics" / "variants").glob("*.rules"), *CORPUS.glob("*.rules")])


def plain(node: Any) -> Any:
    """``node`` as plain data without spans, with the fields each node was given."""
    if isinstance(node, ir.Node):
        fields = {k: plain(getattr(node, k)) for k in type(node).model_fields if k != "span"}
        return {"class": type(node).__name__, "given": sorted(node.model_fields_set - {"span"}),
                **fields}
    if isinstance(node, Span):
        return None
    if isinstance(node, list | tuple):
        return [plain(v) for v in node]
    if isinstance(node, dict):
        return {k: plain(v) for k, v in node.items()}
    return node


def _parse(path: Path) -> ir.Ruleset:
    return parse_text(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_printed_ruleset_parses_back_to_the_same_ir(path: Path) -> None:
    ruleset = _parse(path)
    printed = ruleset_text(ruleset)
    again = parse_text(printed, "printed.rules")
    assert plain(again) == plain(ruleset)
    assert ruleset_text(again) == printed


def test_the_corpus_holds_every_node_kind() -> None:
    """Every statement, expression and declaration class is in some file printed above."""
    seen = {type(node) for path in FILES for node in ir.walk(_parse(path))}
    missing = [cls.__name__ for base in (ir.ExprNode, ir.StmtNode, ir.DeclNode)
               for cls in ir.kinds(base) if cls not in seen]
    assert not missing, f"add an example of {missing} to tests/printer/every_construct.rules"


@pytest.mark.parametrize("name", ["every_construct.rules", "variant.rules"])
def test_the_corpus_is_a_ruleset_that_plays(name: str) -> None:
    """The corpus is valid, so every construct in it also passes the validator and the
    engine (two short games at each player count)."""
    game = rulesplay.load(CORPUS / name)
    lo, hi = game.player_range
    for players in range(lo, hi + 1):
        for seed in (1, 2):
            state = game.new_state(players, seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("text", [
    "(a == b) == c", "(a in b) in c", "(a is k) == b", "x where (a if b else c)",
    "a if b else (c where d)", "a if b else c if d else e", "-(-x)", "not not a", "(x,)",
    "{}", "[]", "f()", "left of (a + b)", "(1 + 2)..3", "a - (b - c)", "(a or b) and c"])
def test_expressions_print_with_the_parentheses_they_need(text: str) -> None:
    ruleset = parse_text(f"score: {text}\n", "t")
    assert ruleset.score is not None
    printed = expr_text(ruleset.score)
    again = parse_text(f"score: {printed}\n", "t")
    assert plain(again.score) == plain(ruleset.score)


def test_strings_are_quoted_so_they_read_back() -> None:
    text = 'a "quoted" \\ back\nslash\ttab\x1b'
    ruleset = parse_text(f"score: {quote(text)}\n", "t")
    assert isinstance(ruleset.score, ir.Str) and ruleset.score.value == text
