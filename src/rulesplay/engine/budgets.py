"""The budgets of a running game (:mod:`rulesplay.limits`): the checks the state and the
generated code call, and the errors that stop a game over one, each at its place."""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from ..errors import LimitError, Span
from ..limits import over_limit

if TYPE_CHECKING:
    from .state import State

CHECK_EVERY = 64  # decisions between two checks of a whole game's steps and work
# A compiled routine counts its loops' turns in a local and hands them to the state in
# batches of this many (a power of two: one test per turn, as the local alone would cost).
STEP_BATCH = 64


def check_game(s: State) -> None:
    """Stop a game over its ``decisions`` or ``total`` limit; the next check is at the
    ``decisions`` limit or the next multiple of :data:`CHECK_EVERY` decisions, whichever
    comes first (so ``total`` may be passed by what those decisions take: at most
    ``CHECK_EVERY`` times the ``steps`` limit).

    Raises:
        LimitError: a budget of the whole game is spent, at the phase.
    """
    prog = s.program
    if s.decisions >= prog.max_decisions:
        too_long(s, "decisions", prog.max_decisions)
    if s.steps + s.run_work > prog.max_total:
        too_long(s, "total", prog.max_total)
    # (at multiples of CHECK_EVERY, so a resumed game stops where it would have)
    s.check_at = min(prog.max_decisions, (s.decisions // CHECK_EVERY + 1) * CHECK_EVERY)


def too_long(s: State, limit: str, value: int) -> NoReturn:
    """Raise the error of a game over its ``decisions``, ``events`` or ``total`` limit
    (``value``), at its phase."""
    prog = s.program
    phase = prog.phases[s.phase] if s.phase is not None else None
    raise LimitError(over_limit(limit, value, prog.phase_name(s)),
                            phase.span if phase is not None else s.span or Span()
                            ).attach_source(prog.checked.sources)


def step_limit(s: State) -> NoReturn:
    """Raise the error of a run over the ``steps`` limit without a decision, at the
    innermost loop running, else the last statement that said where it was, else the
    block (a compiled one says nothing until it fails)."""
    nodes, stack = s.program.nodes, s.stack
    loops = [nodes[f[0]].span for f in stack if getattr(nodes[f[0]], "loop", False)]
    where = loops[-1] if loops else s.span or nodes[stack[-1][0]].span
    raise LimitError(over_limit("steps", s.program.max_steps), where)


def spend_steps(s: State, taken: int, where: Span) -> None:
    """A compiled routine has taken ``taken`` loop turns in this run (a multiple of
    :data:`STEP_BATCH`): the last batch goes to the game's total.

    Raises:
        LimitError: ``taken`` is over the ``steps`` limit, at the loop ``where``; or
            the game is over its ``total``, at its phase.
    """
    s.steps += STEP_BATCH
    if taken > s.program.max_steps:
        raise LimitError(over_limit("steps", s.program.max_steps), where)
    if s.steps + s.work > s.program.max_total:  # (with a raised 'steps': inside a decision)
        too_long(s, "total", s.program.max_total)


def spend_work(s: State, n: int) -> None:
    """A statement has gone over ``n`` cards (a move of several, a shuffle, a deal): they
    count against the ``work`` budget between two decisions; when the game is recorded,
    the events the moves made count against ``events`` now, not only at the next decision
    (a zone of 10,000 cards moved back and forth in one loop made 20 million events).

    Raises:
        LimitError: over the ``work`` or ``events`` budget (no place: the engine
            puts it at the statement running).
    """
    s.work += n
    if s.work > s.work_cap:
        raise LimitError(over_limit("work", s.program.max_work))
    log = s.events
    if log is not None and log.__class__ is list and len(log) > s.events_cap:
        if len(log) > s.program.max_events:
            raise LimitError(over_limit("events", s.program.max_events))
        # More moves since the last decision than the 'steps' limit: each card moved is a
        # step too, so a loop of moves that never ends stops as a loop, not as a game.
        loops = [s.program.nodes[f[0]].span for f in s.stack
                 if getattr(s.program.nodes[f[0]], "loop", False)]
        message = over_limit("steps", s.program.max_steps)
        raise LimitError(message, loops[-1]) if loops else LimitError(message)


def begin_phase(s: State, index: int) -> None:
    """Phase ``index`` begins (both engines call this): count it against the ``entries``
    limit.

    Raises:
        LimitError: the phase has begun more often than the limit, at the phase.
    """
    s.phase = index
    s.entries[index] += 1
    if s.entries[index] > s.program.max_entries:
        phase = s.program.phases[index]
        raise LimitError(over_limit("entries", s.program.max_entries, phase.name),
                                phase.span)
