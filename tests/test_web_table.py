"""The browser table through its HTTP and websocket API (issue 17 items 1-2): whole games
with two people and bots, each seat's messages checked against what it may see, seat tokens
that act only for their seat, and bad input answered with a clear message."""

from __future__ import annotations

import json
import random
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the 'web' extra (starlette) is not installed")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from click.testing import CliRunner  # noqa: E402
from web_tables import (  # noqa: E402
    Seat,
    check_no_leak,
    client,
    create,
    play_out,
    replay_views,
    token,
)

from rulesplay.cli import main  # noqa: E402

GAMES = [
    ("bargain_hunter", ["human", "human", "random"], {"rounds": 2}),
    ("card_hunt", ["human", "random", "human"], {}),
    ("classics/hearts", ["human", "human", "random", "random"], {"target": 20}),
]


@pytest.mark.parametrize(("ruleset", "seats", "options"), GAMES,
                         ids=[g[0].rsplit("/", 1)[-1] for g in GAMES])
def test_no_message_to_a_seat_holds_a_card_it_may_not_see(
        ruleset: str, seats: list[str], options: dict[str, object]) -> None:
    rng = random.Random(17)
    with client() as c, ExitStack() as stack:
        made = create(c, ruleset, seats, **options)
        tid = made["table_id"]
        people = {int(s): Seat(stack, c, tid, token(link))
                  for s, link in made["seat_links"].items()}
        watcher = Seat(stack, c, tid, None)
        assert [p.hello["seat"] for p in people.values()] == sorted(people)
        assert watcher.hello["seat"] is None
        moves = play_out(people, rng)
        watcher.settle()
        log = c.get(f"/table/{tid}/log")
        assert log.status_code == 200 and "attachment" in log.headers["content-disposition"]
    assert moves > 10
    _, hidden_ids, hidden_labels = replay_views(log.text)
    checked = 0
    for s, seat in [*people.items(), (None, watcher)]:
        checked += check_no_leak(s, seat.messages, hidden_ids[s], hidden_labels[s])
        assert not seat.errors, seat.errors
    assert checked > moves
    # the account went to each seat whole, and it ended with the winner
    for seat in people.values():
        assert seat.view["result"] is not None and seat.view["terminal"]
    final = people[0].view["result"]["winner"]
    assert final.startswith(("Winner", "Tied", "Winners", "Nobody"))


def test_the_table_draws_hands_and_moves_from_the_seat_view_only() -> None:
    with client() as c, ExitStack() as stack:
        made = create(c, "bargain_hunter", ["human", "random", "random"])
        me = Seat(stack, c, made["table_id"], token(made["seat_links"]["0"]))
        view = me.settle()
        hand = next(z for z in view["zones"] if z["area"] == "mine" and z["zone"] == "hand")
        assert hand["count"] == 8 and len(hand["cards"]) == 8
        others = [z for z in view["zones"] if z["area"] == "seat" and z["zone"] == "hand"]
        # (others may have chosen their bargain first: 7 cards left)
        assert others and all(z["cards"] is None and z["count"] in (7, 8) for z in others)
        faces = [view["cards"][c] for c in hand["cards"]]
        item = next(f for f in faces if f["label"] != "Irresistible Offer")
        assert item["corner"] in item["label"].split() and item["colour"].startswith("#")
        assert view["moves"] is not None and view["to_move"] == 0
        assert all(a["card"] in hand["cards"] for a in view["moves"]["actions"])
        first = next(m for m in me.messages if m["type"] == "view")
        assert first["account_from"] == 0 and first["account"][0][0] == "head"


def test_a_token_acts_only_for_its_own_seat_and_bad_moves_get_a_message() -> None:
    with client() as c, ExitStack() as stack:
        made = create(c, "card_hunt", ["human", "human", "random"])
        tid = made["table_id"]
        a = Seat(stack, c, tid, token(made["seat_links"]["0"]))
        b = Seat(stack, c, tid, token(made["seat_links"]["1"]))
        a.settle()
        b.settle()
        assert a.view["to_move"] == 0 and b.view["moves"] is None
        move = a.view["moves"]["actions"][0]["id"]
        b.move(move, a.view["version"])  # seat 1's token tries seat 0's move
        assert "not your turn" in b.error()
        a.move("play:no-such-card")
        assert "not a legal move" in a.error()
        a.move(move, a.view["version"] - 1 if a.view["version"] else 99)
        assert "moved on" in a.error()
        a.ws.send_text("not json")
        assert "JSON" in a.error()
        a.ws.send_text('{"type": "move", "action": "' + "x" * 5000 + '"}')
        assert "at most" in a.error()
        a.move(move)
        a.settle()
        assert a.view["version"] >= 1
        watcher = Seat(stack, c, tid, None)
        watcher.receive()
        watcher.move("pass")
        assert "spectator" in watcher.error()
        wrong = Seat(stack, c, tid, "A" * 22)
        assert "not valid for this table" in wrong.hello["message"]
        stale = Seat(stack, c, "AAAAAAAAAAAAAAAA", token(made["seat_links"]["0"]))
        assert "no such table" in stale.hello["message"]


