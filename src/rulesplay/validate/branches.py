"""Which statement runs while a seat decides: never chosen by what that seat cannot see.

A bot's sample of a seat deals the cards it cannot see anew and conceals what it may not
know, but it keeps the interpreter where the true game is: inside the branch an ``if`` took,
inside a ``repeat while`` whose test held. So a decision nested in an ``if`` or ``elif``
(any branch, the ``else`` too, through ``do RULE``, ``trigger`` and a trick's ``after play``
and ``after trick`` blocks), in a ``repeat while``, or in a phase entered by a ``next PHASE
if TEST`` tells its seat's bot how the tests
that led there came out. A test read there must be something the deciding seat sees, by
the one rule of :mod:`.unseen`; otherwise the decision is an error naming the test. The
test is worked out before the decision, so a seat written as the chooser is taken for the
chooser when written with local names, or with variables that nothing run between the two
sets (``repeat while any(hand[shop], ...): shop may choose ...``). How many cards a zone
holds (``count(Z)``, ``any(Z)``) is public; a test of a seat's own hand by that seat is
fine.

The same holds when the branch decides whether a decision happens at all (``if
top(deck).n > 3: 0 chooses ...`` with nothing in the ``else``): that the seat is asked
tells it the test held.
"""

from __future__ import annotations

from .. import ir
from ..show import expr_text
from ..visitor import nodes_of
from .held import Decider, Deciders
from .symbols import Context
from .unseen import Read, Sight

Guarded = list[tuple[list[ir.Expr], list[ir.Stmt]]]  # blocks, each with its tests


def _guarded(node: ir.Node, phases: dict[str, ir.PhaseDecl]) -> Guarded:
    """The blocks ``node`` runs by a test, each with the tests that decide it runs: an
    ``if``'s branch by its own test and those before it, its ``else`` by all of them, a
    ``repeat while``'s body by its test (a ``for each player ... until``'s by its), the
    body of a phase that a phase goes on to by the guards of its ``next`` lines up to that
    one."""
    if isinstance(node, ir.If):
        out = [(node.tests[:k + 1], body) for k, body in enumerate(node.bodies)]
        return [*out, (node.tests, node.orelse)]
    if isinstance(node, ir.Repeat) and node.test is not None:
        return [([node.test], node.body)]
    if isinstance(node, ir.ForEachPlayer) and node.until is not None:
        return [([node.until], node.body)]
    if isinstance(node, ir.PhaseDecl) and node.transitions:
        return _next_phases(node, phases)
    return []


def _next_phases(node: ir.PhaseDecl, phases: dict[str, ir.PhaseDecl]) -> Guarded:
    """The phases ``node`` goes on to, each with the guards that decide it (its own and
    those tried before it)."""
    out: Guarded = []
    guards: list[ir.Expr] = []
    for tr in node.transitions:
        if tr.guard is not None:
            guards.append(tr.guard)
        target = phases.get(tr.target)
        if target is not None:
            out.append((guards[:], target.body))
    return out


def hidden_branches(ctx: Context, sight: Sight) -> None:
    """Report each decision reached by a test that reads what its seat cannot see (the
    module's rule), once, at the decision, for the outermost such test."""
    deciders = Deciders(ctx.r)
    phases = {p.name: p for p in ctx.r.phases}
    reported: set[int] = set()
    for node in ir.walk(ctx.r):
        for tests, body in _guarded(node, phases):
            found = deciders.of(body)
            changed = _assigned(body, deciders) if found else set()
            for chooser, decision in found:
                if id(decision) in reported:
                    continue
                earlier = any(n.id in changed for n in nodes_of(chooser, ir.Name))
                read = next((r for t in tests
                             for r in sight.reads(t, chooser, frozenset(), earlier)), None)
                if read is not None:
                    reported.add(id(decision))
                    ctx.error(_message(node, read, (chooser, decision)), decision.span)


def _assigned(body: list[ir.Stmt], deciders: Deciders, seen: set[str] | None = None
              ) -> set[str]:
    """The names ``body`` may set (``x = ...``, ``x[p] += ...``), following ``do`` and
    ``trigger`` into rules and abilities."""
    seen = set() if seen is None else seen
    out: set[str] = set()
    for node in ir.walk(body):
        if isinstance(node, ir.Assign):
            target = node.target.obj if isinstance(node.target, ir.Index) else node.target
            if isinstance(target, ir.Name):
                out.add(target.id)
        elif isinstance(node, ir.Do | ir.Trigger):
            key = f"rule {node.name}" if isinstance(node, ir.Do) else f"step {node.step}"
            if key not in seen:
                seen.add(key)
                bodies = [deciders.rules.get(node.name, [])] if isinstance(node, ir.Do) \
                    else deciders.steps.get(node.step, [])
                for b in bodies:
                    out |= _assigned(b, deciders, seen)
    return out


def _message(node: ir.Node, read: Read, d: Decider) -> str:
    chooser, decision = d
    trick = isinstance(decision, ir.Trick)
    who = "the player" if trick else f"seat '{expr_text(chooser)}'"
    does = "plays in this trick" if trick else "decides here"
    what, goes = ("whether the loop on line", " goes on") \
        if isinstance(node, ir.Repeat | ir.ForEachPlayer) \
        else (f"which phase '{node.name}' goes on to at line", "") \
        if isinstance(node, ir.PhaseDecl) else ("the branch taken at line", "")
    return (f"{who} {does}, and {what} {read.expr.span.line}{goes} depends on {read.text}, "
            f"which {who} cannot see ({read.why}): bots would learn it from where the game "
            "is; test only what that seat sees, or decide outside the branch")


# No seat's expression: a read judged for it is judged for every seat.
_EVERY_SEAT = ir.Name(id="(every seat)")


def trick_flow_sight(ctx: Context, sight: Sight) -> None:
    """Report a trick's flow worked out from what some seat cannot see: every seat learns
    who sits a trick out (``sits out if``), who chooses each card (``chosen by``), how
    long a pass holds (``pass for this turn if``) and whether a trick ends early (the
    tests around an ``end trick`` in ``after play``), so
    these may read only what every seat sees (``player`` and the card just played stand
    for any seat and the card on the table)."""
    for node in ir.walk(ctx.r):
        if not isinstance(node, ir.Trick):
            continue
        parts: list[tuple[str, ir.Expr]] = []
        if node.sits_out is not None:
            parts.append(("who sits out this trick", node.sits_out))
        if node.chosen_by is not None:
            parts.append(("who chooses each card", node.chosen_by))
        if node.pass_turn_test is not None:
            parts.append(("how long a pass holds", node.pass_turn_test))
        for inner in ir.walk(node.after_play):
            if isinstance(inner, ir.If | ir.Repeat) and any(nodes_of(inner, ir.EndTrick)):
                tests = inner.tests if isinstance(inner, ir.If) else \
                    [inner.test] if inner.test is not None else []
                parts += [("whether the trick ends early", t) for t in tests]
        others = frozenset({"player", node.card_var})
        for what, e in parts:
            for r in sight.reads(e, _EVERY_SEAT, others)[:1]:
                ctx.error(f"{what} is told to every seat, but it depends on {r.text}, "
                          f"which not every seat sees ({r.why})", r.expr.span)

