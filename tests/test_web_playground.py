"""The playground (issue 17 item 4) through its HTTP API: a pasted ruleset is checked as
``rulesplay validate`` checks a file (the same diagnostics, at their lines), may extend a
shipped game by name only and include nothing, is size-bounded, and its graph and options
are those of ``rulesplay graph`` and ``rulesplay options``; hostile text never becomes
markup."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the 'web' extra (starlette) is not installed")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from rulesplay import graph as graphs  # noqa: E402
from rulesplay.cli import main  # noqa: E402
from rulesplay.engine.game import load  # noqa: E402
from rulesplay.option_table import option_rows  # noqa: E402
from rulesplay.web.app import STATIC, create_app  # noqa: E402
from rulesplay.web.config import ServeConfig  # noqa: E402
from rulesplay.web.pasted import PASTED, load_pasted, shipped_text  # noqa: E402

HOSTILE = '<img src=x onerror="alert(1)">&\'"</textarea><script>alert(2)</script>'
BROKEN = '''game "Broken"
players 2
zone deck "deck": shared, hidden
phase a "A":
    shuffle dek
    nxt b
'''
UNDEFINED = '''extends "whist"
game "House"
option game_pionts = 7
'''


def _client(**kw: object) -> TestClient:
    config = ServeConfig(allow_hosts=("testserver",), **kw)  # type: ignore[arg-type]
    return TestClient(create_app(config))


def _check(client: TestClient, text: str) -> dict[str, object]:
    response = client.post("/playground/check", json={"text": text})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    return response.json()  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return _client()


def _validate_prints(text: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """What ``rulesplay validate`` prints for ``text`` saved as pasted.rules."""
    (folder / PASTED).write_text(text, encoding="utf-8")
    monkeypatch.chdir(folder)
    return CliRunner().invoke(main, ["validate", PASTED]).output


@pytest.mark.parametrize("text", [BROKEN, UNDEFINED], ids=["syntax", "extends"])
def test_diagnostics_are_what_validate_prints_at_their_line_and_column(
        client: TestClient, text: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    result = _check(client, text)
    assert result["ok"] is False
    diags = result["diagnostics"]
    assert isinstance(diags, list) and diags
    printed = _validate_prints(text, tmp_path, monkeypatch)
    assert "\n".join(d["text"] for d in diags) == printed.rstrip("\n")
    first = diags[0]
    if text is BROKEN:
        assert (first["line"], first["col"]) == (6, 5) and "'nxt'" in first["message"]
    else:
        assert (first["line"], first["col"]) == (3, 8)
        assert "game_pionts" in first["message"] and "did you mean 'game_points'" in \
            first["message"]
    # the source line and its caret, cut from the same rendering
    line = text.split("\n")[first["line"] - 1]
    assert first["source"] == line
    assert first["caret"].index("^") == first["col"] - 1
    assert first["file"] == PASTED


def test_a_validation_error_of_a_whole_game_is_found_at_its_line(client: TestClient) -> None:
    text = BROKEN.replace("nxt b", "next end").replace("dek", "dek_")
    diags = _check(client, text)["diagnostics"]
    found = [(d["line"], d["col"]) for d in diags if "'dek_'" in d["message"]]  # type: ignore[index]
    assert found == [(5, 13)]


def test_extends_by_name_works_and_the_options_and_graph_are_the_commands(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    text = 'extends "whist"\ngame "Whist (House)"\noption game_points = 7\n'
    monkeypatch.setattr(graphs.shutil, "which", lambda name: None)  # no Graphviz
    result = _check(client, text)
    assert result["ok"] is True and result["title"] == "Whist (House)"
    game = load_pasted(text, 10_000).game
    assert game is not None
    assert result["options"] == [{"name": r.name, "type": r.type, "default": r.default,
                                  "doc": r.doc} for r in option_rows(game)]
    changed = [o for o in result["options"] if o["name"] == "game_points"]  # type: ignore[union-attr, index]
    assert [o["default"] for o in changed] == ["7"]
    graph = result["graph"]
    assert graph == {"format": "mermaid", "text": graphs.to_mermaid(game.ruleset),
                     "note": graph["note"]}  # type: ignore[index]
    assert "not installed" in graph["note"]  # type: ignore[index]


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot (CI installs it)")
def test_the_graph_is_drawn_by_graphviz_when_it_is_installed(client: TestClient) -> None:
    graph = _check(client, 'extends "card_hunt"\n')["graph"]
    assert graph["format"] == "svg" and graph["svg"].lstrip().startswith("<?xml")  # type: ignore[index]
    assert "drawn by Graphviz" in graph["note"]  # type: ignore[index]


@pytest.mark.parametrize("text, said", [
    ('extends "../card_hunt.rules"\n', "by its name only"),
    ('extends "/etc/passwd"\n', "by its name only"),
    ('extends "card_hunt.rules"\n', "by its name only"),
    ('extends "card_hnut"\n', "did you mean 'card_hunt'"),
    ('game "x"\ninclude "../rulesets/bargain_quest_cards.part"\n', "includes nothing"),
    ('game "x"\ninclude "x.part"\ninclude "y.part"\n', "includes nothing"),
], ids=["relative", "absolute", "file-name", "unknown-name", "include", "two-includes"])
def test_a_path_or_an_include_is_refused_at_its_line(client: TestClient, text: str,
                                                     said: str) -> None:
    result = _check(client, text)
    assert result["ok"] is False
    diags = result["diagnostics"]
    lines = [i + 1 for i, line in enumerate(text.split("\n"))
             if line.startswith(("extends", "include"))]
    assert [d["line"] for d in diags] == lines  # type: ignore[index]
    assert all(said in d["message"] for d in diags)  # type: ignore[index]
    assert "root:" not in str(result)  # nothing of a file outside was read


def test_the_size_is_bounded() -> None:
    big = "# " + "x" * 600 + "\n"
    pasted = load_pasted(big, 500)
    assert not pasted.ok and "at most 500 bytes" in pasted.diagnostics[0].message
    response = _client(max_body=500).post("/playground/check", json={"text": big})
    assert response.status_code == 413


def test_pasted_text_that_never_starts_is_started_at_one_count() -> None:
    """A loop without a decision runs to the steps limit at each count started (about a
    second each, 70 s for a heavy loop over nine counts): the server starts one."""
    loop = """game "Loop"
