"""The server's tables: games with people and bots at them, their secret seat tokens, and
their saves (docs/web.md).

A table is a :class:`~rulesplay.session.Session` (the terminal's game with human seats, so it
is saved in the same format and ``rulesplay resume`` continues it) plus one secret token per
human seat. A token is 128 random bits (:func:`secrets.token_urlsafe`), carried in the link's
fragment (``/table/ID#seat=TOKEN``, never sent in a request line, so never in a server's log
or a ``Referer``); the server keeps only its SHA-256 and compares in constant time. Human
games use a secret seed (128 random bits, never shown), as ``rulesplay run`` does with a
person at the table.

With a games folder, each table is saved after every move as ``ID.save.json`` (the session
format) beside ``ID.seats.json`` (the tokens' hashes), and a new server over the same folder
takes its tables up again (:meth:`Tables.load_saved`).

This module knows nothing of HTTP: :mod:`.table_socket` and :mod:`.table_page` use it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from .. import gamelog
from ..agents import make_agent
from ..engine.game import Game
from ..engine.state import State
from ..errors import OptionError, RulesError
from ..outfiles import OutputRefused, write_atomic
from ..session import HUMAN, Session
from .table_view import Accounts

__all__ = ["NewTable", "Table", "Tables", "TABLE_ID", "named_game", "public_name"]

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{16}")  # what a table's id looks like (12 random bytes)
SEATS_MARK = "rulesplay-table-seats"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class NewTable:
    """What creating a table gives back.

    Attributes:
        table_id: the table's id (16 URL-safe characters).
        seat_links: human seat -> its secret link (relative URL ``/table/ID#seat=TOKEN``):
            whoever opens it plays that seat.
        spectator_link: the link that shows the table's public information only.
    """

    table_id: str
    seat_links: dict[int, str]
    spectator_link: str


@dataclass
class Table:
    """One game on the server.

    Attributes:
        table_id: its id.
        session: the game, its seats (``human`` or a bot spec) and bots.
        hashes: human seat -> SHA-256 (hex) of its token.
        path: its save file (None: kept in memory only).
        accounts: the account of the game as each seat (and an onlooker) may read it.
        error: why the game cannot go on (the ruleset failed during play), or None.
        moved: when the table was made or last had a move (``time.monotonic()`` seconds).
    """

    table_id: str
    session: Session
    hashes: dict[int, str]
    path: Path | None
    accounts: Accounts = field(init=False)
    error: str | None = None
    moved: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.accounts = Accounts(self.session.state)
        self.accounts.follow()

    @property
    def state(self) -> State:
        """The game (the session's state)."""
        return self.session.state

    def seat_of(self, token: object) -> int | None:
        """The human seat ``token`` opens, or None (not a string, or no seat's token). Every
        seat's hash is compared, in constant time, whatever matches."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        digest = _digest(token)
        found = None
        for seat, stored in self.hashes.items():
            if hmac.compare_digest(digest, stored):
                found = seat
        return found

    @property
    def finished(self) -> bool:
        """Whether the game can go on no more: it is over, or the ruleset failed."""
        return self.error is not None or self.state.is_terminal()

    def to_move(self) -> int | None:
        """The seat whose decision it is (None: the game is over)."""
        return None if self.state.is_terminal() else self.state.current_player()

    def waits_for_person(self) -> bool:
        """Whether the game waits for a human seat with a real choice (or is over)."""
        seat = self.to_move()
        return seat is None or self.error is not None or (
            self.session.seats[seat] == HUMAN and len(self.state.legal_actions()) > 1)

    def apply(self, action: Any) -> None:
        """Play ``action`` (an id or an Action) for the seat to move, then keep the account
        and the save up to date.

        Raises:
            IllegalActionError: not a legal action now.
            RulesError: the ruleset failed (the table keeps the game before the move).
        """
        self.state.apply(action)
        self.moved = time.monotonic()
        self.session.emit()
        self.accounts.follow()
        self.save()

    def save(self) -> None:
        """Write the save file (nothing without a games folder); a failure is told on
        stderr and play goes on (the game stays in memory)."""
        if self.path is None:
            return
        try:
            self.session.save(str(self.path))
        except (OSError, OutputRefused) as exc:
            print(f"rulesplay serve: cannot save table {self.table_id}: {exc}",
                  file=sys.stderr)

    def log_text(self) -> str:
        """The game's whole log (every hand, and the seed): available once the game is over,
        for ``rulesplay replay``."""
        return self.session.log_text(None)


class Tables:
    """The tables of one server, bounded in number: at most ``max_games`` at once, and
    when it holds that many, a finished game (over, or stopped by its ruleset) leaves to
    make room, the oldest first, else the table longest without a move once that is over
    ``idle_after``; only games being played refuse a new one.

    Args:
        games_dir: the folder tables are saved in (None: memory only).
        max_games: how many tables the server holds at once.
        bot_problem: why a bot spec may not sit at a table here (None: it may); by default
            every spec :func:`~rulesplay.agents.make_agent` takes may.
        idle_after: seconds without a move after which a table may leave to make room
            (``ServeConfig.table_idle``).
    """

    def __init__(self, games_dir: Path | None, max_games: int,
                 bot_problem: Callable[[str], str | None] | None = None,
                 idle_after: float = 3600.0) -> None:
        self.games_dir, self.max_games, self.idle_after = games_dir, max_games, idle_after
        self.bot_problem = bot_problem or (lambda spec: None)
        self.tables: dict[str, Table] = {}

    def get(self, table_id: str) -> Table | None:
        """The table with id ``table_id``, or None."""
        return self.tables.get(table_id) if TABLE_ID.fullmatch(table_id) else None

    def has_room(self) -> bool:
        """Whether one more table may start: fewer than ``max_games`` are held, or one of
        them may leave (:meth:`_leaving`)."""
        return len(self.tables) < self.max_games or self._leaving() is not None

    def _leaving(self) -> str | None:
        """The table that leaves to make room: a finished one (the oldest first), else the
        one longest without a move once that is over ``idle_after`` seconds (an abandoned
        game must not hold its place for ever); None when every table is being played."""
        finished = next((t for t, table in self.tables.items() if table.finished), None)
        if finished is not None or not self.tables:
            return finished
        idlest = min(self.tables.values(), key=lambda table: table.moved)
        return idlest.table_id if time.monotonic() - idlest.moved > self.idle_after else None

    def make_room(self) -> bool:
        """Let tables leave (:meth:`_leaving`; their saves stay, so ``rulesplay resume``
        and a new server take them up) until there is room for one more; False when every
        table held is being played."""
        while len(self.tables) >= self.max_games:
            leaving = self._leaving()
            if leaving is None:
                return False
            del self.tables[leaving]
        return True

    def create(self, game: Game, *, players: int, seats: list[str],
               title: str | None = None) -> NewTable:
        """Start a new table.

        Args:
            game: the ruleset with its options and language chosen.
            players: seats at the table (within the ruleset's range).
            seats: one per seat: ``"human"`` or a bot spec (``random``, ``greedy``,
                ``mcts:iterations=200``...), within ``bot_problem``'s bounds.
            title: how the server names the ruleset (the game's path or title when None);
                its log and save name it so, a path by its file name only.

        Raises:
            OptionError: the player count is outside the ruleset's range, or an option value
                is not allowed with that many players.
            ValueError: a seat list of the wrong length, an unknown bot, a bad parameter or
                one over the server's bounds, no human seat, or the server already holds
                ``max_games`` tables being played (finished ones make room).
            RulesError: the ruleset fails while setting the game up.
        """
        if not self.has_room():
            raise ValueError(f"this server holds {self.max_games} tables already, all "
                             "being played (a table leaves once it is finished, or after "
                             f"{self.idle_after / 60:.0f} minutes without a move); finish one "
                             "or try again later")
        if not isinstance(players, int) or isinstance(players, bool):
            raise OptionError(f"the number of players is a whole number, not {players!r}")
        game = named_game(game, public_name(title or game.path or game.title))  # (uncompiled)
        game.program(players)  # OptionError: a count outside the ruleset's range
        if not isinstance(seats, list) or len(seats) != players:
            raise ValueError(f"give one seat per player: {players} seats, each 'human' or a bot")
        specs = {}
        for s, spec in enumerate(seats):
            if not isinstance(spec, str) or len(spec) > 100 or not spec.isprintable():
                raise ValueError(f"seat {s}: 'human' or a bot such as random, greedy, mcts")
            specs[s] = HUMAN if spec.strip().lower() == HUMAN else spec.strip()
            problem = None if specs[s] == HUMAN else self.bot_problem(specs[s])
            if problem is not None:
                raise ValueError(f"seat {s}: {problem}")
        humans = [s for s, spec in specs.items() if spec == HUMAN]
        if not humans:
            raise ValueError("a table needs at least one human seat (a game of bots only is "
                             "a simulation)")
        seed = secrets.randbits(128)  # secret: a seed anyone could read would tell every hand
        agents = {s: make_agent(spec, s, seed) for s, spec in specs.items() if spec != HUMAN}
        state = game.new_state(players, seed, record_events=True)
        table_id = secrets.token_urlsafe(12)
        path = None if self.games_dir is None else self.games_dir / f"{table_id}.save.json"
        header = gamelog.header(game.path or game.title, game.option_values, players,
                                seed, game.lang, dict(specs), game.bundle, game.limits)
        session = Session(state, specs, agents, str(path or f"{table_id}.save.json"), header)
        session.secret_seed = True
        session.emit()
        tokens = {s: secrets.token_urlsafe(16) for s in humans}
        table = Table(table_id, session, {s: _digest(t) for s, t in tokens.items()}, path)
        if self.games_dir is not None:
            self._write_seats(table)
            table.save()
        self.make_room()  # (a finished table leaves now that the new one is made)
        self.tables[table_id] = table
        return NewTable(table_id, {s: f"/table/{table_id}#seat={t}" for s, t in tokens.items()},
                        f"/table/{table_id}")

    def _write_seats(self, table: Table) -> None:
        """Keep the hashes of the seat tokens beside the save (so links work after a
        restart; the tokens themselves are written nowhere)."""
        assert self.games_dir is not None
        self.games_dir.mkdir(parents=True, exist_ok=True)
        data = {"type": SEATS_MARK, "version": 1,
                "seats": {str(s): h for s, h in table.hashes.items()}}
        write_atomic(self.games_dir / f"{table.table_id}.seats.json", json.dumps(data))

    def load_saved(self) -> list[str]:
        """Take up the tables saved in the games folder (a new server over the same folder
        continues their games): games still being played first, then finished ones while
        there is room. Returns a line per file that could not be taken up (why); those
        files are left as they are."""
        if self.games_dir is None or not self.games_dir.is_dir():
            return []
        problems = []
        saves = [(p, p.name[:-len(".save.json")])
                 for p in sorted(self.games_dir.glob("*.save.json"))]
        saves = [(p, t) for p, t in saves if TABLE_ID.fullmatch(t) and t not in self.tables]
        over = {t: _saved_over(p) for p, t in saves}
        for path, table_id in sorted(saves, key=lambda pt: over[pt[1]]):  # live ones first
            if not self.make_room():
                if not over[table_id]:
                    problems.append(f"{path.name}: not taken up, the server holds "
                                    f"{self.max_games} tables being played")
                continue
            try:
                table = self._load(table_id, path)
            except (RulesError, OSError, ValueError, KeyError, TypeError) as exc:
                why = exc.message if isinstance(exc, RulesError) else str(exc)
                problems.append(f"{path.name}: {why}")
                continue
            self.tables[table_id] = table
        return problems

    def _load(self, table_id: str, path: Path) -> Table:
        """One saved table: its session (replayed and checked) and its seats' hashes."""
        assert self.games_dir is not None
        seats_file = self.games_dir / f"{table_id}.seats.json"
        try:
            data = json.loads(seats_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ValueError(f"its seat links' file {seats_file.name} is missing, so nobody "
                             "could play it here; 'rulesplay resume' plays it on one "
                             "terminal") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{seats_file.name} cannot be read as a table's seats "
                             f"({type(exc).__name__})") from None
        if not isinstance(data, dict) or data.get("type") != SEATS_MARK:
            raise ValueError(f"{seats_file.name} is not a table's seats")
        hashes = {int(s): str(h) for s, h in data["seats"].items()}
        session = Session.load(str(path), make_agent)
        for seat, spec in session.seats.items():
            problem = None if spec == HUMAN else self.bot_problem(spec)
            if problem is not None:
                raise ValueError(f"seat {seat}: {problem}")
        humans = {s for s, spec in session.seats.items() if spec == HUMAN}
        if set(hashes) != humans or not all(re.fullmatch(r"[0-9a-f]{64}", h)
                                            for h in hashes.values()):
            raise ValueError(f"{seats_file.name} does not match the save's human seats")
        return Table(table_id, session, hashes, path)


def _saved_over(path: Path) -> bool:
    """Whether the save at ``path`` holds a finished game (False when it cannot tell:
    loading it will say what is wrong)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data["state"]["terminal"] is True
    except (OSError, ValueError, KeyError, TypeError):
        return False


def public_name(name: str) -> str:
    """How a table's log and save name its ruleset: ``name`` as the server lists it (a
    shipped game's name), but a path by its file name only, so no folder of the server
    is written into what a page gives for download."""
    pure = PurePath(name.replace("\\", "/"))
    if pure.is_absolute() or pure.suffix or ".." in pure.parts or name.startswith("~"):
        return pure.name or "ruleset"
    return name


def named_game(game: Game, name: str) -> Game:
    """``game`` naming its ruleset ``name`` (its ``path`` and its bundle's name, which its
    states, saves and logs write), otherwise the same game."""
    bundle = game.bundle
    if game.path == name and (bundle is None or bundle.name == name):
        return game
    named = Game(game.ruleset, game.checked, game.option_values, game.lang, name,
                 None if bundle is None else bundle.model_copy(update={"name": name}),
                 game.engine, game.limits)
    return named
