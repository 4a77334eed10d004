"""What a variant changes, in the language's terms (``rulesplay diff BASE VARIANT``).

``diff(base, variant)`` compares two rulesets (usually a base and a merged variant of it) and
describes each difference as one line: option defaults, types and docs; enums; card kinds and
their attributes; zones; variables; phases added, removed or replaced (with the choices and
tricks whose constraints changed); start phase; score, tiebreaks and winners. Spans are
ignored: moving a declaration to another file or line is not a change.
"""

from __future__ import annotations

from typing import Any

from . import ir
from .phasegraph import start_phase
from .show import card_set_text, expr_text, option_type_text, players_text
from .visitor import Stage

__all__ = ["diff", "expr_text", "option_text", "ranking_changes"]

def _plain(node: Any) -> object:
    """A node as plain data without spans (so equal rules compare equal wherever written)."""
    if isinstance(node, ir.Node):
        return {k: _plain(v) for k, v in node.__dict__.items() if k != "span"}
    if isinstance(node, list | tuple):
        return [_plain(v) for v in node]
    if isinstance(node, dict):
        return {k: _plain(v) for k, v in node.items()}
    return node


def _same(a: Any, b: Any) -> bool:
    return _plain(a) == _plain(b)


def option_text(o: ir.OptionDecl) -> str:
    """An option's type and default as written: ``bool = false``, ``int in 1..12 = 6``."""
    return f"{option_type_text(o)} = {expr_text(o.default)}"


def _attr_text(a: ir.AttrDecl) -> str:
    if a.value is not None:
        return f"{a.name} = {expr_text(a.value)}"
    if a.enum is not None:
        return f"{a.name}: {a.enum}"
    return f"{a.name}: {a.lo}..{a.hi}"


def _by_name(items: list[Any]) -> dict[str, Any]:
    return {item.name: item for item in items}


def _added_removed(what: str, base: dict[str, Any], var: dict[str, Any],
                   show: Any) -> tuple[list[str], list[str]]:
    """Lines for added and removed names, and the names present in both (in base order)."""
    out = [f"{what} '{n}' removed" for n in base if n not in var]
    out += [f"{what} '{n}' added: {show(var[n])}" for n in var if n not in base]
    return out, [n for n in base if n in var]


def _options(base: ir.Ruleset, var: ir.Ruleset) -> list[str]:
    b, v = _by_name(base.options), _by_name(var.options)
    out, common = _added_removed("option", b, v, option_text)
    for n in common:
        x, y = b[n], v[n]
        if (x.type, x.lo, x.hi, x.choices) != (y.type, y.lo, y.hi, y.choices) or \
                option_type_text(x) != option_type_text(y):
            out.append(f"option '{n}': {option_text(x)} -> {option_text(y)}")
        elif not _same(x.default, y.default):
            out.append(f"option '{n}': default {expr_text(x.default)} -> "
                       f"{expr_text(y.default)}")
        if x.doc != y.doc:
            out.append(f"option '{n}': doc {x.doc!r} -> {y.doc!r}")
    return out


def _enums(base: ir.Ruleset, var: ir.Ruleset) -> list[str]:
    def values(e: ir.EnumDecl) -> str:
        return ", ".join(v.name for v in e.values)

    b, v = _by_name(base.enums), _by_name(var.enums)
    out, common = _added_removed("enum", b, v, values)
    for n in common:
        if not _same(b[n], v[n]):
            out.append(f"enum '{n}': {values(b[n])} -> {values(v[n])}"
                       if values(b[n]) != values(v[n]) else f"enum '{n}': labels changed")
    return out


def _kinds(base: ir.Ruleset, var: ir.Ruleset) -> list[str]:
    def attrs(k: ir.KindDecl) -> str:
        return "; ".join(_attr_text(a) for a in k.attrs) or "no attributes"

    b, v = _by_name(base.kinds), _by_name(var.kinds)
    out, common = _added_removed("card kind", b, v, attrs)
    for n in common:
        x, y = b[n], v[n]
        if _same(x, y):
            continue
        xa, ya = _by_name(x.attrs), _by_name(y.attrs)
        for a in xa:
            if a not in ya:
                out.append(f"card kind '{n}': attribute '{a}' removed")
            elif not _same(xa[a], ya[a]):
                out.append(f"card kind '{n}': {_attr_text(xa[a])} -> {_attr_text(ya[a])}")
        out += [f"card kind '{n}': attribute added: {_attr_text(ya[a])}"
                for a in ya if a not in xa]
        if not _same(x.copies, y.copies):
            out.append(f"card kind '{n}': copies {expr_text(x.copies)} -> "
                       f"{expr_text(y.copies)}")
        if not _same(x.rows, y.rows):
            out.append(f"card kind '{n}': card table changed")
        if not _same((x.labels, x.card_label, x.short), (y.labels, y.card_label, y.short)):
            out.append(f"card kind '{n}': labels changed")
    return out


