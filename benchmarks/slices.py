"""Interleaved CPU-time measurement for a noisy machine, shared by the benchmark scripts.

Two versions of ``rulesplay`` cannot live in one process, and a shared machine makes a run
of A followed by a run of B measure the neighbours as much as the code. So every side of a
comparison runs in its own worker process (``sys.executable`` with ``PYTHONPATH`` set to
that side's ``src/``), and the parent alternates: worker A plays a short slice, then worker
B, and so on for a number of rounds (the order flips every round). Each worker measures its
own CPU time (``time.process_time()``) and reports it with what it did, so time the machine
gives to other processes is not counted.

A task is named ``"module:Name"``, a class (or function) in a module of this folder; called
with the side's parameters, it sets up and returns an object with ``note`` (a line for the
report, may be empty) and ``unit(seed) -> Unit``; a unit is one game, or whatever the task
counts. Units of one slice get consecutive seeds, the same on
every side, so two engines that play identical games play the same games in each round
(checked with the units' ``check`` fingerprints).
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WARMUP_SEED = 1_000_000  # warm-up slices use seeds from here, measured rounds from 0


@dataclass
class Unit:
    """What one unit of work did: CPU seconds, counts (``decisions``, ``games``...) and a
    fingerprint of the result (equal on two sides that played the same game)."""

    cpu: float
    counts: dict[str, int]
    check: str = ""


@dataclass
class Slice:
    """The sum of the units of one slice, as reported by a worker."""

    cpu: float
    units: int
    counts: dict[str, int]
    check: str

    def rate(self, metric: str) -> float:
        """The count ``metric`` per CPU second."""
        return self.counts.get(metric, 0) / self.cpu if self.cpu > 0 else float("nan")


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a label, the ``src/`` folder it imports ``rulesplay`` from,
    and its task (``"module:Name"`` in this folder, with keyword parameters)."""

    label: str
    src: Path
    task: str
    params: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------ the worker process
def _worker(inp: TextIO, out: TextIO) -> None:
    """Serve one side: read the task, then slices to run, one JSON line each."""
    spec = json.loads(inp.readline())
    module, _, name = spec["task"].partition(":")
    task = getattr(__import__(module), name)(**spec["params"])
    import rulesplay

    _send(out, {"rulesplay": rulesplay.__file__, "note": getattr(task, "note", "")})
    for line in inp:
        job = json.loads(line)
        cpu, units, counts, digest = 0.0, 0, {}, hashlib.sha256()
        seed = job["seed"]
        while units < job.get("units", 1) or cpu < job.get("seconds", 0.0):
            unit = task.unit(seed + units)
            cpu += unit.cpu
            units += 1
            for key, value in unit.counts.items():
                counts[key] = counts.get(key, 0) + value
            digest.update(unit.check.encode() + b"\n")
        _send(out, {"cpu": cpu, "units": units, "counts": counts,
                    "check": digest.hexdigest()[:16]})


def _send(out: TextIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message) + "\n")
    out.flush()


