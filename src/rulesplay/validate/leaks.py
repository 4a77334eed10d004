"""What every seat is shown, and what it must not be: warnings for hidden cards and secret
choices written into public places.

Variables are public (every seat sees every variable), and so are prompts, phase labels and
``say`` texts (every seat reads the account). A ruleset that puts into them a card from a zone
some seat may not see (``hidden``, ``top`` but for its top card, another seat's ``owner``
zone), or the value of a secret choice, shows it to every seat. Counting a zone's cards reads
no card, and the top card of a ``top`` zone is seen by all; everything else that reads such a
zone's cards is reported, once per place, as a warning (a ruleset may mean it, e.g. a card
revealed on purpose, but never by accident).
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import ir
from ..errors import Diagnostic, Span
from ..show import expr_text
from ..visitor import NodeVisitor
from .symbols import Checked

COUNTS_ONLY = ("count",)  # builtins that read how many cards, never which


class _HiddenReads(NodeVisitor):
    """The places an expression reads cards some seat may not see, or a secret choice."""

    def __init__(self, zones: dict[str, ir.ZoneDecl], secret: set[str]) -> None:
        self.zones, self.secret = zones, secret
        self.found: list[str] = []

    def _hidden(self, name: str) -> bool:
        return name in self.zones and self.zones[name].visibility != "public"

    def visit_Call(self, e: ir.Call) -> None:
        if e.func in COUNTS_ONLY:
            return
        zone = e.args[-1] if e.args else None
        if e.func == "top" and len(e.args) == 1 and isinstance(zone, ir.Name) \
                and zone.id in self.zones and self.zones[zone.id].visibility == "top":
            return  # the card all see
        self.generic_visit(e)

    def visit_Name(self, e: ir.Name) -> None:
        if self._hidden(e.id):
            self.found.append(f"the cards of '{e.id}'")
        elif e.id in self.secret:
            self.found.append(f"the secret choice '{e.id}'")

    def visit_Index(self, e: ir.Index) -> None:
        if isinstance(e.obj, ir.Name) and self._hidden(e.obj.id):
            self.found.append(f"the cards of '{expr_text(e)}'")
            return
        self.generic_visit(e)


def public_leaks(ruleset: ir.Ruleset, checked: Checked) -> list[Diagnostic]:
    """Warnings for public places (variables, prompts, phase labels, ``say`` texts) that
    show hidden cards or secret choices to every seat.

    Args:
        ruleset: the checked ruleset.
        checked: its validator result (the parsed display texts are in ``templates``).
    """
    zones = {z.name: z for z in ruleset.zones}
    secret = {n.name for n in ir.walk(ruleset) if isinstance(n, ir.Choose) and n.secret}
    out: list[Diagnostic] = []

    def report(what: str, exprs: list[ir.Expr], span: Span) -> None:
        reads = _HiddenReads(zones, secret)
        for e in exprs:
            reads.visit(e)
        if reads.found:
            shown = ", ".join(dict.fromkeys(reads.found))
            out.append(Diagnostic(f"{what} is shown to every seat, but it reads {shown}, "
                                  "which some seats may not see", span, severity="warning"))

    variables = {v.name for v in ruleset.vars}
    for node in ir.walk(ruleset):
        # a variable (x, x[seat], card.x) is public; a 'let' name is not shown
        if isinstance(node, ir.Assign) and (not isinstance(node.target, ir.Name)
                                            or node.target.id in variables):
            report(f"'{expr_text(node.target)}'", [node.value], node.value.span)
        for what, labels in _texts(node):
            report(what, list(_placeholders(checked, labels)), labels.span)
    return out


def _texts(node: ir.Node) -> Iterator[tuple[str, ir.Labels]]:
    """The display texts of ``node`` that every seat reads, with what each is."""
    if isinstance(node, ir.PhaseDecl):
        yield "this phase's label", node.labels
    elif isinstance(node, ir.Say):
        yield "this 'say' text", node.text
    elif isinstance(node, ir.Choose):
        yield "this prompt", node.prompt
        if node.skip_label is not None:
            yield "this skip label", node.skip_label
    elif isinstance(node, ir.Trick):
        yield "this prompt", node.prompt
        if node.pass_label is not None:
            yield "this pass label", node.pass_label


def _placeholders(checked: Checked, labels: ir.Labels) -> Iterator[ir.Expr]:
    for (key, _lang), parts in checked.templates.items():
        if key == id(labels):
            yield from (p for p in parts if not isinstance(p, str))
