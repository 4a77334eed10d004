"""A ``public`` card variable is seen by the seats that see its card (hostile review 13b,
finding 2): a bot's sample held its true value on cards its seat could not see, so a bot
learnt which card another seat had marked in secret. Samples now hold the declared default
on every card the seat does not see where it is now, as for a ``hidden`` card variable."""

from __future__ import annotations

import random

import pytest

import rulesplay
from rulesplay.agents import InfoSet, make_agent
from rulesplay.engine import observe

MARKED = '''game "Marked"
players 2..2

card c "c":
    n: 1..6
    copies: 1
    label: "c{n}"

zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone pile "pile": shared, public
card var mark "mark": int = 0 kept
player var pts "points": int = 0 hidden

phase main "Main":
    shuffle deck
    deal 2 from deck to hand starting with 0
    move top(deck) to pile
    top(pile).mark = 5
    1 secretly chooses s from hand[1] "mark one"
    s.mark = 1
    0 chooses x from bool "bet?"
    if x:
        pts[0] += 10 * (sum(deck, it.mark * it.n) + sum(hand[1], it.mark * it.n)) - 35
    next end

score: pts[player]
'''


def _at_bet(engine: str, pick: int) -> rulesplay.State:
    s = rulesplay.loads(MARKED, engine=engine).new_state(num_players=2, seed=4)
    s.apply(s.legal_actions()[pick])  # seat 1 marks one of its two cards
    assert s.current_player() == 0
    return s


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_samples_hold_the_default_on_cards_the_seat_cannot_see(engine: str) -> None:
    s = _at_bet(engine, 0)
    prog = s.program
    slot = prog.layout.cslot["mark"]
    for k in range(5):
        w = InfoSet(s, 0).sample(random.Random(k))
        for c in range(prog.num_cards):
            seen = observe.card_seers(w, c) & prog.seat_bit(0)
            assert w.cv[slot][c] == (s.cv[slot][c] if seen else 0)
    pile = prog.layout.zone_name.index("pile")
    assert w.cv[slot][w.zones[pile][-1]] == 5  # a card it sees keeps its mark
    assert "mark" not in str(observe.observation(s, 0)["card_vars"].get(
        prog.card_ids[s.zones[prog.layout.zone_name.index("deck")][0]], {}))


@pytest.mark.parametrize("spec", ["greedy:samples=8", "mcts:iterations=40"])
def test_which_card_was_marked_does_not_change_a_bots_bet(spec: str) -> None:
    picks = {make_agent(spec, 0, 3).step(_at_bet("compiled", pick)).id for pick in (0, 1)}
    assert len(picks) == 1
