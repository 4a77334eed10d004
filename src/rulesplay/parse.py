"""Text to IR: a transformer from Lark's parse tree to IR nodes, each with its span.

The transformer only builds nodes: it records what the text says (a clause given twice, an
unknown zone flag, a table row's cells) and leaves every judgement to the validator, so one
mistake never hides the others. Syntax errors (text the grammar does not accept) are
:class:`RulesSyntaxError` with ``file:line:col`` and what was expected (see
:mod:`rulesplay.parse_errors`).
"""

from __future__ import annotations

import ast
from typing import Any

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import LarkError, UnexpectedInput, VisitError
from lark.indenter import DedentError

from . import ir
from .errors import RulesSyntaxError, Span, did_you_mean
from .grammar import parser
from .parse_errors import dedent_error, located, quoted, strip_comment, syntax_error


def parse_text(text: str, file: str = "<input>") -> ir.Ruleset:
    """Parse ruleset text into a :class:`ir.Ruleset`.

    Any text is accepted as input: a byte-order mark is dropped, CRLF and CR line ends read
    as LF, and whatever is not a ruleset raises :class:`RulesSyntaxError` (never another
    exception).

    Args:
        text: the whole ruleset source.
        file: the path used in spans and diagnostics.

    Raises:
        RulesSyntaxError: the text is not in the language; the diagnostic names what was
            expected at the failing position.
    """
    text = normalize_newlines(text.removeprefix("\ufeff"))
    if "\x00" in text:
        raise located("the file is binary, not a ruleset (it contains NUL bytes)", file, 1, 1,
                      text)
    if not any(line.strip(" \t\f") and not line.strip(" \t\f").startswith("#")
               for line in text.split("\n")):
        raise located("the file is empty; a ruleset starts with a line like "
                      "'game \"Title\"'", file, 1, 1, text)
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = parser().parse(text, start="start")
    except UnexpectedInput as exc:
        raise syntax_error(exc, text, file) from None
    except DedentError:
        raise dedent_error(text, file) from None
    except LarkError as exc:  # pragma: no cover - any other parser failure, still located
        raise located(f"syntax error ({exc})", file, 1, 1, text) from None
    _check_depth(tree, text, file)
    try:
        return _ToIR(file, text).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, RulesSyntaxError):
            raise exc.orig_exc.attach_source({file: text}) from None
        raise


def normalize_newlines(text: str) -> str:
    """``text`` with CRLF and lone CR line ends turned into LF (what the grammar reads)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


# Longer numbers are refused (a ruleset counts cards, seats and points).
MAX_DIGITS = 18

# Deeper parse trees (an expression inside hundreds of parentheses or operators, blocks
# nested hundreds deep) are refused: every later stage walks the tree recursively.
MAX_DEPTH = 100


def _check_depth(tree: Tree, text: str, file: str) -> None:
    """Raise a syntax error at the first node nested more than :data:`MAX_DEPTH` deep."""
    stack: list[tuple[Tree, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            meta = node.meta
            line = getattr(meta, "line", 1) if not getattr(meta, "empty", True) else 1
            col = getattr(meta, "column", 1) if not getattr(meta, "empty", True) else 1
            raise located(f"this is nested too deeply (more than {MAX_DEPTH} levels of "
                          "expressions or blocks); split it up with 'let'", file, line, col,
                          text)
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def _any(value: Any) -> Any:
    """``value`` untyped: the grammar guarantees it is one of a Literal's words."""
    return value


def _unquote(token: Token) -> str:
    try:
        return str(ast.literal_eval(str(token)))
    except (ValueError, SyntaxError):
        return str(token)[1:-1]


