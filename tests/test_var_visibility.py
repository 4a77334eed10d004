"""Variables with a visibility of their own (issue 13): ``player var x: int owner`` is seen by
its seat only, ``var x: int hidden`` by no seat. Observations, texts (say, prompts, phase
labels), seat logs, the human screen and the bots' samples keep such values from the seats
that may not see them; the whole game's log keeps everything."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

import rulesplay
from rulesplay.agents import InfoSet, make_agent
from rulesplay.cli import main
from rulesplay.diff import diff
from rulesplay.engine import observe
from rulesplay.errors import RulesError
from rulesplay.human import CardBook, render_screen
from rulesplay.parse import parse_text
from rulesplay.seatview import SeatView
from rulesplay.show import ruleset_text

# Each seat's total is its own (owner); the pot and a card's mark are no seat's (hidden).
SECRETS = '''game "Secret Totals"
players 2..3

card c "card":
    rank: 1..9
    label: "r{rank}"

zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone table "table": shared, public

player var total "total": int = 0 owner
var pot "pot": int = 0 hidden
card var mark: bool = false kept hidden

phase play "Play (pot {pot})":
    shuffle deck
    pot = sum(deck, it.rank)
    deal 3 from deck to hand starting with 0
    for each player p:
        total[p] = sum(hand[p], it.rank)
        say "{p} holds {total[p]}"
        p chooses x from hand[p] "play (you hold {total[p]}, pot {pot})"
        x.mark = true
        move x to table
    next end

score: total[player]
'''


def _at_seat_1(engine: str = "compiled") -> rulesplay.State:
    state = rulesplay.loads(SECRETS, engine=engine).new_state(2, seed=4, record_events=True)
    state.apply(state.legal_actions()[0])
    assert state.current_player() == 1
    return state


def test_a_seat_observes_its_own_owner_variable_and_no_one_a_hidden_one() -> None:
    state = _at_seat_1()
    totals = [state.var("total", 0), state.var("total", 1)]
    assert totals[0] > 0 and totals[1] > 0 and state.var("pot") > 0
    assert state.observation(0)["player_vars"]["total"] == [totals[0], "?"]
    assert state.observation(1)["player_vars"]["total"] == ["?", totals[1]]
    assert state.observation(None)["player_vars"]["total"] == ["?", "?"]
    assert all(state.observation(s)["vars"]["pot"] == "?" for s in (0, 1, None))
    # the card seat 0 played is on the public table, but its hidden mark is no seat's
    table = next(z for z in state.observation(1)["zones"] if z["zone"] == "table")
    assert table["count"] == 1 and table["cards"]
    assert state.observation(1)["card_vars"] == {}
    assert state.observation(1)["prompt"] == f"play (you hold {totals[1]}, pot ?)"


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_texts_are_masked_in_a_seat_view_and_whole_in_the_events(engine: str) -> None:
    state = _at_seat_1(engine)
    t0, t1, pot = state.var("total", 0), state.var("total", 1), state.var("pot")
    events = state.events or []
    says = [e for e in events if e["type"] == "say"]
    assert [e["text"] for e in says] == [f"Seat 0 holds {t0}", f"Seat 1 holds {t1}"]
    assert all("masks" in e for e in says)
    decision = next(e for e in events if e["type"] == "decision")
    assert decision["prompt"] == f"play (you hold {t0}, pot {pot})"
    for seat, s0, s1 in ((0, t0, "?"), (1, "?", t1), (None, "?", "?")):
        view = SeatView(state.program, seat).filter(events)
        assert [e["text"] for e in view if e["type"] == "say"] == [f"Seat 0 holds {s0}",
                                                                   f"Seat 1 holds {s1}"]
        assert next(e for e in view if e["type"] == "phase")["label"] == "Play (pot ?)"
        seen = next(e for e in view if e["type"] == "decision")
        assert seen["prompt"] == f"play (you hold {s0}, pot ?)"
        assert not any("masks" in e for e in view)


def test_a_value_worked_out_from_every_seat_s_owner_variable_is_no_seat_s() -> None:
    text = SECRETS.replace('say "{p} holds {total[p]}"',
                           'say "{p} holds {total[p]} of {sum(seats, total[it])}"')
    state = rulesplay.loads(text).new_state(2, seed=4, record_events=True)
    t0 = state.var("total", 0)
    (say,) = [e for e in state.events or [] if e["type"] == "say"]
    assert say["text"] == f"Seat 0 holds {t0} of {t0}"  # seat 1's total is still 0
    view = SeatView(state.program, 0).filter(state.events or [])
    assert [e["text"] for e in view if e["type"] == "say"] == [f"Seat 0 holds {t0} of ?"]


def test_the_whole_log_keeps_the_values_and_a_seat_log_hides_the_others(tmp_path: Path
                                                                      ) -> None:
    rules = tmp_path / "secrets.rules"
    rules.write_text(SECRETS, encoding="utf-8")
    full, mine = tmp_path / "full.jsonl", tmp_path / "seat1.jsonl"
    args = ["run", str(rules), "--players", "2", "--seed", "4", "--bot", "random", "--quiet"]
    assert CliRunner().invoke(main, [*args, "--log", str(full)]).exit_code == 0
    result = CliRunner().invoke(main, [*args, "--log", str(mine), "--log-seat", "1"])
    assert result.exit_code == 0, result.output
    whole = [json.loads(x) for x in full.read_text(encoding="utf-8").splitlines()]
    seat = [json.loads(x) for x in mine.read_text(encoding="utf-8").splitlines()]
    said = [(a["text"], b["text"]) for a, b in zip(whole, seat, strict=True)
            if a["type"] == "say"]
    (t0, s0), (t1, s1) = said
    assert t0.startswith("Seat 0 holds ") and t0[13:].isdigit() and s0 == "Seat 0 holds ?"
    assert t1 == s1 and t1.startswith("Seat 1 holds ") and t1[13:].isdigit()  # its own
    assert "masks" not in mine.read_text(encoding="utf-8")
    assert CliRunner().invoke(main, ["replay", str(full)]).exit_code == 0


def test_the_screen_of_a_seat_hides_what_it_may_not_see() -> None:
    state = _at_seat_1()
    view = SeatView(state.program, 1).filter(state.events or [])
    console = Console(file=io.StringIO(), width=80, color_system=None, highlight=False)
    for item in render_screen(state, 1, view, CardBook(state.program)):
        console.print(item)
    screen = console.file.getvalue()  # type: ignore[attr-defined]
    t0, t1 = state.var("total", 0), state.var("total", 1)
    assert "Seat 0 holds ?" in screen and "Play (pot ?)" in screen
    assert f"play (you hold {t1}, pot ?)" in screen
    rows = {line.split()[1]: line.split() for line in screen.splitlines()
            if line.startswith("Seat ")}
    assert rows["0"][-1] == "?" and rows["1"][-1] == str(t1) and t0 != t1


# ---------------------------------------------------------------- the bots
# The target is a hidden card's rank; a seat scores 10 when its secret guess hits it.
GUESS = '''game "Guess"
players 2..2
card c:
    rank: 1..9
zone deck: shared, hidden
var target: int = 0 hidden
player var guess: int = 0 owner
phase guess:
    shuffle deck
    target = top(deck).rank
    for each player p:
        p secretly chooses g from 1..9 "guess"
        guess[p] = g
    next end
score: 10 if guess[player] == target else 0
'''


def _guessing(target: int) -> rulesplay.State:
    state = rulesplay.loads(GUESS).new_state(2, seed=1)
    state.g[state.program.layout.gslot["target"]] = target
    return state


def test_a_sample_holds_the_default_of_a_variable_its_seat_may_not_see() -> None:
    a, b = _at_seat_1(), _at_seat_1()
    slot = a.program.layout.pslot["total"]
    b.pv[slot][0] += 100  # differs only in seat 0's own total
    b.g[b.program.layout.gslot["pot"]] += 100
    x, y = (InfoSet(s, 1).sample(random.Random(7)) for s in (a, b))
    assert x.pv == y.pv and x.g == y.g and x.zones == y.zones and x.cv == y.cv
    assert x.pv[slot] == [0, a.pv[slot][1]] and x.var("pot") == 0
    assert not any(x.cv[0])  # the marks: hidden, back to their default


def test_a_bot_decides_the_same_whatever_a_hidden_variable_holds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def choices() -> list[str]:
        return [make_agent("greedy", 0, 5).step(_guessing(t), random.Random(9)).id
                for t in (3, 7)]

    first, second = choices()
    assert first == second
    # Sanity: were the samples to keep the true value, the bot would guess it.
    monkeypatch.setattr(observe, "unseen_vars", lambda s, seat: [])
    assert choices() == ["g:3", "g:7"]


# ---------------------------------------------------------------- the language
def test_visibility_prints_back_and_a_public_one_stays_out_of_json() -> None:
    ruleset = parse_text(SECRETS, "s.rules")
    assert "player var total \"total\": int = 0 owner" in ruleset_text(ruleset)
    assert "card var mark: bool = false kept hidden" in ruleset_text(ruleset)
    assert parse_text(ruleset_text(ruleset), "s.rules").vars == ruleset.vars
    plain = parse_text(SECRETS.replace(" owner\n", " public\n"), "s.rules")
    assert "int = 0 public" in ruleset_text(plain)
    assert '"visibility"' not in plain.vars[0].model_dump_json()
    assert '"visibility":"owner"' in ruleset.vars[0].model_dump_json()


def test_diff_reports_a_visibility_change() -> None:
    base = parse_text(SECRETS, "a.rules")
    variant = parse_text(SECRETS.replace("var pot \"pot\": int = 0 hidden",
                                         "var pot \"pot\": int = 0"), "b.rules")
    assert "variable 'pot': var int = 0 hidden -> var int = 0" in diff(base, variant)


@pytest.mark.parametrize(("old", "new", "said"), [
    ("var pot \"pot\": int = 0 hidden", "var pot \"pot\": int = 0 owner",
     "s.rules:13:5: error: only a player variable can be 'owner' (seen by its own seat); a "
     "global variable is 'public' or 'hidden'\n    var pot \"pot\": int = 0 owner\n        ^~~"),
    ("kept hidden", "kept owner", "only a player variable can be 'owner'"),
    ("= 0 hidden", "= 0 top", "s.rules:13:24: error: unexpected 'to'; expected one of: "
     "'kept', 'public', 'owner' or 'hidden', end of line"),
    ('chooses x from hand[p] "play (you hold {total[p]}, pot {pot})"',
     'may choose x from hand[p] "play" skip "keep {total[p]}"',
     "s.rules:23:49: error: this skip label reads 'total[p]', which is owner: a decision's "
     "label is told to every seat, so it cannot hide the value"),
])
def test_a_wrong_visibility_is_an_error_with_its_place(old: str, new: str, said: str) -> None:
    text = SECRETS.replace(old, new)
    assert text != SECRETS
    with pytest.raises(RulesError) as err:
        rulesplay.loads(text, file="s.rules")
    assert said in err.value.render()
