"""Abilities that work themselves out from themselves: warned about when validated, a
located error (never a RecursionError) when played (issue 14 item 4)."""

from __future__ import annotations

import pytest

import rulesplay
from rulesplay.errors import RulesError

BASE = """game "Recursion"
players 2..2
ability grow:
    modify power: {modify}
ability tick_again:
    at tick: {at_tick}
card c:
    power: 1..3
    ability: ability
    table:
        1 | grow
        2 | tick_again
zone deck: shared, public
zone hand: per player, owner
rule again:
    trigger tick for deck
phase a:
{opening}
    0 chooses y from deck
    end game
score: 0
"""


def ruleset(modify: str = "1", at_tick: str = 'say "tick"',
            opening: str = "let x = 0") -> str:
    return BASE.format(modify=modify, at_tick=at_tick, opening="    " + opening)


def warnings(text: str) -> list[str]:
    return [w.message for w in rulesplay.loads(text, file="r.rules").checked.warnings]


def test_a_stat_whose_modifier_reads_its_own_bonus_is_warned_about_at_the_read() -> None:
    game = rulesplay.loads(ruleset(modify="bonus(power, deck) + 1"), file="r.rules")
    [w] = game.checked.warnings
    assert "power -> power" in w.message and (w.span.line, w.span.col) == (4, 19)
    assert warnings(ruleset(modify="count(deck) + 1")) == []


def test_a_step_that_triggers_itself_through_a_rule_is_warned_about() -> None:
    [w] = warnings(ruleset(at_tick="do again"))
    assert "'tick' triggers itself" in w


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_a_bonus_that_never_ends_is_a_located_error(engine: str) -> None:
    game = rulesplay.loads(ruleset(modify="bonus(power, deck) + 1",
                                   opening="let x = bonus(power, deck)"),
                           file="r.rules", engine=engine)
    with pytest.raises(RulesError) as caught:
        game.new_state(2)
    assert (caught.value.span.file, caught.value.span.line) == ("r.rules", 18)
    assert "worked out from itself without end" in caught.value.message


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_a_trigger_that_never_ends_meets_the_step_limit_at_a_place(engine: str) -> None:
    game = rulesplay.loads(ruleset(at_tick="trigger tick for deck",
                                   opening="trigger tick for deck"),
                           file="r.rules", engine=engine, limits={"steps": 5000})
    with pytest.raises(RulesError) as caught:
        game.new_state(2)
    assert "step limit reached" in caught.value.message
    # at the trigger that keeps triggering, on both engines
    span = caught.value.span
    assert (span.file, span.line, span.col) == ("r.rules", 6, 14)
