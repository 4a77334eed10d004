"""Euchre (``rulesets/classics/euchre.rules``): scenarios from the public rule text.

Source: pagat.com, "Euchre" (https://www.pagat.com/euchre/euchre.html), sections Deal,
Bidding, Going alone, Play and Scoring (the common North American game). Each scenario takes
the first seed whose deal has the cards it needs (found by a predicate on the dealt hands,
so the scenario never depends on a hard-coded deal) and plays the moves by action id.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from conftest import RULESETS, load_game
from test_differential import play_both

import rulesplay
from rulesplay import State

EUCHRE = RULESETS / "classics" / "euchre.rules"
SUITS = ("clubs", "diamonds", "hearts", "spades")
SAME_COLOUR = {"clubs": "spades", "spades": "clubs", "diamonds": "hearts", "hearts": "diamonds"}


def _state(seed: int, **options: Any) -> State:
    return load_game(EUCHRE, **options).new_state(4, seed, record_events=True)


def _zone(state: State, name: str, seat: int | None = None) -> list[str]:
    prog = state.program
    z = prog.layout.zone_id[name] + (seat or 0)
    return [prog.card_ids[c] for c in state.zones[z]]


def _ids(state: State) -> list[str]:
    return [a.id for a in state.legal_actions()]


def _var(state: State, name: str) -> Any:
    seen = state.observation(0)
    return seen["team_vars"][name] if name in seen["team_vars"] else seen["vars"][name]


def _find(pred: Callable[[State], bool], **options: Any) -> State:
    """The first seeded deal (seeds 0..2999) for which ``pred`` holds."""
    for seed in range(3000):
        state = _state(seed, **options)
        if pred(state):
            return state
    raise AssertionError("no seed deals such hands")


def _trump(state: State) -> str:
    return _zone(state, "upcard")[0].split("-")[0]


def _act(state: State, *moves: tuple[int, str]) -> None:
    for seat, action in moves:
        assert state.current_player() == seat, (seat, action, state.current_player())
        state.apply(action)


def _order_up_by_seat_1(state: State, keep: frozenset[str] = frozenset()) -> None:
    """Seat 1 orders up; the dealer (seat 0) discards a card not in ``keep``; no lone hand."""
    _act(state, (1, f"up:{_zone(state, 'upcard')[0]}"), (1, "a:no"))
    discard = next(i for i in _ids(state) if i.split(":")[1] not in keep)
    _act(state, (0, discard))


# ---------------------------------------------------------------- Deal and Bidding
def test_five_cards_each_and_the_top_of_the_kitty_turned_up() -> None:
    """[Deal] Five each, four left in the kitty, the top one turned face up; [Bidding] the
    dealer's left (seat 1; seat 0 deals first) speaks first: order up or pass."""
    state = _state(1)
    assert [len(_zone(state, "hand", p)) for p in range(4)] == [5, 5, 5, 5]
    assert len(_zone(state, "kitty")) == 3 and len(_zone(state, "upcard")) == 1
    seen = {z["zone"]: z for z in state.observation(2)["zones"] if z["owner"] is None}
    assert seen["kitty"]["cards"] is None and seen["upcard"]["cards"] == _zone(state, "upcard")
    assert state.current_player() == 1
    assert _ids(state) == [f"up:{_zone(state, 'upcard')[0]}", "up:skip"]


def test_ordering_up_gives_the_dealer_the_card_and_a_discard() -> None:
    """[Bidding] An order up makes the turned suit trump; [Going alone] the maker says
    whether it plays alone; the dealer picks the card up and discards one face down (the
    kitty stays hidden)."""
    state = _state(2)
    up = _zone(state, "upcard")[0]
    _act(state, (1, "up:skip"), (2, f"up:{up}"))
    assert _var(state, "trump") == up.split("-")[0] and _var(state, "maker") == 2
    assert state.current_player() == 2 and _ids(state) == ["a:yes", "a:no"]  # going alone?
    _act(state, (2, "a:no"))
    assert state.current_player() == 0 and up in _zone(state, "hand", 0)
    assert sorted(i.split(":")[1] for i in _ids(state)) == sorted(_zone(state, "hand", 0))
    discard = _ids(state)[0]
    _act(state, (0, discard))
    assert discard.split(":")[1] in _zone(state, "kitty") and len(_zone(state, "kitty")) == 4
    assert len(_zone(state, "hand", 0)) == 5
    assert state.current_player() == 1  # the dealer's left leads


