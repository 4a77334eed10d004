"""Syntax highlighting of ``.rules`` files: a Pygments lexer.

The keywords are read from the grammar (:mod:`rulesplay.keywords`), so the lexer cannot
drift from the language; the builtin functions come from
:data:`rulesplay.validate.BUILTINS`. The lexer is registered as the Pygments plugin
``rules`` (the ``pygments.lexers`` entry point), so after ``pip install
'rulesplay[highlight]'`` ``pygmentize -l rules FILE.rules`` (and Sphinx, MkDocs) highlight
rulesets. The TextMate grammar for VS Code-like editors is
``editors/textmate/rules.tmLanguage.json``; a test checks its keywords against
:func:`rulesplay.keywords.grammar_keywords`.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text

from .keywords import CONSTANTS, ZONE_WORDS, grammar_keywords
from .validate.functions import BUILTINS


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
