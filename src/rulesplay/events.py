"""The events of a game: the one definition of each kind, its fields and their order.

Every decision and every card movement is an event (``State.events`` when recorded, the
lines of a ``--log`` after its header, what the account and the screens are told). Each kind
is a ``TypedDict`` made only by its constructor below, so producers cannot drift apart and the
JSON of a log keeps its keys in one order. One secrecy flag: a decision's ``private`` (a
``secretly chooses``); and texts that show a variable some seat may not see (declared
``owner`` or ``hidden``) carry ``masks``: ``{field: [[start, end, seers], ...]}``, the
characters ``start:end`` of the text in ``field`` being seen only by the seats in bitmask
``seers`` (bit ``p`` for seat ``p``, bit ``n`` for an onlooker). An event has ``masks`` only
when some text has one, so a game without such variables logs as before. A seat's view
(:mod:`rulesplay.seatview`, :func:`seen_by`) hides what it may not know as ``?`` in the same
fields.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

HIDDEN = "?"  # a card or a value a seat may not know, in what that seat is shown

# A text's masks: [start, end, seers], in order, not overlapping (see the module's doc).
Mask = list[int]
Masks = dict[str, list[Mask]]


class ZoneRef(TypedDict):
    zone: str
    owner: int | None

# A card moved. ``under`` (only ever true, and only then present) says that the card did not
# end on top of a zone whose top card alone some seat sees (a ``top`` zone: slid under the
# pile, or covered by the next card of the same move): such a seat does not see it arrive.
Move = TypedDict("Move", {"type": Literal["move"], "card": str, "attrs": "dict[str, Any]",
                          "from": ZoneRef, "to": ZoneRef, "under": NotRequired[bool]})


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
    masks: NotRequired[Masks]  # of "prompt"
    for_player: NotRequired[int]  # the seat whose card was chosen for it (``chosen by``)


class Phase(TypedDict):
    """A phase began (``label`` in the ruleset's words)."""

    type: Literal["phase"]
    phase: str
    label: str
    masks: NotRequired[Masks]  # of "label"


class Shuffle(TypedDict):
    """A zone was shuffled."""

    type: Literal["shuffle"]
    zone: ZoneRef


class Sight(TypedDict):
    """Who sees a zone changed in play (``reveal``, ``hide``, or its ``seen by``):
    ``shown``, whether it is revealed now (every seat sees it); ``seers``, the seats that see
    it besides its declared ones now, ``was`` before (bitmasks, bit ``p`` for seat ``p`` and
    bit ``n`` for an onlooker); ``cards``: its cards then, bottom to top, which the seats of
    either mask (and those of its declared visibility) see at that moment."""

    type: Literal["sight"]
    zone: ZoneRef
    shown: bool
    cards: list[str]
    seers: int
    was: int


class Say(TypedDict):
    """A ``say`` text."""

    type: Literal["say"]
    text: str
    masks: NotRequired[Masks]  # of "text"


class Pass(TypedDict):
    """A seat passed in a climbing trick (``forced``: it had no card it could play)."""

    type: Literal["pass"]
    player: int
    forced: bool
    phase: str


class SitOut(TypedDict):
    """A trick began that ``players`` (seats) sit out."""

    type: Literal["sit_out"]
    players: list[int]
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


class Tally(list[Any]):
    """Stands in for ``State.events`` when only counts are wanted (``simulate``): it keeps
    no event, counts the events it is given by kind (``counts``) and the phases begun by
    name (``phases``, in the order first begun). The engine does not even make the events
    that cost most and are not counted here: moves, decisions, ``say`` texts and the end."""

    def __init__(self) -> None:
        super().__init__()
        self.counts: dict[str, int] = {}
        self.phases: dict[str, int] = {}

    def tick(self, kind: str) -> None:
        """Count an event of ``kind`` (not ``phase``) without making it."""
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def append(self, event: Any) -> None:
        kind = event["type"]
        self.counts[kind] = self.counts.get(kind, 0) + 1
        if kind == "phase":
            self.phases[event["phase"]] = self.phases.get(event["phase"], 0) + 1


def move(card: str, attrs: dict[str, Any], src: ZoneRef, dst: ZoneRef,
         under: bool = False) -> Move:
    """A card moved from zone ``src`` to zone ``dst`` (its id and attributes); ``under``:
    it did not end on top of a zone whose top card alone some seat sees."""
    ev: Move = {"type": "move", "card": card, "attrs": attrs, "from": src, "to": dst}
    if under:
        ev["under"] = True
    return ev


def decision(player: int, phase: str, name: str, prompt: str, action: str, label: str,
             private: bool, masks: list[Mask] | None = None,
             for_player: int | None = None) -> Decision:
    """Seat ``player`` took ``action`` (id) at decision ``name`` of ``phase`` (``masks``:
    of the prompt; ``for_player``: the seat whose card it chose, when not its own)."""
    ev: Decision = {"type": "decision", "player": player, "phase": phase, "decision": name,
                    "prompt": prompt, "action": action, "label": label, "private": private}
    if masks:
        ev["masks"] = {"prompt": masks}
    if for_player is not None:
        ev["for_player"] = for_player
    return ev


def phase(name: str, label: str, masks: list[Mask] | None = None) -> Phase:
    """Phase ``name`` began (``masks``: of the label)."""
    ev: Phase = {"type": "phase", "phase": name, "label": label}
    if masks:
        ev["masks"] = {"label": masks}
    return ev


def shuffle(zone: ZoneRef) -> Shuffle:
    """``zone`` was shuffled."""
    return {"type": "shuffle", "zone": zone}


def sight(zone: ZoneRef, shown: bool, cards: list[str], seers: int, was: int) -> Sight:
    """Who sees ``zone`` changed: revealed now (``shown``) or not, seen besides its declared
    seats by ``seers``, before by ``was``; ``cards``: its cards then."""
    return {"type": "sight", "zone": zone, "shown": shown, "cards": cards, "seers": seers,
            "was": was}


def say(text: str, masks: list[Mask] | None = None) -> Say:
    """A ``say`` text was told (``masks``: of the text)."""
    ev: Say = {"type": "say", "text": text}
    if masks:
        ev["masks"] = {"text": masks}
    return ev


def passed(player: int, forced: bool, phase: str) -> Pass:
    """Seat ``player`` passed (``forced``: it could not play)."""
    return {"type": "pass", "player": player, "forced": forced, "phase": phase}


def sat_out(players: list[int], phase: str) -> SitOut:
    """Seats ``players`` sit out the trick that begins."""
    return {"type": "sit_out", "players": players, "phase": phase}


def trick(winner: int | None, card: str, cards: list[str]) -> Trick:
    """Seat ``winner`` took the trick with ``card``."""
    return {"type": "trick", "winner": winner, "card": card, "cards": cards}


def end(scores: list[int], winners: list[int]) -> End:
    """The game ended with ``scores`` (points, by seat) and ``winners`` (seats)."""
    return {"type": "end", "scores": scores, "winners": winners}


def seat_text(text: str, masks: list[Mask], bit: int) -> str:
    """``text`` as the seat with bit ``bit`` sees it: each masked part it is not among the
    seers of becomes ``?``."""
    if not all(isinstance(m, list) and len(m) == 3 and all(type(x) is int for x in m)
               for m in masks):
        return HIDDEN  # masks not made here (an edited file): show none of the text
    for start, end, seers in reversed(masks):
        if not seers & bit:
            text = text[:start] + HIDDEN + text[end:]
    return text


def seen_by(ev: Event, bit: int) -> Event:
    """Event ``ev`` as the seat with bit ``bit`` may know it: its masked texts shown by
    :func:`seat_text`, without the masks (``ev`` itself when it has none)."""
    masks = ev.get("masks")
    if not isinstance(masks, dict):
        return ev
    out = {k: v for k, v in ev.items() if k != "masks"}
    for name, marks in masks.items():
        if isinstance(out.get(name), str) and isinstance(marks, list):
            out[name] = seat_text(out[name], marks, bit)
    return out
