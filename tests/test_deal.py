"""The constrained deal of a determinisation (agents.deal.Dealer) samples the distribution
its docstring states: constrained cards one by one, most-constrained first, each into a zone
in proportion to the room left for its kind there; free cards fill the rest, every way
equally likely; each zone's cards in a random order. Checked against the exact
probabilities of that process, worked out by enumeration on a small deal."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

from rulesplay.agents.deal import Dealer

# Cards 0..6 of kinds a and b; zones 0, 1, 2 with unknown places of these kinds.
KIND_OF = ["a", "a", "a", "a", "b", "b", "a"]
SLOTS = [(0, [0, 1]), (1, [0, 1, 2]), (2, [0, 1])]
KINDS = {0: ["a", "a"], 1: ["a", "b", "a"], 2: ["b", "a"]}
UNKNOWN = list(range(7))
ALLOWED = {0: [0, 1], 1: [0, 1, 2], 2: [1, 2], 3: [0, 1, 2], 4: [1, 2], 5: [2], 6: [0, 1, 2]}


def _outcome(deal: dict[int, list[int]]) -> tuple[tuple[int, ...], ...]:
    """Which cards each zone got (the order within a zone is left out)."""
    return tuple(tuple(sorted(deal[z])) for z, _ in SLOTS)


def _exact(allowed: dict[int, list[int]]) -> dict[tuple[tuple[int, ...], ...], Fraction]:
    """The probability of each outcome of the stated process, by enumeration: every order
    of the cards sorted (stably) by how many zones allow them, each card into an allowed
    zone in proportion to the room left for its kind there."""
    room0 = Counter((z, k) for z, _ in SLOTS for k in KINDS[z])
    out: dict[tuple[tuple[int, ...], ...], Fraction] = {}
    orders = list(itertools.permutations(UNKNOWN))

    def place(order: list[int], room: Counter[tuple[int, str]], got: dict[int, list[int]],
              p: Fraction) -> None:
        if not order:
            key = tuple(tuple(sorted(got[z])) for z, _ in SLOTS)
            out[key] = out.get(key, Fraction(0)) + p
            return
        c, rest = order[0], order[1:]
        k = KIND_OF[c]
        total = sum(room[z, k] for z in allowed[c])
        assert total  # (this deal never paints itself into a corner)
        for z in allowed[c]:
            if room[z, k]:
                room[z, k] -= 1
                got[z].append(c)
                place(rest, room, got, p * Fraction(room[z, k] + 1, total))
                got[z].pop()
                room[z, k] += 1

    for order in orders:
        ranked = sorted(order, key=lambda c: len(allowed[c]))
        place(ranked, room0.copy(), {z: [] for z, _ in SLOTS}, Fraction(1, len(orders)))
    return out


def _chi2(counts: Counter[tuple[tuple[int, ...], ...]], n: int,
          probs: dict[tuple[tuple[int, ...], ...], Fraction]) -> float:
    assert set(counts) <= set(probs)  # never an outcome the process cannot give
    return sum((counts[k] - n * float(p)) ** 2 / (n * float(p)) for k, p in probs.items())


def test_a_constrained_deal_has_the_stated_distribution() -> None:
    probs = _exact(ALLOWED)
    dealer = Dealer(SLOTS, KINDS, UNKNOWN, ALLOWED, KIND_OF)
    rng = random.Random(11)
    n = 30_000
    counts: Counter[tuple[tuple[int, ...], ...]] = Counter()
    for _ in range(n):
        deal = dealer.deal(rng)
        assert deal is not None
        for z, idx in SLOTS:  # sizes and kinds kept, exclusions respected
            assert [KIND_OF[c] for c in deal[z]] == KINDS[z] and len(deal[z]) == len(idx)
            assert all(z in ALLOWED[c] for c in deal[z])
        counts[_outcome(deal)] += 1
    df = len(probs) - 1
    # Far beyond the 99.99th percentile of chi-square with df degrees of freedom; a deal
    # uniform over the allowed outcomes instead scores in the thousands here.
    assert _chi2(counts, n, probs) < df + 8 * math.sqrt(2 * df)
    uniform = dict.fromkeys(probs, Fraction(1, len(probs)))
    assert _chi2(counts, n, uniform) > 10 * df  # (the check tells the two apart)


def test_an_unconstrained_deal_is_uniform_within_each_kind_and_orders_zones_at_random(
) -> None:
    everywhere = {c: [z for z, _ in SLOTS if KIND_OF[c] in KINDS[z]] for c in UNKNOWN}
    probs = _exact(everywhere)
    for allowed in (everywhere, None):  # (None: no card excluded anywhere)
        dealer = Dealer(SLOTS, KINDS, UNKNOWN, allowed, KIND_OF)
        rng = random.Random(5)
        n = 20_000
        counts: Counter[tuple[tuple[int, ...], ...]] = Counter()
        firsts: Counter[int] = Counter()
        for _ in range(n):
            deal = dealer.deal(rng)
            assert deal is not None
            counts[_outcome(deal)] += 1
            if _outcome(deal)[0] == (0, 1):
                firsts[deal[0][0]] += 1
        df = len(probs) - 1
        assert _chi2(counts, n, probs) < df + 8 * math.sqrt(2 * df)
        # Given zone 0 holds cards 0 and 1, either lies first about as often.
        assert abs(firsts[0] - firsts[1]) < 6 * math.sqrt(firsts[0] + firsts[1])
