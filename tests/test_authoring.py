"""Writing rulesets anywhere: shipped games by name (``run NAME``, ``extends "NAME"``), where
``extends``/``include`` may reach (docs/files.md), ``rulesplay new``, ``cards``, ``fmt`` and
``graph --format svg|png``."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesplay
from rulesplay.cli import main
from rulesplay.engine.game import load_bundle
from rulesplay.errors import RulesError
from rulesplay.fmt import comments, format_text, same_meaning
from rulesplay.parse import parse_text
from rulesplay.shipped import find_shipped, shipped_names, shipped_root

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted([*(ROOT / "rulesets").rglob("*.rules"), *(ROOT / "rulesets").rglob("*.part")])


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


# ------------------------------------------------------------------ names
def test_every_shipped_game_has_a_name_and_a_unique_last_part_finds_it() -> None:
    names = shipped_names()
    assert shipped_root() == ROOT / "rulesets"  # from a checkout: the folder beside src/
    assert {"bargain_hunter", "classics/hearts", "variants/bargain_bin_selfless"} <= set(names)
    assert find_shipped("hearts") == ROOT / "rulesets" / "classics" / "hearts.rules"
    with pytest.raises(LookupError, match="did you mean 'bargain_hunter'"):
        find_shipped("bargain_huntr")


def test_run_takes_a_name_from_any_folder_and_a_wrong_name_says_what_is_near(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    by_name = invoke("run", "card_hunt", "-q", "--seed", "3", "-p", "3")
    by_path = invoke("run", str(ROOT / "rulesets" / "card_hunt.rules"), "-q", "--seed", "3",
                     "-p", "3")
    assert by_name == by_path and by_name[0] == 0
    code, out = invoke("validate", "card_hnt")
    assert code == 1 and "no shipped game is named 'card_hnt' (did you mean 'card_hunt'?)" \
        in out


def test_a_variant_in_a_users_folder_extends_a_shipped_game_by_name_and_a_base_by_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "house.rules").write_text('extends "bargain_hunter"\ngame "House"\n'
                                          "option hand_size = 6\n")
    sub = tmp_path / "mine"
    sub.mkdir()
    (sub / "more.rules").write_text('extends "../house.rules"\ngame "More"\n')
    (tmp_path / "mine.rules").write_text('extends "./house.rules"\ngame "Mine"\n')
    monkeypatch.chdir(sub)  # files are found relative to the variant, not the current folder
    for path, title in ((tmp_path / "mine.rules", "Mine"), (tmp_path / "house.rules", "House")):
        game = rulesplay.load(path)
        assert game.title == title and game.program(3).layout.options["hand_size"] == 6
        again = load_bundle(game.bundle)  # a save holds the shipped base's text
        assert again.title == title and "<rulesplay>/bargain_hunter.rules" in game.bundle.files
    # Outside the top-level file's folder tree: refused, as before.
    with pytest.raises(RulesError, match="cannot reach outside"):
        rulesplay.load(sub / "more.rules")


@pytest.mark.parametrize("line, message", [
    ('extends "no_such_game"', "no shipped game is named 'no_such_game'"),
    ('extends "../../etc/passwd.rules"', "cannot reach outside the ruleset folder tree"),
    ('extends "secret.env"', "reads ruleset files only"),
    ('include "bargain_hunter"', "reads ruleset files only"),
])
def test_what_extends_and_include_may_not_reach(tmp_path: Path, line: str, message: str) -> None:
    (tmp_path / "v.rules").write_text(f'{line}\ngame "V"\n')
    with pytest.raises(RulesError, match=message):
        rulesplay.load(tmp_path / "v.rules")


def test_a_shipped_game_reached_by_name_keeps_its_own_tree(tmp_path: Path) -> None:
    # The shipped variant extends "../bargain_bin.rules": reached from a user's folder by
    # name, its own line resolves inside the shipped games' folder.
    (tmp_path / "v.rules").write_text('extends "variants/bargain_bin_selfless"\ngame "V"\n')
    assert rulesplay.load(tmp_path / "v.rules").program(4).layout.options["selfless"] is True


# ------------------------------------------------------------------ new
def test_new_writes_a_game_that_runs_and_a_variant_that_plays_as_its_base(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert invoke("new", "my_game")[0] == 0
    code, out = invoke("run", "my_game.rules", "-q", "--seed", "1")
    assert code == 0 and "Winner" in out
    code, out = invoke("new", "my_game")
    assert code == 2 and "does not overwrite" in out
    assert invoke("fmt", "--check", "my_game.rules") == (0, "")  # the template is canonical
    assert invoke("new", "house", "--from", "bargain_hunter")[0] == 0
    text = (tmp_path / "house.rules").read_text()
    assert 'extends "bargain_hunter"' in text and "# option hand_size = 8" in text
    assert invoke("run", "house.rules", "--seed", "4")[1].replace("Bargain Hunter (House)",
                                                                  "Bargain Hunter") == \
        invoke("run", "bargain_hunter", "--seed", "4")[1]
    code, out = invoke("new", "other", "--from", "bargain_huntr")
    assert code == 1 and "did you mean 'bargain_hunter'" in out
    assert not (tmp_path / "other.rules").exists()
    outside = tmp_path.parent / f"{tmp_path.name}-base.rules"
    outside.write_text((ROOT / "rulesets" / "card_hunt.rules").read_text())
    code, out = invoke("new", "other", "--from", str(outside))  # a base it may not reach
    assert code == 2 and "cannot reach outside" in out and not (tmp_path / "other.rules").exists()


@pytest.mark.parametrize("name, says", [
    ("../../etc/passwd", "names a folder"), ("sub/game", "names a folder"),
    ("a\\b", "names a folder"), ("", "is empty"), ("  ", "is empty"),
    (".rules", "starts with '.'"), (".hidden", "starts with '.'"), ("..", "starts with '.'"),
    ("a\nb", "control character"), ("a\x1b[31mb", "control character"),
])
def test_new_takes_only_a_plain_file_name_in_the_current_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, says: str) -> None:
    work = tmp_path / "a" / "b"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    code, out = invoke("new", name)
    assert code == 2 and says in out and "NAME must be a plain file name" in out
    assert "Traceback" not in out and "\x1b" not in out
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []  # nothing written anywhere


def test_new_escapes_the_title_and_shell_quotes_the_suggested_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name, title in (('x"; y', 'X"; Y'), ("a b", "A B"), ("it's {x}", "It'S {X}"),
                        ("tab\there", None)):
        code, out = invoke("new", name)
        if title is None:  # a control character is refused
            assert code == 2
            continue
        assert code == 0, out
        assert rulesplay.load(tmp_path / f"{name}.rules").title == title  # validates, intact
        assert shlex.split(out.split("try: ")[1]) == ["rulesplay", "run", f"{name}.rules",
                                                      "--seed", "1"]
    code, out = invoke("new", 'v"2', "--from", 'x"; y.rules')  # a variant of a quoted base
    assert code == 0, out
    assert rulesplay.load(tmp_path / 'v"2.rules').title == 'X"; Y (V"2)'


# ------------------------------------------------------------------ cards
def test_cards_lists_each_distinct_card_with_its_copies_and_ability_text() -> None:
    code, out = invoke("cards", "bargain_quest", "--json", "-p", "2")
    assert code == 0
    rows = json.loads(out)
    game = rulesplay.load(ROOT / "rulesets" / "bargain_quest.rules")
    assert sum(r["copies"] for r in rows) == len(game.program(2).card_ids)
    assert len({(r["label"], json.dumps(r["attributes"], sort_keys=True)) for r in rows}) \
        == len(rows)
    texts = {a.labels.get(None, a.name) for a in game.ruleset.abilities}
    with_text = [r for r in rows if r["abilities"]]
    assert with_text and all(set(r["abilities"]) <= texts for r in with_text)
    code, out = invoke("cards", "classics/hearts")
    assert code == 0 and "52 cards" in out and "queen of spades" in out
    code, out = invoke("cards", "classics/hearts", "-p", "9")
    assert code == 2 and "3 to 5 players" in out


# ------------------------------------------------------------------ fmt
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_fmt_keeps_meaning_and_comments_and_is_idempotent(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tidy = format_text(text, str(path))
    assert same_meaning(parse_text(tidy, str(path)), parse_text(text, str(path)))
    assert [c.text for c in comments(tidy)] == [c.text for c in comments(text)]
    assert format_text(tidy, str(path)) == tidy
    assert all(len(line) <= 100 or line.lstrip().startswith("#") or '"' in line
               for line in tidy.splitlines())


def test_fmt_puts_each_comment_at_its_statement_and_check_write_agree(
        tmp_path: Path) -> None:
    messy = ('# top\ngame   "T"\nplayers 2..2\nvar n:int=0   # a counter\n'
             'phase p:\n  # before the move\n  n+=1\n  if n<3:   # trailing\n'
             '        # inside\n        n = n+1\n  next end\nscore: n\n')
    tidy = format_text(messy, "t.rules")
    lines = tidy.splitlines()
    assert lines[:3] == ["# top", 'game "T"', "players 2..2"]  # (the author's words kept)
    assert "var n: int = 0  # a counter" in lines
    assert lines[lines.index("    # before the move") + 1] == "    n += 1"
    assert "    if n < 3:  # trailing" in lines
    assert lines[lines.index("        # inside") + 1] == "        n = n + 1"
    path = tmp_path / "t.rules"
    path.write_text(messy)
    assert invoke("fmt", "--check", str(path)) == (1, f"would reformat {path}\n")
    assert invoke("fmt", "--write", str(path))[0] == 0 and path.read_text() == tidy
    assert invoke("fmt", "--check", str(path)) == (0, "")
    code, out = invoke("fmt", str(ROOT / "tests" / "bad" / "syntax_missing_colon.rules"))
    assert code == 1 and ":" in out.split("error")[0]


def test_fmt_keeps_an_authors_line_breaks_that_read_well() -> None:
    """fmt pushed card_hunt's choice prompt onto a continuation line after the 'where'; a
    statement written over lines that fit, each further in than the first, is kept so."""
    path = ROOT / "rulesets" / "card_hunt.rules"
    text = path.read_text(encoding="utf-8")
    assert format_text(text, str(path)) == text
    assert invoke("fmt", "--check", str(path)) == (0, "")
    long = ('game "T"\nplayers 2\n\ncard c:\n    rank: 1..5\n\nzone deck: shared, public\n'
            "\nphase p:\n    0 chooses x from deck\n        where x.rank > 1\n"
            '        "pick a card"\n    next end\n\nscore: 0\n')
    assert format_text(long, "t.rules") == long
    # a break that does not read well (the next line not further in) is tidied away
    flat = long.replace("        where", "    where", 1)
    with pytest.raises(RulesError):  # (not even the same statement: a syntax error)
        format_text(flat, "t.rules")


def test_fmt_breaks_a_long_list_between_its_items() -> None:
    """A trick's order of many parts broke inside a part ('it.colour == blue' / 'and it.rank
    < 5'); it breaks after a comma at the list's level when one is past the middle."""
    text = ('game "T"\nplayers 2\n\nenum colour: red, blue\n\ncard c:\n    colour: colour\n'
            "    rank: 1..5\n\nzone deck: shared, hidden\nzone hand: per player, owner\n"
            "zone table: shared, public\n\nphase p:\n    deal 2 from deck to hand starting with 0\n"
            "    trick in table led by 0:\n        each player plays card from hand[player]\n"
            "        won by highest (it.colour == red and it.rank > 1, it.colour == blue and "
            "it.rank < 5, it.rank, it.rank == 3 or it.rank == 4)\n    next end\n\nscore: 0\n")
    lines = format_text(text, "t.rules").split("\n")
    at = next(i for i, line in enumerate(lines) if "won by highest" in line)
    assert lines[at] == ("        won by highest (it.colour == red and it.rank > 1, "
                         "it.colour == blue and it.rank < 5,")
    assert lines[at + 1] == "                it.rank, it.rank == 3 or it.rank == 4)"


@pytest.mark.parametrize("name", ["card_hunt", "classics/crazy_eights", "classics/euchre",
                                  "classics/oh_hell", "classics/spades", "bargain_bin",
                                  "bargain_hunter", "bargain_quest", "classics/bridge",
                                  "classics/hearts", "classics/president", "classics/whist",
                                  "variants/bargain_quest_advanced_2p"])
def test_fmt_check_passes_on_shipped_rulesets_in_the_shipped_style(name: str) -> None:
    """Every shipped ruleset was 'would reformat': fmt now keeps an author's breaks, one-line
    enums with labels that fit, 'players 4', the author's words ('yes', 'players 2..2'),
    order of clauses and blank lines (tests/test_fmt_layout.py checks every file)."""
    assert invoke("fmt", "--check", str(ROOT / "rulesets" / f"{name}.rules")) == (0, "")


# ------------------------------------------------------------------ graph pictures
@pytest.mark.skipif(shutil.which("dot") is None,
                    reason="Graphviz's 'dot' is not installed (apt-get install graphviz)")
@pytest.mark.parametrize("fmt, magic", [("svg", b"<?xml"), ("png", b"\x89PNG")])
def test_graph_draws_a_picture_with_graphviz(tmp_path: Path, fmt: str, magic: bytes) -> None:
    target = tmp_path / f"g.{fmt}"
    assert invoke("graph", "card_hunt", "--format", fmt, "-o", str(target)) == \
        (0, f"wrote {target}\n")
    assert target.read_bytes().startswith(magic)


def test_graph_says_how_to_get_graphviz_when_dot_is_missing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    code, out = invoke("graph", "card_hunt", "--format", "svg", "-o", str(tmp_path / "g.svg"))
    assert code == 1 and "install Graphviz" in out and "--format dot" in out
    assert not (tmp_path / "g.svg").exists()


def test_the_resume_command_a_save_suggests_is_shell_quoted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for answers in ("save\nquit\nn\n", "quit\ny\n"):  # saved, then left saved
        (tmp_path / "my game's.json").unlink(missing_ok=True)
        result = CliRunner().invoke(main, ["run", "card_hunt", "-p", "3", "--seat", "0=human",
                                           "--seed", "2", "--save", "my game's.json"],
                                    input=answers)
        assert result.exit_code == 0, result.output
        text = result.output.replace("\n", "")  # (the console wraps long lines)
        said = text.split("Continue later with: ")[1:]
        assert said and all(shlex.split(s.split(".json")[0] + ".json'")
                            == ["rulesplay", "resume", "my game's.json"] for s in said)
