"""A ruleset pasted into a page: loaded and checked as ``rulesplay validate`` checks a file,
without reading any file the text names.

What pasted text may reach: a game that comes with rulesplay, by its name only
(``extends "NAME"``, as ``rulesplay list`` shows the names); no path (``extends
"../x.rules"``) and no ``include`` (a page has no folder of files). Its size is bounded
(the server's ``max_body``). The base's files are read from the shipped games' folder and
kept with the text in a :class:`~rulesplay.compose.Bundle`, so the game made from it is
rebuilt from that text alone (a save of a table holds it).

Problems are data (:func:`diagnostic_data`): file, line, column, severity, message and the
source line with its caret, all cut from :meth:`Diagnostic.render` (what ``validate``
prints), so the page and the terminal say the same thing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..compose import SHIPPED_KEY, Bundle, load_merged, read_source
from ..engine.game import Game, load_bundle
from ..engine.player_counts import check_player_counts
from ..errors import Diagnostic, RulesError, Span
from ..parse import parse_text
from ..shipped import find_shipped, is_name, shipped_names, shipped_root

__all__ = ["PASTED", "Pasted", "diagnostic_data", "load_pasted", "shipped_text"]

PASTED = "pasted.rules"  # the name diagnostics give pasted text


@dataclass
class Pasted:
    """What checking pasted text found.

    Attributes:
        game: the loaded game (None when there is an error).
        diagnostics: errors and warnings, in the order ``validate`` prints them.
    """

    game: Game | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the text loads (warnings alone do not stop it)."""
        return self.game is not None


def _error(message: str, span: Span, text: str) -> Diagnostic:
    return Diagnostic(message, span, source=text)


def _refused(text: str, max_bytes: int) -> list[Diagnostic]:
    """What pasted text may not say, found before any file is read: too many bytes, a
    syntax error, an ``include``, an ``extends`` naming a file or no shipped game."""
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        return [Diagnostic(f"the ruleset is {size:,} bytes; this server takes at most "
                           f"{max_bytes:,} bytes of pasted text")]
    try:
        ruleset = parse_text(text, PASTED)
    except RulesError as exc:
        return exc.attach_source({PASTED: text}).diagnostics
    found = [_error("a pasted ruleset includes nothing (a page has no folder of files): "
                    "paste the part's declarations here instead", span, text)
             for _, span in ruleset.includes]
    target = ruleset.extends
    if target is not None and not is_name(target):
        found.append(_error(
            f"a pasted ruleset extends a game that comes with rulesplay, by its name only "
            f"(a name 'rulesplay list' shows), not a file: '{target}'",
            ruleset.extends_span, text))
    elif target is not None:
        try:
            find_shipped(target)
        except LookupError as exc:
            found.append(_error(f"'extends': {exc.args[0]}", ruleset.extends_span, text))
    return sorted(found, key=lambda d: (d.span.line, d.span.col))


def _bundle(text: str) -> Bundle:
    """The pasted text and, when it extends a shipped game, that game's files (keyed as
    :func:`~rulesplay.compose.bundle_of` keys a shipped game a variant names)."""
    files = {PASTED: text}
    ruleset = parse_text(text, PASTED)
    root = shipped_root()
    if ruleset.extends is not None and root is not None:
        sources: dict[str, str] = {}
        load_merged(str(find_shipped(ruleset.extends)), sources)
        for file, source in sources.items():
            files[SHIPPED_KEY + Path(file).resolve().relative_to(root).as_posix()] = source
    return Bundle(name=PASTED, top=PASTED, files=files)


def load_pasted(text: str, max_bytes: int) -> Pasted:
    """Load and check pasted ruleset text as ``rulesplay validate`` checks a file: parse,
    merge a shipped base, validate, then compile and start it at every player count.

    Args:
        text: the ruleset's text.
        max_bytes: the most UTF-8 bytes the text may have (the server's ``max_body``).

    Returns:
        A :class:`Pasted`: the game and its warnings, or the errors (never raises for
        anything the text says).
    """
    refused = _refused(text, max_bytes)
    if refused:
        return Pasted(None, refused)
    try:
        game = load_bundle(_bundle(text))
        counted = check_player_counts(game, stop_at_limit=True)  # (a server answers soon)
    except RulesError as exc:
        return Pasted(None, exc.diagnostics)
    errors = [d for d in counted if d.severity == "error"]
    warnings = [*game.checked.warnings, *(d for d in counted if d.severity != "error")]
    if errors:
        return Pasted(None, [*warnings, *errors])
    return Pasted(game, warnings)


def diagnostic_data(diag: Diagnostic) -> dict[str, Any]:
    """A diagnostic as plain data for a page: ``file``, ``line``, ``col``, ``end_line``,
    ``end_col`` (1-based; 0 when it has no place), ``severity``, ``head`` (the first line
    ``validate`` prints: ``file:line:col: error: message``), ``message``, ``source`` and
    ``caret`` (the two lines under it, "" when there is no source line) and ``text`` (the
    whole of what ``validate`` prints)."""
    text = diag.render()
    lines = text.split("\n")
    span = diag.span
    return {"file": span.file, "line": span.line, "col": span.col,
            "end_line": span.end_line, "end_col": span.end_col,
            "severity": diag.severity, "message": diag.message, "head": lines[0],
            "source": lines[1][4:] if len(lines) > 2 else "",
            "caret": lines[2][4:] if len(lines) > 2 else "", "text": text}


_EXTENDS = re.compile(r'^(extends\s+")([^"\n]*)(")', re.M)
_INCLUDE = re.compile(r'^include\s+"([^"\n]*)"[^\n]*$', re.M)


def shipped_text(name: str) -> str:
    """The text of the shipped game ``name`` as pasted text may say it: an ``extends`` of a
    file becomes the shipped game's name, and each ``include`` line is replaced by the
    included part's text (between comment lines naming it).

    Raises:
        LookupError: no shipped game has that name.
        RulesError: its file (or a part) cannot be read.
    """
    path = find_shipped(name)
    names = {p.resolve(): n for n, p in shipped_names().items()}
    text = read_source(str(path))

    def named(m: re.Match[str]) -> str:
        base = names.get((path.parent / m.group(2)).resolve())
        return m.group(0) if base is None else m.group(1) + base + m.group(3)

    def inlined(m: re.Match[str]) -> str:
        part = read_source(str(path.parent / m.group(1))).rstrip("\n")
        return f"# --- from {m.group(1)} ---\n{part}\n# --- end of {m.group(1)} ---"

    return _INCLUDE.sub(inlined, _EXTENDS.sub(named, text))