class Worker:
    """A worker process running one :class:`Side`'s task: it starts setting up at once;
    :meth:`wait_ready` waits for it, then :meth:`run` plays one slice at a time."""

    def __init__(self, side: Side) -> None:
        self.side = side
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(side.src)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "slices.py"), "--worker"], env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._send({"task": side.task, "params": side.params})
        self.note = ""

    def wait_ready(self) -> None:
        """Wait until the task is set up; check ``rulesplay`` came from this side's tree."""
        ready = self._receive()
        loaded = Path(ready["rulesplay"]).resolve()
        if self.side.src.resolve() not in loaded.parents:
            raise RuntimeError(f"{self.side.label}: imported rulesplay from {loaded}, "
                               f"not from {self.side.src}")
        self.note = ready["note"]

    def run(self, seed: int, units: int = 1, seconds: float = 0.0) -> Slice:
        """Play at least ``units`` units and ``seconds`` of CPU, seeds from ``seed`` up."""
        self._send({"seed": seed, "units": units, "seconds": seconds})
        reply = self._receive()
        return Slice(reply["cpu"], reply["units"], reply["counts"], reply["check"])

    def close(self) -> None:
        """Stop the worker process."""
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        _send(self.proc.stdin, message)

    def _receive(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            raise RuntimeError(f"{self.side.label}: the worker stopped (exit code {code}); "
                               "its error is printed above")
        reply: dict[str, Any] = json.loads(line)
        return reply


# ------------------------------------------------------------ alternation
@dataclass
class Run:
    """The slices of every side of one alternated run, round by round."""

    sides: list[Side]
    notes: list[str]
    rounds: list[list[Slice]]  # rounds[k][i]: side i in round k

    def total(self, i: int) -> Slice:
        """Side ``i``'s slices added together."""
        slices = [r[i] for r in self.rounds]
        counts: dict[str, int] = {}
        for s in slices:
            for key, value in s.counts.items():
                counts[key] = counts.get(key, 0) + value
        return Slice(sum(s.cpu for s in slices), sum(s.units for s in slices), counts, "")

    def same_work(self) -> bool:
        """Whether every side produced the same fingerprints in every round."""
        return all(len({s.check for s in r}) == 1 for r in self.rounds)


def alternate(sides: list[Side], rounds: int, slice_seconds: float) -> Run:
    """Run ``sides`` in alternating slices of about ``slice_seconds`` of CPU each.

    Each side first warms up for one slice-length (not counted); that fixes how many units
    a slice holds, the same for every side, so the slowest side's slice lasts about
    ``slice_seconds``. Round ``k`` plays the same seeds on every side; the order of the sides
    flips every round.
    """
    workers: list[Worker] = []
    try:
        for side in sides:  # they set up side by side
            workers.append(Worker(side))
        for w in workers:
            w.wait_ready()
        warm = [w.run(WARMUP_SEED, seconds=slice_seconds) for w in workers]
        per_unit = max(s.cpu / s.units for s in warm)
        units = max(1, round(slice_seconds / per_unit)) if per_unit > 0 else 1
        result = Run(sides, [w.note for w in workers], [])
        for k in range(rounds):
            order = range(len(workers)) if k % 2 == 0 else reversed(range(len(workers)))
            got = {i: workers[i].run(k * units, units=units) for i in order}
            result.rounds.append([got[i] for i in range(len(workers))])
        return result
    finally:
        for w in workers:
            w.close()


# ------------------------------------------------------------ reporting
def _num(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.3f}"


def spread(values: list[float]) -> str:
    """``median (min-max, n)`` of per-round figures."""
    if len(values) == 1:
        return f"{_num(values[0])} (1 round)"
    return (f"median {_num(statistics.median(values))} "
            f"(range {_num(min(values))}-{_num(max(values))}, n={len(values)})")


def report(run: Run, metrics: list[str], ratio_label: str = "",
           same_games: bool = False) -> list[str]:
    """Lines of report: each side's CPU-time rates, then side 0 / side 1 on ``metrics[0]``.

    The ratio is given pooled (all rounds' work over all rounds' CPU) and as the median of the
    per-round ratios with their range, which shows how much the machine's noise moved it
    (for a single side, the per-round rates instead). With ``same_games``, says whether the
    two sides played identical games.
    """
    main = metrics[0]
    lines = []
    width = max(len(s.label) for s in run.sides)
    for i, side in enumerate(run.sides):
        total = run.total(i)
        rates = "  ".join(f"{_num(total.rate(m)):>9} {m}/s" for m in metrics)
        lines.append(f"  {side.label:{width}}  {rates}  ({total.cpu:.1f} s CPU)")
        if run.notes[i]:
            lines.append(f"  {'':{width}}  note: {run.notes[i]}")
    if len(run.sides) == 1:
        lines.append(f"  per round {main}/s: {spread([r[0].rate(main) for r in run.rounds])}")
    if len(run.sides) == 2:
        a, b = run.total(0), run.total(1)
        pooled = a.rate(main) / b.rate(main)
        per_round = [r[0].rate(main) / r[1].rate(main) for r in run.rounds]
        label = ratio_label or f"{run.sides[0].label} / {run.sides[1].label}, {main}/s"
        lines.append(f"  {label}: {pooled:.3f}x pooled; per round {spread(per_round)}")
        if same_games:
            same = "yes" if run.same_work() else "no (the ratio compares different games)"
            lines.append(f"  same games on both sides: {same}")
    return lines


@contextmanager
def checkout(rev: str) -> Iterator[tuple[Path, str]]:
    """The ``src/`` and ``rulesets/`` of git commit ``rev`` in a temporary folder.

    Yields the folder and the commit's full hash; the folder is removed on exit. Uses
    ``git archive``, so the repository and its worktrees are left untouched.
    """
    import io
    import tarfile

    def git(*args: str) -> bytes:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True)
        if done.returncode:
            raise SystemExit(f"git {' '.join(args)}: {done.stderr.decode().strip()}")
        return done.stdout

    sha = git("rev-parse", "--verify", f"{rev}^{{commit}}").decode().strip()
    data = git("archive", "--format=tar", sha, "src", "rulesets")
    with tempfile.TemporaryDirectory(prefix="rulesplay-baseline-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(tmp, filter="data")
        yield Path(tmp), sha


def with_baseline(rev: str | None, measure: Callable[[Path | None], None]) -> None:
    """Call ``measure`` with the checked-out tree of commit ``rev`` (None without one); a
    worker that fails ends the program with its message (its traceback is printed above)."""
    try:
        if rev is None:
            measure(None)
            return
        with checkout(rev) as (tree, sha):
            print(f"baseline {rev} = {sha[:12]}, checked out in {tree}", flush=True)
            measure(tree)
    except RuntimeError as exc:
        raise SystemExit(f"error: {exc}") from None


def load_game(ruleset: str, options: dict[str, Any] | None = None,
              engine: str | None = None) -> Any:
    """``rulesplay.load`` of the worker's tree; ``engine=`` is passed only when given (an
    older tree has no such parameter)."""
    import rulesplay

    if engine is None:
        return rulesplay.load(ruleset, options)
    return rulesplay.load(ruleset, options, engine=engine)


if __name__ == "__main__" and sys.argv[1:] == ["--worker"]:
    # Replies go to the real stdout; anything the engine prints goes to stderr.
    channel, sys.stdout = sys.stdout, sys.stderr
    _worker(sys.stdin, channel)
