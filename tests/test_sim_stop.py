"""simulate and compare stop quietly on Ctrl-C or SIGTERM and report what was finished;
their jobs are made as they go; more workers than cores need --force (issue 14 item 8)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesplay.cli import main

ROOT = Path(__file__).resolve().parent.parent
CARD_HUNT = str(ROOT / "rulesets" / "card_hunt.rules")


def _cpu_seconds(pid: int) -> float:
    """CPU time used so far by process ``pid`` (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _has_children(pid: int) -> bool:
    """Whether process ``pid`` has started child processes (Linux /proc)."""
    return any(p.read_text().strip() for p in Path(f"/proc/{pid}/task").glob("*/children"))


def _tree_cpu(pid: int) -> float:
    """CPU time used so far by process ``pid`` and its children, in seconds."""
    kids = [int(k) for p in Path(f"/proc/{pid}/task").glob("*/children")
            for k in p.read_text().split()]
    total = _cpu_seconds(pid)
    for kid in kids:
        try:
            total += _cpu_seconds(kid)
        except OSError:  # (gone meanwhile)
            pass
    return total


def _startup_cpu(args: list[str]) -> float:
    """The CPU seconds ``rulesplay ARGS`` takes, run to its end (starting and loading
    alone take seconds on a slow machine, more when no bytecode is cached)."""
    before = os.times()
    subprocess.run([sys.executable, "-m", "rulesplay", *args], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = os.times()
    return (after.children_user - before.children_user) + \
        (after.children_system - before.children_system)


def _run_and_stop(args: list[str], sig: int, cpu: float,
                  startup: list[str] | None = None) -> tuple[int, str]:
    """Start ``rulesplay ARGS``, wait until it has used ``cpu`` seconds of CPU (loaded,
    playing: a shared machine may be slow) and, with ``--workers`` above 1, until its
    workers run (on a loaded machine the imports alone took a second of CPU, before the
    run stops quietly), send ``sig``; its exit code and output. With ``startup`` (a short
    run of the same command), ``cpu`` is counted from the CPU that run took, over the
    process and its workers: so much play, whatever the machine's speed."""
    pool = "--workers" in args and args[args.index("--workers") + 1] != "1"
    spent: Callable[[int], float] = _cpu_seconds
    if startup is not None:
        cpu += _startup_cpu(startup)
        spent = _tree_cpu
    # (a shell's background job ignores Ctrl-C, and its children inherit that: undo it)
    proc = subprocess.Popen([sys.executable, "-m", "rulesplay", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "COLUMNS": "200"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while (spent(proc.pid) < cpu or pool and not _has_children(proc.pid)) \
                and time.monotonic() < deadline:
            time.sleep(0.1)
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:  # (a failing test leaves no run behind)
            proc.kill()
            proc.communicate()
    return proc.returncode, out


def test_a_simulation_stopped_in_this_process_reports_the_games_it_finished() -> None:
    code, out = _run_and_stop(["simulate", CARD_HUNT, "-n", "100000", "--workers", "1"],
                              signal.SIGINT, cpu=1.0,
                              startup=["simulate", CARD_HUNT, "-n", "2", "--workers", "1"])
    assert code == 130 and "Traceback" not in out, out
    assert "Stopped: the results below are of the" in out and "Win rate" in out


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_simulation_in_workers_stops_quietly(sig: int) -> None:
    # 200 million games: the jobs are made as the workers ask (they were all made first)
    code, out = _run_and_stop(["simulate", CARD_HUNT, "-n", "200000000", "--workers", "2"],
                              sig, cpu=1.0)
    assert code == 130, out
    assert "Traceback" not in out and "KeyboardInterrupt" not in out and "Stopped" in out


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_comparison_stopped_early_reports_the_pairs_it_finished(workers: str) -> None:
    """Every base game was played before any variant game: a stop within the base's
    games (here all of the run) reported nothing. Now a seed's two games are played side
    by side."""
    quick = str(ROOT / "rulesets" / "variants" / "bargain_hunter_quick.rules")
    base = str(ROOT / "rulesets" / "bargain_hunter.rules")
    code, out = _run_and_stop(["compare", base, quick, "-n", "100000", "--workers", workers],
                              signal.SIGINT, cpu=1.0,
                              startup=["compare", base, quick, "-n", "2", "--workers", "1"])
    assert code == 130 and "Traceback" not in out, out
    # (the table's title wraps where the terminal's width falls: long paths split it)
    assert "Stopped: the results below are of the" in out and "games each" in " ".join(
        out.replace("│", " ").split()), out
    assert "nothing to report" not in out


def test_more_workers_than_cores_need_force() -> None:
    too_many = str((os.cpu_count() or 1) + 1)
    result = CliRunner().invoke(main, ["simulate", CARD_HUNT, "-n", "2", "--workers",
                                       too_many])
    assert result.exit_code == 2 and "or give --force" in result.output
    # (one game: one process, whatever --workers says)
    result = CliRunner().invoke(main, ["simulate", CARD_HUNT, "-n", "1", "--workers",
                                       too_many, "--force"])
    assert result.exit_code == 0, result.output
