"""Human seats: what a seat's screen shows (and never shows), reading choices, and real
sessions at a pseudo-terminal (play, bad input, save and resume, Ctrl-C, pass-and-play)."""

from __future__ import annotations

import io
import json
import os
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

import rulesplay
from rulesplay import gamelog
from rulesplay.engine.observe import visible_to
from rulesplay.engine.state import State
from rulesplay.human import (
    CardBook,
    SeatNarrator,
    SeatView,
    choice_list,
    parse_choice,
    render_help,
    render_moves,
    render_screen,
)

ROOT = Path(__file__).resolve().parents[1]
BH = str(ROOT / "rulesets" / "bargain_hunter.rules")
CH = str(ROOT / "rulesets" / "card_hunt.rules")
PROMPT = "\r\n> "


def text_of(items: list) -> str:
    console = Console(file=io.StringIO(), width=80, color_system=None, highlight=False)
    for item in items:
        console.print(item)
    return console.file.getvalue()  # type: ignore[attr-defined]


# ---------------------------------------------------------------- what a seat may see
def _hidden_labels(state: State, seat: int, ever_seen: set[int]) -> set[str]:
    """Labels (and ids) of cards the seat cannot see now and has never seen, minus labels it
    has seen on another copy."""
    prog = state.program
    seen_labels = {prog.card_labels[c] for c in ever_seen}
    out = set()
    for z, cards in enumerate(state.zones):
        if visible_to(state, z, seat) == "all":
            continue
        for c in cards:
            if c not in ever_seen and prog.card_labels[c] not in seen_labels:
                out.add(prog.card_labels[c])
    return out


def _visible_now(state: State, seat: int) -> set[int]:
    out = set()
    for z, cards in enumerate(state.zones):
        how = visible_to(state, z, seat)
        if how == "all":
            out.update(cards)
        elif how == "top" and cards:
            out.add(cards[-1])
    return out


def _shown_in_passing(state: State, seat: int, start: int) -> set[int]:
    """Cards moved into a zone the seat sees by the events from ``start`` on (e.g. the last
    card of a trick, taken away before the seat decides again)."""
    lay = state.program.layout
    index = {cid: i for i, cid in enumerate(state.program.card_ids)}
    out = set()
    for ev in (state.events or [])[start:]:
        if ev["type"] == "move":
            z = lay.zone_id[ev["to"]["zone"]] + (ev["to"]["owner"] or 0)
            if visible_to(state, z, seat) == "all":
                out.add(index[ev["card"]])
    return out


@pytest.mark.parametrize("path,players,options,seed", [
    (BH, 3, {"rounds": 1}, 3), (BH, 4, {"rounds": 1}, 8), (CH, 2, {}, 1), (CH, 3, {}, 2)])
def test_a_seat_screen_never_shows_cards_it_has_not_seen(path: str, players: int,
                                                         options: dict, seed: int) -> None:
    game = rulesplay.load(path, options=options)
    state = game.new_state(num_players=players, seed=seed, record_events=True)
    book = CardBook(state.program)
    rng = random.Random(seed)
    seat = 0
    ever_seen: set[int] = set(_visible_now(state, seat))
    last = 0
    screens = 0
    all_ids = [i for i in state.program.card_ids]
    while not state.is_terminal():
        if state.current_player() == seat:
            events = state.events or []
            view = SeatView(state.program, seat).filter(events)
            screen = text_of(render_screen(state, seat, view[last:], book)
                             + render_help(state, seat, book)
                             + render_moves(events, SeatView(state.program, seat), book))
            forbidden = _hidden_labels(state, seat, ever_seen)
            leaks = {label for label in forbidden if re.search(
                rf"(?<![\w-]){re.escape(label)}(?![\w-])", screen)}
            assert not leaks, f"seat {seat} sees {leaks} on:\n{screen}"
            assert not any(cid in screen for cid in all_ids if "#" in cid or "-" in cid)
            last = len(events)
            screens += 1
        done = len(state.events or [])
        state.apply(rng.choice(state.legal_actions()))
        ever_seen |= _visible_now(state, seat) | _shown_in_passing(state, seat, done)
    assert screens > 3


