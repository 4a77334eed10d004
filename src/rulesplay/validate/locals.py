"""Where the value of each local name comes from: the places that bind it, and an order in
which to work out a fact about every name from the names its value is worked out from.

A local name has one slot in the engine wherever it is bound, so an analysis that follows a
name takes all the places that bind it together (conservative).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .. import ir
from .symbols import Checked
from .types import elem_type


@dataclass(frozen=True)
class Binder:
    """A place that gives a local name its value: the expressions the value is worked out
    from, and for a secret choice the chooser as written."""

    exprs: tuple[ir.Expr, ...]
    secret_of: ir.Expr | None = None


def binders(ruleset: ir.Ruleset, checked: Checked) -> dict[str, list[Binder]]:
    """For each local name, every place that binds it: ``let`` (its value), ``for each x
    in`` (the collection), a choice (the cards of a choice of cards; nothing for a choice of
    values, which every seat is told, but its chooser when it is secret), a trick's card (the
    cards played from) and ``this`` (each ``trigger``'s cards).

    Args:
        ruleset: the checked ruleset.
        checked: its validator result (the choices' domains typed in ``types``).
    """
    out: dict[str, list[Binder]] = {}

    def add(name: str, exprs: tuple[ir.Expr, ...], secret_of: ir.Expr | None = None) -> None:
        out.setdefault(name, []).append(Binder(exprs, secret_of))

    for node in ir.walk(ruleset):
        if isinstance(node, ir.Let):
            add(node.name, (node.value,))
        elif isinstance(node, ir.ForEachIn):
            add(node.var, (node.coll,))
        elif isinstance(node, ir.Choose):
            cards = elem_type(checked.types.get(id(node.domain), "")) == "card"
            add(node.name, (node.domain,) if cards else (),
                node.player if node.secret else None)
            for flag in node.skip_flags():  # which skip was taken: as open as the choice
                add(flag, (), node.player if node.secret else None)
        elif isinstance(node, ir.Trick):
            add(node.card_var, (node.source,))
        elif isinstance(node, ir.Trigger):
            add("this", (node.cards,))
    return out


def dependency_order(names: Iterable[str], refs: Callable[[str], Iterable[str]]
                     ) -> list[list[str]]:
    """The names (and every name they reach through ``refs``) in groups that reach each
    other, each group after every group it reaches: the strongly connected components of
    the graph, by Tarjan's algorithm, without recursion (a long chain of ``let`` names is
    no deep recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in names:
        if root in index:
            continue
        work = [(root, iter(refs(root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for ref in edges:
                if ref not in index:
                    index[ref] = low[ref] = len(index)
                    stack.append(ref)
                    on_stack.add(ref)
                    work.append((ref, iter(refs(ref))))
                    break
                if ref in on_stack:
                    low[node] = min(low[node], index[ref])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    groups.append(group)
    return groups
