"""Tricks as a first-class construct: standard (each seat plays once, in turn) and climbing
(seats keep playing higher or pass and drop out, until one is left).

Frame layout: ``[node, stage, leader, plays, current seat, passed-seat bitmask]``.
Stages: 0 start, 1 next play, 2 after a play, 3 decide the winner, 4 done.
A seat that cannot see the cards it plays from plays blind, by position
(:class:`~rulesplay.engine.choices.BlindPick`).
The node is built from the IR by :func:`rulesplay.engine.compile_stmts.compile_trick`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import events
from ..errors import RulesRuntimeError, Span
from .actions import Action, ActionCache, Position
from .choices import BlindPick, Decision
from .effects import Block, Node, move_cards
from .expr import Fn
from .routines import Routine

if TYPE_CHECKING:
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
    """

    def __init__(self, index: int, span: Span, *, n: int, zone: Fn, leader: Fn, source: Fn,
                 filter: Callable[[State, Any], list[Any]], key: Fn, climbing: bool,
                 player_slot: int, card_slot: int, winner_slot: int,
                 after_play: Block | Routine | None, after_trick: Block | Routine | None,
                 trick_vars: list[tuple[int, Fn]], actions: ActionCache,
                 pass_action: Action, prompt_text: Callable[[State], str],
                 blind: BlindPick | None = None) -> None:
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

    def start(self, s: State) -> list[Any]:
        for slot, default in self.trick_vars:
            s.g[slot] = default(s, None)
        leader = self.leader(s, None)
        if leader is None:
            raise RulesRuntimeError("the trick has no leader (none)", self.span)
        return [self.index, 1, leader, 0, leader, 0]

    # ------------------------------------------------------------ stepping
    def step(self, s: State, f: list[Any]) -> None:
        stage = f[1]
        if stage == 1:
            self._next_play(s, f)
        elif stage == 2:
            f[1] = 1
            if self.climbing:
                f[4] = self._next_active(f, f[4])
        elif stage == 3:
            self._finish(s, f)
        else:
            s.stack.pop()

    def _next_active(self, f: list[Any], seat: int) -> int:
        for k in range(1, self.n + 1):
            nxt = (seat + k) % self.n
            if not f[5] >> nxt & 1:
                return nxt
        return seat

    def _next_play(self, s: State, f: list[Any]) -> None:
        n = self.n
        if not self.climbing:
            if f[3] >= n:
                f[1] = 3
                return
            f[4] = (f[2] + f[3]) % n
        else:
            active = n - bin(f[5]).count("1")
            if active == 0 or (active == 1 and f[3] > 0):
                f[1] = 3
                return
        seat = f[4]
        s.loc[self.player_slot] = seat
        if self.climbing and not self._plays(s, seat):
            # A seat with no playable card passes (it has no choice to make).
            self._pass(s, f, seat, forced=True)
            return
        s.pending = (seat, self.index)
        s._legal = self.legal(s)  # listed once: the state waits for this decision now
        if not self.climbing and not s._legal:
            raise RulesRuntimeError(f"seat {seat} has no legal card to play in this trick",
                                    self.span)

    def _pass(self, s: State, f: list[Any], seat: int, forced: bool) -> None:
        f[5] |= 1 << seat
        if s.events is not None:
            s.events.append(events.passed(seat, forced, s.program.phase_name(s)))
        f[4] = self._next_active(f, seat)
        f[1] = 1

    def _finish(self, s: State, f: list[Any]) -> None:
        zone = s.zones[self.zone(s, None)]
        f[1] = 4
        if not zone:
            return
        key = self.key
        best = max(zone, key=lambda c: key(s, c))
        winner = s.by[best]
        s.loc[self.winner_slot] = winner
        if s.events is not None:
            s.events.append(events.trick(winner, s.program.card_ids[best],
                                         [s.program.card_ids[c] for c in zone]))
        if self.after_trick is not None:
            s.stack.append(self.after_trick.start(s))

    # ------------------------------------------------------------ decision
    def _plays(self, s: State, seat: int) -> list[Action]:
        """The ``play`` actions of ``seat``: its playable cards, or positions when it
        plays blind."""
        cards = self.source(s, None)
        blind = self.blind
        if blind is not None and blind.applies(s, seat, cards):
            return blind.positions(s, cards, self.filter, self.actions)
        by_card = self.actions.by_card
        return [by_card[c] for c in self.filter(s, cards)]

    def legal(self, s: State) -> list[Action]:
        f = s.stack[-1]
        out = self._plays(s, f[4])
        if self.climbing and f[3] > 0:
            out.append(self.pass_action)
        return out

    def resolve(self, s: State, action: Action) -> None:
        f = s.stack[-1]
        seat = f[4]
        if action.value is None:
            self._pass(s, f, seat, forced=False)
            return
        card = BlindPick.card(self.source(s, None), action) if isinstance(action, Position) \
            else action.value
        move_cards(s, card, self.zone(s, None))
        s.by[card] = seat
        s.loc[self.card_slot] = card
        f[3] += 1
        f[1] = 2
        if self.after_play is not None:
            s.stack.append(self.after_play.start(s))

    def prompt(self, s: State) -> str:
        return self.prompt_text(s)
