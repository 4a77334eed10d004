"""A human at the table: reading a seat's choice from the terminal (:class:`HumanSeat`,
:func:`parse_choice`). What the seat sees is built by :mod:`rulesplay.screens` from its
observation and :mod:`rulesplay.seatview` (the public part of the events: decisions of others,
trick winners, card movements whose card the seat saw leave or arrive); cards are named by
:mod:`rulesplay.cardbook`. Hidden cards never reach the screen. This module re-exports those
names for its earlier importers.

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
grouped by kind, and listed one per line with their printed values (``Iron Shield  is2
Guard · hearts 1 · price 5 · attack 1 · defense 2``); rulesets with many zones get
one line per seat instead of a table, and face-down shared zones share one line.

Choosing: a number, or a card's short name (``r7``: the first letter of each enum value and
the number; ``ss2``: the initials of a name, numbered when two names share them; or the
ruleset's ``short``), its label (``red 7``) or a unique part of it (``7`` when only one 7 may
be played); several cards chosen at once, their names on one line (``c5 h9 h3``:
:mod:`rulesplay.set_input`); ``help``, ``moves``, ``show``, ``save [FILE]`` and ``quit`` are
commands.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rich.console import Console, RenderableType

from .terminal import clean, literal
from .words import tr

if TYPE_CHECKING:
    from .engine.choices import Action
    from .engine.state import State

from .cardbook import CardBook, colour_style
from .events import Event
from .screens import (
    by_value,
    choice_list,
    many_numbers,
    numbers_text,
    public_score,
    question,
    render_choices,
    render_help,
    render_moves,
    render_screen,
    rule_excerpt,
)
from .seatview import SeatNarrator, SeatView
from .set_input import is_set_choice, numbered, parse_set

__all__ = ["CardBook", "HumanSeat", "QuitRequest", "SaveRequest", "SeatNarrator", "SeatView",
           "by_value", "choice_list", "colour_style", "parse_choice", "public_score",
           "question", "render_choices", "render_help", "render_moves", "render_screen",
           "rule_excerpt"]





class SaveRequest(Exception):
    """Raised by a human seat that wants the game saved and left (``quit`` with saving)."""


class QuitRequest(Exception):
    """Raised by a human seat that leaves without saving now.

    Args:
        saved: the file the game was saved to as it is now (``save`` just before ``quit``),
            or None: left unsaved.
    """

    def __init__(self, saved: str | None = None) -> None:
        super().__init__(saved)
        self.saved = saved


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
        many = many_numbers(actions)
        shown = text.strip() if len(text.strip()) <= 24 else text.strip()[:21] + "..."
        if many is not None:
            return None, tr(lang, "bad_many", text=shown, numbers=numbers_text(many, lang))
        values = ", ".join(a.label for a in actions if a.value is not None)
        return None, tr(lang, "bad_value", text=shown, values=values)
    if t.isdigit() and is_set_choice(actions) and not numbered(actions):
        return None, tr(lang, "set_no_number", n=len(actions))
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
    if not exact and is_set_choice(actions):  # several cards, typed on one line
        return parse_set(text, actions, book)
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


# ---------------------------------------------------------------- the seat
class HumanSeat:
    """Asks a person at the terminal for one seat's decisions.

    Args:
        console: where screens are printed.
        ask: reads one line (``input``); raises EOFError / KeyboardInterrupt as ``input`` does.
        save: writes the session to a file (None: the default file) and says so, or says why
            it could not (the game goes on either way); returns whether it saved.
        default_save: the file ``save`` and ``quit`` use when no name is given.
    """

    def __init__(self, console: Console, ask: Callable[[str], str],
                 save: Callable[[str | None], object], default_save: str) -> None:
        self.console, self.ask, self.save, self.default_save = console, ask, save, default_save
        # (game, decisions made, file) of the last save, so 'quit' right after it leaves
        self.saved: tuple[int, int, str] | None = None

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
            if not text and by_value(actions):  # the numbers themselves, not 1..n
                values = [a.value for a in actions if isinstance(a.value, int)]
                self.console.print(tr(lang, "empty_value", numbers=numbers_text(values, lang)),
                                   style="yellow")
            elif not text:
                self.console.print(tr(lang, "empty_input", n=len(actions)), style="yellow")
            elif text.lower() in ("help", "?"):
                self.show(render_help(state, seat, book))
            elif text.lower() in ("moves", "tricks"):
                self.show(render_moves(history, SeatView(state.program, seat), book))
            elif text.lower() in ("show", "look"):
                self.show(render_screen(state, seat, [], book))
            elif word == "save":
                path = rest.strip() or None  # says where, or why not, and play goes on
                if self.save(path):
                    self.saved = (id(state), len(state.history), path or self.default_save)
            elif text.lower() in ("quit", "exit") and self.saved is not None \
                    and self.saved[:2] == (id(state), len(state.history)):
                raise QuitRequest(self.saved[2])  # saved as it is now: nothing to ask
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
