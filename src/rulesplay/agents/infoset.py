"""What one seat may know, and worlds consistent with it: :class:`InfoSet` and :class:`Tracker`.

An agent is never handed the true :class:`~rulesplay.State`. It gets an :class:`InfoSet`:
its seat, its observation, its legal actions, the public history (every decision, with
the choice hidden when another seat made it in secret or chose a card this seat never saw)
and :meth:`InfoSet.sample`, which
deals a *determinisation*: a complete state in which the cards the seat cannot see are
placed at random, consistently with everything the seat has seen.

How the sampler stays consistent (and fast)
-------------------------------------------
A :class:`Tracker` (one per agent) rebuilds the game's past privately: it replays the public
decision history from the game's start (same program and seed), so it holds the state just
before every earlier decision. From that replay it keeps, for its seat:

* **Known cards** (:mod:`~rulesplay.agents.knowledge`). A card the seat saw (in a zone it
  sees) that then moved into a zone it cannot see is still known there (a trick taken face
  down into a hidden pile, a discard pile put under the deck), but not its order among the
  cards that went in with it, and after a shuffle there only its zone; a move between two
  zones the seat cannot see reveals no card, so the card becomes unknown again, and so does
  every card known to be in the zone it left (any of them may be the one that moved, e.g. a
  secret pick from a hand); a card the seat never saw stays unknown. Only *unknown* cards
  are dealt; then known cards are shuffled among the places they may be in (their block,
  or their zone), within their kind.
* **Revealed constraints.** For each earlier decision by another seat ``p`` (but a blind
  pick, which names a position and is legal whatever the cards are): a private clone of
  the state before it and the action taken. A sampled world is valid only if that action would
  have been legal in the past state rebuilt from the sample. The rebuild: each zone of ``p``
  the seat cannot see held, then, the cards of it whose whereabouts the seat knows now (e.g.
  played since) plus the unknown cards the sample puts in that zone now. That is exact when no
  unknown card entered the zone since (sizes tell); otherwise the constraint is dropped for
  that zone (never over-constrain). All other unseen cards of the past state are laid out in a
  canonical (sorted) order, so nothing in a check depends on where the true cards are.

A card's kind is public (the backs of different kinds differ), so an unknown card is only
ever dealt into an unseen place that now holds a card of its kind, and a record's zone is
checked exactly only when the unknown cards now in it have the kinds of the cards it held
then that are not accounted for.

Sampling is then a *constrained deal*: each constraint is first turned into per-card
exclusions (card ``x`` cannot be in zone ``z`` when the action would have been illegal with
``x`` there; e.g. a seat that did not follow red holds no red card), computed once per
constraint and cached; unknown cards are dealt most-constrained first into the unseen slots
they are allowed in. Exclusions assume a card that makes an action illegal keeps it illegal
with more cards beside it (true of follow-suit rules: ``not any(hand, ...)``). Every deal is
then checked exactly against all live constraints; a failing deal is rejected and redealt, up
to ``tries`` times, after which the deal with the fewest violations is used and counted in
``Tracker.stats["fallbacks"]``.

What it costs. The exclusions (a legality test of a record's working copy:
:meth:`~rulesplay.engine.choices.Decision.allows` tests the one action taken, not the whole
list) are worked out when the plan of a decision is made and kept while the record's layout
stays the same; most of a bot's time not spent playing goes there. A record is first tested
with every candidate card in its zone at once: when that is legal, by the assumption above
no card alone refuses it (a lead, a card that followed suit), and one test does for all;
only otherwise is each card tested alone. A
record none of whose zones holds unknown cards now costs a glance, so does one whose test
reads no card's place (declaring trump: :func:`_fixed` finds it once); one whose test reads
each card alone (following suit: ``Decision.per_card``) has its exclusions only, as they say
all its check would (:func:`_by_exclusions`), and a record's
concealment is made from the history as the seat knows it, which the tracker extends at
each decision (:func:`~rulesplay.engine.observe.told_history`). A check
moves cards into a working copy and puts every card back in its place, and asks no chance
(the validator keeps it out of what a choice lists), so its answer depends on the layout and
the moved cards only: answers are kept per layout, and a new layout reuses the copy. What
every sample of one decision shares (the deal's bins, the scrambled groups, the concealment)
is made once per decision (:class:`~rulesplay.agents.deal.Dealer`,
:class:`~rulesplay.agents.knowledge.Scrambler`); draws go through
:mod:`~rulesplay.agents.draws` (the very draws of ``random.Random``, fewer Python calls).

Everything a sample depends on is public or the seat's own (zone sizes, cards seen, moves
seen, the history) and the agent's generator: permuting the cards the seat cannot see in the
true state leaves every sample, hence every choice, unchanged.

Choices the seat does not know (:func:`~rulesplay.engine.observe.knows_choice`): another
seat's ``secretly chooses`` decision, and another seat's choice of a card this seat never saw
(chosen from a hand and discarded face down), or of a set of cards one of which it saw
neither where it was nor where it went (``chooses 2 cards`` put face down), are never
constraints; in every sample (and every record's working copy) the local variable they set
is reset to ``none`` (a set: no cards) and their action ids in ``history`` read
``"<choice>:?"`` (:func:`~rulesplay.engine.observe.conceal`). An open set (played to the
table, a meld laid face up) is a constraint like any open choice: the seat held those cards.

Variables the seat may not see (declared ``owner`` of another seat, or ``hidden``) hold their
declared default in every sample and every record's working copy (``conceal`` again), and so
does every card variable on a card the seat cannot see where it is now (a ``public`` one is
seen only with its card), not a
value drawn from what the seat could infer: simple, and nothing a bot decides depends on their
true values (two states that differ only there give the same samples).

What the interpreter holds names cards by id: a local name holding a card or cards, and the
items of its frames that hold them (a loop over cards still running, a ``trigger``'s cards:
each node's ``card_slots`` and ``card_list_slots``, on both engines). A sample re-points
each at the card it dealt to the true card's place
(:func:`~rulesplay.engine.observe.repoint_cards`), so a loop over an unseen zone goes on
over the sample's cards, in the sample's order. Other values held while a seat decides (a
loop over ``values(...)``, a ``repeat`` count, a ``let`` number) are copied as they are: the
validator refuses those worked out from what the deciding seat cannot see
(:mod:`rulesplay.validate.held`).

Limits: a card's place is told by the zones as they were at the last decision, so in a run
of rules with no decision between a shuffle of a zone and a card taken from it the seat
forgets the places of its known cards there (never learns more than it saw); which
statement runs (the branch
an ``if`` took) is the true one, which is why the validator refuses a decision reached by a
test its seat cannot see (:mod:`rulesplay.validate.branches`); knowledge that follows
only from the rules' logic, not from seeing cards (a deal that gives each seat a whole suit
by rule), is not inferred: those cards are sampled as unknown.
"""

