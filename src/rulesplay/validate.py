"""Static checks of a ruleset: names, types, the phase graph and option values.

``check(ruleset)`` returns a :class:`Checked` with every name resolved and every expression
typed (the engine compiles from it) and the warnings found, or raises
:class:`RulesValidationError` carrying *all* the errors it found.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import ir
from .errors import Diagnostic, RulesError, RulesValidationError, Span, did_you_mean
from .names import lookalike_warnings
from .parse import MAX_DIGITS
from .parse_errors import quoted
from .templates import parse_template

# Types are strings: int bool str player card zone pzone none any tuple dict:<T>
# enum:<name> list:<T>.
ANY = "any"
BUILTINS = ("count", "any", "all", "sum", "max", "min", "top", "bottom", "first", "last",
            "values", "random", "index", "best", "owner", "abs", "shares", "union", "bonus")
# Builtins whose argument at this position is evaluated once per element, with ``it`` bound.
PER_ELEMENT = {"count": 1, "any": 1, "all": 1, "sum": 1, "max": 1, "min": 1, "values": 1,
               "best": 1, "union": 1}
RESERVED = {"it", "this", "players", "seats", "bool", "end", "none", "yes", "no", "true",
            "false", "ability"}


@dataclass
class Symbols:
    """Everything a ruleset declares, by name."""

    options: dict[str, ir.OptionDecl] = field(default_factory=dict)
    enums: dict[str, ir.EnumDecl] = field(default_factory=dict)
    enum_values: dict[str, str] = field(default_factory=dict)  # value -> enum name
    choice_values: dict[str, str] = field(default_factory=dict)  # value -> option name
    kinds: dict[str, ir.KindDecl] = field(default_factory=dict)
    attrs: dict[str, str] = field(default_factory=dict)  # attribute -> type
    zones: dict[str, ir.ZoneDecl] = field(default_factory=dict)
    vars: dict[str, ir.VarDecl] = field(default_factory=dict)
    phases: dict[str, ir.PhaseDecl] = field(default_factory=dict)
    abilities: dict[str, ir.AbilityDecl] = field(default_factory=dict)
    rules: dict[str, ir.RuleDecl] = field(default_factory=dict)
    stats: set[str] = field(default_factory=set)  # names some ability modifies
    steps: set[str] = field(default_factory=set)  # names some ability has blocks at


@dataclass
class Checked:
    """A checked ruleset: the IR plus each node's resolution and type (keyed by ``id(node)``).

    ``res`` maps a Name node to ``(category, name)``; categories: local, it, option, var,
    tvar, pvar, enum_value, zone, pzone, players, seats, enum, bool. ``types`` maps every
    expression node to its type string. ``templates`` maps each Labels node to its parsed
    parts per language. ``diagnostics`` are the errors found (none in a ruleset that
    :func:`check` returns); ``warnings`` are diagnostics with severity ``"warning"``, sorted
    by position, with their source attached.
    """

    ruleset: ir.Ruleset
    symbols: Symbols
    res: dict[int, tuple[str, str]] = field(default_factory=dict)
    types: dict[int, str] = field(default_factory=dict)
    templates: dict[tuple[int, str], list[Any]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)  # file -> text, for carets later


def elem_type(t: str) -> str | None:
    """The element type of a collection type, or None when ``t`` is not a collection."""
    if t.startswith("list:"):
        return t[5:]
    if t.startswith("set:"):
        return f"enum:{t[4:]}"
    if t == "zone":
        return "card"
    if t == ANY:
        return ANY
    return None


def describe(t: str) -> str:
    """A type as a ruleset author reads it: ``enum:suit`` -> ``a suit``, ``list:card`` ->
    ``cards``, ``int`` -> ``a number``."""
    simple = {"int": "a number", "bool": "yes/no", "str": "a text", "player": "a player",
              "card": "a card", "zone": "a zone", "pzone": "a zone per player",
              "none": "none", ANY: "a value", "tuple": "a tuple"}
    plural = {"int": "numbers", "bool": "yes/no values", "str": "texts", "player": "players",
              "card": "cards", "zone": "zones", ANY: "values", "tuple": "tuples"}
    if t in simple:
        return simple[t]
    if t.startswith("enum:"):
        name = t[5:]
        return ("an " if name[:1] in "aeiou" else "a ") + name
    if t.startswith("list:"):
        el = t[5:]
        if el in plural:
            return plural[el]
        return f"{el[5:]} values" if el.startswith("enum:") else f"a list of {describe(el)}"
    if t.startswith("dict:"):
        return f"a table of {describe('list:' + t[5:])}"
    if t.startswith("pvar:"):
        return f"{describe(t[5:])} per player"
    if t.startswith("set:"):
        return f"a set of {t[4:]} values"
    if t == "ability":
        return "an ability"
    return t


def per_player_hint(e: ir.Expr, t: str) -> str:
    """``; 'hand' is one per player: say hand[p]`` when a per-player name is used bare."""
    if isinstance(e, ir.Name) and (t == "pzone" or t.startswith("pvar:")):
        return f"; '{e.id}' is one per player: say {e.id}[p]"
    return ""


def compatible(a: str, b: str) -> bool:
    """Whether values of types ``a`` and ``b`` may be compared or assigned to each other."""
    if a == b or ANY in (a, b):
        return True
    if "none" in (a, b):
        other = b if a == "none" else a
        return other in ("player", "card", "int", "str", "none", "ability") or \
            other.startswith("enum:")
    if {a, b} <= {"int", "bool"} or {a, b} == {"int", "player"}:
        return True
    if a.startswith("list:") and b.startswith("list:"):
        return compatible(a[5:], b[5:])
    if {a, b} == {"zone", "list:card"}:
        return True
    return False


class Checker:
    """Walks a ruleset once, resolving names and typing expressions; collects diagnostics."""

    def __init__(self, ruleset: ir.Ruleset) -> None:
        self.r = ruleset
        self.sym = Symbols()
        self.out = Checked(ruleset, self.sym)
        self.scopes: list[dict[str, str]] = []
        self.key_card: str | None = None  # a trick's card name, while its key is checked
        self.loops = 0  # loops around the statement being checked (for 'break')

    # ------------------------------------------------------------ reporting
    def error(self, message: str, span: Span) -> None:
        self.out.diagnostics.append(Diagnostic(message, span))

    def warn(self, message: str, span: Span) -> None:
        self.out.warnings.append(Diagnostic(message, span, severity="warning"))

    def _global_names(self) -> list[str]:
        s = self.sym
        return [*s.options, *s.enum_values, *s.zones, *s.vars, *s.enums, "players", "seats"]

    # ------------------------------------------------------------ declarations
    def declare(self) -> None:
        seen: dict[str, Span] = {}

        def claim(name: str, span: Span, what: str) -> bool:
            if name in RESERVED:
                self.error(f"'{name}' is a reserved word and cannot name a {what}", span)
                return False
            if name in seen:
                first = seen[name]
                self.error(f"'{name}' is already declared (line {first.line})", span)
                return False
            seen[name] = span
            return True

        r = self.r
        for again in r.duplicates:
            self.error(f"'{again.text}' is given twice; a ruleset has one", again.span)
        if r.min_players < 1 or r.max_players < r.min_players or r.max_players > 64:
            self.error(f"players {r.min_players}..{r.max_players} is not a range of 1 to 64 "
                       "players", r.span)
        for o in r.options:
            self.number(o.lo, o.span)
            self.number(o.hi, o.span)
            if claim(o.name, o.span, "option"):
                self.sym.options[o.name] = o
            for value in o.choices:
                if self.sym.choice_values.setdefault(value, o.name) == o.name:
                    seen.setdefault(value, o.span)
        for e in r.enums:
            if claim(e.name, e.span, "enum"):
                self.sym.enums[e.name] = e
            for v in e.values:
                if claim(v.name, v.span, "enum value"):
                    self.sym.enum_values[v.name] = e.name
        for k in r.kinds:
            if k.name in self.sym.kinds:
                self.error(f"card kind '{k.name}' is already declared", k.span)
            self.sym.kinds[k.name] = k
            for i, a in enumerate(k.attrs):
                if a.value is not None:
                    typ = self.derived_attr(k, i)
                elif a.text:
                    typ = "str"
                    if k.rows is None:
                        self.error(f"'{a.name}: text' needs a table: each card has its own "
                                   "text", a.span)
                elif a.set_of is not None:
                    if a.set_of not in self.sym.enums:
                        self.error(f"unknown enum '{a.set_of}' for attribute '{a.name}'"
                                   + did_you_mean(a.set_of, self.sym.enums), a.span)
                    typ = f"set:{a.set_of}"
                elif a.enum == "ability":
                    typ = "ability"
                    if k.rows is None:
                        self.error(f"'{a.name}: ability' needs a table: each card names its "
                                   "own ability", a.span)
                elif a.enum == "bool":
                    typ = "bool"
                elif a.enum is not None:
                    if a.enum not in self.sym.enums:
                        self.error(f"unknown enum '{a.enum}' for attribute '{a.name}'"
                                   + did_you_mean(a.enum, self.sym.enums), a.span)
                    typ = f"enum:{a.enum}"
                else:
                    if a.lo is None or a.hi is None or a.lo > a.hi:
                        self.error(f"attribute range {a.lo}..{a.hi} is empty", a.span)
                    self.number(a.lo, a.span)
                    self.number(a.hi, a.span)
                    typ = "int"
                if self.sym.attrs.get(a.name, typ) != typ:
                    self.error(f"attribute '{a.name}' has another type in another kind", a.span)
                self.sym.attrs[a.name] = typ
        for var in r.vars:
            if var.kept and var.scope != "card":
                self.error("only a card variable can be 'kept' (the others never reset)",
                           var.span)
        for z in r.zones:
            self.zone_flags(z)
            if claim(z.name, z.span, "zone"):
                self.sym.zones[z.name] = z
        for v in r.vars:
            if v.scope == "card":
                if v.name in self.sym.attrs or v.name in self.sym.vars:
                    self.error(f"'{v.name}' is already a card attribute or variable", v.span)
                self.sym.vars[v.name] = v
            elif claim(v.name, v.span, "variable"):
                self.sym.vars[v.name] = v
        for p in r.phases:
            if p.name in self.sym.phases:
                self.error(f"phase '{p.name}' is already declared", p.span)
            self.sym.phases[p.name] = p
        for ab in r.abilities:
            for again in ab.duplicates:
                self.error(f"ability '{ab.name}' already has '{again.text}'", again.span)
            if ab.name in self.sym.abilities or ab.name in self.sym.enum_values:
                self.error(f"ability '{ab.name}' is already declared", ab.span)
            self.sym.abilities[ab.name] = ab
            self.sym.stats.update(ab.modifies)
            self.sym.steps.update(ab.steps)
        for rule in r.rules:
            if rule.name in self.sym.rules:
                self.error(f"rule '{rule.name}' is already declared", rule.span)
            self.sym.rules[rule.name] = rule
        if not r.kinds:
            self.error("a ruleset needs at least one 'card' kind", r.span)
        if not r.zones:
            self.error("a ruleset needs at least one zone (cards start in the first one)",
                       r.span)
        if not r.phases:
            self.error("a ruleset needs at least one phase", r.span)

    def zone_flags(self, z: ir.ZoneDecl) -> None:
        """A zone says where it is (shared or per player) and only flags the language has."""
        for flag in z.unknown_flags:
            self.error(f"unknown zone property '{flag.text}'"
                       + did_you_mean(flag.text, ir.ZONE_FLAGS)
                       + "; allowed: " + ", ".join(ir.ZONE_FLAGS), flag.span)
        if z.per_player is None:
            self.error("a zone must say 'shared' or 'per player'", z.span)

    def number(self, value: int | None, span: Span) -> None:
        """A number has at most :data:`MAX_DIGITS` digits (a ruleset counts cards, seats and
        points); ``span`` is where it is written."""
        if value is not None and abs(value) >= 10 ** MAX_DIGITS:
            self.error(f"the number {quoted(str(abs(value)))} is too large (at most "
                       f"{MAX_DIGITS} digits)", span)

    def derived_attr(self, k: ir.KindDecl, i: int) -> str:
        """Type of the derived attribute ``k.attrs[i]`` (``name = EXPR``): the attributes
        declared before it in the kind, options and enum values are in scope."""
        a = k.attrs[i]
        assert a.value is not None
        self.scopes.append({b.name: self.sym.attrs.get(b.name, ANY) for b in k.attrs[:i]})
        first = len(self.out.diagnostics)
        typ = self.expr(a.value)
        self.scopes.pop()
        for diag in self.out.diagnostics[first:]:
            for later in k.attrs[i + 1:]:
                if diag.message.startswith(f"undefined name '{later.name}'"):
                    diag.message = (f"'{later.name}' is declared after '{a.name}': a derived "
                                    "attribute can use only the attributes above it")
        if typ not in ("int", "bool", "str", ANY) and not typ.startswith("enum:"):
            self.error(f"attribute '{a.name}' must be a number, text, yes/no or an enum "
                       f"value, got {describe(typ)}", a.value.span)
            return ANY
        return typ

    def var_type(self, decl: ir.VarDecl) -> str:
        t = decl.type
        if t in ("int", "bool", "player", "card"):
            return t
        if t in self.sym.enums:
            return f"enum:{t}"
        self.error(f"unknown type '{t}'; allowed: int, bool, player, card or an enum"
                   + did_you_mean(t, [*self.sym.enums, "int", "bool", "player", "card"]),
                   decl.span)
        return ANY

    # ------------------------------------------------------------ expressions
    def bind(self, name: str, typ: str, span: Span) -> None:
        for scope in self.scopes:
            if name in scope:
                self.error(f"'{name}' is already bound here; choose another name", span)
                return
        if name in self.sym.vars or name in self.sym.options or name in self.sym.zones:
            self.error(f"'{name}' would hide the declared '{name}'; choose another name", span)
        self.scopes[-1][name] = typ

    def lookup_local(self, name: str) -> str | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def expr(self, e: ir.Expr, it: str | None = None) -> str:
        t = self._expr(e, it)
        self.out.types[id(e)] = t
        return t

    def want(self, e: ir.Expr, expected: str, it: str | None = None, what: str = "") -> str:
        t = self.expr(e, it)
        if not compatible(t, expected) or (expected == "bool" and t == "int"):
            self.error(f"type mismatch{what}: expected {describe(expected)}, got "
                       f"{describe(t)}{per_player_hint(e, t)}", e.span)
        return t

    def coll(self, e: ir.Expr, it: str | None, what: str = " here") -> str:
        t = self.expr(e, it)
        el = elem_type(t)
        if el is None:
            hint = per_player_hint(e, t)
            self.error(f"expected cards, seats or values{what}, got {describe(t)}{hint}",
                       e.span)
            return ANY
        return el

    def _expr(self, e: ir.Expr, it: str | None) -> str:  # noqa: C901 - one case per node
        if isinstance(e, ir.Num):
            self.number(e.value, e.span)
            return "int"
        if isinstance(e, ir.Str):
            return "str"
        if isinstance(e, ir.Bool):
            return "bool"
        if isinstance(e, ir.NoneLit):
            return "none"
        if isinstance(e, ir.Name):
            return self.name(e, it)
        if isinstance(e, ir.Attr):
            obj = self.expr(e.obj, it)
            if obj not in ("card", ANY):
                self.error(f"'.{e.name}' needs a card, got {describe(obj)}", e.span)
                return ANY
            if e.name == "kind":
                return "str"
            if e.name in self.sym.attrs:
                return self.sym.attrs[e.name]
            var = self.sym.vars.get(e.name)
            if var is not None and var.scope == "card":
                return self.var_type(var)
            cands = [*self.sym.attrs, *(v for v in self.sym.vars.values() if v.scope == "card")]
            names = [c if isinstance(c, str) else c.name for c in cands]
            hint = did_you_mean(e.name, names) or (
                "; they have: " + ", ".join(["kind", *names]))
            self.error(f"cards have no attribute '{e.name}'" + hint, e.span)
            return ANY
        if isinstance(e, ir.Index):
            obj = self.expr(e.obj, it)
            if obj == "pzone" or (obj.startswith("pvar:")):
                self.want(e.key, "player", it, " in seat index")
                if obj == "pzone":
                    return "zone"
                return obj[5:]
            if obj.startswith("dict:"):
                self.expr(e.key, it)
                return obj[5:]
            if obj.startswith("list:"):
                self.want(e.key, "int", it)
                return obj[5:]
            if obj != ANY:
                self.error(f"cannot index {describe(obj)}", e.span)
            return ANY
        if isinstance(e, ir.Call):
            return self.call(e, it)
        if isinstance(e, ir.BinOp):
            return self.binop(e, it)
        if isinstance(e, ir.UnOp):
            if e.op == "not":
                self.want(e.operand, "bool", it)
                return "bool"
            self.want(e.operand, "int", it)
            return "int"
        if isinstance(e, ir.Cond):
            self.want(e.test, "bool", it)
            a, b = self.expr(e.then, it), self.expr(e.other, it)
            if not compatible(a, b):
                self.error(f"the two branches have different types: {describe(a)} and "
                           f"{describe(b)}", e.span)
            return b if a == "none" else a
        if isinstance(e, ir.TupleExpr):
            for item in e.items:
                self.expr(item, it)
            return "tuple"
        if isinstance(e, ir.ListExpr):
            types = {self.expr(item, it) for item in e.items}
            return f"list:{types.pop()}" if len(types) == 1 else "list:any"
        if isinstance(e, ir.DictExpr):
            for k in e.keys:
                self.expr(k, it)
            vt = {self.expr(v, it) for v in e.values}
            return f"dict:{vt.pop()}" if len(vt) == 1 else "dict:any"
        if isinstance(e, ir.RangeExpr):
            self.want(e.lo, "int", it)
            self.want(e.hi, "int", it)
            return "list:int"
        if isinstance(e, ir.Filter):
            el = self.coll(e.coll, it)
            self.want(e.cond, "bool", el)
            return f"list:{el}"
        if isinstance(e, ir.IsKind):
            self.want(e.obj, "card", it)
            if e.kind not in self.sym.kinds:
                self.error(f"unknown card kind '{e.kind}'" + did_you_mean(e.kind, self.sym.kinds),
                           e.span)
            return "bool"
        if isinstance(e, ir.Seat):
            self.want(e.of, "player", it)
            return "player"
        raise AssertionError(f"unknown node {e!r}")

    def name(self, e: ir.Name, it: str | None) -> str:
        n, res, sym = e.id, self.out.res, self.sym
        local = self.lookup_local(n)
        if local is not None:
            res[id(e)] = ("local", n)
            return local
        if n == "it":
            if it is None:
                self.error("'it' is only defined inside 'where' and per-card arguments", e.span)
                return ANY
            res[id(e)] = ("it", n)
            return it
        if n in sym.options:
            res[id(e)] = ("option", n)
            o = sym.options[n]
            return {"int": "int", "bool": "bool"}.get(o.type, "str")
        if n in sym.vars:
            v = sym.vars[n]
            if v.scope == "card":
                self.error(f"'{n}' is a card variable: say card.{n}", e.span)
                return ANY
            cat = {"global": "var", "trick": "tvar", "player": "pvar"}[v.scope]
            res[id(e)] = (cat, n)
            t = self.var_type(v)
            return f"pvar:{t}" if v.scope == "player" else t
        if n in sym.choice_values:
            res[id(e)] = ("choice_value", n)
            return "str"
        if n in sym.abilities:
            res[id(e)] = ("ability_value", n)
            return "ability"
        if n in sym.enum_values:
            res[id(e)] = ("enum_value", n)
            return f"enum:{sym.enum_values[n]}"
        if n in sym.zones:
            z = sym.zones[n]
            res[id(e)] = ("pzone" if z.per_player else "zone", n)
            return "pzone" if z.per_player else "zone"
        if n in ("players", "seats"):
            res[id(e)] = (n, n)
            return "int" if n == "players" else "list:player"
        if n in sym.enums:
            res[id(e)] = ("enum", n)
            return f"list:enum:{n}"
        if n == "bool":
            res[id(e)] = ("bool", n)
            return "list:bool"
        names = [*self._global_names(), *(k for s in self.scopes for k in s)]
        if it is not None:
            names.append("it")
        if n == self.key_card:
            self.error(f"'{n}' is the card just played; 'won by highest' ranks every card of "
                       "the trick: say 'it'", e.span)
            return ANY
        self.error(f"undefined name '{n}'" + did_you_mean(n, names), e.span)
        return ANY

    def binop(self, e: ir.BinOp, it: str | None) -> str:
        op = e.op
        if op in ("and", "or"):
            self.want(e.left, "bool", it)
            self.want(e.right, "bool", it)
            return "bool"
        if op in ("in", "not in"):
            left = self.expr(e.left, it)
            el = self.coll(e.right, it)
            if not compatible(left, el):
                self.error(f"type mismatch: {describe(left)} cannot be among "
                           f"{describe('list:' + el)}", e.span)
            return "bool"
        a, b = self.expr(e.left, it), self.expr(e.right, it)
        if op in ("==", "!="):
            if not compatible(a, b):
                self.error(f"type mismatch: cannot compare {describe(a)} with "
                           f"{describe(b)}", e.span)
            return "bool"
        if op in ("<", "<=", ">", ">="):
            if not ((a == b == "tuple") or (compatible(a, "int") and compatible(b, "int")
                                             and "none" not in (a, b))):
                self.error(f"type mismatch: cannot order {describe(a)} and {describe(b)}",
                           e.span)
            return "bool"
        for side, t in ((e.left, a), (e.right, b)):
            if not compatible(t, "int") or t == "none":
                self.error(f"type mismatch: '{op}' needs numbers, got {describe(t)}",
                           side.span)
        return "int"

    def call(self, e: ir.Call, it: str | None) -> str:
        f, args = e.func, e.args
        arity = {"count": (1, 2), "any": (1, 2), "all": (2, 2), "sum": (2, 2), "max": (1, 2),
                 "min": (1, 2), "top": (1, 1), "bottom": (1, 1), "first": (2, 2),
                 "last": (2, 2), "values": (2, 2), "random": (1, 1), "index": (1, 1),
                 "best": (2, 2), "owner": (1, 1), "abs": (1, 1), "shares": (2, 2),
                 "union": (2, 2), "bonus": (2, 2)}
        if f not in arity:
            self.error(f"unknown function '{f}'" + did_you_mean(f, BUILTINS), e.span)
            for a in args:
                self.expr(a, it)
            return ANY
        lo, hi = arity[f]
        if not lo <= len(args) <= hi:
            want = str(lo) if lo == hi else f"{lo} or {hi}"
            self.error(f"'{f}' takes {want} argument{'s' if hi > 1 else ''}, got {len(args)}",
                       e.span)
            return ANY
        if f in ("max", "min") and len(args) == 2 and elem_type(self.expr(args[0], it)) is None:
            self.want(args[1], "int", it)
            return "int"
        if f == "shares":
            for arg in args:
                t = self.expr(arg, it)
                if not (t.startswith("set:") or t.startswith("list:set:") or t == ANY):
                    self.error(f"'shares' compares sets, got {describe(t)}", arg.span)
            return "bool"
        if f == "bonus":
            stat = args[0]
            if not isinstance(stat, ir.Name) or stat.id not in self.sym.stats:
                name = stat.id if isinstance(stat, ir.Name) else "?"
                self.error(f"no ability modifies '{name}'"
                           + did_you_mean(name, self.sym.stats), stat.span)
            else:
                self.out.res[id(stat)] = ("stat", stat.id)
            el = self.coll(args[1], it)
            if el not in ("card", ANY):
                self.error(f"'bonus' adds up the abilities of cards, got "
                           f"{describe('list:' + el)}", args[1].span)
            return "int"
        if f in ("index", "owner"):
            self.want(args[0], "card", it)
            return "int" if f == "index" else "player"
        if f == "abs":
            self.want(args[0], "int", it)
            return "int"
        if f in ("first", "last"):
            self.want(args[0], "int", it)
            el = self.coll(args[1], it)
            return f"list:{el}"
        el = self.coll(args[0], it)
        if f in ("count", "any", "all") and len(args) == 2:
            self.want(args[1], "bool", el)
        if f in ("top", "bottom", "random"):
            return el
        if f in ("count",):
            return "int"
        if f in ("any", "all"):
            return "bool"
        if f in ("sum", "max", "min"):
            if len(args) == 2:
                self.want(args[1], "int", el)
            elif not compatible(el, "int"):
                self.error(f"'{f}' of {describe('list:' + el)} needs a number per element",
                           e.span)
            return "int"
        if f == "values":
            return f"list:{self.expr(args[1], el)}"
        if f == "union":
            t = self.expr(args[1], el)
            if not (t.startswith("set:") or t == ANY):
                self.error(f"'union' joins sets, got {describe(t)}", args[1].span)
            return t
        if f == "best":
            self.expr(args[1], el)
            return el
        raise AssertionError(f)

    # ------------------------------------------------------------ statements
    def block(self, stmts: list[ir.Stmt], bound: dict[str, str] | None = None) -> None:
        self.scopes.append({})
        for name, typ in (bound or {}).items():
            self.scopes[-1][name] = typ
        for s in stmts:
            self.stmt(s)
        self.scopes.pop()

    def stmt(self, s: ir.Stmt) -> None:  # noqa: C901 - one case per statement
        if isinstance(s, ir.Assign):
            self.assign(s)
        elif isinstance(s, ir.Let):
            t = self.expr(s.value)
            self.bind(s.name, t, s.span)
        elif isinstance(s, ir.Move):
            if self.unknown_zone(s.cards, "move") or self.unknown_zone(s.to, "move"):
                return
            t = self.expr(s.cards)
            if t not in ("card", "zone", "list:card", ANY):
                self.error(f"'move' needs a card, cards or a zone, got {describe(t)}",
                           s.cards.span)
            self.want(s.to, "zone", what=" (destination of move)")
        elif isinstance(s, ir.Shuffle):
            self.want(s.zone, "zone", what=" (shuffle needs a zone)")
        elif isinstance(s, ir.Deal):
            self.want(s.count, "int")
            self.want(s.source, "zone")
            z = self.sym.zones.get(s.to)
            if z is None:
                self.error(f"unknown zone '{s.to}'" + did_you_mean(s.to, self.sym.zones), s.span)
            elif not z.per_player:
                self.error(f"'deal' deals to a zone per player; '{s.to}' is shared", s.span)
            if s.start is not None:
                self.want(s.start, "player")
        elif isinstance(s, ir.If):
            for test, body in zip(s.tests, s.bodies, strict=True):
                self.want(test, "bool")
                self.block(body)
            self.block(s.orelse)
        elif isinstance(s, ir.Repeat):
            if s.count is not None:
                self.want(s.count, "int")
            if s.test is not None:
                self.want(s.test, "bool")
            self.loop_block(s.body, {s.var: "int"} if s.var else None)
        elif isinstance(s, ir.ForEachPlayer):
            if s.start is not None:
                self.want(s.start, "player")
            self.scopes.append({})
            self.bind(s.var, "player", s.span)
            if s.order is not None:
                t = self.expr(s.order)
                if t not in ("int", "bool", "tuple", ANY):
                    self.error(f"'ordered by' needs a number or a tuple, got {describe(t)}",
                               s.order.span)
            self.loop_block(s.body)
            self.scopes.pop()
        elif isinstance(s, ir.ForEachIn):
            el = self.coll(s.coll, None, " to loop over")
            self.scopes.append({})
            self.bind(s.var, el, s.span)
            self.loop_block(s.body)
            self.scopes.pop()
        elif isinstance(s, ir.Break):
            if self.loops == 0:
                self.error("'break' is only allowed inside 'repeat' or 'for each'", s.span)
        elif isinstance(s, ir.Do):
            if s.name not in self.sym.rules:
                self.error(f"unknown rule '{s.name}'" + did_you_mean(s.name, self.sym.rules),
                           s.span)
        elif isinstance(s, ir.Trigger):
            if s.step not in self.sym.steps:
                self.error(f"no ability has a block 'at {s.step}'"
                           + did_you_mean(s.step, self.sym.steps), s.span)
            el = self.coll(s.cards, None, " to trigger")
            if el not in ("card", ANY):
                self.error(f"'trigger' runs the abilities of cards, got "
                           f"{describe('list:' + el)}", s.cards.span)
        elif isinstance(s, ir.Choose):
            if s.skip_label is not None and not s.optional:
                self.error("'skip' needs 'may choose' (a choice that can be skipped)",
                           s.skip_label.span if s.skip_label.span.line else s.span)
            self.want(s.player, "player", what=" (who chooses)")
            el = self.coll(s.domain, None, " to choose from")
            if s.where is not None:
                self.scopes.append({s.name: el})
                self.want(s.where, "bool")
                self.scopes.pop()
            # The prompt is shown before the choice is made: it cannot name the choice.
            self.template(s.prompt)
            if s.skip_label is not None:
                self.template(s.skip_label)
            self.bind(s.name, el, s.span)
        elif isinstance(s, ir.Trick):
            self.trick(s)
        elif isinstance(s, ir.Say):
            self.template(s.text)
        elif isinstance(s, ir.EndGame):
            pass
        else:
            raise AssertionError(s)

    def loop_block(self, stmts: list[ir.Stmt], bound: dict[str, str] | None = None) -> None:
        self.loops += 1
        self.block(stmts, bound)
        self.loops -= 1

    def isolated_block(self, stmts: list[ir.Stmt], bound: dict[str, str]) -> None:
        """A body of its own (an ability or rule): no outer locals, no outer loop."""
        scopes, loops = self.scopes, self.loops
        self.scopes, self.loops = [{}], 0
        self.block(stmts, bound)
        self.scopes, self.loops = scopes, loops

    def tables(self, k: ir.KindDecl) -> None:
        """Each table row has a cell per printed attribute and maybe one for copies (a whole
        number, at least 1); each cell must fit its attribute's type."""
        attrs = {a.name: a for a in k.attrs}
        printed = [a.name for a in k.attrs if a.value is None]
        for row in k.rows or []:
            if len(row.values) < len(printed) or row.extra:
                cells = len(row.values) + (1 + len(row.extra) if row.extra else 0)
                self.error(f"this row has {cells} cells; the table needs {len(printed)} "
                           f"({', '.join(printed)}) and optionally a last one for copies",
                           row.span)
                continue
            if not _whole_at_least_1(row.copies):
                self.error("the last cell (copies) must be a number of at least 1", row.span)
            for name, value in row.values.items():
                a = attrs[name]
                problem = None
                if a.text and not isinstance(value, str):
                    problem = "a quoted text"
                elif a.enum == "bool":
                    if not isinstance(value, bool):
                        problem = "yes or no"
                elif a.set_of is not None:
                    values = self.sym.enums.get(a.set_of)
                    names = [v.name for v in values.values] if values else []
                    bad = [v for v in (value or []) if v not in names] \
                        if isinstance(value, list) else ["?"]
                    if bad:
                        problem = f"values of {a.set_of} ({', '.join(names)})" \
                            + did_you_mean(str(bad[0]), names)
                elif a.enum == "ability":
                    if value is not None and not (isinstance(value, list) and len(value) == 1
                                                  and value[0] in self.sym.abilities):
                        problem = "an ability name or none" + (did_you_mean(
                            str(value[0]), self.sym.abilities) if isinstance(value, list)
                            and value else "")
                elif a.enum is not None:
                    e = self.sym.enums.get(a.enum)
                    names = [v.name for v in e.values] if e else []
                    if not (isinstance(value, list) and len(value) == 1 and value[0] in names):
                        problem = f"one {a.enum} value ({', '.join(names)})"
                elif a.lo is not None and a.hi is not None:
                    if isinstance(value, bool) or not isinstance(value, int) or \
                            not a.lo <= value <= a.hi:
                        problem = f"a number from {a.lo} to {a.hi}"
                if problem:
                    self.error(f"the '{name}' cell of this row must be {problem}", row.span)

    def rule_cycles(self) -> None:
        """``do`` must not call a rule from inside itself (that would never end)."""
        calls = {name: _calls(rule.body) for name, rule in self.sym.rules.items()}
        for name, rule in self.sym.rules.items():
            seen, todo = set(), list(calls[name])
            while todo:
                nxt = todo.pop()
                if nxt == name:
                    self.error(f"rule '{name}' runs itself (through 'do'); it would never end",
                               rule.span)
                    break
                if nxt not in seen and nxt in calls:
                    seen.add(nxt)
                    todo.extend(calls[nxt])

    def unknown_zone(self, e: ir.Expr, verb: str) -> bool:
        """Report ``e`` when it is a bare name (or ``name[p]``) that nothing declares, where a
        zone is expected; the message lists the zones."""
        base = e.obj if isinstance(e, ir.Index) else e
        if not isinstance(base, ir.Name):
            return False
        n = base.id
        if self.lookup_local(n) is not None or n in ("it", "players", "seats", "bool") or any(
                n in names for names in (self.sym.options, self.sym.vars, self.sym.zones,
                                         self.sym.enums, self.sym.enum_values,
                                         self.sym.choice_values)):
            return False
        hint = did_you_mean(n, self.sym.zones) or \
            "; zones: " + ", ".join(self.sym.zones) if self.sym.zones else ""
        self.error(f"unknown zone '{n}' in '{verb}'{hint}", base.span)
        return True

    def assign(self, s: ir.Assign) -> None:
        t = s.target
        if not isinstance(t, ir.Name | ir.Attr | ir.Index):
            self.error("only a variable, 'x[seat]' or 'card.var' can be assigned", t.span)
            self.expr(s.value)
            return
        if isinstance(t, ir.Name):
            if self.lookup_local(t.id) is not None:
                self.error(f"'{t.id}' is a local name and cannot be assigned", t.span)
                return
            var = self.sym.vars.get(t.id)
            if var is None or var.scope == "card" or var.scope == "player":
                if t.id in self.sym.options:
                    msg = f"option '{t.id}' is read-only; declare a 'var' for a value " \
                        "that changes during play"
                elif var is not None:
                    msg = f"'{t.id}' is a {var.scope} variable: say " + \
                        (f"card.{t.id}" if var.scope == "card" else f"{t.id}[seat]")
                else:
                    msg = f"undefined variable '{t.id}'" + did_you_mean(
                        t.id, [v for v in self.sym.vars if self.sym.vars[v].scope
                               in ("global", "trick")])
                self.error(msg, t.span)
                self.expr(s.value)
                return
        target_type = self.expr(t)
        if isinstance(t, ir.Index) and not self.expr(t.obj).startswith("pvar:"):
            self.error("only a player variable can be assigned by seat", t.span)
        if isinstance(t, ir.Attr) and t.name not in self.sym.vars:
            self.error(f"'{t.name}' is a printed attribute of the card; only card variables "
                       "can be assigned", t.span)
        if s.op == "=":
            self.want(s.value, target_type, what=" in assignment")
        else:
            self.want(s.value, "int")
            if not compatible(target_type, "int") or target_type == "none":
                self.error(f"'{s.op}' needs a number variable, got {describe(target_type)}",
                           t.span)

    def trick(self, s: ir.Trick) -> None:
        for again in s.duplicates:
            self.error(f"a trick has only one '{again.text}' clause", again.span)
        if s.pass_label is not None and not s.climbing:
            self.error("only a climbing trick has 'pass' (write 'trick climbing in ...'); in "
                       "this trick every player plays once",
                       s.pass_label.span if s.pass_label.span.line else s.span)
        self.want(s.zone, "zone", what=" (trick zone)")
        self.want(s.leader, "player", what=" (leader)")
        self.scopes.append({})
        self.bind("player", "player", s.span)
        el = self.coll(s.source, None)
        if el not in ("card", ANY):
            self.error(f"players play cards; the source holds {describe('list:' + el)}",
                       s.source.span)
        self.scopes.append({})
        self.bind(s.card_var, "card", s.span)
        if s.where is not None:
            self.want(s.where, "bool")
        self.template(s.prompt)
        self.block(s.after_play)
        self.scopes.pop()
        self.scopes.pop()
        self.template(s.pass_label)
        if s.key is None:
            self.error("this trick has no 'won by highest KEY' line saying which card wins, "
                       "e.g. 'won by highest it.rank'", s.span)
        else:
            self.key_card = s.card_var
            self.expr(s.key, "card")
            self.key_card = None
        self.block(s.after_trick, {"winner": "player"})

    # ------------------------------------------------------------ texts
    def template(self, labels: ir.Labels | None, bound: dict[str, str] | None = None,
                 attrs: bool = False) -> None:
        if labels is None:
            return
        texts = {"": labels.text} if labels.text is not None else {}
        texts.update(labels.other)
        self.scopes.append(dict(bound or {}))
        if attrs:
            for a, t in self.sym.attrs.items():
                self.scopes[-1][a] = t
        for lang, text in texts.items():
            # The first (untranslated) text starts just after the quote at the labels' span;
            # its placeholders get exact columns unless escapes moved the characters.
            exact = lang == "" and labels.span.line > 0 and not any(
                c in (text or "") for c in '\\"\n\t')
            col = labels.span.col + 1 if exact else None
            try:
                parts = parse_template(text or "", labels.span, col)
            except RulesError as exc:
                self.out.diagnostics.extend(exc.diagnostics)
                continue
            for part in parts:
                if not isinstance(part, str):
                    self.expr(part)
            self.out.templates[(id(labels), lang)] = parts
        self.scopes.pop()

    # ------------------------------------------------------------ whole ruleset
    def run(self) -> Checked:
        self.declare()
        r = self.r
        self.scopes.append({})
        for o in r.options:
            self.scopes.append({})
            self.expr(o.default)
            self.scopes.pop()
        for v in r.vars:
            t = self.var_type(v)
            dt = self.expr(v.default)
            if not compatible(dt, t):
                self.error(f"type mismatch: the default of '{v.name}' is {describe(dt)}; "
                           f"the variable holds {describe(t)}",
                           v.default.span)
        for k in r.kinds:
            self.want(k.copies, "int")
            self.template(k.card_label, attrs=True)
            self.tables(k)
        for ab in r.abilities:
            self.template(ab.labels)
            for stat, e in ab.modifies.items():
                self.scopes.append({"this": "card"})
                self.want(e, "int", what=f" (modify {stat})")
                self.scopes.pop()
            for body in ab.steps.values():
                self.isolated_block(body, {"this": "card"})
        for rule in r.rules:
            self.isolated_block(rule.body, {})
        self.rule_cycles()
        for p in r.phases:
            self.template(p.labels)
            self.block(p.body)
            for tr in p.transitions:
                if tr.guard is not None:
                    self.want(tr.guard, "bool")
                if tr.target != "end" and tr.target not in self.sym.phases:
                    self.error(f"unknown phase '{tr.target}'"
                               + did_you_mean(tr.target, [*self.sym.phases, "end"]), tr.span)
        if r.score is None:
            self.error("a ruleset needs a 'score:' line (the score of each player)", r.span)
        else:
            self.scopes.append({"player": "player"})
            self.want(r.score, "int", what=" (score)")
            for t in r.tiebreaks:
                self.want(t, "int", what=" (tiebreak)")
            self.scopes.pop()
        if r.winners is not None:
            self.want(r.winners, "list:player", what=" (winners: the winning seats)")
        for change in r.overrides:
            said = f"option {change.name} = ..." if change.action == "default" else \
                f"{change.action} {change.what} {change.name}"
            self.error(f"'{said}' changes a base ruleset; this file has no 'extends'",
                       change.span)
        self.scopes.pop()
        graph_checks(self)
        constant_checks(self)
        unused_options(self)
        return self.out


