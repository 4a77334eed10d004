"""Spades (rulesets/classics/spades.rules) against pagat.com's rules
(https://www.pagat.com/auctionwhist/spades.html; sections Deal, Bidding, Play, Scoring).

Besides fixed scenarios, a referee written here in Python from pagat's text follows whole
games and checks every legal play (follow suit, spades not led until broken) and every
hand's score (contract, bags and the ten-bag penalty, nil and blind nil, the end of the game).
Seats: 0 deals the first hand; North-South are seats 0 and 2, East-West 1 and 3."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import RULESETS, legal, load_game, new_state, play
from test_differential import play_both

import rulesplay

SPADES = RULESETS / "classics" / "spades.rules"


def suit(card_id: str) -> str:
    return card_id.split("-")[0]


def rank(card_id: str) -> int:
    return int(card_id.split("-")[1])


class Referee:
    """pagat's Spades, kept beside a game: legal plays and each hand's score."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.opt = {"target": 500, "losing_score": -200, "blind_nil": True,
                    "blind_nil_behind": 100, "nil_tricks_count": False, "bag_limit": 10}
        self.opt.update(options)
        self.points = [0, 0]
        self.bags = [0, 0]
        self.dealer = 0
        self.new_hand()

    def new_hand(self) -> None:
        self.tricks = [0, 0, 0, 0]
        self.broken = False
        self.trick: list[tuple[int, str]] = []

    def plays(self, s: rulesplay.State) -> set[str]:
        """Play: follow suit if possible; spades not led until broken or only spades held."""
        hand = s.zone_cards("hand", s.current_player())
        if self.trick:
            led = suit(self.trick[0][1])
            ok = [c for c in hand if suit(c) == led] or hand
        else:
            ok = [c for c in hand if suit(c) != "spades" or self.broken] or hand
        return {f"play:{c}" for c in ok}

    def played(self, seat: int, card: str) -> None:
        self.trick.append((seat, card))
        if suit(card) == "spades":
            self.broken = True
        if len(self.trick) == 4:
            led = suit(self.trick[0][1])
            win = max(self.trick, key=lambda sc: (suit(sc[1]) == "spades",
                                                  suit(sc[1]) == led, rank(sc[1])))
            self.tricks[win[0]] += 1
            self.trick = []

    def score(self, bids: list[int], blind: list[bool]) -> None:
        """Scoring: contract and bags, nil and blind nil, the bag penalty."""
        for t in (0, 1):
            seats = (t, t + 2)
            contract = sum(bids[p] for p in seats)
            counted = sum(self.tricks[p] for p in seats
                          if bids[p] > 0 or self.opt["nil_tricks_count"])
            if contract > 0:
                if counted >= contract:
                    self.points[t] += 10 * contract + counted - contract
                    self.bags[t] += counted - contract
                else:
                    self.points[t] -= 10 * contract
            for p in seats:
                if bids[p] == 0:
                    stake = 200 if blind[p] else 100
                    self.points[t] += stake if self.tricks[p] == 0 else -stake
            if self.opt["bag_limit"] and self.bags[t] >= self.opt["bag_limit"]:
                self.points[t] -= 100
                self.bags[t] -= self.opt["bag_limit"]
        self.dealer = (self.dealer + 1) % 4
        self.new_hand()

    def over(self) -> bool:
        if self.points[0] == self.points[1]:
            return False
        return (max(self.points) >= self.opt["target"]
                or min(self.points) <= self.opt["losing_score"])


def referee_game(seed: int, bid_choice: Any = None, **options: Any) -> tuple[int, int, int]:
    """Play one game with random plays (bids from ``bid_choice`` if given), checking each
    decision and each hand's score against the Referee. Returns (hands, blind nil offers,
    exchanges of two cards after a blind nil)."""
    s = new_state(4, seed, SPADES, **options)
    ref = Referee(options)
    rng = random.Random(seed)
    hands, offers, exchanges = 0, 0, 0
    bids: list[int] = []
    blind = [False] * 4
    while not s.is_terminal():
        p = s.current_player()
        ids = legal(s)
        if s.decision_name() == "b":  # blind nil, before the deal
            behind = ref.points[1 - p % 2] - ref.points[p % 2]
            assert behind >= ref.opt["blind_nil_behind"] and ref.opt["blind_nil"]
            assert s.zone_cards("hand", p) == []  # not yet looked at
            offers += 1
        elif s.decision_name() == "n":
            assert ids == {f"n:{k}" for k in range(14)}
        elif s.decision_name() in ("given", "back"):
            # pagat, Bidding: the blind nil bidder gives two cards to the partner, who gives
            # two back, after all the bids
            pv = s.observation(None)["player_vars"]
            assert all(len(s.zone_cards("hand", q)) in (11, 13, 15) for q in range(4))
            bidder = p if s.decision_name() == "given" else (p + 2) % 4
            assert pv["blind"][bidder] and pv["bid"][bidder] == 0
            hand = s.zone_cards("hand", p)
            assert len(hand) == (13 if s.decision_name() == "given" else 15)
            assert all(len(i.split(":")[1].split("+")) == 2 for i in ids)
            exchanges += s.decision_name() == "back"
        else:
            assert ids == ref.plays(s), f"seed {seed}: {sorted(ids)}"
        if s.decision_name() == "n" and bid_choice is not None:
            action = f"n:{bid_choice(rng)}"
        else:
            action = rng.choice(sorted(ids))
        s.apply(action)
        if action.startswith("play:"):
            if not bids:
                pv = s.observation(None)["player_vars"]
                bids, blind = list(pv["bid"]), list(pv["blind"])
            ref.played(p, action[5:])
            if sum(ref.tricks) == 13:
                ref.score(bids, blind)
                hands += 1
                bids = []
                assert s.observation(None)["team_vars"]["points"] == ref.points
                assert s.observation(None)["team_vars"]["bags"] == ref.bags
                assert s.is_terminal() == ref.over()
    return hands, offers, exchanges


