"""``rulesplay fmt``: a ruleset in canonical layout, its words, clauses and comments kept.

fmt changes layout only: the result has the input's tokens (words, numbers, strings,
brackets) in the input's order, a token's inner blanks aside (``may  choose``); this is
checked, with the IR (:func:`same_meaning`), before anything is returned.

Each top-level line (a declaration with its indented block, or a line such as ``game`` or
``score:``) is printed by the statement printer of :mod:`rulesplay.show` in the order it was
written, which gives the spacing and the indentation (four spaces a level). Where the
printer spells a token otherwise or leaves it out, the author's is put back
(:func:`_reworded`): ``yes``/``no`` or ``true``/``false``, ``for each card x``, ``top of``,
``clockwise``, ``players 2..2``, ``3..3 cards``, ``repeat until``, a zone's ``stack`` or
``ordered``, a trailing comma, brackets that change nothing, a string's escapes, ``007``, a
name's own characters, the order of flags or shape parts on a line. Clauses that may come in
any order (a trick's, a card kind's lines, an ability's lines) are printed in the order
written (the IR keeps it), and so are an enum's values over the lines of its block. An item
that cannot be put back line by line (not expected) is kept as written.

Blank lines: the author's are kept, at top level and inside blocks, a run of them as one;
fmt adds none, and drops those at the start and the end of the file. Comments are collected
with their positions by the lexer (:func:`comments`) and put back: a comment on a line of
its own goes before the printed line of the code that followed it, at that line's
indentation; a comment after code goes at the end of that code's printed line.

Long lines: width is counted in terminal columns (:func:`width`: an East Asian wide or
full-width character is 2). A statement the author wrote over several lines is kept so when
each line fits in :data:`WIDTH` and the lines after the first are further in (continuation
lines): the blanks within each line are tidied, and each continuation line stays as far in
beyond the first as written (:func:`_kept_breaks`). Card table rows keep the author's
blanks between cells (aligned columns). Any other
printed line wider than :data:`WIDTH` is broken at a space outside strings (see
:func:`_break_at`) into continuation lines two levels further in (so a statement written
over lines that do not all fit is printed anew, joined and then broken where needed).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache
from itertools import accumulate
from threading import Lock
from typing import Any

from lark import Lark, Token
from lark.exceptions import LarkError
from rich.cells import cell_len

from . import ir
from .errors import RulesError, Span
from .grammar import _RulesIndenter, parser
from .parse import normalize_newlines, parse_text
from .show import INDENT, ruleset_text


@dataclass(frozen=True)
class Comment:
    """A ``#`` comment: 1-based ``line`` and ``col`` of its ``#``, its ``text`` (with the
    ``#``, trailing blanks dropped) and whether code comes before it on its line."""

    line: int
    col: int
    text: str
    after_code: bool


class _Recorder(_RulesIndenter):
    """The indentation rule, noting each token the lexer hands it, as written."""

    found: list[Token]

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        """The indentation rule's tokens; each token of ``stream`` is noted in :attr:`found`
        as it is read."""
        def noted() -> Iterator[Token]:
            for tok in stream:
                self.found.append(tok)
                yield tok
        return super().process(noted())


_LEXING = Lock()


@cache
def _token_lexer() -> tuple[Lark, list[Token]]:
    """The language's parser, keeping every token it reads and the comments it ignores (in
    ``COMMENT`` tokens, and inside the newline tokens that swallow comment-only lines)."""
    found: list[Token] = []

    def keep(tok: Token) -> Token:
        found.append(tok)
        return tok

    recorder = _Recorder()
    recorder.found = found
    lark = Lark(parser().source_grammar, parser="lalr", postlex=recorder,
                propagate_positions=True, maybe_placeholders=True,
                start=["start", "expr_only"], lexer_callbacks={"COMMENT": keep})
    return lark, found


def _lexed(text: str) -> list[Token]:
    """Every token of ``text`` (a ruleset that parses) as the lexer read it, comments and
    line ends included, in order.

    Raises:
        lark.exceptions.LarkError: the text does not parse.
    """
    lark, found = _token_lexer()
    with _LEXING:  # (one list of tokens per process; a server formats on several threads)
        found.clear()
        lark.parse(text, start="start")
        return sorted(found, key=lambda t: t.start_pos or 0)


