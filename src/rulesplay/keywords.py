"""The words of the language, read from its grammar: for highlighting, completion and the
docs' tests, so no list of keywords is kept by hand.

The grammar (``grammar.lark``) has two kinds of keyword: quoted words in its rules
(``"phase"``) and words in its keyword terminals (``SIGHT.2: /(reveal|hide)\\b/``). Zone
flags (``shared``, ``per player``...) are plain names to the grammar; they come from
:data:`rulesplay.ir.ZONE_FLAGS`.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from .ir import ZONE_FLAGS

CONSTANTS = ("yes", "no", "true", "false", "none")
"""The literal words (highlighted as constants, not keywords)."""

ZONE_WORDS = tuple(sorted({w for flag in ZONE_FLAGS for w in flag.split()}))
"""The words of a zone's flags (``shared``, ``per player``, ``top``...), which the grammar
reads as plain names: highlighted as modifiers."""

# Pieces of a terminal's regular expression that are not words of the language.
_REGEX_NOISE = re.compile(r"\\[a-zA-Z]|\[[^\]]*\]|\{\d+(,\d+)?\}")


@cache
def grammar_keywords() -> frozenset[str]:
    """Every word of the language: the quoted words of ``grammar.lark`` (``"phase"``) and
    the words in its keyword terminals (``SIGHT.2: /(reveal|hide)\\b/``: reveal, hide),
    including the literal words :data:`CONSTANTS`. Read from the installed grammar file."""
    text = resources.files("rulesplay").joinpath("grammar.lark").read_text(encoding="utf-8")
    text = "\n".join(line.split("//")[0] for line in text.splitlines())  # drop comments
    found = set(re.findall(r'"([a-z]+)"', text))
    for pattern in re.findall(r"^[A-Z_]+(?:\.\d+)?:\s*/(.*)/\s*$", text, re.M):
        found.update(re.findall(r"[a-z]{2,}", _REGEX_NOISE.sub(" ", pattern)))
    return frozenset(found)