def test_the_dealer_is_asked_to_pick_it_up() -> None:
    state = _state(3)
    _act(state, (1, "up:skip"), (2, "up:skip"), (3, "up:skip"))
    assert state.current_player() == 0 and state.prompt().startswith("pick up the ")


def test_second_round_names_another_suit_and_all_passing_throws_in() -> None:
    """[Bidding] After four passes the turned suit may not be named; after four more passes
    the hand is thrown in and the next seat deals."""
    state = _state(4)
    turned = _trump(state)
    for seat in (1, 2, 3, 0):
        _act(state, (seat, "up:skip"))
    assert state.current_player() == 1
    assert sorted(_ids(state)) == sorted([f"s:{s}" for s in SUITS if s != turned] + ["s:skip"])
    for seat in (1, 2, 3):
        _act(state, (seat, "s:skip"))
    assert "s:skip" in _ids(state)  # the dealer may pass too
    _act(state, (0, "s:skip"))
    assert _var(state, "dealer") == 1 and state.current_player() == 2  # a new deal
    assert [len(_zone(state, "hand", p)) for p in range(4)] == [5, 5, 5, 5]


def test_stick_the_dealer_makes_the_dealer_name_trump() -> None:
    """[Bidding] Stick the dealer (option): the dealer may not pass the second round."""
    state = _state(4, stick_the_dealer=True)
    turned = _trump(state)
    for seat in (1, 2, 3, 0):
        _act(state, (seat, "up:skip"))
    for seat in (1, 2, 3):
        _act(state, (seat, "s:skip"))
    assert state.current_player() == 0
    assert sorted(_ids(state)) == sorted(f"s:{s}" for s in SUITS if s != turned)
    other = next(s for s in SUITS if s != turned)
    _act(state, (0, f"s:{other}"))
    assert _var(state, "trump") == other and _var(state, "maker") == 0


# ---------------------------------------------------------------- the bowers
def _left(trump: str) -> str:
    return f"{SAME_COLOUR[trump]}-11"


def test_the_left_bower_follows_a_trump_lead() -> None:
    """[Play] The left bower belongs to the trump suit: holding no other trump, a seat must
    play it to a trump lead, though it holds cards of the bower's printed suit."""
    def fits(s: State) -> bool:
        t = _trump(s)
        two = _zone(s, "hand", 2)
        one = _zone(s, "hand", 1)
        return (_left(t) in two and any(c.startswith(t) and c != f"{t}-11" for c in one)
                and not any(c.startswith(t) or c == f"{t}-11" for c in two)
                and any(c.startswith(SAME_COLOUR[t]) and c != _left(t) for c in two))
    state = _find(fits)
    t = _trump(state)
    _order_up_by_seat_1(state)
    lead = next(i for i in _ids(state) if i.startswith(f"play:{t}") and not i.endswith("-11"))
    _act(state, (1, lead))
    assert _ids(state) == [f"play:{_left(t)}"]


def test_the_left_bower_does_not_follow_its_printed_suit() -> None:
    """[Play] To a lead of the bower's printed suit, a seat holding only the left bower of
    that suit does not follow: it may play any card."""
    def fits(s: State) -> bool:
        t = _trump(s)
        other = SAME_COLOUR[t]
        two = _zone(s, "hand", 2)
        return (_left(t) in two and not any(c.startswith(other) and c != _left(t) for c in two)
                and any(c.startswith(other) and c != _left(t) for c in _zone(s, "hand", 1)))
    state = _find(fits)
    t = _trump(state)
    _order_up_by_seat_1(state)
    lead = next(i for i in _ids(state) if i.startswith(f"play:{SAME_COLOUR[t]}")
                and not i.endswith("-11"))
    _act(state, (1, lead))
    assert sorted(_ids(state)) == sorted(f"play:{c}" for c in _zone(state, "hand", 2))