from __future__ import annotations

import random
import weakref
from collections import Counter
from itertools import islice
from typing import Any

from ..engine.choices import Action
from ..engine.observe import (
    Told,
    conceal,
    concealment,
    repoint_cards,
    told_history,
    unseen_by,
    visible_to,
)
from ..engine.program import Program
from ..engine.state import FAULTS, State
from ..errors import RulesError
from .deal import Dealer
from .draws import LateSeeded
from .knowledge import Knowledge, Scrambler
from .replay import NO_CHANCE, Replay, Step, replay_for

__all__ = ["InfoSet", "Tracker"]

CHECKS_KEPT = 4096  # answers of exact checks kept per record (a deal may come again)


def _views(s: State, seat: int) -> list[str]:
    """:func:`~rulesplay.engine.observe.visible_to` of every zone for ``seat``, in one go
    (``"all"``, ``"top"`` or ``"none"`` per zone)."""
    bit = 1 << seat  # (Program.seat_bit of a seat)
    tops = s.top_seers
    return ["all" if seers & bit else "top" if tops[z] & bit else "none"
            for z, seers in enumerate(s.seers)]


def _seen_cards(s: State, seat: int, views: list[str] | None = None) -> set[int]:
    """The cards ``seat`` sees now (whole visible zones and the top of ``top`` zones);
    ``views``: :func:`_views` of ``s``, when already worked out."""
    out: set[int] = set()
    for content, how in zip(s.zones, views or _views(s, seat), strict=True):
        if how == "all":
            out.update(content)
        elif how == "top" and content:
            out.add(content[-1])
    return out


def _unseen_slots(s: State, seat: int, views: list[str] | None = None) -> list[tuple[int, int]]:
    """(zone, size) of every zone with cards ``seat`` cannot see (a ``top`` zone without its
    top card); ``views``: :func:`_views` of ``s``, when already worked out."""
    out = []
    for z, how in enumerate(views or _views(s, seat)):
        if how == "none":
            out.append((z, len(s.zones[z])))
        elif how == "top" and len(s.zones[z]) > 1:
            out.append((z, len(s.zones[z]) - 1))
    return out


class _Record:
    """One earlier decision by another seat: the state before it (private) and the action."""

    __slots__ = ("seat", "action", "act", "state", "zones", "hidden", "work", "work_key", "excl",
                 "tested", "traffic", "past", "frame", "checked", "over", "told", "fixed",
                 "source", "keeps")

    def __init__(self, state: State, observer: int, action: str) -> None:
        self.seat = state.current_player()
        self.action = action
        self.act = next(a for a in state.legal_actions() if a.id == action)  # its Action
        self.state = state
        views = _views(state, observer)
        self.zones = [z for z, owner in enumerate(state.program.layout.zone_owner)
                      if owner == self.seat and views[z] != "all"]
        self.hidden = {c for z, _ in _unseen_slots(state, observer, views)
                       for c in _unseen_part(state, z, observer, views)}
        self.past = {z: _unseen_part(state, z, observer, views) for z in self.zones}  # then
        self.work: State | None = None
        self.work_key: Any = None
        self.excl: dict[int, set[int]] = {}
        self.tested: dict[int, set[int]] = {}
        self.traffic: dict[int, int] = {}  # the tracker's unseen-move counts at this point
        self.frame: _Frame | None = None  # what every layout of the working copy shares
        self.checked: dict[tuple[int, ...], bool] = {}  # _check's answers, by the deal
        self.over = False  # unseen moves since into or out of each of its zones: no check
        self.told: Told | None = None  # its history as the observer knows it (told_history)
        self.fixed: bool | None = None  # legal whatever the cards (_fixed), once worked out
        self.source: int | None = None  # the zone its card was taken from (_by_exclusions)
        self.keeps = False  # its exclusions hold in every layout (_keeps), once laid out


