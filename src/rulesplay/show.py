"""The IR written back in the language: the one printer, for diagnostics, ``diff``, ``graph``
and (the base of a formatter) whole rulesets.

Three stages, one method per node: :class:`ExprPrinter` (``12 if rank == 13 else rank``),
:class:`StmtPrinter` (indented lines) and :class:`DeclPrinter` (declarations);
:func:`ruleset_text` prints a whole ruleset so that parsing the text gives the same IR, spans
aside (``tests/test_printer.py``). What the parser keeps only for the validator (a clause
given twice, an extra table cell) is not printed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from . import ir
from .visitor import Stage

__all__ = ["ExprPrinter", "StmtPrinter", "DeclPrinter", "expr_text", "labels_text",
           "option_type_text", "quote", "ruleset_text", "stmt_lines"]

INDENT = "    "

# Binding levels, loosest first, as in the grammar: a subexpression looser than its place
# allows is put in parentheses.
FILTER, COND, OR, AND, NOT, COMPARE, RANGE, SUM, PRODUCT, UNARY, POSTFIX = range(11)
_BINARY = {"or": OR, "and": AND, "+": SUM, "-": SUM, "*": PRODUCT, "/": PRODUCT, "%": PRODUCT}


def quote(text: str) -> str:
    """``text`` as a string literal of the language (quotes, backslashes and control
    characters escaped, everything else as it is)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch < " " or ch == "\x7f":
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def labels_text(labels: ir.Labels | None) -> str:
    """Display texts as written after a name: ``"Deal" @ja "配る"`` (empty when none)."""
    if labels is None:
        return ""
    parts = [quote(labels.text)] if labels.text is not None else []
    parts += [f"@{lang} {quote(text)}" for lang, text in labels.other.items()]
    return " ".join(parts)


def expr_text(e: ir.Expr | None, prec: int = FILTER) -> str:
    """An expression written back in the language (``12 if rank == 13 else rank``), in
    parentheses when it binds more loosely than ``prec`` (one of the levels above); None
    is ``none``."""
    if e is None:
        return "none"
    return _EXPRS.text(e, prec)


def _skip_text(k: ir.SkipClause) -> str:
    """A choice's skip clause as written: ``skip "draw" as drawing if can_draw()``."""
    text = _words("skip", labels_text(k.label))
    if k.name is not None:
        text = _words(text, "as", k.name)
    if k.test is not None:
        text = _words(text, "unless" if k.unless else "if", _src(k.test))
    return text


def players_text(r: ir.Ruleset) -> str:
    """A ruleset's player counts for people: ``4``, ``3-5``, ``3-5 (usually 4)``."""
    text = f"{r.min_players}" if r.min_players == r.max_players \
        else f"{r.min_players}-{r.max_players}"
    return text if r.usual_players is None else f"{text} (usually {r.usual_players})"


def option_type_text(o: ir.OptionDecl) -> str:
    """An option's type as written: ``bool``, ``int in 1..12``, ``first_coloured | no_lead``."""
    if o.type == "int":
        lo = f"({expr_text(o.lo_at)})" if o.lo_at is not None else str(o.lo)
        hi = f"({expr_text(o.hi_at)})" if o.hi_at is not None else str(o.hi)
        return f"int in {lo}..{hi}"
    if o.type == "bool":
        return "bool"
    return " | ".join(o.choices)


