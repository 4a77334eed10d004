"""Syntax errors: Lark's exceptions turned into our diagnostics, in the ruleset's words.

What the parser expected is named readably (``'to' or an operator``, ``an expression``),
misspelt statement words and other languages' spellings (``&&``, ``else if``, ``;``) get
"did you mean", a line read as the continuation of the line above (it is indented deeper)
says so, and indentation whose blocks depend on a tab's width is refused (:func:`tab_error`).
Every error is a :class:`RulesSyntaxError` with ``file:line:col`` and the source attached,
so it prints with its line and a caret.
"""

from __future__ import annotations

import re
import unicodedata

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import Diagnostic, RulesSyntaxError, Span, did_you_mean
from .grammar import TAB_LEN, indent_width, parser

# Names of terminals as a ruleset author knows them, for "expected ..." messages.
_TERMINAL_NAMES = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "INT": "a number", "STRING": "a quoted string", "$END": "end of file",
    "ASSIGN_OP": "'=', '+=', '-='", "COMP_OP": "a comparison (==, !=, <, <=, >, >=)",
    "ADD_OP": "'+', '-'", "MUL_OP": "'*', '/', '%'", "LANG": "a language label like @ja",
    "MAY_CHOOSE": "'chooses', 'may choose'", "BOOL": "yes, no", "SIDE": "'left of'",
    "END_OF": "'top of', 'bottom of'", "UP_TO": "'up to'", "IS_NOT": "'is not'",
    "NOT_IN": "'not in'", "DIRECTION": "'clockwise', 'counterclockwise'",
    "CLIMBING": "'climbing'", "VAR_SCOPE": "'player', 'trick' or 'card' (before 'var')",
    "VAR_SIGHT": "'public', 'owner' or 'hidden'", "KEPT": "'kept'",
    "ONE": "'one'", "CONSECUTIVE": "'consecutive'",
    "PASS_TURN": "'for this turn'",
}
# Tokens that can start an expression, and tokens that continue one; when many of either are
# possible the message says "an expression" or "an operator" instead of listing them all.
_EXPR_START = {"LPAR", "MINUS", "LSQB", "LBRACE", "NONE", "NOT", "SIDE", "NAME", "INT",
               "STRING", "BOOL"}
_OPERATORS = {"MUL_OP", "ADD_OP", "COMP_OP", "AND", "OR", "IF", "IN", "IS", "IS_NOT",
              "NOT_IN", "DOT", "LSQB", "LPAR", "WHERE", "ELSE", "__ANON_0"}


def _terminal_name(name: str) -> str:
    """How a terminal reads in a message: its text for keywords and marks, else a phrase."""
    if name in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[name]
    for term in parser().terminals:
        if term.name == name:
            if term.pattern.type == "str":
                return f"'{term.pattern.value}'"
            break
    return name.strip("_").lower()


def _describe(terminals: set[str]) -> str:
    """What the parser would have accepted, readably: ``'to' or an operator``,
    ``one of: ':', '=', ...``."""
    terminals = set(terminals)
    groups: list[str] = []
    if len(terminals & _EXPR_START) >= 4 and {"NAME", "INT"} <= terminals:
        terminals -= _EXPR_START
        groups.append("an expression")
    if len(terminals & _OPERATORS) >= 4:
        terminals -= _OPERATORS
        groups.append("an operator")
    words = sorted({_terminal_name(t) for t in terminals}, key=lambda s: (not s[:1] == "'", s))
    names = words + groups
    if len(names) > 8:
        names = names[:7] + ["..."]
    if len(names) == 1 and ", " not in names[0]:
        return names[0]
    if len(names) == 2 and ", " not in "".join(names):
        return " or ".join(names)
    return "one of: " + ", ".join(names)



