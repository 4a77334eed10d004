"""Diagnostics: every malformed ruleset fails with ``path:line:col: error: ...`` plus the line
and a caret, never with a traceback.

``tests/bad/*.rules`` are small faulty rulesets, each ``tests/bad/_base_ok.rules`` with one or
two faults; ``tests/golden/diagnostics/<name>.txt`` holds the exact rendered diagnostics.
Regenerate them with ``UPDATE_GOLDEN=1 pytest tests/test_diagnostics.py`` and review the diff.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesplay.compose import load_ruleset
from rulesplay.errors import RulesError, RulesSyntaxError, RulesValidationError
from rulesplay.parse import MAX_DEPTH, parse_text
from rulesplay.validate import check

ROOT = Path(__file__).resolve().parent.parent
BAD = Path("tests/bad")
GOLDEN = Path("tests/golden/diagnostics")
BASE = "tests/bad/_base_ok.rules"
HUNTER = "rulesets/bargain_hunter.rules"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
HEAD = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: \S")

BAD_FILES = sorted(p.stem for p in (ROOT / BAD).glob("*.rules") if not p.name.startswith("_"))


@pytest.fixture(autouse=True)
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Paths in diagnostics are relative to the project root, as a user would type them."""
    monkeypatch.chdir(ROOT)


def load_text(text: str, file: str = "f.rules") -> None:
    """Parse and check ``text``; RulesError carries the source for carets."""
    try:
        check(parse_text(text, file), {file: text})
    except RulesError as exc:
        raise exc.attach_source({file: text}) from None


def assert_rendered(err: RulesError, file: str) -> str:
    """Every diagnostic block starts ``file:line:col: error:`` with line and col >= 1."""
    out = err.render()
    assert out, "empty render()"
    heads = [ln for ln in out.splitlines() if not ln.startswith("    ")]
    assert heads, out
    for head in heads:
        m = HEAD.match(head)
        assert m, f"not file:line:col: error: ...: {head!r}"
        assert m["file"] == file, head
        assert int(m["line"]) >= 1 and int(m["col"]) >= 1, head
    return out


# ---------------------------------------------------------------- the faulty rulesets
def test_base_ruleset_is_valid() -> None:
    ruleset, checked = load_ruleset(BASE)
    assert [p.name for p in ruleset.phases] == ["deal", "play"]
    assert not checked.diagnostics


def test_there_are_enough_bad_rulesets() -> None:
    assert len(BAD_FILES) >= 10
    assert {"missing_colon", "misspelt_name", "type_mismatch", "unreachable_phase",
            "no_path_to_end", "option_default_range", "empty", "binary"} <= set(BAD_FILES)


@pytest.mark.parametrize("name", BAD_FILES)
def test_bad_ruleset_diagnostics_match_golden(name: str) -> None:
    path = f"{BAD}/{name}.rules"
    with pytest.raises(RulesError) as info:
        load_ruleset(path)
    out = assert_rendered(info.value, path) + "\n"
    golden = ROOT / GOLDEN / f"{name}.txt"
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(out, encoding="utf-8")
    assert golden.exists(), f"no golden file {golden}; run with UPDATE_GOLDEN=1"
    assert out == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [n for n in BAD_FILES if n not in ("binary", "empty")])
def test_each_diagnostic_shows_its_line_and_a_caret(name: str) -> None:
    with pytest.raises(RulesError) as info:
        load_ruleset(f"{BAD}/{name}.rules")
    for diag in info.value.diagnostics:
        lines = diag.render().splitlines()
        assert len(lines) == 3, diag.render()
        caret = lines[2]
        assert caret.strip().startswith("^")
        assert caret.index("^") - 4 == diag.span.col - 1


def test_every_error_is_reported_not_only_the_first() -> None:
    with pytest.raises(RulesValidationError) as info:
        load_ruleset(f"{BAD}/misspelt_name.rules")
    messages = [d.message for d in info.value.diagnostics]
    assert messages == ["undefined name 'hnd' (did you mean 'hand'?)",
                        "undefined variable 'rund' (did you mean 'round'?)"]


