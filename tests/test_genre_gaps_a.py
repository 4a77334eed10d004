"""Gaps found by writing the classic games (issue 11): the usual player count
(``players 3..5, usually 4``), an option's range that depends on the player count
(``int in 1..(52 / players)``), how long a climbing trick's pass holds as an expression
(``pass for this turn if COND``), several named skips in one choice, a choice made by
``turn``, and a card put at a random place in a zone (``move X to stock at random``).

Each scenario is small; the rules that need both engines run on both.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesplay
from rulesplay.cli import main
from rulesplay.errors import OptionError, RulesError

ENGINES = ("compiled", "interpret")
CLASSICS = Path(__file__).resolve().parent.parent / "rulesets" / "classics"

_SMALL = '''game "Small"
PLAYERS
OPTIONS
card card "card":
    rank: 1..12
    label: "{rank}"
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
phase deal "Deal":
    deal hand_size from deck to hand
    next end
score: count(hand[player])
'''


def _small(players: str, options: str = "option hand_size: int in 1..3 = 2") -> str:
    return _SMALL.replace("PLAYERS", players).replace("OPTIONS", options)


# ------------------------------------------------------------ the usual player count
def test_the_usual_count_seats_a_game_given_no_count() -> None:
    game = rulesplay.loads(_small("players 3..5, usually 4"))
    assert game.usual_players == 4 and game.player_range == (3, 5)
    assert len(game.new_state(seed=1).scores()) == 4
    assert len(game.new_state(num_players=3, seed=1).scores()) == 3
    # without 'usually' the fewest, as before
    assert len(rulesplay.loads(_small("players 3..5")).new_state(seed=1).scores()) == 3


def test_the_usual_count_is_in_the_range() -> None:
    with pytest.raises(RulesError, match=r"the usual count, 6, is not in players 3..5"):
        rulesplay.loads(_small("players 3..5, usually 6"))
    # one count is said as one, as it is written ('players 3..3' read as a range)
    with pytest.raises(RulesError, match=r"the usual count, 4, is not in players 3\n"):
        rulesplay.loads(_small("players 3, usually 4"))


def test_run_and_list_use_the_usual_count(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "small.rules"
    path.write_text(_small("players 3..5, usually 4"), encoding="utf-8")
    out = runner.invoke(main, ["run", str(path), "--seed", "3", "--quiet"])
    assert out.exit_code == 0, out.output
    assert "Seat 3" in out.output and "Seat 4" not in out.output, out.output
    listed = runner.invoke(main, ["list", str(tmp_path)]).output
    assert "small.rules: Small, 3-5 (usually 4) players" in listed, listed
    hearts = rulesplay.load(CLASSICS / "hearts.rules")
    assert hearts.usual_players == 4 and len(hearts.new_state(seed=3).scores()) == 4


def test_the_usual_count_prints_back() -> None:
    from rulesplay.show import ruleset_text
    game = rulesplay.loads(_small("players 3..5, usually 4"))
    again = rulesplay.loads(ruleset_text(game.ruleset))
    assert again.usual_players == 4


# ------------------------------------------------------------ ranges that depend on the count
def test_an_option_range_is_worked_out_per_player_count() -> None:
    text = _small("players 2..4", "option hand_size: int in 1..(12 / players) = 3")
    game = rulesplay.loads(text, options={"hand_size": 6})
    assert game.new_state(num_players=2, seed=0).scores() == [6, 6]
    with pytest.raises(OptionError, match=r"option hand_size = 6 with 3 players is not "
                                          r"allowed; allowed: a whole number from 1 to 4"):
        game.new_state(num_players=3, seed=0)


def test_an_option_default_is_checked_at_every_count() -> None:
    text = _small("players 2..4", "option hand_size: int in 1..(12 / players) = 4")
    with pytest.raises(RulesError, match=r"the default of option 'hand_size' is 4 with 4 "
                                         r"players; allowed: a whole number from 1 to 3"):
        rulesplay.loads(text)
    ok = _small("players 2..4", "option hand_size: int in 1..(12 / players) = 12 / players")
    game = rulesplay.loads(ok)
    assert [game.new_state(num_players=n).scores()[0] for n in (2, 3, 4)] == [6, 4, 3]


def test_a_range_that_cannot_be_empty_or_unknown() -> None:
    with pytest.raises(RulesError, match=r"option 'hand_size' has the empty range 3..2 "
                                         r"with 4 players"):
        rulesplay.loads(_small("players 2..4",
                               "option hand_size: int in 3..(10 / players) = 3"))
    with pytest.raises(RulesError, match=r"a bound of option 'hand_size' is a yes/no value "
                                         r"with 2 players; a range is of whole numbers"):
        rulesplay.loads(_small("players 2..4",
                               "option hand_size: int in 1..(players > 2) = 1"))


def test_oh_hell_refuses_a_largest_hand_the_pack_cannot_deal() -> None:
    game = rulesplay.load(CLASSICS / "oh_hell.rules", options={"max_cards": 8})
    game.new_state(num_players=6, seed=0)  # 52 / 6 = 8
    with pytest.raises(OptionError, match=r"max_cards = 8 with 7 players.*from 1 to 7"):
        game.new_state(num_players=7, seed=0)


# ------------------------------------------------------------ a choice made by 'turn'
_TURN = '''game "Turns"
players 2..3
card card "card":
    rank: 1..8
    label: "{rank}"
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone pile "pile": shared, public
var turn "player to play": player = 0
RULE
phase play "Play":
    deal 3 from deck to hand
    repeat 3 times:
        turn chooses card from hand[turn] "play a card"
        move card to pile
        BETWEEN
        if card.rank > 4:
            turn chooses again from bool "play again?"
        turn = left of turn
    next end
score: count(pile)
'''


def _turn(between: str = "", rule: str = "") -> str:
    return _TURN.replace("BETWEEN", between or 'say "played"').replace("RULE", rule)


def test_a_choice_by_turn_after_a_card_turn_chose_is_allowed() -> None:
    """The branch on 'card' (from hand[turn]) decides 'turn chooses': 'turn' is assigned
    only after the branch, outside the scope of 'card', so it names the same seat."""
    game = rulesplay.loads(_turn())
    for engine in ENGINES:
        s = rulesplay.loads(_turn(), engine=engine).new_state(num_players=2, seed=1)
        while not s.is_terminal():
            s.apply(s.legal_actions()[0])
    assert game.player_range == (2, 3)


def test_let_of_a_variable_seat_is_allowed_when_nothing_changes_it() -> None:
    text = _turn().replace('''        turn chooses card from hand[turn] "play a card"''',
                           '''        let high = max(hand[turn], it.rank)
        turn chooses card from hand[turn] where card.rank <= high "play a card"''')
    rulesplay.loads(text)


@pytest.mark.parametrize("between, rule", [
    ("turn = left of turn", ""),                     # assigned in the scope of 'card'
    ("if card.rank == 1:\n            turn = 0", ""),  # in a branch of it
    ("do pass_on", "rule pass_on:\n    turn = left of turn"),  # in a rule it runs
])
def test_a_choice_by_turn_after_turn_may_have_changed_is_refused(between: str,
                                                                 rule: str) -> None:
    with pytest.raises(RulesError, match=r"'turn' may have named another seat when 'card' "
                                         r"was worked out"):
        rulesplay.loads(_turn(between, rule))


# ------------------------------------------------------------ a card put at a random place
_BURY = '''game "Bury"
players 2
card card "card":
    rank: 1..10
    label: "{rank}"
zone deck "deck": shared, hidden
zone pile "pile": shared, public
zone hand "hand": per player, owner
phase deal "Deal":
    move top(deck) to pile
    move pile to deck at random
    deal 2 from deck to hand
    repeat 2 times:
        for each player p:
            p chooses c from hand[p] "bury a card"
            move c to deck at random
    next end
score: count(deck where it.rank > 5)
'''


def test_a_card_moved_at_random_lands_at_a_place_drawn_by_the_seed() -> None:
    """Unshuffled, the top card (rank 10) is buried; where it lands depends on the seed
    only, and over seeds it lands at many places (never always the top)."""
    places = set()
    for seed in range(30):
        s = rulesplay.loads(_BURY).new_state(seed=seed)
        again = rulesplay.loads(_BURY).new_state(seed=seed)
        deck = s.zone_cards("deck")
        assert deck == again.zone_cards("deck")  # determinism: same seed, same place
        hands = s.zone_cards("hand", 0) + s.zone_cards("hand", 1)
        assert sorted(deck + hands, key=int) == [str(r) for r in range(1, 11)]
        places.add(deck.index("10") if "10" in deck else "dealt")
    assert len(places) > 5


def test_both_engines_draw_the_same_places() -> None:
    from test_differential import play_both
    ref = rulesplay.loads(_BURY, engine="interpret")
    comp = rulesplay.loads(_BURY, engine="compiled")
    for seed in range(2):
        play_both(ref, comp, 2, seed)


def test_at_random_prints_back_and_refuses_a_second_place() -> None:
    from rulesplay.show import ruleset_text
    game = rulesplay.loads(_BURY)
    assert "move c to deck at random" in ruleset_text(game.ruleset)
    with pytest.raises(RulesError, match=r"'bottom of' and 'at random' say two places"):
        rulesplay.loads(_BURY.replace("move c to deck at random",
                                      "move c to bottom of deck at random"))


# ------------------------------------------------------------ how long a pass holds
_CLIMB = '''game "Climb"
players 3
option again: bool = true
card card "card":
    rank: 1..9
    label: "{rank}"
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone table "table": shared, public
var leader "leader": player = 0
player var tricks "tricks": int = 0
phase play "Play":
    deal 3 from deck to hand
    repeat while all(seats, count(hand[it]) > 0):
        trick climbing in table led by leader:
            each player plays card from hand[player]
                where count(table) == 0 or card.rank > top(table).rank
            pass for this turn TEST "pass"
            won by highest it.rank
            after trick:
                tricks[winner] += 1
                leader = winner
                move table to deck
    next end
score: tricks[player]
'''


def _climb(test: str = "if again", **options: object) -> list[rulesplay.Game]:
    text = _CLIMB.replace("TEST", test)
    return [rulesplay.loads(text, options=options or None, engine=e)  # type: ignore[arg-type]
            for e in ENGINES]


def _lowest(s: object) -> str:
    ids = [a.id for a in s.legal_actions() if a.id != "pass"]  # type: ignore[attr-defined]
    return min(ids, key=lambda i: int(i.split(":")[1]))


@pytest.mark.parametrize("again, next_seat", [(True, 1), (False, 2)])
def test_a_pass_holds_for_the_turn_or_the_trick_as_the_option_says(again: bool,
                                                                   next_seat: int) -> None:
    """Seat 0 leads its lowest card, seat 1 passes, seat 2 plays over it, seat 0 passes:
    with the pass for this turn only, seat 1 may play again; with the pass to the trick's
    end, seat 2 has won the trick (every other seat has passed) and leads the next."""
    for game in _climb(again=again):
        s = game.new_state(seed=0)
        s.apply(_lowest(s))
        assert s.current_player() == 1
        s.apply("pass")
        assert s.current_player() == 2
        s.apply(_lowest(s))
        assert s.current_player() == 0
        s.apply("pass")
        assert s.current_player() == next_seat
        assert s.observation(None)["vars"]["leader"] == (0 if again else 2)


def test_unless_reads_the_other_way_and_prints_back() -> None:
    from rulesplay.show import ruleset_text
    for game in _climb("unless again", again=False):
        s = game.new_state(seed=0)
        for action in (_lowest(s), "pass", _lowest(s), "pass"):
            s.apply(action if action == "pass" else _lowest(s))
        assert s.current_player() == 1
        assert 'pass for this turn unless again "pass"' in ruleset_text(game.ruleset)


def test_how_long_a_pass_holds_plays_the_same_on_both_engines() -> None:
    from test_differential import play_both
    for again in (True, False):
        ref, comp = _climb(again=again)
        for seed in range(3):
            play_both(ref, comp, 3, seed)


def test_how_long_a_pass_holds_may_not_read_what_a_seat_cannot_see() -> None:
    with pytest.raises(RulesError, match=r"how long a pass holds is told to every seat, "
                                         r"but it depends on deck"):
        rulesplay.loads(_CLIMB.replace("TEST", "if count(deck where it.rank > 5) > 1"))
    with pytest.raises(RulesError, match=r"pass for this turn if"):
        rulesplay.loads(_CLIMB.replace("TEST", "if leader"))


def _comes_back_after_passing(game: rulesplay.Game, seed: int) -> bool:
    """Play President with seat 1 passing whenever it may and the others playing their
    first play: whether seat 1 ever has a turn in a trick after it passed in it."""
    s = game.new_state(4, seed=seed)
    passed = False
    for _ in range(200):
        if s.is_terminal():
            break
        seat, ids = s.current_player(), [a.id for a in s.legal_actions()]
        if seat == 1 and passed:
            return True
        before = len(s.zone_cards("played"))
        action = "pass" if seat == 1 and "pass" in ids else \
            next(i for i in ids if i != "pass")
        s.apply(action)
        passed = passed or action == "pass"
        if len(s.zone_cards("played")) != before:  # the trick is over
            passed = False
    return False


def test_president_offers_both_rules_of_the_pass() -> None:
    """President (pagat): with pass_again on a seat that passed plays again in the trick
    after another's play; off, its pass holds to the end of the trick. Both rules play the
    same on both engines."""
    from test_differential import play_both
    path = CLASSICS / "president.rules"
    for again in (True, False):
        ref, comp = (rulesplay.load(path, options={"pass_again": again, "hands": 1},
                                    engine=e) for e in ENGINES)
        play_both(ref, comp, 4, 1)
        assert any(_comes_back_after_passing(comp, seed) for seed in range(3)) == again


# ------------------------------------------------------------ several named skips
_SKIPS = '''game "Skips"
players 2
card card "card":
    rank: 1..8
    label: "{rank}"
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone pile "pile": shared, public
var turn "turn": player = 0
player var drew "draws": int = 0
player var passed "passes": int = 0

phase play "Play":
    deal 2 from deck to hand
    repeat 6 times:
        turn SECRETLY may choose card from hand[turn] where card.rank > 4 "play a card"
            skip "draw a card" as drawing if count(deck) > 0
            skip "pass" as passing unless any(hand[turn], it.rank > 6)
        if drawing:
            move top(deck) to hand[turn]
            drew[turn] += 1
        elif passing:
            passed[turn] += 1
        else:
            move card to pile
        turn = left of turn
    next end

score: drew[player] - passed[player]
'''


def _skips(secret: str = "", engine: str = "compiled") -> rulesplay.Game:
    return rulesplay.loads(_SKIPS.replace("SECRETLY ", secret), engine=engine)


def test_each_skip_is_its_own_action_and_tells_which_was_taken() -> None:
    """Unshuffled, seat 0 holds 8 and 6 (may play either, or draw; no pass: it holds a
    card over 6); the name of the skip taken is true after the choice, the other false."""
    for engine in ENGINES:
        s = _skips(engine=engine).new_state(seed=0)
        legal = {a.id: a.label for a in s.legal_actions()}
        assert legal == {"card:8": "8", "card:6": "6", "card:skip-drawing": "draw a card"}
        s.apply("card:skip-drawing")
        assert s.var("drew", 0) == 1 and s.var("passed", 0) == 0
        assert len(s.zone_cards("hand", 0)) == 3
        # seat 1 holds 7 and 5: the same offer; it plays the 7
        s.apply("card:7")
        assert s.var("drew", 1) == 0 and s.zone_cards("pile") == ["7"]


def test_a_skip_whose_test_fails_is_not_offered() -> None:
    """With the deck out, a seat with no card over 6 may only pass (or play a card over 4)."""
    s = _skips().new_state(seed=0)
    s.arrange("hand", 0, ["1", "2"], spill="pile")
    s.arrange("deck", None, [], spill="pile")
    ids = {a.id for a in s.legal_actions()}
    assert ids == {"card:skip-passing"}
    s.apply("card:skip-passing")
    assert s.var("passed", 0) == 1 and s.var("drew", 0) == 0


def test_named_skips_play_the_same_on_both_engines_and_print_back() -> None:
    from test_differential import play_both

    from rulesplay.show import ruleset_text
    for seed in range(3):
        play_both(_skips(engine="interpret"), _skips(), 2, seed)
    text = ruleset_text(_skips().ruleset)
    assert 'skip "draw a card" as drawing if count(deck) > 0 skip "pass" as passing unless' \
        in text
    assert rulesplay.loads(text).ruleset.model_dump(exclude={"span"}) is not None


def test_a_secret_choice_with_named_skips_reveals_nothing_more() -> None:
    """The other seat learns that a secret choice was made, not which skip: its history
    hides the id, and the flags are secret to every other seat."""
    s = _skips("secretly ").new_state(seed=0)
    s.apply("card:skip-drawing")
    assert s.public_history(1) == [(0, None)]
    assert s.public_history(0) == [(0, "card:skip-drawing")]
    with pytest.raises(RulesError, match=r"'drawing'.*a secret choice of turn"):
        rulesplay.loads(_SKIPS.replace("SECRETLY ", "secretly ").replace(
            '''        turn = left of turn''', '''        turn = left of turn
        turn chooses guess from 1..3 where guess > 1 or drawing "guess"'''))


@pytest.mark.parametrize("skips, message", [
    ('skip "draw" skip "pass" as passing', r"a choice with several skips names each one"),
    ('skip "draw" as card', r"'card' already names this choice or another of its skips"),
    ('skip "draw" as x skip "pass" as x', r"'x' already names this choice"),
])
def test_named_skips_are_named_once_each(skips: str, message: str) -> None:
    text = _SKIPS.replace("SECRETLY ", "").replace(
        '''            skip "draw a card" as drawing if count(deck) > 0
            skip "pass" as passing unless any(hand[turn], it.rank > 6)''', "            " + skips)
    with pytest.raises(RulesError, match=message):
        rulesplay.loads(text)


def test_a_saved_game_resumes_with_the_skip_taken_and_the_places_drawn() -> None:
    """The name of the skip taken is a local kept in the save; a card moved at random
    after resuming lands where it would have without the save (the generator is saved)."""
    from rulesplay.engine.state import State
    for text in (_SKIPS.replace("SECRETLY ", ""), _BURY):
        game = rulesplay.loads(text)
        s = game.new_state(seed=4)
        first = s.legal_actions()[-1].id
        s.apply(first)
        again = State.from_json(s.to_json(), game)
        while not s.is_terminal():
            action = s.legal_actions()[0].id
            s.apply(action)
            again.apply(action)
            assert again.zone_cards("deck") == s.zone_cards("deck")
        assert again.scores() == s.scores() and again.is_terminal()


def test_named_skips_are_for_a_choice_of_one_card_or_value() -> None:
    text = _SKIPS.replace("SECRETLY ", "").replace(
        "may choose card from hand[turn] where card.rank > 4",
        "may choose 2 cards from hand[turn]").replace("move card to pile", "move cards to pile")
    with pytest.raises(RulesError, match=r"a choice of several cards has one unnamed skip"):
        rulesplay.loads(text)


def test_the_fixed_action_space_numbers_each_named_skip() -> None:
    """The adapters' action space, read from the declaration, holds each named skip's id;
    every action of random games has its index."""
    import random

    from rulesplay.encode.actions import ActionSpace
    game = _skips()
    space = ActionSpace(game.program(2))
    assert {"card:skip-drawing", "card:skip-passing"} <= set(space.ids)
    assert "card:skip" not in space.ids
    for seed in range(5):
        s, rng = game.new_state(seed=seed), random.Random(seed)
        while not s.is_terminal():
            action = rng.choice(s.legal_actions())
            assert space.ids[space.index_of(action.id)] == action.id
            s.apply(action)


@pytest.mark.parametrize("let", ["let c2 = card", "let c3 = card\n        let c2 = c3"])
def test_a_card_read_through_a_let_after_turn_changed_is_refused(let: str) -> None:
    """'let c2 = card' ends the scope of 'card', but its value is read as long as 'c2' is:
    a change of 'turn' in the scope of 'c2' counts (session-6 review: the next seat's
    options showed the suit of the card the previous seat chose)."""
    text = _turn(let + "\n        turn = left of turn").replace("if card.rank > 4:",
                                                              "if c2.rank > 4:")
    with pytest.raises(RulesError, match=r"'turn' may have named another seat when 'card' "
                                         r"was worked out"):
        rulesplay.loads(text)


def test_a_value_refused_before_the_player_count_is_known_says_the_whole_range() -> None:
    """An option checked as the ruleset loads (the count not known yet) named only its
    written bound ('a whole number from 1'; session-6 review): the range as written, and
    a text value in the language's quotes."""
    text = _small("players 2..4", "option hand_size: int in 1..(12 / players) = 2")
    for value, shown in ((0, "0"), ("x", '"x"')):
        with pytest.raises(OptionError) as caught:
            rulesplay.loads(text, options={"hand_size": value})
        assert f"option hand_size = {shown} is not allowed; allowed: a whole number in " \
            "1..(12 / players), which depends on the player count" in str(caught.value)
