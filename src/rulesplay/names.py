"""Names in a ruleset: one spelling per name, and a warning for names that only look alike.

Identifiers are normalised to Unicode NFKC, as Python does (``ｒｏｕｎｄ`` and ``round`` are
one name, so are ``ﬁnal`` and ``final``). Letters that look alike (Latin ``o``, Cyrillic
``о``, Greek ``ο``; Latin ``a`` and ``ɑ``, ``i`` and ``ı``) are not folded - they are
different letters - but a name that mixes those scripts, or two names with one
:func:`skeleton`, gets a warning, so a name that looks right but is not cannot hide in a
ruleset (issue 13, item 8).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from confusable_homoglyphs import categories

from .errors import Diagnostic, Span
from .lookalike import named, skeleton

# Scripts whose letters are mistaken for each other; others (kana, han...) mix freely.
LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[^\W\d]\w*')


def normal(name: str) -> str:
    """``name`` as the language reads it (NFKC)."""
    return unicodedata.normalize("NFKC", name)


def identifiers(text: str, file: str) -> Iterator[tuple[str, Span]]:
    """Every identifier in ruleset text (not in strings or comments), normalised, with its
    span."""
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
        for m in _TOKEN.finditer(line):
            word = m.group()
            if word[0] in '"#':
                continue
            yield normal(word), Span(file=file, line=number, col=m.start() + 1,
                                     end_line=number, end_col=m.end() + 1)


def lookalike_warnings(sources: dict[str, str]) -> list[Diagnostic]:
    """Warnings for names that mix Latin, Cyrillic or Greek letters, and for two names that
    differ only by letters that look alike; each name is reported once, where it first
    appears.

    Args:
        sources: file -> ruleset text.
    """
    out: list[Diagnostic] = []
    first: dict[str, Span] = {}
    for file, text in sources.items():
        for name, span in identifiers(text, file):
            first.setdefault(name, span)
    by_skeleton: dict[str, str] = {}  # skeleton -> the first name with it, ASCII ones first
    for name in first:
        if name.isascii():
            by_skeleton.setdefault(skeleton(name), name)
    for name, span in first.items():
        if name.isascii():
            continue
        scripts = categories.unique_aliases(name) & LOOKALIKE_SCRIPTS
        shape = skeleton(name)
        twin = by_skeleton.get(shape)
        if twin is not None and twin != name:
            out.append(Diagnostic(
                f"'{name}' looks like '{twin}' but is another name ({_letters(name)})", span,
                severity="warning"))
        elif len(scripts) > 1:
            out.append(Diagnostic(
                f"'{name}' mixes {' and '.join(sorted(s.title() for s in scripts))} letters "
                f"({_letters(name)}); names that look alike are easy to mistake",
                span, severity="warning"))
        by_skeleton.setdefault(shape, name)
    return out


def _letters(name: str) -> str:
    """The letters of ``name`` that are not ASCII, named."""
    odd = [ch for ch in dict.fromkeys(name) if not ch.isascii()]
    return ", ".join(named(ch) for ch in odd[:3])