@pytest.mark.parametrize("cards", [("11", "left", "14"), ("left", "14", "13")],
                         ids=["right-beats-left-and-ace", "left-beats-ace-and-king"])
def test_the_bowers_are_the_highest_trumps(cards: tuple[str, str, str]) -> None:
    """[Play] Trumps rank right bower, left bower, A, K, Q, 10, 9: the three best trumps
    held by seats 1-3 (in any order), with every higher trump out of play, fall in a trump
    trick, and the best takes it."""
    def ids(t: str) -> list[str]:
        return [_left(t) if c == "left" else f"{t}-{c}" for c in cards]

    def fits(s: State) -> bool:
        t = _trump(s)
        need = ids(t)
        if need[0] == _left(t) and f"{t}-11" not in _zone(s, "kitty"):
            return False
        holders = {p for p in (1, 2, 3) for c in _zone(s, "hand", p) if c in need}
        return holders == {1, 2, 3} and all(
            any(c in _zone(s, "hand", p) for p in (1, 2, 3)) for c in need)
    state = _find(fits)
    t = _trump(state)
    need = ids(t)
    holder = {c: p for p in (1, 2, 3) for c in _zone(state, "hand", p) if c in need}
    _order_up_by_seat_1(state, keep=frozenset(need))
    for seat in (1, 2, 3):
        mine = next(c for c, p in holder.items() if p == seat)
        _act(state, (seat, f"play:{mine}"))
    _act(state, (0, _ids(state)[0]))
    trick = [e for e in state.events or [] if e["type"] == "trick"][-1]
    assert trick["winner"] == holder[need[0]]


# ---------------------------------------------------------------- going alone
def test_a_lone_makers_partner_sits_out_and_the_next_seat_leads() -> None:
    """[Going alone] The maker's partner takes no part; the seat at the dealer's left leads,
    or the next seat when it is the one sitting out."""
    state = _state(5)
    up = _zone(state, "upcard")[0]
    _act(state, (1, "up:skip"), (2, "up:skip"), (3, f"up:{up}"), (3, "a:yes"),
         (0, f"d:{_zone(state, 'hand', 0)[0]}"))
    assert state.sitting_out() == [1] and state.current_player() == 2
    partner_cards = sorted(_zone(state, "hand", 1))
    for _ in range(3):
        _act(state, (state.current_player(), _ids(state)[0]))
    trick = [e for e in state.events or [] if e["type"] == "trick"][-1]
    assert len(trick["cards"]) == 3 and trick["winner"] != 1
    assert sorted(_zone(state, "hand", 1)) == partner_cards


def test_without_loners_the_maker_plays_with_the_partner() -> None:
    state = _state(5, loners=False)
    _act(state, (1, f"up:{_zone(state, 'upcard')[0]}"))
    # No decision to go alone: the dealer picks up and discards, and nobody sits out.
    assert state.decision_name() == "d" and state.var("alone") is False


def test_a_lone_defender_sits_the_partner_out_too() -> None:
    """[Going alone] Defending alone (option): against a lone maker, a defender may play
    alone; both partners sit out and the two lone hands play each trick."""
    state = _state(5, lone_defenders=True)
    up = _zone(state, "upcard")[0]
    _act(state, (1, f"up:{up}"), (1, "a:yes"))
    assert state.current_player() == 2 and _ids(state) == ["solo:yes", "solo:no"]
    _act(state, (2, "solo:no"), (0, "solo:yes"))  # seat 0 (the dealer) defends alone
    _act(state, (0, f"d:{_zone(state, 'hand', 0)[0]}"))
    assert state.sitting_out() == [2, 3] and state.current_player() == 1
    _act(state, (1, _ids(state)[0]))
    _act(state, (0, _ids(state)[0]))
    trick = [e for e in state.events or [] if e["type"] == "trick"][-1]
    assert len(trick["cards"]) == 2 and trick["winner"] in (0, 1)


