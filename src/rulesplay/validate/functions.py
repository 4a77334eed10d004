"""The builtin functions of the language: one table, read by the validator and the engine.

Each :class:`Builtin` says everything about one function in one place: its name, how many
arguments it takes, which argument is evaluated once per element (with ``it`` bound), its
type rule (run by the validator) and the Python code the engine generates for it (its
templates). Adding a builtin means adding one row here, its line in :data:`SUMMARIES` (what
an editor's hover shows) and a line to the language reference; ``tests/test_stages.py``
checks that every row is complete, ``tests/test_lsp_units.py`` that every row has its line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .. import ir
from ..errors import Span, did_you_mean
from .symbols import Context
from .types import ANY, compatible, describe, elem_type


class Typer(Protocol):
    """What a type rule may ask of the validator (see
    :class:`rulesplay.validate.expressions.ExprChecker`)."""

    ctx: Context

    def expr(self, e: ir.Expr, it: str | None = None) -> str:
        """The type of ``e`` (``it`` of type ``it`` where bound)."""

    def want(self, e: ir.Expr, expected: str, it: str | None = None, what: str = "") -> str:
        """The type of ``e``, reported unless it fits ``expected``."""

    def coll(self, e: ir.Expr, it: str | None, what: str = " here") -> str:
        """The element type of collection ``e`` (reported when not a collection)."""

    def error(self, message: str, span: Span) -> None:
        """Report an error at ``span``."""


# A type rule: (validator, the call with a valid number of arguments, type of ``it`` here)
# -> the call's type; it types every argument and reports what does not fit.
TypeRule = Callable[[Typer, ir.Call, "str | None"], str]


@dataclass(frozen=True)
class Builtin:
    """One builtin function.

    Attributes:
        name: as written in a ruleset (``count``).
        arity: the fewest and most arguments it takes.
        type_rule: types the arguments and returns the call's type (see :data:`TypeRule`).
        code: Python expression templates by form. The form is the number of arguments
            (``"1"``, ``"2"``), except ``"numbers"`` (two arguments, the first a number:
            ``max(a, b)``) and ``"flags"`` (one argument, a list of yes/no values) when the
            function has them. ``{a0}``, ``{a1}`` stand for an argument's code, ``{c0}``,
            ``{c1}`` for an argument read as a collection (a zone's cards), and ``{owners}``,
            ``{sort_key}``, ``{stat}`` (the table of the stat named by the first argument),
            ``{members}`` (each team's seats) and ``{this}`` (the slot of ``this``) for
            run-time tables of the engine. Other names are the engine's helpers (``_top``...)
            and Python builtins.
        per_element: the argument evaluated once per element of the first, with ``it``
            bound to the element, or None.
        value: for a call the validator can work out before play (in an option default or
            a kind's copies), its value from its arguments' values, or :data:`UNKNOWN`
            when they do not fit; None when the function needs a game (``top``...).
        chance: it draws from the game's random generator, so only a statement may call
            it (never an expression that is evaluated whenever it is listed or shown).
    """

    name: str
    arity: tuple[int, int]
    type_rule: TypeRule
    code: Mapping[str, str]
    per_element: int | None = None
    value: Callable[[list[Any]], Any] | None = None
    chance: bool = False

    def form(self, args: list[ir.Expr], type_of: Callable[[ir.Expr], str]) -> str:
        """Which of :attr:`code` a call with ``args`` uses (``type_of`` gives an argument's
        checked type)."""
        if "numbers" in self.code and len(args) == 2 and type_of(args[0]) in ("int", "bool"):
            return "numbers"
        if "flags" in self.code and len(args) == 1 and type_of(args[0]) == "list:bool":
            return "flags"
        return str(len(args))


# ---------------------------------------------------------------- type rules
def _result(result: str, *wants: str) -> TypeRule:
    """Arguments of the given types (in order) and a ``result``."""
    def rule(t: Typer, e: ir.Call, it: str | None) -> str:
        for arg, want in zip(e.args, wants, strict=True):
            t.want(arg, want, it)
        return result
    return rule


def _element(t: Typer, e: ir.Call, it: str | None) -> str:
    """One element of a collection (``top``, ``bottom``, ``random``)."""
    return t.coll(e.args[0], it)


def _tested(result: str) -> TypeRule:
    """Over a collection, with an optional yes/no test per element (``count``, ``any``,
    ``all``)."""
    def rule(t: Typer, e: ir.Call, it: str | None) -> str:
        el = t.coll(e.args[0], it)
        if len(e.args) == 2:
            t.want(e.args[1], "bool", el)
        return result
    return rule


def _total(t: Typer, e: ir.Call, it: str | None) -> str:
    """A number from a collection of numbers, or of a number per element (``sum``)."""
    el = t.coll(e.args[0], it)
    if len(e.args) == 2:
        t.want(e.args[1], "int", el)
    elif not compatible(el, "int"):
        t.error(f"'{e.func}' of {describe('list:' + el)} needs a number per element", e.span)
    return "int"


def _extreme(t: Typer, e: ir.Call, it: str | None) -> str:
    """``max``/``min``: of two numbers, or as :func:`_total` over a collection."""
    if len(e.args) == 2 and elem_type(t.expr(e.args[0], it)) is None:
        t.want(e.args[1], "int", it)
        return "int"
    return _total(t, e, it)


def _slice(t: Typer, e: ir.Call, it: str | None) -> str:
    """``first``/``last``: N elements of a collection, or with one argument its first or
    last element (none when it is empty): ``first(seats where ...)``."""
    if len(e.args) == 1:
        return t.coll(e.args[0], it)
    t.want(e.args[0], "int", it)
    return f"list:{t.coll(e.args[1], it)}"


def _values(t: Typer, e: ir.Call, it: str | None) -> str:
    el = t.coll(e.args[0], it)
    return f"list:{t.expr(e.args[1], el)}"


def _best(t: Typer, e: ir.Call, it: str | None) -> str:
    el = t.coll(e.args[0], it)
    t.expr(e.args[1], el)
    return el


def _union(t: Typer, e: ir.Call, it: str | None) -> str:
    el = t.coll(e.args[0], it)
    typ = t.expr(e.args[1], el)
    if not (typ.startswith("set:") or typ == ANY):
        t.error(f"'union' joins sets, got {describe(typ)}", e.args[1].span)
    return typ


def _shares(t: Typer, e: ir.Call, it: str | None) -> str:
    for arg in e.args:
        typ = t.expr(arg, it)
        if not (typ.startswith("set:") or typ.startswith("list:set:") or typ == ANY):
            t.error(f"'shares' compares sets, got {describe(typ)}", arg.span)
    return "bool"


def _bonus(t: Typer, e: ir.Call, it: str | None) -> str:
    """``bonus(STAT, CARDS)``: STAT is a name some ability modifies (resolved as ``stat``)."""
    stat, stats = e.args[0], t.ctx.sym.stats
    name = stat.id if isinstance(stat, ir.Name) else None
    if name is None or name not in stats:
        t.error(f"no ability modifies '{name or '?'}'" + did_you_mean(name or "?", stats),
                stat.span)
    else:
        t.ctx.out.res[id(stat)] = ("stat", name)
    el = t.coll(e.args[1], it)
    if el not in ("card", ANY):
        t.error(f"'bonus' adds up the abilities of cards, got {describe('list:' + el)}",
                e.args[1].span)
    return "int"


# ---------------------------------------------------------------- values before play
UNKNOWN = object()
"""What a :attr:`Builtin.value` rule returns for arguments it cannot work with."""


def _abs_value(args: list[Any]) -> Any:
    return abs(args[0]) if len(args) == 1 and isinstance(args[0], int) else UNKNOWN


def _numbers_value(fold: Callable[[list[Any]], Any]) -> Callable[[list[Any]], Any]:
    """``max``/``min``/``sum``: of two numbers (not for ``sum``), or of one non-empty list
    of numbers."""
    def value(args: list[Any]) -> Any:
        if fold is not sum and len(args) == 2 and all(isinstance(a, int) for a in args):
            return fold(args)
        if len(args) == 1 and isinstance(args[0], list) and args[0] and \
                all(isinstance(v, int) for v in args[0]):
            return fold(args[0])
        return UNKNOWN
    return value


def _count_value(args: list[Any]) -> Any:
    return len(args[0]) if len(args) == 1 and isinstance(args[0], list) else UNKNOWN


# ---------------------------------------------------------------- the table
_ROWS = (
    Builtin("count", (1, 2), _tested("int"), per_element=1, value=_count_value,
            code={"1": "len({c0})", "2": "len([1 for it in {c0} if {a1}])"}),
    Builtin("any", (1, 2), _tested("bool"), per_element=1,
            code={"1": "(len({c0}) > 0)", "flags": "any({c0})",
                  "2": "any({a1} for it in {c0})"}),
    Builtin("all", (2, 2), _tested("bool"), per_element=1,
            code={"2": "all({a1} for it in {c0})"}),
    Builtin("sum", (2, 2), _total, per_element=1, value=_numbers_value(sum),
            code={"2": "sum({a1} for it in {c0})"}),
    Builtin("max", (1, 2), _extreme, per_element=1, value=_numbers_value(max),
            code={"numbers": "max({a0}, {a1})", "1": "_fold(max, list({c0}))",
                  "2": "_fold(max, [{a1} for it in {c0}])"}),
    Builtin("min", (1, 2), _extreme, per_element=1, value=_numbers_value(min),
            code={"numbers": "min({a0}, {a1})", "1": "_fold(min, list({c0}))",
                  "2": "_fold(min, [{a1} for it in {c0}])"}),
    Builtin("top", (1, 1), _element, code={"1": "_top({c0})"}),
    Builtin("bottom", (1, 1), _element, code={"1": "_bottom({c0})"}),
    Builtin("first", (1, 2), _slice, code={"1": "_bottom({c0})",
                                           "2": "list({c1}[:max({a0}, 0)])"}),
    Builtin("last", (1, 2), _slice, code={"1": "_top({c0})", "2": "_last({a0}, {c1})"}),
    Builtin("values", (2, 2), _values, per_element=1,
            code={"2": "_values({{{a1} for it in {c0}}}, {sort_key})"}),
    Builtin("random", (1, 1), _element, code={"1": "_random(s, {c0})"}, chance=True),
    Builtin("index", (1, 1), _result("int", "card"), code={"1": "_index(s, {a0})"}),
    Builtin("best", (2, 2), _best, per_element=1, code={"2": "_best({c0}, lambda it: {a1})"}),
    Builtin("owner", (1, 1), _result("player", "card"),
            code={"1": "_owner(s, {a0}, {owners})"}),
    Builtin("abs", (1, 1), _result("int", "int"), value=_abs_value, code={"1": "abs({a0})"}),
    Builtin("shares", (2, 2), _shares, code={"2": "_shares({a0}, {a1})"}),
    Builtin("union", (2, 2), _union, per_element=1, code={"2": "_union({a1} for it in {c0})"}),
    Builtin("bonus", (2, 2), _bonus, code={"2": "_bonus(s, {c1}, {stat}, {this})"}),
    # The seats of a team (``members(team of p)``: p and its teammates), in seat order.
    Builtin("members", (1, 1), _result("list:player", "team"),
            code={"1": "list({members}.get({a0}, ()))"}),
)

BUILTINS: dict[str, Builtin] = {b.name: b for b in _ROWS}
"""Every builtin function by name, in the order "did you mean" considers them."""

# Builtins whose argument at this position is evaluated once per element, with ``it`` bound.
PER_ELEMENT: dict[str, int] = {b.name: b.per_element for b in _ROWS
                               if b.per_element is not None}

# One line per builtin: what it gives, as the reference and an editor's hover show it.
SUMMARIES: dict[str, str] = {
    "count": "count(c) the number of elements of c; count(c, test) those for which test holds "
             "(it = the element)",
    "any": "any(c) c is not empty; any(c, test) some element passes test; any(flags) some "
           "flag is yes",
    "all": "all(c, test) every element of c passes test (yes when c is empty)",
    "sum": "sum(c, value) the total of value over the elements of c (it = the element)",
    "max": "max(a, b) the larger number; max(c) or max(c, value) the largest over c",
    "min": "min(a, b) the smaller number; min(c) or min(c, value) the smallest over c",
    "top": "top(c) the top card of a zone (the last one in), none when empty",
    "bottom": "bottom(c) the bottom card of a zone, none when empty",
    "first": "first(c) the first element of c (none when empty); first(n, c) the first n",
    "last": "last(c) the last element of c (none when empty); last(n, c) the last n",
    "values": "values(c, value) the distinct values of value over c, in order, none dropped",
    "random": "random(c) one element of c drawn by the game's seeded generator (statements "
              "only)",
    "index": "index(card) the card's position in the zone that holds it",
    "best": "best(c, key) the element of c with the highest key (the first such; none when "
            "c is empty)",
    "owner": "owner(card) the seat whose zone holds the card",
    "abs": "abs(n) the number without its sign",
    "shares": "shares(a, b) the two sets (or lists of sets) have a value in common",
    "union": "union(c, set) the union of set over the elements of c",
    "bonus": "bonus(STAT, cards) the total the abilities of cards add to the stat STAT",
    "members": "members(team) the seats of a team, in seat order",
}
