"""The web server against a hostile visitor (issue 17, a hostile review): capped bots on a
bounded pool, the Host names of a server on the network, same-origin JSON-only posts, one
bounded JSON reader, live saves before finished ones, websocket bounds, capped echoes,
bidirectional text isolated, no server path in a download, ASCII digits only."""

from __future__ import annotations

import json
import random
import shutil
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the 'web' extra (starlette) is not installed")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402
from web_tables import Seat, client, create, play_out, token  # noqa: E402

from rulesplay.agents import RandomAgent  # noqa: E402
from rulesplay.cli import main  # noqa: E402
from rulesplay.engine.game import load  # noqa: E402
from rulesplay.shipped import find_shipped, shipped_root  # noqa: E402
from rulesplay.web import config as web_config  # noqa: E402
from rulesplay.web.app import Server, create_app  # noqa: E402
from rulesplay.web.config import ServeConfig  # noqa: E402
from rulesplay.web.html import html, isolate, isolate_texts  # noqa: E402
from rulesplay.web.tables import Tables  # noqa: E402

JSON = {"content-type": "application/json"}
RLO = "\u202e"


def _post(c: TestClient, url: str, body: object) -> Any:
    return c.post(url, json=body)


def _refused(c: TestClient, body: dict[str, Any]) -> str:
    r = _post(c, "/api/tables", body)
    assert r.status_code == 400, r.text
    return str(r.json()["error"])


# ---------------------------------------------------------------- 1. bots
def test_a_page_s_bots_are_capped_by_the_server_s_limits() -> None:
    with client() as c:
        seats = ["human", "mcts:iterations=10000000", "random"]
        said = _refused(c, {"ruleset": "card_hunt", "players": 3, "seats": seats})
        assert "iterations must be a whole number from 1 to 5000" in said
        assert "seat 1" in said and "this server" in said
        for spec, allowed in [("greedy:samples=100000", "from 1 to 64"),
                              ("greedy:depth=9999", "from 0 to 200"),
                              ("mcts:seconds=600", "at most 5")]:
            assert allowed in _refused(c, {"ruleset": "card_hunt", "players": 2,
                                           "seats": ["human", spec]})
    assert ServeConfig().bot_problem("mcts:iterations=5000") is None
    narrow = ServeConfig(bot_caps={"mcts": {"iterations": 10}})
    assert "from 1 to 10" in str(narrow.bot_problem("mcts:iterations=11"))
    assert "no parameter 'seconds'" in str(narrow.bot_problem("mcts:seconds=1"))


def test_bots_think_on_the_server_s_own_bounded_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: set[str] = set()
    step = RandomAgent.step

    def recorded(self: RandomAgent, *args: Any, **kw: Any) -> Any:
        threads.add(threading.current_thread().name)
        return step(self, *args, **kw)

    monkeypatch.setattr(RandomAgent, "step", recorded)
    config = ServeConfig(allow_hosts=("testserver",), bot_workers=1)
    server = Server.from_config(config)
    assert server.bots._max_workers == 1
    with TestClient(create_app(config, server)) as c, ExitStack() as stack:
        made = create(c, "card_hunt", ["human", "random", "random"])
        me = {0: Seat(stack, c, made["table_id"], token(made["seat_links"]["0"]))}
        play_out(me, random.Random(5))
    assert threads and all(t.startswith("rulesplay-bot") for t in threads), threads


