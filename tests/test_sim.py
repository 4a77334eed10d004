"""Batch simulation, statistics, compare, and the simulate/compare commands."""

from __future__ import annotations

import gc
import json
import random
import re
import statistics

import click
import pytest
from click.testing import CliRunner
from conftest import BARGAIN_HUNTER, RULESETS, load_game

from rulesplay.errors import OptionError
from rulesplay.events import Tally
from rulesplay.sim import (
    ROUNDS_WORDS,
    GameRecord,
    compare,
    game_seed,
    newcombe,
    outcome,
    rounds_words,
    simulate,
    wilson,
)
from rulesplay.sim import _t95 as t95
from rulesplay.sim_cli import compare as compare_cmd
from rulesplay.sim_cli import simulate as simulate_cmd
from rulesplay.sim_totals import Totals

BH = str(BARGAIN_HUNTER)
QUICK = str(RULESETS / "variants" / "bargain_hunter_quick.rules")


def _strip(result: object) -> list[tuple]:
    return [(g.index, g.seed, g.scores, g.winners, g.decisions, g.tricks, g.rounds, g.first)
            for g in result.games]  # type: ignore[attr-defined]


# ------------------------------------------------------------ statistics
def test_wilson_interval_matches_published_values() -> None:
    lo, hi = wilson(10, 100)  # Newcombe (1998), Table I: 0.0552..0.1744
    assert (round(lo, 4), round(hi, 4)) == (0.0552, 0.1744)
    assert abs(wilson(0, 10)[0]) < 1e-12 and abs(wilson(10, 10)[1] - 1) < 1e-12


def test_newcombe_difference_matches_published_values() -> None:
    d, lo, hi = newcombe(48, 80, 56, 70)  # Newcombe (1998), example (a): +0.0524..+0.3339
    assert (round(d, 4), round(lo, 4), round(hi, 4)) == (0.2, 0.0524, 0.3339)


def test_t_quantiles() -> None:
    assert abs(t95(10) - 2.228) < 0.005 and abs(t95(30) - 2.042) < 0.002
    assert abs(t95(6) - 2.447) < 0.005 and abs(t95(1) - 12.706) < 0.001
    assert abs(t95(1e9) - 1.960) < 0.001


def test_game_seeds_are_stable_and_distinct() -> None:
    assert game_seed(0, 0) == game_seed(0, 0)
    assert len({game_seed(s, i) for s in range(3) for i in range(100)}) == 300


# ------------------------------------------------------------ simulate
def test_results_do_not_depend_on_the_number_of_workers() -> None:
    one = simulate(BH, 24, 4, {"rounds": 1}, seed=5, workers=1)
    two = simulate(BH, 24, 4, {"rounds": 1}, seed=5, workers=2)
    assert _strip(one) == _strip(two)
    assert one.summary()["seats"] == two.summary()["seats"]
    other = simulate(BH, 24, 4, {"rounds": 1}, seed=6, workers=1)
    assert _strip(other) != _strip(one)


def test_simulate_in_this_process_gives_back_the_collectors_thresholds() -> None:
    # Games are played with the collector's thresholds of sim.GC_THRESHOLDS (fewer scans of
    # the bots' long-lived states); the caller's are put back after.
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        simulate(QUICK, 2, 4, seed=1, workers=1)
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*before)


