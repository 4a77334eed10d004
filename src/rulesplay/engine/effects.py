"""Statements at run time: moving cards, and the nodes that open frames on the interpreter's
stack (blocks, if, repeat, for each, do, trigger, phase).

Every node has ``step(state, frame)``; a frame is a small list whose first item is the node's
index in the program, so the whole position in the phase graph is plain data. The effects
that run at once (move, shuffle, deal, set...) are compiled by
:mod:`rulesplay.engine.compile_effects`; nodes are built by
:mod:`rulesplay.engine.compile_stmts`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import events
from ..errors import RulesRuntimeError, Span
from ..events import Tally
from .budgets import begin_phase, spend_work
from .expr import Fn
from .observe import card_seers

if TYPE_CHECKING:
    from .program import DisplayText
    from .state import State

Effect = Callable[["State"], None]


def move_cards(s: State, cards: Any, to: int, top: bool | None = True) -> None:
    """Move one card (an int) or several (in order) to zone ``to``; resets card variables;
    while a choice of a card resolves (``s.watch``), notes who sees that card arrive. The
    events of the cards that do not end on top of a zone whose top card alone some seat
    sees are marked ``under`` (that seat does not see them arrive: :func:`card_seers`).

    Args:
        s: the state.
        cards: a card id, or an iterable of card ids (copied first, so moving a whole zone
            out of itself is safe).
        to: destination zone id.
        top: put the cards on top (end of the list) or at the bottom (start), keeping order;
            None: each card in turn at a place drawn from the state's generator (one of
            the zone's ``len + 1`` gaps, ``randrange``), as :func:`move_cards_at_random`.
    """
    if cards is None:
        return
    zones, where = s.zones, s.where
    if cards.__class__ is list and cards and cards is zones[where[cards[0]]]:
        # A whole zone (``move table to ...``): emptied at once, not card by card.
        batch = cards[:]
        cards.clear()
        _arrive(s, batch, where[batch[0]], to, top)
        return
    batch = [cards] if cards.__class__ is int else list(cards)
    if not batch:
        return
    _leave(s, batch)
    _arrive(s, batch, None, to, top)


def _leave(s: State, batch: list[int]) -> None:
    """Take the cards of ``batch`` out of their zones."""
    zones, where = s.zones, s.where
    for c in batch:
        zones[where[c]].remove(c)


def move_cards_at_random(s: State, cards: Any, to: int) -> None:
    """``move CARDS to ZONE at random``: :func:`move_cards` putting each card, in order, at
    a place drawn from the state's one generator (chance; both engines call this)."""
    move_cards(s, cards, to, None)


def _arrive(s: State, batch: list[int], src: int | None, to: int, top: bool | None) -> None:
    """Put ``batch`` (already out of its zones: ``src`` when all came from one, else
    None and ``where`` still says where each was) into zone ``to``, with what
    :func:`move_cards` says."""
    zones, where, events = s.zones, s.where, s.events
    if events.__class__ is Tally:
        events = None  # counts only: moves are not counted
    prog = s.program
    resets = prog.card_var_resets
    if events is not None:
        cv = s.cv
        for c in batch:
            was = where[c] if src is None else src
            where[c] = to
            for slot, default in resets:
                cv[slot][c] = default
            events.append(prog.move_event(c, was, to))
    else:  # (the same, a card variable at a time)
        for c in batch:
            where[c] = to
        for slot, default in resets:
            column = s.cv[slot]
            for c in batch:
                column[c] = default
    if top:
        zones[to].extend(batch)
    elif top is None:
        zone, draw = zones[to], s.rng.randrange
        for c in batch:
            zone.insert(draw(len(zone) + 1), c)
    else:
        zones[to][:0] = batch
    if events is not None and prog.top_only(to):
        on_top = prog.card_ids[zones[to][-1]]
        for ev in events[len(events) - len(batch):]:
            if ev["card"] != on_top:
                ev["under"] = True
    watch = s.watch  # a chosen card: who sees it arrive
    if watch is not None and watch[0] in batch:
        watch[1] |= card_seers(s, watch[0])
    s.work += len(batch)  # (spend_work's test inline: a move of several is on the hot path)
    if s.work > s.work_cap or events is not None and len(events) > s.events_cap:
        spend_work(s, 0)


