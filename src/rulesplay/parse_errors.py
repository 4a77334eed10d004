"""Syntax errors: Lark's exceptions turned into our diagnostics, in the ruleset's words.

What the parser expected is named readably (``'to' or an operator``, ``an expression``),
misspelt statement words and other languages' spellings (``&&``, ``else if``, ``;``) get
"did you mean", a line read as the continuation of the line above (it is indented deeper)
says so, and indentation whose blocks depend on a tab's width is refused (:func:`tab_error`).
Every error is a :class:`RulesSyntaxError` with ``file:line:col`` and the source attached,
so it prints with its line and a caret.
"""

from __future__ import annotations

import difflib
import re
import unicodedata

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import Diagnostic, RulesSyntaxError, Span, did_you_mean
from .grammar import TAB_LEN, indent_width, language_word, parser

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
        unclosed = _unclosed_error(text, file, line + 1, len(text), set(exc.expected))
        if unclosed is not None:
            return unclosed
    elif isinstance(exc, UnexpectedToken):
        tok = exc.token
        expected = set(exc.accepts or exc.expected)
        first = _reserved_enum_value(text, file)  # (it breaks every line that uses it)
        if first is not None:
            return first
        end = tok.start_pos if tok.type != "$END" and tok.start_pos is not None else len(text)
        unclosed = _unclosed_error(text, file, tok.line if tok.type != "$END" and tok.line
                                   else text.count("\n") + 1, end, expected)
        if unclosed is not None:
            return unclosed
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
        elif str(tok) == "=" and ("COMP_OP" in expected or (
                tok.start_pos is not None and text[tok.start_pos - 2:tok.start_pos] == "==")):
            msg += " (to compare, write '==')"
        elif str(tok) == "/" and tok.start_pos is not None and \
                text[tok.start_pos:tok.start_pos + 2] == "//":
            msg += " (a comment starts with '#')"
        elif expected == {"EACH"}:
            msg += " (a loop is written 'for each player p:' or 'for each x in LIST:')"
        elif tok.type == "NAME" and str(tok).lower() in _EXPRESSION_WORDS and \
                str(tok) != str(tok).lower():
            msg += f" (did you mean '{str(tok).lower()}'?)"
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
        hint, at = _word_hint(text, tok, expected)
        if at is not None and line == tok.line and at != col and hint.startswith("; "):
            msg, col = hint[2:], at  # the word at fault, not what followed it ('elsif v')
        else:
            msg += hint
            if at is not None and line == tok.line:  # the caret under the word at fault
                col = at
        each = _EACH_WITHOUT_IN.match(text.split("\n")[tok.line - 1]) if tok.line else None
        if each is not None and str(tok) == ":":
            name = each.group(1)
            items = f"; each item of {name}: 'for each x in {name}:'" \
                if name not in ("players", "seats") else ""
            msg += f" (every seat in turn: 'for each player p:'{items})" \
                if name not in ("player", "seat") else f" (name the seat: 'for each {name} p:')"
        if "FROM" in expected and _COUNT_THEN_FROM.search(_line_before(text, tok)):
            msg += (" (several cards are chosen as a name: write the name after their "
                    "number, e.g. 'chooses 3 cards from hand[p]')")
        if found == "end of line" and line != tok.line:
            msg += ("; the next line is indented more than this one, so it reads as part "
                    "of it: indent it like this line, or end this line with ':' to open a "
                    "block")
        elif tok.line and tok.column and \
                (start := _continued_statement(text, tok.line, tok.column)) is not None:
            above = _previous_code_line(text, tok.line)
            if above is not None and above[0] == start:
                msg += ("; this line is indented more than the line above, so it reads as "
                        "part of that line: indent it like the line above, or end the line "
                        "above with ':' to open a block")
            else:
                msg += (f"; this line is indented more than the statement it follows (line "
                        f"{start}), so it reads as part of it: indent it like line {start}, "
                        "or end the line above with ':' to open a block")
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

# ``for each players:`` (a loop with no name for the value it takes)
_EACH_WITHOUT_IN = re.compile(r"^\s*for\s+each\s+(\w+)\s*:")

# Words that start a line, by where the line is, for "did you mean" on a misspelt one.
_STATEMENT_WORDS = ("move", "shuffle", "deal", "let", "say", "break", "do", "trigger", "if",
                    "elif", "else", "repeat", "for", "trick", "next", "end", "reveal", "hide")
_DECLARATION_WORDS = ("game", "players", "author", "about", "extends", "include", "option",
                      "enum", "card", "zone", "var", "phase", "ability", "rule", "start",
                      "score", "tiebreak", "winners", "teams", "replace", "remove", "limit",
                      "define")
