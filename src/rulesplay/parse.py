"""Text to IR: a transformer from Lark's parse tree to IR nodes, each with its span.

The transformer only builds nodes: it records what the text says (a clause given twice, an
unknown zone flag, a table row's cells) and leaves every judgement to the validator, so one
mistake never hides the others. Syntax errors (text the grammar does not accept) are
:class:`RulesSyntaxError` with ``file:line:col`` and what was expected (see
:mod:`rulesplay.parse_errors`).
"""

from __future__ import annotations

import ast
import builtins
import threading
from dataclasses import dataclass
from typing import Any, cast

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedInput, VisitError
from lark.indenter import DedentError

from . import ir
from .errors import RulesSyntaxError, Span
from .grammar import parser
from .parse_errors import (
    dedent_error,
    located,
    quoted,
    strip_comment,
    syntax_error,
    tab_error,
)


def parse_text(text: str, file: str = "<input>") -> ir.Ruleset:
    """Parse ruleset text into a :class:`ir.Ruleset`.

    Any text is accepted as input: a byte-order mark is dropped, CRLF and CR line ends read
    as LF, and whatever is not a ruleset raises :class:`RulesSyntaxError` (never another
    exception).

    Args:
        text: the whole ruleset source.
        file: the path used in spans and diagnostics.

    Raises:
        RulesSyntaxError: the text is not in the language, or longer than
            :data:`MAX_SOURCE_CHARS`; the diagnostic names what was expected at the failing
            position.
    """
    if len(text) > MAX_SOURCE_CHARS:
        raise RulesSyntaxError(f"the file is too large for a ruleset ({len(text):,} "
                               f"characters; at most {MAX_SOURCE_CHARS:,})",
                               Span(file=file, line=1, col=1))
    text = normalize_newlines(text.removeprefix("\ufeff"))
    if "\x00" in text:  # (at the first NUL: a stray one in a text file is found there)
        at = text.index("\x00")
        raise located("the file is binary, not a ruleset (it contains NUL bytes)", file,
                      text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at), text)
    if not any(line.strip(" \t\f") and not line.strip(" \t\f").startswith("#")
               for line in text.split("\n")):
        part = file.endswith(".part")
        empty = "the file is empty" if not text.strip() else \
            "the file holds only comments, no declarations" if part else \
            "the file holds only comments, no 'game' line"
        raise located(f"{empty}; a ruleset part holds declarations (enum, card, zone, var, "
                      "phase...)" if part else
                      f"{empty}; a ruleset starts with a line like 'game \"Title\"'",
                      file, 1, 1, text)
    if not text.endswith("\n"):
        text += "\n"
    mixed = tab_error(text, file)
    if mixed is not None:
        raise mixed
    try:
        tree = parser().parse(text, start="start")
    except UnexpectedInput as exc:
        raise syntax_error(exc, text, file) from None
    except DedentError:
        raise dedent_error(text, file) from None
    except LarkError as exc:  # pragma: no cover - any other parser failure, still located
        raise located(f"syntax error ({exc})", file, 1, 1, text) from None
    check_depth(tree, text, file)
    try:
        ruleset = ToIR(file, text).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, RulesSyntaxError):
            raise exc.orig_exc.attach_source({file: text}) from None
        raise
    assert isinstance(ruleset, ir.Ruleset)  # what ToIR.start builds
    return ruleset


