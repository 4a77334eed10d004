"""A human at the table: what one seat may see, and reading its choice from the terminal.

Everything shown to a seat is built from :meth:`rulesplay.State.observation` for that seat
(zones it may see into, counts of the others, public variables) and from the public part of
the events since its last turn (:class:`SeatView`): decisions of others, trick winners, and
card movements whose card the seat saw leave or arrive (a deal into other hands is a count).
Hidden cards never reach the screen.

A screen, for seat 0 of a four-player game::

    ── Since your last turn ──────────────────────────
    Seat 1 plays yellow 4
    Seat 2 plays blue 9
    Seat 2: declare blue trump? no
    ── Play · round 1 ─────────────────────────────────
    lead colour yellow · trump colour none · dealer Seat 3 · leader Seat 1
    trick (2): yellow 4, blue 9            deck: 20 hidden
    seat            hand  won pile           discards
    Seat 0 (you)       6  2, top red 7              3
    Your hand (6):  red 3 7 9 · yellow 2 · Wild card
    ── Seat 0, your turn: play ────────────────────────
     1 red 3  r3    2 red 7  r7   ...

Cards of a card table (kinds with a ``name: text`` attribute) are named by their name,
grouped by kind, and offered one per line with their printed values (``Spiked Buckler  sb2
Fighter/Rogue · hearts 1 · price 5 · attack 1 · defense 2``); rulesets with many zones get
one line per seat instead of a table, and face-down shared zones share one line.

Choosing: a number, or a card's short name (``r7``: the first letter of each enum value and
the number; ``ss2``: the initials of a name, numbered when two names share them; or the
ruleset's ``short``), its label (``red 7``) or a unique part of it (``7`` when only one 7 may
be played); ``help``, ``moves``, ``show``, ``save [FILE]`` and ``quit`` are commands.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from rich.color import Color, ColorParseError
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from . import ir
from .narrate import HIDDEN, Narrator
from .terminal import clean, literal
from .words import tr

if TYPE_CHECKING:
    from .engine.choices import Action
    from .engine.program import Program
    from .engine.state import State

Event = dict[str, Any]
SINCE_LIMIT = 30  # lines of "since your last turn" shown
COLOUR_ALIASES = {"orange": "dark_orange", "grey": "grey50", "gray": "grey50", "pink": "pink1",
                  "brown": "orange4", "gold": "gold1", "silver": "grey70"}
COMMANDS = "help · moves · show · save [FILE] · quit"
MANY_ZONES = 6  # more shared zones: empty ones are left out, face-down ones share a line
DETAIL_LIMIT = 4  # table cards in a public zone of at most this many are shown in full
MANY_VARS = 4  # more game variables: only those set are shown
MANY_COLUMNS = 5  # more per-player zones and variables: one line per seat, not a table


class SaveRequest(Exception):
    """Raised by a human seat that wants the game saved and left (``quit`` with saving)."""


class QuitRequest(Exception):
    """Raised by a human seat that leaves without saving."""


def colour_style(name: Any) -> str | None:
    """The rich colour for an enum value name or label, or None when it names no colour
    (or is not a name at all: None, a number, a set of values)."""
    if not isinstance(name, str) or not name.strip():
        return None
    key = name.strip().lower().replace(" ", "_")
    key = COLOUR_ALIASES.get(key, key)
    try:
        Color.parse(key)
    except ColorParseError:
        return None
    return key


def _value_key(value: Any, order: dict[str, tuple[int, ...]]) -> tuple[Any, ...]:
    """A sort key for any attribute value (None, number, enum value, set of values) that
    compares with the key of any other value."""
    if value is None:
        return (0,)
    if isinstance(value, bool | int | float):
        return (1, value)
    if isinstance(value, str):
        return (2, order.get(value, (1 << 30,)), value)
    if isinstance(value, list | tuple | set | frozenset):
        return (3, tuple(_value_key(v, order) for v in value))
    return (4, str(value))


def _unique_shorts(labels: list[str], shorts: list[str]) -> list[str]:
    """Short names, one per card, that tell different labels apart: a short shared by cards of
    different labels gets a number (``ss1``, ``ss2``; a letter after a short ending in a
    digit: ``r7a``), in card order; copies of one label share their short."""
    by_short: dict[str, list[str]] = {}
    for label, short in zip(labels, shorts, strict=True):
        group = by_short.setdefault(short.lower(), [])
        if label not in group:
            group.append(label)
    taken = set(by_short)
    rename: dict[tuple[str, str], str] = {}
    for short, group in by_short.items():
        if len(group) < 2:
            continue
        k = 0
        for label in group:
            while True:
                k += 1
                name = short + (chr(ord("a") + k - 1) if short[-1:].isdigit() and k <= 26
                                else str(k))
                if name not in taken:
                    break
            taken.add(name)
            rename[(short, label)] = name
    return [rename.get((short.lower(), label), short.lower())
            for label, short in zip(labels, shorts, strict=True)]


# ---------------------------------------------------------------- cards
class CardBook:
    """How cards look and are typed: labels, colours, hand grouping, details and typed names.

    Cards of a kind with a ``text`` attribute (a card table: cards named by their ``name``)
    are grouped by kind and listed by name; other cards are grouped by their first enum
    attribute (``red 3 7 9``). Every card has a short name unique among labels
    (:func:`_unique_shorts`).

    Args:
        program: the compiled game (card tables; nothing about where cards are).
    """

    def __init__(self, program: Program) -> None:
        self.program = program
        self.index = {cid: i for i, cid in enumerate(program.card_ids)}
        lay = program.layout
        rs = program.ruleset
        self.enum_of_value: dict[str, tuple[int, int]] = {}
        for e_i, e in enumerate(rs.enums):
            for v_i, v in enumerate(e.values):
                self.enum_of_value.setdefault(v.name, (e_i, v_i))
        enums = {e.name for e in rs.enums}
        kinds = {k.name: k for k in rs.kinds}
        self.kind_order = {k.name: i for i, k in enumerate(rs.kinds)}
        self.kinds: list[int] = []
        self.styles: list[str] = []
        self.groups: list[tuple[Any, str, str]] = []  # (sort key, group label, style)
        self.rest: list[tuple[Any, ...]] = []
        self.words: list[set[str]] = []
        self.names: list[set[str]] = []
        self.named: list[bool] = []  # a card of a table kind, shown by its name
        self.details_of: list[str] = []
        self.shorts = _unique_shorts(list(program.card_labels), list(program.card_short))
        for c, attrs in enumerate(program.card_attrs):
            kind = kinds[attrs["kind"]]
            kind_label = kind.labels.get(program.lang, kind.name)
            named = any(a.text for a in kind.attrs)
            enum_attrs = [a.name for a in kind.attrs
                          if a.enum in enums and a.value is None and not a.set_of
                          and isinstance(attrs.get(a.name), str)]
            others = [a.name for a in kind.attrs if a.name not in enum_attrs]
            style = ""
            if enum_attrs and not named:
                first = attrs[enum_attrs[0]]
                label = program.enum_labels.get(first, first)
                style = colour_style(first) or colour_style(label) or ""
                self.groups.append(((0, self.enum_of_value.get(first, (0, 0)), ""), label,
                                    style))
            else:
                self.groups.append(((1, (self.kind_order[kind.name], 0), ""), kind_label, ""))
                enum_attrs = [] if named else enum_attrs
                others = [a.name for a in kind.attrs if a.name not in enum_attrs]
            self.styles.append(style)
            self.kinds.append(self.kind_order[kind.name])
            rest = tuple(_value_key(attrs.get(a), lay.sort_key)
                         for a in enum_attrs[1:] + others if a in attrs)
            if named:
                rest = ((2, program.card_labels[c].lower()), *rest)
            self.rest.append(rest)
            label = program.card_labels[c].lower()
            words = {kind.name.lower(), kind_label.lower()}
            for a in kind.attrs:
                value = attrs.get(a.name)
                for item in (value if isinstance(value, list | tuple) else [value]):
                    if item is None:
                        continue
                    words.add(str(item).lower())
                    if isinstance(item, str):
                        words.add(program.enum_labels.get(item, item).lower())
            names = {program.card_short[c].lower(), self.shorts[c], label,
                     label.replace(" ", ""), program.card_ids[c].lower()}
            if enum_attrs:
                initial = str(attrs[enum_attrs[0]])[:1].lower()
                for other in others:
                    if other in attrs and attrs[other] is not None:
                        names.add(initial + str(attrs[other]).lower())
            self.words.append(words)
            self.names.append(names)
            self.named.append(named)
            self.details_of.append(self._details(kind, attrs) if named else "")

    def _details(self, kind: ir.KindDecl, attrs: dict[str, Any]) -> str:
        """A table card's printed values in one line: ``Fighter/Rogue · hearts 1 · price 5 ·
        Rally`` (sets and enum values by label, numbers with their attribute's name, a 0..1
        attribute only by name when 1, an ability by the words before its colon)."""
        prog = self.program
        parts: list[str] = []
        for a in kind.attrs:
            v = attrs.get(a.name)
            if a.text or v is None:
                continue
            name = a.name.replace("_", " ")
            if isinstance(v, list | tuple):
                if v:
                    parts.append("/".join(str(prog.enum_labels.get(x, x)) for x in v))
            elif isinstance(v, bool):
                if v:
                    parts.append(name)
            elif isinstance(v, int):
                if (a.lo, a.hi) == (0, 1):
                    if v:
                        parts.append(name)
                else:
                    parts.append(f"{name} {v}")
            else:
                text = str(prog.enum_labels.get(v, v))
                parts.append(text.split(":", 1)[0] if len(text) > 24 else text)
        return " · ".join(parts)

    def short(self, cid: str) -> str:
        """The name a person types for the card (``r7``, ``ss2``)."""
        return self.shorts[self.index[cid]]

    def details(self, cid: str) -> str:
        """A table card's printed values (:meth:`_details`); "" for other cards."""
        return self.details_of[self.index[cid]] if cid in self.index else ""

    def long_texts(self, cid: str) -> list[str]:
        """The long labels of the card's enum values (an ability's whole text)."""
        if cid not in self.index:
            return []
        prog = self.program
        out = []
        for v in prog.card_attrs[self.index[cid]].values():
            text = prog.enum_labels.get(v) if isinstance(v, str) else None
            if text and len(text) > 24:
                out.append(text)
        return out

    def text(self, cid: str, extra: str = "") -> Text:
        """A card's label in its colour (``?`` shows as a hidden card)."""
        if cid not in self.index:
            return Text(tr(self.program.lang, "a_card"), style="dim")
        c = self.index[cid]
        return literal(self.program.card_labels[c] + extra, self.styles[c])

    def sort_key(self, cid: str) -> tuple[Any, ...]:
        c = self.index[cid]
        return (self.groups[c][0], self.kinds[c], self.rest[c], cid)

    def grouped(self, ids: Iterable[str]) -> Text:
        """Cards sorted and grouped by their first enum attribute: ``red 3 7 9 · yellow 2``.

        Within a group a card shows as its label without the group's word; cards without an
        enum attribute are grouped by kind (``Wild card ×2``).
        """
        out = Text()
        groups: dict[tuple[Any, str, str], list[str]] = {}
        for cid in sorted(ids, key=self.sort_key):
            groups.setdefault(self.groups[self.index[cid]], []).append(cid)
        for i, ((_, label, style), cids) in enumerate(groups.items()):
            if i:
                out.append(" · ", style="dim")
            if self.named[self.index[cids[0]]]:
                if len(groups) > 1:
                    out.append(label + ": ", style="bold")
                counts: dict[str, int] = {}
                for c in cids:
                    name = self.program.card_labels[self.index[c]]
                    counts[name] = counts.get(name, 0) + 1
                out.append(", ".join(n + (f" ×{k}" if k > 1 else "") for n, k in counts.items()))
                continue
            parts = [_strip_word(self.program.card_labels[self.index[c]], label) for c in cids]
            if all(not p for p in parts):
                out.append(label + (f" ×{len(cids)}" if len(cids) > 1 else ""), style=style)
                continue
            out.append(label + " ", style=style + " bold" if style else "bold")
            out.append(" ".join(p or label for p in parts), style=style)
        return out

    def matches(self, text: str, cid: str) -> bool:
        """Whether typed ``text`` names card ``cid`` exactly (short name, label, id)."""
        return text in self.names[self.index[cid]]

    def token_match(self, tokens: list[str], cid: str) -> bool:
        """Whether every typed word is one of the card's attribute values or kind."""
        words = self.words[self.index[cid]]
        return bool(tokens) and all(t in words for t in tokens)