def test_summary_measures_games() -> None:
    seen = []
    r = simulate(BH, 30, 4, {"rounds": 2}, bots={0: "greedy:samples=1"}, seed=1, workers=1,
                 progress=seen.append)
    assert seen == list(range(1, 31))
    s = r.summary()
    assert abs(sum(row["win_rate"] for row in s["seats"]) - 1) < 1e-9
    assert [row["bot"] for row in s["seats"]] == ["greedy:samples=1", "random", "random",
                                                  "random"]
    for row in s["seats"]:
        assert row["win_low"] <= row["win_rate"] <= row["win_high"]
    assert s["rounds"] == {"mean": 2.0, "sd": 0.0}
    # 8 cards each in round 1 minus the bargain, then 8 more: 7 + 8 tricks.
    assert s["tricks"]["mean"] == 15.0
    assert 4 + 15 * 4 < s["decisions"]["mean"] < 110  # bargains, plays, declarations...
    assert s["ties"]["share"] == r.ties() / 30
    assert all(g.scores == r.games[i].scores for i, g in enumerate(r.games))
    # The greedy seat should do better than the random ones.
    assert s["seats"][0]["score"]["mean"] > max(x["score"]["mean"] for x in s["seats"][1:])
    data = json.loads(json.dumps(r.to_dict()))
    assert len(data["per_game"]) == 30 and data["per_game"][0]["index"] == 0


@pytest.mark.parametrize(("winners", "keys", "sides", "expected"), [
    ([], [(1,), (2,)], None, "nobody"),
    ([1], [(1,), (2,)], None, "alone"),
    ([0, 1], [(3, -2), (3, -2), (1, 0)], None, "tie"),       # equal on score and tie-break
    ([0, 1], [(10,), (8,), (3,)], None, "shared"),          # two winners by the rules (BB5)
    ([0, 2], [(5,), (1,), (5,)], [0, 1, 0], "alone"),       # one side (a team) wins: one win
    ([0, 1, 2], [(5,), (5,), (5,)], [0, 1, 0], "tie"),      # two sides equal
])
def test_outcome_tells_shared_wins_from_ties(winners: list[int], keys: list[tuple[int, ...]],
                                            sides: list[int] | None, expected: str) -> None:
    assert outcome(winners, keys, sides) == expected


def test_bargain_bin_two_winners_by_rule_are_shared_wins_not_ties() -> None:
    """Bargain Bin names the top two players winners (BB5): most of its games have two
    winners, and only those tied on game points count as ties."""
    r = simulate(str(RULESETS / "bargain_bin.rules"), 12, 4, seed=2, workers=1)
    for g in r.games:
        shared = len(g.winners) > 1 and len({g.scores[w] for w in g.winners}) > 1
        assert (g.outcome == "shared") == shared
    assert r.shared() > r.ties()
    summary = r.summary()
    assert summary["ties"]["share"] + summary["shared_wins"]["share"] <= 1
    run = CliRunner().invoke(_cli(), ["simulate", str(RULESETS / "bargain_bin.rules"), "-n",
                                      "12", "--players", "4", "--seed", "2", "--workers", "1"])
    assert run.exit_code == 0, run.output
    shown = rf"Shared wins \(by the rules\) +│ +{r.shared() / 12 * 100:.1f}%"
    assert re.search(shown, run.output), run.output


@pytest.mark.parametrize("path", sorted(RULESETS.glob("*.rules")), ids=lambda p: p.stem)
def test_counted_events_agree_with_recorded_ones(path: object) -> None:
    """``record_events="counts"`` (what simulate uses) counts the tricks and phases that
    a full record holds, and plays the same game."""
    game = load_game(path)  # type: ignore[arg-type]
    players = max(game.player_range[0], 3)
    for seed in (1, 2):
        full = game.new_state(players, seed, record_events=True)
        counted = game.new_state(players, seed, record_events="counts")
        rng = random.Random(seed)
        while not full.terminal:
            action = rng.choice(full.legal_actions()).id
            full.apply(action)
            counted.apply(action)
        tally = counted.events
        assert isinstance(tally, Tally) and not tally and counted.terminal
        kinds: dict[str, int] = {}
        phases: dict[str, int] = {}
        for e in full.events or []:
            kinds[e["type"]] = kinds.get(e["type"], 0) + 1
            if e["type"] == "phase":
                phases[e["phase"]] = phases.get(e["phase"], 0) + 1
        for kind in ("trick", "pass"):  # (counted without being made: Tally.tick)
            assert tally.counts.get(kind, 0) == kinds.get(kind, 0), kind
        assert list(tally.phases.items()) == list(phases.items())  # the same order too
        assert counted.scores() == full.scores()
        assert not {"move", "decision", "say", "end"} & set(tally.counts)


