"""Random-playout throughput: the rulesplay interpreter against a hand-written implementation.

Both play Bargain Hunter through the same API shape (new_state / legal_actions / apply), with
uniform random choices from a generator seeded per game. Run:

    python benchmarks/playout.py [--games 300] [--repeat 3]

Prints games/s and decisions/s for 3 and 4 players, the best of ``--repeat`` runs, and the
ratio interpreter / direct.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import direct_bargain_hunter  # noqa: E402

import rulesplay  # noqa: E402


def playouts(game: Any, players: int, games: int) -> tuple[float, int]:
    """Play ``games`` random games; return (seconds, decisions)."""
    decisions = 0
    start = time.perf_counter()
    for seed in range(games):
        state = game.new_state(players, seed)
        rng = random.Random(seed + 1)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    return time.perf_counter() - start, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    engines = {
        "interpreter": rulesplay.load(HERE.parent / "rulesets" / "bargain_hunter.rules"),
        "direct": direct_bargain_hunter.DirectBargainHunter(),
    }
    for players in (3, 4):
        rates: dict[str, tuple[float, float]] = {}
        for name, game in engines.items():
            best = min(playouts(game, players, args.games) for _ in range(args.repeat))
            seconds, decisions = best
            rates[name] = (args.games / seconds, decisions / seconds)
            print(f"{players}p {name:12s} {rates[name][0]:8.1f} games/s "
                  f"{rates[name][1]:10.0f} decisions/s")
        ratio = rates["interpreter"][1] / rates["direct"][1]
        print(f"{players}p interpreter/direct = {ratio:.2f}")


if __name__ == "__main__":
    main()