class ExprPrinter(Stage):
    """Expressions to text: ``visit_<Node>(e)`` returns ``(level, text)``, the level at
    which ``text`` binds (see :func:`expr_text`).

    Args:
        literal: writes a string value as a literal (default :func:`quote`).
    """

    handles = (ir.ExprNode,)

    def __init__(self, literal: Callable[[str], str] = quote) -> None:
        self.literal = literal  # writes a string value as a literal

    def text(self, e: ir.Expr, prec: int = FILTER) -> str:
        """``e`` as text, parenthesized when its level is below ``prec``."""
        out: str
        level, out = self.visit(e)
        return f"({out})" if level < prec else out

    def visit_Num(self, e: ir.Num) -> tuple[int, str]:
        return POSTFIX, str(e.value)

    def visit_Str(self, e: ir.Str) -> tuple[int, str]:
        return POSTFIX, self.literal(e.value)

    def visit_Bool(self, e: ir.Bool) -> tuple[int, str]:
        return POSTFIX, "true" if e.value else "false"

    def visit_NoneLit(self, e: ir.NoneLit) -> tuple[int, str]:
        return POSTFIX, "none"

    def visit_Name(self, e: ir.Name) -> tuple[int, str]:
        return POSTFIX, e.id

    def visit_Attr(self, e: ir.Attr) -> tuple[int, str]:
        return POSTFIX, f"{self.text(e.obj, POSTFIX)}.{e.name}"

    def visit_Index(self, e: ir.Index) -> tuple[int, str]:
        return POSTFIX, f"{self.text(e.obj, POSTFIX)}[{self.text(e.key)}]"

    def visit_Call(self, e: ir.Call) -> tuple[int, str]:
        return POSTFIX, f"{e.func}({', '.join(self.text(a) for a in e.args)})"

    def visit_BinOp(self, e: ir.BinOp) -> tuple[int, str]:
        level = _BINARY.get(e.op)
        if level is None:  # comparisons and membership do not chain
            return COMPARE, f"{self.text(e.left, RANGE)} {e.op} {self.text(e.right, RANGE)}"
        return level, f"{self.text(e.left, level)} {e.op} {self.text(e.right, level + 1)}"

    def visit_UnOp(self, e: ir.UnOp) -> tuple[int, str]:
        if e.op == "not":
            return NOT, f"not {self.text(e.operand, NOT)}"
        return UNARY, f"-{self.text(e.operand, UNARY)}"

    def visit_Cond(self, e: ir.Cond) -> tuple[int, str]:
        return COND, (f"{self.text(e.then, OR)} if {self.text(e.test, OR)} else "
                      f"{self.text(e.other, COND)}")

    def visit_TupleExpr(self, e: ir.TupleExpr) -> tuple[int, str]:
        items = ", ".join(self.text(i) for i in e.items)
        return POSTFIX, f"({items}{',' if len(e.items) == 1 else ''})"

    def visit_ListExpr(self, e: ir.ListExpr) -> tuple[int, str]:
        return POSTFIX, "[" + ", ".join(self.text(i) for i in e.items) + "]"

    def visit_DictExpr(self, e: ir.DictExpr) -> tuple[int, str]:
        pairs = (f"{self.text(k)}: {self.text(v)}" for k, v in zip(e.keys, e.values,
                                                                  strict=True))
        return POSTFIX, "{" + ", ".join(pairs) + "}"

    def visit_RangeExpr(self, e: ir.RangeExpr) -> tuple[int, str]:
        return RANGE, f"{self.text(e.lo, SUM)}..{self.text(e.hi, SUM)}"

    def visit_Filter(self, e: ir.Filter) -> tuple[int, str]:
        # Either side may be a conditional; it is put in parentheses all the same.
        return FILTER, f"{self.text(e.coll, OR)} where {self.text(e.cond, OR)}"

    def visit_IsKind(self, e: ir.IsKind) -> tuple[int, str]:
        return COMPARE, f"{self.text(e.obj, RANGE)} is {'not ' if e.negate else ''}{e.kind}"

    def visit_Seat(self, e: ir.Seat) -> tuple[int, str]:
        return UNARY, f"{e.side} of {self.text(e.of, UNARY)}"


# Diagnostics, diff and graph show strings as written, control characters included (the
# terminal layer cleans them); ruleset text escapes them so that it reads back.
_EXPRS = ExprPrinter(lambda text: '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"')
_SOURCE = ExprPrinter(quote)


def _src(e: ir.Expr | None, prec: int = FILTER) -> str:
    """An expression as ruleset text (see :func:`expr_text`; strings fully escaped)."""
    return "none" if e is None else _SOURCE.text(e, prec)


def stmt_lines(stmts: list[ir.Stmt], depth: int = 0) -> list[str]:
    """Statements as indented lines of text, ``depth`` levels in."""
    printer = StmtPrinter()
    printer.block(stmts, depth)
    return printer.lines


