"""Tricks as a first-class construct: standard (each seat plays once, in turn) and climbing
(seats keep playing higher or pass and drop out, until one is left).

Frame layout: ``[node, stage, leader, plays, current seat, out-seat bitmask]``, and, in a
trick that seats may sit out or a climbing trick whose pass holds for one turn, ``,
sitting-out bitmask`` after them. The out-seat bitmask holds the seats that sit the trick
out and, in a climbing trick, those that passed (since the last play, when a pass holds for
one turn).
Stages: 1 next play, 2 after a play, 3 decide the winner, 4 done, 5 the seat's play is
asked (after its ``before play`` block). The compiled engine
keeps the same counters in its routine's frame (:class:`LoweredTrick`).
A seat that cannot see the cards it plays from plays blind, by position
(:class:`~rulesplay.engine.choices.BlindPick`).
The node is built from the IR by :func:`rulesplay.engine.compile_stmts.compile_trick`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import events
from ..errors import RulesRuntimeError, Span
from .actions import Action, ActionCache, Position, SetAction
from .choices import BlindPick, Decision
from .effects import Block, Node, Nop, move_card, move_cards
from .expr import Fn
from .observe import refresh_seen

if TYPE_CHECKING:
    from .card_sets import CardSets
    from .state import State


class TrickNode(Node, Decision):
    """A trick (see :class:`rulesplay.ir.Trick` for the rule it implements).

    Args:
        index, span: the node's index in the program; where the trick is written.
        n: seats at the table.
        zone: ``f(state, None)`` -> the zone id the cards are played to.
        leader: ``f(state, None)`` -> the seat that leads.
        source: ``f(state, None)`` -> the cards the current player may play from.
        filter: ``f(state, cards)`` -> the playable ones (the ``where`` test).
        key: ``f(state, card)`` -> the card's rank in the trick (highest wins).
        climbing: a climbing trick (play higher or pass) rather than a standard one.
        pass_for_turn: in a climbing trick, a pass holds for that turn only.
        pass_test: ``f(state, None)`` -> whether, at a play, the passes so far held for
            their turn only (``pass for this turn if``), or None: always (with
            ``pass_for_turn``).
        sits_out: ``f(state, None)`` with ``player`` set -> whether that seat sits the
            trick out (tested for every seat as the trick begins), or None.
        chooser: ``f(state, None)`` with ``player`` set -> the seat that chooses that
            player's card (``chosen by``), or None (each player chooses its own).
        player_slot, card_slot, winner_slot: local slots of ``player``, the played card's
            name and ``winner``.
        after_play, after_trick: blocks run after each play and after the trick, or None.
        before_play: the block run as a seat's turn comes, before its plays are listed
            (``player`` set), or None.
        trick_vars: ``(slot, default function)`` of the trick variables, reset at the start.
        actions: the cache of the ``play`` actions; pass_action: the ``pass`` action
            (its label fixed); pass_text: the pass label made per listing when it has a
            placeholder (``pass "pass ({count(table)} down)"``), else None.
        prompt_text: the prompt in the ruleset's words.
        blind: how a seat that does not see the cards it plays from picks one blind, by
            position (:class:`~rulesplay.engine.choices.BlindPick`: a face-down pile, the
            hand of another seat), or None when every seat sees the cards it plays from.
        sets: how a play of several cards is made (``each player plays 1..4 cards ...``:
            :class:`~rulesplay.engine.card_sets.CardSets`), or None: one card a play. A set
            is played together, its cards in card order; the play's name holds the list;
            ``won by`` still ranks each card (the seat of the best card wins).
    """

    def __init__(self, index: int, span: Span, *, n: int, zone: Fn, leader: Fn, source: Fn,
                 filter: Callable[[State, Any], list[Any]], key: Fn, climbing: bool,
                 player_slot: int, card_slot: int, winner_slot: int,
                 after_play: Block | None, after_trick: Block | None,
                 trick_vars: list[tuple[int, Fn]], actions: ActionCache,
                 pass_action: Action, prompt_text: Callable[[State], str],
                 blind: BlindPick | None = None, sets: CardSets | None = None,
                 pass_for_turn: bool = False, sits_out: Fn | None = None,
                 chooser: Fn | None = None, pass_test: Fn | None = None,
                 before_play: Block | None = None,
                 pass_text: Callable[[State], str] | None = None) -> None:
        self.index, self.span, self.name = index, span, "play"
        self.n = n
        self.zone, self.leader = zone, leader
        self.source = source
        self.filter = filter
        self.key = key
        self.climbing = climbing
        self.pass_for_turn = climbing and pass_for_turn
        self.pass_test = pass_test
        self.sits_out, self.chooser = sits_out, chooser
        # Whether the turn goes round the seats in play (some may sit out) rather than
        # the whole table in order.
        self.skips = climbing or sits_out is not None
        # Whether the frame keeps the sitting-out bitmask apart (see the module docstring).
        self.keeps_out = sits_out is not None or self.pass_for_turn
        self.player_slot = player_slot
        self.card_slot = self.value_slot = card_slot
        self.winner_slot = winner_slot
        self.after_play, self.after_trick = after_play, after_trick
        self.before_play = before_play
        self.pass_text = pass_text
        self.trick_vars = trick_vars
        self.actions = actions
        self.pass_action = pass_action
        self.prompt_text = prompt_text
        self.blind = blind
        self.sets = sets
        # Whether a lowered trick lists and resolves its plays in its own code (not when
        # blind, several cards, sitting out, chosen by another, a pass for one turn).
        self.inline = blind is None and sets is None and not self.keeps_out and chooser is None

    # Where the trick's counters sit in the frame: leader, plays, current seat, passed
    # seats from ``at`` on (a lowered trick keeps them in its routine's frame).
    at = 2

    def start(self, s: State) -> list[Any]:
        f = [self.index, 1, None, 0, None, 0]
        if self.keeps_out:
            f.append(0)
        self.begin(s, f)
        return f

    def begin(self, s: State, f: list[Any]) -> None:
        """A new trick: trick variables at their defaults, the seats that sit out it noted,
        the leader (or, when it sits out, the next seat in play) to play first.

        Raises:
            RulesRuntimeError: no leader, or every seat sits the trick out.
        """
        for slot, default in self.trick_vars:
            s.g[slot] = default(s, None)
        leader = self.leader(s, None)
        if leader is None:
            raise RulesRuntimeError("the trick has no leader (none)", self.span)
        at = self.at
        out = self.seats_out(s) if self.sits_out is not None else 0
        f[at], f[at + 1], f[at + 2], f[at + 3] = leader, 0, leader, out
        if self.keeps_out:
            f[at + 4] = out
        if out >> leader & 1:
            f[at + 2] = self._next_active(f, leader)

    def seats_out(self, s: State) -> int:
        """The bitmask of the seats that sit this trick out (``sits out if``), worked out
        as it begins (a ``sit_out`` event names them).

        Raises:
            RulesRuntimeError: every seat sits out (nobody would play).
        """
        assert self.sits_out is not None
        out, test, slot = 0, self.sits_out, self.player_slot
        for seat in range(self.n):
            s.loc[slot] = seat
            if test(s, None):
                out |= 1 << seat
        if out == (1 << self.n) - 1:
            raise RulesRuntimeError("every seat sits out this trick: nobody plays", self.span)
        if out and s.events is not None:
            s.events.append(events.sat_out([p for p in range(self.n) if out >> p & 1],
                                           s.program.phase_name(s)))
        return out

    # ------------------------------------------------------------ stepping
    def step(self, s: State, f: list[Any]) -> None:
        stage = f[1]
        if stage == 1:
            if self.before_play is None:
                if self.turn(s, f) == OVER:
                    f[1] = 3
            elif self.next_up(s, f) is None:
                f[1] = 3
            else:  # the seat's 'before play' block, then its play is asked (stage 5)
                f[1] = 5
                s.stack.append(self.before_play.start(s))
        elif stage == 5:
            f[1] = 1
            self.ask(s, f)
        elif stage == 2:
            f[1] = 1
            self.advance(f)
        elif stage == 3:
            f[1] = 4
            if self.finish(s, f) and self.after_trick is not None:
                s.stack.append(self.after_trick.start(s))
        else:
            s.stack.pop()

    def _next_active(self, f: list[Any], seat: int) -> int:
        passed = f[self.at + 3]
        for k in range(1, self.n + 1):
            nxt = (seat + k) % self.n
            if not passed >> nxt & 1:
                return nxt
        return seat

    def seat_table(self) -> list[list[int]] | None:
        """What :meth:`_next_active` gives, as a table (:func:`next_seat_table`) when there
        are few seats, else None."""
        return next_seat_table(self.n) if self.n <= TABLE_SEATS else None

    def advance(self, f: list[Any]) -> None:
        """After a play and its ``after play`` block: in a climbing trick, or when some seat
        sits out, the turn passes to the next seat still in."""
        if self.skips:
            f[self.at + 2] = self._next_active(f, f[self.at + 2])

    def turn(self, s: State, f: list[Any]) -> int:
        """The next turn of the trick: :data:`OVER` (every play made: decide the winner),
        :data:`WAITS` (the current seat's play is pending) or :data:`PASSED` (it had no
        playable card in a climbing trick and passed)."""
        if self.next_up(s, f) is None:
            return OVER
        return self.ask(s, f)

    def next_up(self, s: State, f: list[Any]) -> int | None:
        """The seat whose turn comes (``player`` set to it), or None when every play is
        made (decide the winner)."""
        n, at = self.n, self.at
        if not self.climbing:
            if f[at + 1] >= n - bin(f[at + 3]).count("1"):
                return None
            if not self.skips:
                f[at + 2] = (f[at] + f[at + 1]) % n
        else:
            active = n - bin(f[at + 3]).count("1")
            if active == 0 or (active == 1 and f[at + 1] > 0):
                return None
        seat: int = f[at + 2]
        s.loc[self.player_slot] = seat
        return seat

    def ask(self, s: State, f: list[Any]) -> int:
        """The play of the seat whose turn it is (:meth:`next_up`), asked: :data:`WAITS`,
        or :data:`PASSED` (no playable card in a climbing trick).

        Raises:
            RulesRuntimeError: the seat has no legal card in a standard trick.
        """
        at = self.at
        seat = f[at + 2]
        s.loc[self.player_slot] = seat
        chooser = self.choosing(s, seat)
        if s.program.seen_by:  # who sees what, as the play is asked
            refresh_seen(s)
        s.pending = (chooser, self.index)
        plays = self._plays(s, chooser)  # listed once: the state waits for this decision now
        if self.climbing:
            if not plays:
                # A seat with no playable card passes (it has no choice to make).
                s.pending = None
                self.pass_turn(s, f, seat, forced=True)
                return PASSED
            if f[at + 1] > 0:
                plays.append(self.pass_now(s))
        elif not plays:
            raise no_card_to_play(seat, self.span)
        s._legal = plays
        return WAITS

    def choosing(self, s: State, seat: int) -> int:
        """The seat that chooses ``seat``'s card (``chosen by``; ``player`` is set).

        Raises:
            RulesRuntimeError: ``chosen by`` gives no seat.
        """
        if self.chooser is None:
            return seat
        chooser = self.chooser(s, None)
        if chooser.__class__ is not int or not 0 <= chooser < self.n:
            raise RulesRuntimeError(f"'chosen by' gives no seat ({chooser!r}) for seat "
                                    f"{seat}", self.span)
        return int(chooser)

    def pass_turn(self, s: State, f: list[Any], seat: int, forced: bool) -> None:
        """``seat`` passes (``forced``: it had no card to play): it is out of this
        climbing trick (or, with ``pass for this turn``, until the next play), and the turn
        goes to the next seat still in."""
        f[self.at + 3] |= 1 << seat
        if s.events is not None:
            pass_event(s, seat, forced)
        f[self.at + 2] = self._next_active(f, seat)

    def finish(self, s: State, f: list[Any]) -> bool:
        """Decide the winner (``winner``, a ``trick`` event); False when no card was
        played (then there is no winner and ``after trick`` does not run)."""
        zone = s.zones[self.zone(s, None)]
        if not zone:
            return False
        key = self.key
        best = max(zone, key=lambda c: key(s, c))
        winner = s.by[best]
        s.loc[self.winner_slot] = winner
        if s.events is not None:
            trick_event(s, winner, best, zone)
        return True

    # ------------------------------------------------------------ decision
    def _plays(self, s: State, seat: int) -> list[Action]:
        """The ``play`` actions chosen by ``seat`` (the player, or the seat that chooses
        for it): the playable cards, or positions when it picks blind."""
        cards = self.source(s, None)
        blind = self.blind
        sets = self.sets
        if sets is not None:
            if blind is not None and blind.applies(s, seat, cards):
                raise RulesRuntimeError("a set of cards is played only from cards its "
                                        "player sees", self.span)
            return sets.listed(s, cards, self.filter)
        if blind is not None and blind.applies(s, seat, cards):
            return blind.positions(s, cards, self.filter, self.actions)
        by_card = self.actions.by_card
        return [by_card[c] for c in self.filter(s, cards)]

    def legal(self, s: State) -> list[Action]:
        f = s.stack[-1]
        out = self._plays(s, self._decider(s, f))
        if self.climbing and f[self.at + 1] > 0:
            out.append(self.pass_now(s))
        return out

    def pass_now(self, s: State) -> Action:
        """The pass action, its label worked out now when it has a placeholder."""
        if self.pass_text is None:
            return self.pass_action
        return Action("pass", self.pass_text(s), None, "pass", False)

    def allows(self, s: State, action: Action) -> bool:
        """As :meth:`Decision.allows`; a card's play (not a blind one) is tested alone:
        the card is playable and passes the play filter, as :meth:`legal` finds it."""
        value = action.value
        if not action.card or action.__class__ is not Action \
                or self.actions.by_card[value] is not action:
            return super().allows(s, action)  # (a blind pick, a pass)
        cards = self.source(s, None)
        blind = self.blind
        if blind is not None and blind.applies(s, self._decider(s, s.stack[-1]), cards):
            return super().allows(s, action)
        return value in cards and bool(self.filter(s, [value]))

    def _decider(self, s: State, f: list[Any]) -> int:
        """The seat deciding the pending play (the player, or who chooses for it)."""
        if self.chooser is None:
            return int(f[self.at + 2])
        assert s.pending is not None
        return s.pending[0]

    def sitting_out(self, s: State) -> int:
        """The bitmask of the seats that sit out this trick (it is the pending decision)."""
        return int(s.stack[-1][self.at + 4]) if self.keeps_out else 0

    def played_for(self, s: State) -> int | None:
        if self.chooser is None or s.pending is None:
            return None
        seat = s.stack[-1][self.at + 2]
        return None if seat == s.pending[0] else int(seat)

    def resolve(self, s: State, action: Action) -> None:
        f = s.stack[-1]
        at = self.at
        seat = f[at + 2]
        if action.value is None:
            self.pass_turn(s, f, seat, forced=False)
            self.then(s, f, False)
            return
        if action.__class__ is SetAction:  # several cards, played together
            cards = list(action.value)
            move_cards(s, cards, self.zone(s, None))
            for c in cards:
                s.by[c] = seat
            s.loc[self.card_slot] = cards
        else:
            card = BlindPick.card(self.source(s, None), action) \
                if isinstance(action, Position) else action.value
            move_card(s, card, self.zone(s, None))
            s.by[card] = seat
            s.loc[self.card_slot] = card
        f[at + 1] += 1
        if self.pass_for_turn and (self.pass_test is None or self.pass_test(s, None)):
            f[at + 3] = f[at + 4]  # a play: the seats that passed are in again
        self.then(s, f, True)

    def then(self, s: State, f: list[Any], played: bool) -> None:
        """Where the trick goes on after a play (``played``) or a pass: the ``after play``
        block, else the next turn."""
        if played:
            f[1] = 2
            if self.after_play is not None:
                s.stack.append(self.after_play.start(s))
        else:
            f[1] = 1

    def prompt(self, s: State) -> str:
        return self.prompt_text(s)


class LoweredTrick(TrickNode):
    """A trick inside a lowered routine (:mod:`rulesplay.engine.lower`): its counters sit
    in the routine's frame from ``at`` on, and after a play or a pass the routine resumes
    at ``after_play_at`` (its ``after play`` code) or ``turn_at`` (the next turn)."""

    after_play_at = 0
    turn_at = 0
    resolve_at = 0  # where the routine resolves a play itself (resolves == BY_ROUTINE)
    lands_seen = False  # the cards are played to a zone whose cards every seat sees

    def then(self, s: State, f: list[Any], played: bool) -> None:
        f[1] = self.after_play_at if played else self.turn_at


class EndTrickNode(Node):
    """``end trick`` in the frame interpreter: leave the ``after play`` block (every frame
    above the innermost trick's) and go on to decide the winner (the validator allows it
    only inside ``after play``). Like ``break``, it leaves a :class:`Nop` frame for the
    block that ran it."""

    def __init__(self, index: int, nop: Nop) -> None:
        self.index, self.nop = index, nop

    def start(self, s: State) -> list[Any]:
        nodes, stack = s.program.nodes, s.stack
        while not isinstance(nodes[stack[-1][0]], TrickNode):
            stack.pop()
        stack[-1][1] = 3
        return self.nop.start(s)

    def step(self, s: State, f: list[Any]) -> None:  # pragma: no cover - never on the stack
        s.stack.pop()


def pass_event(s: State, seat: int, forced: bool) -> None:
    """Record the ``pass`` event of ``seat`` in a climbing trick (``forced``: it had no
    card to play)."""
    log = s.events
    assert log is not None
    if log.__class__ is events.Tally:  # (counted: 'simulate')
        log.tick("pass")
        return
    log.append(events.passed(seat, forced, s.program.phase_name(s)))


def trick_event(s: State, winner: int | None, best: int, zone: list[int]) -> None:
    """Record the ``trick`` event: ``winner`` (a seat) won with card ``best`` of the
    cards ``zone`` holds (card ids, as played)."""
    log = s.events
    assert log is not None
    if log.__class__ is events.Tally:  # (counted: 'simulate')
        log.tick("trick")
        return
    ids = s.program.card_ids
    log.append(events.trick(winner, ids[best], [ids[c] for c in zone]))


def no_card_to_play(seat: int, span: Span) -> RulesRuntimeError:
    """The error when a seat must play to a standard trick and has no legal card."""
    return RulesRuntimeError(f"seat {seat} has no legal card to play in this trick", span)


TABLE_SEATS = 8  # up to this many seats, the next seat in a trick is a table lookup


@functools.cache
def next_seat_table(n: int) -> list[list[int]]:
    """For ``n`` seats, ``table[out][p]``: the next seat after ``p`` not in bitmask ``out``
    (``p`` itself when all others are out), as :meth:`TrickNode._next_active` gives."""
    return [[next(((p + j) % n for j in range(1, n + 1) if not out >> (p + j) % n & 1), p)
             for p in range(n)] for out in range(1 << n)]


# What TrickNode.turn found.
OVER, WAITS, PASSED = 0, 1, 2
