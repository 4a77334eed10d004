"""Which of rulesplay's own kinds of file a file is (a ruleset, a saved game, a game log), so
that a command given another kind's file says which command reads it, instead of failing on
its first line."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from .outfiles import RULESET_SUFFIXES

SAVE_MARK = "rulesplay-session"  # the "type" of a save (session.SESSION_MARK)
LOG_MARK = "header"  # the "type" of a log's first line

WHAT = {"ruleset": "a ruleset", "save": "a saved game", "log": "a game log"}
USE = {"ruleset": "play it with: rulesplay run {arg}",
       "save": "continue it with: rulesplay resume {arg}",
       "log": "check it with: rulesplay replay {arg}"}


def kind_of(path: str | Path, text: str) -> str | None:
    """``"save"``, ``"log"`` or ``"ruleset"`` for a file of that kind (by its text: JSON
    marked as a save or a log's header; else by a ruleset's ending), None otherwise.

    Args:
        path: the file's name (its ending tells a ruleset).
        text: its text, or its beginning.
    """
    stripped = text.lstrip()
    if stripped.startswith("{"):
        for candidate in (stripped.split("\n", 1)[0], stripped):
            try:
                head = json.loads(candidate)
            except (ValueError, RecursionError):
                continue
            if isinstance(head, dict) and head.get("type") == SAVE_MARK:
                return "save"
            if isinstance(head, dict) and head.get("type") == LOG_MARK:
                return "log"
            break
    return "ruleset" if Path(path).suffix.lower() in RULESET_SUFFIXES else None


def wrong_kind(path: str | Path, kind: str, wanted: str) -> str:
    """The message for ``path``, a file of ``kind``, given where ``wanted`` is read: what it
    is and the command that reads it (e.g. ``x.json is a saved game, not a ruleset: continue
    it with: rulesplay resume x.json``)."""
    return (f"{path} is {WHAT[kind]}, not {WHAT[wanted]}: "
            + USE[kind].format(arg=shlex.quote(str(path))))
