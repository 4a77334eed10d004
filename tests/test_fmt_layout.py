"""``rulesplay fmt`` changes layout only: every shipped ruleset is already formatted, fmt is
idempotent, and it keeps the author's word choices, order of clauses and blank lines (the
rules are in the docstring of ``rulesplay.fmt``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesplay.errors import RulesError
from rulesplay.fmt import WIDTH, format_text, same_meaning, width, words
from rulesplay.parse import parse_text

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted([*(ROOT / "rulesets").rglob("*.rules"), *(ROOT / "rulesets").rglob("*.part")])


def _parses(path: Path) -> bool:
    try:
        parse_text(path.read_text(encoding="utf-8"), str(path))
    except (RulesError, UnicodeDecodeError):
        return False
    return True


# The test suite's own rulesets that parse (those of tests/bad that do not are for errors).
FIXTURES = [p for p in sorted((ROOT / "tests").rglob("*.rules")) if _parses(p)]


def _id(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", SHIPPED, ids=_id)
def test_every_shipped_ruleset_is_already_formatted(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert format_text(text, str(path)) == text


@pytest.mark.parametrize("path", SHIPPED + FIXTURES, ids=_id)
def test_fmt_is_idempotent_and_keeps_meaning_and_words(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tidy = format_text(text, str(path))
    assert format_text(tidy, str(path)) == tidy
    assert same_meaning(parse_text(tidy, str(path)), parse_text(text, str(path)))
    assert words(tidy) == words(text if text.endswith("\n") else text + "\n")


def test_there_are_fixtures_of_the_suite_among_them() -> None:
    assert len(FIXTURES) > 20 and any("printer" in p.parts for p in FIXTURES)


HEAD = ('game "T"\nplayers 2\n\nenum suit: hearts, spades\n\ncard c:\n    suit: suit\n'
        "    rank: 1..5\n\nzone deck: shared, hidden\nzone hand: per player, owner\n"
        "zone table: shared, public\n\nvar done: bool = false\nplayer var n: int = 0\n\n")


def _phase(*body: str) -> str:
    return HEAD + "phase p:\n" + "".join(f"    {line}\n" for line in body) + \
        "    next end\n\nscore: 0\n"


# Each pair: two ways to write one thing (the IR of most does not say which one was written).
SPELLINGS = [
    ("done = yes", "done = true"),
    ("done = no", "done = false"),
    ("for each card h in deck:", "for each h in deck:"),
    ("move deck to top of table", "move deck to table"),
    ("move deck to top of table at random", "move deck to table at random"),
    ("for each player q clockwise:", "for each player q:"),
    ("repeat until done:", "repeat while not done:"),
    ("0 chooses 1..1 x from hand[0]", "0 chooses 1 x from hand[0]"),
    ("0 chooses 2..2 x from hand[0] of consecutive rank and one suit",
     "0 chooses 2 x from hand[0] of one suit and consecutive rank"),
    ("n[0] = (n[1] + 1) * 2", "n[0] = (n[1] + 1) * (2)"),
    ("n[0] = -(1)", "n[0] = -1"),
    ("n[0] = 007", "n[0] = 7"),
    ('say "\\x41"', 'say "A"'),
    ("done = deck is not empty", "done = not (deck is empty)"),
]


def _body(line: str) -> tuple[str, ...]:
    return (line, "    say \"x\"") if line.endswith(":") else (line,)


@pytest.mark.parametrize("spelling", [s for pair in SPELLINGS for s in pair])
def test_fmt_keeps_each_spelling_the_author_chose(spelling: str) -> None:
    text = _phase(*_body(spelling))
    assert format_text(text, "t.rules") == text


@pytest.mark.parametrize("line, tidy", [
    ("players 2..2", "players 2..2"), ("players 2", "players 2"),
    ("players  2 .. 4 ,usually 3", "players 2..4, usually 3"),
    ("enum e: x, y,", "enum e: x, y,"),
    ("zone pile: shared, hidden, stack", "zone pile: shared, hidden, stack"),
    ("zone pile: hidden ,shared", "zone pile: hidden, shared"),
    ("option o: bool = yes", "option o: bool = yes"),
    ("option o: int in 1..(10 / players) = 1", "option o: int in 1..(10 / players) = 1"),
])
def test_fmt_keeps_the_words_of_a_declaration_and_tidies_its_blanks(line: str,
                                                                    tidy: str) -> None:
    text = _phase('say "x"')
    text = text.replace("players 2\n", f"{line}\n" if line.startswith("players") else
                        f"players 2\n{line}\n")
    assert format_text(text, "t.rules") == text.replace(line, tidy)


TRICK = ["trick in table led by 0:", "    each player plays card from hand[player]",
         "    after trick:", '        say "won"', "    before play:", '        say "next"',
         "    won by highest it.rank", "    sits out if false"]


def test_fmt_keeps_the_order_of_a_tricks_clauses() -> None:
    """whist's 'before play' went above the clauses written before it."""
    text = _phase(*TRICK)
    assert format_text(text, "t.rules") == text
    usual = [*TRICK[:2], TRICK[7], *TRICK[4:6], TRICK[6], *TRICK[2:4]]
    text = _phase(*usual)
    assert format_text(text, "t.rules") == text