def words(text: str) -> list[str]:
    """The code tokens of ``text`` (a ruleset that parses) as written, comments and layout
    aside, each with its inner blanks made one space (``may  choose``): what fmt keeps.

    Raises:
        lark.exceptions.LarkError: the text does not parse.
    """
    return [_word(t) for t in _lexed(text) if t.type not in ("COMMENT", "_NL")]


def _word(tok: Token) -> str:
    return re.sub(r"\s+", " ", str(tok))


def comments(text: str) -> list[Comment]:
    """Every comment of ``text`` (a ruleset that parses), in order.

    Raises:
        lark.exceptions.LarkError: the text does not parse (call :func:`parse_text` first).
    """
    found = [t for t in _lexed(text) if t.type in ("COMMENT", "_NL")]
    lines = text.split("\n")
    out: dict[tuple[int, int], Comment] = {}
    for tok in found:
        if tok.type == "COMMENT":
            spots = [(tok.line or 1, tok.column or 1)]
        else:  # a newline token: the comment-only lines it swallowed
            spots = [((tok.line or 1) + k, m.end()) for k, piece in enumerate(tok.split("\n"))
                     if k > 0 for m in [re.match(r"[\t ]*#", piece)] if m is not None]
        for ln, col in spots:
            line = lines[ln - 1]
            out[(ln, col)] = Comment(ln, col, line[col - 1:].rstrip(),
                                     bool(line[:col - 1].strip()))
    return [out[k] for k in sorted(out)]


def plain(node: Any) -> Any:
    """``node`` as plain data without spans (what :func:`same_meaning` compares)."""
    if isinstance(node, ir.Node):
        return (type(node).__name__, {k: plain(getattr(node, k))
                                      for k in type(node).model_fields if k != "span"})
    if isinstance(node, Span):
        return None
    if isinstance(node, list | tuple):
        return [plain(x) for x in node]
    if isinstance(node, dict):
        return {k: plain(v) for k, v in node.items()}
    return node


def same_meaning(a: ir.Ruleset, b: ir.Ruleset) -> bool:
    """Whether two parsed rulesets are the same, spans aside."""
    return bool(plain(a) == plain(b))


def _norm(code: str) -> str:
    return re.sub(r"\s+", "", code)


def _top_starts(lines: list[str]) -> list[int]:
    """0-based indexes of the lines that start a top-level item (code at column 1)."""
    return [i for i, line in enumerate(lines) if line[:1] not in ("", " ", "\t", "#")]


def format_text(text: str, file: str = "<input>") -> str:
    """``text`` (a ruleset) in canonical layout, comments kept (see the module's doc).

    Raises:
        RulesError: the text does not parse (the parser's diagnostics), or, as a safeguard,
            the layout would change what the ruleset means or its words (nothing is
            written then).
    """
    whole = parse_text(text, file)
    text = normalize_newlines(text.removeprefix("\ufeff"))
    lines = text.split("\n")
    notes = {c.line: c for c in comments(text if text.endswith("\n") else text + "\n")}
    starts = _top_starts(lines)
    pieces: list[tuple[int, int]] = []  # (first line, end line exclusive), 0-based
    for k, first in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        pieces.append((first, end))
    out: list[str] = []
    # Comments and blank lines before the first item.
    _between(lines, notes, 0, pieces[0][0] if pieces else len(lines), out)
    k = 0
    while k < len(pieces):
        first, end = pieces[k]
        try:
            chunk, last_code = _chunk(lines, notes, first, end, file)
        except RulesError:  # a line at column 1 inside brackets: part of the item before
            if k + 1 >= len(pieces):
                raise
            pieces[k:k + 2] = [(first, pieces[k + 1][1])]
            continue
        out += chunk
        nxt = pieces[k + 1][0] if k + 1 < len(pieces) else len(lines)
        _between(lines, notes, last_code + 1, nxt, out)
        k += 1
    while out and out[-1] == "":
        out.pop()
    result = "\n".join(out) + "\n"
    try:
        again = parse_text(result, file)
    except RulesError:
        again = None
    if again is None or not same_meaning(whole, again) or \
            words(result) != words(text if text.endswith("\n") else text + "\n"):
        raise RulesError("fmt would change what this ruleset means; it is left as it is "
                         "(please report this)", Span(file=file, line=1, col=1))
    return result


def _between(lines: list[str], notes: dict[int, Comment], lo: int, hi: int,
             out: list[str]) -> None:
    """Lines ``lo``..``hi`` (0-based, exclusive) outside any item: comments (at column 1)
    and blank lines (runs of them as one)."""
    for i in range(lo, hi):
        if not lines[i].strip():
            if out and out[-1] != "":
                out.append("")
        elif i + 1 in notes:
            out.append(notes[i + 1].text)


