"""One look at a ruleset as the editor holds it: its diagnostics, file by file, and the
table of its declarations.

The text of every file the editor has open comes from its buffer, unsaved edits included
(:func:`rulesplay.compose.load_edited`); the files it extends or includes that are not open
are read from disk, with the loader's usual reach. A problem in an extended or included file
is reported on that file, and once more in the file being edited, at its ``extends`` or
``include`` line (the line that brought it in), so the author sees it where they type.

A ``.part`` file is no whole game (it holds declarations for others to include): checked
alone it is only parsed; its other mistakes are found by the checks of the files that
include it, and reported on it from there.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .. import ir
from ..compose import Bundle, load_bundle, load_edited, parse_edited
from ..errors import Diagnostic, RulesError, Span
from ..parse import parse_text
from .index import Index, build


@dataclass
class Analysis:
    """What :func:`analyse` found.

    Attributes:
        diagnostics: file -> its errors and warnings (the edited file always has an entry).
        index: the declarations, or None when the text does not parse.
    """

    diagnostics: dict[str, list[Diagnostic]] = field(default_factory=dict)
    index: Index | None = None


def analyse(path: str, edited: dict[str, str], on_disk: bool = True) -> Analysis:
    """Check the ruleset ``path`` as the editor holds it.

    Args:
        path: the edited file (absolute, when ``on_disk``).
        edited: resolved absolute path -> text of each file open in the editor (``path``'s
            text included).
        on_disk: False for a buffer that is no file yet: it is checked alone (an
            ``extends`` or ``include`` line has no folder to read from).
    """
    out = Analysis(diagnostics={path: []})
    sources: dict[str, str] = {}
    found: list[Diagnostic] = []
    try:
        if on_disk:
            ruleset = parse_edited(path, edited, sources)
        else:
            sources = {path: edited[path]}
            ruleset = parse_text(edited[path], path)
        out.index = build(ruleset, sources)
    except RulesError as exc:
        found = list(exc.diagnostics)  # (the full load below finds them again)
    if not path.endswith(".part"):
        try:
            if on_disk:
                _, checked = load_edited(path, edited)
            else:
                files = {path: edited[path]}
                _, checked = load_bundle(Bundle(name=path, top=path, files=files))
            found = list(checked.warnings)
        except RulesError as exc:
            found = list(exc.diagnostics)
    top = parse_top(path, edited.get(path, ""))
    for diag in found:
        file = diag.span.file if diag.span.line > 0 else path
        out.diagnostics.setdefault(file, []).append(diag)
        if file != path:
            out.diagnostics[path].append(_at_line(diag, file, path, top))
    return out


def parse_top(path: str, text: str) -> ir.Ruleset | None:
    """The edited file alone, parsed (for its ``extends`` and ``include`` lines), or None."""
    try:
        return parse_text(text, path)
    except RulesError:
        return None


def _at_line(diag: Diagnostic, file: str, path: str, top: ir.Ruleset | None) -> Diagnostic:
    """``diag`` (about another file) restated at the line of ``path`` that brought that file
    in: its own ``include``/``extends`` line, else the ``extends`` line (the file came
    through the base), else the first line."""
    where = Span(file=path, line=1, col=1)
    if top is not None:
        folder = os.path.dirname(path)
        lines = [(t, s) for t, s in top.includes]
        if top.extends is not None:
            lines.append((top.extends, top.extends_span))
        direct = [s for t, s in lines if os.path.normpath(os.path.join(folder, t)) == file]
        if direct:
            where = direct[0]
        elif top.extends is not None:
            where = top.extends_span
        elif lines:
            where = lines[0][1]
    shown = os.path.basename(file)
    return Diagnostic(f"in {shown}:{diag.span.line}:{diag.span.col}: {diag.message}", where,
                      diag.severity)
