"""The shortcuts of the generated code (``engine/codegen.py``, ``engine/lower.py``) keep
the language's meaning: a first or last match found by a scan fails exactly as filtering
the whole collection does, and a save's resume point is checked before a routine tests it.

That compiled games play as the frame interpreter's is ``tests/test_differential.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulesplay
from rulesplay.engine.game import loads
from rulesplay.engine.routines import Routine
from rulesplay.errors import RulesError, RulesRuntimeError

ROOT = Path(__file__).resolve().parents[1]

PICKS = '''
game "Picks"
players 2..2
card c:
    n: 1..5
    copies: 3
zone deck: shared, public
zone low: shared, public
zone high: shared, public
zone odd: shared, public
var k: int = 3
phase a:
    shuffle deck
    move bottom(deck where it.n == k and it is c) to low
    move top(deck where it.n == k + 1) to high
    move top(deck where it.n > 3 and it.n != 5) to odd
    next end
score: count(low)
'''


def _sources(game: rulesplay.Game) -> str:
    return "\n".join(n.source for n in game.program(2).nodes if isinstance(n, Routine))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_first_and_last_match_are_those_of_the_whole_filtering(seed: int) -> None:
    game = loads(PICKS)
    code = _sources(game)
    # the tests that read the card only by ==, kind and constants scan; '>' does not
    assert code.count("next((") == 2 and "reversed(" in code
    state = game.new_state(2, seed)
    assert state.is_terminal()
    shuffled = _shuffled_deck(seed)
    number = {cid: int(cid.split("#")[0]) for cid in shuffled}
    first3 = next(c for c in shuffled if number[c] == 3)
    rest = [c for c in shuffled if c != first3]
    last4 = [c for c in rest if number[c] == 4][-1]
    rest = [c for c in rest if c != last4]
    last_high = [c for c in rest if 3 < number[c] != 5][-1]
    assert state.zone_cards("low") == [first3]
    assert state.zone_cards("high") == [last4]
    assert state.zone_cards("odd") == [last_high]
    assert state.zone_cards("deck") == [c for c in rest if c != last_high]


def _shuffled_deck(seed: int) -> list[str]:
    """The deck of PICKS right after its shuffle (the same seeded generator)."""
    text = "\n".join(line for line in PICKS.splitlines() if "    move " not in line)
    game = loads(text)
    return game.new_state(2, seed).zone_cards("deck")


FAILS = '''
game "Fails"
players 2..2
card c:
    n: 1..5
zone deck: shared, public
zone out: shared, public
phase a:
    move top(deck where it.n == 5 or 10 / (it.n - 2) > 0) to out
    next end
score: count(out)
'''


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_a_filter_that_fails_on_some_card_fails_though_a_later_card_matches(
        engine: str) -> None:
    """The top card matches at once, but filtering the deck divides by zero at the card
    numbered 2: the whole filtering runs, so the fault is not skipped."""
    with pytest.raises(RulesRuntimeError, match="division by zero"):
        loads(FAILS, engine=engine).new_state(2)


def test_a_save_whose_resume_point_is_not_a_number_is_refused() -> None:
    state = rulesplay.load(ROOT / "rulesets" / "card_hunt.rules").new_state(2, 3)
    state.apply(state.legal_actions()[0])
    data = json.loads(state.to_json())
    data["stack"][-1][1] = "3"
    with pytest.raises(RulesError, match="position in the phase graph"):
        rulesplay.State.from_json(data)
