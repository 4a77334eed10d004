"""Variables not every seat may see: which of them an expression reads, and the texts that
may not read them.

A variable declared ``owner`` (a player variable) is seen by its own seat only, one declared
``hidden`` by no seat (:class:`rulesplay.ir.VarDecl`). A text that reads one is shown with
the value as ``?`` to a seat that may not see it (the engine masks it, by the reads found
here), except the labels of actions: a skip or pass label is the label of a decision every
seat reads, and nothing masks it, so such a label reading one is an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ir
from ..show import expr_text
from ..visitor import NodeVisitor, nodes_of
from .symbols import Checked, Context


@dataclass(frozen=True)
class SecretRead:
    """One read of a variable some seat may not see.

    Attributes:
        var: its declaration (``visibility`` ``owner`` or ``hidden``).
        seat: for an ``owner`` variable read as ``x[SEAT]`` with SEAT naming a seat from
            outside the expression (no ``it`` in it): SEAT, the one seat that sees the
            value. None for a ``hidden`` variable, and for an ``owner`` one read another way
            (``sum(seats, bid[it])``): no seat is known to see it.
        text: the read as written (``bid[p]``), for messages.
    """

    var: ir.VarDecl
    seat: ir.Expr | None
    text: str


class _Reads(NodeVisitor):
    """Collects the :class:`SecretRead` of an expression (names as the validator resolved
    them, so a local of the same name is not a variable)."""

    def __init__(self, checked: Checked) -> None:
        self.res, self.vars = checked.res, checked.symbols.vars
        self.found: list[SecretRead] = []

    def _var(self, e: ir.Expr) -> ir.VarDecl | None:
        if not isinstance(e, ir.Name) or self.res.get(id(e), ("", ""))[0] not in (
                "var", "tvar", "pvar"):
            return None
        return self.vars.get(e.id)

    def visit_Name(self, e: ir.Name) -> None:
        var = self._var(e)
        if var is not None and var.visibility != "public":
            self.found.append(SecretRead(var, None, e.id))

    def visit_Index(self, e: ir.Index) -> None:
        var = self._var(e.obj)
        if var is not None and var.visibility == "owner" and not any(
                n.id == "it" for n in nodes_of(e.key, ir.Name)):
            self.found.append(SecretRead(var, e.key, expr_text(e)))
            self.visit(e.key)
            return
        self.generic_visit(e)

    def visit_Attr(self, e: ir.Attr) -> None:
        var = self.vars.get(e.name)
        if var is not None and var.scope == "card" and var.visibility != "public":
            self.found.append(SecretRead(var, None, expr_text(e)))
        self.generic_visit(e)


def secret_reads(e: ir.Node, checked: Checked) -> list[SecretRead]:
    """The reads of ``owner`` and ``hidden`` variables in ``e`` (an expression or any node
    holding expressions), in the order written.

    Args:
        e: a checked node (its names resolved in ``checked.res``).
        checked: the validator's result.
    """
    reads = _Reads(checked)
    reads.visit(e)
    return reads.found


def placeholder_reads(checked: Checked, labels: ir.Labels) -> list[SecretRead]:
    """The :func:`secret_reads` of every ``{expr}`` placeholder of a display text, in every
    language."""
    return [read for (key, _lang), parts in checked.templates.items() if key == id(labels)
            for p in parts if not isinstance(p, str) for read in secret_reads(p, checked)]


def secret_action_labels(ctx: Context) -> None:
    """Report skip and pass labels that read a variable some seat may not see (an action's
    label is told to every seat, unmasked)."""
    for node in ir.walk(ctx.r):
        every = [k.label for k in node.skips()] if isinstance(node, ir.Choose) else \
            [node.pass_label] if isinstance(node, ir.Trick) and node.pass_label else []
        for labels in every:
            for read in placeholder_reads(ctx.out, labels)[:1]:
                what = "skip" if isinstance(node, ir.Choose) else "pass"
                ctx.error(f"this {what} label reads '{read.text}', which is "
                          f"{read.var.visibility}: a decision's label is told to every seat, "
                          "so it cannot hide the value", labels.span)