# ------------------------------------------------------------ Deal, Bidding
def test_deal_thirteen_each_and_the_dealers_left_bids_first() -> None:
    """pagat, Deal: all 52 cards, 13 each; Bidding: starting with the dealer's left, 0-13."""
    s = new_state(4, 1, SPADES)
    assert [len(s.zone_cards("hand", p)) for p in range(4)] == [13] * 4
    assert s.current_player() == 1
    assert legal(s) == {f"n:{k}" for k in range(14)}  # 0 is nil
    play(s, "n:3", "n:0", "n:4", "n:2")
    assert s.observation(None)["player_vars"]["bid"] == [2, 3, 0, 4]
    assert s.current_player() == 1  # the dealer's left leads


# ------------------------------------------------------------ Play
def test_spades_may_not_be_led_until_broken() -> None:
    """pagat, Play: spades may not be led until spades have been broken (played on
    another suit's lead) or the leader has nothing but spades. Seed 1: seat 1 holds A, 9
    and 2 of spades."""
    s = play(new_state(4, 1, SPADES), "n:3", "n:3", "n:3", "n:3")
    hand = s.zone_cards("hand", 1)
    assert {"spades-14", "spades-9", "spades-2"} <= set(hand)
    assert legal(s) == {f"play:{c}" for c in hand if suit(c) != "spades"}
    play(s, "play:diamonds-3")
    # seat 2 follows diamonds while it can
    assert legal(s) == {f"play:{c}" for c in s.zone_cards("hand", 2) if suit(c) == "diamonds"}


def test_a_leader_with_nothing_but_spades_may_lead_one_before_they_are_broken() -> None:
    """pagat, Play: the leader who has nothing but spades may lead one though spades are
    not broken. Seed 38 played at random (random.Random(38)) reaches such a lead in the
    first hand, with five spades left and no spade played yet."""
    s = new_state(4, 38, SPADES)
    rng = random.Random(38)
    while True:
        o = s.observation(None)
        hand = s.zone_cards("hand", s.current_player())
        if (s.decision_name() == "play" and not s.zone_cards("table")
                and all(suit(c) == "spades" for c in hand)):
            break
        s.apply(rng.choice(s.legal_actions()))
    assert not o["vars"]["broken"] and o["vars"]["hand_number"] == 1 and len(hand) == 5
    assert legal(s) == {f"play:{c}" for c in hand}
    play(s, f"play:{hand[0]}")
    assert s.observation(None)["vars"]["broken"]


def test_the_referee_agrees_on_every_play_and_every_score() -> None:
    """pagat, Play and Scoring, over whole games of random bids and plays."""
    for seed in range(6):
        hands = referee_game(seed)[0]
        assert hands >= 1


def test_bags_cost_a_hundred_every_ten_and_carry_over() -> None:
    """pagat, Scoring (sandbagging): low bids pile up overtricks; every ten cost 100."""
    hands = sum(referee_game(seed, lambda r: r.choice([1, 2]))[0] for seed in range(3))
    assert hands >= 6  # the bag penalty comes round within these games (bags checked)


def test_blind_nil_is_offered_only_to_a_side_behind_by_100() -> None:
    """pagat, Bidding (blind nil): bid before looking at one's cards, by a side 100 behind."""
    results = [referee_game(seed) for seed in range(6, 14)]
    assert sum(r[1] for r in results) > 0
    assert sum(referee_game(seed, blind_nil=False)[1] for seed in range(6, 9)) == 0


def test_a_blind_nil_bidder_exchanges_two_cards_with_the_partner() -> None:
    """pagat, Bidding: after the bids, the blind nil bidder gives two cards face down to
    the partner, who gives two back (an option)."""
    assert sum(referee_game(seed)[2] for seed in range(6, 14)) > 0
    assert sum(referee_game(seed, blind_nil_exchange=False)[2] for seed in range(6, 10)) == 0


def test_a_failed_nils_tricks_count_for_the_partner_as_an_option() -> None:
    """pagat, Scoring (variation): 'some play that if a nil bid fails, the nil bidder's
    tricks count towards making the partner's contract'."""
    for seed in range(3):
        referee_game(seed, lambda r: r.choice([0, 2, 3]), nil_tricks_count=True)


def test_the_target_is_an_option_and_the_game_ends_there() -> None:
    """pagat, Scoring: the first side to reach 500 points wins; the target is an option."""
    for seed in range(3):
        referee_game(seed, lambda r: r.choice([2, 3]), target=120, losing_score=-1000)
    with pytest.raises(rulesplay.errors.OptionError):
        load_game(SPADES, target=5)


def test_both_engines_play_the_same_games() -> None:
    ref = rulesplay.load(SPADES, engine="interpret")
    comp = rulesplay.load(SPADES)
    for seed in range(2):
        assert play_both(ref, comp, 4, seed) > 50
