"""Text from outside on the screen: ruleset and typed text is shown as written, never read as
rich markup, and no terminal control sequence of it reaches the terminal (issue 13, items 6-7).

Every command runs on a ruleset whose every title, label, doc, prompt, card name and ``say``
line holds markup and OSC 52 (clipboard) and OSC 0 (window title) sequences."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console
from test_human import PROMPT, answer_until_end, spawn

from rulesplay import ir
from rulesplay.cli import main
from rulesplay.compose import load_ruleset
from rulesplay.terminal import clean, console, json_text, literal

MARK = "[/] [bold]x[/bold] [link=http://x]y[/link]"
OSC = "\x1b]52;c;aGk=\x07\x1b]0;pwned\x07"  # write the clipboard, set the window title
CSI8 = "\x9b31m"  # an 8-bit CSI (red)
BIDI = "\u202e\u2067"  # a right-to-left override and isolate: reorder what follows
# What a hostile ruleset writes after each text (Python escapes, read by the parser).
WRITTEN = "\\x1b]52;c;aGk=\\x07\\x1b]0;pwned\\x07\\x9b31m\\u202e\\u2067"
CONTROLS = ("\x1b", "\x07", "\x9b", "\x9d", "\x9c", "\u202e", "\u2067")

HOSTILE = '''
game "Sale H" @ja "Sale H"
players 2..2
author "Author H"
about "About H"

option rounds: int in 1..3 = 1
    "Rounds H"

enum colour "Colour H": red "Red H", blue "Blue H"

ability shine "Shine H":
    modify power: 1

card chip "Chip H":
    colour: colour
    number: 1..3
    label: "{colour} {number} H"

card gem "Gem H":
    name: text
    power: 0..9
    ability: ability
    table:
        "Ruby H" | 1 | shine
        "Opal H" | 2 | none

zone deck "Deck H": shared, hidden
zone show "Show H": shared, public
zone hand "Hand H": per player, owner
zone pile "Pile H": shared, public
zone won "Won H": per player, public

var round "Round H": int = rounds
var leader "Leader H": player
player var points "Points H": int = 0

rule tally "Tally H":
    points[leader] += 1

phase deal "Deal H":
    move deck where it is gem to show
    shuffle deck
    deal 2 from deck to hand
    leader = 0
    say "Say H"
    next play

phase play "Play H":
    for each player p:
        p may choose c from show "Prompt H" skip "Skip H"
        move c to won[p]
    repeat while all(seats, count(hand[it]) > 0):
        trick in pile led by leader:
            each player plays card from hand[player] "Trick H"
            won by highest it.number
            after trick:
                leader = winner
                do tally
                move pile to won[winner]
    next end

score: points[player] + count(won[player])
'''

VARIANT = '''extends "hostile.rules"
game "Variant H"
option rounds = 2 "Doc two H"
'''


def _hostile(text: str) -> str:
    return text.replace(' H"', f' {MARK}{WRITTEN}"')


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile")
    (path / "hostile.rules").write_text(_hostile(HOSTILE), encoding="utf-8")
    (path / "variant.rules").write_text(_hostile(VARIANT), encoding="utf-8")
    return path


def _safe(text: str, styled: bool = False) -> None:
    """No control character of the ruleset in ``text`` (``styled``: rich's own ``ESC [``
    style codes are allowed, nothing else that starts with ESC)."""
    if styled:
        text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    leaked = [seq for seq in CONTROLS if seq in text]
    assert not leaked, f"{leaked} reached the terminal:\n{text!r}"


def _cli(*args: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(main, list(args), env={"COLUMNS": "250", **(env or {})})
    assert result.exit_code == 0, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    styled = bool(env and env.get("FORCE_COLOR"))
    _safe(result.stdout, styled)
    _safe(result.stderr, styled)
    return result.output


# ---------------------------------------------------------------- the one place
def test_clean_removes_control_sequences_and_characters_and_keeps_text() -> None:
    assert clean(f"Sale{OSC} ok") == "Sale ok"
    assert clean("a\x1b[31mred\x1b[0m b\x9b1mc|\x1bc|d\x9d0;t\x9c|e") == "ared bc||d|e"
    assert clean("unterminated \x1b]0;title") == "unterminated "
    assert clean("tab\tline\nnul\x00del\x7fnel\x85bell\x07cr\r.") == "tab\tline\nnuldelnelbellcr."
    assert clean("バーゲン・ハンター ★ → ×2") == "バーゲン・ハンター ★ → ×2"
    # bidirectional overrides and isolates would reorder what the line shows
    assert clean("pay \u202e01\u202c coins \u2067x\u2069\u200f") == "pay 01 coins x"
    # a diagnostic's source line keeps one character per column, for the caret
    line = 'game "a\x1b]0;t\x07\tb"'
    assert clean(line, columns=True) == 'game "a?]0;t? b"'
    assert len(clean(line, columns=True)) == len(line)


def test_json_text_escapes_what_json_writers_leave_raw() -> None:
    text = json.dumps({"t": f"a\x1b{CSI8}\x7f{BIDI}\u2066\u200f"}, ensure_ascii=False)
    assert "\x9b" in text and "\x1b" not in text  # json.dumps leaves C1 and DEL raw
    assert "\u202e" in text  # and the bidirectional controls
    safe = json_text(text)
    _safe(safe)
    assert not re.search("[\u202a-\u202e\u2066-\u2069\u200e\u200f]", safe)
    assert "\\u202e" in safe and json.loads(safe) == json.loads(text)


def test_rulesplay_consoles_show_markup_literally_and_drop_controls() -> None:
    out = console(file=io.StringIO(), force_terminal=True, width=200)
    out.print(f"{MARK}{OSC}", style="bold")
    out.print(literal(f"{MARK}{OSC}{CSI8}"))
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert text.count(MARK) == 2
    assert "\x1b[1m" in text  # rich's own styles still work
    _safe(text, styled=True)
    # a literal is safe on any console, markup and all
    other = Console(file=io.StringIO(), width=200)
    other.print(literal(MARK + OSC))
    assert other.file.getvalue() == MARK + "\n"  # type: ignore[attr-defined]


def test_every_console_is_made_in_the_one_place() -> None:
    src = Path(__file__).resolve().parents[1] / "src" / "rulesplay"
    for path in src.rglob("*.py"):
        if path.name != "terminal.py":
            text = path.read_text(encoding="utf-8")
            assert "Console(" not in text, f"{path}: make consoles with terminal.console()"
            assert "from_markup" not in text, f"{path}: ruleset text is never markup"


# ---------------------------------------------------------------- every command
def test_run_with_bots_shows_every_text_literally(folder: Path) -> None:
    path = str(folder / "hostile.rules")
    out = _cli("run", path, "--seed", "1")
    for word in ("Sale", "Deal", "Play", "Say", "Prompt", "Ruby", "Trick", "Red", "Won",
                 "Show", "Hand", "Deck"):
        assert f"{word} {MARK}" in out, word
    assert f"Points {MARK}" in out  # a column of the final table
    assert "pwned" not in out  # a sequence goes with its payload
    _cli("run", path, "--seed", "2", "--quiet")
    _cli("run", path, "--seed", "3", "--lang", "ja", env={"FORCE_COLOR": "1"})


def test_a_bad_player_count_quotes_the_title_safely(folder: Path) -> None:
    result = CliRunner().invoke(main, ["run", str(folder / "hostile.rules"), "--players", "3"])
    assert result.exit_code == 2 and f"Sale {MARK} is for 2 players" in result.output
    _safe(result.output)


def test_options_graph_compile_and_validate(folder: Path) -> None:
    path = str(folder / "hostile.rules")
    assert f"Rounds {MARK}" in _cli("options", path)
    assert f"Sale {MARK}: options" in _cli("options", path)
    assert f"Play {MARK}" in _cli("graph", path)
    assert f"Deal {MARK}" in _cli("graph", path, "--format", "dot")
    assert f"Sale {MARK}: 2 players" in _cli("compile", path)
    assert ir.Ruleset.model_validate_json(_cli("compile", path, "--json")) == \
        load_ruleset(path)[0]
    assert "ok" in _cli("validate", path, str(folder / "variant.rules"))


def test_simulate_compare_and_diff(folder: Path) -> None:
    base, variant = str(folder / "hostile.rules"), str(folder / "variant.rules")
    assert f"Sale {MARK}" in _cli("simulate", base, "-n", "2", "--workers", "1")
    data = json.loads(_cli("simulate", base, "-n", "2", "--workers", "1", "--json"))
    assert data["title"] == f"Sale {MARK}{OSC}{CSI8}{BIDI}"  # the JSON keeps the text exactly
    data = json.loads(_cli("compare", base, variant, "-n", "2", "--workers", "1", "--json"))
    assert data["variant"]["title"] == f"Variant {MARK}{OSC}{CSI8}{BIDI}"
    out = " ".join(_cli("compare", base, variant, "-n", "2", "--workers", "1").split())
    assert f"Sale {MARK}" in out and f"Variant {MARK}" in out
    assert MARK in _cli("diff", base, variant)


def test_replay_reports_a_hostile_log_without_its_controls(folder: Path,
                                                           tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    _cli("run", str(folder / "hostile.rules"), "--seed", "1", "--quiet", "--log", str(log))
    rows = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    decision = next(r for r in rows if r["type"] == "decision")
    decision["label"] += OSC + CSI8  # a label the replay will not give
    log.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert result.exit_code == 1 and "first difference at event" in result.output
    assert "\\u009b31m" in result.output  # shown, escaped
    _safe(result.output)


@pytest.mark.parametrize("command,decl,line,said", [
    ("validate", "", 'say "{nope OSC +}"', "is not an expression"),
    ("validate", 'option m: a | b = "x OSC"', "next end",
         "the default of option 'm' is the text \"x"),
    ("run", "", 'let m = {"a OSC": 1}["b"]', "no entry for the key \"b\" in {\"a \": 1}"),
])
def test_diagnostics_quote_ruleset_text_without_its_controls(
        tmp_path: Path, command: str, decl: str, line: str, said: str) -> None:
    bad = tmp_path / "bad.rules"
    bad.write_text(f'game "T"\nplayers 2..2\n{decl}\ncard c:\n    copies: 1\n'
                   f"zone z: shared, public\nphase p:\n    {line}\n    next end\nscore: 0\n"
                   .replace("OSC", OSC), encoding="utf-8")
    result = CliRunner().invoke(main, [command, str(bad)])
    assert result.exit_code == 1 and said in result.output, result.output
    _safe(result.output)


def test_a_human_seat_sees_literal_text_and_may_type_markup(folder: Path) -> None:
    child = spawn(["run", str(folder / "hostile.rules"), "--seat", "0=human", "--seed", "1"],
                  folder)
    child.expect(PROMPT)
    screen = child.before
    words = " ".join(screen.split())  # the screen wraps at 80 columns
    for shown in (f"Sale {MARK}", f"About {MARK}", f"Round {MARK} 1", f"Pile {MARK}(0)",
                  f"Your Hand {MARK} (2)", f"your turn: Prompt {MARK}", f"Skip {MARK}"):
        assert shown in words, shown
    typed = []
    for text in ("[/]", "[bold]x", "help"):
        child.sendline(text)
        child.expect(PROMPT)
        typed.append(child.before)
    assert "'[/]' is not one of the choices" in typed[0]
    assert "'[bold]x' is not one of the choices" in typed[1]
    assert f"About {MARK}" in " ".join(typed[2].split())
    child.sendline("1")
    rest = answer_until_end(child)
    assert child.exitstatus == 0, rest
    assert "Traceback" not in rest and "Final scores" in rest
    _safe(screen + "".join(typed) + rest)
