"""Simulations started from a page: ``simulate`` and ``compare`` (:mod:`rulesplay.sim`, the
functions the commands call) run in a thread of the server, a few at a time, each with its
progress and a way to stop it.

A simulation plays its games in the thread that runs it (one worker: the server never
forks while it serves), so the server bounds how many run at once (:class:`SimJobs`'s
``limit``) rather than their cores. Stopping one is asked through its progress callback,
which the simulation calls after each game: the callback raises ``KeyboardInterrupt``,
which ``simulate``/``compare`` turn into :class:`~rulesplay.sim.Interrupted` carrying the
games finished so far, as a Ctrl-C does at the terminal.
"""

from __future__ import annotations

import secrets
import shutil
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import RulesError
from ..sim import Comparison, Interrupted, Result, compare, simulate

__all__ = ["Busy", "Job", "SimJobs", "SimRequest", "comparison_data", "result_data"]


class Busy(Exception):
    """As many simulations as the server runs at once are running (the message says so)."""


@dataclass(frozen=True)
class SimRequest:
    """One simulation to run, as the page asked for it (already checked).

    Attributes:
        base: the ruleset ``simulate`` loads (a shipped game's name or a file).
        label: how the page names it (the name, the file, or "the pasted ruleset").
        variant: for ``compare``, the variant's ruleset (None: ``simulate`` only).
        variant_label: how the page names the variant.
        games: games to play (for ``compare``: of each).
        players: seats.
        bot: the agent spec every seat plays with.
        seed: the run's seed (game ``i`` gets ``game_seed(seed, i)``).
        scratch: folders to delete when the run ends (pasted text written for it).
    """

    base: str
    label: str
    games: int
    players: int
    bot: str = "random"
    seed: int = 0
    variant: str | None = None
    variant_label: str | None = None
    scratch: tuple[Path, ...] = ()


@dataclass
class Job:
    """A simulation the server runs or ran.

    Attributes:
        id: its unguessable name in the page's address (128 bits).
        request: what was asked.
        done: games finished (for ``compare``: seeds both rulesets finished).
        state: ``running``, ``done``, ``stopped`` (asked to stop; ``result`` holds the games
            finished, if any) or ``failed`` (``message`` says why).
        result: :func:`result_data` or :func:`comparison_data` when there is one.
        message: why it failed, or what a stop kept.
    """

    id: str
    request: SimRequest
    done: int = 0
    state: str = "running"
    result: dict[str, Any] | None = None
    message: str | None = None
    stop: threading.Event = field(default_factory=threading.Event)

    def view(self) -> dict[str, Any]:
        """What the page shows: progress, state, message and (when finished) the result."""
        return {"id": self.id, "kind": "compare" if self.request.variant else "simulate",
                "games": self.request.games, "done": self.done, "state": self.state,
                "message": self.message, "result": self.result}


def _sides(r: Result) -> list[dict[str, Any]]:
    """Each side (a team, or a seat) with its name, first seat and score histogram."""
    named = zip(r.team_names, r.teams, strict=True) if r.teamed else \
        ((f"seat {p} ({r.bots[p]})", [p]) for p in range(r.players))
    return [{"name": name, "seat": seats[0],
             "scores": [[score, games] for score, games in
                        sorted(r.scores(seats[0]).counts.items())]} for name, seats in named]


def result_data(r: Result, label: str) -> dict[str, Any]:
    """A :class:`~rulesplay.sim.Result` for the page: its ``summary()`` (what ``simulate
    --json`` prints), ``ruleset`` named as the page names it, and ``sides`` (each seat or
    team with its final scores as ``[score, games]`` pairs, for the distribution)."""
    return {**r.summary(), "ruleset": label, "sides": _sides(r)}


def comparison_data(c: Comparison, base: str, variant: str) -> dict[str, Any]:
    """A :class:`~rulesplay.sim.Comparison` for the page: its ``to_dict()`` (what
    ``compare --json`` prints: both summaries, each measure's difference with its 95%
    interval and whether it is clear, and the plain-words ``verdict``), the rulesets named
    as the page names them."""
    out = c.to_dict()
    out["base"] = result_data(c.base, base)
    out["variant"] = result_data(c.variant, variant)
    return out


class SimJobs:
    """The simulations of one server: at most ``limit`` running at once, the last
    ``kept`` finished ones kept for their pages.

    Args:
        limit: simulations that may run at once.
        kept: finished simulations remembered (the oldest are forgotten first).
    """

    def __init__(self, limit: int = 2, kept: int = 20) -> None:
        self.limit, self.kept = limit, kept
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.lock = threading.Lock()

    def running(self) -> int:
        """How many simulations are running now."""
        return sum(1 for j in self.jobs.values() if j.state == "running")

    def start(self, request: SimRequest) -> Job:
        """Start ``request`` in a thread of its own.

        Raises:
            Busy: ``limit`` simulations are running already.
        """
        with self.lock:
            if self.running() >= self.limit:
                self.discard(request.scratch)
                raise Busy(f"{self.limit} simulation{'s' * (self.limit > 1)} already "
                           f"running on this server (the most it runs at once): wait for "
                           f"one to finish, or stop it")
            job = Job(secrets.token_urlsafe(16), request)
            self.jobs[job.id] = job
            finished = [k for k, j in self.jobs.items() if j.state != "running"]
            for k in finished[:max(0, len(finished) - self.kept)]:
                del self.jobs[k]
        threading.Thread(target=_run, args=(job,), daemon=True,
                         name=f"simulation {job.id[:6]}").start()
        return job

    @staticmethod
    def discard(scratch: Iterable[Path]) -> None:
        """Delete the scratch folders of a run (pasted text written for it)."""
        for folder in scratch:
            shutil.rmtree(folder, ignore_errors=True)

    def get(self, job_id: str) -> Job | None:
        """The simulation named ``job_id``, or None."""
        return self.jobs.get(job_id)


def _run(job: Job) -> None:
    """Play ``job``'s games; record its result, stop or failure; delete its scratch."""
    r = job.request

    def one(done: int) -> None:
        job.done = done
        if job.stop.is_set():
            raise KeyboardInterrupt  # what simulate/compare stop on (see the module doc)

    def pair(which: str, done: int) -> None:
        if which == "variant":
            one(done)

    bots = {p: r.bot for p in range(r.players)}
    state = "failed"
    try:
        if r.variant is None:
            job.result = result_data(simulate(r.base, r.games, r.players, bots=bots,
                                              seed=r.seed, workers=1, progress=one), r.label)
        else:
            job.result = comparison_data(
                compare(r.base, r.variant, r.games, r.players, bots=bots, seed=r.seed,
                        workers=1, progress=pair), r.label, r.variant_label or r.variant)
        job.done, state = r.games, "done"
    except Interrupted as exc:
        job.done, state = exc.done, "stopped"
        job.message = f"stopped after {exc.done} of {exc.total} games"
        if isinstance(exc.partial, Result):
            job.result = result_data(exc.partial, r.label)
        elif isinstance(exc.partial, Comparison):
            job.result = comparison_data(exc.partial, r.label, r.variant_label or "")
    except (RulesError, ValueError) as exc:
        job.message = exc.render() if isinstance(exc, RulesError) else str(exc)
    except Exception as exc:  # noqa: BLE001 - the page says it; the slot is freed
        job.message = f"the simulation failed: {type(exc).__name__}: {exc}"
    finally:
        SimJobs.discard(r.scratch)
        job.state = state  # last: a finished job has left nothing behind