def move_card(s: State, c: int | None, to: int, top: bool = True) -> None:
    """:func:`move_cards` of one card (or none): the same effect without the batch."""
    if c is None:
        return
    where, zones = s.where, s.zones
    src = where[c]
    held = zones[src]
    if held[-1] == c:  # the top card (a deal, a draw): no search from the bottom
        held.pop()
    else:
        held.remove(c)
    where[c] = to
    resets = s.program.card_var_resets
    if resets:
        cv = s.cv
        for slot, default in resets:
            cv[slot][c] = default
    events = s.events
    if events is not None and events.__class__ is not Tally:  # (counts: no moves)
        # under: slid under the cards there
        events.append(s.program.move_event(c, src, to, not top and bool(zones[to])))
    if top:
        zones[to].append(c)
    else:
        zones[to].insert(0, c)
    watch = s.watch
    if watch is not None and watch[0] == c:
        watch[1] |= card_seers(s, c)


class Node:
    """A compound statement: runs as a frame on the stack.

    Attributes:
        card_slots, card_list_slots: the items of this node's frames that hold a card id
            (or None), and a list of card ids: a bot's sample re-points them at the cards
            it deals (:func:`rulesplay.engine.observe.repoint_cards`), so a frame never
            keeps a card the seat cannot see. Every other item is public (counters, seats,
            resume points) or a value the validator keeps from unseen cards.
    """

    span: Span = Span()
    loop = False  # a loop: the step limit points at the innermost one running
    card_slots: tuple[int, ...] = ()
    card_list_slots: tuple[int, ...] = ()

    def start(self, s: State) -> list[Any] | None:
        """A new frame for this node (evaluates what must be fixed on entry), or None when
        there is nothing to run (an ``if`` whose tests all fail)."""
        raise NotImplementedError

    def step(self, s: State, f: list[Any]) -> None:
        """Advance by one unit of work: run effects, push a child frame, or pop."""
        raise NotImplementedError


class Block(Node):
    """A statement list. Simple statements run inline; compound ones push their frame."""

    def __init__(self, index: int, stmts: list[tuple[Effect | None, Node | None, Span]]) -> None:
        self.index = index
        self.stmts = stmts

    def start(self, s: State) -> list[Any]:
        return [self.index, 0]

    def step(self, s: State, f: list[Any]) -> None:
        stmts, pc = self.stmts, f[1]
        while pc < len(stmts):
            effect, node, span = stmts[pc]
            pc += 1
            s.span = span
            if effect is not None:
                effect(s)
                if s.pending is not None or s.terminal:
                    f[1] = pc
                    return
            else:
                f[1] = pc
                frame = node.start(s)
                if frame is not None:
                    s.stack.append(frame)
                    return
        s.stack.pop()


class LoopNode(Node):
    """Marks loops: ``break`` pops frames up to and including the innermost loop's."""

    loop = True


class Nop(Node):
    """A frame that does nothing (what ``break`` leaves for the block that ran it)."""

    def __init__(self, index: int) -> None:
        self.index = index

    def start(self, s: State) -> list[Any]:
        return [self.index]

    def step(self, s: State, f: list[Any]) -> None:
        s.stack.pop()


class BreakNode(Node):
    """``break``: leave the innermost ``repeat`` or ``for each``."""

    def __init__(self, index: int, nop: Nop) -> None:
        self.index, self.nop = index, nop

    def start(self, s: State) -> list[Any]:
        nodes = s.program.nodes
        while s.stack:
            frame = s.stack.pop()
            if isinstance(nodes[frame[0]], LoopNode):
                break
        return self.nop.start(s)

    def step(self, s: State, f: list[Any]) -> None:  # pragma: no cover - never on the stack
        s.stack.pop()


