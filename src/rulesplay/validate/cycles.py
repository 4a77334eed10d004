"""Abilities that may work themselves out from themselves, and chains of calls too deep to
follow (issue 14 item 4).

A ``modify power:`` that reads ``bonus(power, ...)`` makes each card's power depend on the
powers of the cards it counts, its own among them; a step block that says ``trigger STEP``
for its own step runs again from inside itself. Either may still end (the cards counted or
triggered may run out), so these are warnings; at run time a bonus that never ends stops
with a located error and a trigger that never ends meets the step limit.
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import ir
from ..errors import Span
from ..phasegraph import rules_done
from ..visitor import nodes_of
from .symbols import Context


def _cycle_from(start: str, edges: dict[str, list[tuple[str, Span]]]) -> list[str] | None:
    """A path of names from ``start`` back to itself along ``edges``, or None."""
    seen: set[str] = set()
    todo: list[tuple[str, list[str]]] = [(start, [start])]
    while todo:
        name, path = todo.pop()
        for nxt, _ in edges.get(name, []):
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                todo.append((nxt, [*path, nxt]))
    return None


def _bonus_reads(e: ir.Expr) -> Iterator[tuple[str, Span]]:
    for call in nodes_of(e, ir.Call):
        if call.func == "bonus" and call.args and isinstance(call.args[0], ir.Name):
            yield call.args[0].id, call.span


def _triggers(body: list[ir.Stmt], rules: dict[str, ir.RuleDecl],
              ) -> Iterator[tuple[str, Span]]:
    """The steps a block triggers, through the rules it runs with ``do`` too."""
    done: set[str] = set()
    blocks = [body]
    while blocks:
        block = blocks.pop()
        for t in nodes_of(block, ir.Trigger):
            yield t.step, t.span
        for name in rules_done(block) - done:
            done.add(name)
            if name in rules:
                blocks.append(rules[name].body)


def ability_cycles(c: Context) -> None:
    """Warn about a stat whose modifiers read its own bonus, and a step whose blocks trigger
    it again, each once, at the first read or trigger on the way round."""
    reads: dict[str, list[tuple[str, Span]]] = {}
    steps: dict[str, list[tuple[str, Span]]] = {}
    for ab in c.r.abilities:
        for stat, e in ab.modifies.items():
            reads.setdefault(stat, []).extend(_bonus_reads(e))
        for step, body in ab.steps.items():
            steps.setdefault(step, []).extend(_triggers(body, c.sym.rules))
    for edges, say in ((reads, _say_stat), (steps, _say_step)):
        warned: set[str] = set()
        for name in edges:
            path = _cycle_from(name, edges)
            if path is None or warned & set(path):
                continue
            warned.update(path)
            span = next(s for nxt, s in edges[name] if nxt == path[1])
            c.warn(say(path), span)


MAX_DEPTH = 50  # rules, steps and stats calling one another, at most this deep


def _longest(edges: dict[str, list[tuple[str, Span]]]) -> dict[str, int]:
    """For each node, the most links on a path from it along ``edges`` (a link that closes a
    cycle is not followed: cycles are reported apart). Iterative: a chain may be longer than
    Python's recursion allows."""
    depth: dict[str, int] = {}
    for root in edges:
        if root in depth:
            continue
        on_path: set[str] = {root}
        stack: list[tuple[str, int]] = [(root, 0)]
        while stack:
            node, i = stack[-1]
            succ = edges.get(node, [])
            if i < len(succ):
                stack[-1] = (node, i + 1)
                nxt = succ[i][0]
                if nxt not in depth and nxt not in on_path:
                    on_path.add(nxt)
                    stack.append((nxt, 0))
                continue
            depth[node] = max((1 + depth.get(n, 0) for n, _ in succ if n not in on_path
                               or n in depth), default=0)
            on_path.discard(node)
            stack.pop()
    return depth


def call_depths(c: Context) -> bool:
    """Refuse a chain of ``do`` rules and ``trigger`` steps, or of stats whose modifiers
    read the bonus of the next, more than :data:`MAX_DEPTH` links long (at its first link):
    the checks and both engines follow such chains, and a game never needs one so deep.
    Returns whether one was refused."""
    calls: dict[str, list[tuple[str, Span]]] = {}

    def links(body: list[ir.Stmt]) -> list[tuple[str, Span]]:
        return [(f"rule {d.name}", d.span) for d in nodes_of(body, ir.Do)] + \
            [(f"step {t.step}", t.span) for t in nodes_of(body, ir.Trigger)]

    for rule in c.r.rules:
        calls.setdefault(f"rule {rule.name}", []).extend(links(rule.body))
    reads: dict[str, list[tuple[str, Span]]] = {}
    for ab in c.r.abilities:
        for step, body in ab.steps.items():
            calls.setdefault(f"step {step}", []).extend(links(body))
        for stat, e in ab.modifies.items():
            reads.setdefault(stat, []).extend(_bonus_reads(e))
    refused = False
    for edges, what in ((calls, "rules and steps run one another ('do', 'trigger')"),
                        (reads, "stats read one another's bonus")):
        depth = _longest(edges)
        deepest = max(depth, key=lambda n: depth[n], default=None)
        if deepest is not None and depth[deepest] > MAX_DEPTH:
            span = next(s for n, s in edges[deepest] if depth.get(n, 0) == depth[deepest] - 1)
            c.error(f"{what} in a chain {depth[deepest]} deep from {deepest}; a chain may be "
                    f"at most {MAX_DEPTH} deep", span)
            refused = True
    return refused


def _say_stat(path: list[str]) -> str:
    way = " -> ".join(path)
    return (f"'modify {path[0]}' reads a bonus that needs '{path[0]}' again ({way}): each "
            "card's value then depends on the cards it counts, which never ends unless "
            "they run out")


def _say_step(path: list[str]) -> str:
    way = " -> ".join(path)
    return (f"the step '{path[0]}' triggers itself ({way}): it runs again from inside "
            "itself until the cards it triggers run out, or the step limit stops the game")
