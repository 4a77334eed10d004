"""Every stage handles every node kind: a forgotten stage fails here, not in a user's game.

Node classes are enumerated from ``ir.py`` by their base class (:func:`rulesplay.ir.kinds`):
each expression class needs a ``visit_<Class>`` method in every expression stage (validator,
constant evaluator, code generator, printer), each statement class one in every statement
stage (validator, statement compiler, printer, ``diff``), each declaration class one in the
printer. No stage has a fallback (:class:`rulesplay.visitor.Stage`), and every builtin
function is one complete row of the builtins table. ``docs/ADDING_A_CONSTRUCT.md`` lists
what else a new construct touches.
"""

from __future__ import annotations

import string
from typing import Any, get_args

import pytest

from rulesplay import ir
from rulesplay.diff import _Constraints
from rulesplay.engine.codegen import ExprCompiler
from rulesplay.engine.compile_stmts import StmtCompiler
from rulesplay.show import DeclPrinter, ExprPrinter, StmtPrinter
from rulesplay.validate.constants import ConstEval
from rulesplay.validate.expressions import ExprChecker
from rulesplay.validate.functions import BUILTINS
from rulesplay.validate.statements import StmtChecker
from rulesplay.visitor import Stage

EXPRESSION_STAGES = [ExprChecker, ConstEval, ExprCompiler, ExprPrinter]
STATEMENT_STAGES = [StmtChecker, StmtCompiler, StmtPrinter, _Constraints]
DECLARATION_STAGES = [DeclPrinter]


def _union(alias: Any) -> set[type]:
    """The classes of an ``Annotated[A | B | ..., Field(...)]`` union of ``ir.py``."""
    return set(get_args(get_args(alias)[0]))


def test_the_node_kinds_are_found_from_their_base_classes() -> None:
    assert len(ir.kinds(ir.ExprNode)) >= 18 and len(ir.kinds(ir.StmtNode)) >= 16
    assert ir.Trick in ir.kinds(ir.StmtNode) and ir.Num in ir.kinds(ir.ExprNode)
    assert ir.PhaseDecl in ir.kinds(ir.DeclNode) and ir.Labels not in ir.kinds(ir.ExprNode)


def test_each_union_holds_exactly_the_nodes_of_its_base() -> None:
    """A node class derives from ExprNode if and only if it is in ``ir.Expr`` (so fields
    typed ``Expr`` can hold it), and likewise for statements."""
    assert _union(ir.Expr) == set(ir.kinds(ir.ExprNode))
    assert _union(ir.Stmt) == set(ir.kinds(ir.StmtNode))


def test_each_declaration_kind_has_its_list_in_a_ruleset() -> None:
    lists = {get_args(info.annotation)[0] for info in ir.Ruleset.model_fields.values()
             if get_args(info.annotation)}
    assert set(ir.kinds(ir.DeclNode)) <= lists


@pytest.mark.parametrize("stage", EXPRESSION_STAGES, ids=lambda s: s.__qualname__)
def test_every_expression_stage_visits_every_expression(stage: type[Stage]) -> None:
    assert stage.handles == (ir.ExprNode,)
    assert stage.missing() == [], f"{stage.__qualname__} needs visit_ methods for these"


@pytest.mark.parametrize("stage", STATEMENT_STAGES, ids=lambda s: s.__qualname__)
def test_every_statement_stage_visits_every_statement(stage: type[Stage]) -> None:
    assert stage.handles == (ir.StmtNode,)
    assert stage.missing() == [], f"{stage.__qualname__} needs visit_ methods for these"


@pytest.mark.parametrize("stage", DECLARATION_STAGES, ids=lambda s: s.__qualname__)
def test_every_declaration_stage_visits_every_declaration(stage: type[Stage]) -> None:
    assert stage.handles == (ir.DeclNode,)
    assert stage.missing() == []


def test_a_stage_has_no_fallback() -> None:
    """A node kind a stage has no method for is an internal error, never skipped."""

    class Mystery(ir.ExprNode):
        pass

    with pytest.raises(TypeError, match="ExprPrinter has no visit_Mystery"):
        ExprPrinter().visit(Mystery())
    assert Stage.missing() == []


@pytest.mark.parametrize("name", list(BUILTINS))
def test_every_builtin_is_one_complete_row(name: str) -> None:
    """Arity, a code template for each number of arguments it takes, and templates naming
    only its arguments and the engine's run-time tables."""
    b = BUILTINS[name]
    lo, hi = b.arity
    assert 0 < lo <= hi
    assert {str(n) for n in range(lo, hi + 1)} <= set(b.code), "a template per arity"
    assert set(b.code) <= {*(str(n) for n in range(lo, hi + 1)), "numbers", "flags"}
    assert b.per_element is None or b.per_element < hi
    allowed = {f"{kind}{i}" for kind in "ac" for i in range(hi)} | {"owners", "sort_key",
                                                                   "stat", "this", "members"}
    for template in b.code.values():
        fields = {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}
        assert fields <= allowed, template
