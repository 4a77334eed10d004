"""The layout of a seat's observation vector: named segments at fixed offsets, worked out
from the compiled program alone, so every state of a game (ruleset, options, player count)
gives a vector of the same length whose entries always mean the same thing.

Only what the seat may see goes in: the vector is written from
:meth:`State.observation(seat) <rulesplay.engine.state.State.observation>` (which decides
visibility: :mod:`rulesplay.engine.observe`), the pending decision's name, and the cards
the seat has picked so far in a decision chosen card by card. Segments, in order:

- ``seat`` (n): one-hot, the observing seat. ``current player`` (n + 1): one-hot, the
  seat to decide, the last entry when nobody is (the game is over). ``terminal`` (1).
- ``phase`` (phases): one-hot, the phase the game is in. ``decision`` (decisions):
  one-hot, the pending decision (every seat sees what is being decided, not how).
- one per zone (per-player zones once per seat), ``zone NAME[SEAT]``: its number of cards
  (seen by all), 1 when the seat sees its cards now, then the count of each *face* among
  its cards when seen (zeros when not); a ``top`` zone adds the face of its top card
  (one-hot) when the seat sees it. A face is a card's kind and attributes: copies of a
  card are one face (the faces are listed by ``rulesplay spaces``).
- ``trick ZONE``: for each zone a trick is played into, the last n cards in it in the
  order played (oldest first), one face one-hot per position, when the seat sees them.
- ``var NAME`` (global and trick variables), ``player var NAME`` (per seat, seat 0 first),
  ``team var NAME`` (per team), ``card var NAME`` (per card, in card order, for the cards
  the seat sees with the values it may see); each value by its type (:func:`value_size`):
  ``bool`` two entries (false, true); a number two entries (1 when known, then
  ``sign(v) * ln(1 + |v|)``); an enum one-hot over its values; a player one-hot over the
  seats; a team one-hot over the teams; a card one-hot over the faces. A value the seat
  may not see, or none, is all zeros.
- ``selection`` (faces), in a game with a decision chosen card by card
  (:data:`~rulesplay.encode.actions.SEQUENCE_ABOVE`): the cards this seat has added so far
  to it; zeros otherwise.

Seats are absolute (seat 0 first), with the observer's own index in ``seat``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import ir
from .actions import ActionSpace

if TYPE_CHECKING:
    from ..engine.program import Program

__all__ = ["Layout", "Segment", "value_size"]


@dataclass
class Segment:
    """One named part of the observation vector.

    Attributes:
        name: e.g. ``zone hand[2]``, ``player var points``.
        offset, size: where it starts and how many float32 entries it has.
        meaning: what the entries hold, in words.
        kind: what writes it (``seat``, ``current``, ``terminal``, ``phase``,
            ``decision``, ``zone``, ``trick``, ``var``, ``pvar``, ``tvar``, ``cvar``,
            ``selection``).
        key: the zone id or variable name it reads (None when it needs none).
        typ: a variable's type (what :func:`value_size` encodes), else "".
        top: a zone segment that ends with its top card's face.
    """

    name: str
    offset: int
    size: int
    meaning: str
    kind: str
    key: Any = None
    typ: str = ""
    top: bool = False


def value_size(typ: str, prog: Program, faces: int) -> int:
    """How many entries a value of type ``typ`` takes (0: not encoded)."""
    if typ in ("bool", "int"):
        return 2
    if typ == "player":
        return prog.layout.n
    if typ == "team":
        return len(prog.layout.team_members)
    if typ == "card":
        return faces
    return len(enum_values(prog, typ))


def value_meaning(typ: str, prog: Program) -> str:
    """What the entries of a value of type ``typ`` hold, in words."""
    if typ == "bool":
        return "false, true"
    if typ == "int":
        return "known, sign(v)*ln(1+|v|)"
    if typ in ("player", "team", "card"):
        return f"one-hot {typ}"
    values = enum_values(prog, typ)
    if values:
        return "one-hot " + ", ".join(values)
    return f"not encoded (type {typ})"


def enum_values(prog: Program, typ: str) -> list[str]:
    """The one-hot entries of a value of enum ``typ`` (empty when ``typ`` is no enum): its
    values, then those of every enum that shares all of them (``enum strain: suit,
    notrump``), since such a value may be stored in a ``typ`` variable."""
    enum = next((e for e in prog.ruleset.enums if e.name == typ), None)
    if enum is None:
        return []
    names = [v.name for v in enum.values]
    for other in prog.ruleset.enums:
        others = [v.name for v in other.values]
        if other is not enum and set(names) <= set(others):
            names += [v for v in others if v not in names]
    return names


def _card_faces(prog: Program) -> tuple[list[str], list[int]]:
    """The faces (a card's kind and attributes: copies are one face) as display names, and
    each card's face index."""
    names: list[str] = []
    index: dict[str, int] = {}
    face_of: list[int] = []
    for c in range(prog.num_cards):
        key = prog.layout.kind_of[c] + repr(sorted(prog.card_attrs[c].items(), key=str))
        if key not in index:
            index[key] = len(names)
            names.append(prog.card_ids[c].rsplit("#", 1)[0])
        face_of.append(index[key])
    return names, face_of


def _trick_zones(prog: Program) -> list[int]:
    """The shared zones a trick is played into (by name in the ruleset)."""
    lay = prog.layout
    out: list[int] = []
    for node in ir.walk(prog.ruleset):
        if isinstance(node, ir.Trick) and isinstance(node.zone, ir.Name):
            z = lay.zone_id.get(node.zone.id)
            if z is not None and lay.zone_owner[z] is None and z not in out:
                out.append(z)
    return out


class Layout:
    """The observation layout of a game compiled for one player count.

    Args:
        prog: the compiled program.
        actions: its action space (the decision names come from it).

    Attributes:
        segments: in order; size: the vector's length; faces: the face names;
        face_of: each card's face index; face_index: card id -> face index.
    """

    def __init__(self, prog: Program, actions: ActionSpace) -> None:
        self.prog = prog
        lay = prog.layout
        n = lay.n
        self.faces, self.face_of = _card_faces(prog)
        self.face_index = {cid: self.face_of[c] for c, cid in enumerate(prog.card_ids)}
        self.decisions = [b.name for b in actions.blocks]
        self.phases = [p.name for p in prog.phases]
        self.trick_zones = _trick_zones(prog)
        self.segments: list[Segment] = []
        nf = len(self.faces)
        add = self._add
        add("seat", n, "one-hot: the observing seat", "seat")
        add("current player", n + 1, "one-hot: the seat to decide; the last entry: nobody",
            "current")
        add("terminal", 1, "1 when the game is over", "terminal")
        add("phase", len(self.phases), "one-hot: " + ", ".join(self.phases), "phase")
        add("decision", len(self.decisions),
            "one-hot: the pending decision: " + ", ".join(self.decisions), "decision")
        for z in range(prog.num_zones):
            owner = lay.zone_owner[z]
            name = lay.zone_name[z] + ("" if owner is None else f"[{owner}]")
            top = prog.zone_visibility[z] == "top"
            add(f"zone {name}", 2 + nf * (2 if top else 1),
                "cards, seen (0/1), count per face" + (", top card's face" if top else ""),
                "zone", z, top=top)
        for z in self.trick_zones:
            add(f"trick {lay.zone_name[z]}", n * nf,
                f"the last {n} cards played, oldest first: one face one-hot each", "trick", z)
        types = {(v.scope, v.name): v.type for v in prog.ruleset.vars}
        scope_of = {v.name: v.scope for v in prog.ruleset.vars}
        for name in lay.gslot:
            typ = types.get((scope_of.get(name, "global"), name), "")
            add(f"var {name}", value_size(typ, prog, nf), value_meaning(typ, prog), "var",
                name, typ)
        teams = len(lay.team_members)
        for name in lay.pslot:
            typ = types.get((scope_of.get(name, "player"), name), "")
            size = value_size(typ, prog, nf)
            if name in prog.team_vars:
                add(f"team var {name}", teams * size,
                    f"per team: {value_meaning(typ, prog)}", "tvar", name, typ)
            else:
                add(f"player var {name}", n * size,
                    f"per seat: {value_meaning(typ, prog)}", "pvar", name, typ)
        for name in lay.cslot:
            typ = types.get(("card", name), "")
            add(f"card var {name}", prog.num_cards * value_size(typ, prog, nf),
                f"per card: {value_meaning(typ, prog)}", "cvar", name, typ)
        if actions.sequenced:  # (only a game with a decision chosen card by card has it)
            add("selection", nf, "count per face: the cards picked so far in a decision "
                "chosen card by card", "selection")
        self.size = sum(s.size for s in self.segments)

    def _add(self, name: str, size: int, meaning: str, kind: str, key: Any = None,
             typ: str = "", top: bool = False) -> None:
        offset = sum(s.size for s in self.segments)
        self.segments.append(Segment(name, offset, size, meaning, kind, key, typ, top))

    def segment(self, name: str) -> Segment:
        """The segment called ``name``.

        Raises:
            KeyError: no such segment.
        """
        for s in self.segments:
            if s.name == name:
                return s
        raise KeyError(name)