def normalize_newlines(text: str) -> str:
    """``text`` with CRLF and lone CR line ends turned into LF (what the grammar reads)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


# Longer numbers are refused by the validator (a ruleset counts cards, seats and points).
# The longest ruleset file (the shipped ones are under 30 kB): reading and parsing stay
# quick and small whatever a file holds.
MAX_SOURCE_CHARS = 1_000_000
MAX_DIGITS = 18
# Longer ones cannot even become a value (Python's own limit): a syntax error.
MAX_READ_DIGITS = 4300

# Deeper parse trees (an expression inside hundreds of operators, blocks nested hundreds
# deep) are refused: every later stage walks the tree recursively. Parentheses around one
# expression nest nothing (they make no node), and a chain of terms joined by operators of
# one kind (``a + b - c``, ``x and y and z``) is one level, however long.
MAX_DEPTH = 100
# But a chain becomes one operation inside the next (left to right), so the terms of the
# chains and the levels around them count together too: at most this many in all (the code
# an expression compiles to holds one bracket per operation, and Python reads 200 at most).
MAX_TERMS = 160

_CHAINS = {"and_expr": "and", "or_expr": "or"}  # a chain of n terms in one node


def _chain_kind(node: Tree[Token]) -> str | None:
    """The kind of operator chain ``node`` is (``+``/``-``, ``*``/``/``/``%``, ``and``,
    ``or``), or None when it is none."""
    if node.data in _CHAINS:
        return _CHAINS[node.data]
    if node.data == "arith" and isinstance(node.children[1], Token):
        return node.children[1].type  # ADD_OP or MUL_OP: one precedence, one chain
    return None


def check_depth(tree: Tree[Token], text: str, file: str) -> None:
    """Refuse a parse tree nested more than :data:`MAX_DEPTH` levels deep, or whose chains of
    terms and levels make more than :data:`MAX_TERMS` operations inside one another (later
    stages recurse). A chain of terms joined by operators of one kind is one level.

    Raises:
        RulesSyntaxError: at the first node too deep, in ``file`` (``text`` for the caret).
    """
    # node, its levels, its depth as evaluated (each operation of a chain one more), whether
    # it goes on its parent's chain
    stack: list[tuple[Tree[Token], int, int, bool]] = [(tree, 1, 1, False)]
    while stack:
        node, levels, depth, goes_on = stack.pop()
        kind = _chain_kind(node)
        terms = _terms(node, kind) if kind is not None and not goes_on else 0
        if levels > MAX_DEPTH or depth + max(terms - 2, 0) > MAX_TERMS:
            meta = node.meta
            line = getattr(meta, "line", 1) if not getattr(meta, "empty", True) else 1
            col = getattr(meta, "column", 1) if not getattr(meta, "empty", True) else 1
            message = (f"this is nested too deeply (more than {MAX_DEPTH} levels of "
                       "expressions or blocks); split it up with 'let'") if levels > MAX_DEPTH \
                else (f"this has too many terms: {terms:,} joined by '{_shown(kind)}', inside "
                      f"{levels} levels of expressions or blocks (at most {MAX_TERMS} terms "
                      "and levels in all); split it up with 'let'")
            raise located(message, file, line, col, text)
        trees = [child for child in node.children if isinstance(child, Tree)]
        for i, child in enumerate(trees):
            if kind in ("and", "or"):  # n terms: the first n - 1 operations deep
                stack.append((child, levels + 1, depth + len(trees) - max(i, 1), False))
            elif kind is not None and i == 0 and _chain_kind(child) == kind:
                stack.append((child, levels, depth + 1, True))  # the chain goes on
            else:
                stack.append((child, levels + 1, depth + 1, False))


def _terms(node: Tree[Token], kind: str) -> int:
    """How many terms the chain of operators ``kind`` that starts at ``node`` joins."""
    if kind in ("and", "or"):
        return sum(isinstance(child, Tree) for child in node.children)
    here: Tree[Token] | Token = node
    terms = 1
    while isinstance(here, Tree) and _chain_kind(here) == kind:
        terms += 1
        here = here.children[0]
    return terms


def _shown(kind: str | None) -> str:
    """An operator chain's kind as a reader knows it."""
    return {"ADD_OP": "+' and '-", "MUL_OP": "*', '/' and '%"}.get(kind or "", kind or "")


def _any(value: Any) -> Any:
    """``value`` untyped: the grammar guarantees it is one of a Literal's words."""
    return value


# Python 3.11's ast constructor counts recursion per interpreter, not per thread: two threads
# reading a string at once (a server checking a page's text while a simulation loads) can
# fail with "AST constructor recursion depth mismatch". One at a time, then.
_AST_LOCK = threading.Lock()


def _unquote(token: Token) -> str:
    try:
        with _AST_LOCK:
            return str(ast.literal_eval(str(token)))
    except (ValueError, SyntaxError):
        return str(token)[1:-1]


# Items the transformer passes up to the rule that assembles them (no logic, only shape).
@dataclass(frozen=True)
class _Decl:
    """A declaration for one of the Ruleset's lists; ``field`` names the list."""

    field: str
    node: Any


@dataclass(frozen=True)
class _SeenBy:
    """A zone's ``seen by EXPR`` flag: the seats that see it besides the declared ones."""

    seers: Any


@dataclass(frozen=True)
class _Once:
    """A line a ruleset has once (``game``, ``score:`` ...): the Ruleset fields it sets."""

    word: str
    fields: dict[str, Any]
    span: Span


@dataclass(frozen=True)
class _Replaced:
    """``replace DECL``: the declaration, and the override that says it replaces the base's."""

    decl: _Decl
    marker: ir.Override


@dataclass(frozen=True)
class _KindPart:
    """One line of a card kind other than an attribute: copies, label, short name, table."""

    field: str
    value: Any


# The word that starts each line of a card kind other than an attribute, by its field.
_KIND_WORDS = {"copies": "copies", "card_label": "label", "short": "short", "rows": "table"}


def _as_written(words: list[str], printed: list[str]) -> list[str]:
    """``words`` (the lines or clauses of a node as the file orders them, each once) when
    the printer would write them otherwise (its order: ``printed``), else nothing."""
    seen = list(dict.fromkeys(words))
    return seen if seen != [w for w in printed if w in seen] else []


@dataclass(frozen=True)
class _Row:
    """A card table row: its cells as written."""

    cells: list[Any]
    span: Span


@dataclass(frozen=True)
class _Part:
    """A clause that goes to ``table[key]`` of its node (``modify STAT``, ``won by``);
    ``word`` is how the file says it, for the report of one given twice."""

    table: str
    key: str
    value: Any
    word: str
    span: Span


@dataclass(frozen=True)
class _Elif:
    """``elif TEST: BODY``."""

    test: Any
    body: list[Any]


@dataclass(frozen=True)
class _LangText:
    """A display text in another language: ``@ja "..."``."""

    lang: str
    text: str


