"""What ``rulesplay serve`` was told: where it listens, which rulesets it serves, where it
keeps games, and the bounds that keep one server safe to leave running."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..agents import PARAMS, Param, parse_spec

__all__ = ["BOT_CAPS", "ServeConfig", "LOOPBACK_NAMES", "lan_addresses"]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
EVERY_ADDRESS = ("0.0.0.0", "::")

# The most each bot parameter may ask for in a table started from a page (``ServeConfig``'s
# ``bot_caps``): a bot moves on the server, so its budget is the server's time. A parameter
# that is not listed here is refused, so a new one cannot slip through uncapped.
BOT_CAPS: dict[str, dict[str, float]] = {
    "random": {},
    "greedy": {"samples": 64, "depth": 200},
    "mcts": {"iterations": 5000, "seconds": 5.0, "c": 10.0},
}
_FREE = {"reward"}  # parameters that are a word, not a budget


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
        bot_caps: bot -> parameter -> the largest value a page may give it (iterations,
            samples, seconds...; :data:`BOT_CAPS` by default).
        bot_workers: threads the server's bots think in (moves of more bots wait their
            turn).
        hello_wait: seconds a table's websocket has to say which seat it plays before it
            is closed.
        table_idle: seconds a table may go without a move before it may leave to make
            room for a new one (its save stays).
        max_checks: pasted rulesets checked at once (the playground's check and play); a
            check starts the game at every player count, which a looping ruleset makes
            long, so more are refused until one ends.
        max_connecting: websockets open at once that have not said which seat they play;
            more are closed at once.
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
    bot_caps: dict[str, dict[str, float]] = field(
        default_factory=lambda: {k: dict(v) for k, v in BOT_CAPS.items()})
    bot_workers: int = 2
    hello_wait: float = 20.0
    max_connecting: int = 32
    max_checks: int = 2
    table_idle: float = 3600.0

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
        if self.host not in EVERY_ADDRESS:
            names.append(_bracketed(self.host))
        else:
            hostname = socket.gethostname()
            names += [hostname, f"{hostname}.local",
                      *map(_bracketed, lan_addresses(self.host == "::"))]
        names += [_bracketed(h) for h in self.allow_hosts]
        return list(dict.fromkeys(n.lower() for n in names))

    def url(self) -> str:
        """The address to open in a browser on this machine, e.g.
        ``http://127.0.0.1:8000/``."""
        shown = "127.0.0.1" if self.host in EVERY_ADDRESS else _bracketed(self.host)
        return f"http://{shown}:{self.port}/"

    def lan_urls(self) -> list[str]:
        """The addresses other devices open when the server listens on every address
        (``0.0.0.0``/``::``): one per address of this machine on its networks (never
        ``0.0.0.0``); empty otherwise."""
        if self.host not in EVERY_ADDRESS:
            return []
        return [f"http://{_bracketed(a)}:{self.port}/"
                for a in lan_addresses(self.host == "::")]

    def bot_params(self) -> dict[str, dict[str, Param]]:
        """What a page may give each bot: :data:`~rulesplay.agents.PARAMS` narrowed to
        :attr:`bot_caps` (a parameter without a cap is left out, so it is refused)."""
        out: dict[str, dict[str, Param]] = {}
        for name, params in PARAMS.items():
            caps = self.bot_caps.get(name, {})
            out[name] = {k: p if k in _FREE else replace(p, high=min(p.high, caps[k]))
                         for k, p in params.items() if k in _FREE or k in caps}
        return out

    def bot_problem(self, spec: str) -> str | None:
        """Why a page may not seat the bot ``spec`` on this server (None: it may): an
        unknown bot or parameter, a bad value, or a value over :attr:`bot_caps` (the
        message says the range this server allows)."""
        try:
            parse_spec(spec, self.bot_params())
        except ValueError as exc:
            return f"{exc} (this server's limits)" if " must be " in str(exc) else str(exc)
        return None


# Where a probe of each family pretends to send (documentation addresses: nothing is sent).
_PROBES = {socket.AF_INET: ("192.0.2.1", 9), socket.AF_INET6: ("2001:db8::1", 9)}


def lan_addresses(ipv6: bool = False) -> list[str]:
    """This machine's IPv4 addresses on its networks, and its IPv6 ones too when ``ipv6``
    (a server listening on ``::``), loopback and link-local left out: the one the default
    route of each family leaves by (found without sending anything) and those its name
    resolves to. Empty when it has none (no network)."""
    found = []
    families = [socket.AF_INET, socket.AF_INET6] if ipv6 else [socket.AF_INET]
    for family in families:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.connect(_PROBES[family])  # (UDP: connect only picks the route)
                found.append(probe.getsockname()[0])
        except OSError:  # (no route of that family)
            pass
        try:
            found += [info[4][0] for info in socket.getaddrinfo(
                socket.gethostname(), None, family, socket.SOCK_STREAM)]
        except OSError:  # no resolver: the route's address (if any) remains
            pass
    usable = []
    for address in found:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            continue
        if not (ip.is_loopback or ip.is_unspecified or ip.is_link_local):
            usable.append(address)
    return list(dict.fromkeys(usable))


def _bracketed(host: str) -> str:
    """An IPv6 address as a ``Host`` header writes it (``[::1]``); other names unchanged."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host
