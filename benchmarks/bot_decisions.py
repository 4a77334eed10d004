"""Fingerprints of what the bots decide, to check that a speed-up changes no decision.

For every shipped ruleset and variant at its smallest and largest player count (at most 6),
this plays short games and hashes what came out:

* ``greedy`` in every seat (seeds 1, 2): the action history and each tracker's counters;
* ``mcts:iterations=30`` in seat 0, ``random`` elsewhere (seed 1): the same;
* ``mcts:iterations=100`` in seat 0 for its first decisions (seed 3, Bargain games only);
* determinisations: every few decisions a separate tracker for the deciding seat deals
  samples from a fixed generator; each sample's zones, locals and generator state;
* ``simulate`` with random bots (12 games) and with greedy bots (2 games): every game's
  record except its time (and its outcome, which follows from the rest).

The quick subset plays fewer decisions (and no greedy simulation of Bargain Bin).

Run ``python benchmarks/bot_decisions.py --check`` (compares with
``benchmarks/bot_decisions.json``) or ``--write`` (records it, only before a change that may
alter decisions, or with the reason in the commit); ``--quick`` is the subset that
``tests/test_bot_decisions.py`` checks against ``tests/golden/bot_decisions.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import random
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import rulesplay  # noqa: E402
from rulesplay.agents import Tracker, make_agent  # noqa: E402
from rulesplay.sim import simulate  # noqa: E402

FULL = ROOT / "benchmarks" / "bot_decisions.json"
QUICK = ROOT / "tests" / "golden" / "bot_decisions.json"
QUICK_RULESETS = ("bargain_hunter", "bargain_quest", "card_hunt", "bargain_bin",
                  "bargain_hunter_blind_bargain")


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _rulesets(quick: bool) -> list[Path]:
    files = sorted([*(ROOT / "rulesets").glob("*.rules"),
                    *(ROOT / "rulesets" / "variants").glob("*.rules")])
    return [p for p in files if not quick or p.stem in QUICK_RULESETS]


def play(game: Any, players: int, specs: list[str], seed: int, limit: int,
         sample_every: int) -> dict[str, Any]:
    """Play until the end or ``limit`` decisions; the history, each agent's tracker
    counters, and (every ``sample_every`` decisions, 0: never) samples of a separate
    tracker for the deciding seat."""
    s = game.new_state(num_players=players, seed=seed)
    agents = [make_agent(spec, p, seed) for p, spec in enumerate(specs)]
    watchers = [Tracker(p) for p in range(players)]
    samples = []
    while not s.terminal and s.decisions < limit:
        p = s.current_player()
        if sample_every and s.decisions % sample_every == 0:
            info = watchers[p].infoset(s)
            rng = random.Random(s.decisions)
            for _ in range(3):
                w = info.sample(rng)
                samples.append([w.zones, w.loc, w.g, w.pv, w.cv, w.rng.getstate()[1][:4]])
        s.apply(agents[p].step(s))
    return {"history": s.history, "stats": [a.tracker.stats for a in agents],
            "samples": _digest(samples)}


def fingerprints(quick: bool, workers: int = 1) -> dict[str, str]:
    """Case name -> digest of what it produced (the rulesets shared among ``workers``
    processes: the cases do not depend on it)."""
    paths = _rulesets(quick)
    if workers <= 1:
        return {k: v for path in paths for k, v in _cases(path, quick).items()}
    out: dict[str, str] = {}
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods()
                                      else "spawn")
    with ctx.Pool(workers) as pool:
        for cases in pool.starmap(_cases, [(path, quick) for path in paths], chunksize=1):
            out.update(cases)
    return out


def _cases(path: Path, quick: bool) -> dict[str, str]:
    """The cases of one ruleset."""
    out: dict[str, str] = {}
    game = rulesplay.load(path)
    lo, hi = game.player_range
    counts = sorted({lo, min(hi, 6)}) if not quick else [lo]
    for n in counts:
        name = f"{path.stem}-p{n}"
        for seed in (1, 2) if not quick else (1,):
            out[f"{name}-greedy-s{seed}"] = _digest(play(
                game, n, ["greedy"] * n, seed, 10**6 if not quick else 40, 7))
        out[f"{name}-mcts30-s1"] = _digest(play(
            game, n, ["mcts:iterations=30"] + ["random"] * (n - 1), 1,
            10**6 if not quick else 12, 0))
        if path.stem.startswith("bargain_") and not quick:
            out[f"{name}-mcts100-s3"] = _digest(play(
                game, n, ["mcts:iterations=100"] + ["random"] * (n - 1), 3, 40, 0))
        greedy_games = 2 if not quick else 0 if path.stem == "bargain_bin" else 1
        for bot, games in (("random", 12), ("greedy", greedy_games)):
            if not games:
                continue
            res = simulate(str(path), games, n, bots=dict.fromkeys(range(n), bot),
                           seed=5, workers=1)
            # The outcome and the phase the length counts follow from the game already
            # hashed (winners, rank keys, rounds): only what the bots decided is held.
            recs = [{k: v for k, v in asdict(g).items()
                     if k not in ("seconds", "outcome", "repeats")} for g in res.games]
            out[f"{name}-simulate-{bot}"] = _digest(recs)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the subset the test suite checks")
    ap.add_argument("--workers", type=int, default=1, metavar="N",
                    help="processes to share the rulesets among (default 1)")
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--check", action="store_true")
    what.add_argument("--write", action="store_true")
    args = ap.parse_args()
    target = QUICK if args.quick else FULL
    t0, w0 = time.process_time(), time.perf_counter()
    got = fingerprints(args.quick, args.workers)
    print(f"{len(got)} cases in {time.perf_counter() - w0:.1f} s"
          + (f" ({time.process_time() - t0:.1f} s of CPU)" if args.workers <= 1 else
             f" on {args.workers} processes"))
    if args.write:
        target.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        print(f"wrote {target}")
        return
    want = json.loads(target.read_text())
    bad = sorted(k for k in want.keys() | got.keys() if want.get(k) != got.get(k))
    for k in bad:
        print(f"DIFFERS: {k}")
    print("all the same" if not bad else f"{len(bad)} of {len(want)} differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
