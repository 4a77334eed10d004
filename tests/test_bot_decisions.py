"""The bots decide exactly as before a change meant only to make them faster.

``tests/golden/bot_decisions.json`` holds fingerprints (hashes of action histories, tracker
counters, determinisations and simulation records) of short games of the shipped rulesets
with the random, greedy and mcts bots, written by ``benchmarks/bot_decisions.py --quick
--write``; the full set (whole games, more rulesets and player counts) is checked with
``python benchmarks/bot_decisions.py --check``. Only a deliberate change of what a bot
decides may rewrite them, with the reason in its commit message.
"""

from __future__ import annotations

import json
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import bot_decisions  # noqa: E402


def test_bots_decide_as_recorded() -> None:
    want = json.loads(bot_decisions.QUICK.read_text())
    got = bot_decisions.fingerprints(quick=True)
    assert sorted(got) == sorted(want)
    differ = sorted(k for k in want if got[k] != want[k])
    assert not differ, f"these bots now decide differently: {differ}"
