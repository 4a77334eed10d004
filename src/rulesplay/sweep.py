"""Option sweeps: every combination of some options' values simulated on the same seeds,
as one tidy table.

    grid = parse_grid(ruleset.options, [("rounds", "2..8"), ("hand_size", "6,8")], players)
    sweep = run_sweep("house.rules", grid, n=1000, players=4)
    sweep.rows()     # one dict per (combination, measure[, seat])

Each combination is a :func:`rulesplay.sim.simulate` run with the same seed, so game ``i``
of every combination starts from the same seed (:func:`~rulesplay.sim.game_seed`): a
difference between two combinations is the options', not the deal's luck alone. Results
do not depend on the number of workers.

The table is *tidy*: one row per combination and measure (and seat, for a measure per
seat), with a column per swept option, then ``measure``, ``seat`` (empty for a measure of
the whole game), ``value``, ``low`` and ``high`` (the 95% interval of a rate), ``sd`` (the
standard deviation of a mean) and ``games``. ``pandas.read_csv`` and
``pandas.DataFrame(json.load(f))`` read it as it is; measures: see :data:`MEASURES`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import ir
from .engine.options import check_option_value, coerce_option
from .errors import OptionError, did_you_mean
from .sim import Interrupted, Result, simulate

__all__ = ["MAX_COMBINATIONS", "MEASURES", "Sweep", "parse_grid", "run_sweep"]

MAX_COMBINATIONS = 1_000  # a sweep of more is refused (a typo in a range, most likely)
# measure -> what it is (rates have an interval; means a standard deviation)
MEASURES: dict[str, str] = {
    "win_rate": "share of games each seat won (a shared win counts 1/k), per seat",
    "score": "mean final score, per seat",
    "first_player_win_rate": "share of games won by the seat that decided first",
    "ties": "share of games whose winners the ranking could not separate",
    "spread": "mean of the highest minus the lowest score",
    "decisions": "mean decisions per game",
    "tricks": "mean completed tricks per game",
    "rounds": "mean rounds (entries of the first phase that repeats) per game",
}
COLUMNS = ["measure", "seat", "value", "low", "high", "sd", "games"]


def parse_grid(decls: Sequence[ir.OptionDecl], specs: Sequence[tuple[str, str]],
               players: int | None = None) -> dict[str, list[Any]]:
    """The values of each swept option, from ``--option NAME=VALUES`` pairs: ``A..B`` (whole
    numbers from A to B, for a number option), ``X,Y,Z`` (a list), or one value.

    Args:
        decls: the ruleset's option declarations.
        specs: ``(name, values text)`` pairs, in order (the table's column order).
        players: the player count (named in a message about a value).

    Raises:
        OptionError: an unknown option (the message lists the ruleset's options), a value
            the option does not allow (the message says what it allows: its range or
            choices), a range on an option that is not a number, a value given twice, or
            more than :data:`MAX_COMBINATIONS` combinations.
    """
    by_name = {o.name: o for o in decls}
    grid: dict[str, list[Any]] = {}
    for name, text in specs:
        o = by_name.get(name)
        if o is None:
            allowed = ", ".join(by_name) or "none"
            raise OptionError(f"--option {name}: unknown option{did_you_mean(name, by_name)}; "
                              f"this ruleset's options: {allowed}")
        values = _values(o, text)
        for v in values:
            try:
                check_option_value(o, v, players)
            except OptionError as exc:
                raise OptionError(f"--option {name}={text}: {exc.message}") from None
        if len(set(map(repr, values))) < len(values):
            raise OptionError(f"--option {name}={text}: a value is given twice")
        grid[name] = values
    count = 1
    for values in grid.values():
        count *= len(values)
    if count > MAX_COMBINATIONS:
        raise OptionError(f"{count:,} combinations of options: at most "
                          f"{MAX_COMBINATIONS:,} (sweep fewer values)")
    return grid


def _values(o: ir.OptionDecl, text: str) -> list[Any]:
    """The values ``text`` names for option ``o`` (see :func:`parse_grid`)."""
    lo, sep, hi = text.partition("..")
    if sep:
        if o.type != "int":
            raise OptionError(f"--option {o.name}={text}: a range A..B is for a number "
                              "option; give the values with commas (a,b)")
        try:
            a, b = int(lo), int(hi)
        except ValueError:
            raise OptionError(f"--option {o.name}={text}: a range is two whole numbers, "
                              "A..B") from None
        if a > b:
            raise OptionError(f"--option {o.name}={text}: the range is empty ({a} > {b})")
        if b - a >= MAX_COMBINATIONS:
            raise OptionError(f"--option {o.name}={text}: more than {MAX_COMBINATIONS:,} "
                              "values")
        return list(range(a, b + 1))
    parts = [p.strip() for p in text.split(",")]
    if not all(parts):
        raise OptionError(f"--option {o.name}={text}: an empty value in the list")
    return [coerce_option(o, p) for p in parts]


@dataclass
class Sweep:
    """The results of a sweep: each combination's options and its simulation.

    Attributes:
        names: the swept options, in column order.
        runs: ``(values of the swept options, Result)`` per combination, in order.
        stopped: the sweep was stopped (Ctrl-C) before every combination finished.
    """

    path: str
    names: list[str]
    runs: list[tuple[tuple[Any, ...], Result]] = field(default_factory=list)
    stopped: bool = False

    def rows(self) -> list[dict[str, Any]]:
        """The tidy table: one dict per combination and measure (and seat); see the module
        docstring for the columns."""
        out: list[dict[str, Any]] = []
        for values, r in self.runs:
            summary = r.summary()
            opts = dict(zip(self.names, values, strict=True))

            def row(measure: str, value: float, seat: int | None = None,
                    low: float | None = None, high: float | None = None,
                    sd: float | None = None, opts: dict[str, Any] = opts,
                    games: int = r.n) -> None:
                out.append({**opts, "measure": measure, "seat": seat, "value": value,
                            "low": low, "high": high, "sd": sd, "games": games})

            for s in summary["seats"]:
                row("win_rate", s["win_rate"], s["seat"], s["win_low"], s["win_high"])
            for s in summary["seats"]:
                row("score", s["score"]["mean"], s["seat"], sd=s["score"]["sd"])
            fp = summary["first_player"]
            row("first_player_win_rate", fp["win_rate"], low=fp["low"], high=fp["high"])
            ties = summary["ties"]
            row("ties", ties["share"], low=ties["low"], high=ties["high"])
            for m in ("spread", "decisions", "tricks", "rounds"):
                row(m, summary[m]["mean"], sd=summary[m]["sd"])
        return out


def run_sweep(path: str, grid: Mapping[str, list[Any]], n: int, players: int | None = None,
              options: Mapping[str, Any] | None = None,
              bots: Mapping[int, str] | None = None, seed: int = 0,
              workers: int | None = None, engine: str | None = None,
              limits: Mapping[str, int] | None = None,
              progress: Callable[[int], None] | None = None, backend: str = "local",
              address: str | None = None) -> Sweep:
    """Simulate ``n`` games of every combination of ``grid``'s values (the last option
    varying fastest), all on seed ``seed``.

    Args:
        path: the ``.rules`` file.
        grid: option -> values (:func:`parse_grid`).
        n, players, bots, seed, workers, engine, limits, backend, address: as for
            :func:`~rulesplay.sim.simulate` (on Ray, one instance for the whole sweep).
        options: options held fixed (not swept).
        progress: called with the games finished so far over the whole sweep.

    Returns:
        A :class:`Sweep`; on Ctrl-C, the combinations finished by then, ``stopped`` set.

    Raises:
        RulesError, OptionError, ValueError: as :func:`~rulesplay.sim.simulate` (a
            combination the ruleset refuses is found before any game is played).
    """
    from .engine.game import Game, load

    names = list(grid)
    combos = list(itertools.product(*grid.values()))
    fixed = dict(options or {})
    base = load(path)  # read and checked once; each combination compiled from it
    for values in combos:  # every combination checked before the first game
        opts = {**fixed, **dict(zip(names, values, strict=True))}
        game = Game(base.ruleset, base.checked, opts, path=base.path, bundle=base.bundle)
        game.program(players if players is not None else game.usual_players)
    sweep = Sweep(path, names)
    for k, values in enumerate(combos):
        opts = {**fixed, **dict(zip(names, values, strict=True))}
        step = None if progress is None else \
            (lambda done, k=k: progress(k * n + done))
        try:
            result = simulate(path, n, players, opts, bots, seed, workers, progress=step,
                              engine=engine, limits=limits, backend=backend, address=address)
        except (Interrupted, KeyboardInterrupt):  # (the latter between two simulations)
            sweep.stopped = True
            break
        sweep.runs.append((values, result))
    return sweep
