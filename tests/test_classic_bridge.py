"""Contract Bridge (``rulesets/classics/bridge.rules``): scenarios from the Laws of Duplicate
Bridge (WBF 2017, as adopted by the ACBL; https://www.worldbridge.org/rules-regulations/ ,
"Laws of Duplicate Bridge"). Each test cites its Law. Seats 0-3 are North, East, South, West.

The auction and the play are driven by action id from a seeded deal, or from hands set with
``State.arrange``; the scoring table of Law 77 is checked on the ruleset's own scoring rule,
with the play replaced by the declarer naming the tricks taken (so each case is one board).
Rubber scoring (the option ``scoring = rubber``) follows the Laws of Contract Bridge (rubber
bridge, ACBL), Laws 72-81.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from test_differential import play_both

import rulesplay
from rulesplay.engine.game import Game
from rulesplay.engine.state import State

PATH = Path(__file__).parent.parent / "rulesets" / "classics" / "bridge.rules"
TEXT = PATH.read_text(encoding="utf-8")
ENGINES = ("compiled", "interpret")
BIDS = [f"call:bid-{level}-{s}" for level in range(1, 8)
        for s in ("clubs", "diamonds", "hearts", "spades", "notrump")]
PASS, DOUBLE, REDOUBLE = "call:call-pass", "call:call-double", "call:call-redouble"
SUITS = ("clubs", "diamonds", "hearts", "spades")


@functools.cache
def _game(text: str | None, engine: str, options: tuple[tuple[str, object], ...]) -> Game:
    return (rulesplay.loads(text, options=dict(options), engine=engine) if text
            else rulesplay.load(PATH, options=dict(options), engine=engine))


def _state(seed: int = 1, engine: str = "compiled", text: str | None = None,
           **options: object) -> State:
    return _game(text, engine, tuple(sorted(options.items()))).new_state(4, seed)


def _ids(state: State) -> list[str]:
    return [a.id for a in state.legal_actions()]


def _calls(state: State, *calls: str) -> None:
    for call in calls:
        assert call in _ids(state), (call, state.current_player(), _ids(state))
        state.apply(call)


def _bid(name: str) -> str:
    """``"4S"`` -> ``"call:bid-4-spades"``."""
    strain = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "notrump"}
    return f"call:bid-{name[0]}-{strain[name[1:]]}"


def _team_vars(state: State, name: str) -> list[int]:
    return list(state.observation(0)["team_vars"][name])


# ------------------------------------------------------------------------ the auction
def test_the_dealer_opens_with_any_bid_or_a_pass_and_nothing_to_double() -> None:
    """Law 17B: the dealer (North on board 1, Law 2) makes the first call; Law 19A1: there
    is no bid to double yet."""
    state = _state()
    assert state.current_player() == 0
    assert sorted(_ids(state)) == sorted(BIDS + [PASS])


def test_a_bid_must_supersede_the_last_and_doubles_are_of_the_opponents_only() -> None:
    """Law 18B (sufficient bids), Law 19A1 (double only an opponent's last bid, no call but
    passes since), Law 19B1 (redouble only an opponent's double of one's own side)."""
    state = _state()
    _calls(state, _bid("1H"))
    east = set(_ids(state))
    assert east == set(BIDS[BIDS.index(_bid("1S")):]) | {PASS, DOUBLE}  # no 1C, 1D, 1H
    _calls(state, DOUBLE)
    assert REDOUBLE in _ids(state) and DOUBLE not in _ids(state)  # South: partner doubled
    _calls(state, PASS)
    assert DOUBLE not in _ids(state) and REDOUBLE not in _ids(state)  # West: own side's X
    _calls(state, PASS)
    _calls(state, REDOUBLE)  # North may still redouble: only passes since the double
    assert DOUBLE not in _ids(state) and REDOUBLE not in _ids(state)
    _calls(state, PASS, PASS, PASS)
    # Law 17E: three passes after a call end the auction; 1H redoubled by North.
    obs = state.observation(1)
    assert obs["phase"] == "play" and obs["vars"]["stake"] == "redoubled"
    assert state.var("declarer") == 0 and state.var("dummy") == 2
    assert state.current_player() == 1  # Law 41A: the opening lead is from declarer's left


def test_a_new_bid_after_a_double_cancels_it() -> None:
    """Law 19C: a double or redouble is superseded by a later legal bid."""
    state = _state()
    _calls(state, _bid("1C"), DOUBLE, _bid("1H"))
    assert DOUBLE in _ids(state) and REDOUBLE not in _ids(state)
    _calls(state, PASS, PASS, PASS)
    assert state.observation(0)["vars"]["stake"] == "undoubled"
    assert state.var("declarer") == 2


@pytest.mark.parametrize(("calls", "declarer"), [
    # North opens 1H, East overcalls 2H, South raises to 3H: North first named hearts.
    (["1H", "2H", "3H", "P", "P", "P"], 0),
    # North 1C, South 1H, North 2H: South first named hearts for the side.
    (["1C", "P", "1H", "P", "2H", "P", "P", "P"], 2),
    # East-West: East 1S, West 2S; East first named spades.
    (["P", "1S", "P", "2S", "P", "P", "P"], 1),
])
def test_the_declarer_first_named_the_final_denomination_for_the_side(
        calls: list[str], declarer: int) -> None:
    """Definitions, "Declarer": the player who, for the side that makes the final bid, first
    bid the denomination named in the final bid (Law 22 ends the auction)."""
    state = _state()
    _calls(state, *[PASS if c == "P" else _bid(c) for c in calls])
    assert state.var("declarer") == declarer
    assert state.var("dummy") == (declarer + 2) % 4
    assert state.current_player() == (declarer + 1) % 4  # Law 41A


def test_three_passes_then_a_bid_go_on_and_four_passes_pass_the_board_out() -> None:
    """Law 17E, Law 22A: four passes at the start pass the board out (no score; the next
    board, dealt by East, Law 2); after three opening passes the fourth seat may still bid."""
    state = _state()
    _calls(state, PASS, PASS, PASS)
    assert state.observation(0)["phase"] == "auction" and state.current_player() == 3
    _calls(state, PASS)
    assert state.var("board") == 2 and state.current_player() == 1  # East deals board 2
    assert _team_vars(state, "points") == [0, 0]
    _calls(state, PASS, PASS, PASS, _bid("1C"), PASS, PASS)
    assert state.observation(0)["phase"] == "auction"
    _calls(state, PASS)
    assert state.var("declarer") == 0


def test_a_game_of_one_board_passed_out_ends_level() -> None:
    state = _state(boards=1)
    _calls(state, PASS, PASS, PASS, PASS)
    assert state.is_terminal() and state.scores() == [0, 0, 0, 0]


# ------------------------------------------------------------------------ the play
def _rotated_deal(state: State) -> None:
    """Each seat gets a mix of suits: card (suit s, rank r) goes to seat (r + s) % 4."""
    hands: list[list[str]] = [[], [], [], []]
    for s, suit in enumerate(SUITS):
        for rank in range(2, 15):
            hands[(rank + s) % 4].append(f"card-{suit}-{rank}")
    for seat, cards in enumerate(hands):
        state.arrange("hand", seat, cards)


def _hand(state: State, seat: int) -> list[str]:
    return state.zone_cards("hand", seat)


def _visible(state: State, viewer: int, seat: int) -> list[str] | None:
    zones = state.observation(viewer)["zones"]
    return next(z["cards"] for z in zones if z["zone"] == "hand" and z["owner"] == seat)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_dummy_is_spread_after_the_opening_lead_and_played_by_the_declarer(
        engine: str) -> None:
    """Law 41D: after the opening lead the dummy's hand is faced for all; Law 45B: the
    declarer plays the dummy's cards; Law 44C: follow suit if able, the dummy too."""
    state = _state(engine=engine)
    _rotated_deal(state)
    _calls(state, _bid("1S"), PASS, PASS, PASS)  # North declares, South is dummy
    assert state.current_player() == 1
    assert _visible(state, 1, 2) is None and _visible(state, 3, 2) is None
    lead = "card-hearts-3"
    assert lead in _hand(state, 1)
    state.apply(f"play:{lead}")
    assert sorted(_visible(state, 3, 2) or []) == sorted(_hand(state, 2))
    assert state.current_player() == 0 and state.played_for() == 2
    hearts = sorted(f"play:{c}" for c in _hand(state, 2) if c.startswith("card-hearts-"))
    assert hearts and sorted(_ids(state)) == hearts


