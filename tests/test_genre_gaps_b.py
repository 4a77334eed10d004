"""Gaps found by writing the classic games (issue 11, second part): a step before a seat's
play in a trick (``before play:``), a loop round the table until a test holds (``for each
player p from SEAT until COND``), a hidden value shown at a moment (``reveal VAR``) and enums
that share values (``enum strain: suit, notrump``).

The small rulesets deal from an unshuffled deck (``shuffled`` off), so the hands are fixed
and moves are chosen by id; each scenario runs on both engines, and each ruleset, shuffled,
is played at random on both side by side (:func:`test_differential.play_both`). The rule
each gap concerned is checked on the classic game that needed it, citing its rule text.
"""

from __future__ import annotations

import json

import pytest
from conftest import RULESETS, legal, new_state, play
from test_differential import play_both

import rulesplay
from rulesplay.engine.game import Game
from rulesplay.engine.observe import conceal
from rulesplay.engine.state import State
from rulesplay.errors import RulesError, RulesRuntimeError, RulesValidationError
from rulesplay.events import HIDDEN, seen_by

ENGINES = ("compiled", "interpret")
WHIST = RULESETS / "classics" / "whist.rules"
BRIDGE = RULESETS / "classics" / "bridge.rules"

_CARDS = '''
enum suit: clubs, hearts
card card "card":
    suit: suit
    rank: 1..6
    label: "{rank} of {suit}"
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone table "table": shared, public
option shuffled: bool = false
player var tricks "tricks": int = 0
'''

# Unshuffled, dealing 2 each from seat 1 gives seat 1 hearts 6, hearts 3; seat 2 hearts 5,
# hearts 2; seat 0 hearts 4, hearts 1; the turn-up is clubs 6.
TURN_UP = '''game "Turn-up"
players 3
''' + _CARDS + '''
zone turnup "turned-up card": shared, public
var dealer "dealer": player = 0
var leader "leader": player = 1
player var turns "turns": int = 0

phase play "Play":
    if shuffled:
        shuffle deck
    deal 2 from deck to hand starting with left of dealer
    move top(deck) to turnup
    repeat 2 times:
        trick in table led by leader:
            each player plays card from hand[player]
            SITS
            before play:
                turns[player] += 1
                BEFORE
            won by highest it.rank
            after trick:
                tricks[winner] += 1
                leader = winner
                move table to deck
    next end

score: tricks[player]
'''
NO_CLAUSE = TURN_UP.replace("            SITS\n", "")
TAKE = NO_CLAUSE.replace("BEFORE", '''if player == dealer and count(turnup) > 0:
                    move turnup to hand[dealer]''')
ASK = NO_CLAUSE.replace("BEFORE", '''if count(turnup) > 0:
                    player may choose take from bool "take the turned-up card?" skip "no"
                    if take == true:
                        move turnup to hand[player]''')
SIT = TURN_UP.replace("SITS", "sits out if player == 2").replace("BEFORE", "tricks[player] += 0")
DUMMY = TURN_UP.replace("SITS", "chosen by 1 if player == 0 else player").replace(
    "BEFORE", "tricks[player] += 0")
CLIMB = TURN_UP.replace("trick in table", "trick climbing in table").replace(
    "SITS", '''    where count(table) == 0 or card.rank > top(table).rank
            pass "pass"''').replace("BEFORE", '''if player == dealer and count(turnup) > 0:
                    move turnup to hand[dealer]''').replace(
    "repeat 2 times", "repeat while all(seats, count(hand[it]) > 0)")

ROUND = '''game "Round"
players 3
''' + _CARDS + '''
var calls "calls": int = 0
var first "first caller": player = 1
var stop "stop at": int = 5
player var called "calls made": int = 0

phase play "Play":
    if shuffled:
        shuffle deck
    deal 1 from deck to hand
    for each player p from first DIR until calls >= stop:
        p may choose c from 1..2 "call" skip "pass"
        calls += 1
        called[p] += 1
    next end

score: called[player]
'''
CLOCKWISE, COUNTER = ROUND.replace(" DIR", ""), ROUND.replace("DIR", "counterclockwise")
ENDLESS = ROUND.replace(" DIR", "").replace("calls >= stop", "calls < 0").replace(
    '''        p may choose c from 1..2 "call" skip "pass"
''', "")

