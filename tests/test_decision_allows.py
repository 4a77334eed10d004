"""What the bots' sampler asks instead of the engine's whole answers says the same:
``Decision.allows`` (one action tested alone) what the legal list says, for every action of a
decision, in real games and with cards moved about; ``told_history`` kept from decision to
decision what the history worked out afresh says."""

from __future__ import annotations

import random

import pytest
from conftest import RULESETS, load_game

from rulesplay import State
from rulesplay.engine.actions import Action
from rulesplay.engine.observe import concealment, told_history
from rulesplay.engine.state import FAULTS

GAMES = [("bargain_hunter", 4), ("card_hunt", 4), ("bargain_bin", 5), ("bargain_quest", 3),
         ("variants/bargain_hunter_blind_bargain", 4)]


def _actions(s: State) -> list[Action]:
    """Every action the pending decision has made so far: legal ones and others (each
    card's play or pick, every value listed before)."""
    node = s.program.nodes[s.pending[1]]
    cache = node.actions
    return [*cache.by_card, *cache.cache.values(), *s.legal_actions()]


def _agree(s: State) -> int:
    node = s.program.nodes[s.pending[1]]
    legal = {a.id for a in node.legal(s)}
    for a in _actions(s):
        assert node.allows(s, a) == (a.id in legal), (a.id, sorted(legal))
    return len(legal)


@pytest.mark.parametrize("name, players", GAMES)
def test_allows_agrees_with_the_legal_list(name: str, players: int) -> None:
    game = load_game(RULESETS / f"{name}.rules")
    rng = random.Random(3)
    for seed in (1,):
        s = game.new_state(players, seed)
        while not s.terminal:
            _agree(s)
            # The same state with two cards swapped between zones (as a sampler's rebuilt
            # past): a card may leave a hand or join it.
            w = s.clone()
            a, b = rng.sample(range(s.program.num_cards), 2)
            za, zb = w.where[a], w.where[b]
            ia, ib = w.zones[za].index(a), w.zones[zb].index(b)
            w.zones[za][ia], w.zones[zb][ib] = b, a
            w.where[a], w.where[b] = zb, za
            w._legal = None
            try:
                _agree(w)
            except FAULTS:  # a swap may leave a state no rule expects: no listing then
                pass
            s.apply(rng.choice(s.legal_actions()))


def test_told_history_kept_along_a_game_is_the_one_worked_out_afresh() -> None:
    game = load_game(RULESETS / "bargain_quest.rules")  # secret choices, unseen cards
    s = game.new_state(3, 4)
    rng = random.Random(4)
    kept = [told_history(s, seat) for seat in range(3)]
    hidden = 0
    while not s.terminal:
        for seat in range(3):
            told = told_history(s, seat, kept[seat])
            assert told == told_history(s, seat)
            assert concealment(s, seat, (told[0][:], dict(told[1]))) == concealment(s, seat)
            hidden += sum(aid.endswith(":?") for _, aid in told[0])
        s.apply(rng.choice(s.legal_actions()))
    assert hidden  # some choices were unknown to some seat