def _winner(cards: list[tuple[int, str]], trump: str | None) -> int:
    """An independent reading of Law 44E/F: highest trump, else highest of the suit led."""
    def key(card: str) -> tuple[bool, bool, int]:
        _, suit, rank = card.split("-")
        return (suit == trump, suit == cards[0][1].split("-")[1], int(rank))
    return max(cards, key=lambda sc: key(sc[1]))[0]


@pytest.mark.parametrize(("bid", "trump"), [("2S", "spades"), ("3NT", None)])
@pytest.mark.parametrize("engine", ENGINES)
def test_a_whole_board_follows_suit_and_the_trick_goes_to_the_highest_trump(
        engine: str, bid: str, trump: str | None) -> None:
    """Law 44C (follow suit), 44E/F (trumps win, else the highest card of the suit led;
    none in notrump), 44G (the winner leads next); each side's tricks counted."""
    state = _state(seed=4, engine=engine)
    _calls(state, _bid(bid), PASS, PASS, PASS)
    won = [0, 0]
    leader = 1
    for _ in range(13):
        trick: list[tuple[int, str]] = []
        for k in range(4):
            seat = (leader + k) % 4
            assert (state.played_for() if seat == 2 else state.current_player()) == seat
            hand = _hand(state, seat)
            follow = [c for c in hand if trick and c.split("-")[1] == trick[0][1].split("-")[1]]
            assert sorted(_ids(state)) == sorted(f"play:{c}" for c in (follow or hand))
            card = min(follow or hand, key=lambda c: int(c.split("-")[2]))
            state.apply(f"play:{card}")
            trick.append((seat, card))
        leader = _winner(trick, trump)
        won[leader % 2] += 1
        assert _team_vars(state, "tricks") == won
    assert state.var("board") == 2 and state.observation(0)["phase"] == "auction"


