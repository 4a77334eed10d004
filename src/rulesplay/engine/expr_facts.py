"""What the code generator (:mod:`rulesplay.engine.codegen`) knows of an expression
before it writes code for it: whether it walks a collection, does real work, draws
chance, and which parts of a filter's test do not read ``it`` or may stop a scan early.
"""

from __future__ import annotations

from typing import Any

from .. import ir
from ..show import expr_text
from ..validate import Checked
from ..validate.functions import BUILTINS
from ..visitor import NodeVisitor
from .expr import free_names


def loops(e: ir.Expr) -> bool:
    """Whether evaluating ``e`` walks a collection (contains a builtin call or a filter)."""
    return bool(_Loops().visit(e))


class _Loops(NodeVisitor):
    """True for a node holding a builtin call or a filter (see :func:`loops`)."""

    def visit_Call(self, e: ir.Call) -> bool:
        return True

    visit_Filter = visit_Call

    def generic_visit(self, node: ir.Node, *args: Any, **kwargs: Any) -> bool:
        return any(self.visit(child) for child in node.children())


def invariant_parts(cond: ir.Expr, checked: Checked) -> list[ir.Expr]:
    """The largest parts of a filter's test that do not read ``it``, draw no chance and do
    real work (see :meth:`~rulesplay.engine.codegen.ExprCompiler.visit_Filter`)."""
    out: list[ir.Expr] = []

    def walk(e: ir.Node) -> None:
        if isinstance(e, ir.Call | ir.BinOp | ir.Index | ir.Filter | ir.Attr) and \
                "it" not in free_names(e, checked) and not chance(e) and work(e):
            out.append(e)
            return
        for child in e.children():
            if isinstance(child, ir.ExprNode):
                walk(child)
    walk(cond)
    return out


def scans(cond: ir.Expr, checked: Checked) -> bool:
    """Whether the first (or last) card of ``COLL where cond`` may be found by a scan
    that stops there, failing exactly when filtering all of COLL fails: ``cond`` is a
    chain of ``and`` whose terms each either do not read ``it`` (a failure there fails
    at the first card to reach it, which a match also reaches) or cannot fail: ``it``'s
    kind, or ``==``/``!=`` between ``it``, ``it.attr`` and parts that do not read
    ``it``. No chance (a draw per card would change the game)."""
    if chance(cond):
        return False

    def free(e: ir.Expr) -> bool:
        return "it" not in free_names(e, checked)

    def plain(e: ir.Expr) -> bool:  # it, it.attr: a read that cannot fail
        if isinstance(e, ir.Attr):
            e = e.obj
        return isinstance(e, ir.Name) and checked.res.get(id(e), ("", ""))[0] == "it"

    def term(e: ir.Expr) -> bool:
        if isinstance(e, ir.BinOp) and e.op == "and":
            return term(e.left) and term(e.right)
        if free(e):
            return True
        if isinstance(e, ir.IsKind):
            return plain(e.obj)
        if isinstance(e, ir.BinOp) and e.op in ("==", "!="):
            return all(free(x) or plain(x) for x in (e.left, e.right))
        return False

    return term(cond)


def in_range(e: ir.Expr, res: dict[int, tuple[str, str]]) -> bool:
    """``e`` is a value in -MAX_INT..MAX_INT whatever the state (see
    :meth:`~rulesplay.engine.codegen.ExprCompiler.gen_bounded`);
    ``res``: the validator's resolution of names (a local or ``it`` may be an item of a list
    of anything, so it is not in range by construction)."""
    if isinstance(e, ir.Num | ir.Str | ir.Bool | ir.NoneLit | ir.Attr | ir.Seat | ir.IsKind):
        return True
    if isinstance(e, ir.Name):
        return res.get(id(e), ("", ""))[0] not in ("local", "it", "")
    if isinstance(e, ir.BinOp):  # a comparison, and, or, in: a yes/no
        return e.op not in ("+", "-", "*", "/", "%")
    if isinstance(e, ir.UnOp):
        return e.op == "not" or in_range(e.operand, res)
    if isinstance(e, ir.Call):
        return e.func in ("count", "index", "any", "all", "owner") or \
            e.func == "abs" and all(in_range(a, res) for a in e.args)
    if isinstance(e, ir.Cond):
        return in_range(e.then, res) and in_range(e.other, res)
    return False


def work(e: ir.Node) -> bool:
    """Whether ``e`` holds a lookup, a division or remainder, a builtin or a filter."""
    if isinstance(e, ir.Call | ir.Filter | ir.Index) or \
            (isinstance(e, ir.BinOp) and e.op in ("/", "%")):
        return True
    return any(work(c) for c in e.children() if isinstance(c, ir.ExprNode))


def chance(e: ir.Expr) -> bool:
    """Whether ``e`` calls a builtin that draws from the game's generator."""
    return any(isinstance(n, ir.Call) and BUILTINS.get(n.func) is not None
               and BUILTINS[n.func].chance for n in ir.walk(e))


