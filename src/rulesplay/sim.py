"""Batch simulation and statistics: ``simulate`` (many games, one ruleset) and ``compare``
(a base ruleset against a variant, on the same seeds).

Reproducibility: game ``i`` of a run with seed ``S`` gets its own seed derived from ``(S, i)``
(:func:`game_seed`); the bots of that game are seeded from it and their seat. Games run in
separate processes (``workers``), but every game's result depends only on its index, so the
results are the same whatever the number of workers.

Measures per game: each seat's score; the winners (a win shared by ``k`` seats counts
``1/k`` to each, so win rates add up to 100%; with teams, a team's win is one win, shared
``1/k`` by ``k`` tied teams, and each seat wins when its team does); decisions (all seats'
choices); tricks (completed tricks, from the interpreter's ``trick`` events); ``rounds`` (how
many times the game entered the first phase it enters more than once: a round when each round
begins that phase, as a deal phase does, but a trick when a phase is begun again for each
trick, so it is shown by the phase's name (:func:`rounds_words`), not as "rounds"; 1 when no
phase repeats);
its :func:`outcome` (one winner, a win shared as the rules intend, a tie, or nobody); who
made the first decision; wall time.

Statistics: win rates with 95% Wilson score intervals; means with standard deviations. For
``compare``, whose base and variant games of one seed are a pair (same deal, same bots'
seeds), the differences are paired: of proportions with Newcombe's interval for paired
data, of means with the paired t interval, both from running totals of the pairs
(:class:`~rulesplay.sim_totals.Pairs`); the verdict on a variant that plays the same games
as its base on every seed says only that. "Clear" means the 95% interval excludes zero after Holm's
correction over the lines compared.
"""

from __future__ import annotations

import dataclasses
import gc
import math
import multiprocessing
import os
import random
import signal
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any

from .errors import RulesError
from .events import Tally
from .sim_notes import (
    VARIANT,
    Kinship,
    kinship,
    kinship_note,
    power_note,
    ranking_note,
)
from .sim_totals import Moments, Paired, Pairs, Totals
from .words import counted

Z95 = statistics.NormalDist().inv_cdf(0.975)

__all__ = ["Comparison", "GameRecord", "Result", "compare", "game_seed", "outcome", "rounds_words",
           "simulate"]

# What the ``rounds`` measure counts, as the tables and verdicts name it when the games do not
# agree on one phase (see rounds_words): the language has no rounds, only phases, and a phase
# may be begun again for each round or for each trick.
ROUNDS_WORDS = "entries of the first phase to repeat"


def rounds_words(*totals: Totals) -> str:
    """What the ``rounds`` measure of these simulations counts, in words: ``entries of phase
    'deal'`` when the phase first begun twice was the same in every game that began one twice
    (the usual case: the phase that starts each round), else :data:`ROUNDS_WORDS`."""
    names = set().union(*(t.repeats for t in totals))
    if len(names) == 1:
        return f"entries of phase '{names.pop()}'"
    return ROUNDS_WORDS

# Where the games run: processes of this machine, or Ray tasks (rulesplay.sim_ray).
BACKENDS = ("local", "ray")