def _strip_word(label: str, word: str) -> str:
    """``red 7`` without ``red`` -> ``7``; ``A of clubs`` without ``clubs`` -> ``A``."""
    if not word:
        return label
    rest = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", " ", label, count=1)
    if rest == label:
        rest = label.replace(word, " ", 1)
    tokens = rest.split()
    while tokens and len(tokens) > 1 and tokens[-1].islower() and len(tokens[-1]) <= 3:
        tokens.pop()
    while tokens and len(tokens) > 1 and tokens[0].islower() and len(tokens[0]) <= 3:
        tokens.pop(0)
    return " ".join(tokens) if tokens != [label] else label


# ---------------------------------------------------------------- what a seat may know
class SeatView:
    """The public part of an event stream, as seen by one seat (None: an onlooker).

    A card movement keeps its card only when the seat sees the zone it leaves or the zone it
    enters; otherwise the card becomes ``?`` (so a deal into other hands is a count). A card
    decision keeps its card when the decider is the seat or the card is then moved where the
    seat sees it; a secret decision (``"private": true``, the one secrecy flag) of another
    seat keeps only that it was made (its action becomes ``NAME:?``, told as "Seat 2 decides
    in secret: draft a card"); a
    trick's cards are named when the seat saw them arrive.

    Args:
        program: the compiled game.
        seat: the observing seat.
    """

    def __init__(self, program: Program, seat: int | None) -> None:
        self.program, self.seat = program, seat
        self.cards = set(program.card_ids)

    def _zone(self, ref: dict[str, Any]) -> int | None:
        base = self.program.layout.zone_id.get(str(ref.get("zone")))
        owner = ref.get("owner")
        return None if base is None else base + (owner if isinstance(owner, int) else 0)

    def sees(self, ref: dict[str, Any]) -> bool:
        """Whether the seat sees every card of the zone ``ref`` (``{"zone", "owner"}``), by
        the engine's one rule of visibility (:meth:`Program.view`)."""
        z = self._zone(ref)
        return z is not None and self.program.view(z, self.seat) == "all"

    def sees_arriving(self, ref: dict[str, Any]) -> bool:
        """Whether the seat sees a card that arrives in zone ``ref``: a zone it sees, or one
        that shows its top card (where the card arriving lands)."""
        z = self._zone(ref)
        return z is not None and self.program.view(z, self.seat) in ("all", "top")

    def filter(self, events: list[Event]) -> list[Event]:
        """The events the seat may know about, hidden cards replaced by ``?``; cards that go
        from a zone the seat sees into one it does not are named, but in card order, not the
        order they went in (a pile put face down under a deck: which cards, not where)."""
        out: list[Event] = []
        seen: set[str] = set()
        events = self._unordered(events)
        for i, ev in enumerate(events):
            kind = ev.get("type")
            if kind == "move":
                shown = self.sees(ev["from"]) or self.sees_arriving(ev["to"])
                if self.sees_arriving(ev["to"]):
                    seen.add(ev["card"])
                else:
                    seen.discard(ev["card"])
                out.append(ev if shown else {**ev, "card": HIDDEN, "attrs": {}})
            elif kind == "decision":
                out.append(self._decision(ev, itertools.islice(events, i + 1, None), seen))
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
            hides = ev.get("type") == "move" and self.sees(ev["from"]) and \
                not self.sees_arriving(ev["to"])
            if not hides or (run and (run[0]["from"], run[0]["to"]) != (ev["from"], ev["to"])):
                flush()
            if hides:
                run.append(ev)
            else:
                out.append(ev)
        flush()
        return out

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
                if self.sees_arriving(later["to"]) or self.sees(later["from"]):
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


