"""Observations and legal masks as numpy arrays, and the chooser that turns an index of
the fixed action space into a move of the game (card by card for a sequenced decision).

    spaces = Spaces(rulesplay.load("hearts"), players=4)
    chooser = Chooser(spaces, game.new_state(num_players=4, seed=1))
    obs = chooser.observe(seat)          # float32, shape (spaces.obs_size,)
    mask = chooser.mask()                # int8, shape (spaces.num_actions,)
    chooser.step(int(np.flatnonzero(mask)[0]))

The layout is :class:`~rulesplay.encode.layout.Layout`'s; the ids are
:class:`~rulesplay.encode.actions.ActionSpace`'s.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..engine.actions import Action
from ..events import HIDDEN
from .actions import ActionSpace, SpaceError
from .layout import Layout, Segment, enum_values

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.program import Program
    from ..engine.state import State

__all__ = ["Chooser", "Spaces"]

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class Spaces:
    """The observation layout and the action space of ``game`` at ``players`` seats.

    Args:
        game: a loaded game (its options are part of it).
        players: the player count.

    Attributes:
        layout, actions: :class:`Layout`, :class:`ActionSpace`.
        card_index: card id -> card number.
        obs_size: the observation vector's length; num_actions: the action count.

    Raises:
        RulesError: the player count or an option is not allowed.
        SpaceError: a decision the space cannot hold.
    """

    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        self.program: Program = game.program(players)
        self.actions = ActionSpace(self.program)
        self.layout = Layout(self.program, self.actions)
        self.obs_size = self.layout.size
        self.num_actions = len(self.actions)
        self._decision_index = {name: i for i, name in enumerate(self.layout.decisions)}
        self.card_index = {cid: c for c, cid in enumerate(self.program.card_ids)}
        self._enum_index = {e.name: {v: i for i, v in enumerate(enum_values(self.program,
                                                                           e.name))}
                            for e in self.program.ruleset.enums}
        self._team_index = {t: i for i, t in enumerate(self.program.layout.team_members)}

    def observe(self, state: State, seat: int, selection: tuple[int, ...] = (),
                seen: dict[str, Any] | None = None) -> Vector:
        """Seat ``seat``'s observation of ``state``: float32, shape ``(obs_size,)``, built
        from ``state.observation(seat)`` only (plus the pending decision's name and
        ``selection``, the card numbers this seat has added so far to a sequenced
        decision). ``seen``: that observation when the caller has it already."""
        lay, prog = self.layout, self.program
        n = prog.layout.n
        out = np.zeros(self.obs_size, dtype=np.float32)
        obs = state.observation(seat) if seen is None else seen
        for seg in lay.segments:
            o, kind = seg.offset, seg.kind
            if kind == "seat":
                out[o + seat] = 1
            elif kind == "current":
                cur = obs["current_player"]
                out[o + (cur if cur >= 0 else n)] = 1
            elif kind == "terminal":
                out[o] = float(obs["terminal"])
            elif kind == "phase":
                if obs["phase"] in lay.phases:
                    out[o + lay.phases.index(obs["phase"])] = 1
            elif kind == "decision":
                name = state.decision_name()
                if name in self._decision_index:
                    out[o + self._decision_index[name]] = 1
            elif kind == "zone":
                self._zone(out, seg, obs["zones"][seg.key])
            elif kind == "trick":
                cards = obs["zones"][seg.key]["cards"]
                if cards:
                    nf = len(lay.faces)
                    for i, cid in enumerate(cards[-n:]):
                        out[o + i * nf + lay.face_index[cid]] = 1
            elif kind == "var":
                self._value(out, o, seg.typ, obs["vars"][seg.key])
            elif kind in ("pvar", "tvar"):
                values = (obs["player_vars"] if kind == "pvar" else obs["team_vars"])[seg.key]
                size = seg.size // max(1, len(values))
                for i, v in enumerate(values):
                    self._value(out, o + i * size, seg.typ, v)
            elif kind == "cvar":
                size = seg.size // max(1, prog.num_cards)
                for cid, values in obs["card_vars"].items():
                    if seg.key in values:
                        self._value(out, o + self.card_index[cid] * size, seg.typ,
                                    values[seg.key])
            elif kind == "selection":
                for c in selection:
                    out[o + lay.face_of[c]] += 1
        return out

    def _zone(self, out: Vector, seg: Segment, zone: dict[str, Any]) -> None:
        o, index = seg.offset, self.layout.face_index
        out[o] = zone["count"]
        if zone["cards"] is not None:
            out[o + 1] = 1
            for cid in zone["cards"]:
                out[o + 2 + index[cid]] += 1
        if seg.top:
            top = zone["top"] if zone["cards"] is None else \
                (zone["cards"][-1] if zone["cards"] else None)
            if top is not None:
                out[o + 2 + len(self.layout.faces) + index[top]] = 1

    def _value(self, out: Vector, o: int, typ: str, v: Any) -> None:
        """Write value ``v`` of type ``typ`` at ``o`` (see the layout's value encodings)."""
        if v is None or v == HIDDEN:
            return
        if typ == "bool":
            out[o + (1 if v else 0)] = 1
        elif typ == "int":
            out[o] = 1
            out[o + 1] = math.copysign(math.log1p(abs(v)), v)
        elif typ == "player":
            out[o + v] = 1
        elif typ == "team":
            out[o + self._team_index[v]] = 1
        elif typ == "card":
            out[o + self.layout.face_of[v]] = 1
        elif typ in self._enum_index:
            out[o + self._enum_index[typ][v]] = 1

    def refusal(self, index: object, legal: list[int], shown: int = 6) -> str:
        """Why action index ``index`` cannot be taken, and the indices that can (at most
        ``shown`` of them with their ids, then how many more).

        Args:
            index: the index asked for (any value: a wrong type is said too).
            legal: the legal indices now, ascending.
            shown: how many legal indices to name.
        """
        ids = self.actions.ids
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            head = f"action {index!r} is not an action index (a whole number)"
        elif not 0 <= index < self.num_actions:
            head = f"action {index} is not an action of this game (indices run 0 to " \
                   f"{self.num_actions - 1})"
        else:
            head = f"action {index} ({ids[index]}) is not legal now"
        if not legal:
            return f"{head}; no action is legal now (the game is over, or another seat is " \
                   "to act)"
        named = ", ".join(f"{i} ({ids[i]})" for i in legal[:shown])
        more = f" and {len(legal) - shown} more" if len(legal) > shown else ""
        return f"{head}; legal now: {named}{more}"

    def legal_indices(self, state: State, selection: tuple[int, ...] = ()) -> list[int]:
        """The indices legal now, ascending (see :meth:`Chooser.mask`).

        Raises:
            SpaceError: a legal action the space does not hold.
        """
        name = state.decision_name()
        legal = state.legal_actions()
        if name not in self.actions.sequenced:
            return sorted({self.actions.index_of(a.id) for a in legal})
        chosen = set(selection)
        adds: set[int] = set()
        out: set[int] = set()
        for a in legal:
            if not isinstance(a.value, tuple):  # the skip (before any card), a pass
                if not selection:
                    out.add(self.actions.index_of(a.id))
                continue
            cards = set(a.value)
            if chosen <= cards:
                adds |= cards - chosen
                if cards == chosen:
                    out.add(self.actions.index_of(f"{name}:done"))
        ids = self.program.card_ids
        out |= {self.actions.index_of(f"{name}:+{ids[c]}") for c in adds}
        return sorted(out)

    def mask(self, state: State, selection: tuple[int, ...] = ()) -> Mask:
        """The legal mask: int8, shape ``(num_actions,)``, 1 at each legal index."""
        out = np.zeros(self.num_actions, dtype=np.int8)
        out[self.legal_indices(state, selection)] = 1
        return out


class Chooser:
    """A state of the game driven by indices of the fixed action space: a sequenced
    decision's cards are gathered in :attr:`selection` until its ``done``, which plays the
    set as one action.

    Args:
        spaces: the game's spaces.
        state: the state to drive (changed in place by :meth:`step`).
    """

    def __init__(self, spaces: Spaces, state: State) -> None:
        self.spaces, self.state = spaces, state
        self.selection: tuple[int, ...] = ()

    def observe(self, seat: int) -> Vector:
        """Seat ``seat``'s observation (its own selection only: others do not see it)."""
        mine = self.selection if seat == self.state.current_player() else ()
        return self.spaces.observe(self.state, seat, mine)

    def legal_indices(self) -> list[int]:
        """The legal indices now, ascending."""
        return self.spaces.legal_indices(self.state, self.selection)

    def mask(self) -> Mask:
        """int8, shape ``(num_actions,)``: 1 at each legal index."""
        return self.spaces.mask(self.state, self.selection)

    def indices(self, action: Action) -> list[int]:
        """The indices that take ``action`` (one of ``state.legal_actions()``, say a bot's
        choice) from here: its own, or for a sequenced decision each of its cards not yet
        selected (card order) and then ``done``."""
        name, actions = self.state.decision_name(), self.spaces.actions
        if name not in actions.sequenced or not isinstance(action.value, tuple):
            return [actions.index_of(action.id)]
        ids = self.spaces.program.card_ids
        return [actions.index_of(f"{name}:+{ids[c]}") for c in action.value
                if c not in self.selection] + [actions.index_of(f"{name}:done")]

    def step(self, index: int) -> Action | None:
        """Take the action at ``index``; returns the game's action when one was applied,
        None when a card was only added to the selection.

        Raises:
            SpaceError: ``index`` is not legal now.
        """
        legal = [] if self.state.is_terminal() else self.legal_indices()
        if index not in legal:
            raise SpaceError(self.spaces.refusal(index, legal))
        aid = self.spaces.actions.ids[index]
        state, name = self.state, self.state.decision_name()
        if name in self.spaces.actions.sequenced and aid.startswith(f"{name}:+"):
            card = self.spaces.card_index[aid.split(":+", 1)[1]]
            self.selection = tuple(sorted((*self.selection, card)))
            return None
        if name in self.spaces.actions.sequenced and aid == f"{name}:done":
            action = next(a for a in state.legal_actions() if a.value == self.selection)
        else:
            action = next(a for a in state.legal_actions() if a.id == aid)
        self.selection = ()
        state.apply(action)
        return action
