"""Expressions to Python closures ``f(state, it) -> value``.

Names are resolved by the validator; here they become constants (options, enum values, zone
ids) or slot reads (variables, locals), so evaluation never looks a name up or walks the IR.
Values: int, bool, str (enum and choice values), seat int, card id int, zone id int, None,
and tuples/lists of those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import ir
from ..errors import RulesRuntimeError
from ..validate import PER_ELEMENT, Checked

Fn = Callable[[Any, Any], Any]
_NOT_CONST = object()


class Layout:
    """Where everything lives for one player count: slots, zone ids, card tables.

    Built by :class:`rulesplay.engine.game.Program`; the compiler reads it.
    """

    def __init__(self) -> None:
        self.n: int = 0
        self.options: dict[str, Any] = {}
        self.gslot: dict[str, int] = {}  # global and trick variables -> s.g index
        self.pslot: dict[str, int] = {}  # player variables -> s.pv index
        self.cslot: dict[str, int] = {}  # card variables -> s.cv index
        self.lslot: dict[str, int] = {}  # locals -> s.loc index
        self.zone_id: dict[str, int] = {}  # shared zone -> id; per-player zone -> first id
        self.attr_table: dict[str, list[Any]] = {}  # attribute -> value per card
        self.kind_of: list[str] = []  # card -> kind name
        self.zone_owner: list[int | None] = []  # zone id -> owner seat
        self.zone_name: list[str] = []
        self.sort_key: dict[Any, Any] = {}

    def local(self, name: str) -> int:
        """The slot of local name ``name`` (one slot per name; phases are not recursive)."""
        if name not in self.lslot:
            self.lslot[name] = len(self.lslot)
        return self.lslot[name]


def _err(message: str) -> RulesRuntimeError:
    return RulesRuntimeError(message)


class ExprCompiler:
    """Compiles checked expressions against a :class:`Layout`."""

    def __init__(self, checked: Checked, layout: Layout) -> None:
        self.c = checked
        self.lay = layout
        self.card_attrs_as_names = False
        self._hoist: tuple[str, list[int]] | None = None

    def candidate_expr(self, e: ir.Expr, name: str) -> tuple[Fn, list[int]]:
        """Compile a legality test evaluated once per candidate bound to local ``name``.

        Subexpressions that do not mention the candidate (e.g. "has no card of the lead
        colour") are computed once per round of candidates, not once per candidate: the
        caller bumps the returned epoch cell (``epoch[0] += 1``) before each round.
        """
        epoch = [0]
        self._hoist = (name, epoch)
        try:
            return self.expr(e), epoch
        finally:
            self._hoist = None

    def _cache(self, fn: Fn, epoch: list[int]) -> Fn:
        box: list[Any] = [None, -1]

        def cached(s: Any, it: Any) -> Any:
            if box[1] != epoch[0]:
                box[0], box[1] = fn(s, it), epoch[0]
            return box[0]

        return cached

    def _simple_ref(self, e: ir.Expr) -> int | str | None:
        """``"it"``, a local slot number, or None: lets hot cases read the value directly."""
        if isinstance(e, ir.Name):
            cat = self.c.res.get(id(e), ("", ""))[0]
            if cat == "it":
                return "it"
            if cat == "local" and not self.card_attrs_as_names:
                return self.lay.local(e.id)
        return None

    def _constant(self, e: ir.Expr) -> Any:
        """The value of a literal, enum value or option, else ``_NOT_CONST``."""
        if isinstance(e, ir.Num | ir.Str | ir.Bool):
            return e.value
        if isinstance(e, ir.NoneLit):
            return None
        if isinstance(e, ir.Name):
            cat = self.c.res.get(id(e), ("", ""))[0]
            if cat in ("enum_value", "choice_value"):
                return e.id
            if cat == "option":
                return self.lay.options[e.id]
        return _NOT_CONST

    def type_of(self, e: ir.Expr) -> str:
        return self.c.types.get(id(e), "any")

    def coll(self, e: ir.Expr) -> Fn:
        """Compile ``e`` as a collection (a zone becomes the list of its cards)."""
        f = self.expr(e)
        if self.type_of(e) == "zone":
            return lambda s, it: s.zones[f(s, it)]
        return f

    def expr(self, e: ir.Expr) -> Fn:
        """Compile ``e`` to a closure ``f(state, it)``."""
        hoist = self._hoist
        if hoist is not None and isinstance(e, ir.Call | ir.BinOp | ir.Filter | ir.UnOp |
                                            ir.Cond | ir.Index):
            free = free_names(e, self.c)
            if hoist[0] not in free and "it" not in free:
                self._hoist = None
                try:
                    return self._cache(self._expr(e), hoist[1])
                finally:
                    self._hoist = hoist
        return self._expr(e)

    def _expr(self, e: ir.Expr) -> Fn:  # noqa: C901 - one case per node
        if isinstance(e, ir.Num | ir.Str | ir.Bool):
            v = e.value
            return lambda s, it: v
        if isinstance(e, ir.NoneLit):
            return lambda s, it: None
        if isinstance(e, ir.Name):
            return self.name(e)
        if isinstance(e, ir.Attr):
            obj = self.expr(e.obj)
            if e.name in self.lay.cslot:
                slot = self.lay.cslot[e.name]
                return lambda s, it: None if (c := obj(s, it)) is None else s.cv[slot][c]
            table = self.lay.kind_of if e.name == "kind" else self.lay.attr_table[e.name]
            where = self._simple_ref(e.obj)
            if where == "it":
                return lambda s, it: None if it is None else table[it]
            if isinstance(where, int):
                return lambda s, it: None if (c := s.loc[where]) is None else table[c]
            return lambda s, it: None if (c := obj(s, it)) is None else table[c]
        if isinstance(e, ir.Index):
            return self.index(e)
        if isinstance(e, ir.Call):
            return self.call(e)
        if isinstance(e, ir.BinOp):
            return self.binop(e)
        if isinstance(e, ir.UnOp):
            f = self.expr(e.operand)
            if e.op == "not":
                return lambda s, it: not f(s, it)
            return lambda s, it: -f(s, it)
        if isinstance(e, ir.Cond):
            t, a, b = self.expr(e.test), self.expr(e.then), self.expr(e.other)
            return lambda s, it: a(s, it) if t(s, it) else b(s, it)
        if isinstance(e, ir.TupleExpr | ir.ListExpr):
            fs = [self.expr(i) for i in e.items]
            return lambda s, it: tuple(f(s, it) for f in fs)
        if isinstance(e, ir.DictExpr):
            ks, vs = [self.expr(k) for k in e.keys], [self.expr(v) for v in e.values]
            return lambda s, it: {k(s, it): v(s, it) for k, v in zip(ks, vs, strict=True)}
        if isinstance(e, ir.RangeExpr):
            lo, hi = self.expr(e.lo), self.expr(e.hi)
            return lambda s, it: tuple(range(lo(s, it), hi(s, it) + 1))
        if isinstance(e, ir.Filter):
            coll, cond = self.coll(e.coll), self.expr(e.cond)
            return lambda s, it: [x for x in coll(s, it) if cond(s, x)]
        if isinstance(e, ir.IsKind):
            obj, kind, kinds = self.expr(e.obj), e.kind, self.lay.kind_of
            where = self._simple_ref(e.obj)
            if where == "it" and not e.negate:
                return lambda s, it: it is not None and kinds[it] == kind
            if isinstance(where, int) and not e.negate:
                return lambda s, it: (c := s.loc[where]) is not None and kinds[c] == kind
            if e.negate:
                return lambda s, it: (c := obj(s, it)) is None or kinds[c] != kind
            return lambda s, it: (c := obj(s, it)) is not None and kinds[c] == kind
        if isinstance(e, ir.Seat):
            f, n = self.expr(e.of), self.lay.n
            step = 1 if e.side == "left" else -1
            return lambda s, it: None if (p := f(s, it)) is None else (p + step) % n
        raise AssertionError(e)

    def name(self, e: ir.Name) -> Fn:
        cat, n = self.c.res[id(e)]
        lay = self.lay
        if cat == "local":
            if self.card_attrs_as_names and n in lay.attr_table:
                table = lay.attr_table[n]
                return lambda s, it: table[it]
            slot = lay.local(n)
            return lambda s, it: s.loc[slot]
        if cat == "it":
            return lambda s, it: it
        if cat in ("var", "tvar"):
            slot = lay.gslot[n]
            return lambda s, it: s.g[slot]
        constant: Any
        if cat == "option":
            constant = lay.options[n]
        elif cat in ("enum_value", "choice_value"):
            constant = n
        elif cat in ("zone", "pzone"):
            constant = lay.zone_id[n]
        elif cat == "players":
            constant = lay.n
        elif cat == "seats":
            constant = tuple(range(lay.n))
        elif cat == "enum":
            decl = self.c.symbols.enums[n]
            constant = tuple(v.name for v in decl.values)
        elif cat == "bool":
            constant = (True, False)
        elif cat == "pvar":
            slot = lay.pslot[n]
            return lambda s, it: s.pv[slot]
        else:
            raise AssertionError(cat)
        return lambda s, it: constant

    def index(self, e: ir.Index) -> Fn:
        obj_t = self.type_of(e.obj)
        key = self.expr(e.key)
        if obj_t == "pzone":
            base = self.expr(e.obj)
            n = self.lay.n

            def zone_of(s: Any, it: Any) -> int:
                seat = key(s, it)
                if seat is None or not 0 <= seat < n:
                    raise _err(f"seat {seat} does not exist (seats are 0 to {n - 1})")
                return base(s, it) + seat

            return zone_of
        obj = self.expr(e.obj)

        def lookup(s: Any, it: Any) -> Any:
            k = key(s, it)
            try:
                return obj(s, it)[k]
            except (KeyError, IndexError, TypeError):
                raise _err(f"no entry for {k!r} in {ir_text(e.obj)}") from None

        return lookup

    def binop(self, e: ir.BinOp) -> Fn:
        op = e.op
        a = self.expr(e.left)
        if op in ("in", "not in"):
            b = self.coll(e.right)
            if op == "in":
                return lambda s, it: a(s, it) in b(s, it)
            return lambda s, it: a(s, it) not in b(s, it)
        b = self.expr(e.right)
        if op == "and":
            return lambda s, it: a(s, it) and b(s, it)
        if op == "or":
            return lambda s, it: a(s, it) or b(s, it)
        const = self._constant(e.right)
        if op == "==" and const is not _NOT_CONST:
            return lambda s, it: a(s, it) == const
        if op == "!=" and const is not _NOT_CONST:
            return lambda s, it: a(s, it) != const
        if op == "==":
            return lambda s, it: a(s, it) == b(s, it)
        if op == "!=":
            return lambda s, it: a(s, it) != b(s, it)
        if op == "+":
            return lambda s, it: a(s, it) + b(s, it)
        if op == "-":
            return lambda s, it: a(s, it) - b(s, it)
        if op == "*":
            return lambda s, it: a(s, it) * b(s, it)
        if op in ("/", "%"):
            def divide(s: Any, it: Any) -> int:
                x, y = a(s, it), b(s, it)
                if y == 0:
                    raise _err(f"division by zero in {ir_text(e)}")
                return x // y if op == "/" else x % y
            return divide
        compare = {"<": lambda x, y: x < y, "<=": lambda x, y: x <= y,
                   ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}[op]

        def ordered(s: Any, it: Any) -> bool:
            x, y = a(s, it), b(s, it)
            if x is None or y is None:
                raise _err(f"cannot compare none in {ir_text(e)}")
            return compare(x, y)

        return ordered

    def call(self, e: ir.Call) -> Fn:  # noqa: C901 - one case per builtin
        f, args = e.func, e.args
        if f in ("max", "min") and len(args) == 2 and self.type_of(args[0]) in ("int", "bool"):
            x, y = self.expr(args[0]), self.expr(args[1])
            pick = max if f == "max" else min
            return lambda s, it: pick(x(s, it), y(s, it))
        if f == "abs":
            x = self.expr(args[0])
            return lambda s, it: abs(x(s, it))
        if f == "index":
            x = self.expr(args[0])
            return lambda s, it: s.zones[s.where[c]].index(c) if (c := x(s, it)) is not None \
                else None
        if f == "owner":
            x, owners = self.expr(args[0]), self.lay.zone_owner
            return lambda s, it: owners[s.where[c]] if (c := x(s, it)) is not None else None
        if f in ("first", "last"):
            n, coll = self.expr(args[0]), self.coll(args[1])
            if f == "first":
                return lambda s, it: list(coll(s, it)[:max(n(s, it), 0)])
            return lambda s, it: list(coll(s, it)[len(coll(s, it)) - max(n(s, it), 0):])
        coll = self.coll(args[0])
        per = self.expr(args[1]) if len(args) > 1 and PER_ELEMENT.get(f) == 1 else None
        if f == "count":
            if per is None:
                return lambda s, it: len(coll(s, it))
            return lambda s, it: sum(1 for x in coll(s, it) if per(s, x))
        if f == "any":
            if per is None and self.type_of(args[0]) == "list:bool":
                return lambda s, it: any(coll(s, it))
            if per is None:
                return lambda s, it: len(coll(s, it)) > 0
            return lambda s, it: any(per(s, x) for x in coll(s, it))
        if f == "all":
            assert per is not None
            return lambda s, it: all(per(s, x) for x in coll(s, it))
        if f in ("sum", "max", "min"):
            fold = {"sum": sum, "max": max, "min": min}[f]
            empty = 0 if f == "sum" else None
            if per is None:
                return lambda s, it: fold(coll(s, it)) if coll(s, it) else empty
            return lambda s, it: fold([per(s, x) for x in coll(s, it)]) if coll(s, it) \
                else empty
        if f == "top":
            return lambda s, it: (c[-1] if (c := coll(s, it)) else None)
        if f == "bottom":
            return lambda s, it: (c[0] if (c := coll(s, it)) else None)
        if f == "random":
            return lambda s, it: (s.rng.choice(c) if (c := coll(s, it)) else None)
        if f == "values":
            assert per is not None
            key = self.lay.sort_key
            return lambda s, it: sorted(
                {v for x in coll(s, it) if (v := per(s, x)) is not None},
                key=lambda v: key.get(v, v))
        if f == "best":
            assert per is not None
            return lambda s, it: max(c, key=lambda x: per(s, x)) if (c := coll(s, it)) \
                else None
        raise AssertionError(f)


def free_names(e: ir.Expr, checked: Checked) -> set[str]:
    """Local names and a free ``it`` that ``e`` reads (``it`` bound inside ``e`` excluded)."""
    if isinstance(e, ir.Name):
        cat = checked.res.get(id(e), ("", ""))[0]
        return {e.id} if cat in ("local", "it") else set()
    if isinstance(e, ir.Filter):
        return free_names(e.coll, checked) | (free_names(e.cond, checked) - {"it"})
    if isinstance(e, ir.Call):
        out: set[str] = set()
        for i, arg in enumerate(e.args):
            names = free_names(arg, checked)
            if PER_ELEMENT.get(e.func) == i:
                names.discard("it")
            out |= names
        return out
    out = set()
    for child in _children(e):
        out |= free_names(child, checked)
    return out


def _children(e: ir.Expr) -> list[ir.Expr]:
    out: list[ir.Expr] = []
    for field_name in type(e).model_fields:
        value = getattr(e, field_name)
        if isinstance(value, ir.Node) and not isinstance(value, ir.Labels):
            out.append(value)  # type: ignore[arg-type]
        elif isinstance(value, list):
            out.extend(v for v in value if isinstance(v, ir.Node))
    return out


def ir_text(e: ir.Expr) -> str:
    """A short rendering of an expression for error messages."""
    if isinstance(e, ir.Name):
        return e.id
    if isinstance(e, ir.Num):
        return str(e.value)
    if isinstance(e, ir.Attr):
        return f"{ir_text(e.obj)}.{e.name}"
    if isinstance(e, ir.Index):
        return f"{ir_text(e.obj)}[{ir_text(e.key)}]"
    if isinstance(e, ir.BinOp):
        return f"{ir_text(e.left)} {e.op} {ir_text(e.right)}"
    if isinstance(e, ir.Call):
        return f"{e.func}({', '.join(ir_text(a) for a in e.args)})"
    return f"the expression at line {e.span.line}"