def test_the_deal_into_other_hands_is_a_count() -> None:
    game = rulesplay.load(BH, options={"rounds": 1})
    state = game.new_state(num_players=3, seed=3, record_events=True)
    events = state.events or []
    view = SeatView(state.program, 0).filter(events)
    dealt = [(raw, shown) for raw, shown in zip(events, view, strict=True)
             if raw["type"] == "move" and raw["to"]["zone"] == "hand"]
    assert dealt
    for raw, shown in dealt:
        if raw["to"]["owner"] == 0:
            assert shown == raw
        else:
            assert shown["card"] == "?" and shown["attrs"] == {}
    screen = text_of(render_screen(state, 0, view, CardBook(state.program)))
    assert "Dealt 8 cards to each of 3 players" in screen
    assert "Your hand (8):" in screen and "deck 86 cards, face down" in screen


def test_the_screen_shows_hand_grouped_table_counts_and_numbered_choices() -> None:
    game = rulesplay.load(BH, options={"rounds": 1})
    state = game.new_state(num_players=3, seed=3, record_events=True)
    while state.current_player() != 0:
        state.apply(state.legal_actions()[0])
    book = CardBook(state.program)
    screen = text_of(render_screen(state, 0, [], book))
    hand = state.zone_cards("hand", 0)
    assert f"Your hand ({len(hand)}):" in screen
    assert "Seat 0 (you)" in screen and "Seat 0, your turn: choose your bargain" in screen
    assert "deck" in screen and "face down" in screen
    assert all(len(line) <= 80 for line in screen.splitlines())
    actions = choice_list(state, book)
    for i, a in enumerate(actions, 1):
        assert re.search(rf"\b{i} {re.escape(a.label)}\b", screen)
    # The score counts junk piles (their sizes are public): every seat's running score.
    assert re.search(r"seat +hand .* score", screen)
    assert re.search(rf"Seat 0 \(you\) .* {state.scores()[0]}$", screen, re.M)
    # hand order: groups follow the colour enum, numbers ascending inside a group
    colours = [c.name for c in state.program.ruleset.enums[0].values]
    firsts = [colours.index(state.program.card_attrs[a.value]["colour"]) for a in actions]
    assert firsts == sorted(firsts)


def test_spring_cleaning_screen_shows_the_cards_of_each_number_and_no_trick_colours() -> None:
    game = rulesplay.load(BH, options={"rounds": 1})
    state = game.new_state(num_players=3, seed=3, record_events=True)
    rng = random.Random(1)
    _at(state, lambda s: s.decision_name() == "declare_trump", rng)
    hunt = text_of(render_screen(state, state.current_player(), [], CardBook(state.program)))
    assert "lead colour" in hunt  # during a trick its colours mean something
    _at(state, lambda s: s.decision_name() == "clean", rng)
    seat = state.current_player()
    book = CardBook(state.program)
    screen = text_of(render_screen(state, seat, [], book))
    assert "lead colour" not in screen and "trump colour" not in screen
    junk = state.zone_cards("junk", seat)
    attrs = state.program.card_attrs
    for a in choice_list(state, book):
        if a.value is None:
            continue
        cards = [c for c in junk if attrs[state.program.card_ids.index(c)].get("number")
                 == a.value and not c.startswith("offer")]
        line = next(ln for ln in screen.splitlines() if ln.startswith(f"{a.value:>2}  "))
        assert book.grouped(cards).plain in line and f"({len(cards)})" in line