def _engine_spy(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make every game played (here or in a forked worker) check and note its engine."""
    import rulesplay.sim as sim

    seen: list[str] = []
    play = sim.play_game

    def spy(game: object, *args: object, **kw: object) -> object:
        engine = game.engine  # type: ignore[attr-defined]
        if engine != "interpret":
            raise AssertionError(f"a game was played with the {engine} engine")
        seen.append(engine)
        return play(game, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(sim, "play_game", spy)
    return seen


def test_the_engine_asked_for_plays_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import rulesplay.sim as sim

    compiled = simulate(BH, 6, 4, {"rounds": 1}, seed=4, workers=1)
    seen = _engine_spy(monkeypatch)
    here = simulate(BH, 6, 4, {"rounds": 1}, seed=4, workers=1, engine="interpret")
    assert seen == ["interpret"] * 6
    forked = simulate(BH, 6, 4, {"rounds": 1}, seed=4, workers=2, engine="interpret")
    assert _strip(here) == _strip(forked) == _strip(compiled)  # the same games
    # A spawned worker (no fork) loads the game itself, with the run's engine.
    monkeypatch.setattr(sim, "_GAMES", [])
    monkeypatch.setattr(sim, "_quiet", lambda: None)  # (a worker's signals, not this one's)
    sim._init([(BH, {"rounds": 1}, None, "interpret", {"steps": 5000})])
    [game] = sim._GAMES
    assert game.engine == "interpret"
    assert game.limits == {"steps": 5000}  # and the run's budgets
    with pytest.raises(OptionError, match="unknown engine 'jit'"):
        simulate(BH, 2, 4, engine="jit")


def test_simulate_and_compare_commands_take_the_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _engine_spy(monkeypatch)
    run = CliRunner().invoke(_cli(), ["simulate", BH, "-n", "3", "--players", "4", "--option",
                                      "rounds=1", "--workers", "1", "--engine", "interpret"])
    assert run.exit_code == 0, run.output
    run = CliRunner().invoke(_cli(), ["compare", BH, BH, "-n", "3", "--players", "4", "--option",
                                      "rounds=1", "--workers", "1", "--engine", "interpret"])
    assert run.exit_code == 0, run.output
    assert seen == ["interpret"] * 9
    run = CliRunner().invoke(_cli(), ["compare", BH, QUICK, "-n", "2", "--engine", "jit"])
    assert run.exit_code == 2 and "'compiled', 'interpret'" in run.output, run.output


def test_simulate_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        simulate(BH, 0)
    with pytest.raises(ValueError, match="unknown bot"):
        simulate(BH, 2, 4, bots={1: "oracle"})


def test_the_rounds_measure_is_named_for_its_phase_when_the_games_agree_on_one() -> None:
    def totals(*repeats: str) -> Totals:
        t = Totals(2, [0, 1])
        for i, name in enumerate(repeats):
            t.add(GameRecord(i, i, [1, 0], [0], 10, 0, 2 if name else 1, 0, 0.0, repeats=name))
        return t

    assert rounds_words(totals("deal", "deal", "")) == "entries of phase 'deal'"
    assert rounds_words(totals("deal"), totals("hand")) == ROUNDS_WORDS  # (two rulesets)
    assert rounds_words(totals("", "")) == ROUNDS_WORDS  # nothing began twice: all 1
    r = simulate(BH, 3, 4, seed=1, workers=1)
    assert r.summary()["rounds_phase"] == "deal" and r.tally.repeats == {"deal": 3}


# ------------------------------------------------------------ compare
def test_compare_reports_a_clear_difference_in_plain_words() -> None:
    c = compare(BH, QUICK, 40, 4, seed=2, workers=1)
    lines = {line.key: line for line in c.lines}
    assert lines["rounds"].base == 4 and lines["rounds"].variant == 2
    assert lines["decisions"].clear and lines["decisions"].diff < 0
    verdict = " ".join(c.verdict())
    assert "Games are clearly shorter in decisions" in verdict
    assert "Games are clearly shorter in entries of phase 'deal': 2.00 vs 4.00" in verdict
    assert json.loads(json.dumps(c.to_dict()))["verdict"] == c.verdict()


def test_compare_plays_the_same_games_as_two_simulations() -> None:
    """compare plays a seed's base and variant games side by side (so a stop leaves
    pairs): each side's games are still those ``simulate`` plays, whatever the workers."""
    base = simulate(BH, 8, 4, {"rounds": 1}, seed=7, workers=1)
    variant = simulate(QUICK, 8, 4, {"rounds": 1}, seed=7, workers=1)
    for workers in (1, 2):
        c = compare(BH, QUICK, 8, 4, {"rounds": 1}, seed=7, workers=workers)
        assert _strip(c.base) == _strip(base) and _strip(c.variant) == _strip(variant)
        assert c.base.wall > 0 and c.variant.wall > 0


