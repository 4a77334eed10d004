"""The source of one lowered routine while it is generated (:class:`Code`: resume points,
jumps, frame slots), and the listing of a compiled program's routines for people to read.

Used by the phase compiler (:mod:`rulesplay.engine.lower`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from ..errors import Span
from .routines import Routine

if TYPE_CHECKING:
    from .program import Program


CHUNK = 3  # blocks tested under one range test (see Code.source)


class _Line(NamedTuple):
    indent: int
    text: str
    span: Span
    target: int | None = None  # a jump (``pc = T``) or a resume point (``f[1] = T``)


class Code:
    """The source of one routine being generated: blocks of lines, one per resume point.

    Block ``K`` runs when the frame's resume point is ``K``; block 0 is the entry. Every
    block ends by jumping (``pc = K``) or returning. Blocks are tested in order by plain
    ``if pc == K:`` lines, so a jump forward falls through to its block and only a jump
    back needs ``continue``.
    """

    def __init__(self) -> None:
        self.blocks: list[list[_Line]] = [[]]
        self.cur = 0
        self.indent = 0
        self.span = Span()
        self.slots = 0
        self.card_slots: list[int] = []  # frame items holding a card id, a list of them
        self.card_list_slots: list[int] = []
        self.serial = 0
        self.pinned: set[int] = set()  # resume points named from outside the code

    def pin(self, label: int) -> None:
        """Keep ``label`` as it is: run-time code outside the routine resumes there."""
        self.pinned.add(label)

    def emit(self, text: str) -> None:
        self.blocks[self.cur].append(_Line(self.indent, text, self.span))

    def label(self) -> int:
        """A new, empty resume point."""
        self.blocks.append([])
        return len(self.blocks) - 1

    def place(self, label: int) -> None:
        """Lines emitted from now on go to block ``label`` (at its top level)."""
        self.cur, self.indent = label, 0

    def jump(self, label: int) -> None:
        """Go to ``label``. At a block's top level this ends the block (the next line
        emitted starts another), so a jump forward falls through the ``if pc`` tests."""
        self.blocks[self.cur].append(_Line(self.indent, "pc = {}", self.span, label))

    def stop_at(self, label: int) -> None:
        """Save ``label`` as the point to resume at (the routine stops next)."""
        self.blocks[self.cur].append(_Line(self.indent, "f[1] = {}", self.span, label))

    def slot(self, holds: str = "") -> int:
        """A new loop slot in the frame: its index in the frame list. ``holds`` is
        ``card`` or ``cards`` when it holds a card id or a list of card ids."""
        self.slots += 1
        at = 1 + self.slots
        if holds == "card":
            self.card_slots.append(at)
        elif holds == "cards":
            self.card_list_slots.append(at)
        return at

    def temp(self, stem: str) -> str:
        """A fresh Python local name (``_c3``)."""
        self.serial += 1
        return f"_{stem}{self.serial}"

    def source(self, fname: str, tail: str) -> tuple[str, list[Span]]:
        """The function's source and the span of each of its lines; ``tail`` is the line
        run when no block has the frame's resume point (only a damaged save gets there).

        A block that only jumps elsewhere is threaded: jumps and resume points aimed at it
        go straight to where it leads, and it is left out."""
        alias: dict[int, int] = {}
        for k, b in enumerate(self.blocks):
            if k and k not in self.pinned and len(b) == 1 and b[0].target is not None \
                    and b[0].text == "pc = {}":
                alias[k] = b[0].target

        def final(label: int) -> int:
            seen = set()
            while label in alias and label not in seen:
                seen.add(label)
                label = alias[label]
            return label

        lines: list[tuple[str, Span]] = [
            (f"def {fname}(s, f):", Span()), ("    it = None", Span()),
            ("    _steps = 0", Span()), ("    pc = f[1]", Span()), ("    while True:", Span())]
        kept = [k for k in range(len(self.blocks)) if not (k in alias and final(k) != k)]
        # Blocks are tested in runs of CHUNK under one ``if pc <= LAST:``, so resuming
        # at a late block skips the earlier runs in one test each (order is kept, so a
        # jump forward still falls through).
        runs = [kept[i:i + CHUNK] for i in range(0, len(kept), CHUNK)]
        for run in runs:
            deep = 1 if len(run) > 1 and len(runs) > 1 else 0
            if deep:
                lines.append((f"        if pc <= {run[-1]}:", Span()))
            for k in run:
                self._emit_block(k, deep, final, lines)
        lines.append(("        " + tail, Span()))
        return "\n".join(text for text, _ in lines) + "\n", [span for _, span in lines]

    def _emit_block(self, k: int, deep: int, final: Callable[[int], int],
                    lines: list[tuple[str, Span]]) -> None:
        """The lines of block ``k`` (``deep`` levels further in), jumps resolved by
        ``final``."""
        lines.append(("    " * (2 + deep) + f"if pc == {k}:", Span()))
        for ln in self.blocks[k] or [_Line(0, "pass", Span())]:
            pad = "    " * (3 + deep + ln.indent)
            if ln.target is None:
                lines.append((pad + ln.text, ln.span))
                continue
            to = final(ln.target)
            lines.append((pad + ln.text.format(to), ln.span))
            if ln.text == "pc = {}" and (to <= k or ln.indent > 0):
                lines.append((pad + "continue", ln.span))


def listing(prog: Program) -> str:
    """The generated code of every routine of a compiled program, for people to read
    (``rulesplay compile FILE --python``): each function as generated, with the
    ``file:line`` of the statement a line starts as a comment. The comments are added
    here, for display; the code that runs holds no file name or ruleset text.

    Raises:
        ValueError: ``prog`` was built by the frame interpreter (it has no routines).
    """
    routines = [n for n in prog.nodes if isinstance(n, Routine)]
    if not routines:
        raise ValueError("this program was not compiled (engine 'interpret')")
    out = []
    for r in routines:
        out.append(f"# {_where(r.span)}")
        last: Span | None = None
        for text, span in zip(r.source.splitlines(), r.spans, strict=True):
            if span.line and span != last:
                text = f"{text}  # {_where(span)}"
            last = span if span.line else last
            out.append(text)
        out.append("")
    ns = routines[0].fn.__globals__
    used = dict.fromkeys(re.findall(r"\b_q\d+\b", "\n".join(r.source for r in routines)))
    for name in list(used):  # (and the plain one a function falls back to)
        used.update(dict.fromkeys(re.findall(r"\b_q\d+\b", ns[name].source)))
    for name in used:  # any/all of a test, a loop of its own (quantify.py)
        out += ["# (generated)", ns[name].source]
    return "\n".join(out)


def _where(span: Span) -> str:
    return f"{span.file}:{span.line}" if span.line else "(generated)"
