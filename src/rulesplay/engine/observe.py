"""What one seat may know: observations driven by zone and variable visibility, and
determinisation.

Visibility (declared per zone): ``public`` everyone sees the cards; ``owner`` only the owning
seat does; ``hidden`` nobody does; ``top`` everyone sees the top card only. Hidden cards show
as counts, so an agent given an observation cannot cheat. Variables are declared ``public``
(the default), ``owner`` (a player variable: its own seat) or ``hidden`` (no seat); a value a
seat may not see shows as ``?``, and a determinisation holds the variable's default instead.
The rule is :func:`rulesplay.visibility.sight`, as bitmasks in the program's tables; play
adds seats to them (``reveal ZONE`` until ``hide ZONE``: every seat; a zone's ``seen by``:
the seats it names, worked out as each decision is asked), kept in the state's own bitmasks
(``State.seers``, ``State.top_seers``), which everything below reads.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import events
from ..errors import RulesRuntimeError
from ..events import HIDDEN, Tally
from .shuffles import shuffle

if TYPE_CHECKING:
    from .program import Program, VarSeers
    from .state import State


def visible_to(state: State, zone: int, seat: int | None) -> str:
    """``"all"``, ``"top"`` or ``"none"``: how much of zone ``zone`` seat ``seat`` sees
    now: by its declared visibility (:meth:`Program.view`), and by every seat when it is
    revealed in play (``reveal``: :func:`set_sight`).

    ``seat`` None is an onlooker who sees only public information.
    """
    bit = state.program.seat_bit(seat)
    return "all" if state.seers[zone] & bit else "top" if state.top_seers[zone] & bit \
        else "none"


def sight_tables(prog: Program, revealed: tuple[int, ...],
                 seen: tuple[int, ...] = ()) -> tuple[list[int], list[int]]:
    """Per zone, the seats that see all its cards and those that see its top card, as
    bitmasks (:func:`seat_bit`): the declared ones (the program's own lists, shared, when
    nothing is revealed and no ``seen by`` adds a seat), with every seat and onlooker for
    each zone of ``revealed`` and the seats of ``seen`` (per zone, its ``seen by``)."""
    if not revealed and not any(seen):
        return prog.zone_seers, prog.zone_top_seers
    seers, tops = prog.zone_seers[:], prog.zone_top_seers[:]
    for z, extra in enumerate(seen):
        seers[z] |= extra
        tops[z] |= extra
    for z in revealed:
        seers[z] = tops[z] = prog.everyone
    return seers, tops


def _extra(s: State, z: int) -> int:
    """The seats that see zone ``z`` besides its declared ones, now (bitmask)."""
    return s.program.everyone if z in s.revealed else s.seen[z] if s.seen else 0


def _sight_changed(s: State, z: int, was: int) -> None:
    """Tell zone ``z``'s new sight: the event (``was``: its extra seers before, see
    :func:`_extra`), and the watch of a card chosen openly now seen by more seats."""
    now = _extra(s, z)
    watch = s.watch
    if watch is not None and s.where[watch[0]] == z:
        watch[1] |= now
    log = s.events
    if log is not None and log.__class__ is not Tally:
        prog = s.program
        log.append(events.sight(prog.zone_ref(z), z in s.revealed,
                                [prog.card_ids[c] for c in s.zones[z]], now, was))


def refresh_seen(s: State) -> None:
    """Work out each zone's ``seen by`` again (the game waits for a decision: both engines
    call this before listing it), and tell the zones whose seats changed.

    Raises:
        RulesRuntimeError: a ``seen by`` gave a seat the table does not have.
    """
    prog = s.program
    loc, slot, n = s.loc, prog.seen_slot, prog.layout.n
    saved = loc[slot]
    seen = list(s.seen) if s.seen else [0] * prog.num_zones
    for z, owner, fn, span in prog.seen_by:
        loc[slot] = owner
        value = fn(s, None)
        mask = 0
        for seat in value if isinstance(value, list | tuple) else [value]:
            if seat is None:
                continue
            if not (isinstance(seat, int) and 0 <= seat < n):
                loc[slot] = saved
                raise RulesRuntimeError(f"'seen by' gave seat {seat!r}, which does not exist "
                                        f"with {n} players (seats are 0 to {n - 1})",
                                        span)
            mask |= 1 << seat
        seen[z] = mask
    loc[slot] = saved
    new = tuple(seen)
    if new == s.seen:
        return
    old = s.seen or (0,) * prog.num_zones
    before = [_extra(s, z) for z in range(prog.num_zones)]
    s.seen = new
    s.seers, s.top_seers = sight_tables(prog, s.revealed, new)
    for z in range(prog.num_zones):
        if old[z] != new[z] and z not in s.revealed:
            _sight_changed(s, z, before[z])


def set_sight(s: State, zone: int, shown: bool) -> None:
    """``reveal ZONE`` (``shown``) or ``hide ZONE``: from now on every seat sees zone
    ``zone``, or it is back to its declared visibility. A change is an event (its cards
    then, which every seat sees at that moment: the zone was revealed or is revealed now);
    revealing a revealed zone, or hiding one that is not, changes nothing. A card chosen
    openly and still being watched (``s.watch``) is seen by all once its zone is revealed.
    The seats' lists are replaced, never changed in place (copies share them)."""
    if (zone in s.revealed) == shown:
        return
    was = _extra(s, zone)
    s.revealed = tuple(sorted({*s.revealed, zone} if shown else set(s.revealed) - {zone}))
    s.seers, s.top_seers = sight_tables(s.program, s.revealed, s.seen)
    _sight_changed(s, zone, was)


