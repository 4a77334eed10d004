"""Faults a fresh user found in ``simulate`` and ``compare`` (second review): games that
came out the same on every seed, the bots not named, a bad option not said to be the
command line's fault (nor which ruleset refused it), a changed score rule not warned about,
count nouns ("1 games"), missing short options, an empty column."""

from __future__ import annotations

import json
import math
import random
import re
from fractions import Fraction
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import BARGAIN_HUNTER, RULESETS

from rulesplay.sim import _t95 as t95
from rulesplay.sim import compare, newcombe, newcombe_paired, paired_t, wilson
from rulesplay.sim_cli import compare as compare_cmd
from rulesplay.sim_cli import simulate as simulate_cmd
from rulesplay.sim_notes import counted, power_note
from rulesplay.sim_totals import Paired
from rulesplay.spaces_cli import spaces as spaces_cmd

BH = str(BARGAIN_HUNTER)
QUICK = str(RULESETS / "variants" / "bargain_hunter_quick.rules")
CARD_HUNT = str(RULESETS / "card_hunt.rules")


def _cli() -> click.Group:
    group = click.Group()
    for cmd in (simulate_cmd, compare_cmd, spaces_cmd):
        group.add_command(cmd)
    return group


def _said(run: object) -> str:
    return " ".join(run.output.split())  # type: ignore[attr-defined]


# ------------------------------------------------------------ bots (fault 2)
def test_compare_names_the_bots_of_every_seat() -> None:
    run = CliRunner().invoke(_cli(), ["compare", BH, QUICK, "-n", "2", "-p", "3", "-o",
                                      "rounds=1", "--bot", "greedy", "--seat", "1=random",
                                      "--workers", "1"])
    assert run.exit_code == 0, run.output
    assert "bots: greedy (seats 0, 2), random (seat 1)" in _said(run)
    run = CliRunner().invoke(_cli(), ["compare", BH, QUICK, "-n", "2", "-p", "3", "-o",
                                      "rounds=1", "--workers", "1", "--json"])
    assert run.exit_code == 0, run.output
    assert json.loads(run.output)["bots"] == ["random", "random", "random"]


# ------------------------------------------------------------ bad options (faults 3, 8)
def test_compare_names_the_ruleset_that_refuses_an_option_and_exits_2() -> None:
    run = CliRunner().invoke(_cli(), ["compare", BH, CARD_HUNT, "-n", "2", "--option",
                                      "rounds=2", "--workers", "1"])
    assert run.exit_code == 2, run.output
    assert "the variant card_hunt: unknown option 'rounds'" in run.output
    run = CliRunner().invoke(_cli(), ["compare", CARD_HUNT, BH, "-n", "2", "--option",
                                      "rounds=2", "--workers", "1"])
    assert run.exit_code == 2 and "the base card_hunt: unknown option" in run.output


@pytest.mark.parametrize("command", ["simulate", "spaces"])
def test_a_bad_option_value_is_a_usage_error_without_a_file_location(command: str) -> None:
    """As ``run`` says it: the value given on the command line is wrong, not the file."""
    args = [command, BH, "--option", "rounds=77"] + (["-n", "2"] if command != "spaces"
                                                     else [])
    run = CliRunner().invoke(_cli(), args)
    assert run.exit_code == 2, run.output
    assert "option rounds = 77 is not allowed; allowed: a whole number from 1 to 12" \
        in run.output
    assert ".rules:" not in run.output


# ------------------------------------------------------------ short options (fault 6)
@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_simulate_and_compare_take_runs_short_options(command: str) -> None:
    files = [BH] if command == "simulate" else [BH, QUICK]
    run = CliRunner().invoke(_cli(), [command, *files, "-n", "2", "-p", "3", "-s", "5",
                                      "-o", "rounds=1", "--workers", "1", "--json"])
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    head = data if command == "simulate" else data["base"]
    assert (head["players"], head["seed"], head["options"]) == (3, 5, {"rounds": "1"})


# ------------------------------------------------------------ count nouns (fault 5)
def test_count_nouns_agree_with_their_number() -> None:
    assert counted(1, "game") == "1 game" and counted(2, "game") == "2 games"
    assert counted(0, "player") == "0 players"


def test_one_game_each_is_said_in_good_grammar_without_a_bar_above_100_points() -> None:
    run = CliRunner().invoke(_cli(), ["compare", BH, QUICK, "-n", "1", "-o", "rounds=1",
                                      "--workers", "1"])
    assert run.exit_code == 0, run.output
    said = _said(run)
    assert "1 games" not in said and "1 game each" in said and "Too few games" in said
    assert _points(said) and not any(int(n) > 100 for n in _points(said))


def _points(text: str) -> list[str]:
    return re.findall(r"about (\d+) points", text)


