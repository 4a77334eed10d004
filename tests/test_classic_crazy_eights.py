"""Crazy Eights (rulesets/classics/crazy_eights.rules) against its rule texts.

Sources: the Bicycle (USPCC) rules of Crazy Eights (bicyclecards.com, "Crazy Eights"; the
sections cited as [Deal], [Play], [Eights], [Draw], [Scoring], [Game] in the ruleset) and
pagat.com's page (pagat.com/eights/crazy8s.html, as Board Game Arena's help repeats it) for
drawing at will, the blocked game and the draw-limit variants.

Scenarios set the hands and the stock with ``State.arrange`` around the dealt starter and
choose every move by id; a random-play oracle checks every decision of whole games against
the rule text worked out in Python from the cards.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_differential import play_both

import rulesplay
from rulesplay.engine.state import State

RULES = Path(__file__).resolve().parent.parent / "rulesets" / "classics" / "crazy_eights.rules"
SUITS = ("clubs", "diamonds", "hearts", "spades")


def _game(**options: object) -> rulesplay.Game:
    return rulesplay.load(RULES, options=options or None)  # type: ignore[arg-type]


def _card(cid: str) -> tuple[str, int]:
    suit, rank = cid.split("-")
    return suit, int(rank)


def _value(cid: str) -> int:
    rank = _card(cid)[1]
    return 50 if rank == 8 else 10 if rank > 10 else rank


def _legal(s: State) -> set[str]:
    return {a.id.split(":", 1)[1] for a in s.legal_actions()}


def _matches(cid: str, called: str, top: str) -> bool:
    suit, rank = _card(cid)
    return rank == 8 or suit == called or rank == _card(top)[1]


def _other(suit: str) -> str:
    return SUITS[(SUITS.index(suit) + 1) % 4]


def _setup(s: State) -> tuple[str, int, str]:
    """The starter's suit and rank, and a suit that is neither the starter's nor the one
    after it (for cards that do not match)."""
    suit, rank = _card(s.zone_cards("discard")[-1])
    return suit, rank, _other(_other(suit))


def _table(s: State, hands: dict[int, list[str]], stock: list[str] | None = None) -> None:
    """Set some hands (and the stock, top last); every other card goes under the starter."""
    starter = s.zone_cards("discard")[-1]
    for seat, cards in hands.items():
        s.arrange("hand", seat, cards, spill="discard")
    if stock is not None:
        s.arrange("stock", None, stock, spill="discard")
    s.arrange("discard", None, [c for c in s.zone_cards("discard") if c != starter] + [starter])


@pytest.mark.parametrize(("players", "cards"), [(2, 7), (3, 5), (7, 5)])
def test_the_deal_and_the_starter(players: int, cards: int) -> None:
    # [Deal] 7 cards each with two players, 5 with more; the next card starts the discard
    # pile, and an eight turned there is buried in the stock (never the starter).
    eights, game = 0, _game()
    for seed in range(40):
        s = game.new_state(num_players=players, seed=seed)
        assert all(len(s.zone_cards("hand", q)) == cards for q in range(players))
        starter = s.zone_cards("discard")
        assert len(starter) == 1 and _card(starter[0])[1] != 8
        assert len(s.zone_cards("stock")) == 52 - 1 - cards * players
        assert s.var("called") == _card(starter[0])[0] and s.current_player() == 1
        eights += sum(_card(c)[1] == 8 for q in range(players) for c in s.zone_cards("hand", q))
    assert eights > 0


def test_a_card_matches_in_suit_or_rank_and_an_eight_at_any_time() -> None:
    # [Play] match the top card's suit or rank; [Eights] an eight at any time; [Draw] the
    # player may draw instead, even holding a playable card.
    s = _game().new_state(num_players=3, seed=1)
    suit, rank, off = _setup(s)
    same_suit = f"{suit}-{13 if rank != 13 else 12}"
    same_rank = f"{_other(suit)}-{rank}"
    eight = f"{off}-8"
    miss = f"{off}-{1 if rank != 1 else 2}"
    _table(s, {1: [same_suit, same_rank, eight, miss]})
    assert _legal(s) == {same_suit, same_rank, eight, "skip-drawing"}
    assert [a.label for a in s.legal_actions()
            if a.id.endswith("skip-drawing")] == ["draw a card"]


def test_an_eight_names_the_suit_the_next_player_must_follow() -> None:
    # [Eights] the player of an eight names a suit; the next player plays that suit or an
    # eight (a card of the eight's own suit does not match).
    s = _game().new_state(num_players=3, seed=1)
    suit, rank, off = _setup(s)
    eights_suit = f"{suit}-{10 if rank != 10 else 9}"
    named = f"{off}-{12 if rank != 12 else 13}"
    _table(s, {1: [f"{suit}-8", f"{off}-1"], 2: [eights_suit, named, f"{_other(suit)}-8"]})
    s.apply(f"card:{suit}-8")
    assert s.current_player() == 1 and s.decision_name() == "named"
    s.apply(f"named:{off}")
    assert s.current_player() == 2 and s.var("called") == off
    assert _legal(s) == {named, f"{_other(suit)}-8", "skip-drawing"}


def test_drawing_goes_on_until_the_player_plays_or_the_stock_is_out() -> None:
    # [Draw] Bicycle: draw until able to play; the drawn card may be played at once; with
    # the stock out a player unable to play passes.
    s = _game().new_state(num_players=2, seed=3)
    suit, rank, off = _setup(s)
    playable = f"{suit}-{13 if rank != 13 else 12}"
    misses = [f"{off}-{r}" for r in (2, 3, 4, 5) if r != rank][:3]
    _table(s, {1: misses[:1]}, stock=[playable, *misses[1:]])
    for n in (1, 2):
        assert _legal(s) == {"skip-drawing"}
        s.apply("card:skip-drawing")
        assert s.current_player() == 1 and len(s.zone_cards("hand", 1)) == 1 + n
    assert _legal(s) == {"skip-drawing"}
    s.apply("card:skip-drawing")
    assert _legal(s) == {playable}
    s.apply(f"card:{playable}")
    assert s.current_player() == 0 and s.var("called") == suit


def _deal_fixed(players: int, seed: int, **options: object) -> State:
    return _game(**options).new_state(num_players=players, seed=seed)


def test_a_draw_limit_lets_the_player_pass_after_drawing() -> None:
    # pagat's variant: draw at most one card; unable to play then, the player passes.
    s = _deal_fixed(2, 3, draw_limit=1)
    suit, rank, off = _setup(s)
    _table(s, {1: [f"{off}-{r}" for r in (2, 3) if r != rank]},
           stock=[f"{off}-6", f"{off}-{4 if rank != 4 else 5}"])
    assert _legal(s) == {"skip-drawing"}
    s.apply("card:skip-drawing")
    assert s.current_player() == 1 and len(s.zone_cards("hand", 1)) == 3
    assert [a.label for a in s.legal_actions()] == ["pass"]
    s.apply("card:skip-passing")
    assert s.current_player() == 0 and s.var("passes") == 1


def test_a_playable_hand_cannot_pass_when_it_cannot_draw() -> None:
    # [Draw] a pass is for a player unable to play: with the stock out and a playable
    # card, the player plays.
    s = _deal_fixed(2, 3)
    suit, rank, off = _setup(s)
    playable = f"{suit}-{13 if rank != 13 else 12}"
    _table(s, {1: [playable, f"{off}-{2 if rank != 2 else 3}"]}, stock=[])
    assert _legal(s) == {playable}


def test_the_player_out_of_cards_collects_the_others_cards() -> None:
    # [Scoring] an eight 50, a court card 10, an ace 1, other cards their pips.
    s = _deal_fixed(3, 1, target=1)
    suit, rank, off = _setup(s)
    last = f"{suit}-{13 if rank != 13 else 12}"
    _table(s, {1: [last], 2: [f"{off}-8", f"{off}-12", f"{off}-1"], 0: [f"{off}-11", f"{off}-7"]})
    s.apply(f"card:{last}")
    assert s.is_terminal()
    assert [s.var("points", q) for q in range(3)] == [0, 50 + 10 + 1 + 10 + 7, 0]
    assert s.winners() == [1]


def test_a_blocked_game_pays_the_lowest_hand_the_differences() -> None:
    # pagat: with the stock out and no one able to play, the lowest hand scores the
    # difference between its hand and each other hand.
    s = _deal_fixed(3, 1, target=1)
    suit, rank, off = _setup(s)
    ranks = [r for r in (2, 3, 4, 5, 6) if r != rank]
    _table(s, {0: [f"{off}-{ranks[0]}"], 1: [f"{off}-{ranks[1]}", f"{off}-{ranks[2]}"],
               2: [f"{off}-{ranks[3]}"]}, stock=[])
    for q in (1, 2, 0):
        assert s.current_player() == q and [a.label for a in s.legal_actions()] == ["pass"]
        s.apply("card:skip-passing")
    assert s.is_terminal()
    # Seat 0 holds the lowest hand.
    expect = ranks[1] + ranks[2] - ranks[0] + ranks[3] - ranks[0]
    assert [s.var("points", q) for q in range(3)] == [expect, 0, 0]


@pytest.mark.parametrize(("players", "seed", "limit"), [(2, 1, 52), (4, 2, 1), (7, 3, 3)])
def test_random_games_follow_the_rule_text_at_every_decision(players: int, seed: int,
                                                             limit: int) -> None:
    # Every decision of whole games, and every hand's score, checked against the rules.
    s = _game(draw_limit=limit).new_state(num_players=players, seed=seed)
    rng = random.Random(seed)
    totals = [0] * players
    drawn = 0
    while not s.is_terminal():
        me = s.current_player()
        if s.decision_name() == "named":
            assert _legal(s) == set(SUITS)
            s.apply(rng.choice(s.legal_actions()))
            continue
        hand = s.zone_cards("hand", me)
        top = s.zone_cards("discard")[-1]
        stock = len(s.zone_cards("stock"))
        playable = {c for c in hand if _matches(c, s.var("called"), top)}
        can_draw = stock > 0 and drawn < limit
        assert _legal(s) == playable | ({"skip-drawing"} if can_draw else set()) | (
            {"skip-passing"} if not can_draw and not playable else set())
        action = rng.choice(s.legal_actions())
        hands = [s.zone_cards("hand", q) for q in range(players)]
        before = list(totals)
        s.apply(action)
        if action.id.endswith("skip-drawing") and can_draw:
            drawn += 1
            assert len(s.zone_cards("stock")) == stock - 1
        else:
            drawn = 0
        card = action.id.split(":", 1)[1]
        if card in hands[me] and len(hands[me]) == 1:
            totals[me] += sum(_value(c) for q in range(players) for c in hands[q] if q != me)
            assert [s.var("points", q) for q in range(players)] == totals
            assert s.is_terminal() == (max(totals) >= 100)
        elif [s.var("points", q) for q in range(players)] != before:
            values = [sum(_value(c) for c in h) for h in hands]  # a blocked game
            low = values.index(min(values))
            totals[low] += sum(values) - players * values[low]
            assert [s.var("points", q) for q in range(players)] == totals
    assert max(totals) >= 100
    best = max(totals)
    assert s.winners() == [q for q in range(players) if totals[q] == best]


def test_both_engines_play_the_same_games() -> None:
    source = RULES.read_text()
    reference = rulesplay.loads(source, engine="interpret")
    compiled = rulesplay.loads(source)
    for players, seed in ((2, 1), (4, 2), (7, 3)):
        assert play_both(reference, compiled, players, seed) > 0


def test_going_out_with_an_eight_ends_the_hand_without_naming_a_suit() -> None:
    # [Game] the hand ends as soon as a player is out of cards: an eight played as the last
    # card names no suit.
    s = _deal_fixed(3, 1, target=1)
    suit, rank, off = _setup(s)
    _table(s, {1: [f"{off}-8"], 2: [f"{off}-5"], 0: [f"{off}-12"]})
    s.apply(f"card:{off}-8")
    assert s.is_terminal()
    assert [s.var("points", q) for q in range(3)] == [0, 5 + 10, 0]


@pytest.mark.parametrize("blocked", [False, True])
def test_penalty_scoring_charges_each_player_their_own_hand(blocked: bool) -> None:
    # The penalty variation: every player is charged the cards left in their own hand,
    # whether a player went out or the game was blocked; the lowest total wins.
    s = _deal_fixed(3, 1, target=1, penalties=True)
    suit, rank, off = _setup(s)
    ranks = [r for r in (2, 3, 4, 5, 6, 7) if r != rank]
    last = f"{suit}-{13 if rank != 13 else 12}"
    hands = {0: [f"{off}-{ranks[0]}", f"{off}-11"], 1: [f"{off}-{ranks[1]}"],
             2: [f"{off}-{13 if rank != 13 else 12}" if blocked else f"{off}-8",
                 f"{off}-{ranks[2]}"]}
    if not blocked:
        hands[1] = [last]
    _table(s, hands, stock=[])
    if blocked:
        for q in (1, 2, 0):
            assert s.current_player() == q and [a.label for a in s.legal_actions()] == ["pass"]
            s.apply("card:skip-passing")
    else:
        s.apply(f"card:{last}")
    assert s.is_terminal()
    # (seat 2's eight is always playable, so the blocked hand holds a court card instead)
    charged = [ranks[0] + 10, ranks[1] if blocked else 0, (10 if blocked else 50) + ranks[2]]
    assert [s.var("points", q) for q in range(3)] == charged
    assert s.scores() == [-c for c in charged]
    assert s.winners() == [1]