players 2..10
card card:
    rank: 1..20
zone deck: shared, hidden
zone hand: per player, owner
phase play:
    repeat while true:
        move top(deck) to hand[0]
        move top(hand[0]) to deck
    next end
score: 0
"""
    pasted = load_pasted(loop, 10_000)
    [diag] = pasted.diagnostics
    assert not pasted.ok and diag.span.line == 8
    assert diag.message.startswith("with 2 players the game cannot start: ")
    assert diag.message.endswith("not tried with 3 to 10 players")


def test_a_request_that_is_not_a_ruleset_gets_a_clear_message(client: TestClient) -> None:
    assert client.post("/playground/check", content=b"{not json",
                       headers={"content-type": "application/json"}).json() == {
        "error": "the request is not JSON"}
    assert "'text'" in client.post("/playground/check", json={"text": 3}).json()["error"]
    refused = client.post("/playground/check", json={"text": ""},
                          headers={"origin": "http://evil.example"})
    assert refused.status_code == 403


@pytest.mark.parametrize("name", ["bargain_quest", "variants/bargain_hunter_quick",
                                  "classics/variants/spades_openspiel"])
def test_a_shipped_game_starts_the_editor_and_checks_as_pasted_text(name: str) -> None:
    text = shipped_text(name)
    assert "include" not in re.findall(r"^\w+", text, re.M)
    pasted = load_pasted(text, 1_000_000)
    assert pasted.ok, [d.render() for d in pasted.diagnostics]
    assert pasted.game is not None and pasted.game.title == load(name).title


def test_the_page_starts_from_a_game_or_a_variant_of_it(client: TestClient) -> None:
    page = client.get("/playground?from=card_hunt").text
    assert "game &quot;Card Hunt&quot;" in page or 'game "Card Hunt"' in page
    variant = client.get("/playground?from=card_hunt&as=variant").text
    assert "extends &quot;card_hunt&quot;" in variant
    text = re.search(r"<textarea[^>]*>\n(.*?)</textarea>", variant, re.S)
    assert text is not None
    import html

    assert load_pasted(html.unescape(text.group(1)), 100_000).ok
    unknown = client.get("/playground?from=nope").text
    assert "no shipped game is named" in unknown
    # A name in right-to-left letters is isolated in the problem (it was left bare, so it
    # could reorder the words around it).
    rtl = client.get("/playground", params={"from": "\u05e9\u05dc\u05d5\u05dd"}).text
    data = json.loads(re.search(r'id="pg-data"[^>]*>(.*?)</script>', rtl, re.S).group(1))
    assert "\u2068" in data["problem"] and data["problem"].count("\u2068") == \
        data["problem"].count("\u2069")


def test_hostile_text_is_escaped_where_the_pages_show_it(tmp_path: Path) -> None:
    client = _client()
    page = client.get("/playground", params={"from": HOSTILE}).text
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "</textarea><script>" not in page
    # In JSON answers it is data (the page's script shows it with textContent).
    text = f'game "{HOSTILE.replace(chr(34), "")}"\nplayers 2\nphase a:\n    nxt\n'
    result = client.post("/playground/check", json={"text": text})
    assert result.headers["content-type"].startswith("application/json")
    # a file the server was given, with a hostile name, in the simulation page's choices
    odd = tmp_path / "x<img src=y onerror=alert(3)>.rules"
    odd.write_text('extends "card_hunt"\n', encoding="utf-8")
    sim = _client(files=(odd,)).get("/simulate").text
    assert "<img src=y" not in sim and "x&lt;img src=y onerror=alert(3)&gt;" in sim


def test_the_pages_scripts_never_write_markup() -> None:
    for script in ("playground.js", "simulate.js"):
        code = (STATIC / script).read_text(encoding="utf-8")
        assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", code)


def test_play_checks_the_seats_before_it_starts_anything(client: TestClient) -> None:
    text = 'extends "card_hunt"\n'
    bad = client.post("/playground/play", json={"text": text, "players": 2,
                                                 "seats": ["human", "mcts:iterations=99999"]})
    assert bad.status_code == 400 and "one of the bots" in bad.json()["error"]
    broken = client.post("/playground/play", json={"text": BROKEN, "players": 2,
                                                    "seats": ["human", "random"]})
    assert broken.status_code == 400 and broken.json()["diagnostics"][0]["line"] == 6


def test_play_against_bots_opens_a_table() -> None:
    from rulesplay.web.app import Server

    if not hasattr(Server.from_config(ServeConfig()), "tables"):
        pytest.skip("needs the tables of issue 17 items 1-3 (server.tables), not yet here")
    client = _client()
    text = 'extends "card_hunt"\ngame "House"\n'
    made = client.post("/playground/play", json={"text": text, "players": 3,
                                                  "seats": ["human", "random", "greedy"]})
    assert made.status_code == 200, made.text
    links = made.json()
    assert list(links["seat_links"]) == ["0"] and links["spectator_link"].startswith("/")
    seat = client.get(links["seat_links"]["0"])
    assert seat.status_code == 200 and "House" in seat.text
    too_many = client.post("/playground/play", json={"text": text, "players": 9,
                                                      "seats": ["human"] * 9})
    assert too_many.status_code == 400 and "players" in too_many.json()["error"]


def test_the_graph_speaks_the_servers_language_where_the_ruleset_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(graphs.shutil, "which", lambda name: None)
    text = 'extends "bargain_hunter"\n'
    game = load_pasted(text, 100_000).game
    assert game is not None
    ja = _check(_client(lang="ja"), text)["graph"]
    assert ja["text"] == graphs.to_mermaid(game.ruleset, "ja")  # type: ignore[index]
    assert ja["text"] != graphs.to_mermaid(game.ruleset)  # type: ignore[index]
    # a ruleset without Japanese labels keeps its own words
    plain = _check(_client(lang="ja"), 'extends "card_hunt"\n')["graph"]
    card_hunt = load_pasted('extends "card_hunt"\n', 100_000).game
    assert card_hunt is not None
    assert plain["text"] == graphs.to_mermaid(card_hunt.ruleset)  # type: ignore[index]


def test_pasted_rulesets_are_checked_a_few_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check starts the game at every player count, so a looping ruleset keeps a thread
    busy until the limits end it: beyond ``max_checks`` at once, a check is refused with
    a message (503) instead of piling up threads; once one ends, checks run again."""
    import threading

    import rulesplay.web.playground as playground

    gate, entered = threading.Event(), threading.Event()

    def held(text: str, limit: int) -> object:
        entered.set()
        assert gate.wait(30)
        return load_pasted(text, limit)

    monkeypatch.setattr(playground, "load_pasted", held)
    with _client(max_checks=1) as c:
        answers: list[int] = []
        first = threading.Thread(target=lambda: answers.append(
            c.post("/playground/check", json={"text": shipped_text("card_hunt")}).status_code))
        first.start()
        assert entered.wait(30)
        for url, body in (("/playground/check", {"text": "game \"X\""}),
                          ("/playground/play", {"text": "game \"X\"", "players": 2,
                                                "seats": ["human", "random"]})):
            refused = c.post(url, json=body)
            assert refused.status_code == 503 and "try again" in refused.json()["error"]
        gate.set()
        first.join(60)
        assert answers == [200]
        assert c.post("/playground/check", json={"text": "game \"X\""}).status_code == 200
