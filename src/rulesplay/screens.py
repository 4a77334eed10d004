"""The screens of a seat at the terminal: its turn (what it may see, the choices), help from
the rule text, and the tricks so far. Built from the seat's observation and
:class:`~rulesplay.seatview.SeatView` only, so hidden cards never reach the screen."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from . import ir
from .terminal import literal
from .validate.leaks import unseen_reads
from .words import tr

if TYPE_CHECKING:
    from .engine.choices import Action
    from .engine.program import Program
    from .engine.state import State

from .cardbook import CardBook
from .events import HIDDEN, Event
from .seatview import SeatNarrator, SeatView
from .set_input import is_set_choice, render_set_choice

SINCE_LIMIT = 30  # lines of "since your last turn" shown
COMMANDS = "help · moves · show · save [FILE] · quit"
MANY_ZONES = 6  # more shared zones: empty ones are left out, face-down ones share a line
DETAIL_LIMIT = 4  # table cards in a public zone of at most this many are shown in full
MANY_VARS = 4  # more game variables: only those set are shown
# More numbers to choose from than fit a screen: shown as their ranges ("a number from 1 to
# 100000"), not one by one, and the player types the number.
MANY_NUMBERS = 40
MANY_RUNS = 4  # more separate ranges: the count, the least and greatest, the first few
MANY_COLUMNS = 5  # more per-player zones and variables: one line per seat, not a table




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
    """Whether every seat may see the ruleset's score: it reads only public zones and
    variables, and counts of other zones (one pile's size minus another's), so the
    running score reveals nothing."""
    score = program.ruleset.score
    return score is None or not unseen_reads(score, program.ruleset, program.checked)


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
    phase = prog.phases[state.phase].label.seen_by(state, seat) \
        if state.phase is not None else ""
    out.append(Rule(literal(f"{prog.game.title} · {phase}", "bold"), align="left"))
    decls = {v.name: v for v in prog.ruleset.vars}
    if not _plays_tricks(prog, state.phase):  # a trick variable means nothing out of tricks
        decls = {n: v for n, v in decls.items() if v.scope != "trick"}
    shown = [(n, v) for n, v in obs["vars"].items() if n in decls]
    if len(shown) > MANY_VARS:  # many variables: those that are set
        shown = [(n, v) for n, v in shown if v is not None and v is not False]
    facts = [f"{decls[n].labels.get(lang, n)} {_var_text(prog, decls[n], v)}" for n, v in shown]
    if facts:
        out.append(literal(" · ".join(facts), "cyan"))
    out.append(_shared_zones(state, obs, book))
    per_player = {z["zone"] for z in obs["zones"] if z["owner"] is not None}
    if len(per_player) + len(obs.get("player_vars") or {}) + len(obs.get("team_vars") or {}) \
            > MANY_COLUMNS:
        out.extend(_seat_lines(state, obs, seat, book))
    else:
        out.append(_seat_table(state, obs, seat, book))
    out.extend(_own_zones(obs, seat, book, lang))
    return out


def _plays_tricks(prog: Program, phase: int | None) -> bool:
    """Whether the phase being played has a trick in its text (its trick variables, e.g. the
    lead colour, mean something there; after the tricks they hold the last trick's)."""
    if phase is None:
        return False
    name = prog.phases[phase].name
    return any(isinstance(n, ir.Trick) for p in prog.ruleset.phases if p.name == name
               for n in ir.walk(p))


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
    public ones and of other seats' zones this seat sees, a count of the others)."""
    prog = state.program
    lang = prog.lang
    decls = {v.name: v for v in prog.ruleset.vars}
    pvars = [(n, vals) for n, vals in seat_vars(state, obs) if n in decls]
    scores = state.scores() if public_score(prog) else None
    out = []
    for p in range(state.num_players):
        line = Text()
        line.append(seat_title(state, seat, p), style="bold")
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
            if z["cards"] is not None and (z["visibility"] == "public" or p != seat):
                part = literal(f"{z['label']}: ")  # (another seat's: seen by this one)
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


def _open_in_play(state: State, z: dict[str, Any], seat: int) -> bool:
    """Whether observed zone ``z`` (of another seat) shows ``seat`` its cards by what
    happened in play, not by its declared visibility: revealed, or its ``seen by``."""
    if not z["cards"] or z["owner"] == seat:
        return False
    return z["visibility"] != "public" or \
        state.program.layout.zone_id[z["zone"]] + z["owner"] in state.revealed


def seat_title(state: State, seat: int | None, p: int) -> str:
    """Seat ``p`` as ``seat`` reads it at the table: "Seat 1 (you)", "Seat 3 (partner)"
    (the other seat of its two-seat team), "Seat 4 (teammate)" (a larger team's), or its
    name."""
    prog = state.program
    name, lay = prog.seat_name(p), prog.layout
    if p == seat:
        return tr(prog.lang, "you", seat=name)
    if seat is None or lay.team_of[p] != lay.team_of[seat]:
        return name
    return tr(prog.lang, "partner" if lay.partner_of[seat] == p else "teammate", seat=name)


def seat_vars(state: State, obs: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    """The per-seat values an observation shows: its player variables, then its team
    variables, each seat showing its team's value."""
    lay = state.program.layout
    index = {t: i for i, t in enumerate(lay.team_members)}
    teams = [(n, [vals[index[lay.team_of[p]]] for p in range(state.num_players)])
             for n, vals in (obs.get("team_vars") or {}).items()]
    return [*(obs.get("player_vars") or {}).items(), *teams]


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
    pvars = [(n, vals) for n, vals in seat_vars(state, obs) if n in decls]
    for name, _ in pvars:
        table.add_column(literal(decls[name].labels.get(lang, name)), justify="right")
    scores = state.scores() if public_score(prog) else None
    if scores is not None:
        table.add_column(tr(lang, "score_col"), justify="right")
    out = state.sitting_out()
    for p in range(state.num_players):
        row: list[Any] = [Text(seat_title(state, seat, p), style="bold" if p == seat else "")]
        if p in out:  # sits out the trick being played
            row[0].append(" " + tr(lang, "sitting_out"), style="dim")
        for zones in per_seat.values():
            z = zones[p]
            cell = Text(str(z["count"]))
            if _open_in_play(state, z, seat):  # (a dummy: its cards, not only the top)
                cell.append(": ")
                for i, cid in enumerate(z["cards"][-6:]):
                    cell.append(", " if i else "")
                    cell.append_text(book.text(cid))
            elif z["visibility"] == "public" and z["cards"]:
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
    """The legal actions as shown to a person: copies of the same card (same label) once,
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


def number_ranges(values: Iterable[int]) -> list[tuple[int, int]]:
    """The distinct ``values`` as runs of consecutive numbers, ``(first, last)``, in order:
    ``[0, 1, 2, 5, 7, 8]`` gives ``[(0, 2), (5, 5), (7, 8)]``."""
    runs: list[tuple[int, int]] = []
    for v in sorted(set(values)):
        if runs and v == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def numbers_text(values: Iterable[int], lang: str | None) -> str:
    """The numbers a player may type, in words: "a number from 1 to 100000", "a number from
    0 to 5 or 7 to 13"; with more than :data:`MANY_RUNS` separate ranges, how many there
    are, the least and greatest, and the first few."""
    runs = number_ranges(values)
    if not runs:
        return ""
    if len(runs) > MANY_RUNS:
        count = sum(b - a + 1 for a, b in runs)
        first = sorted({v for a, b in runs[:3] for v in range(a, min(b, a + 2) + 1)})[:3]
        return tr(lang, "numbers_some", n=count, lo=runs[0][0], hi=runs[-1][1],
                  first=", ".join(map(str, first)))
    spans = [str(a) if a == b else tr(lang, "number_span", lo=a, hi=b) for a, b in runs]
    joined = spans[0] if len(spans) == 1 else \
        ", ".join(spans[:-1]) + tr(lang, "number_or") + spans[-1]
    return tr(lang, "number_from", ranges=joined)


def many_numbers(actions: list[Action]) -> list[int] | None:
    """The values of a choice among more numbers than fit a screen (None otherwise):
    such a choice is shown and typed as a number, not as a list."""
    if not by_value(actions):
        return None
    values = [a.value for a in actions if isinstance(a.value, int)]
    return values if len(values) > MANY_NUMBERS else None


def question(state: State, actions: list[Action]) -> str:
    """The pending decision's prompt as its chooser is shown it, with a question mark for
    a yes/no question."""
    prompt = state.seat_prompt(state.current_player())
    if actions and all(isinstance(a.value, bool) for a in actions) and \
            not prompt.endswith(("?", "？")):
        prompt += "？" if state.program.lang == "ja" else "?"
    owner = state.played_for()
    if owner is not None:  # choosing another seat's card (a dummy's): say whose
        prog = state.program
        prompt += ("" if prog.lang == "ja" else " ") + \
            tr(prog.lang, "plays_for", seat=prog.seat_name(owner))
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
    if is_set_choice(actions):
        assert state.pending is not None  # (a decision is pending: it has actions)
        return out + render_set_choice(actions, book, prog.nodes[state.pending[1]].sets)
    if any(a.card and isinstance(a.value, int) and book.details(ids[a.value])
           for a in actions):
        return out + _choice_rows(actions, book, lang)
    stands_for = getattr(prog.nodes[state.pending[1]], "stands_for", None) \
        if state.pending is not None else None
    many = many_numbers(actions)
    for i, a in enumerate(actions, 1):
        if a.value is None and len(actions) > 1:
            key = a.id.split(":", 1)[-1] if numbers else str(i)
            extra.append(Text.assemble((f"{key:>2} ", "bold"), a.label))
            continue
        if many is not None:  # too many to list: said as ranges below
            continue
        if numbers and stands_for is not None:  # a value with the cards it stands for
            cards = [ids[c] for c in stands_for(state, a.value)]
            extra.append(Text.assemble((f"{a.label:>2}  ", "bold"), book.grouped(cards),
                                       (f"  ({len(cards)})", "dim")))
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
    if many is not None:
        key = "how_number_or" if extra else "how_number"
        out.append(Text(tr(lang, key, numbers=numbers_text(many, lang), commands=COMMANDS),
                        style="dim"))
        return out
    example = _example(actions, book)
    key = "how_value" if numbers else "how_card" if example else "how"
    if len(actions) == 1 and not numbers:  # (a lone number is typed as itself, not as 1)
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
    phase = prog.phases[state.phase].label.seen_by(state, seat) \
        if state.phase is not None else ""
    out.append(literal(tr(lang, "help_phase", phase=phase, seat=prog.seat_name(seat),
                          prompt=state.seat_prompt(seat))))
    if prog.ruleset.about:
        out.append(literal(tr(lang, "help_about", title=prog.game.title,
                              about=prog.ruleset.about), "dim"))
    where, excerpt = rule_excerpt(state)
    if excerpt:
        out.append(literal(tr(lang, "help_rule", where=where)))
        indent = min(len(ln) - len(ln.lstrip()) for ln in excerpt if ln.strip())
        out.append(literal("\n".join("  " + ln[indent:] for ln in excerpt), "green"))
    actions = choice_list(state, book)
    if is_set_choice(actions):  # (hundreds of sets: the cards and how to type a set)
        assert state.pending is not None
        out += render_set_choice(actions, book, prog.nodes[state.pending[1]].sets)
        out.append(Text(tr(lang, "help_commands", commands=COMMANDS), style="dim"))
        return out
    many = many_numbers(actions)
    labels = [a.label for a in actions] if many is None else \
        [numbers_text(many, lang), *(a.label for a in actions if a.value is None)]
    out.append(literal(tr(lang, "help_legal", labels=", ".join(labels))))
    example = _example(actions, book)
    cards = [book.program.card_ids[a.value] for a in actions
             if a.card and isinstance(a.value, int)]
    for cid in cards:
        for text in book.long_texts(cid):
            out.append(literal(f"  {prog.card_labels[book.index[cid]]}: {text}"))
    out.append(Text(tr(lang, "help_typing" if example else "help_typing_value"
                       if by_value(actions) else "help_typing_plain",
                       example=example, commands=COMMANDS), style="dim"))
    return out


def _trick_plays(cards: list[str], plays: list[tuple[int, str]], played: dict[str, int],
                 ids: set[str]) -> list[tuple[int | None, str]]:
    """Who played each of a trick's ``cards`` (as the seat sees them), and the card as it
    may name it. The trick's plays, in order, match its cards when as many and none
    contradicts a card the seat sees: a card hidden from the seat is then told by its play
    (its own play names the card it played; a blind pick names a position, not a card of
    ``ids``). Otherwise a card is credited by its name, and a hidden one to no seat."""
    if len(plays) == len(cards) and all(
            c == HIDDEN or pc in (c, HIDDEN) or pc not in ids
            for c, (_, pc) in zip(cards, plays, strict=True)):
        return [(p, pc if c == HIDDEN and pc in ids else c)
                for c, (p, pc) in zip(cards, plays, strict=True)]
    return [(None if c == HIDDEN else played.get(c), c) for c in cards]


def render_moves(events: list[Event], view: SeatView, book: CardBook,
                 tricks: int = 3) -> list[RenderableType]:
    """``moves``: the last ``tricks`` finished tricks: who played what, and who won."""
    prog = view.program
    lang = prog.lang
    ids = set(prog.card_ids)
    played: dict[str, int] = {}  # a card named by a decision -> its seat
    plays: list[tuple[int, str]] = []  # this trick's plays so far: seat, card (or HIDDEN)
    found: list[tuple[Event, list[tuple[int | None, str]]]] = []
    for ev in view.filter(events):
        if ev.get("type") == "decision" and ":" in str(ev.get("action")):
            name, card = str(ev["action"]).split(":", 1)
            owner = ev.get("for_player")  # a card chosen for another seat is that seat's
            seat: int = ev["player"] if owner is None else owner
            if card != HIDDEN:
                played[card] = seat
            if name == "play":
                plays.append((seat, card))
        elif ev.get("type") == "trick":
            found.append((ev, _trick_plays(ev.get("cards", []), plays, played, ids)))
            plays = []
    if not found:
        return [Text(tr(lang, "no_tricks"), style="dim")]
    out: list[RenderableType] = [Rule(Text(tr(lang, "last_tricks"), style="bold"),
                                      align="left")]
    narrator = SeatNarrator(prog, view.seat)
    for ev, credited in found[-tricks:]:
        line = Text(tr(lang, "won_by", seat=narrator.seat(ev["winner"])) + " ", style="bold")
        line.append_text(book.text(str(ev.get("card"))))
        line.append(": ")
        for i, (p, cid) in enumerate(credited):
            if i:
                line.append(", ")
            if p is not None:
                line.append(narrator.seat(p) + " ")
            line.append_text(book.text(cid))
        out.append(line)
    return out