def unused_options(c: Checker) -> None:
    """Warn about an option nothing reads (no expression, default or text names it):
    setting it, from the command line or a variant, would change nothing. Legal (a variant
    may drop the rule that read it), so a warning, not an error."""
    read = {name for category, name in c.out.res.values() if category == "option"}
    for o in c.r.options:
        if o.name not in read:
            c.warn(f"option '{o.name}' is never used: no rule, default or text reads it, so "
                   "setting it changes nothing", o.span)


# ---------------------------------------------------------------- values fixed before play

# The most cards one kind may make, and the longest range a default may build.
MAX_CARDS = 10_000


class _NotConstant(Exception):
    """An expression needs the state of a game (a zone, a variable): not known before play."""

    def __init__(self, node: ir.Expr, why: str = "") -> None:
        super().__init__(why)
        self.node, self.why = node, why


class _Reported(Exception):
    """The expression holds a mistake the checker reports already (a number too large)."""

    def __init__(self, node: ir.Expr) -> None:
        super().__init__()
        self.node = node


class _EvalFault(Exception):
    """Working out a constant failed (a missing key, a division by zero)."""

    def __init__(self, message: str, node: ir.Expr) -> None:
        super().__init__(message)
        self.message, self.node = message, node


def const_eval(e: ir.Expr, env: dict[str, Any]) -> Any:  # noqa: C901 - one case per node
    """Evaluate an expression fixed before play (an option default, a kind's copies).

    Implements the engine's arithmetic (``/`` rounds down) on numbers, booleans, strings,
    lists and dicts; names come from ``env`` (``players``, earlier options, choice values).

    Raises:
        _NotConstant: the expression uses something only known during play.
        _EvalFault: the evaluation fails (missing dict key, division by zero, index range).
        _Reported: a number too large, which the checker reports.
    """
    if isinstance(e, ir.Num) and abs(e.value) >= 10 ** MAX_DIGITS:
        raise _Reported(e)
    if isinstance(e, ir.Num | ir.Bool | ir.Str):
        return e.value
    if isinstance(e, ir.NoneLit):
        return None
    if isinstance(e, ir.Name):
        if e.id in env:
            return env[e.id]
        raise _NotConstant(e)
    if isinstance(e, ir.UnOp):
        v = const_eval(e.operand, env)
        return (not v) if e.op == "not" else -v
    if isinstance(e, ir.Cond):
        return const_eval(e.then if const_eval(e.test, env) else e.other, env)
    if isinstance(e, ir.TupleExpr):
        return tuple(const_eval(i, env) for i in e.items)
    if isinstance(e, ir.ListExpr):
        return [const_eval(i, env) for i in e.items]
    if isinstance(e, ir.DictExpr):
        return {_key(const_eval(k, env), k): const_eval(v, env)
                for k, v in zip(e.keys, e.values, strict=True)}
    if isinstance(e, ir.RangeExpr):
        lo, hi = const_eval(e.lo, env), const_eval(e.hi, env)
        if not isinstance(lo, int) or not isinstance(hi, int) or hi - lo > MAX_CARDS:
            raise _EvalFault(f"the range {lo}..{hi} is too long to work out", e)
        return list(range(lo, hi + 1))
    if isinstance(e, ir.Index):
        obj, key = const_eval(e.obj, env), const_eval(e.key, env)
        if isinstance(obj, dict):
            if key not in obj:
                keys = ", ".join(str(k) for k in obj)
                raise _EvalFault(f"{_show_value(key)} is not among the keys ({keys})", e)
            return obj[key]
        if isinstance(obj, list) and isinstance(key, int):
            if not -len(obj) <= key < len(obj):
                raise _EvalFault(f"index {key} is outside the list of {len(obj)}", e)
            return obj[key]
        raise _NotConstant(e)
    if isinstance(e, ir.Call) and e.func in ("abs", "max", "min", "count", "sum"):
        args = [const_eval(a, env) for a in e.args]
        if e.func == "abs" and len(args) == 1 and isinstance(args[0], int):
            return abs(args[0])
        if e.func in ("max", "min") and len(args) == 2 and all(isinstance(a, int)
                                                               for a in args):
            return max(args) if e.func == "max" else min(args)
        if len(args) == 1 and isinstance(args[0], list):
            values = args[0]
            if e.func == "count":
                return len(values)
            if values and all(isinstance(v, int) for v in values):
                return {"max": max, "min": min, "sum": sum}[e.func](values)
        raise _NotConstant(e)
    if isinstance(e, ir.BinOp):
        return _const_binop(e, env)
    raise _NotConstant(e)


