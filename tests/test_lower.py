"""The phase compiler (``engine/lower.py``): what its generated code may hold, where its
faults point, its limits, and the saves of its games.

That the compiled engine plays the reference's games is ``tests/test_differential.py``.
"""

from __future__ import annotations

import ast
import builtins
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesplay
from rulesplay.cli import main
from rulesplay.engine.game import loads
from rulesplay.engine.routine_code import listing
from rulesplay.engine.routines import Routine
from rulesplay.errors import OptionError, RulesError, RulesRuntimeError

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "rulesets").glob("*.rules")) + \
    sorted((ROOT / "rulesets" / "variants").glob("*.rules"))

# Hostile texts in every place a ruleset puts text: labels, prompts, say, skip and pass.
EVIL = "x'); __import__('os').system('echo pwned'); ('"
HOSTILE = f'''
game "{EVIL}"
players 2..3
card c "{EVIL}":
    n: 1..5
    copies: 2
zone deck "{EVIL}": shared, public
zone hand "{EVIL}": per player, owner
zone table "{EVIL}": shared, public
var total "{EVIL}": int = 0
phase deal "{EVIL} {{total}}":
    shuffle deck
    deal 3 from deck to hand
    say "{EVIL} {{total}}"
    next play
phase play "{EVIL}":
    repeat 3 times:
        trick in table led by 0:
            each player plays card from hand[player] "{EVIL} {{card}}"
            won by highest it.n
            after trick:
                total += 1
                move table to deck
    for each player p:
        p may choose keep from deck where keep.n > 2 "{EVIL}" skip "{EVIL}"
    next end
score: total
'''

# Names the generated code may use: its own, the constants kN, and Python builtins.
OWN = re.compile(r"^(s|f|it|pc|_steps|_x|UNSET|k\d+|_[a-z]\d+|_routine\d+|_[a-z]+)$")


def _routines(game: rulesplay.Game, players: int) -> list[Routine]:
    return [n for n in game.program(players).nodes if isinstance(n, Routine)]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_generated_code_holds_no_text_and_only_its_own_names(path: Path) -> None:
    """No string literal at all (every text is a constant kN) and no name but its own."""
    game = rulesplay.load(path)
    routines = _routines(game, game.player_range[0])
    assert routines
    for r in routines:
        tree = ast.parse(r.source)
        strings = [n.value for n in ast.walk(tree)
                   if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        assert strings == [], (r.name, strings)
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        strange = {n for n in names if not OWN.match(n) and not hasattr(builtins, n)}
        assert not strange, (r.name, strange)


def test_hostile_labels_never_reach_the_code_and_play_as_text() -> None:
    game = loads(HOSTILE)
    for r in _routines(game, 2):
        assert "import" not in r.source and "os" not in re.findall(r"\w+", r.source)
    s = game.new_state(2, 5, record_events=True)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    assert any(e.get("text", "").startswith(EVIL) for e in s.events or [])
    assert s.prompt() == "" and s.scores() == [3, 3]


def test_compile_python_shows_the_code_with_file_and_line() -> None:
    path = ROOT / "rulesets" / "bargain_hunter.rules"
    result = CliRunner().invoke(main, ["compile", str(path), "--python", "--players", "4"])
    assert result.exit_code == 0, result.output
    assert "def _routine" in result.output
    lines = {int(m) for m in re.findall(r"bargain_hunter\.rules:(\d+)", result.output)}
    text = path.read_text().splitlines()
    # Every line named is a statement of the ruleset (not a comment, not blank).
    assert lines and all(text[n - 1].strip() and not text[n - 1].strip().startswith("#")
                         for n in lines)
    assert "Irresistible" not in result.output  # names and labels stay constants
    bad = CliRunner().invoke(main, ["compile", str(path), "--python", "--players", "9"])
    assert bad.exit_code == 2 and "3 to 4 players" in bad.output


def test_listing_of_an_interpreted_program_is_refused() -> None:
    game = rulesplay.load(ROOT / "rulesets" / "card_hunt.rules", engine="interpret")
    with pytest.raises(ValueError, match="not compiled"):
        listing(game.program(2))


FAULT = '''
game "Fault"
players 2..2
card c:
    copies: 4
zone deck: shared, public
var d: int = 2
var x: int = 0
phase a:
    repeat 3 times as i:
        d -= 1
        x = 10 / d
    next end
score: x
'''


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_a_fault_in_generated_code_points_at_its_statement(engine: str) -> None:
    with pytest.raises(RulesRuntimeError) as info:
        loads(FAULT, file="fault.rules", engine=engine).new_state(2)
    assert "division by zero" in info.value.message
    assert "in phase 'a'" in info.value.message
    assert (info.value.span.file, info.value.span.line) == ("fault.rules", 12)


LOOP = '''
game "Loop"
players 2..2
card c:
    copies: 4
zone deck: shared, public
var x: int = 0
phase a:
    repeat while x >= 0:
        x += 1
    next end
score: x
'''


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_a_loop_that_never_ends_stops_at_the_step_limit(engine: str) -> None:
    with pytest.raises(RulesRuntimeError, match="step limit reached"):
        loads(LOOP, engine=engine).new_state(2)


def test_a_save_names_its_engine_and_another_engine_refuses_it() -> None:
    path = ROOT / "rulesets" / "card_hunt.rules"
    compiled = rulesplay.load(path)
    s = compiled.new_state(2, 3)
    s.apply(s.legal_actions()[0])
    data = json.loads(s.to_json())
    assert data["engine"] == "compiled" and data["version"] == 7
    with pytest.raises(RulesError, match="'compiled' engine"):
        rulesplay.load(path, engine="interpret").state_from_json(data)
    again = rulesplay.State.from_json(data)  # the game rebuilt with the saved engine
    assert again.program.engine == "compiled"
    assert [a.id for a in again.legal_actions()] == [a.id for a in s.legal_actions()]
    data["version"] = 2
    with pytest.raises(RulesError, match="format '2' by another version"):
        rulesplay.State.from_json(data)


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(OptionError, match="engines: compiled, interpret"):
        rulesplay.load(ROOT / "rulesets" / "card_hunt.rules", engine="native")
