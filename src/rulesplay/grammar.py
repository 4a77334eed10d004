"""The Lark parser of the language (built once per process) and its indentation rule.

``grammar.lark`` holds the grammar; this module builds the LALR parser from it with a
post-lexer that turns indentation into ``_INDENT``/``_DEDENT`` tokens like Python, plus one
rule of our own: a line indented deeper than the line before continues that line, unless
the line before ended with ``:`` (which opens a block).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources

from lark import Lark, Token
from lark.exceptions import LarkError
from lark.indenter import Indenter

from .names import normal

# Columns a tab counts for, in blocks and in messages about them.
TAB_LEN = 8


def indent_width(text: str, tab: int = TAB_LEN) -> int:
    """Indentation of ``text`` (a line, or what follows a line end) as the indenter counts it:
    a space is 1 column, a tab moves to the next tab stop (every ``tab`` columns), as in
    Python."""
    lead = text[:len(text) - len(text.lstrip(" \t"))]
    return len(lead.expandtabs(tab))


class _RulesIndenter(Indenter):
    """Python-style blocks, plus continuation lines.

    Uses only Lark's public hooks: the abstract token names, ``tab_len``, and ``process``,
    which we wrap to drop the line ends of continuation lines before Lark's own
    indentation logic sees them.
    """

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = TAB_LEN

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        """The token stream with indentation tokens; continuation line ends removed.

        Each parse counts its blocks and brackets in a copy of its own: the parser is one
        per process, and a server parses in several threads at once (a page's pasted text
        while simulations load their rulesets)."""
        own = copy.copy(self)
        # Lark's Indenter.process has no annotations.
        return super(_RulesIndenter, own).process(  # type: ignore[no-untyped-call,no-any-return]
            own._join_continuations(stream))

    def _join_continuations(self, stream: Iterable[Token]) -> Iterator[Token]:
        # Lark pulls each token only after it has handled the one before, so
        # ``indent_level`` here is the indentation of the enclosing block at this token.
        prev: Token | None = None
        for token in stream:
            continuation = (token.type == self.NL_type and prev is not None
                            and prev.type != "COLON"
                            and indent_width(token.rsplit("\n", 1)[1]) > self.indent_level[-1])
            if token.type == self.NL_type and "\t" in token:  # tab stops, not 8 columns each
                head, lead = token.rsplit("\n", 1)
                token = Token.new_borrow_pos(token.type, f"{head}\n{lead.expandtabs(TAB_LEN)}",
                                             token)
            if token.type == "NAME" and not token.isascii():
                token = Token.new_borrow_pos("NAME", normal(token), token)  # as Python does
            if not continuation:
                yield token
            prev = token


@cache
def language_word(name: str, assigned: bool = False) -> bool:
    """Whether ``name`` cannot be used as a name: an expression reads it as a word of the
    language (``left``/``right`` of ``left of``, ``not``), or, when ``assigned``, a statement
    ``name = ...`` reads it as a statement word (``move``, ``next``). Asked of the grammar
    itself, so a word added to it is covered."""
    try:
        tree = parser().parse(name, start="expr_only")
        if getattr(tree.children[0], "data", None) != "name":
            return True
        if assigned:
            parser().parse(f"phase p:\n    {name} = 1\n", start="start")
    except LarkError:
        return True
    return False


@cache
def parser() -> Lark:
    """The LALR parser for the language, built once per process.

    Two entry points: ``start`` (a whole ruleset) and ``expr_only`` (one expression, for the
    ``{placeholders}`` of display texts).
    """
    text = resources.files("rulesplay").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(
        text,
        parser="lalr",
        postlex=_RulesIndenter(),
        propagate_positions=True,
        maybe_placeholders=True,
        start=["start", "expr_only"],
    )
