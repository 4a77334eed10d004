"""What the commands share: ``K=V`` pairs (``--option``, ``--seat``), printing warnings,
claiming an output file."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .engine.lower import ENGINES
from .errors import Diagnostic
from .limits import LIMITS, MAX_SEED, SEED_RANGE, limit_problem
from .outfiles import OutputRefused, claim

# ``--engine``: the compiled engine, or the frame interpreter it is tested against.
ENGINE_OPTION = click.option(
    "--engine", type=click.Choice(ENGINES), default=ENGINES[0], show_default=True,
    help="Run the phases compiled to Python, or with the frame interpreter (the reference; "
         "both play the same games).")


def at_least_one(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """A click callback: a whole number of at least 1 (games, workers), refused in words.

    Raises:
        click.BadParameter: the number is below 1.
    """
    if value is not None and value < 1:
        raise click.BadParameter(f"must be a whole number of at least 1, not {value}")
    return value

LIMIT_OPTION = click.option(
    "--limit", "limits", multiple=True, metavar="NAME=N",
    help="Raise or lower one of the game's budgets for this run: "
         + ", ".join(f"{name} ({what}, default {value:,})"
                     for name, (value, what) in LIMITS.items())
         + "; a game that goes past one stops with an error naming where (repeatable).")


def parse_limits(values: tuple[str, ...]) -> dict[str, int]:
    """``("decisions=20000",)`` -> ``{"decisions": 20000}``.

    Raises:
        click.UsageError: not NAME=N, an unknown limit (the message lists them), or a value
            that is not a whole number from 1 to :data:`~rulesplay.limits.MAX_LIMIT`.
    """
    out: dict[str, int] = {}
    for name, raw in parse_pairs(values, "--limit"):
        value: object = int(raw) if raw.strip().isascii() and raw.strip().isdecimal() \
            and len(raw) < 12 else raw
        problem = limit_problem(name, value)
        if problem is not None:
            raise click.UsageError(f"--limit: {problem}")
        out[name] = int(raw)
    return out


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


def check_bots(specs: Iterable[str]) -> None:
    """Check every bot spec (``--bot``, ``--seat N=SPEC``) before anything is loaded or
    played: the bot's name, each parameter's name and value (see
    :data:`rulesplay.agents.PARAMS`).

    Raises:
        click.UsageError: the first bad spec, saying what is allowed.
    """
    from .agents import make_agent  # here: the agents load the engine

    for spec in dict.fromkeys(specs):
        try:
            make_agent(spec, 0, 0)
        except ValueError as exc:
            raise click.UsageError(f"--bot/--seat: {exc}") from None


def echo_warnings(warnings: Iterable[Diagnostic], err: bool = True) -> None:
    """Print each warning as ``path:line:col: warning: ...`` with its line and a caret (to
    stderr unless ``err`` is false), so it shows before a game's own output."""
    for diag in warnings:
        click.echo(diag.render(), err=err)


def terminal_confirm() -> Callable[[str], bool] | None:
    """A yes/no question to the person at the terminal (default no), or None when standard
    input is not a terminal: then nobody is asked and nothing is replaced."""
    if not sys.stdin.isatty():
        return None
    return lambda question: click.confirm(question, default=False, err=True)


def claim_output(path: str, what: str, force: bool) -> None:
    """Make sure writing ``what`` to ``path`` (a file the person named) loses nothing; see
    :func:`rulesplay.outfiles.claim`.

    Raises:
        click.UsageError: its folder does not exist or cannot be written.
        click.ClickException: refused (a ruleset, a link, a special file, or an existing file
            without ``--force`` or a yes at the terminal).
    """
    try:
        claim(path, what, force, terminal_confirm())
    except OutputRefused as exc:
        if exc.folder:
            raise click.UsageError(str(exc)) from None
        raise click.ClickException(str(exc)) from None


def check_output(path: str, option: str, what: str, force: bool,
                 endings: tuple[str, ...] = ()) -> None:
    """The one check of an output file option (``--plot``, ``--out``...) before any game is
    played: a file is named, its ending is one of ``endings`` (when given), its folder exists
    and can be written, and writing it loses nothing (:func:`claim_output`).

    Args:
        path: the file the person named.
        option: the option, for the message (``"--plot"``).
        what: the kind of output (``"the plot"``).
        force: an existing file may be replaced.
        endings: the file endings allowed, with their dots, lower case (empty: any).

    Raises:
        click.UsageError: no file, another ending, or a folder that cannot take it.
        click.ClickException: writing it would lose something (see :func:`claim_output`).
    """
    if not path:
        raise click.UsageError(f"{option}: give the file to write {what} to"
                               + (f" ({', '.join(endings)})" if endings else ""))
    if endings and Path(path).suffix.lower() not in endings:
        shown = endings[0] if len(endings) == 1 else \
            f"{', '.join(endings[:-1])} or {endings[-1]}"
        raise click.UsageError(f"{option} {path}: the file must end in {shown}")
    claim_output(path, what, force)


if TYPE_CHECKING:  # (generic from click 8.2; the package takes 8.1)
    _IntParam = click.ParamType[int]
else:
    _IntParam = click.ParamType


class SeedType(_IntParam):
    """``--seed``: a whole number from 0 to :data:`rulesplay.limits.MAX_SEED` (2^63 - 1),
    the one range every command and the web take (digits 0-9 only)."""

    name = "seed"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SEED:
            return value
        text = str(value).strip()
        if text.isascii() and text.isdigit() and len(text) <= 19 and int(text) <= MAX_SEED:
            return int(text)
        shown = text if len(text) <= 30 else text[:27] + "..."
        self.fail(f"{shown!r}: the seed is {SEED_RANGE}", param, ctx)


SEED = SeedType()