# ---------------------------------------------------------------- the screen
def _var_text(program: Program, decl: ir.VarDecl, value: Any) -> str:
    if value is None:
        return program.word("none")
    if decl.type == "player" and isinstance(value, int):
        return program.seat_name(value)
    if decl.type == "card" and isinstance(value, int):
        return program.card_labels[value]
    return str(program.value_label(value))


def public_score(program: Program) -> bool:
    """Whether the ruleset's score reads only public zones (so showing it reveals nothing)."""
    zones = {z.name: z for z in program.ruleset.zones}
    names = {n.id for n in ir.walk(program.ruleset.score) if isinstance(n, ir.Name)}
    return all(zones[n].visibility == "public" for n in names if n in zones)


def render_screen(state: State, seat: int, since: list[Event], book: CardBook,
                  compact: bool = False) -> list[RenderableType]:
    """What ``seat`` sees at its turn, built from ``state.observation(seat)`` only.

    Args:
        state: the game (only its observation for ``seat`` is read, plus the legal actions
            and the ruleset's labels).
        seat: the human's seat.
        since: events since the seat's last turn, already filtered by :class:`SeatView`.
        book: card display.
        compact: only the new events and the question (a follow-up decision of the same
            seat).

    Returns:
        Renderables to print in order.
    """
    prog = state.program
    obs = state.observation(seat)
    out: list[RenderableType] = [Text("")]
    lines = SeatNarrator(prog, seat).lines(since)
    if lines:
        if not compact:
            out.append(Rule(Text(tr(prog.lang, "since"), style="bold"), align="left"))
        if len(lines) > SINCE_LIMIT:
            out.append(Text(tr(prog.lang, "earlier", k=len(lines) - SINCE_LIMIT), style="dim"))
        out.extend(lines[-SINCE_LIMIT:])
    if compact:
        out.append(_shared_zones(state, obs, book, details=False))
        out.extend(_own_zones(obs, seat, book, lang=prog.lang))
    else:
        out.extend(_status(state, obs, seat, book))
    out.extend(render_choices(state, seat, book))
    return out


