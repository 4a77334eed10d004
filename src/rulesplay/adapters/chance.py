"""Chance made explicit: a game whose random draws are given from outside, one at a time.

Every draw of the engine (``shuffle ZONE``, ``deal`` after it, ``move ... at random``,
``random(COLL)``) is a ``random.Random`` call that goes through ``_randbelow(n)``:
``shuffle`` draws ``_randbelow(k)`` for ``k`` = the zone's size down to 2, ``choice`` one
``_randbelow(len)``, ``randrange(n)`` one ``_randbelow(n)``. :class:`ChanceRandom` answers
those draws from a list of outcomes and raises :class:`ChanceNeeded` (how many outcomes the
next draw has) when the list runs out. A step of the game (its start, or a decision and
everything the rules do until the next one) cannot be stopped half-way and resumed, so
:class:`Pending` keeps the position before the step and the outcomes given so far, and runs
the step again from that position each time an outcome is added (a 52-card shuffle runs its
step 52 times). Given the outcomes the seeded generator draws, the game is the one that
seed plays (``tests/test_openspiel.py`` checks it in both engines). A draw of one outcome
(``_randbelow(1)``) is no decision of chance: it answers 0 and takes no outcome.

No part of OpenSpiel is needed here (:mod:`rulesplay.adapters.openspiel` builds on it).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..engine.state import State

if TYPE_CHECKING:
    from ..engine.actions import Action
    from ..engine.program import Program

__all__ = ["ChanceNeeded", "ChanceRandom", "Pending", "Recorder", "apply", "start"]


class ChanceNeeded(Exception):  # noqa: N818  (a signal, not an error)
    """The next draw has ``n`` outcomes (0 to ``n - 1``, each of probability ``1/n``) and
    none was given. Raised through the engine, which does not catch it."""

    def __init__(self, n: int) -> None:
        super().__init__(f"a draw of 1 of {n} outcomes")
        self.n = n


class ChanceRandom(random.Random):
    """A generator whose ``_randbelow`` answers from ``outcomes``, in order.

    Args:
        outcomes: the outcomes of the draws, each ``0 <= k < n`` for its draw's ``n``.

    Raises (while drawing):
        ChanceNeeded: the outcomes ran out.
        ValueError: an outcome is not below its draw's ``n``.
        RuntimeError: something drew a float or raw bits (the engine never does: it would
            not be a finite chance node).
    """

    def __init__(self, outcomes: list[int]) -> None:
        super().__init__(0)
        self.outcomes = outcomes
        self.used = 0

    def _randbelow(self, n: int) -> int:
        if n <= 1:
            return 0
        if self.used >= len(self.outcomes):
            raise ChanceNeeded(n)
        k = self.outcomes[self.used]
        if not 0 <= k < n:
            raise ValueError(f"chance outcome {k} is not one of 0..{n - 1}")
        self.used += 1
        return k

    def random(self) -> float:
        raise RuntimeError("a draw of a float is not a finite chance node")

    def getrandbits(self, k: int) -> int:
        raise RuntimeError("a draw of raw bits is not a finite chance node")


class Recorder(random.Random):
    """``random.Random(seed)`` (the very same draws) that notes each ``_randbelow(n)`` draw
    as ``(n, outcome)`` in :attr:`draws`: what to give :class:`Pending` to play the game
    this seed plays.

    Args:
        seed: as for ``random.Random``.
    """

    def __init__(self, seed: int) -> None:
        self.draws: list[tuple[int, int]] = []
        super().__init__(seed)

    def _randbelow(self, n: int) -> int:
        k = super()._randbelow(n)  # type: ignore[misc]  # (private: not in typeshed)
        self.draws.append((n, k))
        return int(k)

    def outcomes(self) -> list[int]:
        """The outcomes of the draws of more than one outcome (the chance decisions)."""
        return [k for n, k in self.draws if n > 1]


class Pending:
    """A step of the game waiting for chance: the position before it, the step (the game's
    start when ``action`` is None, else the decision ``action``), the outcomes given so far
    and the number of outcomes of the next draw.

    Attributes:
        program, seed, record_events: how the game starts (for a pending start).
        before: the state before the step (None for the start); never changed.
        action: the decision the step applies (None for the start).
        outcomes: the outcomes given so far; need: the next draw's number of outcomes.
    """

    __slots__ = ("action", "before", "need", "outcomes", "program", "record_events", "seed")

    def __init__(self, program: Program, seed: int, record_events: bool | str,
                 before: State | None, action: Action | None, outcomes: list[int],
                 need: int) -> None:
        self.program, self.seed, self.record_events = program, seed, record_events
        self.before, self.action = before, action
        self.outcomes, self.need = outcomes, need

    def give(self, outcome: int) -> State | Pending:
        """Run the step again with ``outcome`` added: the state after the step, or the
        step still pending on its next draw (a new :class:`Pending`; this one is kept).

        Raises:
            ValueError: ``outcome`` is not one of ``0 .. need - 1``.
            RulesError: the ruleset failed while running (as :meth:`State.apply`).
        """
        if not isinstance(outcome, int) or not 0 <= outcome < self.need:
            raise ValueError(f"chance outcome {outcome!r} is not one of 0..{self.need - 1}")
        outcomes = [*self.outcomes, outcome]
        if self.before is None:
            return start(self.program, self.seed, self.record_events, outcomes)
        assert self.action is not None
        return apply(self.before, self.action, outcomes)

    def copy(self) -> Pending:
        """A copy sharing the position before the step (which nothing changes)."""
        return Pending(self.program, self.seed, self.record_events, self.before,
                       self.action, self.outcomes[:], self.need)

    def save(self) -> dict[str, Any]:
        """As plain data: the position before the step as the engine's save (JSON text),
        the step's action id, the outcomes and the next draw's size."""
        return {"before": None if self.before is None else self.before.to_json(),
                "action": None if self.action is None else self.action.id,
                "outcomes": self.outcomes[:], "need": self.need, "seed": self.seed}


def start(program: Program, seed: int, record_events: bool | str = False,
          outcomes: list[int] | None = None) -> State | Pending:
    """A new game whose chance is given: its state at the first decision, or its start
    pending on the next draw.

    Args:
        program: the compiled game for its player count.
        seed: kept as the state's ``seed`` (no draw uses it).
        record_events: as :meth:`State.new`.
        outcomes: the outcomes given so far (none by default).
    """
    outcomes = outcomes or []
    rng = ChanceRandom(outcomes)
    try:
        s = State.new(program, seed, record_events, rng=rng)
    except ChanceNeeded as need:
        return Pending(program, seed, record_events, None, None, outcomes, need.n)
    _check_all_used(rng)
    return s


def apply(state: State, action: Action | str, outcomes: list[int] | None = None
          ) -> State | Pending:
    """``state`` after ``action`` with chance given: a new state (``state`` is not
    changed), or the step pending on the next draw.

    Raises:
        IllegalActionError: ``action`` is not legal now.
        RulesError: the ruleset failed while running.
    """
    outcomes = outcomes or []
    s = state.clone()
    if state.events is not None:  # (a clone keeps no account: this one goes on)
        s.events = state.events.copy()
    rng = s.rng = ChanceRandom(outcomes)
    legal = s.legal_actions()
    chosen = action if isinstance(action, str) else action.id
    found = next((a for a in legal if a.id == chosen), None)
    try:
        s.apply(found if found is not None else action)
    except ChanceNeeded as need:
        assert found is not None
        return Pending(state.program, state.seed, False, state, found, outcomes, need.n)
    _check_all_used(rng)
    return s


def _check_all_used(rng: ChanceRandom) -> None:
    if rng.used != len(rng.outcomes):
        raise ValueError(f"{len(rng.outcomes) - rng.used} chance outcomes were given "
                         "beyond the step's draws")
