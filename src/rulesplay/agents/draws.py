"""Random draws exactly as :class:`random.Random` makes them, for less time.

The bots draw in their innermost loops (a sampler shuffles every unknown card twice per
sample, a rollout chooses at every step). :func:`shuffle` (the engine's:
:mod:`rulesplay.engine.shuffles`) and :func:`choice` make the same calls to the generator as
``Random.shuffle`` and ``Random.choice`` (CPython's loop and its
``_randbelow_with_getrandbits`` in one function), so they give the same results and leave
the generator in the same state; :class:`LateSeeded` is a generator seeded only when first
used (most samples are played to the end without a chance event).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, TypeVar

from ..engine.shuffles import shuffle

__all__ = ["LateSeeded", "choice", "copier", "shuffle"]

T = TypeVar("T")


def choice(seq: list[T], rng: random.Random) -> T:
    """``rng.choice(seq)``: the same draw and the same element.

    Raises:
        IndexError: ``seq`` is empty.
    """
    n = len(seq)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    k = n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return seq[j]


class LateSeeded(random.Random):
    """``random.Random(seed)``, seeded (which costs more than copying a state of the game)
    only when something first draws from it, reads or sets its state: then it becomes a
    plain ``random.Random`` in place, exactly as if it had been seeded when made.

    Args:
        seed: an int seed, as for ``random.Random``.
    """

    def __init__(self, seed: int) -> None:  # (not seeded: see _start)
        self._seed = seed
        self.gauss_next = None

    # Every draw of random.Random goes through random() or getrandbits(). A method of
    # this class may still be called once it has started (a bound method kept in a loop:
    # Random.shuffle keeps getrandbits), hence the calls through random.Random.
    def random(self) -> float:
        _start(self)
        return random.Random.random(self)

    def getrandbits(self, k: int) -> int:
        _start(self)
        return random.Random.getrandbits(self, k)

    def getstate(self) -> Any:
        _start(self)
        return random.Random.getstate(self)

    def setstate(self, state: Any) -> None:
        _start(self)
        random.Random.setstate(self, state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        _start(self)
        random.Random.seed(self, a, version)

    def __reduce__(self) -> Any:
        _start(self)
        return random.Random.__reduce__(self)


def copier(g: random.Random) -> Callable[[], random.Random]:
    """A function that makes generators in the state ``g`` is in now (each draws what
    ``g`` would draw next). Copies of a :class:`LateSeeded` not yet started are late
    seeded too, so they cost nothing until one draws."""
    seed = g.__dict__.get("_seed") if type(g) is LateSeeded else None
    if seed is not None:
        return lambda: LateSeeded(seed)
    state = g.getstate()

    def copy() -> random.Random:
        twin = random.Random.__new__(random.Random)  # (Random() would seed itself first)
        twin.setstate(state)
        return twin

    return copy


def _start(g: random.Random) -> None:
    """Seed a :class:`LateSeeded` not yet seeded, and make it a plain ``random.Random``."""
    seed = g.__dict__.pop("_seed", None)
    if seed is not None:
        g.__class__ = random.Random  # (a subclass adding no slot: the same layout)
        random.Random.seed(g, seed)
