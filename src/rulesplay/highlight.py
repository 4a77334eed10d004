"""Syntax highlighting of ``.rules`` files: a Pygments lexer, and the language's keywords.

The keywords are read from the grammar (``grammar.lark``: its quoted words and the words of
its keyword terminals), so the lexer cannot drift from the language; the builtin functions
come from :data:`rulesplay.validate.BUILTINS`. The lexer is registered as the Pygments
plugin ``rules`` (the ``pygments.lexers`` entry point), so after ``pip install
'rulesplay[highlight]'`` ``pygmentize -l rules FILE.rules`` (and Sphinx, MkDocs) highlight
rulesets. The TextMate grammar for VS Code-like editors is
``editors/textmate/rules.tmLanguage.json``; a test checks its keywords against
:func:`grammar_keywords`.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text

from .ir import ZONE_FLAGS
from .validate.functions import BUILTINS

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


class RulesLexer(RegexLexer):
    """A Pygments lexer for the rulesplay language (``.rules`` and included ``.part``
    files): comments, texts with ``{EXPR}`` placeholders, ``@ja`` language tags, numbers,
    operators, keywords (:func:`grammar_keywords`), builtin calls and names. Every
    character of a valid ruleset gets a token other than ``Error``."""

    name = "rulesplay rules"
    aliases = ["rules", "rulesplay"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulesplay"]
    url = "https://github.com/rulesplay/rulesplay"

    tokens = {
        "root": [
            (r"#.*?$", Comment.Single),
            (r'"', String.Double, "text"),
            (r"@[a-z]{2,3}\b", Name.Decorator),
            (r"\d+", Number.Integer),
            (r"==|!=|<=|>=|\+=|-=|\.\.|[-+*/%<>=|]", Operator),
            (r"[()\[\]{},:.]", Punctuation),
            (r"\\[ \t\f]*\r?\n", Text),
            (r"\s+", Text.Whitespace),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(sorted(BUILTINS), suffix=r"(?=\s*\()"), Name.Builtin),
            (words(sorted(grammar_keywords() - set(CONSTANTS)), prefix=r"\b",
                   suffix=r"\b"), Keyword),
            (words(ZONE_WORDS, prefix=r"\b", suffix=r"\b"), Keyword.Pseudo),
            (r"[^\W\d]\w*", Name),
        ],
        "text": [
            (r'\\.', String.Escape),
            (r"\{[^}\"\n]*\}", String.Interpol),
            (r'"', String.Double, "#pop"),
            (r'[^"\\{\n]+|\{', String.Double),
            (r"\n", String.Double, "#pop"),  # an unclosed text ends at the line's end
        ],
    }
