"""CPU time of the encodings (:mod:`rulesplay.encode`) against the engine's own step, per
shipped ruleset: random games in which every decision asks the deciding seat's observation
vector and legal mask, as a PettingZoo environment does.

    PYTHONPATH=src python benchmarks/encode.py [--decisions 2000] [RULESET ...]

Prints, per ruleset (at its smallest player count): the observation's length, the action
count, and microseconds of CPU time per decision for the engine's step alone and for the
observation and the mask (``time.process_time``, so other processes' time is not counted).
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import rulesplay
from rulesplay.encode.tensor import Chooser, Spaces

ROOT = Path(__file__).resolve().parents[1]


def measure(path: Path, decisions: int) -> tuple[int, int, float, float]:
    """``(obs_size, num_actions, µs per step, µs per observation and mask)``."""
    game = rulesplay.load(path)
    n = game.player_range[0]
    spaces = Spaces(game, n)
    rng = random.Random(1)
    step_time = encode_time = 0.0
    done, seed = 0, 0
    while done < decisions:
        chooser = Chooser(spaces, game.new_state(num_players=n, seed=seed))
        seed += 1
        while not chooser.state.is_terminal() and done < decisions:
            t0 = time.process_time()
            chooser.observe(chooser.state.current_player())
            legal = chooser.legal_indices()
            chooser.mask()
            t1 = time.process_time()
            chooser.step(rng.choice(legal))
            t2 = time.process_time()
            encode_time += t1 - t0
            step_time += t2 - t1
            done += 1
    return spaces.obs_size, spaces.num_actions, step_time / done * 1e6, \
        encode_time / done * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rulesets", nargs="*", type=Path)
    ap.add_argument("--decisions", type=int, default=2000)
    args = ap.parse_args()
    paths = args.rulesets or sorted((ROOT / "rulesets").glob("*.rules")) + \
        sorted((ROOT / "rulesets" / "classics").glob("*.rules"))
    print(f"{'ruleset':<22} {'obs':>6} {'actions':>7} {'step µs':>8} {'encode µs':>9}")
    for path in paths:
        obs, actions, step, encode = measure(path, args.decisions)
        print(f"{path.stem:<22} {obs:>6} {actions:>7} {step:>8.0f} {encode:>9.0f}")


if __name__ == "__main__":
    main()