# ---------------------------------------------------------------- 2. hosts
@pytest.fixture
def on_a_lan(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(web_config, "lan_addresses", lambda ipv6=False: [
        "192.168.1.20", *(["2001:db8::20"] if ipv6 else [])])
    yield


@pytest.mark.usefixtures("on_a_lan")
def test_a_server_on_every_ipv6_address_gives_and_answers_its_ipv6_lan_address() -> None:
    """LAN addresses were IPv4 only: a server on '::' (which takes IPv4 too) now names its
    IPv6 ones, bracketed, and answers a Host header that names one."""
    config = ServeConfig(host="::")
    assert config.lan_urls() == ["http://192.168.1.20:8000/", "http://[2001:db8::20]:8000/"]
    lan = TestClient(create_app(config), base_url="http://[2001:db8::20]:8000")
    assert lan.get("/").status_code == 200
    assert ServeConfig(host="0.0.0.0").lan_urls() == ["http://192.168.1.20:8000/"]


def test_the_lan_addresses_found_are_addresses_of_this_machine_others_can_reach() -> None:
    import ipaddress

    for ipv6 in (False, True):
        for address in web_config.lan_addresses(ipv6):
            ip = ipaddress.ip_address(address)
            assert not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)
            assert ip.version == 4 or ipv6


@pytest.mark.usefixtures("on_a_lan")
def test_a_server_on_every_address_answers_its_lan_address_and_says_how_to_allow_names(
        ) -> None:
    config = ServeConfig(host="0.0.0.0")
    assert config.lan_urls() == ["http://192.168.1.20:8000/"]
    lan = TestClient(create_app(config), base_url="http://192.168.1.20:8000")
    assert lan.get("/").status_code == 200
    other = TestClient(create_app(config), base_url="http://games.example:8000")
    refused = other.get("/")
    assert refused.status_code == 400
    assert "--allow-host games.example" in refused.text and "'games.example'" in refused.text
    allowed = TestClient(create_app(ServeConfig(host="0.0.0.0", allow_hosts=(
        "games.example",))), base_url="http://games.example:8000")
    assert allowed.get("/").status_code == 200
    with pytest.raises(WebSocketDisconnect) as info, \
            other.websocket_connect("/table/AAAAAAAAAAAAAAAA/ws"):
        pass
    assert info.value.code == 1008


@pytest.mark.usefixtures("on_a_lan")
def test_serve_prints_the_lan_addresses_not_0_0_0_0(monkeypatch: pytest.MonkeyPatch) -> None:
    import rulesplay.serve_cli as serve_cli

    ran: dict[str, Any] = {}
    # (nothing listens, and uvicorn's logging is never set up on CliRunner's own stderr)
    monkeypatch.setattr(serve_cli, "_listen", lambda host, port: None)
    monkeypatch.setattr(serve_cli, "_run", lambda app, listening, **kw: ran.update(kw))
    result = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "http://192.168.1.20:8123/" in result.output
    assert "0.0.0.0" not in result.output and "--allow-host NAME" in result.output
    assert ran["host"] == "0.0.0.0" and 0 < ran["ws_max_size"] <= 64 * 1024


# ---------------------------------------------------------------- 3. origin, JSON
def test_the_origin_must_be_the_same_scheme_host_and_port() -> None:
    with client() as c:
        body = {"text": ""}
        assert c.post("/playground/check", json=body,
                      headers={"origin": "http://testserver"}).status_code == 200
        for origin in ("http://testserver:8080", "https://testserver", "null",
                       "http://testserver.evil.example", "http://evil.example"):
            r = c.post("/playground/check", json=body, headers={"origin": origin})
            assert r.status_code == 403, origin
        with pytest.raises(WebSocketDisconnect) as info, c.websocket_connect(
                "/table/AAAAAAAAAAAAAAAA/ws", headers={"origin": "http://testserver:9"}):
            pass
        assert info.value.code == 1008


def test_a_changing_request_must_be_json_so_a_plain_form_cannot_make_one() -> None:
    with client() as c:
        for kind in ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data"):
            r = c.post("/api/tables", content=b"ruleset=card_hunt",
                       headers={"content-type": kind})
            assert r.status_code == 415 and "application/json" in r.text
        assert c.post("/simulate/jobs/x/stop").status_code == 415
        assert c.post("/simulate/jobs/x/stop", json={}).status_code == 404


