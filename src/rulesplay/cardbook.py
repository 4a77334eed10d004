"""How cards look and are named at the table: colours, short names (``r7``, ``ss2``), labels
and details, for screens and for reading a typed choice."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.color import Color, ColorParseError
from rich.text import Text

from . import ir
from .terminal import literal
from .words import tr

if TYPE_CHECKING:
    from .engine.program import Program

COLOUR_ALIASES = {"orange": "dark_orange", "grey": "grey50", "gray": "grey50", "pink": "pink1",
                  "brown": "orange4", "gold": "gold1", "silver": "grey70"}




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
