"""The constrained deal of a determinisation: unknown cards into unseen places.

:class:`Dealer` is built once per information set (its places, kinds and exclusions do
not change between samples) and then deals as often as the sampler asks; everything that
does not depend on the generator is worked out on building, so a deal is a few list
operations per card.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import islice
from typing import Any

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
        # Per zone: its one kind (None when its places are of several kinds) and the kind
        # of each place.
        self.shape: list[tuple[int, str | None, list[str]]] = []
        for z, _ in slots:
            ks = kinds[z]
            self.shape.append((z, ks[0] if ks and ks.count(ks[0]) == len(ks) else None, ks))
        if allowed is None:
            return
        # Bins: (zone, kind) in the order their places are first met; a bin's room is how
        # many unknown places of that kind the zone has.
        room = Counter((z, k) for z, _ in slots for k in kinds[z])
        bins = {b: i for i, b in enumerate(room)}
        self.room = list(room.values())
        self.kind_bins: dict[str, list[int]] = {}  # kind -> its bins, in order
        for (_, k), i in bins.items():
            self.kind_bins.setdefault(k, []).append(i)
        self.bins_of: dict[int, list[int]] = {}
        # A card that may go to every zone with places of its kind is 'free'; the others
        # are dealt first (see deal).
        self.free: dict[str, list[int]] = {k: [] for k in self.kind_bins}
        self.held: list[int] = []
        made: dict[tuple[int, str], list[int]] = {}  # (allowed list, kind) -> its bins
        for c in unknown:
            k, zones = kind_of[c], allowed[c]
            key = (id(zones), k)  # (cards of a kind excluded nowhere share one list)
            if key not in made:
                made[key] = [bins[z, k] for z in zones if (z, k) in bins]
            mine = self.bins_of[c] = made[key]
            if len(mine) == len(self.kind_bins[k]):
                self.free[k].append(c)
            else:
                self.held.append(c)
        self.ways = {c: len(allowed[c]) for c in unknown}
        # Per zone: its one bin (-1 when its places are of several kinds) and each place's.
        self.slot_bins: list[tuple[int, int, list[int]]] = []
        for z, _ in slots:
            its = [bins[z, k] for k in kinds[z]]
            self.slot_bins.append((z, its[0] if its.count(its[0]) == len(its) else -1, its))

    def deal(self, rng: random.Random, constrained: bool = True) -> dict[int, list[int]] | None:
        """Per zone, the cards for its unknown places in order (aligned with the zone's
        indices in ``slots``), respecting ``allowed`` unless ``constrained`` is false; None
        when no deal respects it. The lists are new at every deal (a sample keeps them).

        Every deal respecting ``allowed`` is not equally likely: cards that some zone
        refuses are dealt first, most-constrained first (ties in random order), each into
        a zone chosen with probability proportional to the room left for its kind there;
        the free cards (that every zone with places of their kind allows) then fill the
        room left, every way of doing so equally likely, and each zone's cards lie in a
        random order. (Dealing the free cards one by one in the same way, as before, gives
        the same distribution; one shuffle per kind is faster.) When the constrained cards
        paint themselves into a corner, a complete search (:meth:`match`) finds a deal
        whenever one exists.
        """
        if self.allowed is None or not constrained:
            pools = {}
            for k, cards in self.by_kind.items():
                cards = cards[:]
                shuffle(cards, rng)
                pools[k] = iter(cards)
            return self._lay(pools)
        room = self.room[:]
        bucket: dict[int, list[int]] = {}
        held = self.held
        if held:
            order = held[:]
            shuffle(order, rng)
            order.sort(key=self.ways.__getitem__)
            bins_of = self.bins_of
            random_ = rng.random
            for c in order:
                # A zone with room left for the card's kind, chosen in proportion to that
                # room.
                bins = bins_of[c]
                if len(bins) == 1:  # (one zone allows it: no draw)
                    b = bins[0]
                    if not room[b]:
                        return self.match(rng)
                else:
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
        mixed = list(bucket)  # the bins holding constrained cards, shuffled below
        for k, free in self.free.items():
            if not free:
                continue
            cards = free[:]
            shuffle(cards, rng)
            at = 0
            for b in self.kind_bins[k]:
                n = room[b]
                if n:
                    part = cards[at:at + n]
                    at += n
                    if b in bucket:
                        bucket[b] += part
                    else:
                        bucket[b] = part
        for b in mixed:  # (the free cards' order is random already)
            shuffle(bucket[b], rng)
        return {z: bucket[one] if one >= 0 else [bucket[b].pop() for b in bins]
                for z, one, bins in self.slot_bins}

    def _lay(self, pools: dict[str, Any]) -> dict[int, list[int]]:
        """Each zone's places filled from ``pools`` (kind -> an iterator over its cards, in
        the order they are dealt)."""
        out = {}
        for z, one, ks in self.shape:
            if one is not None:
                out[z] = list(islice(pools[one], len(ks)))
            else:
                take = {k: it.__next__ for k, it in pools.items()}
                out[z] = [take[k]() for k in ks]
        return out

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
            shuffle(options, rng)
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
        shuffle(order, rng)
        for c in order:
            if not place(c, set()):
                return None
        for cards in held.values():
            shuffle(cards, rng)
        return {z: [held[z, k].pop() for k in kinds[z]] for z, _ in slots}