class _Frame:
    """What every layout of a record's working copy shares (it depends on the record and
    the observing seat only): the other unseen zones to fill and the kind of each of their
    places, where left-over cards of each kind go, which zones keep a visible top card
    and what the seat does not know of the choices made before."""

    __slots__ = ("fill", "fill_kinds", "last_of_kind", "spill", "last", "top", "concealment",
                 "steady", "hidden", "unseen")

    def __init__(self, rec: _Record, seat: int) -> None:
        s = rec.state
        kind_of = s.program.layout.kind_of
        own = set(rec.zones)
        views = _views(s, seat)
        self.fill = [(z, [kind_of[c] for c in _unseen_part(s, z, seat, views)])
                     for z, _ in _unseen_slots(s, seat, views) if z not in own]
        # (z, kinds, the one kind of all its places or None): what a layout deals
        self.fill_kinds = [(z, kinds, kinds[0] if kinds and len(set(kinds)) == 1 else None)
                           for z, kinds in self.fill]
        self.last_of_kind: dict[str, int] = {}
        for z, kinds, one in self.fill_kinds:
            for k in (one,) if one is not None else set(kinds):
                self.last_of_kind[k] = z
        self.spill = None
        if not self.fill:  # no other unseen zone: put the rest on top of some other zone
            self.spill = next(z for z in range(len(s.zones)) if z not in own)
        last = self.fill[-1][0] if self.fill else self.spill
        assert last is not None  # no unseen zone to fill: spill was chosen above
        self.last: int = last
        self.top = {z: views[z] == "top" and bool(s.zones[z])
                    for z in [*rec.zones, *(z for z, _ in self.fill)]}
        self.concealment = plan = concealment(s, seat, rec.told)
        # Whether concealing sets the same values in every layout: the defaults of the
        # variables the seat may not see read nothing a layout changes, and card variables
        # are reset on the same cards (those dealt among unseen places: no spill).
        self.steady = plan is None or (
            all(_steady_default(s.program, kind, slot) for kind, slot, _ in plan[2])
            and not (plan[3] and self.spill is not None))
        hidden = sorted(rec.hidden)
        kinds_hidden = {kind_of[c] for c in hidden}
        # the hidden cards by kind, each in order (the kinds as their first cards are)
        self.hidden = [hidden] if len(kinds_hidden) == 1 else \
            sorted([c for c in hidden if kind_of[c] == k] for k in kinds_hidden)
        # The cards the seat does not see in a layout, worked out from the first one: every
        # layout puts the same cards (the hidden ones) in unseen places, unless some spill
        # into a zone the seat sees.
        self.unseen: list[int] | None = None


def _unplayed_copy(s: State) -> State:
    """A copy of ``s`` that will only be asked for its legal actions, never played on:
    its generator (copying one costs more than the rest) is
    :data:`~rulesplay.agents.replay.NO_CHANCE`."""
    w = s.copy_with_rng(None)
    w.rng = NO_CHANCE
    return w


def _unseen_part(s: State, z: int, seat: int, views: list[str] | None = None) -> list[int]:
    content = s.zones[z]
    how = views[z] if views is not None else visible_to(s, z, seat)
    return content[:-1] if how == "top" else list(content)


