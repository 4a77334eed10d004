"""``Random.shuffle`` for less time: the same permutation, the generator left in the same state.

CPython's ``Random.shuffle(x)`` draws, for ``i`` from ``len(x) - 1`` down to 1, ``j =
_randbelow(i + 1)``, that is ``getrandbits(k)`` with ``k = (i + 1).bit_length()``, drawn
again while ``j > i``, and swaps ``x[i]`` and ``x[j]``. :func:`shuffle` makes those very
calls to ``getrandbits``, in the same order, without the two Python calls per card
(``shuffle`` to ``_randbelow``, ``_randbelow`` to ``getrandbits``), and works out ``k``
once for every run of positions that share it. A generator whose draws are its own (a
subclass answering ``_randbelow`` or ``shuffle`` itself, as the OpenSpiel adapter's chance
does) shuffles with its own ``shuffle``.
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["shuffle"]

Random = random.Random
_STOCK = Random._randbelow  # type: ignore[attr-defined]  # (private: not in typeshed)
_SHUFFLE = Random.shuffle


def shuffle(x: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(x)``: the same order of ``x`` and the same state of ``rng`` after.

    Args:
        x: the list, shuffled in place.
        rng: the generator (a :class:`random.Random`, or a subclass: one with its own
            ``_randbelow`` or ``shuffle`` shuffles with its own ``shuffle``).
    """
    if rng.__class__ is not Random:
        kind: Any = type(rng)
        if kind._randbelow is not _STOCK or kind.shuffle is not _SHUFFLE:
            rng.shuffle(x)
            return
    getrandbits = rng.getrandbits
    top = len(x) - 1
    while top > 0:
        k = (top + 1).bit_length()
        low = (1 << (k - 1)) - 1  # the positions top down to here draw k bits
        for i in range(top, low - 1, -1):
            j = getrandbits(k)
            while j > i:
                j = getrandbits(k)
            x[i], x[j] = x[j], x[i]
        top = low - 1
