"""Hearts (rulesets/classics/hearts.rules) against its rule texts.

Sources: the Bicycle (USPCC) rules of Hearts (bicyclecards.com, "Hearts"; the sections
cited as [Deal], [Pass], [Play], [Scoring], [Moon], [Game] in the ruleset) and pagat.com's
Hearts page (pagat.com/reverse/hearts.html) for the variants that are options.

Scenarios set the hands with ``State.arrange`` at the first pass (the cards each seat passes
are part of the scenario) and choose every move by id; a random-play oracle checks every
play decision of whole games against the rule text worked out in Python from the cards.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_differential import play_both

import rulesplay
from rulesplay.engine.state import State

RULES = Path(__file__).resolve().parent.parent / "rulesets" / "classics" / "hearts.rules"
SUITS = ("clubs", "diamonds", "hearts", "spades")
QUEEN = "spades-12"


def _game(**options: object) -> rulesplay.Game:
    return rulesplay.load(RULES, options=options or None)  # type: ignore[arg-type]


def _card(cid: str) -> tuple[str, int]:
    suit, rank = cid.split("-")
    return suit, int(rank)


def _points(cid: str) -> int:
    return 13 if cid == QUEEN else 1 if cid.startswith("hearts") else 0


def _pass_id(cards: list[str]) -> str:
    order = {f"{s}-{r}": i for i, (s, r) in enumerate((s, r) for s in SUITS
                                                        for r in range(2, 15))}
    return "cards:" + "+".join(sorted(cards, key=order.__getitem__))


def _deal(s: State, final: list[list[str]]) -> None:
    """At the first pass (to the left), give each seat the hand that makes ``final`` its
    hand after the pass, each seat passing the first three cards of its left neighbour's
    final hand; then make the passes."""
    n = s.num_players
    gives = [final[(q + 1) % n][:3] for q in range(n)]
    for q in range(n):
        before = [c for c in final[q] if c not in gives[(q - 1) % n]] + gives[q]
        s.arrange("hand", q, before)
    for q in range(n):
        assert s.current_player() == q and s.decision_name() == "cards"
        s.apply(_pass_id(gives[q]))
    for q in range(n):
        assert sorted(s.zone_cards("hand", q)) == sorted(final[q])


def _suit(suit: str, ranks: range | list[int]) -> list[str]:
    return [f"{suit}-{r}" for r in ranks]


def _legal(s: State) -> set[str]:
    return {a.id.removeprefix("play:") for a in s.legal_actions()}


# Seat 0 holds every club, seat 1 every heart, seat 2 every spade, seat 3 every diamond:
# seat 0 leads the 2 of clubs and wins every trick, as no one else can follow clubs.
SWEEP = [_suit("clubs", range(2, 15)), _suit("hearts", range(2, 15)),
         _suit("spades", range(2, 15)), _suit("diamonds", range(2, 15))]


def test_each_seat_passes_three_cards_at_once_to_the_left_first() -> None:
    # [Pass] three cards, face down, to the left on the first hand; one decision of all
    # C(13, 3) sets, each seat passing before it sees what it receives.
    s = _game().new_state(num_players=4, seed=2)
    assert len(s.legal_actions()) == 286
    before = [s.zone_cards("hand", q) for q in range(4)]
    gives = [before[q][:3] for q in range(4)]
    for q in range(4):
        assert not set(s.zone_cards("hand", q)) & set(gives[(q - 1) % 4])
        s.apply(_pass_id(gives[q]))
    for q in range(4):
        expect = set(before[q]) - set(gives[q]) | set(gives[(q - 1) % 4])
        assert set(s.zone_cards("hand", q)) == expect


def test_the_secret_pass_is_hidden_from_the_others() -> None:
    s = _game().new_state(num_players=4, seed=2)
    s.apply(s.legal_actions()[0])
    chosen = s.history[-1][1]
    assert s.public_history(0)[-1] == (0, chosen)
    assert s.public_history(1)[-1] == (0, None)


def _finish_hand(s: State, rng: random.Random) -> None:
    hands = s.var("hands")
    while not s.is_terminal() and s.var("hands") == hands:
        s.apply(rng.choice(s.legal_actions()))


def test_the_passes_go_left_right_across_then_none() -> None:
    # [Pass] the rotation with four players; then it repeats.
    s = _game(target=500).new_state(num_players=4, seed=4)
    rng = random.Random(4)
    for shift in (1, -1, 2, None, 1):
        if shift is None:
            assert s.decision_name() == "play" and "pass" not in s.prompt()
        else:
            before = [s.zone_cards("hand", q) for q in range(4)]
            gives = [before[q][:3] for q in range(4)]
            for q in range(4):
                s.apply(_pass_id(gives[q]))
            for q in range(4):
                got = set(s.zone_cards("hand", q)) - set(before[q])
                assert got == set(gives[(q - shift) % 4])
        _finish_hand(s, rng)


def test_three_players_pass_left_right_then_hold_without_the_two_of_diamonds() -> None:
    # [Deal] with three players the 2 of diamonds is out and each gets 17 cards.
    s = _game(target=500).new_state(num_players=3, seed=1)
    assert s.zone_cards("out") == ["diamonds-2"]
    assert all(len(s.zone_cards("hand", q)) == 17 for q in range(3))
    rng = random.Random(1)
    for _ in range(2):
        assert s.decision_name() == "cards"
        _finish_hand(s, rng)
    assert s.decision_name() == "play"


def test_five_players_lead_the_three_of_clubs() -> None:
    # [Deal] five players: the 2s of diamonds and clubs are out, 10 cards each; [Play] the
    # 3 of clubs is led when the 2 is out.
    s = _game().new_state(num_players=5, seed=3)
    assert sorted(s.zone_cards("out")) == ["clubs-2", "diamonds-2"]
    while s.decision_name() == "cards":
        s.apply(s.legal_actions()[0])
    holder = next(q for q in range(5) if "clubs-3" in s.zone_cards("hand", q))
    assert s.current_player() == holder and _legal(s) == {"clubs-3"}


def _broken(s: State, queen_breaks: bool = True) -> bool:
    """[Play] hearts are broken: a heart (or, by the option, the queen of spades) has been
    played to a trick already taken."""
    taken = [c for q in range(len(s.scores())) for c in s.zone_cards("taken", q)]
    return any(c.startswith("hearts") or queen_breaks and c == QUEEN for c in taken)


def test_the_two_of_clubs_leads_and_the_sweep_takes_every_point() -> None:
    # [Play] the holder of the 2 of clubs leads it; a player who cannot follow discards;
    # [Moon] all 13 hearts and the queen: the others score 26 each.
    s = _game().new_state(num_players=4, seed=1)
    _deal(s, SWEEP)
    assert s.current_player() == 0 and _legal(s) == {"clubs-2"}
    s.apply("play:clubs-2")
    # Seat 1 holds only hearts: with no other card it may discard one to the first trick.
    assert _legal(s) == set(SWEEP[1])
    s.apply("play:hearts-2")
    # Seat 2 has no club: no queen of spades on the first trick.
    assert _legal(s) == set(SWEEP[2]) - {QUEEN}
    s.apply("play:spades-2")
    s.apply("play:diamonds-2")
    assert _broken(s) and s.current_player() == 0
    for r in range(3, 15):
        s.apply(f"play:clubs-{r}")
        s.apply(f"play:hearts-{r}")
        s.apply("play:" + (QUEEN if r == 3 else f"spades-{r if r > 12 else r - 1}"))
        s.apply(f"play:diamonds-{r}")
    assert [s.var("points", q) for q in range(4)] == [0, 26, 26, 26]


@pytest.mark.parametrize(("moon", "expect"), [("subtract", [-26, 0, 0, 0]),
                                              ("off", [26, 0, 0, 0])])
def test_shooting_the_moon_options(moon: str, expect: list[int]) -> None:
    # pagat [Moon]: the shooter may instead subtract 26; off: no bonus, 26 points taken.
    s = _game(moon=moon).new_state(num_players=4, seed=1)
    _deal(s, SWEEP)
    rng = random.Random(0)
    _finish_hand(s, rng)
    assert [s.var("points", q) for q in range(4)] == expect


def test_no_points_on_the_first_trick_unless_the_option_allows_them() -> None:
    # [Play] "if a player has no clubs when the first trick is led, a heart or the queen
    # of spades cannot be played"; pagat's variant allows them.
    final = [_suit("clubs", range(2, 15)),
             _suit("hearts", range(2, 8)) + _suit("spades", range(8, 15)),
             _suit("hearts", range(8, 15)) + _suit("spades", range(2, 8)),
             _suit("diamonds", range(2, 15))]
    for allowed in (False, True):
        s = _game(points_on_first_trick=allowed).new_state(num_players=4, seed=1)
        _deal(s, final)
        s.apply("play:clubs-2")
        points = {c for c in final[1] if _points(c)}
        assert _legal(s) == (set(final[1]) if allowed else set(final[1]) - points)


def test_hearts_are_not_led_until_broken() -> None:
    # [Play] hearts may not be led until a heart or the queen of spades has been
    # discarded, unless the leader holds only hearts.
    final = [_suit("clubs", range(2, 9)) + _suit("hearts", range(2, 8)),
             _suit("clubs", range(9, 15)) + _suit("hearts", range(8, 15)),
             _suit("spades", range(2, 15)),
             _suit("diamonds", range(2, 15))]
    s = _game().new_state(num_players=4, seed=1)
    _deal(s, final)
    for play in ("clubs-2", "clubs-14", "spades-2", "diamonds-2"):
        s.apply(f"play:{play}")
    # Seat 1 won with the ace of clubs and holds clubs and hearts: no heart lead yet.
    assert s.current_player() == 1 and _legal(s) == set(_suit("clubs", range(9, 14)))
    for play in ("clubs-13", "spades-3", "diamonds-3", "clubs-3"):
        s.apply(f"play:{play}")
    # Seat 0 follows clubs: no heart is played, and seat 1 keeps the lead.
    for r in range(12, 8, -1):
        for play in (f"clubs-{r}", f"spades-{16 - r}", f"diamonds-{16 - r}", f"clubs-{16 - r}"):
            s.apply(f"play:{play}")
    # Seat 1 holds only hearts now: it may lead one though hearts are not broken.
    assert not _broken(s) and s.current_player() == 1
    assert _legal(s) == set(_suit("hearts", range(8, 15)))


@pytest.mark.parametrize("queen_breaks", [True, False])
def test_the_queen_of_spades_breaks_hearts_by_option(queen_breaks: bool) -> None:
    # Bicycle: the queen of spades breaks hearts; pagat: only a heart does.
    final = [_suit("clubs", range(2, 8)) + _suit("hearts", range(2, 9)),
             _suit("clubs", range(8, 15)) + _suit("hearts", range(9, 15)),
             _suit("spades", range(2, 15)),
             _suit("diamonds", range(2, 15))]
    s = _game(queen_breaks_hearts=queen_breaks).new_state(num_players=4, seed=1)
    _deal(s, final)
    for play in ("clubs-2", "clubs-8", "spades-2", "diamonds-2"):
        s.apply(f"play:{play}")
    for play in ("clubs-9", QUEEN, "diamonds-3", "clubs-3"):
        s.apply(f"play:{play}")
    assert _broken(s, queen_breaks) is queen_breaks
    leads = _legal(s)
    assert s.current_player() == 1 and ("hearts-9" in leads) is queen_breaks


def _expected_plays(s: State, broken: bool, first: bool) -> set[str]:
    """The rule text's legal plays, worked out from the cards alone."""
    me = s.current_player()
    hand = s.zone_cards("hand", me)
    table = s.zone_cards("table")
    if not table:
        if first:
            return {min((c for c in hand if c.startswith("clubs")), key=lambda c: _card(c)[1])}
        if broken or all(c.startswith("hearts") for c in hand):
            return set(hand)
        return {c for c in hand if not c.startswith("hearts")}
    lead = _card(table[0])[0]
    follow = {c for c in hand if c.startswith(lead)}
    if follow:
        return follow
    if first and not all(_points(c) for c in hand):
        return {c for c in hand if not _points(c)}
    return set(hand)


