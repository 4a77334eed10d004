"""A game plays to the same state whether it records its events, only counts them
(``simulate``) or keeps none (playouts, the bots' look-ahead): the compiled engine moves
cards and deals by other code when no event is recorded (issue 10), and that code must
keep what the recorded path keeps, among it who saw each chosen card arrive
(``unseen_choices``), the work spent and the card variables."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulesplay.engine.game import load

ROOT = Path(__file__).resolve().parents[1]
RULESETS = [p for folder in ("", "variants", "classics", "classics/variants")
            for p in sorted((ROOT / "rulesets" / folder).glob("*.rules"))]


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_a_game_keeps_the_same_state_with_or_without_events(path: Path) -> None:
    game = load(path)
    lo, hi = game.player_range
    for players in sorted({lo, hi}):
        recorded = game.new_state(players, 1, record_events=True)
        counted = game.new_state(players, 1, record_events="counts")
        bare = game.new_state(players, 1)
        rng = random.Random(1)
        while not recorded.is_terminal():
            action = rng.choice(recorded.legal_actions()).id
            for s in (recorded, counted, bare):
                s.apply(action)
        for s in (counted, bare):
            assert s.is_terminal() and s.history == recorded.history
            assert s.unseen_choices == recorded.unseen_choices
            assert (s.zones, s.where, s.cv) == (recorded.zones, recorded.where, recorded.cv)
            assert (s.run_work, s.steps) == (recorded.run_work, recorded.steps)
