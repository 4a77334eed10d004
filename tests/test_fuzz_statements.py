"""100 trials of tools/fuzz_statements.py: a generated statement inserted into a shipped
ruleset ends in a located error or a finished game, never a traceback or a hang (issue 14;
the closing note has the 2,000-trial run)."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "fuzz_statements.py"


def _tool():  # type: ignore[no-untyped-def]
    # On the path, so the worker processes (spawned: a fresh interpreter each) import it too.
    if str(TOOL.parent) not in sys.path:
        sys.path.insert(0, str(TOOL.parent))
    return importlib.import_module("fuzz_statements")


def test_a_hundred_generated_statements_end_in_located_errors_or_finished_games() -> None:
    fuzz = _tool()
    pool = fuzz.Pool(seed=1, workers=2, timeout=60.0)
    try:
        results = pool.run(list(range(100)))
    finally:
        pool.close()
    failures = {k: r for k, r in results.items() if r[0] in fuzz.FAILURES}
    assert not failures, failures
    outcomes = Counter(outcome for outcome, _ in results.values())
    # the trials reach all three ends (a fuzzer whose statements never load tests little)
    assert min(outcomes["finished"], outcomes["refused"], outcomes["stopped"]) >= 5, outcomes


def test_a_trial_is_the_same_statement_every_time() -> None:
    fuzz = _tool()
    files = fuzz._bundle_files()
    assert fuzz.make_trial(1, 7, files)[:3] == fuzz.make_trial(1, 7, files)[:3]
    assert fuzz.make_trial(1, 7, files)[2] != fuzz.make_trial(1, 8, files)[2]
