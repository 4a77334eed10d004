"""The browser table (``rulesplay serve``): tables where people and bots play, a playground
where a ruleset is written and tried, and a simulation page (docs/web.md).

Modules: :mod:`.config` (what the server was told), :mod:`.html` (the one place text becomes
HTML), :mod:`.guard` (Host, Origin and payload-size checks), :mod:`.app` (the Starlette
application: the routes of every page) and one module per page. Starlette and uvicorn (the
``web`` extra) are imported by this package only.
"""

from __future__ import annotations

import importlib.util

INSTALL = "pip install 'rulesplay[web]'  (or: pip install starlette uvicorn websockets)"


def missing() -> str | None:
    """What to install for ``rulesplay serve``, or None when everything is there."""
    for name in ("starlette", "uvicorn", "websockets"):
        if importlib.util.find_spec(name) is None:
            return f"the browser table needs {name}: {INSTALL}"
    return None
