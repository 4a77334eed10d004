"""Bot speed in CPU time, Bargain Hunter 4 players, on a noisy machine.

  mcts    ``mcts:iterations=100`` in seat 0, random bots in the others, one round
          (option rounds=1): iterations per CPU second of the mcts seat's own steps (100
          per decision with more than one legal action; the others cost it nothing).
  greedy  ``greedy`` in every seat, the full game (as `rulesplay compare --bot greedy`
          plays it): games and decisions per CPU second of the whole game.

Both use ``make_agent(spec, seat, seed)`` and ``agent.step(state)``, which every version since
commit 5ea43f4 has. Each side runs in its own worker process and the sides take turns in
short slices (see ``slices.py``); a slice is a whole number of games, seeded alike on both
sides. Random playouts and `simulate` are measured by ``playout.py``.

Examples:
  python benchmarks/bench_agents.py --baseline 5ea43f4
  python benchmarks/bench_agents.py --bot greedy --slices 20
  python benchmarks/bench_agents.py --quick
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from slices import ROOT, Side, Unit, alternate, load_game, report, with_baseline

RULESET = str(ROOT / "rulesets" / "bargain_hunter.rules")
PLAYERS = 4
SRC = ROOT / "src"


# ------------------------------------------------------------ tasks (run in workers)
class Mcts:
    """Task: one game with ``mcts:iterations=N`` in seat 0; times only seat 0's steps."""

    def __init__(self, iterations: int = 100, engine: str | None = None) -> None:
        self.note = ""
        self.game = load_game(RULESET, {"rounds": 1}, engine)
        self.spec = f"mcts:iterations={iterations}"
        self.iterations = iterations

    def unit(self, seed: int) -> Unit:
        """One game; counts the mcts seat's searches (decisions with a choice), iterations."""
        from rulesplay.agents import make_agent

        s = self.game.new_state(PLAYERS, seed)
        agents = [make_agent(self.spec if p == 0 else "random", p, seed)
                  for p in range(PLAYERS)]
        cpu, searched, decisions = 0.0, 0, 0
        while not s.is_terminal():
            p = s.current_player()
            if p == 0:
                searched += int(len(s.legal_actions()) > 1)
                t0 = time.process_time()
                action = agents[0].step(s)
                cpu += time.process_time() - t0
            else:
                action = agents[p].step(s)
            s.apply(action)
            decisions += 1
        counts = {"iterations": searched * self.iterations, "searches": searched, "games": 1}
        return Unit(cpu, counts, f"{decisions} {s.scores()}")


class Greedy:
    """Task: one game with ``greedy`` in every seat, timed whole."""

    def __init__(self, engine: str | None = None) -> None:
        self.note = ""
        self.game = load_game(RULESET, None, engine)

    def unit(self, seed: int) -> Unit:
        """One game."""
        from rulesplay.agents import make_agent

        t0 = time.process_time()
        s = self.game.new_state(PLAYERS, seed)
        agents = [make_agent("greedy", p, seed) for p in range(PLAYERS)]
        decisions = 0
        while not s.is_terminal():
            s.apply(agents[s.current_player()].step(s))
            decisions += 1
        cpu = time.process_time() - t0
        return Unit(cpu, {"games": 1, "decisions": decisions}, f"{decisions} {s.scores()}")


BOTS = {  # name: (task, metrics reported, the first one compared)
    "mcts": ("bench_agents:Mcts", ["iterations", "searches"]),
    "greedy": ("bench_agents:Greedy", ["games", "decisions"]),
}


# ------------------------------------------------------------ the comparisons
def measure(args: argparse.Namespace, baseline: Path | None) -> None:
    """Measure and print every bot asked for."""
    for bot in args.bot or list(BOTS):
        task, metrics = BOTS[bot]
        current: dict[str, Any] = {"engine": args.engine} if args.engine else {}
        sides = [Side("current" if baseline else "engine", SRC, task, current)]
        if baseline is not None:
            sides.append(Side(f"baseline {args.baseline}", baseline / "src", task, {}))
        print(f"{bot}, Bargain Hunter {PLAYERS} players"
              + (", rounds=1" if bot == "mcts" else ""), flush=True)
        run = alternate(sides, args.slices, args.slice_seconds)
        for line in report(run, metrics, same_games=baseline is not None):
            print(line, flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (``--help`` explains it)."""
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bot", action="append", choices=list(BOTS),
                    help="a bot to measure (repeatable; default: both)")
    ap.add_argument("--baseline", metavar="REV",
                    help="compare with the engine and bots of this git commit (e.g. 5ea43f4)")
    ap.add_argument("--engine", metavar="NAME",
                    help="rulesplay.load(engine=NAME) for the current tree")
    ap.add_argument("--slices", type=int, default=20, metavar="N",
                    help="rounds of alternating slices (default 20)")
    ap.add_argument("--slice-seconds", type=float, default=0.5, metavar="S",
                    help="CPU seconds of the slowest side's slice, rounded to whole games "
                         "(at least one; default 0.5)")
    ap.add_argument("--quick", action="store_true",
                    help="a smoke run: 2 slices of one game (well under 30 s in all)")
    args = ap.parse_args(argv)
    if args.quick:
        args.slices, args.slice_seconds = 2, 0.0
    return args


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark from the command line."""
    args = parse_args(argv)
    with_baseline(args.baseline, lambda tree: measure(args, tree))


if __name__ == "__main__":
    main()