HONOURS = '''game "Honours"
players 4
''' + _CARDS + '''
teams: "North-South" if player % 2 == 0 else "East-West"
team var held "honours": int = 0 hidden
player var mine "my honours": int = 0 owner
team var points "points": int = 0
var more "once more": bool = false
var round "round": int = 0

phase deal "Deal":
    hide held
    round += 1
    for each player p:
        move hand[p] to deck
        held[team of p] = 0
    if shuffled:
        shuffle deck
    deal 3 from deck to hand
    for each player p:
        held[team of p] += count(hand[p] where it.rank >= 4)
        mine[p] = count(hand[p] where it.rank >= 4)
    say "North-South held {held[team of 0]}"
    0 chooses go from bool "score the hand"
    next scoring

phase scoring "Scoring":
    reveal held
    reveal mine
    say "North-South held {held[team of 0]}"
    for each t in teams:
        points[t] += held[t]
    1 chooses again from bool "once more?"
    more = again and round < 2
    next deal if more
    next end

score: points[team of player]
'''

STRAINS = '''game "Strains"
players 2
''' + _CARDS + '''
enum strain: suit, notrump "NT"
var trump "trump": suit
var named "named": strain = notrump

phase play "Play":
    if shuffled:
        shuffle deck
    deal 2 from deck to hand
    0 chooses s from strain "name a strain"
    named = s
    trump = s if s != notrump else none
    for each player p:
        tricks[p] += count(hand[p] where it.suit == named) + (1 if named == trump else 0)
    next end

score: tricks[player]
'''


def _game(text: str, engine: str, **options: object) -> Game:
    return rulesplay.loads(text, options=options or None, engine=engine)


def _ids(state: State) -> list[str]:
    return [a.id for a in state.legal_actions()]


def _turns(state: State) -> list[int]:
    return [state.var("turns", p) for p in range(3)]


# ------------------------------------------------------------------ before play
@pytest.mark.parametrize("engine", ENGINES)
def test_before_play_runs_as_a_seats_turn_comes_and_its_card_may_be_played(engine: str) -> None:
    """The dealer takes the turned-up card when its turn to play comes (pagat, Whist,
    "Deal"), so the card is among its plays then and on the table until then."""
    s = _game(TAKE, engine).new_state(3, 1)
    assert s.current_player() == 1 and _turns(s) == [0, 1, 0]
    assert s.zone_cards("turnup") == ["clubs-6"]
    play(s, "play:hearts-6")
    assert s.current_player() == 2 and _turns(s) == [0, 1, 1]
    assert s.zone_cards("turnup") == ["clubs-6"]  # still on the table at seat 2's turn
    play(s, "play:hearts-5")
    assert s.current_player() == 0 and s.zone_cards("turnup") == []
    assert sorted(_ids(s)) == ["play:clubs-6", "play:hearts-1", "play:hearts-4"]
    play(s, "play:clubs-6")
    assert _turns(s) == [1, 2, 1]  # seat 1 won (the first of equals) and leads again
    assert s.current_player() == 1


@pytest.mark.parametrize("engine", ENGINES)
def test_a_decision_in_before_play_comes_before_the_play(engine: str) -> None:
    s = _game(ASK, engine).new_state(3, 1)
    assert s.current_player() == 1 and _ids(s) == ["take:yes", "take:no", "take:skip"]
    play(s, "take:no")
    assert s.current_player() == 1 and sorted(_ids(s)) == ["play:hearts-3", "play:hearts-6"]
    play(s, "play:hearts-6", "take:yes")
    assert s.current_player() == 2 and "play:clubs-6" in _ids(s)
    play(s, "play:clubs-6")
    assert s.current_player() == 0 and _turns(s) == [1, 1, 1]  # nothing left to take
    assert sorted(_ids(s)) == ["play:hearts-1", "play:hearts-4"]


