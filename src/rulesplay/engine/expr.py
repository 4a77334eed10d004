"""Where things live at run time (:class:`Layout`) and small helpers on expressions.

The compiler itself is :mod:`rulesplay.engine.codegen`. Values at run time: int, bool, str
(enum and choice values), seat int, card id int, zone id int, None, and tuples/lists of those.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import ir
from ..validate import PER_ELEMENT, Checked

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

    def local(self, name: str) -> int:
        """The slot of local name ``name`` (one slot per name; phases are not recursive)."""
        if name not in self.lslot:
            self.lslot[name] = len(self.lslot)
        return self.lslot[name]


def free_names(e: ir.Expr, checked: Checked) -> set[str]:
    """Local names and a free ``it`` that ``e`` reads (``it`` bound inside ``e`` excluded)."""
    if isinstance(e, ir.Name):
        cat = checked.res.get(id(e), ("", ""))[0]
        return {e.id} if cat in ("local", "it") else set()
    if isinstance(e, ir.Filter):
        return free_names(e.coll, checked) | (free_names(e.cond, checked) - {"it"})
    if isinstance(e, ir.Call):
        out: set[str] = set()
        for i, arg in enumerate(e.args):
            names = free_names(arg, checked)
            if PER_ELEMENT.get(e.func) == i:
                names.discard("it")
            out |= names
        return out
    out = set()
    for child in _children(e):
        out |= free_names(child, checked)
    return out


def _children(e: ir.Expr) -> list[ir.Expr]:
    out: list[ir.Expr] = []
    for field_name in type(e).model_fields:
        value = getattr(e, field_name)
        if isinstance(value, ir.Node) and not isinstance(value, ir.Labels):
            out.append(value)  # type: ignore[arg-type]
        elif isinstance(value, list):
            out.extend(v for v in value if isinstance(v, ir.Node))
    return out
