"""The Starlette application of ``rulesplay serve``: every page's routes behind the guard.

Each page module provides ``routes(server) -> list[BaseRoute]``; this module only puts them
together. The pages use the engine API, the typed events and each seat's observation (the
tables) or the same functions as the commands (the playground and simulation pages).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from ..shipped import shipped_names
from ..words import page_word
from . import playground, simulation_page, table_page
from .config import ServeConfig
from .guard import guarded
from .html import Html, html, join, page
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
        bots: the threads bots think in (``config.bot_workers`` of them: the moves of more
            bots wait their turn, so no number of tables takes more of the machine).
    """

    config: ServeConfig
    rulesets: dict[str, Path] = field(default_factory=dict)
    tables: Tables = field(default_factory=lambda: Tables(None, 0))
    bots: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(
        1, thread_name_prefix="rulesplay-bot"))

    @classmethod
    def from_config(cls, config: ServeConfig) -> Server:
        """The server for ``config``: the shipped games, then the given files."""
        rulesets = dict(shipped_names())
        rulesets.update({str(p): p for p in config.files})
        tables = Tables(config.games_dir, config.max_games, config.bot_problem,
                        config.table_idle)
        for problem in tables.load_saved():  # (said, and the file is left as it is)
            print(f"rulesplay serve: a saved table was not taken up: {problem}",
                  file=sys.stderr)
        bots = ThreadPoolExecutor(max(1, config.bot_workers), thread_name_prefix="rulesplay-bot")
        return cls(config, rulesets, tables, bots)


def _running(server: Server) -> Html:
    """The tables being played (not over), each with its spectators' link (public view)."""
    lang = server.config.lang
    rows = [html('<li><a href="/table/$id">$what</a></li>', id=t.table_id,
                 what=page_word(lang, "running_item", title=t.state.program.game.title,
                                n=t.state.num_players, k=t.state.decisions))
            for t in list(server.tables.tables.values()) if not t.state.is_terminal()]
    items = html('<ul class="running-list">$r</ul>', r=join(rows)) if rows else \
        html('<p class="none">$w</p>', w=page_word(lang, "none_running"))
    return html('<section class="running"><h2>$h</h2>$items</section>',
                h=page_word(lang, "running"), items=items)


def _index(server: Server) -> list[BaseRoute]:
    async def index(request: Request) -> Response:
        lang = server.config.lang
        given = [name for name in server.rulesets if Path(name) in server.config.files]
        items = join(html('<li><a href="/new?ruleset=$q">$name</a></li>', q=name, name=name)
                     for name in given + [n for n in server.rulesets if n not in given])
        body = html('<section class="games"><h1>$h</h1><ul>$items</ul></section>$running',
                    h=page_word(lang, "start_table"), items=items, running=_running(server))
        return HTMLResponse(page(page_word(lang, "nav_tables"), body, lang=lang))

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    return [Route("/", index), Route("/favicon.ico", favicon)]


def create_app(config: ServeConfig, server: Server | None = None) -> ASGIApp:
    """The whole web application for ``config``, guarded (Host, Origin, JSON, body size).

    Args:
        config: the server's settings; its ``host_names()`` are the Host headers accepted.
        server: what the pages share (``Server.from_config(config)`` when None).
    Returns:
        an ASGI application (run it with uvicorn, or test it with Starlette's TestClient).
    """
    server = server or Server.from_config(config)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        server.bots.shutdown(wait=False, cancel_futures=True)

    routes: list[BaseRoute] = [
        *_index(server),
        *table_page.routes(server),
        *playground.routes(server),
        *simulation_page.routes(server),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return guarded(Starlette(routes=routes, lifespan=lifespan), config.host_names(),
                   config.max_body)
