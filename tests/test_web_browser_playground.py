"""The playground and the simulation page in a real browser (issue 17 items 4-5): a broken
ruleset pasted into the editor shows its diagnostic at its line, a click on it moves the
cursor there, the fixed ruleset shows its phase graph and options; a small simulation
draws its charts; at 1280x800 and 390x844 nothing scrolls sideways. Screenshots go to
``$RULESPLAY_SCREENSHOTS`` when set, else to the test's own folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from browser import SIZES, chromium, horizontal_overflow, need_browser, open_page, running_server

HOSTILE_TITLE = 'Whist <img src=x onerror="window.pwned=1">'
BROKEN = f'''# Whist with a longer game.
extends "whist"
game "{HOSTILE_TITLE.replace('"', "'")}"
option game_pionts = 7  # <b id="bold">not bold</b>
'''
FIXED = BROKEN.replace("game_pionts", "game_points")


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("RULESPLAY_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _wait(driver: Any, script: str, timeout: float = 10) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(lambda d: d.execute_script(script))


def _paste(driver: Any, text: str) -> None:
    """Put ``text`` in the editor as a paste does (one input event)."""
    driver.execute_script("""
        const t = document.getElementById('pg-text');
        t.focus(); t.select();
        t.value = arguments[0];
        t.dispatchEvent(new Event('input', {bubbles: true}));""", text)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_broken_ruleset_is_marked_at_its_line_then_fixed(size: str, tmp_path: Path) -> None:
    need_browser()
    from selenium.webdriver.common.by import By

    from rulesplay.web.app import create_app
    from rulesplay.web.config import ServeConfig

    shots = _shots(tmp_path)
    with running_server(create_app(ServeConfig())) as base, chromium(size) as driver:
        driver.get(base + "/playground")
        _paste(driver, BROKEN)
        driver.find_element(By.ID, "pg-check").click()
        _wait(driver, "return document.querySelectorAll('#pg-diags li').length > 0")
        head = driver.find_element(By.CSS_SELECTOR, "#pg-diags li .head")
        assert head.text.startswith("pasted.rules:4:8: error:") and "game_pionts" in head.text
        source = driver.find_element(By.CSS_SELECTOR, "#pg-diags li pre.source").text
        assert source.startswith('option game_pionts = 7  # <b id="bold">not bold</b>\n')
        assert driver.execute_script("return document.getElementById('bold')") is None
        marked = driver.execute_script(
            "return [...document.querySelectorAll('#pg-lines .mark')].map(s => s.textContent)")
        assert marked == ["4"]
        assert driver.find_element(By.ID, "pg-out").get_attribute("hidden") is not None
        assert horizontal_overflow(driver) == 0
        driver.save_screenshot(str(shots / f"playground-broken-{size}.png"))

        head.click()  # the cursor goes to the line and column of the diagnostic
        at = driver.execute_script("""const t = document.getElementById('pg-text');
            return [t.selectionStart, t.selectionEnd, document.activeElement === t]""")
        start = BROKEN.index("game_pionts")
        assert at == [start, start + len("game_pionts"), True]

        _paste(driver, FIXED)
        assert driver.execute_script(
            "return document.querySelectorAll('#pg-lines .mark').length") == 0
        driver.find_element(By.ID, "pg-check").click()
        _wait(driver, "return !document.getElementById('pg-out').hidden")
        assert driver.find_element(By.ID, "pg-title").text == HOSTILE_TITLE.replace('"', "'")
        assert driver.execute_script("return window.pwned") is None
        rows = driver.find_elements(By.CSS_SELECTOR, "#pg-options tbody tr")
        points = [r.text for r in rows if r.text.startswith("game_points")]
        assert len(points) == 1 and " 7 " in points[0]
        graph = driver.find_elements(By.CSS_SELECTOR, "#pg-graph img.graph, #pg-graph pre")
        assert graph and graph[0].is_displayed()
        if graph[0].tag_name == "img":  # drawn by Graphviz: the picture loaded
            _wait(driver, "const i = document.querySelector('#pg-graph img');"
                          "return i.complete && i.naturalWidth > 0")
        seats = driver.find_elements(By.CSS_SELECTOR, "#pg-seats select")
        assert [s.get_attribute("value") for s in seats] == ["human", "random", "random",
                                                             "random"]
        assert horizontal_overflow(driver) == 0
        driver.save_screenshot(str(shots / f"playground-fixed-{size}.png"))
        driver.execute_script("document.getElementById('pg-out').scrollIntoView()")
        driver.save_screenshot(str(shots / f"playground-results-{size}.png"))
        driver.execute_script("document.getElementById('pg-play').scrollIntoView()")
        driver.find_element(By.CSS_SELECTOR, "#pg-play button").click()
        _wait(driver, "return document.querySelector('#pg-links p') !== null")
        driver.save_screenshot(str(shots / f"playground-play-{size}.png"))


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_simulation_from_the_page_draws_its_result(size: str, tmp_path: Path) -> None:
    need_browser()
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from rulesplay.web.app import create_app
    from rulesplay.web.config import ServeConfig

    shots = _shots(tmp_path)
    with running_server(create_app(ServeConfig())) as base, chromium(size) as driver:
        driver.get(base + "/playground")
        driver.execute_script("localStorage.setItem('rulesplay.pasted', arguments[0])",
                              'extends "card_hunt"\ngame "Card Hunt <img src=x '
                              "onerror='window.pwned=1'>\"\n")
        open_page(driver, base + "/simulate?pasted=1", "sim-ruleset")
        assert Select(driver.find_element(By.ID, "sim-ruleset")).first_selected_option \
            .get_attribute("value") == "card_hunt"
        assert Select(driver.find_element(By.ID, "sim-variant")).first_selected_option \
            .get_attribute("value") == "(pasted)"
        games = driver.find_element(By.ID, "sim-games")
        games.clear()
        games.send_keys("60")
        driver.find_element(By.ID, "sim-run").click()
        _wait(driver, "return document.querySelector('.verdict') !== null", 30)
        assert driver.find_element(By.CSS_SELECTOR, ".progress .count").text == \
            "60 of 60 games (each ruleset)"
        # (a variant that changes only the title plays the same games, and is said to)
        assert "The variant played exactly the same games as the base on these 60 seeds" \
            in driver.find_element(By.CSS_SELECTOR, ".verdict").text
        notes = [n.text for n in driver.find_elements(By.CSS_SELECTOR, ".sim-one .note")]
        assert notes[1].startswith("Card Hunt <img src=x onerror='window.pwned=1'> (the pasted")
        assert driver.execute_script("return window.pwned") is None
        rows = [r.text for r in driver.find_elements(By.CSS_SELECTOR, ".sim-one tr")]
        assert sum(r.startswith("Length: entries of phase 'deal' ") for r in rows) == 2, rows
        assert len(driver.find_elements(By.CSS_SELECTOR, "svg.chart")) == 2 * (1 + 2)
        # No chart text cut off at the chart's edges (the "100%" tick was, at the left).
        assert driver.execute_script("""return [...document.querySelectorAll('svg.chart')]
            .flatMap((s) => [...s.querySelectorAll('text')].filter((t) => {
                const b = t.getBBox();
                return b.x < 0 || b.x + b.width > s.viewBox.baseVal.width + 0.5;
            }).map((t) => t.textContent));""") == []
        assert horizontal_overflow(driver) == 0
        driver.save_screenshot(str(shots / f"simulate-{size}.png"))
        driver.execute_script("document.querySelector('.sim-one').scrollIntoView()")
        driver.save_screenshot(str(shots / f"simulate-charts-{size}.png"))
