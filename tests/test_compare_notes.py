"""What a ``compare`` verdict says besides its findings (from a fresh user review): two
unrelated rulesets are called two different games, a team is measured once (its seats'
identical scores are not counted as separate measures by Holm's correction), and too few
games are said to be too few, with the smallest difference they could show."""

from __future__ import annotations

import math
import random
import statistics
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesplay.compose import load_ruleset
from rulesplay.sim import Comparison, GameRecord, Line, Result, _compared, holm
from rulesplay.sim_notes import (
    REVERSED,
    SAME,
    SIBLINGS,
    UNRELATED,
    VARIANT,
    kinship,
    power_note,
    smallest_clear,
)

GAME = '''game "{title}"
players 2..4
card c "card":
    n: 1..6
zone deck "deck": shared, hidden
phase p "P":
    next end
score: 0
'''


def _files(path: Path) -> list[str]:
    return list(load_ruleset(str(path))[1].sources)


# ------------------------------------------------------------ kinship
def test_kinship_tells_a_variant_from_another_game(tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text(GAME.format(title="Base"))
    (tmp_path / "other.rules").write_text(GAME.format(title="Other"))
    (tmp_path / "house.rules").write_text('extends "base.rules"\ngame "House"\n')
    (tmp_path / "more.rules").write_text('extends "house.rules"\ngame "More"\n')
    (tmp_path / "quick.rules").write_text('extends "base.rules"\ngame "Quick"\n')
    base, other, house, more, quick = (_files(tmp_path / f"{name}.rules") for name in
                                       ("base", "other", "house", "more", "quick"))
    assert kinship(base, house).relation == VARIANT
    assert kinship(base, more).relation == VARIANT  # through another variant
    assert kinship(house, base).relation == REVERSED
    assert kinship(base, base).relation == SAME
    assert kinship(base, other).relation == UNRELATED
    sib = kinship(house, quick)
    assert sib.relation == SIBLINGS and sib.common == "base.rules"


def _result(title: str, path: str, scores: list[list[int]], winners: list[list[int]],
            teams: list[list[int]] | None = None, names: list[str] | None = None) -> Result:
    players = len(scores[0])
    games = [GameRecord(i, i, s, w, 10 + i % 3, 0, 1, 0, 0.001)
             for i, (s, w) in enumerate(zip(scores, winners, strict=True))]
    return Result(path=path, title=title, players=players, options={},
                  bots=dict.fromkeys(range(players), "random"), seed=0, workers=1,
                  wall=1.0, games=games, teams=teams or [], team_names=names or [])


def _random_games(n: int, players: int, seed: int) -> tuple[list[list[int]], list[list[int]]]:
    rng = random.Random(seed)
    scores = [[rng.randint(0, 20) for _ in range(players)] for _ in range(n)]
    return scores, [[max(range(players), key=lambda p: (s[p], -p))] for s in scores]


def test_the_verdict_says_first_that_another_game_is_not_a_variant() -> None:
    a = _result("Alpha", "alpha.rules", *_random_games(400, 3, 1))
    b = _result("Beta", "beta.rules", *_random_games(400, 3, 2))
    c = _compared(a, b)  # (a variant unless told otherwise: no note)
    assert not any(s.startswith("Note:") for s in c.verdict())
    c.kin = kinship(["/x/alpha.rules"], ["/x/beta.rules"])
    said = c.verdict()
    assert said[0].startswith("Note: Beta (beta.rules) is not a variant of Alpha "
                              "(alpha.rules): it does not extend it")
    assert "two different games" in said[0]
    assert c.to_dict()["relation"] == UNRELATED


def test_compare_of_two_files_names_their_relation(tmp_path: Path) -> None:
    from rulesplay.sim import compare

    (tmp_path / "base.rules").write_text(GAME.format(title="Base"))
    (tmp_path / "other.rules").write_text(GAME.format(title="Other"))
    (tmp_path / "house.rules").write_text('extends "base.rules"\ngame "House"\n')
    base, other, house = (str(tmp_path / f"{n}.rules") for n in ("base", "other", "house"))
    assert compare(base, house, 2, 2, workers=1).kin.relation == VARIANT
    unrelated = compare(base, other, 2, 2, workers=1)
    assert unrelated.kin.relation == UNRELATED
    assert "is not a variant of" in unrelated.verdict()[0]


# ------------------------------------------------------------ teams
def test_a_team_is_one_measure_not_one_per_seat() -> None:
    """Seats 0 and 2, 1 and 3 are partners and score alike: one win line and one score
    line per team, and Holm's correction counts those (not the seats' copies)."""
    rng = random.Random(5)
    scores, winners = [], []
    for _ in range(60):
        ns, ew = rng.randint(0, 10), rng.randint(0, 10)
        scores.append([ns, ew, ns, ew])
        winners.append([0, 2] if ns >= ew else [1, 3])
    teams, names = [[0, 2], [1, 3]], ["North-South", "East-West"]
    a = _result("T", "t.rules", scores, winners, teams, names)
    b = _result("T2", "t2.rules", scores[::-1], winners[::-1], teams, names)
    c = _compared(a, b)
    keys = [line.key for line in c.lines]
    assert [k for k in keys if k.startswith(("win:", "score:"))] == []
    assert keys.count("team:0") == keys.count("tscore:0") == 1
    assert {"team:1", "tscore:1"} <= set(keys)
    assert f"for the {len(c.lines)} measures compared" in c.verdict()[-1]
    assert len(c.lines) == 2 + 1 + 2 + 3 + 1  # teams' wins, first, teams' scores, 3, ties
    ns = next(line for line in c.lines if line.key == "tscore:0")
    assert ns.label == "team North-South mean score"
    assert ns.base == statistics.fmean(s[0] for s in scores)


def test_a_clear_team_score_is_said_in_plain_words() -> None:
    teams, names = [[0, 2], [1, 3]], ["North-South", "East-West"]
    low = [[1, 5, 1, 5]] * 30 + [[2, 5, 2, 5]] * 30
    high = [[8, 5, 8, 5]] * 30 + [[9, 5, 9, 5]] * 30
    win_ew, win_ns = [[1, 3]] * 60, [[0, 2]] * 60
    c = _compared(_result("T", "t", low, win_ew, teams, names),
                  _result("T", "v", high, win_ns, teams, names))
    assert "Team North-South scores clearly higher: 8.50 vs 1.50 on average" \
        in " ".join(c.verdict())


# ------------------------------------------------------------ low power
def _line(key: str, diff: float, se: float, percent: bool = True) -> Line:
    half = 1.959963984540054 * se
    return Line(key, key, 0.0, diff, diff, diff - half, diff + half, percent)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=20), st.floats(min_value=0.005, max_value=0.3))
