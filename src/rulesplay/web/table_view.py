"""What a table's page is sent: one seat's (or an onlooker's) view of the game, built from
``state.observation(seat)``, the seat's legal actions and the account of the game as
:class:`~rulesplay.seatview.SeatView` lets that seat read it, in the terminal's words
(:class:`~rulesplay.seatview.SeatNarrator`). Nothing else of the state is read, so a message
to a seat can hold no card that seat may not see.

A view (JSON)::

    {"type": "view", "seat": 0 | null, "title", "phase", "version": decisions so far,
     "to_move": seat | null, "to_move_name", "busy": bots are moving, "terminal",
     "prompt", "your_turn" (the terminal's words, at the seat's turn), "error",
     "facts": [[label, value]], "seats": [{"seat", "name", "you", "kind", "score",
     "vars": [[label, value]]}], "zones": [{"area": "mine" | "shared" | "seat", "owner",
     "label", "title", "count", "cards": [card id] | null, "top": card id | null,
     "public", "hand": a zone the seat plays or picks cards from}],
     "cards": {card id: {"label", "colour", "corner", "kind", "texts", "order", "vars"}},
     "moves": null | {"prompt", "actions": [{"id", "label", "card"}], "set": null |
     {"cards", "low", "high", "sets"}}, "account": [[kind, text]], "account_from": index,
     "result": null | {"winner", "head", "rows", "bold"}, "log": url | null}
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from rich.color import Color
from rich.rule import Rule
from rich.text import Text

from ..cardbook import CardBook
from ..engine.actions import SetAction
from ..engine.program import Program
from ..ir import Call, Choose, Name, Num, Trick, walk
from ..narrate import score_table, winner_line
from ..screens import public_score
from ..seatview import SeatNarrator, SeatView
from ..session import HUMAN
from ..words import tr
from .html import isolate_texts

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..engine.state import State
    from ..events import Event

__all__ = ["Accounts", "card_faces", "view"]

Line = list[str]  # [kind, text]: kind "head" (a phase), "dim", "say" or "line"
SETS_SENT = 400  # a set choice with at most this many legal sets sends them (else sizes only)
# The names in a view the page sends back or looks things up by (left as they are when its
# shown text is isolated: see :func:`.html.isolate_texts`).
IDS = frozenset({"type", "id", "zone", "cards", "top", "card", "sets", "log", "area",
                 "colour", "choice"})


class Accounts:
    """The account of one game as each seat and an onlooker may read it, kept up to date
    move by move (:meth:`follow`).

    Args:
        state: the game, recording events (``state.events``).
    """

    def __init__(self, state: State) -> None:
        self.state = state
        prog = state.program
        self.fed = 0
        self.viewers: list[int | None] = [None, *range(state.num_players)]
        self.lines: dict[int | None, list[Line]] = {v: [] for v in self.viewers}
        self.followers: dict[int | None, Callable[[list[Event]], list[Event]]] = {
            v: SeatView(prog, v).follower() for v in self.viewers}
        self.narrators = {v: SeatNarrator(prog, v) for v in self.viewers}
        self.ended = False

    def follow(self) -> None:
        """Tell every viewer the events since the last call (whole moves: a decision and
        what follows from it), and the final scores once the game is over."""
        events = self.state.events or []
        piece, self.fed = events[self.fed:], len(events)
        if piece:
            for v in self.viewers:
                narrator = self.narrators[v]
                narrator.sink.items = []
                self.lines[v].extend(_plain(narrator.lines(self.followers[v](piece))))
        if self.state.is_terminal() and not self.ended:
            self.ended = True
            result = result_text(self.state)
            for v in self.viewers:
                self.lines[v].append(["head", result["winner"]])


def _plain(items: list[Any]) -> list[Line]:
    """The narrator's renderables as ``[kind, text]`` lines."""
    out: list[Line] = []
    for item in items:
        if isinstance(item, Rule):
            title = item.title
            out.append(["head", title.plain if isinstance(title, Text) else str(title)])
        elif isinstance(item, Text):
            if not item.plain.strip():
                continue
            style = str(item.style or "")
            kind = "dim" if "dim" in style else "say" if "italic" in style else "line"
            out.append([kind, item.plain])
        else:
            out.append(["line", str(item)])
    return out


def result_text(state: State) -> dict[str, Any]:
    """The final score table as the terminal prints it, as data (``head``: the column
    titles, ``rows``: a list of cells per seat, ``bold``: which rows are winners'), and who
    won (``winner``)."""
    table = score_table(state)
    cells = [[_text(c) for c in column.cells] for column in table.columns]
    winners = set(state.winners())
    return {"winner": winner_line(state),
            "head": [_text(c.header) for c in table.columns],
            "rows": [list(row) for row in zip(*cells, strict=True)],
            "bold": [seat in winners for seat in range(state.num_players)]}