def test_without_lone_defenders_nobody_is_asked() -> None:
    state = _state(5)
    _act(state, (1, f"up:{_zone(state, 'upcard')[0]}"), (1, "a:yes"))
    assert state.current_player() == 0 and _ids(state)[0].startswith("d:")


# ---------------------------------------------------------------- scoring
def _points_by_hand(seed: int, **options: Any) -> list[tuple[int, bool, bool, int, list[int]]]:
    """Plays one game at random; for each hand: the makers' team, alone, a lone defender,
    the makers' tricks (counted from the trick events) and the points each team scored."""
    game = load_game(EUCHRE, **options)
    state = game.new_state(4, seed, record_events=True)
    rng = random.Random(seed)
    hands = []
    seen = 0
    while not state.is_terminal():
        maker, alone = _var(state, "maker"), _var(state, "alone")
        defender = _var(state, "defender") is not None
        before = list(_var(state, "points"))
        state.apply(rng.choice(_ids(state)))
        after = list(_var(state, "points"))
        if after != before:
            tricks = [e for e in (state.events or [])[seen:] if e["type"] == "trick"]
            seen = len(state.events or [])
            made = sum(1 for e in tricks if e["winner"] % 2 == maker % 2)
            scored = [a - b for a, b in zip(after, before, strict=True)]
            hands.append((maker % 2, alone, defender, made, scored))
    return hands


@pytest.mark.parametrize("lone_defenders", [False, True], ids=["standard", "lone-defenders"])
def test_every_hand_scores_as_the_table_says(lone_defenders: bool) -> None:
    """[Scoring] Makers with 3 or 4 tricks: 1; all 5 (a march): 2; a lone march: 4; makers
    with fewer than 3 are euchred: the defenders score 2 (a lone defender 4, with the
    option). Over random games, each case occurs and each hand scores so."""
    cases = set()
    want_cases = {"made", "march", "lone march", "euchred"} | (
        {"euchred alone"} if lone_defenders else set())
    for seed in range(300):
        for makers, alone, defender, made, scored in _points_by_hand(
                seed, lone_defenders=lone_defenders):
            if made == 5:
                want, case = (4 if alone else 2), ("lone march" if alone else "march")
            elif made >= 3:
                want, case = 1, "made"
            else:
                want, case = (4, "euchred alone") if defender else (2, "euchred")
            side = makers if not case.startswith("euchred") else 1 - makers
            assert scored[side] == want and scored[1 - side] == 0, (seed, makers, made, scored)
            cases.add(case)
        if seed >= 20 and cases == want_cases:
            break
    assert cases == want_cases


def test_the_game_ends_when_a_side_reaches_the_target() -> None:
    for target in (1, 10):
        game = load_game(EUCHRE, target=target)
        state = game.new_state(4, 9)
        rng = random.Random(9)
        while not state.is_terminal():
            state.apply(rng.choice(_ids(state)))
        points = _var(state, "points")
        best = max(points)
        assert best >= target and min(points) < target
        assert state.winners() == [p for p in range(4) if points[p % 2] == best]
        assert state.scores() == [points[p % 2] for p in range(4)]


@pytest.mark.parametrize("options", [{}, {"stick_the_dealer": True, "loners": False},
                                     {"lone_defenders": True}],
                         ids=["standard", "stick-no-loners", "lone-defenders"])
def test_both_engines_play_the_same_games(options: dict[str, Any]) -> None:
    reference = rulesplay.load(EUCHRE, options=options, engine="interpret")
    compiled = rulesplay.load(EUCHRE, options=options, engine="compiled")
    for seed in (1, 2):
        assert play_both(reference, compiled, 4, seed) > 0
