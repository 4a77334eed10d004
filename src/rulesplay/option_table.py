"""The option table of a ruleset, as ``rulesplay options`` shows it and the playground
page lists it: each option's name, type as written, default (per player count where it
depends on it) and description."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .engine.game import Game
from .show import option_type_text

__all__ = ["OptionRow", "option_rows", "value_shown"]


@dataclass(frozen=True)
class OptionRow:
    """One option of the table.

    Attributes:
        name: the option's name (as ``--option NAME=VALUE`` takes it).
        type: its type as written (``bool``, ``int in 1..12``, ``a | b``).
        default: its default, or one line ``N players: value`` per player count when the
            default depends on the count.
        doc: its description ("" when the ruleset gives none).
    """

    name: str
    type: str
    default: str
    doc: str


def value_shown(v: Any) -> str:
    """An option's value as the command line takes it (``true``/``false`` for a bool)."""
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def option_rows(game: Game) -> list[OptionRow]:
    """The options of ``game`` in the ruleset's order, with the defaults it gets at each
    player count it allows (its chosen options applied).

    Raises:
        RulesError: a player count's program cannot be built (``validate`` reports it).
    """
    lo, hi = game.player_range
    per_n = {n: game.program(n).layout.options for n in range(lo, hi + 1)}
    rows = []
    for o in game.ruleset.options:
        values = {n: per_n[n][o.name] for n in per_n}
        if len(set(map(repr, values.values()))) == 1:
            default = value_shown(values[lo])
        else:
            default = "\n".join(f"{n} players: {value_shown(v)}" for n, v in values.items())
        rows.append(OptionRow(o.name, option_type_text(o), default, o.doc or ""))
    return rows
