"""``State``: one game in progress, as plain data (lists, ints, small tuples).

It holds card locations, variables, the interpreter's frame stack (its position in the phase
graph), the pending decision and the random generator, so ``clone()`` is a cheap copy and a
saved game resumes exactly where it stopped.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

from .. import events
from ..errors import (
    RUNTIME_FAULTS,
    IllegalActionError,
    RulesError,
    RulesRuntimeError,
    Span,
    fault_message,
)
from ..events import Tally
from ..limits import LIMITS
from .actions import BINDS, BY_ROUTINE, Action, SetAction
from .budgets import check_game, step_limit, too_long
from .observe import (
    card_seers,
    knows_choice,
    observation,
    refresh_seen,
    set_seen,
    set_seers,
)
from .program import DisplayText
from .save_shape import SAVE_VERSION, check_shape, restore, save_data
from .team_results import ResultFault, TeamResults

if TYPE_CHECKING:
    from .game import Game
    from .program import Program

# The default budgets (a ruleset's 'limit' lines and a run's --limit change them per game).
STEP_LIMIT = LIMITS["steps"][0]  # steps of the rules allowed between two decisions
DECISION_LIMIT = LIMITS["decisions"][0]  # decisions allowed in one game
# What a failing rule raises while it runs; each becomes a located RulesError.
FAULTS = RUNTIME_FAULTS

# How ``State.from_json(data)`` without a game rebuilds one from the save's ruleset text.
# The engine imports no loader: the ``rulesplay`` package installs one (set_game_loader).
_game_loader: Callable[[dict[str, Any]], Game] | None = None


def set_game_loader(loader: Callable[[dict[str, Any]], Game]) -> None:
    """Install how :meth:`State.from_json` rebuilds the game of a save given without one.

    Args:
        loader: ``f(save dict) -> Game``; it raises :class:`RulesError` when the save's
            ruleset text is missing, damaged or does not load.
    """
    global _game_loader
    _game_loader = loader


class State(TeamResults):
    """A game in progress. Create with :meth:`rulesplay.Game.new_state`."""

    __slots__ = ("program", "zones", "where", "g", "pv", "cv", "loc", "stack", "by", "rng",
                 "pending", "terminal", "phase", "events", "span", "_legal", "decisions",
                 "seed", "history", "unseen_choices", "watch", "entries", "work", "chosen",
                 "steps", "check_at", "work_cap", "events_cap", "run_work", "revealed", "seen",
                 "seers", "top_seers", "shown_vars")

    program: Program
    zones: list[list[int]]
    where: list[int]
    g: list[Any]
    pv: list[list[Any]]
    cv: list[list[Any]]
    loc: list[Any]
    stack: list[list[Any]]
    by: list[int | None]
    rng: random.Random
    pending: tuple[int, int] | None
    terminal: bool
    phase: int | None
    events: list[Any] | None  # rulesplay.events kinds; read back as plain dicts
    span: Span | None
    _legal: list[Action] | None
    decisions: int
    seed: int
    history: list[tuple[int, str]]
    unseen_choices: dict[int, int]
    """Open choices of a card that some seats never saw: decision index in ``history`` ->
    the bitmask of those seats (:func:`~rulesplay.engine.observe.seat_bit`). A seat sees
    the card when it sees where the card is when chosen, or sees it arrive somewhere before
    the next decision (see :func:`~rulesplay.engine.observe.knows_choice`)."""
    work: int
    """Cards and numbers gone over by expressions in this game (:mod:`rulesplay.limits`:
    with ``steps``, the ``total`` limit)."""
    work_cap: int
    # the length the event list may reach before a move stops the game: the 'events' limit,
    # or 'steps' more than at the last decision (a loop of moves that never ends)
    events_cap: int
    """The ``work`` at which the game stops: its value at the last decision plus the
    ``work`` limit (a budget per decision)."""
    run_work: int
    """``work`` as the rules left it (what is saved): what a query spends after (listing
    actions, a prompt, scores) is bounded but not kept, so a resumed game counts alike."""
    steps: int
    """Steps of the rules taken in this game (a frame's step, a compiled loop's turn): with
    ``work``, what the ``total`` limit counts (:mod:`rulesplay.limits`)."""
    check_at: int
    """The number of decisions at which the game's budgets are checked next (see
    :func:`~rulesplay.engine.budgets.check_game`)."""
    entries: list[int]
    """How many times each phase (by its index in ``program.phases``) has begun: the
    ``entries`` limit (:mod:`rulesplay.limits`) stops a game whose phases go round for ever."""
    watch: list[int] | None
    """While a choice of a card resolves: ``[card, bitmask of the seats that saw it]``;
    :func:`~rulesplay.engine.effects.move_cards` adds the seats that see it arrive."""
    revealed: tuple[int, ...]
    """The zones revealed in play (``reveal ZONE``, until ``hide ZONE``), sorted: every seat
    sees them (:func:`~rulesplay.engine.observe.set_sight`)."""
    seen: tuple[int, ...]
    """Per zone, the seats its ``seen by`` adds (bitmasks), as last worked out (when the
    game last waited for a decision: :func:`~rulesplay.engine.observe.refresh_seen`);
    empty when no zone has one."""
    shown_vars: tuple[str, ...]
    """The variables revealed in play (``reveal VAR``, until ``hide VAR``), sorted by name:
    every seat sees them (:func:`~rulesplay.engine.observe.var_seers`)."""
    seers: list[int]
    top_seers: list[int]
    """Per zone, the seats that see all its cards (``seers``) and its top card
    (``top_seers``) now, as bitmasks: the program's declared ones with the ``revealed``
    zones seen by all (:func:`~rulesplay.engine.observe.sight_tables`). Replaced, never
    changed in place, so copies share them."""
    chosen: Any
    """The value of the action being applied, for a decision that its lowered routine
    resolves where it resumes (``Decision.resolves``); set by :meth:`apply` just before
    the routine runs, read by nothing else (not saved, not copied)."""

    @classmethod
    def new(cls, program: Program, seed: int, record_events: bool | str = False,
            rng: random.Random | None = None) -> State:
        """A new game: every card in the first zone, variables at their defaults, run to the
        first decision.

        Args:
            program: the compiled game for its number of players.
            seed: seed of the state's random generator.
            record_events: True keeps every event in ``events``; ``"counts"`` keeps only
                their counts (a :class:`~rulesplay.events.Tally`); False keeps none.
            rng: the generator to draw from instead of ``random.Random(seed)`` (a caller
                that gives chance's outcomes itself: the OpenSpiel adapter's explicit
                chance); every draw of the engine goes through its ``_randbelow``.
        """
        s = cls.__new__(cls)
        lay = program.layout
        s.program = program
        s.zones = [[] for _ in range(program.num_zones)]
        s.zones[0] = list(range(program.num_cards))
        s.where = [0] * program.num_cards
        s.rng = random.Random(seed) if rng is None else rng
        s.seed = seed
        s.loc = [None] * program.num_locals
        s.g = [None] * len(lay.gslot)
        s.pv = [[None] * lay.n for _ in lay.pslot]
        s.cv = [[default] * program.num_cards for default in program.card_var_defaults]
        s.by = [None] * program.num_cards
        s.pending, s.terminal, s.phase, s.span = None, False, None, None
        s.events = Tally() if record_events == "counts" else [] if record_events else None
        s._legal = None
        s.decisions = 0
        s.history = []
        s.unseen_choices, s.watch, s.chosen = {}, None, None
        s.entries = [0] * len(program.phases)
        s.work = s.steps = s.check_at = s.run_work = 0
        s.work_cap = program.max_work
        s.events_cap = min(program.max_events, program.max_steps)
        s.revealed, s.seen, s.shown_vars = (), (), ()
        s.seers, s.top_seers = program.zone_seers, program.zone_top_seers
        for slot, default in program.gvars:
            s.g[slot] = default(s, None)
        for slot, default in program.pvars:
            for seat in range(lay.n):
                s.pv[slot][seat] = default(s, None)
        s.stack = [program.nodes[program.start_phase].start(s)]
        s._run()
        return s

    # ------------------------------------------------------------ the engine API
    @property
    def num_players(self) -> int:
        return self.program.layout.n

    def current_player(self) -> int:
        """The seat whose decision it is; -1 when the game is over."""
        return -1 if self.pending is None else self.pending[0]

    def is_terminal(self) -> bool:
        return self.terminal

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take (empty when the game is over)."""
        if self._legal is None:
            if self.pending is None:
                return []
            try:
                self._legal = self.program.nodes[self.pending[1]].legal(self)
            except FAULTS as exc:
                raise self._located(exc) from None
        return self._legal

    def prompt(self) -> str:
        """What the pending decision asks, in the ruleset's words (e.g. "declare red trump")."""
        if self.pending is None:
            return ""
        with self._faults():  # a placeholder may fail (RulesRuntimeError, at its place)
            return self.program.decision(self.pending[1]).prompt(self)

    def seat_prompt(self, seat: int | None) -> str:
        """:meth:`prompt` as ``seat`` (None: an onlooker) is shown it: the values of
        variables it may not see (``owner``, ``hidden``) as ``?``."""
        self.seat_arg(seat)
        if self.pending is None:
            return ""
        with self._faults():
            return self.program.decision(self.pending[1]).seat_prompt(self, seat)

    def sitting_out(self) -> list[int]:
        """The seats that sit out the trick being played now (``sits out if``)."""
        node = None if self.pending is None else self.program.decision(self.pending[1])
        out = 0 if node is None else node.sitting_out(self)
        return [p for p in range(self.num_players) if out >> p & 1]

    def played_for(self) -> int | None:
        """The seat whose card another seat chooses now (``chosen by``: a dummy's), or None."""
        node = None if self.pending is None else self.program.decision(self.pending[1])
        return None if node is None else node.played_for(self)

    def decision_name(self) -> str:
        """The name of the pending decision in the ruleset (``play``, ``declare_trump``...)."""
        return "" if self.pending is None else self.program.decision(self.pending[1]).name

    def apply(self, action: Action | str) -> None:
        """Take ``action`` (an :class:`Action` or its id) for the current player and run the
        game to the next decision.

        Raises:
            IllegalActionError: the game is over or the action is not legal now; the message
                lists the legal action ids.
            RulesRuntimeError: the ruleset failed while running (names the phase).
        """
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        for chosen in legal:  # an action from the current list is found by identity
            if chosen is action:
                break
        else:
            chosen = self._find(action, legal)
        pending = self.pending
        if pending is None:
            self._refuse(action, legal)
        player, index = pending
        prog = self.program
        node = prog.nodes[index]
        if self.decisions >= self.check_at:
            check_game(self)
        log = self.events
        if log is not None and (log.__class__ is not Tally or node.prompt_text.__class__
                                is DisplayText and node.prompt_text.risky):
            self._record(node, player, chosen)
        self.history.append((player, chosen.id))
        self.pending = self._legal = None
        self.decisions += 1
        work = self.work = self.run_work  # (what queries spent since is not kept)
        self.work_cap = work + prog.max_work  # the 'work' budget is per decision
        self.events_cap = min(prog.max_events, len(log) + prog.max_steps) \
            if type(log) is list else prog.max_events
        resolves = node.resolves
        watch = opened = None
        # Who sees an openly chosen card: where it is, where it lands when the choice
        # resolves (a play to the table), and, unless all have, where it goes next.
        if chosen.card and not node.secret:
            card = chosen.value
            if resolves == BY_ROUTINE:
                self.chosen = card  # the routine moves it: the watch sees it land
                if not node.lands_seen:  # (where all see it)
                    watch = self.watch = [card, card_seers(self, card) | 1 << player]
            else:
                z = self.where[card]  # (card_seers, inline: the hot path)
                seen = (self.top_seers[z] if self.zones[z][-1] == card
                        else self.seers[z]) | 1 << player
                if resolves == BINDS:  # (the card stays where it is until the rules move it)
                    self.loc[node.value_slot] = card
                else:
                    try:
                        node.resolve(self, chosen)
                    except FAULTS as exc:
                        raise self._located(exc) from None
                    seen |= card_seers(self, card)
                if seen != prog.everyone:
                    watch = self.watch = [card, seen]
        elif resolves == BINDS:
            self.loc[node.value_slot] = chosen.value
        elif resolves == BY_ROUTINE:
            self.chosen = chosen.value
        else:
            try:
                node.resolve(self, chosen)
            except FAULTS as exc:
                raise self._located(exc) from None
            if chosen.__class__ is SetAction and not node.secret:
                opened = set_seers(self, chosen.value, 1 << player)
        # What _run does, inline (one call less per decision), its first step unrolled.
        stack, step_of, max_steps = self.stack, prog.step_of, prog.max_steps
        try:
            if not stack:
                raise RulesRuntimeError("the phase graph ran out of frames", Span())
            f = stack[-1]
            step_of[f[0]](self, f)
            steps = 1  # (never over the limit: a limit is at least 1)
            while self.pending is None and not self.terminal:
                if not stack:
                    raise RulesRuntimeError("the phase graph ran out of frames", Span())
                f = stack[-1]
                step_of[f[0]](self, f)
                steps += 1
                if steps > max_steps:
                    step_limit(self)
            self.run_work = self.work
        except FAULTS as exc:
            self.span = prog.locate(exc.__traceback__) or self.span
            raise self._located(exc) from None
        finally:
            if opened is not None:
                set_seen(self, opened)
            if watch is not None:
                unseen = ~watch[1] & prog.everyone
                if unseen:
                    self.unseen_choices[len(self.history) - 1] = unseen
                self.watch = None

    def _record(self, node: Any, player: int, chosen: Action) -> None:
        """The decision being applied, in the game's events (a recorded game), or its
        prompt checked (a counted one: 'simulate'), before anything changes."""
        log, prog = self.events, self.program
        if log.__class__ is not Tally:
            assert log is not None
            if len(log) > prog.max_events:  # (a game that is recorded: at each decision)
                too_long(self, "events", prog.max_events)
            with self._faults():  # before anything changes: a failing prompt loses nothing
                prompt, masks = node.masked_prompt(self)
            log.append(events.decision(
                player, prog.phase_name(self), node.name, prompt, chosen.id,
                chosen.label, node.secret, masks, self.played_for()))
        elif node.prompt_text.__class__ is DisplayText and node.prompt_text.risky:
            with self._faults():  # a prompt fails all the same (not in a bot's look-ahead,
                node.prompt_text.check(self)  # which keeps no events)

    def refresh_seen(self) -> None:
        """Work out each zone's ``seen by`` again, as a decision is asked (both engines; see
        :func:`~rulesplay.engine.observe.refresh_seen`)."""
        refresh_seen(self)

    def _find(self, action: Action | str, legal: list[Action]) -> Action:
        """The action of ``legal`` that ``action`` names: by id (a string, or an Action
        that is not from the current list).

        Raises:
            IllegalActionError: none does, or ``action`` is neither an Action nor a string.
        """
        if action.__class__ is str:
            for a in legal:
                if a.id == action:
                    return a
        elif isinstance(action, Action):
            for a in legal:
                if a.id == action.id:
                    return a
        else:
            raise IllegalActionError("an action is an Action or its id (a string), not " + (
                "none" if action is None else f"{type(action).__name__} {action!r}"))
        self._refuse(action, legal)

    def _refuse(self, action: Action | str, legal: list[Action]) -> NoReturn:
        """Raise the error for an action that is not legal now."""
        name = action if isinstance(action, str) else action.id
        if self.terminal:
            raise IllegalActionError(f"the game is over; '{name}' cannot be played")
        ids = ", ".join(a.id for a in legal[:30]) + (" ..." if len(legal) > 30 else "")
        raise IllegalActionError(f"'{name}' is not a legal action for seat "
                                 f"{self.pending[0] if self.pending else '?'} now; "
                                 f"legal: {ids}")

    def _run(self) -> None:
        """Interpret until a decision is pending or the game is over."""
        step_of, stack, max_steps = self.program.step_of, self.stack, self.program.max_steps
        steps = 0
        try:
            while self.pending is None and not self.terminal:
                if not stack:
                    raise RulesRuntimeError("the phase graph ran out of frames", Span())
                f = stack[-1]
                step_of[f[0]](self, f)
                steps += 1
                if steps > max_steps:
                    step_limit(self)
            self.run_work = self.work
        except FAULTS as exc:
            # In generated code, the statement is known by the line that was running.
            self.span = self.program.locate(exc.__traceback__) or self.span
            raise self._located(exc) from None

    @contextmanager
    def _faults(self, span: Span | None = None, what: str = "the rule here") -> Iterator[None]:
        """Turn a failure while running the ruleset into a :class:`RulesRuntimeError` that
        names the phase and points at the statement (or ``span``) that failed."""
        try:
            yield
        except FAULTS as exc:
            raise self._located(exc, span, what) from None

    def _located(self, exc: Exception, span: Span | None = None,
                 what: str = "the rule here") -> RulesError:
        where = span or self.span or Span()  # the statement running when it failed
        phase = self.program.phase_name(self)
        prefix = f"in phase '{phase}': " if phase else ""
        sources = self.program.checked.sources  # the text the game was loaded from
        if isinstance(exc, ResultFault):  # a result rule runs in no phase
            return exc
        if isinstance(exc, RulesError):
            if exc.span == Span():
                exc.span = where
                exc.diagnostics[0].span = where
            if prefix and not exc.message.startswith("in phase"):
                exc.message = prefix + exc.message
                exc.diagnostics[0].message = exc.message
            return exc.attach_source(sources)
        return RulesRuntimeError(f"{prefix}{what} failed ({fault_message(exc)})",
                                 where).attach_source(sources)

    def finish(self) -> None:
        """Mark the game over (called by ``next end`` and ``end game``)."""
        self.terminal = True
        self.pending = None
        if self.events is not None and self.events.__class__ is not Tally:
            self.events.append(events.end(self.scores(), self.winners()))

    def public_history(self, seat: int | None) -> list[tuple[int, str | None]]:
        """Every decision so far as ``seat`` (None: an onlooker) knows it: ``(player,
        action id)``, with the id None for another player's secret choice (``secretly
        chooses``) and for another player's choice of a card ``seat`` never saw (chosen
        from a hand and put face down; see
        :func:`~rulesplay.engine.observe.knows_choice`)."""
        self.seat_arg(seat)
        return [(p, aid if knows_choice(self, i, seat) else None)
                for i, (p, aid) in enumerate(self.history)]

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (see :func:`rulesplay.engine.observe.observation`).

        Raises:
            RulesError: ``seat`` is not a seat of this game (nor None, an onlooker).
        """
        self.seat_arg(seat)
        return observation(self, seat)

    def seat_arg(self, seat: Any, onlooker: bool = True) -> None:
        """Check a seat given to the API: a seat of this game (0 to ``num_players - 1``),
        or None for an onlooker when ``onlooker`` is true.

        Raises:
            RulesError: anything else (another type, or a seat the table does not have),
                saying what is allowed.
        """
        n = self.num_players
        if seat is None and onlooker:
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            shown = repr(seat) if not isinstance(seat, int) else str(seat)
            raise RulesError(f"seat {shown} is not a seat of this game: seats are 0 to "
                             f"{n - 1}" + (", or None for an onlooker" if onlooker else ""))

    # ------------------------------------------------------------ scenarios
    def zone_cards(self, zone: str, owner: int | None = None) -> list[str]:
        """The card ids in a zone, bottom to top (``owner`` for a per-player zone).

        Raises:
            RulesError: an unknown zone; a per-player zone without a seat of this game, or
                a shared zone with an owner.
        """
        return [self.program.card_ids[c] for c in self.zones[self._zone(zone, owner)]]

    def arrange(self, zone: str, owner: int | None, cards: list[str],
                spill: str | None = None) -> None:
        """Set a zone's contents for a scenario: exactly ``cards`` (ids), bottom to top.

        Listed cards are taken from wherever they are; cards that were in the zone and are
        not listed go to the top of ``spill`` (default: the first zone declared). Every card
        stays in exactly one zone. Legal actions are recomputed.

        Raises:
            RulesError: an unknown zone or card id.
        """
        prog = self.program
        target = self._zone(zone, owner)
        spill_zone = self._zone(spill, None) if spill else 0
        index = {cid: i for i, cid in enumerate(prog.card_ids)}
        wanted = []
        for cid in cards:
            if cid not in index:
                raise RulesError(f"unknown card id '{cid}'")
            wanted.append(index[cid])
        for c in list(self.zones[target]):
            if c not in wanted:
                self._relocate(c, spill_zone)
        for c in wanted:
            self._relocate(c, target)
        self._legal = None

    def _relocate(self, c: int, z: int) -> None:
        self.zones[self.where[c]].remove(c)
        self.zones[z].append(c)
        self.where[c] = z

    def _zone(self, zone: str, owner: int | None) -> int:
        lay = self.program.layout
        if zone not in lay.zone_id:
            raise RulesError(f"unknown zone '{zone}'")
        base = lay.zone_id[zone]
        per_player = lay.zone_owner[base] is not None
        if per_player and owner is None:
            raise RulesError(f"zone '{zone}' is one per player: give a seat 0..{lay.n - 1}")
        if not per_player and owner is not None:
            raise RulesError(f"zone '{zone}' is shared: give no owner (None), not {owner!r}")
        if per_player:
            self.seat_arg(owner, onlooker=False)
        return base + (owner or 0) if per_player else base

    def var(self, name: str, seat: int | None = None) -> Any:
        """The value of a global, trick or player variable (``seat`` for player ones; for a
        team variable, the value of that seat's team)."""
        lay = self.program.layout
        if name in lay.gslot:
            return self.g[lay.gslot[name]]
        if name in lay.pslot and seat is not None:
            self.seat_arg(seat, onlooker=False)
            team = name in self.program.team_vars  # (kept at the team's first seat)
            return self.pv[lay.pslot[name]][lay.team_of[seat] if team else seat]
        raise RulesError(f"unknown variable '{name}'")

    # ------------------------------------------------------------ copies
    def clone(self) -> State:
        """An independent copy (the event log is not copied)."""
        return self.copy_with_rng(self.rng.getstate())

    def copy_with_rng(self, rng_state: Any) -> State:
        """:meth:`clone`, its generator set to ``rng_state`` (from ``Random.getstate()``;
        a caller that copies one state often keeps that once), or, when None, not set: the
        caller gives the copy a generator before using it."""
        s = State.__new__(State)
        s.program = self.program
        s.zones = [z[:] for z in self.zones]
        s.where = self.where[:]
        s.g = self.g[:]
        s.pv = [p[:] for p in self.pv]
        s.cv = [c[:] for c in self.cv]
        s.loc = self.loc[:]
        s.stack = [f[:] for f in self.stack]
        s.by = self.by[:]
        # Not Random(), which seeds itself from the OS first (half of a clone's time).
        s.rng = random.Random.__new__(random.Random)
        if rng_state is not None:
            s.rng.setstate(rng_state)
        s.pending, s.terminal, s.phase, s.span = self.pending, self.terminal, self.phase, \
            self.span
        s.events = None
        s._legal = self._legal
        s.decisions = self.decisions
        s.seed = self.seed
        s.history = self.history[:]
        s.unseen_choices, s.watch, s.chosen = dict(self.unseen_choices), None, None
        s.entries = self.entries[:]
        s.work, s.steps, s.check_at, s.work_cap, s.run_work = \
            self.work, self.steps, self.check_at, self.work_cap, self.run_work
        s.events_cap = self.events_cap
        s.revealed, s.seen, s.seers, s.top_seers, s.shown_vars = self.revealed, self.seen, \
            self.seers, self.top_seers, self.shown_vars
        return s

    def to_json(self) -> str:
        """The whole state as JSON text, with the ruleset's text (every file it was composed
        from), its options and the player count, so :meth:`from_json` needs no file."""
        game = self.program.game
        rng = self.rng.getstate()
        bundle = game.bundle.model_dump() if game.bundle is not None else None
        data = {
            "version": SAVE_VERSION, "engine": self.program.engine, "ruleset": bundle,
            "options": game.option_values, "limits": game.limits, "lang": game.lang,
            "players": self.num_players,
            "seed": self.seed,
            "zones": self.zones, "g": self.g, "pv": self.pv, "cv": self.cv, "loc": self.loc,
            "stack": self.stack,
            "by": self.by, "rng": [rng[0], list(rng[1]), rng[2]],
            "pending": list(self.pending) if self.pending else None,
            "terminal": self.terminal, "phase": self.phase, "decisions": self.decisions,
            "history": self.history,
            "unseen_choices": [[i, mask] for i, mask in sorted(self.unseen_choices.items())],
            "entries": self.entries, "steps": self.steps, "work": self.run_work,
            "revealed": list(self.revealed), "seen": list(self.seen),
            "shown_vars": list(self.shown_vars),
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @staticmethod
    def from_json(data: str | dict[str, Any], game: Game | None = None) -> State:
        """Rebuild a saved state.

        Args:
            data: text or dict from :meth:`to_json`.
            game: the game it belongs to; when None, the game is rebuilt from the ruleset
                text and options recorded in the save (no file is read), by the loader
                installed with :func:`set_game_loader`.

        Every part of the save is checked for its shape (cards, seats, frames, decisions,
        counters) before it is used, so a damaged one is refused here; the position itself is
        trusted (a save made by :meth:`to_json`): ``rulesplay resume`` instead replays a
        save's decisions and refuses one that does not follow from them.

        Raises:
            RulesError: the save is not a rulesplay save, or does not fit the ruleset.
        """
        try:
            d = save_data(data)
            if game is None:
                if _game_loader is None:
                    raise RulesError("no game given and no ruleset loader installed "
                                     "(import rulesplay)")
                game = _game_loader(d)
            if d.get("engine") != game.engine:
                raise RulesError(f"this save was written by the "
                                 f"{str(d.get('engine'))[:20]!r} engine; load its game with "
                                 f"that engine to resume it (this one is {game.engine!r})")
            if d["players"].__class__ is not int:
                raise RulesError("the save is damaged (the number of players)")
            prog = game.program(d["players"])
            check_shape(d, prog)
            s = State.__new__(State)
            restore(s, d, prog)
            s._legal = None
            return s
        except RulesError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError,
                RecursionError) as exc:  # (json.JSONDecodeError is a ValueError)
            raise RulesError("the save is damaged or not a rulesplay save "
                             f"({str(exc)[:200]})") from None
