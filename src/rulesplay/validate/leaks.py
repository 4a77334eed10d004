"""What every seat is shown, and what it must not be: warnings for hidden cards, secret
choices and unseen variables written into places others see.

Prompts, phase labels and ``say`` texts are shown to every seat (every seat reads the
account), and so is a ``public`` variable. A ruleset that puts into them a card from a zone
some seat may not see (``hidden``, ``top`` but for its top card, another seat's ``owner``
zone), or the value of a secret choice, shows it to every seat; one that writes into a
public variable the value of a variable some seat may not see (``owner``, ``hidden``) shows
that (a ``public`` card variable: to the seats that see its card, and their bots). A
variable declared ``hidden`` shows nothing to any seat, and one declared ``owner``
(``x[p]``) only to seat ``p``: writing there what ``p`` may see (its own ``owner`` zone
``hand[p]``, its own secret choice, ``y[p]`` of its own) is fine. (A text may read an
``owner`` or ``hidden`` variable: its value is shown as ``?`` to the seats that may not
see it.) Counting a zone's cards reads no card, and the top card of a ``top`` zone is seen by
all; everything else that reads such a zone's cards is reported, once per place, as a
warning (a ruleset may mean it, e.g. a card revealed on purpose, but never by accident).
What has been revealed to every seat where a statement runs (:mod:`.shown`: a hand laid
open with ``reveal hand[p]``, a hidden variable shown with ``reveal VAR``) is not hidden
there, so reading it is no leak; nor is a seat found from hidden cards (the holder of a
card leads) given to a public variable when that seat's own turn comes before any other
seat decides (:mod:`.next_turn`): its turn shows it anyway.

(The options of a choice are shown to its chooser: reading there what the chooser may not
see is an error, see :mod:`.unseen`.)
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import ir
from ..errors import Diagnostic, Span
from ..show import expr_text
from ..visitor import NodeVisitor
from .next_turn import seat_shown_next
from .shown import Shown, shown_at
from .sight import SecretRead, secret_reads
from .symbols import Checked

COUNTS_ONLY = ("count",)  # builtins that read how many cards, never which


class _HiddenReads(NodeVisitor):
    """The places an expression reads cards some seat may not see, or a secret choice,
    leaving out what seat ``seat`` (an expression's text, or None: every seat) sees: its
    own ``owner`` zones and its own secret choices."""

    def __init__(self, zones: dict[str, ir.ZoneDecl], secret: dict[str, set[str]],
                 seat: str | None = None, shown: Shown = frozenset()) -> None:
        self.zones, self.secret, self.seat, self.shown = zones, secret, seat, shown
        self.found: list[str] = []

    def _hidden(self, name: str) -> bool:
        return name in self.zones and self.zones[name].visibility != "public" \
            and name not in self.shown

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
        elif e.id in self.secret and self.secret[e.id] != {self.seat}:
            self.found.append(f"the secret choice '{e.id}'")

    def visit_Index(self, e: ir.Index) -> None:
        if isinstance(e.obj, ir.Name) and self._hidden(e.obj.id):
            if not (self.zones[e.obj.id].visibility == "owner"
                    and expr_text(e.key) == self.seat) and expr_text(e) not in self.shown:
                self.found.append(f"the cards of '{expr_text(e)}'")
            return
        self.generic_visit(e)


def _unseen_by(reads: list[SecretRead], seat: str | None,
               shown: Shown = frozenset()) -> list[str]:
    """The reads of variables seat ``seat`` (an expression's text; None: every seat) may
    not see: all but those of an ``owner`` variable of that very seat, and those of a
    variable revealed where they are read (``shown``)."""
    return [f"'{r.text}' ({r.var.visibility})" for r in reads if r.var.name not in shown
            and (seat is None or r.var.visibility != "owner" or r.seat is None
                 or expr_text(r.seat) != seat)]


def _target(target: ir.Expr, variables: dict[str, ir.VarDecl]) -> ir.VarDecl | None:
    """The variable an assignment writes (``x``, ``x[seat]``, ``card.x``), if any."""
    name = target.id if isinstance(target, ir.Name) else \
        target.obj.id if isinstance(target, ir.Index) and isinstance(target.obj, ir.Name) \
        else target.name if isinstance(target, ir.Attr) else None
    return variables.get(name) if name is not None else None


def unseen_reads(e: ir.Expr, ruleset: ir.Ruleset, checked: Checked) -> list[str]:
    """What ``e`` reads that some seat may not see: cards of a zone that is not public
    (counting them reads none), secret choices, ``owner`` and ``hidden`` variables. Empty
    when every seat may be shown the value (e.g. a score of pile sizes).

    Args:
        e: a checked expression.
        ruleset: the checked ruleset.
        checked: its validator result.
    """
    reads = _HiddenReads({z.name: z for z in ruleset.zones}, _secret_names(ruleset))
    reads.visit(e)
    return reads.found + [f"'{r.text}'" for r in secret_reads(e, checked)]


def public_leaks(ruleset: ir.Ruleset, checked: Checked) -> list[Diagnostic]:
    """Warnings for places seats are shown (variables, prompts, phase labels, ``say``
    texts) that show them hidden cards, secret choices or variables
    they may not see.

    Args:
        ruleset: the checked ruleset.
        checked: its validator result (names resolved in ``res``, the parsed display texts
            in ``templates``).
    """
    zones = {z.name: z for z in ruleset.zones}
    secret = _secret_names(ruleset)
    variables = {v.name: v for v in ruleset.vars}
    out: list[Diagnostic] = []
    shown_where = shown_at(ruleset)

    def report(what: str, exprs: list[ir.Expr], span: Span, var: ir.VarDecl | None = None,
               seat: str | None = None, shown: Shown = frozenset(),
               seat_set: ir.Assign | None = None) -> None:
        reads = _HiddenReads(zones, secret, seat, shown)
        for e in exprs:
            reads.visit(e)
        if var is not None:  # a variable written: also the variables its seers may not see
            reads.found += [f"the variable {r}" for e in exprs
                            for r in _unseen_by(secret_reads(e, checked), seat, shown)]
        if reads.found and not (seat_set is not None and seat_shown_next(ruleset, seat_set)):
            found = ", ".join(dict.fromkeys(reads.found))
            who, them = ("its own seat", "that seat") if seat is not None else \
                ("every seat that sees its card", "some of them") \
                if var is not None and var.scope == "card" else ("every seat", "some seats")
            hint = "" if var is None else \
                f"; declare '{var.name}' owner or hidden to keep it from the others" \
                if var.scope == "player" and seat is None else \
                f"; declare '{var.name}' hidden to keep it from every seat"
            out.append(Diagnostic(f"{what} is shown to {who}, but it reads {found}, which "
                                  f"{them} may not see{hint}", span, severity="warning"))

    for node in ir.walk(ruleset):
        shown = shown_where.get(id(node), frozenset())
        if isinstance(node, ir.Assign):
            # A variable (x, x[seat], card.x) is shown to its seers: every seat, its own
            # (owner) or none (hidden); a 'let' name is not shown.
            target, var = node.target, _target(node.target, variables)
            seat = expr_text(target.key) if isinstance(target, ir.Index) and \
                var is not None and var.visibility == "owner" else None
            # (a seat whose own turn, next, shows it to all: see next_turn)
            exempt = var is not None and var.type == "player" and var.visibility == "public"
            if var is None or var.visibility != "hidden":
                if var is not None or not isinstance(target, ir.Name):
                    report(f"'{expr_text(target)}'", [node.value], node.value.span, var,
                           seat, shown, node if exempt else None)
        for what, labels in _texts(node):
            report(what, list(_placeholders(checked, labels)), labels.span, shown=shown)
    return out


def _secret_names(ruleset: ir.Ruleset) -> dict[str, set[str]]:
    """Each name a secret choice binds -> the texts of its choosers: the choice's own, and
    the word of each named skip (``skip "draw" as drawing``: which skip was taken is as
    secret as the value)."""
    secret: dict[str, set[str]] = {}
    for n in ir.walk(ruleset):
        if isinstance(n, ir.Choose) and n.secret:
            for name in [n.name, *(k.name for k in n.skips() if k.name is not None)]:
                secret.setdefault(name, set()).add(expr_text(n.player))
    return secret


def _texts(node: ir.Node) -> Iterator[tuple[str, ir.Labels]]:
    """The display texts of ``node`` that every seat reads, with what each is."""
    if isinstance(node, ir.PhaseDecl):
        yield "this phase's label", node.labels
    elif isinstance(node, ir.Say):
        yield "this 'say' text", node.text
    elif isinstance(node, ir.Choose):
        yield "this prompt", node.prompt
        for k in node.skips():
            yield "this skip label", k.label
    elif isinstance(node, ir.Trick):
        yield "this prompt", node.prompt
        if node.pass_label is not None:
            yield "this pass label", node.pass_label


def _placeholders(checked: Checked, labels: ir.Labels) -> Iterator[ir.Expr]:
    for (key, _lang), parts in checked.templates.items():
        if key == id(labels):
            yield from (p for p in parts if not isinstance(p, str))
