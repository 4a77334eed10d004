"""Whist (rulesets/classics/whist.rules) against pagat.com's rules
(https://www.pagat.com/whist/whist.html; sections Deal, Play, Scoring).

Fixed scenarios for the turned-up trump; a referee written here from pagat's text follows
whole games and checks every legal play, every trick and every hand's score (odd tricks,
honours as dealt, honours not scoring the last point, game). Seat 0 deals the first hand;
North-South are seats 0 and 2."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import RULESETS, legal, new_state, play
from test_differential import play_both

import rulesplay

WHIST = RULESETS / "classics" / "whist.rules"


def suit(card_id: str) -> str:
    return card_id.split("-")[0]


def rank(card_id: str) -> int:
    return int(card_id.split("-")[1])


# ------------------------------------------------------------ Deal
def test_the_dealers_last_card_is_turned_up_for_trump() -> None:
    """pagat, Deal: the dealer's last card is turned face up and its suit is trump; it
    stays face up until the dealer plays to the first trick."""
    s = new_state(4, 2, WHIST)
    (turned,) = s.zone_cards("turnup")
    assert s.observation(None)["vars"]["trump"] == suit(turned)
    assert [len(s.zone_cards("hand", p)) for p in range(4)] == [12, 13, 13, 13]
    assert turned in str(s.observation(3)["zones"])  # every seat sees it
    assert s.current_player() == 1  # the dealer's left leads
    lead = sorted(legal(s))[0]
    play(s, lead)
    play(s, sorted(legal(s))[0])
    assert len(s.zone_cards("hand", 0)) == 12
    play(s, sorted(legal(s))[0])
    # the dealer's turn: the turned card is in hand and may be played when it follows
    assert s.current_player() == 0 and s.zone_cards("turnup") == []
    hand = s.zone_cards("hand", 0)
    assert turned in hand and len(hand) == 13
    led = suit(lead[5:])
    assert legal(s) == {f"play:{c}" for c in ([c for c in hand if suit(c) == led] or hand)}


# ------------------------------------------------------------ Play and Scoring
class Referee:
    """pagat's Whist beside a game: legal plays, tricks and each hand's score."""

    def __init__(self, game_points: int, honours: bool) -> None:
        self.game_points, self.honours = game_points, honours
        self.points = [0, 0]

    def deal(self, s: rulesplay.State, dealer: int) -> None:
        (turned,) = s.zone_cards("turnup")
        self.trump = suit(turned)
        hands = [s.zone_cards("hand", p) for p in range(4)]
        hands[dealer].append(turned)
        self.held = [sum(1 for p in (t, t + 2) for c in hands[p]
                         if suit(c) == self.trump and rank(c) >= 11) for t in (0, 1)]
        self.tricks = [0, 0]
        self.trick: list[tuple[int, str]] = []

    def plays(self, hand: list[str]) -> set[str]:
        ok = hand
        if self.trick:
            ok = [c for c in hand if suit(c) == suit(self.trick[0][1])] or hand
        return {f"play:{c}" for c in ok}

    def played(self, seat: int, card: str) -> None:
        self.trick.append((seat, card))
        if len(self.trick) == 4:
            led = suit(self.trick[0][1])
            win = max(self.trick, key=lambda sc: (suit(sc[1]) == self.trump,
                                                  suit(sc[1]) == led, rank(sc[1])))[0]
            self.tricks[win % 2] += 1
            self.last_winner = win
            self.trick = []

    def score(self) -> None:
        for t in (0, 1):
            self.points[t] += max(0, self.tricks[t] - 6)
        if self.honours and max(self.points) < self.game_points:
            for t in (0, 1):
                if self.points[t] < self.game_points - 1:
                    self.points[t] += {4: 4, 3: 2}.get(self.held[t], 0)


def referee_game(seed: int, **options: Any) -> int:
    """Play one game at random, checking each play and each hand's score against the
    Referee; return how many times honours went unscored (a side with one point to go)."""
    s = new_state(4, seed, WHIST, **options)
    ref = Referee(options.get("game_points", 5), options.get("honours", True))
    rng = random.Random(seed)
    dealer, withheld = 0, 0
    ref.deal(s, dealer)
    turn = 1  # Play: the dealer's left leads the first trick
    while not s.is_terminal():
        p = s.current_player()
        assert p == turn
        ids = legal(s)
        hand = s.zone_cards("hand", p) + (s.zone_cards("turnup") if p == dealer else [])
        assert ids == ref.plays(hand)
        action = rng.choice(sorted(ids))
        s.apply(action)
        tricks = list(ref.tricks)
        ref.played(p, action[5:])
        # Play: clockwise; the winner of a trick leads the next.
        turn = (p + 1) % 4 if tricks == ref.tricks else ref.last_winner
        if sum(ref.tricks) == 13:
            withheld += sum(1 for t in (0, 1) if ref.held[t] >= 3 and ref.honours
                            and ref.points[t] == ref.game_points - 1)
            ref.score()
            assert s.observation(None)["team_vars"]["points"] == ref.points
            assert s.is_terminal() == (max(ref.points) >= ref.game_points)
            # Deal: the deal passes to the left; the new dealer's last card is turned up
            # (twelve cards in hand) and the seat at the dealer's left leads.
            dealer = (dealer + 1) % 4
            turn = (dealer + 1) % 4
            if not s.is_terminal():
                assert [len(s.zone_cards("hand", q)) for q in range(4)] == [
                    12 if q == dealer else 13 for q in range(4)]
                ref.deal(s, dealer)
    assert s.scores() == [ref.points[p % 2] for p in range(4)]
    return withheld


@pytest.mark.parametrize(("seed", "options"), [
    (1, {}), (2, {}), (3, {"game_points": 7}), (4, {"honours": False}),
    (5, {"game_points": 10})])
def test_the_referee_agrees_on_every_play_trick_and_score(seed: int,
                                                          options: dict[str, Any]) -> None:
    """pagat, Deal (the deal passes to the left, the new dealer's last card turned up),
    Play (the dealer's left leads, play goes clockwise, follow suit; the highest trump, or
    else the highest card of the suit led, wins; the winner leads the next) and Scoring
    (one point for each trick over six; honours 4 or 2, not counted by a side with one point
    to go; game 5, or 7 or 10)."""
    referee_game(seed, **options)


def test_honours_do_not_score_the_last_point() -> None:
    """pagat, Scoring: honours cannot score a side's last point: a side at 4 in
    short whist holding three or four honours does not count them (checked by the
    referee's score in the games where that happens)."""
    assert sum(referee_game(seed) for seed in range(10, 30)) > 0


def test_both_engines_play_the_same_games() -> None:
    ref = rulesplay.load(WHIST, engine="interpret")
    comp = rulesplay.load(WHIST)
    for seed in range(2):
        assert play_both(ref, comp, 4, seed) > 50
