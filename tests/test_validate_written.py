"""Checks of what a file writes, made by the validator (the parser only records it).

Each mistake below used to be raised by the parser's transformer, which stopped at the
first one and so hid every validator error. Now the parser keeps what the text says (a
clause given twice, an unknown zone flag, a table row's cells) and the validator reports it
with the others, at the place it is written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesplay import ir
from rulesplay.compose import load_ruleset
from rulesplay.errors import Diagnostic, RulesValidationError
from rulesplay.parse import parse_text
from rulesplay.validate import check

LAB = '''game "Lab"
players 2..3
enum cls: fighter, mage
card hero:
    name: text
    cls: cls
    attack: 0..9
    table:
        "Knight" | fighter | 3 | 2
        "Wizard" | mage    | 1
zone deck: shared, public
zone hand: per player, owner
zone table: shared, public
var total: int = 0
card var gold: int = 5 kept
player var won: int = 0
ability steady "Steady":
    modify attack: 2
phase play:
    deal 1 from deck to hand
    0 may choose h from hand[0] "pick" skip "none"
    total = count(deck)
    trick in table led by 0:
        each player plays c from hand[player] "play"
        won by highest it.attack
        after trick:
            won[winner] += 1
    total += 1
    next end
score: won[player] + total
'''

# name: (text replaced, replacement, message start, where the caret goes: the first
# occurrence of this text in the faulty ruleset).
FAULTS = {
    "given twice": ('players 2..3\n', 'players 2..3\ngame "B"\n',
                    "'game' is given twice; a ruleset has one", 'game "B"'),
    "number too large": ("var total: int = 0", "var total: int = 1234567890123456789",
                         "the number '1234567890123456789' is too large (at most 18 digits)",
                         "1234567890123456789"),
    "range end too large": ("var total: int = 0",
                            "option k: int in 0..1234567890123456789 = 1\nvar total: int = 0",
                            "the number '1234567890123456789' is too large", "k: int"),
    "short table row": ('"Wizard" | mage    | 1', '"Wizard" | mage',
                        "this row has 2 cells; the table needs 3 (name, cls, attack) and "
                        "optionally a last one for copies", '"Wizard"'),
    "long table row": ('"Knight" | fighter | 3 | 2', '"Knight" | fighter | 3 | 2 | 7',
                       "this row has 5 cells; the table needs 3", '"Knight"'),
    "copies cell": ('"Knight" | fighter | 3 | 2', '"Knight" | fighter | 3 | 0',
                    "the last cell (copies) must be a number of at least 1", '"Knight"'),
    "unknown zone flag": ("zone table: shared, public", "zone table: shared, pubic",
                          "unknown zone property 'pubic' (did you mean 'public'?)", "pubic"),
    "zone not placed": ("zone table: shared, public", "zone table: public",
                        "a zone must say 'shared' or 'per player'", "table: public"),
    "kept player var": ("player var won: int = 0", "player var won: int = 0 kept",
                        "only a card variable can be 'kept'", "won:"),
    "assignment target": ("    total = count(deck)", "    count(deck) = total",
                          "only a variable, 'x[seat]' or 'card.var' can be assigned",
                          "count(deck) ="),
    "skip without may": ("0 may choose h", "0 chooses h",
                         "'skip' needs 'may choose'", '"none"'),
    "ability stat twice": ("    modify attack: 2\n", "    modify attack: 2\n    modify attack: 3\n",
                           "ability 'steady' already has 'modify attack'", "modify attack: 3"),
    "trick clause twice": ("        won by highest it.attack\n",
                           "        won by highest it.attack\n        won by highest 0\n",
                           "a trick has only one 'won by' clause", "won by highest 0"),
    "no won by": ("        won by highest it.attack\n", "", "this trick has no 'won by highest "
                  "KEY' line", "trick in"),
    "pass in a standard trick": ('plays c from hand[player] "play"\n',
                                 'plays c from hand[player] "play"\n        pass "pass"\n',
                                 "only a climbing trick has 'pass'", '"pass"'),
}


def faulty(name: str) -> str:
    old, new, _, _ = FAULTS[name]
    assert LAB.count(old) == 1, old
    return LAB.replace(old, new)


def diagnostics(text: str) -> list[Diagnostic]:
    """Every diagnostic of ``text``; parsing it must succeed (no syntax error)."""
    ruleset = parse_text(text, "f.rules")
    with pytest.raises(RulesValidationError) as info:
        check(ruleset, {"f.rules": text})
    return info.value.diagnostics


def test_the_lab_ruleset_is_valid() -> None:
    check(parse_text(LAB, "f.rules"))


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_each_check_reports_at_its_place_with_a_caret(name: str) -> None:
    text = faulty(name)
    _, _, message, at = FAULTS[name]
    (diag,) = [d for d in diagnostics(text) if d.message.startswith(message)]
    line = next(i for i, ln in enumerate(text.split("\n"), 1) if at in ln)
    col = text.split("\n")[line - 1].index(at) + 1
    assert (diag.span.line, diag.span.col) == (line, col)
    head, shown, caret = diag.render().split("\n")
    assert head.startswith(f"f.rules:{line}:{col}: error: {message}")
    assert shown.strip() == text.split("\n")[line - 1].strip()
    assert caret.index("^") == shown.index(at)


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_no_check_hides_a_misspelt_name(name: str) -> None:
    text = faulty(name).replace("    total += 1\n", "    totl += 1\n")
    messages = [d.message for d in diagnostics(text)]
    assert any(m.startswith(FAULTS[name][2]) for m in messages), messages
    assert "undefined variable 'totl' (did you mean 'total'?)" in messages


def test_a_bad_zone_flag_and_two_misspelt_variables_are_three_diagnostics() -> None:
    text = (LAB.replace("zone table: shared, public", "zone table: shared, pubic")
            .replace("    total += 1\n", "    totl += 1\n")
            .replace("score: won[player]", "score: wn[player]"))
    messages = [d.message for d in diagnostics(text)]
    assert messages == [
        "unknown zone property 'pubic' (did you mean 'public'?); allowed: shared, per player, "
        "public, owner, hidden, top, stack, ordered",
        "undefined variable 'totl' (did you mean 'total'?)",
        "undefined name 'wn' (did you mean 'won'?)",
    ]


def test_pass_is_allowed_in_a_climbing_trick() -> None:
    text = faulty("pass in a standard trick").replace("trick in", "trick climbing in")
    check(parse_text(text, "f.rules"))


def test_what_the_parser_keeps_survives_json_and_valid_json_does_not_mention_it() -> None:
    text = faulty("trick clause twice").replace('players 2..3\n', 'players 2..3\nplayers 2..2\n')
    text = text.replace("zone table: shared, public", "zone table: pubic")
    ruleset = parse_text(text, "f.rules")
    assert [w.text for w in ruleset.duplicates] == ["players"]
    again = ir.Ruleset.model_validate_json(ruleset.model_dump_json())
    assert again == ruleset
    with pytest.raises(RulesValidationError) as info:
        check(again)
    assert len(info.value.diagnostics) == 4  # players, the clause, the flag, 'shared'
    dump = parse_text(LAB, "f.rules").model_dump_json()
    for field in ("duplicates", "unknown_flags", "extra"):
        assert f'"{field}"' not in dump


def test_a_variant_that_says_a_line_twice_is_reported(tmp_path: Path) -> None:
    (tmp_path / "lab.rules").write_text(LAB, encoding="utf-8")
    variant = tmp_path / "quick.rules"
    variant.write_text('extends "lab.rules"\nscore: total\nscore: 0\n', encoding="utf-8")
    with pytest.raises(RulesValidationError) as info:
        load_ruleset(str(variant))
    (diag,) = info.value.diagnostics
    assert (diag.message, diag.span.file, diag.span.line) == (
        "'score:' is given twice; a ruleset has one", str(variant), 3)
