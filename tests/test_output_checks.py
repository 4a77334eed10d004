"""Every output file of ``simulate``, ``compare`` and ``sweep`` is checked before the first
game (from a fresh user review: ``simulate --plot /nonexistent/x.png`` played every game and
only then failed): one shared check, :func:`rulesplay.cliargs.check_output`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesplay.sim as sim
from rulesplay.cli import main
from rulesplay.outfiles import OutputRefused, check_target, folder_problem

GAME = "card_hunt"


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played fails the test (the check must come first)."""
    def played(*args: object, **kw: object) -> object:
        raise AssertionError("a game was played before the output was checked")
    monkeypatch.setattr(sim, "play_game", played)


def _commands(out: str) -> list[list[str]]:
    common = ["-n", "100000", "--workers", "1"]
    return [["simulate", GAME, *common, "--plot", out],
            ["sweep", GAME, "--option", "rounds=1,2", *common, "--plot", out],
            ["sweep", GAME, "--option", "rounds=1,2", *common,
             "--out", out.replace(".png", ".csv")]]


@pytest.mark.parametrize("which", range(3))
@pytest.mark.parametrize("where, says", [
    ("missing/x.png", "the folder {tmp}/missing does not exist"),
    ("afile/x.png", "{tmp}/afile is not a folder"),
    ("locked/x.png", "the folder {tmp}/locked cannot be written"),
])
def test_an_output_that_cannot_be_written_is_refused_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_games: None, which: int,
        where: str, says: str) -> None:
    (tmp_path / "afile").write_text("x")
    (tmp_path / "locked").mkdir()
    real = os.access
    # (as root every folder is writable: the check asks os.access, so ask it the same)
    monkeypatch.setattr(os, "access", lambda p, mode: not str(p).endswith("locked")
                        and real(p, mode))
    args = _commands(str(tmp_path / where))[which]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert says.format(tmp=tmp_path) in " ".join(result.output.split())
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args, says", [
    (["simulate", GAME, "--plot", "x.txt"], "--plot x.txt: the file must end in .png, .svg "
                                            "or .pdf"),
    (["simulate", GAME, "--plot", ""], "--plot: give the file to write the plot to"),
    (["sweep", GAME, "--option", "rounds=1,2", "--plot", ""], "--plot: give the file"),
    (["sweep", GAME, "--option", "rounds=1,2", "--out", "t.txt"],
     "--out t.txt: the file must end in .csv or .json"),
    (["sweep", GAME, "--option", "rounds=1,2", "--out", ""], "--out: give the file"),
])
def test_an_output_of_no_known_kind_is_refused_before_any_game(
        no_games: None, args: list[str], says: str) -> None:
    result = CliRunner().invoke(main, [*args, "-n", "100000", "--workers", "1"])
    assert result.exit_code == 2 and says in result.output, result.output


def test_the_folder_check_is_part_of_every_output_claim(tmp_path: Path) -> None:
    assert folder_problem(tmp_path / "x.log") is None
    assert folder_problem("x.log") is None  # the current folder
    with pytest.raises(OutputRefused, match="does not exist") as info:
        check_target(tmp_path / "no" / "x.log", "the log")
    assert info.value.folder and not info.value.replaceable
