"""Positions between rulesplay's spans and the editor's: lines and columns as each counts.

rulesplay counts 1-based lines (ended by LF, CRLF or CR, as the parser does) and 1-based
columns in characters (code points). The Language Server Protocol counts 0-based lines and
0-based columns in the code units of the negotiated encoding: UTF-16 unless the editor
negotiated another, so a character outside the Basic Multilingual Plane (an emoji in a label)
takes two columns there.
"""

from __future__ import annotations

import re

from ..errors import Span

_LINE_END = re.compile(r"\r\n|\r|\n")
_WORD = re.compile(r"[^\W\d]\w*|\d+")


def lines_of(text: str) -> list[str]:
    """The lines of ``text`` as the parser counts them (no line ends kept)."""
    return _LINE_END.split(text)


def units(text: str, encoding: str = "utf-16") -> int:
    """How many code units ``text`` takes in ``encoding`` ("utf-8", "utf-16" or "utf-32")."""
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def to_client(lines: list[str], line: int, col: int, encoding: str = "utf-16") -> tuple[int, int]:
    """An editor position ``(line, character)``, 0-based, of the 1-based ``line``, ``col``
    (in characters) of a span; a place past the text is clamped to it."""
    row = min(max(line, 1), max(len(lines), 1)) - 1
    text = lines[row] if row < len(lines) else ""
    return row, units(text[:max(col, 1) - 1], encoding)


def from_client(lines: list[str], line: int, character: int,
                encoding: str = "utf-16") -> tuple[int, int]:
    """The 0-based ``(line, index in characters)`` of an editor position (clamped)."""
    if not lines:
        return 0, 0
    row = min(max(line, 0), len(lines) - 1)
    text, used, index = lines[row], 0, 0
    while index < len(text) and used < character:
        used += units(text[index], encoding)
        index += 1
    return row, index


def span_range(lines: list[str], span: Span,
               encoding: str = "utf-16") -> tuple[tuple[int, int], tuple[int, int]]:
    """The editor range of ``span``: to its end where the span has one longer than a
    character, else over the word (or the character) it starts at, or, at the end of a line
    (a line that stops too soon), over the line's last character, so the editor underlines
    something visible."""
    start = to_client(lines, span.line, span.col, encoding)
    if span.end_line > span.line or (span.end_line == span.line and span.end_col > span.col + 1):
        return start, to_client(lines, span.end_line, span.end_col, encoding)
    row = start[0]
    text = lines[row] if row < len(lines) else ""
    index = max(span.col, 1) - 1
    word = _WORD.match(text, index)
    if word:
        return start, (row, units(text[:word.end()], encoding))
    if index >= len(text.rstrip()) and text.strip():  # past the line's last character
        last = len(text.rstrip()) - 1
        return (row, units(text[:last], encoding)), (row, units(text[:last + 1], encoding))
    return start, (row, units(text[:min(index + 1, len(text))], encoding))


def word_at(lines: list[str], row: int, index: int) -> tuple[str, int, int] | None:
    """The name under (or just before) the character ``index`` of line ``row``: ``(word,
    first index, end index)``, or None when there is none."""
    if not 0 <= row < len(lines):
        return None
    text = lines[row]
    for m in _WORD.finditer(text):
        if m.start() <= index <= m.end():
            return m.group(), m.start(), m.end()
    return None
