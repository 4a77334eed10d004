"""Expressions written back in the language: one printer for diagnostics, ``diff`` and
``graph`` (``12 if rank == 13 else rank``, ``count(hand[p]) > 0``)."""

from __future__ import annotations

from . import ir

__all__ = ["expr_text", "option_type_text"]

_OPS_PREC = {"or": 1, "and": 2, "in": 4, "not in": 4, "==": 4, "!=": 4, "<": 4, "<=": 4,
             ">": 4, ">=": 4, "+": 6, "-": 6, "*": 7, "/": 7, "%": 7}


def expr_text(e: ir.Expr | None, prec: int = 0) -> str:  # noqa: C901 - one case per node
    """An expression written back in the language (``12 if rank == 13 else rank``)."""
    if e is None:
        return "none"
    out: str
    mine = 10
    if isinstance(e, ir.Num):
        out = str(e.value)
    elif isinstance(e, ir.Str):
        out = '"' + e.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    elif isinstance(e, ir.Bool):
        out = "true" if e.value else "false"
    elif isinstance(e, ir.NoneLit):
        out = "none"
    elif isinstance(e, ir.Name):
        out = e.id
    elif isinstance(e, ir.Attr):
        out = f"{expr_text(e.obj, 10)}.{e.name}"
    elif isinstance(e, ir.Index):
        out = f"{expr_text(e.obj, 10)}[{expr_text(e.key)}]"
    elif isinstance(e, ir.Call):
        out = f"{e.func}({', '.join(expr_text(a) for a in e.args)})"
    elif isinstance(e, ir.BinOp):
        mine = _OPS_PREC.get(e.op, 5)
        out = f"{expr_text(e.left, mine)} {e.op} {expr_text(e.right, mine + 1)}"
    elif isinstance(e, ir.UnOp):
        mine = 3 if e.op == "not" else 8
        out = f"not {expr_text(e.operand, mine)}" if e.op == "not" else \
            f"-{expr_text(e.operand, mine)}"
    elif isinstance(e, ir.Cond):
        mine = 0
        out = f"{expr_text(e.then, 1)} if {expr_text(e.test, 1)} else {expr_text(e.other)}"
    elif isinstance(e, ir.TupleExpr):
        out = "(" + ", ".join(expr_text(i) for i in e.items) + ("," if len(e.items) == 1
                                                               else "") + ")"
    elif isinstance(e, ir.ListExpr):
        out = "[" + ", ".join(expr_text(i) for i in e.items) + "]"
    elif isinstance(e, ir.DictExpr):
        out = "{" + ", ".join(f"{expr_text(k)}: {expr_text(v)}"
                              for k, v in zip(e.keys, e.values, strict=True)) + "}"
    elif isinstance(e, ir.RangeExpr):
        mine = 5
        out = f"{expr_text(e.lo, 6)}..{expr_text(e.hi, 6)}"
    elif isinstance(e, ir.Filter):
        mine = 0
        out = f"{expr_text(e.coll, 1)} where {expr_text(e.cond, 1)}"
    elif isinstance(e, ir.IsKind):
        mine = 4
        out = f"{expr_text(e.obj, 5)} is {'not ' if e.negate else ''}{e.kind}"
    elif isinstance(e, ir.Seat):
        mine = 8
        out = f"{e.side} of {expr_text(e.of, 8)}"
    else:  # pragma: no cover - every node is handled above
        out = type(e).__name__
    return f"({out})" if mine < prec else out


def option_type_text(o: ir.OptionDecl) -> str:
    """An option's type as written: ``bool``, ``int in 1..12``, ``first_coloured | no_lead``."""
    if o.type == "int":
        return f"int in {o.lo}..{o.hi}"
    if o.type == "bool":
        return "bool"
    return " | ".join(o.choices)
