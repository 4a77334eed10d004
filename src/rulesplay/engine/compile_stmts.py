"""The statement compiler: checked IR statements become effects and run-time nodes.

A simple statement becomes an effect that its block runs inline (the ``compile_*``
functions of :mod:`rulesplay.engine.compile_effects`); a compound one (a loop, ``do``,
``trigger``, a choice, a trick, an ``if`` around a decision) becomes a node appended to the
program's node list, whose index frames and saves refer to. Node indices are numbered as
nodes are made, in a fixed order: a compound statement takes its index before the nodes of
its blocks. This is where a compiler of whole phases plugs in: it receives the same
:class:`StmtCompiler` and emits nodes in its place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import ir
from ..errors import RulesValidationError
from ..validate.unseen import reads_cards_of
from ..visitor import NodeVisitor, Stage
from .actions import Action, ActionCache
from .card_sets import CardSets, Key, SetChooseNode
from .choices import BlindPick, ChooseNode, SkipWay
from .compile_effects import (
    compile_assign,
    compile_deal,
    compile_let,
    compile_move,
    compile_reveal,
    compile_say,
    compile_shuffle,
)
from .effects import (
    Block,
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
    end_game,
)
from .expr import Fn
from .expr_facts import per_card
from .tables import var_default
from .texts import template
from .tricks import EndTrickNode, TrickNode

if TYPE_CHECKING:
    from ..errors import Span
    from .codegen import ExprCompiler
    from .program import DisplayText, Program
    from .state import State

# What compiling a statement gives: an effect to run inline, or a node that opens a frame.
Compiled = tuple[Effect | None, Node | None]


class StmtCompiler(Stage):
    """Compiles the statements of one program: ``visit_<Node>(st)`` returns ``(effect,
    None)`` for a statement its block runs inline, or ``(None, node)`` for one that opens a
    frame, the node appended to ``prog.nodes``.

    Args:
        prog: the program being built (its layout, tables and node list).
        comp: the expression compiler over ``prog.layout``.
        this_slot: the local slot of ``this`` (bound by ``trigger``).

    Attributes:
        rules: ``rule`` name -> its block (all made empty first, so ``do`` can name a rule
            declared later; see :meth:`compile_rules`).
        step_blocks: step -> ability name -> the ability's block ``at`` that step.
    """

    handles = (ir.StmtNode,)

    def __init__(self, prog: Program, comp: ExprCompiler, this_slot: int) -> None:
        self.prog, self.comp, self.layout = prog, comp, prog.layout
        self.nodes = prog.nodes
        self.this_slot = this_slot
        self.rules: dict[str, Block] = {}
        self.step_blocks: dict[str, dict[str, Block]] = {}

    def compile_rules(self, rules: list[ir.RuleDecl]) -> None:
        """Every ``rule NAME:`` block (all made first, then filled, so they may call each
        other in any order)."""
        self.rules = {r.name: self.add(Block(len(self.nodes), [])) for r in rules}
        for r in rules:
            self._fill(self.rules[r.name], r.body)

    def compile_steps(self, abilities: list[ir.AbilityDecl]) -> None:
        """Every ability's blocks ``at STEP`` (run by ``trigger STEP``)."""
        for ab in abilities:
            for step, body in ab.steps.items():
                self.step_blocks.setdefault(step, {})[ab.name] = self.block(body)

    def template(self, labels: ir.Labels | None, default: str = "") -> DisplayText:
        """A display text of this program (see :func:`rulesplay.engine.texts.template`)."""
        return template(self.prog, self.comp, labels, default)

    # ------------------------------------------------------------ blocks
    def add(self, node: Any) -> Any:
        """Append ``node`` to the program's node list; return it."""
        self.nodes.append(node)
        return node

    def block(self, stmts: list[ir.Stmt]) -> Block:
        """A new block node holding ``stmts`` compiled."""
        return self._fill(self.add(Block(len(self.nodes), [])), stmts)

    def _fill(self, block: Block, stmts: list[ir.Stmt]) -> Block:
        for st in stmts:
            effect, node = self.visit(st)
            block.stmts.append((effect, node, st.span))
        return block

    def frame_node(self, st: ir.Stmt, build: Callable[[int], Node]) -> Compiled:
        """A node for ``st``: its index is taken first, then ``build(index)`` makes it (and
        the nodes of its blocks, which come after it)."""
        nodes = self.nodes
        index = len(nodes)
        nodes.append(None)
        node = build(index)
        node.span = st.span
        nodes[index] = node
        return None, node

    # ------------------------------------------------------------ effects
    def visit_Assign(self, st: ir.Assign) -> Compiled:
        return compile_assign(self.prog, self.comp, st), None

    def visit_Let(self, st: ir.Let) -> Compiled:
        return compile_let(self.prog, self.comp, st), None

    def visit_Move(self, st: ir.Move) -> Compiled:
        return compile_move(self.prog, self.comp, st), None

    def visit_Shuffle(self, st: ir.Shuffle) -> Compiled:
        return compile_shuffle(self.prog, self.comp, st), None

    def visit_Reveal(self, st: ir.Reveal) -> Compiled:
        return compile_reveal(self.prog, self.comp, st), None

    def visit_Deal(self, st: ir.Deal) -> Compiled:
        return compile_deal(self.prog, self.comp, st), None

    def visit_Say(self, st: ir.Say) -> Compiled:
        return compile_say(self.prog, self.comp, st), None

    def visit_EndGame(self, st: ir.EndGame) -> Compiled:
        return end_game, None

    def visit_Choose(self, st: ir.Choose) -> Compiled:
        """A decision node; its effect asks for the decision inline."""
        choose = self.add(compile_choose(self, len(self.nodes), st))
        return choose.effect, None

    # ------------------------------------------------------------ control
    def visit_If(self, st: ir.If) -> Compiled:
        """An ``if`` whose branches only run effects is one effect; any other opens a
        frame for the branch taken."""
        if _Straight().visit(st):
            return self.inline_if(st), None

        def build(index: int) -> Node:
            bodies: list[Block | None] = [self.block(b) for b in st.bodies]
            if st.orelse:
                bodies.append(self.block(st.orelse))
            return IfNode(index, [self.comp.expr(t) for t in st.tests],
                          bodies)
        return self.frame_node(st, build)

    def inline_if(self, st: ir.If) -> Effect:
        """An ``if`` whose branches only hold effects runs as one effect (no frames)."""
        tests = [self.comp.expr(t) for t in st.tests]
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
        comp = self.comp
        return self.frame_node(st, lambda index: RepeatNode(
            index, comp.expr(st.count) if st.count is not None else None,
            comp.expr(st.test) if st.test is not None else None,
            self.layout.local(st.var) if st.var else None, self.block(st.body)))

    def visit_ForEachPlayer(self, st: ir.ForEachPlayer) -> Compiled:
        comp, lay = self.comp, self.layout
        start = st.start
        if st.order is not None:
            order = st.order
            return self.frame_node(st, lambda index: OrderedForEachNode(
                index, comp.expr(order), comp.expr(start) if start is not None else None,
                lay.local(st.var), lay.n, self.block(st.body)))
        return self.frame_node(st, lambda index: ForEachNode(
            index, comp.expr(start) if start is not None else None, lay.local(st.var),
            st.clockwise, lay.n, self.block(st.body),
            comp.expr(st.until) if st.until is not None else None))

    def visit_ForEachIn(self, st: ir.ForEachIn) -> Compiled:
        return self.frame_node(st, lambda index: ForEachInNode(
            index, self.comp.coll(st.coll, True), self.layout.local(st.var), self.block(st.body),
            self.comp.holds_cards(st.coll)))

    def visit_Break(self, st: ir.Break) -> Compiled:
        return self.frame_node(st, lambda index: BreakNode(
            index, self.add(Nop(len(self.nodes)))))

    def visit_EndTrick(self, st: ir.EndTrick) -> Compiled:
        return self.frame_node(st, lambda index: EndTrickNode(
            index, self.add(Nop(len(self.nodes)))))

    def visit_Do(self, st: ir.Do) -> Compiled:
        return self.frame_node(st, lambda index: DoNode(index, self.rules[st.name]))

    def visit_Trigger(self, st: ir.Trigger) -> Compiled:
        return self.frame_node(st, lambda index: TriggerNode(
            # The step's table, filled when the abilities are compiled (a rule or an ability
            # may trigger a step before any block 'at' it is compiled).
            index, self.comp.coll(st.cards), self.step_blocks.setdefault(st.step, {}),
            self.this_slot))

    def visit_Trick(self, st: ir.Trick) -> Compiled:
        return self.frame_node(st, lambda index: compile_trick(
            self, index, st, self.block(st.after_play) if st.after_play else None,
            self.block(st.after_trick) if st.after_trick else None,
            before_play=self.block(st.before_play) if st.before_play else None))