def test_compare_of_a_ruleset_with_itself_finds_no_clear_difference() -> None:
    # (it plays the same games: the verdict says so, rather than "no clear difference")
    c = compare(BH, BH, 30, 4, {"rounds": 1}, seed=3, workers=1)
    assert not any(line.clear for line in c.lines)
    assert c.identical and c.verdict()[0].startswith(
        "The variant played exactly the same games as the base on these 30 seeds")


# ------------------------------------------------------------ commands
def _cli() -> click.Group:
    group = click.Group()
    group.add_command(simulate_cmd)
    group.add_command(compare_cmd)
    return group


def test_simulate_command_prints_a_table_and_json() -> None:
    run = CliRunner().invoke(_cli(), ["simulate", BH, "-n", "12", "--players", "4",
                                      "--option", "rounds=1", "--seat", "0=greedy",
                                      "--workers", "1"])
    assert run.exit_code == 0, run.output
    assert "Bargain Hunter: 12 games, 4 players" in run.output
    assert "greedy" in run.output and "Win rate" in run.output
    assert "First player's win rate" in run.output
    run = CliRunner().invoke(_cli(), ["simulate", BH, "-n", "6", "--players", "3",
                                      "--option", "rounds=1", "--json", "--workers", "2"])
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert data["games"] == 6 and data["players"] == 3 and data["workers"] == 2


def test_compare_command_prints_the_verdict() -> None:
    run = CliRunner().invoke(_cli(), ["compare", BH, QUICK, "-n", "20", "--players", "4",
                                      "--workers", "1"])
    assert run.exit_code == 0, run.output
    assert "Games are clearly shorter in entries of phase 'deal'" in \
        " ".join(run.output.split())


@pytest.mark.parametrize("args, message", [
    (["--seat", "7=random"], "seats are 0 to 3"),
    (["--seat", "x=random"], "the seat must be a number"),
    (["--bot", "oracle"], "unknown bot 'oracle'"),
    (["--option", "rounds"], "--option wants KEY=VALUE"),
])
def test_simulate_command_usage_errors(args: list[str], message: str) -> None:
    run = CliRunner().invoke(_cli(), ["simulate", BH, "-n", "2", "--players", "4", *args])
    assert run.exit_code == 2 and message in run.output, run.output


def test_plot_needs_matplotlib_or_writes_a_png(tmp_path: object) -> None:
    out = tmp_path / "plot.png"  # type: ignore[operator]
    run = CliRunner().invoke(_cli(), ["simulate", BH, "-n", "4", "--players", "4",
                                      "--option", "rounds=1", "--workers", "1",
                                      "--plot", str(out)])
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert run.exit_code == 1 and "--plot needs matplotlib" in run.output
    else:
        assert run.exit_code == 0 and out.read_bytes()[:4] == b"\x89PNG"


