"""Errors and diagnostics shared by every stage of rulesplay.

Every user-facing failure is a :class:`RulesError` carrying a :class:`Span`, so a syntax error,
a validation error and a runtime fault all print the same way::

    rulesets/x.rules:12:5: error: undefined name 'colr' (did you mean 'colour'?)
        if card.colr == lead:
                ^

A warning (something legal that the author probably did not mean) is a :class:`Diagnostic`
with severity ``"warning"``: it prints the same way, ``warning:`` for ``error:``, and stops
nothing.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict

from .lookalike import lookalike_note, named


class Span(BaseModel):
    """A source position: file path, 1-based line and column, and the end of the node.

    Attributes:
        file: path of the ruleset the node came from (as given to the loader).
        line: 1-based line of the node's first character.
        col: 1-based column of the node's first character.
        end_line: 1-based line of the node's last character.
        end_col: 1-based column just past the node's last character.
    """

    model_config = ConfigDict(frozen=True)

    file: str = "<input>"
    line: int = 0
    col: int = 0
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span()
SHOWN_LINE = 160  # characters of a long source line shown under a diagnostic

# How much a diagnostic matters: an error stops the ruleset from loading, a warning does not.
Severity = Literal["error", "warning"]


@dataclass
class Diagnostic:
    """One message about a place in a ruleset.

    Args:
        message: what is wrong, in the ruleset's terms.
        span: where it is.
        severity: "error" (the ruleset cannot load) or "warning" (it loads; the author
            probably meant something else).
        source: the text of the file the span points into, used to print the line and caret.
    """

    message: str
    span: Span = NO_SPAN
    severity: Severity = "error"
    source: str | None = None

    def render(self) -> str:
        """Return ``path:line:col: severity: message`` plus the source line and a caret.

        Ruleset text in the message, the path and the line is shown without control
        sequences (:func:`rulesplay.terminal.clean`), so a diagnostic is safe to print.
        """
        from .terminal import clean  # here: the engine core does not load rich

        # A problem with no place in a file (an option given on the command line, an API
        # call) has no position to show.
        place = f"{self.span}: " if self.span.line > 0 else ""
        head = clean(f"{place}{self.severity}: {self.message}")
        line_text = _source_line(self.source, self.span.line)
        if line_text is None:
            return head
        width = 1
        if self.span.end_line == self.span.line and self.span.end_col > self.span.col:
            width = self.span.end_col - self.span.col
        col = max(self.span.col, 1) - 1
        if len(line_text) > SHOWN_LINE:  # a window of the line around the caret
            start = max(0, min(col - SHOWN_LINE // 2, len(line_text) - SHOWN_LINE))
            line_text = ("..." if start else "") + line_text[start:start + SHOWN_LINE] + \
                ("..." if start + SHOWN_LINE < len(line_text) else "")
            col = col - start + (3 if start else 0)
        caret = " " * col + "^" + "~" * (min(width, 60) - 1)
        return f"{head}\n    {line_text}\n    {caret}"


def _source_line(source: str | None, line: int) -> str | None:
    if source is None or line < 1:
        return None
    # Lines as the parser counts them: only LF, CRLF and CR end a line (not U+2028 etc.).
    lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if line > len(lines):
        return None
    from .terminal import clean

    # One printable character per column, so the caret stays under its column.
    return clean(lines[line - 1], columns=True)


@dataclass
class RulesError(Exception):
    """Base of every user-facing error: a message and the span it is about.

    Several diagnostics may travel together (``diagnostics``) so a validator can report all
    the errors it found at once; ``str()`` renders all of them.
    """

    message: str
    span: Span = NO_SPAN
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.diagnostics:
            self.diagnostics = [Diagnostic(self.message, self.span)]
        super().__init__(self.message)

    def attach_source(self, sources: dict[str, str]) -> RulesError:
        """Give each diagnostic the text of its file so it can print the line and a caret."""
        for diag in self.diagnostics:
            if diag.source is None:
                diag.source = sources.get(diag.span.file)
        return self

    def render(self) -> str:
        """All diagnostics, one block each, ``path:line:col: error: ...`` first."""
        return "\n".join(d.render() for d in self.diagnostics)

    def __str__(self) -> str:
        return self.render()


class RulesSyntaxError(RulesError):
    """The text is not in the language (raised by the parser)."""


class RulesValidationError(RulesError):
    """The ruleset parses but breaks a static rule (undefined name, type, unreachable phase)."""


class RulesRuntimeError(RulesError):
    """A ruleset failed while running: step limit, impossible move; names the phase and rule."""


class LimitError(RulesRuntimeError):
    """A game stopped by one of its limits (``steps``, ``work``, ``events``, ``total``,
    ``entries`` or ``decisions``: :mod:`rulesplay.limits`), not by a fault of one rule: what
    ran may be correct and only endless (or longer than the limits allow)."""


class IllegalActionError(RulesError):
    """An action was applied that is not among the current legal actions."""


class OptionError(RulesError):
    """An option name or value given from the CLI or a variant is not allowed."""


def value_text(value: object) -> str:
    """A run-time value in a message, in the language's words: ``none``, ``yes``/``no`` (as
    the game shows them), a tuple or list in brackets, a text (or enum value) in double
    quotes; never Python's ``None``, ``True`` or ``'text'``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "(" + ", ".join(value_text(v) for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """Return `` (did you mean 'x'?)`` for the closest candidate to ``name``, or ``""``. A
    candidate that looks the same on screen (Latin ``a``, Cyrillic ``а``) comes first, and
    the characters that differ are named, since the two names cannot be told apart by eye."""
    pool = sorted(set(candidates))
    twins = [c for c in pool if lookalike_note(name, c) is not None]
    close = twins[:1] or difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    if not close:
        return ""
    note = lookalike_note(name, close[0])
    if note is not None:
        return f" (did you mean '{close[0]}'? {note})"
    # A letter from another script that looks nothing like the one meant: name it too.
    unlike = [a for a, b in zip(name, close[0], strict=False) if a != b]
    if len(name) == len(close[0]) and unlike and all(not a.isascii() for a in unlike):
        odd = ", ".join(named(a) for a in unlike[:2])
        return f" (did you mean '{close[0]}'? this one has {odd})"
    return f" (did you mean '{close[0]}'?)"


def did_you_mean_file(name: str, candidates: Iterable[str]) -> str:
    """Like :func:`did_you_mean` for a file name: the names are compared without their
    folders and extensions (every ``.rules`` file shares ``.rules``, which made any file
    look close enough), and only a close one is suggested."""
    def stem(path: str) -> str:
        return path.replace("\\", "/").rsplit("/", 1)[-1].split(".", 1)[0].lower()

    by_stem: dict[str, str] = {}
    for candidate in sorted(set(candidates)):
        by_stem.setdefault(stem(candidate), candidate)
    close = difflib.get_close_matches(stem(name), by_stem, n=1, cutoff=0.6)
    return f" (did you mean '{by_stem[close[0]]}'?)" if close else ""


# What a rule failing while it runs raises (a None where a card was expected, a missing key,
# a division by zero, a bonus that needs itself...); the engine turns each into a located
# RulesRuntimeError.
RUNTIME_FAULTS = (RulesError, TypeError, ValueError, IndexError, KeyError, ZeroDivisionError,
                  AttributeError, RecursionError)


def fault_message(exc: Exception) -> str:
    """Python's message for a failure while a rule runs, in the ruleset's words where they
    differ (a ``None`` is a value that is none here)."""
    if isinstance(exc, RecursionError):  # a bonus whose modifiers read it again, say
        return "it is worked out from itself without end (a 'modify' that reads its own " \
               "bonus?)"
    text = str(exc)
    if "NoneType" in text:
        return "a value is none here (e.g. the top card of an empty zone, or a variable " \
               "never set)"
    return text



# What a field of a checked file (a log's header, a saved game) should hold, by the kind
# of pydantic's complaint: said in the user's words, not pydantic's.
_WANTED = {"int_type": "a whole number", "int_parsing": "a whole number",
           "string_type": "a text in double quotes", "bool_type": "true or false",
           "dict_type": "a table of names and values ({...})",
           "list_type": "a list ([...])", "model_type": "a table of names and values ({...})",
           "model_attributes_type": "a table of names and values ({...})"}


def damage(errors: list[dict[str, object]], fields: Iterable[str]) -> str:
    """What is wrong with a checked file, from pydantic's ``ValidationError.errors()``
    (the first complaint), in plain words; ``fields``: the names the file may hold at its
    top level (listed when an unknown one is found)."""
    first = errors[0]
    loc = first.get("loc")
    where = ".".join(str(p) for p in loc) if isinstance(loc, tuple | list) and loc else ""
    kind = str(first.get("type", ""))
    if kind == "extra_forbidden":
        return f"'{where}' is not one of its fields ({', '.join(fields)})"
    if kind == "missing":
        return f"'{where}' is missing"
    shown = value_text(first.get("input"))
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    wanted = _WANTED.get(kind)
    if wanted is None:
        return f"'{where}' cannot be {shown}" if where else f"it cannot be {shown}"
    return f"'{where}' should be {wanted}, not {shown}" if where else \
        f"it should be {wanted}, not {shown}"
