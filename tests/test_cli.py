"""The ``rulesplay`` command line, driven through click's CliRunner."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rulesplay import ir
from rulesplay.cli import main

ROOT = Path(__file__).resolve().parents[1]
BH = str(ROOT / "rulesets" / "bargain_hunter.rules")
SHORT = ["--option", "rounds=1"]


def cli(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    # A user error never shows a Python traceback (click stores a SystemExit for exits).
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.output
    assert "Traceback" not in result.output
    return result


# ---------------------------------------------------------------- run
@pytest.mark.parametrize("players", ["3", "4"])
def test_run_plays_a_whole_game_and_names_the_winner(players: str) -> None:
    result = cli("run", BH, "--players", players, "--seed", "5", *SHORT)
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"Bargain Hunter: {players} players, seed 5" in out
    assert "Round 1: deal" in out and "The Hunt" in out and "Spring Cleaning" in out
    assert f"Dealt 8 cards to each of {players} players" in out
    assert " plays " in out and "takes the trick with" in out
    assert "Final scores" in out
    assert "Winner: Seat " in out or "Tied winners: Seat " in out
    # one row per seat in the table
    assert all(f"Seat {s}" in out.split("Final scores")[1] for s in range(int(players)))


def test_run_is_repeatable_from_its_seed_and_default_seed_is_printed() -> None:
    a = cli("run", BH, "--seed", "11", *SHORT).output
    b = cli("run", BH, "--seed", "11", *SHORT).output
    assert a == b
    free = cli("run", BH, *SHORT)
    assert free.exit_code == 0
    assert "repeat this game: rulesplay run" in free.output


def test_run_defaults_to_the_minimum_player_count() -> None:
    result = cli("run", BH, "--seed", "1", "--quiet", *SHORT)
    assert result.exit_code == 0
    table = result.output.split("Final scores")[1]
    assert "Seat 2" in table and "Seat 3" not in table


def test_quiet_prints_only_the_table() -> None:
    result = cli("run", BH, "--seed", "3", "--quiet", *SHORT)
    assert result.exit_code == 0
    assert "Final scores" in result.output and "Winner" in result.output
    assert "plays" not in result.output and "The Hunt" not in result.output


def test_lang_ja_uses_japanese_labels_and_tool_words() -> None:
    result = cli("run", BH, "--players", "4", "--seed", "2", "--lang", "ja", *SHORT)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "大掃除" in out and "お買い得品の山" in out
    assert "4人に8枚ずつ配った" in out and "最終得点" in out and "勝者: 席" in out
    assert "Seat " not in out


def test_bots_by_seat_and_unknown_bot() -> None:
    ok = cli("run", BH, "--seed", "4", "--quiet", "--seat", "1=random", *SHORT)
    assert ok.exit_code == 0
    bad = cli("run", BH, "--seed", "4", "--bot", "genius", *SHORT)
    assert bad.exit_code == 2 and "genius" in bad.output and "random" in bad.output
    seat = cli("run", BH, "--seed", "4", "--seat", "7=random", *SHORT)
    assert seat.exit_code == 2 and "seats are 0 to 2" in seat.output


# ---------------------------------------------------------------- user errors
@pytest.mark.parametrize(("args", "expected"), [
    (["--option", "roundz=1"], "did you mean 'rounds'"),
    (["--option", "roundz=1"], "trash_minimum"),
    (["--option", "rounds=99"], "from 1 to 12"),
    (["--option", "offer_lead=maybe"], "first_coloured, no_lead"),
    (["--option", "rounds"], "KEY=VALUE"),
    (["--players", "7"], "3 to 4 players"),
])
def test_bad_options_and_player_counts_are_usage_errors(args: list[str],
                                                        expected: str) -> None:
    result = cli("run", BH, "--seed", "1", *args)
    assert result.exit_code == 2
    assert expected in result.output
    assert "error:" in result.output and "Error:" not in result.output


def test_a_single_player_count_reads_as_one_number() -> None:
    result = cli("run", str(ROOT / "rulesets" / "variants" / "bargain_quest_advanced_2p.rules"),
                 "--players", "3")
    assert result.exit_code == 2
    assert "is for 2 players, not 3" in result.output and "2 to 2" not in result.output


def test_ruleset_errors_print_diagnostics(tmp_path: Path) -> None:
    bad = tmp_path / "bad.rules"
    bad.write_text('game "x"\nplayers 2..2\nphase a "A":\n    next nowhere\n',
                   encoding="utf-8")
    result = cli("run", str(bad))
    assert result.exit_code == 1
    assert f"{bad}:" in result.output and "error:" in result.output
    missing = cli("run", str(tmp_path / "nope.rules"))
    assert missing.exit_code == 1 and "no such file" in missing.output
    misspelt = cli("run", str(ROOT / "rulesets" / "bargain_huntr.rules"))
    assert "no such file (did you mean 'bargain_hunter.rules'?)" in misspelt.output


# ---------------------------------------------------------------- log and replay
def _log(tmp_path: Path, seed: str = "9") -> Path:
    log = tmp_path / "game.jsonl"
    result = cli("run", BH, "--players", "4", "--seed", seed, "--quiet", "--log", str(log),
                 *SHORT)
    assert result.exit_code == 0, result.output
    return log


def test_log_has_header_then_every_event(tmp_path: Path) -> None:
    rows = [json.loads(line) for line in _log(tmp_path).read_text("utf-8").splitlines()]
    head = rows[0]
    assert head["type"] == "header" and head["ruleset"] == BH
    assert head["players"] == 4 and head["seed"] == 9 and head["options"] == {"rounds": 1}
    assert head["bots"] == {"0": "random", "1": "random", "2": "random", "3": "random"}
    kinds = {r["type"] for r in rows[1:]}
    assert {"phase", "decision", "move", "trick", "shuffle", "end"} <= kinds
    assert rows[-1]["type"] == "end"


def test_replay_of_a_log_matches(tmp_path: Path) -> None:
    log = _log(tmp_path)
    decisions = sum(1 for line in log.read_text("utf-8").splitlines()
                    if json.loads(line)["type"] == "decision")
    result = cli("replay", str(log))
    assert result.exit_code == 0, result.output
    assert f"replay matches: {decisions} decisions, final scores Seat 0 " in result.output


def test_replay_reports_a_tampered_log(tmp_path: Path) -> None:
    log = _log(tmp_path)
    rows = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    # Change one decision: a declaration answered the other way.
    for row in rows:
        if row["type"] == "decision" and row["action"].endswith((":yes", ":no")):
            row["action"] = row["action"].rsplit(":", 1)[0] + (
                ":no" if row["action"].endswith(":yes") else ":yes")
            break
    else:
        pytest.fail("no yes/no decision in the log")
    log.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    result = cli("replay", str(log))
    assert result.exit_code == 1
    assert "replay does not match" in result.output
    assert "first difference at event" in result.output


def test_replay_of_an_illegal_action_is_a_mismatch(tmp_path: Path) -> None:
    log = _log(tmp_path)
    text = log.read_text("utf-8")
    first = next(json.loads(line)["action"] for line in text.splitlines()
                 if json.loads(line)["type"] == "decision")
    log.write_text(text.replace(f'"action": "{first}"', '"action": "pick:no-such-card"', 1),
                   encoding="utf-8")
    result = cli("replay", str(log))
    assert result.exit_code == 1
    assert "cannot be replayed" in result.output and "no-such-card" in result.output


@pytest.mark.parametrize("content", ["", "not json\n", '{"type": "move"}\n', "[1, 2]\n",
                                     '{"type": "header", "ruleset": "x"}\n'])
def test_replay_of_a_garbled_log_is_a_clear_error(tmp_path: Path, content: str) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(content, encoding="utf-8")
    result = cli("replay", str(log))
    assert result.exit_code == 1
    assert "error:" in result.output and str(log) in result.output


def test_replay_of_a_missing_log() -> None:
    result = cli("replay", "/no/such/log.jsonl")
    assert result.exit_code == 2 and "does not exist" in result.output


# ---------------------------------------------------------------- validate / compile
def test_validate_ok_and_bad(tmp_path: Path) -> None:
    ok = cli("validate", BH)
    assert ok.exit_code == 0 and ok.output.strip() == f"{BH}: ok"
    bad = tmp_path / "bad.rules"
    bad.write_text('game "x"\nplayers 2..2\nphase a "A":\n    next nowhere\n',
                   encoding="utf-8")
    both = cli("validate", BH, str(bad))
    assert both.exit_code == 1
    assert f"{BH}: ok" in both.output
    assert f"{bad}:4:" in both.output and "nowhere" in both.output and "^" in both.output


def test_compile_json_round_trips() -> None:
    result = cli("compile", BH, "--json")
    assert result.exit_code == 0
    model = ir.Ruleset.model_validate_json(result.output)
    from rulesplay.compose import load_ruleset

    assert model == load_ruleset(BH)[0]
    summary = cli("compile", BH)
    assert "Bargain Hunter: 3-4 players, 110 cards" in summary.output


# ---------------------------------------------------------------- graph / options
def test_graph_mermaid_and_dot() -> None:
    mermaid = cli("graph", BH).output
    assert mermaid.startswith("flowchart TD")
    for phase in ("deal", "bargain", "hunt", "spring_cleaning"):
        assert f"p_{phase}[" in mermaid
    assert 'p_deal -->|"round == 1"| p_bargain' in mermaid
    assert 'p_deal -->|"otherwise"| p_hunt' in mermaid
    assert 'p_spring_cleaning -->|"otherwise"| end_' in mermaid
    assert '"The Hunt"' in mermaid
    dot = cli("graph", BH, "--format", "dot").output
    assert dot.startswith("digraph phases {")
    assert '"p_deal" -> "p_bargain" [label="round == 1"];' in dot
    assert "大掃除" in cli("graph", BH, "--lang", "ja").output


def test_options_lists_types_defaults_and_docs() -> None:
    result = cli("options", BH)
    assert result.exit_code == 0
    out = result.output
    assert "rounds" in out and "int in 1..12" in out
    assert "3 players: 6" in out and "4 players: 4" in out
    assert "first_coloured |" in out and "no_lead" in out
    assert "hand_size" in out and "(BH3)" in out


# ---------------------------------------------------------------- the account
def test_account_reads_like_a_game() -> None:
    out = cli("run", BH, "--players", "4", "--seed", "7", *SHORT).output
    lines = out.splitlines()
    assert any(line.startswith("Seat ") and ": choose your bargain: " in line
               and line.endswith("→ bargain pile") for line in lines)
    assert any(line.startswith("Seat ") and " trump? " in line
               and line.endswith(("? yes", "? no")) for line in lines)
    takes = [line for line in lines if " takes the trick with " in line]
    assert len(takes) == 7  # 8 cards dealt, 1 kept as the bargain: 7 tricks
    assert all("→ junk pile" in line or "→ bargain pile" in line for line in takes)
    assert "Shuffled the deck" in out


BROKEN = '''game "Broken"
players 2..2
card c "c":
    copies: 2
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone table "table": shared, public
var x "x": int = 0
phase a "A":
    deal 1 from deck to hand
    for each player p:
        p chooses pick from hand[p]
            "put down"
        move pick to table
    x = 1 / x
    next end
score: x
'''


def test_a_rule_failing_during_play_is_reported_logged_and_replayed(tmp_path: Path) -> None:
    rules = tmp_path / "broken.rules"
    rules.write_text(BROKEN, encoding="utf-8")
    log = tmp_path / "broken.jsonl"
    result = cli("run", str(rules), "--seed", "1", "--log", str(log))
    assert result.exit_code == 1
    assert f"{rules}:15:5: error: in phase 'a': division by zero" in result.output
    assert "x = 1 / x" in result.output and "^" in result.output
    assert "Dealt 1 card to each of 2 players (deck → hand)" in result.output
    assert "Seat 1: put down: c" in result.output  # the account reaches the failure
    rows = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    assert rows[-1] == {"type": "error",
                        "message": "in phase 'a': division by zero in 1 / x"}
    again = cli("replay", str(log))
    assert again.exit_code == 0 and "stops with the same error" in again.output


def test_bots_come_from_the_agent_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    import rulesplay.cli as cli_module

    made: list[tuple[str, int, int]] = []

    class First:
        def step(self, state: object) -> str:
            return state.legal_actions()[0].id  # type: ignore[attr-defined, no-any-return]

    def registry(name: str, seat: int, seed: int) -> object:
        if name != "first":
            raise KeyError(f"unknown agent '{name}'; available: first")
        made.append((name, seat, seed))
        return First()

    monkeypatch.setattr(cli_module, "agent_from_spec", registry)
    ok = cli("run", BH, "--seed", "3", "--bot", "first", "--quiet", *SHORT)
    assert ok.exit_code == 0, ok.output
    assert made == [("first", 0, 3), ("first", 1, 3), ("first", 2, 3)]
    bad = cli("run", BH, "--seed", "3", "--bot", "clever", *SHORT)
    assert bad.exit_code == 2 and "available: first" in bad.output


# ---------------------------------------------------------------- the account and the end
BQ = str(ROOT / "rulesets" / "bargain_quest.rules")
CH = str(ROOT / "rulesets" / "card_hunt.rules")

TOP = """game "Top Two"
players 3..4

