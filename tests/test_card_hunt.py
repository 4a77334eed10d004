"""Card Hunt (rulesets/card_hunt.rules): one scenario per ruling CH1-CH7 of RULINGS.md.

Seats are 0-based; seat k gets suit k of (clubs, diamonds, hearts, spades), seats 4-7 the
same suits from the second deck. Card ids: ``clubs-14`` (the Ace), ``clubs-14#2`` with two
decks. The trick decision is ``play``: ``play:CARD`` or ``pass``.
"""

from __future__ import annotations

import random

import pytest
from conftest import RULESETS, events, legal, new_state, play

import rulesplay
from rulesplay.errors import OptionError

CARD_HUNT = RULESETS / "card_hunt.rules"
SUITS = ("clubs", "diamonds", "hearts", "spades")


def hunt(players: int, seed: int = 0) -> rulesplay.State:
    return new_state(players, seed, CARD_HUNT)


def forced_passes(state: rulesplay.State) -> list[int]:
    return [e["player"] for e in events(state, "pass") if e["forced"]]


# ---------------------------------------------------------------- CH1
@pytest.mark.parametrize("players", [2, 3, 4])
def test_ch1_each_player_holds_one_whole_suit(players: int) -> None:
    state = hunt(players)
    for seat in range(players):
        assert sorted(state.zone_cards("hand", seat)) == sorted(
            f"{SUITS[seat]}-{rank}" for rank in range(2, 15))
    # Suits left over are set aside: they stay in the deck, nobody holds them.
    assert len(state.zone_cards("deck")) == 13 * (4 - players)


def test_ch1_ace_is_high_and_labels_read_naturally() -> None:
    state = hunt(2)
    prog = state.program
    assert prog.card_labels[prog.card_ids.index("clubs-14")] == "A of clubs"
    assert prog.card_labels[prog.card_ids.index("hearts-10")] == "10 of hearts"
    play(state, "play:clubs-14")  # nothing beats an Ace: the other seat must pass
    assert forced_passes(state) == [1]
    assert events(state, "trick")[0]["winner"] == 0


# ---------------------------------------------------------------- CH2
def test_ch2_a_play_must_be_strictly_higher() -> None:
    state = hunt(3)
    assert "pass" not in legal(state)  # the leader must lead a card
    play(state, "play:clubs-9")
    assert legal(state) == {f"play:diamonds-{r}" for r in range(10, 15)} | {"pass"}
    play(state, "play:diamonds-12")
    assert legal(state) == {"play:hearts-13", "play:hearts-14", "pass"}


def test_ch2_equal_ranks_from_the_second_deck_do_not_beat_each_other() -> None:
    state = hunt(5)
    assert sorted(state.zone_cards("hand", 4)) == sorted(f"clubs-{r}#2" for r in range(2, 15))
    play(state, "play:clubs-9#1", "pass", "pass", "pass")
    assert state.current_player() == 4
    assert "play:clubs-9#2" not in legal(state)
    assert "play:clubs-10#2" in legal(state)


def test_ch2_a_player_with_no_higher_card_passes_without_a_choice() -> None:
    state = hunt(3)
    state.arrange("hand", 1, ["diamonds-2", "diamonds-3"])
    play(state, "play:clubs-5")
    # Seat 1 has nothing above a 5: it passes at once; seat 2 decides next.
    assert forced_passes(state) == [1]
    assert state.current_player() == 2


def test_ch2_passing_is_allowed_even_with_a_higher_card() -> None:
    state = hunt(3)
    play(state, "play:clubs-5", "pass")
    assert state.current_player() == 2
    assert [e["forced"] for e in events(state, "pass")] == [False]


# ---------------------------------------------------------------- CH3
def test_ch3_turns_go_round_skipping_passed_players_until_one_is_left() -> None:
    state = hunt(3)
    seen = []
    for action in ("play:clubs-2", "play:diamonds-3", "pass", "play:clubs-4",
                   "play:diamonds-5", "pass"):
        seen.append(state.current_player())
        play(state, action)
    # Seat 2 passed in the first go-round and is never asked again in this trick.
    assert seen == [0, 1, 2, 0, 1, 0]
    trick = events(state, "trick")[0]
    assert trick["winner"] == 1
    assert trick["cards"] == ["clubs-2", "diamonds-3", "clubs-4", "diamonds-5"]
    assert sorted(state.zone_cards("captured", 1)) == sorted(trick["cards"])
    assert state.var("points", 1) == 4


