"""The ``simulate`` and ``compare`` commands (plain click commands; the CLI group adds them).

    rulesplay simulate FILE -n N [--players P] [--option K=V] [--bot SPEC] [--seat I=SPEC]
                       [--seed S] [--workers W] [--engine compiled|interpret] [--json]
                       [--plot FILE.png]
    rulesplay compare BASE VARIANT -n N [same options]

Progress goes to stderr (a rich bar with games/s and time left); results go to stdout as a
table, or as JSON with ``--json``.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from . import terminal
from .cliargs import (
    ENGINE_OPTION,
    LIMIT_OPTION,
    SEED,
    at_least_one,
    check_bots,
    check_output,
    echo_warnings,
    parse_limits,
    parse_pairs,
)
from .compose import load_ruleset
from .errors import OptionError
from .sim import BACKENDS, Comparison, Interrupted, Result, rounds_words
from .sim import compare as run_compare
from .sim import simulate as run_simulate
from .words import counted

T = TypeVar("T")

__all__ = ["compare", "simulate"]


class _Speed(ProgressColumn):
    """Games per second since the start: games come in batches, so the rate between the
    last two updates (rich's ``speed``) reads a batch that arrived at once as hundreds of
    thousands of games a second."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed
        speed = task.completed / elapsed if task.completed and elapsed else None
        return Text(f"{speed:.0f} games/s" if speed else "-- games/s", style="cyan")


def _progress(console: Console) -> Progress:
    return Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                    MofNCompleteColumn(), _Speed(), TimeElapsedColumn(), TextColumn("ETA"),
                    TimeRemainingColumn(),
                    console=console, transient=False, disable=not console.is_terminal)


def _bots(bot: str, seats: tuple[str, ...]) -> dict[int, str]:
    """Seat -> spec from ``--seat`` values; unlisted seats get ``--bot`` (filled later)."""
    out: dict[int, str] = {}
    for key, spec in parse_pairs(seats, "--seat"):
        if not key.isdigit():
            raise click.UsageError(f"--seat {key}={spec}: the seat must be a number")
        out[int(key)] = spec
    check_bots([bot, *out.values()])
    return out


def _table_bots(bot: str, seats: dict[int, str], players: int) -> dict[int, str]:
    for s in seats:
        if not 0 <= s < players:
            raise click.UsageError(f"--seat {s}: seats are 0 to {players - 1}")
    return {p: seats.get(p, bot) for p in range(players)}


# How errors name the second ruleset of a comparison.
VARIANT_ROLE = "the variant"


def _players_of(path: str, options: dict[str, Any], players: int | None,
                which: str = "") -> int:
    """``--players`` and ``--option``, checked against the ruleset before any seat is set
    up (a huge count would otherwise be a huge table); default the ruleset's usual count.

    Args:
        path: the ruleset.
        options: ``--option`` values by name.
        players: ``--players``, or None.
        which: how an error names the ruleset (``"the variant"``), when there are two.

    Raises:
        click.UsageError: a player count or option the ruleset does not allow (a bad
            command-line value, not a fault of the file: exit 2, as ``run`` does).
    """
    from .engine.game import load

    named = f"{which} {Path(path).stem}: " if which else ""
    try:
        game = load(path, options)
        lo, hi = game.player_range
        if players is not None and not lo <= players <= hi:
            # (the count is the base's to set: only the variant is named as such)
            title = f"{game.title} ({which}, {Path(path).stem})" \
                if which == VARIANT_ROLE else game.title
            raise click.UsageError(f"--players: {title} is for {game.player_counts}, "
                                   f"not {players}")
        n = game.usual_players if players is None else players
        game.program(n)  # (checks the options' values with this many players)
    except OptionError as exc:
        raise click.UsageError(f"{named}{exc.message}") from None
    return n