def test_colours_follow_the_card_colours() -> None:
    game = rulesplay.load(BH, options={"rounds": 1})
    state = game.new_state(num_players=3, seed=3)
    book = CardBook(state.program)
    assert book.text("red-7#1").style == "red"
    assert book.text("orange-2#1").style == "dark_orange"
    assert book.text("offer#1").style == ""
    grouped = book.grouped(["red-7#2", "offer#1", "red-3#1", "blue-9#1", "offer#2"])
    assert grouped.plain == "red 3 7 · blue 9 · Irresistible Offer ×2"


# ---------------------------------------------------------------- reading a choice
def _at(state: State, pred: Callable[[State], bool], rng: random.Random) -> State:
    while not pred(state):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_parse_choice_numbers_short_names_labels_and_hints() -> None:
    game = rulesplay.load(BH, options={"rounds": 1})
    state = game.new_state(num_players=3, seed=3)
    state = _at(state, lambda s: s.current_player() == 0, random.Random(1))
    book = CardBook(state.program)
    actions = choice_list(state, book)
    labels = [a.label for a in actions]
    assert parse_choice("1", actions, book)[0] is actions[0]
    a, hint = parse_choice("0", actions, book)
    assert a is None and f"from 1 to {len(actions)}" in hint
    first = actions[0]
    short = state.program.card_short[first.value]
    assert parse_choice(short, actions, book)[0] == first
    assert parse_choice(short.upper(), actions, book)[0] == first
    assert parse_choice("  " + first.label.upper() + " ", actions, book)[0] == first
    a, hint = parse_choice("banana", actions, book)
    assert a is None and "not one of the choices" in hint
    # a card that exists but cannot be chosen now
    other = next(lbl for lbl in state.program.card_labels if lbl not in labels and " " in lbl)
    a, hint = parse_choice(other, actions, book)
    assert a is None and "cannot be chosen now" in hint
    # one word naming two legal cards asks which
    colours = [state.program.card_attrs[x.value]["colour"] for x in actions]
    twice = next((c for c in colours if colours.count(c) > 1), None)
    if twice is not None:
        a, hint = parse_choice(twice, actions, book)
        assert a is None and "could mean" in hint


def test_parse_choice_yes_no_and_value_choices() -> None:
    game = rulesplay.load(BH, options={"rounds": 1})
    rng = random.Random(2)
    state = _at(game.new_state(num_players=3, seed=2),
                lambda s: s.decision_name() == "declare_trump", rng)
    book = CardBook(state.program)
    actions = choice_list(state, book)
    assert parse_choice("y", actions, book)[0].id == "declare_trump:yes"  # type: ignore[union-attr]
    assert parse_choice("No", actions, book)[0].id == "declare_trump:no"  # type: ignore[union-attr]
    assert "?" in text_of(render_screen(state, state.current_player(), [], book))
    state = _at(state, lambda s: s.decision_name() == "clean" and len(s.legal_actions()) > 2,
                rng)
    actions = choice_list(state, book)
    values = [a.value for a in actions if a.value is not None]
    pick = parse_choice(str(values[-1]), actions, book)[0]
    assert pick is not None and pick.value == values[-1]  # a number is the value itself
    missing = next(v for v in range(1, 10) if v not in values)
    a, hint = parse_choice(str(missing), actions, book)
    assert a is None and "type one of" in hint
    assert parse_choice("skip", actions, book)[0].value is None  # type: ignore[union-attr]
    assert parse_choice("keep", actions, book)[0].value is None  # type: ignore[union-attr]


def test_help_quotes_the_rule_and_moves_lists_tricks() -> None:
    game = rulesplay.load(BH, options={"rounds": 1})
    rng = random.Random(5)
    state = game.new_state(num_players=3, seed=5, record_events=True)
    state = _at(state, lambda s: s.current_player() == 0 and s.decision_name() == "play"
                and any(e["type"] == "trick" for e in s.events or []), rng)
    book = CardBook(state.program)
    help_text = text_of(render_help(state, 0, book))
    assert "Phase: The Hunt" in help_text and "play" in help_text
    assert "Follow the lead colour if able" in help_text  # the comment above the rule
    assert "each player plays card from hand[player]" in help_text
    assert "after trick" not in help_text and "junk[winner]" not in help_text
    moves = text_of(render_moves(state.events or [], SeatView(state.program, 0), book))
    assert "won with" in moves and "Last tricks" in moves


