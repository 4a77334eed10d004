"""The phase graph of a ruleset: where play starts and where each phase can go.

A phase goes to the targets of its ``next`` lines, and to ``end`` when running its
statements can say ``end game`` (directly, or in a rule they ``do`` or an ability block they
``trigger``). The validator checks this graph, ``rulesplay graph`` draws it and ``diff``
compares start phases; all of them read it from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from . import ir
from .visitor import NodeVisitor, nodes_of

__all__ = ["can_end", "phase_edges", "reachable", "reverse", "rules_done", "start_phase"]


def start_phase(r: ir.Ruleset) -> str | None:
    """The phase play starts in: ``start NAME``, else the first phase declared (None when
    the ruleset has no phase)."""
    return r.start or (r.phases[0].name if r.phases else None)


def phase_edges(r: ir.Ruleset) -> dict[str, list[str]]:
    """For each phase (by name, in declaration order), the phases it can move to: its
    ``next`` targets in order, then ``end`` when its statements can end the game and no
    ``next end`` says so already."""
    edges: dict[str, list[str]] = {}
    for p in r.phases:
        targets = [t.target for t in p.transitions]
        if can_end(p.body, r) and "end" not in targets:
            targets.append("end")
        edges[p.name] = targets
    return edges


def can_end(stmts: list[ir.Stmt], r: ir.Ruleset) -> bool:
    """Whether running ``stmts`` can end the game: an ``end game`` inside them at any depth,
    or inside a rule of ``r`` they ``do`` or an ability block they ``trigger`` (each rule and
    step followed once)."""
    ends = _Ends(r)
    return any(ends.visit(s) for s in stmts)


class _Ends(NodeVisitor):
    """Whether a node holds an ``end game`` (see :func:`can_end`)."""

    def __init__(self, r: ir.Ruleset) -> None:
        self.r = r
        self.seen: set[tuple[str, str]] = set()

    def visit_EndGame(self, node: ir.EndGame) -> bool:
        return True

    def visit_Do(self, node: ir.Do) -> bool:
        return self._follow(("rule", node.name),
                            (rule.body for rule in self.r.rules if rule.name == node.name))

    def visit_Trigger(self, node: ir.Trigger) -> bool:
        return self._follow(("at", node.step), (ab.steps[node.step] for ab in self.r.abilities
                                                if node.step in ab.steps))

    def _follow(self, key: tuple[str, str], bodies: Iterable[list[ir.Stmt]]) -> bool:
        if key in self.seen:
            return False
        self.seen.add(key)
        return any(self.visit(s) for body in bodies for s in body)

    def generic_visit(self, node: ir.Node, *args: Any, **kwargs: Any) -> bool:
        return any(self.visit(child) for child in node.children())


def rules_done(stmts: list[ir.Stmt]) -> set[str]:
    """The rules that ``do`` statements in ``stmts`` run (at any depth; not followed into
    the rules themselves)."""
    return {do.name for do in nodes_of(stmts, ir.Do)}


def reachable(edges: Mapping[str, Iterable[str]], start: str) -> set[str]:
    """Every node reachable from ``start`` along ``edges`` (node -> successors), ``start``
    included."""
    seen, todo = {start}, [start]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def reverse(edges: Mapping[str, Iterable[str]]) -> dict[str, set[str]]:
    """``edges`` turned around: node -> the nodes with an edge to it."""
    out: dict[str, set[str]] = {}
    for a, targets in edges.items():
        for b in targets:
            out.setdefault(b, set()).add(a)
    return out
