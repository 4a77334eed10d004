"""``mcts``: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 4(2),
2012. One tree for the deciding seat; each node is reached by an action id and stores the
reward of the seat that chose it. Each iteration:

1. *Determinise*: deal the cards the seat cannot see (:meth:`InfoSet.sample`, consistent with
   what play revealed).
2. *Select*: in the sampled world, while every legal action has a child, move to the child
   maximising ``mean reward + c * sqrt(ln(availability) / visits)``; a child's availability
   counts the iterations in which it was legal (it may be illegal in other worlds).
3. *Expand* one untried legal action, chosen by the agent's generator.
4. *Roll out* uniformly at random to the end of the game.
5. *Back-propagate* the reward vector: ``win`` gives 1 to a sole winner and ``1/k`` to each of
   ``k`` tied winners (0 to every seat when a game ends without a winner; with ``teams:``,
   a team's win is each of its seats', so a partner's win is the seat's own); ``score`` gives
   each seat its score normalised to 0..1 between the lowest and highest score of the game.

The move played is the root child with the most visits. Budget: ``iterations`` or
``seconds`` (wall clock; results then depend on the machine's speed).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..engine.choices import Action
from ..engine.state import State
from .base import Agent, win_shares
from .draws import choice
from .infoset import InfoSet


class Node:
    """A tree node: the action leading to it, the seat that chose it, and statistics."""

    __slots__ = ("parent", "action", "player", "children", "visits", "avail", "reward")

    def __init__(self, parent: Node | None, action: str | None, player: int) -> None:
        self.parent, self.action, self.player = parent, action, player
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0


# Budgets a spec may ask for (a spec can come from a shared save): a move in at most an hour.
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 3600.0
MAX_C = 100.0


class MctsAgent(Agent):
    """SO-ISMCTS (spec ``mcts``, ``mcts:iterations=500``, ``mcts:seconds=0.5``).

    Args:
        seat, seed: as for :class:`Agent`.
        iterations: iterations per decision (default 100 unless ``seconds`` is given).
        seconds: time per decision instead of an iteration count.
        c: exploration constant of UCB (default 0.7).
        reward: ``win`` (default) or ``score``.

    Raises:
        ValueError: a budget that is not positive or an unknown reward.
    """

    name = "mcts"
    needs_samples = True

    def __init__(self, seat: int, seed: int = 0, iterations: int = 0, seconds: float = 0.0,
                 c: float = 0.7, reward: str = "win", **params: Any) -> None:
        super().__init__(seat, seed, **params)
        if iterations and seconds:
            raise ValueError("mcts: give iterations or seconds, not both")
        if iterations < 0 or seconds < 0:
            raise ValueError("mcts: iterations and seconds are positive")
        if iterations != int(iterations) or iterations > MAX_ITERATIONS \
                or seconds > MAX_SECONDS or not 0 <= c <= MAX_C:
            raise ValueError(f"mcts: iterations is a whole number up to {MAX_ITERATIONS}, "
                             f"seconds at most {MAX_SECONDS}, c from 0 to {MAX_C}")
        if reward not in ("win", "score"):
            raise ValueError("mcts: reward is 'win' or 'score'")
        self.iterations = int(iterations) or (0 if seconds else 100)
        self.seconds = float(seconds)
        self.c = float(c)
        self.reward_kind = reward
        self.last_root: Node | None = None

    def rewards(self, s: State) -> list[float]:
        """The reward of every seat at the end of a game."""
        n = s.num_players
        if self.reward_kind == "win":  # a team's win is each of its seats' (no winner: 0)
            return win_shares(s)
        scores = s.scores()
        lo, hi = min(scores), max(scores)
        if hi == lo:
            return [0.5] * n
        return [(v - lo) / (hi - lo) for v in scores]

    def choose(self, info: InfoSet, rng: random.Random) -> Action:
        legal = info.legal_actions
        if len(legal) == 1:
            return legal[0]
        root = Node(None, None, -1)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        done = 0
        while True:
            if deadline is not None:
                if done > 0 and time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
            self._iterate(root, info.sample(rng), rng)
            done += 1
        self.last_root = root
        ids = {a.id: a for a in legal}
        kids = root.children
        best = max((aid for aid in kids if aid in ids),
                   key=lambda aid: (kids[aid].visits, kids[aid].reward))
        return ids[best]

    def _iterate(self, root: Node, s: State, rng: random.Random) -> None:
        node, c, log, sqrt = root, self.c, math.log, math.sqrt
        while not s.terminal:
            legal = s.legal_actions()
            children = node.children
            untried = []
            for a in legal:
                ch = children.get(a.id)
                if ch is None:
                    untried.append(a)
                else:
                    ch.avail += 1
            if untried:
                a = choice(untried, rng)
                child = Node(node, a.id, s.current_player())
                children[a.id] = child
                s.apply(a)
                node = child
                break
            best, best_v, best_a = None, -1.0, None
            for a in legal:
                ch = children[a.id]
                v = ch.reward / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                if v > best_v:
                    best, best_v, best_a = ch, v, a
            assert best is not None and best_a is not None
            s.apply(best_a)
            node = best
        # The rollout: choice(s.legal_actions(), rng) at each step, inline (the same draws).
        apply, legal_actions, getrandbits = s.apply, s.legal_actions, rng.getrandbits
        while not s.terminal:
            listed = legal_actions()
            n = len(listed)
            if not n:
                raise IndexError("Cannot choose from an empty sequence")
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            apply(listed[j])
        r = self.rewards(s)
        up: Node | None = node
        while up is not None:
            up.visits += 1
            if up.player >= 0:
                up.reward += r[up.player]
            up = up.parent
