"""Bargain Bin (rulesets/bargain_bin.rules): one scenario per ruling BB1-BB6 of RULINGS.md
(BB7, the conduct rules, is social and not modelled).

A turn is two decisions: ``pick:CARD`` (card ids ``clubs-7``, ``hearts-13``, ``joker``) and
``target:SEAT``. Hands are scripted: :func:`play_hand` arranges every hand and plays each card
in front of a chosen seat so that the card-point totals are exactly the ones a test names.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import RULESETS, legal, new_state

import rulesplay

BARGAIN_BIN = RULESETS / "bargain_bin.rules"
BLACK, RED = ("clubs", "spades"), ("diamonds", "hearts")


def bin_state(players: int = 4, seed: int = 0, **options: Any) -> rulesplay.State:
    """A game with seat 0 as the first dealer (seat 1 starts) unless options say otherwise."""
    options.setdefault("first_dealer", 0)
    return new_state(players, seed, BARGAIN_BIN, **options)


def fronts_for(totals: list[int]) -> list[list[str]]:
    """Cards to put in front of each seat so that its card points are ``totals[seat]``, five
    cards per seat in all (ranks 1-11 only, where the value is the rank)."""
    pool = {suit: list(range(1, 12)) for suit in (*BLACK, *RED)}
    fronts: list[list[str]] = [[] for _ in totals]
    for seat, total in enumerate(totals):
        suits, rest = (BLACK if total > 0 else RED), abs(total)
        while rest > 0:
            value, suit = max((v, s) for s in suits for v in pool[s] if v <= rest)
            pool[suit].remove(value)
            fronts[seat].append(f"{suit}-{value}")
            rest -= value
    need = 5 * len(totals) - sum(map(len, fronts))
    assert need >= 0, "totals too large for one hand"
    if need % 2:  # +a -b -c with a = b + c
        a = next(v for v in range(3, 12) if v in pool["clubs"] and 1 in pool["hearts"]
                 and v - 1 in pool["diamonds"])
        pool["clubs"].remove(a)
        pool["hearts"].remove(1)
        pool["diamonds"].remove(a - 1)
        fronts[0] += [f"clubs-{a}", "hearts-1", f"diamonds-{a - 1}"]
        need -= 3
    seat = 0
    while need:
        value, black, red = next((v, b, r) for b in BLACK for r in RED for v in pool[b]
                                 if v in pool[r])
        pool[black].remove(value)
        pool[red].remove(value)
        fronts[seat % len(totals)] += [f"{black}-{value}", f"{red}-{value}"]
        seat, need = seat + 1, need - 2
    return fronts


def play_hand(state: rulesplay.State, totals: list[int]) -> None:
    """Arrange the hands and play one whole hand so the card-point totals are ``totals``."""
    n = state.num_players
    plays = [(card, target) for target, cards in enumerate(fronts_for(totals))
             for card in cards]
    plan = {seat: plays[5 * seat:5 * seat + 5] for seat in range(n)}
    for seat in range(n):
        state.arrange("hand", seat, [card for card, _ in plan[seat]])
    for _ in range(5 * n):
        seat = state.current_player()
        card, target = plan[seat].pop()
        state.apply(f"pick:{card}")
        state.apply(f"target:{target}")
    assert [state.var("total", s) for s in range(n)] == totals


def game_points(state: rulesplay.State) -> list[int]:
    return [state.var("game_points", s) for s in range(state.num_players)]


# ---------------------------------------------------------------- BB1, BB2
def test_bb1_card_values_as_printed() -> None:
    prog = rulesplay.load(BARGAIN_BIN).program(4)
    values = {(a["suit"], a["rank"]): a["value"] for a in prog.card_attrs if a["kind"] == "card"}
    assert len(values) == 52
    for suit in (*BLACK, *RED):
        assert [values[(suit, r)] for r in range(1, 14)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                                             11, 12, 12]
    assert prog.card_labels[prog.card_ids.index("hearts-11")] == "J of hearts"


def test_bb2_black_adds_red_subtracts() -> None:
    state = bin_state()
    hands = {1: ["clubs-13", "hearts-11", "spades-1", "diamonds-12", "clubs-5"],
             2: ["spades-12", "spades-2", "hearts-3", "diamonds-4", "clubs-6"],
             3: ["hearts-13", "clubs-9", "spades-10", "diamonds-1", "hearts-7"],
             0: ["diamonds-13", "clubs-8", "spades-8", "hearts-9", "clubs-3"]}
    for seat, cards in hands.items():
        state.arrange("hand", seat, cards)
    # Everyone plays every card in front of seat 2, in hand order.
    for _ in range(20):
        seat = state.current_player()
        state.apply(f"pick:{hands[seat].pop(0)}")
        state.apply("target:2")
    # Black: 12 + 1 + 5 + 12 + 2 + 6 + 9 + 10 + 8 + 8 + 3 = 76 (the king counts 12);
    # red: 11 + 12 + 3 + 4 + 12 + 1 + 7 + 12 + 9 = 71.
    assert [state.var("total", s) for s in range(4)] == [0, 0, 5, 0]


# ---------------------------------------------------------------- BB3
@pytest.mark.parametrize(("totals", "points"), [
    ([30, 20, 10, 0], [1, 1, 0, 0]),         # the two highest score
    ([-3, 5, -20, 4], [0, 1, 0, 1]),         # negative totals rank the same way
    ([30, 20, 20, 0], [1, 0, 0, 0]),         # a tie for second: only the top scores
    ([30, 30, 10, 0], [1, 1, 0, 0]),         # two tied for first: both score
    ([30, 30, 20, 20], [1, 1, 0, 0]),        # ... and nobody else, even tied below
    ([20, 20, 20, 0], [0, 0, 0, 0]),         # three tied for first: nobody scores
    ([10, 10, 10, 10], [0, 0, 0, 0]),        # four tied: nobody
])
def test_bb3_game_points_after_a_hand(totals: list[int], points: list[int]) -> None:
    state = bin_state()
    play_hand(state, totals)
    assert game_points(state) == points


def test_bb3_card_points_start_from_zero_each_hand() -> None:
    state = bin_state()
    play_hand(state, [30, 20, 10, 0])
    assert all(not state.zone_cards("front", s) for s in range(4))
    play_hand(state, [0, 10, 20, 30])
    assert game_points(state) == [1, 1, 1, 1]


# ---------------------------------------------------------------- BB4
def test_bb4_deal_five_left_of_dealer_starts_and_the_deal_passes() -> None:
    state = bin_state(5, first_dealer=2)
    assert all(len(state.zone_cards("hand", s)) == 5 for s in range(5))
    assert len(state.zone_cards("deck")) == 52 - 25
    assert state.var("dealer") == 2
    order = []
    for _ in range(5):
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
        state.apply(state.legal_actions()[0])
    assert order == [3, 4, 0, 1, 2]  # clockwise from the dealer's left
    for _ in range(20):
        state.apply(state.legal_actions()[0])
        state.apply(state.legal_actions()[0])
    assert state.var("hand_number") == 2 and state.var("dealer") == 3
    assert state.current_player() == 4


def test_bb4_first_dealer_is_drawn_by_the_seeded_generator() -> None:
    dealers = {bin_state(6, seed, first_dealer=-1).var("dealer") for seed in range(30)}
    assert len(dealers) > 2 and dealers <= set(range(6))


# ---------------------------------------------------------------- BB5
def test_bb5_the_game_ends_after_the_hand_in_which_someone_reaches_10() -> None:
    state = bin_state(4, seed=3)
    rng = random.Random(3)
    while not state.is_terminal():
        assert max(game_points(state)) < 10
        state.apply(rng.choice(state.legal_actions()))
    assert max(game_points(state)) == 10


def scripted_game(hands: list[tuple[list[int], int]]) -> rulesplay.State:
    state = bin_state()
    for totals, times in hands:
        for _ in range(times):
            play_hand(state, totals)
    assert state.is_terminal()
    return state


def test_bb5_winners_are_the_top_two() -> None:
    state = scripted_game([([0, 0, 10, 20], 7), ([0, 10, 20, 0], 1), ([10, 20, 0, 0], 8),
                           ([30, 20, 20, 0], 2)])
    assert game_points(state) == [10, 9, 8, 7]
    assert state.winners() == [0, 1]


def test_bb5_a_tie_for_second_leaves_only_the_top_winner() -> None:
    state = scripted_game([([0, 20, 10, 0], 9), ([30, 20, 20, 0], 10)])
    assert game_points(state) == [10, 9, 9, 0]
    assert state.winners() == [0]


def test_bb5_two_tied_on_top_both_win() -> None:
    state = scripted_game([([0, 0, 20, 10], 9), ([30, 30, 10, 0], 10)])
    assert game_points(state) == [10, 10, 9, 9]
    assert state.winners() == [0, 1]
    assert state.scores() == [10, 10, 9, 9]


# ---------------------------------------------------------------- BB6
def test_bb6_selfless_forbids_only_ones_own_seat() -> None:
    for selfless in (False, True):
        state = bin_state(selfless=selfless)
        state.apply(state.legal_actions()[0])
        targets = {f"target:{s}" for s in range(4)}
        assert legal(state) == (targets - {"target:1"} if selfless else targets)


def test_bb6_joker_is_a_53rd_card_fixed_at_plus_or_minus_20() -> None:
    assert len(bin_state().zone_cards("box")) == 1  # without the option it is not used
    for sign, worth in (("plus", 20), ("minus", -20)):
        state = bin_state(joker=True)
        assert not state.zone_cards("box")
        assert len(state.zone_cards("deck")) == 53 - 20
        for seat in (0, 2, 3):  # seat 1 gets the Joker; the others keep five cards
            if "joker" in state.zone_cards("hand", seat):
                rest = [c for c in state.zone_cards("hand", seat) if c != "joker"]
                state.arrange("hand", seat, [*rest, state.zone_cards("deck")[0]])
        state.arrange("hand", 1, ["joker", *[c for c in state.zone_cards("hand", 1)
                                             if c != "joker"][:4]])
        state.apply("pick:joker")
        state.apply("target:3")
        assert state.decision_name() == "joker_sign"
        assert legal(state) == {"joker_sign:plus", "joker_sign:minus"}
        state.apply(f"joker_sign:{sign}")
        while state.var("hand_number") == 1:
            state.apply(state.legal_actions()[0])
            if state.decision_name() == "target":  # keep every other card off seat 3
                state.apply("target:0")
        assert state.var("total", 3) == worth


def test_bb6_vegas_payments_and_the_winner_takes_the_bin() -> None:
    state = bin_state(vegas=True, unit_price=10, game_points_to_win=1)
    play_hand(state, [30, 20, 20, 0])
    assert "Only the top player scores: 2 players tied for second" in [
        e["text"] for e in state.events or [] if e["type"] == "say"]
    # Paid: (30 - own) x 10 cents = 0, 100, 100, 300: 500 in the bin, all to the winner.
    assert state.is_terminal() and state.winners() == [0]
    assert [state.var("money", s) for s in range(4)] == [500, -100, -100, -300]
    assert state.var("bin") == 0


def test_bb6_vegas_two_winners_split_the_bin() -> None:
    state = bin_state(vegas=True, unit_price=10, game_points_to_win=1)
    play_hand(state, [30, 20, 10, 0])
    assert state.winners() == [0, 1]
    # 0 + 100 + 200 + 300 = 600 paid; 300 each to the two winners.
    assert [state.var("money", s) for s in range(4)] == [300, 200, -200, -300]
    says = [e["text"] for e in state.events or [] if e["type"] == "say"]
    assert says == ["Seat 0 deals; Seat 1 plays first",
                    "Seat 0: 30 card points", "Seat 1: 20 card points",
                    "Seat 2: 10 card points", "Seat 3: 0 card points",
                    "Seat 0 gets a game point for 30 card points (1 in all)",
                    "Seat 1 gets a game point for 20 card points (1 in all)",
                    "Seat 0: 300 cents", "Seat 1: 200 cents", "Seat 2: -200 cents",
                    "Seat 3: -300 cents"]


def test_bb6_vegas_off_moves_no_money() -> None:
    state = bin_state(game_points_to_win=1)
    play_hand(state, [30, 20, 10, 0])
    assert [state.var("money", s) for s in range(4)] == [0, 0, 0, 0]


@pytest.mark.parametrize("players", [4, 7, 10])
def test_whole_games_with_every_option_end_rule_exact(players: int) -> None:
    game = rulesplay.load(BARGAIN_BIN, options={"joker": True, "vegas": True,
                                                "selfless": True})
    state = game.new_state(players, seed=players, record_events=True)
    rng = random.Random(players)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    points = game_points(state)
    assert max(points) == 10
    money = [state.var("money", s) for s in range(players)]
    assert sum(money) + state.var("bin") == 0
    with pytest.raises(rulesplay.errors.OptionError):
        game.new_state(3)


@pytest.mark.parametrize("joker", [False, True])
def test_bb6_joker_off_is_not_told_in_the_account(joker: bool) -> None:
    """With the option off the Joker goes to the game box, which no rule reads: the account
    does not tell of a card that is not in the game. With it on, the Joker is dealt."""
    import io

    from rich.console import Console

    from rulesplay.narrate import Narrator

    s = bin_state(joker=joker)
    out = io.StringIO()
    narrator = Narrator(s.program, Console(file=out, width=200, color_system=None))
    rng = random.Random(1)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    assert s.events is not None
    narrator.feed(s.events)
    narrator.close()
    moved = [e for e in s.events if e["type"] == "move" and e["card"] == "joker"]
    assert moved  # the Joker moves either way: to the box, or dealt and played
    assert ("box" in out.getvalue()) is False
    assert ("Joker" in out.getvalue()) is joker
