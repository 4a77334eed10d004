"""The ``sweep`` command: every combination of option values simulated on the same seeds,
written as a tidy table (:mod:`rulesplay.sweep`).

    rulesplay sweep FILE --option rounds=2..8 --option hand_size=6,8 -n 1000
                    [--players P] [--bot SPEC] [--seat I=SPEC] [--seed S] [--workers W]
                    [--out table.csv|table.json] [--plot sweep.png] [--json]
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from . import terminal
from .cliargs import check_output, parse_limits, parse_pairs
from .compose import load_ruleset
from .errors import OptionError
from .sim_cli import (
    _bots,
    _check_plot,
    _check_workers,
    _common,
    _pct,
    _players_of,
    _progress,
    _table_bots,
    _term_as_interrupt,
    _warn,
    check_backend,
    ray_stopped,
)
from .sweep import COLUMNS, MEASURES, Sweep, parse_grid, run_sweep

__all__ = ["sweep"]

TABLE_FORMATS = (".csv", ".json")


@click.command(short_help="Simulate every combination of some options' values.")
@click.argument("file", type=click.Path(dir_okay=False))
@_common
@click.option("--out", "out_path", metavar="FILE.csv|FILE.json", default=None,
              help="Write the tidy table (one row per combination and measure).")
@click.option("--plot", "plot_path", metavar="FILE.png", default=None,
              help="Draw one chart per measure against the first swept option "
                   "(needs matplotlib).")
@click.option("--force", is_flag=True,
              help="Replace existing --out/--plot files; start more --workers than cores.")
def sweep(file: str, n: int, players: int | None, options: tuple[str, ...], bot: str,
          seats: tuple[str, ...], seed: int, workers: int | None, as_json: bool,
          engine: str, limits: tuple[str, ...], backend: str, address: str | None,
          out_path: str | None, plot_path: str | None, force: bool) -> None:
    """Simulate N games of FILE for every combination of option values, on the same seeds.

    Give each swept option as --option NAME=A..B (whole numbers from A to B) or
    --option NAME=X,Y (a list); a single value holds it fixed. Every argument is checked
    before the first game. Ctrl-C (or SIGTERM) stops the sweep and reports the
    combinations finished by then.
    """
    _check_workers(workers, force)
    check_backend(backend, address, workers)
    budgets = parse_limits(limits)
    if not options:
        raise click.UsageError("give the options to sweep: --option NAME=A..B or "
                               "--option NAME=X,Y (repeatable)")
    if out_path is not None:  # before any game: a sweep never plays all, then fails to write
        check_output(out_path, "--out", "the table", force, TABLE_FORMATS)
    if plot_path is not None:
        _check_plot(plot_path, force)
    per_seat = _bots(bot, seats)
    _warn(file)
    nplayers = _players_of(file, {}, players)
    bots = _table_bots(bot, per_seat, nplayers)
    try:
        grid = parse_grid(load_ruleset(file)[0].options, parse_pairs(options, "--option"),
                          nplayers)
    except OptionError as exc:
        raise click.UsageError(exc.message) from None
    total = n
    for values in grid.values():
        total *= len(values)
    err = terminal.console(stderr=True, highlight=True)
    with ray_stopped(backend), _term_as_interrupt(), _progress(err) as bar:
        task = bar.add_task("sweeping", total=total)
        try:
            result = run_sweep(file, grid, n, nplayers, None, bots, seed, workers, engine,
                               budgets, progress=lambda k: bar.update(task, completed=k),
                               backend=backend, address=address)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
        except KeyboardInterrupt:  # (checking the combinations, before the first game)
            result = Sweep(file, list(grid), stopped=True)
    if result.stopped:
        err.print(f"Stopped: the results below are of the {len(result.runs)} combinations "
                  "finished by then.")
    rows = result.rows()
    if as_json:
        click.echo(terminal.json_text(json.dumps(rows, indent=2, ensure_ascii=False)))
    else:
        out = terminal.console(highlight=True)
        out.print(_summary(result, out))
    if out_path is not None:
        _write(out_path, result.names, rows)
        click.echo(f"table written to {out_path}", err=as_json)
    if plot_path and result.runs:
        _plot(result, rows, plot_path)
        click.echo(f"plot written to {plot_path}", err=as_json)
    if result.stopped:
        sys.exit(130)


def _summary(result: Sweep, console: Console) -> Table:
    """One line per combination: the options, each seat's win rate, the first player's,
    ties and the mean length (decisions; entries of the first phase to repeat). A seat's
    win rate has a column of its own when that table fits ``console`` with no word cut
    (rich's measure of it), else the rates share one cell in seat order."""
    apart = _summary_table(result, True)
    # (measured unbounded: rich caps a measure at the width it is given)
    least = console.measure(apart, options=console.options.update_width(10**6)).minimum
    return apart if least <= console.width else _summary_table(result, False)


def _summary_table(result: Sweep, apart: bool) -> Table:
    """The summary (see :func:`_summary`), a column a seat when ``apart``."""
    title = result.runs[0][1].title if result.runs else result.path
    games = result.runs[0][1].n if result.runs else 0
    table = Table(title=terminal.literal(f"{title}: {games} games per combination, same "
                                         "seeds; each seat's win rate", "table.title"))
    for name in result.names:  # (an option's name is never cut short: it says the row)
        table.add_column(terminal.literal(name), min_width=min(len(name), 24))
    players = result.runs[0][1].players if result.runs else 0
    seats = [f"Seat {p}" for p in range(players)] if apart else ["Seats 0, 1, ..."]
    for col in (*seats, "First player", "Ties", "Decisions", "Phase entries"):
        table.add_column(col, justify="right")
    for values, r in result.runs:
        s = r.summary()
        rates = [_pct(x["win_rate"]) for x in s["seats"]]
        table.add_row(*(terminal.literal(str(v)) for v in values),
                      *(rates if apart else [" ".join(rates)]),
                      _pct(s["first_player"]["win_rate"]), _pct(s["ties"]["share"]),
                      f"{s['decisions']['mean']:.1f}", f"{s['rounds']['mean']:.1f}")
    return table


def _write(path: str, names: list[str], rows: list[dict[str, Any]]) -> None:
    """Write the tidy table as CSV or JSON (a list of records), by ``path``'s ending.

    Raises:
        click.ClickException: the file cannot be written.
    """
    try:
        with open(path, "w", encoding="utf-8", newline="") as f:
            if path.lower().endswith(".json"):
                json.dump(rows, f, indent=1, ensure_ascii=False)
                f.write("\n")
            else:
                w = csv.DictWriter(f, fieldnames=[*names, *COLUMNS])
                w.writeheader()
                w.writerows(rows)
    except OSError as exc:
        raise click.ClickException(f"cannot write the table {path}: "
                                   f"{exc.strerror or exc}") from None


def _plot(result: Sweep, rows: list[dict[str, Any]], path: str) -> None:
    """One chart per measure against the first swept option: a line per seat (for a
    measure per seat) and per value of the other swept options; rates with their 95%
    intervals.

    Raises:
        click.ClickException: the plot cannot be written.
    """
    import matplotlib  # optional (the 'plot' extra), checked by _check_plot

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    x_name, others = result.names[0], result.names[1:]
    xs = list(dict.fromkeys(r[x_name] for r in rows))
    numeric = all(isinstance(x, int) and not isinstance(x, bool) for x in xs)
    with matplotlib.rc_context({"text.parse_math": False, "text.usetex": False}):
        fig, axes = plt.subplots((len(MEASURES) + 1) // 2, 2, figsize=(11, 12))
        for ax, (measure, meaning) in zip(axes.flat, MEASURES.items(), strict=False):
            lines: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
            for r in rows:
                if r["measure"] == measure:
                    key = (r["seat"], *(r[o] for o in others))
                    lines.setdefault(key, []).append(r)
            for key, points in lines.items():
                label = ", ".join([*([f"seat {key[0]}"] if key[0] is not None else []),
                                   *(f"{o}={v}" for o, v in zip(others, key[1:],
                                                                 strict=True))])
                at = [p[x_name] if numeric else xs.index(p[x_name]) for p in points]
                ys = [p["value"] for p in points]
                if points[0]["low"] is not None:  # (an interval's end may round past it)
                    below = [max(0.0, p["value"] - p["low"]) for p in points]
                    above = [max(0.0, p["high"] - p["value"]) for p in points]
                    ax.errorbar(at, ys, yerr=[below, above], capsize=3, marker="o",
                                label=label or None)
                else:
                    ax.plot(at, ys, marker="o", label=label or None)
            if not numeric:
                ax.set_xticks(range(len(xs)), [str(x) for x in xs])
            else:
                ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_xlabel(terminal.clean(x_name))
            ax.set_title(f"{measure}: {meaning}", fontsize=8)
            if any(ax.get_legend_handles_labels()[1]):
                ax.legend(fontsize=6)
        for ax in list(axes.flat)[len(MEASURES):]:
            ax.set_visible(False)
        fig.suptitle(terminal.clean(f"{result.runs[0][1].title}: {result.runs[0][1].n} "
                                    "games per combination"))
        fig.tight_layout()
        try:
            fig.savefig(path, format=Path(path).suffix.lower()[1:])
        except OSError as exc:
            raise click.ClickException(f"cannot write the plot {path}: "
                                       f"{exc.strerror or exc}") from None
        finally:
            plt.close(fig)