FACE_DOWN_TRICK = """game "Face-down trick"
players 2..2
card c "c":
    n: 1..9
    copies: 1
    label: "c{n}"
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone table "table": shared, hidden
zone won "won": per player, hidden
phase main "Main":
    shuffle deck
    deal 3 from deck to hand starting with 0
    repeat 3 times:
        trick in table led by 1:
            each player plays card from hand[player]
            won by highest it.n
            after trick:
                move table to won[winner]
    next end
score: count(won[player])
"""


@pytest.mark.parametrize("seat", [0, 1])
def test_moves_credits_each_card_of_a_face_down_trick_to_its_player(seat: int) -> None:
    """Review 13b, finding 4: masked cards all looked alike, so every one was credited to
    the seat of the last masked play, the viewer's own card included."""
    state = rulesplay.loads(FACE_DOWN_TRICK).new_state(num_players=2, seed=3,
                                                       record_events=True)
    mine = ""
    while not any(e["type"] == "trick" for e in state.events or []):
        action = state.legal_actions()[0]
        if state.current_player() == seat:
            mine = action.id.split(":", 1)[1]
        state.apply(action)
    book = CardBook(state.program)
    moves = text_of(render_moves(state.events or [], SeatView(state.program, seat), book))
    line = next(x for x in moves.splitlines() if "won with" in x)
    mine = book.text(mine).plain
    other = f"Seat {1 - seat} a card"
    assert line.split(": ", 1)[1] == (f"{other}, Seat {seat} (you) {mine}" if seat == 0
                                      else f"Seat {seat} (you) {mine}, {other}")


# ---------------------------------------------------------------- real sessions
def spawn(args: list[str], cwd: Path) -> pexpect.spawn:
    env = {"TERM": "dumb", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8",
           "NO_COLOR": "1", "COLUMNS": "80", "LINES": "40"}
    for key in ("PYTHONPATH", "VIRTUAL_ENV", "HOME"):
        if key in os.environ:
            env[key] = os.environ[key]
    child = pexpect.spawn(sys.executable, ["-m", "rulesplay", *args], cwd=str(cwd), env=env,
                          encoding="utf-8", timeout=20, dimensions=(40, 80))
    child.delaybeforesend = None  # the prompt is already there when we answer
    return child


def answer_until_end(child: pexpect.spawn, answer: str = "1", limit: int = 200) -> str:
    """Type ``answer`` at every prompt until the game ends; returns everything printed."""
    out = []
    for _ in range(limit):
        i = child.expect([PROMPT, pexpect.EOF])
        out.append(child.before)
        if i == 1:
            child.close()
            return "".join(out)
        child.sendline(answer)
    raise AssertionError("the game did not end")


def final_part(text: str) -> str:
    return text[text.index("Final scores"):].replace("\r\n", "\n").strip()


def test_a_whole_game_of_card_hunt_with_bad_input_first(tmp_path: Path) -> None:
    child = spawn(["run", CH, "--seat", "0=human", "--seed", "4", "--bot", "greedy"], tmp_path)
    child.expect(PROMPT)
    screen = child.before
    assert "Your hand (13): clubs 2 3 4 5 6 7 8 9 10 J Q K A" in screen
    assert re.search(r"seat +hand .* points +score", screen)  # points are public
    assert "Seat 0, your turn: play a higher card" in screen
    for bad, hint in [("xyz", "not one of the choices"), ("99", "There is no choice 99"),
                      ("", "Type a number from 1 to"), ("d5", "cannot be chosen now"),
                      ("moves", "No trick has been finished yet"),
                      ("help", "The rule ("), ("save", "Saved to")]:
        child.sendline(bad)
        child.expect(PROMPT)
        assert hint in child.before, (bad, child.before)
    child.sendline("cA")  # the ace of clubs by suit initial and face
    child.expect(PROMPT)
    assert "Seat 0 (you): play a higher card: A of clubs" in child.before
    child.sendline("1")
    rest = answer_until_end(child)
    assert child.exitstatus == 0, rest
    assert "Traceback" not in rest
    assert "Winner: Seat" in rest or "Tied winners" in rest
    assert (tmp_path / "card_hunt-4.save.json").exists()  # from the 'save' above


