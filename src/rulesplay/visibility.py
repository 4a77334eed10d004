"""The one rule of visibility, shared by the validator (what the text proves a seat sees)
and the engine (what a seat is shown while a game runs)."""

from __future__ import annotations


def sight(visibility: str, owner: int | None, seat: int | None) -> str:
    """How much of a thing declared ``visibility`` (``public``, ``owner``, ``hidden``, or
    ``top`` for a zone) and belonging to seat ``owner`` (None: shared) seat ``seat`` (None:
    an onlooker) sees: ``"all"``, ``"top"`` (a zone's top card) or ``"none"``. ``owner`` is
    seen by its own seat only; ``hidden`` by no seat (only the referee: the engine and the
    whole game's log). Zones and variables alike follow it."""
    if visibility == "public" or (visibility == "owner" and seat is not None
                                  and owner == seat):
        return "all"
    return "top" if visibility == "top" else "none"