def test_the_power_note_caps_a_bar_of_more_than_100_points() -> None:
    from rulesplay.sim import Line
    wide = [Line("win:0", "w", 0.0, 0.0, 0.0, -1.2, 1.2, True)]  # (bar: 120 points)
    note = power_note(wide, 1)
    assert note is not None and note.startswith("Too few games to say anything about win "
                                                "rates") and "1 game each" in note


# ------------------------------------------------------------ empty column (fault 7)
def test_the_clear_column_is_shown_only_when_a_measure_is_clear() -> None:
    from rulesplay.sim_cli import comparison_table
    quiet = comparison_table(compare(BH, BH, 3, 3, {"rounds": 1}, seed=1, workers=1))
    assert [c.header for c in quiet.columns][-1] == "95% CI"
    loud = comparison_table(compare(BH, QUICK, 12, 3, seed=1, workers=1))
    assert len(loud.columns) == 6


# ------------------------------------------------------------ same games (fault 1)
def _variant(tmp_path: Path, body: str) -> tuple[str, str]:
    """A copy of the base and a variant of it that says ``body`` after its title."""
    (tmp_path / "base.rules").write_text(Path(BH).read_text())
    path = tmp_path / "house.rules"
    path.write_text(f'extends "base.rules"\ngame "Bargain Hunter (house)"\n{body}')
    return str(tmp_path / "base.rules"), str(path)


@pytest.mark.parametrize("same", [True, False])
def test_a_variant_that_plays_the_same_games_is_said_to(tmp_path: Path, same: bool) -> None:
    """The same file twice, or a variant that changes only the title (as ``rulesplay new
    --from`` makes one)."""
    base, variant = (BH, BH) if same else _variant(tmp_path, "")
    run = CliRunner().invoke(_cli(), ["compare", base, variant, "-n", "6", "-o", "rounds=1",
                                      "--workers", "1"])
    assert run.exit_code == 0, run.output
    said = _said(run)
    assert "The variant played exactly the same games as the base on these 6 seeds" in said
    assert "Too few games" not in said and "No clear difference" not in said
    assert said.startswith("Bargain Hunter") and "Note:" not in said
    run = CliRunner().invoke(_cli(), ["compare", base, variant, "-n", "3", "-o", "rounds=1",
                                      "--workers", "1", "--json"])
    assert json.loads(run.output)["identical"] is True


def test_games_that_differ_are_not_called_the_same() -> None:
    c = compare(BH, QUICK, 6, 3, {"rounds": 1}, seed=4, workers=1)
    assert not c.identical
    assert not c.verdict()[0].startswith("The variant played exactly the same games")


# ------------------------------------------------------------ paired statistics (fault 1)
def _paired(xs: list[float], ys: list[float]) -> Paired:
    pairs = Paired()
    for x, y in zip(xs, ys, strict=True):
        pairs.add(Fraction(x), Fraction(y))
    return pairs


def test_newcombe_paired_is_the_unpaired_interval_without_correlation() -> None:
    """phi = 0 (AD - BC within n/2 of zero) leaves Newcombe's hybrid score interval."""
    xs = [1, 1, 0, 0] * 10  # table A=10, B=10, C=10, D=10: AD - BC = 0
    ys = [1, 0, 1, 0] * 10
    assert newcombe_paired(_paired(xs, ys)) == pytest.approx(newcombe(20, 40, 20, 40))


def test_newcombe_paired_matches_the_2x2_formula() -> None:
    """Newcombe's method 10 from the 2x2 table (A both, B base only, C variant only, D
    neither), written out as in his paper, for the base - variant difference."""
    a, b, c, d = 12, 9, 2, 21
    n = a + b + c + d
    xs = [1] * (a + b) + [0] * (c + d)
    ys = [1] * a + [0] * b + [1] * c + [0] * d
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n)
    l2, u2 = wilson(a + c, n)
    phi = max(a * d - b * c - n / 2, 0) / math.sqrt((a + b) * (c + d) * (a + c) * (b + d))
    low = (p1 - p2) - math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2)
                                + (u2 - p2) ** 2)
    high = (p1 - p2) + math.sqrt((p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1)
                                 + (u1 - p1) ** 2)
    diff, lo, hi = newcombe_paired(_paired(xs, ys))  # variant - base: the opposite
    assert diff == pytest.approx(p2 - p1) and (lo, hi) == pytest.approx((-high, -low))


