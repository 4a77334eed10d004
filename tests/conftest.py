"""Shared helpers for the tests: load a ruleset once per option set, apply actions by id."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import rulesplay
from rulesplay import Game, State

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ROOT / "rulesets"
BARGAIN_HUNTER = RULESETS / "bargain_hunter.rules"


@functools.cache
def _load(path: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return rulesplay.load(path, options=dict(options))


def load_game(path: Path | str = BARGAIN_HUNTER, **options: Any) -> Game:
    """The game at ``path`` with ``options``, loaded once per distinct option set.

    Raises:
        RulesError: the ruleset does not load; OptionError for a bad option.
    """
    return _load(str(path), tuple(sorted(options.items())))


def new_state(players: int, seed: int = 0, path: Path | str = BARGAIN_HUNTER,
              **options: Any) -> State:
    """A new game (events recorded) of the ruleset at ``path``, stopped at its first decision."""
    return load_game(path, **options).new_state(num_players=players, seed=seed,
                                                record_events=True)


def play(state: State, *action_ids: str) -> State:
    """Apply ``action_ids`` in order (each must be legal for the current player)."""
    for action_id in action_ids:
        state.apply(action_id)
    return state


def legal(state: State) -> set[str]:
    """The ids of the legal actions now."""
    return {a.id for a in state.legal_actions()}


def events(state: State, kind: str) -> list[dict[str, Any]]:
    """The recorded events of type ``kind`` ("trick", "move", "phase", ...)."""
    assert state.events is not None
    return [e for e in state.events if e["type"] == kind]


def plays_to_the_end(game: Game, seed: int = 1) -> None:
    """Play ``game`` with random moves (seeded) at its fewest and most players, asserting
    each game ends with a score per seat (the check every documented example meets)."""
    import random

    lo, hi = game.player_range
    rng = random.Random(seed)
    for players in sorted({lo, hi}):
        state = game.new_state(num_players=players, seed=seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        assert len(state.scores()) == players