def test_option_default_is_checked_for_every_player_count() -> None:
    text = Path(BASE).read_text(encoding="utf-8")
    ok = text.replace("option hand_size: int in 1..10 = 3",
                      "option hand_size: int in 1..10 = 12 - players * 2")
    load_text(ok)  # 8, 6, 4 for 2..4 players
    bad = text.replace("option hand_size: int in 1..10 = 3",
                       "option hand_size: int in 1..10 = players * 3")
    with pytest.raises(RulesValidationError) as info:
        load_text(bad)
    assert [d.message for d in info.value.diagnostics] == [
        "the default of option 'hand_size' is 12 with 4 players; allowed: a whole number "
        "from 1 to 10"]
    fault = text.replace("option hand_size: int in 1..10 = 3",
                         "option hand_size: int in 1..10 = 3 / (players - 2) + 1")
    with pytest.raises(RulesValidationError, match="with 2 players: division by zero"):
        load_text(fault)


def test_option_default_may_use_earlier_options_only() -> None:
    text = Path(BASE).read_text(encoding="utf-8").replace(
        "option hand_size: int in 1..10 = 3", "option hand_size: int in 1..10 = rounds + 1")
    load_text(text)
    swapped = text.replace("= {2: 3, 3: 2, 4: 1}[players]", "= hand_size")
    with pytest.raises(RulesValidationError, match="option 'hand_size' is declared after it"):
        load_text(swapped)
    zone = text.replace("= rounds + 1", "= count(deck)")
    with pytest.raises(RulesValidationError, match="must be known before play"):
        load_text(zone)


def test_choice_option_default_must_be_one_of_its_values() -> None:
    text = Path(BASE).read_text(encoding="utf-8").replace(
        'option hand_size: int in 1..10 = 3',
        'option hand_size: int in 1..10 = 3\noption style: quick | slow = quick\n'
        'option other: left | right2 = quick')
    with pytest.raises(RulesValidationError,
                       match=r"default of option 'other' is quick; allowed: left, right2"):
        load_text(text)


def test_placeholder_errors_point_into_the_text() -> None:
    text = Path(BASE).read_text(encoding="utf-8").replace('"play a card"',
                                                          '"play {c.rank} or {c.sute}"')
    with pytest.raises(RulesValidationError) as info:
        load_text(text)
    (diag,) = info.value.diagnostics
    line = text.splitlines()[diag.span.line - 1]
    assert line[diag.span.col - 1:diag.span.end_col - 1] == "c.sute"
    assert "did you mean 'suit'" in diag.message


def test_syntax_error_names_what_was_expected_readably() -> None:
    text = Path(BASE).read_text(encoding="utf-8")
    with pytest.raises(RulesSyntaxError) as info:
        load_text(text.replace("move table to won[winner]", "move table won[winner]"))
    assert info.value.message == "unexpected 'won'; expected 'to' or an operator"
    with pytest.raises(RulesSyntaxError) as info:
        load_text(text.replace("players 2..4", "players 2-4"))
    assert info.value.message == "unexpected '-'; expected one of: ',', '..', end of line"
    with pytest.raises(RulesSyntaxError) as info:
        load_text(text.replace("lead = c.suit", "lead = "))
    assert info.value.message == "unexpected end of line; expected an expression"


def test_missing_file_and_folder_are_located_errors(tmp_path: Path) -> None:
    for path in (str(tmp_path / "nope.rules"), str(tmp_path)):
        with pytest.raises(RulesError) as info:
            load_ruleset(path)
        assert_rendered(info.value, path)


