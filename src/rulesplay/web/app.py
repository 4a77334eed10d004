"""The Starlette application of ``rulesplay serve``: every page's routes behind the guard.

Each page module provides ``routes(server) -> list[BaseRoute]``; this module only puts them
together. The pages use the engine API, the typed events and each seat's observation (the
tables) or the same functions as the commands (the playground and simulation pages).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from ..shipped import shipped_names
from . import playground, simulation_page, table_page
from .config import ServeConfig
from .guard import guarded
from .html import html, join, page
from .tables import Tables

__all__ = ["Server", "create_app"]

STATIC = Path(__file__).resolve().parent / "static"


@dataclass
class Server:
    """What every page shares: the settings and the rulesets it serves.

    Attributes:
        config: the server's settings.
        rulesets: name -> ruleset file, the shipped games by their names and the files the
            server was given by their paths as written.
        tables: the games being played (:class:`~rulesplay.web.tables.Tables`).
    """

    config: ServeConfig
    rulesets: dict[str, Path] = field(default_factory=dict)
    tables: Tables = field(default_factory=lambda: Tables(None, 0))

    @classmethod
    def from_config(cls, config: ServeConfig) -> Server:
        """The server for ``config``: the shipped games, then the given files."""
        rulesets = dict(shipped_names())
        rulesets.update({str(p): p for p in config.files})
        tables = Tables(config.games_dir, config.max_games)
        for problem in tables.load_saved():  # (said, and the file is left as it is)
            print(f"rulesplay serve: a saved table was not taken up: {problem}",
                  file=sys.stderr)
        return cls(config, rulesets, tables)


def _index(server: Server) -> BaseRoute:
    async def index(request: Request) -> Response:
        given = [name for name in server.rulesets if Path(name) in server.config.files]
        items = join(html('<li><a href="/new?ruleset=$q">$name</a></li>', q=name, name=name)
                     for name in given + [n for n in server.rulesets if n not in given])
        body = html('<section class="games"><h1>Start a table</h1><ul>$items</ul></section>',
                    items=items)
        return HTMLResponse(page("Tables", body, lang=server.config.lang))

    return Route("/", index)


def create_app(config: ServeConfig) -> ASGIApp:
    """The whole web application for ``config``, guarded (Host, Origin, body size).

    Args:
        config: the server's settings; its ``host_names()`` are the Host headers accepted.
    Returns:
        an ASGI application (run it with uvicorn, or test it with Starlette's TestClient).
    """
    server = Server.from_config(config)
    routes: list[BaseRoute] = [
        _index(server),
        *table_page.routes(server),
        *playground.routes(server),
        *simulation_page.routes(server),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return guarded(Starlette(routes=routes), config.host_names(), config.max_body)
