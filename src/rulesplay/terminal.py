"""What reaches the terminal: text from outside shown as written, never as markup or controls.

Text from outside - a ruleset's titles, labels, docs, card names, prompts and ``say`` lines, an
answer typed at a prompt, a file name - may hold rich markup (``[/]``, ``[link=...]``) or
terminal control sequences (an OSC 52 that writes the clipboard, an OSC 0 that sets the window
title). Every rulesplay printer goes through this module:

- :func:`console` makes every rich console rulesplay prints on: markup and emoji codes are
  off, so no string is ever read as markup, and each segment it writes is passed through
  :func:`clean`, so no control sequence reaches the terminal whatever was printed.
- :func:`literal` wraps outside text for rich renderables (table cells, titles, rules) that
  may also be printed on another console (tests, other front ends).
- :func:`clean` removes control sequences and characters from plain text printed without rich
  (diagnostics, ``diff``, ``graph``, click messages); :func:`json_text` escapes the ones JSON
  writers leave raw.

The engine core does not import this module (diagnostics import it when they are rendered), so
the engine API loads without rich.
"""

from __future__ import annotations

import re
import sys
from typing import Any, TextIO

from rich.console import Console, ConsoleOptions, RenderableType, RenderHook, RenderResult
from rich.segment import Segment
from rich.text import Text

# Whole sequences first (so an OSC's payload goes with it), then any control character left.
# ESC (or its 8-bit C1 form) starts: CSI "[" params final; OSC "]", DCS "P", SOS "X", PM "^",
# APC "_" ... up to BEL or ST (ESC "\" or 0x9c), else to the end of the line; or a short
# escape (ESC, intermediates, one final character: ESC "c" resets the terminal).
_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?")
# The bidirectional controls (embeddings, overrides, isolates, marks) that reorder how the
# rest of a line reads ("Trojan source").
_BIDI = r"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# C0 except tab and newline, DEL, C1, and the bidirectional controls.
_CONTROL = re.compile(rf"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}]")
# What JSON writers leave raw of those (they escape C0 only).
_RAW_IN_JSON = re.compile(rf"[\x7f-\x9f{_BIDI}]")


def clean(text: str, columns: bool = False) -> str:
    """``text`` without terminal control sequences and control characters.

    Removes ESC-introduced sequences (CSI, OSC, DCS and the like, payload included) and their
    8-bit C1 forms, then every C0 control character except tab and newline, DEL, every C1
    character and the bidirectional controls that reorder a line. Printable text, Unicode
    included, is kept.

    Args:
        text: text from outside (a ruleset, a typed answer, a file).
        columns: keep one character per column instead, for a source line with a caret under
            it: nothing is removed, a tab becomes a space, and every character that is not
            printable (``str.isprintable``: controls, line separators, format characters)
            becomes ``?``.

    Returns:
        Text that is safe to write to a terminal.
    """
    if columns:
        return "".join(ch if ch.isprintable() else (" " if ch == "\t" else "?") for ch in text)
    return _CONTROL.sub("", _SEQUENCE.sub("", text))


def json_text(text: str) -> str:
    """JSON text (from ``json.dumps`` or pydantic) with DEL, C1 and the bidirectional
    controls written as ``\\u`` escapes (``\\u202e``): JSON writers escape only C0
    characters, and outside JSON strings these characters cannot occur, so the escape is
    lossless and the JSON means the same. Every JSON rulesplay prints goes through it."""
    return _RAW_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def literal(text: Any, style: str = "") -> Text:
    """Outside text as a rich ``Text``: cleaned (:func:`clean`) and never read as markup.

    Args:
        text: the text (anything else is shown as ``str(text)``).
        style: a rich style of rulesplay's own (never one taken from a ruleset).
    """
    return Text(clean(str(text)), style=style)


def console(stderr: bool = False, file: TextIO | None = None, highlight: bool = False,
            **options: Any) -> Console:
    """A rich console for rulesplay's output: no markup, no emoji codes, and every segment
    cleaned of control sequences (rich's own styles and cursor moves are kept).

    Args:
        stderr: print to standard error (progress bars); else standard output.
        file: print to this stream instead (tests).
        highlight: colour numbers and quoted words of printed strings (rich's highlighter;
            it only adds colour).
        options: other ``rich.console.Console`` arguments (``soft_wrap``, ``width``...).
    """
    out = Console(file=file or (sys.stderr if stderr else sys.stdout), markup=False,
                  emoji=False, highlight=highlight, **options)
    out.push_render_hook(_CleaningHook())
    return out


class _Cleaned:
    """A renderable whose text segments are those of ``inner``, cleaned."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner

    def __rich_console__(self, con: Console, options: ConsoleOptions) -> RenderResult:
        for seg in con.render(self.inner, options):
            # a control segment is one of rich's own cursor moves, not text
            yield seg if seg.control else Segment(clean(seg.text), seg.style)


class _CleaningHook(RenderHook):
    """Wraps every renderable a console prints in :class:`_Cleaned`."""

    def process_renderables(self, renderables: list[Any]) -> list[Any]:
        return [_Cleaned(r) for r in renderables]
