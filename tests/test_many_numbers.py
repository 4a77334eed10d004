"""A choice among more numbers than fit a screen (from a fresh user review: ``p chooses b
from 1..100000`` printed 21,461 lines for ``help``): it is shown as "a number from 1 to
100000" on the menu, in help and in hints, and the player types the number."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

import rulesplay
from rulesplay.cli import main
from rulesplay.human import CardBook, choice_list, parse_choice, render_help
from rulesplay.screens import MANY_NUMBERS, number_ranges, numbers_text, render_choices

RULES = '''game "Big Choice"
players 2
card card "card":
    rank: 2..6
    label: "{{rank}}"
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
player var bid "bid": int = 0

phase deal "Deal":
    shuffle deck
    deal 2 from deck to hand
    for each player p from 0:
        p chooses b from {values} {where}"bid"
        bid[p] = b
    next end

score: bid[player]
'''


def _state(tmp_path: Path, values: str, where: str = "") -> rulesplay.State:
    path = tmp_path / "big.rules"
    path.write_text(RULES.format(values=values, where=where), encoding="utf-8")
    return rulesplay.load(path).new_state(num_players=2, seed=1)


def text_of(items: list) -> str:
    console = Console(file=io.StringIO(), width=80, color_system=None, highlight=False)
    for item in items:
        console.print(item)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_a_huge_range_is_one_line_on_the_menu_and_in_help(tmp_path: Path) -> None:
    state = _state(tmp_path, "1..100000")
    book = CardBook(state.program)
    menu = text_of(render_choices(state, 0, book))
    assert len(menu.splitlines()) <= 3, menu
    assert "Type a number from 1 to 100000." in menu
    help_text = text_of(render_help(state, 0, book))
    assert len(help_text.splitlines()) <= 12, help_text
    assert "You may choose: a number from 1 to 100000." in help_text
    assert "Type the number you choose" in help_text
    actions = choice_list(state, book)
    assert parse_choice("77777", actions, book)[0].value == 77777  # type: ignore[union-attr]
    action, hint = parse_choice("100001", actions, book)
    assert action is None
    assert hint == "'100001' is not one of the choices: type a number from 1 to 100000."


def test_a_range_with_gaps_says_its_ranges_and_a_small_one_is_still_listed(
        tmp_path: Path) -> None:
    state = _state(tmp_path, "0..200", "where b < 50 or b > 150 ")
    book = CardBook(state.program)
    menu = text_of(render_choices(state, 0, book))
    assert "Type a number from 0 to 49 or 151 to 200." in menu and len(menu.splitlines()) <= 3
    small = _state(tmp_path, f"1..{MANY_NUMBERS}")
    listed = text_of(render_choices(small, 0, CardBook(small.program)))
    assert len(listed.splitlines()) > 3 and f" {MANY_NUMBERS} " in f" {listed} "
    assert "Type one of the numbers shown" in listed


def test_the_whole_session_of_a_huge_range_stays_short(tmp_path: Path) -> None:
    path = tmp_path / "big.rules"
    path.write_text(RULES.format(values="1..100000", where=""), encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path), "--seat", "0=human", "--seed", "1",
                                       "--save", str(tmp_path / "s.json")],
                                input="help\n\n0\n12345\n")
    assert result.exit_code == 0, result.output
    assert len(result.output.splitlines()) < 80, result.output[:3000]
    assert "Type a number from 1 to 100000, or 'help'." in result.output  # (empty input)
    assert "'0' is not one of the choices: type a number from 1 to 100000." in result.output
    assert "Seat 0 (you) bids 12345" in result.output


@pytest.mark.parametrize("values, ranges, said", [
    ([5], [(5, 5)], "a number from 5"),
    ([3, 1, 2, 2], [(1, 3)], "a number from 1 to 3"),
    ([0, 1, 2, 5, 7, 8], [(0, 2), (5, 5), (7, 8)], "a number from 0 to 2, 5 or 7 to 8"),
    (list(range(2, 200001, 2)), None,
     "one of 100000 numbers from 2 to 200000 (2, 4, 6, ...)"),
    ([-3, -2, -1, 0], [(-3, 0)], "a number from -3 to 0"),
])
def test_numbers_in_words(values: list[int], ranges: list[tuple[int, int]] | None,
                          said: str) -> None:
    if ranges is not None:
        assert number_ranges(values) == ranges
    assert numbers_text(values, None) == said


def test_numbers_in_japanese() -> None:
    assert numbers_text(range(1, 100001), "ja") == "1から100000までの数"