# ---------------------------------------------------------------- 4. JSON depth
@pytest.mark.parametrize("url", ["/api/tables", "/playground/check", "/playground/play",
                                 "/simulate/start"])
def test_deeply_nested_json_gets_a_400_with_a_reason(url: str) -> None:
    with client() as c:
        r = c.post(url, content=b"[" * 100_000, headers=JSON)
        assert r.status_code == 400, r.text
        assert "nests" in r.json()["error"]
        r = c.post(url, content=b"\xff\xfe", headers=JSON)
        assert r.status_code == 400 and "not JSON" in r.json()["error"]


def test_a_deeply_nested_websocket_message_is_answered() -> None:
    with client() as c, ExitStack() as stack:
        made = create(c, "card_hunt", ["human", "random"])
        me = Seat(stack, c, made["table_id"], token(made["seat_links"]["0"]))
        me.settle()
        me.ws.send_text("[" * 3000)
        assert "nests" in me.error()
        me.move("x")  # the socket is still there
        assert "legal" in me.error()


# ---------------------------------------------------------------- 5. saved tables
def _finish(tables: Tables, table_id: str) -> None:
    table = tables.tables[table_id]
    rng = random.Random(1)
    while not table.state.is_terminal():
        table.apply(rng.choice(table.state.legal_actions()))


def _rename(folder: Path, old: str, new: str) -> None:
    for kind in ("save", "seats"):
        (folder / f"{old}.{kind}.json").rename(folder / f"{new}.{kind}.json")


def test_live_saved_games_are_taken_up_first_and_finished_ones_make_room(
        tmp_path: Path) -> None:
    game = load("card_hunt")
    tables = Tables(tmp_path, 10)
    ids = [tables.create(game, players=2, seats=["human", "random"]).table_id
           for _ in range(3)]
    _finish(tables, ids[0])
    _finish(tables, ids[1])
    # finished games whose names sort first, the live one last
    for old, new in zip(ids, ["A" * 16, "B" * 16, "z" * 16], strict=True):
        _rename(tmp_path, old, new)
    again = Tables(tmp_path, 2)
    assert again.load_saved() == []
    assert "z" * 16 in again.tables and len(again.tables) == 2
    # a full server still starts a new table: a finished one leaves
    again.create(game, players=2, seats=["human", "random"])
    assert "z" * 16 in again.tables and len(again.tables) == 2
    with pytest.raises(ValueError, match="all being played"):
        again.create(game, players=2, seats=["human", "random"])
    one = Tables(tmp_path, 1)  # two live saves now: one is taken up, the other is said
    problems = one.load_saved()
    assert len(one.tables) == 1 and not next(iter(one.tables.values())).finished
    assert len(problems) == 1 and "being played" in problems[0]


def test_a_table_stopped_by_its_ruleset_counts_as_finished(tmp_path: Path) -> None:
    game = load("card_hunt")
    tables = Tables(None, 1)
    first = tables.create(game, players=2, seats=["human", "random"]).table_id
    tables.tables[first].error = "the game cannot go on: (a test)"
    second = tables.create(game, players=2, seats=["human", "random"]).table_id
    assert list(tables.tables) == [second]



def test_a_table_left_without_a_move_makes_room_after_the_idle_time(tmp_path: Path) -> None:
    """Anyone may start tables; abandoned ones must not hold the server full for ever. The
    one longest without a move leaves once it is idle past ``idle_after`` (its save stays);
    a table that has just had a move does not."""
    game = load("card_hunt")
    tables = Tables(tmp_path, 2, idle_after=60.0)
    first, second = (tables.create(game, players=2, seats=["human", "random"]).table_id
                     for _ in range(2))
    with pytest.raises(ValueError, match="without a move"):
        tables.create(game, players=2, seats=["human", "random"])
    tables.tables[first].moved -= 61  # (an hour of nobody playing, as the clock sees it)
    tables.tables[second].moved -= 30
    third = tables.create(game, players=2, seats=["human", "random"]).table_id
    assert set(tables.tables) == {second, third}
    assert (tmp_path / f"{first}.save.json").exists()
    table = tables.tables[second]
    table.apply(table.state.legal_actions()[0])  # a move: no longer idle
    tables.tables[third].moved -= 61
    tables.create(game, players=2, seats=["human", "random"])
    assert second in tables.tables and third not in tables.tables

