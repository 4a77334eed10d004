"""``random``: uniform over the legal actions, with the agent's own generator."""

from __future__ import annotations

import random

from ..engine.choices import Action
from ..engine.state import State
from .base import Agent
from .draws import choice
from .infoset import InfoSet


class RandomAgent(Agent):
    """Chooses uniformly among the legal actions (spec ``random``)."""

    name = "random"

    def step(self, info: InfoSet | State, rng: random.Random | None = None) -> Action:
        """As :meth:`Agent.step`; given the true state, it reads only the seat's legal
        actions (what its information set would hold) and builds no information set, as
        a simulation asks this at every decision."""
        if isinstance(info, State) and info.pending is not None \
                and info.pending[0] == self.seat:
            return choice(info.legal_actions(), rng or self.rng)
        return super().step(info, rng)

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        return rng.choice(info.legal_actions)