class StmtPrinter(Stage):
    """Statements to lines of text: ``visit_<Node>(s, depth)`` appends the lines of ``s``,
    indented ``depth`` levels, to :attr:`lines`."""

    handles = (ir.StmtNode,)

    def __init__(self) -> None:
        self.lines: list[str] = []

    def line(self, depth: int, text: str) -> None:
        """Append ``text`` indented ``depth`` levels."""
        self.lines.append(INDENT * depth + text)

    def block(self, stmts: list[ir.Stmt], depth: int) -> None:
        """Append each statement of a block, ``depth`` levels in."""
        for s in stmts:
            self.visit(s, depth)

    def header(self, depth: int, text: str, body: list[ir.Stmt]) -> None:
        """``text:`` and its block one level further in."""
        self.line(depth, text + ":")
        self.block(body, depth + 1)

    # ------------------------------------------------------------ effects
    def visit_Assign(self, s: ir.Assign, depth: int) -> None:
        self.line(depth, f"{_src(s.target, POSTFIX)} {s.op} {_src(s.value)}")

    def visit_Let(self, s: ir.Let, depth: int) -> None:
        self.line(depth, f"let {s.name} = {_src(s.value)}")

    def visit_Move(self, s: ir.Move, depth: int) -> None:
        end = "bottom of " if s.end == "bottom" else ""
        at = " at random" if s.end == "random" else ""
        self.line(depth, f"move {_src(s.cards)} to {end}{_src(s.to)}{at}")

    def visit_Shuffle(self, s: ir.Shuffle, depth: int) -> None:
        self.line(depth, f"shuffle {_src(s.zone)}")

    def visit_Reveal(self, s: ir.Reveal, depth: int) -> None:
        self.line(depth, f"{'reveal' if s.shown else 'hide'} {_src(s.zone)}")

    def visit_Deal(self, s: ir.Deal, depth: int) -> None:
        start = f" starting with {_src(s.start)}" if s.start is not None else ""
        count = "all" if s.count is None else f"{'up to ' if s.up_to else ''}{_src(s.count)}"
        self.line(depth, f"deal {count} from {_src(s.source)} to {s.to}{start}")

    def visit_Say(self, s: ir.Say, depth: int) -> None:
        self.line(depth, _words("say", labels_text(s.text)))

    def visit_EndGame(self, s: ir.EndGame, depth: int) -> None:
        self.line(depth, "end game")

    # ------------------------------------------------------------ control
    def visit_If(self, s: ir.If, depth: int) -> None:
        for i, (test, body) in enumerate(zip(s.tests, s.bodies, strict=True)):
            self.header(depth, f"{'elif' if i else 'if'} {_src(test)}", body)
        if s.orelse:
            self.header(depth, "else", s.orelse)

    def visit_Repeat(self, s: ir.Repeat, depth: int) -> None:
        if s.count is not None:
            var = f" as {s.var}" if s.var else ""
            self.header(depth, f"repeat {_src(s.count)} times{var}", s.body)
        else:
            self.header(depth, f"repeat while {_src(s.test)}", s.body)

    def visit_ForEachPlayer(self, s: ir.ForEachPlayer, depth: int) -> None:
        start = f" from {_src(s.start)}" if s.start is not None else ""
        if s.order is not None:
            head = f"for each player {s.var} ordered by {_src(s.order)}{start}"
        else:
            turn = "" if s.clockwise else " counterclockwise"
            until = f" until {_src(s.until)}" if s.until is not None else ""
            head = f"for each player {s.var}{start}{turn}{until}"
        self.header(depth, head, s.body)

    def visit_ForEachIn(self, s: ir.ForEachIn, depth: int) -> None:
        # 'card' before a name the grammar reads as a keyword here.
        var = f"card {s.var}" if s.var in ("card", "player") else s.var
        self.header(depth, f"for each {var} in {_src(s.coll)}", s.body)

    def visit_Break(self, s: ir.Break, depth: int) -> None:
        self.line(depth, "break")

    def visit_EndTrick(self, s: ir.EndTrick, depth: int) -> None:
        self.line(depth, "end trick")

    def visit_Do(self, s: ir.Do, depth: int) -> None:
        self.line(depth, f"do {s.name}")

    def visit_Trigger(self, s: ir.Trigger, depth: int) -> None:
        self.line(depth, f"trigger {s.step} for {_src(s.cards)}")

    # ------------------------------------------------------------ decisions
    def visit_Choose(self, s: ir.Choose, depth: int) -> None:
        verb = "may choose" if s.optional else "chooses"
        where = f" where {_src(s.where)}" if s.where is not None else ""
        skip = " ".join(_skip_text(k) for k in s.skips())
        count, shape = card_set_text(s.cards)
        self.line(depth, _words(
            f"{_src(s.player, UNARY)}{' secretly' if s.secret else ''} {verb} "
            f"{count}{s.name} from {_src(s.domain, OR)}{shape}{where}", labels_text(s.prompt),
            skip))

    def visit_Trick(self, s: ir.Trick, depth: int) -> None:
        climbing = " climbing" if s.climbing else ""
        self.line(depth, f"trick{climbing} in {_src(s.zone)} led by "
                         f"{_src(s.leader)}:")
        inner = depth + 1
        where = f" where {_src(s.where)}" if s.where is not None else ""
        count, shape = card_set_text(s.cards)
        self.line(inner, _words(f"each player plays {count}{s.card_var} from "
                                f"{_src(s.source, OR)}{shape}{where}", labels_text(s.prompt)))
        clauses: dict[str, Callable[[], None]] = {}
        if s.pass_label is not None:
            turn = "pass for this turn" if s.pass_for_turn else "pass"
            if s.pass_turn_test is not None:
                word = "unless" if s.pass_turn_unless else "if"
                turn += f" {word} {_src(s.pass_turn_test)}"
            text = _words(turn, labels_text(s.pass_label))
            clauses["pass"] = lambda: self.line(inner, text)
        if s.sits_out is not None:
            clauses["sits out"] = lambda: self.line(inner, f"sits out if {_src(s.sits_out)}")
        if s.chosen_by is not None:
            clauses["chosen by"] = lambda: self.line(inner, f"chosen by {_src(s.chosen_by)}")
        for word, body in (("before play", s.before_play), ("after play", s.after_play),
                           ("after trick", s.after_trick)):
            if body:
                clauses[word] = partial(self.header, inner, word, body)
        if s.key is not None:
            clauses["won by"] = lambda: self.line(inner, f"won by highest {_src(s.key)}")
        for word in _in_order(s.order, ir.TRICK_CLAUSES):
            if word in clauses:
                clauses[word]()


