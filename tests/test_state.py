"""The State API on Bargain Hunter: determinism, clones, saves and their errors, illegal moves."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import BARGAIN_HUNTER, load_game, new_state

import rulesplay
from rulesplay import State
from rulesplay.errors import IllegalActionError, RulesError


def random_game(seed: int, players: int = 4, **options: object) -> State:
    """A finished game: random choices drawn from ``random.Random(seed)``."""
    s = new_state(players, seed, **options)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    return s


def replay(history: list[tuple[int, str]], seed: int, players: int = 4,
           **options: object) -> State:
    s = new_state(players, seed, **options)
    for seat, action in history:
        assert s.current_player() == seat
        s.apply(action)
    return s


@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2)])
def test_same_seed_and_choices_give_the_same_game(players: int, seed: int) -> None:
    a = random_game(seed, players)
    b = replay(a.history, seed, players)
    assert b.is_terminal()
    assert a.events == b.events
    assert a.to_json() == b.to_json()
    assert (a.scores(), a.winners()) == (b.scores(), b.winners())


def test_different_seed_deals_differently() -> None:
    a, b = new_state(4, 1), new_state(4, 2)
    assert [a.zone_cards("hand", p) for p in range(4)] != \
        [b.zone_cards("hand", p) for p in range(4)]


def test_clone_is_independent() -> None:
    s = new_state(4, 3)
    rng = random.Random(3)
    for _ in range(25):
        s.apply(rng.choice(s.legal_actions()))
    before = s.to_json()
    legal_before = [a.id for a in s.legal_actions()]
    events_before = len(s.events or [])
    c = s.clone()
    assert c.to_json() == before
    for _ in range(40):
        c.apply(rng.choice(c.legal_actions()))
    assert c.to_json() != before
    assert s.to_json() == before
    assert [a.id for a in s.legal_actions()] == legal_before
    assert len(s.events or []) == events_before
    # Two clones taking the same action stay identical (random generator copied too).
    x, y = s.clone(), s.clone()
    while not x.is_terminal():
        action = x.legal_actions()[-1].id
        x.apply(action)
        y.apply(action)
    assert x.to_json() == y.to_json()


@pytest.mark.parametrize("cut", [0, 1, 5, 9, 17, 30, 61, 100, 150])
def test_save_mid_game_and_finish_identically(cut: int) -> None:
    """Saved after ``cut`` decisions (at a pick, a play, a trump or order question or a
    cleaning), restored and finished with the same actions: the same final state."""
    full = random_game(7)
    assert cut < len(full.history)
    s = replay(full.history[:cut], 7)
    restored = State.from_json(s.to_json(), load_game())
    assert restored.to_json() == s.to_json()
    assert [a.id for a in restored.legal_actions()] == [a.id for a in s.legal_actions()]
    for seat, action in full.history[cut:]:
        assert restored.current_player() == seat
        restored.apply(action)
    assert restored.is_terminal()
    assert restored.to_json() == full.to_json()
    assert (restored.scores(), restored.winners()) == (full.scores(), full.winners())


def test_save_at_every_kind_of_decision_resumes() -> None:
    """Every decision kind of the ruleset appears at some save point of this game."""
    full = random_game(8)
    s = new_state(4, 8)
    kinds = set()
    for seat, action in full.history:
        assert s.current_player() == seat
        kinds.add(s.decision_name())
        restored = State.from_json(s.to_json(), load_game())
        assert (restored.current_player(), restored.decision_name(), restored.prompt()) == \
            (s.current_player(), s.decision_name(), s.prompt())
        restored.apply(action)
        s.apply(action)
        assert restored.to_json() == s.to_json()
    assert kinds == {"pick", "play", "declare_trump", "order", "clean"}


def test_from_json_without_game_rebuilds_it_from_the_saved_text(monkeypatch: Any) -> None:
    s = new_state(3, 4, rounds=2)
    for _ in range(10):
        s.apply(s.legal_actions()[0])
    text = s.to_json()
    saved = json.loads(text)["ruleset"]
    assert saved["name"] == str(BARGAIN_HUNTER) and saved["top"] == "bargain_hunter.rules"
    assert saved["files"]["bargain_hunter.rules"] == BARGAIN_HUNTER.read_text(encoding="utf-8")
    # issue 13 item 2: no file named in the save is ever opened
    opened: list[str] = []
    real_open = open
    monkeypatch.setattr("builtins.open", lambda f, *a, **k: opened.append(str(f))
                        or real_open(f, *a, **k))
    monkeypatch.setattr(Path, "read_bytes", lambda p: opened.append(str(p)) or b"")
    monkeypatch.setattr(Path, "read_text", lambda p, *a, **k: opened.append(str(p)) or "")
    restored = State.from_json(text)
    monkeypatch.undo()
    assert opened == []
    assert restored.program.game.option_values == {"rounds": 2}
    assert restored.to_json() == text
    while not restored.is_terminal():
        action = restored.legal_actions()[0].id
        restored.apply(action)
        s.apply(action)
    assert restored.to_json() == s.to_json()
    assert restored.var("round") == 3  # two rounds, as the saved option says


def test_a_state_of_a_game_made_from_text_can_be_saved_and_restored() -> None:
    text = BARGAIN_HUNTER.read_text(encoding="utf-8")
    s = rulesplay.loads(text, {"rounds": 1}).new_state(3, seed=2)
    for _ in range(5):
        s.apply(s.legal_actions()[-1])
    restored = State.from_json(s.to_json())
    assert restored.to_json() == s.to_json()
    assert restored.legal_actions() == s.legal_actions()


def _damage(text: str, how: str) -> str:
    d = json.loads(text)
    if how == "truncated":
        return text[: len(text) // 2]
    if how == "not-json":
        return "hello"
    if how == "list":
        return "[1, 2]"
    if how == "version":
        d["version"] = 99
    elif how == "missing-zones":
        del d["zones"]
    elif how == "card-lost":
        d["zones"][0] = d["zones"][0][1:]
    elif how == "zone-count":
        d["zones"].append([])
    elif how == "rng":
        d["rng"] = "x"
    elif how == "no-ruleset":
        d["ruleset"] = None
    elif how == "ruleset-gone":
        d["ruleset"] = "/nonexistent/game.rules"
    return json.dumps(d)


@pytest.mark.parametrize("how", ["truncated", "not-json", "list", "version", "missing-zones",
                                 "card-lost", "zone-count", "rng", "no-ruleset",
                                 "ruleset-gone"])
def test_damaged_save_raises_rules_error(how: str) -> None:
    s = new_state(4, 1)
    s.apply(s.legal_actions()[0])
    with pytest.raises(RulesError):
        State.from_json(_damage(s.to_json(), how))


def test_illegal_action_names_the_legal_ids() -> None:
    s = new_state(4, 1)
    ids = [a.id for a in s.legal_actions()]
    before = s.to_json()
    with pytest.raises(IllegalActionError) as err:
        s.apply("play:no-such-card")
    for action_id in ids:
        assert action_id in str(err.value)
    not_mine = next(c for c in s.zone_cards("hand", 2))
    with pytest.raises(IllegalActionError):
        s.apply(f"pick:{not_mine}")  # another seat's card
    assert s.to_json() == before  # nothing changed


def test_apply_after_the_end_raises() -> None:
    s = random_game(5, 3, rounds=1)
    assert s.is_terminal()
    assert s.current_player() == -1 and s.legal_actions() == []
    final = s.to_json()
    with pytest.raises(IllegalActionError, match="over"):
        s.apply("clean:skip")
    assert s.to_json() == final