def var_seers(s: State) -> VarSeers:
    """Who sees each variable now (the global, player and card tables of bitmasks): the
    declared visibility, with the variables revealed in play (``reveal VAR``) seen by
    all."""
    return s.program.var_seers_with(s.shown_vars)


def set_var_sight(s: State, name: str, shown: bool, label: Callable[[State], str]) -> None:
    """``reveal VAR`` (``shown``) or ``hide VAR``: from now on every seat sees variable
    ``name`` (every seat's value of a player or team variable), or it is back to its
    declared visibility. Revealing a revealed variable, or hiding one that is not, changes
    nothing. A reveal is told in the account (a ``say`` event: ``label(s)``, the variable
    and its values then, which every seat now sees)."""
    if (name in s.shown_vars) == shown:
        return
    s.shown_vars = tuple(sorted({*s.shown_vars, name} if shown
                                else set(s.shown_vars) - {name}))
    if shown and s.events is not None and s.events.__class__ is not Tally:
        s.events.append(events.say(label(s)))


def seat_bit(state: State, seat: int | None) -> int:
    """Seat ``seat``'s bit in the bitmasks of seats below: ``1 << seat``, and ``1 << n``
    for an onlooker (None); see :meth:`Program.seat_bit`."""
    return state.program.seat_bit(seat)


def card_seers(state: State, card: int) -> int:
    """The seats that see card ``card`` where it is now, as a bitmask (see
    :func:`seat_bit`): those that see its whole zone, and when it is the top card, those
    that see the zone's top card too (a ``top`` zone), by :func:`visible_to`."""
    z = state.where[card]
    return state.top_seers[z] if state.zones[z][-1] == card else state.seers[z]


def sees_all(state: State, seat: int, cards: list[int]) -> bool:
    """Whether ``seat`` sees every card of ``cards`` where it is now (see
    :func:`card_seers`)."""
    bit = 1 << seat
    return all(card_seers(state, c) & bit for c in cards)


def knows_choice(state: State, index: int, seat: int | None) -> bool:
    """Whether ``seat`` knows what was chosen in decision ``index`` of ``state.history``.

    The rule: a choice is seen by all when it is made, except another seat's secret choice
    (``secretly chooses``: others learn that it was made, not what) and another seat's
    choice of a card ``seat`` never saw: not where it was when chosen, nor arriving where
    ``seat`` sees it before the next decision (a card chosen from a hand and discarded face
    down). A blind pick (by position: ``play:2``) names no card, so all know it. A set of
    cards chosen openly (``chooses 2 cards``) is known to the seats that saw every card of it
    where it was or where it is at the next decision (:func:`set_seen`).
    See :attr:`State.unseen_choices`.
    """
    player, aid = state.history[index]
    if player == seat:
        return True
    if aid.split(":", 1)[0] in state.program.secret_choices:
        return False
    return not state.unseen_choices.get(index, 0) & seat_bit(state, seat)


