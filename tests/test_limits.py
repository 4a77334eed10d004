"""A game that never ends stops within its budgets, with an error naming where; the budgets
are set by default, by the ruleset ('limit NAME N') and per run (issue 14 item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesplay
from rulesplay.cli import main
from rulesplay.engine.budgets import CHECK_EVERY
from rulesplay.errors import OptionError, RulesError
from rulesplay.limits import LIMITS

# Every phase asks for a decision, and 'next end' is never taken.
ROUND_AND_ROUND = """game "Round and round"
players 2..2
{limits}card c:
    copies: 2
zone deck: shared, public
var n: int = 0
phase a:
    0 chooses x from deck
    n += 1
    next end if no
    next b
phase b:
    1 chooses x from deck
    next a
score: n
"""


def _play(game: rulesplay.Game) -> RulesError:
    s = game.new_state(2)
    with pytest.raises(RulesError) as caught:
        while True:
            s.apply(s.legal_actions()[0])
    return caught.value


def test_by_default_the_phase_that_keeps_beginning_is_named_at_its_line() -> None:
    exc = _play(rulesplay.loads(ROUND_AND_ROUND.format(limits=""), file="r.rules"))
    assert (exc.span.file, exc.span.line) == ("r.rules", 7)
    assert f"this phase has begun {LIMITS['entries'][0]:,} times" in exc.message
    assert "in phase 'a'" in exc.message and "phase a:" in exc.render()


def test_a_ruleset_and_a_run_set_the_limits() -> None:
    text = ROUND_AND_ROUND.format(limits="limit entries 30\n")
    exc = _play(rulesplay.loads(text))
    assert "has begun 30 times" in exc.message
    exc = _play(rulesplay.loads(text, limits={"decisions": 11}))  # the run's comes first
    assert "gone on for 11 decisions" in exc.message and "in phase 'b'" in exc.message


def test_a_variant_replaces_its_bases_limit(tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text(ROUND_AND_ROUND.format(limits="limit entries 30\n"),
                                         encoding="utf-8")
    (tmp_path / "v.rules").write_text('extends "base.rules"\nlimit entries 12\n',
                                      encoding="utf-8")
    assert "has begun 12 times" in _play(rulesplay.load(tmp_path / "v.rules")).message


def test_the_step_limit_stops_a_loop_without_decisions_on_both_engines() -> None:
    text = ROUND_AND_ROUND.format(limits="limit steps 1000\n").replace(
        "    n += 1\n", "    repeat while n >= 0:\n        n += 1\n")
    for engine in ("compiled", "interpret"):
        exc = _play(rulesplay.loads(text, engine=engine))
        assert "step limit reached: 1,000 steps" in exc.message and exc.span.line == 10


def test_a_limit_that_cannot_be_is_refused_where_it_is_given() -> None:
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(ROUND_AND_ROUND.format(limits="limit decison 5\n"))
    assert "did you mean 'decisions'" in caught.value.message
    with pytest.raises(OptionError, match="from 1 to"):
        rulesplay.loads(ROUND_AND_ROUND.format(limits=""), limits={"steps": 0})


def test_a_save_keeps_the_runs_limits_and_how_often_each_phase_began() -> None:
    game = rulesplay.loads(ROUND_AND_ROUND.format(limits=""), limits={"entries": 9})
    s = game.new_state(2)
    for _ in range(5):
        s.apply(s.legal_actions()[0])
    again = rulesplay.State.from_json(s.to_json())  # the game rebuilt from the save alone
    assert again.entries == s.entries and again.program.max_entries == 9
    assert "has begun 9 times" in _play_on(again).message


def _play_on(s: rulesplay.State) -> RulesError:
    with pytest.raises(RulesError) as caught:
        while True:
            s.apply(s.legal_actions()[0])
    return caught.value


def test_run_takes_limit_and_says_which_there_are(tmp_path: Path) -> None:
    path = tmp_path / "r.rules"
    path.write_text(ROUND_AND_ROUND.format(limits=""), encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path), "-q", "--limit", "decisions=20"])
    assert result.exit_code == 1 and "gone on for 20 decisions" in result.output
    result = CliRunner().invoke(main, ["run", str(path), "--limit", "turns=20"])
    assert result.exit_code == 2 and "limits: decisions" in result.output


def test_the_defaults_leave_room_above_every_shipped_game() -> None:
    # measured: at most 4,100 decisions and 41 entries of one phase in 100 random games each;
    # at most 47,680 steps and work in 20 random games of each ruleset and variant at each
    # player count (Card Hunt at 8 players: 987 decisions; every collection gone over
    # and card moved counts as work)
    assert LIMITS["decisions"][0] >= 10 * 4_100 and LIMITS["entries"][0] >= 40 * 41
    assert LIMITS["total"][0] >= 400 * 47_680


@pytest.mark.parametrize("statement", [
    "n = sum(1..300000000, it)",
    "n = count(1..999999999999)",
    "0 chooses y from 1..999999999999",
])
@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_a_range_too_long_to_hold_is_a_located_error(statement: str, engine: str) -> None:
    text = ROUND_AND_ROUND.format(limits="").replace("    n += 1\n", f"    {statement}\n")
    with pytest.raises(RulesError) as caught:
        s = rulesplay.loads(text, engine=engine).new_state(2)
        s.apply(s.legal_actions()[0])
    assert "a range may hold at most 100,000" in caught.value.message
    assert caught.value.span.line == 9


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
@pytest.mark.parametrize("statement", [
    "n = sum(1..100000, sum(1..100000, it))",  # one step of the rules, 10^10 additions
    "n = count(values(1..50000, count(1..50000, it > n)))",
])
def test_the_work_inside_one_expression_is_bounded(statement: str, engine: str) -> None:
    text = ROUND_AND_ROUND.format(limits="").replace("    n += 1\n", f"    {statement}\n")
    with pytest.raises(RulesError) as caught:
        s = rulesplay.loads(text, engine=engine, limits={"work": 1_000_000}).new_state(2)
        s.apply(s.legal_actions()[0])
    assert "1,000,000 cards and numbers gone over" in caught.value.message
    assert caught.value.span.line == 9


def test_the_work_budget_is_per_decision() -> None:
    # 60,000 numbers per decision, within a budget of 100,000 however long the game goes
    text = ROUND_AND_ROUND.format(limits="limit entries 50\n").replace(
        "    n += 1\n", "    n = count(1..60000) + n % 7\n")
    exc = _play(rulesplay.loads(text, limits={"work": 100_000}))
    assert "has begun 50 times" in exc.message


def test_the_total_budget_stops_a_game_that_never_ends_but_works_between_decisions() -> None:
    # 3,000 loop turns per decision: within the steps between two decisions, for ever
    text = ROUND_AND_ROUND.format(limits="limit total 1000000\n").replace(
        "    n += 1\n", "    repeat 3000 times:\n        n += 1\n")
    for engine in ("compiled", "interpret"):
        s = rulesplay.loads(text, engine=engine).new_state(2)
        exc = _play_on(s)
        assert "taken 1,000,000 steps and work without ending" in exc.message
        assert "phase 'a'" in exc.message or "phase 'b'" in exc.message
        # checked every CHECK_EVERY decisions: 2 x 1,000,000 / 3,000 decisions, and one check
        assert 2 * 1_000_000 / 3_000 <= s.decisions <= 2 * 1_000_000 / 3_000 + CHECK_EVERY


def test_the_total_budget_counts_work_and_a_save_keeps_what_was_spent() -> None:
    text = ROUND_AND_ROUND.format(limits="limit total 1000000\n").replace(
        "    n += 1\n", "    n = count(1..60000) + n % 7\n")
    whole = rulesplay.loads(text).new_state(2)
    exc = _play_on(whole)
    assert "taken 1,000,000 steps and work" in exc.message
    assert whole.decisions <= 2 * 1_000_000 / 60_000 + CHECK_EVERY
    s = rulesplay.loads(text).new_state(2)
    for _ in range(10):
        s.apply(s.legal_actions()[0])
    again = rulesplay.State.from_json(s.to_json())
    assert (again.steps, again.work) == (s.steps, s.work)
    _play_on(again)
    assert again.decisions == whole.decisions  # stopped where the unsaved game stopped


def test_the_events_budget_bounds_the_account_of_a_game_that_never_ends() -> None:
    text = ROUND_AND_ROUND.format(limits="limit events 5000\n").replace(
        "    n += 1\n", '    repeat 300 times:\n        say "tick {n}"\n    n += 1\n')
    s = rulesplay.loads(text).new_state(2, record_events=True)
    exc = _play_on(s)
    assert "recorded 5,000 events without ending" in exc.message
    assert 5000 <= len(s.events or []) <= 5000 + 2 * 310
    quiet = rulesplay.loads(text, limits={"total": 50_000}).new_state(2)  # not recording
    assert "taken 50,000 steps and work" in _play_on(quiet).message


def test_a_log_keeps_the_runs_limits_and_replays_with_them(tmp_path: Path) -> None:
    path, log = tmp_path / "r.rules", tmp_path / "r.jsonl"
    path.write_text(ROUND_AND_ROUND.format(limits="limit decisions 30\n"), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["run", str(path), "-q", "--limit", "decisions=40",
                                  "--log", str(log)])
    assert "gone on for 40 decisions" in result.output  # the run's limit, not the ruleset's
    header = log.read_text(encoding="utf-8").split("\n", 1)[0]
    assert '"limits":{"decisions":40}' in header.replace(" ", "")
    result = runner.invoke(main, ["replay", str(log)])  # (the ruleset's 30 would stop it)
    assert result.exit_code == 0 and "replay matches: 40 decisions" in result.output


def test_simulate_and_compare_take_the_limit_their_messages_name(tmp_path: Path) -> None:
    path = tmp_path / "r.rules"
    path.write_text(ROUND_AND_ROUND.format(limits=""), encoding="utf-8")
    for command in (["simulate", str(path)], ["compare", str(path), str(path)]):
        result = CliRunner().invoke(main, [*command, "-n", "2", "--workers", "1",
                                           "--limit", "decisions=20"])
        assert result.exit_code == 1 and "gone on for 20 decisions" in result.output
        assert "--limit decisions=N raises the limit" in result.output
        assert "game 1 of the run (seed " in result.output  # which game: to play it again
        result = CliRunner().invoke(main, [*command, "-n", "2", "--limit", "turns=20"])
        assert result.exit_code == 2 and "limits: decisions" in result.output


def test_a_ruleset_may_raise_a_limit_only_so_far_and_a_run_further() -> None:
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(ROUND_AND_ROUND.format(limits="limit steps 1000000000\n"))
    assert "at most 2,000,000 (10 times the default)" in caught.value.message
    rulesplay.loads(ROUND_AND_ROUND.format(limits="limit steps 2000000\n"))
    rulesplay.loads(ROUND_AND_ROUND.format(limits=""), limits={"steps": 1_000_000_000})


def test_the_total_stops_a_loop_whose_steps_a_run_raised() -> None:
    text = ROUND_AND_ROUND.format(limits="").replace(
        "    n += 1\n", "    repeat while n >= 0:\n        n += 1\n")
    s = rulesplay.loads(text, limits={"steps": 1_000_000_000, "total": 100_000}).new_state(2)
    exc = _play_on(s)
    assert "taken 100,000 steps and work" in exc.message and s.steps <= 100_000 + 64


def test_an_included_part_may_not_set_a_limit(tmp_path: Path) -> None:
    # (a 'limit' line in a .part was dropped without a word)
    (tmp_path / "p.part").write_text("limit steps 5\n", encoding="utf-8")
    (tmp_path / "t.rules").write_text(ROUND_AND_ROUND.format(limits='include "p.part"\n'),
                                      encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        rulesplay.load(tmp_path / "t.rules")
    assert "has a 'limit' line, which an included part cannot set" in caught.value.message


BIG_DECK = """game "Big deck"
players 2..2
card c:
    rank: 1..2000
