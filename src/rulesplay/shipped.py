"""The games that come with rulesplay, found by name.

In a wheel they are package data (``rulesplay/rulesets/``, copied there by the build hook in
setup.py); in a source checkout they are the top-level ``rulesets/`` folder beside ``src/``.
A game's *name* is its path under that folder without ``.rules`` (``classics/hearts``,
``classics/variants/spades_openspiel``); a name's last part alone works too
when no other game has it (``hearts``).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from .errors import did_you_mean

SUFFIX = ".rules"
_NAME = re.compile(r"[\w-]+(/[\w-]+)*")


@cache
def shipped_root() -> Path | None:
    """The folder of the shipped games: inside the installed package, else beside a source
    checkout's ``src/``; None when neither exists."""
    here = Path(__file__).resolve().parent
    for folder in (here / "rulesets", here.parents[1] / "rulesets"):
        if folder.is_dir():
            return folder
    return None


def shipped_names() -> dict[str, Path]:
    """Every shipped game: name -> its ``.rules`` file, sorted by name."""
    root = shipped_root()
    if root is None:
        return {}
    return {p.relative_to(root).with_suffix("").as_posix(): p
            for p in sorted(root.rglob(f"*{SUFFIX}"))}


def is_name(text: str) -> bool:
    """Whether ``text`` is written as a game's name rather than a file: words of letters,
    digits, ``_`` and ``-`` joined by ``/``, with no ``.`` (so no ``.rules`` ending, no
    ``..`` and no other file's name such as ``secret.env``)."""
    return _NAME.fullmatch(text) is not None


def find_shipped(name: str) -> Path:
    """The file of the shipped game ``name`` (a full name, or a last part no other game has).

    Raises:
        LookupError: no shipped game has that name (the message lists the close ones), or a
            last part several games share (the message names them).
    """
    names = shipped_names()
    if name in names:
        return names[name]
    same = [n for n in names if n.rsplit("/", 1)[-1] == name]
    if len(same) == 1:
        return names[same[0]]
    if same:
        raise LookupError(f"'{name}' names several shipped games: {', '.join(same)}")
    if not names:
        raise LookupError(f"no shipped game is named '{name}' (this installation has none)")
    short = {n.rsplit("/", 1)[-1] for n in names}
    hint = did_you_mean(name, [*names, *short]) or " (rulesplay list shows them)"
    raise LookupError(f"no shipped game is named '{name}'{hint}")


def locate(path: str) -> str:
    """The file a ruleset argument names: ``path`` itself when it exists or is written as a
    file, else the shipped game of that name.

    Raises:
        LookupError: written as a name, no such file, and no shipped game of that name.
    """
    if not is_name(path) or Path(path).exists():
        return path
    return str(find_shipped(path))
