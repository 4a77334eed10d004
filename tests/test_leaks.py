"""Public places that would show hidden cards (issue 13, "no seat ever sees what it may
not"): variables, prompts, phase labels and ``say`` texts are shown to every seat, so the
validator warns when one reads cards some seat may not see, or a secret choice."""

from __future__ import annotations

import pytest

from rulesplay.parse import parse_text
from rulesplay.validate import check

BASE = '''game "L"
players 2..2
card c:
    rank: 1..9
    label: "r{{rank}}"
zone deck: shared, hidden
zone pile: shared, top
zone hand: per player, owner
var topc: card
var n: int = 0
player var bid: int = 0
phase p "{label}":
    shuffle deck
    deal 3 from deck to hand starting with 0
    move top(deck) to pile
    {stmt}
    next end
score: bid[player]
'''


def _warnings(stmt: str, label: str = "Play") -> list[str]:
    text = BASE.format(stmt=stmt, label=label)
    return [w.message for w in check(parse_text(text, "l.rules"), {"l.rules": text}).warnings]


@pytest.mark.parametrize(("stmt", "label", "said"), [
    ("topc = top(deck)", "Play", "'topc' is shown to every seat, but it reads the cards of "
                                 "'deck'"),
    ("n = sum(hand[0], it.rank)", "Play", "reads the cards of 'hand[0]'"),
    ("for each player q:\n        q secretly chooses b from 1..5 \"bid\"\n        bid[q] = b",
     "Play", "'bid[q]' is shown to every seat, but it reads the secret choice 'b'"),
    ('0 chooses x from hand[0] "holding {sum(hand[0], it.rank)}"', "Play",
     "this prompt is shown to every seat"),
    ("n = 1", "Next is {top(deck)}", "this phase's label is shown to every seat"),
    ('say "deck top {top(deck)}"', "Play", "this 'say' text is shown to every seat"),
])
def test_hidden_cards_or_secret_choices_in_public_places_are_warned(stmt: str, label: str,
                                                                    said: str) -> None:
    (message,) = _warnings(stmt, label)
    assert said in message and message.endswith("which some seats may not see")


@pytest.mark.parametrize("stmt", [
    "n = count(deck)", 'say "{count(hand[0])} cards in hand"', "topc = top(pile)",
    'say "on the pile: {top(pile)}"', "let c = top(deck)\n    move c to hand[1]",
])
def test_counts_and_what_all_see_are_fine(stmt: str) -> None:
    assert _warnings(stmt) == []