def _common(f: Any) -> Any:
    for deco in reversed([
        click.option("-n", "--games", "n", type=int, callback=at_least_one, default=1000,
                     show_default=True, help="Number of games."),
        click.option("--players", "-p", type=int, default=None,
                     help="Number of players (default: the ruleset's usual count)."),
        click.option("--option", "-o", "options", multiple=True, metavar="K=V",
                     help="Set a ruleset option (repeatable)."),
        click.option("--bot", default="random", show_default=True,
                     help="Bot for every seat not set with --seat (random, greedy, mcts, "
                          "mcts:iterations=500, mcts:seconds=0.5...)."),
        click.option("--seat", "seats", multiple=True, metavar="I=SPEC",
                     help="Bot for one seat, e.g. --seat 0=mcts (repeatable)."),
        click.option("--seed", "-s", type=SEED, default=0, show_default=True,
                     help="Seed of the run; game i is seeded from (seed, i)."),
        click.option("--workers", type=int, callback=at_least_one, default=None,
                     help="Processes (default: all cores; more than the cores only with "
                          "--force). Results do not depend on it."),
        click.option("--json", "as_json", is_flag=True, help="Print the results as JSON."),
        ENGINE_OPTION,
        LIMIT_OPTION,
        click.option("--backend", type=click.Choice(BACKENDS), default="local",
                     show_default=True,
                     help="Where the games run: processes of this machine, or Ray tasks "
                          "(the 'ray' extra; a local Ray instance of --workers CPUs, or the "
                          "cluster at --address). The results are the same."),
        click.option("--address", default=None, metavar="HOST:PORT",
                     help="With --backend ray: the Ray cluster to join ('auto': the one "
                          "this machine belongs to)."),
    ]):
        f = deco(f)
    return f


def _pct(v: float) -> str:
    return f"{v * 100:.1f}%"


def result_tables(r: Result) -> list[Table]:
    """Rich tables for a simulation: teams (with ``teams:``), seats, then game measures."""
    s = r.summary()
    seats = Table(title=terminal.literal(f"{r.title}: {counted(r.n, 'game')}, "
                                         f"{counted(r.players, 'player')}, "
                                         f"seed {r.seed}"
                                         + (f", options {r.options}" if r.options else ""),
                                         "table.title"))
    for col in ("Seat", "Bot", "Win rate", "95% CI", "Mean score", "Score sd"):
        seats.add_column(col, justify="left" if col in ("Seat", "Bot") else "right")
    for row in s["seats"]:
        seats.add_row(str(row["seat"]), terminal.literal(row["bot"]), _pct(row["win_rate"]),
                      f"{_pct(row['win_low'])}..{_pct(row['win_high'])}",
                      f"{row['score']['mean']:.2f}", f"{row['score']['sd']:.2f}")
    tables = [seats]
    if "teams" in s:  # a team's win is one win: its rate, and each seat's is its team's
        teams = Table(title="Teams")
        for col in ("Team", "Seats", "Win rate", "95% CI", "Mean score"):
            teams.add_column(col, justify="left" if col in ("Team", "Seats") else "right")
        for row in s["teams"]:
            teams.add_row(terminal.literal(row["name"]), ", ".join(map(str, row["seats"])),
                          _pct(row["win_rate"]),
                          f"{_pct(row['win_low'])}..{_pct(row['win_high'])}",
                          f"{row['score']['mean']:.2f}")
        tables.insert(0, teams)
    game = Table(title="Games")
    game.add_column("Measure")
    game.add_column("Value", justify="right")
    game.add_column("Spread / 95% CI", justify="right")
    fp, ties = s["first_player"], s["ties"]
    game.add_row("First player's win rate", _pct(fp["win_rate"]),
                 f"{_pct(fp['low'])}..{_pct(fp['high'])} (fair {_pct(fp['fair'])})")
    game.add_row("Ties (winners equal on score)", _pct(ties["share"]),
                 f"{_pct(ties['low'])}..{_pct(ties['high'])}")
    shared = s["shared_wins"]
    if shared["share"]:
        game.add_row("Shared wins (by the rules)", _pct(shared["share"]),
                     f"{_pct(shared['low'])}..{_pct(shared['high'])}")
    game.add_row("Score spread (best - worst)", f"{s['spread']['mean']:.2f}",
                 f"sd {s['spread']['sd']:.2f}")
    for key, words in (("decisions", "decisions"), ("tricks", "tricks"),
                       ("rounds", rounds_words(r.tally))):
        game.add_row(f"Length: {words}", f"{s[key]['mean']:.1f}", f"sd {s[key]['sd']:.1f}")
    game.add_row("Time per game", f"{s['seconds_per_game'] * 1000:.1f} ms",
                 f"{s['games_per_second']:.0f} games/s on "
                 f"{counted(r.workers, 'worker')}")
    return [*tables, game]


def bots_text(bots: dict[int, str]) -> str:
    """Who played which seat, in few words: ``random in every seat``, or each bot with its
    seats, ``greedy (seats 0, 2, 3), mcts:iterations=5 (seat 1)``.

    Args:
        bots: seat -> bot spec, every seat of the table.
    """
    seats: dict[str, list[int]] = {}
    for p in sorted(bots):
        seats.setdefault(bots[p], []).append(p)
    if len(seats) == 1:
        return f"{next(iter(seats))} in every seat"
    return ", ".join(f"{spec} (seat{'s' if len(ps) > 1 else ''} {', '.join(map(str, ps))})"
                     for spec, ps in seats.items())


