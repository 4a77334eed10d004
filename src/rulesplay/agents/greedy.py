"""``greedy``: one-step look-ahead on the ruleset's own score, over determinised samples.

For each legal action: take a determinisation of the hidden cards (:meth:`InfoSet.sample`),
apply the action, then finish the look-ahead with a short random rollout until this seat
decides again after some other seat has (so a card's effect on a trick shows), the game ends,
or ``depth`` decisions pass. The value is ``score[seat] - max(score of the others)`` (the
ruleset's ``score:`` expression; with ``teams:``, the others are the other teams' seats),
averaged over ``samples`` determinisations (the same ones for every action); ties are broken
by the agent's generator.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.choices import Action
from ..engine.state import State
from .base import LOOK_AHEAD, Agent, margin
from .draws import choice, copier
from .infoset import InfoSet

# What a spec may ask for (a spec can come from a shared save).
MAX_SAMPLES = 10_000
MAX_DEPTH = 10_000
MANY = 1_000  # more actions than this are looked at in a random order (see LOOK_AHEAD)


class GreedyAgent(Agent):
    """One-step look-ahead (spec ``greedy``, ``greedy:samples=4,depth=12``).

    Args:
        seat, seed: as for :class:`Agent`.
        samples: determinisations per decision (default 4).
        depth: most random decisions in the look-ahead rollout (default ``3 * players``).
    """

    name = "greedy"
    needs_samples = True

    def __init__(self, seat: int, seed: int = 0, samples: int = 4, depth: int = 0,
                 **params: Any) -> None:
        super().__init__(seat, seed, **params)
        if not (1 <= samples <= MAX_SAMPLES and 0 <= depth <= MAX_DEPTH) \
                or samples != int(samples) or depth != int(depth):
            raise ValueError(f"greedy: samples is a whole number from 1 to {MAX_SAMPLES}, "
                             f"depth from 0 to {MAX_DEPTH}")
        self.samples, self.depth = int(samples), int(depth)

    def value(self, s: State) -> float:
        """``score[seat] - max(score of the others)``; with teams, of the other teams'
        seats (a partner is no rival: :func:`~rulesplay.agents.base.margin`)."""
        return margin(s, self.seat)

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        legal = info.legal_actions
        if len(legal) == 1:
            return legal[0]
        depth = self.depth or 3 * info.num_players
        totals = [0.0] * len(legal)
        seat = self.seat
        if len(legal) > MANY:  # (a look-ahead its budget may stop: no bias to the first)
            legal = rng.sample(legal, len(legal))
        spent, done, finished = 0, totals, 0  # (done: the totals of the samples finished)
        for _ in range(self.samples):
            world = info.sample(rng)
            chance = copier(world.rng)  # each action's world starts from the same chance
            # Listed once for all the copies (each keeps the list), each action taken as
            # the world's own (found at once) or, failing that, by its id.
            own = {x.id: x for x in world.legal_actions()}
            spent += len(own)
            for i, a in enumerate(legal):
                s = world.copy_with_rng(None)
                s.rng = chance()
                s.apply(own.get(a.id, a.id))
                others_moved = False
                n = 0
                while not s.terminal and n < depth:
                    p = s.current_player()
                    if p == seat and others_moved:
                        break
                    others_moved = others_moved or p != seat
                    listed = s.legal_actions()
                    spent += len(listed) + 1
                    s.apply(choice(listed, rng))
                    n += 1
                totals[i] += self.value(s)
                spent += 1
                if spent > LOOK_AHEAD:  # (the look-ahead's budget: the best found so far)
                    return self._best(legal, done if finished else totals[:i + 1], rng)
            done, finished = totals[:], finished + 1
        return self._best(legal, totals, rng)

    @staticmethod
    def _best(legal: list[Action], totals: list[float], rng: random.Random) -> Action:
        """An action of ``legal`` whose total is highest (ties by ``rng``); ``totals`` may
        cover only the first actions (a look-ahead stopped by its budget)."""
        best = max(totals)
        return rng.choice([a for a, t in zip(legal, totals, strict=False) if t == best])