# ---------------------------------------------------------------- 6. websocket bounds
def test_a_page_that_says_no_hello_is_closed_and_few_may_wait() -> None:
    with client(hello_wait=0.3, max_connecting=1) as c, ExitStack() as stack:
        made = create(c, "card_hunt", ["human", "random"])
        url = f"/table/{made['table_id']}/ws"
        silent = stack.enter_context(c.websocket_connect(url))
        crowded = stack.enter_context(c.websocket_connect(url))
        assert "too many pages are connecting" in crowded.receive_json()["message"]
        with pytest.raises(WebSocketDisconnect) as info:
            silent.receive_json()
        assert info.value.code == 1008
        late = Seat(stack, c, made["table_id"], token(made["seat_links"]["0"]))
        assert late.hello["seat"] == 0  # the one that waited has left: room again


# ---------------------------------------------------------------- 7. echoes
def test_an_illegal_move_s_text_is_echoed_short_and_harmless() -> None:
    with client() as c, ExitStack() as stack:
        made = create(c, "card_hunt", ["human", "random"])
        me = Seat(stack, c, made["table_id"], token(made["seat_links"]["0"]))
        me.settle()
        me.move("play:" + "x" * 150 + RLO + "<b>")
        said = me.error()
        assert "not a legal move" in said and len(said) < 160
        assert RLO not in said and "x" * 61 not in said
        me.move("y" * 300)
        said = me.error()
        assert "at most 200 characters" in said and "yyy" not in said
        long = "k" * 5000
        for body in ({"options": {long: 1}}, {"options": {"rounds": long}},
                     {"seats": ["human", f"random{RLO}"]}):
            said = _refused(c, {"ruleset": "card_hunt", "players": 2,
                                "seats": ["human", "random"], **body})
            assert len(said) < 200 and RLO not in said
        said = _post(c, "/playground/play", {"text": 'extends "card_hunt"\n', "players": 2,
                                             "seats": ["human", long]}).json()["error"]
        assert len(said) < 200
        said = _post(c, "/simulate/start", {"ruleset": long + RLO}).json()["error"]
        assert len(said) < 200 and RLO not in said


# ---------------------------------------------------------------- 8. bidi
def test_bidirectional_text_is_isolated_where_it_is_shown_and_left_where_it_is_data() -> None:
    name = f"evil{RLO}txt"
    made = html('<a href="/new?ruleset=$n" title="$n">$n</a> <option value="$n">$n</option>',
                n=name)
    assert made.count(f"\u2068{name}\u2069") == 2  # the element texts
    assert made.count(f'"/new?ruleset={name}"') == 1 and f'value="{name}"' in made
    assert isolate("plain words") == "plain words"
    # its own PDI cannot close the isolate; what it opens is closed
    assert isolate("a\u2069\u2067b") == "\u2068a\u2067b\u2069\u2069"
    # each paragraph apart: a separator would end the isolate and free what follows it
    assert isolate(f"ok\u2029{RLO}x") == f"ok\u2029\u2068{RLO}x\u2069"
    assert isolate_texts({"id": name, "label": name}, frozenset({"id"})) == {
        "id": name, "label": f"\u2068{name}\u2069"}


