"""What the interpreter holds while a seat decides: nothing worked out from what that seat
cannot see.

While a loop runs, its frame keeps what the loop started with (``for each x in COLL`` its
list, ``trigger STEP for CARDS`` its cards, ``repeat N times`` its N, ``for each player p
ordered by KEY`` the seats in order), and a ``let`` name keeps its value to the end of its
block. A bot's sample of a seat copies them from the true state, re-pointing only card ids at
the cards the sample deals (:func:`rulesplay.engine.observe.repoint_cards`). So what is held
while a seat decides must be something that seat may know (by the rule of :mod:`.unseen`),
or its bot would decide from the truth: the values of hidden cards a loop has still to
visit, how many of them there are, or their order.

Cards taken from a zone whole or by position (``for each card c in deck``, ``first(3,
deck)``, ``let c = top(deck)``) are fine: a sample re-points them, and how many there are
is public (so long as the name they are given holds nothing but cards anywhere: a name
has one slot, re-pointed only when every value it is given is cards). Their values
(``values(deck, it.suit)``), a filter on them (``deck where it.rank > 5``) or a count
worked out from them, held while a seat that cannot see them decides, is an error.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator

from .. import ir
from ..show import expr_text
from ..visitor import nodes_of
from .symbols import Context
from .unseen import Read, Sight

Decider = tuple[ir.Expr, ir.Node]  # the deciding seat's expression, and the decision


class Deciders:
    """The decisions a list of statements may wait on, with ``do`` and ``trigger`` followed
    into rules and abilities."""

    def __init__(self, ruleset: ir.Ruleset) -> None:
        self.rules = {r.name: r.body for r in ruleset.rules}
        self.steps: dict[str, list[list[ir.Stmt]]] = {}
        for ab in ruleset.abilities:
            for step, body in ab.steps.items():
                self.steps.setdefault(step, []).append(body)
        self.memo: dict[str, list[Decider]] = {}

    def of(self, stmts: list[ir.Stmt]) -> list[Decider]:
        """Every decision ``stmts`` may wait on, in the order written."""
        out: list[Decider] = []
        for node in ir.walk(stmts):
            if isinstance(node, ir.Choose):
                out.append((node.player, node))
            elif isinstance(node, ir.Trick):
                out.append((node.chosen_by or ir.Name(id="player", span=node.span), node))
            elif isinstance(node, ir.Do):
                out += self._named(f"rule {node.name}", [self.rules.get(node.name, [])])
            elif isinstance(node, ir.Trigger):
                out += self._named(f"step {node.step}", self.steps.get(node.step, []))
        return out

    def _named(self, key: str, bodies: list[list[ir.Stmt]]) -> list[Decider]:
        if key not in self.memo:
            self.memo[key] = []  # a rule that runs itself is refused elsewhere
            self.memo[key] = [d for body in bodies for d in self.of(body)]
        return self.memo[key]


def _blocks(ruleset: ir.Ruleset) -> Iterator[list[ir.Stmt]]:
    """Every list of statements: phase, rule and ability bodies and every nested block."""
    for node in ir.walk(ruleset):
        if isinstance(node, ir.PhaseDecl | ir.RuleDecl):
            yield node.body
        elif isinstance(node, ir.AbilityDecl):
            yield from node.steps.values()
        elif isinstance(node, ir.If):
            yield from [*node.bodies, node.orelse]
        elif isinstance(node, ir.Repeat | ir.ForEachPlayer | ir.ForEachIn):
            yield node.body
        elif isinstance(node, ir.Trick):
            yield from (node.before_play, node.after_play, node.after_trick)


def held_values(ctx: Context, sight: Sight) -> None:
    """Report every loop frame and ``let`` name that holds, while a seat decides,
    something worked out from what that seat cannot see (the module's rule)."""
    deciders = Deciders(ctx.r)
    for node in ir.walk(ctx.r):
        if isinstance(node, ir.ForEachIn):
            _check(ctx, sight, "this loop's list", node.coll, deciders.of(node.body),
                   node.var)
        elif isinstance(node, ir.Trigger):
            _check(ctx, sight, "the cards this 'trigger' runs", node.cards,
                   deciders.of([node]), "this")
        elif isinstance(node, ir.Repeat) and node.count is not None:
            _check(ctx, sight, "the count of this 'repeat'", node.count,
                   deciders.of(node.body))
        elif isinstance(node, ir.ForEachPlayer) and node.order is not None:
            _check(ctx, sight, "the order of this loop", node.order, deciders.of(node.body),
                   others=frozenset({node.var}))
    for block in _blocks(ctx.r):
        if any(isinstance(st, ir.Let) for st in block):
            _lets(ctx, sight, block, deciders)


def _lets(ctx: Context, sight: Sight, block: list[ir.Stmt], deciders: Deciders) -> None:
    """Check each ``let`` of ``block``: its value is kept across the decisions of the
    statements after it, up to the last that reads its name (for each seat as written, its
    first such decision)."""
    last_read: dict[str, int] = {}
    for j, st in enumerate(block):
        for n in nodes_of(st, ir.Name):
            last_read[n.id] = j
    at: dict[tuple[str, bool], tuple[list[int], list[Decider]]] = {}  # seat -> decisions
    for j, st in enumerate(block):
        for d in deciders.of([st]):
            places, found = at.setdefault(_seat(d), ([], []))
            if not places or places[-1] != j:
                places.append(j)
                found.append(d)
    for i, st in enumerate(block):
        if isinstance(st, ir.Let):
            last = last_read.get(st.name, i)
            kept = [found[k] for places, found in at.values()
                    if (k := bisect_right(places, i)) < len(places) and places[k] <= last]
            _check(ctx, sight, f"'{st.name}'", st.value, kept, st.name)


def _seat(d: Decider) -> tuple[str, bool]:
    """A decision's seat as written (a trick's: every player)."""
    return expr_text(d[0]), isinstance(d[1], ir.Trick)


def _check(ctx: Context, sight: Sight, what: str, held: ir.Expr, waits: list[Decider],
           holder: str | None = None, others: frozenset[str] = frozenset()) -> None:
    """Report ``held`` (``what`` it is) when a decision of ``waits`` is made by a seat
    that may not see what it reads. Cards taken by position are fine when the local name
    ``holder`` they are given to holds only cards (a sample re-points it; a name bound to
    other values elsewhere shares their slot and is not). Each seat as written is checked
    once, at its first decision."""
    if not waits:
        return
    taken = sight.by_position(held) if holder is not None else None
    renamed = taken is not None and holder is not None and not sight.repointed(holder)
    parts = taken[2] if taken is not None and not renamed else [held]
    first = {_seat(d): d for d in reversed(waits)}
    for chooser, decision in reversed(first.values()):
        reads = [r for part in parts
                 for r in sight.reads(part, chooser, others, True, holder)]
        if reads:
            hint = f"'{holder}' is also bound to other values, so a sample cannot " \
                "re-point it at the cards it deals: give it a name of its own" if renamed \
                else "work it out from what that seat sees, or take the cards themselves " \
                "by position (a zone, top, first...)"
            ctx.error(_message(what, reads[0], chooser, decision, hint), reads[0].expr.span)
            return


def _message(what: str, read: Read, chooser: ir.Expr, decision: ir.Node, hint: str) -> str:
    who = "the player" if isinstance(decision, ir.Trick) else f"'{expr_text(chooser)}'"
    kind = "plays in a trick" if isinstance(decision, ir.Trick) else "decides"
    return (f"{what} is worked out from {read.text}, which {who} cannot see ({read.why}), "
            f"and is kept while {who} {kind} (line {decision.span.line}), so a bot in that "
            f"seat would decide from it: {hint}")