def compile_choose(sc: StmtCompiler, index: int, c: ir.Choose) -> ChooseNode:
    """The node of ``PLAYER [may|secretly] chooses NAME from DOMAIN [where COND]``, at
    ``index`` in the program."""
    comp, lay, prog = sc.comp, sc.layout, sc.prog
    player = comp.expr(c.player)
    domain = comp.coll(c.domain)
    filter, _ = comp.candidate_filter(c.where, c.name)
    slot = lay.local(c.name)
    card = comp.type_of(c.domain) in ("zone", "list:card")
    actions = ActionCache(prog, c.name, card, seats=comp.type_of(c.domain) == "list:player",
                          teams=comp.type_of(c.domain) == "list:team")
    # A skip label may name the state ("keep {count(hand[p])} cards"): made per listing.
    skip_text = sc.template(c.skip_label) if c.skip_label is not None else None
    prompt_text = sc.template(c.prompt, default=c.name)
    blind = blind_pick(sc, c.name, c.span, c.domain, c.player, c.where, c.name) if card \
        else None
    if c.cards is not None:
        return SetChooseNode(index, c.name, c.span, player, domain, filter, slot, c.optional,
                             c.secret, actions, skip_text, prompt_text, blind,
                             sets=card_sets(sc, c.name, c.cards))
    node = ChooseNode(index, c.name, c.span, player, domain, filter, slot, c.optional,
                      c.secret, actions, skip_text, prompt_text, blind, _stands_for(sc, c),
                      _may_skip(sc, c), _skip_ways(sc, c, actions))
    if card and per_card(c.where, c.domain, comp.c):
        node.per_card = comp.expr(c.domain)
    return node


