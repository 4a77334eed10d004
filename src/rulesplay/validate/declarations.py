"""The declarations pass: fill the symbol table and check what declarations say by
themselves (names given twice or reserved, attribute domains, zone flags, table cells)."""

from __future__ import annotations

from typing import Any

from .. import ir
from ..errors import Span, did_you_mean
from ..grammar import language_word
from ..limits import limit_problem
from ..visitor import nodes_of
from .expressions import ExprChecker
from .functions import BUILTINS
from .symbols import Context, reserved
from .types import ANY, describe

BOUND_BY_RULES = {"player", "winner"}  # names a trick, 'after trick' and 'score:' bind


def first_at(first: Span, again: Span) -> str:
    """Where a name given again was first declared, for its message: `` (line 6)`` in the
    same file, `` (at parts/cards.part:6:8)`` in another (an included file, say)."""
    if not first.line:
        return ""
    if first.file == again.file:
        return f" (line {first.line})"
    return f" (at {first.file}:{first.line}:{first.col})"


class Declarations:
    """Declares everything in ``ctx.r`` into ``ctx.sym``; derived attributes are typed with
    ``exprs``. Run :meth:`run` once, before any statement is checked."""

    def __init__(self, ctx: Context, exprs: ExprChecker) -> None:
        self.ctx, self.sym, self.exprs = ctx, ctx.sym, exprs
        self.seen: dict[str, Span] = {}  # names options, enums, zones... share

    def named(self, item: Any, what: str, table: dict[str, Any]) -> None:
        """Enter a phase or rule ``item`` (with ``name`` and ``span``) in ``table``: a
        reserved word or a name declared again is an error (phases and rules have names
        of their own, apart from :meth:`claim`'s)."""
        problem = reserved(item.name, what)
        if problem is not None:
            self.ctx.error(problem, item.span)
        elif item.name in table:
            self.ctx.error(f"{what} '{item.name}' is already declared"
                           f"{first_at(table[item.name].span, item.span)}", item.span)
        table[item.name] = item

    def claim(self, name: str, span: Span, what: str) -> bool:
        """Take ``name`` for a ``what`` (option, enum, zone...); a reserved word or a name
        taken already is an error. True when taken."""
        article = "an" if what[0] in "aeiou" else "a"
        problem = reserved(name, what, assigned=what == "variable")
        if problem is not None:
            self.ctx.error(problem, span)
            return False
        if name in BOUND_BY_RULES:  # (inside those blocks the bound seat would win)
            self.ctx.error(f"'{name}' is a seat the rules name (in tricks, 'after trick' and "
                           f"'score:') and cannot name {article} {what}", span)
            return False
        if name in self.seen:
            self.ctx.error(f"'{name}' is already declared{first_at(self.seen[name], span)}",
                           span)
            return False
        self.seen[name] = span
        return True

    def not_a_word(self, name: str, span: Span, what: str) -> None:
        """Report ``name`` when an expression would read it as a word of the language
        (``left``, ``not``): a name declared without :meth:`claim` that is read bare."""
        if language_word(name):
            self.ctx.error(f"'{name}' is a reserved word and cannot name a {what}", span)

    def run(self) -> None:  # noqa: C901 - one section per kind of declaration
        """Declare every option, enum, kind, zone, variable, phase, ability and rule, in
        that order; a ruleset needs a kind, a zone and a phase."""
        ctx, sym, r = self.ctx, self.sym, self.ctx.r
        for again in r.duplicates:
            ctx.error(f"'{again.text}' is given twice; a ruleset has one", again.span)
        if r.min_players < 1 or r.max_players < r.min_players or r.max_players > 64:
            written = f"{r.min_players}" if r.min_players == r.max_players else \
                f"{r.min_players}..{r.max_players}"
            ctx.error(f"players {written} is not a range of 1 to 64 players",
                      r.players_span if r.players_span.line else r.span)
        elif r.usual_players is not None and not \
                r.min_players <= r.usual_players <= r.max_players:
            written = f"{r.min_players}" if r.min_players == r.max_players else \
                f"{r.min_players}..{r.max_players}"
            ctx.error(f"the usual count, {r.usual_players}, is not in players {written}",
                      r.players_span)
        named: set[str] = set()
        for lim in r.limits:
            problem = limit_problem(lim.name, lim.value, in_ruleset=True)
            if problem is not None:
                ctx.error(problem, lim.span)
            elif lim.name in named:
                ctx.error(f"limit {lim.name} is given twice", lim.span)
            named.add(lim.name)
        for o in r.options:
            ctx.number(o.lo, o.span)
            ctx.number(o.hi, o.span)
            if self.claim(o.name, o.span, "option"):
                sym.options[o.name] = o
            for value in o.choices:
                self.not_a_word(value, o.span, "choice value")
                if sym.choice_values.setdefault(value, o.name) == o.name:
                    self.seen.setdefault(value, o.span)
        for e in r.enums:
            if self.claim(e.name, e.span, "enum"):
                sym.enums[e.name] = e
            for member in e.values:
                if sym.enum_values.get(member.name) in e.extends:
                    continue  # a value shared with an enum it extends keeps that type
                if self.claim(member.name, member.span, "enum value"):
                    sym.enum_values[member.name] = e.name
        for k in r.kinds:
            if k.name in sym.kinds:
                ctx.error(f"card kind '{k.name}' is already declared"
                          f"{first_at(sym.kinds[k.name].span, k.span)}", k.span)
            sym.kinds[k.name] = k
            for i, a in enumerate(k.attrs):
                self.not_a_word(a.name, a.span, "card attribute")  # read bare in its kind
                # One that reads the game is typed once the variables are declared.
                typ = ANY if a.name in ctx.out.dynamic_attrs else self.attr_type(k, i)
                if sym.attrs.get(a.name, typ) != typ:
                    ctx.error(f"attribute '{a.name}' has another type in another kind", a.span)
                sym.attrs[a.name] = typ
        for var in r.vars:
            if var.kept and var.scope != "card":
                ctx.error("only a card variable can be 'kept' (the others never reset)",
                          var.span)
            if var.visibility == "owner" and var.scope != "player":
                ctx.error(f"only a player variable can be 'owner' (seen by its own seat); a "
                          f"{var.scope} variable is 'public' or 'hidden'", var.span)
        for z in r.zones:
            self.zone_flags(z)
            if self.claim(z.name, z.span, "zone"):
                sym.zones[z.name] = z
        for v in r.vars:
            if v.scope == "card":
                if v.name in sym.attrs or v.name in sym.vars:
                    ctx.error(f"'{v.name}' is already a card attribute or variable", v.span)
                sym.vars[v.name] = v
            elif self.claim(v.name, v.span, "variable"):
                sym.vars[v.name] = v
        self.game_attrs()
        self.define_names()
        for p in r.phases:
            self.named(p, "phase", sym.phases)
        for ab in r.abilities:
            for again in ab.duplicates:
                ctx.error(f"ability '{ab.name}' already has '{again.text}'", again.span)
            if ab.name in sym.abilities or ab.name in sym.enum_values:
                ctx.error(f"ability '{ab.name}' is already declared", ab.span)
            sym.abilities[ab.name] = ab
            sym.stats.update(ab.modifies)
            sym.steps.update(ab.steps)
        for rule in r.rules:
            self.named(rule, "rule", sym.rules)
        if not r.kinds:
            ctx.error("a ruleset needs at least one 'card' kind", r.span)
        if not r.zones:
            ctx.error("a ruleset needs at least one zone (cards start in the first one)",
                      r.span)
        if not r.phases:
            ctx.error("a ruleset needs at least one phase", r.span)

    def game_attrs(self) -> None:
        """Type the derived attributes that read the game (variables, zones) and declare
        them in one kind only (a read of one is expanded to its kind's expression)."""
        ctx, sym = self.ctx, self.sym
        owner: dict[str, str] = {}
        for k in ctx.r.kinds:
            for i, a in enumerate(k.attrs):
                if a.name not in ctx.out.dynamic_attrs:
                    continue
                if a.name in owner:
                    ctx.error(f"'{a.name}' reads the game and is already an attribute of "
                              f"'{owner[a.name]}': such an attribute belongs to one kind",
                              a.span)
                    continue
                owner[a.name] = k.name
                with ctx.only_reading("an attribute that reads the game"):
                    sym.attrs[a.name] = self.attr_type(k, i)

    def define_names(self) -> None:
        """A define's name is free (no builtin, option, zone, variable...) and its
        parameters are distinct names that are not words of the language."""
        for d in self.ctx.r.defines:
            if d.name in BUILTINS:
                self.ctx.error(f"'{d.name}' is a builtin function; choose another name",
                               d.span)
            else:
                self.claim(d.name, d.span, "define")
            for i, p in enumerate(d.params):
                problem = reserved(p, "parameter")
                if problem is not None:
                    self.ctx.error(problem, d.span)
                elif p in d.params[:i]:
                    self.ctx.error(f"'{p}' is a parameter of '{d.name}' twice", d.span)

    def attr_type(self, k: ir.KindDecl, i: int) -> str:
        """The type of attribute ``k.attrs[i]``: derived, text, set of an enum, ability,
        yes/no, an enum or a number range; a domain that does not exist is an error."""
        a, ctx = k.attrs[i], self.ctx
        if a.value is not None:
            return self.derived_attr(k, i)
        if a.text:
            if k.rows is None:
                ctx.error(f"'{a.name}: text' needs a table: each card has its own text", a.span)
            return "str"
        if a.set_of is not None:
            self._known_enum(a.set_of, a)
            return f"set:{a.set_of}"
        if a.enum == "ability":
            if k.rows is None:
                ctx.error(f"'{a.name}: ability' needs a table: each card names its own "
                          "ability", a.span)
            return "ability"
        if a.enum == "bool":
            return "bool"
        if a.enum is not None:
            self._known_enum(a.enum, a)
            return f"enum:{a.enum}"
        if a.lo is None or a.hi is None or a.lo > a.hi:
            ctx.error(f"attribute range {a.lo}..{a.hi} is empty", a.span)
        ctx.number(a.lo, a.span)
        ctx.number(a.hi, a.span)
        return "int"


    def _known_enum(self, name: str, a: ir.AttrDecl) -> None:
        """Report attribute ``a``'s enum ``name`` when no enum has that name."""
        if name not in self.sym.enums:
            self.ctx.error(f"unknown enum '{name}' for attribute '{a.name}'"
                           + did_you_mean(name, [*self.sym.enums, "text"]),
                           self.ctx.type_span(a, name))
    def zone_flags(self, z: ir.ZoneDecl) -> None:
        """A zone says where it is (shared or per player) and only flags the language has."""
        for flag in z.unknown_flags:
            self.ctx.error(f"unknown zone property '{flag.text}'"
                           + did_you_mean(flag.text, ir.ZONE_FLAGS)
                           + "; allowed: " + ", ".join(ir.ZONE_FLAGS), flag.span)
        if z.per_player is None:
            self.ctx.error("a zone must say 'shared' or 'per player'", z.span)

    def derived_attr(self, k: ir.KindDecl, i: int) -> str:
        """Type of the derived attribute ``k.attrs[i]`` (``name = EXPR``): the attributes
        declared before it in the kind, options and enum values are in scope."""
        a, ctx = k.attrs[i], self.ctx
        assert a.value is not None
        ctx.scopes.append({b.name: self.sym.attrs.get(b.name, ANY) for b in k.attrs[:i]})
        first = len(ctx.out.diagnostics)
        typ = self.exprs.expr(a.value)
        ctx.scopes.pop()
        for diag in ctx.out.diagnostics[first:]:
            for later in k.attrs[i + 1:]:
                if diag.message.startswith(f"undefined name '{later.name}'"):
                    diag.message = (f"'{later.name}' is declared after '{a.name}': a derived "
                                    "attribute can use only the attributes above it")
        if typ not in ("int", "bool", "str", ANY) and not typ.startswith("enum:"):
            ctx.error(f"attribute '{a.name}' must be a number, text, yes/no or an enum "
                      f"value, got {describe(typ)}", a.value.span)
            return ANY
        return typ

    def tables(self, k: ir.KindDecl) -> None:
        """Each table row has a cell per printed attribute and maybe one for copies (a whole
        number, at least 1); each cell must fit its attribute's type."""
        attrs = {a.name: a for a in k.attrs}
        printed = [a.name for a in k.attrs if a.value is None]
        for row in k.rows or []:
            if len(row.values) < len(printed) or row.extra:
                cells = len(row.values) + (1 + len(row.extra) if row.extra else 0)
                self.ctx.error(f"this row has {cells} cells; the table needs {len(printed)} "
                               f"({', '.join(printed)}) and optionally a last one for copies",
                               row.span)
                continue
            if not whole_at_least_1(row.copies):
                self.ctx.error("the last cell (copies) must be a number of at least 1",
                               row.span)
            for name, value in row.values.items():
                problem = self.cell_problem(attrs[name], value)
                if problem:
                    self.ctx.error(f"the '{name}' cell of this row must be {problem}",
                                   row.span)

    def cell_problem(self, a: ir.AttrDecl, value: Any) -> str | None:
        """What a table cell of attribute ``a`` must be, when ``value`` is not that."""
        sym = self.sym
        if a.text and not isinstance(value, str):
            return "a quoted text"
        if a.enum == "bool":
            return None if isinstance(value, bool) else "yes or no"
        if a.set_of is not None:
            values = sym.enums.get(a.set_of)
            names = [v.name for v in values.values] if values else []
            bad = [v for v in (value or []) if v not in names] \
                if isinstance(value, list) else ["?"]
            if bad:
                return f"values of {a.set_of} ({', '.join(names)})" \
                    + did_you_mean(str(bad[0]), names)
            return None
        if a.enum == "ability":
            if value is not None and not (isinstance(value, list) and len(value) == 1
                                          and value[0] in sym.abilities):
                return "an ability name or none" + (did_you_mean(
                    str(value[0]), sym.abilities) if isinstance(value, list) and value else "")
            return None
        if a.enum is not None:
            e = sym.enums.get(a.enum)
            names = [v.name for v in e.values] if e else []
            if not (isinstance(value, list) and len(value) == 1 and value[0] in names):
                return f"one {a.enum} value ({', '.join(names)})"
            return None
        if a.lo is not None and a.hi is not None:
            if isinstance(value, bool) or not isinstance(value, int) or \
                    not a.lo <= value <= a.hi:
                return f"a number from {a.lo} to {a.hi}"
        return None


def whole_at_least_1(value: Any) -> bool:
    """Whether ``value`` (a table cell) is a whole number of at least 1 (not yes/no)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def card_label_reads(ctx: Context, labels: ir.Labels) -> None:
    """A card's label is made once, before play: its placeholders may read the card's
    attributes, options and enum values, not a zone or a variable (they ended in a
    traceback when the game was built), nor an attribute that reads the game."""
    for lang in ("", *labels.other):
        for part in ctx.out.templates.get((id(labels), lang), []):
            if isinstance(part, str):
                continue
            for name in nodes_of(part, ir.Name):
                what = "zone" if name.id in ctx.sym.zones else \
                    "variable" if name.id in ctx.sym.vars else \
                    "attribute" if name.id in ctx.out.dynamic_attrs else None
                if what is not None:
                    ctx.error(f"a card's label is made before play: it may show the card's "
                              f"attributes, options and enum values, not the {what} "
                              f"'{name.id}'" + (", which reads the game (show it in a prompt "
                                                "or a 'say' line)" if what == "attribute"
                                                else ""), name.span)