def _zones(base: ir.Ruleset, var: ir.Ruleset) -> list[str]:
    def show(z: ir.ZoneDecl) -> str:
        return f"{'per player' if z.per_player else 'shared'}, {z.visibility}"

    b, v = _by_name(base.zones), _by_name(var.zones)
    out, common = _added_removed("zone", b, v, show)
    for n in common:
        if show(b[n]) != show(v[n]):
            out.append(f"zone '{n}': {show(b[n])} -> {show(v[n])}")
        elif not _same(b[n], v[n]):
            out.append(f"zone '{n}': labels changed")
    return out


def _vars(base: ir.Ruleset, var: ir.Ruleset) -> list[str]:
    def show(d: ir.VarDecl) -> str:
        scope = "" if d.scope == "global" else f"{d.scope} "
        sight = "" if d.visibility == "public" else f" {d.visibility}"
        return f"{scope}var {d.type} = {expr_text(d.default)}{' kept' if d.kept else ''}{sight}"

    b, v = _by_name(base.vars), _by_name(var.vars)
    out, common = _added_removed("variable", b, v, show)
    for n in common:
        if show(b[n]) != show(v[n]):
            out.append(f"variable '{n}': {show(b[n])} -> {show(v[n])}")
        elif not _same(b[n], v[n]):
            out.append(f"variable '{n}': labels changed")
    return out


class _Constraints(Stage):
    """The choices and tricks of a statement list, by name (``trick N`` for the N-th trick),
    with their constraint (``where``) expressions, found at any depth: every statement's
    blocks are searched (:meth:`Stage.generic_visit`)."""

    handles = (ir.StmtNode,)

    def __init__(self, stmts: list[ir.Stmt]) -> None:
        # name -> (how many cards and what they share, or None: one; the where test)
        self.found: dict[str, tuple[ir.CardSet | None, ir.Expr | None]] = {}
        self.tricks = 0
        for s in stmts:
            self.visit(s)

    def visit_Choose(self, s: ir.Choose) -> None:
        self.found[f"choice '{s.name}'"] = (s.cards, s.where)
        for k in s.skips() if s.optional else []:  # when allowed (``unless``: negated)
            test = k.test
            if test is not None and k.unless:
                test = ir.UnOp(span=test.span, op="not", operand=test)
            named = "" if k.name is None else f" '{k.name}'"
            self.found[f"skip{named} of '{s.name}'"] = (None, test)

    def visit_Trick(self, s: ir.Trick) -> None:
        self.tricks += 1
        self.found[f"trick {self.tricks}"] = (s.cards, s.where)
        self.generic_visit(s)

    # No constraint of their own; any block inside them is searched.
    visit_Assign = visit_Let = visit_Move = visit_Shuffle = visit_Deal = Stage.generic_visit
    visit_If = visit_Repeat = visit_ForEachPlayer = visit_ForEachIn = Stage.generic_visit
    visit_EndGame = visit_Say = visit_Break = visit_Do = visit_Trigger = Stage.generic_visit
    visit_Reveal = Stage.generic_visit
    visit_EndTrick = Stage.generic_visit


