"""Agent and simulation throughput: run ``python benchmarks/bench_agents.py [--quick]``.

Prints, for every ruleset in ``rulesets/`` (variants excluded):
  * random playouts: games/s and decisions/s (one process);
and for Bargain Hunter:
  * mcts decisions/s at a fixed budget (``mcts:iterations=100``, one mcts seat, rounds=1);
  * greedy decisions/s;
  * ``simulate`` wall time with 1 and 2 workers, and the speed-up.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import rulesplay  # noqa: E402
from rulesplay.agents import make_agent  # noqa: E402
from rulesplay.sim import simulate  # noqa: E402


def playouts(path: Path, players: int, seconds: float) -> tuple[float, float]:
    """Random playouts for about ``seconds``: (games/s, decisions/s)."""
    game = rulesplay.load(path)
    games = decisions = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = game.new_state(num_players=players, seed=games)
        rng = random.Random(games)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        games += 1
        decisions += s.decisions
    dt = time.perf_counter() - t0
    return games / dt, decisions / dt


def agent_speed(spec: str, decisions: int) -> float:
    """Decisions/s of ``spec`` in seat 0 of 4-player Bargain Hunter (rounds=1)."""
    game = rulesplay.load(ROOT / "rulesets" / "bargain_hunter.rules", {"rounds": 1})
    made, spent, seed = 0, 0.0, 0
    while made < decisions:
        s = game.new_state(num_players=4, seed=seed)
        agents = [make_agent(spec if p == 0 else "random", p, seed) for p in range(4)]
        while not s.is_terminal() and made < decisions:
            p = s.current_player()
            t0 = time.perf_counter()
            a = agents[p].step(s)
            if p == 0 and len(s.legal_actions()) > 1:
                spent += time.perf_counter() - t0
                made += 1
            s.apply(a)
        seed += 1
    return made / spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="shorter runs")
    args = ap.parse_args()
    secs = 1.0 if args.quick else 3.0
    print("random playouts (1 process)")
    for path in sorted((ROOT / "rulesets").glob("*.rules")):
        game = rulesplay.load(path)
        lo, hi = game.player_range
        for players in sorted({lo, min(hi, 4)}):
            gps, dps = playouts(path, players, secs)
            print(f"  {path.name:24} {players} players: {gps:8.1f} games/s "
                  f"{dps:10.0f} decisions/s")
    print("agents, Bargain Hunter 4 players (decisions with a real choice)")
    for spec, n in (("greedy", 60 if args.quick else 200),
                    ("mcts:iterations=100", 10 if args.quick else 40)):
        print(f"  {spec:24} {agent_speed(spec, n):8.1f} decisions/s")
    n = 400 if args.quick else 2000
    path = str(ROOT / "rulesets" / "bargain_hunter.rules")
    times = {}
    for workers in (1, 2):
        t0 = time.perf_counter()
        simulate(path, n, 4, seed=0, workers=workers)
        times[workers] = time.perf_counter() - t0
        print(f"simulate {n} random games, 4 players, {workers} worker(s): "
              f"{times[workers]:.1f} s ({n / times[workers]:.0f} games/s)")
    print(f"speed-up 1 -> 2 workers: {times[1] / times[2]:.2f}x")


if __name__ == "__main__":
    main()