def comparison_table(c: Comparison) -> Table:
    """A rich table: each measure for base and variant, difference and 95% CI; its title
    names the two rulesets, the games, players and bots (a last column marks the clear
    differences, when there are any)."""
    t = Table(title=terminal.literal(
        f"{c.base.title} ({c.base.path}) vs {c.variant.title} ({c.variant.path}): "
        f"{counted(c.base.n, 'game')} each, {counted(c.base.players, 'player')}; bots: "
        f"{bots_text(c.base.bots)}", "table.title"))
    marked = any(line.clear for line in c.lines)  # (else the column would be empty)
    for col in ("Measure", "Base", "Variant", "Difference", "95% CI", *([""] if marked else [])):
        t.add_column(col, justify="left" if col == "Measure" else "right")
    for line in c.lines:
        if line.percent:
            vals = (_pct(line.base), _pct(line.variant), f"{line.diff * 100:+.1f} pt",
                    f"{line.low * 100:+.1f}..{line.high * 100:+.1f}")
        else:
            ci = f"{line.low:+.2f}..{line.high:+.2f}" if math.isfinite(line.high - line.low) \
                else "unknown"  # (one game: no spread to estimate it from)
            vals = (f"{line.base:.2f}", f"{line.variant:.2f}", f"{line.diff:+.2f}", ci)
        mark = [Text("clear", style="bold") if line.clear else ""] if marked else []
        t.add_row(terminal.literal(line.label), *vals, *mark)
    return t


PLOT_FORMATS = (".png", ".svg", ".pdf")


def _check_plot(path: str, force: bool) -> None:
    """``--plot`` names a file of a format the plot is written in, that may be written
    (:func:`claim_output`), and matplotlib is installed.

    Raises:
        click.UsageError: no file, another ending, or a folder it cannot be written in.
        click.ClickException: refused, or no matplotlib.
    """
    check_output(path, "--plot", "the plot", force, PLOT_FORMATS)
    if importlib.util.find_spec("matplotlib") is None:
        raise click.ClickException("--plot needs matplotlib: pip install 'rulesplay[plot]' "
                                   "(or pip install matplotlib)")


def _plot(r: Result, path: str) -> None:
    import matplotlib  # optional (the 'plot' extra), checked by _check_plot

    matplotlib.use("Agg")
    # Every text of the plot shown as written (ticks and legend included): matplotlib would
    # read "$...$" in a ruleset's title as mathematics, and with a user's usetex as LaTeX.
    with matplotlib.rc_context({"text.parse_math": False, "text.usetex": False}):
        _draw(r, path)


def _draw(r: Result, path: str) -> None:
    import matplotlib.pyplot as plt
    shown = terminal.clean  # outside text (title, bots) without control characters
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    # with teams, a team's score and win are its seats': one line and one bar per team
    sides = [(shown(name), team[0]) for name, team in zip(r.team_names, r.teams, strict=True)] \
        if r.teamed else [(str(p), p) for p in range(r.players)]
    for name, p in sides:
        scores = r.scores(p).counts  # (each score once, weighted by how often it came)
        ax1.hist(list(scores), weights=list(scores.values()), bins=30, histtype="step",
                 label=name if r.teamed else f"seat {p} ({shown(r.bots[p])})")
    ax1.set_xlabel("final score")
    ax1.set_ylabel("games")
    ax1.set_title("Score distribution by team" if r.teamed else "Score distribution by seat")
    ax1.legend()
    rates = [r.win_rate(seat) for _, seat in sides]
    ax2.bar([name for name, _ in sides], [x[0] * 100 for x in rates],
            yerr=[[(x[0] - x[1]) * 100 for x in rates], [(x[2] - x[0]) * 100 for x in rates]],
            capsize=4)
    ax2.axhline(100 / len(sides), linestyle="--", color="grey", label="fair share")
    ax2.set_xlabel("team" if r.teamed else "seat")
    ax2.set_ylabel("win rate (%) with 95% CI")
    ax2.set_title("Win rate by team" if r.teamed else "Win rate by seat")
    ax2.legend()
    fig.suptitle(f"{shown(r.title)}: {counted(r.n, 'game')}, {counted(r.players, 'player')}")
    fig.tight_layout()
    fig.savefig(path, format=Path(path).suffix.lower()[1:])  # never a name of its own
    plt.close(fig)