def test_plot_shows_a_title_with_dollars_as_written(tmp_path: object) -> None:
    """From a hostile review: a title holding ``$...$`` was read by matplotlib as
    mathematics, and ``simulate --plot`` ended in a traceback after all its games. Control
    characters (a form feed, ``\\f`` in the ruleset) are left out, as on a terminal."""
    matplotlib = pytest.importorskip("matplotlib", reason="--plot needs matplotlib")
    rules = tmp_path / "dollars.rules"  # type: ignore[operator]
    rules.write_text(r'''game "Sale $\\frac{1}{$ 50%\f $x^2$"
players 2..2
card c:
    n: 1..4
zone deck: shared, hidden
phase p:
    next end
score: 0
''', encoding="utf-8")
    out = tmp_path / "plot.svg"  # type: ignore[operator]
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # the texts as text, to read
        run = CliRunner().invoke(_cli(), ["simulate", str(rules), "-n", "2", "--workers",
                                          "1", "--plot", str(out)])
    assert run.exit_code == 0, run.output
    shown = out.read_text(encoding="utf-8")
    assert r"Sale $\frac{1}{$ 50% $x^2$: 2 games, 2 players" in shown


def test_holm_correction_keeps_chance_findings_from_being_called_clear() -> None:
    from rulesplay.sim import Line, holm

    def line(key: str, diff: float, half_width: float) -> Line:
        return Line(key, key, 0.0, diff, diff, diff - half_width, diff + half_width, False)

    # 95% interval excludes zero but p ~ 0.03: clear alone, not among 14 measures.
    borderline = line("borderline", 1.0, 0.92)
    strong = line("strong", 5.0, 1.0)  # p far below 0.05 / 14
    noise = [line(f"n{i}", 0.1, 1.0) for i in range(12)]
    lines = [borderline, strong, *noise]
    holm(lines)
    assert borderline.low > 0 and not borderline.clear
    assert strong.clear
    assert not any(n.clear for n in noise)
    alone = [line("alone", 1.0, 0.92)]
    holm(alone)
    assert alone[0].clear


def test_progress_rate_is_games_over_time_since_the_start() -> None:
    """A batch of 25 games arriving at once is not 'hundreds of thousands of games/s': the
    rate is the games finished over the time since the start."""
    from rich.console import Console

    from rulesplay.sim_cli import _progress, _Speed

    clock = [100.0]
    bar = _progress(Console(file=None, force_terminal=False))
    bar.get_time = lambda: clock[0]  # type: ignore[method-assign]
    task_id = bar.add_task("games", total=100)
    clock[0] = 102.0
    bar.update(task_id, completed=1)
    clock[0] = 102.00001
    bar.update(task_id, completed=26)
    task = bar.tasks[0]
    assert _Speed().render(task).plain == f"{26 / 2.00001:.0f} games/s"


def test_a_simulation_keeps_running_totals_not_every_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # (-n 200000000 kept a record of about 630 bytes a game)
    kept = simulate(BH, 16, 3, seed=1, workers=1)
    lean = simulate(BH, 16, 3, seed=1, workers=1, keep_games=False)
    assert lean.games == [] and len(kept.games) == 16

    def same(r: object) -> dict[str, object]:
        s = r.summary()  # type: ignore[attr-defined]
        return {k: v for k, v in s.items() if "second" not in k}
    assert same(lean) == same(kept)
    # the totals give what the records give
    decisions = [g.decisions for g in kept.games]
    assert kept.summary()["decisions"] == {"mean": statistics.fmean(decisions),
                                           "sd": statistics.stdev(decisions)}
    seen: list[bool] = []
    import rulesplay.sim_cli as sim_cli

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(bool(kwargs.get("keep_games")))
        return simulate(*args, **kwargs)  # type: ignore[arg-type]
    monkeypatch.setattr(sim_cli, "run_simulate", spy)
    for extra, keeps in (([], False), (["--json"], True)):  # (--json lists every game)
        result = CliRunner().invoke(_cli(), ["simulate", BH, "-n", "3", "--workers", "1",
                                             *extra])
        assert result.exit_code == 0, result.output
        assert seen[-1] is keeps