@v_args(meta=True)
class ToIR(Transformer[Token, Any]):
    """Lark parse tree (of the ``start`` or ``expr_only`` rule) to IR nodes; each node gets
    the span of its tree node.

    It only builds nodes: parts the IR has no slot for are kept as :class:`ir.Word` for the
    validator (see :class:`ir.Written`). Raises nothing itself but a
    :class:`RulesSyntaxError` for a number too long to read (wrapped by Lark in
    ``VisitError``).

    Args:
        file: the path used in every span.
        text: the whole source, when known; spans of rules that end with a line end then
            stop at their last code character.
    """

    def __init__(self, file: str, text: str | None = None) -> None:
        super().__init__()
        self.file = file
        self.text = text

    def _span(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return Span(file=self.file)
        if self.text is not None and meta.end_line > meta.line:
            return self._trimmed(meta)
        return Span(file=self.file, line=meta.line, col=meta.column,
                    end_line=meta.end_line, end_col=meta.end_column)

    def _trimmed(self, meta: Any) -> Span:
        """The span of a node whose rule ends with a line end: it stops at its last code
        character, not at the start of the next line."""
        assert self.text is not None
        seg = self.text[meta.start_pos:meta.end_pos]
        lines = seg.split("\n")
        while len(lines) > 1 and not strip_comment(lines[-1]).strip():
            lines.pop()
        lines[-1] = strip_comment(lines[-1]).rstrip()
        end_line = meta.line + len(lines) - 1
        end_col = len(lines[-1]) + (meta.column if len(lines) == 1 else 1)
        return Span(file=self.file, line=meta.line, col=meta.column, end_line=end_line,
                    end_col=end_col)

    def _tok_span(self, tok: Token) -> Span:
        return Span(file=self.file, line=tok.line or 0, col=tok.column or 0,
                    end_line=tok.end_line or 0, end_col=tok.end_column or 0)

    def _int(self, tok: Token) -> int:
        """The value of an INT token (the validator limits it to :data:`MAX_DIGITS` digits).

        Raises:
            RulesSyntaxError: more than :data:`MAX_READ_DIGITS` digits: not even a value.
        """
        digits = str(tok).lstrip("0") or "0"
        if len(digits) > MAX_READ_DIGITS:
            raise RulesSyntaxError(f"the number {quoted(str(tok))} is too large (at most "
                                   f"{MAX_DIGITS} digits)", self._tok_span(tok))
        return int(digits)

    # ------------------------------------------------------------ top level
    def start(self, meta: Any, items: list[_Decl | _Once | _Replaced]) -> ir.Ruleset:
        fields: dict[str, Any] = {}
        seen: set[str] = set()
        duplicates: list[ir.Word] = []
        for item in items:
            if isinstance(item, _Replaced):
                fields.setdefault(item.decl.field, []).append(item.decl.node)
                fields.setdefault("overrides", []).append(item.marker)
            elif isinstance(item, _Decl):
                fields.setdefault(item.field, []).append(item.node)
            else:
                if item.word in seen:
                    duplicates.append(ir.Word(span=item.span, text=item.word))
                seen.add(item.word)
                fields.update(item.fields)
        if duplicates:
            fields["duplicates"] = duplicates
        return ir.Ruleset(span=Span(file=self.file, line=1, col=1), **fields)

    def game_decl(self, meta: Any, items: list[Any]) -> _Once:
        title, labels = items
        return self._once("game", meta, title=ir.Labels(
            span=self._span(meta), text=_unquote(title), other=labels.other))

    def players_decl(self, meta: Any, items: list[Any]) -> _Once:
        low = self._int(items[0])
        high = low if items[1] is None else self._int(items[1])
        usual = None if items[2] is None else self._int(items[2])
        return self._once("players", meta, min_players=low, max_players=high,
                          usual_players=usual, players_span=self._span(meta))

    def author_decl(self, meta: Any, items: list[Any]) -> _Once:
        return self._once("author", meta, author=_unquote(items[0]))

    def about_decl(self, meta: Any, items: list[Any]) -> _Once:
        return self._once("about", meta, about=_unquote(items[0]))

    def extends_decl(self, meta: Any, items: list[Any]) -> _Once:
        return self._once("extends", meta, extends=_unquote(items[0]),
                          extends_span=self._tok_span(items[0]))

    def winners_decl(self, meta: Any, items: list[Any]) -> _Once:
        return self._once("winners:", meta, winners=items[0])

    def start_decl(self, meta: Any, items: list[Any]) -> _Once:
        return self._once("start", meta, start=str(items[0]), start_span=self._span(meta))

    def score_decl(self, meta: Any, items: list[Any]) -> _Once:
        return self._once("score:", meta, score=items[0])

    def teams_decl(self, meta: Any, items: list[Any]) -> _Once:
        return self._once("teams:", meta, teams=items[0])

    def _once(self, word: str, meta: Any, **fields: Any) -> _Once:
        return _Once(word, fields, self._span(meta))

    def tiebreak_decl(self, meta: Any, items: list[Any]) -> _Decl:
        return _Decl("tiebreaks", items[0])

    _OVERRIDE_WHAT: dict[str, Any] = {"options": "option", "enums": "enum", "kinds": "card",
                                      "zones": "zone", "vars": "var", "phases": "phase",
                                      "abilities": "ability", "rules": "rule",
                                      "defines": "define"}

    def replace_decl(self, meta: Any, items: list[Any]) -> _Decl | _Replaced:
        decl: _Decl = items[0]
        if decl.field == "overrides":  # 'replace option x = v' is just a new default
            return decl
        return _Replaced(decl, ir.Override(span=decl.node.span, action="replace",
                                           what=self._OVERRIDE_WHAT[decl.field],
                                           name=decl.node.name))

    def remove_decl(self, meta: Any, items: list[Any]) -> _Decl:
        return _Decl("overrides", ir.Override(span=self._tok_span(items[1]), action="remove",
                                              what=_any(str(items[0].children[0])),
                                              name=str(items[1])))

    def option_default(self, meta: Any, items: list[Any]) -> _Decl:
        name, default, doc = items
        return _Decl("overrides", ir.Override(span=self._tok_span(name), action="default",
                                              what="option", name=str(name), value=default,
                                              doc=doc))

    def limit_decl(self, meta: Any, items: list[Any]) -> _Decl:
        return _Decl("limits", ir.LimitDecl(span=self._span(meta), name=str(items[0]),
                                            value=self._int(items[1])))

    def include_decl(self, meta: Any, items: list[Any]) -> _Decl:
        return _Decl("includes", (_unquote(items[0]), self._span(meta)))

    def doc(self, meta: Any, items: list[Any]) -> str:
        return " ".join(_unquote(t) for t in items if t is not None)

    def option_decl(self, meta: Any, items: list[Any]) -> _Decl:
        name, typ, default, doc = items
        return _Decl("options", ir.OptionDecl(span=self._tok_span(name), name=str(name),
                                              default=default, doc=doc, **typ))

    def int_type(self, meta: Any, items: list[Any]) -> dict[str, Any]:
        lo, hi = items
        return {"type": "int", "lo": lo if isinstance(lo, int) else None,
                "hi": hi if isinstance(hi, int) else None,
                "lo_at": None if isinstance(lo, int) else lo,
                "hi_at": None if isinstance(hi, int) else hi}

    def bool_type(self, meta: Any, items: list[Any]) -> dict[str, Any]:
        return {"type": "bool"}

    def choice_type(self, meta: Any, items: list[Any]) -> dict[str, Any]:
        return {"type": "choice", "choices": [str(t) for t in items]}

    def pos_int(self, meta: Any, items: list[Any]) -> int:
        return self._int(items[0])

    def neg_int(self, meta: Any, items: list[Any]) -> int:
        return -self._int(items[0])

    def enum_decl(self, meta: Any, items: list[Any]) -> _Decl:
        name, labels, *groups = items
        values = [v for group in groups for v in group]
        return _Decl("enums", ir.EnumDecl(span=self._tok_span(name), name=str(name),
                                          values=values, labels=labels))

    def enum_values(self, meta: Any, items: list[Any]) -> list[ir.EnumValue]:
        return list(items)

    def enum_value(self, meta: Any, items: list[Any]) -> ir.EnumValue:
        return ir.EnumValue(span=self._tok_span(items[0]), name=str(items[0]), labels=items[1])

    def kind_decl(self, meta: Any, items: list[Any]) -> _Decl:
        name, labels, *parts = items
        attrs = [p for p in parts if isinstance(p, ir.AttrDecl)]
        kw: dict[str, Any] = {}
        for part in parts:
            if isinstance(part, _KindPart):
                kw[part.field] = part.value
        if "rows" in kw:
            kw["rows"] = self._rows(attrs, kw["rows"])
        words = [p.name if isinstance(p, ir.AttrDecl) else _KIND_WORDS[p.field]
                 for p in parts]
        order = _as_written(words, [a.name for a in attrs]
                            + [w for w in _KIND_WORDS.values() if w in words])
        if order:
            kw["order"] = order
        return _Decl("kinds", ir.KindDecl(span=self._tok_span(name), name=str(name),
                                          labels=labels, attrs=attrs, **kw))

    def _rows(self, attrs: list[ir.AttrDecl], table: list[_Row]) -> list[ir.CardRow]:
        """Table rows to :class:`ir.CardRow`: a cell per printed attribute (one without
        ``=``), in declaration order, then a copies cell, then any extra cells as written."""
        printed = [a.name for a in attrs if a.value is None]
        n = len(printed)
        rows = []
        for row in table:
            kw: dict[str, Any] = {"extra": row.cells[n + 1:]} if row.cells[n + 1:] else {}
            if len(row.cells) > n:
                kw["copies"] = row.cells[n]
            rows.append(ir.CardRow(span=row.span, values=dict(zip(printed, row.cells,
                                                                   strict=False)), **kw))
        return rows

    def attr_enum(self, meta: Any, items: list[Any]) -> ir.AttrDecl:
        return ir.AttrDecl(span=self._tok_span(items[0]), name=str(items[0]), enum=str(items[1]))

    def attr_text(self, meta: Any, items: list[Any]) -> ir.AttrDecl:
        return ir.AttrDecl(span=self._tok_span(items[0]), name=str(items[0]), text=True)

    def attr_set(self, meta: Any, items: list[Any]) -> ir.AttrDecl:
        return ir.AttrDecl(span=self._tok_span(items[0]), name=str(items[0]),
                           set_of=str(items[1]))

    def attr_range(self, meta: Any, items: list[Any]) -> ir.AttrDecl:
        return ir.AttrDecl(span=self._tok_span(items[0]), name=str(items[0]), lo=items[1],
                           hi=items[2])

    def attr_derived(self, meta: Any, items: list[Any]) -> ir.AttrDecl:
        return ir.AttrDecl(span=self._tok_span(items[0]), name=str(items[0]), value=items[1])

    def table_item(self, meta: Any, items: list[Any]) -> _KindPart:
        return _KindPart("rows", list(items))

    def table_row(self, meta: Any, items: list[Any]) -> _Row:
        return _Row(list(items), self._span(meta))

    def cell_text(self, meta: Any, items: list[Any]) -> str:
        return _unquote(items[0])

    def cell_int(self, meta: Any, items: list[Any]) -> int:
        return int(items[0])

    def cell_bool(self, meta: Any, items: list[Any]) -> bool:
        return str(items[0]) in ("yes", "true")

    def cell_none(self, meta: Any, items: list[Any]) -> None:
        return None

    def cell_empty(self, meta: Any, items: list[Any]) -> list[str]:
        return []

    def cell_names(self, meta: Any, items: list[Any]) -> list[str]:
        return [str(t) for t in items]

    def copies_item(self, meta: Any, items: list[Any]) -> _KindPart:
        return _KindPart("copies", items[0])

    def card_label_item(self, meta: Any, items: list[Any]) -> _KindPart:
        return _KindPart("card_label", items[0])

    def short_item(self, meta: Any, items: list[Any]) -> _KindPart:
        return _KindPart("short", _unquote(items[0]))

    def zone_decl(self, meta: Any, items: list[Any]) -> _Decl:
        name, labels, *flags = items
        kw: dict[str, Any] = {}
        for flag in flags:
            if isinstance(flag, _SeenBy):
                kw["seen_by"] = flag.seers
            elif flag.text in ("shared", "per player"):
                kw["per_player"] = flag.text == "per player"
            elif flag.text in ("public", "owner", "hidden", "top"):
                kw["visibility"] = flag.text
            elif flag.text not in ir.ZONE_FLAGS:
                kw.setdefault("unknown_flags", []).append(flag)
        return _Decl("zones", ir.ZoneDecl(span=self._tok_span(name), name=str(name),
                                          labels=labels, **kw))

    def seen_by_flag(self, meta: Any, items: list[Any]) -> _SeenBy:
        return _SeenBy(items[1])

    def zone_flag(self, meta: Any, items: list[Any]) -> ir.Word:
        return ir.Word(span=self._span(meta), text=" ".join(str(t) for t in items))

    def var_decl(self, meta: Any, items: list[Any]) -> _Decl:
        scope, name, labels, typ, default, kept, sight = items
        # Only a visibility written is given (the printer writes back what was written).
        given: dict[str, Any] = {"visibility": str(sight)} if sight is not None else {}
        return _Decl("vars", ir.VarDecl(
            span=self._tok_span(name), name=str(name), labels=labels, type=str(typ),
            kept=kept is not None,
            # The grammar's words are exactly the scopes (pydantic checks them again).
            scope=cast(ir.VarScope, str(scope)) if scope is not None else "global",
            default=default if default is not None else ir.NoneLit(span=self._tok_span(name)),
            **given))

    def phase_decl(self, meta: Any, items: list[Any]) -> _Decl:
        name, labels, *rest = items
        body = [s for s in rest if not isinstance(s, ir.Transition)]
        transitions = [s for s in rest if isinstance(s, ir.Transition)]
        return _Decl("phases", ir.PhaseDecl(span=self._tok_span(name), name=str(name),
                                            labels=labels, body=body, transitions=transitions))

    def transition(self, meta: Any, items: list[Any]) -> ir.Transition:
        return ir.Transition(span=self._span(meta), target=str(items[0]), guard=items[1])

    def labels(self, meta: Any, items: list[Any]) -> ir.Labels:
        text = None
        other: dict[str, str] = {}
        for item in items:
            if isinstance(item, _LangText):
                other[item.lang] = item.text
            elif item is not None:
                text = _unquote(item)
        return ir.Labels(span=self._span(meta), text=text, other=other)

    def lang_label(self, meta: Any, items: list[Any]) -> _LangText:
        return _LangText(str(items[0])[1:], _unquote(items[1]))

    # ------------------------------------------------------------ statements
    def block(self, meta: Any, items: list[Any]) -> list[Any]:
        return list(items)

    def assign(self, meta: Any, items: list[Any]) -> ir.Assign:
        target, op, value = items
        # ASSIGN_OP is exactly the assignment operators (pydantic checks them again).
        return ir.Assign(span=self._span(meta), target=target, op=cast(ir.AssignOp, str(op)),
                         value=value)

    def let_stmt(self, meta: Any, items: list[Any]) -> ir.Let:
        return ir.Let(span=self._span(meta), name=str(items[0]), value=items[1])

    def move_stmt(self, meta: Any, items: list[Any]) -> ir.Move:
        cards, end, to, at_random = items
        # The grammar's words are "top" or "bottom" (pydantic checks them again).
        where = "top" if end is None else cast(ir.MoveEnd, str(end).split()[0])
        if at_random is None:
            return ir.Move(span=self._span(meta), cards=cards, to=to, end=where)
        # ``bottom of Z at random`` says two places: kept for the validator to report.
        said = [] if end is None else [ir.Word(span=self._tok_span(end), text=str(end))]
        return ir.Move(span=self._span(meta), cards=cards, to=to, end="random",
                       also_end=said)

    def shuffle_stmt(self, meta: Any, items: list[Any]) -> ir.Shuffle:
        return ir.Shuffle(span=self._span(meta), zone=items[0])

    def sight_stmt(self, meta: Any, items: list[Any]) -> ir.Reveal:
        return ir.Reveal(span=self._span(meta), zone=items[1], shown=str(items[0]) == "reveal")

    def deal_stmt(self, meta: Any, items: list[Any]) -> ir.Deal:
        up_to, count, source, to, start = items
        return ir.Deal(span=self._span(meta), count=count, up_to=up_to is not None,
                       source=source, to=str(to), start=start)

    def deal_all(self, meta: Any, items: list[Any]) -> ir.Deal:
        _, source, to, start = items
        return ir.Deal(span=self._span(meta), count=None, source=source, to=str(to),
                       start=start)

    def choose_stmt(self, meta: Any, items: list[Any]) -> ir.Choose:
        player, secret, verb, count, name, domain, shape, where, prompt, *skips = items
        skip, more = (skips[0], skips[1:]) if skips else (None, [])
        optional = str(verb).startswith("may")
        label, skip_as, test, unless = skip if skip is not None else (None, None, None, False)
        also = [ir.SkipClause(span=m[0].span if m[0].span.line else self._span(meta),
                              label=m[0], name=m[1], test=m[2], unless=m[3]) for m in more]
        return ir.Choose(span=self._span(meta), player=player, name=str(name), domain=domain,
                         where=where, optional=optional, skip_label=label, prompt=prompt,
                         secret=secret is not None, cards=self._card_set(count, shape),
                         skip_test=test, skip_unless=unless, skip_as=skip_as,
                         more_skips=also)

    @staticmethod
    def _card_set(count: ir.CardSet | None, shape: ir.CardSet | None) -> ir.CardSet | None:
        """The count and the shape of a set of cards, as one node (None: one card)."""
        if shape is None:
            return count
        if count is None:
            return shape
        return count.model_copy(update={"shapes": shape.shapes})

    def card_count(self, meta: Any, items: list[Any]) -> ir.CardSet:
        low, high = items
        return ir.CardSet(span=self._span(meta), low=self._int(low),
                          high=self._int(high if high is not None else low))

    def card_shape(self, meta: Any, items: list[Any]) -> ir.CardSet:
        return ir.CardSet(span=self._span(meta), shapes=items)

    def shape(self, meta: Any, items: list[Any]) -> ir.CardShape:
        return ir.CardShape(span=self._span(meta),
                            same=[key for kind, key in items if kind == "same"],
                            runs=[key for kind, key in items if kind == "run"])

    def _shape_key(self, kind: str, name: Any) -> tuple[str, ir.Expr]:
        """``of one ATTR`` / ``of consecutive ATTR``: the key ``it.ATTR`` of each card."""
        span = self._tok_span(name)
        return kind, ir.Attr(span=span, obj=ir.Name(span=span, id="it"), name=str(name))

    def shape_same(self, meta: Any, items: list[Any]) -> tuple[str, ir.Expr]:
        return self._shape_key("same", items[1])

    def shape_run(self, meta: Any, items: list[Any]) -> tuple[str, ir.Expr]:
        return self._shape_key("run", items[1])

    def skip(self, meta: Any, items: list[Any]
             ) -> tuple[ir.Labels, str | None, ir.Expr | None, bool]:
        labels: ir.Labels = items[0]  # the labels rule's node
        name, word, test = items[1], items[2], items[3]
        return (labels, None if name is None else str(name), test,
                word is not None and str(word) == "unless")

    def end_stmt(self, meta: Any, items: list[Any]) -> ir.EndGame:
        return ir.EndGame(span=self._span(meta))

    def say_stmt(self, meta: Any, items: list[Any]) -> ir.Say:
        return ir.Say(span=self._span(meta), text=items[0])

    def if_stmt(self, meta: Any, items: list[Any]) -> ir.If:
        tests, bodies, orelse = [items[0]], [items[1]], []
        for clause in items[2:]:
            if isinstance(clause, _Elif):
                tests.append(clause.test)
                bodies.append(clause.body)
            elif clause is not None:
                orelse = clause
        return ir.If(span=self._span(meta), tests=tests, bodies=bodies, orelse=orelse)

    def elif_clause(self, meta: Any, items: list[Any]) -> _Elif:
        return _Elif(items[0], items[1])

    def else_clause(self, meta: Any, items: list[Any]) -> list[Any]:
        return list(items[0])

    def repeat_times(self, meta: Any, items: list[Any]) -> ir.Repeat:
        count, var, body = items
        return ir.Repeat(span=self._span(meta), count=count,
                         var=str(var) if var is not None else None, body=body)

    def repeat_while(self, meta: Any, items: list[Any]) -> ir.Repeat:
        return ir.Repeat(span=self._span(meta), test=items[0], body=items[1])

    def repeat_until(self, meta: Any, items: list[Any]) -> ir.Repeat:
        test = ir.UnOp(span=items[0].span, op="not", operand=items[0])
        return ir.Repeat(span=self._span(meta), test=test, body=items[1])

    def foreach_stmt(self, meta: Any, items: list[Any]) -> ir.ForEachPlayer:
        var, start, direction, body = items
        return ir.ForEachPlayer(span=self._span(meta), var=str(var), start=start,
                                clockwise=str(direction or "clockwise") == "clockwise",
                                body=body)

    def foreach_until(self, meta: Any, items: list[Any]) -> ir.ForEachPlayer:
        var, start, direction, until, body = items
        return ir.ForEachPlayer(span=self._span(meta), var=str(var), start=start,
                                clockwise=str(direction or "clockwise") == "clockwise",
                                until=until, body=body)

    def foreach_ordered(self, meta: Any, items: list[Any]) -> ir.ForEachPlayer:
        var, order, start, body = items
        return ir.ForEachPlayer(span=self._span(meta), var=str(var), start=start, order=order,
                                body=body)

    def foreach_in(self, meta: Any, items: list[Any]) -> ir.ForEachIn:
        var, coll, body = [i for i in items if i is not None]
        return ir.ForEachIn(span=self._span(meta), var=str(var), coll=coll, body=body)

    def end_trick_stmt(self, meta: Any, items: list[Any]) -> ir.EndTrick:
        return ir.EndTrick(span=self._span(meta))

    def break_stmt(self, meta: Any, items: list[Any]) -> ir.Break:
        return ir.Break(span=self._span(meta))

    def do_stmt(self, meta: Any, items: list[Any]) -> ir.Do:
        return ir.Do(span=self._span(meta), name=str(items[0]))

    def trigger_stmt(self, meta: Any, items: list[Any]) -> ir.Trigger:
        return ir.Trigger(span=self._span(meta), step=str(items[0]), cards=items[1])

    def ability_decl(self, meta: Any, items: list[Any]) -> _Decl:
        name, labels, *parts = items
        tables: dict[str, dict[str, Any]] = {"modify": {}, "at": {}}
        duplicates = self._first_of_each(parts, tables)
        words = [p.word for p in parts]
        order = _as_written(words, [w for w in words if w.startswith("modify ")]
                            + [w for w in words if not w.startswith("modify ")])
        return _Decl("abilities", ir.AbilityDecl(
            span=self._tok_span(name), name=str(name), labels=labels,
            modifies=tables["modify"], steps=tables["at"], duplicates=duplicates,
            **({"order": order} if order else {})))

    def modify_item(self, meta: Any, items: list[Any]) -> _Part:
        return _Part("modify", str(items[0]), items[1], f"modify {items[0]}", self._span(meta))

    def at_item(self, meta: Any, items: list[Any]) -> _Part:
        return _Part("at", str(items[0]), items[1], f"at {items[0]}", self._span(meta))

    @staticmethod
    def _first_of_each(parts: list[_Part], tables: dict[str, dict[str, Any]]) -> list[ir.Word]:
        """Put each part in ``tables[part.table][part.key]``; return those whose place was
        taken, as written."""
        duplicates = []
        for part in parts:
            if part.key in tables[part.table]:
                duplicates.append(ir.Word(span=part.span, text=part.word))
            else:
                tables[part.table][part.key] = part.value
        return duplicates

    def rule_decl(self, meta: Any, items: list[Any]) -> _Decl:
        name, labels, body = items
        return _Decl("rules", ir.RuleDecl(span=self._tok_span(name), name=str(name),
                                          labels=labels, body=body))

    def define_decl(self, meta: Any, items: list[Any]) -> _Decl:
        name, *params, body = items
        return _Decl("defines", ir.DefineDecl(span=self._tok_span(name), name=str(name),
                                              params=[str(p) for p in params if p is not None],
                                              body=body))

    def trick_stmt(self, meta: Any, items: list[Any]) -> ir.Trick:
        climbing, zone, leader, play, *clauses = items
        tables: dict[str, dict[str, Any]] = {"trick": {}}
        duplicates = self._first_of_each(clauses, tables)
        parts = tables["trick"]
        if "pass_label" in parts:
            parts["pass_label"], parts["pass_for_turn"], test, unless = parts["pass_label"]
            if test is not None:
                parts["pass_turn_test"], parts["pass_turn_unless"] = test, unless
        order = _as_written([c.word for c in clauses], list(ir.TRICK_CLAUSES))
        if order:
            parts["order"] = order
        return ir.Trick(span=self._span(meta), zone=zone, leader=leader,
                        climbing=climbing is not None, duplicates=duplicates, **play,
                        **parts)

    def trick_play(self, meta: Any, items: list[Any]) -> dict[str, Any]:
        count, name, source, shape, where, prompt = items
        return {"card_var": str(name), "source": source, "where": where, "prompt": prompt,
                "cards": self._card_set(count, shape)}

    def pass_clause(self, meta: Any, items: list[Any]) -> _Part:
        turn, test_word, test, label = items
        value = (label, turn is not None, test, str(test_word) == "unless")
        return _Part("trick", "pass_label", value, "pass", self._span(meta))

    def sits_out(self, meta: Any, items: list[Any]) -> _Part:
        return _Part("trick", "sits_out", items[0], "sits out", self._span(meta))

    def chosen_by(self, meta: Any, items: list[Any]) -> _Part:
        return _Part("trick", "chosen_by", items[0], "chosen by", self._span(meta))

    def before_play(self, meta: Any, items: list[Any]) -> _Part:
        return _Part("trick", "before_play", items[0], "before play", self._span(meta))

    def after_play(self, meta: Any, items: list[Any]) -> _Part:
        return _Part("trick", "after_play", items[0], "after play", self._span(meta))

    def won_by(self, meta: Any, items: list[Any]) -> _Part:
        return _Part("trick", "key", items[0], "won by", self._span(meta))

    def after_trick(self, meta: Any, items: list[Any]) -> _Part:
        return _Part("trick", "after_trick", items[0], "after trick", self._span(meta))

    # ------------------------------------------------------------ expressions
    def filter(self, meta: Any, items: list[Any]) -> ir.Filter:
        return ir.Filter(span=self._span(meta), coll=items[0], cond=items[1])

    def cond(self, meta: Any, items: list[Any]) -> ir.Cond:
        return ir.Cond(span=self._span(meta), then=items[0], test=items[1], other=items[2])

    def or_expr(self, meta: Any, items: list[Any]) -> Any:
        return self._chain("or", meta, items)

    def and_expr(self, meta: Any, items: list[Any]) -> Any:
        return self._chain("and", meta, items)

    def _chain(self, op: ir.BinaryOp, meta: Any, items: list[Any]) -> Any:
        result = items[0]
        for item in items[1:]:
            result = ir.BinOp(span=self._span(meta), op=op, left=result, right=item)
        return result

    def not_(self, meta: Any, items: list[Any]) -> ir.UnOp:
        return ir.UnOp(span=self._span(meta), op="not", operand=items[0])

    def compare(self, meta: Any, items: list[Any]) -> ir.BinOp:
        return ir.BinOp(span=self._span(meta), op=_operator(items[1]), left=items[0],
                        right=items[2])

    def is_(self, meta: Any, items: list[Any]) -> ir.IsKind:
        return ir.IsKind(span=self._span(meta), obj=items[0], kind=str(items[1]))

    def is_not(self, meta: Any, items: list[Any]) -> ir.IsKind:
        return ir.IsKind(span=self._span(meta), obj=items[0], kind=str(items[2]), negate=True)

    def in_(self, meta: Any, items: list[Any]) -> ir.BinOp:
        return ir.BinOp(span=self._span(meta), op="in", left=items[0], right=items[1])

    def not_in(self, meta: Any, items: list[Any]) -> ir.BinOp:
        return ir.BinOp(span=self._span(meta), op="not in", left=items[0], right=items[2])

    def range(self, meta: Any, items: list[Any]) -> ir.RangeExpr:
        return ir.RangeExpr(span=self._span(meta), lo=items[0], hi=items[1])

    def arith(self, meta: Any, items: list[Any]) -> ir.BinOp:
        return ir.BinOp(span=self._span(meta), op=_operator(items[1]), left=items[0],
                        right=items[2])

    def neg(self, meta: Any, items: list[Any]) -> ir.UnOp:
        return ir.UnOp(span=self._span(meta), op="-", operand=items[0])

    def seat(self, meta: Any, items: list[Any]) -> ir.Seat:
        # The grammar's words are "left" or "right" (pydantic checks them again).
        return ir.Seat(span=self._span(meta), side=cast(ir.SeatSide, str(items[0])),
                       of=items[1])

    def attr(self, meta: Any, items: list[Any]) -> ir.Attr:
        return ir.Attr(span=self._span(meta), obj=items[0], name=str(items[1]))

    def index(self, meta: Any, items: list[Any]) -> ir.Index:
        return ir.Index(span=self._span(meta), obj=items[0], key=items[1])

    def call(self, meta: Any, items: list[Any]) -> ir.Call:
        args = [a for a in items[1:] if a is not None]
        return ir.Call(span=self._span(meta), func=str(items[0]), args=args)

    def num(self, meta: Any, items: list[Any]) -> ir.Num:
        return ir.Num(span=self._span(meta), value=self._int(items[0]))

    def string(self, meta: Any, items: list[Any]) -> ir.Str:
        return ir.Str(span=self._span(meta), value=_unquote(items[0]))

    def boolean(self, meta: Any, items: list[Any]) -> ir.Bool:
        return ir.Bool(span=self._span(meta), value=str(items[0]) in ("yes", "true"))

    def none(self, meta: Any, items: list[Any]) -> ir.NoneLit:
        return ir.NoneLit(span=self._span(meta))

    def name(self, meta: Any, items: list[Any]) -> ir.Name:
        return ir.Name(span=self._span(meta), id=str(items[0]))

    def tuple(self, meta: Any, items: list[Any]) -> ir.TupleExpr:
        return ir.TupleExpr(span=self._span(meta), items=[i for i in items if i is not None])

    def list(self, meta: Any, items: list[Any]) -> ir.ListExpr:
        return ir.ListExpr(span=self._span(meta), items=[i for i in items if i is not None])

    # ``list`` here would name the method above.
    def dict(self, meta: Any, items: builtins.list[Any]) -> ir.DictExpr:
        items = [i for i in items if i is not None]
        return ir.DictExpr(span=self._span(meta), keys=items[0::2], values=items[1::2])


def parse_tree(text: str) -> Tree[Token]:
    """The raw Lark tree of ``text`` (for debugging the grammar)."""
    return parser().parse(text if text.endswith("\n") else text + "\n")


def _operator(tok: Token) -> ir.BinaryOp:
    """A COMP_OP, ADD_OP or MUL_OP token as its operator: the grammar's tokens are exactly
    binary operators (and pydantic checks the node's ``op`` again)."""
    return cast(ir.BinaryOp, str(tok))