def _skip_ways(sc: StmtCompiler, c: ir.Choose, actions: ActionCache) -> list[SkipWay] | None:
    """The skips of a choice that names them, each its own action (id ``NAME:skip-WORD``)
    and the slot of its name; None for one unnamed skip (the common case)."""
    if c.skip_as is None and not c.more_skips:
        return None
    ways = []
    for k in c.skips():
        plain = actions.get(None)
        aid = plain.id if k.name is None else f"{plain.id}-{k.name}"
        test = None if k.test is None else sc.comp.expr(k.test)
        if test is not None and k.unless:
            test = _negated(test)
        text = sc.template(k.label) if k.label.text is not None else None
        ways.append(SkipWay(Action(aid, plain.label, None, c.name, False), text, test,
                            None if k.name is None else sc.layout.local(k.name)))
    return ways


def _negated(test: Fn) -> Fn:
    return lambda s, it: not test(s, it)


def _may_skip(sc: StmtCompiler, c: ir.Choose) -> Fn | None:
    """Whether the skip of ``c`` is allowed now: its ``skip if``/``unless`` test, or None."""
    if c.skip_test is None:
        return None
    test = sc.comp.expr(c.skip_test)
    if not c.skip_unless:
        return test
    return lambda s, it: not test(s, it)


def card_sets(sc: StmtCompiler, name: str, c: ir.CardSet) -> CardSets:
    """How decision ``name`` takes several cards (``c``: its count and shape), checked
    against the cap on its ways among the game's cards.

    Raises:
        RulesValidationError: more cards than the game has, or more ways than
            :data:`~rulesplay.limits.MAX_SET_ACTIONS`.
    """
    assert c.low is not None and c.high is not None  # (the validator requires a count)
    if c.low > sc.prog.num_cards:
        raise RulesValidationError(f"'{name}' takes at least {c.low} cards, and the game has "
                                   f"{sc.prog.num_cards}", c.span)
    shapes: list[tuple[list[Key], list[Key]]] = [
        ([sc.comp.expr(k) for k in shape.same], [sc.comp.expr(k) for k in shape.runs])
        for shape in c.shapes] or [([], [])]  # (no shape: any cards)
    sets = CardSets(sc.prog, name, c.low, c.high, shapes, c.span)
    sets.check_bound(sc.prog.num_cards)
    return sets