class Tracker:
    """Keeps, for one seat, what it knows about a game: replays the public history privately.

    Args:
        seat: the observing seat.
        tries: deals tried per sample before falling back to the best one found.

    ``stats`` counts ``samples``, ``rejected`` (deals failing an exact check) and
    ``fallbacks`` (samples that still violate a constraint after ``tries`` deals).
    """

    def __init__(self, seat: int, tries: int = 20) -> None:
        self.seat = seat
        self.tries = tries
        self.stats = {"samples": 0, "rejected": 0, "fallbacks": 0}
        self._reset(None)

    def _reset(self, replay: Replay | None) -> None:
        self.replay = replay
        self.at = replay.first if replay is not None else 0  # decisions read so far
        self.records: list[_Record] = []
        # The replay's history as this seat knows it, extended at each decision (what a
        # record's concealment needs, without going over the whole history for each): from
        # the replay's start, never from where a shared replay has got to (that would tell
        # the earlier records of decisions made after them).
        self._told: Told = told_history(replay.cur, self.seat) \
            if replay is not None and replay.first else ([], {})  # (a restart: fresh)
        self.alive: list[_Record] = []  # the records not yet over, in order
        self.knowledge = Knowledge(self.seat)
        self.known = self.knowledge.known  # card -> the unseen zone it is known to be in
        self.traffic = self.knowledge.traffic  # zone -> moves in or out this seat did not see

    @property
    def cur(self) -> State | None:
        """The private replay of the game, at the decision last synced to."""
        return self.replay.cur if self.replay is not None else None

    # ------------------------------------------------------------ following the game
    def sync(self, state: State) -> None:
        """Bring the private replay up to ``state`` (the true current state).

        The replay starts from the game's seed and applies ``state.history`` (one replay for
        every tracker that follows the game: :func:`~rulesplay.agents.replay.replay_for`);
        when that does not reproduce what the seat sees in ``state`` (a scenario built with
        ``arrange`` or a loaded save), the tracker starts afresh from ``state`` with no
        memory of the past.
        """
        replay = self.replay
        if replay is None or not replay.follows(state):
            try:
                replay = replay_for(state)
            except RulesError:
                self._restart(state)
                return
            self._reset(replay)
            if replay.opening is not None:
                self._observe(replay.opening)
        # (held throughout: the replay of another game on another thread that has gone the
        # same way so far must not move on while this tracker reads it)
        with replay.lock:
            gone = not replay.follows(state)  # (that other game went on with it meanwhile)
            if not gone:
                same = self._follow(replay, state)
        if gone:
            self.replay = None
            self.sync(state)
        elif not same:  # (None: the history does not replay)
            self._restart(state)

    def _follow(self, replay: Replay, state: State) -> bool | None:
        """Advance ``replay`` to ``state`` and read the decisions this tracker has not read
        yet (with the replay's lock held); whether the seat's view of the replay is its view
        of ``state`` then, or None when the history does not replay."""
        try:
            replay.advance(state.history)
        except RulesError:
            return None
        seat, first = self.seat, replay.first
        bit = 1 << seat  # (Program.seat_bit of a seat)
        for step in replay.steps[self.at - first:]:
            # Another seat's public decision constrains samples; a secret one cannot
            # (this seat does not know what was chosen), nor can a blind pick (legal
            # whichever cards lie where: it names a position), nor one legal whatever
            # the cards; nor a choice of a card this seat never saw (a face-down
            # discard).
            if step.past is not None and step.player != seat and not step.unseen & bit:
                record = _Record(step.past, seat, step.aid)
                record.traffic = dict(self.traffic)
                told = told_history(step.past, seat, self._told)
                record.told = (told[0][:], dict(told[1]))
                self.records.append(record)
                self.alive.append(record)
            self._observe(step)
        self.at = len(replay.cur.history)
        return self._same_view(replay.cur, state)

    def _restart(self, state: State) -> None:
        """No usable past: follow the game from ``state`` on (cards seen now are not known
        once hidden; nothing revealed earlier constrains samples)."""
        cur = state.clone()
        cur.events = []
        self._reset(Replay(cur, new_game=False))

    def _observe(self, step: Step) -> None:
        """Update what the seat knows from the moves of ``step``."""
        if step.events:
            assert self.replay is not None
            prog = self.replay.cur.program
            self.knowledge.observe(prog, step.seers, step.top_seers, step.events, step.before,
                                   self._card_index(prog))

    _index: dict[str, int] | None = None

    def _card_index(self, prog: Any) -> dict[str, int]:
        if self._index is None or len(self._index) != prog.num_cards:
            self._index = {cid: i for i, cid in enumerate(prog.card_ids)}
        return self._index

    def _same_view(self, a: State, b: State) -> bool:
        if a.pending != b.pending or len(a.zones) != len(b.zones):
            return False
        for ca, cb, how in zip(a.zones, b.zones, _views(a, self.seat), strict=True):
            if len(ca) != len(cb) or (how == "all" and ca != cb) or (
                    how == "top" and ca and ca[-1] != cb[-1]):
                return False
        return True

    def infoset(self, state: State) -> InfoSet:
        """The information set of the tracker's seat at ``state`` (syncs first)."""
        self.sync(state)
        info = InfoSet(state, self.seat, self)
        replay = self.replay
        if replay is not None:
            with replay.lock:  # (a shared replay may be moved on by another game)
                if len(replay.cur.history) == len(state.history) and replay.follows(state):
                    # The history as the seat knows it, for the samples' concealment: the
                    # replay's (it is the game's), now, as the tracker goes on extending it.
                    told = told_history(replay.cur, self.seat, self._told)
                    info._told = (told[0][:], dict(told[1]))
        return info