# The ways a game ends, as :func:`outcome` tells them apart.
ALONE, SHARED, TIE, NOBODY = "alone", "shared", "tie", "nobody"


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``seed`` (stable across processes)."""
    return random.Random(f"rulesplay-sim/{seed}/{index}").getrandbits(48)


@dataclass
class GameRecord:
    """What one simulated game produced."""

    index: int
    seed: int
    scores: list[int]
    winners: list[int]
    decisions: int
    tricks: int
    rounds: int
    first: int
    seconds: float
    outcome: str = ALONE  # see :func:`outcome`
    repeats: str = ""  # the phase whose entries ``rounds`` counts ("": none began twice)


def outcome(winners: Sequence[int], keys: Sequence[tuple[int, ...]],
            sides: Sequence[int] | None = None) -> str:
    """How one game ended, as its rules mean it: the one notion of a tie in ``sim``.

    Args:
        winners: the winning seats (``State.winners()``).
        keys: each seat's (score, tiebreak...) tuple (``State.rank_keys()``).
        sides: each seat's side, for seats that win together as one (a team); default:
            every seat its own side.

    Returns:
        ``"nobody"`` without a winner; ``"alone"`` with one winner (or one side); ``"tie"``
        when two winners of different sides are equal on score and every tie-break (the
        ranking could not separate them); else ``"shared"``: several winners that the
        rules name although the ranking tells them apart (a ``winners:`` rule naming the
        top two; two teams named by one).
    """
    side = list(sides) if sides is not None else list(range(len(keys)))
    if not winners:
        return NOBODY
    if len({side[w] for w in winners}) == 1:
        return ALONE  # one winner, or one team's seats: one win, neither shared nor tied
    firsts: dict[int, tuple[int, ...]] = {}
    for w in winners:
        firsts.setdefault(side[w], keys[w])
    seen = list(firsts.values())
    return TIE if len(set(seen)) < len(seen) else SHARED


def play_game(game: Any, players: int, bots: Mapping[int, str], seed: int,
              index: int = 0) -> GameRecord:
    """Play one game with bots in every seat and measure it.

    Args:
        game: a loaded :class:`rulesplay.Game`.
        players: number of seats.
        bots: agent spec per seat (missing seats play ``random``).
        seed: the game's seed (its bots are seeded from it too).
        index: the game's index in its batch (recorded only).

    Raises:
        RulesError: the ruleset failed while running.
    """
    from .agents import make_agent

    t0 = time.perf_counter()
    try:
        # Only counts of the events are kept (tricks, phases begun): no event is recorded.
        s = game.new_state(num_players=players, seed=seed, record_events="counts")
        tally = s.events
        assert isinstance(tally, Tally)
        agents = [make_agent(bots.get(p, "random"), p, seed) for p in range(players)]
        first = s.current_player()
        while not s.terminal:
            s.apply(agents[s.current_player()].step(s))
        repeats, rounds = next(((name, k) for name, k in tally.phases.items() if k > 1),
                               ("", 1))
        winners = s.winners()
    except RulesError as exc:  # which game of the run: it can be played again alone
        exc.message = f"game {index + 1} of the run (seed {seed}): {exc.message}"
        exc.diagnostics[0].message = exc.message
        raise
    return GameRecord(index, seed, s.scores(), winners, s.decisions,
                      tally.counts.get("trick", 0), rounds, first, time.perf_counter() - t0,
                      outcome(winners, s.rank_keys(), s.program.layout.team_of), repeats)


# ------------------------------------------------------------ workers
# The games a worker plays each index of: one ruleset (simulate), or base and variant
# (compare: the two games of one seed are played side by side).
_GAMES: list[Any] = []

# How a spawned worker loads a game: path, options, language, engine, limits.
Loading = tuple[str, dict[str, Any], str | None, str, dict[str, int]]


class Interrupted(Exception):
    """The run was stopped (Ctrl-C, SIGTERM) before all its games were played.

    Attributes:
        partial: what the games finished so far give: a :class:`Result` (of ``simulate``)
            or a :class:`Comparison` (of ``compare``, over the seeds both rulesets
            finished); None when there is nothing to show.
        done: games finished (for ``compare``: of both rulesets, on the same seeds).
        total: the games asked for.
    """

    def __init__(self, partial: Result | Comparison | None, done: int, total: int) -> None:
        super().__init__(f"interrupted after {done} of {counted(total, 'game')}")
        self.partial, self.done, self.total = partial, done, total


# Bots keep many containers alive through a game (a tracker's past states) and make many
# more that die young; the collector's default thresholds scan the survivors often (about
# 7% of a greedy game's CPU). Where games are played, it collects less often; results do
# not depend on it.
GC_THRESHOLDS = (20_000, 50, 100)


def _quiet() -> None:
    """A worker leaves Ctrl-C to the parent, which stops the pool and keeps what is done
    (each worker printed a traceback of its own before), and ends quietly when the pool
    terminates it (SIGTERM, whatever handler the parent had when it forked); it collects
    garbage at :data:`GC_THRESHOLDS`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # (the parent blocks both while it forks: see _pool; a stop sent meanwhile ends us now)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    gc.set_threshold(*GC_THRESHOLDS)