zone deck: shared, public
zone pile: shared, public
var n: int = 0
phase a:
    {statement}
    0 chooses x from bool
    next end
score: n
"""


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
@pytest.mark.parametrize("statement", [
    # each turn one step, but 2,000 cards gone over: 10^4 turns are 2*10^7 cards
    "repeat 10000 times:\n        n = count(deck where it.rank > 1000)",
    "repeat 10000 times:\n        n = sum(deck, it.rank)",
    "repeat 10000 times:\n        if top(pile) in deck:\n            n += 1",
    "repeat 10000 times:\n        for each c in deck:\n            break",
    "repeat while true:\n        n += 1\n        ok = any(deck where it.rank == n)",
])
def test_a_collection_gone_over_at_the_top_of_an_expression_is_work(statement: str,
                                                                    engine: str) -> None:
    text = BIG_DECK.format(statement=statement).replace("ok = ", "let ok = ")
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(text, engine=engine, limits={"work": 1_000_000}).new_state(2)
    assert "1,000,000 cards and numbers gone over" in caught.value.message
    assert caught.value.span.line >= 9


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
@pytest.mark.parametrize("statement", [
    "repeat 10000 times:\n        move deck to pile\n        move pile to deck",
    "repeat 10000 times:\n        shuffle deck",
])
def test_cards_moved_or_shuffled_are_work(statement: str, engine: str) -> None:
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(BIG_DECK.format(statement=statement), engine=engine,
                        limits={"work": 1_000_000}).new_state(2)
    assert "1,000,000 cards and numbers gone over" in caught.value.message
    assert caught.value.span.line in (10, 11)  # the move or shuffle, not the phase


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_a_recorded_game_counts_the_events_of_its_moves_as_they_are_made(engine: str) -> None:
    # (2,000 cards moved 1,000 times made 2 million events before the next decision)
    text = BIG_DECK.format(statement="repeat 500 times:\n        move deck to pile\n"
                                     "        move pile to deck")
    game = rulesplay.loads(text, engine=engine, limits={"events": 100_000})
    with pytest.raises(RulesError) as caught:
        game.new_state(2, record_events=True)
    assert "recorded 100,000 events without ending" in caught.value.message
    assert caught.value.span.line in (10, 11)
    game.new_state(2)  # not recorded: no events, and within the work budget


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_a_loop_of_moves_that_never_ends_meets_the_step_limit_not_the_events_one(
        engine: str) -> None:
    """'repeat while true: move deck to hand[0]; move hand[0] to deck' was reported after
    13 s as a game of a million events that never reaches 'next end': each card moved
    since the last decision is a step too, so the loop stops as a loop, in it."""
    text = BIG_DECK.format(statement="repeat while true:\n        move deck to pile\n"
                                     "        move pile to deck")
    game = rulesplay.loads(text, engine=engine, limits={"steps": 20_000})
    with pytest.raises(RulesError) as caught:
        game.new_state(2, record_events=True)
    assert "step limit reached: 20,000 steps without a decision (a loop that never ends?)" \
        in caught.value.message
    # at the loop (the frame interpreter knows it), or the move in it (the compiled code)
    assert caught.value.span.line in ((9,) if engine == "interpret" else (10, 11))
