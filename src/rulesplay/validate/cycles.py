"""Abilities that may work themselves out from themselves (issue 14 item 4).

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


def _say_stat(path: list[str]) -> str:
    way = " -> ".join(path)
    return (f"'modify {path[0]}' reads a bonus that needs '{path[0]}' again ({way}): each "
            "card's value then depends on the cards it counts, which never ends unless "
            "they run out")


def _say_step(path: list[str]) -> str:
    way = " -> ".join(path)
    return (f"the step '{path[0]}' triggers itself ({way}): it runs again from inside "
            "itself until the cards it triggers run out, or the step limit stops the game")
