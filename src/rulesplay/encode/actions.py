"""The fixed action space of a game: every action id its decisions can produce, numbered,
read from the compiled program (no game is played to find them).

Each decision (by name, in the order the program holds them) gets a block of ids:

- a choice of one card, a trick's play: every card (``play:hearts-12``), and ``NAME:K`` for
  a blind pick by position (:func:`~rulesplay.engine.card_sets.action_space`);
- several cards as one decision (``chooses 3 cards``, ``plays 1..4 cards``): every set the
  count and shape allow (``NAME:ID+ID+ID``, the same function), unless there are more than
  :data:`SEQUENCE_ABOVE` of them; then the decision is *sequenced*: the set is chosen card by
  card with ``NAME:+ID`` (add that card) and ends with ``NAME:done`` (see
  :class:`~rulesplay.encode.tensor.Chooser`);
- a choice of values: ``NAME:VALUE`` for every value the domain's type allows (``no``/``yes``;
  an enum's values; seats; teams; the numbers of a range whose ends are fixed before play,
  or of a card attribute, ``values(CARDS, it.ATTR)``, else :data:`NUMBERS_UNKNOWN`);
- ``NAME:skip`` for a ``may choose`` (a choice that names its skips: ``NAME:skip-WORD`` for
  each, ``skip "pass" as passing``), ``pass`` for a climbing trick.

An id is a string, so it means the same in every game of the ruleset at that player count
and with those options; its index is its position in :attr:`ActionSpace.ids`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import ir
from ..engine.card_sets import action_space
from ..engine.choices import ChooseNode, Decision, skip_ids
from ..validate.constants import value_before_play
from ..validate.functions import UNKNOWN

if TYPE_CHECKING:
    from ..engine.program import Program

__all__ = ["NUMBERS_UNKNOWN", "SEQUENCE_ABOVE", "ActionSpace", "Block", "SpaceError"]

# A decision of several cards with more ways than this is chosen card by card (Hearts'
# pass of 3 of 52 cards has 22,100 ways; one of 1..4 cards of one rank, 1,365 x 4 / 13).
SEQUENCE_ABOVE = 2_000
# A number chosen from a range whose ends are known only during play (a bid of 0 to the
# hand size) is taken to lie in 0..the number of cards in the game; a value outside
# stops the adapter with a SpaceError naming the choice.
NUMBERS_UNKNOWN = "0..the number of cards in the game"


class SpaceError(ValueError):
    """An action or decision the fixed action space cannot hold (the message says which
    and why)."""


@dataclass
class Block:
    """The ids of one decision in the action space.

    Attributes:
        name: the decision's name (``play``, ``bid``...).
        kind: ``cards`` (one card), ``sets`` (several cards, every set an id), ``sequence``
            (several cards, chosen card by card), ``values``.
        start: the index of its first id.
        ids: its ids, in order.
        note: how the ids were found when that is an assumption (numbers of a range known
            only in play), else "".
    """

    name: str
    kind: str
    start: int
    ids: list[str] = field(default_factory=list)
    note: str = ""


class ActionSpace:
    """Every action id of a game compiled for one player count, numbered from 0.

    Args:
        prog: the compiled program (:meth:`rulesplay.Game.program`).

    Attributes:
        ids: the ids by index; index: id -> index; blocks: one per decision name.
        sequenced: the names of sequenced decisions (chosen card by card).

    Raises:
        SpaceError: a choice of values whose domain has no type the space can list.
    """

    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.ids: list[str] = []
        self.blocks: list[Block] = []
        self.sequenced: set[str] = set()
        by_name: dict[str, list[Decision]] = {}
        for node in prog.nodes:
            if isinstance(node, Decision):
                by_name.setdefault(node.name, []).append(node)
        placed: set[str] = set()  # (an id once: a climbing trick's 'pass' in two blocks)
        chooses: dict[str, list[ir.Choose]] = {}
        for node in ir.walk(prog.ruleset):
            if isinstance(node, ir.Choose):
                chooses.setdefault(node.name, []).append(node)
        for name, nodes in by_name.items():
            block = self._block(name, nodes, chooses.get(name, []))
            block.start = len(self.ids)
            block.ids = [i for i in dict.fromkeys(block.ids) if i not in placed]
            placed.update(block.ids)
            self.ids.extend(block.ids)
            self.blocks.append(block)
        self.index: dict[str, int] = {aid: i for i, aid in enumerate(self.ids)}

    def __len__(self) -> int:
        return len(self.ids)

    def index_of(self, action_id: str) -> int:
        """The index of ``action_id``.

        Raises:
            SpaceError: an id the space does not hold (a number outside the range assumed
                for it, see :data:`NUMBERS_UNKNOWN`).
        """
        i = self.index.get(action_id)
        if i is None:
            name = action_id.split(":", 1)[0]
            note = next((b.note for b in self.blocks if b.name == name and b.note), "")
            raise SpaceError(f"action '{action_id}' is not in the action space"
                             + (f" ('{name}': {note})" if note else ""))
        return i

    def block_of(self, name: str) -> Block:
        """The block of decision ``name``.

        Raises:
            SpaceError: no decision of that name.
        """
        for b in self.blocks:
            if b.name == name:
                return b
        raise SpaceError(f"no decision named '{name}'")

    # ------------------------------------------------------------ building
    def _block(self, name: str, nodes: list[Decision], decls: list[ir.Choose]) -> Block:
        card_nodes = [n for n in nodes if _takes_cards(n)]
        if card_nodes and len(card_nodes) < len(nodes):
            raise SpaceError(f"'{name}' chooses cards in one place and values in another: "
                             "give the two choices different names")
        if not card_nodes:
            return self._values(name, nodes, decls)
        sets = [getattr(n, "sets", None) for n in nodes]
        if any(s is not None for s in sets):
            ways = max(s.bound(self.prog.num_cards) for s in sets if s is not None)
            if ways > SEQUENCE_ABOVE:
                self.sequenced.add(name)
                ids = [f"{name}:+{cid}" for cid in self.prog.card_ids] + [f"{name}:done"]
                ids += _extras(name, nodes)
                return Block(name, "sequence", 0, ids,
                             f"{ways:,} sets, more than {SEQUENCE_ABOVE:,}: chosen card by "
                             "card, then done")
            return Block(name, "sets", 0, action_space(self.prog, name))
        return Block(name, "cards", 0, action_space(self.prog, name))

    def _values(self, name: str, nodes: list[Decision], decls: list[ir.Choose]) -> Block:
        prog = self.prog
        ids: list[str] = []
        notes: list[str] = []
        for decl in decls:
            values, note = self._domain(decl)
            if note:
                notes.append(note)
            node = next((n for n in nodes if isinstance(n, ChooseNode)), None)
            if node is None:
                ids.extend(f"{name}:{prog.value_id(v)}" for v in values)
            else:
                ids.extend(node.actions.get(v).id for v in values)
        ids += _extras(name, nodes)
        return Block(name, "values", 0, ids, "; ".join(dict.fromkeys(notes)))

    def _domain(self, decl: ir.Choose) -> tuple[list[Any], str]:
        """The values a choice's domain can hold, by its type, and a note when they are
        assumed (see :data:`NUMBERS_UNKNOWN`).

        Raises:
            SpaceError: a type the space cannot list.
        """
        prog, lay = self.prog, self.prog.layout
        typ = prog.checked.types.get(id(decl.domain), "any")
        if typ == "list:bool":
            return [False, True], ""
        if typ == "list:player":
            return list(range(lay.n)), ""
        if typ == "list:team":
            return list(lay.team_members), ""
        if typ.startswith("list:enum:"):
            enum = typ.removeprefix("list:enum:")
            decl_enum = next(e for e in prog.ruleset.enums if e.name == enum)
            return [v.name for v in decl_enum.values], ""
        if typ == "list:int":
            env = {**lay.options, "players": lay.n}
            d = decl.domain
            attr = _attribute_values(d, lay.attr_table)
            if attr is not None:
                return attr, ""
            if isinstance(d, ir.RangeExpr):
                lo, hi = value_before_play(d.lo, env), value_before_play(d.hi, env)
                if isinstance(lo, int) and isinstance(hi, int):
                    return list(range(lo, hi + 1)), ""
            else:
                listed = value_before_play(d, env)
                if listed is not UNKNOWN and isinstance(listed, list | tuple) \
                        and all(isinstance(v, int) for v in listed):
                    return list(dict.fromkeys(listed)), ""
            return list(range(prog.num_cards + 1)), ("numbers known only during play, "
                                                     f"assumed in {NUMBERS_UNKNOWN} "
                                                     f"(0..{prog.num_cards})")
        raise SpaceError(f"'{decl.name}' chooses from values of type {typ}, which a fixed "
                         "action space cannot list (bool, enum, player, team and number "
                         "choices can be)")


def _attribute_values(d: ir.Expr, table: dict[str, list[Any]]) -> list[Any] | None:
    """For ``values(CARDS, it.ATTR)`` of a number attribute: every value the game's cards
    have (a card's attributes are fixed), ascending; else None."""
    if not (isinstance(d, ir.Call) and d.func == "values" and len(d.args) == 2):
        return None
    key = d.args[1]
    if not (isinstance(key, ir.Attr) and isinstance(key.obj, ir.Name) and key.obj.id == "it"
            and key.name in table):
        return None
    values = {v for v in table[key.name] if isinstance(v, int) and not isinstance(v, bool)}
    return sorted(values)


def _takes_cards(node: Decision) -> bool:
    """Whether a decision chooses cards (one, a set, or a blind pick)."""
    actions = getattr(node, "actions", None)
    return getattr(node, "sets", None) is not None or (actions is not None and actions.card)


def _extras(name: str, nodes: list[Decision]) -> list[str]:
    """``NAME:skip`` when some node may be skipped (each named skip's id, for a node that
    names them), ``pass`` for a climbing trick."""
    out: list[str] = []
    for n in nodes:
        out += [aid for aid in skip_ids(n, name) if aid not in out]
    if any(getattr(n, "climbing", False) for n in nodes):
        out.append("pass")
    return out
