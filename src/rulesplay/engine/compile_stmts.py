"""The statement compiler: checked IR statements become effects and run-time nodes.

A simple statement becomes an effect that its block runs inline (see the ``compile_*``
functions of :mod:`rulesplay.engine.effects`); a compound one (a loop, ``do``, ``trigger``,
a trick, an ``if`` around a decision) becomes a node appended to the program's node list,
whose index frames and saves refer to. Node indices are numbered as nodes are made, in a
fixed order: a compound statement takes its index before the nodes of its blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import ir
from ..visitor import NodeVisitor, Stage
from .choices import ChooseNode
from .effects import (
    BreakNode,
    DoNode,
    Effect,
    ForEachInNode,
    ForEachNode,
    IfNode,
    Node,
    Nop,
    OrderedForEachNode,
    RepeatNode,
    TriggerNode,
    compile_assign,
    compile_deal,
    compile_let,
    compile_move,
    compile_say,
    compile_shuffle,
    end_game,
)
from .tricks import TrickNode

if TYPE_CHECKING:
    from .game import Program
    from .state import State

# What compiling a statement gives: an effect to run inline, or a node that opens a frame.
Compiled = tuple[Effect | None, Node | None]


class StmtCompiler(Stage):
    """Compiles the statements of one program: ``visit_<Node>(st)`` returns ``(effect,
    None)`` for a statement its block runs inline, or ``(None, node)`` for one that opens a
    frame, the node appended to ``prog.nodes``.

    Args:
        prog: the program being built (its layout, expression compiler, rules, ability
            blocks and node list).
    """

    handles = (ir.StmtNode,)

    def __init__(self, prog: Program) -> None:
        self.prog = prog

    def frame_node(self, st: ir.Stmt, build: Callable[[int], Node]) -> Compiled:
        """A node for ``st``: its index is taken first, then ``build(index)`` makes it (and
        the nodes of its blocks, which come after it)."""
        nodes = self.prog.nodes
        index = len(nodes)
        nodes.append(None)
        node = build(index)
        node.span = st.span
        nodes[index] = node
        return None, node

    # ------------------------------------------------------------ effects
    def visit_Assign(self, st: ir.Assign) -> Compiled:
        return compile_assign(self.prog, st), None

    def visit_Let(self, st: ir.Let) -> Compiled:
        return compile_let(self.prog, st), None

    def visit_Move(self, st: ir.Move) -> Compiled:
        return compile_move(self.prog, st), None

    def visit_Shuffle(self, st: ir.Shuffle) -> Compiled:
        return compile_shuffle(self.prog, st), None

    def visit_Deal(self, st: ir.Deal) -> Compiled:
        return compile_deal(self.prog, st), None

    def visit_Say(self, st: ir.Say) -> Compiled:
        return compile_say(self.prog, st), None

    def visit_EndGame(self, st: ir.EndGame) -> Compiled:
        return end_game, None

    def visit_Choose(self, st: ir.Choose) -> Compiled:
        """A decision node; its effect asks for the decision inline."""
        prog = self.prog
        choose = prog.add(ChooseNode(prog, len(prog.nodes), st))
        return choose.effect, None

    # ------------------------------------------------------------ control
    def visit_If(self, st: ir.If) -> Compiled:
        """An ``if`` whose branches only run effects is one effect; any other opens a
        frame for the branch taken."""
        if _Straight().visit(st):
            return self.inline_if(st), None
        prog = self.prog

        def build(index: int) -> Node:
            bodies = [prog.block(b) for b in st.bodies]
            if st.orelse:
                bodies.append(prog.block(st.orelse))
            return IfNode(index, [prog.compiler.expr(t) for t in st.tests],
                          bodies)  # type: ignore[arg-type]
        return self.frame_node(st, build)

    def inline_if(self, st: ir.If) -> Effect:
        """An ``if`` whose branches only hold effects runs as one effect (no frames)."""
        tests = [self.prog.compiler.expr(t) for t in st.tests]
        bodies = [[self.visit(x)[0] for x in body] for body in [*st.bodies, st.orelse]]

        def run_if(s: State) -> None:
            chosen = bodies[-1]
            for test, body in zip(tests, bodies, strict=False):
                if test(s, None):
                    chosen = body
                    break
            for effect in chosen:
                effect(s)
                if s.terminal:
                    return
        return run_if

    def visit_Repeat(self, st: ir.Repeat) -> Compiled:
        prog, comp = self.prog, self.prog.compiler
        return self.frame_node(st, lambda index: RepeatNode(
            index, comp.expr(st.count) if st.count is not None else None,
            comp.expr(st.test) if st.test is not None else None,
            prog.layout.local(st.var) if st.var else None, prog.block(st.body)))

    def visit_ForEachPlayer(self, st: ir.ForEachPlayer) -> Compiled:
        prog, comp, lay = self.prog, self.prog.compiler, self.prog.layout
        start = st.start
        if st.order is not None:
            order = st.order
            return self.frame_node(st, lambda index: OrderedForEachNode(
                index, comp.expr(order), comp.expr(start) if start is not None else None,
                lay.local(st.var), lay.n, prog.block(st.body)))
        return self.frame_node(st, lambda index: ForEachNode(
            index, comp.expr(start) if start is not None else None, lay.local(st.var),
            st.clockwise, lay.n, prog.block(st.body)))

    def visit_ForEachIn(self, st: ir.ForEachIn) -> Compiled:
        prog = self.prog
        return self.frame_node(st, lambda index: ForEachInNode(
            index, prog.compiler.coll(st.coll), prog.layout.local(st.var),
            prog.block(st.body)))

    def visit_Break(self, st: ir.Break) -> Compiled:
        prog = self.prog
        return self.frame_node(st, lambda index: BreakNode(
            index, prog.add(Nop(len(prog.nodes)))))

    def visit_Do(self, st: ir.Do) -> Compiled:
        return self.frame_node(st, lambda index: DoNode(index, self.prog.rules[st.name]))

    def visit_Trigger(self, st: ir.Trigger) -> Compiled:
        prog = self.prog
        return self.frame_node(st, lambda index: TriggerNode(
            index, prog.compiler.coll(st.cards), prog.step_blocks.get(st.step, {}),
            prog.this_slot))

    def visit_Trick(self, st: ir.Trick) -> Compiled:
        prog = self.prog
        return self.frame_node(st, lambda index: TrickNode(
            prog, index, st, prog.block(st.after_play) if st.after_play else None,
            prog.block(st.after_trick) if st.after_trick else None))


class _Straight(NodeVisitor):
    """Whether a statement only runs effects: no decision, loop or trick inside it (an
    ``if`` is straight when every statement of its branches is)."""

    def visit_If(self, st: ir.If) -> bool:
        return all(self.visit(x) for body in [*st.bodies, st.orelse] for x in body)

    def _effect(self, st: ir.Stmt) -> bool:
        return True

    visit_Assign = visit_Let = visit_Move = visit_Shuffle = visit_Deal = _effect
    visit_Say = visit_EndGame = _effect

    def generic_visit(self, node: ir.Node, *args: Any, **kwargs: Any) -> bool:
        return False  # a decision, a loop, a trick, 'do', 'trigger', 'break'
