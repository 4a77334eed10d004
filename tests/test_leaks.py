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
var lead: player
var n: int = 0
var secret: int = 0 hidden
player var bid: int = 0
player var mine: int = 0 owner
card var mark: int = 0 kept
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
    # which named skip of a secret choice was taken is as secret as its value
    ('0 secretly may choose x from hand[0] "play" skip "draw" as drawing skip "pass" as '
     'passing\n    n = 1 if drawing else 0', "Play",
     "'n' is shown to every seat, but it reads the secret choice 'drawing'"),
])
def test_hidden_cards_or_secret_choices_in_public_places_are_warned(stmt: str, label: str,
                                                                    said: str) -> None:
    (message,) = _warnings(stmt, label)
    assert said in message and "which some seats may not see" in message


@pytest.mark.parametrize("stmt", [
    "n = count(deck)", 'say "{count(hand[0])} cards in hand"', "topc = top(pile)",
    'say "on the pile: {top(pile)}"', "let c = top(deck)\n    move c to hand[1]",
])
def test_counts_and_what_all_see_are_fine(stmt: str) -> None:
    assert _warnings(stmt) == []


@pytest.mark.parametrize("stmt", [
    "secret = sum(hand[0], it.rank)",  # a hidden variable: no seat is shown it
    "mine[0] = sum(hand[0], it.rank)",  # seat 0's own: its own hand
    "for each player q:\n        q secretly chooses b from 1..5 \"bid\"\n        mine[q] = b",
    "for each player q:\n        mine[q] = mine[q] + 1",
    'say "you hold {mine[0]} and {secret}"',  # a text: those values are masked at run time
    "0 chooses x from 1..(mine[0] + 1)",
])
def test_what_goes_into_a_variable_only_its_seers_see_is_fine(stmt: str) -> None:
    assert _warnings(stmt) == []


@pytest.mark.parametrize(("stmt", "said"), [
    ("mine[1] = sum(hand[0], it.rank)", "'mine[1]' is shown to its own seat, but it reads the "
     "cards of 'hand[0]', which that seat may not see; declare 'mine' hidden"),
    ("n = secret", "'n' is shown to every seat, but it reads the variable 'secret' (hidden), "
     "which some seats may not see; declare 'n' hidden"),
    ("bid[0] = mine[0]", "'bid[0]' is shown to every seat, but it reads the variable "
     "'mine[0]' (owner), which some seats may not see; declare 'bid' owner or hidden"),
    ("mine[1] = mine[0]", "reads the variable 'mine[0]' (owner), which that seat may not see"),
    # a public card variable is seen with its card (and so by that seat's bots)
    ("top(deck).mark = secret", "'top(deck).mark' is shown to every seat that sees its card, "
     "but it reads the variable 'secret' (hidden), which some of them may not see; declare "
     "'mark' hidden"),
    ("bid[0] = sum(hand[1], it.rank)", "declare 'bid' owner or hidden to keep it from the "
     "others"),
])
def test_unseen_values_written_where_others_see_them_are_warned(stmt: str, said: str) -> None:
    (message,) = _warnings(stmt)
    assert said in message


# What has been shown to every seat is no secret (reveal ZONE, reveal VAR: validate/shown.py),
# and a seat found from hidden cards is no secret when its own turn comes next (the holder
# of a card leads: validate/next_turn.py). A read before the reveal, after a hide, or a seat
# whose turn is not next still leaks.
@pytest.mark.parametrize("stmt", [
    "reveal hand[0]\n    n = sum(hand[0], it.rank)",
    "for each player q:\n        reveal hand[q]\n    n = sum(hand, it.rank)",
    "reveal secret\n    n = secret",
    "reveal mine\n    bid[0] = mine[0]",
    "lead = owner(first(hand where it.rank > 4))\n    lead chooses x from hand[lead]",
    "lead = owner(first(hand where it.rank > 4))\n    if lead == none:\n        lead = 0\n"
    "    trick in pile led by lead:\n        each player plays c from hand[player]\n"
    "        won by highest it.rank",
])
def test_what_is_shown_anyway_is_no_leak(stmt: str) -> None:
    assert _warnings(stmt) == []


@pytest.mark.parametrize(("stmt", "said"), [
    ("n = sum(hand[0], it.rank)\n    reveal hand[0]", "reads the cards of 'hand[0]'"),
    ("reveal hand[0]\n    hide hand[0]\n    n = sum(hand[0], it.rank)",
     "reads the cards of 'hand[0]'"),
    ("reveal hand[0]\n    n = sum(hand[1], it.rank)", "reads the cards of 'hand[1]'"),
    ("n = secret\n    reveal secret", "reads the variable 'secret' (hidden)"),
    ("reveal secret\n    repeat 2 times:\n        n = secret\n        hide secret",
     "reads the variable 'secret' (hidden)"),  # (hidden again by the second pass)
    ("lead = owner(first(hand where it.rank > 4))\n    1 chooses x from 1..2",
     "'lead' is shown to every seat, but it reads the cards of 'hand'"),
    ("lead = owner(first(hand where it.rank > 4))\n    if n > 0:\n        0 chooses y from 1..2\n"
     "    lead chooses x from hand[lead]", "'lead' is shown to every seat"),
])
def test_what_is_read_before_it_is_shown_still_leaks(stmt: str, said: str) -> None:
    (message,) = _warnings(stmt)
    assert said in message