_CARD_WORDS = ("table", "copies", "label", "short")  # (any other name is an attribute)
_KEYWORDS = _STATEMENT_WORDS + _DECLARATION_WORDS
# Words of the language inside an expression (written in lower case).
_EXPRESSION_WORDS = ("and", "or", "not", "in", "is", "if", "else", "where", "none", "yes", "no")
# Brackets and the terminals that close them.
_CLOSERS = {"(": ("RPAR", ")"), "[": ("RSQB", "]"), "{": ("RBRACE", "}")}


# Operators of other languages, and what this one writes for each.
_OTHER_OPERATORS = {"&&": "and", "||": "or", "&": "and", "!": "not", "<>": "!=",
                    "++": "+= 1"}
# Marks of other languages this one has no use for, and what to write instead.
_OTHER_MARKS = {";": " (a statement ends at the end of its line: no ';')",
                "?": " (a choice of values is written 'A if TEST else B')"}
# Statement words of other languages.
_OTHER_WORDS = {"elseif": "elif", "elsif": "elif", "while": "repeat while",
                "until": "repeat until", "foreach": "for each", "def": "rule", "function": "rule",
                "print": "say"}
# Other languages' statements with no counterpart of one word here.
_OTHER_STATEMENTS = {"return": "there is no 'return': a rule ends at its last line, 'break' "
                               "leaves a loop, 'end game' ends the game"}


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
    """Whether the token at ``line``:``column`` is the first word of a line that continues
    the statement above it (:func:`_continued_statement`)."""
    return _continued_statement(text, line, column) is not None


def _continued_statement(text: str, line: int, column: int) -> int | None:
    """The first line (1-based) of the statement that the line of the token at ``line``:
    ``column`` continues, or None: the token is the first word of a line indented deeper
    than that statement's first line, and the code line above does not end with ':'. (A
    line deeper than the line above it, which does not open a block, continues it; so a
    line between a statement's own indentation and its continuation lines' continues it
    too.)"""
    lines = text.split("\n")
    here = lines[line - 1]
    if here[:column - 1].strip():
        return None
    prev = _previous_code_line(text, line)
    if prev is None or strip_comment(lines[prev[0] - 1]).rstrip().endswith(":"):
        return None
    start = prev[0]
    while (up := _previous_code_line(text, start)) is not None:
        above = strip_comment(lines[up[0] - 1]).rstrip()
        if indent_width(above) >= indent_width(lines[start - 1]) or above.endswith(":"):
            break
        start = up[0]
    return start if indent_width(here) > indent_width(lines[start - 1]) else None


def _enclosing_header(lines: list[str], line: int) -> str:
    """The code of the line that opens the block line ``line`` (1-based) is in: the nearest
    code line above that is indented less; "" at the top level."""
    here = lines[line - 1]
    indent = indent_width(here)
    if not here[:1].isspace():
        return ""
    for number in range(line - 1, 0, -1):
        code = strip_comment(lines[number - 1]).rstrip()
        if code.strip() and indent_width(code) < indent:
            return code.strip()
    return ""


def _word_hint(text: str, tok: Token, expected: set[str]) -> tuple[str, int | None]:
    """A hint for a misspelt word at the failing token, from the words that fit where it
    is: a card kind's field words inside a ``card`` block, statement words inside another
    block, declaration words at the top level, keywords for a name where one is expected
    (``p choses``). Only a word the parser stopped at or right after is suspected (``count =
    3 +`` is a fine start). Returns the hint and the column of the word (None: the token's)."""
    if not tok.line or not tok.column:
        return "", None
    lines = text.split("\n")
    line = lines[tok.line - 1]
    match = re.match(r"[ \t]*([^\W\d]\w*)", line)
    if match is None:  # (a line that starts with a number: ``0 choses x``)
        return _keyword_hint(tok, expected), None
    word, col = match.group(1), match.start(1) + 1
    rest = line[match.end(1):]
    after = col + len(word) + len(rest) - len(rest.lstrip(" \t"))  # the next token's column
    header = _enclosing_header(lines, tok.line)
    vocabulary: tuple[str, ...]
    if header.startswith(("card ", "replace card ")):
        vocabulary, what = _CARD_WORDS, "a card kind's field"
    elif header.startswith(("ability ", "replace ability ")):
        vocabulary, what = ("modify", "at"), "an ability's line"
    elif header:
        vocabulary, what = _STATEMENT_WORDS, "a statement"
    else:
        vocabulary, what = _DECLARATION_WORDS, "a declaration"
    if word in _OTHER_STATEMENTS and what == "a statement":
        return f"; {_OTHER_STATEMENTS[word]}", col
    if word in _OTHER_WORDS and (what != "a card kind's field"):
        meant = _OTHER_WORDS[word]
        if meant == "rule" and "=" in line.split(":")[0]:  # ``def f(x) = ...``: an expression
            meant = "define"
        return f"; '{word}' is not {what} (did you mean '{meant}'?)", col
    if word.lower() in vocabulary and word != word.lower():
        return f"; '{word}' is not {what} (did you mean '{word.lower()}'?)", col
    option = re.match(r"(option[ \t]+\w+[ \t]*:[ \t]*)(\w+)[ \t]+in\b", line)
    if option and option.group(2) not in ("int", "bool"):  # ``option n: itn in 1..5``
        close = _closest(option.group(2), ("int",))
        if close:
            return f"; '{option.group(2)}' is not a type (did you mean '{close}'?)", \
                option.end(1) + 1
    if str(tok) == word and tok.column == col and what == "a declaration" and \
            word in ("player", "team", "trick", "card"):
        second = re.match(r"[ \t]+([^\W\d]\w*)", rest)  # ``player vra pts``
        if second and did_you_mean(second.group(1), ["var"]):
            return f"; '{second.group(1)}' is not a word here (did you mean 'var'?)", \
                col + len(word) + second.start(1)
    # (a card kind's other names are attributes: one close to a field word is suspect
    # wherever its line failed)
    if (tok.column in (col, after) or what == "a card kind's field") and \
            word not in vocabulary:
        close = _closest(word, vocabulary)
        if close:
            return f"; '{word}' is not {what} (did you mean '{close}'?)", col
    return (_keyword_hint(tok, expected) if tok.column != col else ""), None