@v_args(meta=True)
class _ToIR(Transformer):
    """Parse tree to IR nodes; each node gets the span of its tree node."""

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

    def _once(self, word: str, meta: Any) -> None:
        """A declaration a ruleset has at most once (``game``, ``players``, ``score:`` ...)."""
        seen = self.__dict__.setdefault("_seen_once", set())
        if word in seen:
            raise self._error(f"'{word}' is given twice; a ruleset has one", self._span(meta))
        seen.add(word)

    def _error(self, message: str, span: Span) -> RulesSyntaxError:
        return RulesSyntaxError(message, span)

    def _int(self, tok: Token) -> int:
        """The value of an INT token; more than :data:`MAX_DIGITS` digits is an error."""
        digits = str(tok).lstrip("0") or "0"
        if len(digits) > MAX_DIGITS:
            raise self._error(f"the number {quoted(str(tok))} is too large (at most "
                              f"{MAX_DIGITS} digits)", self._tok_span(tok))
        return int(digits)

    # ------------------------------------------------------------ top level
    def start(self, meta: Any, items: list[Any]) -> ir.Ruleset:
        fields: dict[str, Any] = {
            "options": [], "enums": [], "kinds": [], "zones": [], "vars": [], "phases": [],
            "tiebreaks": [],
        }
        for kind, value in items:
            if kind in ("options", "enums", "kinds", "zones", "vars", "phases", "tiebreaks",
                        "overrides", "abilities", "rules", "includes"):
                if isinstance(value, tuple):  # 'replace DECL': the declaration and a marker
                    fields[value[0]].append(value[1])
                    value = value[2]
                fields.setdefault(kind, []).append(value)
            elif kind == "extends":
                fields["extends"], fields["extends_span"] = value
            elif kind == "players":
                fields["min_players"], fields["max_players"] = value
            else:
                fields[kind] = value
        return ir.Ruleset(span=Span(file=self.file, line=1, col=1), **fields)

    def game_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        self._once("game", meta)
        title, labels = items
        return "title", ir.Labels(span=self._span(meta), text=_unquote(title),
                                  other=labels.other)

    def players_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        self._once("players", meta)
        return "players", (self._int(items[0]), self._int(items[1]))

    def author_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        self._once("author", meta)
        return "author", _unquote(items[0])

    def about_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        self._once("about", meta)
        return "about", _unquote(items[0])

    def extends_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        self._once("extends", meta)
        return "extends", (_unquote(items[0]), self._tok_span(items[0]))

    def winners_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        self._once("winners:", meta)
        return "winners", items[0]

    _OVERRIDE_WHAT: dict[str, Any] = {"options": "option", "enums": "enum", "kinds": "card",
                                      "zones": "zone", "vars": "var", "phases": "phase",
                                      "abilities": "ability", "rules": "rule"}

    def replace_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        kind, decl = items[0]
        if kind == "overrides":  # 'replace option x = v' is just a new default
            return kind, decl
        return "overrides", (kind, decl, ir.Override(
            span=decl.span, action="replace", what=self._OVERRIDE_WHAT[kind], name=decl.name))

    def remove_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "overrides", ir.Override(span=self._tok_span(items[1]), action="remove",
                                        what=_any(str(items[0].children[0])),
                                        name=str(items[1]))

    def option_default(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        name, default, doc = items
        return "overrides", ir.Override(span=self._tok_span(name), action="default",
                                        what="option", name=str(name), value=default, doc=doc)

    def start_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        self._once("start", meta)
        return "start", str(items[0])

    def score_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        self._once("score:", meta)
        return "score", items[0]

    def tiebreak_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "tiebreaks", items[0]

    def doc(self, meta: Any, items: list[Any]) -> str:
        return " ".join(_unquote(t) for t in items if t is not None)

    def option_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        name, (typ, extra), default, doc = items
        kw: dict[str, Any] = {}
        if typ == "int":
            kw["lo"], kw["hi"] = extra
        elif typ == "choice":
            kw["choices"] = extra
        return "options", ir.OptionDecl(span=self._tok_span(name), name=str(name), type=typ,
                                        default=default, doc=doc, **kw)

    def int_type(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "int", (items[0], items[1])

    def bool_type(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "bool", None

    def choice_type(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "choice", [str(t) for t in items]

    def pos_int(self, meta: Any, items: list[Any]) -> int:
        return self._int(items[0])

    def neg_int(self, meta: Any, items: list[Any]) -> int:
        return -self._int(items[0])

    def enum_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        name, labels, *groups = items
        values = [v for group in groups for v in group]
        return "enums", ir.EnumDecl(span=self._tok_span(name), name=str(name), values=values,
                                    labels=labels)

    def enum_values(self, meta: Any, items: list[Any]) -> list[ir.EnumValue]:
        return list(items)

    def enum_value(self, meta: Any, items: list[Any]) -> ir.EnumValue:
        return ir.EnumValue(span=self._tok_span(items[0]), name=str(items[0]), labels=items[1])

    def kind_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        name, labels, *parts = items
        kw: dict[str, Any] = {"attrs": []}
        table = None
        for key, value in parts:
            if key == "attr":
                kw["attrs"].append(value)
            elif key == "table":
                table = value
            else:
                kw[key] = value
        if table is not None:
            kw["rows"] = self._rows(kw["attrs"], table)
        return "kinds", ir.KindDecl(span=self._tok_span(name), name=str(name), labels=labels,
                                    **kw)

    def attr_enum(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "attr", ir.AttrDecl(span=self._tok_span(items[0]), name=str(items[0]),
                                   enum=str(items[1]))

    def _rows(self, attrs: list[ir.AttrDecl], table: list[Any]) -> list[ir.CardRow]:
        """Table rows to :class:`ir.CardRow`: one cell per printed attribute, in declaration
        order, then an optional copies column."""
        printed = [a.name for a in attrs if a.value is None]
        rows = []
        for cells, span in table:
            if len(cells) not in (len(printed), len(printed) + 1):
                raise self._error(
                    f"this row has {len(cells)} cells; the table needs {len(printed)} "
                    f"({', '.join(printed)}) and optionally a last one for copies", span)
            copies = 1
            if len(cells) == len(printed) + 1:
                copies = cells[-1]
                if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
                    raise self._error("the last cell (copies) must be a number of at least 1",
                                      span)
            rows.append(ir.CardRow(span=span, values=dict(zip(printed, cells, strict=False)),
                                   copies=copies))
        return rows

    def attr_text(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "attr", ir.AttrDecl(span=self._tok_span(items[0]), name=str(items[0]), text=True)

    def attr_set(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "attr", ir.AttrDecl(span=self._tok_span(items[0]), name=str(items[0]),
                                   set_of=str(items[1]))

    def table_item(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "table", list(items)

    def table_row(self, meta: Any, items: list[Any]) -> tuple[list[Any], Span]:
        return list(items), self._span(meta)

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

    def attr_range(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "attr", ir.AttrDecl(span=self._tok_span(items[0]), name=str(items[0]),
                                   lo=items[1], hi=items[2])

    def attr_derived(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "attr", ir.AttrDecl(span=self._tok_span(items[0]), name=str(items[0]),
                                   value=items[1])

    def copies_item(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "copies", items[0]

    def card_label_item(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "card_label", items[0]

    def short_item(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "short", _unquote(items[0])

    def zone_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        name, labels, *flags = items
        per_player, visibility = None, "public"
        for flag, span in flags:
            if flag in ("shared", "per player"):
                per_player = flag == "per player"
            elif flag in ("public", "owner", "hidden", "top"):
                visibility = flag
            elif flag not in ("stack", "ordered"):
                allowed = ["shared", "per player", "public", "owner", "hidden", "top", "stack",
                           "ordered"]
                raise self._error(
                    f"unknown zone property '{flag}'" + did_you_mean(flag, allowed)
                    + "; allowed: " + ", ".join(allowed), span)
        if per_player is None:
            raise self._error("a zone must say 'shared' or 'per player'", self._tok_span(name))
        return "zones", ir.ZoneDecl(span=self._tok_span(name), name=str(name),
                                    per_player=per_player, visibility=visibility, labels=labels)

    def zone_flag(self, meta: Any, items: list[Any]) -> tuple[str, Span]:
        return " ".join(str(t) for t in items), self._span(meta)

    def var_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        scope, name, labels, typ, default, kept = items
        if kept is not None and str(scope) != "card":
            raise self._error("only a card variable can be 'kept' (the others never reset)",
                              self._tok_span(kept))
        return "vars", ir.VarDecl(
            span=self._tok_span(name), name=str(name), labels=labels, type=str(typ),
            kept=kept is not None,
            scope=str(scope) if scope is not None else "global",
            default=default if default is not None else ir.NoneLit(span=self._tok_span(name)))

    def phase_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        name, labels, *rest = items
        body = [s for s in rest if not isinstance(s, ir.Transition)]
        transitions = [s for s in rest if isinstance(s, ir.Transition)]
        return "phases", ir.PhaseDecl(span=self._tok_span(name), name=str(name), labels=labels,
                                      body=body, transitions=transitions)

    def transition(self, meta: Any, items: list[Any]) -> ir.Transition:
        return ir.Transition(span=self._span(meta), target=str(items[0]), guard=items[1])

    def labels(self, meta: Any, items: list[Any]) -> ir.Labels:
        text = None
        other: dict[str, str] = {}
        for item in items:
            if isinstance(item, tuple):
                other[item[0]] = item[1]
            elif item is not None:
                text = _unquote(item)
        return ir.Labels(span=self._span(meta), text=text, other=other)

    def lang_label(self, meta: Any, items: list[Any]) -> tuple[str, str]:
        return str(items[0])[1:], _unquote(items[1])

    # ------------------------------------------------------------ statements
    def block(self, meta: Any, items: list[Any]) -> list[Any]:
        return list(items)

    def assign(self, meta: Any, items: list[Any]) -> ir.Assign:
        target, op, value = items
        if not isinstance(target, ir.Name | ir.Attr | ir.Index):
            raise self._error("only a variable, 'x[seat]' or 'card.var' can be assigned",
                              target.span)
        return ir.Assign(span=self._span(meta), target=target, op=str(op), value=value)

    def let_stmt(self, meta: Any, items: list[Any]) -> ir.Let:
        return ir.Let(span=self._span(meta), name=str(items[0]), value=items[1])

    def move_stmt(self, meta: Any, items: list[Any]) -> ir.Move:
        cards, end, to = items
        where = "top" if end is None else str(end).split()[0]
        return ir.Move(span=self._span(meta), cards=cards, to=to, end=where)

    def shuffle_stmt(self, meta: Any, items: list[Any]) -> ir.Shuffle:
        return ir.Shuffle(span=self._span(meta), zone=items[0])

    def deal_stmt(self, meta: Any, items: list[Any]) -> ir.Deal:
        up_to, count, source, to, start = items
        return ir.Deal(span=self._span(meta), count=count, up_to=up_to is not None,
                       source=source, to=str(to), start=start)

    def choose_stmt(self, meta: Any, items: list[Any]) -> ir.Choose:
        player, secret, verb, name, domain, where, prompt, skip = items
        optional = str(verb).startswith("may")
        if skip is not None and not optional:
            raise self._error("'skip' needs 'may choose' (a choice that can be skipped)",
                              skip.span)
        return ir.Choose(span=self._span(meta), player=player, name=str(name), domain=domain,
                         where=where, optional=optional, skip_label=skip, prompt=prompt,
                         secret=secret is not None)

    def skip(self, meta: Any, items: list[Any]) -> ir.Labels:
        return items[0]

    def end_stmt(self, meta: Any, items: list[Any]) -> ir.EndGame:
        return ir.EndGame(span=self._span(meta))

    def say_stmt(self, meta: Any, items: list[Any]) -> ir.Say:
        return ir.Say(span=self._span(meta), text=items[0])

    def if_stmt(self, meta: Any, items: list[Any]) -> ir.If:
        tests, bodies, orelse = [items[0]], [items[1]], []
        for clause in items[2:]:
            if clause is None:
                continue
            if clause[0] == "elif":
                tests.append(clause[1])
                bodies.append(clause[2])
            else:
                orelse = clause[1]
        return ir.If(span=self._span(meta), tests=tests, bodies=bodies, orelse=orelse)

    def elif_clause(self, meta: Any, items: list[Any]) -> tuple[str, Any, Any]:
        return "elif", items[0], items[1]

    def else_clause(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "else", items[0]

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

    def foreach_ordered(self, meta: Any, items: list[Any]) -> ir.ForEachPlayer:
        var, order, start, body = items
        return ir.ForEachPlayer(span=self._span(meta), var=str(var), start=start, order=order,
                                body=body)

    def foreach_in(self, meta: Any, items: list[Any]) -> ir.ForEachIn:
        var, coll, body = [i for i in items if i is not None]
        return ir.ForEachIn(span=self._span(meta), var=str(var), coll=coll, body=body)

    def break_stmt(self, meta: Any, items: list[Any]) -> ir.Break:
        return ir.Break(span=self._span(meta))

    def do_stmt(self, meta: Any, items: list[Any]) -> ir.Do:
        return ir.Do(span=self._span(meta), name=str(items[0]))

    def trigger_stmt(self, meta: Any, items: list[Any]) -> ir.Trigger:
        return ir.Trigger(span=self._span(meta), step=str(items[0]), cards=items[1])

    def include_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "includes", [_unquote(items[0]), self._span(meta)]

    def ability_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        name, labels, *parts = items
        modifies: dict[str, Any] = {}
        steps: dict[str, Any] = {}
        for key, stat, value, span in parts:
            table = modifies if key == "modify" else steps
            if stat in table:
                raise self._error(f"ability '{name}' already has '{key} {stat}'", span)
            table[stat] = value
        return "abilities", ir.AbilityDecl(span=self._tok_span(name), name=str(name),
                                           labels=labels, modifies=modifies, steps=steps)

    def modify_item(self, meta: Any, items: list[Any]) -> tuple[str, str, Any, Span]:
        return "modify", str(items[0]), items[1], self._span(meta)

    def at_item(self, meta: Any, items: list[Any]) -> tuple[str, str, Any, Span]:
        return "at", str(items[0]), items[1], self._span(meta)

    def rule_decl(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        name, labels, body = items
        return "rules", ir.RuleDecl(span=self._tok_span(name), name=str(name), labels=labels,
                                    body=body)

    def trick_stmt(self, meta: Any, items: list[Any]) -> ir.Trick:
        climbing, zone, leader, play, *clauses = items
        kw: dict[str, Any] = dict(play)
        for key, value in clauses:
            if key in kw:
                raise self._error(f"a trick has only one '{key.replace('_', ' ')}' clause",
                                  self._span(meta))
            kw[key] = value
        if "key" not in kw:
            raise self._error("this trick has no 'won by highest KEY' line saying which card "
                              "wins, e.g. 'won by highest it.rank'", self._span(meta))
        return ir.Trick(span=self._span(meta), zone=zone, leader=leader,
                        climbing=climbing is not None, **kw)

    def trick_play(self, meta: Any, items: list[Any]) -> dict[str, Any]:
        name, source, where, prompt = items
        return {"card_var": str(name), "source": source, "where": where, "prompt": prompt}

    def pass_clause(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "pass_label", items[0]

    def after_play(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "after_play", items[0]

    def won_by(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "key", items[0]

    def after_trick(self, meta: Any, items: list[Any]) -> tuple[str, Any]:
        return "after_trick", items[0]

    # ------------------------------------------------------------ expressions
    def filter(self, meta: Any, items: list[Any]) -> ir.Filter:
        return ir.Filter(span=self._span(meta), coll=items[0], cond=items[1])

    def cond(self, meta: Any, items: list[Any]) -> ir.Cond:
        return ir.Cond(span=self._span(meta), then=items[0], test=items[1], other=items[2])

    def or_expr(self, meta: Any, items: list[Any]) -> Any:
        return self._chain("or", meta, items)

    def and_expr(self, meta: Any, items: list[Any]) -> Any:
        return self._chain("and", meta, items)

    def _chain(self, op: str, meta: Any, items: list[Any]) -> Any:
        result = items[0]
        for item in items[1:]:
            result = ir.BinOp(span=self._span(meta), op=op, left=result, right=item)
        return result

    def not_(self, meta: Any, items: list[Any]) -> ir.UnOp:
        return ir.UnOp(span=self._span(meta), op="not", operand=items[0])

    def compare(self, meta: Any, items: list[Any]) -> ir.BinOp:
        return ir.BinOp(span=self._span(meta), op=str(items[1]), left=items[0], right=items[2])

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
        return ir.BinOp(span=self._span(meta), op=str(items[1]), left=items[0], right=items[2])

    def neg(self, meta: Any, items: list[Any]) -> ir.UnOp:
        return ir.UnOp(span=self._span(meta), op="-", operand=items[0])

    def seat(self, meta: Any, items: list[Any]) -> ir.Seat:
        return ir.Seat(span=self._span(meta), side=str(items[0]), of=items[1])

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

    def dict(self, meta: Any, items: list[Any]) -> ir.DictExpr:
        items = [i for i in items if i is not None]
        return ir.DictExpr(span=self._span(meta), keys=items[0::2], values=items[1::2])


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
        raise RulesSyntaxError(f"'{{{text}}}' is not an expression", where) from None
    _check_depth(tree, text, span.file)
    try:
        return _PlacedIR(span, col).transform(tree).children[0]
    except VisitError as exc:
        if isinstance(exc.orig_exc, RulesSyntaxError):
            raise exc.orig_exc from None
        raise


class _PlacedIR(_ToIR):
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


def parse_tree(text: str) -> Tree:
    """The raw Lark tree of ``text`` (for debugging the grammar)."""
    return parser().parse(text if text.endswith("\n") else text + "\n")


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
            end = text.find("}", i)
            here = span if col is None else Span(file=span.file, line=span.line,
                                                 col=col + i, end_line=span.line,
                                                 end_col=col + i + 1)
            if end < 0:
                raise RulesSyntaxError(f"unclosed '{{' in text {text!r} (write '{{{{' for a "
                                       "brace)", here)
            if literal:
                parts.append(literal)
                literal = ""
            parts.append(parse_expr(text[i + 1:end], here if col is None else span,
                                    None if col is None else col + i + 1))
            i = end + 1
        else:
            literal, i = literal + ch, i + 1
    if literal:
        parts.append(literal)
    return parts