# ---------------------------------------------------------------- CH4
def test_ch4_the_player_left_of_the_winner_leads_next() -> None:
    state = hunt(4)
    play(state, "play:clubs-2", "play:diamonds-3", "pass", "pass", "pass")
    assert events(state, "trick")[0]["winner"] == 1
    assert state.current_player() == 2
    assert "pass" not in legal(state)
    # A winner in the last seat: the lead goes round to seat 0.
    play(state, "play:hearts-2", "play:spades-3", "pass", "pass", "pass")
    assert events(state, "trick")[1]["winner"] == 3
    assert state.current_player() == 0


# ---------------------------------------------------------------- CH5
def test_ch5_round_ends_after_the_trick_of_a_last_card_and_the_fox_takes_the_rest() -> None:
    state = hunt(3)
    state.arrange("hand", 0, ["clubs-2", "clubs-10"])
    play(state, "play:clubs-2", "play:diamonds-4", "pass")
    play(state, "play:clubs-10")  # seat 0's last card: the trick carries on
    assert state.var("round") == 1 and state.current_player() == 1
    play(state, "play:diamonds-12")
    # Seat 0 has no cards left and passes by force; seat 1 is the only one left and wins.
    assert forced_passes(state) == [0]
    trick = events(state, "trick")[-1]
    assert trick["winner"] == 1
    assert trick["cards"] == ["clubs-2", "diamonds-4", "clubs-10", "diamonds-12"]
    # The round is over: the 11 + 13 cards still in hands went to the fox, worth nothing.
    to_fox = [e for e in events(state, "move") if e["to"]["zone"] == "fox"]
    assert len(to_fox) == 11 + 13
    assert state.var("round") == 2
    assert [state.var("points", s) for s in range(3)] == [0, 4, 0]  # 1 per captured card


# ---------------------------------------------------------------- CH6
def test_ch6_one_round_per_player_and_the_first_leader_rotates() -> None:
    state = hunt(3)
    leaders = []
    while not state.is_terminal():
        round_number = state.var("round")
        if len(leaders) < round_number:
            leaders.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert leaders == [0, 1, 2]
    assert len([e for e in events(state, "phase") if e["phase"] == "deal"]) == 3


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_ch6_scores_add_up_over_rounds_and_the_highest_total_wins(players: int) -> None:
    state = hunt(players, seed=players)
    rng = random.Random(players)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    captured = [0] * players
    for trick in events(state, "trick"):
        captured[trick["winner"]] += len(trick["cards"])
    assert state.scores() == captured
    best = max(captured)
    assert state.winners() == [s for s in range(players) if captured[s] == best]


def test_ch6_ties_share_the_win() -> None:
    state = hunt(2)
    # Round 1 (seat 0 leads): seat 0 takes three cards with its last card; round over.
    state.arrange("hand", 0, ["clubs-2", "clubs-6"])
    state.arrange("hand", 1, ["diamonds-4", "diamonds-5"])
    play(state, "play:clubs-2", "play:diamonds-4", "play:clubs-6")
    assert forced_passes(state) == [1]  # a 5 cannot beat a 6
    assert state.var("round") == 2
    assert [state.var("points", s) for s in range(2)] == [3, 0]
    # Round 2 (seat 1 leads): seat 1 takes three cards with its last card; game over.
    assert state.current_player() == 1
    state.arrange("hand", 1, ["diamonds-12", "diamonds-14"])
    play(state, "play:diamonds-12", "play:clubs-13", "play:diamonds-14")
    assert state.is_terminal()
    assert state.scores() == [3, 3]
    assert state.winners() == [0, 1]


# ---------------------------------------------------------------- CH7
def test_ch7_one_deck_up_to_four_players_two_decks_for_five_to_eight() -> None:
    game = rulesplay.load(CARD_HUNT)
    assert game.player_range == (2, 8)
    assert game.program(4).num_cards == 52
    assert game.program(5).num_cards == 104
    state = hunt(8)
    for seat in range(8):
        hand = state.zone_cards("hand", seat)
        copy = "#1" if seat < 4 else "#2"
        assert sorted(hand) == sorted(f"{SUITS[seat % 4]}-{r}{copy}" for r in range(2, 15))
    assert state.zone_cards("deck") == []
    with pytest.raises(OptionError):
        game.new_state(9)
    with pytest.raises(OptionError):
        game.new_state(1)
