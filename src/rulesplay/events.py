"""The events of a game: the one definition of each kind, its fields and their order.

Every decision and every card movement is an event (``State.events`` when recorded, the
lines of a ``--log`` after its header, what the account and the screens are told). Each kind
is a ``TypedDict`` made only by its constructor below, so producers cannot drift apart and the
JSON of a log keeps its keys in one order. One secrecy flag: a decision's ``private`` (a
``secretly chooses``); a seat's view (:mod:`rulesplay.seatview`) hides what it may not know as
``?`` in the same fields.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict


class ZoneRef(TypedDict):
    zone: str
    owner: int | None

Move = TypedDict("Move", {"type": Literal["move"], "card": str, "attrs": "dict[str, Any]",
                          "from": ZoneRef, "to": ZoneRef})


class Decision(TypedDict):
    """A seat decided: ``action`` is the action id, ``label`` its text, ``private`` a secret
    choice (others learn that it was made, not what)."""

    type: Literal["decision"]
    player: int
    phase: str
    decision: str
    prompt: str
    action: str
    label: str
    private: bool


class Phase(TypedDict):
    """A phase began (``label`` in the ruleset's words)."""

    type: Literal["phase"]
    phase: str
    label: str


class Shuffle(TypedDict):
    """A zone was shuffled."""

    type: Literal["shuffle"]
    zone: ZoneRef


class Say(TypedDict):
    """A ``say`` text."""

    type: Literal["say"]
    text: str


class Pass(TypedDict):
    """A seat passed in a climbing trick (``forced``: it had no card it could play)."""

    type: Literal["pass"]
    player: int
    forced: bool
    phase: str


class Trick(TypedDict):
    """A trick was won by ``winner`` with ``card``; ``cards`` are the trick's cards."""

    type: Literal["trick"]
    winner: int | None  # (always a seat once a card is played)
    card: str
    cards: list[str]


class End(TypedDict):
    """The game ended."""

    type: Literal["end"]
    scores: list[int]
    winners: list[int]


Event = dict[str, Any]  # any event, as read back (from a log, or a seat's view)


def move(card: str, attrs: dict[str, Any], src: ZoneRef, dst: ZoneRef) -> Move:
    """A card moved from zone ``src`` to zone ``dst`` (its id and attributes)."""
    return {"type": "move", "card": card, "attrs": attrs, "from": src, "to": dst}


def decision(player: int, phase: str, name: str, prompt: str, action: str, label: str,
             private: bool) -> Decision:
    """Seat ``player`` took ``action`` (id) at decision ``name`` of ``phase``."""
    return {"type": "decision", "player": player, "phase": phase, "decision": name,
            "prompt": prompt, "action": action, "label": label, "private": private}


def phase(name: str, label: str) -> Phase:
    """Phase ``name`` began."""
    return {"type": "phase", "phase": name, "label": label}


def shuffle(zone: ZoneRef) -> Shuffle:
    """``zone`` was shuffled."""
    return {"type": "shuffle", "zone": zone}


def say(text: str) -> Say:
    """A ``say`` text was told."""
    return {"type": "say", "text": text}


def passed(player: int, forced: bool, phase: str) -> Pass:
    """Seat ``player`` passed (``forced``: it could not play)."""
    return {"type": "pass", "player": player, "forced": forced, "phase": phase}


def trick(winner: int | None, card: str, cards: list[str]) -> Trick:
    """Seat ``winner`` took the trick with ``card``."""
    return {"type": "trick", "winner": winner, "card": card, "cards": cards}


def end(scores: list[int], winners: list[int]) -> End:
    """The game ended with ``scores`` (points, by seat) and ``winners`` (seats)."""
    return {"type": "end", "scores": scores, "winners": winners}
