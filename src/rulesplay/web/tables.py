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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import gamelog
from ..agents import make_agent
from ..engine.game import Game
from ..engine.state import State
from ..errors import OptionError, RulesError
from ..outfiles import OutputRefused, write_atomic
from ..session import HUMAN, Session
from .table_view import Accounts

__all__ = ["NewTable", "Table", "Tables", "TABLE_ID"]

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
    """

    table_id: str
    session: Session
    hashes: dict[int, str]
    path: Path | None
    accounts: Accounts = field(init=False)
    error: str | None = None

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
    """The tables of one server, bounded in number.

    Args:
        games_dir: the folder tables are saved in (None: memory only).
        max_games: how many tables the server holds at once.
    """

    def __init__(self, games_dir: Path | None, max_games: int) -> None:
        self.games_dir, self.max_games = games_dir, max_games
        self.tables: dict[str, Table] = {}

    def get(self, table_id: str) -> Table | None:
        """The table with id ``table_id``, or None."""
        return self.tables.get(table_id) if TABLE_ID.fullmatch(table_id) else None

    def create(self, game: Game, *, players: int, seats: list[str],
               title: str | None = None) -> NewTable:
        """Start a new table.

        Args:
            game: the ruleset with its options and language chosen.
            players: seats at the table (within the ruleset's range).
            seats: one per seat: ``"human"`` or a bot spec (``random``, ``greedy``,
                ``mcts:iterations=200``...).
            title: a name for the table (the game's title when None).

        Raises:
            OptionError: the player count is outside the ruleset's range, or an option value
                is not allowed with that many players.
            ValueError: a seat list of the wrong length, an unknown bot or bad parameter, no
                human seat, or the server already holds ``max_games`` tables being played
                (when it is full, the oldest finished table makes room).
            RulesError: the ruleset fails while setting the game up.
        """
        if len(self.tables) >= self.max_games:
            finished = [t for t, table in self.tables.items() if table.state.is_terminal()]
            if not finished:
                raise ValueError(f"this server holds {self.max_games} tables already, all "
                                 "being played; finish one to start another")
            del self.tables[finished[0]]  # the oldest finished game leaves (its save stays)
        if not isinstance(players, int) or isinstance(players, bool):
            raise OptionError(f"the number of players is a whole number, not {players!r}")
        game.program(players)  # OptionError: a count outside the ruleset's range
        if not isinstance(seats, list) or len(seats) != players:
            raise ValueError(f"give one seat per player: {players} seats, each 'human' or a bot")
        specs = {}
        for s, spec in enumerate(seats):
            if not isinstance(spec, str) or len(spec) > 100:
                raise ValueError(f"seat {s}: 'human' or a bot such as random, greedy, mcts")
            specs[s] = HUMAN if spec.strip().lower() == HUMAN else spec.strip()
        humans = [s for s, spec in specs.items() if spec == HUMAN]
        if not humans:
            raise ValueError("a table needs at least one human seat (a game of bots only is "
                             "a simulation)")
        seed = secrets.randbits(128)  # secret: a seed anyone could read would tell every hand
        agents = {s: make_agent(spec, s, seed) for s, spec in specs.items() if spec != HUMAN}
        state = game.new_state(players, seed, record_events=True)
        table_id = secrets.token_urlsafe(12)
        path = None if self.games_dir is None else self.games_dir / f"{table_id}.save.json"
        header = gamelog.header(title or game.path or game.title, game.option_values, players,
                                seed, game.lang, dict(specs), game.bundle, game.limits)
        session = Session(state, specs, agents, str(path or f"{table_id}.save.json"), header)
        session.secret_seed = True
        session.emit()
        tokens = {s: secrets.token_urlsafe(16) for s in humans}
        table = Table(table_id, session, {s: _digest(t) for s, t in tokens.items()}, path)
        if self.games_dir is not None:
            self._write_seats(table)
            table.save()
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
        continues their games). Returns a line per file that could not be taken up (why);
        those files are left as they are."""
        if self.games_dir is None or not self.games_dir.is_dir():
            return []
        problems = []
        for path in sorted(self.games_dir.glob("*.save.json")):
            table_id = path.name[:-len(".save.json")]
            if not TABLE_ID.fullmatch(table_id) or table_id in self.tables:
                continue
            if len(self.tables) >= self.max_games:
                problems.append(f"{path.name}: not taken up, the server holds "
                                f"{self.max_games} tables")
                continue
            try:
                self.tables[table_id] = self._load(table_id, path)
            except (RulesError, OSError, ValueError, KeyError, TypeError) as exc:
                why = exc.message if isinstance(exc, RulesError) else str(exc)
                problems.append(f"{path.name}: {why}")
        return problems

    def _load(self, table_id: str, path: Path) -> Table:
        """One saved table: its session (replayed and checked) and its seats' hashes."""
        assert self.games_dir is not None
        seats_file = self.games_dir / f"{table_id}.seats.json"
        data = json.loads(seats_file.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("type") != SEATS_MARK:
            raise ValueError(f"{seats_file.name} is not a table's seats")
        hashes = {int(s): str(h) for s, h in data["seats"].items()}
        session = Session.load(str(path), make_agent)
        humans = {s for s, spec in session.seats.items() if spec == HUMAN}
        if set(hashes) != humans or not all(re.fullmatch(r"[0-9a-f]{64}", h)
                                            for h in hashes.values()):
            raise ValueError(f"{seats_file.name} does not match the save's human seats")
        return Table(table_id, session, hashes, path)