# ------------------------------------------------------------------------ the scoring
# The play replaced by the declarer naming the tricks taken: the scoring rule is the file's.
SCORING = re.sub(r'phase play "[^"]*: the play":.*?(?=^# Rubber Law 80)',
                 '''phase play "Board {board}: the tricks":
    declarer chooses n from 0..13 "tricks taken"
    tricks[team of declarer] = n
    tricks[team of left of declarer] = 13 - n
    do score_board
    board += 1
    next deal if more_deals()
    next finish

''', TEXT, flags=re.S | re.M)
assert "phase finish" in SCORING and "repeat 13 times" not in SCORING


def _deal(state: State, declarer: int, bid: str, stake: str, tricks: int) -> None:
    """One deal: ``bid`` by ``declarer`` (``X`` doubled by its left, ``XX`` redoubled by its
    partner), then ``tricks`` taken by the declarer's side."""
    while state.current_player() != declarer:
        _calls(state, PASS)
    _calls(state, _bid(bid))
    if stake:
        _calls(state, DOUBLE)
    if stake == "XX":
        _calls(state, REDOUBLE)
    _calls(state, PASS, PASS, PASS)
    assert state.var("declarer") == declarer
    _calls(state, f"n:{tricks}")


def _score_board(board: int, declarer: int, bid: str, stake: str, tricks: int) -> list[int]:
    """Play boards 1..board-1 passed out, then the deal; each side's points."""
    state = _state(text=SCORING)
    for _ in range(board - 1):
        _calls(state, PASS, PASS, PASS, PASS)
    _deal(state, declarer, bid, stake, tricks)
    assert state.is_terminal() == (board == 4)
    return _team_vars(state, "points")


