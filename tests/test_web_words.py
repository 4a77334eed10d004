"""The web pages' own words and small frame pieces (issue 17): one word table per language
(:data:`rulesplay.words.PAGE_WORDS`) that every page and script takes its words from, in
Japanese under ``--lang ja``; the favicon; the start page's list of tables being played;
which zones a table keeps docked beside the moves; card variables at their default."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the 'web' extra (starlette) is not installed")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from starlette.testclient import TestClient  # noqa: E402

import rulesplay  # noqa: E402
from rulesplay.web.app import create_app  # noqa: E402
from rulesplay.web.config import ServeConfig  # noqa: E402
from rulesplay.web.table_view import hand_zones, view  # noqa: E402
from rulesplay.words import PAGE_WORDS, page_word, page_words  # noqa: E402

STATIC = Path(rulesplay.__file__).parent / "web" / "static"
PAGES = ["/", "/new?ruleset=classics/hearts", "/playground", "/simulate"]


def _client(**kw: object) -> TestClient:
    return TestClient(create_app(ServeConfig(allow_hosts=("testserver",),
                                             **kw)))  # type: ignore[arg-type]


def _slots(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_page_word_is_in_both_languages_with_the_same_slots() -> None:
    assert set(PAGE_WORDS["en"]) == set(PAGE_WORDS["ja"])
    for key, text in PAGE_WORDS["en"].items():
        assert _slots(text) == _slots(PAGE_WORDS["ja"][key]), key
    assert page_word("ja", "to_move", phase="P", seat="S") == "P · Sの番"
    assert page_words("xx") == PAGE_WORDS["en"]  # an unknown language: English


def test_the_scripts_ask_only_for_words_the_table_has() -> None:
    asked = set()
    for script in STATIC.glob("*.js"):
        for first in re.findall(r"\bw\(([^(),]*)", script.read_text(encoding="utf-8")):
            asked |= set(re.findall(r'"(\w+)"', first))  # (both keys of a ? "a" : "b")
    assert {"play_chosen", "to_move", "progress", "n_errors"} <= asked
    assert asked - set(PAGE_WORDS["en"]) == set()


@pytest.mark.parametrize("path", PAGES)
def test_under_lang_ja_a_page_s_own_words_are_japanese(path: str) -> None:
    english = _client().get(path).text
    japanese = _client(lang="ja").get(path).text
    assert '<html lang="ja">' in japanese
    for key in ("nav_tables", "nav_playground", "nav_simulate"):
        assert page_word("ja", key) in japanese
    # every English word the page shows is gone from the Japanese page
    shown = [t for t in PAGE_WORDS["en"].values() if not _slots(t) and len(t) > 3
             and f">{t}<" in english]
    assert len(shown) >= 3, shown
    for text in shown:
        assert f">{text}<" not in japanese, text
    if "page-words" in japanese or "-data" in japanese:  # the scripts' words too
        data = re.findall(r'<script type="application/json" id="[\w-]+">(.*?)</script>',
                          japanese)
        assert any(page_word("ja", "connecting") in d or "チェック" in d or "判定" in d
                   for d in data) or path == "/"


def test_the_favicon_is_there() -> None:
    c = _client()
    page = c.get("/").text
    assert 'rel="icon" href="/static/favicon.svg"' in page
    for url in ("/static/favicon.svg", "/favicon.ico"):
        r = c.get(url)
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg")
        assert r.text.startswith("<svg")


def test_the_start_page_lists_the_tables_being_played() -> None:
    c = _client()
    assert page_word("en", "none_running") in c.get("/").text
    r = c.post("/api/tables", json={"ruleset": "classics/hearts", "players": 4,
                                    "seats": ["human", "random", "random", "random"]})
    made = r.json()
    page = c.get("/").text
    assert f'href="/table/{made["table_id"]}"' in page  # the onlookers' page, no seat token
    assert made["seat_links"]["0"].split("#seat=")[1] not in page
    assert "Hearts: 4 players" in page
    assert page_word("en", "none_running") not in page


def test_the_zones_a_seat_plays_from_are_docked() -> None:
    hearts = rulesplay.load("classics/hearts")
    state = hearts.new_state(num_players=4, seed=1)
    assert hand_zones(state.program) == {"hand"}
    seen = view(state, 0, dict.fromkeys(range(4), "human"), busy=False, account=[],
                account_from=0, log=None)
    mine = {z["zone"]: z["hand"] for z in seen["zones"] if z["area"] == "mine"}
    assert mine["hand"] is True and not any(v for k, v in mine.items() if k != "hand")
    assert not any(z["hand"] for z in seen["zones"] if z["area"] != "mine")


def test_a_choice_of_values_read_from_a_zone_docks_nothing(tmp_path: Path) -> None:
    path = tmp_path / "values.rules"
    path.write_text('''game "Values"
players 2
enum colour: red, blue
card chip "chip":
    colour: colour
    rank: 1..5
    label: "{colour} {rank}"
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone pile "pile": per player, owner
card var marked "marked": int = 0
phase deal "deal":
    deal 3 from deck to pile
    deal 1 from deck to hand
    for each player p:
        p chooses n from values(pile[p], it.rank) "name a rank"
        p chooses c from hand[p] "play"
        c.marked = 2
    next end
score: 0
''', encoding="utf-8")
    game = rulesplay.load(str(path))
    state = game.new_state(num_players=2, seed=3)
    assert hand_zones(state.program) == {"hand"}
    state.apply(state.legal_actions()[0])  # seat 0 names a rank
    card = state.legal_actions()[0]
    state.apply(card)  # and plays its card: marked 2; every other card keeps 0
    seen = view(state, 0, {0: "human", 1: "human"}, busy=False, account=[],
                account_from=0, log=None)
    tagged = {cid: face["vars"] for cid, face in seen["cards"].items() if face["vars"]}
    assert list(tagged.values()) == [["marked: 2"]], json.dumps(seen["cards"])