@pytest.mark.parametrize("engine", ENGINES)
def test_before_play_skips_a_seat_that_sits_out_and_runs_for_the_dummy(engine: str) -> None:
    s = _game(SIT, engine).new_state(3, 1)
    play(s, "play:hearts-6", "play:hearts-4")
    assert _turns(s)[2] == 0 and s.var("turns", 0) == 1  # seat 2 sits out: no turn
    d = _game(DUMMY, engine).new_state(3, 1)
    play(d, "play:hearts-6", "play:hearts-5")
    # seat 0's turn (the dummy, its card chosen by seat 1): 'player' is the dummy
    assert d.current_player() == 1 and _turns(d) == [1, 1, 1]


@pytest.mark.parametrize("engine", ENGINES)
def test_in_a_climbing_trick_before_play_runs_for_each_turn(engine: str) -> None:
    s = _game(CLIMB, engine).new_state(3, 1)
    play(s, "play:hearts-3")
    assert s.current_player() == 2 and _ids(s) == ["play:hearts-5", "pass"]
    play(s, "pass")
    # the dealer took the clubs 6 as its turn came, and may play it
    assert sorted(_ids(s)) == ["pass", "play:clubs-6", "play:hearts-4"]
    play(s, "play:hearts-4")
    assert "clubs-6" in s.zone_cards("hand", 0)
    assert s.current_player() == 1 and _turns(s) == [1, 2, 1]  # round again: seat 1's turn


# ------------------------------------------------------------------ round the table
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("text", "order"), [(CLOCKWISE, [1, 2, 0, 1, 2]),
                                             (COUNTER, [1, 0, 2, 1, 0])])
def test_the_loop_goes_round_the_table_until_its_test_holds(text: str, order: list[int],
                                                            engine: str) -> None:
    s = _game(text, engine).new_state(3, 1)
    seen = []
    while not s.is_terminal():
        seen.append(s.current_player())
        s.apply(_ids(s)[0])
    assert seen == order  # round and round, tested before each turn: 5 calls
    assert s.var("calls") == 5


@pytest.mark.parametrize("engine", ENGINES)
def test_a_loop_whose_test_holds_at_once_runs_no_turn(engine: str) -> None:
    s = _game(CLOCKWISE.replace('"stop at": int = 5', '"stop at": int = 0'), engine)\
        .new_state(3, 1)
    assert s.is_terminal() and s.var("calls") == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_a_loop_that_never_ends_is_stopped_by_the_step_budget(engine: str) -> None:
    with pytest.raises(RulesRuntimeError, match="step") as err:
        _game(ENDLESS, engine).new_state(3, 1)
    assert err.value.span is not None


def test_bridge_auction_goes_round_from_the_dealer_until_three_passes_follow_a_call() -> None:
    """Laws of Duplicate Bridge, Law 17B/17C: the dealer calls first, then each player in
    turn clockwise; Law 17E: three passes in rotation after a call end the auction."""
    s = new_state(4, 3, BRIDGE)
    assert s.current_player() == 0  # board 1: North deals
    play(s, "call:bid-1-spades")
    for seat in (1, 2, 3):
        assert s.current_player() == seat
        play(s, "call:call-pass")
    assert s.var("contract") is not None
    assert s.var("declarer") == 0 and s.var("trump") == "spades"


def test_bridge_passed_out_after_four_passes() -> None:
    """Law 17E, Law 22A: when all four players pass at the start the board is passed out;
    the next board's dealer (East, Law 2) starts the next auction."""
    s = new_state(4, 3, BRIDGE)
    for seat in (0, 1, 2, 3):
        assert s.current_player() == seat
        play(s, "call:call-pass")
    assert s.current_player() == 1 and s.var("board") == 2