def observation(state: State, seat: int | None) -> dict[str, Any]:
    """The information set of ``seat`` as plain data.

    Returns:
        ``{"seat", "phase", "current_player", "prompt", "terminal", "zones": [{"zone",
        "owner", "label", "visibility" (``public`` while revealed in play), "count",
        "cards": [ids] | None, "top": id | None}],
        "vars": {name: value}, "player_vars": {name: [value per seat]},
        "card_vars": {card id: {var: value}} for visible cards, "teams": [{"team", "name",
        "seats"}] (each seat alone without ``teams:``), "team": the index of ``seat``'s team,
        "partner": its partner's seat (None but in a two-seat team; both None for an
        onlooker), "team_vars": {name: [value per team]}}``. Card lists run bottom to
        top. The value of a variable ``seat`` may not see (declared ``owner`` of another
        seat, or ``hidden``) is ``"?"``; a card variable it may not see is left out, and the
        prompt shows such values as ``?`` too.
    """
    prog, lay = state.program, state.program.layout
    zones = []
    seen: list[int] = []
    for z, cards in enumerate(state.zones):
        how = visible_to(state, z, seat)
        entry: dict[str, Any] = {
            "zone": lay.zone_name[z], "owner": lay.zone_owner[z], "label": prog.zone_label[z],
            "visibility": "public" if z in state.revealed else prog.zone_visibility[z],
            "count": len(cards), "cards": None,
            "top": None}
        if how == "all":
            entry["cards"] = [prog.card_ids[c] for c in cards]
            seen.extend(cards)
        elif how == "top" and cards:
            entry["top"] = prog.card_ids[cards[-1]]
            seen.append(cards[-1])
        zones.append(entry)
    bit = prog.seat_bit(seat)
    gvar_seers, pvar_seers, cvar_seers = var_seers(state)
    card_vars: dict[str, dict[str, Any]] = {}
    for name, slot in lay.cslot.items():
        if not cvar_seers[slot] & bit:
            continue
        for c in seen:
            value = state.cv[slot][c]
            if value is not None:
                card_vars.setdefault(prog.card_ids[c], {})[name] = value
    return {
        "seat": seat, "phase": prog.phase_name(state), "current_player": state.current_player(),
        "prompt": state.seat_prompt(seat)
        if seat is not None and seat == state.current_player() else "",
        "terminal": state.terminal, "zones": zones,
        "vars": {name: state.g[slot] if gvar_seers[slot] & bit else HIDDEN
                 for name, slot in lay.gslot.items()},
        "player_vars": {name: [v if seers & bit else HIDDEN for v, seers in
                               zip(state.pv[slot], pvar_seers[slot], strict=True)]
                        for name, slot in lay.pslot.items() if name not in prog.team_vars},
        "card_vars": card_vars,
        **_teams(state, seat, bit),
    }


