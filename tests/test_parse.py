"""Parsing: golden IR of Bargain Hunter, JSON round trips of every ruleset, spans.

``tests/golden/parse/bargain_hunter.json`` is ``Ruleset.model_dump_json(indent=1)`` (spans
included) of ``rulesets/bargain_hunter.rules``. Regenerate with
``UPDATE_GOLDEN=1 pytest tests/test_parse.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulesplay import ir, show
from rulesplay.errors import RulesSyntaxError, RulesValidationError, Span
from rulesplay.parse import parse_text
from rulesplay.templates import parse_expr, parse_template
from rulesplay.validate import check

ROOT = Path(__file__).resolve().parent.parent
HUNTER = "rulesets/bargain_hunter.rules"
GOLDEN = ROOT / "tests/golden/parse/bargain_hunter.json"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
RULESETS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("*.rules"))


def parse_file(rel: str) -> ir.Ruleset:
    """Parse a file of the project, with spans naming it by its path from the root."""
    return parse_text((ROOT / rel).read_text(encoding="utf-8"), rel)


def test_bargain_hunter_parses_to_the_golden_ir() -> None:
    dump = parse_file(HUNTER).model_dump_json(indent=1) + "\n"
    if UPDATE:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(dump, encoding="utf-8")
    assert GOLDEN.exists(), f"no golden file {GOLDEN}; run with UPDATE_GOLDEN=1"
    assert dump == GOLDEN.read_text(encoding="utf-8")


def test_golden_ir_reads_back_equal() -> None:
    assert ir.Ruleset.model_validate_json(GOLDEN.read_text(encoding="utf-8")) == \
        parse_file(HUNTER)


def test_there_are_rulesets_to_round_trip() -> None:
    assert HUNTER in RULESETS


@pytest.mark.parametrize("rel", RULESETS)
def test_every_ruleset_round_trips_through_json(rel: str) -> None:
    ruleset = parse_file(rel)
    dump = ruleset.model_dump_json()
    again = ir.Ruleset.model_validate_json(dump)
    assert again == ruleset
    assert again.model_dump_json() == dump


def test_bargain_hunter_ir_shape() -> None:
    r = parse_file(HUNTER)
    assert r.title is not None and r.title.text == "Bargain Hunter"
    assert r.title.other == {"ja": "バーゲン・ハンター"}
    assert (r.min_players, r.max_players) == (3, 4)
    assert [o.name for o in r.options] == ["rounds", "trash_minimum", "hand_size", "offer_lead",
                                           "first_dealer", "final_cleanings"]
    first_dealer = r.options[4]
    assert (first_dealer.type, first_dealer.lo, first_dealer.hi) == ("int", -1, None)
    assert show.expr_text(first_dealer.hi_at) == "players - 1"  # (a seat: one per player)
    assert r.options[3].choices == ["first_coloured", "no_lead"]
    assert [p.name for p in r.phases] == ["deal", "bargain", "hunt", "spring_cleaning"]
    assert [t.target for t in r.phases[-1].transitions] == ["deal", "end"]
    assert [z.name for z in r.zones if z.per_player] == ["hand", "bargain", "junk"]


def test_spans_point_at_their_source() -> None:
    text = (ROOT / HUNTER).read_text(encoding="utf-8")
    lines = text.split("\n")
    r = parse_text(text, HUNTER)

    def at(span: Span) -> str:
        assert span.file == HUNTER and span.line == span.end_line
        return lines[span.line - 1][span.col - 1:span.end_col - 1]

    assert at(r.options[0].span) == "rounds"
    assert at(r.phases[2].span) == "hunt"
    score = r.score
    assert isinstance(score, ir.BinOp)
    assert at(score.span) == "count(bargain[player]) - count(junk[player])"
    assert at(score.right.span) == "count(junk[player])"
    hunt = r.phases[2].body[0]
    assert isinstance(hunt, ir.Repeat) and hunt.test is not None
    assert at(hunt.test.span) == "all(seats, count(hand[it]) > 0)"


def test_crlf_tabs_and_bom_read_like_lf() -> None:
    text = (ROOT / HUNTER).read_text(encoding="utf-8")
    want = parse_text(text, HUNTER)
    assert parse_text(text.replace("\n", "\r\n"), HUNTER) == want
    assert parse_text("\ufeff" + text, HUNTER) == want


def test_placeholder_spans_are_exact_in_the_first_text() -> None:
    span = Span(file="f.rules", line=3, col=10, end_line=3, end_col=30)
    parts = parse_template("play {card.colour} now", span, col=11)
    assert parts[0] == "play " and parts[2] == " now"
    expr = parts[1]
    assert isinstance(expr, ir.Attr)
    # '{' is at text index 5 -> file column 16; the expression starts at column 17.
    assert (expr.span.line, expr.span.col, expr.span.end_col) == (3, 17, 28)
    # Without a column every node falls back to the text's span.
    loose = parse_template("{card.colour}", span)[0]
    assert isinstance(loose, ir.Attr) and loose.span == span


def test_template_braces_and_errors() -> None:
    span = Span(file="f.rules", line=1, col=1, end_line=1, end_col=2)
    assert parse_template("{{literal}} {x}", span)[0] == "{literal} "
    with pytest.raises(RulesSyntaxError, match="unclosed '\\{'"):
        parse_template("oops {x", span)
    with pytest.raises(RulesSyntaxError, match="is not an expression"):
        parse_template("{)}", span)
    with pytest.raises(RulesSyntaxError, match="nested too deeply"):
        parse_expr("-" * 200 + "1", span)


def test_numbers_and_signed_ranges() -> None:
    text = (ROOT / HUNTER).read_text(encoding="utf-8").replace("int in -1..(players - 1)",
                                                               "int in -1..3")
    r = parse_text(text.replace("int in -1..3 = -1", "int in -10..300 = -1"), HUNTER)
    assert (r.options[4].lo, r.options[4].hi) == (-10, 300)
    # The parser keeps a number as written; the validator limits it (to 18 digits).
    big = parse_text(text.replace("int in -1..3", "int in -1..1234567890123456789"), HUNTER)
    assert big.options[4].hi == 1234567890123456789
    with pytest.raises(RulesValidationError, match="too large") as info:
        check(big)
    assert info.value.span == big.options[4].span
    # One Python cannot even read is a syntax error, with the same words.
    with pytest.raises(RulesSyntaxError, match="too large"):
        parse_text(text.replace("int in -1..3", "int in -1.." + "9" * 5000), HUNTER)