# ------------------------------------------------------------------ reveal VAR
@pytest.mark.parametrize("engine", ENGINES)
def test_a_hidden_variable_is_shown_from_its_reveal_on(engine: str) -> None:
    s = _game(HONOURS, engine).new_state(4, 1, record_events=True)
    held = [s.var("held", t) for t in (0, 1)]
    assert held == [4, 2]  # unshuffled: North-South hold four of ranks 4-6, East-West two
    for seat in (0, 1, 2, 3, None):
        assert s.observation(seat)["team_vars"]["held"] == [HIDDEN, HIDDEN]
    mine = s.observation(1)["player_vars"]["mine"]
    assert mine[1] != HIDDEN and mine[0] == HIDDEN
    # A text that reads it is masked before the reveal, shown after.
    assert s.events is not None
    (before,) = [e for e in s.events if e["type"] == "say"]
    assert seen_by(before, 1 << 1)["text"] == f"North-South held {HIDDEN}"
    play(s, "go:yes")
    for seat in (0, 1, 2, 3, None):
        obs = s.observation(seat)
        assert obs["team_vars"]["held"] == held and HIDDEN not in obs["player_vars"]["mine"]
    says = [e["text"] for e in s.events if e["type"] == "say"]
    assert "honours is shown to all: North-South 4, East-West 2" in says
    after = [e for e in s.events if e["type"] == "say"][-1]
    assert seen_by(after, 1 << 1)["text"] == "North-South held 4"
    # A sample for a seat keeps what was shown (only what it may not see is reset).
    sample = s.clone()
    conceal(sample, 1)
    assert [sample.var("held", t) for t in (0, 1)] == held
    # Saved and resumed, it is still shown; the next deal hides it again.
    resumed = State.from_json(s.to_json())
    assert json.loads(s.to_json())["shown_vars"] == ["held", "mine"]
    assert resumed.observation(3)["team_vars"]["held"] == held
    play(resumed, "again:yes")
    assert resumed.observation(3)["team_vars"]["held"] == [HIDDEN, HIDDEN]


def test_a_hidden_value_in_a_sample_before_its_reveal_is_reset() -> None:
    s = _game(HONOURS, "compiled").new_state(4, 1)
    sample = s.clone()
    conceal(sample, 1)
    assert [sample.var("held", t) for t in (0, 1)] == [0, 0]


def test_reveal_of_a_trick_or_card_variable_is_refused_and_of_a_public_one_warned() -> None:
    for scope in ("trick", "card"):
        bad = HONOURS.replace('var more "once more"', f'{scope} var tv "tv": int = 0 hidden\n'
                              'var more "once more"').replace("    reveal mine\n",
                                                             "    reveal mine\n    reveal tv\n")
        with pytest.raises(RulesValidationError, match=f"'tv' is a {scope} variable"):
            rulesplay.loads(bad)
    public = HONOURS.replace('var more "once more"', 'var shown "shown": int = 0\n'
                             'var more "once more"').replace("    reveal mine\n",
                                                            "    reveal mine\n    reveal shown\n")
    warnings = [w.message for w in rulesplay.loads(public).checked.warnings]
    assert any("'shown' is public" in w for w in warnings)


def test_a_choice_may_read_a_variable_once_it_is_revealed() -> None:
    """The options of a choice are shown to its chooser: reading another seat's ``owner``
    variable there is an error, but not once it is revealed (earlier in the block)."""
    ask = "    3 chooses n from 0..(mine[0] + 1) \"guess\"\n    1 chooses again"
    text = HONOURS.replace("    1 chooses again", ask)
    rulesplay.loads(text)  # (after 'reveal mine')
    never = text.replace("    reveal mine\n", "")
    with pytest.raises(RulesValidationError, match="'mine\\[0\\]'"):
        rulesplay.loads(never)


