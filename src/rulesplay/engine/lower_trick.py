"""The phase compiler's tricks: a ``trick`` lowered inline into its routine (its counters in
frame slots, its turn, the play's resolution, ``after play``, the winner and ``after trick``
as resume points of the routine's state machine). A mixin of
:class:`~rulesplay.engine.lower.Lowerer`, kept apart so each module holds one job."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import ir
from ..events import Tally
from .actions import ActionCache
from .budgets import spend_work
from .choices import BY_ROUTINE
from .compile_stmts import compile_trick
from .effects import move_card, move_cards
from .observe import card_seers
from .routine_code import Code
from .routines import fail
from .tricks import PASSED, WAITS, LoweredTrick, no_card_to_play, pass_event, trick_event

if TYPE_CHECKING:
    from .codegen import ExprCompiler
    from .compile_stmts import StmtCompiler
    from .expr import Layout
    from .lower import _Loop
    from .program import Program


class TrickLowering:
    """Lowers ``trick`` statements (and ``end trick``) for :class:`~rulesplay.engine.lower.
    Lowerer`, which supplies the attributes and methods declared here."""

    prog: Program
    comp: ExprCompiler
    sc: StmtCompiler
    lay: Layout
    _trick_ends: list[int]

    if TYPE_CHECKING:
        def block(self, code: Code, stmts: list[ir.Stmt], loops: list[_Loop]) -> None: ...
        def _count_step(self, code: Code) -> None: ...
        def _listing(self, code: Code, action: str, domain: ir.Expr, where: ir.Expr | None,
                     name: str, values_of: ActionCache | None = None) -> str: ...

    def stop_Trick(self, code: Code, st: ir.Trick, loops: list[_Loop]) -> None:
        """A trick in the routine: counters in frame slots, blocks inline (see LoweredTrick)."""
        k = self.comp.const
        at = code.slot()
        node = self._trick(st, at)
        for _ in range(3 + node.keeps_out):  # (+ the sitting-out bitmask)
            code.slot()
        head, play = code.label(), code.label()
        after_play, end, win = code.label(), code.label(), code.label()
        node.turn_at, node.after_play_at = head, after_play
        code.pin(head)
        code.pin(after_play)
        self._begin(code, st, node)
        code.jump(head)
        code.place(head)
        self._count_step(code)
        if node.inline:  # (the common trick: its turn inline)
            self._turn(code, st, node, at, head, play, loops)
        else:
            turn = code.temp("t")
            if st.before_play:  # the seat whose turn comes, its block, then its play asked
                code.emit(f"if {k(node.next_up)}(s, f) is None:")
                code.indent = 1
                code.jump(win)
                code.indent = 0
                self.block(code, st.before_play, loops)
                code.emit(f"{turn} = {k(node.ask)}(s, f)")
            else:
                code.emit(f"{turn} = {k(node.turn)}(s, f)")
            code.emit(f"if {turn} == {WAITS}:")
            code.emit("    return  # the play resolved resumes at the next turn or after play")
            code.emit(f"if {turn} == {PASSED}:")
            code.indent = 1
            code.jump(head)
            code.indent = 0
        code.jump(win)
        code.place(win)  # (where 'end trick' goes)
        self._winner(code, st, node, end)
        if st.after_trick:
            self.block(code, st.after_trick, loops)
        code.jump(end)
        if node.inline:
            self._resolve_play(code, st, node, at, head, after_play)
        code.place(after_play)
        if st.after_play:
            self._trick_ends.append(win)
            self.block(code, st.after_play, loops)
            self._trick_ends.pop()
        if node.skips:
            code.emit(f"f[{at + 2}] = {self._next_seat(node, at, f'f[{at + 2}]')}")
        code.jump(head)
        code.place(end)

    def stop_EndTrick(self, code: Code, st: ir.EndTrick, loops: list[_Loop]) -> None:
        """``end trick``: on to the trick's winner (it 'stops': no native loop around it)."""
        code.jump(self._trick_ends[-1])
        code.place(code.label())  # (what follows it in its block never runs)

    def _begin(self, code: Code, st: ir.Trick, node: LoweredTrick) -> None:
        """What :meth:`~rulesplay.engine.tricks.TrickNode.begin` does, inline: trick
        variables at their defaults, the leader to play first (some may sit out: its call)."""
        k, comp, at = self.comp.const, self.comp, node.at
        if node.keeps_out:
            code.emit(f"{k(node.begin)}(s, f)")
            return
        for v in self.prog.ruleset.vars:
            if v.scope == "trick":
                code.emit(f"s.g[{self.lay.gslot[v.name]}] = {comp.gen(v.default)}")
        leader = code.temp("d")
        code.emit(f"{leader} = {comp.gen(st.leader)}")
        code.emit(f"if {leader} is None:")
        code.emit(f"    raise {k(fail)}({k('the trick has no leader (none)')}, {k(st.span)})")
        code.emit(f"f[{at}], f[{at + 1}], f[{at + 2}], f[{at + 3}] = {leader}, 0, {leader}, 0")

    def _winner(self, code: Code, st: ir.Trick, node: LoweredTrick, end: int) -> None:
        """What :meth:`~rulesplay.engine.tricks.TrickNode.finish` does, inline: the
        highest card by the trick's key (the first of equals) wins; with no card played
        the trick ends at ``end`` (no winner, no ``after trick``)."""
        k, comp = self.comp.const, self.comp
        assert st.key is not None, "the validator requires a 'won by' line"
        zone, best, winner = code.temp("z"), code.temp("b"), code.temp("w")
        code.emit(f"{zone} = s.zones[{comp.gen(st.zone)}]")
        code.emit(f"if not {zone}:")
        code.indent = 1
        code.jump(end)
        code.indent = 0
        # (max(zone, key=...) without a call per card: the first of the highest keys)
        keys = code.temp("k")
        code.emit(f"{keys} = [{comp.gen_card_key(st.key)} for it in {zone}]")
        code.emit(f"{best} = {zone}[{keys}.index(max({keys}))]")
        code.emit(f"{winner} = s.loc[{node.winner_slot}] = s.by[{best}]")
        code.emit("if s.events is not None:")
        code.emit(f"    {k(trick_event)}(s, {winner}, {best}, {zone})")

    def _next_seat(self, node: LoweredTrick, at: int, seat: str) -> str:
        """Source of the next seat after ``seat`` still in a trick (``_next_active``)."""
        table = node.seat_table()
        if table is None:
            return f"{self.comp.const(node._next_active)}(f, {seat})"
        return f"{self.comp.const(table)}[f[{at + 3}]][{seat}]"

    def _pass(self, code: Code, node: LoweredTrick, at: int, seat: str,
              forced: bool) -> None:
        """What :meth:`~rulesplay.engine.tricks.TrickNode.pass_turn` does, inline:
        ``seat`` (source of a plain read) is out of the climbing trick, the turn goes on."""
        code.emit(f"f[{at + 3}] |= 1 << {seat}")
        code.emit("if s.events is not None:")
        code.emit(f"    {self.comp.const(pass_event)}(s, {seat}, {forced})")
        code.emit(f"f[{at + 2}] = {self._next_seat(node, at, seat)}")

    def _resolve_play(self, code: Code, st: ir.Trick, node: LoweredTrick, at: int,
                      head: int, after_play: int) -> None:
        """Where the routine resumes once a play is chosen (``State.chosen``, handed over by
        ``State.apply``): what :meth:`~rulesplay.engine.tricks.TrickNode.resolve` does, in
        its order, falling through to the ``after play`` code (a pass: the next turn)."""
        node.resolves = BY_ROUTINE
        code.place(node.resolve_at)
        card = code.temp("c")
        code.emit(f"{card} = s.chosen")
        if st.climbing:
            code.emit(f"if {card} is None:")
            code.indent = 1
            self._pass(code, node, at, f"f[{at + 2}]", False)
            code.jump(head)
            code.indent = 0
        zone = self.comp.gen(st.zone)
        # A table every seat sees: a card played there is seen by all (State.apply).
        node.lands_seen = zone.isdigit() and \
            self.prog.zone_seers[int(zone)] == self.prog.everyone
        self._move_card(code, card, zone, True)
        code.emit(f"s.by[{card}] = f[{at + 2}]")
        code.emit(f"s.loc[{node.card_slot}] = {card}")
        code.emit(f"f[{at + 1}] += 1")
        code.jump(after_play)

    def _move_card(self, code: Code, card: str, to: str, top: bool) -> None:
        """``move CARD to ZONE`` of one card: what :func:`~rulesplay.engine.effects.
        move_card` does, inline when the game records no events (its call otherwise).
        ``card`` and ``to`` are sources, evaluated once each, in that order."""
        k = self.comp.const
        c = card if card.isidentifier() else code.temp("c")  # (a name or a zone's number
        t = to if to.isdigit() else code.temp("t")  # is used as it is)
        held = code.temp("h")
        for name, src in ((c, card), (t, to)):
            if name != src:
                code.emit(f"{name} = {src}")
        code.emit(f"if {c} is not None:")
        code.emit(f"    if s.events is not None and s.events.__class__ is not {k(Tally)}:")
        code.emit(f"        {k(move_card)}(s, {c}, {t}, {top})")
        code.emit("    else:")
        code.indent += 2
        code.emit(f"{held} = s.zones[s.where[{c}]]")
        code.emit(f"if {held}[-1] == {c}:")
        code.emit(f"    {held}.pop()")
        code.emit("else:")
        code.emit(f"    {held}.remove({c})")
        code.emit(f"s.where[{c}] = {t}")
        for slot, default in self.prog.card_var_resets:
            value = repr(default) if default is None or default.__class__ in (bool, int) \
                else k(default)
            code.emit(f"s.cv[{slot}][{c}] = {value}")
        code.emit(f"s.zones[{t}].append({c})" if top else f"s.zones[{t}].insert(0, {c})")
        code.emit(f"if s.watch is not None and s.watch[0] == {c}:")  # (who sees it arrive)
        code.emit(f"    s.watch[1] |= {k(card_seers)}(s, {c})")
        code.indent -= 2

    def _move_cards(self, code: Code, cards: str, to: str, top: bool, whole: bool) -> None:
        """``move CARDS to ZONE`` of a zone's cards (``whole``) or of a list made for the
        move (a filter's): what :func:`~rulesplay.engine.effects.move_cards` does, inline
        when the game records no events (its call otherwise). ``cards`` and ``to`` are
        sources, evaluated once each, in that order."""
        k = self.comp.const
        m, b, t, c = code.temp("m"), code.temp("b"), code.temp("t"), code.temp("c")
        code.emit(f"{m} = {cards}")
        code.emit(f"{t} = {to}")
        code.emit(f"if {m}:")
        code.emit(f"    if s.events is not None and s.events.__class__ is not {k(Tally)}:")
        code.emit(f"        {k(move_cards)}(s, {m}, {t}, {top})")
        code.emit("    else:")
        code.indent += 2
        if whole:  # (the zone emptied at once)
            code.emit(f"{b} = {m}[:]")
            code.emit(f"{m}.clear()")
        else:
            b = m
        code.emit(f"for {c} in {b}:")
        if not whole:
            code.emit(f"    s.zones[s.where[{c}]].remove({c})")
        code.emit(f"    s.where[{c}] = {t}")
        for slot, default in self.prog.card_var_resets:
            value = repr(default) if default is None or default.__class__ in (bool, int) \
                else k(default)
            code.emit(f"    s.cv[{slot}][{c}] = {value}")
        code.emit(f"s.zones[{t}].extend({b})" if top else f"s.zones[{t}][:0] = {b}")
        code.emit(f"if s.watch is not None and s.watch[0] in {b}:")  # (who sees it arrive)
        code.emit(f"    s.watch[1] |= {k(card_seers)}(s, s.watch[0])")
        code.emit(f"s.work += len({b})")
        code.emit("if s.work > s.work_cap:")
        code.emit(f"    {k(spend_work)}(s, 0)")
        code.indent -= 2

    def _turn(self, code: Code, st: ir.Trick, node: LoweredTrick, at: int,
              head: int, play: int, loops: list[_Loop]) -> None:
        """The next turn of a trick nobody plays blind, inline: what
        :meth:`~rulesplay.engine.tricks.TrickNode.turn` does, with the legal plays listed
        by one comprehension (after the ``before play`` block, which may stop: the seat is
        read back from the frame). Ends with a jump to the winner's part once all have
        played."""
        k, n = self.comp.const, self.lay.n
        over = code.label()
        seat, legal = code.temp("p"), code.temp("l")
        if st.climbing:
            active = code.temp("a")
            code.emit(f"{active} = {n} - f[{at + 3}].bit_count()")
            code.emit(f"if {active} == 0 or ({active} == 1 and f[{at + 1}] > 0):")
        else:
            code.emit(f"if f[{at + 1}] >= {n}:")
        code.indent = 1
        code.jump(over)
        code.indent = 0
        if st.climbing:
            code.emit(f"{seat} = f[{at + 2}]")
        else:
            code.emit(f"{seat} = f[{at + 2}] = (f[{at}] + f[{at + 1}]) % {n}")
        code.emit(f"s.loc[{node.player_slot}] = {seat}")
        if st.before_play:
            self.block(code, st.before_play, loops)
            code.emit(f"{seat} = s.loc[{node.player_slot}] = f[{at + 2}]")
        plays = self._listing(code, f"{k(node.actions.by_card)}[_x]", st.source, st.where,
                              st.card_var)
        code.emit(f"{legal} = {plays}")
        code.emit(f"if not {legal}:")
        code.indent = 1
        if st.climbing:  # no playable card: the seat passes (it has no choice to make)
            self._pass(code, node, at, seat, True)
            code.jump(head)
        else:
            code.emit(f"raise {k(no_card_to_play)}({seat}, {k(st.span)})")
        code.indent = 0
        if st.climbing:
            code.emit(f"if f[{at + 1}] > 0:")
            if node.pass_text is None:
                code.emit(f"    {legal}.append({k(node.pass_action)})")
            else:  # (a label with a placeholder: made as the plays are listed)
                code.emit(f"    {legal}.append({k(node.pass_now)}(s))")
        code.emit(f"s.pending = ({seat}, {node.index})")
        code.emit(f"s._legal = {legal}")
        node.resolve_at = play
        code.stop_at(play)
        code.emit("return")
        code.place(over)

    def _trick(self, st: ir.Trick, at: int) -> LoweredTrick:
        """The decision of a lowered trick whose counters sit in the frame from ``at``."""
        node = compile_trick(self.sc, len(self.prog.nodes), st, None, None, LoweredTrick)
        assert isinstance(node, LoweredTrick)
        node.span, node.at = st.span, at
        self.prog.nodes.append(node)
        return node