@pytest.mark.parametrize("kind", [
    ["card c:", "    copies: 2", "    suit: suit", "    short: \"c\"", "    rank: 1..5"],
    ["card c:", "    suit: suit", "    rank: 1..5", "    copies: 2", "    short: \"c\""],
    ["card c:", "    table:", '        "x"  | hearts |  1', '        "yy" | spades |  2',
     "    name: text", "    suit: suit", "    rank: 1..5"],
])
def test_fmt_keeps_the_order_of_a_card_kinds_lines_and_a_tables_columns(
        kind: list[str]) -> None:
    block = "card c:\n    suit: suit\n    rank: 1..5\n"
    text = _phase("say \"x\"").replace(block, "".join(line + "\n" for line in kind))
    assert format_text(text, "t.rules") == text


@pytest.mark.parametrize("lines", [
    ["ability a:", "    at play:", '        say "x"', "    modify attack: 1"],
    ["ability a:", "    modify attack: 1", "    at play:", '        say "x"'],
])
def test_fmt_keeps_the_order_of_an_abilitys_lines(lines: list[str]) -> None:
    text = _phase("say \"x\"").replace("var done", "\n".join(lines) + "\n\nvar done", 1)
    assert format_text(text, "t.rules") == text


def test_fmt_adds_no_blank_line_and_keeps_one_of_a_run() -> None:
    """A define after a comment (hearts) got a blank line above it; blocks got them around."""
    text = ('game "T"\nplayers 2\nzone deck: shared, hidden\n# the next one\n'
            "define d(x) = x + 1\nphase p:\n    say \"a\"\n\n\n    # c\n\n    say \"b\"\n"
            "    next end\nscore: 0\n")
    tidy = format_text(text, "t.rules")
    assert tidy == text.replace("\n\n\n", "\n\n")
    assert format_text("\n\n" + text + "\n\n", "t.rules") == tidy


def test_an_enum_block_keeps_its_rows_and_a_long_one_line_enum_is_broken_by_columns() -> None:
    block = 'enum e:\n    x "X", y "Y",\n    z "Z"\n    w\n'
    text = _phase("say \"x\"").replace("enum suit: hearts, spades\n", block)
    assert format_text(text, "t.rules") == text
    wide = "enum c: " + ", ".join(f"v{k} @ja \"赤色\"" for k in range(7)) + "\n"
    assert len(wide) - 1 <= WIDTH < width(wide) - 1  # too wide in a terminal only
    tidy = format_text(_phase("say \"x\"").replace("enum suit: hearts, spades\n", wide),
                       "t.rules")
    lines = [line for line in tidy.splitlines() if "v" in line and "@ja" in line]
    assert len(lines) == 2 and all(width(line) <= WIDTH for line in lines)
    assert lines[1].startswith("        v")


def test_a_long_condition_is_broken_before_a_word_not_after_an_operator() -> None:
    cond = " and ".join(f"n[{k}] + {k} >= count(deck where it.rank == {k})" for k in range(3))
    tidy = format_text(_phase(f"done = {cond}"), "t.rules").splitlines()
    at = next(i for i, line in enumerate(tidy) if line.startswith("    done = "))
    assert tidy[at + 1].startswith("            and ")
    assert not tidy[at].rstrip().endswith((">=", "+", "=="))


def _loosened(line: str) -> str:
    """``line`` with each blank between two pieces of code made two (strings, comments and
    table rows, whose blanks are the author's, left alone)."""
    if " | " in line:
        return line
    out, quoted = [], False
    for k, ch in enumerate(line):
        if ch == '"' and line[k - 1:k] != "\\":
            quoted = not quoted
        if ch == "#" and not quoted:
            return "".join(out) + line[k:]
        out.append("  " if ch == " " and not quoted and line[:k].strip() and
                   line[k - 1] != " " and line[k + 1:k + 2] not in (" ", "#", "") else ch)
    return "".join(out)


@pytest.mark.parametrize("path", SHIPPED, ids=_id)
def test_fmt_takes_extra_blanks_away_and_keeps_the_authors_breaks(path: Path) -> None:
    """An author's breaks were kept only when the first line read exactly as fmt prints
    it; now blanks within a statement's lines are tidied and its breaks kept."""
    text = path.read_text(encoding="utf-8")
    loose = "\n".join(_loosened(line) for line in text.split("\n"))
    assert loose != text
    assert format_text(loose, str(path)) == text
