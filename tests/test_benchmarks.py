"""The benchmark scripts still run (a smoke test, never a timing): a tiny alternated
playout run, and both scripts' ``--help``."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

BENCH = ROOT / "benchmarks"


def _run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCH / script), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_playout_alternates_the_engine_and_the_direct_implementation() -> None:
    out = _run("playout.py", "--game", "bargain_hunter", "--slices", "2",
               "--slice-seconds", "0.01")
    assert "bargain_hunter, 4 players" in out
    assert "engine / direct, decisions/s:" in out and "pooled; per round median" in out
    assert out.count("decisions/s") == 3


def test_help_explains_the_comparisons() -> None:
    assert "--baseline REV" in _run("playout.py", "--help")
    assert "mcts:iterations=100" in _run("bench_agents.py", "--help")


def test_the_language_server_check_is_timed_per_ruleset() -> None:
    out = _run("lsp_check.py", "--repeats", "1", "rulesets/card_hunt.rules")
    assert "rulesets/card_hunt.rules" in out and "ms CPU" in out
