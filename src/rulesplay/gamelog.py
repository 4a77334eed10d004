"""The ``--log`` format: one JSON object per line, a header first, then every event in order.

The header says what game it is (ruleset, options, players, seed, language, who sat where);
the lines after it are the state's events as :class:`rulesplay.State` records them, so a log
can be rebuilt at any time from the header and the decisions (``rulesplay resume`` does that
instead of trusting a file it did not write).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from .compose import Bundle

Event = dict[str, Any]


def header(ruleset: str, options: dict[str, Any], players: int, seed: int, lang: str | None,
           bots: dict[int, str], files: Bundle | None = None) -> Event:
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
    """
    head: Event = {"type": "header", "ruleset": ruleset, "options": options,
                   "players": players, "seed": seed, "lang": lang,
                   "bots": {str(s): b for s, b in sorted(bots.items())}}
    if files is not None:
        head["files"] = files.model_dump()
    return head


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
