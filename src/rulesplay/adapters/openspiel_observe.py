"""What a seat sees of a game, as OpenSpiel's observer wants it (strings and float32 tensors).

- **Observation** (``observation_string``/``observation_tensor``): the seat's view now,
  :meth:`~rulesplay.encode.tensor.Spaces.observe`'s vector (``rulesplay spaces FILE``
  prints its layout), with the seat's own partial selection of a decision chosen card by
  card. The string is the seat, the pending decision's name, its selection and
  ``state.observation(seat)`` as JSON (sorted keys).
- **Information state** (``information_state_string``/``..._tensor``): the observation
  and the decisions so far as the seat knows them (``state.public_history(seat)``: another
  seat's secret choice, or its choice of a card the seat never saw, is ``?``). The string
  lists them in order (perfect recall). The tensor adds to the observation vector, per
  seat, how many times it took each action index, and one more entry for its decisions the
  seat does not know (a decision of several cards counts each card's ``+`` index and its
  ``done``): the order of past decisions is not in the tensor.

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

__all__ = ["SeatObserver", "history_counts", "view_text"]


class SeatObserver:
    """OpenSpiel's Python observer for one kind of view (see the module docstring).

    Args:
        spaces: the game's spaces (the observation layout and the action space).
        perfect_recall: True for the information state, False for the observation.

    Attributes:
        tensor: float32, shape ``(spaces.obs_size,)``, or with perfect recall
            ``(obs_size + n * (num_actions + 1),)``; written by :meth:`set_from`.
        dict: views into it: ``observation`` (obs_size,) and with perfect recall
            ``history`` (n, num_actions + 1).
    """

    def __init__(self, spaces: Spaces, perfect_recall: bool) -> None:
        self.spaces, self.perfect_recall = spaces, perfect_recall
        n, obs = spaces.program.layout.n, spaces.obs_size
        extra = n * (spaces.num_actions + 1) if perfect_recall else 0
        self.tensor = np.zeros(obs + extra, np.float32)
        self.dict: dict[str, Any] = {"observation": self.tensor[:obs]}
        if perfect_recall:
            self.dict["history"] = self.tensor[obs:].reshape(n, spaces.num_actions + 1)

    def set_from(self, state: Any, player: int) -> None:
        """Write ``player``'s view of ``state`` (the adapter's state) into :attr:`tensor`."""
        view, selection = state.view(player)
        self.tensor.fill(0)
        if view is None:
            return
        self.dict["observation"][:] = self.spaces.observe(view, player, selection)
        if self.perfect_recall:
            self.dict["history"][:] = history_counts(self.spaces, view, player)

    def string_from(self, state: Any, player: int) -> str:
        """``player``'s view of ``state`` (the adapter's state) as text."""
        view, selection = state.view(player)
        if view is None:
            return f"seat {player}\nthe game's start (chance)"
        return view_text(self.spaces, view, player, selection, self.perfect_recall)


def view_text(spaces: Spaces, s: State, seat: int, selection: tuple[int, ...],
              perfect_recall: bool) -> str:
    """Seat ``seat``'s view of ``s`` as text: the seat, the pending decision, its own
    selection (card ids), its observation as JSON (sorted keys) and, with
    ``perfect_recall``, every decision so far as ``seat:action id`` (``?`` for one it does
    not know)."""
    ids = spaces.program.card_ids
    lines = [f"seat {seat}", f"decision {s.decision_name() or '-'}"]
    if selection:
        lines.append("selection " + " ".join(ids[c] for c in selection))
    lines.append(json.dumps(s.observation(seat), sort_keys=True, ensure_ascii=False,
                            separators=(",", ":"), default=str))
    if perfect_recall:
        lines.append("history " + " ".join(f"{p}:{aid or '?'}"
                                           for p, aid in s.public_history(seat)))
    return "\n".join(lines)


def history_counts(spaces: Spaces, s: State, seat: int) -> Any:
    """Per seat, how many times it took each action index as ``seat`` knows the history,
    and in the last column its decisions ``seat`` does not know: float32, shape
    ``(n, num_actions + 1)``. A set of cards chosen as one action counts as its cards'
    ``NAME:+ID`` indices and ``NAME:done`` when the decision is chosen card by card."""
    acts = spaces.actions
    out = np.zeros((spaces.program.layout.n, len(acts) + 1), np.float32)
    for p, aid in s.public_history(seat):
        if aid is None:
            out[p, -1] += 1
            continue
        i = acts.index.get(aid)
        if i is not None:
            out[p, i] += 1
            continue
        name, _, rest = aid.partition(":")
        if name in acts.sequenced:
            for cid in rest.split("+"):
                j = acts.index.get(f"{name}:+{cid}")
                if j is not None:
                    out[p, j] += 1
            out[p, acts.index[f"{name}:done"]] += 1
        else:
            out[p, -1] += 1
    return out
