"""Whole numbers have a range: a value stored outside -MAX_INT..MAX_INT stops the game with
a located error, so no number grows without end (issue 14 item 1)."""

from __future__ import annotations

import pytest

import rulesplay
from rulesplay.errors import RulesError
from rulesplay.limits import MAX_INT, out_of_range

GAME = """game "Big"
players 2..2
card c:
    copies: 2
zone deck: shared, public
var v: int = 2
player var w: int = 3
phase a:
    {statement}
    0 chooses x from deck
    end game
score: {score}
"""


def _fail(statement: str, score: str = "0", engine: str = "compiled") -> RulesError:
    game = rulesplay.loads(GAME.format(statement=statement, score=score), file="b.rules",
                           engine=engine)
    with pytest.raises(RulesError) as caught:
        s = game.new_state(2)
        s.apply(s.legal_actions()[0])
        s.scores()
    return caught.value


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
@pytest.mark.parametrize("statement", [
    "repeat 40 times:\n        v = v * v",  # hung for ever, or ran out of memory
    "repeat 70 times:\n        v += v",
    "repeat 70 times:\n        w[0] = w[0] * 2",
    "repeat 70 times:\n        let u = v * v\n        v = u",
])
def test_a_number_that_leaves_the_range_stops_at_its_statement(statement: str,
                                                               engine: str) -> None:
    exc = _fail(statement, engine=engine)
    assert "is out of range: numbers run from" in exc.message
    assert exc.span.file == "b.rules" and exc.span.line in (10, 11)


def test_a_score_out_of_range_is_a_located_error_not_an_overflow() -> None:
    exc = _fail("v = 999999999999999999", score="v * v * v")
    assert "out of range" in exc.message and exc.span.line == 12


def test_numbers_in_range_are_untouched() -> None:
    game = rulesplay.loads(GAME.format(statement=f"v = {MAX_INT} - 1 + 1", score="v"))
    s = game.new_state(2)
    s.apply(s.legal_actions()[0])
    assert s.scores() == [MAX_INT, MAX_INT]


def test_a_huge_number_is_told_by_its_digits() -> None:
    assert out_of_range(10**20).startswith("100000000000000000000 is out of range")
    assert out_of_range(7**50000).startswith("a number of about 42,")


def test_a_card_attribute_out_of_range_is_refused_when_the_cards_are_made() -> None:
    # chained squares took minutes (numbers of millions of digits) and then broke every
    # printer of the score
    text = GAME.format(statement="v = 1", score="0").replace(
        "card c:\n    copies: 2",
        "card c:\n    copies: 2\n    a = 999999999999999999\n    b = a * a\n    c = b * b")
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(text, file="b.rules").new_state(2)
    assert "out of range" in caught.value.message and caught.value.span.line == 6


def test_a_number_taken_from_a_list_is_checked_when_stored() -> None:
    # the list itself holds anything; what is stored from it is checked
    exc = _fail("repeat 70 times:\n        let t = values(1..2, it + v + v)\n"
                "        v = max(t)")  # (a sum: a product is checked where it is made)
    assert "out of range" in exc.message and exc.span.line == 11


def test_a_cards_label_may_not_read_the_game_and_fails_at_its_place() -> None:
    base = GAME.format(statement="v = 1", score="0")
    reads = base.replace("    copies: 2", '    copies: 2\n    label: "{top(deck)} {v}"')
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(reads)
    messages = [d.message for d in caught.value.diagnostics]
    assert any("not the zone 'deck'" in m for m in messages)
    assert any("not the variable 'v'" in m for m in messages)
    zero = base.replace("    copies: 2", '    copies: 2\n    label: "{100 / 0}"')
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(zero, file="b.rules").new_state(2)
    assert "division by zero" in caught.value.message and caught.value.span.line == 5


def test_a_number_bound_by_a_loop_over_a_list_is_checked_when_stored() -> None:
    exc = _fail("repeat 70 times:\n        for each x in values(1..2, it + v + v):\n"
                "            v = x")
    assert "out of range" in exc.message and exc.span.line == 11  # at "v = x"


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_a_number_shown_in_a_text_is_checked_like_one_stored(engine: str) -> None:
    # (a huge one printed Python's 'Exceeds the limit (4300 digits) ...'; products are now
    # checked as they are made, so a sum goes out of range here)
    game = rulesplay.loads(GAME.format(statement='say "now {v + ' + " + ".join(
        ["999999999999999999"] * 50) + '}"', score="0"), file="b.rules", engine=engine)
    with pytest.raises(RulesError) as caught:
        game.new_state(2, record_events=True)
    assert "is out of range: numbers run from" in caught.value.message
    assert (caught.value.span.file, caught.value.span.line) == ("b.rules", 9)


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_a_product_is_checked_as_it_is_made_inside_an_expression(engine: str) -> None:
    # ((v*v)*(v*v))... inside one expression made numbers of 500,000 digits (0.1 s a step)
    tree = "v"
    for _ in range(12):
        tree = f"({tree} * {tree})"
    exc = _fail(f"w[0] = {tree} % 7", engine=engine)
    assert "is out of range: numbers run from" in exc.message and exc.span.line == 9