def test_the_smallest_clear_difference_is_the_bar_holm_sets(m: int, se: float) -> None:
    """A difference a hair above the threshold is called clear by Holm's correction (the
    other measures showing nothing), one a hair below is not: the note's number is the
    bar the verdict applies, not a rule of thumb."""
    others = [_line(f"score:{i}", 0.0, 1.0, False) for i in range(m - 1)]
    bar = smallest_clear([_line("win:0", 0.0, se), *others]).win
    assert bar is not None
    assert math.isclose(bar, statistics.NormalDist().inv_cdf(1 - 0.05 / (2 * m)) * se,
                        rel_tol=1e-9)
    for factor, clear in ((1.001, True), (0.999, False)):
        lines = [_line("win:0", bar * factor, se), *[_line(o.key, 0.0, 1.0, False)
                                                      for o in others]]
        holm(lines)
        assert lines[0].clear is clear


def test_the_smallest_win_rate_and_score_bars_are_the_least_over_their_lines() -> None:
    lines = [_line("win:0", 0.0, 0.2), _line("team:1", 0.0, 0.1), _line("first", 0.0, 0.3),
             _line("score:0", 0.0, 5.0, False), _line("tscore:1", 0.0, 3.0, False),
             _line("decisions", 0.0, 0.01, False), _line("ties", 0.0, 0.0)]
    bar = smallest_clear(lines)
    z = statistics.NormalDist().inv_cdf(1 - 0.05 / (2 * len(lines)))
    assert bar.win is not None and math.isclose(bar.win, z * 0.1)
    assert bar.score is not None and math.isclose(bar.score, z * 3.0)
    assert smallest_clear([_line("decisions", 0.0, 1.0, False)]).win is None


def test_a_small_comparison_says_how_small_a_difference_it_could_show() -> None:
    # (games that differ: the same games on both sides are said to be the same instead)
    few = _compared(_result("A", "a", *_random_games(10, 4, 1)),
                    _result("A", "a", *_random_games(10, 4, 2)))
    said = few.verdict()
    assert said[0] == ("No clear difference: over 10 games each, no measure differs "
                       "clearly, which does not show that the variant changes nothing.")
    bar = smallest_clear(few.lines)
    assert bar.win is not None and bar.win > 0.3
    assert said[1].startswith("Too few games to rule a difference out: 10 games each "
                              f"cannot show a win-rate change smaller than about "
                              f"{bar.win * 100:.0f} points, nor a mean score change "
                              "smaller than about")
    assert said[1].endswith("run more (-n 40 halves these).")
    # Four times the games: every bar about halves (standard errors go as 1/sqrt(n)).
    many = _compared(_result("A", "a", *_random_games(4000, 4, 1)),
                     _result("A", "a", *_random_games(4000, 4, 2)))
    big = smallest_clear(many.lines)
    assert big.win is not None and big.win * 100 < 10
    assert power_note(many.lines, 4000) is None
    assert many.verdict()[0].startswith("No clear difference: over 4,000 games each, the "
                                        "variant does not measurably change")


@pytest.mark.parametrize("n", [40, 160, 640])
def test_the_win_rate_bar_shrinks_as_one_over_the_root_of_the_games(n: int) -> None:
    def bar(k: int) -> float:
        c: Comparison = _compared(_result("A", "a", *_random_games(k, 2, 7)),
                                  _result("A", "a", *_random_games(k, 2, 8)))
        value = smallest_clear(c.lines).win
        assert value is not None
        return value
    assert 0.35 < bar(4 * n) / bar(n) < 0.65
