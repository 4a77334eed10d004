"""Names in a ruleset: one spelling per name, and a warning for names that only look alike.

Identifiers are normalised to Unicode NFKC, as Python does (``ｒｏｕｎｄ`` and ``round`` are
one name, so are ``ﬁnal`` and ``final``). Letters that look alike (Latin ``o``, Cyrillic
``о``, Greek ``ο``; Latin ``a`` and ``ɑ``, ``i`` and ``ı``) are not folded - they are
different letters - but a name that mixes those scripts, or two names with one
:func:`skeleton`, gets a warning, so a name that looks right but is not cannot hide in a
ruleset (issue 13, item 8).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator

from confusable_homoglyphs import categories, confusables

from .errors import Diagnostic, Span

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


def skeleton(name: str) -> str:
    """What ``name`` looks like, in the manner of Unicode TR39's skeletons: its letters
    decomposed (NFKD) without their marks, then each replaced by one chosen member of its
    class of lookalikes (the Unicode confusables data, whatever the script: Latin ``ɑ``
    and ``a``, Cyrillic ``о`` and Latin ``o``). Two names that look alike have one
    skeleton; the skeleton itself is only for comparing."""
    bare = (ch for ch in unicodedata.normalize("NFKD", name) if not unicodedata.combining(ch))
    shape = _lookalikes()
    return "".join(shape.get(ch, ch) for ch in bare)


@functools.cache
def _lookalikes() -> dict[str, str]:
    """Character -> the one member chosen for its class of lookalikes (the lowest code
    point): the classes join every character to those the confusables data says it may be
    taken for, one character for one (not ``m`` for ``rn``)."""
    parent: dict[str, str] = {}

    def root(ch: str) -> str:
        while parent.get(ch, ch) != ch:
            ch = parent[ch]
        return ch

    for ch, glyphs in confusables.confusables_data.items():
        for glyph in glyphs:
            other = glyph["c"]
            if len(ch) == 1 and len(other) == 1:
                a, b = root(ch), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {ch: root(ch) for ch in parent}


def _letters(name: str) -> str:
    """The letters of ``name`` that are not ASCII, named."""
    odd = [ch for ch in dict.fromkeys(name) if not ch.isascii()]
    return ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}" for ch in odd[:3])