# ---------------------------------------------------------------- hostile inputs
def _hostile() -> dict[str, str]:
    base = (ROOT / BASE).read_text(encoding="utf-8")
    deep = MAX_DEPTH + 20
    return {
        "empty": "", "blank": " \n\t\n", "only comment": "# x", "nul": "game\x00",
        "bom": "\ufeff" + base, "crlf": base.replace("\n", "\r\n"), "cr": base.replace("\n", "\r"),
        "tabs": base.replace("    ", "\t"), "tab mix": base.replace("    shuffle", "\tshuffle"),
        "unicode names": base.replace("round", "ründe").replace("deck", "山札"),
        "line separator": base.replace("\n\n", "\n\u2028\n", 1),
        "unclosed string": base.replace('"play a card"', '"play a card'),
        "unclosed brace": base.replace('"play a card"', '"play {c.rank"'),
        "deep parens": "score: " + "(" * deep + "1" + ")" * deep + "\n",
        "deep parens in base": base.replace("score: tricks[player]",
                                            "score: " + "(" * deep + "1" + ")" * deep),
        "deep not": base.replace("score: tricks[player]", "score: " + "not " * deep + "yes"),
        "deep sum": base.replace("score: tricks[player]", "score: 1" + " + 1" * 5000),
        "deep blocks": base.replace("    shuffle deck\n", "".join(
            "    " * i + "if yes:\n" for i in range(1, deep)) + "    " * deep + "shuffle deck\n"),
        "deep placeholder": base.replace('"play a card"', '"{' + "-" * deep + '1}"'),
        "huge number": base.replace("copies: 1", "copies: " + "9" * 5000),
        "huge range": base.replace("rank: 1..6", "rank: 1..999999999"),
        "huge players": base.replace("players 2..4", "players 2..999999999999"),
        "truncated": base[: len(base) // 2],
        "escape": base.replace('"play a card"', '"\\N{nonsense}"'),
        "long line": "x" * 50_000,
        "trailing backslash": base + "\\",
        "dedent in block": base.replace("    next play", "  next play"),
    }


@pytest.mark.parametrize("name", sorted(_hostile()))
def test_hostile_input_gives_a_located_error_or_loads(name: str) -> None:
    text = _hostile()[name]
    try:
        load_text(text)
    except RulesError as exc:
        assert_rendered(exc, "f.rules")
    else:
        # Redundant parentheses add no nesting; the rest are valid rulesets.
        assert name in ("bom", "crlf", "cr", "tabs", "unicode names", "trailing backslash",
                        "escape", "deep parens in base"), f"{name} unexpectedly loaded"


def test_crlf_and_bom_parse_to_the_same_ruleset() -> None:
    base = (ROOT / BASE).read_text(encoding="utf-8")
    want = parse_text(base, "f.rules")
    assert parse_text(base.replace("\n", "\r\n"), "f.rules") == want
    assert parse_text("\ufeff" + base, "f.rules") == want


# ---------------------------------------------------------------- fuzzing
HUNTER_TEXT = (ROOT / HUNTER).read_text(encoding="utf-8")
WORD = re.compile(r"[A-Za-z_]\w*|\d+")
WORDS = sorted(set(WORD.findall(HUNTER_TEXT)))
JUNK = st.lists(st.sampled_from(list(":=()[]{}\"'#.,\n\t \\@-+|<>\r\x00é\u2028") +
                                ["if ", "next ", "phase ", "    ", "9" * 30, "it", "not ",
                                 "where ", "players", "end", "{players}"]),
                max_size=6).map("".join)


@st.composite
def mutations(draw: st.DrawFn) -> str:
    """Bargain Hunter with one or two random edits."""
    text = HUNTER_TEXT
    for _ in range(draw(st.integers(1, 2))):
        kind = draw(st.sampled_from(["delete", "insert", "swap", "truncate", "dup", "word"]))
        i = draw(st.integers(0, len(text)))
        if kind == "word" and WORD.search(text):
            # Another word of the file in place of one: syntax mostly holds, meaning breaks.
            spots = [m.span() for m in WORD.finditer(text)]
            a, b = spots[draw(st.integers(0, len(spots) - 1))]
            text = text[:a] + draw(st.sampled_from(WORDS)) + text[b:]
        elif kind == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 4)):]
        elif kind == "insert":
            text = text[:i] + draw(JUNK) + text[i:]
        elif kind == "truncate":
            text = text[:i]
        else:
            lines = text.split("\n")
            a = draw(st.integers(0, len(lines) - 1))
            b = draw(st.integers(0, len(lines) - 1))
            if kind == "swap":
                lines[a], lines[b] = lines[b], lines[a]
            else:
                lines.insert(b, lines[a])
            text = "\n".join(lines)
    return text


def _load_or_located_error(text: str) -> None:
    try:
        load_text(text, HUNTER)
    except RulesError as exc:
        assert_rendered(exc, HUNTER)


@settings(max_examples=250, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(mutations())
def test_mutated_ruleset_loads_or_gives_a_located_error(text: str) -> None:
    _load_or_located_error(text)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.text(max_size=200))
def test_random_text_gives_a_located_error(text: str) -> None:
    _load_or_located_error(text)
