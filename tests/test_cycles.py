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


def _chain(kind: str, n: int) -> str:
    """A ruleset whose rules (``do``), steps (``trigger``) or stats (``bonus``) call the next
    one, ``n`` links, with no cycle."""
    head = 'game "Chain"\nplayers 2..2\n'
    tail = ("card c:\n    power: 1..2\n    ability: ability\n    table:\n        1 | a0\n"
            "zone deck: shared, public\nzone pile: shared, public\n")
    if kind == "do":
        rules = "".join(f"rule r{i}:\n    do r{i + 1}\n" for i in range(n)) + \
            f'rule r{n}:\n    say "end"\n'
        return head + "ability a0:\n    modify s: 0\n" + tail + rules + \
            "phase a:\n    do r0\n    0 chooses y from deck\n    end game\nscore: 0\n"
    if kind == "trigger":
        abilities = "".join(f"ability a{i}:\n    at t{i}: trigger t{i + 1} for pile\n"
                            for i in range(n)) + f'ability a{n}:\n    at t{n}: say "end"\n'
    else:
        abilities = "".join(f"ability a{i}:\n    modify s{i}: bonus(s{i + 1}, pile) + 1\n"
                            for i in range(n)) + f"ability a{n}:\n    modify s{n}: 1\n"
    return head + abilities + tail + \
        "phase a:\n    0 chooses y from deck\n    end game\nscore: 0\n"


@pytest.mark.parametrize("kind", ["do", "trigger", "bonus"])
def test_a_chain_of_calls_too_deep_to_follow_is_refused_at_its_first_link(kind: str) -> None:
    rulesplay.loads(_chain(kind, 50), file="r.rules")  # 50 links: a game may have them
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(_chain(kind, 400), file="r.rules")  # (Python's recursion: ~150)
    [d] = caught.value.diagnostics
    assert "in a chain 400 deep" in d.message and "at most 50 deep" in d.message
    assert d.span.file == "r.rules" and d.span.line > 0