def _chunk(lines: list[str], notes: dict[int, Comment], first: int, end: int,
           file: str) -> tuple[list[str], int]:
    """One top-level item printed, with the comments among its lines; and the 0-based index
    of its last line of code (or of an indented comment that ends it).

    Raises:
        RulesError: the item does not parse alone.
    """
    code = [i for i in range(first, end) if lines[i].strip() and
            not (i + 1 in notes and not notes[i + 1].after_code)]
    last = code[-1]
    # Indented comment lines right after the last code line belong to the item.
    for i in range(last + 1, end):
        if i + 1 in notes and not notes[i + 1].after_code and lines[i][:1] in (" ", "\t"):
            last = i
        else:
            break
    source = "\n" * first + "\n".join(lines[first:last + 1]) + "\n"
    mini = parse_text(source, file)
    written = [t for t in _lexed(source) if t.type not in ("COMMENT", "_NL")]
    printed = _reworded(ruleset_text(mini).rstrip("\n").split("\n"), written)
    if printed is None:  # (not expected) the item as written, blank runs made one
        kept = [line.rstrip() for line in lines[first:last + 1]]
        return [x for k, x in enumerate(kept) if x or kept[k - 1]], last
    # Each line of code -> the printed line that reads the same (a statement written over
    # several lines: each of them), in order, when one does.
    at: dict[int, int] = {}
    cursor, p = 0, 0
    while p < len(code):
        for j in range(cursor, len(printed)):
            target, acc, q = _norm(printed[j]), "", p
            while q < len(code) and target.startswith(acc) and acc != target:
                acc += _norm(_code_part(lines[code[q]], notes.get(code[q] + 1)))
                q += 1
            if acc == target:
                at.update({code[r]: j for r in range(p, q)})
                cursor, p = j + 1, q - 1
                break
        p += 1
    before: dict[int, list[str]] = {}
    after: dict[int, list[str]] = {}
    for i in range(first, last + 1):
        note = notes.get(i + 1)
        if note is None and not lines[i].strip():  # a blank line: kept like a comment
            note = Comment(i + 1, 1, "", False)
        elif note is None:
            continue
        nxt = next((j for j in code if j > i or (j == i and note.after_code)), None)
        if nxt is not None and nxt in at:
            anchor = at[nxt]
        else:  # code printed otherwise: right after the line of the code before it
            prev = [at[j] for j in code if j < i and j in at]
            anchor = prev[-1] + 1 if prev else 0
        if note.after_code and at.get(i) == anchor:
            after.setdefault(anchor, []).append(note.text)
        else:
            before.setdefault(anchor, []).append(note.text)
    groups = _wrapped(printed, mini, first, file)
    for j, kept in _kept_breaks(lines, code, at, notes, printed).items():
        groups[j] = kept
    for j, row in _table_rows(lines, code, at, notes, printed).items():
        groups[j] = [row]
    out: list[str] = []
    for j, group in enumerate(groups):
        indent = group[0][:len(group[0]) - len(group[0].lstrip())]
        for text in before.get(j, []):
            if text or out[-1:] != [""]:  # (a run of blank lines as one)
                out.append(indent + text if text else "")
        out += group[:-1]
        out.append("  ".join([group[-1], *after.get(j, [])]))
    indent = out[-1][:len(out[-1]) - len(out[-1].lstrip())] if len(out) > 1 else INDENT
    out += [indent + text for text in before.get(len(groups), []) if text]
    return out, last


