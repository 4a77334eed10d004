"""The constrained deal of a determinisation: unknown cards into unseen places.

:class:`Dealer` is built once per information set (its places, kinds and exclusions do
not change between samples) and then deals as often as the sampler asks; everything that
does not depend on the generator is worked out on building, so a deal is a few list
operations per card.
"""

from __future__ import annotations

import random
from collections import Counter

from .draws import shuffle

__all__ = ["Dealer"]


class Dealer:
    """Deals the unknown cards into the unseen places of their kind, sizes kept.

    Args:
        slots: per unseen zone, ``(zone, indices of its unknown cards)``.
        kinds: zone -> the kind of the card at each of those indices (public).
        unknown: the unknown cards, sorted.
        allowed: card -> the zones it may be in, or None when no card is excluded anywhere.
        kind_of: card -> its kind.
    """

    def __init__(self, slots: list[tuple[int, list[int]]], kinds: dict[int, list[str]],
                 unknown: list[int], allowed: dict[int, list[int]] | None,
                 kind_of: list[str]) -> None:
        self.slots, self.kinds, self.unknown, self.allowed = slots, kinds, unknown, allowed
        self.kind_of = kind_of
        self.by_kind: dict[str, list[int]] = {}
        for c in unknown:
            self.by_kind.setdefault(kind_of[c], []).append(c)
        if allowed is None:
            return
        # Bins: (zone, kind) in the order their places are first met; a bin's room is how
        # many unknown places of that kind the zone has.
        room = Counter((z, k) for z, _ in slots for k in kinds[z])
        bins = {b: i for i, b in enumerate(room)}
        self.room = list(room.values())
        self.bins_of: dict[int, list[int]] = {}
        made: dict[tuple[int, str], list[int]] = {}  # (allowed list, kind) -> its bins
        for c in unknown:
            k, zones = kind_of[c], allowed[c]
            key = (id(zones), k)  # (cards of a kind excluded nowhere share one list)
            if key not in made:
                made[key] = [bins[z, k] for z in zones if (z, k) in bins]
            self.bins_of[c] = made[key]
        self.ways = {c: len(allowed[c]) for c in unknown}
        self.slot_bins = [(z, [bins[z, k] for k in kinds[z]]) for z, _ in slots]

    def deal(self, rng: random.Random, constrained: bool = True) -> dict[int, list[int]] | None:
        """Per zone, the cards for its unknown places in order (aligned with the zone's
        indices in ``slots``), respecting ``allowed`` unless ``constrained`` is false; None
        when no deal respects it.

        Cards are dealt most-constrained first, each into a zone chosen with probability
        proportional to the room left for its kind there; when that paints itself into a
        corner, a complete search (:meth:`match`) finds a deal whenever one exists.
        """
        if self.allowed is None or not constrained:
            by_kind = {k: cards[:] for k, cards in self.by_kind.items()}
            for cards in by_kind.values():
                shuffle(cards, rng)
            return {z: [by_kind[k].pop() for k in self.kinds[z]] for z, _ in self.slots}
        order = self.unknown[:]
        shuffle(order, rng)
        order.sort(key=self.ways.__getitem__)
        room = self.room[:]
        bins_of = self.bins_of
        random_ = rng.random
        bucket: dict[int, list[int]] = {}
        for c in order:
            # A zone with room left for the card's kind, chosen in proportion to that room
            # (the arithmetic, and so the choice, as a sum over a list of options).
            bins = bins_of[c]
            total = 0
            for b in bins:
                total += room[b]
            if not total:
                return self.match(rng)
            r = random_() * total
            chosen = -1
            for b in bins:
                left = room[b]
                if left:
                    chosen = b
                    r -= left
                    if r < 0:
                        break
            b = chosen
            if b in bucket:
                bucket[b].append(c)
            else:
                bucket[b] = [c]
            room[b] -= 1
        for cards in bucket.values():
            shuffle(cards, rng)
        return {z: [bucket[b].pop() for b in bins] for z, bins in self.slot_bins}

    def match(self, rng: random.Random) -> dict[int, list[int]] | None:
        """A deal respecting ``allowed`` found by augmenting paths (a bipartite matching of
        cards to places, in random order), or None when no such deal exists."""
        slots, kinds, allowed, kind_of = self.slots, self.kinds, self.allowed, self.kind_of
        assert allowed is not None
        room = Counter((z, k) for z, _ in slots for k in kinds[z])
        held: dict[tuple[int, str], list[int]] = {b: [] for b in room}
        at: dict[int, tuple[int, str]] = {}

        def place(c: int, seen: set[tuple[int, str]]) -> bool:
            options = [(z, kind_of[c]) for z in allowed[c] if (z, kind_of[c]) in room]
            rng.shuffle(options)
            for b in options:
                if b in seen:
                    continue
                seen.add(b)
                if len(held[b]) < room[b]:
                    held[b].append(c)
                    at[c] = b
                    return True
                for other in list(held[b]):
                    held[b].remove(other)
                    if place(other, seen):
                        held[b].append(c)
                        at[c] = b
                        return True
                    held[b].append(other)
            return False

        order = self.unknown[:]
        rng.shuffle(order)
        for c in order:
            if not place(c, set()):
                return None
        for cards in held.values():
            rng.shuffle(cards)
        return {z: [held[z, k].pop() for k in kinds[z]] for z, _ in slots}
