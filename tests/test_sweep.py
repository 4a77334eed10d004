"""``rulesplay sweep`` and :mod:`rulesplay.sweep`: every combination of option values on the
same seeds, as a tidy table; arguments checked before any game with messages that say what
is allowed."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import BARGAIN_HUNTER, load_game

from rulesplay.cli import main
from rulesplay.errors import OptionError
from rulesplay.sim import simulate
from rulesplay.sweep import MAX_COMBINATIONS, MEASURES, parse_grid, run_sweep

PATH = str(BARGAIN_HUNTER)


def _grid(*specs: str, players: int = 3) -> dict[str, list[object]]:
    pairs = [tuple(s.split("=", 1)) for s in specs]
    return parse_grid(load_game(PATH).ruleset.options, pairs, players)  # type: ignore[arg-type]


def test_the_grid_reads_ranges_lists_and_single_values() -> None:
    assert _grid("rounds=2..4", "hand_size=6,8", "offer_lead=no_lead") == {
        "rounds": [2, 3, 4], "hand_size": [6, 8], "offer_lead": ["no_lead"]}


@pytest.mark.parametrize(("spec", "message"), [
    ("round=1..3", "--option round: unknown option (did you mean 'rounds'?); this "
                   "ruleset's options: rounds, trash_minimum, hand_size, offer_lead"),
    ("rounds=0..3", "--option rounds=0..3: option rounds = 0 with 3 players is not allowed; "
                    "allowed: a whole number from 1 to 12"),
    ("rounds=3..2", "the range is empty (3 > 2)"),
    ("rounds=a..b", "a range is two whole numbers"),
    ("rounds=2,2", "a value is given twice"),
    ("rounds=2,", "an empty value in the list"),
    ("offer_lead=1..2", "a range A..B is for a number option"),
    ("offer_lead=first_coloured,sideways", "allowed: one of first_coloured, no_lead"),
])
def test_bad_values_are_refused_saying_what_is_allowed(spec: str, message: str) -> None:
    with pytest.raises(OptionError) as exc:
        _grid(spec)
    assert message in exc.value.message


def test_too_many_combinations_are_refused() -> None:
    with pytest.raises(OptionError, match=f"at most {MAX_COMBINATIONS:,}"):
        _grid("rounds=1..12", "hand_size=1..36", "trash_minimum=1..9")


def test_every_combination_plays_the_same_seeds() -> None:
    grid = {"rounds": [1, 2], "hand_size": [6, 8]}
    sweep = run_sweep(PATH, grid, n=6, players=3, seed=5, workers=1)
    assert [v for v, _ in sweep.runs] == [(1, 6), (1, 8), (2, 6), (2, 8)]
    for values, r in sweep.runs:
        alone = simulate(PATH, 6, 3, dict(zip(grid, values, strict=True)), seed=5, workers=1)
        assert [g.seed for g in r.games] == [g.seed for g in alone.games]
        assert [(g.scores, g.winners) for g in r.games] == \
            [(g.scores, g.winners) for g in alone.games]
    rows = sweep.rows()
    per_combination = 2 * 3 + len(MEASURES) - 2  # win rate and score per seat
    assert len(rows) == 4 * per_combination
    assert {r["measure"] for r in rows} == set(MEASURES)
    r0 = sweep.runs[0][1]
    first = [r for r in rows if (r["rounds"], r["hand_size"]) == (1, 6)]
    assert [r["value"] for r in first if r["measure"] == "win_rate"] == \
        [r0.win_rate(p)[0] for p in range(3)]
    assert next(r for r in first if r["measure"] == "decisions")["value"] == \
        pytest.approx(sum(g.decisions for g in r0.games) / 6)
    # the same table with two workers
    assert run_sweep(PATH, grid, n=6, players=3, seed=5, workers=2).rows() == rows


def test_the_command_writes_a_tidy_table(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    res = CliRunner().invoke(main, ["sweep", PATH, "--option", "rounds=1,2", "--option",
                                    "hand_size=6", "-n", "4", "--workers", "1",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    with out.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == ["rounds", "hand_size", "measure", "seat", "value", "low",
                             "high", "sd", "games"]
    assert {r["rounds"] for r in rows} == {"1", "2"} and {r["games"] for r in rows} == {"4"}
    res = CliRunner().invoke(main, ["sweep", PATH, "--option", "rounds=1,2", "-n", "4",
                                    "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert len(data) == 2 * len([r for r in rows if r["rounds"] == "1"])
    assert data[0]["measure"] == "win_rate" and data[0]["seat"] == 0


@pytest.mark.parametrize(("args", "message"), [
    (["--option", "round=1..2"], "unknown option (did you mean 'rounds'?)"),
    ([], "give the options to sweep"),
    (["--option", "rounds=1,2", "--out", "t.txt"], "the file must end in .csv or .json"),
    (["--option", "rounds=1,2", "--players", "9"], "is for 3 to 4 players, not 9"),
])
def test_the_command_refuses_bad_arguments_before_playing(args: list[str],
                                                          message: str) -> None:
    res = CliRunner().invoke(main, ["sweep", PATH, "-n", "2", *args])
    assert res.exit_code == 2 and message in res.output, res.output


def test_the_plot_has_a_chart_per_measure(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason="--plot needs matplotlib (the 'plot' extra)")
    png = tmp_path / "s.png"
    res = CliRunner().invoke(main, ["sweep", PATH, "--option", "rounds=1,2", "-n", "3",
                                    "--workers", "1", "--plot", str(png)])
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_out_file_in_a_missing_folder_is_refused_before_any_game(tmp_path: Path) -> None:
    # A sweep of many games must not play them all and then fail to write (review, issue 16).
    out = tmp_path / "missing" / "t.csv"
    res = CliRunner().invoke(main, ["sweep", PATH, "--option", "rounds=1,2", "-n", "2000",
                                    "--out", str(out)])
    assert res.exit_code == 2 and "does not exist" in res.output
    assert "Traceback" not in res.output and not out.parent.exists()


@pytest.mark.parametrize(("options", "columns", "players", "apart"), [
    (["rounds=1..2"], 80, 3, True), (["rounds=1..2", "hand_size=6..7"], 80, 4, False),
    (["rounds=1..2", "hand_size=6..7"], 120, 4, True)])
def test_the_summary_gives_each_seat_a_column_when_the_table_fits(
        options: list[str], columns: int, players: int, apart: bool) -> None:
    """The seats' win rates stacked in one cell read as one number; a column each when the
    table fits the terminal, and the options' names are never cut short."""
    args = ["sweep", PATH, "-n", "2", "--workers", "1", "--players", str(players)]
    for o in options:
        args += ["--option", o]
    out = CliRunner().invoke(main, args, env={"COLUMNS": str(columns)}).output
    lines = out.splitlines()
    assert all(len(line) <= columns for line in lines), out
    head = " ".join(lines[1:5])
    assert ("Seat 2" in head) is apart and ("Seats 0," in head) is not apart, out
    assert all(o.split("=")[0] in head for o in options), out