def test_whist_honours_are_held_as_dealt_and_claimed_at_scoring() -> None:
    """pagat, Whist, "Scoring": honours (A K Q J of trumps) held by a side score; they are
    claimed when the hand is scored, so no seat sees the other side's count before."""
    s = new_state(4, 2, WHIST)
    (turned,) = s.zone_cards("turnup")
    trump = turned.split("-")[0]
    hands = [s.zone_cards("hand", p) for p in range(4)] + [[turned]]
    owner = [0, 1, 2, 3, 0]  # the turned-up card is the dealer's (seat 0)
    want = [0, 0]
    for cards, p in zip(hands, owner, strict=True):
        want[p % 2] += sum(1 for c in cards if c.startswith(trump + "-")
                           and int(c.split("-")[1]) >= 11)
    assert [s.var("held", t) for t in (0, 1)] == want
    assert s.observation(1)["team_vars"]["held"] == [HIDDEN, HIDDEN]
    while s.var("hand_number") == 1 and not s.is_terminal():
        s.apply(sorted(legal(s))[0])
    assert s.events is not None
    assert f"honours is shown to all: North-South {want[0]}, East-West {want[1]}" in \
        [e["text"] for e in s.events if e["type"] == "say"]


# ------------------------------------------------------------------ shared enums
@pytest.mark.parametrize("engine", ENGINES)
def test_a_strain_is_a_suit_or_notrump(engine: str) -> None:
    s = _game(STRAINS, engine).new_state(2, 1)
    assert _ids(s) == ["s:clubs", "s:hearts", "s:notrump"]  # the suit's values, in order
    t = s.clone()
    play(s, "s:hearts")
    assert s.var("trump") == "hearts" == s.var("named")
    hearts = [sum(1 for c in s.zone_cards("hand", p) if c.startswith("hearts")) for p in (0, 1)]
    assert s.scores() == [h + 1 for h in hearts]  # a strain equals the suit of its name
    play(t, "s:notrump")
    assert t.var("trump") is None and t.scores() == [0, 0]


def test_a_shared_enum_value_still_has_no_order_in_a_tuple() -> None:
    ordered = STRAINS.replace("    named = s\n", "    named = s\n    if (1, s) > (1, clubs):\n"
                                                   "        named = s\n")
    with pytest.raises(RulesValidationError, match="no order"):
        rulesplay.loads(ordered)


def test_bridge_denominations_are_the_suits_and_notrump() -> None:
    """Law 18A: a bid names a denomination, a suit or notrump; ranked (Law 18E) clubs,
    diamonds, hearts, spades, notrump: 1NT is over 1♠, 2♣ over 1NT."""
    s = new_state(4, 3, BRIDGE)
    play(s, "call:bid-1-spades")
    assert "call:bid-1-notrump" in legal(s) and "call:bid-1-hearts" not in legal(s)
    play(s, "call:bid-1-notrump")
    assert "call:bid-2-clubs" in legal(s) and "call:bid-1-notrump" not in legal(s)
    play(s, "call:call-pass", "call:call-pass", "call:call-pass")
    assert s.var("trump") is None  # notrump: no suit is trump


# ------------------------------------------------------------------ both engines
@pytest.mark.parametrize("text", [TAKE, ASK, SIT, DUMMY, CLIMB, CLOCKWISE, COUNTER, HONOURS,
                                  STRAINS],
                         ids=["take", "ask", "sit", "dummy", "climb", "clockwise", "counter",
                              "honours", "strains"])
def test_both_engines_play_the_same_games(text: str) -> None:
    reference, compiled = _game(text, "interpret", shuffled=True), \
        _game(text, "compiled", shuffled=True)
    lo, _ = reference.player_range
    for seed in (1, 2, 3):
        play_both(reference, compiled, lo, seed)


def test_errors_are_rules_errors() -> None:
    with pytest.raises(RulesError):
        rulesplay.loads(TAKE.replace("turns[player] += 1", "turns[card] += 1"))