def _status(state: State, obs: dict[str, Any], seat: int, book: CardBook) -> list[Any]:
    prog = state.program
    lang = prog.lang
    out: list[RenderableType] = []
    phase = prog.phases[state.phase].label(state) if state.phase is not None else ""
    out.append(Rule(literal(f"{prog.game.title} · {phase}", "bold"), align="left"))
    decls = {v.name: v for v in prog.ruleset.vars}
    shown = [(n, v) for n, v in obs["vars"].items() if n in decls]
    if len(shown) > MANY_VARS:  # many variables: those that are set
        shown = [(n, v) for n, v in shown if v is not None and v is not False]
    facts = [f"{decls[n].labels.get(lang, n)} {_var_text(prog, decls[n], v)}" for n, v in shown]
    if facts:
        out.append(literal(" · ".join(facts), "cyan"))
    out.append(_shared_zones(state, obs, book))
    per_player = {z["zone"] for z in obs["zones"] if z["owner"] is not None}
    if len(per_player) + len(obs.get("player_vars") or {}) > MANY_COLUMNS:
        out.extend(_seat_lines(state, obs, seat, book))
    else:
        out.append(_seat_table(state, obs, seat, book))
    out.extend(_own_zones(obs, seat, book, lang))
    return out


def _card_var_text(prog: Program, values: dict[str, Any] | None) -> str:
    """A card's variables after its label: `` (higher)`` when the ruleset has one card
    variable; with several, those set (not none, no or 0) with their labels:
    `` (coins on the card 10)``."""
    if not values:
        return ""
    decls = {v.name: v for v in prog.ruleset.vars if v.scope == "card"}
    if len(decls) <= 1:
        return "".join(f" ({prog.value_label(v)})" for v in values.values())
    out = ""
    for name, value in values.items():
        decl = decls.get(name)
        if decl is None or value is None or value is False or value == 0:
            continue
        label = decl.labels.get(prog.lang, name)
        out += f" ({label})" if value is True else \
            f" ({label} {_var_text(prog, decl, value)})"
    return out


