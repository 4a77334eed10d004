"""Hover and go-to-definition: what the name under the cursor is, and where it is declared.

A name is looked up as the language resolves it: after a ``.`` a card attribute; else a
local name of the enclosing phase, rule or ability (``let``, ``chooses``, a loop variable)
bound on an earlier line; else a declaration of the ruleset (its own file, an included or an
extended one); else a builtin function (its line from the validator's table of builtins,
:data:`rulesplay.validate.functions.SUMMARIES`); else a keyword's one-line meaning.
"""

from __future__ import annotations

import os

from ..validate.functions import SUMMARIES
from .index import Decl, Index
from .keywords import MEANINGS
from .positions import word_at


def resolve(index: Index | None, lines: list[str], path: str, row: int,
            col: int) -> tuple[str, list[Decl]] | None:
    """The word under the cursor (0-based ``row``, ``col`` in characters) and the
    declarations it names (most likely first; empty for a builtin, a keyword or an unknown
    name), or None when the cursor is on no word."""
    found = word_at(lines, row, col)
    if found is None:
        return None
    word, start, _ = found
    if index is None:
        return word, []
    if start > 0 and lines[row][:start].rstrip().endswith("."):
        return word, index.named(word, ("attribute",)) + [
            d for d in index.named(word, ("variable",)) if d.line.startswith("card ")]
    local = [d for d in index.named(word, ("local",))
             if d.whole.file == path and d.whole.line <= row + 1 <= max(d.whole.end_line,
                                                                        d.whole.line)
             and d.span.line <= row + 1]
    if local:
        return word, [max(local, key=lambda d: d.span.line)]
    return word, [d for d in index.named(word) if d.kind not in ("local", "attribute")]


def hover_text(index: Index | None, lines: list[str], path: str, row: int,
               col: int) -> str | None:
    """Markdown for the name under the cursor: a declaration's line, kind, file and doc; a
    builtin's summary; a keyword's meaning. None when there is nothing to say."""
    found = resolve(index, lines, path, row, col)
    if found is None:
        return None
    word, decls = found
    if decls:
        d = decls[0]
        where = f"{os.path.basename(d.span.file)}:{d.span.line}"
        parts = [f"```rules\n{d.line}\n```", f"*{d.kind}* `{d.name}`, declared at {where}"]
        if d.doc:
            parts.append(d.doc)
        return "\n\n".join(parts)
    if word in SUMMARIES:
        return f"**{word}** (builtin): {SUMMARIES[word]}"
    if word in MEANINGS:
        return f"**{word}**: {MEANINGS[word]}"
    return None