def _table(file: str, options: tuple[str, ...], players: int | None, bot: str,
           seats: tuple[str, ...], which: str = ""
           ) -> tuple[dict[str, Any], int, dict[int, str]]:
    """Options, player count and the bot of every seat, from the command's arguments
    (``which``: how errors name the ruleset, when there are two)."""
    opts = dict(parse_pairs(options, "--option"))
    per_seat = _bots(bot, seats)  # before the ruleset is read
    _warn(file)
    nplayers = _players_of(file, opts, players, which)
    return opts, nplayers, _table_bots(bot, per_seat, nplayers)


def _warn(path: str) -> None:
    """Print the ruleset's warnings to stderr before any game is played."""
    echo_warnings(load_ruleset(path)[1].warnings)


@click.command(short_help="Play N games with bots; report win rates and scores.")
@click.argument("file", type=click.Path(dir_okay=False))
@_common
@click.option("--plot", "plot_path", metavar="FILE.png", default=None,
              help="Draw score distributions and win rates by seat (needs matplotlib).")
@click.option("--force", is_flag=True,
              help="Replace an existing --plot file; start more --workers than cores.")
def simulate(file: str, n: int, players: int | None, options: tuple[str, ...], bot: str,
             seats: tuple[str, ...], seed: int, workers: int | None, as_json: bool,
             engine: str, limits: tuple[str, ...], backend: str, address: str | None,
             plot_path: str | None, force: bool) -> None:
    """Play N games of FILE with bots and report win rates, scores and game length.

    Ctrl-C (or SIGTERM) stops the run and reports the games finished by then.
    """
    _check_workers(workers, force)
    check_backend(backend, address, workers)
    budgets = parse_limits(limits)
    if plot_path is not None:  # before any game is played, so a refusal costs nothing
        _check_plot(plot_path, force)
    opts, nplayers, bots = _table(file, options, players, bot, seats)
    err = terminal.console(stderr=True, highlight=True)

    def play() -> Result:
        with _progress(err) as bar:
            task = bar.add_task("simulating", total=n)
            return run_simulate(file, n, nplayers, opts, bots, seed, workers,
                                progress=lambda k: bar.update(task, completed=k),
                                engine=engine, limits=budgets, backend=backend,
                                address=address, keep_games=as_json)

    with ray_stopped(backend):
        result, stopped = _played(play, Result, err, n)
    if as_json:
        click.echo(terminal.json_text(json.dumps(result.to_dict(), indent=2,
                                                 ensure_ascii=False)))
    else:
        out = terminal.console(highlight=True)
        for t in result_tables(result):
            out.print(t)
    if plot_path:  # after the results are out, so a failing plot loses nothing
        try:
            _plot(result, plot_path)
        except OSError as exc:
            raise click.ClickException(f"cannot write the plot {plot_path}: "
                                       f"{exc.strerror or exc}") from None
        click.echo(f"plot written to {plot_path}", err=as_json)
    if stopped:
        sys.exit(130)


@click.command(short_help="Simulate a ruleset and a variant on the same seeds.")
@click.argument("base", type=click.Path(dir_okay=False))
@click.argument("variant", type=click.Path(dir_okay=False))
@_common
@click.option("--force", is_flag=True, help="Start more --workers than cores.")
def compare(base: str, variant: str, n: int, players: int | None, options: tuple[str, ...],
            bot: str, seats: tuple[str, ...], seed: int, workers: int | None,
            as_json: bool, engine: str, limits: tuple[str, ...], backend: str,
            address: str | None, force: bool) -> None:
    """Simulate BASE and VARIANT on the same seeds and say what the variant changes.

    Ctrl-C (or SIGTERM) stops the run and compares the seeds both finished by then.
    """
    _check_workers(workers, force)
    check_backend(backend, address, workers)
    budgets = parse_limits(limits)
    opts, nplayers, bots = _table(base, options, players, bot, seats, "the base")
    _warn(variant)
    _players_of(variant, opts, nplayers, VARIANT_ROLE)
    err = terminal.console(stderr=True, highlight=True)

    def play() -> Comparison:
        with _progress(err) as bar:
            tasks = {"base": bar.add_task("base", total=n),
                     "variant": bar.add_task("variant", total=n)}
            return run_compare(base, variant, n, nplayers, opts, bots, seed, workers,
                               progress=lambda which, k: bar.update(tasks[which],
                                                                    completed=k),
                               engine=engine, limits=budgets, backend=backend,
                               address=address)

    with ray_stopped(backend):
        result, stopped = _played(play, Comparison, err, n)
    if as_json:
        click.echo(terminal.json_text(json.dumps(result.to_dict(), indent=2,
                                                 ensure_ascii=False)))
    else:
        out = terminal.console(highlight=True)
        out.print(comparison_table(result))
        for sentence in result.verdict():
            out.print(sentence)
    if stopped:
        sys.exit(130)


