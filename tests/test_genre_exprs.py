"""The expressions of issue 11, part E: choices bound in every branch of an ``if``, a skip
offered only when a test holds (stick the dealer), string literals in labels' placeholders,
state-dependent card attributes, named expressions and whole-table queries. Each scenario
runs a small ruleset of ``tests/genre_exprs/`` in both engines."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_differential import play_both

import rulesplay
from rulesplay.compose import load_ruleset
from rulesplay.diff import diff
from rulesplay.engine.game import load
from rulesplay.errors import RulesError
from rulesplay.seatview import SeatView

HERE = Path(__file__).resolve().parent / "genre_exprs"
ENGINES = ("interpret", "compiled")


def said(state: rulesplay.State) -> list[str]:
    """The texts of the ``say`` events so far."""
    return [e["text"] for e in state.events or [] if e["type"] == "say"]


def refused(text: str) -> str:
    """The rendered diagnostics of a ruleset the validator refuses."""
    with pytest.raises(RulesError) as err:
        rulesplay.loads(text)
    return err.value.render()


# ---------------------------------------------------------------- stick the dealer
STICK = HERE / "stick.rules"


@pytest.mark.parametrize("engine", ENGINES)
def test_every_seat_but_the_dealer_may_pass(engine: str) -> None:
    s = load(STICK, engine=engine).new_state(3, 1, record_events=True)
    for seat in (1, 2):  # left of the dealer (seat 0) first
        assert s.current_player() == seat
        skip = s.legal_actions()[-1]
        assert (skip.label, skip.value) == ("pass", None)
        s.apply(skip)
    assert s.current_player() == 0
    labels = [a.label for a in s.legal_actions()]
    assert labels == ["clubs", "hearts", "spades"], labels  # the dealer is stuck: no pass
    s.apply(s.legal_actions()[1])
    assert s.current_player() == 0  # the maker: the choice made in either branch
    yes = next(a for a in s.legal_actions() if a.value is True)
    s.apply(yes)
    assert s.is_terminal()
    assert said(s) == ["Seat 0 names hearts alone"]
    assert s.scores() == [1, 0, 0]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_choice_of_the_else_branch_is_bound_after_the_if(engine: str) -> None:
    g = load(STICK, options={"loners": False}, engine=engine)
    s = g.new_state(4, 2, record_events=True)
    s.apply(s.legal_actions()[0])  # seat 1 names clubs
    assert [a.label for a in s.legal_actions()] == ["no"]
    s.apply(s.legal_actions()[0])
    assert said(s) == ["Seat 1 names clubs"]


def test_stick_the_dealer_plays_the_same_in_both_engines() -> None:
    for players in (3, 4):
        for seed in (1, 2, 3):
            assert play_both(load(STICK, engine="interpret"), load(STICK, engine="compiled"),
                             players, seed) > 0


def test_a_skip_test_needs_may_choose_and_a_condition() -> None:
    text = STICK.read_text(encoding="utf-8")
    out = refused(text.replace("p may choose s", "p chooses s"))
    assert "'skip' needs 'may choose'" in out
    out = refused(text.replace("unless p == dealer", "unless p"))
    assert "expected yes/no" in out or "bool" in out, out


def test_a_name_bound_in_one_branch_only_is_undefined_after_the_if() -> None:
    text = STICK.read_text(encoding="utf-8")
    out = refused(text.replace('maker chooses a from [no] "play with a partner"',
                               'say "no loners"'))
    assert "undefined name 'a': 'a' is bound in some branches of the 'if' at line" in out
    out = refused(text.replace('maker chooses a from [no] "play with a partner"',
                               'maker chooses a from suit'))
    assert "'a' is bound with different types in the branches" in out


def test_an_unclosed_literal_in_a_placeholder_is_located() -> None:
    text = STICK.read_text(encoding="utf-8")
    out = refused(text.replace("{' alone' if", "{' alone if"))
    assert "unclosed \"'\" in the placeholder" in out


# ---------------------------------------------------------------- bowers and defines
BOWERS = HERE / "bowers.rules"


def ids(state: rulesplay.State) -> list[str]:
    """The ids of the legal actions."""
    return [a.id for a in state.legal_actions()]


def play(state: rulesplay.State, action_id: str) -> None:
    """Apply the legal action of that id."""
    state.apply(next(a for a in state.legal_actions() if a.id == action_id))


@pytest.mark.parametrize("engine", ENGINES)
def test_the_left_bower_follows_suit_as_a_trump_and_the_bowers_rank_highest(
        engine: str) -> None:
    s = load(BOWERS, engine=engine).new_state(2, 1, record_events=True)
    play(s, "t:hearts")
    play(s, "play:hearts-9")
    # Seat 1 must follow hearts: both jacks are hearts now (the jack of diamonds is the
    # left bower), the ten of diamonds is not.
    assert sorted(ids(s)) == ["play:diamonds-11", "play:hearts-11"]
    play(s, "play:diamonds-11")
    assert said(s) == ["Seat 1 wins with 11 of diamonds (a trump)"]
    play(s, "play:diamonds-10")  # diamonds led: seat 0 has none and may play anything
    assert sorted(ids(s)) == ["play:hearts-10", "play:spades-14"]
    play(s, "play:hearts-10")
    play(s, "play:spades-14")
    play(s, "play:hearts-11")  # the right bower
    assert said(s)[1:] == ["Seat 0 wins with 10 of hearts (a trump)",
                           "Seat 1 wins with 11 of hearts (a trump)"]
    assert s.scores() == [1, 2]


@pytest.mark.parametrize("engine", ENGINES)
def test_with_another_trump_the_jack_keeps_its_suit(engine: str) -> None:
    s = load(BOWERS, engine=engine).new_state(2, 1, record_events=True)
    play(s, "t:spades")  # no bower among the red jacks
    play(s, "play:hearts-9")
    assert ids(s) == ["play:hearts-11"]  # only the jack of hearts follows hearts
    s2 = load(BOWERS, engine=engine).new_state(2, 1, record_events=True)
    play(s2, "t:diamonds")  # the jack of hearts is the left bower: a diamond now
    play(s2, "play:hearts-9")
    assert sorted(ids(s2)) == ["play:diamonds-10", "play:diamonds-11", "play:hearts-11"]


def test_attributes_that_read_the_game_are_not_precomputed() -> None:
    game = load(BOWERS)
    prog = game.new_state(2, 1).program
    assert prog.checked.dynamic_attrs == {"right_bower", "left_bower", "effective", "power"}
    assert "red" not in prog.checked.dynamic_attrs  # reads the card only: precomputed
    assert all("power" not in attrs and "red" in attrs for attrs in prog.card_attrs)


def test_bowers_play_the_same_in_both_engines() -> None:
    for seed in (1, 2, 3, 4):
        assert play_both(load(BOWERS, engine="interpret"), load(BOWERS, engine="compiled"),
                         2, seed) > 0


def test_a_define_sees_only_its_parameters_and_declared_names() -> None:
    text = BOWERS.read_text(encoding="utf-8")
    out = refused(text.replace("define strength(c) = (c.effective == trump",
                               "define strength(c) = (card.effective == trump"))
    assert "'card' is not a parameter of 'strength' nor a declared name" in out
    out = refused(text.replace("define strength(c)", "define count(c)"))
    assert "'count' is a builtin function" in out
    out = refused(text.replace("define strength(c) =", "define strength(c, c) ="))
    assert "'c' is a parameter of 'strength' twice" in out


def test_a_define_is_typed_where_it_is_used() -> None:
    text = BOWERS.read_text(encoding="utf-8")
    out = refused(text.replace("where follows(card, player)", "where follows(player, card)"))
    first = out.splitlines()[:2]  # the error is at the use, with its line
    assert first[0].endswith("error: '.rank' needs a card, got a player (in 'follows', "
                             "line 24)"), out
    assert "where follows(player, card)" in first[1]


def test_a_random_card_read_twice_by_a_define_is_refused() -> None:
    text = BOWERS.read_text(encoding="utf-8").replace(
        '    trump = t\n', '    trump = t\n    let s = strength(random(deck))\n')
    assert "drawn at random and 'strength' reads it more than once" in refused(text)


def test_an_attribute_that_reads_a_hidden_variable_may_not_decide_a_choice() -> None:
    text = BOWERS.read_text(encoding="utf-8").replace(
        'var trump "trump": suit', 'var trump "trump": suit hidden')
    out = refused(text)
    assert "reads 'trump'" in out and "hidden" in out, out


# ---------------------------------------------------------------- whole-table queries
CLUBS = HERE / "two_of_clubs.rules"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_seat_holding_the_two_of_clubs_leads(engine: str, seed: int) -> None:
    s = load(CLUBS, engine=engine).new_state(4, seed, record_events=True)
    prog = s.program
    hands = [[prog.card_ids[c] for c in s.zones[z]] for z in range(1, 5)]
    holder = next((p for p, h in enumerate(hands) if "clubs-2" in h), None)
    assert s.current_player() == holder
    leader = "none" if holder is None else f"Seat {holder}"
    assert said(s) == [f"8 cards in hands; {leader} leads"]


def test_a_choice_may_not_be_decided_by_other_seats_hands() -> None:
    text = CLUBS.read_text(encoding="utf-8").replace(
        'leader chooses c from hand[leader] "lead"',
        'leader chooses c from hand[leader] where owner(first(hand where two_of_clubs(it)))'
        ' == leader "lead"')
    out = refused(text)
    assert "reads hand, which leader cannot see" in out, out


def test_whole_table_queries_play_the_same_in_both_engines() -> None:
    for seed in (1, 2):
        assert play_both(load(CLUBS, engine="interpret"), load(CLUBS, engine="compiled"),
                         3, seed) > 0


def test_a_variant_replaces_a_define(tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text(BOWERS.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "low.rules").write_text(
        'extends "base.rules"\n'
        "replace define strength(c) = (c.effective == trump, c.effective == lead, -c.power)\n",
        encoding="utf-8")
    s = rulesplay.load(tmp_path / "low.rules").new_state(2, 1, record_events=True)
    for action_id in ("t:hearts", "play:hearts-9", "play:diamonds-11"):
        play(s, action_id)
    assert said(s) == ["Seat 0 wins with 9 of hearts (a trump)"]  # the lowest trump wins
    (tmp_path / "gone.rules").write_text('extends "base.rules"\nremove define strength\n',
                                         encoding="utf-8")
    with pytest.raises(RulesError, match="unknown function 'strength'"):
        rulesplay.load(tmp_path / "gone.rules")


def test_diff_says_when_a_skip_is_offered(tmp_path: Path) -> None:
    base = STICK.read_text(encoding="utf-8")
    (tmp_path / "a.rules").write_text(base, encoding="utf-8")
    (tmp_path / "b.rules").write_text(base.replace(' unless p == dealer', ''),
                                      encoding="utf-8")
    a, _ = load_ruleset(str(tmp_path / "a.rules"))
    b, _ = load_ruleset(str(tmp_path / "b.rules"))
    assert any(line.strip() == "skip of 's' in phase 'bid': where not p == dealer -> any"
               for line in diff(a, b)), diff(a, b)


DERIVED_BY_DEFINE = '''
game "Boost"
players 2
enum suit: clubs, hearts
card card "card":
    suit: suit
    rank: 1..3
    power = boosted(rank, suit)
    heavy = count(deck where it.rank > rank) == 0
zone deck "deck": shared, public
var trump "trump": suit
define boosted(r, s) = r + 10 if s == trump else r
define unused(x) = x
phase p:
    say "{sum(deck, it.power)}"
    trump = hearts
    let c = top(deck)
    say "{sum(deck, it.power)} {c.heavy}"
    next end
score: 0
'''


@pytest.mark.parametrize("engine", ENGINES)
def test_an_attribute_reading_the_game_through_a_define_is_worked_out_when_read(
        engine: str) -> None:
    game = rulesplay.loads(DERIVED_BY_DEFINE, engine=engine)
    assert [w.message for w in game.checked.warnings] == ["define 'unused' is never used"]
    s = game.new_state(2, 1, record_events=True)
    heavy = s.program.card_attrs[s.zones[0][-1]]["rank"] == 3
    assert said(s) == ["12", f"42 {'yes' if heavy else 'no'}"]  # hearts +10 each


def test_an_attribute_with_its_own_it_is_not_read_of_it() -> None:
    rulesplay.loads(DERIVED_BY_DEFINE.replace("{c.heavy}", "{count(deck where it.power > 3)}"))
    out = refused(DERIVED_BY_DEFINE.replace("{c.heavy}", "{count(deck where it.heavy)}"))
    assert "this reads 'it', and the attribute 'heavy' reads it inside its own count" in out


def test_whether_a_seat_may_skip_follows_the_sight_rules() -> None:
    text = STICK.read_text(encoding="utf-8")
    out = refused(text.replace("unless p == dealer", "unless count(hand[p]) > 0 and "
                               "any(hand[left of p], it.rank == 3)"))
    assert "whether 's' may be skipped is worked out from hand[left of p], which p cannot " \
        "see" in out, out
    rulesplay.loads(text.replace("unless p == dealer",
                                 "unless any(hand[p], it.rank == 3)"))  # its own hand


SECRET_ATTR = '''
game "Secret bonus"
players 2
card card "card":
    rank: 1..3
    power = rank + bonus
    label: "{rank}"
zone deck "deck": shared, public
var bonus "bonus": int = 7 hidden
define shown(c) = c.power
phase p "Play":
    say "top: {shown(top(deck where it.rank == 3))}"
    next end
score: 0
'''


@pytest.mark.parametrize("engine", ENGINES)
def test_a_text_showing_an_attribute_that_reads_a_hidden_variable_masks_it(
        engine: str) -> None:
    s = rulesplay.loads(SECRET_ATTR, engine=engine).new_state(2, 1, record_events=True)
    assert said(s) == ["top: 10"]  # the whole account: 3 + 7
    for seat in (0, 1, None):
        view = SeatView(s.program, seat).filter(s.events or [])
        assert [e["text"] for e in view if e["type"] == "say"] == ["top: ?"]


def test_another_language_s_def_of_an_expression_is_pointed_at_define() -> None:
    head = 'game "x"\nplayers 2\ncard c:\n    r: 1..2\nzone d: shared, public\n'
    tail = "phase p:\n    next end\nscore: 0\n"
    assert "(did you mean 'define'?)" in refused(head + "def f(x) = x\n" + tail)
    assert "(did you mean 'rule'?)" in refused(head + 'def f():\n    say "a"\n' + tail)