def _stands_for(sc: StmtCompiler, c: ir.Choose) -> Callable[[State, Any], list[int]] | None:
    """For a choice of ``values(CARDS, KEY)``: value -> the cards of CARDS with that KEY."""
    d, comp = c.domain, sc.comp
    if not (isinstance(d, ir.Call) and d.func == "values" and len(d.args) == 2
            and comp.type_of(d.args[0]) in ("zone", "list:card")):
        return None
    cards, key = comp.coll(d.args[0]), comp.expr(d.args[1])

    def stands_for(s: State, value: Any) -> list[int]:
        return [card for card in cards(s, None) if key(s, card) == value]
    return stands_for


def compile_trick(sc: StmtCompiler, index: int, t: ir.Trick,
                  after_play: Block | None, after_trick: Block | None,
                  cls: type[TrickNode] = TrickNode, before_play: Block | None = None
                  ) -> TrickNode:
    """The node of a ``trick`` (standard or climbing), at ``index`` in the program, with
    its ``after play``, ``after trick`` and ``before play`` blocks already compiled (None:
    none, or lowered into the routine around a ``cls``
    :class:`~rulesplay.engine.tricks.LoweredTrick`)."""
    comp, lay, prog = sc.comp, sc.layout, sc.prog
    zone, leader = comp.expr(t.zone), comp.expr(t.leader)
    source = comp.coll(t.source)
    filter, _ = comp.candidate_filter(t.where, t.card_var)
    assert t.key is not None, "the validator requires a 'won by' line"
    key = comp.expr(t.key)
    player_slot = lay.local("player")
    card_slot = lay.local(t.card_var)
    winner_slot = lay.local("winner")
    trick_vars = [(lay.gslot[v.name], var_default(comp, v)) for v in prog.ruleset.vars
                  if v.scope == "trick"]
    actions = ActionCache(prog, "play", True)
    pass_text = sc.template(t.pass_label, default="pass")
    fixed = all(isinstance(part, str) for part in pass_text.parts)
    pass_action = Action("pass", pass_text(None) if fixed else "pass", None, "pass", False)
    chooser = t.chosen_by if t.chosen_by is not None else ir.Name(id="player")
    blind = blind_pick(sc, t.card_var, t.span, t.source, chooser, t.where, t.card_var)
    node = cls(index, t.span, n=lay.n, zone=zone, leader=leader, source=source,
                     filter=filter, key=key, climbing=t.climbing, player_slot=player_slot,
                     card_slot=card_slot, winner_slot=winner_slot, after_play=after_play,
                     after_trick=after_trick, trick_vars=trick_vars, actions=actions,
                     pass_action=pass_action, prompt_text=sc.template(t.prompt, default="play"),
                     blind=blind,
                     sets=card_sets(sc, "play", t.cards) if t.cards is not None else None,
                     pass_for_turn=t.pass_for_turn,
                     sits_out=comp.expr(t.sits_out) if t.sits_out is not None else None,
                     chooser=comp.expr(t.chosen_by) if t.chosen_by is not None else None,
                     pass_test=_pass_test(comp, t),
                     before_play=before_play, pass_text=None if fixed else pass_text)
    if t.cards is None and per_card(t.where, t.source, comp.c):
        node.per_card = comp.expr(t.source)
    return node