def test_creating_a_table_refuses_bad_requests_with_a_reason() -> None:
    with client(max_games=1) as c:
        def post(body: object) -> str:
            r = c.post("/api/tables", json=body)
            assert r.status_code == 400, r.text
            return str(r.json()["error"])

        assert "unknown ruleset" in post({"ruleset": "../etc/passwd", "players": 3})
        assert "Card Hunt is for 2 to 8 players, not 9" in post(
            {"ruleset": "card_hunt", "players": 9, "seats": ["human"] * 9})
        assert "one seat per player" in post({"ruleset": "card_hunt", "players": 3,
                                              "seats": ["human"]})
        assert "unknown bot" in post({"ruleset": "card_hunt", "players": 2,
                                      "seats": ["human", "wizard"]})
        assert "at least one human" in post({"ruleset": "card_hunt", "players": 2,
                                             "seats": ["random", "random"]})
        assert "unknown option" in post({"ruleset": "card_hunt", "players": 2,
                                         "seats": ["human", "random"], "options": {"x": 1}})
        assert "must be" in post({"ruleset": "bargain_hunter", "players": 3,
                                  "seats": ["human", "mcts:iterations=-5", "random"]})
        r = c.post("/api/tables", content=b"{not json",
                   headers={"content-type": "application/json"})
        assert r.status_code == 400 and "not JSON" in r.json()["error"]
        create(c, "card_hunt", ["human", "random"])
        assert "holds 1 tables already, all being played" in post(
            {"ruleset": "card_hunt", "players": 2, "seats": ["human", "random"]})
        big = c.post("/api/tables", content=b"[" + b"1," * 200_000 + b"1]",
                     headers={"content-type": "application/json"})
        assert big.status_code == 413


def test_the_pages_answer_unknown_names_with_a_page_not_a_crash() -> None:
    with client() as c:
        assert c.get("/new?ruleset=nope%3Cscript%3E").status_code == 404
        assert "<script>" not in c.get("/new?ruleset=nope%3Cscript%3E").text
        page = c.get("/new?ruleset=bargain_hunter")
        assert page.status_code == 200 and 'name="opt-rounds"' in page.text
        assert "3 players: 6, 4 players: 4" in page.text  # a default that depends on the count
        assert c.get("/table/nope").status_code == 404
        made = create(c, "card_hunt", ["human", "random"])
        table = c.get(made["spectator_link"])
        assert table.status_code == 200 and table.headers["referrer-policy"] == "no-referrer"
        assert token(made["seat_links"]["0"]) not in table.text
        assert c.get(made["spectator_link"] + "/log").status_code == 409


def test_the_account_is_in_the_terminal_s_words_in_japanese_too() -> None:
    with client(lang="ja") as c, ExitStack() as stack:
        made = create(c, "bargain_hunter", ["human", "random", "random"])
        me = Seat(stack, c, made["table_id"], token(made["seat_links"]["0"]))
        me.settle()
        text = " ".join(line[1] for m in me.messages if m["type"] == "view"
                        for line in m["account"])
        assert "第1ラウンド" in text and "席" in text
        assert me.hello["you"].endswith("（あなた）")


def test_a_table_is_saved_after_every_move_resumed_by_a_new_server_and_by_resume(
        tmp_path: Path) -> None:
    games = tmp_path / "games"
    with client(games) as c, ExitStack() as stack:
        made = create(c, "card_hunt", ["human", "human", "random"])
        tid = made["table_id"]
        a = Seat(stack, c, tid, token(made["seat_links"]["0"]))
        a.settle()
        a.move(a.view["moves"]["actions"][0]["id"])
        a.settle()
        version = a.view["version"]
    save = games / f"{tid}.save.json"
    assert save.is_file() and (games / f"{tid}.seats.json").is_file()
    for link in made["seat_links"].values():  # the tokens themselves are written nowhere
        assert token(link) not in save.read_text() + (games / f"{tid}.seats.json").read_text()
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["secret_seed"] is True and len(saved["state"]["history"]) == version
    # a new server over the same folder takes the game up where it was
    with client(games) as c, ExitStack() as stack:
        b = Seat(stack, c, tid, token(made["seat_links"]["1"]))
        view = b.settle()
        assert view["version"] == version and view["seat"] == 1
        old = " ".join(line[1] for line in view["account"])
        assert "Seat 0" in old  # the account so far, rebuilt from the saved decisions
        if view["to_move"] == 1:
            b.move(view["moves"]["actions"][-1]["id"])
            assert b.settle()["version"] > version
    # and 'rulesplay resume' continues the same save at the terminal
    result = CliRunner(env={"COLUMNS": "200"}).invoke(main, ["resume", str(save)],
                                                      input="\nquit\nn\n")
    assert result.exit_code == 0, result.output
    assert "Card Hunt" in result.output and "seed" not in result.output.lower()


