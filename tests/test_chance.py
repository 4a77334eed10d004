"""Chance only in statements (issue 13, item 14): ``random()`` draws from the game's one
generator, so an expression that is worked out whenever it is listed or shown (a choice's
options, filter or prompt, what may be played, ``won by``, labels, the score) may not call it:
a human typing ``show`` would reroll the game, and a replay would differ."""

from __future__ import annotations

import pytest

import rulesplay
from rulesplay.errors import RulesValidationError

BASE = '''game "C"
players 2..2
enum colour: red, blue
card c:
    colour: colour
    number: 1..4
    label: "{{colour}} {{number}}"
zone deck: shared, hidden
zone hand: per player, owner
zone pile: shared, public
var n: int = {default}
phase p:
    deal 2 from deck to hand starting with 0
    {stmt}
    trick in pile led by 0:
        each player plays card from hand[player] where {play}
        won by highest {key}
    next end
score: {score}
'''
OK = {"default": "0", "stmt": "n += 1", "play": "true", "key": "it.number", "score": "n"}


def _text(**change: str) -> str:
    return BASE.format(**(OK | change))


def test_the_base_is_valid_and_plays() -> None:
    state = rulesplay.loads(_text()).new_state(2)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])


@pytest.mark.parametrize(("change", "where"), [
    ({"stmt": '0 chooses x from hand[0] where x == random(hand[0]) "pick"'},
     "a choice's 'where' filter"),
    ({"stmt": '0 chooses x from [random(hand[0])] "pick"'}, "a choice's options"),
    ({"stmt": '0 chooses x from hand[0] "pick {random(deck).number}"'}, "a prompt"),
    # (of the player's own hand: a filter reading the hidden deck is refused for that too)
    ({"play": "card.number > random(hand[player]).number"}, "what may be played"),
    ({"key": "random(deck).number"}, "'won by'"),
    ({"score": "n + random(deck).number"}, "the score"),
])
def test_random_where_it_would_be_drawn_at_each_look_is_an_error(change: dict[str, str],
                                                                  where: str) -> None:
    with pytest.raises(RulesValidationError) as info:
        rulesplay.loads(_text(**change), file="c.rules")
    (diag,) = info.value.diagnostics
    assert diag.message.startswith(f"'random' draws at random, which {where} may not")
    assert diag.render().splitlines()[-1].strip().startswith("^")


@pytest.mark.parametrize("change", [
    {"stmt": "let x = random(deck)\n    n = x.number"},
    {"stmt": 'say "drawn: {random(deck).number}"'},
    {"default": "3"},
    {"stmt": "if random(deck).number > 2:\n        n = 1"},
])
def test_random_in_a_statement_is_fine(change: dict[str, str]) -> None:
    state = rulesplay.loads(_text(**change)).new_state(2, seed=4)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
