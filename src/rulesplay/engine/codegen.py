"""Expressions to Python functions ``f(state, it) -> value`` by generating Python source.

The validator has resolved every name, so an expression becomes one Python expression over
slots and constants: ``card.colour == lead`` turns into ``(k3[s.loc[2]] if s.loc[2] is not
None else None) == s.g[1]``. Only slot numbers and generated names are written into the
source; every value from the ruleset (strings, tables, enum values) is passed in as a constant
``kN``, and operators come from this module's own tables (:data:`BINARY`, :data:`UNARY`)
keyed by the IR's closed sets, so no ruleset or IR text is ever executed. One generated
function per expression replaces a tree of closures: the hot path makes one call where it
made dozens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

from .. import ir
from ..errors import LimitError, RulesRuntimeError, value_text
from ..limits import MAX_INT, MAX_RANGE, out_of_range, over_limit
from ..show import expr_text as ir_text
from ..validate import Checked
from ..validate.functions import BUILTINS
from ..visitor import Stage
from .expr import Fn, Layout, _product, free_names
from .expr_facts import in_range, invariant_parts, listed_form, loops, scans
from .quantify import quantifier

_NOT_CONST = object()


# ---------------------------------------------------------------- runtime helpers
def _nz(table: Any, c: Any) -> Any:
    return None if c is None else table[c]


def _seat(base: int, seat: int | None, n: int) -> int:
    if seat is None or not 0 <= seat < n:
        raise RulesRuntimeError(no_seat(seat, n))
    return base + seat


def no_seat(seat: object, n: int) -> str:
    """Why ``seat`` names no seat of ``n``: none (a variable never set), or out of range."""
    if seat is None:
        return (f"a seat is needed here, but the value is none (a player variable never set?); "
                f"seats are 0 to {n - 1}")
    return f"seat {value_text(seat)} does not exist (seats are 0 to {n - 1})"


def _lookup(obj: Any, key: Any, text: str) -> Any:
    try:
        return obj[key]
    except (KeyError, IndexError, TypeError):
        raise RulesRuntimeError(f"no entry for the key {value_text(key)} in {text}") from None


def _bounded(v: Any, span: Any) -> Any:
    """``v``, when it is not a whole number out of range (RULES: numbers run from -MAX_INT
    to MAX_INT; a stored value is checked)."""
    if v.__class__ is int and not -MAX_INT <= v <= MAX_INT:
        raise RulesRuntimeError(out_of_range(v), span)
    return v


def _charge(s: Any, coll: Any) -> Any:
    """``coll``, a range made or a collection a filter or builtin goes over: its length is
    counted against the state's ``work`` budget (a sum over a range inside a sum over a
    range is one step of the rules, but 10^10 additions; a count over 10,000 cards in a
    loop of 200,000 turns, 200,000 steps but 2*10^9 cards). ``s`` is None while the cards
    are made."""
    if s is not None:
        s.work += len(coll)
        if s.work > s.work_cap:
            raise LimitError(over_limit("work", s.program.max_work))
    return coll


def _range(s: Any, lo: int, hi: int) -> tuple[int, ...]:
    """``lo..hi``: at most :data:`MAX_RANGE` numbers (``1..10^12`` would fill the memory)."""
    if hi - lo >= MAX_RANGE:
        raise RulesRuntimeError(f"the range {lo}..{hi} holds {hi - lo + 1:,} numbers; a range "
                                f"may hold at most {MAX_RANGE:,}")
    numbers = tuple(range(lo, hi + 1))
    _charge(s, numbers)
    return numbers


def _div(x: int, y: int, text: str) -> int:
    if y == 0:
        raise RulesRuntimeError(f"division by zero in {text}")
    return x // y


def _mod(x: int, y: int, text: str) -> int:
    if y == 0:
        raise RulesRuntimeError(f"division by zero in {text}")
    return x % y


def _fold(fn: Any, values: list[Any]) -> Any:
    return fn(values) if values else None


def _top(c: Any) -> Any:
    return c[-1] if c else None


def _bottom(c: Any) -> Any:
    return c[0] if c else None


def _last(n: int, c: Any) -> list[Any]:
    n = max(n, 0)
    return list(c[len(c) - n:]) if n else []


def _random(s: Any, c: Any) -> Any:
    return s.rng.choice(c) if c else None


def _index(s: Any, c: Any) -> Any:
    return None if c is None else s.zones[s.where[c]].index(c)


def _owner(s: Any, c: Any, owners: list[Any]) -> Any:
    return None if c is None else owners[s.where[c]]


def _values(values: set[Any], key: dict[Any, Any]) -> list[Any]:
    values.discard(None)
    return sorted(values, key=lambda v: key.get(v, v))


def _ascending(values: set[Any]) -> list[Any]:
    values.discard(None)
    return sorted(values)


def _best(c: Any, key: Any) -> Any:
    return max(c, key=key) if c else None


def _is(kinds: list[str], c: Any, kind: str) -> bool:
    return c is not None and kinds[c] == kind


def _shares(a: Any, b: Any) -> bool:
    a = a if isinstance(a, frozenset) else frozenset().union(*(x for x in a if x))
    b = b if isinstance(b, frozenset) else frozenset().union(*(x for x in b if x))
    return not a.isdisjoint(b)


def _union(values: Any) -> frozenset[Any]:
    return frozenset().union(*(v for v in values if v))


def _keep(cell: list[Any], k: int, value: Any) -> Any:
    cell[k] = value
    return value


def _bonus(s: Any, cards: Any, table: list[Any], slot: int) -> int:
    total = 0
    saved = s.loc[slot]
    for c in cards:
        fn = table[c] if c is not None else None
        if fn is not None:
            s.loc[slot] = c
            total += fn(s, None)
    s.loc[slot] = saved
    return total


def _side(p: Any, step: int, n: int) -> Any:
    return None if p is None else (p + step) % n


# The source text of each operator, keyed by the IR's closed sets (ir.BinaryOp, ir.UnaryOp):
# generated code takes its operators from here, never from the IR's strings.
BINARY = {op: op for op in get_args(ir.BinaryOp)}
UNARY = {"-": "-", "not": "not "}

UNSET = object()  # a once-per-listing value not computed yet (see candidate_source)
_FOLD_NOT = {"True": "False", "False": "True"}  # ``not`` of a literal yes/no

HELPERS = {name: obj for name, obj in globals().items()
           if name.startswith("_") and callable(obj) and name != "_NOT_CONST"}
HELPERS |= {"UNSET": UNSET, "_product": _product}  # (_product: imported from .expr)


class ExprCompiler(Stage):
    """Compiles checked expressions against a :class:`Layout` into generated functions.

    The code generator: :meth:`gen` gives the Python source of an expression, each
    ``visit_<Node>(e)`` the source of one node kind.
    """

    handles = (ir.ExprNode,)

    def __init__(self, checked: Checked, layout: Layout) -> None:
        self.c = checked
        self.lay = layout
        self.card_attrs_as_names = False
        self.ns: dict[str, Any] = dict(HELPERS)
        self._consts: dict[int, str] = {}
        self._hoist: tuple[str, list[int]] | None = None
        self._inline: tuple[Callable[[], str], list[str]] | None = None
        # Inside a filter: the parts computed once per filtering, by id -> cell index.
        self._filter_cells: dict[int, int] | None = None
        self._candidate: str | None = None
        # The names read as a card taken from a zone (never None), so an attribute or kind
        # test needs no None guard: ``it`` of a loop over a zone, a candidate from a zone.
        self._cards: frozenset[str] = frozenset()
        # The names read as a seat that exists (``it`` of a loop over ``seats``), so a
        # per-player zone or variable needs no seat check.
        self._seats: frozenset[str] = frozenset()

    # ------------------------------------------------------------ public API
    def type_of(self, e: ir.Expr) -> str:
        """The validator's type of ``e`` (``any`` when it has none)."""
        return self.c.types.get(id(e), "any")

    def holds_cards(self, e: ir.Expr) -> bool:
        """Whether ``e`` is a zone or a list of cards (its values are card ids)."""
        return self.type_of(e) in ("zone", "list:card")

    def expr(self, e: ir.Expr) -> Fn:
        """Compile ``e`` to a function ``f(state, it)``."""
        return self._function(self.gen(e))

    def bounded(self, e: ir.Expr) -> Fn:
        """Compile ``e``, a value to be stored, checked to be a number in range when it may
        grow (see :meth:`gen_bounded`)."""
        return self._function(self.gen_bounded(e))

    def gen_bounded(self, e: ir.Expr) -> str:
        """Python source of ``e``, a value to be stored, checked with ``_bounded`` unless it
        is in range by construction: a number as written, a name or attribute (stored
        values are checked, card attributes when the cards are made), a count, or a
        choice, negation or absolute value of those. What else computes a number (sums,
        products, an item of a list, max of a list) is checked."""
        if in_range(e, self.c.res):
            return self.gen(e)
        return f"_bounded({self.gen(e)}, {self.const(e.span)})"

    def coll(self, e: ir.Expr, charged: bool = False) -> Fn:
        """Compile ``e`` as a collection (a zone becomes the list of its cards); ``charged``:
        its length counts as work (a loop's copy of it, see :meth:`gone_over`)."""
        return self._function(self.gone_over(e) if charged else self.gen_coll(e))

    def candidate_expr(self, e: ir.Expr, name: str) -> tuple[Fn, list[int]]:
        """Compile a legality test evaluated once per candidate bound to local ``name``.

        Subexpressions that do not mention the candidate (e.g. "holds no card of the lead
        colour") are computed once per round of candidates, not once per candidate: the
        caller bumps the returned epoch cell (``epoch[0] += 1``) before each round.
        """
        epoch = [0]
        self._hoist = (name, epoch)
        try:
            return self.expr(e), epoch
        finally:
            self._hoist = None

    def candidate_filter(self, e: ir.Expr | None, name: str) -> Any:
        """Compile ``[x for x in candidates if COND]`` with local ``name`` bound to ``x``.

        Returns ``f(state, candidates) -> list`` plus its epoch cell (see
        :meth:`candidate_expr`; the returned function bumps it itself). With ``e`` None every
        candidate passes.
        """
        epoch = [0]
        if e is None:
            return self._eval("lambda s, cands: list(cands)"), epoch
        self._hoist = (name, epoch)
        self._candidate = name
        try:
            cond = self.gen(e)
        finally:
            self._hoist = None
            self._candidate = None
        body: Callable[[Any, Any], list[Any]] = self._eval(
            f"lambda s, cands, it=None: [_x for _x in cands if {cond}]")

        def filtered(s: Any, cands: Any) -> list[Any]:
            epoch[0] += 1
            return body(s, cands)

        return filtered, epoch

    def candidate_source(self, e: ir.Expr, name: str, fresh: Callable[[], str],
                         from_zone: bool = False) -> tuple[str, list[str]]:
        """The source of a legality test to inline in a comprehension over ``_x`` (local
        ``name`` reads as ``_x``), and the names it keeps its once-per-listing values in.

        As :meth:`candidate_filter`, a part that does not read the candidate is computed
        at most once per listing, when first needed: it is kept in a new name made by
        ``fresh()``, which the generated code must set to ``UNSET`` before the listing.
        ``from_zone``: the candidates are the cards of a zone (never None).
        """
        names: list[str] = []
        self._hoist, self._inline, self._candidate = (name, [0]), (fresh, names), name
        saved = self._cards
        if from_zone:
            self._cards = saved | {"_x"}
        try:
            return self.gen(e), names
        finally:
            self._hoist = self._inline = self._candidate = None
            self._cards = saved

    # ------------------------------------------------------------ generation
    def _eval(self, src: str) -> Any:
        return eval(src, self.ns)  # noqa: S307 - source built from IR slots and constants

    def _function(self, src: str) -> Fn:
        fn: Fn = eval(f"lambda s, it: {src}", self.ns)  # noqa: S307 - source built from IR slots
        return fn

    def const(self, value: Any) -> str:
        """A name in the namespace holding ``value``."""
        key = id(value) if not isinstance(value, int | str | bool | type(None)) else None
        if key is not None and key in self._consts:
            return self._consts[key]
        name = f"k{len(self.ns)}"
        self.ns[name] = value
        if key is not None:
            self._consts[key] = name
        return name

    def gen_card_key(self, e: ir.Expr) -> str:
        """Source of ``e`` where ``it`` is a card taken from a zone (never None): a trick's
        ``won by`` key, in a ``lambda it:`` over the played cards."""
        saved = self._cards
        self._cards = saved | {"it"}
        try:
            return self.gen(e)
        finally:
            self._cards = saved

    def gen_coll(self, e: ir.Expr) -> str:
        """Source of ``e`` as a collection (a zone's cards; a zone per player: every seat's)."""
        src, t = self.gen(e), self.type_of(e)
        every = f"[_c for _z in range({src}, {src} + {self.lay.n}) for _c in s.zones[_z]]"
        return f"s.zones[{src}]" if t == "zone" else every if t == "pzone" else src

    def gen(self, e: ir.Expr) -> str:
        """Python source of ``e`` (its ``visit_<Node>`` method); inside a candidate test, a
        loop that does not read the candidate becomes a call computed once per round."""
        cells = self._filter_cells
        if cells is not None and id(e) in cells:
            k = cells[id(e)]
            self._filter_cells = None  # the part itself is computed as written
            try:
                part: str = self.visit(e)
            finally:
                self._filter_cells = cells
            return f"(_cell[{k}] if _cell[{k}] is not UNSET else _keep(_cell, {k}, {part}))"
        hoist = self._hoist
        if hoist is not None and isinstance(e, ir.Call | ir.BinOp | ir.Filter | ir.UnOp |
                                            ir.Cond | ir.Index | ir.Attr):
            free = free_names(e, self.c)
            # Hoist only what loops (a builtin or filter); a plain read is cheaper inline.
            if hoist[0] not in free and "it" not in free and loops(e):
                self._hoist = None
                try:
                    once: str = self.visit(e)
                finally:
                    self._hoist = hoist
                if self._inline is not None:  # a name the caller sets to UNSET first
                    name = self._inline[0]()
                    self._inline[1].append(name)
                    return f"({name} if {name} is not UNSET else ({name} := {once}))"
                return f"{self.const(_cached(self._function(once), hoist[1]))}(s, it)"
        src: str = self.visit(e)
        return src

    def _simple(self, e: ir.Expr) -> str | None:
        """Source of a cheap, side-effect-free read (``it`` or a local slot), else None."""
        if isinstance(e, ir.Name):
            cat = self.c.res.get(id(e), ("", ""))[0]
            if cat == "it":
                return "it"
            if cat == "local" and e.id == self._candidate:
                return "_x"
            if cat == "local" and not (self.card_attrs_as_names and e.id in
                                       self.lay.attr_table):
                return f"s.loc[{self.lay.local(e.id)}]"
        return None

    def _global_read(self, e: ir.Expr) -> str | None:
        """Source of a global or trick variable read (cheap, no side effect), else None."""
        if isinstance(e, ir.Name) and self.c.res.get(id(e), ("", ""))[0] in ("var", "tvar"):
            return f"s.g[{self.lay.gslot[e.id]}]"
        return None

    # ------------------------------------------------------------ one method per node
    def visit_Num(self, e: ir.Num) -> str:
        return repr(e.value)

    visit_Bool = visit_Num

    def visit_Str(self, e: ir.Str) -> str:
        return self.const(e.value)

    def visit_NoneLit(self, e: ir.NoneLit) -> str:
        return "None"

    def visit_Attr(self, e: ir.Attr) -> str:
        if e.name in self.lay.cslot:
            table = f"s.cv[{self.lay.cslot[e.name]}]"
        else:
            table = self.const(self.lay.kind_of if e.name == "kind"
                               else self.lay.attr_table[e.name])
        simple = self._simple(e.obj)
        if simple in self._cards:
            return f"{table}[{simple}]"
        if simple is not None:
            return f"({table}[{simple}] if {simple} is not None else None)"
        return f"_nz({table}, {self.gen(e.obj)})"

    def visit_Index(self, e: ir.Index) -> str:
        if self.type_of(e.obj) == "pzone":
            base, n = self.gen(e.obj), self.lay.n
            seat = self._simple(e.key) or self._global_read(e.key)
            if seat in self._seats:  # a seat that exists
                return f"({base} + {seat})"
            if seat is not None:  # a plain read: check the seat inline (hot path)
                return (f"({base} + {seat} if {seat} is not None and 0 <= {seat} < {n} "
                        f"else _seat({base}, {seat}, {n}))")
            return f"_seat({base}, {self.gen(e.key)}, {n})"
        if self.type_of(e.obj).startswith("pvar:") and self._simple(e.key) in self._seats:
            return f"{self.gen(e.obj)}[{self._simple(e.key)}]"  # a seat that exists
        return f"_lookup({self.gen(e.obj)}, {self.gen(e.key)}, {self.const(ir_text(e.obj))})"

    def visit_UnOp(self, e: ir.UnOp) -> str:
        operand = self.gen(e.operand)
        if e.op == "not" and operand in _FOLD_NOT:  # (an option's yes/no)
            return _FOLD_NOT[operand]
        return f"({_op(UNARY, e.op)}{operand})"

    def visit_Cond(self, e: ir.Cond) -> str:
        return f"({self.gen(e.then)} if {self.gen(e.test)} else {self.gen(e.other)})"

    def visit_TupleExpr(self, e: ir.TupleExpr | ir.ListExpr) -> str:
        return "(" + "".join(f"{self.gen(i)}, " for i in e.items) + ")"

    visit_ListExpr = visit_TupleExpr  # lists are tuples at run time

    def visit_DictExpr(self, e: ir.DictExpr) -> str:
        pairs = ", ".join(f"{self.gen(k)}: {self.gen(v)}"
                          for k, v in zip(e.keys, e.values, strict=True))
        return "{" + pairs + "}"

    def visit_RangeExpr(self, e: ir.RangeExpr) -> str:
        lo, hi = e.lo, e.hi
        if isinstance(lo, ir.Num) and isinstance(hi, ir.Num) and hi.value - lo.value < 64:
            return self.const(tuple(range(lo.value, hi.value + 1)))  # (small and fixed)
        return f"_range(s, {self.gen(lo)}, {self.gen(hi)})"

    def visit_Filter(self, e: ir.Filter) -> str:
        """``COLL where COND``; a part of COND that does not read ``it`` and does real
        work (a lookup, a division, a builtin) is computed at most once per filtering,
        when first needed, and kept in a cell (``deck where it.suit == suits[p % 4]``)."""
        saved = self._bind_it(e.coll)
        try:
            return self._filter(e)
        finally:
            self._cards, self._seats = saved

    def _bind_it(self, coll: ir.Expr) -> tuple[frozenset[str], frozenset[str]]:
        """Note what ``it`` is while it runs over ``coll`` (a card from a zone, a seat of
        ``seats``, or neither); returns what to restore after."""
        saved = self._cards, self._seats
        zone = self.type_of(coll) == "zone"
        seats = isinstance(coll, ir.Name) and self.c.res.get(id(coll), ("", ""))[0] == "seats"
        self._cards = saved[0] | {"it"} if zone else saved[0] - {"it"}
        self._seats = saved[1] | {"it"} if seats else saved[1] - {"it"}
        return saved

    def _filter(self, e: ir.Filter, end: str = "", each: ir.Expr | None = None) -> str:
        """The list comprehension of ``e``; ``end`` ``bottom``/``top``: instead, its first or
        last card by a scan that stops there (see :func:`~rulesplay.engine.expr_facts.scans`);
        ``each``: instead, the set of ``each``'s values over the cards that pass (``values``
        of a filter, in one comprehension)."""
        return self._filter_code(e, e.cond, self.gone_over(e.coll), end, each)

    def gone_over(self, coll: ir.Expr) -> str:
        """The source of a collection a filter or builtin goes over, counted as work (see
        :func:`_charge`); a range or a filter's list was counted as it was made."""
        code, charged = self._gone_over(coll)
        return f"_charge(s, {code})" if charged else code

    def _gone_over(self, coll: ir.Expr) -> tuple[str, bool]:
        """:meth:`gone_over`: the collection's source and whether it is to be counted."""
        code = self.gen_coll(coll)
        fixed = self.ns.get(code) if code[:1] == "k" else None  # (a constant: the seats...)
        return code, not (isinstance(coll, ir.RangeExpr | ir.Filter) or
                          isinstance(fixed, tuple) and len(fixed) <= 64)  # (a step at most)

    def _filter_code(self, e: ir.Filter, cond: ir.Expr, coll: str, end: str,
                     each: ir.Expr | None = None) -> str:
        if end == "top":
            coll = f"reversed({coll})"
        left, right = ("next((", "), None)") if end else ("[", "]") if each is None \
            else ("{" + self.gen(each), "}")
        if self._hoist is None and self._inline is None and not self.card_attrs_as_names:
            parts = invariant_parts(cond, self.c)
            if parts:
                saved = self._filter_cells
                self._filter_cells = {id(x): k for k, x in enumerate(parts)}
                try:
                    test = self.gen(cond)
                finally:
                    self._filter_cells = saved
                cells = ", ".join(["UNSET"] * len(parts))
                return (f"{left}{'it' if each is None else ''} for _cell in ([{cells}],) "
                        f"for it in {coll} if {test}{right}")
        return f"{left}{'it' if each is None else ''} for it in {coll} if {self.gen(cond)}{right}"

    def visit_IsKind(self, e: ir.IsKind) -> str:
        kinds, kind = self.const(self.lay.kind_of), self.const(e.kind)
        simple = self._simple(e.obj)
        if simple in self._cards:
            test = f"({kinds}[{simple}] == {kind})"
        elif simple is not None:
            test = f"({simple} is not None and {kinds}[{simple}] == {kind})"
        else:
            test = f"_is({kinds}, {self.gen(e.obj)}, {kind})"
        return f"(not {test})" if e.negate else test

    def visit_Seat(self, e: ir.Seat) -> str:
        if e.side in ("left", "right"):
            return f"_side({self.gen(e.of)}, {1 if e.side == 'left' else -1}, {self.lay.n})"
        return f"{self.const(self.lay.seat_tables[e.side])}.get({self.gen(e.of)})"  # teams:

    def visit_Name(self, e: ir.Name) -> str:
        cat, n = self.c.res[id(e)]
        lay = self.lay
        if cat == "local":
            if n == self._candidate:
                return "_x"
            if self.card_attrs_as_names and n in lay.attr_table:
                return f"{self.const(lay.attr_table[n])}[it]"
            return f"s.loc[{lay.local(n)}]"
        if cat == "it":
            return "it"
        if cat in ("var", "tvar"):
            return f"s.g[{lay.gslot[n]}]"
        if cat == "pvar":
            return f"s.pv[{lay.pslot[n]}]"
        value: Any
        if cat == "option":
            value = lay.options[n]
            if value is None or value.__class__ in (bool, int):
                return repr(value)  # a number or yes/no: a literal, so tests on it fold
        elif cat in ("enum_value", "choice_value", "ability_value"):
            value = n
        elif cat in ("zone", "pzone"):
            return str(lay.zone_id[n])
        elif cat == "players":
            return str(lay.n)
        elif cat in ("seats", "teams"):  # teams: their numbers, in order of first seats
            value = tuple(range(lay.n)) if cat == "seats" else tuple(lay.team_members)
        elif cat == "enum":
            value = tuple(v.name for v in self.c.symbols.enums[n].values)
        elif cat == "bool":
            value = (True, False)
        else:
            raise AssertionError(cat)
        return self.const(value)

    def visit_BinOp(self, e: ir.BinOp) -> str:
        op = _op(BINARY, e.op)
        a = self.gen(e.left)
        if op in ("in", "not in"):  # (a search: work, unless in a constant)
            coll = self.gen_coll(e.right)
            return f"({a} {op} {coll if coll[0] == 'k' else f'_charge(s, {coll})'})"
        b = self.gen(e.right)
        if op in ("and", "or") and a in _FOLD_NOT:
            # A literal left side (an option's yes/no) decides: Python's own result.
            return b if (a == "True") == (op == "and") else a
        if op in ("==", "!=") and (a == "None" or b == "None"):
            # The same test for the values of the language, without calling __eq__.
            return f"({a} {'is' if op == '==' else 'is not'} {b})"
        if op in ("/", "%"):
            return f"{'_div' if op == '/' else '_mod'}({a}, {b}, {self.const(ir_text(e))})"
        if op == "*":  # (products grow fastest: each is checked as it is made)
            return f"_product({a}, {b})"
        return f"({a} {op} {b})"

    def visit_Call(self, e: ir.Call) -> str:
        """A builtin, by its code template in :data:`~rulesplay.validate.functions.BUILTINS`.

        Raises:
            ValueError: no builtin has that name (only an IR changed after validation can
                name one).
        """
        builtin = BUILTINS.get(e.func)
        if builtin is None:
            raise ValueError(f"unknown function {e.func!r}")
        if e.func == "values" and len(e.args) == 2 and self.type_of(e.args[1]) == "int":
            # Numbers sort as themselves (the sort key orders enum values); of a filter,
            # in one comprehension (the same values, the cards gone over counted once).
            src = e.args[0]
            coll = "" if isinstance(src, ir.Filter) else self.gone_over(src)
            saved = self._bind_it(src.coll if isinstance(src, ir.Filter) else src)
            try:
                return "_ascending(" + (self._filter(src, each=e.args[1])
                                        if isinstance(src, ir.Filter)
                                        else f"{{{self.gen(e.args[1])} for it in {coll}}}") + ")"
            finally:
                self._cards, self._seats = saved
        if e.func in ("any", "all") and len(e.args) == 2:  # (a loop in a function of its own)
            coll, charged = self._gone_over(e.args[0])
            saved = self._bind_it(e.args[0])
            try:
                test = self.gen(e.args[1])
            finally:
                self._cards, self._seats = saved
            return quantifier(self.ns, e.func, test, coll, charged) or \
                f"{e.func}({test} for it in {f'_charge(s, {coll})' if charged else coll})"
        arg = e.args[0] if len(e.args) == 1 else None
        if e.func in ("top", "bottom") and isinstance(arg, ir.Filter) and \
                (e.func == "bottom" or self.type_of(arg.coll) == "zone") and \
                scans(arg.cond, self.c):
            saved = self._bind_it(arg.coll)
            try:
                return self._filter(arg, e.func)
            finally:
                self._cards, self._seats = saved
        template = builtin.code[builtin.form(e.args, self.type_of)]
        if len(e.args) == 2:
            template = listed_form(e.func, e.args) or template
        # (a length costs nothing to take: ``count(hand)`` is not work)
        per_element = None if "len({c0})" in template else builtin.per_element
        return template.format_map(_Fill(self, e.args, per_element))