def test_paired_intervals_cover_the_true_difference() -> None:
    """Pairs sharing most of their outcome (as two games of one seed do): the paired
    intervals hold the true difference about 95% of the time, and are narrower than the
    unpaired ones, which ignore what the pairs share."""
    rng = random.Random(11)
    n, runs, held_p, held_m, narrower = 60, 600, 0, 0, 0
    for _ in range(runs):
        xs, ys, sx, sy = [], [], [], []
        for _ in range(n):
            u = rng.random()
            xs.append(int(u < 0.30))
            ys.append(int(u < 0.40 if rng.random() < 0.8 else rng.random() < 0.40))
            common = rng.gauss(0, 3)
            sx.append(round(common + rng.gauss(0, 1)))
            sy.append(round(common + 0.5 + rng.gauss(0, 1)))
        _, lo, hi = newcombe_paired(_paired(xs, ys))
        held_p += lo <= 0.10 <= hi
        narrower += hi - lo < newcombe(sum(xs), n, sum(ys), n)[2] - \
            newcombe(sum(xs), n, sum(ys), n)[1]
        _, lo, hi = paired_t(_paired(sx, sy))
        held_m += lo <= 0.5 <= hi
    assert held_p / runs > 0.92 and held_m / runs > 0.92
    assert narrower / runs > 0.9


def test_one_pair_gives_a_mean_no_interval_and_no_clear_difference() -> None:
    d, lo, hi = paired_t(_paired([3], [7]))
    assert d == 4 and (lo, hi) == (-math.inf, math.inf)
    c = compare(BH, QUICK, 1, 3, seed=1, workers=1)
    assert not any(line.clear for line in c.lines if not line.percent)
    assert all(x is None or math.isfinite(x) for row in c.to_dict()["differences"]
               for x in (row["low"], row["high"]))


def test_t_quantiles_for_few_degrees_of_freedom() -> None:
    assert [round(t95(df), 2) for df in (1, 2, 3, 4)] == [12.71, 4.3, 3.18, 2.78]


def test_paired_lines_do_not_depend_on_the_workers() -> None:
    one = compare(BH, QUICK, 8, 3, {"rounds": 1}, seed=5, workers=1)
    two = compare(BH, QUICK, 8, 3, {"rounds": 1}, seed=5, workers=2)
    assert [(x.low, x.high) for x in one.lines] == [(x.low, x.high) for x in two.lines]


# ------------------------------------------------------------ another score rule (fault 4)
@pytest.mark.parametrize("body, said, changes", [
    ("score: 2 * count(bargain[player])\n", "computes scores by another rule",
     ["score: count(bargain[player]) - count(junk[player]) -> 2 * count(bargain[player])"]),
    ("tiebreak: count(junk[player])\n", "decides the winners by other rules",
     ["tiebreak: -count(junk[player]) -> count(junk[player])"]),
])
def test_a_changed_score_or_winners_rule_is_noted(tmp_path: Path, body: str, said: str,
                                                  changes: list[str]) -> None:
    base, variant = _variant(tmp_path, body)
    c = compare(base, variant, 4, 3, {"rounds": 1}, seed=2, workers=1)
    assert c.ranking == changes
    notes = [s for s in c.verdict() if s.startswith("Note:")]
    assert len(notes) == 1 and said in notes[0] and changes[0] in notes[0]
    assert c.to_dict()["ranking_changes"] == changes


def test_the_same_score_rule_gets_no_note(tmp_path: Path) -> None:
    base, variant = _variant(tmp_path, "option rounds = 2\n")
    c = compare(base, variant, 3, 3, seed=2, workers=1)
    assert c.ranking == [] and not any(s.startswith("Note:") for s in c.verdict())


def test_one_core_is_said_in_the_singular(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 1)
    run = CliRunner().invoke(_cli(), ["simulate", BH, "-n", "2", "--workers", "2"])
    assert run.exit_code == 2 and "this machine's 1 core (at most 1" in run.output


def test_compare_names_the_variant_when_it_refuses_the_player_count(tmp_path: Path) -> None:
    base, _ = _variant(tmp_path, "")
    narrow = tmp_path / "narrow.rules"
    narrow.write_text('extends "base.rules"\ngame "Narrow"\nplayers 4\n')
    run = CliRunner().invoke(_cli(), ["compare", base, str(narrow), "-n", "1", "-p", "3"])
    assert run.exit_code == 2, run.output
    assert "--players: Narrow (the variant, narrow) is for" in run.output


def test_a_difference_the_same_in_a_few_pairs_is_not_a_certainty() -> None:
    """Two seeds whose games differ by the same amount give a paired interval of no width;
    it is called clear only when the sign test agrees (not after two games, after forty)."""
    from rulesplay.sim import Line, holm
    few = [Line("rounds", "r", 4.0, 2.0, -2.0, -2.0, -2.0, False, pairs=2)]
    many = [Line("rounds", "r", 4.0, 2.0, -2.0, -2.0, -2.0, False, pairs=40)]
    holm(few)
    holm(many)
    assert few[0].p_value == 0.5 and not few[0].clear
    assert many[0].clear
    c = compare(BH, QUICK, 2, 3, seed=1, workers=1)
    rounds = next(line for line in c.lines if line.key == "rounds")
    assert rounds.low == rounds.high == -4 and not rounds.clear  # (6 rounds: 3 players)