class InfoSet:
    """Everything one seat may use to decide, built by the driver for the acting seat.

    Attributes:
        seat: the deciding seat.
        game: the :class:`rulesplay.Game` (rules and options are public).
        legal_actions: the seat's legal actions now.

    The true state is held privately (``_state``) and only used to copy public parts and
    the seat's own cards; agents must use :attr:`observation`, :attr:`history` and
    :meth:`sample`. The observation and the history are computed on first use (most agents
    never read the history, which grows with the game), then kept.
    """

    def __init__(self, state: State, seat: int, tracker: Tracker | None = None) -> None:
        self._state = state
        self._tracker = tracker
        self.seat = seat
        self.game = state.program.game
        self.legal_actions: list[Action] = list(state.legal_actions())
        self._decisions = len(state.history)  # the history as of now, if read later
        self._history: tuple[tuple[int, str | None], ...] | None = None
        self._obs: dict[str, Any] | None = None
        self._plan: Any = None
        self._dealer: Dealer  # with the plan
        self._scrambler: Scrambler  # with the plan
        self._conceal: Any = False  # concealment(state, seat), worked out once
        self._unseen: list[int] | None = None  # with it: the cards the seat does not see
        self._told: Told | None = None  # told_history(state, seat), when the tracker knows it

    @property
    def history(self) -> tuple[tuple[int, str | None], ...]:
        """The public history: ``(seat, action id)`` of every decision before this one, the
        id None for another seat's secret choice or choice of a card this seat never saw
        (``state.public_history(seat)``)."""
        if self._history is None:
            seen = self._state.public_history(self.seat)[:self._decisions]
            self._history = tuple(seen)
        return self._history

    @property
    def observation(self) -> dict[str, Any]:
        """``state.observation(seat)``: the seat's view as plain data."""
        if self._obs is None:
            self._obs = self._state.observation(self.seat)
        return self._obs

    @property
    def num_players(self) -> int:
        return self._state.num_players

    # ------------------------------------------------------------ sampling
    def sample(self, rng: random.Random) -> State:
        """A determinisation: a full state consistent with what the seat has seen.

        Each unknown card is dealt only into an unseen place that now holds a card of the
        same kind (kinds are public), every zone keeps its size, known and seen cards stay
        put, and what the seat does not know of other seats' choices is concealed
        (:func:`~rulesplay.engine.observe.conceal`).

        Args:
            rng: the agent's generator (the only source of randomness; the sample's own
                generator is reseeded from it too, so future chance is not the true one).

        Returns:
            A new :class:`State` the agent may play forward freely.
        """
        plan = self._plan or self._make_plan()
        slots, kinds, unknown, allowed, checks, groups, constrained = plan
        dealer = self._dealer
        tr = self._tracker
        best, best_bad = None, None
        tries = tr.tries if tr is not None and constrained else 1
        check = self._check
        for _ in range(tries):
            deal = dealer.deal(rng)
            if deal is None:
                continue
            bad = 0
            for rec, zones in checks:
                if not check(rec, zones, deal):
                    bad += 1
            if bad == 0:
                best, best_bad = deal, 0
                break
            if tr is not None:
                tr.stats["rejected"] += 1
            if best_bad is None or bad < best_bad:
                best, best_bad = deal, bad
        if tr is not None:
            tr.stats["samples"] += 1
            if best_bad is None or best_bad > 0:
                tr.stats["fallbacks"] += 1
        if best is None:  # no deal respects the exclusions: deal without them
            best = dealer.deal(rng, constrained=False)
            assert best is not None
        return self._build(slots, best, groups, rng)

    def _make_plan(self) -> Any:
        s, seat, tr = self._state, self.seat, self._tracker
        kind_of = s.program.layout.kind_of
        known = tr.known if tr is not None else {}
        # Unseen places per zone: (zone, [indices of unknown cards]) and the kind of the card
        # at each of those indices (public); known cards stay put.
        slots: list[tuple[int, list[int]]] = []
        kinds: dict[int, list[str]] = {}
        unknown: list[int] = []
        views = _views(s, seat)
        for z, size in _unseen_slots(s, seat, views):
            content = s.zones[z]
            idx = [i for i in range(size) if known.get(content[i]) != z]
            if idx:
                slots.append((z, idx))
                kinds[z] = [kind_of[content[i]] for i in idx]
                unknown.extend(content[i] for i in idx)
        unknown.sort()
        zone_kinds = {z: Counter(ks) for z, ks in kinds.items()}
        checks: list[tuple[_Record, list[int]]] = []
        constrained = False  # some record checks or excludes (a deal is then tried again)
        excl: dict[int, set[int]] = {}
        dealt = set(unknown)
        if tr is not None:
            located = _seen_cards(s, seat, views)  # the cards the seat sees or knows the zone of
            located.update(known)
            traffic = tr.traffic
            fits_in: dict[int, set[int]] = {}  # zone -> the unknown cards of its kinds
            one_kind = len(set(kind_of)) == 1  # (then the sizes say all of the kinds)
            every = set(unknown) if one_kind else None
            ended = False
            for rec in tr.alive:
                # Unseen moves into or out of a zone since (never undone) end its checks.
                # Most records have no zone that may be checked now (none holds unknown
                # cards, e.g. the hand a past trick was played from is empty): skipped
                # before anything is worked out for them.
                moved = rec.traffic
                alive = may_check = False
                for z in rec.zones:
                    if traffic.get(z, 0) == moved.get(z, 0):
                        alive = True
                        if z in zone_kinds:
                            may_check = True
                            break
                if not alive:
                    rec.over = ended = True
                    rec.work = rec.frame = None  # (kept no longer)
                    continue
                if not may_check or rec.fixed:
                    continue
                live = []
                accounted: list[tuple[int, list[int]]] = []
                for z in rec.zones:
                    past = rec.past[z]
                    acc = [c for c in past if c in located]
                    accounted.append((z, acc))
                    # Exact only when the unknown cards now in z are as many, and of the same
                    # kinds, as the cards of z then that are not accounted for.
                    if z in zone_kinds and traffic.get(z, 0) == moved.get(z, 0) \
                            and len(past) - len(acc) == len(kinds[z]) \
                            and (one_kind or Counter(kind_of[c] for c in past
                                                     if c not in located) == zone_kinds[z]):
                        live.append(z)
                if not live:
                    continue
                # A record whose exclusions hold in every layout keeps its working copy
                # (and its exclusions) until an exact check needs the layout of now.
                if rec.work is None or not rec.keeps:
                    self._prepare(rec, accounted)
                if rec.fixed is None:
                    rec.fixed = _fixed(rec)
                    if rec.fixed:
                        continue
                constrained = True
                if not _by_exclusions(rec, self.seat, dealt):
                    if rec.keeps:
                        self._prepare(rec, accounted)
                    checks.append((rec, live))
                for z in live:
                    fits = fits_in.get(z)
                    if fits is None:
                        fits = every if every is not None else \
                            {c for c in unknown if kind_of[c] in zone_kinds[z]}
                        fits_in[z] = fits
                    ex = self._exclusions(rec, z, fits)
                    if ex:
                        excl.setdefault(z, set()).update(ex)
            if ended:
                tr.alive = [rec for rec in tr.alive if not rec.over]
        allowed = None
        if excl:
            # Most cards are excluded nowhere: they share their kind's list of zones.
            zones_of = {k: [z for z, _ in slots if k in zone_kinds[z]]
                        for k in {kind_of[c] for c in unknown}}
            somewhere = set().union(*excl.values())
            allowed = {c: zones_of[kind_of[c]] if c not in somewhere else
                       [z for z in zones_of[kind_of[c]] if c not in excl.get(z, ())]
                       for c in unknown}
        # Known cards whose places the seat does not know (moved in together, or shuffled
        # since) are shuffled among their places after the deal.
        groups = tr.knowledge.places(s, slots) if tr is not None else []
        self._dealer = Dealer(slots, kinds, unknown, allowed, kind_of)
        self._scrambler = Scrambler(s, groups, {(z, i) for z, idx in slots for i in idx}
                                    if groups else set())
        self._plan = (slots, kinds, unknown, allowed, checks, groups, constrained)
        return self._plan

    def _prepare(self, rec: _Record, accounted: list[tuple[int, list[int]]]) -> None:
        """Lay out the record's working copy: its seat's unseen zones hold only the cards
        accounted for; all other unseen cards fill the other unseen places of their kind in
        sorted order (left-over cards go to the last such zone). Other seats' secret
        choices are concealed in it."""
        key = tuple((z, tuple(acc)) for z, acc in accounted)
        if rec.work is not None and rec.work_key == key:
            return
        frame = rec.frame
        if frame is None:
            frame = rec.frame = _Frame(rec, self.seat)
            rec.keeps = _keeps(rec, frame)
        # The layout below places every hidden card and touches no other card, and checks
        # put back what they move: the last layout's copy is reused, unless concealing sets
        # variables from the layout (``frame.steady``), which a fresh copy of the true
        # values must then get.
        w = rec.work
        plan = frame.concealment
        if w is None or not frame.steady:
            w = _unplayed_copy(rec.state)
        kind_of = w.program.layout.kind_of
        placed = {c for _, acc in accounted for c in acc}
        # The other hidden cards of each kind in order, the kinds in the order of their
        # first such card, dealt in turn to the places of their kind.
        rest = []
        spill = frame.spill
        for cards in frame.hidden:
            left = [c for c in cards if c not in placed]
            if left:
                rest.append(left)
        rest.sort()
        deck = {kind_of[cards[0]]: iter(cards) for cards in rest}  # kind -> its next cards
        take = {k: cards_of.__next__ for k, cards_of in deck.items()}
        layout = {}
        for z, kinds, one in frame.fill_kinds:
            if one is not None:  # (places of one kind: a slice)
                layout[z] = list(islice(deck[one], len(kinds)))
            else:
                layout[z] = [take[k]() for k in kinds]
        if spill is not None:
            layout[spill] = list(rec.state.zones[spill])
        for k, cards_of in deck.items():
            layout[frame.last_of_kind.get(k, frame.last)].extend(cards_of)
        top = frame.top
        for z, acc in accounted:
            _set_zone(w, z, acc, top[z])
        for z, cards in layout.items():
            _set_zone(w, z, cards, z != spill and top[z])
        if plan is not None:
            unseen = frame.unseen
            if unseen is None and plan[3]:
                unseen = unseen_by(w, self.seat)
                if spill is None:
                    frame.unseen = unseen
            conceal(w, self.seat, plan, unseen)
        w._legal = None
        rec.work, rec.work_key = w, key
        # Exclusions found with another layout may not hold for this one (and keeping them
        # would make samples depend on what was asked before, e.g. not replay after a
        # resume), unless they hold in every layout (_keeps).
        rec.checked = {}
        if not rec.keeps:
            rec.excl, rec.tested = {}, {}

    def _exclusions(self, rec: _Record, z: int, unknown: set[int]) -> set[int]:
        """Cards that cannot be in zone ``z`` given the record's action (cached)."""
        ex = rec.excl.setdefault(z, set())
        tested = rec.tested.setdefault(z, set())
        todo = unknown - tested
        if not todo:
            return ex & unknown
        w = rec.work
        assert w is not None
        tested |= todo
        ex |= todo - rec.hidden
        cands = todo & rec.hidden
        # Legal with every candidate in z at once: by the assumption exclusions rest on
        # (a card that makes the action illegal keeps it so beside more cards), no card
        # alone refuses it. One test instead of one per card: most past decisions (a
        # lead, a card that followed suit) refuse no card.
        if len(cands) > 1 and _legal_with(w, rec.act, [(z, sorted(cands))]):
            return ex & unknown
        ex |= _refusing(w, rec.act, cands, z)
        return ex & unknown

    def _check(self, rec: _Record, zones: list[int], deal: dict[int, list[int]]) -> bool:
        w = rec.work
        assert w is not None
        hidden = rec.hidden
        for z in zones:
            if not hidden.issuperset(deal[z]):
                return False
        if len(zones) == 1:
            z = zones[0]
            cards = deal[z]
            key: tuple[int, ...] = (z, *cards)
            ok = rec.checked.get(key)
            if ok is None:  # the answer depends on the working copy and the moves only
                ok = _legal_with_one(w, rec.act, z, cards) if len(cards) <= BULK_MOVE \
                    else _legal_with(w, rec.act, [(z, cards)])
                if len(rec.checked) >= CHECKS_KEPT:
                    rec.checked.clear()
                rec.checked[key] = ok
            return ok
        key = tuple(c for z in zones for c in (-1 - z, *deal[z]))
        ok = rec.checked.get(key)
        if ok is None:  # the answer depends on the working copy and the moves only
            ok = _legal_with(w, rec.act, [(z, deal[z]) for z in zones])
            if len(rec.checked) >= CHECKS_KEPT:
                rec.checked.clear()
            rec.checked[key] = ok
        return ok

    def _build(self, slots: list[tuple[int, list[int]]], deal: dict[int, list[int]],
               groups: list[list[tuple[int, int]]], rng: random.Random) -> State:
        s = self._state.copy_with_rng(None)  # its generator is reseeded below
        where, zones = s.where, s.zones
        for z, idx in slots:
            cards = deal[z]
            if len(cards) == len(zones[z]):  # (every place of the zone: the deal's own list)
                zones[z] = cards
            else:
                content = zones[z]
                for i, c in zip(idx, cards, strict=True):
                    content[i] = c
            for c in cards:
                where[c] = z
        if groups:
            self._scrambler(s, rng)  # within zones: ``where`` stays right
        repoint_cards(self._state, s)
        if self._conceal is False:
            self._conceal = concealment(self._state, self.seat, self._told)
            # The cards the seat does not see: the same in every sample (they are dealt
            # among their own places), worked out once.
            self._unseen = unseen_by(self._state, self.seat) \
                if self._conceal is not None and self._conceal[3] else None
        conceal(s, self.seat, self._conceal, self._unseen)
        s.rng = LateSeeded(rng.getrandbits(64))  # (most samples never draw)
        s._legal = None
        return s


