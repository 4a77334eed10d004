"""The ``--log`` format: one JSON object per line, a header first, then every event in order.

The header (:class:`LogHeader`, the one definition of it) says what game it is: the ruleset's
name and the text of every file it was composed from, options, players, seed, language, who
sat where, and the format version. The lines after it are the state's events as
:class:`rulesplay.State` records them, so a log can be rebuilt at any time from the header
and the decisions (``rulesplay resume`` does that instead of trusting a file it did not
write). A change to the header's fields bumps :data:`LOG_FORMAT`; a log from a newer format
is refused, one from format 1 (no ruleset text, no ``format`` field) needs its ruleset named.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from .compose import Bundle
from .errors import RulesError, damage
from .events import Event
from .filekinds import kind_of, wrong_kind
from .limits import MAX_STATE_SEED

LOG_FORMAT = 3  # 2: the header holds the ruleset's text ("files") and this number;
# 3: and the run's limits ("limits", when a run set any)



def header(ruleset: str, options: dict[str, Any], players: int, seed: int, lang: str | None,
           bots: dict[int, str], files: Bundle | None = None,
           limits: dict[str, int] | None = None) -> Event:
    """The first line of a log.

    Args:
        ruleset: the ruleset as the person named it (shown, never opened by ``replay``).
        options: the option values set (name -> int, bool or str).
        players: seats at the table.
        seed: the game's seed.
        lang: the account's language (None: English).
        bots: seat -> ``"human"`` or a bot spec.
        files: the text of every file of the ruleset (``Game.bundle``), which ``replay``
            rebuilds the game from.
        limits: the budgets the run set (``--limit``; :mod:`rulesplay.limits`), which
            ``replay`` sets again, so a game that went past a default replays.
    """
    head: Event = {"type": "header", "ruleset": ruleset, "options": options,
                   "players": players, "seed": seed, "lang": lang,
                   "bots": {str(s): b for s, b in sorted(bots.items())}, "format": LOG_FORMAT}
    if files is not None:
        head["files"] = files.model_dump()
    if limits:
        head["limits"] = dict(limits)
    return head


# The seed of a saved or logged game: what the generator takes (rulesplay.limits: a person's
# seeds, 0..2^63 - 1, and rulesplay's secret 128-bit ones).
Seed = Annotated[int, Field(strict=True, ge=0, le=MAX_STATE_SEED)]


class LogHeader(BaseModel):
    """The first line of a log, checked (see :func:`header` for the fields)."""

    model_config = ConfigDict(extra="forbid")
    type: StrictStr
    ruleset: StrictStr
    options: dict[StrictStr, bool | StrictInt | StrictStr] = {}
    players: StrictInt
    seed: Seed | None = None  # None in a seat's log
    seat: StrictInt | None = None  # the seat a log of what one seat may know was written for
    lang: StrictStr | None = None
    bots: dict[StrictStr, StrictStr] = {}
    format: StrictInt = 1
    files: Bundle | None = None
    limits: dict[StrictStr, StrictInt] = {}


# The JSON reader's complaints, in words (its own text names Python's "char" offsets).
_JSON_WORDS = {"Expecting value": "a value was expected",
               "Expecting property name enclosed in double quotes": "a quoted name was expected",
               "Unterminated string starting at": "a text in quotes is not closed",
               "Extra data": "more follows the end of the event",
               "Expecting ',' delimiter": "a ',' was expected",
               "Expecting ':' delimiter": "a ':' was expected",
               "Invalid control character at": "a control character is inside a text"}


def _json_words(exc: Exception) -> str:
    """Why a log line is not JSON, in words, with the column it was found at."""
    if isinstance(exc, json.JSONDecodeError):
        return f"{_JSON_WORDS.get(exc.msg, exc.msg.lower())} at column {exc.colno}"
    if isinstance(exc, RecursionError):
        return "it is nested too deeply"
    return "it is not JSON text"


def read(path: str) -> tuple[LogHeader, list[Event]]:
    """A log file's checked header and its event rows (each a JSON object).

    Raises:
        RulesError: unreadable, not JSON lines, no header first, a damaged header, or a
            format newer than this rulesplay reads; the message names the file and line.
    """
    rows: list[Event] = []
    try:
        with open(path, encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except (ValueError, RecursionError) as exc:
                    if number == 1:
                        _another_kind(path, line)
                    raise RulesError(f"{path}:{number}: line {number} of the log is not "
                                     f"an event ({_json_words(exc)})") from None
                if not isinstance(row, dict):
                    raise RulesError(f"{path}:{number}: not a JSON object")
                rows.append(row)
    except UnicodeDecodeError:
        raise RulesError(f"{path}: cannot be read (not UTF-8 text)") from None
    except OSError as exc:
        raise RulesError(f"{path}: cannot be read ({(exc.strerror or str(exc)).lower()})") \
            from None
    if not rows or rows[0].get("type") != "header":
        _another_kind(path, json.dumps(rows[0]) if rows else "")
        raise RulesError(f"{path}: not a rulesplay log (no header line first)")
    fmt = rows[0].get("format", 1)
    if not isinstance(fmt, int) or fmt > LOG_FORMAT:
        raise RulesError(f"{path} was written in log format {str(fmt)[:20]!r} by another "
                         f"version of rulesplay; this one reads formats 1 to {LOG_FORMAT}")
    try:
        head = LogHeader.model_validate(rows[0])
    except ValidationError as exc:
        what = damage(list(exc.errors()), LogHeader.model_fields)  # type: ignore[arg-type]
        raise RulesError(f"{path}: the header is damaged: {what}") from None
    return head, rows[1:]


def _another_kind(path: str, first: str) -> None:
    """Raise when ``path`` (its first line ``first``) is a ruleset or a save, not a log.

    Raises:
        RulesError: it is; the message names the command that reads it.
    """
    kind = kind_of(path, first)
    if kind in ("ruleset", "save"):
        raise RulesError(wrong_kind(path, kind, "log"))


def for_seat(head: Event, seat: int) -> Event:
    """The header of a log that holds only what ``seat`` may know: no seed (it would tell
    every hand), and the seat it was written for."""
    return {k: v for k, v in head.items() if k != "seed"} | {"seat": seat}


class LogWriter:
    """A game's log as it is played: the header, then each event as it happens; with
    ``view``, only what one seat may know (hidden cards as ``?``, others' secret choices as
    made, never what).

    Args:
        log: a file the person named, open for writing.
        head: the header (:func:`header`, or :func:`for_seat`).
        view: new events as the seat may know them (``SeatView.follower()``: it is given
            each piece of the game once, in order), one out per event.
    """

    def __init__(self, log: IO[str], head: Event,
                 view: Callable[[list[Event]], list[Event]] | None = None) -> None:
        self.file, self.head, self.view = log, head, view
        self.written = 0  # events of the game written so far
        self.failed: str | None = None  # why the log could not be written (it stops then)
        self._write([head])

    def _write(self, events: list[Event]) -> None:
        if self.failed is not None:
            return
        try:
            write(self.file, events)
        except OSError as exc:  # a full disk must not end the game: the log stops here
            self.failed = f"{self.file.name}: {exc.strerror or exc}"

    def follow(self, events: list[Event]) -> None:
        """Write the events not written yet (``events``: every event of the game so far,
        handed on after whole moves; a seat's view sees only the new ones)."""
        if self.failed is not None:
            return
        fresh = events[self.written:]
        self._write(self.view(fresh) if self.view else fresh)
        self.written = len(events)

    def error(self, message: str) -> None:
        """Record that the game stopped on a ruleset error (``replay`` tells it apart)."""
        self._write([{"type": "error", "message": message}])

    def close(self) -> None:
        if not self.file.closed:
            try:
                self.file.close()
            except OSError as exc:
                self.failed = self.failed or f"{self.file.name}: {exc.strerror or exc}"


def lines(events: Iterable[Event]) -> str:
    """Events as log lines (each ends with a newline)."""
    return "".join(json.dumps(ev, ensure_ascii=False) + "\n" for ev in events)


def write(log: IO[str], events: Iterable[Event]) -> None:
    """Append events to an open log and flush it."""
    log.write(lines(events))
    log.flush()


def continues(path: str | Path, text: str) -> bool:
    """Whether the file at ``path`` is a log of the same game as ``text``: an earlier part of
    it, or one that went on past it (moves made after the game was saved, which a resumed
    game plays again), so writing ``text`` there keeps that log one game.

    Args:
        path: an existing file the person named.
        text: the whole log as it would be written now.
    """
    try:
        with open(path, encoding="utf-8") as fh:
            old = fh.read(len(text) + 1)  # characters: one more than a prefix can have
    except (OSError, UnicodeDecodeError):
        return False
    return text.startswith(old) or old.startswith(text)