def _played(play: Callable[[], T], kind: type[T], err: Console, n: int) -> tuple[T, bool]:
    """Run ``play`` (the games, with their progress bar) and return what it gives and
    whether it was stopped. On Ctrl-C or SIGTERM the stop is said and what the finished
    games give is returned (exit 130 when they give nothing of ``kind``).

    Raises:
        click.UsageError: a bad argument found on the way (ValueError).
    """
    try:
        with _term_as_interrupt():
            return play(), False
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    except KeyboardInterrupt:  # before the games began (loading the ruleset)
        _say_stopped(err, Interrupted(None, 0, n))
    except Interrupted as exc:
        _say_stopped(err, exc)
        if isinstance(exc.partial, kind):
            return exc.partial, True
    sys.exit(130)


def check_backend(backend: str, address: str | None, workers: int | None) -> None:
    """``--backend``, ``--address`` and ``--workers`` make sense together, and Ray is
    installed for ``--backend ray``.

    Raises:
        click.UsageError: ``--address`` without ``--backend ray``, ``--workers`` with
            ``--address`` (a cluster has the CPUs it has), or an address that is not
            ``HOST:PORT`` or at which nothing answers within a few seconds
            (:func:`rulesplay.sim_ray.check_address`); the same of the ``RAY_ADDRESS``
            variable, which Ray joins without ``--address``. click.ClickException: no Ray.
    """
    named = "--address"
    if address is None and backend == "ray" and \
            os.environ.get("RAY_ADDRESS", "local") not in ("", "local"):  # (local: start one)
        address, named = os.environ["RAY_ADDRESS"], "RAY_ADDRESS"  # (what Ray will join)
        if workers is not None:
            raise click.UsageError("--workers sets the CPUs of a local Ray instance, but "
                                   f"RAY_ADDRESS={address} names a cluster, which uses the "
                                   "CPUs it has (leave --workers out, or unset RAY_ADDRESS)")
    elif address is not None and backend != "ray":
        raise click.UsageError("--address is for --backend ray")
    if address is not None and workers is not None:
        raise click.UsageError("--workers sets the CPUs of a local Ray instance; the cluster "
                               "at --address uses the CPUs it has (leave --workers out)")
    if backend == "ray" and importlib.util.find_spec("ray") is None:
        raise click.ClickException("--backend ray needs Ray: pip install 'rulesplay[ray]' "
                                   "(or pip install ray)")
    if backend == "ray" and address is not None:
        from .sim_ray import check_address

        try:
            check_address(address, name=named)
        except (ValueError, ConnectionError) as exc:
            raise click.UsageError(f"{named}: {exc}" if isinstance(exc, ConnectionError)
                                   else str(exc)) from None


@contextmanager
def ray_stopped(backend: str) -> Iterator[None]:
    """Around a run: with ``--backend ray``, stop the local Ray instance the run started
    when it ends (a cluster joined with ``--address`` stays up)."""
    try:
        yield
    finally:
        if backend == "ray":
            from .sim_ray import shutdown

            shutdown()


def _check_workers(workers: int | None, force: bool) -> None:
    """More worker processes than cores only slow each other down: refused unless forced.

    Raises:
        click.UsageError: ``workers`` above the number of cores without ``--force``.
    """
    cores = os.cpu_count() or 1
    if workers is not None and workers > cores and not force:
        raise click.UsageError(f"--workers {workers} is more than this machine's "
                               f"{counted(cores, 'core')} (at most {cores}, or give --force)")


@contextmanager
def _term_as_interrupt() -> Iterator[None]:
    """While games are played, SIGTERM stops the run like Ctrl-C: the games finished are
    reported (the default would end the process with nothing said)."""
    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _say_stopped(err: Console, exc: Interrupted) -> None:
    """Say that the run stopped, and what the results below cover."""
    if exc.partial is None:
        err.print(f"Stopped after {exc.done} of {counted(exc.total, 'game')}: nothing to "
                  "report yet.")
    else:
        err.print(f"Stopped: the results below are of the {counted(exc.done, 'game')} (of "
                  f"{exc.total}) finished by then.")
