"""What one seat may know of the events of a game (:class:`SeatView`), and the account of
them for that seat (:class:`SeatNarrator`): hidden cards as ``?``, others' secret choices
as made, cards put out of its sight in card order."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.rule import Rule
from rich.text import Text

from .events import HIDDEN, Event, seen_by
from .narrate import Narrator
from .words import tr

if TYPE_CHECKING:
    from .engine.program import Program





# ---------------------------------------------------------------- what a seat may know
class SeatView:
    """The public part of an event stream, as seen by one seat (None: an onlooker).

    A card movement keeps its card only when the seat sees the zone it leaves or the card
    where it lands (a zone it sees, or the top of a ``top`` zone); otherwise the card
    becomes ``?`` (so a deal into other hands is a count). A card decision keeps its card
    when the decider is the seat or the card is then moved where the seat sees it; a
    secret decision (``"private": true``, the one secrecy flag) of another seat keeps only
    that it was made (its action becomes ``NAME:?``, told as "Seat 2 decides in secret:
    draft a card"); a trick's cards are named when the seat saw them arrive; a text's values
    of variables the seat may not see (its ``masks``) become ``?``. Who sees a zone changes
    with ``sight`` events (``reveal``, ``hide``, a zone's ``seen by``): such an event names
    the zone's cards to the seats that see it just before or after, as ``?`` to the others.

    Args:
        program: the compiled game.
        seat: the observing seat.
    """

    def __init__(self, program: Program, seat: int | None) -> None:
        self.program, self.seat = program, seat
        self.cards = set(program.card_ids)
        self.bit = program.seat_bit(seat)
        # zone -> the seats that see it besides its declared ones, at the event being read
        self.extra: dict[int, int] = {}

    def _zone(self, ref: dict[str, Any]) -> int | None:
        base = self.program.layout.zone_id.get(str(ref.get("zone")))
        owner = ref.get("owner")
        return None if base is None else base + (owner if isinstance(owner, int) else 0)

    def sees(self, ref: dict[str, Any]) -> bool:
        """Whether the seat sees every card of the zone ``ref`` (``{"zone", "owner"}``), by
        the engine's one rule of visibility (:meth:`Program.view`)."""
        z = self._zone(ref)
        return z is not None and (bool(self.extra.get(z, 0) & self.bit)
                                  or self.program.view(z, self.seat) == "all")

    def sees_arriving(self, move: Event) -> bool:
        """Whether the seat sees the card of event ``move`` where it lands: in a zone it
        sees, or on top of one that shows it its top card (not slid ``under`` it), the rule
        of :func:`rulesplay.engine.observe.card_seers`."""
        z = self._zone(move["to"])
        how = "none" if z is None else "all" if self.extra.get(z, 0) & self.bit else \
            self.program.view(z, self.seat)
        return how == "all" or (how == "top" and not move.get("under"))

    def filter(self, events: list[Event]) -> list[Event]:
        """The events the seat may know about, hidden cards replaced by ``?``; cards that go
        from a zone the seat sees into one it does not are named, but in card order, not the
        order they went in (a pile put face down under a deck: which cards, not where)."""
        return self._filter(events, set(), {})

    def follower(self) -> Callable[[list[Event]], list[Event]]:
        """:meth:`filter` for a stream given in pieces, each the events of whole moves (a
        decision and what follows from it): it remembers which cards the seat has seen from
        one piece to the next, so a long game is filtered once, not again at every move."""
        seen: set[str] = set()
        extra: dict[int, int] = {}
        return lambda piece: self._filter(piece, seen, extra)

    def _filter(self, events: list[Event], seen: set[str],
                extra: dict[int, int]) -> list[Event]:
        """:meth:`filter`, with ``seen`` the cards the seat saw arrive where it sees them
        and ``extra`` who sees each zone besides its declared seats before ``events``
        (both updated)."""
        out: list[Event] = []
        self.extra = dict(extra)
        ordered = self._unordered(events)  # (follows the sight events in a copy)
        self.extra = extra
        events = [seen_by(ev, self.bit) for ev in ordered]
        for i, ev in enumerate(events):
            kind = ev.get("type")
            if kind == "move":
                shown = self.sees(ev["from"]) or self.sees_arriving(ev)
                if self.sees_arriving(ev):
                    seen.add(ev["card"])
                else:
                    seen.discard(ev["card"])
                out.append(ev if shown else {**ev, "card": HIDDEN, "attrs": {}})
            elif kind == "decision":
                out.append(self._decision(ev, itertools.islice(events, i + 1, None), seen))
            elif kind == "sight":
                ref = ev.get("zone")
                saw = isinstance(ref, dict) and self.sees(ref)
                self._sight(ev)
                now = isinstance(ref, dict) and self.sees(ref)
                cards = [str(c) for c in ev.get("cards") or []]
                if now:
                    seen.update(cards)
                out.append(ev if saw or now else {**ev, "cards": [HIDDEN] * len(cards)})
            elif kind == "trick":
                cards = [c if c in seen else HIDDEN for c in ev.get("cards", [])]
                card = ev.get("card") if ev.get("card") in seen else HIDDEN
                out.append({**ev, "cards": cards, "card": card})
            else:
                out.append(ev)
        return out

    def _unordered(self, events: list[Event]) -> list[Event]:
        """``events`` with each run of moves from one seen zone into one unseen zone sorted
        by card id (one event out per event in)."""
        out: list[Event] = []
        run: list[Event] = []

        def flush() -> None:
            out.extend(sorted(run, key=lambda ev: str(ev.get("card"))))
            run.clear()

        for ev in events:
            if ev.get("type") == "sight":
                self._sight(ev)
            hides = ev.get("type") == "move" and self.sees(ev["from"]) and \
                not self.sees_arriving(ev)
            if not hides or (run and (run[0]["from"], run[0]["to"]) != (ev["from"], ev["to"])):
                flush()
            if hides:
                run.append(ev)
            else:
                out.append(ev)
        flush()
        return out

    def _sight(self, ev: Event) -> None:
        """Follow a ``sight`` event: who sees its zone besides its declared seats."""
        ref, seers = ev.get("zone"), ev.get("seers")
        z = self._zone(ref) if isinstance(ref, dict) else None
        if z is not None and seers.__class__ is int:
            self.extra[z] = seers

    def _decision(self, ev: Event, after: Iterable[Event], seen: set[str]) -> Event:
        """An open decision as the seat knows it: its card is named when the seat decided,
        saw the card where it was (``seen``), or sees where it goes before the next
        decision; else it is hidden like a secret one (the rule of
        :func:`rulesplay.engine.observe.knows_choice`)."""
        if ev.get("private") and ev.get("player") != self.seat:
            # a secret choice of another seat: only that it was made
            return {**ev, "action": f"{ev.get('decision')}:{HIDDEN}",
                    "label": tr(self.program.lang, "a_card")}
        action = str(ev.get("action"))
        value = action.split(":", 1)[1] if ":" in action else ""
        if value not in self.cards or ev.get("player") == self.seat or value in seen:
            return ev
        for later in after:
            if later.get("type") == "decision":
                break
            if later.get("type") == "move" and later.get("card") == value:
                if self.sees_arriving(later) or self.sees(later["from"]):
                    return ev
                break
        return {**ev, "action": f"{ev.get('decision')}:{HIDDEN}",
                "label": tr(self.program.lang, "a_card")}


class _Collect:
    """A stand-in console that keeps what a :class:`Narrator` prints as renderables."""

    def __init__(self) -> None:
        self.items: list[RenderableType] = []

    def print(self, *objects: Any, **_: Any) -> None:
        self.items.append(objects[0] if objects else Text(""))

    def rule(self, title: Any = "", **_: Any) -> None:
        self.items.append(Rule(title, style="dim"))


class SeatNarrator(Narrator):
    """A :class:`Narrator` for one seat's screen: hidden cards are counted, the seat is "you".

    Args:
        program: the compiled game.
        seat: whose screen it is (None: an onlooker).
    """

    def __init__(self, program: Program, seat: int | None) -> None:
        self.sink = _Collect()
        super().__init__(program, self.sink)
        self.me = seat
        self.card_label[HIDDEN] = self.t("a_card")

    def seat(self, seat: int) -> str:
        name = super().seat(seat)
        return self.t("you", seat=name) if seat == self.me else name

    def owned(self, owner: int, label: str) -> str:
        return self.t("owned_you", zone=label) if owner == self.me else \
            super().owned(owner, label)

    def cards(self, ids: list[str]) -> str:
        known = [c for c in ids if c != HIDDEN]
        hidden = len(ids) - len(known)
        if not known or len(ids) > 10:
            return self.t("a_card") if len(ids) == 1 else self.t("ncards", k=len(ids))
        text = super().cards(known)
        return text + (" " + self.t("and_hidden", k=hidden) if hidden else "")

    def lines(self, events: list[Event]) -> list[RenderableType]:
        """Narrate ``events`` (already filtered) and return what would have been printed."""
        self.feed(events)
        self.close()
        items = self.sink.items
        while items and isinstance(items[0], Text) and not items[0].plain:
            items.pop(0)
        while items and isinstance(items[-1], Text) and not items[-1].plain:
            items.pop()
        return items