class _Fill(dict[str, str]):
    """The code of a builtin's template fields, made as the template asks for them (see
    :class:`~rulesplay.validate.functions.Builtin`)."""

    def __init__(self, comp: ExprCompiler, args: list[ir.Expr],
                 per_element: int | None = None) -> None:
        super().__init__()
        self.comp, self.args, self.per_element = comp, args, per_element

    def __missing__(self, key: str) -> str:
        comp, lay = self.comp, self.comp.lay
        if key[0] in "ac" and key[1:].isdigit():
            k = int(key[1:])
            arg = self.args[k]
            if k == self.per_element:  # ``it`` is each element of the first argument
                saved = comp._bind_it(self.args[0])
                try:
                    return comp.gen(arg) if key[0] == "a" else comp.gen_coll(arg)
                finally:
                    comp._cards, comp._seats = saved
            if key[0] == "c" and self.per_element is not None and k == 0:
                return comp.gone_over(arg)  # the elements gone over
            return comp.gen(arg) if key[0] == "a" else comp.gen_coll(arg)
        tables = {"owners": lay.zone_owner, "sort_key": lay.sort_key, "members": lay.team_members}
        if key in tables:
            return comp.const(tables[key])
        if key == "stat":
            stat = self.args[0]
            assert isinstance(stat, ir.Name)  # the validator resolved it as a stat's name
            return comp.const(lay.stat_tables.setdefault(stat.id, []))
        if key == "this":
            return str(lay.local("this"))
        raise KeyError(key)


def _op(table: dict[str, str], op: str) -> str:
    """The source text of operator ``op`` from ``table`` (:data:`BINARY` or :data:`UNARY`).

    Raises:
        ValueError: ``op`` is not in the closed set (only an IR built without validation,
            e.g. with ``model_construct``, can hold one).
    """
    if op not in table:
        raise ValueError(f"unknown operator {op!r}: an operator is one of {', '.join(table)}")
    return table[op]


def _cached(fn: Fn, epoch: list[int]) -> Fn:
    """``fn`` evaluated at most once per epoch (see ``candidate_expr``)."""
    box: list[Any] = [None, -1]

    def cached(s: Any, it: Any) -> Any:
        if box[1] != epoch[0]:
            box[0], box[1] = fn(s, it), epoch[0]
        return box[0]

    return cached
