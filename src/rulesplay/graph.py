"""The phase graph of a ruleset as Mermaid or Graphviz DOT text, or drawn by Graphviz.

Nodes are phases (labelled with the phase's display text), edges are ``next`` transitions
labelled with their condition; an unconditional ``next`` after conditional ones is labelled
``otherwise``. A phase that can say ``end game`` gets an edge to the end node.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import click

from . import ir
from .phasegraph import phase_edges, start_phase
from .show import expr_text

Edge = tuple[str, str, str]  # (from phase, to phase or "end", label)


def edges(r: ir.Ruleset) -> list[Edge]:
    """Every transition of the phase graph as (from, to, condition text)."""
    out: list[Edge] = []
    implicit = phase_edges(r)
    for p in r.phases:
        guarded = False
        for t in p.transitions:
            if t.guard is not None:
                guarded = True
                out.append((p.name, t.target, expr_text(t.guard)))
            else:
                out.append((p.name, t.target, "otherwise" if guarded else ""))
        targets = {t.target for t in p.transitions}
        for target in implicit.get(p.name, []):
            if target not in targets:
                out.append((p.name, target, "end game"))
    return out


def phase_label(p: ir.PhaseDecl, lang: str | None) -> str:
    """The phase's display text in ``lang`` (placeholders left as written)."""
    return p.labels.get(lang, p.name)


def to_mermaid(r: ir.Ruleset, lang: str | None = None) -> str:
    """The phase graph as a Mermaid ``flowchart`` (node ids are ``p_`` + phase name)."""

    def q(text: str) -> str:
        text = text.replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")
        return f'"{text}"'

    lines = ["flowchart TD", "    start_((start))"]
    for p in r.phases:
        lines.append(f"    p_{p.name}[{q(phase_label(p, lang))}]")
    lines.append("    end_((end))")
    start = start_phase(r)
    if start:
        lines.append(f"    start_ --> p_{start}")
    for a, b, label in edges(r):
        target = "end_" if b == "end" else f"p_{b}"
        arrow = f"-->|{q(label)}|" if label else "-->"
        lines.append(f"    p_{a} {arrow} {target}")
    return "\n".join(lines) + "\n"


def to_dot(r: ir.Ruleset, lang: str | None = None) -> str:
    """The phase graph as a Graphviz ``digraph``."""

    def q(text: str) -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

    lines = ["digraph phases {", "    rankdir=TB;", "    node [shape=box, style=rounded];",
             '    "start" [shape=circle, label="start"];',
             '    "end" [shape=doublecircle, label="end"];']
    for p in r.phases:
        lines.append(f"    {q('p_' + p.name)} [label={q(phase_label(p, lang))}];")
    start = start_phase(r)
    if start:
        lines.append(f'    "start" -> {q("p_" + start)};')
    for a, b, label in edges(r):
        target = '"end"' if b == "end" else q("p_" + b)
        attr = f" [label={q(label)}]" if label else ""
        lines.append(f"    {q('p_' + a)} -> {target}{attr};")
    lines.append("}")
    return "\n".join(lines) + "\n"


GET_GRAPHVIZ = ("install Graphviz, which provides it (Debian/Ubuntu: apt-get install "
                "graphviz; macOS: brew install graphviz; Windows: winget install graphviz; "
                "https://graphviz.org/download/), or print the graph as text with "
                "--format dot or --format mermaid")


def render_picture(dot_text: str, fmt: str, target: Path) -> None:
    """Draw ``dot_text`` into ``target`` as ``fmt`` (``svg`` or ``png``) with Graphviz's
    ``dot`` program.

    Raises:
        click.ClickException: ``dot`` is not installed (the message says how to get it), or
            it failed (its own message).
    """
    dot = shutil.which("dot")
    if dot is None:
        raise click.ClickException(f"drawing a {fmt} needs Graphviz's 'dot' program, which "
                                   f"is not on PATH: {GET_GRAPHVIZ}")
    done = subprocess.run([dot, f"-T{fmt}", "-o", str(target)], input=dot_text.encode(),
                          capture_output=True, timeout=60, check=False)
    if done.returncode != 0:
        raise click.ClickException(f"dot failed: {done.stderr.decode(errors='replace').strip()}")


def svg_text(dot_text: str) -> str | None:
    """``dot_text`` drawn as SVG by Graphviz's ``dot`` (what ``--format svg`` writes), or
    None when ``dot`` is not on PATH.

    Raises:
        RuntimeError: ``dot`` failed or took over 20 seconds (its own message).
    """
    dot = shutil.which("dot")
    if dot is None:
        return None
    try:
        done = subprocess.run([dot, "-Tsvg"], input=dot_text.encode(), capture_output=True,
                              timeout=20, check=False)
    except subprocess.TimeoutExpired:
        raise RuntimeError("dot took over 20 seconds") from None
    if done.returncode != 0:
        raise RuntimeError(f"dot failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout.decode("utf-8", errors="replace")
