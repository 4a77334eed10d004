"""The running totals of a simulation: what ``simulate`` reports, gathered game by game as
the games finish, so that its memory does not grow with the number of games (``-n
200000000`` kept a record of about 630 bytes a game). Sums are exact (whole numbers and
fractions), so the totals do not depend on the order the workers finish in.
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .sim import GameRecord


class Moments:
    """Exact running totals of whole numbers: how many, their sum and sum of squares, and
    how often each value came (a histogram: as many entries as distinct values)."""

    __slots__ = ("n", "total", "squares", "counts")

    def __init__(self) -> None:
        self.n = self.total = self.squares = 0
        self.counts: Counter[int] = Counter()

    def add(self, value: int) -> None:
        """Count one more ``value``."""
        self.n += 1
        self.total += value
        self.squares += value * value
        self.counts[value] += 1

    def mean(self) -> float:
        """The mean (0.0 with no value), as ``statistics.fmean`` of the values gives it (the
        sum rounded to a float, then divided)."""
        return float(self.total) / self.n if self.n else 0.0

    def _exact_variance(self) -> Fraction:
        n = self.n
        return Fraction(n * self.squares - self.total * self.total, n * (n - 1)) \
            if n > 1 else Fraction(0)

    def variance(self) -> float:
        """The sample variance (0.0 with fewer than two values), correctly rounded (as
        ``statistics.variance`` of the values)."""
        return float(self._exact_variance())

    def sd(self) -> float:
        """The sample standard deviation, correctly rounded (as ``statistics.stdev``)."""
        v = self._exact_variance()
        return _sqrt_of_fraction(v.numerator, v.denominator)


_SQRT_BITS = 2 * sys.float_info.mant_dig + 3


def _sqrt_of_fraction(n: int, m: int) -> float:
    """The square root of ``n/m`` as a float, correctly rounded: Python's own way in
    ``statistics.stdev`` (round to odd on enough bits, then one rounding to a float), so
    that a standard deviation from totals is the one from the list of values."""
    def root_to_odd(a: int, b: int) -> int:
        r = math.isqrt(a // b)
        return r | (r * r * b != a)
    q = (n.bit_length() - m.bit_length() - _SQRT_BITS) // 2
    if q >= 0:
        return (root_to_odd(n, m << 2 * q) << q) / 1
    return root_to_odd(n << -2 * q, m) / (1 << -q)

    def distinct(self) -> int:
        """How many different values came."""
        return len(self.counts)


class Totals:
    """The totals of the games of one simulation (see :class:`~rulesplay.sim.Result`).

    Args:
        players: seats.
        sides: per seat, the index of its side (its team; each seat its own without
            teams): a win shared by ``k`` sides counts ``1/k`` for each.
    """

    def __init__(self, players: int, sides: list[int]) -> None:
        self.players, self.sides = players, sides
        self.n = 0
        self.scores = [Moments() for _ in range(players)]
        self.spread, self.decisions, self.tricks, self.rounds = \
            Moments(), Moments(), Moments(), Moments()
        self.seconds = 0.0
        # wins by how many sides shared them: side -> {k: wins shared by k sides}
        self._wins: list[Counter[int]] = [Counter() for _ in range(max(sides, default=0) + 1)]
        self._first: Counter[int] = Counter()
        self.outcomes: Counter[str] = Counter()
        self.repeats: Counter[str] = Counter()  # phase first begun twice -> games

    def add(self, g: GameRecord) -> None:
        """Count game ``g``."""
        self.n += 1
        for p, v in enumerate(g.scores):
            self.scores[p].add(v)
        self.spread.add(max(g.scores) - min(g.scores))
        self.decisions.add(g.decisions)
        self.tricks.add(g.tricks)
        self.rounds.add(g.rounds)
        self.seconds += g.seconds
        won = {self.sides[w] for w in g.winners}
        for side in won:
            self._wins[side][len(won)] += 1
        if self.sides[g.first] in won:
            self._first[len(won)] += 1
        self.outcomes[g.outcome] += 1
        if g.repeats:
            self.repeats[g.repeats] += 1

    def wins(self, side: int) -> Fraction:
        """The games side ``side`` won, a win shared by ``k`` sides counting ``1/k``."""
        return sum((Fraction(c, k) for k, c in self._wins[side].items()), Fraction(0))

    def first_wins(self) -> Fraction:
        """The games the side of the seat that decided first won (shared: ``1/k``)."""
        return sum((Fraction(c, k) for k, c in self._first.items()), Fraction(0))

    def measure(self, name: str) -> Moments:
        """``decisions``, ``tricks``, ``rounds`` or ``spread``."""
        found: Moments = getattr(self, name)
        return found
