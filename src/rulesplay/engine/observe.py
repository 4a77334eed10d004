"""What one seat may know: observations driven by zone visibility, and determinisation.

Visibility (declared per zone): ``public`` everyone sees the cards; ``owner`` only the owning
seat does; ``hidden`` nobody does; ``top`` everyone sees the top card only. Hidden cards show
as counts, so an agent given an observation cannot cheat.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import State


def visible_to(state: State, zone: int, seat: int | None) -> str:
    """``"all"``, ``"top"`` or ``"none"``: how much of zone ``zone`` seat ``seat`` sees.

    ``seat`` None is an onlooker who sees only public information.
    """
    return state.program.view(zone, seat)


def card_seers(state: State, card: int) -> int:
    """The seats that see card ``card`` where it is now, as a bitmask (bit ``p`` for seat
    ``p``): every seat that sees its whole zone, and every seat when it is the top card
    of a ``top`` zone."""
    prog = state.program
    z = state.where[card]
    if prog.zone_visibility[z] == "top" and state.zones[z][-1] == card:
        return (1 << prog.layout.n) - 1
    return prog.zone_seers[z]


def sees_all(state: State, seat: int, cards: list[int]) -> bool:
    """Whether ``seat`` sees every card of ``cards`` where it is now (see
    :func:`card_seers`)."""
    bit = 1 << seat
    return all(card_seers(state, c) & bit for c in cards)


def observation(state: State, seat: int | None) -> dict[str, Any]:
    """The information set of ``seat`` as plain data.

    Returns:
        ``{"seat", "phase", "current_player", "prompt", "terminal", "zones": [{"zone",
        "owner", "label", "visibility", "count", "cards": [ids] | None, "top": id | None}],
        "vars": {name: value}, "player_vars": {name: [value per seat]},
        "card_vars": {card id: {var: value}} for visible cards}``. Card lists run bottom to
        top. Variables are public (the language has no secret variables).
    """
    prog, lay = state.program, state.program.layout
    zones = []
    seen: list[int] = []
    for z, cards in enumerate(state.zones):
        how = visible_to(state, z, seat)
        entry: dict[str, Any] = {
            "zone": lay.zone_name[z], "owner": lay.zone_owner[z], "label": prog.zone_label[z],
            "visibility": prog.zone_visibility[z], "count": len(cards), "cards": None,
            "top": None}
        if how == "all":
            entry["cards"] = [prog.card_ids[c] for c in cards]
            seen.extend(cards)
        elif how == "top" and cards:
            entry["top"] = prog.card_ids[cards[-1]]
            seen.append(cards[-1])
        zones.append(entry)
    card_vars: dict[str, dict[str, Any]] = {}
    for name, slot in lay.cslot.items():
        for c in seen:
            value = state.cv[slot][c]
            if value is not None:
                card_vars.setdefault(prog.card_ids[c], {})[name] = value
    return {
        "seat": seat, "phase": prog.phase_name(state), "current_player": state.current_player(),
        "prompt": state.prompt() if seat is not None and seat == state.current_player() else "",
        "terminal": state.terminal, "zones": zones,
        "vars": {name: state.g[slot] for name, slot in lay.gslot.items()},
        "player_vars": {name: list(state.pv[slot]) for name, slot in lay.pslot.items()},
        "card_vars": card_vars,
    }


def hidden_cards(state: State, seat: int | None) -> tuple[list[int], list[int]]:
    """The zones ``seat`` cannot see into and the cards in them (top cards of ``top``
    zones are visible and excluded). Both lists are in a canonical order (sorted), so they do
    not depend on where the hidden cards actually are."""
    zones, cards = [], []
    for z, content in enumerate(state.zones):
        how = visible_to(state, z, seat)
        if how == "none":
            zones.append(z)
            cards.extend(content)
        elif how == "top" and len(content) > 1:
            zones.append(z)
            cards.extend(content[:-1])
    return zones, sorted(cards)


def unseen_places(state: State, seat: int | None) -> dict[str, list[tuple[int, int]]]:
    """The places ``seat`` cannot see, grouped by the kind of the card in each.

    A card's kind is public (the backs of two kinds of card differ), so a seat that
    cannot see a card still knows its kind. Returns ``{kind: [(zone, index), ...]}``, kinds
    and places in a canonical order (zone, then index from the bottom); the top card of a
    ``top`` zone is visible and left out.
    """
    kind_of = state.program.layout.kind_of
    out: dict[str, list[tuple[int, int]]] = {}
    for z, content in enumerate(state.zones):
        how = visible_to(state, z, seat)
        if how == "all":
            continue
        size = len(content) - (1 if how == "top" and content else 0)
        for i in range(size):
            out.setdefault(kind_of[content[i]], []).append((z, i))
    return dict(sorted(out.items()))


def conceal(s: State, seat: int | None) -> None:
    """Remove from ``s`` (a determinisation) what ``seat`` does not know of other seats'
    secret choices (``secretly chooses``): the local variable of each secret choice whose
    latest maker is another seat is reset to ``none``, and their action ids in ``s.history``
    become ``"<choice>:?"`` (the decision's name stays: that it was made is public).

    Works on any ruleset: the choices are found from ``program.secret_choices``.
    """
    prog = s.program
    secret = prog.secret_choices
    if not secret:
        return
    last: dict[str, int] = {}
    history = []
    for p, aid in s.history:
        name = aid.split(":", 1)[0]
        if name in secret:
            last[name] = p
            if p != seat:
                aid = f"{name}:?"
        history.append((p, aid))
    s.history = history
    slots = {n.name: n.slot for n in prog.nodes
             if getattr(n, "secret", False) and getattr(n, "name", None) in secret}
    for name, p in last.items():
        if p != seat and name in slots:
            s.loc[slots[name]] = None


def resample(state: State, seat: int | None, rng: random.Random) -> State:
    """A determinisation: a clone in which the cards ``seat`` cannot see are dealt anew, at
    random, among the places it cannot see, keeping every zone's size and the kind of the
    card in every place (kinds are public: a hidden card is only ever replaced by another
    hidden card of its kind).

    The clone's random generator is reseeded from ``rng`` too, so future chance is not the
    true one either, and other seats' secret choices are concealed (:func:`conceal`).
    Constraints revealed by play (e.g. a seat that did not follow holds none of the lead
    colour) are not enforced here; agents that need them reject samples.

    Args:
        state: the true state (only its public parts and the seat's own view are used).
        seat: the seat whose information set is sampled.
        rng: the agent's own generator.
    """
    s = state.clone()
    zones, where = s.zones, s.where
    for places in unseen_places(s, seat).values():
        cards = sorted(zones[z][i] for z, i in places)
        rng.shuffle(cards)
        for (z, i), c in zip(places, cards, strict=True):
            zones[z][i] = c
            where[c] = z
    conceal(s, seat)
    s.rng = random.Random(rng.getrandbits(64))
    s._legal = None
    return s
