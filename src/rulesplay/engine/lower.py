"""The phase compiler: each phase, and each block that runs as a frame of its own (a card's
ability at a step, a trick's ``after play``/``after trick``), lowered into one generated
Python function (a :class:`~rulesplay.engine.routines.Routine`).

Straight-line statements become plain code; ``if`` and loops that hold no decision become
Python ``if``/``for``/``while``; ``do RULE`` is inlined (the validator refuses a rule that
runs itself). A statement that can stop the routine (a decision, a trick, ``trigger``, or
an ``if``/loop around one) is lowered into numbered resume points: the function is a state
machine ``while True: if pc == K: ...`` whose loop counters live in its frame, so the
position stays plain data.

Only slot numbers, resume points and generated names are written into the source; every
value of the ruleset (texts, tables, spans, compiled effects) is a constant ``kN`` of the
expression compiler's namespace (see :mod:`rulesplay.engine.codegen`), so no ruleset text
ever becomes code. A fault is located by the source line that was running (each line
keeps the span of the statement it belongs to).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from .. import events, ir
from ..errors import Span
from ..visitor import NodeVisitor
from .actions import ActionCache
from .budgets import STEP_BATCH, begin_phase, spend_steps
from .compile_effects import no_such_seat
from .compile_stmts import StmtCompiler, compile_choose
from .effects import (
    PhaseNode,
    end_game,
    move_cards,
    move_cards_at_random,
    ordered_seats,
)
from .lower_trick import TrickLowering
from .routine_code import Code
from .routines import Routine, fail, fixed_listing, no_resume, turn_order

if TYPE_CHECKING:
    from .codegen import ExprCompiler
    from .program import Program

ENGINES = ("compiled", "interpret")  # the default first


class _Stops(NodeVisitor):
    """Whether a statement can stop its routine: a decision, a trick or ``trigger``
    (which run as frames of their own), or a statement around one, or ``do`` of a rule
    that holds one."""

    def __init__(self, rules: dict[str, list[ir.Stmt]]) -> None:
        self.rules = rules
        self.memo: dict[str, bool] = {}

    def block(self, stmts: list[ir.Stmt]) -> bool:
        return any(self.visit(st) for st in stmts)

    def visit_If(self, st: ir.If) -> bool:
        return any(self.block(b) for b in [*st.bodies, st.orelse])

    def _loop(self, st: ir.Repeat | ir.ForEachPlayer | ir.ForEachIn) -> bool:
        return self.block(st.body)

    visit_Repeat = visit_ForEachPlayer = visit_ForEachIn = _loop

    def visit_Do(self, st: ir.Do) -> bool:
        if st.name not in self.memo:
            self.memo[st.name] = False  # rules never run themselves (validator)
            self.memo[st.name] = self.block(self.rules[st.name])
        return self.memo[st.name]

    def _stops(self, st: ir.Stmt) -> bool:
        return True

    visit_Choose = visit_Trick = visit_Trigger = visit_EndTrick = _stops

    def generic_visit(self, node: ir.Node, *args: Any, **kwargs: Any) -> bool:
        return False  # an effect or 'break'


class _Loop(NamedTuple):
    native: bool
    exit: int  # the resume point after a lowered loop (unused for a native one)


class Lowerer(TrickLowering):
    """Lowers the phases of one program (see the module docstring).

    Args:
        prog: the program, its frame nodes already compiled (tricks and choices are
            reused as decisions; the frame interpreter stays the reference).
        comp: its expression compiler (the generated code shares its namespace).
        sc: its statement compiler (the compiled effects and the trick nodes).
    """

    def __init__(self, prog: Program, comp: ExprCompiler, sc: StmtCompiler) -> None:
        self.prog, self.comp, self.sc, self.lay = prog, comp, sc, prog.layout
        self.rules = {r.name: r.body for r in prog.ruleset.rules}
        self.stops = _Stops(self.rules)
        self.routines: list[Routine] = []
        # Effects compiled once per statement object (a rule inlined twice shares them).
        self._effects: dict[int, Any] = {}
        # Block routines made but not generated yet (a trigger may name any ability).
        self._pending: list[tuple[Routine, list[ir.Stmt]]] = []
        self._step_routines: dict[str, dict[str | None, Routine]] | None = None
        self._trick_ends: list[int] = []  # where 'end trick' goes, innermost trick last

    # ------------------------------------------------------------ whole program
    def lower(self) -> None:
        """Lower every phase; the program then starts at the lowered start phase.

        Phase routines are appended to ``prog.nodes`` after the frame nodes, so a frame
        interpreter's node index keeps its meaning; ``prog.routine_of_phase`` maps a phase
        node index to its routine's."""
        prog = self.prog
        phase_routines = [self._new(f"phase {p.name}", p.span) for p in prog.phases]
        prog.routine_of_phase = {p.index: r.index for p, r in zip(prog.phases, phase_routines,
                                                                   strict=True)}
        for p, decl, r in zip(prog.phases, prog.ruleset.phases, phase_routines, strict=True):
            self._phase(r, p, decl)
        while self._pending:
            r, body = self._pending.pop(0)
            code = Code()
            code.span = r.span
            self.block(code, body, [])
            code.emit("s.stack.pop()")
            code.emit("return")
            self._finish(r, code)
        prog.start_phase = prog.routine_of_phase[prog.start_phase]

    def _new(self, name: str, span: Span) -> Routine:
        r = Routine(len(self.prog.nodes), name, span)
        self.prog.nodes.append(r)
        self.routines.append(r)
        return r

    def _block_routine(self, name: str, span: Span, body: list[ir.Stmt]) -> Routine:
        """A routine for a block run as a frame of its own (generated later)."""
        r = self._new(name, span)
        self._pending.append((r, body))
        return r

    def _phase(self, r: Routine, node: PhaseNode, decl: ir.PhaseDecl) -> None:
        code = Code()
        code.span = decl.span
        k = self.comp.const
        code.emit(f"{self.comp.const(begin_phase)}(s, {node.index})")
        code.emit("if s.events is not None:")
        code.emit(f"    s.events.append({k(events.phase)}({k(node.name)}, "
                  f"*{k(node.label)}.masked(s)))")
        self.block(code, decl.body, [])
        prog = self.prog
        for t in decl.transitions:
            code.indent = 0
            code.span = t.guard.span if t.guard is not None else decl.span
            if t.guard is not None:
                code.emit(f"if {self.comp.gen(t.guard)}:")
                code.indent = 1
            if t.target == "end":
                code.emit("s.stack.pop()")
                code.emit("s.finish()")
            else:
                target = prog.nodes[prog.routine_of_phase[prog.phase_index[t.target]]]
                code.emit(f"s.stack[-1] = {k(target.start)}(s)")
            code.emit("return")
            if t.guard is None:
                break
        else:
            code.indent = 0
            code.span = decl.span
            message = f"no 'next' of phase '{node.name}' applies"
            code.emit(f"raise {k(fail)}({k(message)}, {k(node.span)})")
        self._finish(r, code)

    def _finish(self, r: Routine, code: Code) -> None:
        fname = f"_routine{r.index}"
        src, spans = code.source(fname, f"raise {self.comp.const(no_resume)}(pc)")
        ns = self.comp.ns
        exec(compile(src, f"<rulesplay routine {r.index}>", "exec"), ns)  # noqa: S102 - slots and constant names only
        r.fn, r.source, r.spans, r.slots = ns.pop(fname), src, spans, code.slots
        r.card_slots, r.card_list_slots = tuple(code.card_slots), tuple(code.card_list_slots)

    # ------------------------------------------------------------ statements
    def block(self, code: Code, stmts: list[ir.Stmt], loops: list[_Loop]) -> None:
        """Emit ``stmts`` at the current point: plain code, or resume points for those
        that can stop the routine (only ever at a block's top level)."""
        if not stmts:
            code.emit("pass")
            return
        for st in stmts:
            saved = code.span
            code.span = st.span
            if self.stops.visit(st):
                assert code.indent == 0, "a statement that stops is never nested in plain code"
                getattr(self, f"stop_{type(st).__name__}")(code, st, loops)
            else:
                getattr(self, f"plain_{type(st).__name__}")(code, st, loops)
            code.span = saved

    def _nested(self, code: Code, stmts: list[ir.Stmt], loops: list[_Loop]) -> None:
        code.indent += 1
        self.block(code, stmts, loops)
        code.indent -= 1

    def _effect(self, st: ir.Stmt) -> str:
        """The constant naming the frame interpreter's compiled effect for ``st``."""
        if id(st) not in self._effects:
            effect, node = self.sc.visit(st)
            assert effect is not None and node is None, "only simple statements are effects"
            self._effects[id(st)] = effect
        return self.comp.const(self._effects[id(st)])

    def _count_step(self, code: Code) -> None:
        """A loop's turn counts as a step: a loop that never ends fails as it does in the
        frame interpreter."""
        code.emit("_steps += 1")
        code.emit(f"if not _steps & {STEP_BATCH - 1}:")
        # at the loop (s.span is the last statement that recorded one, maybe long before)
        k = self.comp.const
        code.emit(f"    {k(spend_steps)}(s, _steps, {k(code.span or Span())})")

    # ------------------------------------------------------------ plain statements
    def plain_Let(self, code: Code, st: ir.Let, loops: list[_Loop]) -> None:
        code.emit(f"s.loc[{self.lay.local(st.name)}] = {self.comp.gen_bounded(st.value)}")

    def plain_Assign(self, code: Code, st: ir.Assign, loops: list[_Loop]) -> None:
        """``x = v`` inline (what :func:`compile_assign` does, in its order: the seat or
        card first, then the value; a seat stored in a player-valued variable checked);
        ``+=``, ``-=`` and a seat stored per player through the compiled effect."""
        t, comp, lay = st.target, self.comp, self.lay
        if st.op == "=" and isinstance(t, ir.Name) and comp.type_of(t) == "player":
            v, n = code.temp("v"), lay.n  # (a seat of the table, or none)
            code.emit(f"{v} = {comp.gen_bounded(st.value)}")
            code.emit(f"if {v} is not None and not (isinstance({v}, int) and 0 <= {v} < {n}):")
            code.emit(f"    raise {comp.const(no_such_seat)}({v}, {n}, {comp.const(st.span)})")
            code.emit(f"s.g[{lay.gslot[t.id]}] = {v}")
        elif st.op != "=" or comp.type_of(t) == "player":
            code.emit(f"{self._effect(st)}(s)")
        elif isinstance(t, ir.Name):
            code.emit(f"s.g[{lay.gslot[t.id]}] = {comp.gen_bounded(st.value)}")
        elif isinstance(t, ir.Index):
            assert isinstance(t.obj, ir.Name)
            seat = code.temp("p")
            code.emit(f"{seat} = {comp.gen(t.key)}")
            code.emit(f"s.pv[{lay.pslot[t.obj.id]}][{seat}] = {comp.gen_bounded(st.value)}")
        else:
            assert isinstance(t, ir.Attr)
            card = code.temp("c")
            message = f"cannot set '{t.name}' of none (no card)"
            code.emit(f"{card} = {comp.gen(t.obj)}")
            code.emit(f"if {card} is None:")
            code.emit(f"    raise {comp.const(fail)}({comp.const(message)}, "
                      f"{comp.const(st.span)})")
            code.emit(f"s.cv[{lay.cslot[t.name]}][{card}] = {comp.gen_bounded(st.value)}")

    def plain_Move(self, code: Code, st: ir.Move, loops: list[_Loop]) -> None:
        comp = self.comp
        typ = comp.type_of(st.cards)
        cards = comp.gen_coll(st.cards) if typ in ("zone", "pzone") else comp.gen(st.cards)
        if st.end == "random":  # the one place chance is drawn, shared with the frames
            code.emit(f"{comp.const(move_cards_at_random)}(s, {cards}, {comp.gen(st.to)})")
            return
        if typ == "card":
            self._move_card(code, cards, comp.gen(st.to), st.end == "top")
            return
        if typ == "zone" or isinstance(st.cards, ir.Filter):  # (a list of its own)
            self._move_cards(code, cards, comp.gen(st.to), st.end == "top", typ == "zone")
            return
        code.emit(f"{comp.const(move_cards)}(s, {cards}, {comp.gen(st.to)}, {st.end == 'top'})")

    def _plain_effect(self, code: Code, st: ir.Stmt, loops: list[_Loop]) -> None:
        code.emit(f"{self._effect(st)}(s)")

    plain_Shuffle = plain_Deal = plain_Say = plain_Reveal = _plain_effect

    def plain_EndGame(self, code: Code, st: ir.EndGame, loops: list[_Loop]) -> None:
        code.emit(f"{self.comp.const(end_game)}(s)")
        code.emit("return")

    def plain_Break(self, code: Code, st: ir.Break, loops: list[_Loop]) -> None:
        if loops[-1].native:
            code.emit("break")
        else:
            code.jump(loops[-1].exit)

    def plain_Do(self, code: Code, st: ir.Do, loops: list[_Loop]) -> None:
        self.block(code, self.rules[st.name], loops)

    def plain_If(self, code: Code, st: ir.If, loops: list[_Loop]) -> None:
        for i, (test, body) in enumerate(zip(st.tests, st.bodies, strict=True)):
            code.emit(f"{'if' if i == 0 else 'elif'} {self.comp.gen(test)}:")
            self._nested(code, body, loops)
        if st.orelse:
            code.emit("else:")
            self._nested(code, st.orelse, loops)

    def plain_Repeat(self, code: Code, st: ir.Repeat, loops: list[_Loop]) -> None:
        lay, comp = self.lay, self.comp
        if st.count is not None:
            i = code.temp("i")
            code.emit(f"for {i} in range(1, ({comp.gen(st.count)}) + 1):")
            code.indent += 1
            if st.var:
                code.emit(f"s.loc[{lay.local(st.var)}] = {i}")
        else:
            assert st.test is not None  # 'repeat while COND'
            code.emit(f"while {comp.gen(st.test)}:")
            code.indent += 1
        self._count_step(code)
        self.block(code, st.body, [*loops, _Loop(True, 0)])
        code.indent -= 1

    def plain_ForEachPlayer(self, code: Code, st: ir.ForEachPlayer,
                            loops: list[_Loop]) -> None:
        if st.until is not None:
            seat = self._round_from(code, st)
            code.emit(f"while not ({self.comp.gen(st.until)}):")
            code.indent += 1
            code.emit(f"s.loc[{self.lay.local(st.var)}] = {seat}")
            code.emit(f"{seat} = ({seat} + {1 if st.clockwise else -1}) % {self.lay.n}")
            self._count_step(code)
            self.block(code, st.body, [*loops, _Loop(True, 0)])
            code.indent -= 1
            return
        self._plain_each(code, self._seats(code, st, fresh=False), st.var, st.body, loops)

    def plain_ForEachIn(self, code: Code, st: ir.ForEachIn, loops: list[_Loop]) -> None:
        self._plain_each(code, f"list({self.comp.gone_over(st.coll)})", st.var, st.body,
                         loops)

    def _plain_each(self, code: Code, values: str, var: str, body: list[ir.Stmt],
                    loops: list[_Loop]) -> None:
        """A ``for each`` with no decision inside: a Python ``for`` over ``values`` (the
        source of a list fixed when the loop starts), local ``var`` bound to each."""
        v = code.temp("v")
        code.emit(f"for {v} in {values}:")
        code.indent += 1
        code.emit(f"s.loc[{self.lay.local(var)}] = {v}")
        self._count_step(code)
        self.block(code, body, [*loops, _Loop(True, 0)])
        code.indent -= 1

    def _seats(self, code: Code, st: ir.ForEachPlayer, fresh: bool = True) -> str:
        """Source of the list of seats a ``for each player`` visits, in order (fixed when
        the loop starts, as in the frame interpreter); ``fresh`` False: a list only read
        (a plain loop), which may be shared. Emits the line that must run first."""
        k, comp, n = self.comp.const, self.comp, self.lay.n
        first = comp.gen(st.start) if st.start is not None else "0"
        if st.order is not None:
            return (f"{k(ordered_seats)}(s, {k(comp.expr(st.order))}, {first}, "
                    f"{self.lay.local(st.var)}, {n})")
        step = 1 if st.clockwise else -1
        # From a seat: the order made once (a table per direction), else computed.
        table = [[(seat + step * j) % n for j in range(n)] for seat in range(n)]
        seat = code.temp("f")
        code.emit(f"{seat} = {first}")
        return (f"({k(table)}[{seat}]{'[:]' if fresh else ''} if {seat}.__class__ is int "
                f"and 0 <= {seat} < {n} else {k(turn_order)}({seat}, {step}, {n}, "
                f"{k(st.span)}))")

    # ------------------------------------------------------------ statements that stop
    def stop_If(self, code: Code, st: ir.If, loops: list[_Loop]) -> None:
        """An ``if`` with a branch that stops: such a branch gets a resume point of its
        own; a branch that does not stop runs inline and falls out of the ``if``."""
        end = code.label()
        bodies = [*st.bodies, *([st.orelse] if st.orelse else [])]
        labels = [code.label() if self.stops.block(b) else None for b in bodies]
        tests = [f"{'if' if i == 0 else 'elif'} {self.comp.gen(t)}:"
                 for i, t in enumerate(st.tests)] + (["else:"] if st.orelse else [])
        for test, body, label in zip(tests, bodies, labels, strict=True):
            code.emit(test)
            code.indent = 1
            if label is None:
                self.block(code, body, loops)
            else:
                code.jump(label)
            code.indent = 0
        code.jump(end)
        for body, label in zip(bodies, labels, strict=True):
            if label is not None:
                code.place(label)
                self.block(code, body, loops)
                code.jump(end)
        code.place(end)

    def _lowered_loop(self, code: Code, body: list[ir.Stmt],
                      loops: list[_Loop], init: list[str], test: str,
                      bind: list[str]) -> None:
        """A loop around a statement that stops: ``init`` lines, then at its head ``test``
        (true: leave the loop) and ``bind`` lines, the body, and back to the head."""
        for line in init:
            code.emit(line)
        head = code.label()
        exit_ = code.label()
        code.jump(head)
        code.place(head)
        self._count_step(code)
        code.emit(f"if {test}:")
        code.indent = 1
        code.jump(exit_)
        code.indent = 0
        for line in bind:
            code.emit(line)
        self.block(code, body, [*loops, _Loop(False, exit_)])
        code.jump(head)
        code.place(exit_)

    def stop_Repeat(self, code: Code, st: ir.Repeat, loops: list[_Loop]) -> None:
        comp, lay = self.comp, self.lay
        if st.count is not None:
            a, b = code.slot(), code.slot()
            bind = [f"f[{a}] += 1"]
            if st.var:
                bind.append(f"s.loc[{lay.local(st.var)}] = f[{a}]")
            self._lowered_loop(code, st.body, loops,
                               [f"f[{a}] = 0", f"f[{b}] = {comp.gen(st.count)}"],
                               f"f[{a}] >= f[{b}]", bind)
        else:
            assert st.test is not None
            self._lowered_loop(code, st.body, loops, [], f"not ({comp.gen(st.test)})", [])

    def _round_from(self, code: Code, st: ir.ForEachPlayer) -> str:
        """Source of the first seat of a ``for each player ... until`` (a temp; emits the
        line that sets it)."""
        k, comp = self.comp.const, self.comp
        first = comp.gen(st.start) if st.start is not None else "0"
        seat = code.temp("f")
        code.emit(f"{seat} = {k(turn_order)}({first}, 1, {self.lay.n}, {k(st.span)})[0]")
        return seat

    def stop_ForEachPlayer(self, code: Code, st: ir.ForEachPlayer,
                           loops: list[_Loop]) -> None:
        if st.until is not None:  # the next seat kept in a frame slot
            a = code.slot()
            first = self._round_from(code, st)
            self._lowered_loop(code, st.body, loops, [f"f[{a}] = {first}"],
                               self.comp.gen(st.until),
                               [f"s.loc[{self.lay.local(st.var)}] = f[{a}]",
                                f"f[{a}] = (f[{a}] + {1 if st.clockwise else -1}) % "
                                f"{self.lay.n}"])
            return
        self._lowered_each(code, st.body, loops, self._seats(code, st), st.var)

    def stop_ForEachIn(self, code: Code, st: ir.ForEachIn, loops: list[_Loop]) -> None:
        self._lowered_each(code, st.body, loops, f"list({self.comp.gone_over(st.coll)})",
                           st.var, "cards" if self.comp.holds_cards(st.coll) else "")

    def _lowered_each(self, code: Code, body: list[ir.Stmt], loops: list[_Loop],
                      values: str, var: str, holds: str = "") -> None:
        """A loop over ``values`` (source of a list; ``holds`` ``cards`` when card ids),
        kept in a frame slot, with its next index in another."""
        a, b = code.slot(holds), code.slot()
        self._lowered_loop(code, body, loops, [f"f[{a}] = {values}", f"f[{b}] = 0"],
                           f"f[{b}] >= len(f[{a}])",
                           [f"s.loc[{self.lay.local(var)}] = f[{a}][f[{b}]]", f"f[{b}] += 1"])

    def stop_Do(self, code: Code, st: ir.Do, loops: list[_Loop]) -> None:
        self.block(code, self.rules[st.name], loops)

    def stop_Choose(self, code: Code, st: ir.Choose, loops: list[_Loop]) -> None:
        """A decision: made pending with its legal actions listed (inline, by one
        comprehension, unless it may be a blind pick), then the routine stops; it resumes
        once the choice is resolved (:meth:`ChooseNode.resolve` binds the name)."""
        k, comp = self.comp.const, self.comp
        node = compile_choose(self.sc, len(self.prog.nodes), st)
        self.prog.nodes.append(node)
        resume = code.label()
        code.emit(f"s.span = {k(st.span)}")
        if node.blind is not None or st.cards is not None or node.ways is not None:
            # (the node lists the actions)
            code.emit(f"{k(node.effect)}(s)")
        else:
            seat, legal = code.temp("p"), code.temp("l")
            code.emit(f"{seat} = {comp.gen(st.player)}")
            code.emit(f"if {seat} is None:")
            code.emit(f"    raise {k(node.no_player)}()")
            code.emit(f"s.pending = ({seat}, {node.index})")
            actions = node.actions
            get = f"{k(actions.by_card)}[_x]" if actions.card else \
                f"({k(actions.cache)}.get(_x) or {k(actions.get)}(_x))"
            listing = self._listing(code, get, st.domain, st.where, st.name,
                                    None if actions.card else actions)
            code.emit(f"{legal} = {listing}")
            if st.optional:  # (``skip if``/``unless``: allowed when the test says)
                skip, test = f"{legal}.append({k(node.skip)}(s))", st.skip_test
                code.emit(skip if test is None else f"if {'not ' * st.skip_unless}"
                                                    f"({comp.gen(test)}): {skip}")
            if not st.optional or st.skip_test is not None:
                code.emit(f"if not {legal}:")
                code.emit(f"    raise {k(node.no_choice)}()")
            code.emit(f"s._legal = {legal}")
        code.stop_at(resume)
        code.emit("return")
        code.place(resume)

    def _listing(self, code: Code, action: str, domain: ir.Expr, where: ir.Expr | None,
                 name: str, values_of: ActionCache | None = None) -> str:
        """Source of the list of ``action`` (over ``_x``) for the candidates of ``domain``
        that pass ``where`` (``name`` the candidate); emits the lines that must run first.
        ``values_of``: the actions of a choice of values; from a fixed domain (yes/no, an
        enum, the seats) they are made once, paired with their values."""
        if self.prog.seen_by:  # who sees what, as the options are listed (State.apply)
            code.emit("s.refresh_seen()")
        k, coll = self.comp.const, self.comp.gen_coll(domain)
        cond = None
        if where is not None:
            cond, once = self.comp.candidate_source(where, name, lambda: code.temp("h"),
                                                    self.comp.type_of(domain) == "zone")
            for h in once:
                code.emit(f"{h} = UNSET")
            if cond == "True":  # (a test an option decides)
                cond = None
        values = self.comp.ns.get(coll) if values_of is not None and coll[:1] == "k" else None
        if values_of is not None and isinstance(values, tuple):
            if cond is None:
                made, fill = fixed_listing(values_of, values)
                return f"({k(made)}[:] if {k(made)} else {k(fill)}())"
            pairs = [(v, values_of.get(v)) for v in values]
            return f"[_a for _x, _a in {k(pairs)} if {cond}]"
        return f"[{action} for _x in {coll}" + (f" if {cond}]" if cond is not None else "]")

    def stop_Trigger(self, code: Code, st: ir.Trigger, loops: list[_Loop]) -> None:
        k, lay = self.comp.const, self.lay
        this = self.sc.this_slot
        blocks = self._step_blocks(st.step)
        a, b, c = code.slot("cards"), code.slot(), code.slot("card")
        card = code.temp("c")
        code.emit(f"f[{a}] = list({self.comp.gen_coll(st.cards)})")
        code.emit(f"f[{b}] = 0")
        code.emit(f"f[{c}] = s.loc[{this}]")
        head, exit_ = code.label(), code.label()
        code.jump(head)
        code.place(head)
        self._count_step(code)
        code.emit(f"if f[{b}] >= len(f[{a}]):")
        code.indent = 1
        code.emit(f"s.loc[{this}] = f[{c}]")
        code.jump(exit_)
        code.indent = 0
        code.emit(f"{card} = f[{a}][f[{b}]]")
        code.emit(f"f[{b}] += 1")
        routine = code.temp("r")
        code.emit(f"{routine} = {k(blocks)}.get({k(lay.ability_of)}[{card}]) "
                  f"if {card} is not None else None")
        code.emit(f"if {routine} is not None:")
        code.indent = 1
        code.emit(f"s.loc[{this}] = {card}")
        code.stop_at(head)
        # (a trigger that never ends meets the step limit here, as in the frame interpreter)
        code.emit(f"s.span = {k(st.span)}")
        code.emit(f"s.stack.append({routine}.start(s))")
        code.emit("return")
        code.indent = 0
        code.jump(head)
        code.place(exit_)

    def _step_blocks(self, step: str) -> dict[str | None, Routine]:
        """The routines of every ability's block ``at step`` (all made on first use and
        generated later, so abilities may trigger each other)."""
        if self._step_routines is None:
            self._step_routines = {}
            for ab in self.prog.ruleset.abilities:
                for name, body in ab.steps.items():
                    self._step_routines.setdefault(name, {})[ab.name] = self._block_routine(
                        f"ability {ab.name} at {name}", ab.span, body)
        return self._step_routines.get(step, {})

def lower_program(prog: Program, comp: ExprCompiler, sc: StmtCompiler) -> None:
    """Lower every phase of ``prog`` (see :class:`Lowerer`); its start phase becomes the
    lowered one."""
    Lowerer(prog, comp, sc).lower()
