"""``random``: uniform over the legal actions, with the agent's own generator."""

from __future__ import annotations

import random

from ..engine.choices import Action
from .base import Agent
from .infoset import InfoSet


class RandomAgent(Agent):
    """Chooses uniformly among the legal actions (spec ``random``)."""

    name = "random"

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        return rng.choice(info.legal_actions)
