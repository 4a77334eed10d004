"""Values fixed before play: option defaults and card copies, worked out per player count.

:func:`const_eval` is the constant evaluator (a visitor, one method per expression node);
:func:`constant_checks` runs it over a ruleset's option defaults and kinds' copies for every
player count the ruleset allows.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from .. import ir
from ..errors import value_text
from ..parse import MAX_DIGITS
from ..visitor import Stage, nodes_of
from .declarations import whole_at_least_1
from .functions import BUILTINS, UNKNOWN
from .symbols import Context

# The most cards a game may have (all kinds together), and the longest range a default may
# build: the engine lists cards, so a bigger game would take minutes and gigabytes to load.
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


def const_eval(e: ir.Expr, env: dict[str, Any]) -> Any:
    """Evaluate an expression fixed before play (an option default, a kind's copies).

    Implements the engine's arithmetic (``/`` rounds down) on numbers, booleans, strings,
    lists and dicts; names come from ``env`` (``players``, earlier options, choice values).

    Raises:
        _NotConstant: the expression uses something only known during play.
        _EvalFault: the evaluation fails (missing dict key, division by zero, index range).
        _Reported: a number too large, which the checker reports.
    """
    return ConstEval(env).visit(e)


def value_before_play(e: ir.Expr, env: dict[str, Any]) -> Any:
    """The value of ``e`` when it is fixed before play (as :func:`const_eval`), else
    :data:`~rulesplay.validate.functions.UNKNOWN` (it reads the game's state, or working it
    out fails: the validator or the game reports that where it matters)."""
    try:
        return const_eval(e, env)
    except (_NotConstant, _EvalFault, _Reported):
        return UNKNOWN


class ConstEval(Stage):
    """The constant evaluator: ``visit_<Node>(e)`` returns the value of ``e`` with names
    from ``env`` (see :func:`const_eval`, which says what it raises)."""

    handles = (ir.ExprNode,)

    def __init__(self, env: dict[str, Any]) -> None:
        self.env = env

    def visit_Num(self, e: ir.Num) -> Any:
        if abs(e.value) >= 10 ** MAX_DIGITS:
            raise _Reported(e)
        return e.value

    def visit_Str(self, e: ir.Str) -> Any:
        return e.value

    def visit_Bool(self, e: ir.Bool) -> Any:
        return e.value

    def visit_NoneLit(self, e: ir.NoneLit) -> Any:
        return None

    def visit_Name(self, e: ir.Name) -> Any:
        if e.id in self.env:
            return self.env[e.id]
        raise _NotConstant(e)

    def visit_UnOp(self, e: ir.UnOp) -> Any:
        v = self.visit(e.operand)
        return (not v) if e.op == "not" else -v

    def visit_Cond(self, e: ir.Cond) -> Any:
        return self.visit(e.then if self.visit(e.test) else e.other)

    def visit_TupleExpr(self, e: ir.TupleExpr) -> Any:
        return tuple(self.visit(i) for i in e.items)

    def visit_ListExpr(self, e: ir.ListExpr) -> Any:
        return [self.visit(i) for i in e.items]

    def visit_DictExpr(self, e: ir.DictExpr) -> Any:
        return {_key(self.visit(k), k): self.visit(v)
                for k, v in zip(e.keys, e.values, strict=True)}

    def visit_RangeExpr(self, e: ir.RangeExpr) -> Any:
        lo, hi = self.visit(e.lo), self.visit(e.hi)
        if not isinstance(lo, int) or not isinstance(hi, int) or hi - lo > MAX_CARDS:
            raise _EvalFault(f"the range {lo}..{hi} is too long to work out", e)
        return list(range(lo, hi + 1))

    def visit_Index(self, e: ir.Index) -> Any:
        obj, key = self.visit(e.obj), self.visit(e.key)
        if isinstance(obj, dict):
            if key not in obj:
                keys = ", ".join(value_text(k) for k in obj)
                raise _EvalFault(f"{_show_value(key)} is not among the keys ({keys})", e)
            return obj[key]
        if isinstance(obj, list) and isinstance(key, int):
            if not -len(obj) <= key < len(obj):
                raise _EvalFault(f"index {key} is outside the list of {len(obj)}", e)
            return obj[key]
        raise _NotConstant(e)

    def visit_Call(self, e: ir.Call) -> Any:
        """A builtin with a :attr:`~rulesplay.validate.functions.Builtin.value` rule."""
        builtin = BUILTINS.get(e.func)
        if builtin is None or builtin.value is None:
            raise _NotConstant(e)
        value = builtin.value([self.visit(a) for a in e.args])
        if value is UNKNOWN:
            raise _NotConstant(e)
        return value

    def visit_BinOp(self, e: ir.BinOp) -> Any:
        return _const_binop(self, e)

    def _needs_play(self, e: ir.Expr) -> Any:
        """A card, a filter or a seat is only known during play."""
        raise _NotConstant(e)

    visit_Attr = visit_Filter = visit_IsKind = visit_Seat = _needs_play


def _names(node: Any) -> set[str]:
    """Every name an expression mentions."""
    return {name.id for name in nodes_of(node, ir.Name)}


def _key(value: Any, node: ir.Expr) -> Any:
    if isinstance(value, list | dict):
        raise _EvalFault("a list or dict cannot be a dict key", node)
    return value


def _const_binop(ev: ConstEval, e: ir.BinOp) -> Any:
    a = ev.visit(e.left)
    if e.op == "and":
        return a and ev.visit(e.right)
    if e.op == "or":
        return a or ev.visit(e.right)
    b = ev.visit(e.right)
    try:
        if e.op in ("in", "not in"):
            return (a in b) == (e.op == "in")
        if e.op in ("/", "%") and b == 0:
            raise _EvalFault("division by zero", e)
        ops: dict[str, Callable[[], Any]]
        ops = {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b,
               "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b,
               "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
               "/": lambda: a // b, "%": lambda: a % b}
        if e.op not in ops:
            raise _NotConstant(e)
        return ops[e.op]()
    except TypeError:
        raise _EvalFault(f"'{e.op}' cannot combine {a!r} and {b!r}", e) from None


def _show_value(value: Any, choices: Collection[str] = ()) -> str:
    """A worked-out value for a message. A yes/no value is named by its kind: the file may
    spell it ``yes`` or ``true`` (``no``, ``false``), and a message must not say a word the
    author did not write."""
    if isinstance(value, bool):
        return "a yes/no value"
    if isinstance(value, str) and value not in choices:  # a text, not a choice's value
        return f'the text "{value}"'
    return str(value)


def _bound_names(o: ir.OptionDecl) -> set[str]:
    """The names an option's range reads (``int in 1..(51 / players)``)."""
    return set().union(*(_names(b) for b in (o.lo_at, o.hi_at) if b is not None))


def _bounds(o: ir.OptionDecl, env: dict[str, Any], where: str,
            report: Callable[[str, ir.Expr | ir.Node, tuple[str, int]], None],
            ) -> tuple[Any, Any] | None:
    """Option ``o``'s range at one player count (``env``: the names known before play),
    its bounds that are expressions worked out; None when one cannot be, or the range is
    empty (reported).

    Rules: a bound in brackets may use numbers, ``players``, earlier options and choice
    values, as a default may, and is a whole number; the range holds a number."""
    bounds: list[Any] = []
    for written, at in ((o.lo, o.lo_at), (o.hi, o.hi_at)):
        if at is None:
            bounds.append(written)
            continue
        try:
            value = const_eval(at, env)
        except _NotConstant as exc:
            report(f"the range of option '{o.name}' cannot be worked out: it must be known "
                   "before play: use numbers, 'players', earlier options and choice values",
                   exc.node, (o.name, 1))
            return None
        except _EvalFault as exc:
            report(f"the range of option '{o.name}' cannot be worked out{where}: "
                   f"{exc.message}", exc.node, (o.name, 1))
            return None
        except _Reported:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            report(f"a bound of option '{o.name}' is {_show_value(value)}{where}; a range "
                   "is of whole numbers", at, (o.name, 1))
            return None
        bounds.append(value)
    lo, hi = bounds
    if lo is not None and hi is not None and lo > hi:
        report(f"option '{o.name}' has the empty range {lo}..{hi}{where}", o, (o.name, 1))
        return None
    return lo, hi


def _option_problem(o: ir.OptionDecl, value: Any, lo: Any, hi: Any) -> str | None:
    """Why ``value`` is not allowed for option ``o`` whose range is ``lo..hi`` at this
    player count (the engine's rule), or None."""
    if o.type == "bool":
        return None if isinstance(value, bool) else "allowed: yes or no"
    if o.type == "int":
        if isinstance(value, int) and not isinstance(value, bool) and \
                (lo is None or lo <= value) and (hi is None or value <= hi):
            return None
        return f"allowed: a whole number from {lo} to {hi}"
    return None if value in o.choices else "allowed: " + ", ".join(o.choices)


def constant_checks(c: Context) -> dict[int, dict[str, Any]]:
    """Option defaults and card copies, worked out for every player count of the ruleset.

    Rules: an option's default may use numbers, ``players``, earlier options and choice
    values, and must be allowed by the option's type for every player count in
    ``players lo..hi``; a kind's ``copies`` must be at least 1 for every player count; the
    kinds together make at most :data:`MAX_CARDS` cards.

    Returns:
        Per player count, the names known before play (options, choice values) and their
        values, for the checks that work out more (the teams).
    """
    r = c.r
    envs: dict[int, dict[str, Any]] = {}
    if not 1 <= r.min_players <= r.max_players <= 64:
        return envs
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
        if (_names(o.default) | _bound_names(o)) & varying:
            varying.add(o.name)
    for n in range(r.min_players, r.max_players + 1):
        env = envs[n] = dict(base, players=n)
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
            bounds = _bounds(o, env, where, report)
            if bounds is None:
                continue
            problem = _option_problem(o, value, *bounds)
            if problem is not None:
                report(f"the default of option '{o.name}' is "
                       f"{_show_value(value, c.sym.choice_values)}{where}; "
                       f"{problem}", o.default, (o.name, 0))
                continue
            env[o.name] = value
        total = 0  # cards of the kinds so far, for this player count
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
                cards = sum(row.copies for row in k.rows if whole_at_least_1(row.copies))
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
                where = f" with {n} players" if _names(k.copies) & varying and \
                    r.min_players < r.max_players else ""
                report(f"card kind '{k.name}' makes {cards} cards{where}; at most "
                       f"{MAX_CARDS} are allowed", k, (k.name, 0))
                continue
            total += cards
            if total > MAX_CARDS:
                where = f" with {n} players" if r.min_players < r.max_players else ""
                report(f"the card kinds up to '{k.name}' make {total} cards{where}; a game "
                       f"may have at most {MAX_CARDS} cards", k, ("", 0))
    return envs
