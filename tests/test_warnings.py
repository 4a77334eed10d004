"""Warnings: diagnostics that stop nothing, printed like errors by validate, run, simulate and
compare. The first one: an option that nothing reads (setting it would change nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rulesplay.cli import main
from rulesplay.compose import load_ruleset
from rulesplay.errors import RulesValidationError
from rulesplay.parse import parse_text
from rulesplay.validate import Checked, check

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("*.rules"))

SPARE = '''game "W"
players 2..3
option spare: int in 1..3 = 2
    "Nothing reads it."
card c:
    copies: 2
    label: "c"
zone deck: shared, public
var n: int = 0
phase p:
    n += 1
    next end
score: n
'''
WARNING = ("option 'spare' is never used: no rule, default or text reads it, so setting it "
           "changes nothing")


def checked(text: str) -> Checked:
    return check(parse_text(text, "w.rules"), {"w.rules": text})


def test_an_option_nothing_reads_is_a_warning_with_a_caret() -> None:
    (warning,) = checked(SPARE).warnings
    assert (warning.severity, warning.message) == ("warning", WARNING)
    assert warning.render().split("\n") == [
        f"w.rules:3:8: warning: {WARNING}",
        "    option spare: int in 1..3 = 2",
        "           ^~~~~",
    ]


@pytest.mark.parametrize("use", [
    ("    n += 1\n", "    n += spare\n"),                      # a rule
    ("var n: int = 0", "var n: int = spare"),                   # a variable's default
    ('    copies: 2\n', '    copies: spare\n'),                  # a kind's copies
    ('    label: "c"', '    label: "c{spare}"'),                 # a display text
    ("option spare: int in 1..3 = 2", "option spare: int in 1..3 = 2\noption more: int in "
     "1..9 = spare + 1"),                                        # another option's default
])
def test_an_option_read_anywhere_is_no_warning(use: tuple[str, str]) -> None:
    text = SPARE.replace(*use)
    assert text != SPARE
    warnings = checked(text).warnings
    assert [w for w in warnings if "'spare'" in w.message] == []


def test_warnings_do_not_ride_on_errors() -> None:
    with pytest.raises(RulesValidationError) as info:
        checked(SPARE.replace("n += 1", "m += 1"))
    assert [d.severity for d in info.value.diagnostics] == ["error"]


@pytest.mark.parametrize("rel", RULESETS)
def test_no_shipped_ruleset_has_a_warning(rel: str) -> None:
    assert load_ruleset(str(ROOT / rel))[1].warnings == []


def cli(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.output
    return result


@pytest.fixture
def spare(tmp_path: Path) -> str:
    path = tmp_path / "w.rules"
    path.write_text(SPARE, encoding="utf-8")
    return str(path)


def test_validate_prints_a_warning_and_exits_0(spare: str) -> None:
    result = cli("validate", spare)
    assert result.exit_code == 0
    assert result.stdout == (f"{spare}:3:8: warning: {WARNING}\n"
                             "    option spare: int in 1..3 = 2\n"
                             "           ^~~~~\n"
                             f"{spare}: ok (1 warning)\n")


def test_validate_still_fails_on_an_error_beside_a_warning(spare: str) -> None:
    Path(spare).write_text(SPARE.replace("n += 1", "m += 1"), encoding="utf-8")
    result = cli("validate", spare)
    assert result.exit_code == 1
    assert "error: undefined variable 'm'" in result.stdout


@pytest.mark.parametrize("command", [
    ["run", "{f}", "--seed", "1", "--quiet"],
    ["simulate", "{f}", "-n", "2", "--workers", "1"],
    ["compare", "{f}", "{f}", "-n", "2", "--workers", "1"],
])
def test_playing_commands_print_warnings_to_stderr_first(spare: str,
                                                         command: list[str]) -> None:
    result = cli(*[arg.format(f=spare) for arg in command])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(f"{spare}:3:8: warning: {WARNING}\n")
    assert "warning" not in result.stdout
