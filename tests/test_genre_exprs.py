"""The expressions of issue 11, part E: choices bound in every branch of an ``if``, a skip
offered only when a test holds (stick the dealer), string literals in labels' placeholders,
state-dependent card attributes, named expressions and whole-table queries. Each scenario
runs a small ruleset of ``tests/genre_exprs/`` in both engines."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_differential import play_both

import rulesplay
from rulesplay.engine.game import load
from rulesplay.errors import RulesError

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
    assert "'skip if'/'skip unless' needs 'may choose'" in out
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
