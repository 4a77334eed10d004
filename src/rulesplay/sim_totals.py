"""The running totals of a simulation: what ``simulate`` reports, gathered game by game as
the games finish, so that its memory does not grow with the number of games (``-n
200000000`` kept a record of about 630 bytes a game). Sums are exact (whole numbers and
fractions), so the totals do not depend on the order the workers finish in. ``compare``'s
paired statistics come from :class:`Pairs`, the same kind of totals over the base's and
the variant's games of each seed.
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


class Paired:
    """Exact running totals of pairs ``(x, y)`` (a base's and a variant's value of one
    measure in the games of one seed): how many, the sums of ``x``, ``y``, their squares and
    of ``x * y``. They give the mean and variance of the differences ``y - x`` and the
    correlation of ``x`` and ``y``, however many pairs came."""

    __slots__ = ("n", "sx", "sy", "sxx", "syy", "sxy")

    def __init__(self) -> None:
        self.n = 0
        self.sx: Fraction = Fraction(0)
        self.sy: Fraction = Fraction(0)
        self.sxx: Fraction = Fraction(0)
        self.syy: Fraction = Fraction(0)
        self.sxy: Fraction = Fraction(0)

    def add(self, x: Fraction | int, y: Fraction | int) -> None:
        """Count one more pair: the base's value ``x``, the variant's ``y``."""
        self.n += 1
        self.sx += x
        self.sy += y
        self.sxx += x * x
        self.syy += y * y
        self.sxy += x * y

    def mean_difference(self) -> float:
        """The mean of ``y - x`` (0.0 with no pair)."""
        return float((self.sy - self.sx) / self.n) if self.n else 0.0

    def difference_variance(self) -> float:
        """The sample variance of ``y - x`` (0.0 with fewer than two pairs), exact until
        rounded to a float."""
        n = self.n
        if n < 2:
            return 0.0
        sdd = self.syy - 2 * self.sxy + self.sxx
        sd = self.sy - self.sx
        return float((n * sdd - sd * sd) / (n * (n - 1)))

    def cross(self) -> tuple[Fraction, Fraction]:
        """``(n * sum xy - sum x * sum y, (n * sum xx - (sum x)^2) * (n * sum yy - (sum y)^2))``:
        the covariance and the product of the variances of ``x`` and ``y``, each times
        ``n^2``; for 0/1 values, Newcombe's ``AD - BC`` and ``EFGH`` of the pairs' 2x2
        table."""
        n = self.n
        return (n * self.sxy - self.sx * self.sy,
                (n * self.sxx - self.sx * self.sx) * (n * self.syy - self.sy * self.sy))


class Pairs:
    """The running totals of a comparison's games paired by seed (see
    :func:`rulesplay.sim.compare`): per measure, a :class:`Paired`, and how many seeds
    gave the same game under both rulesets. Memory does not grow with the pairs.

    Args:
        players: seats.
        sides: per seat, the index of its side in the base (as :class:`Totals`); a seat
            wins ``1/k`` of a game that ``k`` sides won.
        variant_sides: the same in the variant (its teams may differ).
    """

    def __init__(self, players: int, sides: list[int], variant_sides: list[int]) -> None:
        self.players, self.sides, self.variant_sides = players, sides, variant_sides
        self.n = self.same = 0
        self.measures: dict[str, Paired] = {}

    def _add(self, key: str, x: Fraction | int, y: Fraction | int) -> None:
        self.measures.setdefault(key, Paired()).add(x, y)

    def add(self, a: GameRecord, b: GameRecord) -> None:
        """Count the games ``a`` (the base's) and ``b`` (the variant's) of one seed."""
        self.n += 1
        self.same += _played_alike(a, b)
        wa, wb = _win_shares(a, self.sides), _win_shares(b, self.variant_sides)
        for p in range(self.players):
            self._add(f"win:{p}", wa[p], wb[p])
            self._add(f"score:{p}", a.scores[p], b.scores[p])
        self._add("first", wa[a.first], wb[b.first])
        self._add("spread", max(a.scores) - min(a.scores), max(b.scores) - min(b.scores))
        for name in ("decisions", "tricks", "rounds"):
            self._add(name, getattr(a, name), getattr(b, name))
        self._add("ties", int(a.outcome == "tie"), int(b.outcome == "tie"))

    def measure(self, key: str) -> Paired:
        """The pairs of one measure: ``win:P`` (seat ``P``'s share of the win: with teams,
        its team's), ``score:P``, ``first`` (the first decider's share), ``spread``,
        ``decisions``, ``tricks``, ``rounds`` or ``ties`` (1 for a tie)."""
        return self.measures.setdefault(key, Paired())

    def identical(self) -> bool:
        """Whether every seed gave the same game under both rulesets (scores, winners,
        who decided first, how it ended, decisions, tricks and rounds), with one seed at
        least."""
        return self.n > 0 and self.same == self.n


def _win_shares(g: GameRecord, sides: list[int]) -> list[Fraction]:
    """Per seat, its share of game ``g``'s win: ``1/k`` when its side is one of the ``k``
    winning sides, else 0."""
    won = {sides[w] for w in g.winners}
    share = Fraction(1, len(won)) if won else Fraction(0)
    return [share if side in won else Fraction(0) for side in sides]


def _played_alike(a: GameRecord, b: GameRecord) -> bool:
    """The two games of a seed measured the same in everything a comparison looks at."""
    return (a.scores, a.winners, a.first, a.outcome, a.decisions, a.tricks, a.rounds) == \
        (b.scores, b.winners, b.first, b.outcome, b.decisions, b.tricks, b.rounds)
