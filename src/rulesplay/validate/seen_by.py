"""A zone's ``seen by EXPR``: the seats that see its cards besides the declared ones.

The expression is worked out in play (each time the game waits for a decision), with
``player`` the owning seat of a per-player zone, and gives a seat, a list of seats or none.
Who sees a zone is itself seen by every seat (a seat knows whose cards it is shown), so the
expression may read only what every seat sees: no ``owner`` or ``hidden`` variable, and of a
zone that is not ``public`` only how many cards it holds (``count``, ``any`` of the zone);
otherwise whether a seat is shown a zone would tell what it may not see.
"""

from __future__ import annotations

from .. import ir
from ..show import expr_text
from ..visitor import NodeVisitor
from .expressions import ExprChecker
from .sight import secret_reads
from .symbols import Context
from .types import ANY, describe

# The types a 'seen by' may have: seats (a number is a seat), lists of them, none.
SEERS = ("player", "int", "none", "list:player", "list:int", ANY, f"list:{ANY}")
COUNTS = ("count", "any")  # of one zone: how many cards, never which


class _ZoneReads(NodeVisitor):
    """The zones an expression reads the cards of (not only their number), that are not
    ``public``: ``(expression, zone)``."""

    def __init__(self, ctx: Context) -> None:
        self.res, self.zones = ctx.out.res, ctx.sym.zones
        self.found: list[tuple[ir.Expr, ir.ZoneDecl]] = []

    def visit_Call(self, e: ir.Call) -> None:
        if e.func in COUNTS and len(e.args) == 1:
            arg = e.args[0]
            base = arg.obj if isinstance(arg, ir.Index) else arg
            if isinstance(base, ir.Name) and self.res.get(id(base), ("", ""))[0] in (
                    "zone", "pzone"):
                if isinstance(arg, ir.Index):
                    self.visit(arg.key)
                return
        self.generic_visit(e)

    def visit_Name(self, e: ir.Name) -> None:
        kind, name = self.res.get(id(e), ("", ""))
        zone = self.zones.get(name) if kind in ("zone", "pzone") else None
        if zone is not None and zone.visibility != "public":
            self.found.append((e, zone))


def check_seen_by(ctx: Context, exprs: ExprChecker) -> None:
    """Type each zone's ``seen by`` (a seat, a list of seats or none; ``player`` bound to
    the owner of a per-player zone) and report what it may not read (see the module)."""
    for z in ctx.r.zones:
        e = z.seen_by
        if e is None:
            continue
        ctx.scopes.append({"player": "player"} if z.per_player else {})
        with ctx.only_reading(f"'seen by' of zone '{z.name}'"):
            t = exprs.expr(e)
        ctx.scopes.pop()
        if t not in SEERS:
            ctx.error(f"'seen by' gives the seats that see zone '{z.name}': a seat, a list "
                      f"of seats or none, not {describe(t)}", e.span)
            continue
        for read in secret_reads(e, ctx.out)[:1]:
            ctx.error(f"'seen by' of zone '{z.name}' reads '{read.text}', which is "
                      f"{read.var.visibility}: every seat knows who sees a zone, so it may "
                      "read only what every seat sees", e.span)
        reads = _ZoneReads(ctx)
        reads.visit(e)
        for at, zone in reads.found[:1]:
            ctx.error(f"'seen by' of zone '{z.name}' reads the cards of {expr_text(at)} "
                      f"({zone.visibility}): every seat knows who sees a zone, so it may "
                      "read only what every seat sees (how many cards a zone holds: "
                      "count)", at.span)
