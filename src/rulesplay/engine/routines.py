"""Lowered routines at run time: a phase (or a block run as a frame of its own) compiled
by :mod:`rulesplay.engine.lower` into one generated Python function.

The function runs as a resumable state machine. Its frame is plain data, ``[node,
resume point, loop slots...]``: it runs from the resume point until a decision is pending,
a child frame is pushed (a trick or a card's ability), the game is over or the routine is
done, saving the resume point in the frame whenever it stops early. So ``clone()``,
``to_json`` and the bots see the same kind of position as with the frame interpreter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import RulesError, RulesRuntimeError, Span
from .actions import Action, ActionCache
from .effects import Node

if TYPE_CHECKING:
    from .state import State


class Routine(Node):
    """A lowered phase or block: ``step`` runs its generated function.

    Args:
        index: the node's index in the program (frames name it).
        name: what it is, for the generated source (``phase hunt``, ``after play``).
        span: where the phase or block is written.

    Attributes (set by the compiler once the source is generated):
        fn: ``fn(state, frame)``, the generated function.
        source: its Python source (only slots, resume points and constant names).
        spans: the statement each source line belongs to (index = line number - 1): a
            fault is located at the statement whose line was running.
        slots: how many loop slots its frame holds after the resume point.
        card_slots, card_list_slots: which of them hold a card id, a list of card ids (a
            loop over cards, a ``trigger``'s cards and the ``this`` it restores), as
            :class:`~rulesplay.engine.effects.Node` says for every frame.
    """

    numbered_resume = True  # its frame's resume point is a number (a save is checked)

    def __init__(self, index: int, name: str, span: Span) -> None:
        self.index, self.name, self.span = index, name, span
        self.fn: Callable[[State, list[Any]], None] = _unset
        self.source = ""
        self.spans: list[Span] = []
        self.slots = 0
        self.card_slots: tuple[int, ...] = ()
        self.card_list_slots: tuple[int, ...] = ()

    def start(self, s: State) -> list[Any]:
        return [self.index, 0, *[None] * self.slots]

    def step(self, s: State, f: list[Any]) -> None:
        # State._run calls ``fn`` itself (Program.step_of) and locates a fault by the
        # line that was running (Program.locate, from ``spans``).
        self.fn(s, f)


def _unset(s: State, f: list[Any]) -> None:  # pragma: no cover - replaced when compiled
    raise RulesRuntimeError("a routine ran before it was compiled")


def fail(message: str, span: Span) -> RulesRuntimeError:
    """The error a routine raises where the frame interpreter raises the same message."""
    return RulesRuntimeError(message, span)


def no_resume(pc: Any) -> RulesError:
    """The error of a routine resumed at a point it does not have (a damaged save)."""
    return RulesError(f"the saved position is damaged (no resume point {str(pc)[:20]} in "
                      "this part of the rules)")


def fixed_listing(actions: ActionCache,
                  values: tuple[Any, ...]) -> tuple[list[Action], Callable[[], list[Action]]]:
    """The actions of ``values`` in order, made on first use: ``(made, fill)``, where
    ``made`` stays empty until ``fill()`` fills it; ``fill`` returns a copy. Generated code
    lists them as ``made[:] if made else fill()`` (a new list each time: the caller may
    keep or change it), with no call once they are made."""
    made: list[Action] = []

    def fill() -> list[Action]:
        if not made:
            made.extend(actions.get(v) for v in values)
        return made[:]
    return made, fill


def turn_order(first: int | None, direction: int, n: int, span: Span) -> list[int]:
    """The seats of ``for each player p from FIRST``, in turn order."""
    if first is None:
        raise RulesRuntimeError("'for each player' starts from none (no seat)", span)
    return [(first + direction * k) % n for k in range(n)]
