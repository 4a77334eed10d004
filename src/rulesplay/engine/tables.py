"""The compile step of a program's tables: option values, cards (ids, labels, attributes,
derived attributes), zones, variables with their defaults, and card abilities' tables.

Each ``build_*`` fills part of a :class:`~rulesplay.engine.program.Program` and its layout,
in the order :func:`rulesplay.engine.build.build_program` calls them (slots and card ids are
numbered in that order, and saves hold those numbers).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .. import ir
from ..errors import (
    RUNTIME_FAULTS,
    RulesError,
    RulesRuntimeError,
    RulesValidationError,
    fault_message,
)
from ..limits import MAX_INT, out_of_range
from ..visibility import sight
from .expr import Fn
from .options import check_option_value
from .texts import card_label_fn

if TYPE_CHECKING:
    from ..validate.teams import Teams
    from .codegen import ExprCompiler
    from .program import Program


def build_options(prog: Program, comp: ExprCompiler, values: Mapping[str, Any]) -> None:
    """Every option's value for this player count: the chosen one, else its default.

    Raises:
        OptionError: a value the option does not allow with this many players (its range
            worked out for that count when a bound is an expression of it).
    """
    lay = prog.layout
    for o in prog.ruleset.options:
        value = values[o.name] if o.name in values else comp.expr(o.default)(None, None)
        bounds = (o.lo if o.lo_at is None else comp.expr(o.lo_at)(None, None),
                  o.hi if o.hi_at is None else comp.expr(o.hi_at)(None, None))
        check_option_value(o, value, lay.n, bounds)
        lay.options[o.name] = value


def build_teams(prog: Program, teams: Teams | None) -> None:
    """Each seat's team by the ruleset's ``teams:`` (``teams``, worked out by
    :func:`~rulesplay.validate.teams.seat_teams`; each seat its own team without one), each
    team's seats and label, and each seat's partner in a two-seat team."""
    lay = prog.layout
    if teams is None:
        lay.team_of[:] = range(lay.n)
        lay.team_members.update({p: [p] for p in range(lay.n)})
        lay.team_labels.update({p: None for p in range(lay.n)})
    else:
        lay.team_of[:] = teams.of_seat
        lay.team_members.update(teams.members)
        lay.team_labels.update(teams.labels)
    lay.partner_of[:] = [next((q for q in lay.team_members[t] if q != p), None)
                         if len(lay.team_members[t]) == 2 else None
                         for p, t in enumerate(lay.team_of)]
    lay.teamed = any(len(m) > 1 for m in lay.team_members.values())
    lay.seat_tables["team"].update(enumerate(lay.team_of))
    lay.seat_tables["partner"].update(enumerate(lay.partner_of))


def build_cards(prog: Program, comp: ExprCompiler) -> None:
    """Every card: its kind, attribute values (printed, then derived in declaration order),
    id (``stem#copy`` when a card has copies), attributes for events, short name and label.

    Raises:
        RulesValidationError: fewer than one copy, a derived attribute that fails on a
            card, or two cards with the same id.
    """
    lay, lang, rs = prog.layout, prog.lang, prog.ruleset
    for e in rs.enums:
        for i, v in enumerate(e.values):
            prog.enum_labels[v.name] = v.labels.get(lang, v.name)
            lay.sort_key[v.name] = (i,)
    attrs = sorted({a.name for k in rs.kinds for a in k.attrs})
    for a in attrs:
        lay.attr_table[a] = []
    multi_attr_kinds = sum(1 for k in rs.kinds if k.attrs) > 1
    label_fns: list[tuple[Callable[[int], str], int, ir.KindDecl]] = []
    for k in rs.kinds:
        printed = [a for a in k.attrs if a.value is None]
        # Derived attributes (``value = EXPR``), evaluated per card in declaration order;
        # one that reads the game is worked out where it is read (expanded there).
        comp.card_attrs_as_names = True
        derived = [(d, comp.expr(d.value)) for d in k.attrs if d.value is not None
                   and d.name not in prog.checked.dynamic_attrs]
        comp.card_attrs_as_names = False
        copies = comp.expr(k.copies)(None, None)
        if not isinstance(copies, int) or copies < 1:
            raise RulesValidationError(f"copies of '{k.name}' must be at least 1", k.span)
        label = card_label_fn(prog, comp, k)
        for values, stem, short, row_copies in _prototypes(prog, k, printed, copies):
            if multi_attr_kinds and k.rows is None and values:
                stem = f"{k.name}-{stem}"
            copies = row_copies
            for copy in range(1, copies + 1):
                card_id = f"{stem}#{copy}" if copies > 1 else stem
                cid = len(lay.kind_of)
                lay.kind_of.append(k.name)
                for a in attrs:
                    lay.attr_table[a].append(values.get(a))
                for attr, fn in derived:
                    try:
                        value = fn(None, cid)
                        if value.__class__ is int and not -MAX_INT <= value <= MAX_INT:
                            # (each checked as it is made: the next may square it)
                            raise RulesValidationError(out_of_range(value), attr.span)
                    except RUNTIME_FAULTS as exc:
                        msg = exc.message if isinstance(exc, RulesError) else \
                            fault_message(exc)
                        raise RulesValidationError(
                            f"attribute '{attr.name}' of card {card_id}: {msg}",
                            attr.span) from None
                    values[attr.name] = lay.attr_table[attr.name][cid] = value
                prog.card_ids.append(card_id)
                prog.card_attrs.append({"kind": k.name, **{
                    a: sorted(v) if isinstance(v, frozenset) else v
                    for a, v in values.items()}})
                prog.card_short.append(k.short or short)
                label_fns.append((label, cid, k))
    prog.num_cards = len(lay.kind_of)
    if len(set(prog.card_ids)) != prog.num_cards:
        raise RulesValidationError("two cards would have the same id; give the kinds "
                                   "different attributes", rs.span)
    prog.card_labels = []
    for make_label, cid, k in label_fns:
        try:
            prog.card_labels.append(make_label(cid))
        except RUNTIME_FAULTS as exc:  # a placeholder failed on this card
            msg = exc.message if isinstance(exc, RulesError) else fault_message(exc)
            where = exc.span if isinstance(exc, RulesError) and exc.span.line else \
                k.card_label.span if k.card_label.span.line else k.span
            raise RulesValidationError(f"the label of card {prog.card_ids[cid]} cannot be "
                                       f"made: {msg}", where) from None


def _prototypes(prog: Program, k: ir.KindDecl, printed: list[ir.AttrDecl], copies: int
                ) -> list[tuple[dict[str, Any], str, str, int]]:
    """The distinct cards of a kind: (printed attribute values, id stem, short name,
    copies), from its table rows or else from every combination of its attributes."""
    if k.rows is not None:
        out = []
        for i, row in enumerate(k.rows, 1):
            values = {a.name: _cell(a, row.values.get(a.name)) for a in printed}
            name = values.get("name")
            short = "".join(w[0] for w in name.split()).lower() \
                if isinstance(name, str) and name else f"{k.name[0]}{i}"
            out.append((values, f"{k.name}-{i}", short, row.copies))
        return out
    domains: list[list[Any]] = []
    for attr in printed:
        if attr.enum == "bool":
            domains.append([False, True])
        elif attr.enum is not None:
            decl = prog.checked.symbols.enums[attr.enum]
            domains.append([v.name for v in decl.values])
        else:
            domains.append(list(range(attr.lo or 0, (attr.hi or 0) + 1)))
    out = []
    for combo in itertools.product(*domains):
        values = dict(zip((a.name for a in printed), combo, strict=True))
        stem = "-".join(str(v) for v in combo) if combo else k.name
        short = "".join(str(v)[0] if isinstance(v, str) else str(v) for v in combo) \
            or k.name
        out.append((values, stem, short, copies))
    return out


def _cell(attr: ir.AttrDecl, value: Any) -> Any:
    """A table cell as a run-time value: a set attribute becomes a frozenset of names, an
    enum or ability attribute its one name."""
    if attr.set_of is not None:
        return frozenset(value or ())
    if isinstance(value, list):
        return value[0] if value else None
    return value


def build_zones(prog: Program) -> None:
    """Zone ids: one per shared zone, one per seat for a per-player zone (consecutive ids,
    so seat ``p``'s is the first id plus ``p``), with visibility and label."""
    lay, n = prog.layout, prog.layout.n
    for z in prog.ruleset.zones:
        lay.zone_id[z.name] = len(lay.zone_name)
        for seat in range(n) if z.per_player else [None]:
            lay.zone_name.append(z.name)
            lay.zone_owner.append(seat)
            prog.zone_visibility.append(z.visibility)
            prog.zone_label.append(z.labels.get(prog.lang, z.name))
    prog.num_zones = len(lay.zone_name)
    # Who sees a zone's cards, by the one rule of visibility (Program.view), as bitmasks:
    # bit p for seat p, bit n for an onlooker.
    viewers = [*range(n), None]
    for zone in range(prog.num_zones):
        views = [prog.view(zone, seat) for seat in viewers]
        prog.zone_seers.append(sum(1 << b for b, v in enumerate(views) if v == "all"))
        prog.zone_top_seers.append(sum(1 << b for b, v in enumerate(views)
                                       if v in ("all", "top")))


def build_seen_by(prog: Program, comp: ExprCompiler) -> None:
    """Each zone's ``seen by`` as ``(zone id, owning seat or None, function, span)``, worked out
    with the local ``player`` (its slot: ``seen_slot``) set to the owner; none when no zone
    has one (then no local slot is taken, so other games number their locals as before)."""
    lay = prog.layout
    decls = [z for z in prog.ruleset.zones if z.seen_by is not None]
    if not decls:
        return
    prog.seen_slot = lay.local("player")
    for z in decls:
        assert z.seen_by is not None
        fn, first = comp.expr(z.seen_by), lay.zone_id[z.name]
        for seat in range(lay.n) if z.per_player else [None]:
            prog.seen_by.append((first + (seat or 0), seat, fn, z.seen_by.span))


def build_vars(prog: Program, comp: ExprCompiler) -> None:
    """Slots of global, trick, player and card variables with their defaults and who sees
    each (bitmasks, by the one rule of visibility, :func:`sight`); which card variables
    reset when their card moves (those not declared ``kept``)."""
    lay, n = prog.layout, prog.layout.n
    viewers = [*range(n), None]

    def seers(v: ir.VarDecl, owner: int | None) -> int:
        return sum(1 << b for b, seat in enumerate(viewers)
                   if sight(v.visibility, owner, seat) == "all")

    for v in prog.ruleset.vars:
        if v.scope in ("global", "trick"):
            lay.gslot[v.name] = len(lay.gslot)
            prog.gvars.append((lay.gslot[v.name], var_default(comp, v)))
            prog.gvar_seers.append(seers(v, None))
        elif v.scope in ("player", "team"):  # a team's value is kept at its first seat
            lay.pslot[v.name] = len(lay.pslot)
            prog.pvars.append((lay.pslot[v.name], var_default(comp, v)))
            prog.pvar_seers.append([seers(v, p) for p in range(n)])
        else:
            lay.cslot[v.name] = len(lay.cslot)
            prog.cvar_seers.append(seers(v, None))
    prog.concealed = any(v.visibility != "public" for v in prog.ruleset.vars)
    names = {v.name for v in prog.ruleset.vars}
    prog.revealable = {n.zone.id for n in ir.walk(prog.ruleset) if isinstance(n, ir.Reveal)
                       and isinstance(n.zone, ir.Name) and n.zone.id in names}
    prog.team_vars = {v.name for v in prog.ruleset.vars if v.scope == "team"}
    # Card variables: their defaults (fixed values) and which reset when a card moves.
    for v in prog.ruleset.vars:
        if v.scope == "card":
            default = var_default(comp, v)(None, None)
            prog.card_var_defaults.append(default)
            if not v.kept:
                prog.card_var_resets.append((lay.cslot[v.name], default))


def var_default(comp: ExprCompiler, v: ir.VarDecl) -> Fn:
    """A variable's default as a function ``f(state, None)``: a number out of range or a
    failure is a located error at the default (worked out as a game starts, outside any
    statement)."""
    fn, span = comp.bounded(v.default), v.default.span

    def default(s: Any, x: Any) -> Any:
        try:
            return fn(s, x)
        except RUNTIME_FAULTS as exc:
            if isinstance(exc, RulesError) and exc.span.line > 0:
                raise exc.attach_source(s.program.checked.sources) from None
            why = exc.message if isinstance(exc, RulesError) else fault_message(exc)
            raise RulesRuntimeError(f"the default of '{v.name}' failed ({why})",
                                    span).attach_source(s.program.checked.sources) from None
    return default


def build_ability_tables(prog: Program, comp: ExprCompiler) -> int:
    """Each card's ability, ability labels, and per stat the modifier function of each card
    (or None). Returns the local slot of ``this`` (the card whose ability runs)."""
    lay, rs = prog.layout, prog.ruleset
    ability_attrs = [a.name for k in rs.kinds for a in k.attrs if a.enum == "ability"]
    lay.ability_of = [None] * prog.num_cards
    for name in ability_attrs:
        for c, value in enumerate(lay.attr_table[name]):
            lay.ability_of[c] = lay.ability_of[c] or value
    for ab in rs.abilities:
        prog.enum_labels.setdefault(ab.name, ab.labels.get(prog.lang, ab.name))
    this_slot = lay.local("this")
    modifiers: dict[str, dict[str, Fn]] = {}
    for ab in rs.abilities:
        for stat, e in ab.modifies.items():
            modifiers.setdefault(stat, {})[ab.name] = comp.expr(e)
    for stat, by_ability in modifiers.items():
        table = lay.stat_tables.setdefault(stat, [])
        table[:] = [by_ability.get(a) if a else None for a in lay.ability_of]
    return this_slot
