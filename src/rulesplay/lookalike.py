"""What a name looks like on screen: Unicode TR39-style skeletons, so that two names that
only look alike (Latin ``a``, Cyrillic ``а``) can be told apart in messages. Imports
nothing of the package, so the lowest layer (:mod:`rulesplay.errors`) may use it."""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import confusables


def named(ch: str) -> str:
    """A character by code point and Unicode name: ``U+0430 CYRILLIC SMALL LETTER A``."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, '?')}"


def lookalike_note(name: str, other: str) -> str | None:
    """When ``name`` and ``other`` look alike on screen but differ, the characters that
    differ, named: ``this one has U+0061 LATIN SMALL LETTER A where 'hаnd' has U+0430
    CYRILLIC SMALL LETTER A: they look alike``; else None."""
    if name == other or skeleton(name) != skeleton(other):
        return None
    if len(name) != len(other):
        odd = [ch for ch in dict.fromkeys(name + other) if not ch.isascii()]
        return f"they look alike, but differ in {', '.join(named(ch) for ch in odd[:3])}"
    pairs = list(dict.fromkeys((a, b) for a, b in zip(name, other, strict=True) if a != b))
    mine = ", ".join(named(a) for a, _ in pairs[:3])
    theirs = ", ".join(named(b) for _, b in pairs[:3])
    return f"this one has {mine} where '{other}' has {theirs}: they look alike"


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