def _own_zones(obs: dict[str, Any], seat: int, book: CardBook, lang: str | None) -> list[Text]:
    """The seat's own private zones (its hand...), sorted and grouped."""
    out = []
    own = [z for z in obs["zones"]
           if z["owner"] == seat and z["cards"] is not None and z["visibility"] != "public"]
    for z in own:
        if len(own) > 2 and not z["count"]:
            continue  # many private zones: only those holding cards
        line = literal(tr(lang, "your_zone", zone=z["label"], k=z["count"]), "bold")
        line.append(" ")
        line.append_text(book.grouped(z["cards"]) if z["cards"] else
                         Text(tr(lang, "empty"), style="dim"))
        out.append(line)
    return out


def _shared_zones(state: State, obs: dict[str, Any], book: CardBook,
                  details: bool = True) -> Text:
    """One line per shared zone: its cards, its top card, or a count when face down; with
    ``details``, a few table cards in a public zone also get a line each with their values."""
    prog = state.program
    lang = prog.lang
    card_vars = obs.get("card_vars") or {}
    shared = Text()
    zones = [z for z in obs["zones"] if z["owner"] is None]
    many = len(zones) > MANY_ZONES
    face_down: list[str] = []
    for z in zones:
        if many and z["cards"] is None and z["top"] is None:
            if z["count"]:
                face_down.append(f"{z['label']} {z['count']}")
            continue
        if many and not z["count"]:
            continue
        line = Text()
        line.append(f"{z['label']} ", style="bold")
        if z["cards"] is not None:
            line.append(f"({z['count']})")
            if z["cards"]:
                line.append(": ")
                for i, cid in enumerate(z["cards"][-12:]):
                    if i:
                        line.append(", ")
                    line.append_text(book.text(cid, _card_var_text(prog,
                                                                   card_vars.get(cid))))
                if z["count"] > 12:
                    line.append(" …", style="dim")
                if details and z["count"] <= DETAIL_LIMIT and \
                        all(book.details(c) for c in z["cards"]):
                    for cid in z["cards"]:
                        line.append(f"\n    {prog.card_labels[book.index[cid]]}: ", style="dim")
                        line.append(book.details(cid), style="dim")
        elif z["top"] is not None:
            line.append(f"({z['count']}), {tr(lang, 'top')} ")
            line.append_text(book.text(z["top"]))
        else:
            line.append(tr(lang, "hidden_count", k=z["count"]), style="dim")
        shared.append_text(line)
        shared.append("\n")
    if face_down:
        shared.append(tr(lang, "face_down", zones=" · ".join(face_down)), style="dim")
    shared.rstrip()
    return shared


def _seat_lines(state: State, obs: dict[str, Any], seat: int, book: CardBook) -> list[Text]:
    """Each seat in a line of its own, for rulesets with many per-player zones and variables:
    its player variables (a yes/no one only when yes), then its non-empty zones (the cards of
    public ones, a count of the others)."""
    prog = state.program
    lang = prog.lang
    decls = {v.name: v for v in prog.ruleset.vars}
    pvars = [(n, vals) for n, vals in (obs.get("player_vars") or {}).items() if n in decls]
    scores = state.scores() if public_score(prog) else None
    out = []
    for p in range(state.num_players):
        name = prog.seat_name(p)
        line = Text()
        line.append(tr(lang, "you", seat=name) if p == seat else name, style="bold")
        line.append(": ")
        parts: list[Text] = []
        if scores is not None:
            parts.append(Text(f"{tr(lang, 'score_col')} {scores[p]}"))
        for n, vals in pvars:
            label = decls[n].labels.get(lang, n)
            value = vals[p]
            if isinstance(value, bool) or value is None:
                if value:
                    parts.append(literal(label))
                continue
            parts.append(literal(f"{label} {_var_text(prog, decls[n], value)}"))
        for z in obs["zones"]:
            if z["owner"] != p or not z["count"]:
                continue
            if z["cards"] is not None and z["visibility"] == "public":
                part = literal(f"{z['label']}: ")
                for i, cid in enumerate(z["cards"][-6:]):
                    if i:
                        part.append(", ")
                    part.append_text(book.text(cid))
                if z["count"] > 6:
                    part.append(" …", style="dim")
            elif z["top"] is not None:
                part = literal(f"{z['label']} {z['count']}, {tr(lang, 'top')} ")
                part.append_text(book.text(z["top"]))
            else:
                part = literal(f"{z['label']} {z['count']}")
            parts.append(part)
        for i, part in enumerate(parts):
            if i:
                line.append(" · ", style="dim")
            line.append_text(part)
        out.append(line)
    return out