def _teams(state: State, seat: int | None, bit: int) -> dict[str, Any]:
    """Who plays with whom (public: the ruleset's ``teams:`` is fixed before play) and the
    team variables, one value per team (kept at each team's first seat)."""
    prog, lay = state.program, state.program.layout
    numbers = list(lay.team_members)
    pvar_seers = var_seers(state)[1]
    return {
        "teams": [{"team": i, "name": prog.team_name(t), "seats": list(lay.team_members[t])}
                  for i, t in enumerate(numbers)],
        "team": None if seat is None else numbers.index(lay.team_of[seat]),
        "partner": None if seat is None else lay.partner_of[seat],
        "team_vars": {name: [state.pv[slot][t] if pvar_seers[slot][t] & bit else HIDDEN
                             for t in numbers]
                      for name, slot in lay.pslot.items() if name in prog.team_vars},
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


# (the history as the seat knows it, or None when it knows every choice; the local slots
# to reset; the variables it may not see, as ("g" | "p" | "c", slot, owning seat or -1);
# the card variables it sees on the cards it sees, to reset on the cards it does not)
Concealment = tuple[list[tuple[int, str]] | None, list[int], list[tuple[str, int, int]],
                    list[int]]


# The history as a seat knows it (see Concealment) and, per decision name, whether the
# latest decision of that name is unknown to it: worked out by told_history.
Told = tuple[list[tuple[int, str]], dict[str, bool]]


def told_history(s: State, seat: int | None, told: Told | None = None) -> Told:
    """``s.history`` as ``seat`` knows it (:func:`knows_choice`; an unknown choice reads
    ``"<choice>:?"``), and per decision name whether its latest decision is unknown.

    Args:
        told: this for an earlier state of the same game (a prefix of ``s.history``),
            extended in place to the rest: a decision's entry never changes once the game
            has gone on to the next decision, so a follower of a game keeps one and
            extends it at each decision.
    """
    history, hidden = told if told is not None else ([], {})
    bit = s.program.seat_bit(seat)
    secret, unseen_choices = s.program.secret_choices, s.unseen_choices
    for i in range(len(history), len(s.history)):  # (knows_choice, inlined)
        p, aid = s.history[i]
        name = aid.split(":", 1)[0]
        known = p == seat or (name not in secret and not unseen_choices.get(i, 0) & bit)
        hidden[name] = not known
        history.append((p, aid if known else f"{name}:?"))
    return history, hidden


def concealment(s: State, seat: int | None, told: Told | None = None) -> Concealment | None:
    """What :func:`conceal` changes in a copy of ``s`` for ``seat``, or None when ``seat``
    knows every choice and there is no variable it may not see, nor card variable.

    Args:
        told: :func:`told_history` of ``s`` when already worked out (it is then kept).
    """
    prog = s.program
    unseen = unseen_vars(s, seat) if prog.concealed else []
    bit = prog.seat_bit(seat)
    on_seen = [slot for slot, seers in enumerate(var_seers(s)[2]) if seers & bit]
    if not prog.secret_choices and not s.unseen_choices:
        return (None, [], unseen, on_seen) if unseen or on_seen else None
    history, hidden = told if told is not None else told_history(s, seat)
    slots = [node.value_slot for node in prog.nodes
             if getattr(node, "value_slot", None) is not None and hidden.get(node.name)]
    return history, slots, unseen, on_seen


def unseen_vars(s: State, seat: int | None) -> list[tuple[str, int, int]]:
    """The variables ``seat`` may not see (by the program's bitmasks of seers): ``("g",
    slot, -1)`` for a global or trick one, ``("p", slot, owner)`` for a player one of seat
    ``owner``, ``("c", slot, -1)`` for a card one (on every card)."""
    bit = s.program.seat_bit(seat)
    gvar_seers, pvar_seers, cvar_seers = var_seers(s)
    out = [("g", slot, -1) for slot, seers in enumerate(gvar_seers) if not seers & bit]
    out += [("p", slot, p) for slot, per_seat in enumerate(pvar_seers)
            for p, seers in enumerate(per_seat) if not seers & bit]
    out += [("c", slot, -1) for slot, seers in enumerate(cvar_seers) if not seers & bit]
    return out


def conceal(s: State, seat: int | None, plan: Concealment | None = None,
            unseen_cards: list[int] | None = None) -> None:
    """Remove from ``s`` (a determinisation) what ``seat`` does not know of other seats' choices
    (:func:`knows_choice`: secret ones, and cards it never saw): their action ids in
    ``s.history`` become ``"<choice>:?"`` (the decision's name stays: that it was made is
    public), and the local variable of each choice whose latest decision is one of them is reset
    to ``none`` (a set of cards: to no cards). Every variable ``seat`` may not see (declared
    ``owner`` of another seat, or ``hidden``) is set to its declared default, worked out in
    ``s`` (a card variable on every card), and so is every other card variable on each card
    ``seat`` does not see where it is now (:func:`card_seers`: a ``public`` card variable is
    seen only with its card), so nothing decided from ``s`` depends on their true values.

    Works on any ruleset: the decisions' locals are found from the program's nodes.

    Args:
        s: the copy to change.
        seat: the seat it is made for (None: an onlooker).
        plan: :func:`concealment` of ``s`` (or of the state ``s`` copies) when already
            worked out.
        unseen_cards: the cards ``seat`` does not see where they are in ``s``, when
            already known (a determinisation deals them among the places of the true
            state's unseen cards: the same cards); worked out from ``s`` when None.
    """
    if plan is None:
        plan = concealment(s, seat)
        if plan is None:
            return
    history, slots, unseen, on_seen = plan
    if history is not None:
        s.history = history[:]
    loc = s.loc
    for slot in slots:
        loc[slot] = [] if loc[slot].__class__ is list else None  # (a set of cards: none)
    prog = s.program
    for kind, slot, owner in unseen:
        if kind == "g":
            s.g[slot] = prog.gvars[slot][1](s, None)
        elif kind == "p":
            s.pv[slot][owner] = prog.pvars[slot][1](s, None)
        else:
            s.cv[slot] = [prog.card_var_defaults[slot]] * prog.num_cards
    if on_seen:
        if unseen_cards is None:
            unseen_cards = unseen_by(s, seat)
        for slot in on_seen:
            values, default = s.cv[slot], prog.card_var_defaults[slot]
            for c in unseen_cards:
                values[c] = default


def unseen_by(s: State, seat: int | None) -> list[int]:
    """The cards ``seat`` (None: an onlooker) does not see where they are now in ``s``
    (:func:`card_seers`)."""
    bit = s.program.seat_bit(seat)
    seers, tops = s.seers, s.top_seers
    out: list[int] = []
    for z, content in enumerate(s.zones):  # (card_seers of every card, zone by zone)
        if content:
            if not seers[z] & bit:
                out += content[:-1]
            if not tops[z] & bit:
                out.append(content[-1])
    out.sort()
    return out


def repoint_cards(true: State, w: State) -> None:
    """Re-point what names a card by its id, in ``w`` (a sample of ``true`` whose unseen
    places were dealt anew): each card id held by a local name (``let c = top(deck)``, a
    loop's card) or in a frame of the interpreter (a loop's list of cards, a
    ``trigger``'s cards: the items the frame's node lists in ``card_slots`` and
    ``card_list_slots``) becomes the card now at the place where the true card is. So a
    sample never keeps an unseen card, nor the true order of cards a loop still has to
    visit; cards in the same place are left alone.

    Args:
        true: the state ``w`` was sampled from.
        w: the sample (its ``loc`` and ``stack`` are changed in place; they are its own
            copies, :meth:`State.clone` copies frames).
    """
    # Only the few cards held are looked up where they are (a sample asks this each time).
    where, zones, sample = true.where, true.zones, w.zones

    def at_its_place(c: int) -> int:
        z = where[c]
        return sample[z][zones[z].index(c)]  # (a sample keeps every zone's size)

    prog, loc = w.program, w.loc
    for slot in prog.card_locals:
        if isinstance(loc[slot], int):
            loc[slot] = at_its_place(loc[slot])
    for slot in prog.card_list_locals:
        if isinstance(loc[slot], list):
            loc[slot] = [at_its_place(c) for c in loc[slot]]
    nodes = prog.nodes
    for f in w.stack:
        node = nodes[f[0]]
        for at in node.card_slots:
            if isinstance(f[at], int):
                f[at] = at_its_place(f[at])
        for at in node.card_list_slots:
            if isinstance(f[at], list):
                f[at] = [at_its_place(c) for c in f[at]]


def resample(state: State, seat: int | None, rng: random.Random) -> State:
    """A determinisation: a clone in which the cards ``seat`` cannot see are dealt anew, at
    random, among the places it cannot see, keeping every zone's size and the kind of the
    card in every place (kinds are public: a hidden card is only ever replaced by another
    hidden card of its kind).

    The clone's random generator is reseeded from ``rng`` too, so future chance is not the
    true one either, names and frames holding cards are re-pointed (:func:`repoint_cards`),
    and other seats' secret choices and the variables ``seat`` may not see are concealed
    (:func:`conceal`).
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
        shuffle(cards, rng)
        for (z, i), c in zip(places, cards, strict=True):
            zones[z][i] = c
            where[c] = z
    repoint_cards(state, s)
    conceal(s, seat)
    s.rng = random.Random(rng.getrandbits(64))
    s._legal = None
    return s


def set_seers(s: State, cards: tuple[int, ...], chooser: int) -> list[tuple[int, int]]:
    """Who sees each card of an openly chosen set where it is now (and ``chooser``, a seat
    bitmask), as ``(card, seats)``: :func:`set_seen` adds who sees it where it is at the
    next decision."""
    return [(c, card_seers(s, c) | chooser) for c in cards]


def set_seen(s: State, seen: list[tuple[int, int]]) -> None:
    """An openly chosen set of cards is known to the seats that saw every card of it,
    where it was when chosen or where it is now (at the next decision: on the table, say);
    the others are told only that a choice was made (``State.unseen_choices``). A card seen
    only on its way between two zones is not counted: the set stays unknown to that seat,
    which never learns more than it saw."""
    unseen = 0
    for c, seats in seen:
        unseen |= ~(seats | card_seers(s, c)) & s.program.everyone
    if unseen:
        s.unseen_choices[len(s.history) - 1] = unseen
