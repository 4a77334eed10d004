"""What one seat knows of the cards it cannot see now: :class:`Knowledge`.

A seat that saw a card go into a zone it cannot see knows the card is there (a trick taken
face down, a discard pile put under the deck): the card is *known*. It knows the card's
place in that zone only as far as it could follow it:

* Cards that went in together (one ``move`` of several cards, e.g. a pile put under the
  deck) form a *block*: the seat knows which cards went in and the places they took
  together, not their order (the pile was turned face down). A card that went in alone
  keeps its place.
* After a shuffle of a zone the seat cannot see into, its known cards are only known to be
  in it (*loose*), anywhere among its places that no other known card holds. So do they
  when a card the seat did not know left that zone while cards it cannot place lay both
  below and above a known card there (e.g. a search of a deck after a pile was put in the
  middle): the seat does not know where the card was, so nor how far the others moved.
  Whether this happens depends only on which places the seat could place, never on where
  the card really was.
* A move between two zones the seat cannot see reveals no card: the moved card becomes
  unknown, and so does every card known to be in the zone it left (any of them may be the
  one that moved).
* A zone revealed in play (``reveal``, or a ``seen by`` that names the seat) is seen: its
  cards need no knowledge. When the seat no longer sees it (``hide``, its ``seen by``), it
  remembers the cards there where they were (each keeps its place, as a card that went in
  alone).

:meth:`Knowledge.places` turns this into the places a sampler must redeal: after unknown
cards are dealt, each block's cards are shuffled among the block's places, and each zone's
loose cards among the zone's places of unknown and loose cards (always within a card kind,
as kinds are public). Only the seat's view (events it could follow, places and sizes) and
the sampler's generator decide a sample, never the true order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..engine.observe import visible_to
from ..engine.program import Program
from ..engine.state import State
from .draws import shuffle

LOOSE = -1  # the block of a card known only to be in its zone


class Knowledge:
    """The known cards of one seat, kept up to date from the moves of a game it follows.

    Args:
        seat: the observing seat.

    Attributes:
        known: card -> the unseen zone it is known to be in.
        block: card -> its block (cards that went in together), or :data:`LOOSE`.
        traffic: zone -> moves into or out of it that the seat did not see (a past
            decision there no longer constrains the cards now in it).
    """

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.known: dict[int, int] = {}
        self.block: dict[int, int] = {}
        self.traffic: dict[int, int] = {}
        self._blocks = 0

    def observe(self, prog: Program, seers: list[int], tops: list[int],
                events: list[dict[str, Any]], before: Mapping[int, list[int]],
                index: dict[str, int]) -> None:
        """Update from ``events`` (what happened since ``before``, the zones then).

        Args:
            prog: the game's program.
            seers, tops: the zones' seers after the events, whole and of the top card
                (bitmasks per zone, as ``State.seers`` and ``State.top_seers``).
            events: move and shuffle events in order (others are skipped).
            before: the cards of each zone that cards left in ``events``, bottom to top,
                before the events.
            index: card id -> card.
        """
        lay, seat = prog.layout, self.seat
        # The zones whose sight changes in ``events``: the seats that see each besides its
        # declared ones at the event being read (before the first change, what it says they
        # were); the other zones are as now.
        sight_at: dict[int, int] = {}
        for e in events:
            if e["type"] == "sight":
                sight_at.setdefault(lay.zone_id[e["zone"]["zone"]] + (e["zone"]["owner"] or 0),
                                    e["was"])
        bit = prog.seat_bit(seat)
        now = ["all" if sees & bit else "top" if tops[z] & bit else "none"  # (visible_to)
               for z, sees in enumerate(seers)]

        def visible(z: int) -> str:
            if z not in sight_at:
                return now[z]
            return "all" if sight_at[z] & bit else prog.view(z, seat)

        left: dict[int, set[int]] = {}  # zone -> cards that left it so far
        shuffled: set[int] = set()  # zones whose order ``before`` no longer tells
        entered: set[int] = set()  # zones cards went into (at the top or the bottom?)
        run: tuple[int, int] | None = None  # (from, to) of the move being continued
        for e in events:
            kind = e["type"]
            if kind == "shuffle":
                run = None
                z = lay.zone_id[e["zone"]["zone"]] + (e["zone"]["owner"] or 0)
                shuffled.add(z)
                if visible(z) != "all":
                    self._loosen(z)
                continue
            if kind == "sight":
                run = None
                z = lay.zone_id[e["zone"]["zone"]] + (e["zone"]["owner"] or 0)
                saw = visible(z) == "all"
                sight_at[z] = e["seers"]
                cards = [index[c] for c in e["cards"]]
                if saw or visible(z) == "all":
                    for c in cards:
                        self._forget(c)
                if saw and visible(z) != "all":
                    for c in cards:  # seen where they lie as it was hidden
                        self._blocks += 1
                        self.known[c] = z
                        self.block[c] = self._blocks
                continue
            if kind != "move":
                run = None
                continue
            c = index[e["card"]]
            src, dst = e["from"], e["to"]
            zs = lay.zone_id[src["zone"]] + (src["owner"] or 0)
            zd = lay.zone_id[dst["zone"]] + (dst["owner"] or 0)
            gone = left.setdefault(zs, set())
            order = [x for x in before[zs] if x not in gone]  # as far as ``before`` tells
            gone.add(c)
            entered.add(zd)
            seen_leaving = visible(zs) == "all" or (
                visible(zs) == "top" and zs not in shuffled
                and zs not in entered and bool(order) and order[-1] == c)  # the top card
            landing = visible(zd)  # seen where it lands (not slid under a top)?
            if landing == "all" or (landing == "top" and not e.get("under")):
                placed = c in self.known and self.block[c] != LOOSE
                told = zs not in shuffled and zs not in entered
                if not seen_leaving and not placed and self._untold(zs, order, told):
                    self._loosen(zs)  # the others' places there shift by an unknown amount
                self._forget(c)
                run = None
            elif seen_leaving:
                if run != (zs, zd):
                    self._blocks += 1
                    run = (zs, zd)
                self.known[c] = zd  # seen leaving: still known where it went
                self.block[c] = self._blocks
            else:
                # A move between two zones this seat cannot see shows only that a card
                # moved, not which one (e.g. a secret pick from another hand): every card
                # known to be in the source zone may be the one that left, so none of them
                # is known any more (forgetting only the moved card would reveal which).
                self._forget(c)
                for k in [k for k, zk in self.known.items() if zk == zs]:
                    self._forget(k)
                # Such a zone may now hold other cards than before, of the same number and
                # kinds: a past decision there no longer constrains the cards now in it.
                self.traffic[zs] = self.traffic.get(zs, 0) + 1
                self.traffic[zd] = self.traffic.get(zd, 0) + 1
                run = None

    def _untold(self, z: int, order: list[int], told: bool) -> bool:
        """Whether a card leaving zone ``z`` from a place the seat cannot tell changes the
        places of its placed known cards by an amount the seat cannot tell: some has
        unplaced cards (unknown or loose) both below and above it. ``order`` is the zone
        then as the zones at the last decision tell it, ``told`` false when it was shuffled
        or cards went into it since (at the top or the bottom, the events do not say): then
        any placed known card makes it untold. Only which places hold placed known cards
        decides, never which card left (the seat does not know where it was)."""
        placed = {k for k, zk in self.known.items() if zk == z and self.block[k] != LOOSE}
        if not placed:
            return False
        if not told:
            return True
        free = [i for i, x in enumerate(order) if x not in placed]
        return bool(free) and any(free[0] < i < free[-1]
                                  for i, x in enumerate(order) if x in placed)

    def _forget(self, c: int) -> None:
        self.known.pop(c, None)
        self.block.pop(c, None)

    def _loosen(self, z: int) -> None:
        """The known cards of zone ``z`` keep their zone, not their places."""
        for c, zc in self.known.items():
            if zc == z:
                self.block[c] = LOOSE

    def places(self, s: State, slots: list[tuple[int, list[int]]]) -> list[list[tuple[int, int]]]:
        """The groups of places a sample redeals after the deal of unknown cards: each a
        list of ``(zone, index)`` whose cards are shuffled among them.

        Args:
            s: the state sampled (its zones, where known cards are now).
            slots: per unseen zone, the indices the unknown cards are dealt to.
        """
        unknown_at = dict(slots)
        groups: list[list[tuple[int, int]]] = []
        by_zone: dict[int, dict[int, list[int]]] = {}
        for c, z in self.known.items():
            by_zone.setdefault(z, {}).setdefault(self.block[c], []).append(c)
        for z, blocks in sorted(by_zone.items()):
            content = s.zones[z]
            hidden = len(content) - (visible_to(s, z, self.seat) == "top")  # not the top
            at = {c: i for i, c in enumerate(content[:hidden])}
            for b, cards in sorted(blocks.items()):
                spots = sorted(at[c] for c in cards if c in at)
                if b == LOOSE:
                    spots = sorted(spots + unknown_at.get(z, []))
                if len(spots) > 1:
                    groups.append([(z, i) for i in spots])
        return groups


class Scrambler:
    """Shuffles the cards of each group of places of a sample among them, within each kind
    (the kind of the card in every place stays: kinds are public). The cards are sorted
    first, so the result depends on which cards are there and on the generator only.

    Built once per information set: the kind in every place is the same in every sample,
    and so are the cards of a group without a place that the deal fills.

    Args:
        s: the state sampled (before the deal).
        groups: the groups of places (:meth:`Knowledge.places`).
        dealt: the places the deal fills, as ``(zone, index)``.
    """

    def __init__(self, s: State, groups: list[list[tuple[int, int]]],
                 dealt: set[tuple[int, int]]) -> None:
        kind_of = s.program.layout.kind_of
        zones = s.zones
        # (places of one kind in one group, their cards sorted; None: dealt, sorted anew)
        self.parts: list[tuple[list[tuple[int, int]], list[int] | None]] = []
        for group in groups:
            by_kind: dict[str, list[tuple[int, int]]] = {}
            for z, i in group:
                by_kind.setdefault(kind_of[zones[z][i]], []).append((z, i))
            for spots in by_kind.values():
                if len(spots) < 2:  # (one place: its card stays, and no draw is made)
                    continue
                fixed = None if any(p in dealt for p in spots) else \
                    sorted(zones[z][i] for z, i in spots)
                self.parts.append((spots, fixed))

    def __call__(self, s: State, rng: random.Random) -> None:
        """Shuffle the groups of the sample ``s`` (after the deal) with ``rng``."""
        zones = s.zones
        for spots, fixed in self.parts:
            cards = fixed[:] if fixed is not None else sorted(zones[z][i] for z, i in spots)
            shuffle(cards, rng)
            for (z, i), c in zip(spots, cards, strict=True):
                zones[z][i] = c
