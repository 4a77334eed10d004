"""Every file rulesplay writes goes through one guard (:mod:`rulesplay.outfiles`): a ruleset,
a symbolic link or an existing file is never replaced without --force (from a fresh user
review: ``graph --format svg -o victim.rules`` overwrote a ruleset, ``-o link.svg`` wrote
through the link, and graph had no --force)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rulesplay.cli import main

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "rulesplay"


def _cli(cwd: Path, *args: str) -> Result:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, list(args))
    finally:
        os.chdir(old)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "rulesets" / "card_hunt.rules", tmp_path / "victim.rules")
    (tmp_path / "existing.svg").write_text("keep\n", encoding="utf-8")
    (tmp_path / "link.svg").symlink_to(tmp_path / "existing.svg")
    (tmp_path / "existing.mmd").write_text("keep\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("target, says", [
    ("victim.rules", "will not write the graph to victim.rules: it is a ruleset file"),
    ("link.svg", "will not write the graph to link.svg: it is a symbolic link"),
    ("existing.svg", "existing.svg already exists; give --force"),
    ("existing.mmd", "existing.mmd already exists; give --force"),
])
@pytest.mark.parametrize("fmt", [[], ["--format", "svg"]])
def test_graph_never_loses_a_file(folder: Path, target: str, says: str,
                                  fmt: list[str]) -> None:
    if fmt and target.endswith(".mmd"):
        return  # (another format than the file's: refused for that)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    result = _cli(folder, "graph", "card_hunt", *fmt, "-o", target)
    assert result.exit_code == 1, result.output
    assert says in " ".join(result.output.split())
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert (folder / "link.svg").is_symlink()


def test_graph_force_replaces_a_plain_file_only(folder: Path) -> None:
    result = _cli(folder, "graph", "card_hunt", "-o", "existing.mmd", "--force")
    assert result.exit_code == 0, result.output
    assert (folder / "existing.mmd").read_text(encoding="utf-8").startswith("flowchart TD")
    result = _cli(folder, "graph", "card_hunt", "-o", "victim.rules", "--format", "dot",
                  "--force")
    assert result.exit_code == 1 and "it is a ruleset file" in result.output
    assert (folder / "victim.rules").read_text(encoding="utf-8").startswith("#") or \
        "game" in (folder / "victim.rules").read_text(encoding="utf-8")


def test_fmt_write_never_writes_through_a_link(tmp_path: Path) -> None:
    real = tmp_path / "real.rules"
    real.write_text(ROOT.joinpath("rulesets", "card_hunt.rules").read_text(encoding="utf-8")
                    + "\n\n\n", encoding="utf-8")  # not in canonical layout
    (tmp_path / "link.rules").symlink_to(real)
    before = real.read_bytes()
    result = _cli(tmp_path, "fmt", "--write", "link.rules")
    assert result.exit_code == 1 and "it is a symbolic link" in result.output
    assert real.read_bytes() == before
    os.chmod(real, 0o644)
    result = _cli(tmp_path, "fmt", "--write", "real.rules")  # its purpose: kept
    assert result.exit_code == 0, result.output
    assert real.read_bytes() != before and (real.stat().st_mode & 0o777) == 0o644


# Every place in src/ that opens a file for writing, and the guard it goes through. A new
# writer fails here until it is listed with its guard (so no command can write unchecked).
WRITERS = {
    ("cli.py", 'open(path, "w"'): "_open_output: claim_output",
    ("authoring_cli.py", 'path.open("x"'): "new: never replaces (O_EXCL)",
    ("outfiles.py", 'os.fdopen(fd, "w"'): "write_atomic: check_target",
    ("sweep_cli.py", 'open(path, "w"'): "--out: check_output before any game",
    ("sweep_cli.py", "fig.savefig("): "--plot: check_output before any game",
    ("sim_cli.py", "fig.savefig("): "--plot: check_output before any game",
    ("graph.py", '"-o", str(target)'): "graph: check_output or fresh_name",
    ("web/simulation_page.py", ".write_text("): "a temporary folder of its own",
}
WRITES = re.compile(r'open\([^)]*"[wxa]b?"|\.write_text\(|\.write_bytes\(|savefig\(|'
                    r'"-o", str\(')


def test_every_writer_in_src_is_guarded() -> None:
    found = set()
    for path in SRC.rglob("*.py"):
        if "engine" in path.parts:
            continue
        rel = path.relative_to(SRC).as_posix()
        for line in path.read_text(encoding="utf-8").splitlines():
            if WRITES.search(line):
                known = [k for k in WRITERS if k[0] == rel and k[1] in line]
                assert known, f"{rel}: an unlisted writer: {line.strip()}"
                found.update(known)
    assert found == set(WRITERS)


def test_graph_takes_its_format_from_the_output_file(tmp_path: Path) -> None:
    result = _cli(tmp_path, "graph", "card_hunt", "-o", "g.dot")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "g.dot").read_text(encoding="utf-8").startswith("digraph")
    assert "digraph" not in result.output
    result = _cli(tmp_path, "graph", "card_hunt", "-o", "g.txt")
    assert result.exit_code == 2 and ".mmd, .mermaid, .dot, .gv, .svg, .png" in result.output
    result = _cli(tmp_path, "graph", "card_hunt", "-o", "g.svg", "--format", "png")
    assert result.exit_code == 2 and "choose one" in result.output
    assert not (tmp_path / "g.svg").exists() and not (tmp_path / "g.txt").exists()


def test_graph_refuses_a_language_the_game_has_not() -> None:
    result = CliRunner().invoke(main, ["graph", "bargain_hunter", "--lang", "xx"])
    assert result.exit_code == 2 and "no 'xx' labels; languages: en, ja" in result.output
    result = CliRunner().invoke(main, ["graph", "bargain_hunter", "--lang", "ja"])
    assert result.exit_code == 0 and "flowchart" in result.output


def test_compile_json_and_python_choose_one() -> None:
    result = CliRunner().invoke(main, ["compile", "card_hunt", "--json", "--python"])
    assert result.exit_code == 2 and "--json and --python: choose one" in result.output


# ---------------------------------------------------------------- other faults of the review
@pytest.mark.parametrize("given", [None, "rulesets", "./rulesets/", "sub/../rulesets"])
def test_every_name_list_prints_runs(tmp_path: Path, given: str | None) -> None:
    """`list` prints names `run` takes, whatever folder it read (./rulesets by default)."""
    (tmp_path / "rulesets" / "house").mkdir(parents=True)
    (tmp_path / "sub").mkdir()
    shutil.copy(ROOT / "rulesets" / "card_hunt.rules", tmp_path / "rulesets" / "harsh.rules")
    shutil.copy(ROOT / "rulesets" / "card_hunt.rules", tmp_path / "rulesets" / "house" / "x.rules")
    listed = _cli(tmp_path, "list", *([given] if given else []))
    assert listed.exit_code == 0, listed.output
    names = [line.split(": ", 1)[0] for line in listed.output.splitlines()
             if not line.startswith(" ")]
    assert len(names) == 2
    for name in names:
        result = _cli(tmp_path, "run", name, "--seed", "1", "-q")
        assert result.exit_code == 0, (name, result.output)


def test_cards_prints_values_as_the_language_writes_them() -> None:
    result = CliRunner().invoke(main, ["cards", "bargain_quest"])
    assert result.exit_code == 0, result.output
    assert "adventure false" in result.output and "adventure true" in result.output
    assert not re.search(r"\b(True|False|None)\b", result.output)


@pytest.mark.parametrize("args, says", [
    (["--seat", "0=humna"], "unknown bot 'humna' (did you mean 'human'?); available: "
                            "random, greedy, mcts, human"),
    (["--bot", "gredy"], "unknown bot 'gredy' (did you mean 'greedy'?)"),
    (["--bot", "mcts:"], "bot 'mcts:': nothing follows ':'"),
    (["--seat", "1=random:"], "'random' takes no parameters: leave the ':' out"),
    (["--bot", "mcts:iterations=2,,c=1"], "an empty parameter between commas"),
])
def test_bot_specs_are_told_what_is_allowed(args: list[str], says: str) -> None:
    result = CliRunner().invoke(main, ["run", "card_hunt", "-q", "--seed", "1", *args])
    assert result.exit_code == 2 and says in " ".join(result.output.split()), result.output


def test_a_bot_only_list_does_not_offer_human() -> None:
    result = CliRunner().invoke(main, ["simulate", "card_hunt", "-n", "2", "--workers", "1",
                                       "--bot", "humna"])
    assert result.exit_code == 2 and "available: random, greedy, mcts" in result.output
    assert "human" not in result.output.replace("humna", "")


def test_save_at_the_prompt_says_what_the_player_can_do(tmp_path: Path) -> None:
    """No '--force' mid-game: the in-game command to use instead."""
    taken = tmp_path / "t.csv"
    taken.write_text("keep\n", encoding="utf-8")
    result = _cli_input(tmp_path, "save t.csv\nquit\nn\n")
    said = " ".join(result.output.split())
    assert "t.csv already exists and is kept: save under another name with 'save FILE'" \
        in said, said
    assert "--force" not in said
    assert taken.read_text(encoding="utf-8") == "keep\n"


def _cli_input(cwd: Path, answers: str) -> Result:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, ["run", "card_hunt", "--seed", "1", "--seat",
                                         "0=human", "--save", "g.save.json"], input=answers)
    finally:
        os.chdir(old)


@pytest.fixture(scope="module")
def three_kinds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ruleset, a save and a log, named as a person might (the save as play/mine.json)."""
    here = tmp_path_factory.mktemp("kinds")
    shutil.copy(ROOT / "rulesets" / "card_hunt.rules", here / "house.rules")
    assert _cli(here, "run", "house.rules", "--seed", "3", "-q", "--log", "g.jsonl",
                ).exit_code == 0
    old = os.getcwd()
    os.chdir(here)
    try:
        CliRunner().invoke(main, ["run", "house.rules", "--seed", "3", "--seat", "0=human",
                                  "--save", "mine.json"], input="quit\ny\n")
    finally:
        os.chdir(old)
    assert (here / "mine.json").exists()
    return here