# Law 77's table; Law 2: board 1 neither vulnerable, 2 North-South, 3 East-West, 4 both.
# (board, declarer, contract, doubled, tricks, North-South points, East-West points)
CASES = [
    (1, 0, "4S", "", 10, 420, 0),      # 120 + 300 game, not vulnerable
    (2, 0, "4S", "", 10, 620, 0),      # 120 + 500 game, vulnerable
    (3, 0, "4S", "", 10, 420, 0),      # board 3: only East-West vulnerable
    (3, 1, "4S", "", 11, 0, 650),      # 120 + 30 overtrick + 500
    (1, 0, "3NT", "", 10, 430, 0),     # 40 + 30 + 30, + 30 overtrick + 300
    (4, 1, "3NT", "", 9, 0, 600),
    (1, 2, "2H", "", 8, 110, 0),       # 60 + 50 part score
    (1, 0, "1NT", "", 7, 90, 0),
    (1, 0, "2C", "X", 8, 180, 0),      # 80 + 50 part score + 50 for the insult
    (1, 0, "2H", "X", 8, 470, 0),      # 120 is game: + 300 + 50
    (2, 0, "2H", "X", 9, 870, 0),      # + 200 a doubled overtrick vulnerable
    (1, 0, "1D", "XX", 8, 430, 0),     # 80 + 200 overtrick + 50 + 100 for the insult
    (2, 0, "1D", "XX", 8, 630, 0),     # 80 + 400 overtrick + 50 + 100
    (1, 0, "6S", "", 12, 980, 0),      # 180 + 300 + 500 small slam
    (2, 0, "6S", "", 12, 1430, 0),     # 180 + 500 + 750
    (1, 0, "6H", "", 13, 1010, 0),
    (2, 0, "7NT", "", 13, 2220, 0),    # 220 + 500 + 1500 grand slam
    (1, 0, "3NT", "", 8, 0, 50),       # undoubled, not vulnerable: 50 a trick
    (2, 0, "3NT", "", 7, 0, 200),      # vulnerable: 100 a trick
    (1, 0, "4S", "X", 9, 0, 100),      # doubled, not vulnerable: 100, 300, 500, 800, ...
    (1, 0, "4S", "X", 7, 0, 500),
    (1, 0, "4S", "X", 6, 0, 800),
    (2, 0, "4S", "X", 7, 0, 800),      # doubled, vulnerable: 200, 500, 800, ...
    (4, 0, "3NT", "XX", 7, 0, 1000),   # redoubled: twice the doubled figure
    (1, 0, "7NT", "X", 0, 0, 3500),    # 100 + 200 + 200 + 10 x 300
    (4, 0, "7NT", "XX", 0, 0, 7600),   # 2 x (200 + 12 x 300), the largest penalty
]


@pytest.mark.parametrize(("board", "declarer", "bid", "stake", "tricks", "ns", "ew"), CASES)
def test_the_law_77_scoring_table(board: int, declarer: int, bid: str, stake: str,
                                  tricks: int, ns: int, ew: int) -> None:
    """Law 77 (contract points, overtricks, undertricks, premiums for game, part score,
    slams and the insult), with Law 2's vulnerability by board number."""
    assert _score_board(board, declarer, bid, stake, tricks) == [ns, ew]


def test_the_score_is_the_side_s_points_less_the_other_side_s() -> None:
    state = _state(text=SCORING, boards=1)
    _calls(state, _bid("4S"), PASS, PASS, PASS, "n:10")
    assert state.scores() == [420, -420, 420, -420] and state.winners() == [0, 2]


# ------------------------------------------------------------------------ rubber scoring
# The Laws of Contract Bridge (rubber bridge, ACBL), Laws 72-81:
# https://www.bridgehands.com/Laws/ACBL/Rubber/The_Score.htm
def test_rubber_part_scores_make_a_game_and_two_games_to_none_win_700() -> None:
    """Rubber Law 73: trick points of part scores add up to a game (100), and the other
    side's part score is not carried into the next game; Law 74: 700 for two games to none;
    Law 72: no premium for a game or a part score in each deal."""
    state = _state(text=SCORING, scoring="rubber")
    _deal(state, 0, "2H", "", 8)     # North-South 60 toward game
    _deal(state, 1, "1C", "", 7)     # East-West 20 toward game
    assert _team_vars(state, "part") == [60, 20] and _team_vars(state, "games") == [0, 0]
    _deal(state, 2, "2S", "", 8)     # 60 more: North-South's game; East-West's 20 wiped
    assert _team_vars(state, "part") == [0, 0] and _team_vars(state, "games") == [1, 0]
    assert not state.is_terminal()
    _deal(state, 0, "4S", "", 10)    # the second game ends the rubber
    assert state.is_terminal()
    assert _team_vars(state, "points") == [60 + 60 + 120 + 700, 20]


