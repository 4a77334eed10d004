"""A real browser for the web tests: rulesplay's server on a free port in a thread, and
headless Debian Chromium driven by Selenium through the system chromedriver (nothing is
downloaded; without them the tests skip with the reason)."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser")
                 if shutil.which(p)), None)
CHROMEDRIVER = shutil.which("chromedriver")
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def need_browser() -> None:
    """Skip the calling test, with the reason, when Chromium, its driver or Selenium is
    missing (``.ci/run`` installs them)."""
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("needs Debian's chromium and chromium-driver (apt-get install chromium "
                    "chromium-driver)")
    pytest.importorskip("selenium", reason="needs selenium (the 'test' extra)")
    pytest.importorskip("uvicorn", reason="needs uvicorn (the 'web' extra)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(app: Any) -> Iterator[str]:
    """Serve the ASGI ``app`` on 127.0.0.1 in a thread; yields its base URL
    (``http://127.0.0.1:PORT``); stops it on exit."""
    import uvicorn

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def chromium(size: str = "desktop") -> Iterator[Any]:
    """A headless Chromium window of one of ``SIZES`` (CSS pixels); a separate profile each
    time, so two of them are two devices (their own cookies and storage)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    width, height = SIZES[size]
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # (console_errors)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        # A window cannot be made narrower than the browser's own minimum; the viewport can
        # (as the browser's device mode does), and a phone-sized one is a touch screen.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1,
            "mobile": width < 600})
        yield driver
    finally:
        driver.quit()


def horizontal_overflow(driver: Any) -> int:
    """How many CSS pixels the page is wider than its viewport (0: no horizontal scroll)."""
    return int(driver.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"))


def open_page(driver: Any, url: str, ready_id: str, timeout: float = 20) -> None:
    """Navigate ``driver`` to ``url`` and wait (up to ``timeout`` seconds) for the element
    ``#ready_id`` the server's HTML holds.

    On a loaded CI machine a navigation was once seen to end without the page (the element
    missing right after ``get``); this navigates once more before failing, and the failure
    says what the browser showed instead.

    Raises:
        AssertionError: the element never appeared (with the URL, title and page text).
    """
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    for _ in range(2):
        driver.get(url)
        try:
            WebDriverWait(driver, timeout).until(
                ec.presence_of_element_located((By.ID, ready_id)))
            return
        except TimeoutException:
            continue
    text = driver.execute_script("return document.body ? document.body.innerText : ''")
    raise AssertionError(f"#{ready_id} never appeared at {url}: the browser shows "
                         f"{driver.current_url} titled {driver.title!r}: {text[:300]!r}")


def console_errors(driver: Any) -> list[str]:
    """The errors the page's console showed since the last call (a failed request such as
    a missing favicon's 404 among them)."""
    return [str(e["message"]) for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def create_table(base: str, ruleset: str, seats: list[str]) -> dict[str, Any]:
    """Create a table through the server's API (``seats``: ``human`` or a bot, one per
    player); returns its JSON: ``table_id``, ``seat_links`` by seat, ``spectator_link``."""
    import json
    import urllib.request

    body = {"ruleset": ruleset, "players": len(seats), "seats": seats}
    request = urllib.request.Request(base + "/api/tables", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as reply:
        made: dict[str, Any] = json.loads(reply.read())
    return made


def wait_for(driver: Any, test: Any, what: str, limit: float = 20.0) -> Any:
    """Poll ``test()`` until it gives a true value (returned) or ``limit`` seconds pass.

    Raises:
        AssertionError: it never did; says ``what`` was awaited and the page's status line.
    """
    import time

    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = test()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"waited {limit} s for {what}; the page says: "
                         + driver.find_element("id", "status").text)
