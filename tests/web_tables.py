"""Helpers for the table tests: a server in Starlette's TestClient, seats on its websocket,
whole games played through them, and the check that no message to a seat holds a card that
seat may not see (worked out again from the finished game's log, decision by decision)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from rulesplay.compose import Bundle
from rulesplay.engine.game import load_bundle
from rulesplay.engine.observe import hidden_cards
from rulesplay.web.app import create_app
from rulesplay.web.config import ServeConfig


@contextmanager
def client(games_dir: Path | None = None, **kw: Any) -> Iterator[TestClient]:
    """A TestClient of the whole app, entered (one event loop for every websocket)."""
    config = ServeConfig(allow_hosts=("testserver",), games_dir=games_dir, **kw)
    with TestClient(create_app(config)) as c:
        yield c


def create(c: TestClient, ruleset: str, seats: list[str], **options: Any) -> dict[str, Any]:
    """Create a table through the API; returns its JSON (id, seat links, spectator link)."""
    r = c.post("/api/tables", json={"ruleset": ruleset, "players": len(seats),
                                    "seats": seats, "options": options})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def token(link: str) -> str:
    return link.split("#seat=", 1)[1]


class Seat:
    """One open page: its websocket, every message it got, its last view."""

    def __init__(self, stack: ExitStack, c: TestClient, table_id: str,
                 tok: str | None) -> None:
        self.ws = stack.enter_context(c.websocket_connect(f"/table/{table_id}/ws"))
        self.ws.send_json({"type": "hello", "token": tok})
        self.hello = self.ws.receive_json()
        self.messages: list[dict[str, Any]] = [self.hello]
        self.view: dict[str, Any] = {}
        self.errors: list[str] = []

    def receive(self) -> dict[str, Any]:
        m: dict[str, Any] = self.ws.receive_json()
        self.messages.append(m)
        if m["type"] == "error":
            self.errors.append(m["message"])
        elif m["type"] == "view":
            self.view = m
        return m

    def settle(self) -> dict[str, Any]:
        """Read until the table waits for a person (a view with ``busy`` false)."""
        while True:
            m = self.receive()
            if m["type"] == "view" and not m["busy"]:
                return m

    def error(self) -> str:
        """Read until an error message; returns it."""
        while True:
            m = self.receive()
            if m["type"] == "error":
                return str(m["message"])

    def move(self, action: str, version: int | None = None) -> None:
        self.ws.send_json({"type": "move", "action": action,
                           "version": self.view["version"] if version is None else version})


def pick(view: dict[str, Any], rng: random.Random) -> str:
    """A random legal move of a view: a listed action, or one of a set choice's sets."""
    moves = view["moves"]
    ids = [a["id"] for a in moves["actions"]]
    if moves["set"] is not None:
        assert moves["set"]["sets"], "a test game's set choices are few enough to list"
        ids += moves["set"]["sets"]
    return rng.choice(ids)


def play_out(seats: dict[int, Seat], rng: random.Random, limit: int = 5000) -> int:
    """Play the humans' moves at random to the end; returns how many were made."""
    for s in seats.values():
        s.settle()
    first = next(iter(seats.values()))
    made = 0
    while not first.view["terminal"]:
        mover = seats[first.view["to_move"]]
        assert mover.view["moves"] is not None, mover.view
        mover.move(pick(mover.view, rng))
        made += 1
        assert made < limit
        for s in seats.values():
            s.settle()
    return made


def replay_views(log: str) -> tuple[Any, dict[int | None, dict[int, set[str]]],
                                    dict[int | None, dict[int, set[str]]]]:
    """The finished game of ``log`` played again decision by decision. Returns the game
    and, per seat (None: an onlooker) and per number of decisions: the ids of the cards it
    could not see then, and the labels of those of them it had never seen (no card with
    that label had been in a zone it sees, at any event so far)."""
    lines = [json.loads(x) for x in log.splitlines() if x.strip()]
    head = lines[0]
    game = load_bundle(Bundle.model_validate(head["files"]), head["options"], head["lang"])
    state = game.new_state(head["players"], head["seed"], record_events=True)
    prog = state.program
    viewers: list[int | None] = [None, *range(state.num_players)]
    known: dict[int | None, set[str]] = {v: set() for v in viewers}
    hidden_ids: dict[int | None, dict[int, set[str]]] = {v: {} for v in viewers}
    hidden_labels: dict[int | None, dict[int, set[str]]] = {v: {} for v in viewers}
    zone_of = {(prog.layout.zone_name[z], prog.layout.zone_owner[z]): z
               for z in range(prog.num_zones)}
    done = 0

    def note() -> None:
        nonlocal done
        for ev in (state.events or [])[done:]:
            if ev.get("type") != "move":
                continue
            for end in (ev["from"], ev["to"]):
                z = zone_of[(end["zone"], end["owner"])]
                for v in viewers:
                    if prog.view(z, v) == "all":
                        known[v].add(prog.card_labels[prog.card_ids.index(ev["card"])])
        done = len(state.events or [])
        for v in viewers:
            cards = hidden_cards(state, v)[1]
            hidden_ids[v][state.decisions] = {prog.card_ids[c] for c in cards}
            hidden_labels[v][state.decisions] = {prog.card_labels[c] for c in cards} - known[v]

    note()
    for ev in lines[1:]:
        if ev.get("type") == "decision":
            state.apply(ev["action"])
            note()
    assert state.is_terminal()
    return game, hidden_ids, hidden_labels


def check_no_leak(seat: int | None, messages: list[dict[str, Any]],
                  hidden_ids: dict[int, set[str]], hidden_labels: dict[int, set[str]]) -> int:
    """Assert no view to ``seat`` names a card it could not see at that view's decision
    (by id anywhere; by label for cards whose label it had never seen); returns how many
    views were checked."""
    checked = 0
    for m in messages:
        if m["type"] != "view":
            continue
        text = json.dumps(m, ensure_ascii=False)
        version = m["version"]
        for cid in hidden_ids[version]:
            assert f'"{cid}"' not in text, (seat, version, cid)
        for label in hidden_labels[version]:
            assert not re.search(rf"(?<![\w]){re.escape(label)}(?![\w])", text), \
                (seat, version, label)
        checked += 1
    return checked