class IfNode(Node):
    """``if``/``elif``/``else`` around a decision or loop: the chosen branch's block runs
    as the next frame (the ``if`` itself never waits on the stack)."""

    def __init__(self, index: int, tests: list[Fn], bodies: list[Block | None]) -> None:
        self.index, self.tests, self.bodies = index, tests, bodies

    def start(self, s: State) -> list[Any] | None:
        for test, body in zip(self.tests, self.bodies, strict=False):
            if test(s, None):
                return body.start(s) if body is not None else None
        if len(self.bodies) > len(self.tests) and self.bodies[-1] is not None:
            return self.bodies[-1].start(s)
        return None

    def step(self, s: State, f: list[Any]) -> None:  # pragma: no cover - never on the stack
        s.stack.pop()


class RepeatNode(LoopNode):
    """``repeat N times [as i]`` or ``repeat while COND``."""

    def __init__(self, index: int, count: Fn | None, test: Fn | None, slot: int | None,
                 body: Block) -> None:
        self.index, self.count, self.test, self.slot, self.body = index, count, test, slot, body

    def start(self, s: State) -> list[Any]:
        total = self.count(s, None) if self.count is not None else -1
        return [self.index, 0, total]

    def step(self, s: State, f: list[Any]) -> None:
        if self.count is not None:
            if f[1] >= f[2]:
                s.stack.pop()
                return
        else:
            assert self.test is not None  # ``repeat while COND``: no count, a test
            if not self.test(s, None):
                s.stack.pop()
                return
        f[1] += 1
        if self.slot is not None:
            s.loc[self.slot] = f[1]
        s.steps += 1  # a loop's turn: the game's total (rulesplay.limits)
        s.stack.append(self.body.start(s))


class ForEachNode(LoopNode):
    """``for each player p from SEAT``: every seat once, clockwise or counterclockwise;
    with ``until`` (a test, or None), round the table until it holds before a turn."""

    def __init__(self, index: int, start: Fn | None, slot: int, clockwise: bool, n: int,
                 body: Block, until: Fn | None = None) -> None:
        self.index, self.first, self.slot, self.body = index, start, slot, body
        self.dir, self.n, self.until = (1 if clockwise else -1), n, until

    def start(self, s: State) -> list[Any]:
        first = self.first(s, None) if self.first is not None else 0
        if first is None:
            raise RulesRuntimeError("'for each player' starts from none (no seat)", self.span)
        return [self.index, first, 0]

    def step(self, s: State, f: list[Any]) -> None:
        if f[2] >= self.n if self.until is None else self.until(s, None):
            s.stack.pop()
            return
        s.loc[self.slot] = (f[1] + self.dir * f[2]) % self.n
        f[2] += 1
        s.steps += 1  # a loop's turn: the game's total (rulesplay.limits)
        s.stack.append(self.body.start(s))


class ForEachInNode(LoopNode):
    """``for each x in COLL``: the collection is copied when the loop starts.

    Frame: ``[node, the values to visit, next index]``; the values are card ids when
    ``cards`` (a loop over cards).
    """

    def __init__(self, index: int, coll: Fn, slot: int, body: Block, cards: bool = False
                 ) -> None:
        self.index, self.coll, self.slot, self.body = index, coll, slot, body
        self.card_list_slots = (1,) if cards else ()

    def start(self, s: State) -> list[Any]:
        return [self.index, list(self.coll(s, None)), 0]

    def step(self, s: State, f: list[Any]) -> None:
        if f[2] >= len(f[1]):
            s.stack.pop()
            return
        s.loc[self.slot] = f[1][f[2]]
        f[2] += 1
        s.steps += 1  # a loop's turn: the game's total (rulesplay.limits)
        s.stack.append(self.body.start(s))