def _seat_table(state: State, obs: dict[str, Any], seat: int, book: CardBook) -> Table:
    prog = state.program
    lang = prog.lang
    per_seat: dict[str, list[dict[str, Any]]] = {}
    for z in obs["zones"]:
        if z["owner"] is not None:
            per_seat.setdefault(z["zone"], []).append(z)
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0), show_edge=False)
    table.add_column(tr(lang, "seat_col"), no_wrap=True)
    for zones in per_seat.values():
        table.add_column(literal(zones[0]["label"]), justify="right", overflow="fold")
    decls = {v.name: v for v in prog.ruleset.vars}
    pvars = [(n, vals) for n, vals in (obs.get("player_vars") or {}).items() if n in decls]
    for name, _ in pvars:
        table.add_column(literal(decls[name].labels.get(lang, name)), justify="right")
    scores = state.scores() if public_score(prog) else None
    if scores is not None:
        table.add_column(tr(lang, "score_col"), justify="right")
    for p in range(state.num_players):
        name = prog.seat_name(p)
        row: list[Any] = [Text(tr(lang, "you", seat=name), style="bold") if p == seat else
                          Text(name)]
        for zones in per_seat.values():
            z = zones[p]
            cell = Text(str(z["count"]))
            if z["visibility"] == "public" and z["cards"]:
                cell.append(f", {tr(lang, 'top')} ")
                cell.append_text(book.text(z["cards"][-1]))
            elif z["top"] is not None:
                cell.append(f", {tr(lang, 'top')} ")
                cell.append_text(book.text(z["top"]))
            row.append(cell)
        for name_, vals in pvars:
            row.append(literal(_var_text(prog, decls[name_], vals[p])))
        if scores is not None:
            row.append(str(scores[p]))
        table.add_row(*row)
    return table


def choice_list(state: State, book: CardBook | None = None) -> list[Action]:
    """The legal actions as offered to a person: copies of the same card (same label) once,
    cards in hand order (grouped and sorted as :meth:`CardBook.grouped`) before the others."""
    out: list[Action] = []
    labels: set[str] = set()
    legal = state.legal_actions()
    if book is not None:
        ids = state.program.card_ids
        cards = sorted((a for a in legal if a.card and isinstance(a.value, int)),
                       key=lambda a: book.sort_key(ids[a.value]))
        legal = cards + [a for a in legal if not (a.card and isinstance(a.value, int))]
    for a in legal:
        key = a.label if a.card else a.id
        if key in labels:
            continue
        labels.add(key)
        out.append(a)
    return out


def by_value(actions: list[Action]) -> bool:
    """Whether the choices are numbers, so a typed number means the value, not a position."""
    values = [a.value for a in actions if a.value is not None]
    return bool(values) and not any(a.card for a in actions) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in values)


def question(state: State, actions: list[Action]) -> str:
    """The pending decision's prompt, with a question mark for a yes/no question."""
    prompt = state.prompt()
    if actions and all(isinstance(a.value, bool) for a in actions) and \
            not prompt.endswith(("?", "？")):
        prompt += "？" if state.program.lang == "ja" else "?"
    return prompt


