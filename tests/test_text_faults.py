"""A display text whose placeholder fails stops with a located error, wherever it is shown,
and loses nothing (issue 14 item 7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesplay import loads
from rulesplay.cli import main
from rulesplay.errors import RulesRuntimeError

# The prompt reads the top card of the deck, which the deal empties.
RULESET = """game "Prompt"
players 2..2
card card:
    rank: 1..4
zone deck: shared, public
zone hand: per player, owner
phase deal:
    deal 2 from deck to hand
    for each player p:
        p chooses c from hand[p] "play one; next is {top(deck).rank + 1}"
        move c to deck
    end game
score: count(hand[player])
"""
PLACE = ("t.rules", 10, 54)  # the placeholder's expression


def _place(exc: RulesRuntimeError) -> tuple[str, int, int]:
    return exc.span.file, exc.span.line, exc.span.col


def test_the_prompt_of_a_pending_choice_fails_at_its_placeholder() -> None:
    state = loads(RULESET, file="t.rules").new_state(2, seed=1)
    for ask in (state.prompt, lambda: state.seat_prompt(0)):
        with pytest.raises(RulesRuntimeError) as caught:
            ask()
        assert _place(caught.value) == PLACE
        assert "in phase 'deal'" in caught.value.message and "none" in caught.value.message
        assert "{top(deck).rank + 1}" in caught.value.render()  # the line, with a caret


def test_a_recorded_move_with_a_failing_prompt_changes_nothing() -> None:
    state = loads(RULESET, file="t.rules").new_state(2, seed=1, record_events=True)
    before = state.to_json()
    with pytest.raises(RulesRuntimeError) as caught:
        state.apply(state.legal_actions()[0])
    assert _place(caught.value) == PLACE
    assert state.to_json() == before


def test_run_prints_the_located_error_not_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "t.rules"
    path.write_text(RULESET, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path), "--seed", "1"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"t.rules:{PLACE[1]}:{PLACE[2]}: error:" in result.output


def test_a_human_game_whose_ruleset_fails_is_saved_first(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.rules"
    path.write_text(RULESET, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["run", str(path), "--seed", "1", "--seat", "0=human"],
                                input="")
    assert result.exit_code == 1 and "Traceback" not in result.output
    said = " ".join(result.output.split())
    assert "The ruleset failed" in said and "t-1.save.json" in said
    assert (tmp_path / "t-1.save.json").exists()