def _keyword_hint(tok: Token, expected: set[str]) -> str:
    """``; did you mean 'chooses'?`` for a name where a keyword is expected (``p choses``)."""
    if tok.type != "NAME":
        return ""
    words = [_terminal_name(t).strip("'").split("', '")[0] for t in expected]
    close = _closest(str(tok), [w for w in words if w.replace(" ", "").isalpha()])
    return f"; did you mean '{close}'?" if close else ""


def _closest(word: str, candidates: tuple[str, ...] | list[str]) -> str | None:
    """The candidate ``word`` most likely misspells (as :func:`did_you_mean`), or None; of
    equally close ones, one with the same letters (``lable``: ``label``, not ``table``)."""
    close = difflib.get_close_matches(word, candidates, n=3, cutoff=0.6)
    if not close:
        return None
    best = difflib.SequenceMatcher(None, word, close[0]).ratio()
    tied = [c for c in close if difflib.SequenceMatcher(None, word, c).ratio() == best]
    return next((c for c in tied if sorted(c) == sorted(word)), tied[0])


_ENUM_LINE = re.compile(r"(?:replace[ \t]+)?enum[ \t]+\w+[ \t]*(?:\"[^\"\n]*\"[ \t]*)?:(.*)")


def _reserved_enum_value(text: str, file: str) -> RulesSyntaxError | None:
    """The error for an enum value that is a word of the language (``enum dir: not``),
    which the validator refuses too, but which breaks each line that uses it first; None
    when every enum value is a name."""
    for number, raw in enumerate(text.split("\n"), 1):
        match = _ENUM_LINE.match(strip_comment(raw))
        if match is None:
            continue
        offset = match.start(1)
        for part in match.group(1).split(","):
            value = re.match(r"[ \t]*(\w+)", part)
            if value and language_word(value.group(1)):
                return located(f"'{value.group(1)}' is a reserved word and cannot name an "
                               "enum value", file, number, offset + value.start(1) + 1, text)
            offset += len(part) + 1
    return None


def _unclosed(text: str, end: int) -> tuple[str, int, int] | None:
    """The innermost bracket open at offset ``end`` of ``text`` (outside strings and
    comments): ``(bracket, line, column)``, or None."""
    stack: list[tuple[str, int, int]] = []
    line, start = 1, 0
    in_string = in_comment = False
    for i, ch in enumerate(text[:end]):
        if ch == "\n":
            line, start, in_string, in_comment = line + 1, i + 1, False, False
        elif in_comment:
            continue
        elif ch == '"' and (i == 0 or text[i - 1] != "\\"):
            in_string = not in_string
        elif in_string:
            continue
        elif ch == "#":
            in_comment = True
        elif ch in _CLOSERS:
            stack.append((ch, line, i - start + 1))
        elif ch in ")]}" and stack:
            stack.pop()
    return stack[-1] if stack else None


def _unclosed_error(text: str, file: str, tok_line: int, end: int,
                    expected: set[str]) -> RulesSyntaxError | None:
    """The error for a bracket left open on an earlier line (the parser reads on into the
    next line and stops there): at the end of the last code line before ``tok_line``,
    naming the bracket and where it was opened; None when no such bracket explains it."""
    opened = _unclosed(text, end)
    if opened is None:
        return None
    bracket, line, col = opened
    closer_terminal, closer = _CLOSERS[bracket]
    if line >= tok_line or closer_terminal not in expected:
        return None
    prev = _previous_code_line(text, tok_line)
    at_line, at_col = prev if prev is not None else (line, col)
    return located(f"'{bracket}' opened at {line}:{col} is not closed (expected '{closer}' "
                   "before the end of the line)", file, at_line, at_col, text)


