"""Agents: players that choose actions for one seat, given only what that seat may know.

Each agent's ``step(infoset, rng) -> Action`` sees an :class:`InfoSet` (observation, legal
actions, public history, and :meth:`InfoSet.sample` for determinisations), never the true
state. ``step(state)`` also works: the agent's own :class:`Tracker` builds the infoset.

Build one from a spec with :func:`make_agent`::

    make_agent("random", seat=0, seed=1)
    make_agent("greedy:samples=4", seat=1, seed=1)
    make_agent("mcts:iterations=500", seat=2, seed=1)
    make_agent("mcts:seconds=0.5,c=1.0,reward=score", seat=3, seed=1)
"""

from __future__ import annotations

import math
from typing import Any

from .base import Agent, rollout
from .greedy import GreedyAgent
from .infoset import InfoSet, Tracker
from .mcts import MctsAgent
from .random import RandomAgent

__all__ = ["AGENTS", "Agent", "GreedyAgent", "InfoSet", "MctsAgent", "RandomAgent", "Tracker",
           "make_agent", "parse_spec", "rollout"]

AGENTS: dict[str, type[Agent]] = {"random": RandomAgent, "greedy": GreedyAgent,
                                  "mcts": MctsAgent}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value,key=value"`` into the name and typed parameters.

    Values become int, then float, else stay text.

    Raises:
        ValueError: an unknown agent name or a parameter without ``=``.
    """
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name not in AGENTS:
        raise ValueError(f"unknown bot '{name}'; available: {', '.join(AGENTS)}")
    params: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"bot '{spec}': parameters are key=value (got '{part}')")
        params[key.strip()] = _number(value.strip())
        if isinstance(params[key.strip()], float) and not math.isfinite(params[key.strip()]):
            raise ValueError(f"bot '{spec}': {key.strip()} must be a finite number")
    return name, params


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_agent(spec: str, seat: int, seed: int) -> Agent:
    """The agent described by ``spec`` for ``seat``, its generator seeded from ``seed``.

    Args:
        spec: ``random``, ``greedy``, ``mcts``, optionally with ``:key=value,...``
            (``mcts:iterations=500``, ``mcts:seconds=0.5``, ``greedy:samples=8``).
        seat: the seat it plays.
        seed: seed for its own generator (combined with the seat).

    Raises:
        ValueError: unknown agent, parameter, or a bad parameter value.
    """
    name, params = parse_spec(spec)
    try:
        return AGENTS[name](seat, seed, **params)
    except TypeError as exc:
        raise ValueError(f"bot '{spec}': {exc}") from None
