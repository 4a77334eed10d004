"""Oh Hell (rulesets/classics/oh_hell.rules) against pagat.com's rules
(https://www.pagat.com/exact/ohhell.html; sections Deal, Bidding, Play, Scoring, Variations).

Fixed scenarios for the deal, the turned-up trump and the hook; a referee written here from
pagat's text follows whole games and checks every legal play, every trick's winner and
every deal's score. Seat 0 deals first."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import RULESETS, events, legal, new_state, play
from test_differential import play_both

import rulesplay

OH_HELL = RULESETS / "classics" / "oh_hell.rules"


def suit(card_id: str) -> str:
    return card_id.split("-")[0]


def rank(card_id: str) -> int:
    return int(card_id.split("-")[1])


def sizes_dealt(players: int, **options: Any) -> list[int]:
    """The hand size of each deal of a game played with the first legal action."""
    s = new_state(players, 0, OH_HELL, **options)
    sizes = []
    deal = 0
    while not s.is_terminal():
        number = s.observation(None)["vars"]["deal_number"]
        if number != deal:
            deal = number
            sizes.append(len(s.zone_cards("hand", s.current_player())))
        s.apply(sorted(legal(s))[0])
    return sizes


# ------------------------------------------------------------ Deal
def test_hand_sizes_go_down_to_one_and_back_up() -> None:
    """pagat, Deal: from the largest hand (10 with 3-5 players) down to one and back up."""
    assert sizes_dealt(3) == list(range(10, 0, -1)) + list(range(2, 11))
    assert sizes_dealt(7) == list(range(7, 0, -1)) + list(range(2, 8))


@pytest.mark.parametrize(("sequence", "expected"), [
    ("up_down", [1, 2, 3, 4, 3, 2, 1]), ("down", [4, 3, 2, 1]), ("up", [1, 2, 3, 4])])
def test_the_other_sequences_are_options(sequence: str, expected: list[int]) -> None:
    """pagat, Variations: the deals may also go up then down, or one way only."""
    assert sizes_dealt(4, max_cards=4, sequence=sequence) == expected


def test_the_next_card_is_turned_up_for_trump() -> None:
    """pagat, Deal: the next card is turned face up and its suit is trump."""
    s = new_state(4, 3, OH_HELL)
    (turned,) = s.zone_cards("turnup")
    assert s.observation(None)["vars"]["trump"] == suit(turned)
    assert len(s.zone_cards("deck")) == 52 - 4 * 10 - 1


def test_with_no_card_left_there_is_no_trump() -> None:
    """pagat, Deal: with all the cards dealt the hand is played without trumps."""
    s = new_state(4, 3, OH_HELL, max_cards=13)
    assert s.zone_cards("turnup") == [] and s.observation(None)["vars"]["trump"] is None


# ------------------------------------------------------------ Bidding
def test_the_hook_the_dealer_may_not_make_the_bids_add_up() -> None:
    """pagat, Bidding (the hook): the dealer may not bid so that the bids add up to the
    number of tricks (with 10 cards: 3 and 4 before, the dealer not 3)."""
    s = play(new_state(3, 0, OH_HELL), "n:3", "n:4")
    assert s.current_player() == 0
    assert legal(s) == {f"n:{k}" for k in range(11)} - {"n:3"}
    s = play(new_state(3, 0, OH_HELL, hook=False), "n:3", "n:4")
    assert legal(s) == {f"n:{k}" for k in range(11)}


def test_the_hook_leaves_an_overbid_dealer_free() -> None:
    """pagat, Bidding: bids already over the tricks leave the dealer every bid."""
    s = play(new_state(3, 0, OH_HELL), "n:8", "n:5")
    assert legal(s) == {f"n:{k}" for k in range(11)}


# ------------------------------------------------------------ Play and Scoring
class Referee:
    """pagat's Oh Hell beside a game: legal plays, trick winners and the deal's score."""

    def __init__(self, players: int, bonus: int, missed: str) -> None:
        self.players, self.bonus, self.missed = players, bonus, missed
        self.points = [0] * players
        self.start_deal(None)

    def start_deal(self, trump: str | None) -> None:
        self.trump = trump
        self.tricks = [0] * self.players
        self.trick: list[tuple[int, str]] = []

    def plays(self, hand: list[str]) -> set[str]:
        ok = hand
        if self.trick:
            ok = [c for c in hand if suit(c) == suit(self.trick[0][1])] or hand
        return {f"play:{c}" for c in ok}

    def played(self, seat: int, card: str) -> int | None:
        self.trick.append((seat, card))
        if len(self.trick) < self.players:
            return None
        led = suit(self.trick[0][1])
        win = max(self.trick, key=lambda sc: (suit(sc[1]) == self.trump,
                                              suit(sc[1]) == led, rank(sc[1])))[0]
        self.tricks[win] += 1
        self.trick = []
        return win

    def score(self, bids: list[int]) -> None:
        for p in range(self.players):
            if self.tricks[p] == bids[p]:
                self.points[p] += self.bonus + self.tricks[p]
            elif self.missed == "per_trick":
                self.points[p] += self.tricks[p]
            elif self.missed == "difference":
                self.points[p] -= abs(self.tricks[p] - bids[p])


@pytest.mark.parametrize(("players", "seed", "options"), [
    (3, 1, {}), (4, 2, {"missed": "per_trick"}), (5, 3, {"missed": "difference", "bonus": 5}),
    (7, 4, {"max_cards": 3}), (4, 5, {"max_cards": 13, "sequence": "down"})])
def test_the_referee_agrees_on_every_play_trick_and_score(
        players: int, seed: int, options: dict[str, Any]) -> None:
    """pagat, Play (follow suit; the highest trump, or else the highest card of the suit
    led, wins) and Scoring (10 points and one a trick for the exact bid)."""
    s = new_state(players, seed, OH_HELL, **options)
    ref = Referee(players, options.get("bonus", 10), options.get("missed", "nothing"))
    rng = random.Random(seed)
    bids: list[int] = []
    tricks_seen, deal = 0, 1
    while not s.is_terminal():
        p = s.current_player()
        ids = legal(s)
        if s.decision_name() == "play":
            if not bids:
                o = s.observation(None)
                bids = list(o["player_vars"]["bid"])
                ref.start_deal(o["vars"]["trump"])
            assert ids == ref.plays(s.zone_cards("hand", p))
        action = rng.choice(sorted(ids))
        s.apply(action)
        if action.startswith("play:"):
            winner = ref.played(p, action[5:])
            if winner is not None:
                tricks_seen += 1
                assert events(s, "trick")[tricks_seen - 1]["winner"] == winner
            number = s.observation(None)["vars"]["deal_number"]
            if number != deal or s.is_terminal():
                deal = number
                ref.score(bids)
                bids = []
                assert s.observation(None)["player_vars"]["points"] == ref.points
    assert s.scores() == ref.points


def test_both_engines_play_the_same_games() -> None:
    ref = rulesplay.load(OH_HELL, engine="interpret", options={"max_cards": 4})
    comp = rulesplay.load(OH_HELL, options={"max_cards": 4})
    for players in (3, 6):
        assert play_both(ref, comp, players, players) > 20