def dedent_error(text: str, file: str) -> RulesSyntaxError:
    """The error for Lark's ``DedentError``: locates the line whose indentation closes no
    open block (Lark does not say which)."""
    stack = [0]
    prev_colon = False
    for number, raw in enumerate(text.split("\n"), 1):
        body = raw.split("#", 1)[0].rstrip()
        if not body.strip():
            continue
        indent = indent_width(raw)
        if indent > stack[-1]:
            if prev_colon:
                stack.append(indent)
        else:
            open_blocks = list(stack)
            while indent < stack[-1]:
                stack.pop()
            if indent != stack[-1]:
                levels = ", ".join(str(n) for n in open_blocks)
                tabs = "; a tab moves to the next multiple of 8 columns" if "\t" in text else ""
                return located(f"this line is indented {indent} columns, which matches no "
                               f"enclosing block (those are indented {levels}){tabs}",
                               file, number, indent + 1 if "\t" not in raw else 1, text)
        prev_colon = body.endswith(":")
    return located("this file's indentation matches no enclosing block", file, 1, 1, text)


def tab_error(text: str, file: str) -> RulesSyntaxError | None:
    """The error for indentation whose blocks depend on how wide a tab is (Python's
    ``TabError``), or None. A tab moves to the next multiple of :data:`TAB_LEN` columns here,
    but an editor may show it as 4: a line that the parser puts outside an ``if`` could look
    inside it. So each line is compared with the enclosing block twice, with tab stops every
    8 and every 4 columns; when the two disagree (deeper, level or shallower), the file is
    refused."""
    lines = text.split("\n")
    if {ch for ln in lines for ch in ln[:len(ln) - len(ln.lstrip(" \t"))]} != {" ", "\t"}:
        return None  # tabs only, or spaces only: both counts agree
    blocks = [(0, 0)]  # (width with tab stops of 8, of 4) of the open blocks
    depth, prev_colon, joined = 0, False, False
    for number, raw in enumerate(lines, 1):
        code = strip_comment(raw).rstrip()
        if not code.strip() or depth > 0 or joined:
            depth += _bracket_change(code)
            joined = code.endswith("\\")
            continue
        lead = raw[:len(raw) - len(raw.lstrip(" \t"))]
        wide, narrow = indent_width(raw), indent_width(lead, 4)
        top_wide, top_narrow = blocks[-1]
        if wide > top_wide and prev_colon:
            if narrow <= top_narrow:
                return _mixed(file, number, text)
            blocks.append((wide, narrow))
        else:
            while len(blocks) > 1 and wide < blocks[-1][0]:
                blocks.pop()
            top_wide, top_narrow = blocks[-1]
            if (wide > top_wide) != (narrow > top_narrow) or \
                    (wide == top_wide) != (narrow == top_narrow):
                return _mixed(file, number, text)
        prev_colon = code.endswith(":")
        depth += _bracket_change(code)
        joined = code.endswith("\\")
    return None


def _mixed(file: str, line: int, text: str) -> RulesSyntaxError:
    return located("inconsistent use of tabs and spaces in indentation: this line's block "
                   f"depends on how wide a tab is (here {TAB_LEN} columns, in many editors "
                   "4); indent with spaces only, or with tabs only", file, line, 1, text)


def _bracket_change(code: str) -> int:
    """How many brackets ``code`` (a line without its comment) opens minus closes, outside
    quoted strings."""
    change, in_string = 0, False
    for i, ch in enumerate(code):
        if ch == '"' and (i == 0 or code[i - 1] != "\\"):
            in_string = not in_string
        elif not in_string and ch in "([{":
            change += 1
        elif not in_string and ch in ")]}":
            change -= 1
    return change


def located(message: str, file: str, line: int, col: int, text: str) -> RulesSyntaxError:
    """A syntax error at ``file:line:col``, with ``text`` (the whole file) for its caret."""
    span = Span(file=file, line=line, col=col, end_line=line, end_col=col + 1)
    return RulesSyntaxError(message, span, [Diagnostic(message, span, source=text)])


def quoted(token_text: str) -> str:
    """A token as quoted in a message, cut short when long."""
    if len(token_text) > 30:
        token_text = token_text[:27] + "..."
    return repr(token_text)


def _describe_char(char: str) -> str:
    """A character for a message; invisible and unusual ones are named."""
    if char.isprintable() and not char.isspace() and ord(char) < 0x2000:
        return repr(char)
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" ({name})" if name else "")


def _previous_code_line(text: str, line: int) -> tuple[int, int] | None:
    """The line before ``line`` that holds code, and the column just past its last character."""
    lines = text.split("\n")
    for number in range(line - 1, 0, -1):
        code = strip_comment(lines[number - 1]).rstrip()
        if code.strip():
            return number, len(code) + 1
    return None