def _names(node: Any) -> set[str]:
    """Every name an expression mentions."""
    found: set[str] = set()
    todo = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, ir.Name):
            found.add(item.id)
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, ir.Node):
            todo.extend(getattr(item, f) for f in type(item).model_fields)
    return found


def _whole_at_least_1(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _key(value: Any, node: ir.Expr) -> Any:
    if isinstance(value, list | dict):
        raise _EvalFault("a list or dict cannot be a dict key", node)
    return value


def _const_binop(e: ir.BinOp, env: dict[str, Any]) -> Any:
    a = const_eval(e.left, env)
    if e.op == "and":
        return a and const_eval(e.right, env)
    if e.op == "or":
        return a or const_eval(e.right, env)
    b = const_eval(e.right, env)
    try:
        if e.op in ("in", "not in"):
            return (a in b) == (e.op == "in")
        if e.op in ("/", "%") and b == 0:
            raise _EvalFault("division by zero", e)
        ops = {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b,
               "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b,
               "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
               "/": lambda: a // b, "%": lambda: a % b}
        if e.op not in ops:
            raise _NotConstant(e)
        return ops[e.op]()
    except TypeError:
        raise _EvalFault(f"'{e.op}' cannot combine {a!r} and {b!r}", e) from None


def _show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _option_problem(o: ir.OptionDecl, value: Any) -> str | None:
    """Why ``value`` is not allowed for option ``o`` (the engine's rule), or None."""
    if o.type == "bool":
        return None if isinstance(value, bool) else "allowed: yes or no"
    if o.type == "int":
        if isinstance(value, int) and not isinstance(value, bool) and \
                (o.lo is None or o.lo <= value) and (o.hi is None or value <= o.hi):
            return None
        return f"allowed: a whole number from {o.lo} to {o.hi}"
    return None if value in o.choices else "allowed: " + ", ".join(o.choices)


def constant_checks(c: Checker) -> None:
    """Option defaults and card copies, worked out for every player count of the ruleset.

    Rules: an option's default may use numbers, ``players``, earlier options and choice
    values, and must be allowed by the option's type for every player count in
    ``players lo..hi``; a kind's ``copies`` must be at least 1 for every player count; no kind
    makes more than :data:`MAX_CARDS` cards.
    """
    r = c.r
    if not 1 <= r.min_players <= r.max_players <= 64:
        return
    base: dict[str, Any] = {v: v for v in c.sym.choice_values}
    reported: set[tuple[str, int]] = set()

    def report(message: str, node: ir.Expr | ir.Node, key: tuple[str, int]) -> None:
        if key not in reported:
            reported.add(key)
            c.error(message, node.span)

    for o in r.options:
        if o.type == "int" and o.lo is not None and o.hi is not None and o.lo > o.hi:
            c.error(f"option '{o.name}' has the empty range {o.lo}..{o.hi}", o.span)
    varying = {"players"}  # names whose value depends on the player count
    for o in r.options:
        if _names(o.default) & varying:
            varying.add(o.name)
    for n in range(r.min_players, r.max_players + 1):
        env = dict(base, players=n)
        for i, o in enumerate(r.options):
            where = f" with {n} players" if o.name in varying and \
                r.min_players < r.max_players else ""
            try:
                value = const_eval(o.default, env)
            except _NotConstant as exc:
                later = [p.name for p in r.options[i:]]
                name = exc.node.id if isinstance(exc.node, ir.Name) else ""
                why = (f"option '{name}' is declared after it" if name in later else
                       "it must be known before play: use numbers, 'players', earlier "
                       "options and choice values")
                report(f"the default of option '{o.name}' cannot be worked out: {why}",
                       exc.node, (o.name, 0))
                continue
            except _EvalFault as exc:
                report(f"the default of option '{o.name}' cannot be worked out{where}: "
                       f"{exc.message}", exc.node, (o.name, 0))
                continue
            except _Reported:
                continue
            if o.type == "int" and o.lo is not None and o.hi is not None and o.lo > o.hi:
                env[o.name] = value  # the empty range is reported once, above
                continue
            problem = _option_problem(o, value)
            if problem is not None:
                report(f"the default of option '{o.name}' is {_show_value(value)}{where}; "
                       f"{problem}", o.default, (o.name, 0))
                continue
            env[o.name] = value
        for k in r.kinds:
            try:
                copies = const_eval(k.copies, env)
            except (_NotConstant, _EvalFault, _Reported):
                continue  # an option above already failed, or the engine reports it
            if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
                where = f" with {n} players" if _names(k.copies) & varying and \
                    r.min_players < r.max_players else ""
                report(f"copies of '{k.name}' must be a whole number of at least 1, not "
                       f"{_show_value(copies)}{where}", k.copies, (k.name, 0))
                continue
            if k.rows is not None:  # a table makes its rows, each with its copies
                cards = sum(row.copies for row in k.rows if _whole_at_least_1(row.copies))
            else:
                cards = copies
                for a in k.attrs:
                    if a.value is not None:
                        continue
                    if a.enum is not None and a.enum in c.sym.enums:
                        cards *= max(len(c.sym.enums[a.enum].values), 1)
                    elif a.enum == "bool":
                        cards *= 2
                    elif a.lo is not None and a.hi is not None and a.lo <= a.hi:
                        cards *= a.hi - a.lo + 1
            if cards > MAX_CARDS:
                report(f"card kind '{k.name}' makes {cards} cards; at most {MAX_CARDS} are "
                       "allowed", k, (k.name, 0))


def child_blocks(s: ir.Stmt) -> list[list[ir.Stmt]]:
    """The statement lists nested directly in a statement."""
    if isinstance(s, ir.If):
        return [*s.bodies, s.orelse]
    if isinstance(s, ir.Repeat | ir.ForEachPlayer | ir.ForEachIn):
        return [s.body]
    if isinstance(s, ir.Trick):
        return [s.after_play, s.after_trick]
    return []


def _calls(stmts: list[ir.Stmt]) -> set[str]:
    out: set[str] = set()
    for s in stmts:
        if isinstance(s, ir.Do):
            out.add(s.name)
        for child in child_blocks(s):
            out |= _calls(child)
    return out


def _phase_ends(stmts: list[ir.Stmt], r: ir.Ruleset | None = None,
                seen: set[str] | None = None) -> bool:
    """Whether running ``stmts`` can end the game (``end game``, also inside rules and
    abilities they run)."""
    seen = set() if seen is None else seen
    for s in stmts:
        if isinstance(s, ir.EndGame):
            return True
        children = child_blocks(s)
        if r is not None and isinstance(s, ir.Do) and s.name not in seen:
            seen.add(s.name)
            children = [rule.body for rule in r.rules if rule.name == s.name]
        if r is not None and isinstance(s, ir.Trigger):
            children = [ab.steps[s.step] for ab in r.abilities if s.step in ab.steps]
        if any(_phase_ends(c, r, seen) for c in children):
            return True
    return False


def phase_edges(r: ir.Ruleset) -> dict[str, list[str]]:
    """The phase graph: for each phase, the phases (or ``end``) it can move to."""
    edges: dict[str, list[str]] = {}
    for p in r.phases:
        targets = [t.target for t in p.transitions]
        if _phase_ends(p.body, r) and "end" not in targets:
            targets.append("end")
        edges[p.name] = targets
    return edges


def start_phase(r: ir.Ruleset) -> str | None:
    """The phase play starts in: ``start NAME`` or the first phase declared."""
    return r.start or (r.phases[0].name if r.phases else None)


def graph_checks(c: Checker) -> None:
    """Unknown start, phases without a way out, unreachable phases, no path to the end."""
    r = c.r
    if not r.phases:
        return
    start = start_phase(r)
    if start not in c.sym.phases:
        c.error(f"unknown start phase '{start}'" + did_you_mean(str(start), c.sym.phases),
                r.span)
        return
    if any(t.target != "end" and t.target not in c.sym.phases
           for p in r.phases for t in p.transitions):
        return  # the unknown phase is reported; the graph would only repeat it
    edges = phase_edges(r)
    for p in r.phases:
        if not edges[p.name]:
            c.error(f"phase '{p.name}' has no 'next' and never ends the game", p.span)
        elif p.transitions and p.transitions[-1].guard is not None and not _phase_ends(p.body, r):
            c.error(f"the last 'next' of phase '{p.name}' has a condition; add an "
                    "unconditional 'next' so the phase always has a way out",
                    p.transitions[-1].span)
    seen, todo = {start}, [start]
    while todo:
        for t in edges.get(todo.pop(), []):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    for p in r.phases:
        if p.name not in seen:
            c.error(f"phase '{p.name}' cannot be reached from the start phase '{start}' (no "
                    f"reachable phase says 'next {p.name}')", p.span)
    if "end" not in seen:
        c.error(f"the game has no path to its end: no phase reachable from '{start}' says "
                "'next end' or 'end game'", c.sym.phases[start].span)
        return
    # Every reachable phase must still be able to reach the end.
    reverse: dict[str, set[str]] = {}
    for a, targets in edges.items():
        for b in targets:
            reverse.setdefault(b, set()).add(a)
    can_end, todo = {"end"}, ["end"]
    while todo:
        for a in reverse.get(todo.pop(), ()):
            if a not in can_end:
                can_end.add(a)
                todo.append(a)
    for p in r.phases:
        if p.name in seen and p.name not in can_end:
            c.error(f"once in phase '{p.name}' the game can never end", p.span)


def check(ruleset: ir.Ruleset, sources: dict[str, str] | None = None) -> Checked:
    """Check a ruleset; return names and types resolved for the engine.

    Args:
        ruleset: the parsed IR.
        sources: file path -> text, so diagnostics can print the line and a caret.

    Returns:
        The :class:`Checked` ruleset; its ``warnings`` are sorted by position and carry
        their source for the caret.

    Raises:
        RulesValidationError: with every error found, sorted by position (warnings are not
            included).
    """
    checked = Checker(ruleset).run()
    checked.sources = dict(sources or {})
    if checked.diagnostics:
        diags = _in_order(checked.diagnostics)
        first = diags[0]
        raise RulesValidationError(first.message, first.span, diags).attach_source(
            sources or {})
    checked.warnings = _in_order(checked.warnings + lookalike_warnings(checked.sources))
    for diag in checked.warnings:
        diag.source = checked.sources.get(diag.span.file)
    return checked


def _in_order(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic once, sorted by file and position."""
    unique = {(d.message, d.span): d for d in diags}
    return sorted(unique.values(), key=lambda d: (d.span.file, d.span.line, d.span.col))
