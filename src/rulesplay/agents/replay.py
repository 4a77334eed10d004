"""The game's past, replayed once for every tracker that follows it: :class:`Replay`.

A :class:`~rulesplay.agents.infoset.Tracker` rebuilds the game privately from its seed and
the public history of decisions (what its seat saw happen, and the states before other
seats' decisions). Every seat's tracker of one game replays the same decisions from the same
seed, so they share one replay (:func:`replay_for`): the replay applies each decision once,
with events, and keeps for each one a :class:`Step` (what a tracker reads of it); each
tracker reads the steps from where it is, for its own seat. What a seat knows is still
worked out by its own tracker from the steps; nothing a tracker reads depends on which
other trackers follow the game.

A replay is shared only while the game goes on as it has so far (a game started again from
the same seed with other decisions gets a replay of its own), and only the few most recent
ones are kept for sharing.
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from typing import Any

from ..engine.actions import Position
from ..engine.state import State
from ..errors import RulesError

__all__ = ["Replay", "Step", "replay_for"]

SHARED = 8  # replays kept for sharing (each game being played by bots in this process)

# The generator of the copies that are only asked for their legal actions (the states
# before decisions): never drawn from, as the validator keeps chance out of what a choice
# or a trick may list.
NO_CHANCE = random.Random(0)


class Step:
    """One decision of the replayed game, as the trackers read it.

    Attributes:
        player, aid: the deciding seat and the action id taken.
        past: a copy of the state before the decision, only ever asked for legal actions
            (its generator never draws), or None when no seat can learn from the choice:
            a secret choice, a blind pick (it names a position), or a choice legal whatever
            the cards (:meth:`Replay.free`).
        before: the cards of each zone cards left in the events, bottom to top, before them
            (other zones: not needed).
        events: the events of the decision and what ran until the next one.
        seers, top_seers: the zones' seers after them (bitmasks, as ``State.seers``).
        unseen: the seats that do not know the choice (``State.unseen_choices``), a bitmask.
    """

    __slots__ = ("player", "aid", "past", "before", "events", "seers", "top_seers", "unseen")

    def __init__(self, player: int, aid: str, past: State | None, before: dict[int, list[int]],
                 events: list[dict[str, Any]], after: State, unseen: int) -> None:
        self.player, self.aid, self.past = player, aid, past
        self.before, self.events = before, events
        self.seers, self.top_seers, self.unseen = after.seers, after.top_seers, unseen


def _sources(events: list[dict[str, Any]], zones: list[list[int]],
             zone_id: dict[str, int]) -> dict[int, list[int]]:
    """The zones of ``zones`` (copies made before ``events``) that cards left in them."""
    out: dict[int, list[int]] = {}
    for e in events:
        if e["type"] == "move":
            src = e["from"]
            z = zone_id[src["zone"]] + (src["owner"] or 0)
            if z not in out:
                out[z] = zones[z]
    return out


class Replay:
    """A game replayed from ``state`` (a new game made with events, or a private copy of a
    state to follow from) by the public history, decision by decision.

    Attributes:
        cur: the replayed state, at the end of the history it was last advanced to.
        opening: what happened before the first decision of a new game (a :class:`Step`
            with no decision), or None.
        first: the number of decisions in ``cur.history`` before the first step.
        steps: a :class:`Step` per decision replayed since.
    """

    def __init__(self, state: State, new_game: bool) -> None:
        self.cur = state
        self.first = len(state.history)
        self.steps: list[Step] = []
        self.opening: Step | None = None
        self._frees: dict[tuple[Any, str], bool] = {}
        # Held while a tracker reads it (bots may run on threads: a web server's pool).
        self.lock = threading.RLock()
        if new_game:  # every card began in the first zone
            prog = state.program
            zones = [list(range(prog.num_cards))] + [[] for _ in range(prog.num_zones - 1)]
            events = self._take_events()
            self.opening = Step(-1, "", None, _sources(events, zones, prog.layout.zone_id),
                                events, state, 0)

    def _take_events(self) -> list[dict[str, Any]]:
        events = self.cur.events
        assert events is not None  # (replays record events)
        self.cur.events = []
        return events

    def follows(self, state: State) -> bool:
        """Whether ``state`` goes on from this replay: same program and seed, and the
        replayed history is the beginning of ``state.history``."""
        cur = self.cur
        return (cur.program is state.program and cur.seed == state.seed
                and len(cur.history) <= len(state.history)
                and state.history[:len(cur.history)] == cur.history)

    def advance(self, history: list[tuple[int, str]]) -> None:
        """Replay the decisions of ``history`` not replayed yet (``history`` goes on from
        ``cur.history``), a :class:`Step` each.

        Raises:
            RulesError: a decision does not replay (another seat's turn, an illegal action,
                a rule failing): the history is not this game's.
        """
        with self.lock:
            cur = self.cur
            prog = cur.program
            zone_id = prog.layout.zone_id
            secret = prog.secret_choices
            for p, aid in history[len(cur.history):]:
                if cur.current_player() != p:
                    raise RulesError("history does not replay")
                past = None
                if aid.split(":", 1)[0] not in secret and not self._blind(cur, aid) \
                        and not self.free(cur, aid):
                    past = cur.copy_with_rng(None)
                    past.rng = NO_CHANCE
                before = [z[:] for z in cur.zones]
                cur.apply(aid)
                events = self._take_events()
                i = len(cur.history) - 1
                self.steps.append(Step(p, aid, past, _sources(events, before, zone_id), events,
                                       cur, cur.unseen_choices.get(i, 0)))

    @staticmethod
    def _blind(s: State, aid: str) -> bool:
        """Whether action ``aid``, legal in ``s``, is a blind pick (a
        :class:`~rulesplay.engine.actions.Position`)."""
        return any(a.id == aid and isinstance(a, Position) for a in s.legal_actions())

    def free(self, s: State, aid: str) -> bool:
        """Whether action ``aid`` is legal whenever its seat makes the pending decision
        (kept per decision, seat and action): its test, asked of a state that holds
        nothing but the program and the pending decision, reads nothing else and passes (a
        choice from ``bool`` or an enum without ``where``). Such a choice tells nothing of
        the cards (a sampler would find it legal in every layout and leave it out)."""
        key = (s.pending, aid)
        free = self._frees.get(key)
        if free is None:
            assert s.pending is not None  # (a decision is being replayed)
            probe = State.__new__(State)  # (every other part unset: reading one fails)
            probe.program, probe.pending, probe._legal = s.program, s.pending, None
            act = next(a for a in s.legal_actions() if a.id == aid)
            try:
                free = bool(s.program.nodes[s.pending[1]].allows(probe, act))
            except Exception:  # (a read of an unset part, or a fault: not free)
                free = False
            self._frees[key] = free
        return free


_shared: OrderedDict[tuple[int, int], Replay] = OrderedDict()
_shared_lock = threading.Lock()


def replay_for(state: State) -> Replay:
    """The replay of ``state``'s game from its seed, shared with the other trackers that
    follow the same game (a new one when none does: made and run to its first decision).

    Raises:
        RulesError: the game cannot be started again from its seed (a scenario built with
            ``arrange``, a loaded save: the caller follows it from ``state`` instead).
    """
    key = (id(state.program), state.seed)
    with _shared_lock:
        replay = _shared.get(key)
        if replay is not None and replay.follows(state):
            _shared.move_to_end(key)
            return replay
    replay = Replay(State.new(state.program, state.seed, record_events=True), True)
    with _shared_lock:
        _shared[key] = replay
        _shared.move_to_end(key)
        while len(_shared) > SHARED:
            _shared.popitem(last=False)
    return replay
