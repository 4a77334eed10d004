"""Names (issue 13, item 8): identifiers are read as NFKC, as Python reads them, and names
that only look alike (Latin, Cyrillic and Greek letters mixed, or two names that differ only
by such letters) get a warning."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import rulesplay
from rulesplay.cli import main
from rulesplay.parse import parse_text
from rulesplay.validate import check

BASE = '''game "N"
players 2..3
card c:
    copies: 2
    label: "c"
zone deck: shared, public
var {a}: int = 0
phase p:
    {b} += 1
    next end
score: {c}
'''


def _warnings(a: str, b: str, c: str) -> list[str]:
    text = BASE.format(a=a, b=b, c=c)
    return [w.message for w in check(parse_text(text, "n.rules"), {"n.rules": text}).warnings]


@pytest.mark.parametrize(("declared", "used"), [
    ("total", "ｔｏｔａｌ"),      # fullwidth letters
    ("final", "ﬁnal"),           # the fi ligature
    ("Å", "Å"),                  # A + combining ring, and the precomposed letter
])
def test_names_are_read_as_nfkc(declared: str, used: str) -> None:
    game = rulesplay.loads(BASE.format(a=declared, b=used, c=used))
    state = game.new_state(2)
    assert state.is_terminal() and state.scores() == [1, 1]
    assert _warnings(declared, used, used) == []


def test_a_name_with_a_cyrillic_letter_that_looks_latin_is_a_warning() -> None:
    # 'cоunt' with a Cyrillic o: a valid variable, but it looks like the builtin 'count'
    (message,) = _warnings("cоunt", "cоunt", "cоunt + count(deck)")
    assert message.startswith("'cоunt' looks like 'count' but is another name")
    assert "U+043E CYRILLIC SMALL LETTER O" in message
    (alone,) = _warnings("cоunt", "cоunt", "cоunt")
    assert "mixes Cyrillic and Latin letters" in alone


def test_a_name_mixing_greek_and_latin_is_a_warning() -> None:
    (message,) = _warnings("Ωmega", "Ωmega", "Ωmega")
    assert "mixes Greek and Latin letters" in message


def test_names_in_one_other_script_or_in_kana_and_han_are_fine() -> None:
    assert _warnings("得点", "得点", "得点") == []
    assert _warnings("お買い得", "お買い得", "お買い得") == []
    assert _warnings("счёт", "счёт", "счёт") == []


def test_a_misspelt_lookalike_is_an_error_that_names_the_real_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "n.rules"
    path.write_text(BASE.format(a="total", b="tоtal", c="total"), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert "undefined variable 'tоtal' (did you mean 'total'? this one has U+043E CYRILLIC " \
        "SMALL LETTER O where 'total' has U+006F LATIN SMALL LETTER O: they look alike)" \
        in result.output


def test_validate_prints_lookalike_warnings(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "n.rules"
    path.write_text(BASE.format(a="cоunt", b="cоunt", c="cоunt + count(deck)"),
                    encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0
    assert "n.rules:7:5: warning: 'cоunt' looks like 'count'" in result.output


TWO = '''game "N"
players 2..3
card c:
    copies: 2
    label: "c"
zone deck: shared, public
var {a}: int = 0
var {b}: int = 0
phase p:
    {a} += 1
    next end
score: {a} + {b}
'''


@pytest.mark.parametrize(("ascii_name", "lookalike"), [
    ("xa", "xɑ"),    # U+0251 LATIN SMALL LETTER ALPHA (IPA)
    ("xi", "xı"),    # U+0131 LATIN SMALL LETTER DOTLESS I
    ("xg", "xɡ"),    # U+0261 LATIN SMALL LETTER SCRIPT G (IPA)
    ("xi", "xɩ"),    # U+0269 LATIN SMALL LETTER IOTA (IPA)
    ("xl", "xǀ"),    # U+01C0 LATIN LETTER DENTAL CLICK (Latin Extended-B)
    ("xl", "xƖ"),    # U+0196 LATIN CAPITAL LETTER IOTA (Latin Extended-B)
    ("xu", "xʋ"),    # U+028B LATIN SMALL LETTER V WITH HOOK (IPA)
    ("xy", "xʏ"),    # U+028F LATIN LETTER SMALL CAPITAL Y (IPA)
    ("xo", "xο"),    # U+03BF GREEK SMALL LETTER OMICRON
    ("xi", "xі"),    # U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I
    ("cafe", "café"),  # a mark on a letter
])
def test_two_names_that_look_alike_are_a_warning_whatever_the_script(
        ascii_name: str, lookalike: str) -> None:
    """From a hostile review: ``var xɑ`` next to ``var xa`` (and ``ı``/``i``, ``ɡ``/``g``)
    gave no warning: the check only compared letters of scripts other than Latin. Names
    are compared by their skeletons (Unicode TR39), Latin lookalikes included, in either
    order of declaration."""
    for a, b in ((ascii_name, lookalike), (lookalike, ascii_name)):
        text = TWO.format(a=a, b=b)
        warnings = [w.message for w in
                    check(parse_text(text, "n.rules"), {"n.rules": text}).warnings]
        assert any(m.startswith(f"'{lookalike}' looks like '{ascii_name}' but is another name")
                   for m in warnings), warnings


def test_names_that_only_share_a_skeleton_with_no_other_name_are_fine() -> None:
    text = TWO.format(a="xɑ", b="yı")
    assert check(parse_text(text, "n.rules"), {"n.rules": text}).warnings == []


@pytest.mark.parametrize(("declared", "used", "mine", "theirs"), [
    ("hаnd", "hand", "U+0061 LATIN SMALL LETTER A", "U+0430 CYRILLIC SMALL LETTER A"),
    ("sсоre", "score", "U+0063 LATIN SMALL LETTER C, U+006F LATIN SMALL LETTER O",
     "U+0441 CYRILLIC SMALL LETTER ES, U+043E CYRILLIC SMALL LETTER O"),
])
def test_a_suggestion_that_looks_identical_names_the_letters_that_differ(
        tmp_path, declared: str, used: str, mine: str, theirs: str) -> None:  # type: ignore[no-untyped-def]
    """'unknown name 'hand' (did you mean 'hаnd'?)' suggested what looked like the very name
    typed (the declared one has a Cyrillic а): the differing letters are named both ways."""
    path = tmp_path / "n.rules"
    path.write_text(BASE.format(a=declared, b=declared, c=used), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert (f"(did you mean '{declared}'? this one has {mine} where '{declared}' has "
            f"{theirs}: they look alike)") in result.output


def test_an_option_on_the_command_line_that_looks_like_one_names_the_letters(
        tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = BASE.format(a="v", b="v", c="v").replace(
        "card c:", "option hаnd_size: int in 1..5 = 2\ncard c:")
    path = tmp_path / "n.rules"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path), "--option", "hand_size=3", "--quiet"])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert ("unknown option 'hand_size' (did you mean 'hаnd_size'? this one has U+0061 LATIN "
            "SMALL LETTER A where 'hаnd_size' has U+0430 CYRILLIC SMALL LETTER A: they look "
            "alike)") in result.output
