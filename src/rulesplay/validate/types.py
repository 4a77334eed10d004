"""The validator's types: strings, with the rules of what may meet what.

A type is ``int bool str player card zone pzone none any tuple ability``, ``enum:<name>``,
``list:<T>``, ``set:<enum>``, ``dict:<T>`` (a table of T), ``pvar:<T>`` (a T per player),
``team`` (a team: ``team of SEAT``) or ``teamvar:<T>`` (a T per team).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .. import ir

ANY = "any"

# The pairs of enums that share values in the ruleset being checked (validate/enums.py).
_SHARED: ContextVar[frozenset[frozenset[str]]] = ContextVar("shared_enums",
                                                            default=frozenset())


@contextmanager
def sharing(pairs: frozenset[frozenset[str]]) -> Iterator[None]:
    """Within the block, the enums of each pair (one extends the other) are
    :func:`compatible`."""
    token = _SHARED.set(pairs)
    try:
        yield
    finally:
        _SHARED.reset(token)


def elem_type(t: str) -> str | None:
    """The element type of a collection type (``list:card`` -> ``card``, ``zone`` or
    ``pzone`` -> ``card``, ``set:suit`` -> ``enum:suit``), or None when ``t`` is not a
    collection."""
    if t.startswith("list:"):
        return t[5:]
    if t.startswith("set:"):
        return f"enum:{t[4:]}"
    if t in ("zone", "pzone"):  # (a zone per player: every seat's cards, in seat order)
        return "card"
    if t == ANY:
        return ANY
    return None


def describe(t: str) -> str:
    """A type as a ruleset author reads it: ``enum:suit`` -> ``a suit``, ``list:card`` ->
    ``cards``, ``int`` -> ``a number``."""
    simple = {"int": "a number", "bool": "yes/no", "str": "a text", "player": "a player",
              "card": "a card", "zone": "a zone", "pzone": "a zone per player",
              "none": "none", ANY: "a value", "tuple": "a tuple", "team": "a team"}
    plural = {"int": "numbers", "bool": "yes/no values", "str": "texts", "player": "players",
              "card": "cards", "zone": "zones", ANY: "values", "tuple": "tuples",
              "team": "teams"}
    if t in simple:
        return simple[t]
    if t.startswith("enum:"):
        name = t[5:]
        return ("an " if name[:1] in "aeiou" else "a ") + name
    if t.startswith("list:"):
        el = t[5:]
        if el in plural:
            return plural[el]
        return f"{el[5:]} values" if el.startswith("enum:") else f"a list of {describe(el)}"
    if t.startswith("dict:"):
        return f"a table of {describe('list:' + t[5:])}"
    if t.startswith("pvar:"):
        return f"{describe(t[5:])} per player"
    if t.startswith("teamvar:"):
        return f"{describe(t[8:])} per team"
    if t.startswith("set:"):
        return f"a set of {t[4:]} values"
    if t == "ability":
        return "an ability"
    return t


def per_player_hint(e: ir.Expr, t: str) -> str:
    """``; 'hand' is one per player: say hand[p]`` when ``e``, of type ``t``, is a
    per-player name used bare; else the empty string."""
    if isinstance(e, ir.Name) and (t == "pzone" or t.startswith("pvar:")):
        return f"; '{e.id}' is one per player: say {e.id}[p]"
    if isinstance(e, ir.Name) and t.startswith("teamvar:"):
        return f"; '{e.id}' is one per team: say {e.id}[team of p]"
    return ""


def compatible(a: str, b: str) -> bool:
    """Whether values of types ``a`` and ``b`` may be compared or assigned to each other."""
    if a == b or ANY in (a, b):
        return True
    if "none" in (a, b):
        other = b if a == "none" else a
        return other in ("player", "card", "int", "str", "none", "ability") or \
            other.startswith("enum:")
    if {a, b} <= {"int", "bool"} or {a, b} == {"int", "player"}:
        return True
    if a.startswith("list:") and b.startswith("list:"):
        return compatible(a[5:], b[5:])
    if a.startswith("enum:") and b.startswith("enum:"):  # one shares the other's values
        return frozenset((a[5:], b[5:])) in _SHARED.get()
    if {a, b} == {"zone", "list:card"}:
        return True
    return False