class _Tripped(Exception):
    """A probe read what it must not (see :class:`_Tripwire`)."""


class _Tripwire:
    """Stands in for the parts of a record's working copy that differ between its layouts
    and deals (the zones, ``where``, the variables a concealment may set) while
    :func:`_fixed` probes the record's test: any use of it raises and is remembered."""

    __slots__ = ("hit",)

    def __init__(self) -> None:
        self.hit = False

    def _trip(self, *args: Any) -> Any:
        self.hit = True
        raise _Tripped

    __getitem__ = __setitem__ = __delitem__ = __iter__ = __len__ = __contains__ = _trip
    __bool__ = __eq__ = __ne__ = __lt__ = __add__ = __radd__ = __mul__ = __hash__ = _trip

    def __getattr__(self, name: str) -> Any:
        return self._trip()


def _fixed(rec: _Record) -> bool:
    """Whether the record's action is legal in its working copy without reading the cards'
    places or a variable a concealment may set: the test then reads only what every layout
    and deal of the record leaves as it is, so every check of it passes and it excludes no
    card (a choice from ``bool`` or an enum, without ``where``), and the sampler can leave
    it out with the same samples. Any read of those parts (or a failure) says no. The copy
    is restored as it was, its work counter too."""
    w: Any = rec.work
    assert w is not None and w.pending is not None
    kept = (w.zones, w.where, w.g, w.pv, w.cv, w.work, w.work_cap)
    wire = _Tripwire()
    w.zones = w.where = w.g = w.pv = w.cv = wire
    w._legal = None
    try:
        ok = bool(w.program.nodes[w.pending[1]].allows(w, rec.act))
    except Exception:  # (a trip, or whatever the test makes of one: not fixed)
        ok = False
    finally:
        w.zones, w.where, w.g, w.pv, w.cv, w.work, w.work_cap = kept
        w._legal = None
    return ok and not wire.hit


