"""A decision may not sit in a branch chosen by what its seat cannot see (hostile review 13b,
finding 1): a bot's sample keeps the true program position, so the branch taken told the
bot the hidden top card or another seat's secret bid. The validator refuses it at the
decision, naming the test's line."""

from __future__ import annotations

import pytest

import rulesplay
from rulesplay.errors import RulesValidationError

BASE = """
game "Branches"
players 2..2

card card "card":
    rank: 1..10
    label: "{rank}"

zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone pile "pile": shared, public
player var bid "bid": int = 0 owner
var turn "turn": player = 0

rule ask:
    0 chooses t from bool

phase draw "Draw":
    shuffle deck
    deal 2 from deck to hand
    BODY
    next end

score: count(hand[player])
"""


def _errors(body: str) -> list[tuple[str, int, int]]:
    text = BASE.replace("BODY", body.replace("\n", "\n    "))
    try:
        rulesplay.loads(text, file="t.rules")
    except RulesValidationError as err:
        return [(d.message, d.span.line, d.span.col) for d in err.diagnostics]
    return []


@pytest.mark.parametrize("body, said", [
    ("if top(deck).rank > 3:\n    0 chooses t from bool\nelse:\n    0 chooses t from bool",
     "seat '0' decides here, and the branch taken at line 21 depends on deck, which seat "
     "'0' cannot see (hidden: no seat sees its cards): bots would learn it"),
    ("if top(deck).rank > 3:\n    0 chooses t from bool",  # whether it decides at all
     "the branch taken at line 21 depends on deck"),
    ("1 secretly chooses b from 1..6\nbid[1] = b\nif bid[1] > 3:\n    0 chooses t from bool",
     "depends on 'bid[1]', which seat '0' cannot see (only its owner sees it"),
    ("1 secretly chooses b from 1..6\nif b > 3:\n    0 chooses t from bool",
     "depends on 'b', which seat '0' cannot see (a secret choice of 1)"),
    ("if count(pile) > 0:\n    move top(deck) to pile\nelif top(deck).rank > 3:\n"
     "    do ask",  # an elif, through a rule
     "the branch taken at line 23 depends on deck"),
    ("repeat while sum(hand[1], it.rank) > 3:\n    0 chooses t from bool\n"
     "    move top(hand[1]) to pile",
     "whether the loop on line 21 goes on depends on hand[1]"),
    ("for each player p:\n    if any(hand[left of p], it.rank > 5):\n"
     "        p chooses t from bool",
     "depends on hand[left of p], which seat 'p' cannot see"),
    ("if top(deck).rank > 3:\n    trick in pile led by 0:\n"
     "        each player plays c from hand[player]\n        won by highest it.rank",
     "the player plays in this trick, and the branch taken at line 21 depends on deck"),
    ("if any(hand[turn], it.rank > 5):\n    turn = 1\n    turn chooses t from bool",
     "depends on hand[turn], which seat 'turn' cannot see"),  # 'turn' set in between
])
def test_a_decision_in_a_branch_chosen_by_what_its_seat_cannot_see_is_refused(
        body: str, said: str) -> None:
    errors = _errors(body)
    assert any(said in m for m, _, _ in errors), errors


def test_the_error_is_at_the_decision_with_the_test_named() -> None:
    errors = _errors("if top(deck).rank > 3:\n    0 chooses t from bool")
    assert [(line, col) for _, line, col in errors] == [(22, 9)]


PHASES = """
game "Phases"
players 2..2

card card "card":
    rank: 1..6
    label: "{rank}"

zone deck "deck": shared, hidden

phase deal "Deal":
    shuffle deck
    next high if top(deck).rank > 3
    next low

phase high "High":
    0 chooses t from bool
    next end

phase low "Low":
    0 chooses t from bool
    next end

score: 0
"""


def test_a_phase_entered_by_a_hidden_guard_may_not_ask_that_seat() -> None:
    with pytest.raises(RulesValidationError) as info:
        rulesplay.loads(PHASES, file="t.rules")
    found = [(d.message, d.span.line) for d in info.value.diagnostics]
    assert [line for _, line in found] == [17, 21]
    assert all("which phase 'deal' goes on to at line 13 depends on deck" in m
               for m, _ in found)


@pytest.mark.parametrize("body", [
    "if any(hand[0], it.rank > 5):\n    0 chooses t from bool",  # its own hand
    "for each player p:\n    if any(hand[p], it.rank > 5):\n        p chooses t from bool",
    "if any(hand[turn], it.rank > 5):\n    turn chooses t from bool",  # 'turn' not set
    "if count(deck) > 3 and any(pile):\n    0 chooses t from bool",  # counts: public
    "0 secretly chooses b from 1..6\nif b > 3:\n    0 chooses t from bool",  # its own
    "if top(deck).rank > 3:\n    move top(deck) to pile\n0 chooses t from bool",  # after
    "repeat while count(hand[1]) > 0:\n    1 chooses c from hand[1]\n    move c to pile",
])
def test_tests_the_deciding_seat_sees_are_fine(body: str) -> None:
    assert _errors(body) == []


def test_shipped_rulesets_still_validate() -> None:
    from pathlib import Path
    root = Path(__file__).parent.parent / "rulesets"
    for path in [*root.glob("*.rules"), *root.glob("variants/*.rules")]:
        rulesplay.load(str(path))