_STOPS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def _pool(ctx: multiprocessing.context.BaseContext, workers: int,
          init: Callable[..., None], args: tuple[Any, ...]) -> Iterator[Any]:
    """A pool of ``workers`` processes made with Ctrl-C and SIGTERM blocked, so that none
    is delivered while a worker is being forked: a worker forked with the parent's handler
    turned the pool's SIGTERM into a KeyboardInterrupt that its fork handlers swallowed,
    lived on, and the parent waited for it for ever. Each worker unblocks them in
    :func:`_quiet` once its own handlers are set; the parent's stop arrives once the pool
    is made, inside the ``with`` that terminates it."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        pool = ctx.Pool(workers, init, args)
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        raise
    with pool:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        yield pool


def _init(loadings: list[Loading]) -> None:
    """Load the games in a spawned worker (a forked one inherits the parent's), with the
    engine and the budgets the run asked for."""
    global _GAMES
    from .engine.game import load

    _quiet()
    _GAMES = [load(*loading) for loading in loadings]


def _work(job: tuple[int, dict[int, str], int, list[int]]) -> list[list[GameRecord]]:
    """Each index's records, one per game of :data:`_GAMES`."""
    players, bots, seed, indices = job
    return [[play_game(g, players, bots, game_seed(seed, i), i) for g in _GAMES]
            for i in indices]


@dataclass
class _Table:
    """One ruleset loaded and checked for a run: its game, seats and bots."""

    path: str
    game: Any
    options: dict[str, Any]
    players: int
    bots: dict[int, str]
    loading: Loading

    def result(self, seed: int, workers: int, wall: float, games: list[GameRecord],
               totals: Totals | None = None) -> Result:
        """The :class:`Result` of ``games`` played at this table (sorted by index);
        ``totals``: their running totals when kept as they were played (else made from
        ``games``)."""
        games.sort(key=lambda g: g.index)
        prog = self.game.program(self.players)
        return Result(path=self.path, title=self.game.title, players=self.players,
                      options=self.options, bots=self.bots, seed=seed, workers=workers,
                      wall=wall, games=games,
                      teams=[list(m) for m in prog.layout.team_members.values()],
                      team_names=[prog.team_name(t) for t in prog.layout.team_members],
                      totals=totals)


def _table(path: str, players: int | None, options: Mapping[str, Any] | None,
           bots: Mapping[int, str] | None, lang: str | None, engine: str | None,
           limits: Mapping[str, int] | None) -> _Table:
    """Load ``path`` and check its player count, options and bot specs (before any game
    or process starts)."""
    from .agents import make_agent
    from .engine.game import load
    from .engine.lower import ENGINES

    opts = dict(options or {})
    engine = engine or ENGINES[0]
    budgets = dict(limits or {})
    game = load(path, opts, lang, engine, budgets)
    nplayers = players if players is not None else game.usual_players
    game.program(nplayers)  # checks the player count and options
    table = {p: (bots or {}).get(p, "random") for p in range(nplayers)}
    for p, spec in table.items():
        make_agent(spec, p, 0)  # checks every spec before starting processes
    return _Table(path, game, opts, nplayers, table, (path, opts, lang, engine, budgets))


def simulate(path: str, n: int, players: int | None = None,
             options: Mapping[str, Any] | None = None, bots: Mapping[int, str] | None = None,
             seed: int = 0, workers: int | None = None, lang: str | None = None,
             progress: Callable[[int], None] | None = None,
             engine: str | None = None, limits: Mapping[str, int] | None = None,
             backend: str = "local", address: str | None = None,
             keep_games: bool = True) -> Result:
    """Play ``n`` games of the ruleset at ``path`` and gather statistics.

    Args:
        path: the ``.rules`` file.
        n: number of games (at least 1).
        players: seats (default: the ruleset's usual count, else its minimum).
        options: ruleset options by name (strings allowed, as from the command line).
        bots: agent spec per seat (``"random"``, ``"mcts:iterations=200"``...); default random.
        seed: the run's seed; game ``i`` is seeded with :func:`game_seed` ``(seed, i)``.
        workers: processes (default: all cores; 1 runs in this process).
        lang: display language (does not change results).
        progress: called with the number of games finished so far, as they finish.
        engine: ``compiled`` or ``interpret`` (:func:`rulesplay.load`; default compiled),
            in this process and every worker; both play the same games.
        limits: the run's budgets (:mod:`rulesplay.limits`), name -> value.
        backend: ``local`` (processes of this machine) or ``ray`` (Ray tasks, the ``ray``
            extra: :mod:`rulesplay.sim_ray`; ``workers`` is then the CPUs of a local Ray
            instance, started unless this process is connected to one).
        address: with ``ray``, the cluster to join (``HOST:PORT`` or ``auto``); None
            starts a local instance.
        keep_games: keep every game's record in ``Result.games`` (about 630 bytes a game);
            False: only the running totals, so memory does not grow with ``n``.

    Returns:
        A :class:`Result`; identical for any ``workers`` and either backend (but for
        its ``workers`` and times).

    Raises:
        Interrupted: Ctrl-C (KeyboardInterrupt) while the games were played; it carries the
            games finished by then.
        RulesError: the ruleset does not load or fails while running.
        OptionError: a bad option or player count, or an unknown engine.
        ValueError: ``n`` below 1 or a bad bot spec.
    """
    if n < 1:
        raise ValueError("the number of games must be at least 1")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}'; backends: {', '.join(BACKENDS)}")
    t = _table(path, players, options, bots, lang, engine, limits)
    if backend == "ray":
        from .sim_ray import connect, play_on_ray  # the optional 'ray' extra

        try:
            workers = connect(address, workers)  # (a local instance: None, every CPU)
        except KeyboardInterrupt:  # (starting Ray takes seconds: Ctrl-C may come first)
            raise Interrupted(None, 0, n) from None
    workers = max(1, min(workers or os.cpu_count() or 1, n))
    t0 = time.perf_counter()
    games: list[GameRecord] = []

    prog = t.game.program(t.players)
    teams = [list(m) for m in prog.layout.team_members.values()]
    totals = Totals(t.players, sides_of(t.players, teams))

    def collect(batch: list[GameRecord]) -> int:
        for g in batch:
            totals.add(g)
        if keep_games:
            games.extend(batch)
        return totals.n

    def result() -> Result:
        return t.result(seed, workers, time.perf_counter() - t0, games, totals)

    try:
        if backend == "ray":
            play_on_ray(t.game, n, t.players, t.bots, seed, workers, t.loading[1:], collect,
                        progress)
        else:
            _play_all([t], n, seed, workers, [lambda g: collect([g])],
                      (lambda: progress(totals.n)) if progress else None)
    except KeyboardInterrupt:
        raise Interrupted(result() if totals.n else None, totals.n, n) from None
    return result()


def sides_of(players: int, teams: list[list[int]]) -> list[int]:
    """Per seat, the index of its team in ``teams`` (each seat its own when no team has
    more than one seat)."""
    if not any(len(t) > 1 for t in teams):
        return list(range(players))
    side = [0] * players
    for i, team in enumerate(teams):
        for p in team:
            side[p] = i
    return side


