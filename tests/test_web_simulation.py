"""The simulation page (issue 17 item 5) through its HTTP API: a run started from the page
gives what ``simulate``/``compare`` give with the same seeds (the functions the commands
call), pasted text is checked first and its scratch file removed, and the server bounds
the games per run and the runs at once; a run can be stopped and keeps what it played."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the 'web' extra (starlette) is not installed")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from starlette.testclient import TestClient  # noqa: E402

from rulesplay.sim import compare, simulate  # noqa: E402
from rulesplay.web.app import Server, create_app  # noqa: E402
from rulesplay.web.config import ServeConfig  # noqa: E402
from rulesplay.web.sim_jobs import Job, SimJobs, comparison_data, result_data  # noqa: E402
from rulesplay.web.simulation_page import PASTED_CHOICE, Refused, sim_request  # noqa: E402

# What depends on the machine, not on the games.
TIMING = {"wall_seconds", "games_per_second", "seconds_per_game", "workers"}
VARIANT = 'extends "card_hunt"\ngame "Card Hunt (short)"\n'


def _client(**kw: object) -> TestClient:
    config = ServeConfig(allow_hosts=("testserver",), **kw)  # type: ignore[arg-type]
    return TestClient(create_app(config))


def _finished(client: TestClient, job: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = client.get(f"/simulate/jobs/{job}").json()
        if view["state"] != "running":
            return view  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError("the simulation did not finish")


def _games(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in TIMING}


def test_a_simulation_gives_what_simulate_gives_on_the_same_seeds() -> None:
    client = _client()
    start = client.post("/simulate/start", json={"ruleset": "card_hunt", "games": 40,
                                                  "players": 3, "bot": "random", "seed": 7})
    assert start.status_code == 200, start.text
    view = _finished(client, start.json()["id"])
    assert view["state"] == "done" and view["done"] == 40
    cli = simulate("card_hunt", 40, 3, bots={p: "random" for p in range(3)}, seed=7, workers=1)
    assert _games(view["result"]) == _games(result_data(cli, "card_hunt"))
    assert sum(n for _, n in view["result"]["sides"][0]["scores"]) == 40


def test_a_comparison_with_pasted_text_gives_what_compare_gives(tmp_path: Path) -> None:
    client = _client()
    start = client.post("/simulate/start", json={
        "ruleset": "card_hunt", "variant": PASTED_CHOICE, "text": VARIANT, "games": 30,
        "seed": 3})
    view = _finished(client, start.json()["id"])
    assert view["state"] == "done", view
    variant = tmp_path / "v.rules"
    variant.write_text(VARIANT, encoding="utf-8")
    cli = comparison_data(compare("card_hunt", str(variant), 30, seed=3, workers=1),
                          "card_hunt", "the pasted ruleset")
    got = view["result"]
    assert got["verdict"] == cli["verdict"] and got["differences"] == cli["differences"]
    assert _games(got["variant"]) == _games(cli["variant"])
    assert got["variant"]["ruleset"] == "the pasted ruleset"


@pytest.mark.parametrize("ask, said", [
    ({"games": 2001}, "at most 2,000"),
    ({"games": 0}, "from 1 to 2,000"),
    ({"games": "many"}, "a whole number"),
    ({"bot": "mcts:iterations=100000"}, "bot: one of"),
    ({"ruleset": "no_such_game"}, "no ruleset 'no_such_game'"),
    ({"players": 9}, "Card Hunt is for 2 to 8 players, not 9"),
    ({"seed": -1}, "seed"),
], ids=["too-many", "none", "not-a-number", "bot", "ruleset", "players", "seed"])
def test_an_oversize_or_wrong_request_is_refused_with_a_clear_message(
        ask: dict[str, Any], said: str) -> None:
    response = _client().post("/simulate/start", json={"ruleset": "card_hunt", **ask})
    assert response.status_code == 400
    assert said in response.json()["error"]


def test_pasted_text_with_errors_is_refused_with_its_diagnostics() -> None:
    response = _client().post("/simulate/start", json={
        "ruleset": PASTED_CHOICE, "text": 'extends "card_hunt"\nnxt\n', "games": 5})
    assert response.status_code == 400
    answer = response.json()
    assert "has errors" in answer["error"] and answer["diagnostics"][0]["line"] == 2
    refused = _client().post("/simulate/start", json={
        "ruleset": PASTED_CHOICE, "text": 'extends "../card_hunt.rules"\n', "games": 5})
    assert "by its name only" in refused.json()["diagnostics"][0]["message"]


def test_the_scratch_file_of_pasted_text_is_removed_when_the_run_ends() -> None:
    server = Server.from_config(ServeConfig())
    request = sim_request(server, {"ruleset": PASTED_CHOICE, "text": VARIANT, "games": 3})
    (folder,) = request.scratch
    assert (folder / "pasted.rules").read_text(encoding="utf-8") == VARIANT
    assert folder.stat().st_mode & 0o077 == 0  # this user's only
    job = SimJobs().start(request)
    _wait(job)
    assert job.state == "done" and not folder.exists()
    with pytest.raises(Refused, match="has errors"):
        sim_request(server, {"ruleset": PASTED_CHOICE, "text": "nxt", "games": 3})


def _wait(job: Job) -> None:
    deadline = time.monotonic() + 60
    while job.state == "running" and time.monotonic() < deadline:
        time.sleep(0.02)


def test_runs_at_once_are_bounded_and_a_stopped_run_keeps_its_games() -> None:
    client = _client()
    ask = {"ruleset": "bargain_hunter", "games": 2000, "bot": "random"}
    first, second = (client.post("/simulate/start", json=ask).json()["id"] for _ in range(2))
    third = client.post("/simulate/start", json=ask)
    assert third.status_code == 429 and "already running" in third.json()["error"]
    for job in (first, second):
        while client.get(f"/simulate/jobs/{job}").json()["done"] < 2:
            time.sleep(0.02)
        assert client.post(f"/simulate/jobs/{job}/stop", json={}).status_code == 200
    views = [_finished(client, job) for job in (first, second)]
    for view in views:
        assert view["state"] == "stopped" and 2 <= view["done"] < 2000
        assert view["message"] == f"stopped after {view['done']} of 2000 games"
        assert view["result"]["games"] == view["done"]
    again = client.post("/simulate/start", json={**ask, "games": 2})
    assert again.status_code == 200
    assert _finished(client, again.json()["id"])["state"] == "done"
    assert client.get("/simulate/jobs/nope").status_code == 404


def test_the_page_offers_the_rulesets_bots_and_the_cap() -> None:
    page = _client(max_sim_games=300).get("/simulate").text
    assert '<option value="card_hunt">card_hunt</option>' in page
    assert f'value="{PASTED_CHOICE}"' in page and 'max="300"' in page
    assert '<script type="module" src="/static/simulate.js">' in page


def test_rulesets_parse_in_several_threads_at_once() -> None:
    # The page parses pasted text while simulations load their rulesets, each in a thread:
    # one parser per process, so each parse keeps its own indentation counts.
    from rulesplay.parse import parse_text
    from rulesplay.shipped import find_shipped

    texts = [find_shipped(n).read_text(encoding="utf-8")
             for n in ("bargain_hunter", "hearts", "bargain_quest", "bridge")]
    want = [parse_text(t, "x").model_dump_json() for t in texts]
    got: list[list[str]] = []

    def parse_all() -> None:
        got.append([parse_text(t, "x").model_dump_json() for t in texts * 3])

    threads = [threading.Thread(target=parse_all) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [want * 3] * 4


def test_a_file_the_server_was_given_is_simulated(tmp_path: Path) -> None:
    given = tmp_path / "house.rules"
    given.write_text(VARIANT, encoding="utf-8")
    client = _client(files=(given,))
    start = client.post("/simulate/start", json={"ruleset": str(given), "games": 5})
    view = _finished(client, start.json()["id"])
    assert view["state"] == "done" and view["result"]["title"] == "Card Hunt (short)"
    assert view["result"]["ruleset"] == str(given)
