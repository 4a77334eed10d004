"""What a ``compare`` verdict must say besides its findings: how the two rulesets are
related (:func:`kinship`: is the second a variant of the first at all?) and how small a
difference its games could show (:func:`smallest_clear`: too few games find only large
differences, and "no clear difference" then says little).

Statistics: each compared measure has a 95% interval whose half-width is 1.96 standard
errors. Holm's correction over ``m`` measures calls the first of them clear only when its
two-sided p-value is at most ``alpha / m``, i.e. when the difference is at least
``z(1 - alpha / 2m)`` standard errors; with no clear difference that is the bar every measure
failed. A standard error shrinks as one over the square root of the games, so four times
as many games halve it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .words import counted

__all__ = ["Kinship", "Threshold", "kinship", "kinship_note", "power_note",
           "ranking_note", "smallest_clear"]

Z95 = statistics.NormalDist().inv_cdf(0.975)

# Relations of a compared pair (:func:`kinship`).
SAME, VARIANT, REVERSED, SIBLINGS, UNRELATED = "same", "variant", "reversed", "siblings", \
    "unrelated"


@dataclass(frozen=True)
class Kinship:
    """How the second ruleset of a comparison is related to the first.

    Attributes:
        relation: ``"same"`` (one file twice), ``"variant"`` (the second extends or includes
            the first, directly or through other files), ``"reversed"`` (the first is built
            on the second), ``"siblings"`` (neither, but both are built on a common file)
            or ``"unrelated"`` (no file in common: two different games).
        common: for ``"siblings"``, the file both are built on (else None).
    """

    relation: str
    common: str | None = None


def kinship(base_files: Sequence[str], variant_files: Sequence[str]) -> Kinship:
    """The relation of two rulesets from the files each was read from.

    Args:
        base_files: every file the base was composed from, its own file first (the keys of
            ``Checked.sources``).
        variant_files: the same for the variant.

    Returns:
        A :class:`Kinship`; files are compared by their resolved paths.
    """
    base = [Path(f).resolve() for f in base_files]
    variant = [Path(f).resolve() for f in variant_files]
    if not base or not variant:
        return Kinship(UNRELATED)
    if base[0] == variant[0]:
        return Kinship(SAME)
    if base[0] in variant:
        return Kinship(VARIANT)
    if variant[0] in base:
        return Kinship(REVERSED)
    common = next((f for f in variant if f in set(base)), None)
    return Kinship(SIBLINGS, common.name) if common is not None else Kinship(UNRELATED)


def kinship_note(kin: Kinship, base: str, variant: str) -> str | None:
    """A sentence on what the comparison means when the second ruleset is not a variant of
    the first (None when it is one, or the same file); ``base`` and ``variant`` name them."""
    if kin.relation == REVERSED:
        return (f"Note: the first, {base}, is built on the second, {variant}: they are "
                "given the wrong way round, so each difference below is the opposite of "
                "what the house rule does (name the base first).")
    if kin.relation == SIBLINGS:
        return (f"Note: {variant} is not a variant of {base}: both are built on "
                f"{kin.common}, so the differences below are between their two sets of "
                f"changes, not what one house rule does to {kin.common}.")
    if kin.relation == UNRELATED:
        return (f"Note: {variant} is not a variant of {base}: it does not extend it, so this "
                "compares two different games on the same seeds and bots; each difference "
                "below is between the two games, not the effect of a house rule.")
    return None


def ranking_note(changes: Sequence[str]) -> str | None:
    """A sentence on what the measures mean when the variant judges a game's end by other
    rules (None when it uses the base's).

    Args:
        changes: the lines of :func:`rulesplay.diff.ranking_changes` (``score: A -> B``,
            ``tiebreak: ...``, ``winners: ...``).
    """
    if not changes:
        return None
    said = "; ".join(changes)
    if any(c.startswith("score:") for c in changes):
        return (f"Note: the variant computes scores by another rule ({said}), so the score "
                "measures below (mean scores, spread) compare two different formulas, not "
                "one score moving; win rates, ties and length remain comparable.")
    return (f"Note: the variant decides the winners by other rules ({said}): win rates and "
            "ties below compare who wins under each ruleset's own rules; scores are "
            "computed alike.")


class _Measured(Protocol):
    """A compared measure (:class:`rulesplay.sim.Line`), as far as this module reads it."""

    key: str
    low: float
    high: float
    percent: bool


@dataclass(frozen=True)
class Threshold:
    """The smallest difference a comparison could call clear, per kind of measure.

    Attributes:
        win: win-rate difference, as a proportion (0.1 is 10 percentage points); None when
            no win-rate measure has any spread.
        score: mean-score difference, in the ruleset's score units; None likewise.
    """

    win: float | None
    score: float | None


def smallest_clear(lines: Sequence[_Measured], alpha: float = 0.05) -> Threshold:
    """How large a difference must be for Holm's correction over ``lines`` to call the first
    measure clear: ``z(1 - alpha / 2m)`` standard errors, each standard error read from its
    95% interval (width / 2 x 1.96); the smallest over the win-rate measures (keys ``win:``,
    ``team:``, ``first``) and over the mean-score measures (``score:``, ``tscore:``).

    Args:
        lines: the compared measures (``m = len(lines)``).
        alpha: the family-wise level (the verdict's 5%).

    Returns:
        A :class:`Threshold`; a kind with no measure, or none with a spread, is None.
    """
    m = max(len(lines), 1)
    z = statistics.NormalDist().inv_cdf(1 - alpha / (2 * m))

    def least(prefixes: tuple[str, ...]) -> float | None:
        bars = [z * (line.high - line.low) / (2 * Z95) for line in lines
                if line.key.startswith(prefixes) and line.high > line.low
                and math.isfinite(line.high - line.low)]  # (unbounded: no spread known)
        return min(bars) if bars else None

    return Threshold(least(("win:", "team:", "first")), least(("score:", "tscore:")))


def _about(x: float) -> str:
    """``x`` to two significant digits, written out (57, 1200, 0.34)."""
    return f"{float(f'{x:.2g}'):g}"


# A comparison whose games cannot show a win-rate difference below this many percentage
# points is too small to call a house rule harmless.
LOW_POWER_POINTS = 10.0


def power_note(lines: Sequence[_Measured], n: int, alpha: float = 0.05) -> str | None:
    """A sentence saying how small a difference ``n`` games each could show, when that is
    more than :data:`LOW_POWER_POINTS` win-rate points (None otherwise).

    Args:
        lines: the compared measures.
        n: games played of each ruleset.
        alpha: the family-wise level.
    """
    bar = smallest_clear(lines, alpha)
    if bar.win is None or bar.win * 100 <= LOW_POWER_POINTS:
        return None
    each = f"{counted(n, 'game')} each"
    if bar.win >= 1:  # (a win rate cannot change by more than 100 points)
        return (f"Too few games to say anything about win rates: no change of a win rate, "
                f"however large, could be called clear with {each}; run more.")
    score = f", nor a mean score change smaller than about {_about(bar.score)}" \
        if bar.score is not None else ""
    return (f"Too few games to rule a difference out: {each} cannot show a win-rate "
            f"change smaller than about {bar.win * 100:.0f} points{score}; run more "
            f"(-n {4 * n} halves these).")
