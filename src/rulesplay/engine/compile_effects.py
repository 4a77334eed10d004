"""The compile step of the effects: each simple statement (set, move, shuffle, deal, say, let)
becomes one function ``effect(state)`` that a block runs inline, with no frame.

Each ``compile_*`` takes the program being built (its layout and tables), the expression
compiler and the checked IR statement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import events, ir
from ..errors import RulesRuntimeError, Span, value_text
from ..limits import MAX_INT, out_of_range
from ..words import tr
from .budgets import spend_work
from .effects import Effect, move_card, move_cards
from .expr import Fn
from .observe import set_sight, set_var_sight
from .shuffles import shuffle as shuffled
from .texts import template

if TYPE_CHECKING:
    from .codegen import ExprCompiler
    from .program import Program
    from .state import State


def compile_assign(prog: Program, comp: ExprCompiler, a: ir.Assign) -> Effect:
    """``x = v``, ``x += v``, ``points[p] += v``, ``card.var = v``.

    Raises (when it runs): RulesRuntimeError for ``+=``/``-=`` on none, a card variable of
    none, or a seat that does not exist stored in a player-valued variable.
    """
    lay = prog.layout
    value = comp.bounded(a.value)
    op = a.op
    t = a.target
    if comp.type_of(t) == "player":
        value = _seat_checked(value, lay.n, a)

    def combine(old: Any, new: Any) -> Any:
        if op == "=":
            return new
        if old is None:
            raise RulesRuntimeError(f"'{op}' on a variable that is none", a.span)
        result = old + new if op == "+=" else old - new
        if result.__class__ is int and not -MAX_INT <= result <= MAX_INT:
            raise RulesRuntimeError(out_of_range(result), a.span)
        return result

    if isinstance(t, ir.Name):
        slot = lay.gslot[t.id]
        if op == "=":
            def set_global(s: State) -> None:
                s.g[slot] = value(s, None)
            return set_global

        def update_global(s: State) -> None:
            s.g[slot] = combine(s.g[slot], value(s, None))
        return update_global
    if isinstance(t, ir.Index):
        assert isinstance(t.obj, ir.Name)
        pslot, seat = lay.pslot[t.obj.id], comp.expr(t.key)

        def set_player(s: State) -> None:
            table = s.pv[pslot]
            p = seat(s, None)
            table[p] = combine(table[p], value(s, None))
        return set_player
    assert isinstance(t, ir.Attr)
    cslot, card = lay.cslot[t.name], comp.expr(t.obj)

    def set_card(s: State) -> None:
        c = card(s, None)
        if c is None:
            raise RulesRuntimeError(f"cannot set '{t.name}' of none (no card)", a.span)
        table = s.cv[cslot]
        table[c] = combine(table[c], value(s, None))
    return set_card


def _seat_checked(value: Fn, n: int, a: ir.Assign) -> Fn:
    """A player variable holds a seat that exists (or none): a value such as an option's
    seat number out of range for this table is an error, not silently another seat."""
    def checked(s: Any, it: Any) -> Any:
        v = value(s, it)
        if v is not None and not (isinstance(v, int) and 0 <= v < n):
            raise no_such_seat(v, n, a.span)
        return v
    return checked


def no_such_seat(v: Any, n: int, span: Span) -> RulesRuntimeError:
    """The error of storing ``v``, not a seat of ``n``, in a player-valued variable."""
    return RulesRuntimeError(f"seat {value_text(v)} does not exist with {n} players "
                             f"(seats are 0 to {n - 1})", span)


def compile_move(prog: Program, comp: ExprCompiler, m: ir.Move) -> Effect:
    """``move CARDS to ZONE [top|bottom|at random]``: one card, a list, or every card of a
    zone (at random: each at a place drawn from the state's generator)."""
    whole = comp.type_of(m.cards) in ("zone", "pzone")  # (pzone: every seat's cards)
    cards = comp.coll(m.cards) if whole else comp.expr(m.cards)
    to, top = comp.expr(m.to), None if m.end == "random" else m.end == "top"
    return lambda s: move_cards(s, cards(s, None), to(s, None), top)


def compile_shuffle(prog: Program, comp: ExprCompiler, sh: ir.Shuffle) -> Effect:
    """``shuffle ZONE`` with the state's generator."""
    zone = comp.expr(sh.zone)

    def shuffle(s: State) -> None:
        z = zone(s, None)
        shuffled(s.zones[z], s.rng)
        spend_work(s, len(s.zones[z]))
        if s.events is not None:
            s.events.append(events.shuffle(s.program.zone_ref(z)))
    return shuffle


def compile_reveal(prog: Program, comp: ExprCompiler, r: ir.Reveal) -> Effect:
    """``reveal ZONE`` / ``hide ZONE``: who sees the zone from now on
    (:func:`~rulesplay.engine.observe.set_sight`); ``reveal VAR`` / ``hide VAR``: who sees
    the variable (:func:`~rulesplay.engine.observe.set_var_sight`)."""
    shown = r.shown
    var = revealed_var(prog.ruleset, r)
    if var is not None:
        name, text = var.name, _values_text(prog, var)
        return lambda s: set_var_sight(s, name, shown, text)
    zone = comp.expr(r.zone)
    return lambda s: set_sight(s, zone(s, None), shown)


def revealed_var(ruleset: ir.Ruleset, r: ir.Reveal) -> ir.VarDecl | None:
    """The variable ``reveal VAR``/``hide VAR`` names, or None for a zone's."""
    if not isinstance(r.zone, ir.Name):
        return None
    return next((v for v in ruleset.vars if v.name == r.zone.id), None)


def _values_text(prog: Program, v: ir.VarDecl) -> Callable[[State], str]:
    """The account's line for a variable revealed: its label and its values then (each
    seat's or team's, by name)."""
    lay, label = prog.layout, v.labels.get(prog.lang, v.name)
    typ = "player" if v.type == "player" else "card" if v.type == "card" else "any"

    def text(s: State) -> str:
        if v.scope in ("global", "trick"):
            values = prog.show(s.g[lay.gslot[v.name]], typ)
        else:  # (a player or team variable: the validator refuses a card variable)
            row = s.pv[lay.pslot[v.name]]
            values = ", ".join(
                f"{prog.team_name(t) if v.scope == 'team' else prog.seat_name(t)} "
                f"{prog.show(row[t], typ)}"
                for t in (lay.team_members if v.scope == "team" else range(lay.n)))
        return tr(prog.lang, "revealed", zone=label, cards=values)
    return text


def compile_deal(prog: Program, comp: ExprCompiler, d: ir.Deal) -> Effect:
    """Deal one card at a time in seat order from ``start``; ``up to`` keeps hands equal.

    Raises (when it runs): RulesRuntimeError for a negative count, too few cards, or a
    starting seat that does not exist.
    """
    lay = prog.layout
    count = comp.expr(d.count) if d.count is not None else None  # None: every card
    source = comp.expr(d.source)
    start = comp.expr(d.start) if d.start is not None else (lambda s, it: 0)
    base, n = lay.zone_id[d.to], lay.n

    def deal(s: State) -> None:
        src = source(s, None)
        have = len(s.zones[src])
        want = count(s, None) if count is not None else -(-have // n)
        if want < 0:
            raise RulesRuntimeError(f"cannot deal {want} cards", d.span)
        each = min(want, have // n) if d.up_to else want
        if each * n > have and count is not None:
            raise RulesRuntimeError(
                f"cannot deal {want} cards to each of {n} players: "
                f"{lay.zone_name[src]} holds {have}", d.span)
        first = start(s, None)
        if first is None or not 0 <= first < n:
            raise RulesRuntimeError(f"'starting with' names seat {value_text(first)}, which "
                                    f"does not exist with {n} players", d.span)
        log = s.events  # (an event per card; a chosen card watched: who sees it arrive)
        if log is not None and log.__class__ is not events.Tally or s.watch is not None:
            for _ in range(each):
                for k in range(n):
                    if s.zones[src]:  # ('deal all': the last round may run out)
                        move_card(s, s.zones[src][-1], base + (first + k) % n)
        else:  # what move_card does for each card, in the same order
            _deal(s, src, [base + (first + k) % n for k in range(n)], each)
        spend_work(s, each * n)
    return deal


def _deal(s: State, src: int, order: list[int], each: int) -> None:
    """``each`` rounds of one card from the top of zone ``src`` to each zone of ``order``
    (zone ids), as :func:`~rulesplay.engine.effects.move_card` moves them one by one
    (card variables reset; no events, no chosen card watched), until ``src`` runs out."""
    zones, where = s.zones, s.where
    cards, resets, cv = zones[src], s.program.card_var_resets, s.cv
    for _ in range(each):
        for to in order:
            if not cards:  # ('deal all': the last round may run out)
                return
            c = cards.pop()
            where[c] = to
            for slot, default in resets:
                cv[slot][c] = default
            zones[to].append(c)


def compile_say(prog: Program, comp: ExprCompiler, say: ir.Say) -> Effect:
    """``say TEXT``: a ``say`` event with the text in the game's language."""
    text = template(prog, comp, say.text)

    def emit(s: State) -> None:
        log = s.events
        if log is not None:  # (none: a bot's look-ahead, which shows no text)
            if log.__class__ is not events.Tally:
                log.append(events.say(*text.masked(s)))
            elif text.risky:  # counted ('simulate'): a placeholder fails all the same
                text.check(s)
    return emit


def compile_let(prog: Program, comp: ExprCompiler, let: ir.Let) -> Effect:
    """``let NAME = VALUE``: binds a local name."""
    value, slot = comp.bounded(let.value), prog.layout.local(let.name)

    def bind(s: State) -> None:
        s.loc[slot] = value(s, None)
    return bind
