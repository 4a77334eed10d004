"""Typing expressions: one visit method per expression node, and display-text placeholders.

Every expression gets a type (see :mod:`rulesplay.validate.types`) recorded in
``Checked.types`` and every name a resolution in ``Checked.res``; what does not fit is
reported, typed ``any`` so that one mistake is reported once.
"""

from __future__ import annotations

from .. import ir
from ..errors import RulesError, Span, did_you_mean
from ..templates import parse_template
from ..visitor import Stage
from .functions import BUILTINS
from .symbols import Context
from .types import ANY, compatible, describe, elem_type, per_player_hint

# The language's literal words by the spellings other languages give them.
_LITERALS = {"true": "true", "false": "false", "yes": "yes", "no": "no", "none": "none",
             "null": "none", "nil": "none"}

# Functions of other languages a writer may reach for, and the builtin that does it.
OTHER_WORDS = {"len": "count", "length": "count", "size": "count",
               "choice": "random", "exists": "any", "every": "all", "absolute": "abs"}


class ExprChecker(Stage):
    """Types expressions in the scopes of a :class:`Context`.

    Each ``visit_<Node>(e, it)`` returns the type of ``e``; ``it`` is the type of ``it``
    where it is bound (inside ``where`` and per-element arguments), else None.
    """

    handles = (ir.ExprNode,)

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.sym = ctx.sym

    def error(self, message: str, span: Span) -> None:
        """Report an error at ``span``."""
        self.ctx.error(message, span)

    # ------------------------------------------------------------ entry points
    def expr(self, e: ir.Expr, it: str | None = None) -> str:
        """The type of ``e`` (recorded for the engine)."""
        t: str = self.visit(e, it)
        self.ctx.out.types[id(e)] = t
        return t

    def want(self, e: ir.Expr, expected: str, it: str | None = None, what: str = "") -> str:
        """The type of ``e``, reported unless compatible with ``expected`` (a number is not
        a yes/no here); ``what`` names the place in the message."""
        t = self.expr(e, it)
        if not compatible(t, expected) or (expected == "bool" and t == "int"):
            self.error(f"type mismatch{what}: expected {describe(expected)}, got "
                       f"{describe(t)}{per_player_hint(e, t)}", e.span)
        return t

    def coll(self, e: ir.Expr, it: str | None, what: str = " here") -> str:
        """The element type of collection ``e``; anything else is reported (``any``)."""
        t = self.expr(e, it)
        el = elem_type(t)
        if el is None:
            hint = per_player_hint(e, t)
            self.error(f"expected cards, seats or values{what}, got {describe(t)}{hint}",
                       e.span)
            return ANY
        return el

    def template(self, labels: ir.Labels | None, bound: dict[str, str] | None = None,
                 attrs: bool = False) -> None:
        """Check a display text's ``{expr}`` placeholders in every language, with ``bound``
        locals (and every card attribute by name when ``attrs``); the parsed parts go to
        ``Checked.templates``."""
        if labels is None:
            return
        texts = {"": labels.text} if labels.text is not None else {}
        texts.update(labels.other)
        scopes = self.ctx.scopes
        scopes.append(dict(bound or {}))
        if attrs:
            for a, t in self.sym.attrs.items():
                scopes[-1][a] = t
        for lang, text in texts.items():
            # The first (untranslated) text starts just after the quote at the labels' span;
            # its placeholders get exact columns unless escapes moved the characters.
            exact = lang == "" and labels.span.line > 0 and not any(
                c in (text or "") for c in '\\"\n\t')
            col = labels.span.col + 1 if exact else None
            try:
                parts = parse_template(text or "", labels.span, col)
            except RulesError as exc:
                self.ctx.out.diagnostics.extend(exc.diagnostics)
                continue
            parts = [p if isinstance(p, str) else self.ctx.expand(p) for p in parts]
            for part in parts:
                if not isinstance(part, str):
                    self.expr(part)
            self.ctx.out.templates[(id(labels), lang)] = parts
        scopes.pop()

    # ------------------------------------------------------------ literals and names
    def visit_Num(self, e: ir.Num, it: str | None) -> str:
        self.ctx.number(e.value, e.span)
        return "int"

    def visit_Str(self, e: ir.Str, it: str | None) -> str:
        return "str"

    def visit_Bool(self, e: ir.Bool, it: str | None) -> str:
        return "bool"

    def visit_NoneLit(self, e: ir.NoneLit, it: str | None) -> str:
        return "none"

    def visit_Name(self, e: ir.Name, it: str | None) -> str:  # noqa: C901 - one case per kind
        n, res, sym, ctx = e.id, self.ctx.out.res, self.sym, self.ctx
        local = ctx.lookup_local(n)
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
            # A team variable is kept like a player variable, at its team's first seat.
            cat = {"global": "var", "trick": "tvar", "player": "pvar", "team": "pvar"}[v.scope]
            res[id(e)] = (cat, n)
            t = ctx.var_type(v)
            return f"pvar:{t}" if v.scope == "player" else \
                f"teamvar:{t}" if v.scope == "team" else t
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
        if n == "teams" and ctx.r.teams is not None:  # (after every declared name)
            res[id(e)] = ("teams", n)
            return "list:team"
        names = [*ctx.global_names(), *(k for s in ctx.scopes for k in s)]
        if it is not None:
            names.append("it")
        if n == ctx.key_card:
            self.error(f"'{n}' is the card just played; 'won by highest' ranks every card of "
                       "the trick: say 'it'", e.span)
            return ANY
        if n in ctx.partly_bound:
            self.error(f"undefined name '{n}': {ctx.partly_bound[n]}", e.span)
            return ANY
        # ``True``, ``None``, ``null``: another language's literal, written in lowercase here.
        literal = _LITERALS.get(n.lower())
        hint = f" (did you mean '{literal}'?)" if literal and literal != n else \
            did_you_mean(n, names)
        self.error(f"undefined name '{n}'{hint}", e.span)
        return ANY

    # ------------------------------------------------------------ access
    def visit_Attr(self, e: ir.Attr, it: str | None) -> str:
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
            return self.ctx.var_type(var)
        names = [*self.sym.attrs, *(v.name for v in self.sym.vars.values() if v.scope == "card")]
        hint = did_you_mean(e.name, names) or ("; they have: " + ", ".join(["kind", *names]))
        self.error(f"cards have no attribute '{e.name}'" + hint, e.span)
        return ANY

    def visit_Index(self, e: ir.Index, it: str | None) -> str:
        obj = self.expr(e.obj, it)
        if obj == "pzone" or (obj.startswith("pvar:")):
            self.want(e.key, "player", it, " in seat index")
            if obj == "pzone":
                return "zone"
            return obj[5:]
        if obj.startswith("teamvar:"):
            self.want(e.key, "team", it, " in team index (say team of SEAT)")
            return obj[8:]
        if obj.startswith("dict:"):
            self.expr(e.key, it)
            return obj[5:]
        if obj.startswith("list:"):
            self.want(e.key, "int", it)
            return obj[5:]
        if obj != ANY:
            self.error(f"cannot index {describe(obj)}", e.span)
        return ANY

    def visit_Call(self, e: ir.Call, it: str | None) -> str:
        """A builtin call: its arity here, its argument types by its row of
        :data:`~rulesplay.validate.functions.BUILTINS`."""
        builtin = BUILTINS.get(e.func)
        if builtin is None and e.func in self.ctx.defines:  # not expanded: reported there
            for a in e.args:
                self.expr(a, it)
            return ANY
        if builtin is None:
            other = OTHER_WORDS.get(e.func)  # another language's word for a builtin
            self.error(f"unknown function '{e.func}'" + (f" (did you mean '{other}'?)" if other
                                                         else did_you_mean(e.func, BUILTINS)),
                       e.span)
            for a in e.args:
                self.expr(a, it)
            return ANY
        lo, hi = builtin.arity
        if not lo <= len(e.args) <= hi:
            want = str(lo) if lo == hi else f"{lo} or {hi}"
            self.error(f"'{e.func}' takes {want} argument{'s' if hi > 1 else ''}, got "
                       f"{len(e.args)}", e.span)
            return ANY
        if builtin.chance and self.ctx.reading is not None:
            self.error(f"'{e.func}' draws at random, which {self.ctx.reading} may not: it is "
                       "worked out again whenever it is listed or shown, so each look would "
                       f"draw anew; draw in a statement before it (let x = {e.func}(...))",
                       e.span)
        return builtin.type_rule(self, e, it)

    # ------------------------------------------------------------ operators
    def visit_BinOp(self, e: ir.BinOp, it: str | None) -> str:
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
            elif a == "tuple":  # tuples compare item by item: each item must have an order
                for item in (i for side in (e.left, e.right) if isinstance(side, ir.TupleExpr)
                             for i in side.items):
                    t = self.ctx.out.types.get(id(item), ANY)
                    if t not in ("int", "bool", "tuple", "player", ANY):
                        self.error(f"type mismatch: a tuple ordered item by item cannot hold "
                                   f"{describe(t)} (it has no order; give it a number, e.g. "
                                   f"a computed attribute)", item.span)
                        break
            return "bool"
        for side, t in ((e.left, a), (e.right, b)):
            if not compatible(t, "int") or t == "none":
                self.error(f"type mismatch: '{op}' needs numbers, got {describe(t)}",
                           side.span)
        return "int"

    def visit_UnOp(self, e: ir.UnOp, it: str | None) -> str:
        if e.op == "not":
            self.want(e.operand, "bool", it)
            return "bool"
        self.want(e.operand, "int", it)
        return "int"

    def visit_Cond(self, e: ir.Cond, it: str | None) -> str:
        self.want(e.test, "bool", it)
        a, b = self.expr(e.then, it), self.expr(e.other, it)
        if not compatible(a, b):
            self.error(f"the two branches have different types: {describe(a)} and "
                       f"{describe(b)}", e.span)
        return b if a == "none" else a

    def visit_IsKind(self, e: ir.IsKind, it: str | None) -> str:
        self.want(e.obj, "card", it)
        if e.kind not in self.sym.kinds:
            self.error(f"unknown card kind '{e.kind}'" + did_you_mean(e.kind, self.sym.kinds),
                       e.span)
        return "bool"

    def visit_Seat(self, e: ir.Seat, it: str | None) -> str:
        self.want(e.of, "player", it)
        return "team" if e.side == "team" else "player"

    # ------------------------------------------------------------ collections
    def visit_TupleExpr(self, e: ir.TupleExpr, it: str | None) -> str:
        for item in e.items:
            self.expr(item, it)
        return "tuple"

    def visit_ListExpr(self, e: ir.ListExpr, it: str | None) -> str:
        types = {self.expr(item, it) for item in e.items}
        return f"list:{types.pop()}" if len(types) == 1 else "list:any"

    def visit_DictExpr(self, e: ir.DictExpr, it: str | None) -> str:
        for k in e.keys:
            self.expr(k, it)
        vt = {self.expr(v, it) for v in e.values}
        return f"dict:{vt.pop()}" if len(vt) == 1 else "dict:any"

    def visit_RangeExpr(self, e: ir.RangeExpr, it: str | None) -> str:
        self.want(e.lo, "int", it)
        self.want(e.hi, "int", it)
        return "list:int"

    def visit_Filter(self, e: ir.Filter, it: str | None) -> str:
        el = self.coll(e.coll, it)
        self.want(e.cond, "bool", el)
        return f"list:{el}"
