"""Several cards chosen as one decision, at the terminal: how the choice is shown
(:func:`render_set_choice`) and how a typed line names a set (:func:`parse_set`).

A person types the cards of the set on one line, separated by commas or spaces: their short
names (``c5 h9 h3``), labels (``5 of clubs, 9 of hearts``) or ids; in any order. When there
are few sets they are also numbered, and a number picks one (else a number is refused);
``skip`` or ``pass`` as usual.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rich.console import RenderableType
from rich.text import Text

from .engine.actions import SetAction
from .terminal import literal
from .words import tr

if TYPE_CHECKING:
    from .cardbook import CardBook
    from .engine.card_sets import CardSets
    from .engine.choices import Action

LISTED = 12  # at most this many sets are also listed, numbered


def is_set_choice(actions: list[Action]) -> bool:
    """Whether the choice takes several cards at once (its actions are sets)."""
    return any(a.__class__ is SetAction for a in actions)


def numbered(actions: list[Action]) -> bool:
    """Whether the sets are few enough to be listed, numbered (else a number is refused:
    it would pick a set the person was not shown)."""
    return len(actions) <= LISTED


def _cards_of(actions: list[Action]) -> list[int]:
    """Every card some set holds, in card order."""
    return sorted({c for a in actions if a.__class__ is SetAction for c in a.value})


def render_set_choice(actions: list[Action], book: CardBook,
                      sets: CardSets) -> list[RenderableType]:
    """The lines of a set choice below its question: the cards it takes from, with their
    short names; the sets, numbered, when there are few; what to type (how many cards:
    ``sets``, the decision's count)."""
    prog = book.program
    ids, lang = prog.card_ids, prog.lang
    out: list[RenderableType] = []
    cards = _cards_of(actions)
    line = Text()
    for c in cards:
        line.append_text(book.text(ids[c]))
        line.append(f" {book.short(ids[c])}   ", style="dim")
    out.append(line)
    if numbered(actions):
        for i, a in enumerate(actions, 1):
            out.append(Text.assemble((f"{i:>2} ", "bold"), a.label))
    else:  # too many to list: the cards are typed, a skip or a pass by its word
        for a in actions:
            if a.value is None:
                word = a.id.split(":", 1)[-1]
                out.append(Text.assemble((f"{word:>2} ", "bold"), a.label))
    count = str(sets.low) if sets.low == sets.high else f"{sets.low}..{sets.high}"
    out.append(literal(tr(lang, "set_hint", count=count, example=_example(actions, book)),
                       "dim"))
    return out


def _example(actions: list[Action], book: CardBook) -> str:
    """The first set of ``actions`` as it would be typed: its cards' short names."""
    ids = book.program.card_ids
    return " ".join(book.short(ids[c]) for c in next(
        a.value for a in actions if a.__class__ is SetAction))


def parse_set(text: str, actions: list[Action], book: CardBook) -> tuple[Action | None, str]:
    """The set of ``actions`` that typed ``text`` names, card by card, or None and a hint.

    Each part (split at commas, else at spaces) must name exactly one card of those the sets
    hold: by short name, label or id (:meth:`CardBook.matches`), else by its words
    (:meth:`CardBook.token_match`: ``9 hearts``).
    """
    lang = book.program.lang
    ids = book.program.card_ids
    cards = _cards_of(actions)
    t = " ".join(text.lower().split())
    parts = [p.strip() for p in t.split(",")] if "," in t else t.split()
    chosen: set[int] = set()
    for part in parts:
        if not part:
            continue
        found = [c for c in cards if book.matches(part, ids[c])] or \
            [c for c in cards if book.token_match(
                [w for w in re.split(r"\s+", part) if w != "of"], ids[c])]
        labels = {book.program.card_labels[c] for c in found}
        free = [c for c in found if c not in chosen]
        if not found or len(labels) > 1 or not free:  # (copies of one card: any free one)
            if part.isdigit():  # (a position in the hand, or a set's number, as elsewhere)
                return None, tr(lang, "set_number", text=part, example=_example(actions, book))
            key = "set_unknown" if not found else "set_ambiguous"
            return None, tr(lang, key, text=part)
        chosen.add(free[0])
    want = tuple(sorted(chosen))
    for a in actions:
        if a.__class__ is SetAction and a.value == want:
            return a, ""
    return None, tr(lang, "set_not_legal", text=text.strip())
