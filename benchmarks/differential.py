"""The differential check of the compiled engine against the frame interpreter, on many
seeds: every shipped ruleset and variant at every player count, random games played side
by side (the same check as ``tests/test_differential.py``, which runs two seeds each).

    python benchmarks/differential.py [--seeds 1000] [--first 1] [--workers 2] [--match TEXT]
                                      [--players N | --players LO-HI]

Prints one line per ruleset and player count (games, decisions, CPU seconds) and the first
difference found, if any; exits 1 when there is one.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from test_differential import RULESETS, play_both  # noqa: E402

from rulesplay.engine.game import load  # noqa: E402


def check(path: str, players: int, seeds: range) -> tuple[str, int, int, int, float, str]:
    """Play ``seeds`` on both engines; return (ruleset, players, games, decisions, CPU
    seconds, the first difference or "")."""
    start = time.process_time()
    reference, compiled = load(path, engine="interpret"), load(path, engine="compiled")
    decisions = games = 0
    for seed in seeds:
        try:
            decisions += play_both(reference, compiled, players, seed)
        except AssertionError as exc:
            return (path, players, games, decisions, time.process_time() - start,
                    f"seed {seed}: {exc}")
        games += 1
    return path, players, games, decisions, time.process_time() - start, ""


def _counts(text: str) -> range:
    """``N`` or ``LO-HI`` as a range of player counts; argparse's error otherwise."""
    lo, _, hi = text.partition("-")
    try:
        first, last = int(lo), int(hi or lo)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: a count (4) or a range (8-10)") from None
    if not 1 <= first <= last:
        raise argparse.ArgumentTypeError(f"{text!r}: counts from 1, the lower first")
    return range(first, last + 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000, help="games per ruleset and count")
    parser.add_argument("--first", type=int, default=1, help="the first seed")
    parser.add_argument("--workers", type=int, default=2, help="processes")
    parser.add_argument("--match", default="", metavar="TEXT",
                        help="only the rulesets whose path under rulesets/ contains TEXT")
    parser.add_argument("--players", type=_counts, default=None, metavar="N|LO-HI",
                        help="only these player counts (within each ruleset's own range)")
    args = parser.parse_args()
    seeds = range(args.first, args.first + args.seeds)
    jobs = []
    for path in RULESETS:
        if args.match not in path.relative_to(ROOT / "rulesets").as_posix():
            continue
        lo, hi = load(path).player_range
        jobs += [(str(path), n) for n in range(lo, hi + 1)
                 if args.players is None or n in args.players]
    failed = False
    total_games = total_decisions = 0
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(check, path, n, seeds) for path, n in jobs]
        for future in futures:
            path, n, games, decisions, cpu, diff = future.result()
            total_games += games
            total_decisions += decisions
            status = f"DIFFERS at {diff}" if diff else "same"
            print(f"{Path(path).stem:36s} {n:2d}p {games:5d} games {decisions:9d} decisions "
                  f"{cpu:7.1f} s CPU  {status}", flush=True)
            failed = failed or bool(diff)
    print(f"{total_games} games, {total_decisions} decisions: "
          f"{'a difference was found' if failed else 'the engines played the same games'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
