"""The ``serve`` command: the browser table, playground and simulation pages on a local web
server (docs/web.md).

    rulesplay serve [FILE...] [--host 127.0.0.1] [--port 8000] [--games DIR] [--lang ja]
"""

from __future__ import annotations

import errno
import socket
from pathlib import Path
from typing import Any

import click

from .engine.game import load

__all__ = ["serve"]


@click.command(short_help="Serve tables, playground and simulations in a browser.")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets other devices on your network in.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="TCP port.")
@click.option("--games", "games_dir", type=click.Path(file_okay=False), default=None,
              help="Folder where games are saved, so they survive a restart "
                   "(default: kept in memory only).")
@click.option("--lang", type=click.Choice(["en", "ja"]), default="en", show_default=True,
              help="Language of the account and the card labels.")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Another name browsers reach this server by (repeatable); a request "
                   "naming any other is refused.")
def serve(files: tuple[str, ...], host: str, port: int, games_dir: str | None, lang: str,
          allow_hosts: tuple[str, ...]) -> None:
    """Serve tables in the browser: play FILE (or any shipped game) with friends and bots,
    try rulesets in the playground, run simulations. Needs the 'web' extra.

    Each ruleset given is checked first; a broken one stops the server with its diagnostics.
    """
    from .web import missing  # here: Starlette and uvicorn load only for this command

    problem = missing()
    if problem:
        raise click.ClickException(problem)
    from .web.app import create_app
    from .web.config import ServeConfig
    from .web.table_socket import MAX_FRAME

    for file in files:
        load(file)  # a RulesError prints file:line:col diagnostics and exits 1
    config = ServeConfig(host=host, port=port, files=tuple(Path(f) for f in files),
                         games_dir=Path(games_dir) if games_dir else None, lang=lang,
                         allow_hosts=allow_hosts)
    listening = _listen(host, port)  # before saying where it serves: the port may be taken
    where = ("this machine only; --host 0.0.0.0 lets other devices in" if config.local_only
             else "other devices on your network can connect: anyone with a table's "
                  "link can join it")
    click.echo(f"rulesplay serves on {config.url()} ({where}). Ctrl-C stops it.")
    lan = config.lan_urls()
    if lan:
        click.echo("Other devices on your network open: " + ", ".join(lan))
    if not config.local_only:
        click.echo("A device that reaches this machine by another name is refused until "
                   "the server is started with --allow-host NAME.")
    # No access log: a seat's link is its secret and must never be written down.
    _run(create_app(config), listening, host=host, port=port, log_level="warning",
         access_log=False, ws_max_size=MAX_FRAME)


def _run(app: Any, listening: socket.socket, **settings: Any) -> None:
    """Serve ``app`` with uvicorn on the socket already ``listening`` (``settings``:
    ``uvicorn.Config``'s keywords) until Ctrl-C."""
    import uvicorn

    uvicorn.Server(uvicorn.Config(app, **settings)).run(sockets=[listening])


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port`` (TCP; IPv6 when ``host`` is an IPv6
    address).

    Raises:
        click.ClickException: the port is taken, or the address is not this machine's
            (one line saying what to do, not uvicorn's log line after a success message).
    """
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        return socket.create_server((host.strip("[]"), port), family=family, backlog=128)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise click.ClickException(
                f"port {port} is in use on {host} (another server, or another 'rulesplay "
                f"serve'?); stop it or give another port, e.g. --port {port % 65535 + 1}"
            ) from None
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {exc.strerror or exc} (--host takes an "
            "address of this machine, e.g. 127.0.0.1 or 0.0.0.0)") from None
