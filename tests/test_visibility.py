"""One rule of visibility (issue 9 item 5): the screens and seat logs (``SeatView``) ask the
engine's :meth:`Program.view`, as observations and samples do, so they cannot disagree."""

from __future__ import annotations

import rulesplay
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