def render_choices(state: State, seat: int, book: CardBook) -> list[RenderableType]:
    """The question and its numbered choices, fitted to 80 columns.

    Cards show with their short names; when the choices are numbers they are typed as
    themselves; a skip or pass goes on its own line.
    """
    prog = state.program
    lang = prog.lang
    actions = choice_list(state, book)
    numbers = by_value(actions)
    title = tr(lang, "your_turn", seat=prog.seat_name(seat), prompt=question(state, actions))
    out: list[RenderableType] = [Rule(literal(title, "bold reverse"), align="left")]
    cells, extra = [], []
    ids = prog.card_ids
    if any(a.card and isinstance(a.value, int) and book.details(ids[a.value])
           for a in actions):
        return out + _choice_rows(actions, book, lang)
    for i, a in enumerate(actions, 1):
        if a.value is None and len(actions) > 1:
            key = a.id.split(":", 1)[-1] if numbers else str(i)
            extra.append(Text.assemble((f"{key:>2} ", "bold"), a.label))
            continue
        if numbers:
            cells.append(literal(f"{a.label:>2}", "bold"))
            continue
        cell = Text(f"{i:>2} ", style="bold")
        if a.card and isinstance(a.value, int):
            cell.append_text(book.text(prog.card_ids[a.value]))
            cell.append(f"  {book.short(prog.card_ids[a.value])}", style="dim")
        else:
            cell.append(a.label)
        cells.append(cell)
    if cells:
        width = max(c.cell_len for c in cells) + 3
        cols = max(1, min(len(cells), 78 // width))
        grid = Table.grid(padding=(0, 3, 0, 0))
        for _ in range(cols):
            grid.add_column(no_wrap=True)
        for r in range(0, len(cells), cols):
            row = cells[r:r + cols]
            grid.add_row(*row, *([""] * (cols - len(row))))
        out.append(grid)
    out.extend(extra)
    example = _example(actions, book)
    key = "how_value" if numbers else "how_card" if example else "how"
    if len(actions) == 1:
        key = "how_one"
    out.append(Text(tr(lang, key, n=len(actions), example=example or "", commands=COMMANDS),
                    style="dim"))
    return out


def _example(actions: list[Action], book: CardBook) -> str | None:
    """The short name of the first card among the choices (for the typing hint)."""
    return next((book.short(book.program.card_ids[a.value]) for a in actions
                 if a.card and isinstance(a.value, int)), None)


def _choice_rows(actions: list[Action], book: CardBook, lang: str | None) -> list[Any]:
    """Choices among table cards: one row each, with the short name and the card's printed
    values (wrapped within 80 columns), then the other answers and the typing hint."""
    ids = book.program.card_ids
    grid = Table.grid(padding=(0, 1, 0, 0))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(no_wrap=True, max_width=24, overflow="ellipsis")
    grid.add_column(no_wrap=True, style="bold cyan")
    grid.add_column(style="dim", overflow="fold")
    extra: list[Any] = []
    for i, a in enumerate(actions, 1):
        if a.card and isinstance(a.value, int):
            cid = ids[a.value]
            grid.add_row(Text(str(i), style="bold"), book.text(cid), literal(book.short(cid)),
                         literal(book.details(cid)))
        else:
            extra.append(Text.assemble((f"{i:>{len(str(len(actions)))}} ", "bold"), a.label))
    example = _example(actions, book)
    key = "how_one" if len(actions) == 1 else "how_card"
    hint = Text(tr(lang, key, n=len(actions), example=example or "", commands=COMMANDS),
                style="dim")
    return [grid, *extra, hint]


# ---------------------------------------------------------------- reading a choice
def parse_choice(text: str, actions: list[Action], book: CardBook) -> tuple[Action | None, str]:
    """The action that typed ``text`` names, or None and a hint saying what to type.

    Accepted: the number of a choice; a card's short name, label or id; words naming its
    attributes (``red 7``, ``7`` when only one legal card is a 7); a choice's label or value
    (``yes``, ``skip``) or a unique beginning of it (``y``).
    """
    lang = book.program.lang
    t = " ".join(text.lower().split())
    n = len(actions)
    if by_value(actions) and t.lstrip("-").isdigit():
        found = [a for a in actions if a.value is not None and str(a.value) == t]
        if found:
            return found[0], ""
        values = ", ".join(a.label for a in actions if a.value is not None)
        return None, tr(lang, "bad_value", text=text.strip(), values=values)
    if t.isascii() and t.isdigit():  # '²' and '①' are digits to Python, not numbers
        k = int(t) if len(t) < 10 else n + 1
        if 1 <= k <= n:
            return actions[k - 1], ""
        return None, tr(lang, "bad_number", k=t if len(t) < 10 else t[:9] + "...", n=n)
    ids = book.program.card_ids

    def card_id(a: Action) -> str | None:
        return ids[a.value] if a.card and isinstance(a.value, int) else None

    def keys(a: Action) -> set[str]:
        value = a.id.split(":", 1)[1] if ":" in a.id else a.id
        return {a.id.lower(), value.lower(), a.label.lower()}

    exact = [a for a in actions if t in keys(a) or ((cid := card_id(a)) and book.matches(t, cid))]
    if not exact:
        tokens = [w for w in re.split(r"[\s,]+", t) if w and w != "of"]
        exact = [a for a in actions if (cid := card_id(a)) and book.token_match(tokens, cid)]
    if not exact:
        exact = [a for a in actions if not a.card and a.label.lower().startswith(t)]
    if len(exact) == 1:
        return exact[0], ""
    if exact:
        options = ", ".join(f"{actions.index(a) + 1} {a.label}" for a in exact[:8])
        return None, tr(lang, "ambiguous", text=text.strip(), options=options)
    known = [c for c in ids if book.matches(t, c)] or \
        [c for c in ids if book.token_match(t.split(), c)]
    if known:
        return None, tr(lang, "not_legal", text=text.strip(), n=n)
    return None, tr(lang, "unknown", text=text.strip(), n=n)


# ---------------------------------------------------------------- help and moves
def rule_excerpt(state: State) -> tuple[str, list[str]]:
    """Where the pending decision is written in the ruleset, and its lines with the comments
    just above it (the rule's own words); ``after`` blocks of a trick are left out."""
    if state.pending is None:
        return "", []
    span = getattr(state.program.nodes[state.pending[1]], "span", None)
    text = state.program.game.checked.sources.get(span.file) if span is not None else None
    if span is None or not span.line or text is None:  # the text the game was loaded from
        return "", []
    lines = text.splitlines()
    first = span.line - 1
    start = first
    while start > 0 and lines[start - 1].strip().startswith("#"):
        start -= 1
    end = max(span.end_line, span.line)
    body: list[str] = []
    skip_indent: int | None = None
    base = len(lines[first]) - len(lines[first].lstrip())
    for k, line in enumerate(lines[first:end]):
        indent = len(line) - len(line.lstrip())
        if k and line.strip() and indent <= base:
            break
        if skip_indent is not None and (indent > skip_indent or not line.strip()):
            continue
        skip_indent = None
        if line.strip().startswith("after ") and line.rstrip().endswith(":"):
            skip_indent = indent
            continue
        body.append(line)
    excerpt = lines[start:first] + body
    return f"{span.file}:{span.line}", [ln for ln in excerpt[:16]]


def render_help(state: State, seat: int, book: CardBook) -> list[RenderableType]:
    """``help``: the phase, the question, the rule text of this decision and how to answer."""
    prog = state.program
    lang = prog.lang
    out: list[RenderableType] = [Rule(Text(tr(lang, "help_title"), style="bold"), align="left")]
    phase = prog.phases[state.phase].label(state) if state.phase is not None else ""
    out.append(literal(tr(lang, "help_phase", phase=phase, seat=prog.seat_name(seat),
                          prompt=state.prompt())))
    if prog.ruleset.about:
        out.append(literal(tr(lang, "help_about", title=prog.game.title,
                              about=prog.ruleset.about), "dim"))
    where, excerpt = rule_excerpt(state)
    if excerpt:
        out.append(literal(tr(lang, "help_rule", where=where)))
        indent = min(len(ln) - len(ln.lstrip()) for ln in excerpt if ln.strip())
        out.append(literal("\n".join("  " + ln[indent:] for ln in excerpt), "green"))
    actions = choice_list(state, book)
    out.append(literal(tr(lang, "help_legal", labels=", ".join(a.label for a in actions))))
    example = _example(actions, book)
    cards = [book.program.card_ids[a.value] for a in actions
             if a.card and isinstance(a.value, int)]
    for cid in cards:
        for text in book.long_texts(cid):
            out.append(literal(f"  {prog.card_labels[book.index[cid]]}: {text}"))
    out.append(Text(tr(lang, "help_typing" if example else "help_typing_plain",
                       example=example, commands=COMMANDS), style="dim"))
    return out


def render_moves(events: list[Event], view: SeatView, book: CardBook,
                 tricks: int = 3) -> list[RenderableType]:
    """``moves``: the last ``tricks`` finished tricks: who played what, and who won."""
    prog = view.program
    lang = prog.lang
    filtered = view.filter(events)
    played: dict[str, int] = {}
    found: list[tuple[Event, list[tuple[int | None, str]]]] = []
    for ev in filtered:
        if ev.get("type") == "decision" and ":" in str(ev.get("action")):
            played[str(ev["action"]).split(":", 1)[1]] = ev["player"]
        elif ev.get("type") == "trick":
            found.append((ev, [(played.get(c), c) for c in ev.get("cards", [])]))
    if not found:
        return [Text(tr(lang, "no_tricks"), style="dim")]
    out: list[RenderableType] = [Rule(Text(tr(lang, "last_tricks"), style="bold"),
                                      align="left")]
    narrator = SeatNarrator(prog, view.seat)
    for ev, plays in found[-tricks:]:
        line = Text(tr(lang, "won_by", seat=narrator.seat(ev["winner"])) + " ", style="bold")
        line.append_text(book.text(str(ev.get("card"))))
        line.append(": ")
        for i, (p, cid) in enumerate(plays):
            if i:
                line.append(", ")
            if p is not None:
                line.append(narrator.seat(p) + " ")
            line.append_text(book.text(cid))
        out.append(line)
    return out


# ---------------------------------------------------------------- the seat
class HumanSeat:
    """Asks a person at the terminal for one seat's decisions.

    Args:
        console: where screens are printed.
        ask: reads one line (``input``); raises EOFError / KeyboardInterrupt as ``input`` does.
        save: writes the session to a file (None: the default file) and says so, or says why
            it could not (the game goes on either way).
        default_save: the file ``save`` and ``quit`` use when no name is given.
    """

    def __init__(self, console: Console, ask: Callable[[str], str],
                 save: Callable[[str | None], object], default_save: str) -> None:
        self.console, self.ask, self.save, self.default_save = console, ask, save, default_save

    def show(self, items: Iterable[RenderableType]) -> None:
        for item in items:
            self.console.print(item)

    def choose(self, state: State, seat: int, since: list[Event], book: CardBook,
               history: list[Event], compact: bool = False) -> Action:
        """Show the seat's screen and read until a legal choice is typed.

        Args:
            state: the game; ``seat`` must be deciding.
            seat: the human's seat.
            since: filtered events since its last turn.
            book: card display and names.
            history: recent raw events (for ``moves``; filtered here).
            compact: a follow-up decision (see :func:`render_screen`).

        Raises:
            SaveRequest: ``quit`` and the person wants the game saved.
            QuitRequest: ``quit`` without saving.
            EOFError, KeyboardInterrupt: end of input or Ctrl-C (the caller saves).
        """
        lang = state.program.lang
        self.show(render_screen(state, seat, since, book, compact))
        actions = choice_list(state, book)
        while True:
            text = self.ask("> ").strip()
            word, _, rest = text.partition(" ")
            word = word.lower()
            if not text:
                self.console.print(tr(lang, "empty_input", n=len(actions)), style="yellow")
            elif text.lower() in ("help", "?"):
                self.show(render_help(state, seat, book))
            elif text.lower() in ("moves", "tricks"):
                self.show(render_moves(history, SeatView(state.program, seat), book))
            elif text.lower() in ("show", "look"):
                self.show(render_screen(state, seat, [], book))
            elif word == "save":
                self.save(rest.strip() or None)  # says where, or why not, and play goes on
            elif text.lower() in ("quit", "exit"):
                answer = self.ask(clean(tr(lang, "quit_save", path=self.default_save)))
                answer = answer.strip().lower()
                if answer in ("", "y", "yes"):
                    raise SaveRequest()
                if answer in ("n", "no"):
                    raise QuitRequest()
                self.console.print(tr(lang, "quit_cancel"), style="yellow")
            else:
                action, hint = parse_choice(text, actions, book)
                if action is not None:
                    return action
                self.console.print(literal(hint, "yellow"))  # it quotes what was typed