@pytest.mark.parametrize("args, says", [
    (["run", "mine.json"], "mine.json is a saved game, not a ruleset: continue it with: "
                           "rulesplay resume mine.json"),
    (["validate", "g.jsonl"], "g.jsonl is a game log, not a ruleset: check it with: "
                              "rulesplay replay g.jsonl"),
    (["simulate", "mine.json", "-n", "2"], "mine.json is a saved game, not a ruleset"),
    (["replay", "house.rules"], "house.rules is a ruleset, not a game log: play it with: "
                                "rulesplay run house.rules"),
    (["replay", "mine.json"], "mine.json is a saved game, not a game log: continue it with: "
                              "rulesplay resume mine.json"),
    (["resume", "house.rules"], "it is a ruleset: play it with 'rulesplay run'"),
    (["resume", "g.jsonl"], "it is a game log: replay it with 'rulesplay replay'"),
])
def test_each_reader_names_the_command_for_another_kind_of_file(
        three_kinds: Path, args: list[str], says: str) -> None:
    result = _cli(three_kinds, *args)
    assert result.exit_code == 1 and says in " ".join(result.output.split()), result.output
    assert "expected one of" not in result.output and "not an event" not in result.output


def test_run_prints_a_whole_command_that_repeats_the_game() -> None:
    import shlex
    given = ["bargain_hunter", "-o", "rounds=1", "--lang", "ja", "-p", "3", "--bot", "greedy",
             "--seat", "1=mcts:iterations=3"]
    first = CliRunner().invoke(main, ["run", *given])
    assert first.exit_code == 0, first.output
    line = next(x for x in first.output.splitlines() if "rulesplay run" in x)
    command = shlex.split(line.split(": ", 1)[1])
    assert command[:2] == ["rulesplay", "run"]
    again = CliRunner().invoke(main, command[1:])
    assert again.exit_code == 0
    # the same game: every line after the header (which the repeat does not need)
    assert again.output.splitlines()[1:] == first.output.splitlines()[2:]
    quiet = CliRunner().invoke(main, ["run", *given, "-q"])
    assert quiet.exit_code == 0 and "rulesplay run" not in quiet.stdout  # -q: the table only
    assert "rulesplay run bargain_hunter --players 3" in quiet.stderr
    assert again.output.splitlines()[0] == first.output.splitlines()[0]


def test_a_bot_on_the_clock_says_the_game_cannot_be_repeated() -> None:
    result = CliRunner().invoke(main, ["run", "card_hunt", "--bot", "mcts:seconds=0.001"])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "cannot be repeated from its seed" in said and "rulesplay run" not in said


def test_new_points_to_documents_honestly(tmp_path: Path) -> None:
    """A wheel installs no docs/: the template says where the documents it names are."""
    for args in (["new", "g"], ["new", "h", "--from", "card_hunt"]):
        assert _cli(tmp_path, *args).exit_code == 0
        text = (tmp_path / f"{args[1]}.rules").read_text(encoding="utf-8")
        named = re.findall(r"docs/[\w/]+\.md", text)
        assert named and all((ROOT / n).is_file() for n in named)
        assert "of rulesplay's source" in " ".join(text.replace("#", " ").split())
        assert _cli(tmp_path, "validate", f"{args[1]}.rules").exit_code == 0


def test_readme_says_when_run_warns_that_a_save_holds_every_hand() -> None:
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "(`run` says so)" not in text
    assert "of the save when several people share the table" in text
