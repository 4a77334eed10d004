"""Messages from a fresh user review: ``resume`` of a file that is not a save says what a
save is (not Python's JSON parser text); one seed range (0 to 2^63 - 1) for every command and
the web, which the generator, saves and logs take too; the length measure that counts phase
entries is named for what it counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import rulesplay
from rulesplay.cli import main
from rulesplay.errors import OptionError
from rulesplay.limits import MAX_SEED, MAX_STATE_SEED

ROOT = Path(__file__).resolve().parents[1]
CH = str(ROOT / "rulesets" / "card_hunt.rules")


def _invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, " ".join(result.output.split())


# ---------------------------------------------------------------- resume
@pytest.mark.parametrize("name, content, why", [
    ("empty.rules", b"", "it is empty"),
    ("game.rules", b'game "X"\n', "it is a ruleset: play it with 'rulesplay run'"),
    ("notes.txt", b"hello\n", "it is not JSON"),
    ("other.json", b'{"hello": 1}', "it is JSON of another kind"),
    ("list.json", b"[1, 2]", "it is JSON of another kind"),
    ("bin.save.json", b"\xff\xfe\x00", "it is not text"),
    ("game.jsonl", b'{"type": "header", "ruleset": "x"}\n{"type": "move"}\n',
     "it is a game log: replay it with 'rulesplay replay'"),
])
def test_resume_of_a_file_that_is_not_a_save_says_what_a_save_is(
        tmp_path: Path, name: str, content: bytes, why: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    code, out = _invoke("resume", str(path))
    assert code == 1
    assert f"{path} is not a rulesplay save ({why}). A save is the .save.json file that " \
           "'rulesplay run FILE --seat N=human' writes" in out
    assert "Expecting" not in out and "char 0" not in out and "codec" not in out


# ---------------------------------------------------------------- seeds
@pytest.mark.parametrize("seed", ["-5", str(MAX_SEED + 1),
                                  "99999999999999999999999999999999", "x", "1e3", "٣"])
@pytest.mark.parametrize("command", [
    ["run", CH, "-q"], ["simulate", CH, "-n", "1", "--workers", "1"],
    ["compare", CH, CH, "-n", "1", "--workers", "1"],
    ["sweep", CH, "--option", "hand_size=5,6", "-n", "1", "--workers", "1"],
])
def test_every_command_takes_one_seed_range(command: list[str], seed: str) -> None:
    code, out = _invoke(*command, "--seed", seed)
    assert code == 2, out
    assert "the seed is a whole number from 0 to 9,223,372,036,854,775,807 (2^63 - 1)" in out


def test_the_largest_seed_plays_saves_and_resumes(tmp_path: Path) -> None:
    save = tmp_path / "g.save.json"
    code, out = _invoke("run", CH, "--seat", "0=human", "--seed", str(MAX_SEED), "--save",
                        str(save), stdin="quit\ny\n")
    assert code == 0, out
    assert json.loads(save.read_text())["state"]["seed"] == MAX_SEED
    code, out = _invoke("resume", str(save), stdin="quit\nn\n")
    assert code == 0 and f"seed {MAX_SEED}" in out, out
    assert _invoke("run", CH, "-q", "--seed", "0")[0] == 0


def test_the_generator_saves_and_logs_take_the_same_range(tmp_path: Path) -> None:
    from rulesplay.web.simulation_page import MAX_SEED as WEB_MAX_SEED

    assert WEB_MAX_SEED == MAX_SEED
    game = rulesplay.load(CH)
    for bad in (-1, -5, MAX_STATE_SEED + 1):
        with pytest.raises(OptionError, match="the seed is a whole number from 0 to"):
            game.new_state(2, bad)
    assert game.new_state(2, MAX_STATE_SEED).seed == MAX_STATE_SEED  # (a secret seed)
    save = tmp_path / "g.save.json"
    assert _invoke("run", CH, "--seat", "0=human", "--seed", "3", "--save", str(save),
                   stdin="quit\ny\n")[0] == 0
    data = json.loads(save.read_text())
    for bad in (-5, MAX_STATE_SEED + 1):
        data["state"]["seed"] = bad
        save.write_text(json.dumps(data))
        code, out = _invoke("resume", str(save))
        assert code == 1 and f"the saved game is damaged: 'state.seed' cannot be {bad}" \
            in out, out
    log = tmp_path / "g.jsonl"
    assert _invoke("run", CH, "-q", "--seed", "3", "--log", str(log))[0] == 0
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head["seed"] = -3
    log.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    code, out = _invoke("replay", str(log))
    assert code == 1 and "seed" in out and "-3" in out, out


# ---------------------------------------------------------------- length
def test_the_length_measure_is_named_for_what_it_counts(tmp_path: Path) -> None:
    """A game that deals once and begins its play phase again for each of 5 tricks: the
    measure is 5 (phase entries), named for the phase it counts, and not called rounds."""
    path = tmp_path / "tiny.rules"
    path.write_text(TINY, encoding="utf-8")
    result = CliRunner().invoke(main, ["simulate", str(path), "-n", "4", "--workers", "1"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip()
            for line in result.output.splitlines() if line.count("│") >= 3}
    assert rows["Length: tricks"] == "5.0"
    assert rows["Length: entries of phase 'play'"] == "5.0"
    assert not any("round" in name.lower() for name in rows)

TINY = '''game "Tiny"
players 2
card card "card":
    rank: 2..14
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone table "trick": shared, public
zone won "won": per player, public

phase deal "Deal":
    shuffle deck
    deal 5 from deck to hand
    next play

phase play "Play":
    trick in table led by 0:
        each player plays card from hand[player] "play a card"
        won by highest it.rank
        after trick:
            move table to won[winner]
    next play if count(hand[0]) > 0
    next end

score: count(won[player])
'''