def strip_comment(raw: str) -> str:
    """A line without its ``# comment`` (a '#' inside a quoted string is kept)."""
    in_string = False
    for i, ch in enumerate(raw):
        if ch == '"' and (i == 0 or raw[i - 1] != "\\"):
            in_string = not in_string
        elif ch == "#" and not in_string:
            return raw[:i]
    return raw


def syntax_error(exc: UnexpectedInput, text: str, file: str) -> RulesSyntaxError:
    """The error for one of Lark's ``UnexpectedInput`` exceptions on ``text`` (file ``file``):
    what was found, what was expected, and a hint where a usual mistake explains it."""
    line, col = getattr(exc, "line", 1) or 1, getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedCharacters):
        # Lark declares ``pos_in_stream = None`` on the base class; this subclass sets an int.
        pos: int = exc.pos_in_stream  # type: ignore[assignment]
        char = text[pos] if pos < len(text) else "?"
        if char == '"':
            msg = "unclosed string: it needs a closing '\"' on the same line"
        elif char == "'":
            msg = "unexpected character \"'\"; strings are written in double quotes"
        else:
            msg = f"unexpected character {_describe_char(char)}"
            allowed = set(exc.allowed or ())
            if allowed and len(allowed) < 30:
                msg += f"; expected {_describe(allowed)}"
            msg += _other_language_hint(text[pos:pos + 2])
    elif isinstance(exc, UnexpectedEOF):
        line = text.count("\n")
        col = 1
        msg = f"unexpected end of file; expected {_describe(set(exc.expected))}"
    elif isinstance(exc, UnexpectedToken):
        tok = exc.token
        expected = set(exc.accepts or exc.expected)
        if tok.type == "$END":
            line, col = max(text.count("\n"), 1), 1
            found = "end of file"
        elif tok.type == "_NL":
            found = "end of line"
            line, col = tok.line, tok.column
        elif tok.type in ("_INDENT", "_DEDENT"):
            found = "a change of indentation"
            line, col = (tok.line or line), (tok.column or 1)
        else:
            found = quoted(str(tok))
            before = text.split("\n")[line - 1][:col - 1] if line >= 1 else ""
            prev = _previous_code_line(text, line)
            if not before.strip() and prev is not None and not {"_NL", "_INDENT"} & expected \
                    and _starts_deeper_line(text, line, col):
                # The token starts an indented line, read as the continuation of the line
                # before: what is missing is missing at the end of that line.
                line, col = prev
                found = "end of line"
        msg = f"unexpected {found}; expected {_describe(expected)}"
        if tok.type == "COMP_OP" and str(tok) == "==" and "ASSIGN_OP" in expected:
            msg += " (to assign a value, write '=')"
        elif str(tok) == "=" and "COMP_OP" in expected:
            msg += " (to compare, write '==')"
        elif str(tok) == ":" and tok.start_pos is not None and \
                text[tok.start_pos + 1:tok.start_pos + 2] == "=" and "ASSIGN_OP" in expected:
            msg += " (to assign a value, write '=')"
        elif str(tok) == "if" and _line_before(text, tok).strip() == "else":
            msg += " (did you mean 'elif'?)"
        elif tok.start_pos is not None and str(tok) in ("|", ">", "+"):
            # '|' and '+' begin '||' and '++'; '>' ends '<>'.
            pair = text[tok.start_pos - 1:tok.start_pos + 1] if str(tok) == ">" else \
                text[tok.start_pos:tok.start_pos + 2]
            msg += _other_language_hint(pair) if pair in ("||", "<>", "++") else ""
        msg += _statement_hint(text, tok, expected)
        if "FROM" in expected and _COUNT_THEN_FROM.search(_line_before(text, tok)):
            msg += (" (several cards are chosen as a name: write the name after their "
                    "number, e.g. 'chooses 3 cards from hand[p]')")
        if found == "end of line" and line != tok.line:
            msg += ("; the next line is indented more than this one, so it reads as part "
                    "of it: indent it like this line, or end this line with ':' to open a "
                    "block")
        elif tok.line and tok.column and _starts_deeper_line(text, tok.line, tok.column):
            msg += ("; this line is indented more than the line above, so it reads as part "
                    "of that line: indent it like the line above, or end the line above "
                    "with ':' to open a block")
        if tok.type == "INT" and str(text.split("\n")[tok.line - 1])[tok.column - 2:
                                                                     tok.column - 1] == ".":
            msg = "decimal numbers are not supported; the language counts in whole numbers"
    else:
        msg = "syntax error"
    if not isinstance(line, int) or line < 1:
        line = 1
    if not isinstance(col, int) or col < 1:
        col = 1
    return located(msg, file, line, col, text)


