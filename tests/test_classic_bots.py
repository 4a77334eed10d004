"""Every classic game (rulesets/classics/, and its variants) plays to the end at every player
count with the three bots at the table (issue 12: "plays to the end at every player count
with random, greedy and mcts bots"): one game per game and player count, greedy in seat 0,
mcts (8 iterations a decision) in seat 1, random in the others. The game must end, each bot
must have decided something, the winners must be the seats with the best score (no classic
has a tie-breaker) and the ruleset's own end condition must hold.

Shortened forms, so that the suite stays fast (each by the ruleset's options, one game per
player count): one hand of Hearts, Crazy Eights and Euchre (target 1), Whist to 1 point,
one board of Bridge, two deals of Oh Hell (2 cards, then 1), two hands of President (the
second has the exchange), Spades to 100 (the smallest target). Times of the full games are
measured in the report of these tests' commit, not here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import ROOT

import rulesplay
from rulesplay.agents import make_agent

CLASSICS = ROOT / "rulesets" / "classics"


def _most(state: rulesplay.State, name: str) -> int:
    return max(state.var(name, q) for q in range(state.num_players))


def _least(state: rulesplay.State, name: str) -> int:
    return min(state.var(name, q) for q in range(state.num_players))


# ruleset (relative to rulesets/classics) -> (shortening options, its end condition)
SHORT: dict[str, tuple[dict[str, Any], Callable[[rulesplay.State], bool]]] = {
    "bridge": ({"boards": 1}, lambda s: s.var("board") == 2),
    "crazy_eights": ({"target": 1}, lambda s: _most(s, "points") >= 1),
    "euchre": ({"target": 1}, lambda s: _most(s, "points") >= 1),
    "hearts": ({"target": 1}, lambda s: _most(s, "points") >= 1),
    "oh_hell": ({"max_cards": 2, "sequence": "down"}, lambda s: s.var("deal_number") == 3),
    "president": ({"hands": 2}, lambda s: s.var("hand_number") == 3),
    "spades": ({"target": 100},
               lambda s: _most(s, "points") >= 100 or _least(s, "points") <= -200),
    "whist": ({"game_points": 1}, lambda s: _most(s, "points") >= 1),
    "variants/crazy_eights_openspiel": ({}, lambda s: _most(s, "points") >= 1),
    "variants/spades_openspiel": ({"target": 100},
                                  lambda s: _most(s, "points") >= 100
                                  or _least(s, "points") <= -200),
}


def _cases() -> list[tuple[str, int]]:
    cases = []
    for name, (options, _) in SHORT.items():
        lo, hi = rulesplay.load(CLASSICS / f"{name}.rules", options=options).player_range
        cases += [(name, n) for n in range(lo, hi + 1)]
    return cases


def test_every_classic_is_here() -> None:
    shipped = {p.relative_to(CLASSICS).with_suffix("").as_posix()
               for p in [*CLASSICS.glob("*.rules"), *CLASSICS.glob("variants/*.rules")]}
    assert shipped == set(SHORT)


@pytest.mark.parametrize(("name", "players"), _cases(), ids=lambda x: str(x))
def test_plays_to_the_end_with_every_bot(name: str, players: int) -> None:
    options, ended = SHORT[name]
    state = rulesplay.load(CLASSICS / f"{name}.rules", options=options).new_state(
        num_players=players, seed=players)
    bots = {0: make_agent("greedy", 0, players), 1: make_agent("mcts:iterations=8", 1, players)}
    bots |= {q: make_agent("random", q, players) for q in range(2, players)}
    decided = [0] * players
    while not state.is_terminal():
        seat = state.current_player()
        state.apply(bots[seat].step(state))
        decided[seat] += 1
    assert decided[0] > 0 and decided[1] > 0, decided
    assert ended(state)
    scores = state.scores()
    assert len(scores) == players
    assert state.winners() == [q for q in range(players) if scores[q] == max(scores)]
