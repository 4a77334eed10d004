"""A game cut short by its budget: the adapters end it there as *truncated* (PettingZoo's
``truncations``, OpenSpiel's terminal state with zero returns) instead of raising.

The engine checks a whole game's budgets (:mod:`rulesplay.limits`: ``decisions`` and
``total``) when the next decision is taken (:func:`~rulesplay.engine.budgets.check_game`),
before that decision changes anything: a state at which that check would fail is a clean
position, the last one of the game. :func:`spent` says whether a state is one. (A budget
spent between two decisions, such as ``steps``, stops the rules half-way through a step,
with no clean position to end at: it still raises.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..limits import over_limit

if TYPE_CHECKING:
    from ..engine.state import State

__all__ = ["spent"]


def spent(state: State) -> str | None:
    """Why the game at ``state`` cannot take its next decision, or None when it can.

    Args:
        state: the engine's state at a decision (a finished game: None).

    Returns:
        The engine's message for the budget spent (``decisions`` or ``total``, naming the
        phase and how to raise it), or None.
    """
    if state.terminal or state.pending is None or state.decisions < state.check_at:
        return None
    prog = state.program
    if state.decisions >= prog.max_decisions:
        return over_limit("decisions", prog.max_decisions, prog.phase_name(state))
    if state.steps + state.run_work > prog.max_total:
        return over_limit("total", prog.max_total, prog.phase_name(state))
    return None