def _phases(base: ir.Ruleset, var: ir.Ruleset) -> list[str]:
    b, v = _by_name(base.phases), _by_name(var.phases)
    out = [f"phase '{n}' removed" for n in b if n not in v]
    out += [f"phase '{n}' added" for n in v if n not in b]
    for n in (n for n in b if n in v):
        x, y = b[n], v[n]
        if _same(x, y):
            continue
        parts = []
        if not _same(x.body, y.body):
            parts.append("its statements differ")
        if not _same(x.transitions, y.transitions):
            def nexts(p: ir.PhaseDecl) -> str:
                return ", ".join(f"next {t.target}" + (f" if {expr_text(t.guard)}"
                                                       if t.guard is not None else "")
                                 for t in p.transitions) or "none"
            parts.append(f"transitions {nexts(x)} -> {nexts(y)}")
        if not _same(x.labels, y.labels):
            parts.append(f"title {x.labels.text!r} -> {y.labels.text!r}"
                         if x.labels.text != y.labels.text else "labels changed")
        out.append(f"phase '{n}' replaced: " + "; ".join(parts))
        cx, cy = _Constraints(x.body).found, _Constraints(y.body).found
        for key in cx:
            if key not in cy:
                out.append(f"  {key} removed from phase '{n}'")
            elif not _same(cx[key], cy[key]):
                def where(c: tuple[ir.CardSet | None, ir.Expr | None]) -> str:
                    count, shape = card_set_text(c[0])
                    test = "any" if c[1] is None else f"where {expr_text(c[1])}"
                    return f"{count}cards{shape} {test}" if count or shape else test
                out.append(f"  {key} in phase '{n}': {where(cx[key])} -> {where(cy[key])}")
        out += [f"  {key} added to phase '{n}'" for key in cy if key not in cx]
    if [p.name for p in base.phases if p.name in v] != [p.name for p in var.phases
                                                         if p.name in b]:
        out.append("phase order changed: " + ", ".join(p.name for p in var.phases))
    return out


def _named_blocks(what: str, base: list[Any], var: list[Any], labelled: bool = True) -> list[str]:
    """Abilities, rules or defines added, removed or changed (compared without spans);
    ``labelled``: they have labels to name them by."""
    b, v = _by_name(base), _by_name(var)
    out, both = _added_removed(what, b, v,
                               lambda d: (d.labels.text if labelled else None) or d.name)
    out += [f"{what} '{n}' changed" for n in both if not _same(b[n], v[n])]
    return out


def diff(base: ir.Ruleset, variant: ir.Ruleset) -> list[str]:
    """Describe what ``variant`` changes with respect to ``base``, one line per change.

    Args:
        base: the base ruleset (e.g. ``compose.load_ruleset("rulesets/x.rules")[0]``).
        variant: the other ruleset, usually a merged variant of ``base``.

    Returns:
        Lines such as ``option 'open_hands': default false -> true``, ``phase 'draft'
        replaced: its statements differ``, ``card kind 'card': value = 12 if rank == 13
        else rank -> value = rank``; an empty list when the rulesets play the same.
        Indented lines (two spaces) detail the line before them.
    """
    out: list[str] = []
    if base.title.text != variant.title.text:
        out.append(f"title {base.title.text!r} -> {variant.title.text!r}")
    if (base.min_players, base.max_players, base.usual_players) != \
            (variant.min_players, variant.max_players, variant.usual_players):
        out.append(f"players {players_text(base)} -> {players_text(variant)}")
    out += _options(base, variant)
    out += _enums(base, variant)
    out += _kinds(base, variant)
    out += _zones(base, variant)
    out += _vars(base, variant)
    out += _phases(base, variant)
    out += _named_blocks("ability", base.abilities, variant.abilities)
    out += _named_blocks("rule", base.rules, variant.rules)
    out += _named_blocks("define", base.defines, variant.defines, labelled=False)
    if start_phase(base) != start_phase(variant):
        out.append(f"start phase {start_phase(base)} -> {start_phase(variant)}")
    out += ranking_changes(base, variant)
    if not _same(base.teams, variant.teams):
        def sides(r: ir.Ruleset) -> str:
            return expr_text(r.teams) if r.teams is not None else "none (every seat alone)"
        out.append(f"teams: {sides(base)} -> {sides(variant)}")
    return out


def ranking_changes(base: ir.Ruleset, variant: ir.Ruleset) -> list[str]:
    """The lines of :func:`diff` on how a game's end is judged: ``score: ...``,
    ``tiebreak: ...``, ``winners: ...`` (each when that rule differs); empty when both
    rank the seats by the same rules.

    Args:
        base, variant: the two rulesets, as for :func:`diff`.
    """
    out: list[str] = []
    if not _same(base.score, variant.score):
        out.append(f"score: {expr_text(base.score)} -> {expr_text(variant.score)}")
    if not _same(base.tiebreaks, variant.tiebreaks):
        def ties(r: ir.Ruleset) -> str:
            return "; ".join(expr_text(t) for t in r.tiebreaks) or "none"
        out.append(f"tiebreak: {ties(base)} -> {ties(variant)}")
    if not _same(base.winners, variant.winners):
        def wins(r: ir.Ruleset) -> str:
            return expr_text(r.winners) if r.winners is not None else \
                "best score and tiebreaks"
        out.append(f"winners: {wins(base)} -> {wins(variant)}")
    return out