def _pass_test(comp: ExprCompiler, t: ir.Trick) -> Fn | None:
    """``pass for this turn if COND`` (``unless``: its negation), or None."""
    if t.pass_turn_test is None:
        return None
    test = comp.expr(t.pass_turn_test)
    if not t.pass_turn_unless:
        return test
    return lambda s, it: not test(s, it)


def blind_pick(sc: StmtCompiler, name: str, span: Span, cards: ir.Expr, chooser: ir.Expr,
               where: ir.Expr | None, var: str) -> BlindPick | None:
    """How seat ``chooser`` picks blind among ``cards`` (:class:`BlindPick`), or None when
    it sees every card it may pick wherever the game is. Decided here once for a zone by
    its seers (the one rule of visibility), so the common case costs nothing per decision:
    a zone every seat sees, or a per-player zone each seat sees of its own taken as the
    chooser's own (``hand[p]`` for chooser ``p``; ``hand[player]`` in a trick).

    Args:
        sc: the statement compiler (program, expression compiler).
        name, span: the decision's name (``play`` in a trick) and where it is written.
        cards: the candidates' expression (a zone or a list of cards).
        chooser: the deciding seat's expression.
        where, var: the filter and the name it binds to the candidate.
    """
    comp = sc.comp
    zone = comp.type_of(cards) == "zone"
    if zone and _always_seen(sc.prog, cards, chooser):
        return None
    tests = where is not None and reads_cards_of(where, var, cards, sc.prog.ruleset)
    return BlindPick(name, span, comp.expr(cards) if zone else None, tests)


def _always_seen(prog: Program, zone: ir.Expr, chooser: ir.Expr) -> bool:
    """Whether the seat ``chooser`` sees all of zone reference ``zone`` in every game (see
    :func:`blind_pick`)."""
    lay = prog.layout
    if isinstance(zone, ir.Name):
        base, key = zone.id, None
    elif isinstance(zone, ir.Index) and isinstance(zone.obj, ir.Name):
        base, key = zone.obj.id, zone.key
    else:
        return False
    first = lay.zone_id.get(base)
    if first is None:
        return False
    ids = range(first, first + (1 if lay.zone_owner[first] is None else lay.n))
    everyone = (1 << lay.n) - 1
    if all(prog.zone_seers[z] & everyone == everyone for z in ids):
        return True
    own = isinstance(key, ir.Name) and isinstance(chooser, ir.Name) and key.id == chooser.id
    return own and all(prog.zone_seers[z] >> (z - first) & 1 for z in ids)


class _Straight(NodeVisitor):
    """Whether a statement only runs effects: no decision, loop or trick inside it (an
    ``if`` is straight when every statement of its branches is)."""

    def visit_If(self, st: ir.If) -> bool:
        return all(self.visit(x) for body in [*st.bodies, st.orelse] for x in body)

    def _effect(self, st: ir.Stmt) -> bool:
        return True

    visit_Assign = visit_Let = visit_Move = visit_Shuffle = visit_Deal = _effect
    visit_Say = visit_EndGame = visit_Reveal = _effect

    def generic_visit(self, node: ir.Node, *args: Any, **kwargs: Any) -> bool:
        return False  # a decision, a loop, a trick, 'do', 'trigger', 'break'
