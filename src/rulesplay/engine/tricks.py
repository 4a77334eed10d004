"""Tricks as a first-class construct: standard (each seat plays once, in turn) and climbing
(seats keep playing higher or pass and drop out, until one is left).

Frame layout: ``[node, stage, leader, plays, current seat, passed-seat bitmask]``.
Stages: 1 next play, 2 after a play, 3 decide the winner, 4 done. The compiled engine
keeps the same counters in its routine's frame (:class:`LoweredTrick`).
A seat that cannot see the cards it plays from plays blind, by position
(:class:`~rulesplay.engine.choices.BlindPick`).
The node is built from the IR by :func:`rulesplay.engine.compile_stmts.compile_trick`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import events
from ..errors import RulesRuntimeError, Span
from .actions import Action, ActionCache, Position, SetAction
from .choices import BlindPick, Decision
from .effects import Block, Node, move_card, move_cards
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
        player_slot, card_slot, winner_slot: local slots of ``player``, the played card's
            name and ``winner``.
        after_play, after_trick: blocks run after each play and after the trick, or None.
        trick_vars: ``(slot, default function)`` of the trick variables, reset at the start.
        actions: the cache of the ``play`` actions; pass_action: the ``pass`` action.
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
                 blind: BlindPick | None = None, sets: CardSets | None = None) -> None:
        self.index, self.span, self.name = index, span, "play"
        self.n = n
        self.zone, self.leader = zone, leader
        self.source = source
        self.filter = filter
        self.key = key
        self.climbing = climbing
        self.player_slot = player_slot
        self.card_slot = self.value_slot = card_slot
        self.winner_slot = winner_slot
        self.after_play, self.after_trick = after_play, after_trick
        self.trick_vars = trick_vars
        self.actions = actions
        self.pass_action = pass_action
        self.prompt_text = prompt_text
        self.blind = blind
        self.sets = sets

    # Where the trick's counters sit in the frame: leader, plays, current seat, passed
    # seats from ``at`` on (a lowered trick keeps them in its routine's frame).
    at = 2

    def start(self, s: State) -> list[Any]:
        f = [self.index, 1, None, 0, None, 0]
        self.begin(s, f)
        return f

    def begin(self, s: State, f: list[Any]) -> None:
        """A new trick: trick variables at their defaults, the leader to play first."""
        for slot, default in self.trick_vars:
            s.g[slot] = default(s, None)
        leader = self.leader(s, None)
        if leader is None:
            raise RulesRuntimeError("the trick has no leader (none)", self.span)
        at = self.at
        f[at], f[at + 1], f[at + 2], f[at + 3] = leader, 0, leader, 0

    # ------------------------------------------------------------ stepping
    def step(self, s: State, f: list[Any]) -> None:
        stage = f[1]
        if stage == 1:
            if self.turn(s, f) == OVER:
                f[1] = 3
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

    def advance(self, f: list[Any]) -> None:
        """After a play and its ``after play`` block: in a climbing trick the turn passes to
        the next seat still in."""
        if self.climbing:
            f[self.at + 2] = self._next_active(f, f[self.at + 2])

    def turn(self, s: State, f: list[Any]) -> int:
        """The next turn of the trick: :data:`OVER` (every play made: decide the winner),
        :data:`WAITS` (the current seat's play is pending) or :data:`PASSED` (it had no
        playable card in a climbing trick and passed)."""
        n, at = self.n, self.at
        if not self.climbing:
            if f[at + 1] >= n:
                return OVER
            f[at + 2] = (f[at] + f[at + 1]) % n
        else:
            active = n - bin(f[at + 3]).count("1")
            if active == 0 or (active == 1 and f[at + 1] > 0):
                return OVER
        seat = f[at + 2]
        s.loc[self.player_slot] = seat
        if s.program.seen_by:  # who sees what, as the play is asked
            refresh_seen(s)
        s.pending = (seat, self.index)
        plays = self._plays(s, seat)  # listed once: the state waits for this decision now
        if self.climbing:
            if not plays:
                # A seat with no playable card passes (it has no choice to make).
                s.pending = None
                self.pass_turn(s, f, seat, forced=True)
                return PASSED
            if f[at + 1] > 0:
                plays.append(self.pass_action)
        elif not plays:
            raise no_card_to_play(seat, self.span)
        s._legal = plays
        return WAITS

    def pass_turn(self, s: State, f: list[Any], seat: int, forced: bool) -> None:
        """``seat`` passes (``forced``: it had no card to play): it is out of this
        climbing trick, and the turn goes to the next seat still in."""
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
        """The ``play`` actions of ``seat``: its playable cards, or positions when it
        plays blind."""
        cards = self.source(s, None)
        blind = self.blind
        sets = self.sets
        if sets is not None:
            if blind is not None and blind.applies(s, seat, cards):
                raise RulesRuntimeError("a set of cards is played only from cards its "
                                        "player sees", self.span)
            return [sets.action(tuple(w))
                    for w in self.filter(s, [list(w) for w in sets.ways(s, cards)])]
        if blind is not None and blind.applies(s, seat, cards):
            return blind.positions(s, cards, self.filter, self.actions)
        by_card = self.actions.by_card
        return [by_card[c] for c in self.filter(s, cards)]

    def legal(self, s: State) -> list[Action]:
        f = s.stack[-1]
        out = self._plays(s, f[self.at + 2])
        if self.climbing and f[self.at + 1] > 0:
            out.append(self.pass_action)
        return out

    def allows(self, s: State, action: Action) -> bool:
        """As :meth:`Decision.allows`; a card's play (not a blind one) is tested alone:
        the card is playable and passes the play filter, as :meth:`legal` finds it."""
        value = action.value
        if not action.card or action.__class__ is not Action \
                or self.actions.by_card[value] is not action:
            return super().allows(s, action)  # (a blind pick, a pass)
        cards = self.source(s, None)
        blind = self.blind
        if blind is not None and blind.applies(s, s.stack[-1][self.at + 2], cards):
            return super().allows(s, action)
        return value in cards and bool(self.filter(s, [value]))

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
            f[at + 1] += 1
            self.then(s, f, True)
            return
        card = BlindPick.card(self.source(s, None), action) if isinstance(action, Position) \
            else action.value
        move_card(s, card, self.zone(s, None))
        s.by[card] = seat
        s.loc[self.card_slot] = card
        f[at + 1] += 1
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


def pass_event(s: State, seat: int, forced: bool) -> None:
    """Record the ``pass`` event of ``seat`` in a climbing trick (``forced``: it had no
    card to play)."""
    assert s.events is not None
    s.events.append(events.passed(seat, forced, s.program.phase_name(s)))


def trick_event(s: State, winner: int | None, best: int, zone: list[int]) -> None:
    """Record the ``trick`` event: ``winner`` (a seat) won with card ``best`` of the
    cards ``zone`` holds (card ids, as played)."""
    assert s.events is not None
    ids = s.program.card_ids
    s.events.append(events.trick(winner, ids[best], [ids[c] for c in zone]))


def no_card_to_play(seat: int, span: Span) -> RulesRuntimeError:
    """The error when a seat must play to a standard trick and has no legal card."""
    return RulesRuntimeError(f"seat {seat} has no legal card to play in this trick", span)


# What TrickNode.turn found.
OVER, WAITS, PASSED = 0, 1, 2