def _text(cell: object) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


# ---------------------------------------------------------------- cards
_FACES: weakref.WeakKeyDictionary[Program, list[dict[str, Any]]] = \
    weakref.WeakKeyDictionary()


def _css(style: str) -> str | None:
    """A rich colour name as a CSS colour (``#rrggbb``), or None."""
    if not style:
        return None
    triplet = Color.parse(style).get_truecolor()
    return f"#{triplet.red:02x}{triplet.green:02x}{triplet.blue:02x}"


def card_faces(program: Program) -> list[dict[str, Any]]:
    """How each card of the game looks, by card number: its label, colour (CSS, from its
    first enum attribute when that names a colour), corner (the shortest attribute value of
    at most 3 characters written in its label: the number or rank), kind, texts (printed
    values, abilities) and order (its place when a hand is sorted, as the terminal sorts
    it). Fixed facts of the ruleset, made once per program."""
    if program in _FACES:
        return _FACES[program]
    book = CardBook(program)
    enum_values = set(program.enum_labels)
    kinds = {k.name: k for k in program.ruleset.kinds}
    faces = []
    order = {cid: k for k, cid in enumerate(sorted(program.card_ids, key=book.sort_key))}
    for c, attrs in enumerate(program.card_attrs):
        label = program.card_labels[c]
        words = label.split()
        corner = ""
        for name, value in attrs.items():
            if name == "kind" or isinstance(value, bool | list | tuple) or value is None \
                    or (isinstance(value, str) and value in enum_values):
                continue
            text = str(value)
            if text in words and len(text) <= 3 and (not corner or len(text) < len(corner)):
                corner = text
        kind = kinds.get(str(attrs.get("kind")))
        texts = [t for t in [book.details(program.card_ids[c]),
                             *book.long_texts(program.card_ids[c])] if t]
        faces.append({"label": label, "colour": _css(book.styles[c]), "corner": corner,
                      "kind": kind.labels.get(program.lang, kind.name) if kind else "",
                      "texts": texts, "order": order[program.card_ids[c]]})
    _FACES[program] = faces
    return faces


_HANDS: weakref.WeakKeyDictionary[Program, frozenset[str]] = weakref.WeakKeyDictionary()


def hand_zones(program: Program) -> frozenset[str]:
    """The per-player zones a seat plays or picks cards from: those named in a trick's
    source or in a card choice's domain (not inside ``values(...)``, whose answers are
    values, not cards). The table keeps these in view beside the legal moves."""
    if program in _HANDS:
        return _HANDS[program]
    per_player = {z.name for z in program.ruleset.zones if z.per_player}
    found: set[str] = set()
    for node in walk(program.ruleset):
        if isinstance(node, Choose | Trick):
            stack: list[Any] = [node.domain if isinstance(node, Choose) else node.source]
            while stack:
                expr = stack.pop()
                if isinstance(expr, Call) and expr.func == "values":
                    continue
                if isinstance(expr, Name) and expr.id in per_player:
                    found.add(expr.id)
                stack.extend(expr.children())
    _HANDS[program] = frozenset(found)
    return _HANDS[program]


def _card_vars(program: Program, values: dict[str, Any] | None) -> list[str]:
    """A card's variables a seat sees, as ``label value`` texts: those set (not none, not
    no, and not a number still at its declared default)."""
    decls = {v.name: v for v in program.ruleset.vars if v.scope == "card"}
    out = []
    for name, value in (values or {}).items():
        decl = decls.get(name)
        if decl is None or value is None or value is False:
            continue
        if isinstance(decl.default, Num) and value == decl.default.value \
                and not isinstance(value, bool):
            continue
        label = decl.labels.get(program.lang, name)
        out.append(label if value is True
                   else f"{label}: {_value_text(program, decl.type, value)}")
    return out


# ---------------------------------------------------------------- the view
def _value_text(program: Program, typ: str, value: Any) -> str:
    if value == "?":
        return "?"
    return program.show(value, typ if typ in ("card", "player", "team") else "any")


