"""What a seat sees of a game, as OpenSpiel's observer wants it (strings and float32 tensors).

- **Observation** (``observation_string``/``observation_tensor``): the seat's view now,
  :meth:`~rulesplay.encode.tensor.Spaces.observe`'s vector (``rulesplay spaces FILE``
  prints its layout), with the seat's own partial selection of a decision chosen card by
  card. The string is the seat, the pending decision's name, its selection (in the order
  it picked the cards) and ``state.observation(seat)`` as JSON (sorted keys).
- **Information state** (``information_state_string``/``..._tensor``): perfect recall,
  from the seat's record of what it has observed, in order
  (:mod:`~rulesplay.adapters.recall`: each decision as it knows it, its own picks card by
  card, and its view each time it changed, so a card it saw and that was covered later is
  not forgotten). The string is the observation's, the decisions so far as the seat knows
  them (``state.public_history(seat)``: ``?`` for another seat's secret choice, or its
  choice of a card the seat never saw) and the record's length and digest. The tensor is
  the observation vector followed by ``2 * (recall_tokens + 1)`` entries: the record's
  length, 1 when it is longer than ``recall_tokens``, then per token of its last
  ``recall_tokens`` 1 and the token's 24-bit id (the game's ``recall_tokens`` parameter).

At a chance node (explicit chance) the view is of the position before the step being
drawn (the game's start: an empty view, a zero tensor).

No OpenSpiel import: the adapter (:mod:`rulesplay.adapters.openspiel`) passes states in.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ..encode.tensor import Spaces
    from ..engine.state import State

__all__ = ["SeatObserver", "view_text"]


class SeatObserver:
    """OpenSpiel's Python observer for one kind of view (see the module docstring).

    Args:
        spaces: the game's spaces (the observation layout and the action space).
        perfect_recall: True for the information state, False for the observation.
        recall_tokens: with perfect recall, the tokens of a seat's record in the tensor.

    Attributes:
        tensor: float32, shape ``(spaces.obs_size,)``, or with perfect recall
            ``(obs_size + 2 * (recall_tokens + 1),)``; written by :meth:`set_from`.
        dict: views into it: ``observation`` (obs_size,) and with perfect recall
            ``recall`` (2 * (recall_tokens + 1),).
    """

    def __init__(self, spaces: Spaces, perfect_recall: bool, recall_tokens: int = 0) -> None:
        self.spaces, self.perfect_recall = spaces, perfect_recall
        self.recall_tokens = recall_tokens
        obs = spaces.obs_size
        extra = 2 * (recall_tokens + 1) if perfect_recall else 0
        self.tensor = np.zeros(obs + extra, np.float32)
        self.dict: dict[str, Any] = {"observation": self.tensor[:obs]}
        if perfect_recall:
            self.dict["recall"] = self.tensor[obs:]

    def set_from(self, state: Any, player: int) -> None:
        """Write ``player``'s view of ``state`` (the adapter's state) into :attr:`tensor`."""
        view, selection = state.view(player)
        self.tensor.fill(0)
        if view is None:
            return
        seen = state.core.observation(view, player)
        self.dict["observation"][:] = self.spaces.observe(view, player, selection, seen)
        if self.perfect_recall:
            state.core.recorder.tensor(player, self.recall_tokens, self.dict["recall"])

    def string_from(self, state: Any, player: int) -> str:
        """``player``'s view of ``state`` (the adapter's state) as text."""
        view, selection = state.view(player)
        if view is None:
            return f"seat {player}\nthe game's start (chance)"
        recall = state.core.recorder.summary(player) if self.perfect_recall else None
        return view_text(self.spaces, view, player, selection, recall,
                         state.core.observation(view, player))


def view_text(spaces: Spaces, s: State, seat: int, selection: tuple[int, ...],
              recall: str | None, seen: dict[str, Any] | None = None) -> str:
    """Seat ``seat``'s view of ``s`` as text: the seat, the pending decision, its own
    selection (card ids, in the order picked), its observation as JSON (sorted keys) and,
    for the information state (``recall`` given: the record's summary line), every
    decision so far as ``seat:action id`` (``?`` for one it does not know) and ``recall``.
    ``seen``: ``s.observation(seat)`` when the caller has it already."""
    ids = spaces.program.card_ids
    lines = [f"seat {seat}", f"decision {s.decision_name() or '-'}"]
    if selection:
        lines.append("selection " + " ".join(ids[c] for c in selection))
    lines.append(json.dumps(s.observation(seat) if seen is None else seen, sort_keys=True,
                            ensure_ascii=False, separators=(",", ":"), default=str))
    if recall is not None:
        lines.append("history " + " ".join(f"{p}:{aid or '?'}"
                                           for p, aid in s.public_history(seat)))
        lines.append(recall)
    return "\n".join(lines)