# A count of cards with no name after it ("chooses 3 from hand[p]": 'from' is read as the name).
_COUNT_THEN_FROM = re.compile(r"\b(chooses|choose|plays)\s+\d+(\s*\.\.\s*\d+)?\s+from\s+$")

# Words that start a statement or a declaration, for "did you mean" on a misspelt one.
_KEYWORDS = ("move", "shuffle", "deal", "let", "say", "break", "do", "trigger", "if", "elif",
             "else", "repeat", "for", "trick", "next", "end", "game", "players", "author",
             "about", "extends", "include", "option", "enum", "card", "zone", "var", "phase",
             "ability", "rule", "start", "score", "tiebreak", "winners", "replace", "remove",
             "define")


# Operators of other languages, and what this one writes for each.
_OTHER_OPERATORS = {"&&": "and", "||": "or", "&": "and", "!": "not", "<>": "!=",
                    "++": "+= 1"}
# Marks of other languages this one has no use for, and what to write instead.
_OTHER_MARKS = {";": " (a statement ends at the end of its line: no ';')",
                "?": " (a choice of values is written 'A if TEST else B')"}
# Statement words of other languages.
_OTHER_WORDS = {"elseif": "elif", "elsif": "elif", "while": "repeat while",
                "until": "repeat until", "foreach": "for each", "def": "rule", "function": "rule"}


def _other_language_hint(found: str) -> str:
    """`` (did you mean 'and'?)`` when ``found`` (the text at the error, two characters)
    starts with an operator or mark of another language: ``&&``, ``||``, ``!`` (but not
    ``!=``), ``<>``, ``++``, ``;``, ``?``."""
    if found.startswith("!="):
        return ""
    for op in sorted(_OTHER_OPERATORS, key=len, reverse=True):
        if found.startswith(op):
            return f" (did you mean '{_OTHER_OPERATORS[op]}'?)"
    return _OTHER_MARKS.get(found[:1], "")


def _line_before(text: str, tok: Token) -> str:
    """The text of ``tok``'s line before it."""
    if not tok.line or not tok.column:
        return ""
    return text.split("\n")[tok.line - 1][:tok.column - 1]


def _starts_deeper_line(text: str, line: int, column: int) -> bool:
    """Whether the token at ``line``:``column`` is the first word of a line indented deeper
    than the code line above (which does not end with ':'): such a line continues the one
    above."""
    lines = text.split("\n")
    here = lines[line - 1]
    if here[:column - 1].strip():
        return False
    prev = _previous_code_line(text, line)
    if prev is None:
        return False
    above = lines[prev[0] - 1]
    indent = len(here) - len(here.lstrip(" \t"))
    return indent > len(above) - len(above.lstrip(" \t")) and \
        not above.split("#")[0].rstrip().endswith(":")


def _statement_hint(text: str, tok: Token, expected: set[str]) -> str:
    """`` (did you mean 'shuffle'?)`` when the line starts with a misspelt keyword (a
    statement's when it is indented, else a declaration's)."""
    if not tok.line:
        return ""
    line = text.split("\n")[tok.line - 1]
    first = [w.rstrip(":") for w in line.split()]  # ('esle:')
    if not first or first[0] in _KEYWORDS or not first[0].isidentifier():
        return ""
    word = _OTHER_WORDS.get(first[0])
    if word == "rule" and "=" in line.split(":")[0]:  # ``def f(x) = ...``: an expression
        word = "define"
    hint = f" (did you mean '{word}'?)" if word else did_you_mean(first[0], _KEYWORDS)
    what = "a statement" if line[:1].isspace() else "a declaration"
    return f"; '{first[0]}' is not {what}{hint}" if hint else ""
