"""Every shipped game's table in a real browser, at 1280x800 and 390x844 (issue 17): at the
seat's first turn the status line, the legal moves and the seat's own hand are in view
without scrolling (the hand and moves are docked at the bottom of the window), nothing
scrolls sideways, card text is at least 14 px, and the page asks for nothing that is not
there (a favicon). Also: the start page lists the tables being played; a ruleset of very
long words lays out and ends in a result box that does not scroll; under ``--lang ja`` the
pages' own words are Japanese. Screenshots go to ``$RULESPLAY_SCREENSHOTS`` when set."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from browser import (
    SIZES,
    chromium,
    console_errors,
    create_table,
    horizontal_overflow,
    need_browser,
    running_server,
    wait_for,
)

# what must be in view at the seat's turn: [top, bottom, left, right, scrollHeight,
# clientHeight] of the status line, the moves, the dock and each docked zone; the window
BOXES = """const q = (sel) => document.querySelector(sel);
const boxes = {'#status': q('#status'), '#moves': q('#moves'), '#me': q('#me')};
document.querySelectorAll('#mine .zone').forEach((e, i) => { boxes[`hand zone ${i}`] = e; });
const out = {W: innerWidth, H: innerHeight};
for (const [name, e] of Object.entries(boxes)) {
  const b = e.getBoundingClientRect();
  out[name] = [b.top, b.bottom, b.left, b.right, e.scrollHeight, e.clientHeight];
}
return out;"""
CARD_TEXT = """return [...document.querySelectorAll('.card span')].filter(e => e.textContent.trim())
  .map(e => parseFloat(getComputedStyle(e).fontSize));"""
STATE = ("return [Number(document.body.dataset.version ?? -1), document.body.dataset.turn,"
         " document.body.dataset.over]")
CLICKABLE = "#mine .card.legal, #choices .card.legal, #choices button.move:not([disabled])"


def _shots(tmp_path: Path) -> Path | None:
    folder = os.environ.get("RULESPLAY_SCREENSHOTS")
    if not folder:
        return None
    Path(folder).mkdir(parents=True, exist_ok=True)
    return Path(folder)


def _games() -> list[str]:
    """The shipped games the start page offers, variants left out (the top-level games and
    the classics)."""
    from rulesplay.shipped import shipped_names

    return [name for name in shipped_names() if "variants/" not in name]


def _usual_players(base: str, name: str) -> int:
    """The player count the new-table page offers first for ``name`` (the server loads the
    ruleset once for the page and the table)."""
    import re
    import urllib.parse
    import urllib.request

    with urllib.request.urlopen(f"{base}/new?ruleset={urllib.parse.quote(name)}") as reply:
        found = re.search(r'<option value="(\d+)" selected>', reply.read().decode())
    assert found, name
    return int(found.group(1))


def _wait(driver: Any, test: Any, what: str, limit: float = 15.0) -> Any:
    return wait_for(driver, test, what, limit)


def _check_turn(driver: Any, where: str) -> None:
    """At the seat's turn: status, moves and hand in view, no sideways scroll, card text
    at least 14 px."""
    boxes = driver.execute_script(BOXES)
    width, height = boxes.pop("W"), boxes.pop("H")
    assert any(sel.startswith("hand zone") for sel in boxes), f"{where}: no hand shown"
    for sel, (top, bottom, left, right, _, _) in boxes.items():
        assert top >= 0 and bottom <= height + 0.5 and left >= 0 and right <= width + 0.5, \
            f"{where}: {sel} is not in view ({top:.0f}..{bottom:.0f} of {height})"
    top, bottom, _, _, scroll_h, client_h = boxes["#me"]
    assert scroll_h <= client_h + 1, f"{where}: the dock scrolls ({scroll_h} > {client_h})"
    assert horizontal_overflow(driver) == 0, f"{where}: the page scrolls sideways"
    sizes = driver.execute_script(CARD_TEXT)
    assert sizes and min(sizes) >= 14, (where, min(sizes or [0]))


def test_every_shipped_game_keeps_status_moves_and_hand_in_view(tmp_path: Path) -> None:
    need_browser()
    from rulesplay.web.app import create_app
    from rulesplay.web.config import ServeConfig

    shots = _shots(tmp_path)
    games = _games()
    assert len(games) >= 12 and "classics/bridge" in games
    with running_server(create_app(ServeConfig())) as base:
        links = {}
        for name in games:  # (one server for both sizes: each ruleset is loaded once)
            n = _usual_players(base, name)
            made = create_table(base, name, ["human"] + ["random"] * (n - 1))
            links[name] = base + made["seat_links"]["0"]
        for size in sorted(SIZES):
            with chromium(size) as driver:
                # the start page: every table being played listed (its onlookers' link)
                driver.get(base + "/")
                running = driver.find_elements("css selector", ".running-list a")
                assert len(running) == len(games)
                assert all("#seat=" not in (a.get_attribute("href") or "") for a in running)
                assert horizontal_overflow(driver) == 0
                for name, link in links.items():
                    driver.get(link)
                    where = f"{name} at {size}"
                    _wait(driver, lambda d=driver: d.execute_script(STATE)[1] == "yes",
                          f"{where}: turn")
                    _check_turn(driver, where)
                    if shots:
                        driver.save_screenshot(
                            str(shots / f"layout-{name.split('/')[-1]}-{size}.png"))
                assert console_errors(driver) == []  # (a favicon: no 404)


LONG_WORDS = '''game "A Game Whose Title Goes On And On Without Any Pause Whatsoever For Testing"
players 2..4
about "Long words everywhere: card labels, zone names, teams and choices; no card variables."

enum colour: red, blue

card tile "tile":
    colour: colour
    rank: 1..6
    label: "LONG_LABEL"

zone deck "the deck that holds every single tile before anything is dealt": shared, hidden
zone hand "hand of tiles that only its owner may look at during the game": per player, owner
zone table "the long table in the middle where every played tile is laid out": shared, public

player var points "points scored over the whole of the game so far": int = 0
teams: "NORTH_TEAM" if player % 2 == 0 else "SOUTH_TEAM"

phase deal "The dealing of the tiles, which takes a long and tedious while":
    shuffle deck
    deal 2 from deck to hand
    next play

phase play "Playing the tiles one after another until nobody holds any":
    repeat 2 times:
        for each player p:
            p chooses t from hand[p] "lay down one of your extraordinarily long-named tiles"
            move t to table
            points[p] += t.rank
    next end

score: sum(members(team of player), points[it])
'''.replace("LONG_LABEL", "Extraordinarilymagnificentsupercalifragilisticexpialidocious "
                          "{colour} tile {rank} of the unending northern wastes").replace(
    "NORTH_TEAM", "The Extraordinarily Long-Named Northern Partnership Of Seats").replace(
    "SOUTH_TEAM", "The Equally Long-Named Southern Partnership Of The Other Seats")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_long_words_and_cards_without_variables_lay_out_and_end_in_a_result_box(
        size: str, tmp_path: Path) -> None:
    need_browser()
    from rulesplay.web.app import create_app
    from rulesplay.web.config import ServeConfig

    shots = _shots(tmp_path)
    path = tmp_path / "long_words.rules"
    path.write_text(LONG_WORDS, encoding="utf-8")
    rng = random.Random(3)
    with running_server(create_app(ServeConfig(files=(path,)))) as base, \
            chromium(size) as driver:
        made = create_table(base, str(path), ["human", "random", "greedy", "mcts:iterations=20"])
        driver.get(base + made["seat_links"]["0"])
        checked, started = False, time.monotonic()
        while driver.execute_script(STATE)[2] != "yes":
            version, turn, _ = driver.execute_script(STATE)
            if turn != "yes":
                time.sleep(0.02)
                continue
            if not checked:
                checked = True
                _check_turn(driver, f"long words at {size}")
                assert driver.execute_script(
                    "return document.querySelectorAll('#mine .card .tag').length") == 0
                if shots:
                    driver.save_screenshot(str(shots / f"long-words-{size}-turn.png"))
            clickable = driver.find_elements("css selector", CLICKABLE)
            if not clickable:  # the view moved on between the two reads (a forced move)
                assert time.monotonic() - started < 60, "no move to click at the seat's turn"
                time.sleep(0.02)
                continue
            driver.execute_script("arguments[0].click()", rng.choice(clickable))
            _wait(driver, lambda v=version: driver.execute_script(STATE)[0] > v, "the move")
        assert checked
        result = driver.find_element("id", "result")
        _wait(driver, result.is_displayed, "the result")
        assert "Partnership" in result.find_element("css selector", "h2").text
        top, bottom, sw, cw, tw = driver.execute_script(
            "const r = document.getElementById('result'), b = r.getBoundingClientRect();"
            "return [b.top, b.bottom, r.scrollWidth, r.clientWidth,"
            " r.querySelector('table').getBoundingClientRect().width];")
        assert 0 <= top < SIZES[size][1] / 3, "the result box is at the top of the table"
        assert sw <= cw and tw <= cw, "the score table scrolls inside its box"
        assert horizontal_overflow(driver) == 0
        if shots:
            driver.save_screenshot(str(shots / f"long-words-{size}-end.png"))


def test_the_pages_own_words_are_japanese_under_lang_ja(tmp_path: Path) -> None:
    need_browser()
    from rulesplay.web.app import create_app
    from rulesplay.web.config import ServeConfig

    shots = _shots(tmp_path)
    with running_server(create_app(ServeConfig(lang="ja"))) as base, \
            chromium("phone") as driver:
        driver.get(base + "/")
        header = driver.find_element("css selector", "header.top").text
        assert "テーブル" in header and "Playground" not in header
        assert "テーブルを始める" in driver.find_element("tag name", "h1").text
        driver.get(base + "/new?ruleset=bargain_hunter")
        form = driver.find_element("id", "new-table").text
        assert "人数" in form and "テーブルを作る" in form and "Players" not in form
        driver.find_element("css selector", "button[type=submit]").click()
        _wait(driver, lambda: driver.find_elements("css selector", "#link-list .link"),
              "the links")
        assert "観戦者" in driver.find_element("id", "link-list").text
        link = driver.find_element("css selector", "#link-list .link").get_attribute("value")
        driver.get(link)
        _wait(driver, lambda: driver.execute_script(STATE)[1] == "yes", "seat 0's turn")
        status = driver.find_element("id", "status").text
        assert "あなたの番" in status, status
        page = driver.find_element("tag name", "main").text
        assert "経過" in page and "ボット" in page
        for english in ("Account", " to move", "bot:", "person", "Play the cards"):
            assert english not in page, english
        assert horizontal_overflow(driver) == 0
        if shots:
            driver.save_screenshot(str(shots / "ja-table-phone.png"))
