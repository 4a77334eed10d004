"""Where things live at run time (:class:`Layout`) and small helpers on expressions.

The compiler itself is :mod:`rulesplay.engine.codegen`. Values at run time: int, bool, str
(enum and choice values), seat int, card id int, zone id int, None, and tuples/lists of those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import ir
from ..errors import RulesRuntimeError
from ..limits import MAX_INT, out_of_range
from ..validate import Checked
from ..validate.functions import BUILTINS
from ..visitor import NodeVisitor

Fn = Callable[[Any, Any], Any]


class Layout:
    """Where everything lives for one player count: slots, zone ids, card tables.

    Built by :class:`rulesplay.engine.game.Program`; the compiler reads it.
    """

    def __init__(self) -> None:
        self.n: int = 0
        self.options: dict[str, Any] = {}
        self.gslot: dict[str, int] = {}  # global and trick variables -> s.g index
        self.pslot: dict[str, int] = {}  # player variables -> s.pv index
        self.cslot: dict[str, int] = {}  # card variables -> s.cv index
        self.lslot: dict[str, int] = {}  # locals -> s.loc index
        self.zone_id: dict[str, int] = {}  # shared zone -> id; per-player zone -> first id
        self.attr_table: dict[str, list[Any]] = {}  # attribute -> value per card
        self.kind_of: list[str] = []  # card -> kind name
        self.zone_owner: list[int | None] = []  # zone id -> owner seat
        self.zone_name: list[str] = []
        self.sort_key: dict[Any, Any] = {}
        self.ability_of: list[str | None] = []  # card -> its ability's name
        self.stat_tables: dict[str, list[Any]] = {}  # stat -> per card: its modifier or None
        # Teams (``teams:``; without it each seat is its own team): per seat its team's
        # number (the team's first seat) and its partner (None unless a two-seat team);
        # team number -> its seats, and its label.
        self.team_of: list[int] = []
        self.partner_of: list[int | None] = []
        self.team_members: dict[int, list[int]] = {}
        self.team_labels: dict[int, str | None] = {}
        self.seat_tables: dict[str, dict[int, int | None]] = {"team": {}, "partner": {}}
        self.teamed = False  # some team has more than one seat

    def local(self, name: str) -> int:
        """The slot of local name ``name`` (one slot per name; phases are not recursive)."""
        if name not in self.lslot:
            self.lslot[name] = len(self.lslot)
        return self.lslot[name]


def free_names(e: ir.Expr, checked: Checked) -> set[str]:
    """Local names and a free ``it`` that ``e`` reads (``it`` bound inside ``e`` excluded)."""
    names: set[str] = _FreeNames(checked).visit(e)
    return names


class _FreeNames(NodeVisitor):
    """The free names of a node (see :func:`free_names`): the union of its children's,
    less ``it`` where a filter or a per-element argument binds it."""

    def __init__(self, checked: Checked) -> None:
        self.checked = checked

    def visit_Name(self, e: ir.Name) -> set[str]:
        cat = self.checked.res.get(id(e), ("", ""))[0]
        return {e.id} if cat in ("local", "it") else set()

    def visit_Filter(self, e: ir.Filter) -> set[str]:
        coll: set[str] = self.visit(e.coll)
        cond: set[str] = self.visit(e.cond)
        return coll | (cond - {"it"})

    def visit_Call(self, e: ir.Call) -> set[str]:
        builtin = BUILTINS.get(e.func)
        out: set[str] = set()
        for i, arg in enumerate(e.args):
            names = self.visit(arg)
            if builtin is not None and builtin.per_element == i:
                names.discard("it")
            out |= names
        return out

    def generic_visit(self, node: ir.Node, *args: Any, **kwargs: Any) -> set[str]:
        out: set[str] = set()
        for child in node.children():
            out |= self.visit(child)
        return out


def _product(x: int, y: int) -> int:
    """``x * y`` of the generated code, in the number range (:data:`~rulesplay.limits.MAX_INT`):
    a product made outside it stops the game, so no number inside an expression grows
    without end (``((v * v) * (v * v)) ...``).

    Raises:
        RulesRuntimeError: the product is out of range (placed by the statement running).
    """
    v = x * y
    if -MAX_INT <= v <= MAX_INT:
        return v
    raise RulesRuntimeError(out_of_range(v))