def _kept_breaks(lines: list[str], code: list[int], at: dict[int, int],
                 notes: dict[int, Comment], printed: list[str]) -> dict[int, list[str]]:
    """The statements the file writes over several lines, each continued further in than
    the first: printed line -> the printed statement broken where the file breaks it, each
    line after the first as far in beyond the first as written (fmt keeps an author's
    breaks, a prompt on its own line, when they read well: when every line fits in
    :data:`WIDTH`; it breaks only lines too long)."""
    by_line: dict[int, list[int]] = {}
    for i in code:
        if i in at:
            by_line.setdefault(at[i], []).append(i)
    kept: dict[int, list[str]] = {}
    for j, rows in by_line.items():
        if len(rows) < 2 or any(r + 1 in notes for r in rows):
            continue
        written = [lines[r].rstrip() for r in rows]
        starts = [len(w) - len(w.lstrip()) for w in written]
        if any(s <= starts[0] or "\t" in w[:s] for s, w in zip(starts[1:], written[1:],
                                                               strict=True)):
            continue
        # Cut the printed line where the written one is cut: after as many characters of
        # code (blanks aside) as each written line holds.
        marks = [k for k, ch in enumerate(printed[j]) if not ch.isspace()]
        ends = list(accumulate(len(_norm(w)) for w in written))
        if ends[-1] != len(marks) or 0 in ends[:1]:
            continue
        cuts = [marks[n - 1] + 1 for n in ends[:-1]]
        indent = len(printed[j]) - len(printed[j].lstrip())
        pieces = [printed[j][a:b].strip() for a, b in zip([0, *cuts], [*cuts, None],
                                                          strict=True)]
        broken = [printed[j][:cuts[0]].rstrip()] + [
            " " * (indent + s - starts[0]) + piece for s, piece in zip(starts[1:], pieces[1:],
                                                                       strict=True)]
        if all(pieces) and all(width(line) <= WIDTH for line in broken):
            kept[j] = broken
    return kept


def _table_rows(lines: list[str], code: list[int], at: dict[int, int],
                notes: dict[int, Comment], printed: list[str]) -> dict[int, str]:
    """The rows of a card table, each written on one line: printed line -> the row with the
    author's blanks between its cells (columns lined up stay so), at the printed indent."""
    rows: set[int] = set()
    table: int | None = None  # the indent of the 'table:' line of the rows below it
    for j, line in enumerate(printed):
        depth = len(line) - len(line.lstrip())
        if table is not None and depth > table:
            rows.add(j)
        else:
            table = depth if line.strip() == "table:" else None
    kept: dict[int, str] = {}
    for i in code:
        j = at.get(i, -1)
        if j in rows and list(at.values()).count(j) == 1:
            indent = printed[j][:len(printed[j]) - len(printed[j].lstrip())]
            kept[j] = indent + _code_part(lines[i], notes.get(i + 1)).strip()
    return kept


# Words a long line is best broken before (a condition's parts, a prompt).
_BEFORE = re.compile(r'(where|and|or|if|else|skip|from|to)\b|"|[-+*] ')
_OPERATORS = ("==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%", "=", "+=", "-=")
WIDTH = 100  # a printed line wider than this is broken where the language allows


def width(text: str) -> int:
    """The columns ``text`` (one line) takes in a terminal, as rich counts them (the tables
    and screens use the same count): 2 for an East Asian wide or full-width character
    (``赤``), 0 for a combining mark, 1 for most others."""
    return cell_len(text)


def _wrapped(printed: list[str], mini: ir.Ruleset, first: int, file: str) -> list[list[str]]:
    """Each line of ``printed`` as the lines it is broken into: a line longer than
    :data:`WIDTH` is broken at spaces (outside strings, never after a ``:``) into continuation
    lines two levels further in. Nothing is broken when the broken text would not parse to
    the same item (``mini``, from line ``first``, 0-based)."""
    groups: list[list[str]] = []
    for line in printed:
        indent = line[:len(line) - len(line.lstrip())] + 2 * INDENT
        group = []
        while width(line) > WIDTH:
            cut = _break_at(line, len(indent))
            if cut is None:
                break
            group.append(line[:cut].rstrip())
            line = indent + line[cut:].lstrip()
        groups.append([*group, line])
    if len(groups) == sum(len(g) for g in groups):
        return groups
    broken = [line for g in groups for line in g]
    try:
        same = same_meaning(parse_text("\n" * first + "\n".join(broken) + "\n", file), mini)
    except RulesError:
        same = False
    return groups if same else [[line] for line in printed]


