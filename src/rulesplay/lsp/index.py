"""What a ruleset declares, by name, with where and how: the table hover, completion,
go-to-definition and document symbols read.

Built from the merged but unchecked ruleset (:func:`rulesplay.compose.parse_edited`), so it
holds the declarations of included and extended files, each with its own file, and it is
there while the ruleset still has validation errors. While the text does not parse, the
server keeps the last table that did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import ir
from ..errors import Span
from .positions import lines_of


@dataclass(frozen=True)
class Decl:
    """One declared name.

    Attributes:
        name: as written.
        kind: "option", "enum", "enum value", "card kind", "attribute", "zone", "variable",
            "phase", "ability", "rule", "define" or "local".
        span: where the name is written (file, line, column, end).
        whole: the whole declaration (for document symbols).
        line: the declaration's first line as written (its type and default).
        doc: an option's doc text, the display label, and the ``#`` comment lines just
            above the declaration.
    """

    name: str
    kind: str
    span: Span
    whole: Span
    line: str
    doc: str = ""


@dataclass
class Index:
    """Every declaration of a ruleset, and the texts of its files."""

    decls: list[Decl] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)

    def named(self, name: str, kinds: tuple[str, ...] = ()) -> list[Decl]:
        """The declarations of ``name`` (of one of ``kinds`` when given)."""
        return [d for d in self.decls if d.name == name and (not kinds or d.kind in kinds)]

    def of_kind(self, *kinds: str) -> list[Decl]:
        """The declarations of the given kinds, each name once (the first)."""
        seen: dict[str, Decl] = {}
        for d in self.decls:
            if d.kind in kinds:
                seen.setdefault(d.name, d)
        return list(seen.values())


_LISTS = (("options", "option"), ("enums", "enum"), ("kinds", "card kind"), ("zones", "zone"),
          ("vars", "variable"), ("phases", "phase"), ("abilities", "ability"),
          ("rules", "rule"), ("defines", "define"))
_COMMENT = re.compile(r"^\s*#\s?(.*)$")


def build(ruleset: ir.Ruleset, sources: dict[str, str]) -> Index:
    """The :class:`Index` of a merged ruleset whose files' texts are ``sources``."""
    index = Index(sources=dict(sources))
    lines = {file: lines_of(text) for file, text in sources.items()}
    for attr, kind in _LISTS:
        for decl in getattr(ruleset, attr):
            whole = _extent(decl.span, lines.get(decl.span.file, []))
            index.decls.append(_decl(decl.name, kind, decl.span, lines, _doc(decl, lines),
                                     whole))
            if isinstance(decl, ir.EnumDecl):
                for value in decl.values:
                    index.decls.append(_decl(value.name, "enum value", value.span, lines,
                                             f"a value of enum {decl.name}"))
            if isinstance(decl, ir.KindDecl):
                for a in decl.attrs:
                    index.decls.append(_decl(a.name, "attribute", a.span, lines,
                                             f"an attribute of card {decl.name}"))
            if isinstance(decl, ir.PhaseDecl | ir.RuleDecl | ir.AbilityDecl):
                for node in ir.walk(decl):
                    for name in _locals(node):
                        index.decls.append(_decl(name, "local", node.span, lines,
                                                 f"a local name in {decl.name}",
                                                 whole))
    return index


def _extent(span: Span, text: list[str]) -> Span:
    """The whole of the top-level declaration starting on ``span``'s line: up to the last
    line before the next line that starts at the margin (blank and comment lines at its
    end left out)."""
    last = span.line
    for row in range(span.line + 1, len(text) + 1):
        line = text[row - 1]
        if line.strip() and not line.lstrip().startswith("#"):
            if not line[0].isspace():
                break
            last = row
    end = len(text[last - 1]) + 1 if 0 < last <= len(text) else span.end_col
    return Span(file=span.file, line=span.line, col=1, end_line=last, end_col=end)


def _locals(node: ir.Node) -> list[str]:
    """The names a statement binds for the statements after it (``let``, ``chooses``, loop
    variables, a trick's played card)."""
    if isinstance(node, ir.Let | ir.Choose):
        return [node.name]
    if isinstance(node, ir.ForEachPlayer | ir.ForEachIn):
        return [node.var]
    if isinstance(node, ir.Repeat) and node.var:
        return [node.var]
    if isinstance(node, ir.Trick):
        return [node.card_var]
    return []


def _doc(decl: ir.Node, lines: dict[str, list[str]]) -> str:
    """An option's doc, the declaration's English label, and the comment above it."""
    parts = []
    doc = getattr(decl, "doc", "")
    if doc:
        parts.append(doc)
    labels = getattr(decl, "labels", None)
    if isinstance(labels, ir.Labels) and labels.text:
        parts.append(f'shown as "{labels.text}"')
    above: list[str] = []
    text = lines.get(decl.span.file, [])
    row = decl.span.line - 2
    while 0 <= row < len(text) and (m := _COMMENT.match(text[row])):
        above.insert(0, m.group(1))
        row -= 1
    if above:
        parts.append("\n".join(above))
    return "\n\n".join(parts)


def _decl(name: str, kind: str, span: Span, lines: dict[str, list[str]], doc: str,
          whole: Span | None = None) -> Decl:
    """A :class:`Decl` whose span is narrowed to where ``name`` is written on the
    declaration's line (a node's span starts at its keyword)."""
    text = lines.get(span.file, [])
    first = text[span.line - 1] if 0 < span.line <= len(text) else ""
    at = span
    for row in range(span.line, min(span.line + 3, len(text) + 1)):
        line_text = text[row - 1]
        start = span.col - 1 if row == span.line else 0
        m = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)").search(line_text, start)
        if m:
            at = Span(file=span.file, line=row, col=m.start() + 1, end_line=row,
                      end_col=m.end() + 1)
            break
    return Decl(name, kind, at, whole or span, first.strip(), doc)
