"""The browser harness itself, on the index page: a real Chromium at both sizes, no
horizontal scroll (issue 17's layout checks use the same helpers)."""

from __future__ import annotations

import pytest
from browser import SIZES, chromium, horizontal_overflow, need_browser, running_server


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_index_fits_the_window(size: str) -> None:
    need_browser()
    from rulesplay.web.app import create_app
    from rulesplay.web.config import ServeConfig

    with running_server(create_app(ServeConfig())) as base, chromium(size) as driver:
        driver.get(base + "/")
        assert driver.execute_script("return window.innerWidth") == SIZES[size][0]
        assert "bargain_hunter" in driver.page_source
        assert horizontal_overflow(driver) == 0