def test_rubber_a_side_with_a_game_is_vulnerable_and_two_games_to_one_win_500() -> None:
    """The rubber Laws' definitions (a side that has won a game is vulnerable), Law 74 (500
    for two games to one), Law 81 (undertricks by vulnerability)."""
    state = _state(text=SCORING, scoring="rubber")
    _deal(state, 0, "4S", "", 10)    # North-South game: 120
    _deal(state, 1, "4S", "", 9)     # East-West, not vulnerable, down 1: 50
    _deal(state, 1, "3NT", "", 9)    # East-West game: 100
    _deal(state, 0, "3NT", "", 8)    # North-South, vulnerable, down 1: 100
    assert _team_vars(state, "points") == [170, 200]
    _deal(state, 0, "3NT", "", 9)
    assert state.is_terminal() and _team_vars(state, "points") == [170 + 100 + 500, 200]


def _says(state: State) -> list[str]:
    return [str(e.get("text")) for e in state.events or [] if e["type"] == "say"]


@pytest.mark.parametrize(("seat", "cards", "bid", "line"), [
    (1, [f"card-spades-{r}" for r in range(10, 15)], "4S",
     "Seat 1 held honors: East-West +150"),
    (0, [f"card-spades-{r}" for r in range(11, 15)], "4S",
     "Seat 0 held honors: North-South +100"),
    (2, [f"card-{s}-14" for s in SUITS], "1NT", "Seat 2 held honors: North-South +150"),
])
def test_rubber_honors_in_one_hand_score_for_their_side(
        seat: int, cards: list[str], bid: str, line: str) -> None:
    """Rubber Law 81: the five trump honors in one hand 150, four 100; four aces in one hand
    at notrump 150; scored by the side holding them, declarer's or not."""
    game = _game(None, "compiled", (("deals", 1), ("scoring", "rubber")))
    state = game.new_state(4, 1, record_events=True)
    mine = cards + [f"card-hearts-{r}" for r in range(2, 15 - len(cards))]
    rest = [f"card-{s}-{r}" for s in SUITS for r in range(2, 15) if f"card-{s}-{r}" not in mine]
    others = [q for q in range(4) if q != seat]
    for q in range(4):
        state.arrange("hand", q, mine if q == seat else rest[13 * others.index(q):][:13])
    _calls(state, _bid(bid), PASS, PASS, PASS)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert line in _says(state)
    assert sum(" held honors: " in s for s in _says(state)) == 1


@pytest.mark.parametrize(("deals", "ns"), [(1, 60 + 100), (2, 60 + 120 + 300)])
def test_an_unfinished_rubber_credits_a_game_300_and_a_part_score_100(
        deals: int, ns: int) -> None:
    """Rubber Law 80: when a rubber is not finished (here: after ``deals`` deals), the only
    side with a game gets 300, the only side with a part score in the unfinished game 100."""
    state = _state(text=SCORING, scoring="rubber", deals=deals)
    _deal(state, 0, "2H", "", 8)
    if deals == 2:
        _deal(state, 2, "4S", "", 10)
    assert state.is_terminal() and _team_vars(state, "points") == [ns, 0]


# ------------------------------------------------------------------------ both engines
@pytest.mark.parametrize("seed", [1, 2])
def test_both_engines_play_the_same_games(seed: int) -> None:
    options = (("boards", 2),)
    assert play_both(_game(None, "interpret", options), _game(None, "compiled", options),
                     4, seed) > 100


def test_both_engines_play_the_same_rubber() -> None:
    options = (("deals", 3), ("scoring", "rubber"))
    assert play_both(_game(None, "interpret", options), _game(None, "compiled", options),
                     4, 3) > 100