class OrderedForEachNode(ForEachInNode):
    """``for each player p ordered by KEY from SEAT``: highest KEY first; ties in turn
    order from SEAT. The order is fixed when the loop starts."""

    def __init__(self, index: int, key: Fn, start: Fn | None, slot: int, n: int,
                 body: Block) -> None:
        self.index, self.key, self.first, self.slot, self.n, self.body = \
            index, key, start, slot, n, body

    def start(self, s: State) -> list[Any]:
        first = self.first(s, None) if self.first is not None else 0
        return [self.index, ordered_seats(s, self.key, first, self.slot, self.n), 0]


def ordered_seats(s: State, key: Fn, first: int, slot: int, n: int) -> list[int]:
    """The seats of ``for each player p ordered by KEY from FIRST``: highest KEY first,
    ties in turn order from FIRST (KEY is read with local ``slot`` bound to each seat)."""
    saved = s.loc[slot]
    keyed = []
    for k in range(n):
        seat = (first + k) % n
        s.loc[slot] = seat
        keyed.append((key(s, None), -k, seat))
    s.loc[slot] = saved
    return [seat for *_, seat in sorted(keyed, reverse=True)]


class DoNode(Node):
    """``do NAME``: runs the rule's block."""

    def __init__(self, index: int, rule: Block) -> None:
        self.index, self.rule = index, rule

    def start(self, s: State) -> list[Any]:
        return self.rule.start(s)

    def step(self, s: State, f: list[Any]) -> None:  # pragma: no cover - never on the stack
        s.stack.pop()


class TriggerNode(Node):
    """``trigger STEP for CARDS``: each card's ability block ``at STEP``, ``this`` bound.

    Frame: ``[node, cards, next index, the value of this before]``.
    """

    card_slots, card_list_slots = (3,), (1,)

    def __init__(self, index: int, cards: Fn, blocks: dict[str, Block], this_slot: int
                 ) -> None:
        self.index, self.cards, self.blocks, self.this = index, cards, blocks, this_slot

    def start(self, s: State) -> list[Any]:
        return [self.index, list(self.cards(s, None)), 0, s.loc[self.this]]

    def step(self, s: State, f: list[Any]) -> None:
        ability_of = s.program.layout.ability_of
        cards = f[1]
        while f[2] < len(cards):
            c = cards[f[2]]
            f[2] += 1
            block = self.blocks.get(ability_of[c]) if c is not None else None
            if block is not None:
                s.loc[self.this] = c
                s.steps += 1
                s.stack.append(block.start(s))
                return
        s.loc[self.this] = f[3]
        s.stack.pop()


class PhaseNode(Node):
    """A phase: runs its body, then takes the first transition whose guard holds.

    Made before its body is compiled (a ``next`` may name any phase), so ``body``,
    ``label`` (a :class:`~rulesplay.engine.program.DisplayText`) and ``transitions`` are set
    by the compile step afterwards.
    """

    def __init__(self, index: int, name: str, span: Span) -> None:
        self.index, self.name, self.span = index, name, span
        self.body: Block  # set by the compile step
        self.transitions: list[tuple[Fn | None, int | None]] = []  # (guard, phase node|end)
        self.label: DisplayText  # set by the compile step

    def start(self, s: State) -> list[Any]:
        return [self.index, 0]

    def step(self, s: State, f: list[Any]) -> None:
        if f[1] == 0:
            f[1] = 1
            begin_phase(s, self.index)
            if s.events is not None:
                label, masks = self.label.masked(s)
                s.events.append(events.phase(self.name, label, masks))
            s.stack.append(self.body.start(s))
            return
        for guard, target in self.transitions:
            if guard is None or guard(s, None):
                s.stack.pop()
                if target is None:
                    s.finish()
                else:
                    s.stack.append(s.program.nodes[target].start(s))
                return
        raise RulesRuntimeError(f"no 'next' of phase '{self.name}' applies", self.span)


def end_game(s: State) -> None:
    """``end game``: the game is over at once; scores are read from the score expression."""
    s.stack.clear()
    s.finish()