def _in_order(written: list[str], usual: Iterable[str]) -> list[str]:
    """The order to print a node's clauses in: ``written`` (the file's, when the node keeps
    it) then any others in the ``usual`` order."""
    return [*written, *(w for w in usual if w not in written)]


def card_set_text(c: ir.CardSet | None) -> tuple[str, str]:
    """The count before a chosen name (``"1..4 "``) and the shape after the cards
    (``" of one rank or one suit and consecutive rank"``) of several cards as one
    decision."""
    if c is None:
        return "", ""
    count = "" if c.low is None else f"{c.low} " if c.low == c.high else f"{c.low}..{c.high} "
    shapes = [" and ".join([f"one {_key_name(k)}" for k in shape.same]
                           + [f"consecutive {_key_name(k)}" for k in shape.runs])
              for shape in c.shapes]
    return count, " of " + " or ".join(shapes) if shapes else ""


def _key_name(key: ir.Expr) -> str:
    """A shape key's attribute name (the parser makes every key ``it.NAME``)."""
    assert isinstance(key, ir.Attr)
    return key.name


def _words(*parts: str) -> str:
    """The non-empty parts, separated by spaces."""
    return " ".join(p for p in parts if p)


class DeclPrinter(Stage):
    """Declarations to lines of text: ``visit_<Node>(d)`` returns the lines of ``d``."""

    handles = (ir.DeclNode,)

    def visit_OptionDecl(self, d: ir.OptionDecl) -> list[str]:
        return _with_doc(f"option {d.name}: {option_type_text(d)} = {_src(d.default)}",
                         d.doc)

    def visit_EnumDecl(self, d: ir.EnumDecl) -> list[str]:
        head = _words(f"enum {d.name}", labels_text(d.labels)) + ":"
        values = [_words(v.name, labels_text(v.labels)) for v in d.values]
        if not d.values or d.values[0].span.line <= d.span.line:
            return [f"{head} {', '.join(values)}"]  # (a long line is the formatter's to break)
        # Written as a block: its values keep the lines they were written on.
        rows: list[list[str]] = []
        for k, (v, text) in enumerate(zip(d.values, values, strict=True)):
            if k == 0 or v.span.line != d.values[k - 1].span.line:
                rows.append([])
            rows[-1].append(text)
        return [head, *(INDENT + ", ".join(row) for row in rows)]

    def visit_KindDecl(self, d: ir.KindDecl) -> list[str]:
        lines: dict[str, list[str]] = {}
        for a in d.attrs:  # (an attribute given twice is printed twice, for the validator)
            lines.setdefault(a.name, []).append(_attr_text(a))
        if _given(d, "copies"):
            lines["copies"] = [f"copies: {_src(d.copies)}"]
        if _given(d, "card_label"):
            lines["label"] = [_words("label:", labels_text(d.card_label))]
        if d.short is not None:
            lines["short"] = [f"short: {quote(d.short)}"]
        if d.rows is not None:
            printed = [a.name for a in d.attrs if a.value is None]
            lines["table"] = ["table:", *(INDENT + _row_text(row, printed) for row in d.rows)]
        # (the usual order: attributes, copies, label, short, table, as added above)
        items = [line for word in _in_order(d.order, lines) for line in lines.get(word, [])]
        head = _words(f"card {d.name}", labels_text(d.labels))
        return [head + ":", *(INDENT + item for item in items)] if items else [head]

    def visit_ZoneDecl(self, d: ir.ZoneDecl) -> list[str]:
        flags = [] if d.per_player is None else ["per player" if d.per_player else "shared"]
        if _given(d, "visibility"):
            flags.append(d.visibility)
        flags += [flag.text for flag in d.unknown_flags]
        if d.seen_by is not None:
            flags.append(f"seen by {_src(d.seen_by)}")
        return [_words(f"zone {d.name}", labels_text(d.labels)) + ": " + ", ".join(flags)]

    def visit_VarDecl(self, d: ir.VarDecl) -> list[str]:
        scope = "" if d.scope == "global" else f"{d.scope} "
        default = "" if isinstance(d.default, ir.NoneLit) else f" = {_src(d.default)}"
        sight = f" {d.visibility}" if _given(d, "visibility") else ""
        return [_words(f"{scope}var {d.name}", labels_text(d.labels))
                + f": {d.type}{default}{' kept' if d.kept else ''}{sight}"]

    def visit_AbilityDecl(self, d: ir.AbilityDecl) -> list[str]:
        parts = {f"modify {stat}": [f"{INDENT}modify {stat}: {_src(e)}"]
                 for stat, e in d.modifies.items()}
        parts.update({f"at {step}": [f"{INDENT}at {step}:", *stmt_lines(body, 2)]
                      for step, body in d.steps.items()})
        head = _words(f"ability {d.name}", labels_text(d.labels)) + ":"
        return [head, *(line for word in _in_order(d.order, parts)
                        for line in parts.get(word, []))]

    def visit_LimitDecl(self, d: ir.LimitDecl) -> list[str]:
        return [f"limit {d.name} {d.value}"]

    def visit_RuleDecl(self, d: ir.RuleDecl) -> list[str]:
        return [_words(f"rule {d.name}", labels_text(d.labels)) + ":", *stmt_lines(d.body, 1)]

    def visit_DefineDecl(self, d: ir.DefineDecl) -> list[str]:
        return [f"define {d.name}({', '.join(d.params)}) = {_src(d.body)}"]

    def visit_PhaseDecl(self, d: ir.PhaseDecl) -> list[str]:
        lines = [_words(f"phase {d.name}", labels_text(d.labels)) + ":", *stmt_lines(d.body, 1)]
        for t in d.transitions:
            guard = f" if {_src(t.guard)}" if t.guard is not None else ""
            lines.append(f"{INDENT}next {t.target}{guard}")
        return lines


