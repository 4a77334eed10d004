"""One rule of visibility (issue 9 item 5): the screens and seat logs (``SeatView``) ask the
engine's :meth:`Program.view`, as observations and samples do, so they cannot disagree."""

from __future__ import annotations

import pytest

import rulesplay
from rulesplay.engine import observe
from rulesplay.human import SeatView

TOP = '''game "T"
players 2..2
card c:
    number: 1..6
    label: "c{number}"
zone deck: shared, hidden
zone pile: shared, top
zone hand: per player, owner
phase p:
    shuffle deck
    deal 2 from deck to hand starting with 0
    move top(deck) to pile
    0 chooses x from hand[0] "discard"
    move x to pile
    next end
score: 0
'''


def test_a_card_turned_onto_a_top_zone_is_seen_as_the_observation_shows_it() -> None:
    state = rulesplay.loads(TOP).new_state(2, seed=1, record_events=True)
    state.apply(state.legal_actions()[0])
    prog = state.program
    for seat in (0, 1, None):
        events = SeatView(prog, seat).filter(state.events or [])
        to_pile = [e["card"] for e in events if e["type"] == "move" and e["to"]["zone"] == "pile"]
        top = next(z["top"] for z in state.observation(seat)["zones"] if z["zone"] == "pile")
        assert to_pile[-1] == top != "?"
        dealt = [e["card"] for e in events if e["type"] == "move" and e["to"]["zone"] == "hand"
                 and e["to"]["owner"] == 1]
        assert (dealt == ["?", "?"]) == (seat != 1)


def test_a_lone_numeric_choice_is_not_offered_as_number_one() -> None:
    """From a hostile review: "Only one choice: type 1" while a typed 1 meant the value 1."""
    from rich.console import Console

    from rulesplay.human import CardBook, choice_list, parse_choice, render_choices

    text = TOP.replace('0 chooses x from hand[0] "discard"\n    move x to pile',
                       '0 chooses n from 5..5 "bid"')
    state = rulesplay.loads(text).new_state(2, seed=1)
    book = CardBook(state.program)
    out = Console(width=80, record=True, color_system=None)
    for part in render_choices(state, 0, book):
        out.print(part)
    shown = out.export_text()
    assert "type 1" not in shown and "Type one of the numbers shown" in shown
    actions = choice_list(state, book)
    assert parse_choice("5", actions, book)[0] is actions[0]


UNDER = '''game "U"
players 2..2
card c:
    number: 1..12
    label: "c{number}"
zone deck: shared, hidden
zone pile: shared, top
zone hand: per player, owner
phase p:
    shuffle deck
    deal 2 from deck to hand starting with 0
    move top(deck) to pile
    0 chooses a from bool "a"
    move top(deck) to bottom of pile
    0 chooses b from bool "b"
    move first(2, deck) to bottom of pile
    0 chooses c from bool "c"
    move first(3, deck) to pile
    0 chooses d from bool "d"
    0 chooses x from hand[0] "slide"
    move x to bottom of pile
    1 chooses e from bool "e"
    move top(deck) to top of pile
    0 chooses f from bool "f"
    next end
score: 0
'''


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_a_card_slid_under_a_top_zone_is_seen_only_where_it_lands(engine: str) -> None:
    """From a hostile review: cards put at the bottom of a ``top`` pile (or covered by the
    next card of the same move) were named on every screen and seat log while the
    observation and the bots showed only the top card. A seat sees a card arrive only if
    it sees it where it lands: the seat view, the observation and the engine's record of
    who saw a chosen card (``knows_choice``) agree, decision by decision."""
    state = rulesplay.loads(UNDER, engine=engine).new_state(2, seed=3, record_events=True)
    prog = state.program
    follow = {seat: SeatView(prog, seat).follower() for seat in (0, 1, None)}
    done = 0
    while not state.terminal:
        state.apply(state.legal_actions()[0])
        fresh, done = (state.events or [])[done:], len(state.events or [])
        for seat, view in follow.items():
            seen = view(fresh)
            assert len(seen) == len(fresh)
            top = next(z["top"] for z in state.observation(seat)["zones"] if z["zone"] == "pile")
            for ev, told in zip(fresh, seen, strict=True):
                if ev["type"] == "move" and ev["to"]["zone"] == "pile":
                    # each move is followed by a decision: on top now = ends on top
                    named = ev["card"] == top or ev["from"] == {"zone": "hand", "owner": seat}
                    assert told["card"] == (ev["card"] if named else "?"), (seat, ev)
                if ev["type"] == "decision" and ev["decision"] == "x":
                    index = len(state.history) - 1  # x, the latest decision
                    knows = observe.knows_choice(state, index, seat)
                    assert (told["action"] != "x:?") == knows == (seat == 0)
    log = [e for e in state.events or [] if e["type"] == "move" and e["to"]["zone"] == "pile"]
    assert [bool(e.get("under")) for e in log] == [
        False, True, True, True, True, True, False, True, False]


def test_the_bots_know_a_card_slid_under_a_top_zone_as_its_screen_does() -> None:
    """The bots' memory follows the same rule: seat 0 saw its card leave its hand for the
    bottom of the pile (its screen names it), so its tracker knows the card is there;
    seat 1 saw neither end, nor did any seat see the deck's cards slid under."""
    from rulesplay.agents.infoset import Tracker

    state = rulesplay.loads(UNDER).new_state(2, seed=3, record_events=True)
    while state.current_player() != 1:
        state.apply(state.legal_actions()[0])
    prog = state.program
    pile = prog.layout.zone_id["pile"]
    slid = state.zones[pile][0]
    assert prog.card_ids[slid] == state.history[-1][1].split(":", 1)[1]
    for seat in (0, 1):
        tracker = Tracker(seat)
        tracker.sync(state)
        known = {c for c, z in tracker.known.items() if z == pile}
        assert known == ({slid} if seat == 0 else set())
