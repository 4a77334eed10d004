"""What ``rulesplay serve`` was told: where it listens, which rulesets it serves, where it
keeps games, and the bounds that keep one server safe to leave running."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ServeConfig", "LOOPBACK_NAMES"]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


@dataclass(frozen=True)
class ServeConfig:
    """The server's settings.

    Attributes:
        host: the address to listen on (``127.0.0.1``: this machine only).
        port: the TCP port.
        files: rulesets the server was given on the command line (paths), listed beside the
            shipped games.
        games_dir: the folder where games are saved (``--games DIR``); None keeps them in
            memory only.
        lang: the language of the account and the pages' words (``en`` or ``ja``).
        allow_hosts: extra names the ``Host`` header may carry (``--allow-host``).
        max_games: games the server holds at once; creating one more is refused.
        max_body: bytes a request body (a pasted ruleset, a move) may have.
        max_sim_games: games a simulation started from a page may play.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    files: tuple[Path, ...] = ()
    games_dir: Path | None = None
    lang: str = "en"
    allow_hosts: tuple[str, ...] = ()
    max_games: int = 100
    max_body: int = 256 * 1024
    max_sim_games: int = 2000

    @property
    def local_only(self) -> bool:
        """True when the server listens on a loopback address only."""
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return self.host == "localhost"

    def host_names(self) -> list[str]:
        """The names the ``Host`` header may carry (without the port): the loopback names,
        the listening address, ``--allow-host`` names, and, when listening on every address
        (``0.0.0.0``/``::``), this machine's name and addresses."""
        names = list(LOOPBACK_NAMES)
        if self.host not in ("0.0.0.0", "::"):
            names.append(_bracketed(self.host))
        else:
            hostname = socket.gethostname()
            names += [hostname, f"{hostname}.local"]
            try:
                names += socket.gethostbyname_ex(hostname)[2]
            except OSError:  # no resolver: the names above and --allow-host remain
                pass
        names += [_bracketed(h) for h in self.allow_hosts]
        return list(dict.fromkeys(n.lower() for n in names))

    def url(self) -> str:
        """The address to open in a browser, e.g. ``http://127.0.0.1:8000/``."""
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "::") else _bracketed(self.host)
        return f"http://{shown}:{self.port}/"


def _bracketed(host: str) -> str:
    """An IPv6 address as a ``Host`` header writes it (``[::1]``); other names unchanged."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