def test_a_right_to_left_title_reaches_the_table_isolated() -> None:
    text = f'extends "card_hunt"\ngame "Hunt {RLO}desrever"\n'
    with client() as c, ExitStack() as stack:
        checked = _post(c, "/playground/check", {"text": text}).json()
        assert checked["ok"] and checked["title"] == f"\u2068Hunt {RLO}desrever\u2069"
        r = _post(c, "/playground/play", {"text": text, "players": 2,
                                          "seats": ["human", "random"]})
        made = r.json()
        page = c.get(made["spectator_link"]).text
        assert f"<title>\u2068Hunt {RLO}desrever\u2069 · rulesplay</title>" in page
        me = Seat(stack, c, made["table_id"], token(made["seat_links"]["0"]))
        view = me.settle()
        assert view["title"] == f"\u2068Hunt {RLO}desrever\u2069"


# ---------------------------------------------------------------- 9. paths
def test_a_downloaded_log_and_a_save_name_no_folder_of_the_server(tmp_path: Path) -> None:
    private = tmp_path / "private-folder"
    private.mkdir()
    rules = private / "hunt.rules"
    shutil.copy(find_shipped("card_hunt"), rules)
    games = tmp_path / "games"
    config = ServeConfig(allow_hosts=("testserver",), files=(rules,), games_dir=games)
    with TestClient(create_app(config)) as c, ExitStack() as stack:
        logs = []
        for ruleset in (str(rules), "card_hunt"):
            made = create(c, ruleset, ["human", "random"])
            me = {0: Seat(stack, c, made["table_id"], token(made["seat_links"]["0"]))}
            play_out(me, random.Random(2))
            logs.append(c.get(made["spectator_link"] + "/log").text)
    saves = "".join(p.read_text(encoding="utf-8") for p in games.glob("*.json"))
    root = str(shipped_root())
    for text in [*logs, saves]:
        assert "private-folder" not in text and str(tmp_path) not in text
        assert root not in text
    heads = [json.loads(log.splitlines()[0]) for log in logs]
    assert [h["ruleset"] for h in heads] == ["hunt.rules", "card_hunt"]
    replayed = tmp_path / "replay.jsonl"
    replayed.write_text(logs[0], encoding="utf-8")
    assert CliRunner().invoke(main, ["replay", str(replayed)]).exit_code == 0


# ---------------------------------------------------------------- 10. digits
def test_numbers_from_a_page_are_ascii_digits_only() -> None:
    with client() as c:
        for rounds in ("\u0663", "\uff13", "1_0"):  # Arabic-Indic 3, full-width 3
            said = _refused(c, {"ruleset": "bargain_hunter", "players": 3,
                                "seats": ["human", "random", "random"],
                                "options": {"rounds": rounds}})
            assert "rounds" in said and "not allowed" in said
        assert "digits 0-9" in said or "1_0" in said
        said = _refused(c, {"ruleset": "bargain_hunter", "players": 3,
                            "seats": ["human", "random", "random"],
                            "options": {"rounds": "\u0663"}})
        assert "digits 0-9" in said
        said = _refused(c, {"ruleset": "card_hunt", "players": 2,
                            "seats": ["human", "mcts:iterations=\u0661\u0660\u0660"]})
        assert "digits 0-9" in said
        for games in ("\u00b2", "\uff15"):
            r = _post(c, "/simulate/start", {"ruleset": "card_hunt", "games": games})
            assert r.status_code == 400 and "digits 0-9" in r.json()["error"]


def test_a_save_without_its_seat_links_file_is_said_in_words(tmp_path: Path) -> None:
    game = load("card_hunt")
    made = [Tables(tmp_path, 10).create(game, players=2, seats=["human", "random"]).table_id
            for _ in range(2)]
    (tmp_path / f"{made[0]}.seats.json").unlink()
    (tmp_path / f"{made[1]}.seats.json").write_bytes(b"\xff\xfe not json")
    problems = sorted(Tables(tmp_path, 10).load_saved())
    assert len(problems) == 2, problems
    said = " ".join(problems)
    assert "is missing" in said and "rulesplay resume" in said
    assert "cannot be read as a table's seats" in said and "Errno" not in said
