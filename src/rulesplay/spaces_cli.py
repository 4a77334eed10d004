"""The ``spaces`` command: a ruleset's observation layout and action space, as the
encodings of :mod:`rulesplay.encode` make them (the PettingZoo adapter uses them).

    rulesplay spaces FILE [--players N] [--option K=V ...] [--examples K]
"""

from __future__ import annotations

import click

from . import terminal
from .cliargs import parse_pairs
from .encode.actions import ActionSpace, SpaceError
from .encode.describe import describe
from .encode.layout import Layout
from .engine.game import load
from .errors import OptionError

__all__ = ["spaces"]


@click.command(short_help="Print a ruleset's observation layout and action space.")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: the ruleset's usual count).")
@click.option("--option", "-o", "options", multiple=True, metavar="K=V",
              help="Set a ruleset option (repeatable).")
@click.option("--examples", type=click.IntRange(0, 100), default=3, show_default=True,
              help="Action ids shown per decision.")
def spaces(file: str, players: int | None, options: tuple[str, ...], examples: int) -> None:
    """Print the observation layout and the action space of FILE.

    The observation is a float32 vector per seat, built only from what the seat may see:
    each segment's offset, size and meaning are listed. The action space numbers every
    action id the ruleset can produce; a large choice of several cards is chosen card by
    card, ending with 'done'. See docs/adapters.md.
    """
    try:  # a bad --option is the command line's fault, not the file's: exit 2, as run
        game = load(file, dict(parse_pairs(options, "--option")))
        lo, hi = game.player_range
        if players is not None and not lo <= players <= hi:
            raise click.UsageError(f"--players: {game.title} is for {lo} to {hi} players, "
                                   f"not {players}")
        n = game.usual_players if players is None else players
        prog = game.program(n)
    except OptionError as exc:
        raise click.UsageError(exc.message) from None
    try:
        actions = ActionSpace(prog)
    except SpaceError as exc:
        raise click.ClickException(str(exc)) from None
    for line in describe(game.title, n, Layout(prog, actions), actions, examples):
        click.echo(terminal.clean(line))