def view(state: State, seat: int | None, seats: dict[int, str], *, busy: bool,
         account: list[Line], account_from: int, log: str | None,
         error: str | None = None) -> dict[str, Any]:
    """The message for ``seat`` (None: an onlooker) about ``state`` now.

    Args:
        state: the game (read through ``observation(seat)`` and, at the seat's turn, its
            legal actions).
        seat: the viewing seat.
        seats: seat -> ``human`` or the bot's spec (public: who sits where).
        busy: bots are moving.
        account: the seat's account lines from ``account_from`` on.
        account_from: the index of the first of ``account`` in the whole account.
        log: where the finished game's log can be downloaded (None while playing).
        error: why the game cannot go on (the ruleset failed), or None.
    """
    prog = state.program
    obs = state.observation(seat)
    faces = card_faces(prog)
    index = {cid: i for i, cid in enumerate(prog.card_ids)}
    shown: dict[str, dict[str, Any]] = {}
    card_vars = obs.get("card_vars") or {}

    def card(cid: str) -> str:
        if cid not in shown:
            shown[cid] = {**faces[index[cid]], "vars": _card_vars(prog, card_vars.get(cid))}
        return cid

    zones = []
    hands = hand_zones(prog)
    for z in obs["zones"]:
        owner = z["owner"]
        area = "shared" if owner is None else "mine" if owner == seat else "seat"
        cards = None if z["cards"] is None else [card(c) for c in z["cards"]]
        top = None if z["top"] is None else card(z["top"])
        title = tr(prog.lang, "your_zone", zone=z["label"], k=z["count"]).rstrip(":： ") \
            if area == "mine" else f"{z['label']} ({z['count']})"
        zones.append({"area": area, "owner": owner, "zone": z["zone"], "label": z["label"],
                      "title": title,
                      "count": z["count"], "cards": cards, "top": top,
                      "public": z["visibility"] == "public",
                      "hand": area == "mine" and z["zone"] in hands})
    decls = {v.name: v for v in prog.ruleset.vars}
    facts = [[decls[n].labels.get(prog.lang, n), _value_text(prog, decls[n].type, v)]
             for n, v in obs["vars"].items() if n in decls and v is not None]
    scores = state.scores() if public_score(prog) else None
    table = []
    for p in range(state.num_players):
        pvars = [[decls[n].labels.get(prog.lang, n), _value_text(prog, decls[n].type, vals[p])]
                 for n, vals in obs["player_vars"].items()
                 if n in decls and vals[p] is not None and vals[p] is not False]
        table.append({"seat": p, "name": prog.seat_name(p), "you": p == seat,
                      "kind": "human" if seats[p] == HUMAN else seats[p],
                      "score": None if scores is None else scores[p], "vars": pvars})
    to_move = None if state.is_terminal() else state.current_player()
    moves = your_turn = None
    if to_move is not None and to_move == seat and error is None:
        moves = _moves(state, card)
        your_turn = tr(prog.lang, "your_turn", seat=prog.seat_name(to_move),
                       prompt=moves["prompt"]).strip()
    phase = prog.phases[state.phase].label.seen_by(state, seat) \
        if state.phase is not None else ""
    message: dict[str, Any] = isolate_texts({
        "type": "view", "seat": seat, "title": prog.game.title, "phase": phase,
        "version": state.decisions, "to_move": to_move,
        "to_move_name": None if to_move is None else prog.seat_name(to_move),
        "busy": busy, "terminal": state.is_terminal(), "error": error,
        "prompt": obs["prompt"], "facts": facts,
        "your_turn": your_turn, "seats": table, "zones": zones,
        "cards": shown, "moves": moves, "account": account, "account_from": account_from,
        "result": result_text(state) if state.is_terminal() else None, "log": log,
    }, IDS)
    return message


def _moves(state: State, card: Callable[[str], str]) -> dict[str, Any]:
    """The seat's legal actions: cards to click, buttons, or a set of cards to pick."""
    prog = state.program
    actions = state.legal_actions()
    listed: list[dict[str, Any]] = []
    sets = [a for a in actions if a.__class__ is SetAction]
    for a in actions:
        if a.__class__ is SetAction:
            continue
        cid = prog.card_ids[a.value] if a.card and isinstance(a.value, int) else None
        listed.append({"id": a.id, "label": a.label,
                       "card": None if cid is None else card(cid)})
    chosen = None
    if sets:
        cards = sorted({c for a in sets for c in a.value})
        sizes = [len(a.value) for a in sets]
        chosen = {"choice": sets[0].choice, "cards": [card(prog.card_ids[c]) for c in cards],
                  "low": min(sizes), "high": max(sizes),
                  "sets": [a.id for a in sets] if len(sets) <= SETS_SENT else None}
    return {"prompt": state.seat_prompt(state.current_player()), "actions": listed,
            "set": chosen}
