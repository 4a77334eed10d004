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
import re
from dataclasses import dataclass
from typing import Any

from ..errors import did_you_mean
from .base import Agent, rollout
from .greedy import MAX_DEPTH, MAX_SAMPLES, GreedyAgent
from .infoset import InfoSet, Tracker
from .mcts import MAX_C, MAX_ITERATIONS, MAX_SECONDS, MctsAgent
from .random import RandomAgent

__all__ = ["AGENTS", "PARAMS", "Agent", "GreedyAgent", "InfoSet", "MctsAgent", "Param",
           "RandomAgent", "Tracker", "make_agent", "parse_spec", "rollout", "specs_help"]

AGENTS: dict[str, type[Agent]] = {"random": RandomAgent, "greedy": GreedyAgent,
                                  "mcts": MctsAgent}


@dataclass(frozen=True)
class Param:
    """One parameter a bot spec may give: its kind and the values it allows.

    Attributes:
        kind: ``int`` (whole numbers written in digits), ``float`` (a finite decimal) or
            ``str`` (one of ``choices``).
        low, high: the smallest and largest allowed number (``low`` excluded when
            ``above`` is true).
        choices: the allowed words of a ``str`` parameter.
        above: ``low`` itself is not allowed (a time must be more than 0).
    """

    kind: type
    low: float = 0
    high: float = 0
    choices: tuple[str, ...] = ()
    above: bool = False

    def allowed(self) -> str:
        """The allowed values, as a message says them."""
        if self.kind is str:
            return " or ".join(self.choices)
        low, high = (f"{int(x)}" if x == int(x) else f"{x}" for x in (self.low, self.high))
        if self.kind is int:
            return f"a whole number from {low} to {high}"
        return f"a number {'above' if self.above else 'from'} {low} " \
               f"{'and at most' if self.above else 'to'} {high}"

    def read(self, text: str) -> Any:
        """The value ``text`` stands for, or None when it is not allowed."""
        value: Any
        if self.kind is str:
            return text if text in self.choices else None
        if not text.isascii():  # (int() and float() take other scripts' digits too)
            return None
        if self.kind is int:
            if not re.fullmatch(r"[+-]?[0-9]{1,18}", text):
                return None
            value = int(text)
        else:
            try:
                value = float(text)
            except ValueError:
                return None
            if not math.isfinite(value):
                return None
        ok = (value > self.low if self.above else value >= self.low) and value <= self.high
        return value if ok else None


# Every parameter of every bot, checked here (the one place) before any bot is built.
PARAMS: dict[str, dict[str, Param]] = {
    "random": {},
    "greedy": {"samples": Param(int, 1, MAX_SAMPLES), "depth": Param(int, 0, MAX_DEPTH)},
    "mcts": {"iterations": Param(int, 1, MAX_ITERATIONS),
             "seconds": Param(float, 0, MAX_SECONDS, above=True),
             "c": Param(float, 0, MAX_C), "reward": Param(str, choices=("win", "score"))},
}


def specs_help() -> str:
    """Every bot with its parameters, for a command's help: ``random; greedy[:samples=...,
    depth=...]; ...``."""
    return "; ".join(name + (f"[:{','.join(f'{k}=...' for k in params)}]" if params else "")
                     for name, params in PARAMS.items())


def parse_spec(spec: str, allowed: dict[str, dict[str, Param]] | None = None,
               others: tuple[str, ...] = ()) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value,key=value"`` into the name and typed parameters, each
    checked against ``allowed`` (:data:`PARAMS` by default, or narrower bounds such as a
    server's): its kind and allowed values. Numbers are written in ASCII digits.

    Args:
        spec: the bot spec as typed.
        allowed: the bots and parameters taken (default :data:`PARAMS`).
        others: names the caller takes besides bots (``human`` for a seat), listed and
            suggested when the name is no bot's; the caller handles them before this.

    Raises:
        ValueError: an unknown bot (the message suggests a close name and lists the ones
            taken) or parameter (the message lists the known ones), a ':' with no
            parameters after it, an empty parameter, a parameter without ``=`` or given
            twice, or a value the parameter does not allow (the message says what it
            allows).
    """
    name, colon, rest = spec.strip().partition(":")
    name = name.strip().lower()
    bots = [*AGENTS, *others]
    if name not in AGENTS:
        raise ValueError(f"unknown bot '{name}'{did_you_mean(name, bots)}; available: "
                         f"{', '.join(bots)}")
    known = (PARAMS if allowed is None else allowed).get(name, {})
    listed = ", ".join(f"{k} ({p.allowed()})" for k, p in known.items())
    parts = [p.strip() for p in rest.split(",")] if colon else []
    if colon and not any(parts):  # 'mcts:' is a spec cut short, not the default bot
        raise ValueError(f"bot '{spec.strip()}': nothing follows ':'; "
                         + (f"give key=value after it ({listed}) or leave the ':' out"
                            if listed else f"'{name}' takes no parameters: leave the ':' out"))
    params: dict[str, Any] = {}
    for part in parts:
        key, eq, text = (x.strip() for x in part.partition("="))
        if not part:
            raise ValueError(f"bot '{spec.strip()}': an empty parameter between commas")
        if not eq or not key:
            raise ValueError(f"bot '{spec}': parameters are key=value (got '{part}')")
        if key not in known:
            seed = "; a bot's generator is seeded from the game's seed and its seat" \
                if key == "seed" else ""
            raise ValueError(f"bot '{name}' has no parameter '{key}'" + did_you_mean(key, known)
                             + (f"; its parameters: {listed}" if listed else
                                "; it takes no parameters") + seed)
        if key in params:
            raise ValueError(f"bot '{spec}': {key} is given twice")
        value = known[key].read(text)
        if value is None:
            digits = " written with the digits 0-9" \
                if known[key].kind is not str and not text.isascii() else ""
            raise ValueError(f"bot '{spec}': {key} must be {known[key].allowed()}{digits}, "
                             f"not '{text}'")
        params[key] = value
    return name, params


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
