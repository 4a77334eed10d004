"""Display texts: literal parts and ``{expr}`` placeholders, each parsed into an expression.

A label such as ``"{colour} {number}"`` or a ``say`` line is split into text and expressions
(``{{`` and ``}}`` are literal braces); the validator types the expressions and the engine
shows their values. Inside a placeholder a string literal is written in single quotes
(``"{' alone' if alone else ''}"``), since a double quote would end the label. Each
placeholder is parsed with the grammar's ``expr_only`` entry point, with spans moved to
where it sits in its file, so a mistake inside one points at it.
"""

from __future__ import annotations

from typing import Any

from lark import Token
from lark.exceptions import LarkError, UnexpectedInput, VisitError

from . import ir
from .errors import RulesSyntaxError, Span
from .grammar import parser
from .parse import ToIR, check_depth


def parse_template(text: str, span: Span, col: int | None = None) -> list[str | ir.Expr]:
    """Split a display text into literal parts and ``{expr}`` placeholders (``{{`` is a brace).

    Args:
        text: the display text (quotes removed).
        span: the span of the text's labels; diagnostics point there.
        col: the file column of ``text``'s first character on ``span.line``, when known, so
            a placeholder's diagnostics point at the placeholder itself.

    Raises:
        RulesSyntaxError: an unclosed ``{`` or a placeholder that is not an expression.
    """
    parts: list[str | ir.Expr] = []
    i, literal = 0, ""
    while i < len(text):
        ch = text[i]
        if ch == "{" and text.startswith("{{", i):
            literal, i = literal + "{", i + 2
        elif ch == "}" and text.startswith("}}", i):
            literal, i = literal + "}", i + 2
        elif ch == "{":
            here = span if col is None else Span(file=span.file, line=span.line,
                                                 col=col + i, end_line=span.line,
                                                 end_col=col + i + 1)
            end, source = _placeholder(text, i, here, span, col)
            if literal:
                parts.append(literal)
                literal = ""
            parts.append(parse_expr(source, here if col is None else span,
                                    None if col is None else col + i + 1))
            i = end + 1
        else:
            literal, i = literal + ch, i + 1
    if literal:
        parts.append(literal)
    return parts


def _placeholder(text: str, i: int, here: Span, span: Span,
                 col: int | None) -> tuple[int, str]:
    """The end (index of its ``}``) and the expression source of the placeholder opened at
    ``text[i]``; its single-quoted string literals become the grammar's double-quoted ones.

    Raises:
        RulesSyntaxError: no ``}`` closes the placeholder, or a ``'`` opens a literal that
            no ``'`` closes before the text ends.
    """
    out, j = [], i + 1
    while j < len(text) and text[j] != "}":
        if text[j] != "'":
            out.append(text[j])
            j += 1
            continue
        close = text.find("'", j + 1)
        if close < 0:
            at = here if col is None else Span(file=span.file, line=span.line, col=col + j,
                                               end_line=span.line, end_col=col + j + 1)
            raise RulesSyntaxError(f"unclosed \"'\" in the placeholder of text {text!r}: a "
                                   "string literal in a placeholder is written 'like this'",
                                   at)
        inner = text[j + 1:close].replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'"{inner}"')
        j = close + 1
    if j >= len(text):
        raise RulesSyntaxError(f"unclosed '{{' in text {text!r} (write '{{{{' for a "
                               "brace)", here)
    return j, "".join(out)


def parse_expr(text: str, span: Span, col: int | None = None) -> ir.Expr:
    """Parse one expression, e.g. the ``card.colour`` of a ``{card.colour}`` placeholder.

    Args:
        text: the expression source.
        span: where the text sits in its file; diagnostics point there.
        col: the file column of ``text``'s first character on ``span.line``, when known;
            then every node gets its exact position, else every node gets ``span``.

    Raises:
        RulesSyntaxError: ``text`` is not an expression.
    """
    where = span if col is None else Span(file=span.file, line=span.line, col=col,
                                          end_line=span.line, end_col=col + len(text))
    try:
        tree = parser().parse(text, start="expr_only")
    except (UnexpectedInput, LarkError):
        shown = text if len(text) <= 60 else text[:57] + "..."  # (the caret shows where)
        raise RulesSyntaxError(f"'{{{shown}}}' is not an expression", where) from None
    try:
        check_depth(tree, text, span.file)
    except RulesSyntaxError as exc:  # at the placeholder in its file, not line 1 of it
        raise RulesSyntaxError(exc.message, where) from None
    try:
        # expr_only has no method: the result is its tree, holding the expression's node.
        expr: ir.Expr = _PlacedIR(span, col).transform(tree).children[0]
    except VisitError as exc:
        if isinstance(exc.orig_exc, RulesSyntaxError):
            raise exc.orig_exc from None
        raise
    return expr


class _PlacedIR(ToIR):
    """IR of a placeholder expression, with spans moved to where it sits in its file."""

    def __init__(self, anchor: Span, col: int | None) -> None:
        super().__init__(anchor.file)
        self.anchor, self.col = anchor, col

    def _place(self, start: int | None, end: int | None) -> Span:
        if self.col is None or not start:
            return self.anchor
        line = self.anchor.line
        return Span(file=self.file, line=line, col=self.col + start - 1, end_line=line,
                    end_col=self.col + (end or start + 1) - 1)

    def _span(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return self.anchor
        return self._place(meta.column, meta.end_column)

    def _tok_span(self, tok: Token) -> Span:
        return self._place(tok.column, tok.end_column)