def _by_exclusions(rec: _Record, seat: int, dealt: set[int]) -> bool:
    """Whether the record's exclusions say all its exact check would: every deal they allow
    passes it. So when its decision tests each card alone (``Decision.per_card``: a card's
    play that must follow suit), its action is a card's, which is not dealt (so it stays
    where it was), and the zone it was taken from is one of the record's own (the cards
    dealt into it are the ones that zone gets in the check) or one ``seat`` sees whole
    (nothing dealt comes from it or goes to it). A card that alone leaves the action legal
    beside the cards the zone holds then leaves it legal beside any other such cards, so a
    deal that keeps every excluded card out passes, and leaving the check out changes no
    sample. (The exclusions are those of :meth:`InfoSet._exclusions`, tested alone or,
    when all are legal together, all at once, which implies each alone here.)"""
    w = rec.work
    assert w is not None and w.pending is not None
    node = w.program.nodes[w.pending[1]]
    act = rec.act
    if node.per_card is None or not act.card or act.__class__ is not Action \
            or act.value in dealt:
        return False
    if rec.source is None:
        try:
            rec.source = node.per_card(w, None)
        except FAULTS:
            rec.source = -1
    z = rec.source
    return z in rec.zones or 0 <= z < len(w.seers) and bool(w.seers[z] >> seat & 1)


def _keeps(rec: _Record, frame: _Frame) -> bool:
    """Whether the record's exclusions are the same in every layout of its working copy, so
    that they may be kept from one layout to the next: its decision tests each card alone
    (``Decision.per_card``) and the concealment sets the same values in every layout
    (``_Frame.steady``).

    Why: such a test, with the values that read no card's place fixed, is ``and`` of
    ``all(SOURCE, t)`` parts (``not any`` is one) whose ``t`` reads the card alone; it held
    with the true zone then, so every part it rests on holds with any cards of that zone,
    the accounted-for ones of a layout included, and a card ``x`` added to them refuses the
    action exactly when some ``t(x)`` fails, whatever the layout. The cards accounted for
    in a layout are always cards the zone truly held."""
    s = rec.state
    assert s.pending is not None  # a record's state waits for the decision it records
    if s.program.nodes[s.pending[1]].per_card is None:
        return False
    return frame.steady


_STEADY: weakref.WeakKeyDictionary[Program, dict[tuple[str, int], bool]] = \
    weakref.WeakKeyDictionary()  # (a program's answers live as long as it does)