def _uninterrupted(tmp_path: Path) -> tuple[str, str]:
    log = tmp_path / "whole.jsonl"
    child = spawn(["run", CH, "--seat", "0=human", "--seed", "9", "--log", str(log),
                   "--bot", "greedy:samples=2"], tmp_path)
    out = answer_until_end(child)
    assert child.exitstatus == 0
    return final_part(out), log.read_text(encoding="utf-8")


def test_save_quit_resume_gives_the_same_game(tmp_path: Path) -> None:
    whole_table, whole_log = _uninterrupted(tmp_path)
    log = tmp_path / "cut.jsonl"
    child = spawn(["run", CH, "--seat", "0=human", "--seed", "9", "--log", str(log),
                   "--bot", "greedy:samples=2"], tmp_path)
    for _ in range(5):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    child.sendline("save mid.json")
    child.expect("Saved to mid.json")
    child.expect(PROMPT)
    child.sendline("1")  # one more move, then leave without saving it
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(r"before leaving\? \[Y/n\]")
    child.sendline("n")
    child.expect("Left the game without saving")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    cut = log.read_text(encoding="utf-8")
    assert whole_log.startswith(cut) and cut != whole_log
    # The save names no log: the log goes to a new file next to the save, whole.
    child = spawn(["resume", "mid.json"], tmp_path)
    child.expect("Resumed mid.json: Card Hunt, 2 players, seed 9")
    child.expect("log .* goes to mid.log.jsonl")
    out = answer_until_end(child)
    assert child.exitstatus == 0, out
    assert final_part(out) == whole_table
    assert (tmp_path / "mid.log.jsonl").read_text(encoding="utf-8") == whole_log
    assert log.read_text(encoding="utf-8") == cut  # untouched
    # Named with --log, the earlier log of the same game is continued.
    child = spawn(["resume", "mid.json", "--log", "cut.jsonl"], tmp_path)
    answer_until_end(child)
    assert child.exitstatus == 0
    assert log.read_text(encoding="utf-8") == whole_log
    rows = [json.loads(line) for line in whole_log.splitlines()]
    assert rows[0]["bots"] == {"0": "human", "1": "greedy:samples=2"}