@pytest.mark.parametrize(("players", "seed"), [(3, 7), (4, 8), (5, 9)])
def test_random_games_follow_the_rule_text_at_every_play(players: int, seed: int) -> None:
    # Every play decision, every trick's winner and every hand's score, checked against the
    # Bicycle rules worked out in Python; the game ends at 100 and the lowest score wins.
    s = _game().new_state(num_players=players, seed=seed)
    rng = random.Random(seed)
    totals = [0] * players
    broken, tricks, hand_points = False, 0, [0] * players
    while not s.is_terminal():
        if s.decision_name() == "play":
            table = s.zone_cards("table")
            assert _legal(s) == _expected_plays(s, broken, tricks == 0)
            action = rng.choice(s.legal_actions())
            seat = s.current_player()
            s.apply(action)
            card = action.id.removeprefix("play:")
            broken = broken or card.startswith("hearts") or card == QUEEN
            if len(table) == players - 1:
                cards = [*table, card]
                lead = _card(cards[0])[0]
                best = max(range(players), key=lambda i: (_card(cards[i])[0] == lead,
                                                          _card(cards[i])[1]))
                tricks += 1
                winner = (seat + 1 + best) % players
                hand_points[winner] += sum(_points(c) for c in cards)
                if not s.is_terminal() and tricks < 52 // players:
                    assert s.current_player() == winner
            if tricks == 52 // players:
                if 26 in hand_points:
                    hand_points = [0 if p == 26 else 26 for p in hand_points]
                totals = [t + p for t, p in zip(totals, hand_points, strict=True)]
                assert [s.var("points", q) for q in range(players)] == totals
                assert s.is_terminal() == (max(totals) >= 100)
                broken, tricks, hand_points = False, 0, [0] * players
        else:
            s.apply(rng.choice(s.legal_actions()))
    assert max(totals) >= 100
    low = min(totals)
    assert s.winners() == [q for q in range(players) if totals[q] == low]


def test_both_engines_play_the_same_games() -> None:
    source = RULES.read_text()
    reference = rulesplay.loads(source, engine="interpret")
    compiled = rulesplay.loads(source)
    for players, seed in ((3, 1), (4, 2), (5, 3)):
        assert play_both(reference, compiled, players, seed) > 0
