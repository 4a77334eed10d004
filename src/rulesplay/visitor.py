"""Visitors over the IR: ``visit_<NodeClass>`` methods, found by the node's class name.

:class:`NodeVisitor` is Jinja's: a node without a method of its own is walked by
:meth:`~NodeVisitor.generic_visit` (its children, from :meth:`rulesplay.ir.Node.children`),
so an analysis names only the nodes it cares about. :class:`Stage` is for a stage of the
pipeline (the validator, the constant evaluator, the code generator, the printer, ``diff``):
it handles every node below the base class it ``handles`` (:class:`~rulesplay.ir.ExprNode`,
:class:`~rulesplay.ir.StmtNode`...) and has no catch-all, so a node class without its method
is an internal error here and a failing test (``tests/test_stages.py``), never a silently
skipped construct.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, ClassVar, TypeVar

from . import ir

__all__ = ["NodeVisitor", "Stage", "nodes_of"]

N = TypeVar("N", bound=ir.Node)


class NodeVisitor:
    """Calls ``visit_<NodeClass>(node, *args, **kwargs)`` for a node, or
    :meth:`generic_visit` when the class has no such method."""

    # Per visitor class: node class -> the function that visits it (found once).
    _methods: ClassVar[dict[type, Callable[..., Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._methods = {}

    def visit(self, node: ir.Node, *args: Any, **kwargs: Any) -> Any:
        """Visit ``node`` with its ``visit_<NodeClass>`` method (extra arguments passed on)
        and return what the method returns."""
        kind = type(node)
        method = self._methods.get(kind)
        if method is None:
            method = self._methods[kind] = self.method_for(kind)
        return method(self, node, *args, **kwargs)

    @classmethod
    def method_for(cls, kind: type) -> Callable[..., Any]:
        """The function visiting nodes of class ``kind``: ``visit_<kind name>``, else
        :meth:`generic_visit`."""
        return getattr(cls, f"visit_{kind.__name__}", None) or cls.generic_visit

    def generic_visit(self, node: ir.Node, *args: Any, **kwargs: Any) -> Any:
        """Visit every child of ``node`` in field order (arguments passed on); return None."""
        for child in node.children():
            self.visit(child, *args, **kwargs)


class Stage(NodeVisitor):
    """A pipeline stage: a ``visit_<NodeClass>`` method for every node class below
    ``handles``, and no fallback for them.

    Attributes:
        handles: the base classes (e.g. ``(ir.ExprNode,)``) of the nodes this stage must
            visit, each with its own method (``tests/test_stages.py`` checks them all).

    :meth:`generic_visit` (for a method that wants it) visits the handled nodes among the
    descendants of a node: the statements of a statement's blocks, say, or the expressions
    of a declaration, walking through the nodes between them.
    """

    handles: ClassVar[tuple[type[ir.Node], ...]] = ()

    @classmethod
    def method_for(cls, kind: type) -> Callable[..., Any]:
        """``visit_<kind name>``.

        Raises:
            TypeError: the stage has no method for ``kind`` (a bug: every node class it
                handles needs one; a class it does not handle is not its to visit).
        """
        method: Callable[..., Any] | None = getattr(cls, f"visit_{kind.__name__}", None)
        if method is None:
            raise TypeError(f"{cls.__name__} has no visit_{kind.__name__}")
        return method

    @classmethod
    def missing(cls) -> list[str]:
        """Names of the node classes below :attr:`handles` that have no visit method."""
        return [kind.__name__ for base in cls.handles for kind in ir.kinds(base)
                if getattr(cls, f"visit_{kind.__name__}", None) is None]

    def generic_visit(self, node: ir.Node, *args: Any, **kwargs: Any) -> Any:
        """Visit each handled node below ``node`` (the outermost ones: a handled node's
        own children are its method's business), arguments passed on; return None."""
        for child in node.children():
            if isinstance(child, self.handles):
                self.visit(child, *args, **kwargs)
            else:
                self.generic_visit(child, *args, **kwargs)


def nodes_of(tree: Any, kind: type[N]) -> Iterator[N]:
    """Every node of class ``kind`` (or a subclass) in ``tree`` (a node, or lists and dicts
    of nodes), in :func:`rulesplay.ir.walk` order."""
    for node in ir.walk(tree):
        if isinstance(node, kind):
            yield node
