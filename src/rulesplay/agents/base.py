"""The agent protocol: ``step(infoset, rng) -> Action``, given only what the seat may know."""

from __future__ import annotations

import random
from typing import Any

from ..engine.choices import Action
from ..engine.state import State
from .infoset import InfoSet, Tracker


class Agent:
    """A player that chooses actions for one seat.

    Args:
        seat: the seat it plays.
        seed: seeds its own generator (``self.rng``), so a game replays exactly.

    Subclasses implement :meth:`choose`. :meth:`step` accepts an :class:`InfoSet` (built by a
    driver) or the true :class:`State`, from which the agent's own :class:`Tracker` builds
    the infoset, so the agent never looks at the state itself.
    """

    name = "agent"
    needs_samples = False

    def __init__(self, seat: int, seed: int = 0, **params: Any) -> None:
        if params:
            raise ValueError(f"bot '{self.name}' takes no parameter "
                             f"{', '.join(sorted(params))}")
        self.seat = seat
        self.rng = random.Random(f"rulesplay-agent/{seed}/{seat}")
        self.tracker = Tracker(seat)

    def infoset(self, state: State) -> InfoSet:
        """The information set of this agent's seat at the true ``state``."""
        if self.needs_samples:
            return self.tracker.infoset(state)
        return InfoSet(state, self.seat)

    def step(self, info: InfoSet | State, rng: random.Random | None = None) -> Action:
        """The action to take.

        Args:
            info: the seat's :class:`InfoSet`, or the true state (the infoset is built from
                it; only the seat's view is used).
            rng: generator to use; default the agent's own.

        Raises:
            ValueError: it is not this seat's decision (or the game is over).
        """
        if isinstance(info, State):
            if info.current_player() != self.seat:
                raise ValueError(f"it is not seat {self.seat}'s turn")
            info = self.infoset(info)
        if not info.legal_actions:
            raise ValueError("no legal action: the game is over")
        return self.choose(info, rng or self.rng)

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        """Pick one of ``info.legal_actions`` (subclasses)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={self.seat})"


# What greedy's look-ahead may cost at one decision, in actions listed or played in the
# worlds it plays out: over it, the bot stops looking and plays the best it has found so far
# (a choice among 100,000 numbers took it minutes a decision; now under 1 s). The shipped
# games need well under 1 million (the most, Hearts' pass at 3 players: 680 sets of three,
# 4 samples). mcts is bounded by its own 'iterations' or 'seconds'.
LOOK_AHEAD = 5_000_000


def rollout(state: State, rng: random.Random, stop: Any = None, limit: int = 1_000_000) -> int:
    """Play uniformly random actions on ``state`` until the end, ``stop(state)`` is true, or
    ``limit`` decisions; returns the number of decisions made."""
    n = 0
    while not state.terminal and n < limit and not (stop is not None and stop(state)):
        state.apply(rng.choice(state.legal_actions()))
        n += 1
    return n


# ------------------------------------------------------------ what a seat plays for
# A seat plays for its team (``teams:``; each seat alone without it): the bots' rewards
# give a partner's win to the seat as its own, and count only the other teams as rivals.
def win_shares(s: State) -> list[float]:
    """Each seat's share of a finished game's win: ``1/k`` to every seat of each of the
    ``k`` winning teams (a team's win is one win, its seats' own; no winner: all 0)."""
    winners, lay = s.winners(), s.program.layout
    out = [0.0] * s.num_players
    if not lay.teamed:  # (bots ask this after every playout: the short way)
        for w in winners:
            out[w] = 1.0 / len(winners)
        return out
    won = {lay.team_of[w] for w in winners}
    return [1.0 / len(won) if lay.team_of[p] in won else 0.0 for p in range(s.num_players)]


def margin(s: State, seat: int) -> float:
    """``score[seat] - max(score of the seats of other teams)`` (0 for the others when
    every seat is in ``seat``'s team): how far ahead of its rivals ``seat`` is."""
    scores, team_of = s.scores(), s.program.layout.team_of
    rivals = [v for p, v in enumerate(scores) if team_of[p] != team_of[seat]]
    return float(scores[seat] - (max(rivals) if rivals else 0))
