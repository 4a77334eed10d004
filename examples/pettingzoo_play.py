"""Play a ruleset through its PettingZoo environment: seat 0 picks uniformly among the
legal actions (what a learning agent would see: the observation vector and the mask), the
other seats are rulesplay bots reading the engine's state, which the environment exposes.

    pip install -e '.[pettingzoo]'
    python examples/pettingzoo_play.py rulesets/classics/hearts.rules --players 4 --games 3

Trains nothing: it shows the loop a training script would have.
"""

from __future__ import annotations

import argparse

import numpy as np

from rulesplay.adapters.pettingzoo import env as make_env
from rulesplay.agents import make_agent


def play(ruleset: str, players: int, games: int, bot: str = "greedy",
         options: dict[str, object] | None = None, seed: int = 0) -> list[dict[str, float]]:
    """Play ``games`` games; returns each game's rewards by agent."""
    env = make_env(ruleset, players=players, options=options)
    rng = np.random.default_rng(seed)
    results = []
    for g in range(games):
        env.reset(seed=seed + g)
        bots = {p: make_agent(bot, p, seed + g) for p in range(1, players)}
        plan: list[int] = []  # a bot's action as indices (several for a card-by-card choice)
        totals = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            seat = env.possible_agents.index(agent)
            if seat == 0:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            else:
                if not plan:
                    plan = env.indices_of(bots[seat].step(env.state))
                action = plan.pop(0)
            env.step(action)
        results.append(totals)
    env.close()
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ruleset")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--bot", default="greedy", help="rulesplay bot for seats 1..n-1")
    args = ap.parse_args()
    for i, rewards in enumerate(play(args.ruleset, args.players, args.games, args.bot)):
        print(f"game {i}: " + ", ".join(f"{a} {r:+g}" for a, r in rewards.items()))


if __name__ == "__main__":
    main()