def _steady_default(prog: Program, kind: str, slot: int) -> bool:
    """Whether the declared default of a variable (``kind`` ``"g"``, ``"p"`` or ``"c"``,
    as :func:`~rulesplay.engine.observe.unseen_vars`) is the same in every state of the
    game: a card variable's is a constant; another's, worked out of a state holding only
    the program, reads nothing else (a constant expression)."""
    if kind == "c":
        return True
    known = _STEADY.setdefault(prog, {})
    steady = known.get((kind, slot))
    if steady is None:
        default = (prog.gvars if kind == "g" else prog.pvars)[slot][1]
        probe = State.__new__(State)  # (every other part unset: reading one fails)
        probe.program = prog
        try:
            default(probe, None)
            steady = True
        except Exception:  # (a read of an unset part, or a fault: not steady)
            steady = False
        known[kind, slot] = steady
    return steady


def _set_zone(w: State, z: int, cards: list[int], keep_top: bool) -> None:
    """Replace the unseen part of zone ``z`` of ``w`` with ``cards`` (``where`` updated for
    the new cards; cards pushed out are expected to be placed elsewhere by the caller).
    ``cards`` becomes the zone's list when there is no top to keep: a list of its own."""
    w.zones[z] = cards + w.zones[z][-1:] if keep_top else cards  # (the caller's own list)
    where = w.where
    for c in cards:
        where[c] = z


def _refusing(w: State, action: Action, cards: set[int], z: int) -> set[int]:
    """The cards of ``cards`` with which, moved alone to the top of zone ``z``, ``action``
    is not legal in ``w`` (what :func:`_legal_with` says of each, in one loop: this is
    asked for every unknown card and every constraint at every decision)."""
    out: set[int] = set()
    if not cards:
        return out
    zones, where = w.zones, w.where
    target = zones[z]
    assert w.pending is not None  # a record's state waits for the decision it records
    node = w.program.nodes[w.pending[1]]
    w._legal = None
    for x in cards:
        src = where[x]
        content = zones[src]
        i = content.index(x)
        del content[i]
        target.append(x)
        where[x] = z
        try:
            ok = node.allows(w, action)
        except FAULTS:
            ok = True  # the rebuilt past cannot be evaluated: do not constrain
        finally:
            target.pop()
            content.insert(i, x)
            where[x] = src
        if not ok:
            out.add(x)
    return out


def _legal_with(w: State, action: Action, moves: list[tuple[int, list[int]]]) -> bool:
    """Whether ``action`` is legal in ``w`` with, for each ``(z, cards)`` of ``moves``,
    ``cards`` moved in order to the top of zone ``z``; ``w`` is restored afterwards, every
    card back in its place (so the answer depends on ``w`` and ``moves`` only, never on
    the checks made before)."""
    zones, where = w.zones, w.where
    if sum(len(cards) for _, cards in moves) > BULK_MOVE:
        return _legal_with_many(w, action, moves)
    back = []
    for z, cards in moves:
        for c in cards:
            src = where[c]
            content = zones[src]
            i = content.index(c)
            del content[i]
            back.append((c, src, i))
        zones[z].extend(cards)
        for c in cards:
            where[c] = z
    w._legal = None
    assert w.pending is not None  # a record's state waits for the decision it records
    try:
        ok = bool(w.program.nodes[w.pending[1]].allows(w, action))  # (legal_actions()?)
    except FAULTS:
        ok = True  # the rebuilt past cannot be evaluated: do not constrain
    finally:
        for z, cards in reversed(moves):
            del zones[z][len(zones[z]) - len(cards):]
        for c, src, i in reversed(back):
            zones[src].insert(i, c)
            where[c] = src
        w._legal = None
    return ok


def _legal_with_one(w: State, action: Action, z: int, cards: list[int]) -> bool:
    """``_legal_with(w, action, [(z, cards)])`` for a few cards (the check of most
    samples: one zone of a record), with fewer steps."""
    zones, where = w.zones, w.where
    back = []
    for c in cards:
        src = where[c]
        content = zones[src]
        i = content.index(c)
        del content[i]
        back.append((content, i, c, src))
    target = zones[z]
    size = len(target)
    target += cards
    for c in cards:
        where[c] = z
    w._legal = None
    assert w.pending is not None  # a record's state waits for the decision it records
    try:
        ok = bool(w.program.nodes[w.pending[1]].allows(w, action))
    except FAULTS:
        ok = True  # the rebuilt past cannot be evaluated: do not constrain
    finally:
        del zones[z][size:]
        for content, i, c, src in reversed(back):
            content.insert(i, c)
            where[c] = src
        w._legal = None
    return ok


BULK_MOVE = 16  # cards moved at once above which _legal_with_many is the faster


def _legal_with_many(w: State, action: Action, moves: list[tuple[int, list[int]]]) -> bool:
    """:func:`_legal_with` for many cards: the zones touched get new lists and the old
    ones are put back (a few comprehensions instead of a search, a removal and an
    insertion per card)."""
    zones, where = w.zones, w.where
    kept, old_where = zones[:], where[:]
    moving = {c for _, cards in moves for c in cards}
    for src in {where[c] for c in moving}:
        zones[src] = [c for c in zones[src] if c not in moving]
    for z, cards in moves:
        zones[z] = zones[z] + cards
        for c in cards:
            where[c] = z
    w._legal = None
    assert w.pending is not None  # a record's state waits for the decision it records
    try:
        ok = bool(w.program.nodes[w.pending[1]].allows(w, action))
    except FAULTS:
        ok = True  # the rebuilt past cannot be evaluated: do not constrain
    finally:
        zones[:] = kept
        where[:] = old_where
        w._legal = None
    return ok