def _break_at(line: str, least: int) -> int | None:
    """Where to break ``line``: a space before :data:`WIDTH`, outside strings, with more than
    ``least`` characters on its left that do not end in ``:`` or an opening bracket; the
    least nested such space past the middle after a comma (between the items of a list), the
    last one if one is; else, past the middle, the last before a word of :data:`_BEFORE` at
    the least depth that has one; else the last least nested one past the middle, not right
    after an operator when it can; None when there is none."""
    cuts: list[tuple[int, int]] = []  # (bracket depth, position)
    quoted, depth, k = False, 0, 0
    while k < len(line) and width(line[:k]) <= WIDTH:
        ch = line[k]
        if quoted and ch == "\\":
            k += 2
            continue
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "([{":
            depth += 1
        elif not quoted and ch in ")]}":
            depth -= 1
        elif ch == " " and not quoted and k > least and line[:k].rstrip()[-1:] not in \
                (":", "(", "[", "{", "") and line[k + 1:k + 2] not in (" ", ""):
            cuts.append((depth, k))
        k += 1
    if not cuts:
        return None
    late = [c for c in cuts if width(line[:c[1]]) > WIDTH // 2] or cuts
    shallow = min(d for d, _ in late)
    level = [k for d, k in late if d == shallow]
    items = [k for k in level if line[k - 1] == ","]
    before = [(d, k) for d, k in late if _BEFORE.match(line, k + 1)]
    starts = [k for d, k in before if d == min(d for d, _ in before)]
    # (an operator stays with what it works on: no break right after one)
    level = [k for k in level if line[:k].split()[-1] not in _OPERATORS] or level
    return max(items or starts or level)


_OPEN, _CLOSE = ("(", "[", "{"), (")", "]", "}")
_VALUES = ("NAME", "INT", "STRING", "BOOL")


def _gap(left: Token | None, right: Token | None, before: Token | None) -> str:
    """The blank fmt puts between two tokens on a line (``before`` the token before
    ``left``, which says whether a ``-`` is a sign), as the statement printer spaces them."""
    if left is None or right is None:
        return ""
    a, b = str(left), str(right)
    if a in _OPEN or a in (".", "..") or b in _CLOSE or b in (",", ":", ".", ".."):
        return ""
    if b in ("(", "[") and (left.type == "NAME" or a in _CLOSE):
        return ""  # a call, an index
    if a == "-" and not (before is not None and (before.type in _VALUES or str(before) in _CLOSE)):
        return ""  # a sign
    return " "


def _reworded(printed: list[str], written: list[Token]) -> list[str] | None:
    """``printed`` (an item as the statement printer writes it) with the author's tokens
    (``written``, code only) where the printer spells them otherwise or leaves them out
    (``yes``, ``top of``, a bracket that changes nothing); None when that cannot be done
    line by line (the lines are then kept as written)."""
    mine = [t for t in _lexed("\n".join(printed) + "\n") if t.type not in ("COMMENT", "_NL")]
    # (False: common tokens of a long item are not set aside as noise)
    ops = SequenceMatcher(None, [_word(t) for t in mine], [_word(t) for t in written],
                          False).get_opcodes()
    lines = list(printed)
    edits: dict[int, list[tuple[int, int, str]]] = {}  # line -> (from, to, new text)
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        left = mine[i1 - 1] if i1 > 0 else None
        right = mine[i2] if i2 < len(mine) else None
        rows = {(t.line or 1) - 1 for t in mine[i1:i2]}
        if len(rows) > 1:
            return None
        if rows:
            row = rows.pop()
        elif left is not None and (right is None or left.line == right.line or
                                   (j1 < len(written) and written[j1].line ==
                                    written[j1 - 1].line)):
            row = (left.line or 1) - 1  # at the end of the line before
        elif right is not None:
            row = (right.line or 1) - 1
        else:
            return None
        left = left if left is not None and (left.line or 1) - 1 == row else None
        right = right if right is not None and (right.line or 1) - 1 == row else None
        line = lines[row]
        lo = (left.end_column or 1) - 1 if left else len(line) - len(line.lstrip())
        hi = (right.column or 1) - 1 if right else len(line)
        # The written tokens, each after the blank it takes, then the blank before ``right``.
        text, prev, last = "", mine[i1 - 2] if i1 > 1 else None, left
        for tok in written[j1:j2]:
            text += _gap(last, tok, prev) + _word(tok)
            prev, last = last, tok
        text += _gap(last, right, prev)
        edits.setdefault(row, []).append((lo, hi, text))
    for row, changes in edits.items():
        line = lines[row]
        for lo, hi, text in sorted(changes, reverse=True):
            line = line[:lo] + text + line[hi:]
        if not line.strip():
            return None
        lines[row] = line
    try:
        again = [_word(t) for t in _lexed("\n".join(lines) + "\n")
                 if t.type not in ("COMMENT", "_NL")]
    except LarkError:
        return None
    return lines if again == [_word(t) for t in written] else None


def _code_part(line: str, note: Comment | None) -> str:
    return line[:note.col - 1] if note is not None and note.after_code else line