def _with_doc(line: str, doc: str) -> list[str]:
    """An option line and its doc: on the line, or on the next when the line gets long."""
    if not doc:
        return [line]
    if len(line) + len(doc) + 3 > 100:
        return [line, INDENT + quote(doc)]
    return [f"{line} {quote(doc)}"]


def _given(node: ir.Node, name: str) -> bool:
    """Whether field ``name`` of ``node`` was written (set, or not its default)."""
    info = type(node).model_fields[name]
    return name in node.model_fields_set or getattr(node, name) != info.get_default(
        call_default_factory=True)


def _attr_text(a: ir.AttrDecl) -> str:
    if a.value is not None:
        return f"{a.name} = {_src(a.value)}"
    if a.text:
        return f"{a.name}: text"
    if a.set_of is not None:
        return f"{a.name}: set of {a.set_of}"
    if a.enum is not None:
        return f"{a.name}: {a.enum}"
    return f"{a.name}: {a.lo}..{a.hi}"


def _row_text(row: ir.CardRow, printed: list[str]) -> str:
    cells = [row.values[name] for name in printed if name in row.values]
    if _given(row, "copies"):
        cells.append(row.copies)
    return " | ".join(_cell_text(c) for c in [*cells, *row.extra])


def _cell_text(value: Any) -> str:
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list):
        return ", ".join(value) or "-"
    return str(value)