def _play_all(tables: list[_Table], n: int, seed: int, workers: int,
              out: list[Callable[[GameRecord], object]],
              progress: Callable[[], None] | None) -> None:
    """Play games ``0..n-1`` of each table (same seats and bots), index by index, each
    record handed to its table's ``out`` callback, in this process or in a pool fed batch
    by batch (the jobs are never all made at once); ``progress()`` after each game or
    batch."""
    nplayers, bots = tables[0].players, tables[0].bots
    if workers == 1:
        thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            for i in range(n):
                for t, add in zip(tables, out, strict=True):
                    add(play_game(t.game, nplayers, bots, game_seed(seed, i), i))
                    if progress:
                        progress()
        finally:
            gc.set_threshold(*thresholds)
        return
    size = max(1, min(25, n // (workers * 8)))
    jobs = ((nplayers, bots, seed, list(range(i, min(n, i + size))))
            for i in range(0, n, size))
    global _GAMES
    ctx: multiprocessing.context.BaseContext
    init: Callable[..., None]
    args: tuple[Any, ...]
    if "fork" in multiprocessing.get_all_start_methods():
        # Workers inherit the loaded games; no re-import of the caller's main module.
        ctx, init, args = multiprocessing.get_context("fork"), _quiet, ()
        _GAMES = [t.game for t in tables]
    else:
        ctx, init, args = multiprocessing.get_context("spawn"), _init, \
            ([t.loading for t in tables],)
    with _pool(ctx, workers, init, args) as pool:  # (leaving it terminates the workers)
        for batch in pool.imap_unordered(_work, jobs):
            for records in batch:
                for add, record in zip(out, records, strict=True):
                    add(record)
            if progress:
                progress()


# ------------------------------------------------------------ statistics
def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (``successes`` may be fractional)."""
    if n == 0:
        return 0.0, 1.0
    p, z = successes / n, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(x1: float, n1: int, x2: float, n2: int, phi: float = 0.0
             ) -> tuple[float, float, float]:
    """Difference ``p2 - p1`` of two proportions with Newcombe's 95% hybrid score interval:
    the two Wilson intervals combined, narrowed by ``phi``, the correlation of paired
    samples (0: independent ones; see :func:`newcombe_paired`)."""
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson(x1, n1)
    l2, u2 = wilson(x2, n2)
    d = p2 - p1
    below = (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2
    above = (u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2
    return d, d - math.sqrt(max(below, 0.0)), d + math.sqrt(max(above, 0.0))


def newcombe_paired(pairs: Paired) -> tuple[float, float, float]:
    """Difference ``p2 - p1`` of two proportions measured on the same units (a base's and a
    variant's game of one seed) with Newcombe's 95% interval for paired data (his method 10,
    Statist. Med. 1998;17:2635): the hybrid score interval of :func:`newcombe`, narrowed by
    the correlation of the pairs, ``phi = (AD - BC) / sqrt(EFGH)`` with AD - BC moved
    ``n/2`` towards zero when positive (Newcombe's continuity correction).

    Args:
        pairs: per seed, the base's value ``x`` and the variant's ``y``, each 0 or 1 or a
            share of a win (``1/k``); ``phi`` is then their correlation, which is
            Newcombe's for 0/1 values.

    Returns:
        ``(difference, low, high)``; with no pair, ``(0, -1, 1)``.
    """
    n = pairs.n
    if n == 0:
        return 0.0, -1.0, 1.0
    cov, spread = pairs.cross()
    if cov > n / 2:
        cov -= Fraction(n, 2)
    elif cov > 0:
        cov = Fraction(0)
    phi = float(cov) / math.sqrt(spread) if spread > 0 else 0.0
    return newcombe(float(pairs.sx), n, float(pairs.sy), n, phi)


def paired_t(pairs: Paired) -> tuple[float, float, float]:
    """Difference ``mean(y) - mean(x)`` of a measure taken on the same units (a base's and a
    variant's game of one seed) with the paired Student's t 95% interval: the mean of the
    differences ``y - x`` +- t(n - 1) standard errors of it.

    Args:
        pairs: per seed, the base's value ``x`` and the variant's ``y``.

    Returns:
        ``(difference, low, high)``; with fewer than two pairs the spread of the differences
        is unknown and the interval is unbounded (``-inf, +inf``); when every difference was
        the same, the interval is that one value.
    """
    n, d = pairs.n, pairs.mean_difference()
    if n < 2:
        return d, -math.inf, math.inf
    half = _t95(n - 1) * math.sqrt(pairs.difference_variance() / n)
    return d, d - half, d + half


# Two-sided 95% quantiles of Student's t for 1 to 4 degrees of freedom, where the expansion
# of _t95 falls short (9.7 for 12.7 at one degree).
_T95_FEW = (12.7062, 4.3027, 3.1824, 2.7764)


def _t95(df: float) -> float:
    """Two-sided 95% quantile of Student's t (Cornish-Fisher expansion from 5 degrees of
    freedom; below, the table's value for the whole degrees under ``df``, which is larger:
    the interval stays wide enough)."""
    if not math.isfinite(df) or df > 1e6:
        return Z95
    z = Z95
    df = max(df, 1.0)
    if df < 5:
        return _T95_FEW[int(df) - 1]
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def _mean_sd(xs: Moments) -> dict[str, float]:
    return {"mean": xs.mean(), "sd": xs.sd()}


@dataclass
class Result:
    """The games of one simulation and their statistics (see the module docstring)."""

    path: str
    title: str
    players: int
    options: dict[str, Any]
    bots: dict[int, str]
    seed: int
    workers: int
    wall: float
    games: list[GameRecord] = field(default_factory=list)
    # The teams (seats of each, in order of their first seats) and their names; each seat
    # alone when empty or when the ruleset has no ``teams:``.
    teams: list[list[int]] = field(default_factory=list)
    team_names: list[str] = field(default_factory=list)
    # What the statistics are made from: counted as the games finished (``games`` may then
    # be empty: a simulation that keeps no records); None: made from ``games``.
    totals: Totals | None = None

    def __post_init__(self) -> None:
        if self.totals is None:
            self.totals = Totals(self.players, self._side())
            for g in sorted(self.games, key=lambda g: g.index):
                self.totals.add(g)

    @property
    def tally(self) -> Totals:
        """The totals (always set after construction)."""
        assert self.totals is not None
        return self.totals

    @property
    def n(self) -> int:
        return self.tally.n

    @property
    def teamed(self) -> bool:
        """Whether some team has more than one seat (the ruleset's ``teams:``)."""
        return any(len(t) > 1 for t in self.teams)

    def _side(self) -> list[int]:
        """Per seat, the index of its team (each seat its own without teams)."""
        return sides_of(self.players, self.teams)

    def wins(self, seat: int) -> float:
        """Games won by ``seat`` (a win shared by k seats counts 1/k; with teams, the
        seat's team's wins: a team win is one win)."""
        return float(self.tally.wins(self.tally.sides[seat]))

    def team_wins(self, team: int) -> float:
        """Games won by team ``team`` (an index of :attr:`teams`; shared by k teams: 1/k)."""
        return self.wins(self.teams[team][0])

    def win_rate(self, seat: int) -> tuple[float, float, float]:
        """``(rate, low, high)``: the seat's win rate with its 95% Wilson interval."""
        w = self.wins(seat)
        return (w / self.n, *wilson(w, self.n))

    def first_player_wins(self) -> float:
        """Games won by the seat that made the first decision (shared wins count 1/k; with
        teams, by its team)."""
        return float(self.tally.first_wins())

    def ties(self) -> int:
        """Games whose winners the ranking could not separate (:func:`outcome` ``"tie"``)."""
        return self.tally.outcomes[TIE]

    def shared(self) -> int:
        """Games with several winners that the rules name, not tied (``"shared"``)."""
        return self.tally.outcomes[SHARED]

    def scores(self, seat: int) -> Moments:
        """The seat's final scores (their totals and how often each came)."""
        return self.tally.scores[seat]

    def spreads(self) -> Moments:
        """Per game, highest minus lowest score."""
        return self.tally.spread

    def measure(self, name: str) -> Moments:
        """Per game ``decisions``, ``tricks`` or ``rounds``."""
        return self.tally.measure(name)

    def summary(self) -> dict[str, Any]:
        """All statistics as plain data (what ``--json`` prints, without the games)."""
        n = self.n
        seats = []
        for p in range(self.players):
            rate, lo, hi = self.win_rate(p)
            seats.append({"seat": p, "bot": self.bots[p], "win_rate": rate, "win_low": lo,
                          "win_high": hi, "score": _mean_sd(self.scores(p))})
        first = self.first_player_wins()
        ties, shared = self.ties(), self.shared()
        fair = 1 / (len(self.teams) if self.teamed else self.players)
        teams = {"teams": [self._team_row(i) for i in range(len(self.teams))]} \
            if self.teamed else {}
        return {
            "ruleset": self.path, "title": self.title, "games": n, "players": self.players,
            "options": self.options, "seed": self.seed, "workers": self.workers,
            "seats": seats, **teams,
            "first_player": {"win_rate": first / n, "low": wilson(first, n)[0],
                             "high": wilson(first, n)[1], "fair": fair},
            "ties": {"share": ties / n, "low": wilson(ties, n)[0], "high": wilson(ties, n)[1]},
            "shared_wins": {"share": shared / n, "low": wilson(shared, n)[0],
                            "high": wilson(shared, n)[1]},
            "spread": _mean_sd(self.spreads()),
            "decisions": _mean_sd(self.measure("decisions")),
            "tricks": _mean_sd(self.measure("tricks")),
            "rounds": _mean_sd(self.measure("rounds")),
            "rounds_phase": next(iter(self.tally.repeats)) if len(self.tally.repeats) == 1
            else None,
            "seconds_per_game": self.tally.seconds / n,
            "wall_seconds": self.wall, "games_per_second": n / self.wall if self.wall else 0.0,
        }

    def _team_row(self, i: int) -> dict[str, Any]:
        """One team's line of :meth:`summary`: its seats, name, win rate, mean score."""
        w = self.team_wins(i)
        lo, hi = wilson(w, self.n)
        return {"team": i, "name": self.team_names[i], "seats": self.teams[i],
                "win_rate": w / self.n, "win_low": lo, "win_high": hi,
                "score": _mean_sd(self.scores(self.teams[i][0]))}

    def to_dict(self, games: bool = True) -> dict[str, Any]:
        """The summary plus (``games=True``) every game's record."""
        out = self.summary()
        if games:
            out["per_game"] = [asdict(g) for g in self.games]
        return out


# ------------------------------------------------------------ compare
@dataclass
class Line:
    """One compared measure: base and variant values, the difference and its 95% CI."""

    key: str
    label: str
    base: float
    variant: float
    diff: float
    low: float
    high: float
    percent: bool
    significant: bool = False  # set by :func:`holm` over all the lines of a comparison
    pairs: int = 0  # the games paired, for a paired difference (0: not paired)

    @property
    def p_value(self) -> float:
        """Two-sided p-value of "no difference", from the 95% interval (normal approximation:
        standard error = interval width / (2 x 1.96)). A paired difference that was the same
        in every pair has no width: its p-value is the sign test's, ``2^(1 - pairs)`` (every
        pair on the same side of zero), so two games alike are not a certainty."""
        se = (self.high - self.low) / (2 * Z95)
        if se <= 0:
            if self.diff == 0:
                return 1.0
            return min(1.0, 2.0 ** (1 - self.pairs)) if self.pairs else 0.0
        return math.erfc(abs(self.diff) / se / math.sqrt(2))

    @property
    def clear(self) -> bool:
        """The difference is clear: its 95% interval excludes zero and it stays significant
        after Holm's correction for the number of measures compared (see :func:`holm`)."""
        return self.significant and (self.low > 0 or self.high < 0)


def holm(lines: list[Line], alpha: float = 0.05) -> None:
    """Mark the lines whose difference is significant at family-wise level ``alpha``
    (Holm-Bonferroni): comparing many measures at once would otherwise call about one in
    twenty differences "clear" by chance alone."""
    ordered = sorted(lines, key=lambda line: line.p_value)
    m = len(ordered)
    for i, line in enumerate(ordered):
        if line.p_value > alpha / (m - i):
            break
        line.significant = True


@dataclass
class Comparison:
    """A base and a variant simulated on the same seeds, measure by measure."""

    base: Result
    variant: Result
    lines: list[Line]
    # How the variant is related to the base (:func:`rulesplay.sim_notes.kinship`).
    kin: Kinship = field(default_factory=lambda: Kinship(VARIANT))
    # Every seed gave the same game under both rulesets (:meth:`Pairs.identical`).
    identical: bool = False
    # How the variant's score, tiebreak and winners rules differ from the base's
    # (:func:`rulesplay.diff.ranking_changes`): its scores may be another formula.
    ranking: list[str] = field(default_factory=list)

    def verdict(self) -> list[str]:
        """Plain-words findings: a note first when the variant is not a variant of the base;
        when every seed gave the same game under both, that, and nothing else; otherwise
        one sentence per clear difference, or "no clear difference"; a note when the games
        are too few to show a difference of moderate size; how "clear" is decided."""
        sides = len(self.base.teams) if self.base.teamed else self.base.players
        kin = kinship_note(self.kin, f"{self.base.title} ({self.base.path})",
                           f"{self.variant.title} ({self.variant.path})")
        ranked = ranking_note(self.ranking)
        out = [note for note in (kin, ranked) if note]
        if self.identical:  # (no interval needed: nothing differed on any seed)
            seeds = counted(self.base.n, "seed")
            return [*out, f"The variant played exactly the same games as the base on these "
                          f"{seeds}: every game ended with the same scores and winners, "
                          "after as many decisions, tricks and "
                          f"{rounds_words(self.base.tally, self.variant.tally)}. With these "
                          "bots and seeds, it changes nothing that was measured."]
        found = [_sentence(line, sides) for line in self.lines if line.clear]
        weak = power_note(self.lines, self.base.n) if len(found) < len(self.lines) else None
        out += found
        if found and len(found) < len(self.lines):
            out.append("No clear difference in the other measures.")
        if not found:
            out.append(f"No clear difference: over {counted(self.base.n, 'game')} each, " + (
                "no measure differs clearly, which does not show that the variant changes "
                "nothing." if weak else "the variant does not measurably change win rates, "
                "scores, spread, length or ties."))
        if weak:
            out.append(weak)
        out.append(f"(A difference is called clear when it holds at the 5% level after "
                   f"Holm's correction for the {counted(len(self.lines), 'measure')} "
                   "compared.)")
        return out

    def to_dict(self) -> dict[str, Any]:
        """Both summaries, the bots by seat, the relation, whether every game came out the
        same, each measure's difference (an unbounded interval's end as None) and the
        verdict."""
        def finite(line: Line) -> dict[str, Any]:
            return {k: None if isinstance(v, float) and not math.isfinite(v) else v
                    for k, v in asdict(line).items()}
        return {"base": self.base.summary(), "variant": self.variant.summary(),
                "bots": [self.base.bots[p] for p in range(self.base.players)],
                "relation": self.kin.relation, "identical": self.identical,
                "ranking_changes": self.ranking,
                "differences": [{**finite(line), "clear": line.clear} for line in self.lines],
                "verdict": self.verdict()}


def _fmt(v: float, percent: bool, signed: bool = False) -> str:
    if percent:
        return f"{v * 100:+.1f}" if signed else f"{v * 100:.1f}%"
    return f"{v:+.2f}" if signed else f"{v:.2f}"


def _sentence(line: Line, players: int) -> str:
    """One clear difference in plain words (``players``: the sides, seats or teams, that
    make a fair share)."""
    unit = " points" if line.percent else ""
    ci = (f"95% CI {_fmt(line.low, line.percent, True)}..{_fmt(line.high, line.percent, True)}"
          f"{unit}")
    a, b = _fmt(line.base, line.percent), _fmt(line.variant, line.percent)
    up = line.diff > 0
    if line.key.startswith("team:"):
        name = line.label.removeprefix("team ").removesuffix(" win rate")
        how = "favours" if up else "handicaps"
        return f"Team {name} wins {b} vs {a}: the variant clearly {how} it ({ci})."
    if line.key.startswith("win:"):
        seat = line.key[4:]
        how = "favours" if up else "handicaps"
        return f"Seat {seat} wins {b} vs {a}: the variant clearly {how} seat {seat} ({ci})."
    if line.key == "first":
        how = "more" if up else "less"
        return (f"The first player wins {b} vs {a} (fair: {100 / players:.0f}%): the variant "
                f"clearly gives the first player {how} of an advantage ({ci}).")
    if line.key.startswith("score:"):
        seat = line.key[6:]
        how = "higher" if up else "lower"
        return f"Seat {seat} scores clearly {how}: {b} vs {a} on average ({ci})."
    if line.key.startswith("tscore:"):
        name = line.label.removeprefix("team ").removesuffix(" mean score")
        how = "higher" if up else "lower"
        return f"Team {name} scores clearly {how}: {b} vs {a} on average ({ci})."
    if line.key == "spread":
        how = "further apart" if up else "closer together"
        return f"Scores end clearly {how}: spread {b} vs {a} ({ci})."
    if line.key == "ties":
        how = "more" if up else "fewer"
        return f"Clearly {how} ties: {b} of games vs {a} ({ci})."
    how = "longer" if up else "shorter"
    return f"Games are clearly {how} in {line.label}: {b} vs {a} on average ({ci})."


def compare(base: str, variant: str, n: int, players: int | None = None,
            options: Mapping[str, Any] | None = None, bots: Mapping[int, str] | None = None,
            seed: int = 0, workers: int | None = None, lang: str | None = None,
            progress: Callable[[str, int], None] | None = None,
            engine: str | None = None, limits: Mapping[str, int] | None = None,
            backend: str = "local", address: str | None = None) -> Comparison:
    """Simulate ``base`` and ``variant`` on the same seeds and compare them.

    Args:
        base, variant: ``.rules`` files (the variant typically ``extends`` the base).
        n, players, options, bots, seed, workers, lang, engine, limits, backend, address:
            as for :func:`simulate` (options that one of the two rulesets does not declare
            are rejected).
        progress: called with ``("base" | "variant", games finished)``.

    Returns:
        A :class:`Comparison` with one :class:`Line` per measure (variant minus base).

    Raises:
        RulesError, OptionError, ValueError: as for :func:`simulate`; also when the two
            rulesets are not both playable with the same number of players.
    """
    if n < 1:
        raise ValueError("the number of games must be at least 1")
    from .compose import load_ruleset
    from .diff import ranking_changes

    (rb, cb), (rv, cv) = load_ruleset(base), load_ruleset(variant)
    kin = kinship(list(cb.sources), list(cv.sources))
    ranking = ranking_changes(rb, rv)
    try:
        if backend == "ray":  # (Ray plays one ruleset's games, then the other's)
            c = _compared_on_ray(base, variant, n, players, options, bots, seed, workers,
                                 lang, progress, engine, limits, address)
        else:
            c = _compared_here(base, variant, n, players, options, bots, seed, workers, lang,
                               progress, engine, limits)
    except Interrupted as exc:
        if isinstance(exc.partial, Comparison):
            exc.partial.kin, exc.partial.ranking = kin, ranking
        raise
    c.kin, c.ranking = kin, ranking
    return c


def _compared_here(base: str, variant: str, n: int, players: int | None,
                   options: Mapping[str, Any] | None, bots: Mapping[int, str] | None,
                   seed: int, workers: int | None, lang: str | None,
                   progress: Callable[[str, int], None] | None, engine: str | None,
                   limits: Mapping[str, int] | None) -> Comparison:
    """:func:`compare` in this machine's processes: the base's and the variant's game of
    each seed side by side, so a stop leaves pairs."""
    ta = _table(base, players, options, bots, lang, engine, limits)
    tb = _table(variant, ta.players, options, bots, lang, engine, limits)
    workers = max(1, min(workers or os.cpu_count() or 1, n))
    t0 = time.perf_counter()
    ga: list[GameRecord] = []
    gb: list[GameRecord] = []

    def step() -> None:
        assert progress is not None
        progress("base", len(ga))
        progress("variant", len(gb))

    def both(done: set[int]) -> Comparison:
        """The comparison over the seeds ``done`` (the wall time shared by game time)."""
        a = [g for g in ga if g.index in done]
        b = [g for g in gb if g.index in done]
        wall = time.perf_counter() - t0
        share = sum(g.seconds for g in a) / (sum(g.seconds for g in a + b) or 1.0)
        return _compared(ta.result(seed, workers, wall * share, a),
                         tb.result(seed, workers, wall * (1 - share), b))

    # Base and variant games of one seed are played side by side, so a stop leaves pairs.
    try:
        _play_all([ta, tb], n, seed, workers, [ga.append, gb.append],
                  step if progress else None)
    except KeyboardInterrupt:
        done = {g.index for g in ga} & {g.index for g in gb}
        if len(done) < 2:
            raise Interrupted(None, len(done), n) from None
        raise Interrupted(both(done), len(done), n) from None
    return both(set(range(n)))


def _compared_on_ray(base: str, variant: str, n: int, players: int | None,
                     options: Mapping[str, Any] | None, bots: Mapping[int, str] | None,
                     seed: int, workers: int | None, lang: str | None,
                     progress: Callable[[str, int], None] | None, engine: str | None,
                     limits: Mapping[str, int] | None, address: str | None) -> Comparison:
    """:func:`compare` on Ray: the base's games, then the variant's (a stop during the
    base's reports nothing yet)."""
    def prog(which: str) -> Callable[[int], None] | None:
        return (lambda k: progress(which, k)) if progress else None

    backend = "ray"
    try:
        a = simulate(base, n, players, options, bots, seed, workers, lang, prog("base"),
                     engine, limits, backend, address)
    except Interrupted:
        raise Interrupted(None, 0, n) from None  # no variant game yet: nothing to compare
    try:
        b = simulate(variant, n, players if players is not None else a.players, options,
                     bots, seed, workers, lang, prog("variant"), engine, limits, backend,
                     address)
    except Interrupted as exc:
        assert exc.partial is None or isinstance(exc.partial, Result)
        if exc.partial is None or exc.partial.n < 2:
            raise Interrupted(None, 0, n) from None
        # the games the variant finished, against the base's games of the same seeds
        done = {g.index for g in exc.partial.games}
        same = dataclasses.replace(a, games=[g for g in a.games if g.index in done],
                                   totals=None)
        raise Interrupted(_compared(same, exc.partial), len(done), n) from None
    return _compared(a, b)


def _pairs(a: Result, b: Result) -> Pairs:
    """The running totals of the games of ``a`` (the base) and ``b`` (the variant) paired by
    seed (both played the same indices)."""
    pairs = Pairs(a.players, a.tally.sides, b.tally.sides)
    theirs = {g.index: g for g in b.games}
    for g in sorted(a.games, key=lambda g: g.index):
        pairs.add(g, theirs[g.index])
    return pairs


def _compared(a: Result, b: Result) -> Comparison:
    """The measures of ``b`` (the variant) against ``a`` (the base), same seeds: each
    difference with its paired interval (:func:`newcombe_paired`, :func:`paired_t`), since
    the two games of a seed share their deal and bots' seeds."""
    pairs = _pairs(a, b)
    assert pairs.n == a.n == b.n, "compare pairs the games of the same seeds"
    lines: list[Line] = []
    teamed = a.teamed and a.teams == b.teams

    def rate(key: str, label: str, xa: float, xb: float, paired: str) -> None:
        lines.append(Line(key, label, xa / a.n, xb / b.n,
                          *newcombe_paired(pairs.measure(paired)), True))

    def mean(key: str, label: str, xa: Moments, xb: Moments, paired: str) -> None:
        lines.append(Line(key, label, xa.mean(), xb.mean(), *paired_t(pairs.measure(paired)),
                          False, pairs=pairs.n))

    if teamed:  # a team's win is one win: one line per team
        for i, name in enumerate(a.team_names):
            rate(f"team:{i}", f"team {name} win rate", a.team_wins(i), b.team_wins(i),
                 f"win:{a.teams[i][0]}")
    for p in range(0 if teamed else a.players):
        rate(f"win:{p}", f"seat {p} win rate", a.wins(p), b.wins(p), f"win:{p}")
    rate("first", "first player's win rate", a.first_player_wins(), b.first_player_wins(),
         "first")
    # Teammates score the same (docs/language/teams.md): one score line per team.
    for i, name in enumerate(a.team_names if teamed else []):
        seat = a.teams[i][0]
        mean(f"tscore:{i}", f"team {name} mean score", a.scores(seat), b.scores(seat),
             f"score:{seat}")
    for p in range(0 if teamed else a.players):
        mean(f"score:{p}", f"seat {p} mean score", a.scores(p), b.scores(p), f"score:{p}")
    for key, label, xa, xb in (
            ("spread", "score spread (best - worst)", a.spreads(), b.spreads()),
            ("decisions", "decisions", a.measure("decisions"), b.measure("decisions")),
            ("tricks", "tricks", a.measure("tricks"), b.measure("tricks")),
            ("rounds", rounds_words(a.tally, b.tally), a.measure("rounds"),
             b.measure("rounds"))):
        if key == "tricks" and len(set(xa.counts) | set(xb.counts)) == 1:
            continue  # a game without tricks: nothing to compare
        mean(key, label, xa, xb, key)
    rate("ties", "share of ties", a.ties(), b.ties(), "ties")
    holm(lines)
    return Comparison(a, b, lines, identical=pairs.identical())
