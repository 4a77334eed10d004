"""What the commands share: ``K=V`` pairs (``--option``, ``--seat``), printing warnings."""

from __future__ import annotations

from collections.abc import Iterable

import click

from .errors import Diagnostic


def parse_pairs(values: tuple[str, ...], flag: str) -> list[tuple[str, str]]:
    """``("rounds=2", "hand_size=6")`` -> ``[("rounds", "2"), ("hand_size", "6")]``.

    Raises:
        click.UsageError: an item without ``=`` or key, or a key given twice.
    """
    out: list[tuple[str, str]] = []
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.UsageError(f"{flag} wants KEY=VALUE, got '{item}'")
        if any(k == key.strip() for k, _ in out):
            raise click.UsageError(f"{flag} {key.strip()} is given twice; give it once")
        out.append((key.strip(), value.strip()))
    return out


def echo_warnings(warnings: Iterable[Diagnostic], err: bool = True) -> None:
    """Print each warning as ``path:line:col: warning: ...`` with its line and a caret (to
    stderr unless ``err`` is false), so it shows before a game's own output."""
    for diag in warnings:
        click.echo(diag.render(), err=err)