card chip "chip":
    n: 1..6

zone box "box": shared, hidden
zone won "chips won": per player, public

player var purse "purse": int = 0

phase go "Go":
    for each player p:
        repeat p times:
            move top(box) to won[p]
        purse[p] = 5 * p + 7
    end game

score: SCORE
"""


def _tiny(tmp_path: Path, score: str, winners: str | None) -> str:
    path = tmp_path / "top.rules"
    text = TOP.replace("SCORE", score)
    if winners is not None:
        text += f"winners: {winners}\n"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_several_winners_of_a_winners_declaration_are_not_tied(tmp_path: Path) -> None:
    out = cli("run", _tiny(tmp_path, "count(won[player])", "seats where count(won[it]) >= 1"),
              "--players", "3", "--seed", "1").output
    assert "Winners: Seat 1, Seat 2" in out and "Tied" not in out
    # the player variable is a column of the final table: 5 * seat + 7
    table = out.split("Final scores")[1]
    assert "purse" in table
    assert [re.search(rf"Seat {s}\b.*\b{5 * s + 7}\b", table) is not None
            for s in range(3)] == [True] * 3


def test_winners_sharing_the_best_score_are_tied(tmp_path: Path) -> None:
    out = cli("run", _tiny(tmp_path, "count(box) + 1", None), "--players", "3",
              "--seed", "1").output
    assert "Tied winners: Seat 0, Seat 1, Seat 2" in out


def test_nobody_wins_is_said_plainly(tmp_path: Path) -> None:
    out = cli("run", _tiny(tmp_path, "count(won[player])", "seats where count(won[it]) > 9"),
              "--players", "3", "--seed", "1").output
    assert "Nobody wins." in out
    assert "Winner" not in out and "★" not in out


def test_moves_between_players_zones_name_both_owners() -> None:
    out = cli("run", BQ, "--players", "3", "--seed", "2").output
    passed = [line for line in out.splitlines() if "cards passed on" in line and "→" in line]
    assert passed
    for line in passed:
        src, dst = line.split(":", 1)[1].split("→")
        assert re.search(r"Seat \d's", src) and re.search(r"Seat \d's", dst), line


def test_a_voluntary_pass_is_told_once() -> None:
    out = cli("run", CH, "--players", "3", "--seed", "2").output
    lines = out.splitlines()
    assert any(re.fullmatch(r"Seat \d passes", ln) for ln in lines)
    doubled = [a for a, b in zip(lines, lines[1:], strict=False)
               if a == b and a.endswith("passes")]
    assert not doubled


def test_a_seat_or_option_given_twice_is_refused() -> None:
    result = cli("run", BH, "--seat", "0=random", "--seat", "0=greedy")
    assert result.exit_code == 2 and "--seat 0 is given twice" in result.output


def test_list_names_each_ruleset_its_players_and_a_variants_base(tmp_path: Path) -> None:
    root = (Path(__file__).parent.parent / "rulesets").as_posix()
    result = CliRunner().invoke(main, ["list", root])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()  # (each named as 'run' takes it: the file's path)
    assert f"{root}/card_hunt.rules: Card Hunt, 2-8 players" in lines
    assert (f"{root}/variants/bargain_hunter_quick.rules: Bargain Hunter (quick), 3-4 players "
            "(a variant of ../bargain_hunter.rules)") in lines
    (tmp_path / "broken.rules").write_text('game "Broken"\nplayers 2\nzoen deck: shared\n',
                                           encoding="utf-8")
    result = CliRunner().invoke(main, ["list", str(tmp_path)])
    assert result.exit_code == 1 and "broken.rules: does not load:" in result.output
    result = CliRunner().invoke(main, ["list", str(tmp_path / "nothing")])
    assert result.exit_code == 2 and "is not a folder" in result.output


@pytest.mark.parametrize("args", [
    ("simulate", "hearts", "-n", "4", "--players", "4", "--workers", "1"),
    ("compare", "hearts", "spades", "-n", "4", "--players", "4", "--workers", "1"),
    ("sweep", "hearts", "--option", "target=50,100", "-n", "2", "--players", "4",
     "--workers", "1"),
])
def test_simulation_commands_take_a_shipped_name(args: tuple[str, ...]) -> None:
    """Every command that reads a ruleset takes a shipped game's name, as `run` does."""
    result = cli(*args)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_simulation_of_an_unknown_name_says_what_is_allowed(command: str) -> None:
    result = cli(command, "no_such_game", "-n", "2", "--option", "x=1")
    assert result.exit_code != 0
    assert "no shipped game is named 'no_such_game'" in result.output
    assert "Traceback" not in result.output


def test_the_command_list_says_each_command_in_a_line_of_80_columns() -> None:
    """click cut each command's first sentence off with '...' in 'rulesplay --help'."""
    out = CliRunner().invoke(main, ["--help"], terminal_width=80).output
    listed = out[out.index("Commands:"):].splitlines()[1:]
    assert [line.split()[0] for line in listed] == sorted(main.commands)
    assert all(len(line) <= 80 and not line.endswith("...") for line in listed), listed
