"""A whole game in real browsers (issue 17): Card Hunt created from the new-table page, two
people in two separate Chromium windows (two devices: a desktop and a phone) and a bot, to
the end. At both sizes: no horizontal scroll, the hand and the legal moves in view at the
seat's turn, card text at least 14 px. Screenshots go to $RULESPLAY_SCREENSHOTS (else the
test's temporary folder)."""

from __future__ import annotations

import os
import random
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from browser import chromium, horizontal_overflow, need_browser, running_server, wait_for

STATE = ("return [Number(document.body.dataset.version ?? -1), document.body.dataset.turn,"
         " document.body.dataset.over]")
# every element of a card that shows text, with its computed font size (CSS px)
CARD_TEXT = """return [...document.querySelectorAll('.card span')].filter(e => e.textContent.trim())
  .map(e => parseFloat(getComputedStyle(e).fontSize));"""
IN_VIEW = """const box = document.querySelector(arguments[0]).getBoundingClientRect();
return [box.top, box.bottom, box.left, box.right, innerWidth, innerHeight];"""
CLICKABLE = "#mine .card.legal, #choices .card.legal, #choices button.move:not([disabled])"


def _wait(driver: Any, test: Any, what: str, limit: float = 20.0) -> Any:
    return wait_for(driver, test, what, limit)


def _in_view(driver: Any, selector: str) -> bool:
    top, bottom, left, right, width, height = driver.execute_script(IN_VIEW, selector)
    return top >= 0 and left >= 0 and bottom <= height and right <= width


def _check_layout(driver: Any, size: str, shots: Path) -> None:
    """At the seat's turn: no horizontal scroll, hand and moves in view, card text >= 14 px."""
    assert horizontal_overflow(driver) == 0, size
    assert _in_view(driver, "#mine .zone"), f"{size}: the hand is not in view"
    assert _in_view(driver, "#moves"), f"{size}: the legal moves are not in view"
    sizes = driver.execute_script(CARD_TEXT)
    assert sizes and min(sizes) >= 14, (size, min(sizes))
    driver.save_screenshot(str(shots / f"table-card_hunt-{size}-turn.png"))


def test_two_people_on_two_devices_and_a_bot_play_card_hunt_to_the_end(
        tmp_path: Path) -> None:
    need_browser()
    from selenium.webdriver.support.ui import Select

    from rulesplay.web.app import create_app
    from rulesplay.web.config import ServeConfig

    shots = Path(os.environ.get("RULESPLAY_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    rng = random.Random(5)
    with ExitStack() as stack:
        base = stack.enter_context(running_server(create_app(ServeConfig())))
        desk = stack.enter_context(chromium("desktop"))
        phone = stack.enter_context(chromium("phone"))
        # the new-table page: 3 players, seats 0 and 1 people, seat 2 a bot
        desk.get(base + "/new?ruleset=card_hunt")
        Select(desk.find_element("name", "players")).select_by_value("3")
        Select(desk.find_element("name", "seat1")).select_by_value("human")
        Select(desk.find_element("name", "seat2")).select_by_value("random")
        assert not desk.find_element("name", "seat3").is_displayed()
        desk.save_screenshot(str(shots / "new-table-card_hunt-desktop.png"))
        desk.find_element("css selector", "button[type=submit]").click()
        _wait(desk, lambda: desk.find_elements("css selector", "#link-list .link"), "links")
        links = [e.get_attribute("value") for e in
                 desk.find_elements("css selector", "#link-list .link")]
        assert len(links) == 3 and all("#seat=" in u for u in links[:2])
        assert "#seat=" not in links[2]  # the spectators' link
        desk.get(links[0])
        phone.get(links[1])
        players = {0: desk, 1: phone}
        checked: set[int] = set()
        moves = 0
        started = time.monotonic()
        while True:
            states = {s: d.execute_script(STATE) for s, d in players.items()}
            if all(st[2] == "yes" for st in states.values()):
                break
            movers = [s for s, st in states.items() if st[1] == "yes"]
            if not movers:
                time.sleep(0.02)
                continue
            seat = movers[0]
            driver = players[seat]
            if seat not in checked:
                checked.add(seat)
                _check_layout(driver, "desktop" if seat == 0 else "phone", shots)
            version = states[seat][0]
            clickable = driver.find_elements("css selector", CLICKABLE)
            if not clickable:  # a forced move (one choice) the server has just played
                continue
            rng.choice(clickable).click()
            moves += 1
            _wait(driver, lambda d=driver, v=version: d.execute_script(STATE)[0] > v,
                  "the move to be played")
            assert time.monotonic() - started < 50, f"{moves} moves took too long"
        assert checked == {0, 1} and moves > 10
        for seat, driver in players.items():
            result = driver.find_element("id", "result")
            assert result.is_displayed()
            assert ("Winner" in result.text or "Tied" in result.text), result.text
            assert "Download the game's log" in result.text
            assert horizontal_overflow(driver) == 0
            driver.save_screenshot(str(shots / f"table-card_hunt-"
                                         f"{'desktop' if seat == 0 else 'phone'}-end.png"))
        # what the phone's account says is the terminal's words
        account = phone.find_element("id", "account").text
        assert "Seat 1 (you)" in account and "Game over" in account


def test_a_set_of_cards_is_picked_then_played_in_the_browser(tmp_path: Path) -> None:
    """Hearts' pass of three: the cards are picked one by one, the button plays them."""
    need_browser()
    import json
    import urllib.request

    from rulesplay.web.app import create_app
    from rulesplay.web.config import ServeConfig

    shots = Path(os.environ.get("RULESPLAY_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    with running_server(create_app(ServeConfig())) as base, \
            chromium("phone") as driver:
        body = {"ruleset": "classics/hearts", "players": 4,
                "seats": ["human", "random", "random", "random"]}
        request = urllib.request.Request(base + "/api/tables", json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as reply:
            made = json.loads(reply.read())
        driver.get(base + made["seat_links"]["0"])
        _wait(driver, lambda: driver.execute_script(STATE)[1] == "yes", "seat 0's turn")
        version = driver.execute_script(STATE)[0]
        confirm = driver.find_element("id", "confirm-set")
        assert not confirm.is_enabled()
        cards = driver.find_elements("css selector", "#mine .card.pickable")
        assert len(cards) == 13
        labels = [c.find_element("css selector", ".label").text for c in cards[:3]]
        for card in cards[:3]:
            card.click()
        assert confirm.is_enabled() and "3" in confirm.text
        assert horizontal_overflow(driver) == 0
        driver.save_screenshot(str(shots / "table-hearts-phone-pass.png"))
        confirm.click()
        _wait(driver, lambda: driver.execute_script(STATE)[0] > version, "the pass")
        account = driver.find_element("id", "account").text
        told = next(line for line in account.splitlines() if line.startswith("Seat 0 (you)"))
        assert all(label in told for label in labels), told  # the seat's own pass, named
