"""Reading ruleset files: text from disk, ``extends`` resolved, then checked as a whole."""

from __future__ import annotations

from pathlib import Path

from . import ir
from .errors import RulesError
from .parse import parse_text
from .validate import Checked, check


def read_source(path: str) -> str:
    """The text of a ruleset file.

    Raises:
        RulesError: the file is missing, a folder, unreadable, or not UTF-8 text.
    """
    p = Path(path)
    if not p.exists():
        raise RulesError(f"{path}: no such file")
    if p.is_dir():
        raise RulesError(f"{path}: is a folder, not a ruleset file")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RulesError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RulesError(f"{path}: not UTF-8 text (byte {exc.start}); is it a ruleset?") \
            from None


def load_ruleset(path: str) -> tuple[ir.Ruleset, Checked]:
    """Parse and check the ruleset at ``path``.

    Raises:
        RulesError: unreadable file, syntax errors or validation errors, with sources
            attached so every diagnostic prints its line and caret.
    """
    text = read_source(path)
    sources = {path: text}
    try:
        ruleset = parse_text(text, path)
        return ruleset, check(ruleset, sources)
    except RulesError as exc:
        raise exc.attach_source(sources) from None