# Where a variant's override of each kind of declaration lives in the Ruleset.
_LISTS = {"option": "options", "enum": "enums", "card": "kinds", "zone": "zones",
          "var": "vars", "ability": "abilities", "rule": "rules", "phase": "phases",
          "define": "defines"}


def ruleset_text(r: ir.Ruleset) -> str:
    """A whole ruleset as text that parses back to the same IR (spans aside).

    Declarations come in the order of their lists (options, enums, cards, zones, variables,
    abilities, rules, phases), except that a variant's ``replace``, ``remove`` and ``option
    NAME = ...`` lines keep their order among themselves.
    """
    decls = DeclPrinter()
    blocks: list[tuple[str, list[str]]] = []  # (kind of declaration, lines)
    head = []
    if r.extends is not None:
        head.append(f"extends {quote(r.extends)}")
    if _given(r, "title"):
        head.append(_words("game", labels_text(r.title)))
    if _given(r, "min_players") or _given(r, "max_players"):
        usual = "" if r.usual_players is None else f", usually {r.usual_players}"
        count = f"{r.min_players}" if r.min_players == r.max_players else \
            f"{r.min_players}..{r.max_players}"  # (the shipped style: 'players 4')
        head.append(f"players {count}{usual}")
    for name in ("author", "about"):
        if _given(r, name):
            head.append(f"{name} {quote(getattr(r, name))}")
    head += [f"include {quote(path)}" for path, _ in r.includes]
    blocks.append(("head", head))
    blocks.append(("limit", [line for d in r.limits for line in decls.visit(d)]))
    pending = {what: list(getattr(r, field)) for what, field in _LISTS.items()}

    def emit_until(what: str, marker: ir.Override | None) -> None:
        """Print the declarations of one list up to the one ``marker`` replaces (the one
        written there, else the first of its name), or all of them when None."""
        items = pending[what]
        count, replaced = len(items), None
        if marker is not None:
            named = [i for i, d in enumerate(items) if d.name == marker.name]
            if not named:
                return
            replaced = next((i for i in named if items[i].span == marker.span), named[0])
            count = replaced + 1
        for i, d in enumerate(items[:count]):
            lines = decls.visit(d)
            blocks.append((what, ["replace " + lines[0], *lines[1:]] if i == replaced
                           else lines))
        del items[:count]

    for o in r.overrides:
        if o.action == "replace":
            emit_until(o.what, o)
        elif o.action == "remove":
            blocks.append(("override", [f"remove {o.what} {o.name}"]))
        else:
            blocks.append(("override", _with_doc(f"option {o.name} = {_src(o.value)}",
                                                 o.doc)))
    for what in _LISTS:
        emit_until(what, None)
    tail = [f"start {r.start}"] if r.start is not None else []
    if r.score is not None:
        tail.append(f"score: {_src(r.score)}")
    tail += [f"tiebreak: {_src(t)}" for t in r.tiebreaks]
    if r.winners is not None:
        tail.append(f"winners: {_src(r.winners)}")
    if r.teams is not None:
        tail.append(f"teams: {_src(r.teams)}")
    blocks.append(("tail", tail))
    out, last = "", ("", 0)
    for kind, lines in (b for b in blocks if b[1]):
        # One-line declarations of one kind (zones, variables...) stay together.
        gap = "\n" if (kind, len(lines)) == last == (last[0], 1) else "\n\n" if out else ""
        out += gap + "\n".join(lines)
        last = (kind, len(lines))
    return out + "\n"