def test_ctrl_c_saves_and_resume_finishes(tmp_path: Path) -> None:
    child = spawn(["run", CH, "--seat", "1=human", "--players", "3", "--seed", "2",
                   "--save", "stop.json"], tmp_path)
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Saved to stop.json")
    child.expect(pexpect.EOF)
    text = child.before
    child.close()
    assert "Traceback" not in text
    assert child.exitstatus == 130
    saved = json.loads((tmp_path / "stop.json").read_text(encoding="utf-8"))
    assert saved["seats"] == {"0": "random", "1": "human", "2": "random"}
    child = spawn(["resume", "stop.json"], tmp_path)
    child.expect(PROMPT)
    assert "Seat 1, your turn" in child.before and "Your hand (" in child.before
    child.sendeof()  # end of input saves too
    child.expect("Saved to stop.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_pass_and_play_hides_the_last_hand_and_waits(tmp_path: Path) -> None:
    child = spawn(["run", CH, "--seat", "0=human", "--seat", "1=human", "--seed", "5"],
                  tmp_path)
    child.expect("Pass the keyboard to Seat 0, then press Enter")
    child.sendline("")
    child.expect(PROMPT)
    assert "Your hand (13): clubs" in child.before
    child.sendline("1")
    child.expect("Pass the keyboard to Seat 1, then press Enter")
    gap = child.before
    assert gap.count("\n") >= 30  # the previous screen scrolled away (no cursor control)
    child.sendline("")
    child.expect(PROMPT)
    screen = child.before
    assert "Your hand (13): diamonds" in screen and "clubs 3" not in screen
    assert "Seat 0: play a higher card: 2 of clubs" in screen
    child.sendline("quit")
    child.sendline("y")
    child.expect("Saved to card_hunt-5.save.json")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_resume_of_something_else_is_a_clear_error(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulesplay.cli import main

    bad = tmp_path / "bad.json"
    for content in ('{"hello": 1}', "not json", '{"type": "rulesplay-session", "version": 1}'):
        bad.write_text(content, encoding="utf-8")
        result = CliRunner().invoke(main, ["resume", str(bad)])
        assert result.exit_code == 1, result.output
        assert ("is not a rulesplay save" in result.output or "damaged" in result.output
                or "another version" in result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit)


# ---------------------------------------------------------------- the loop, in process
class _Stopper:
    """A random bot that is interrupted (Ctrl-C) in the middle of its ``stop_at``-th move."""

    def __init__(self, seat: int, seed: int, stop_at: int | None) -> None:
        self.rng = random.Random(f"stopper/{seed}/{seat}")
        self.calls, self.stop_at = 0, stop_at

    def step(self, state: State) -> object:
        self.calls += 1
        choice = self.rng.choice(state.legal_actions())
        if self.calls == self.stop_at:
            raise KeyboardInterrupt
        return choice


def _session(tmp_path: Path, stop_at: int | None, name: str):  # type: ignore[no-untyped-def]
    from rulesplay.session import Session

    game = rulesplay.load(BH, options={"rounds": 1})
    state = game.new_state(num_players=3, seed=6, record_events=True)
    log = open(tmp_path / f"{name}.jsonl", "w", encoding="utf-8")  # noqa: SIM115 - closed by it
    seats = {0: "human", 1: "stopper", 2: "stopper"}
    agents = {1: _Stopper(1, 6, stop_at), 2: _Stopper(2, 6, None)}
    header = gamelog.header(BH, {"rounds": 1}, 3, 6, None, seats, state.program.game.bundle)
    session = Session(state, seats, agents, str(tmp_path / f"{name}.json"), header)
    session.start_log(log)
    return session


def test_ctrl_c_inside_a_bot_move_saves_the_game_from_before_that_move(tmp_path: Path) -> None:
    from rulesplay.session import Session, play

    def console() -> Console:
        return Console(file=io.StringIO(), width=80, color_system=None)

    def answers(session: Session) -> Callable[[str], str]:
        # the first choice, but keep the junk pile in spring cleaning (its choices are numbers)
        return lambda prompt: "skip" if session.state.decision_name() == "clean" else "1"

    whole = _session(tmp_path, None, "whole")
    assert play(whole, console(), answers(whole)) == 0
    whole.close()
    cut = _session(tmp_path, 4, "cut")
    out = console()
    assert play(cut, out, answers(cut)) == 130
    cut.close()
    assert "Saved to" in out.file.getvalue()  # type: ignore[attr-defined]

    def make(spec: str, seat: int, seed: int) -> _Stopper:
        return _Stopper(seat, seed, None)

    again = Session.load(str(tmp_path / "cut.json"), make)
    again.start_log(open(tmp_path / "cut.jsonl", "w", encoding="utf-8"))  # noqa: SIM115
    stopped = [h for h in again.state.history]
    assert [p for p, _ in stopped].count(1) == 3  # seat 1's fourth move was undone
    assert again.state.current_player() == 1
    assert play(again, console(), answers(again)) == 0
    again.close()
    assert again.state.scores() == whole.state.scores()
    assert again.state.history == whole.state.history
    assert (tmp_path / "cut.jsonl").read_text() == (tmp_path / "whole.jsonl").read_text()


@pytest.mark.parametrize("ask_forced", [False, True])
def test_a_forced_move_is_played_for_the_person_unless_asked_for(tmp_path: Path,
                                                                 ask_forced: bool) -> None:
    """Seat 0's last play of a round is its only card: by default it is played for the
    person (never a prompt with one choice), and their next screen tells it."""
    from rulesplay.session import play

    session = _session(tmp_path, None, f"forced-{ask_forced}")
    session.ask_forced = ask_forced
    choices_when_asked: list[int] = []

    def ask(prompt: str) -> str:
        choices_when_asked.append(len(session.state.legal_actions()))
        return "skip" if session.state.decision_name() == "clean" else "1"

    out = io.StringIO()
    assert play(session, Console(file=out, width=80, color_system=None), ask) == 0
    session.close()
    forced = [i for i, (p, _) in enumerate(session.state.history) if p == 0]
    assert len(forced) > len(choices_when_asked) or ask_forced
    assert (1 in choices_when_asked) is ask_forced
    assert "Seat 0 (you) plays" in out.getvalue()  # the forced play is told


def test_quit_right_after_save_leaves_without_asking_again(tmp_path: Path) -> None:
    from rulesplay.session import play

    session = _session(tmp_path, None, "saved")
    typed = iter(["save", "quit"])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    out = io.StringIO()
    assert play(session, Console(file=out, width=80, color_system=None), ask) == 0
    session.close()
    assert prompts == ["> ", "> "]  # no "Save the game ... before leaving?"
    text = " ".join(out.getvalue().split())
    assert "Left the game; it is saved as it is now in" in text
    assert (tmp_path / "saved.json").exists()


# ---------------------------------------------------------------- card tables, secret choices
BQ = str(ROOT / "rulesets" / "bargain_quest.rules")


def test_a_table_game_session_starts_shows_a_hand_and_takes_a_choice(tmp_path: Path) -> None:
    from rulesplay.session import Session, play

    state = rulesplay.load(BQ).new_state(num_players=3, seed=4, record_events=True)
    agents = {s: _Stopper(s, 4, None) for s in (1, 2)}
    seats = {0: "human", 1: "random", 2: "random"}
    session = Session(state, seats, agents, str(tmp_path / "bq.json"),
                      gamelog.header(BQ, {}, 3, 4, None, seats))
    session.ask_forced = True  # every decision of seat 0 is typed (the last draft pick too)
    typed: list[str] = []

    def ask(prompt: str) -> str:
        if len(typed) == 4:
            raise EOFError  # leave (the game is saved)
        legal = choice_list(session.state, CardBook(session.state.program))
        typed.append(CardBook(session.state.program).short(
            state.program.card_ids[legal[-1].value]) if legal[-1].card else "1")
        return typed[-1]

    out = Console(file=io.StringIO(), width=80, color_system=None)
    assert play(session, out, ask) == 0
    screen = out.file.getvalue()  # type: ignore[attr-defined]
    assert "Traceback" not in screen and "Saved to" in screen
    assert re.search(r"Your cards to draft \(\d\): \w", screen)
    assert "Seat 0, your turn: draft a card" in screen
    table = screen[:screen.index("Saved to")]  # (the save path is as long as it is)
    assert all(len(line) <= 80 for line in table.splitlines()), table
    assert len(session.state.history) > 4  # the typed short names were taken
    mine = [aid for p, aid in session.state.history if p == 0]
    picked = [state.program.card_short[state.program.card_ids.index(a.split(":", 1)[1])]
              for a in mine]
    assert [t.rstrip("0123456789") for t in typed[:len(mine)]] == picked
    # other seats' secret drafts are told as such, never with the card
    assert "Seat 1 decides in secret: draft a card" in screen
    assert not re.search(r"Seat [12]: draft a card", screen)


def test_secret_choices_of_others_stay_secret() -> None:
    state = rulesplay.load(BQ).new_state(num_players=3, seed=1, record_events=True)
    rng = random.Random(1)
    for _ in range(3):  # each seat drafts once
        state.apply(rng.choice(state.legal_actions()))
    events = state.events or []
    private = [ev for ev in events if ev["type"] == "decision" and ev.get("private")]
    assert len(private) == 3
    for seat in range(3):
        view = SeatView(state.program, seat).filter(events)
        decisions = [ev for ev in view if ev["type"] == "decision"]
        for raw, shown in zip(private, decisions, strict=True):
            if raw["player"] == seat:
                assert shown == raw
            else:
                assert shown["private"] and shown["action"].endswith(":?")
                assert raw["label"] not in str(shown)
        text = text_of(SeatNarrator(state.program, seat).lines(view))
        for raw in private:
            if raw["player"] != seat:
                assert f"Seat {raw['player']} decides in secret: draft a card" in text
            else:
                assert raw["label"] in text


def test_table_cards_have_unique_short_names_details_and_grouping() -> None:
    state = rulesplay.load(BQ).new_state(num_players=3, seed=1)
    prog = state.program
    book = CardBook(prog)
    by_label: dict[str, set[str]] = {}
    for cid, label in zip(prog.card_ids, prog.card_labels, strict=True):
        by_label.setdefault(label, set()).add(book.short(cid))
    assert all(len(s) == 1 for s in by_label.values())  # copies share their short name
    shorts = [next(iter(s)) for s in by_label.values()]
    assert len(set(shorts)) == len(shorts)  # different cards never do
    first = {label: prog.card_ids[prog.card_labels.index(label)] for label in by_label}
    assert book.short(first["Short Sword"]) != book.short(first["Sharpened Steel"])
    assert book.short(first["Iron Longsword"]) == "il"  # unambiguous initials stay as they are
    assert book.details(first["Spiked Buckler"]) == \
        "Fighter/Rogue · hearts 1 · price 5 · attack 1 · defense 2"
    assert book.details(first["Loaded Dice"]).endswith("Loaded Dice · adventure")
    copies = [c for c, label in zip(prog.card_ids, prog.card_labels, strict=True)
              if label == "Short Sword"][:2]
    hero = first["Rogue"]
    assert book.grouped([first["Tome of Flame"], *copies]).plain == \
        "Short Sword ×2, Tome of Flame"
    assert book.grouped([hero, first["Gilded Helm"]]).plain == "item: Gilded Helm · hero: Rogue"
    assert book.text(hero).style == ""  # no colour for names that are not colours


def test_a_table_game_screen_never_shows_unseen_cards_and_fits_80_columns() -> None:
    state = rulesplay.load(BQ).new_state(num_players=3, seed=2, record_events=True)
    prog = state.program
    book = CardBook(prog)
    rng = random.Random(2)
    words = {str(v).lower() for v in prog.enum_labels.values()}  # class names are words too
    ever_seen: set[int] = set(_visible_now(state, 0))
    last, screens = 0, 0
    while not state.is_terminal() and screens < 25:
        if state.current_player() == 0:
            events = state.events or []
            view = SeatView(prog, 0).filter(events)
            screen = text_of(render_screen(state, 0, view[last:], book)
                             + render_help(state, 0, book))
            assert all(len(line) <= 80 for line in screen.splitlines())
            forbidden = {label for label in _hidden_labels(state, 0, ever_seen)
                         if label.lower() not in words}
            leaks = {label for label in forbidden if re.search(
                rf"(?<![\w-]){re.escape(label)}(?![\w'-])", screen)}
            assert not leaks, f"seat 0 sees {leaks} on:\n{screen}"
            last = len(events)
            screens += 1
        done = len(state.events or [])
        state.apply(rng.choice(state.legal_actions()))
        ever_seen |= _visible_now(state, 0) | _shown_in_passing(state, 0, done)
    assert screens == 25
