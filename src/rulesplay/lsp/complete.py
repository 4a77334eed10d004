"""Completion: what may be written at the cursor, from the text before it on its line.

- at the start of a line: the declaration keywords (not indented); indented, what the
  enclosing declaration holds: a card kind's lines (``copies``, ``label`` ...), an
  ability's (``modify``, ``at``), or the statement keywords and the names in scope;
- after ``next`` or ``start``: the phases; after ``do``: the rules; after ``is``: the card
  kinds; after ``remove WHAT``: the base's names of that kind;
- after ``.``: card attributes (and card variables);
- elsewhere: the names in scope (options, zones, variables, enums and their values,
  defines, the locals of the enclosing phase), the builtins and the expression words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..validate.functions import SUMMARIES
from .index import Decl, Index
from .keywords import DECLARATIONS, IN_ABILITY, IN_CARD, MEANINGS, STATEMENTS


@dataclass(frozen=True)
class Item:
    """One completion: the text, what it is (a :class:`Decl` kind, "keyword" or
    "builtin"), and a line of detail."""

    label: str
    kind: str
    detail: str


_EXPR_WORDS = ("not", "and", "or", "in", "where", "if", "else", "is", "none", "yes", "no",
               "it", "player", "players", "seats")
_AFTER = ((re.compile(r"(^|\s)(next|start)\s+\w*$"), ("phase",)),
          (re.compile(r"(^|\s)do\s+\w*$"), ("rule",)),
          (re.compile(r"(^|\s)is\s+(not\s+)?\w*$"), ("card kind",)))
_REMOVE = re.compile(r"^\s*remove\s+(\w+)\s+\w*$")
_WHAT = {"option": "option", "enum": "enum", "card": "card kind", "zone": "zone",
         "var": "variable", "phase": "phase", "ability": "ability", "rule": "rule",
         "define": "define"}
_SCOPE = ("option", "zone", "variable", "enum", "enum value", "define")


def complete(index: Index | None, lines: list[str], path: str, row: int,
             col: int) -> list[Item]:
    """The completions for a cursor at ``col`` (in characters) of the 0-based line ``row``
    of ``path``, whose text is ``lines``."""
    decls = index or Index()
    before = lines[row][:col] if 0 <= row < len(lines) else ""
    if re.search(r"\.\w*$", before):
        cards = [d for d in decls.of_kind("variable") if d.line.startswith("card ")]
        return _items(decls.of_kind("attribute") + cards)
    for pattern, kinds in _AFTER:
        if pattern.search(before):
            return _items(decls.of_kind(*kinds))
    remove = _REMOVE.match(before)
    if remove:
        return _items(decls.of_kind(_WHAT.get(remove.group(1), "")))
    if re.fullmatch(r"\s*(replace|remove)\s+\w*", before):
        return [Item(w, "keyword", MEANINGS.get(w, "")) for w in _WHAT]
    names = _items(decls.of_kind(*_SCOPE) + _locals(decls, path, row))
    builtins = [Item(n, "builtin", s) for n, s in SUMMARIES.items()]
    words = [Item(w, "keyword", MEANINGS.get(w, "")) for w in _EXPR_WORDS]
    if re.fullmatch(r"\w*", before):
        return [Item(w, "keyword", m) for w, m in DECLARATIONS.items()]
    if re.fullmatch(r"\s+\w*", before):
        owner = _enclosing(lines, row)
        if owner in ("card", "ability"):
            return [Item(w, "keyword", MEANINGS[w])
                    for w in (IN_CARD if owner == "card" else IN_ABILITY)]
        return [Item(w, "keyword", m) for w, m in STATEMENTS.items()] + names + builtins
    return names + builtins + words


def _enclosing(lines: list[str], row: int) -> str:
    """The first word of the top-level declaration line ``row`` is inside (``replace``
    skipped), or "" at the margin."""
    for text in reversed(lines[:row]):
        if text.strip() and not text[0].isspace() and not text.lstrip().startswith("#"):
            words = text.split()
            return words[1] if words[0] == "replace" and len(words) > 1 else words[0]
    return ""


def _locals(index: Index, path: str, row: int) -> list[Decl]:
    """The local names bound in the declaration around line ``row`` (0-based) before it."""
    return [d for d in index.decls if d.kind == "local" and d.whole.file == path
            and d.whole.line <= row + 1 <= max(d.whole.end_line, d.whole.line)
            and d.span.line <= row + 1]


def _items(decls: list[Decl]) -> list[Item]:
    seen: dict[str, Item] = {}
    for d in decls:
        seen.setdefault(d.name, Item(d.name, d.kind, d.line))
    return list(seen.values())
