"""Checks of the phase graph and of rules: every phase reachable and able to reach the end,
a way out of every phase, no rule that runs itself."""

from __future__ import annotations

from ..errors import did_you_mean
from ..phasegraph import can_end, phase_edges, reachable, reverse, rules_done, start_phase
from .symbols import Context


def graph_checks(c: Context) -> None:
    """Unknown start, phases without a way out, unreachable phases, no path to the end.

    Rules: the start phase exists; every phase has a ``next`` or can end the game, and its
    last ``next`` has no condition unless the phase can end the game; every phase is
    reachable from the start; the end is reachable, and from every reachable phase.
    """
    r = c.r
    if not r.phases:
        return
    start = start_phase(r)
    if start not in c.sym.phases:
        c.error(f"unknown start phase '{start}'" + did_you_mean(str(start), c.sym.phases),
                r.start_span if r.start_span.line else r.span)
        return
    if any(t.target != "end" and t.target not in c.sym.phases
           for p in r.phases for t in p.transitions):
        return  # the unknown phase is reported; the graph would only repeat it
    edges = phase_edges(r)
    for p in r.phases:
        if not edges[p.name]:
            c.error(f"phase '{p.name}' has no 'next' and never ends the game", p.span)
        elif p.transitions and p.transitions[-1].guard is not None and not can_end(p.body, r):
            c.error(f"the last 'next' of phase '{p.name}' has a condition; add an "
                    "unconditional 'next' so the phase always has a way out",
                    p.transitions[-1].span)
    seen = reachable(edges, start)
    for p in r.phases:
        if p.name not in seen:
            c.error(f"phase '{p.name}' cannot be reached from the start phase '{start}' (no "
                    f"reachable phase says 'next {p.name}')", p.span)
    if "end" not in seen:
        c.error(f"the game has no path to its end: no phase reachable from '{start}' says "
                "'next end' or 'end game'", c.sym.phases[start].span)
        return
    # Every reachable phase must still be able to reach the end.
    can_finish = reachable(reverse(edges), "end")
    for p in r.phases:
        if p.name in seen and p.name not in can_finish:
            c.error(f"once in phase '{p.name}' the game can never end", p.span)


def rule_cycles(c: Context) -> None:
    """``do`` must not call a rule from inside itself (that would never end)."""
    calls = {name: rules_done(rule.body) for name, rule in c.sym.rules.items()}
    for name, rule in c.sym.rules.items():
        seen, todo = set(), list(calls[name])
        while todo:
            nxt = todo.pop()
            if nxt == name:
                c.error(f"rule '{name}' runs itself (through 'do'); a rule may not, even "
                        "under an 'if' (a loop says it: 'repeat while')", rule.span)
                break
            if nxt not in seen and nxt in calls:
                seen.add(nxt)
                todo.extend(calls[nxt])
