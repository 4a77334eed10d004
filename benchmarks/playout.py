"""Random-playout speed of the rulesplay engine, in CPU time, on a noisy machine.

Each game is a random playout: ``state = game.new_state(players, seed)``, then uniform choices
from ``random.Random(seed + 1)`` until the end. The two sides of a comparison each run in
their own worker process and take turns in short slices (see ``slices.py``); rates are
decisions and games per CPU second of the worker, and the ratio is side A / side B, pooled
and as the median and range of the per-round ratios.

What is compared:
  (default)              Bargain Hunter: the engine against direct_bargain_hunter.py (a
                         hand-written implementation); other games: the engine's rates.
  --baseline REV         the current tree's engine against git commit REV's engine (checked
                         out into a temporary folder), on the same seeds.
  --compare-engines A,B  two engines of the current tree (rulesplay.load(engine=...)).
  --simulate             what `rulesplay simulate` spends per game (rulesplay.sim.play_game,
                         random bots) against raw playouts, as a CPU cost ratio.

Examples:
  python benchmarks/playout.py --baseline 5ea43f4
  python benchmarks/playout.py --game card_hunt --players 6 --slices 30
  python benchmarks/playout.py --quick
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

from slices import ROOT, Side, Unit, alternate, load_game, report, with_baseline

# name: (ruleset, default players)
GAMES = {
    "bargain_hunter": ("rulesets/bargain_hunter.rules", 4),
    "card_hunt": ("rulesets/card_hunt.rules", 4),
    "bargain_bin": ("rulesets/bargain_bin.rules", 5),
    "bargain_quest": ("rulesets/bargain_quest.rules", 3),
}
SRC = ROOT / "src"


# ------------------------------------------------------------ tasks (run in workers)
def _play(game: Any, players: int, seed: int) -> Unit:
    t0 = time.process_time()
    state = game.new_state(players, seed)
    rng = random.Random(seed + 1)
    decisions = 0
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        decisions += 1
    cpu = time.process_time() - t0
    return Unit(cpu, {"decisions": decisions, "games": 1}, f"{decisions} {state.scores()}")


class Playout:
    """Task: random playouts of a ruleset.

    Args:
        ruleset: the ``.rules`` file (of the current tree).
        players: seats.
        engine: passed to ``rulesplay.load(engine=...)`` when given.
        own: this side's own copy of the ruleset, played if ``ruleset`` does not load
            (an older engine that does not know a newer construct).
    """

    def __init__(self, ruleset: str, players: int, engine: str | None = None,
                 own: str | None = None) -> None:
        self.note = ""
        try:
            self.game = load_game(ruleset, engine=engine)
        except Exception as exc:
            if own is None:
                raise
            self.game = load_game(own, engine=engine)
            self.note = (f"could not load the current ruleset ({type(exc).__name__}); "
                         "plays its own copy, so the ratio includes ruleset changes")
        self.players = players

    def unit(self, seed: int) -> Unit:
        """One random playout."""
        return _play(self.game, self.players, seed)


class Direct(Playout):
    """Task: random playouts of ``direct_bargain_hunter.DirectBargainHunter``."""

    def __init__(self, players: int) -> None:
        import direct_bargain_hunter

        self.note = ""
        self.game = direct_bargain_hunter.DirectBargainHunter()
        self.players = players


class Simulated(Playout):
    """Task: one game as ``rulesplay simulate`` plays it (``sim.play_game``, random bots)."""

    def unit(self, seed: int) -> Unit:
        """One game of ``play_game``, timed like a playout."""
        from rulesplay.sim import play_game

        t0 = time.process_time()
        record = play_game(self.game, self.players, {}, seed)
        cpu = time.process_time() - t0
        return Unit(cpu, {"decisions": record.decisions, "games": 1},
                    f"{record.decisions} {record.scores}")


# ------------------------------------------------------------ the comparisons
def sides_for(name: str, players: int, args: argparse.Namespace,
              baseline: Path | None) -> tuple[list[Side], str]:
    """The sides to measure for game ``name`` and the label of their ratio."""
    ruleset = str(ROOT / GAMES[name][0])
    current = {"ruleset": ruleset, "players": players}
    if args.engine:
        current["engine"] = args.engine
    engine = f"engine ({args.engine})" if args.engine else "engine"
    if baseline is not None:
        own = str(baseline / GAMES[name][0])
        return ([Side("current", SRC, "playout:Playout", current),
                 Side(f"baseline {args.baseline}", baseline / "src", "playout:Playout",
                      {"ruleset": ruleset, "players": players, "own": own})],
                "current / baseline, decisions/s")
    if args.compare_engines:
        a, b = args.compare_engines
        return ([Side(f"engine {a}", SRC, "playout:Playout", dict(current, engine=a)),
                 Side(f"engine {b}", SRC, "playout:Playout", dict(current, engine=b))],
                f"{a} / {b}, decisions/s")
    if args.simulate:
        return ([Side("raw playout", SRC, "playout:Playout", current),
                 Side("simulate", SRC, "playout:Simulated", current)],
                "simulate CPU / raw playout CPU, per decision")
    if name == "bargain_hunter":
        return ([Side(engine, SRC, "playout:Playout", current),
                 Side("direct", SRC, "playout:Direct", {"players": players})],
                "engine / direct, decisions/s")
    return [Side(engine, SRC, "playout:Playout", current)], ""


def measure(args: argparse.Namespace, baseline: Path | None) -> None:
    """Measure and print every game asked for."""
    for name in args.game or list(GAMES):
        players = args.players or GAMES[name][1]
        sides, label = sides_for(name, players, args, baseline)
        print(f"{name}, {players} players", flush=True)
        run = alternate(sides, args.slices, args.slice_seconds)
        same = bool(args.baseline or args.compare_engines)
        lines = report(run, ["decisions", "games"], label, same_games=same)
        for line in lines:
            print(line, flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (``--help`` explains it)."""
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", choices=list(GAMES), metavar="NAME",
                    help="a game to measure, repeatable: " + ", ".join(
                        f"{n} ({p}p)" for n, (_, p) in GAMES.items()) + " (default: all)")
    ap.add_argument("--players", type=int, metavar="N",
                    help="player count for every game measured (default: as above)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--baseline", metavar="REV",
                      help="compare with the engine of this git commit (e.g. 5ea43f4)")
    mode.add_argument("--compare-engines", metavar="A,B", type=lambda s: s.split(","),
                      help="compare two engines of the current tree")
    mode.add_argument("--simulate", action="store_true",
                      help="CPU of a `simulate` game against a raw playout")
    ap.add_argument("--engine", metavar="NAME",
                    help="rulesplay.load(engine=NAME) for the current tree")
    ap.add_argument("--slices", type=int, default=15, metavar="N",
                    help="rounds of alternating slices (default 15)")
    ap.add_argument("--slice-seconds", type=float, default=0.4, metavar="S",
                    help="CPU seconds of the slowest side's slice (default 0.4)")
    ap.add_argument("--quick", action="store_true",
                    help="a smoke run: 3 slices of 0.1 s (well under 30 s in all)")
    args = ap.parse_args(argv)
    if args.compare_engines is not None and len(args.compare_engines) != 2:
        ap.error("--compare-engines takes two engine names: A,B")
    if args.quick:
        args.slices, args.slice_seconds = 3, 0.1
    return args


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark from the command line."""
    args = parse_args(argv)
    with_baseline(args.baseline, lambda tree: measure(args, tree))


if __name__ == "__main__":
    main()