def listed_form(func: str, args: list[ir.Expr]) -> str | None:
    """A faster code template for ``sum`` of a value (``args[1]``) over a collection
    (``args[0]``), or None to keep the usual one: the values made into a list first (a
    comprehension costs less than a generator), which changes nothing when the value cannot
    fail, draws no chance and does no work (a sum goes over every element anyway). (``any``
    and ``all`` stop at the first element that decides: made into a list, measured slower
    on a seed game's hands of ten cards.)"""
    value, coll = args[1], args[0]
    if func != "sum" or may_fail(value) or loops(value) or chance(value) or chance(coll):
        return None
    return "sum([{a1} for it in {c0}])"


# Builtins that cannot fail when their arguments cannot (no arithmetic, no lookup by key).
_SAFE_CALLS = frozenset({"top", "bottom", "owner", "index"})


def may_fail(e: ir.Expr) -> bool:
    """Whether evaluating ``e`` may raise (arithmetic on none, a division by zero, a seat
    or key that is not there, a number out of range...); False only for what surely
    cannot: literals and names, attributes and kinds of those (none reads as none), seats
    beside one, ``==``/``!=``/``and``/``or``/``not`` and choices between such parts, and
    ``top``/``bottom``/``owner``/``index``/``count``/``first``/``last`` of them. A part
    that draws chance counts as one that cannot (it must not be evaluated twice)."""
    if chance(e):
        return False
    return not _Safe().visit(e)


class _Safe(NodeVisitor):
    """True for an expression that cannot fail (see :func:`may_fail`)."""

    def _parts(self, *parts: ir.Expr) -> bool:
        return all(self.visit(p) for p in parts)

    def visit_Num(self, e: ir.Expr) -> bool:
        return True

    visit_Str = visit_Bool = visit_NoneLit = visit_Name = visit_Num

    def visit_Attr(self, e: ir.Attr) -> bool:
        return bool(self.visit(e.obj))

    def visit_IsKind(self, e: ir.IsKind) -> bool:
        return bool(self.visit(e.obj))

    def visit_Seat(self, e: ir.Seat) -> bool:
        return bool(self.visit(e.of))

    def visit_UnOp(self, e: ir.UnOp) -> bool:
        return e.op == "not" and self.visit(e.operand)

    def visit_BinOp(self, e: ir.BinOp) -> bool:
        return e.op in ("==", "!=", "and", "or") and self._parts(e.left, e.right)

    def visit_Cond(self, e: ir.Cond) -> bool:
        return self._parts(e.test, e.then, e.other)

    def visit_Call(self, e: ir.Call) -> bool:
        safe = e.func in _SAFE_CALLS or e.func in ("count", "first", "last") and \
            len(e.args) == 1
        return safe and self._parts(*e.args)

    def generic_visit(self, node: ir.Node, *args: Any, **kwargs: Any) -> bool:
        return False


# Types of what holds cards (reading one reads where cards are) and the builtins that read
# where a card is (its zone, its place in it).
_CARDS = frozenset({"zone", "pzone", "list:card"})
_PLACES = frozenset({"index", "owner", "bonus"})


def per_card(cond: ir.Expr | None, source: ir.Expr, checked: Checked) -> bool:
    """Whether a decision of a card from zone ``source`` tests each card alone: its
    ``where`` test ``cond`` reads where cards are only as ``not any(SOURCE, test)`` or
    ``all(SOURCE, test)``, with a ``test`` of the card ``it`` alone that cannot fail, joined
    by ``and``, or by ``or`` with parts that read no card's place. The test then holds with
    some cards in ``source`` exactly when it holds with each of them alone (beside the cards
    there already): what lets a sampler trust its per-card exclusions
    (:func:`rulesplay.agents.infoset._by_exclusions`). No chance (the validator keeps it
    out of a choice's test anyway); ``source`` is a zone (not a list made from one)."""
    if checked.types.get(id(source)) != "zone":
        return False
    zone = expr_text(source)

    def placeless(e: ir.Expr) -> bool:  # reads no card's place
        return not chance(e) and not any(
            isinstance(n, ir.ExprNode) and checked.types.get(id(n)) in _CARDS
            or isinstance(n, ir.Call) and n.func in _PLACES for n in ir.walk(e))

    def each(e: ir.Call) -> bool:  # any/all(SOURCE, test of it alone)
        return len(e.args) == 2 and expr_text(e.args[0]) == zone and \
            placeless(e.args[1]) and not may_fail(e.args[1])

    def alone(e: ir.Expr) -> bool:
        if placeless(e):
            return True
        if isinstance(e, ir.BinOp) and e.op == "and":
            return alone(e.left) and alone(e.right)
        if isinstance(e, ir.BinOp) and e.op == "or":
            return placeless(e.left) and alone(e.right) or \
                placeless(e.right) and alone(e.left)
        if isinstance(e, ir.UnOp) and e.op == "not" and isinstance(e.operand, ir.Call):
            return e.operand.func == "any" and each(e.operand)
        return isinstance(e, ir.Call) and e.func == "all" and each(e)

    return cond is None or alone(cond)