def test_a_finished_game_offers_a_log_that_replay_accepts(tmp_path: Path) -> None:
    with client(max_games=1) as c, ExitStack() as stack:
        made = create(c, "card_hunt", ["human", "random"])
        me = {0: Seat(stack, c, made["table_id"], token(made["seat_links"]["0"]))}
        play_out(me, random.Random(3))
        assert me[0].view["log"] == made["spectator_link"] + "/log"
        log = c.get(me[0].view["log"])
        # the server is full, but a finished table makes room for a new one
        create(c, "card_hunt", ["human", "random"])
        assert c.get(made["spectator_link"]).status_code == 404
    path = tmp_path / "game.log.jsonl"
    path.write_text(log.text, encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 0, result.output


def test_a_damaged_save_is_said_and_skipped_and_the_server_starts(tmp_path: Path,
                                                                   capsys: Any) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "AAAAAAAAAAAAAAAA.save.json").write_text("{not json", encoding="utf-8")
    with client(games) as c:
        assert c.get("/").status_code == 200
    assert "AAAAAAAAAAAAAAAA.save.json" in capsys.readouterr().err


def test_a_binary_message_and_a_silent_page_are_answered_not_crashed() -> None:
    with client() as c, ExitStack() as stack:
        made = create(c, "card_hunt", ["human", "random"])
        me = Seat(stack, c, made["table_id"], token(made["seat_links"]["0"]))
        me.settle()
        me.ws.send_bytes(b"\x00\x01")
        assert "binary" in me.error()
        me.ws.send_json({"type": "dance"})
        assert "'hello' (first) and 'move'" in me.error()
        assert me.view["your_turn"].startswith("Seat 0, your turn")


LOOPING = '''game "Loop"
players 2
limit steps 100000

enum suit: clubs, hearts
card card "card":
    suit: suit
    rank: 1..3
    label: "{rank} of {suit}"

zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone table "trick": shared, public
var n "n": int = 0

phase deal "Deal":
    shuffle deck
    deal 3 from deck to hand
    next play

# After the first trick the rules loop until the step limit stops the game.
phase play "Play":
    trick in table led by 0:
        each player plays card from hand[player] "play a card"
        won by highest it.rank
        after trick:
            repeat while true:
                n = n + 1
    next end

score: n
'''


def test_a_long_stretch_of_rules_holds_up_no_other_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules run off the event loop: while one move is being played (held here until
    another page has been answered; before, the whole server waited for it), the server
    answers other pages; a loop that only the step limit ends then stops the table with
    the limit's message."""
    import threading

    from rulesplay.web.tables import Table

    rules = tmp_path / "looping.rules"
    rules.write_text(LOOPING, encoding="utf-8")
    gate, held = threading.Event(), threading.Event()
    real = Table.apply

    def apply_when_let(self: Table, action: Any) -> None:
        held.set()
        assert gate.wait(30)
        real(self, action)

    with client(files=(rules,)) as c, ExitStack() as stack:
        made = create(c, str(rules), ["human", "human"])
        seats = {s: Seat(stack, c, made["table_id"], token(made["seat_links"][str(s)]))
                 for s in (0, 1)}
        for s in seats.values():
            s.settle()
        seats[0].move(seats[0].view["moves"]["actions"][0]["id"])
        seats[1].settle()
        monkeypatch.setattr(Table, "apply", apply_when_let)
        # the second card ends the trick: the loop starts
        seats[1].move(seats[1].view["moves"]["actions"][0]["id"])
        assert held.wait(30)
        answers: list[int] = []
        page = threading.Thread(target=lambda: answers.append(c.get("/").status_code))
        page.start()
        page.join(10)
        answered_while_held = list(answers)
        gate.set()
        page.join(30)
        assert answered_while_held == [200], "the page waited for the move"
        while not seats[1].view.get("error"):
            seats[1].receive()
        assert "step limit" in seats[1].view["error"]
