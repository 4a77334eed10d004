"""Any ruleset as a PettingZoo agent-environment-cycle (AEC) environment (the
``pettingzoo`` extra)::

    from rulesplay.adapters.pettingzoo import env
    e = env("rulesets/classics/hearts.rules", players=4, options={"target": 20})
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (seat ``i`` is ``player_i``). An observation is
``{"observation": float32 (obs_size,), "action_mask": int8 (num_actions,)}`` in a
``Dict`` space of a ``Box`` and a ``Box``; actions are ``Discrete(num_actions)``: the
layout and the ids are :mod:`rulesplay.encode`'s (``rulesplay spaces FILE`` prints them).
A choice of several cards with many ways is made card by card: the same agent acts again
until its ``done``. ``reset(seed=S)`` plays the deal ``rulesplay run --seed S`` plays;
``reset()`` without a seed draws the next seed from the last one given (from entropy
before any). Rewards come at the end: +1 to each winner and -1 to each other seat (0 to
all when every seat wins), or with ``reward="score"`` each seat's final score; ``info`` then
holds ``scores`` and ``winners``. A game that reaches its ``decisions`` or ``total`` limit
without ending is truncated there: ``truncations`` set for every agent, zero rewards,
``info["truncated"]`` the limit's message. The ruleset's options are fixed when the environment is
made; ``reset``'s own ``options`` are ignored.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..encode.actions import SpaceError
from ..encode.tensor import Chooser, Spaces
from ..engine.actions import Action
from ..engine.game import Game, load
from ..engine.state import State
from ..limits import MAX_INT
from .budget import spent

__all__ = ["RulesplayEnv", "env"]

# Bounds of every observation entry: a count is at most the number of cards; a number is
# squashed to sign(v) * ln(1 + |v|), at most ln(1 + MAX_INT) in size.
_SQUASHED = math.log1p(MAX_INT)
REWARDS = ("win", "score")


def env(ruleset: str | Game, players: int | None = None,
        options: dict[str, Any] | None = None, render_mode: str | None = None,
        reward: str = "win") -> RulesplayEnv:
    """A PettingZoo AEC environment of ``ruleset``.

    Args:
        ruleset: a ``.rules`` path (or a loaded :class:`~rulesplay.Game`).
        players: the player count (default: the ruleset's usual count, ``usually N``,
            else its minimum).
        options: ruleset options by name (ignored for a loaded game, which has its own).
        render_mode: None, ``"ansi"`` (``render()`` returns the table as text) or
            ``"human"`` (prints it).
        reward: ``"win"`` (+1 win, -1 loss) or ``"score"`` (the final scores).

    Raises:
        RulesError: the ruleset does not load, or a bad option or player count.
        ValueError: an unknown render mode or reward.
        SpaceError: a decision the fixed action space cannot hold.
    """
    game = ruleset if isinstance(ruleset, Game) else load(ruleset, options or {})
    return RulesplayEnv(game, players, render_mode, reward)


class RulesplayEnv(AECEnv):  # type: ignore[misc]  # (pettingzoo publishes no types)
    """The AEC environment (see the module docstring); made by :func:`env`.

    Attributes:
        game, spaces: the loaded game and its :class:`~rulesplay.encode.tensor.Spaces`.
        state: the engine's state of the game being played (``None`` before ``reset``):
            rulesplay bots take it (``agent.step(env.state)``).
        chooser: drives ``state`` by action indices (:meth:`indices_of` turns a game
            action into them).
    """

    RENDER_MODES = ("ansi", "human")
    metadata = {"render_modes": list(RENDER_MODES), "name": "rulesplay_v0",
                "is_parallelizable": False}

    def __init__(self, game: Game, players: int | None = None,
                 render_mode: str | None = None, reward: str = "win") -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: use None, 'ansi' or 'human'")
        if reward not in REWARDS:
            raise ValueError(f"reward {reward!r}: use 'win' or 'score'")
        self.game, self.render_mode, self.reward = game, render_mode, reward
        n = game.usual_players if players is None else players
        self.spaces = Spaces(game, n)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        high = max(float(self.spaces.program.num_cards), _SQUASHED)
        obs_space = spaces.Dict({
            "observation": spaces.Box(-_SQUASHED, high, (self.spaces.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.spaces.num_actions,), np.int8)})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.spaces.num_actions)
                              for a in self.possible_agents}
        self.state: State | None = None
        self.chooser: Chooser | None = None
        self._seeds = random.Random()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s observation space (every agent's is the same).

        Raises:
            ValueError: not one of :attr:`possible_agents`.
        """
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``agent``'s action space, ``Discrete(num_actions)``.

        Raises:
            ValueError: not one of :attr:`possible_agents`.
        """
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to act's observation, cumulative reward, terminated, truncated and
        info (PettingZoo's ``last``).

        Raises:
            RuntimeError: before :meth:`reset`.
        """
        self._started("last")
        return super().last(observe)  # type: ignore[no-any-return]

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """The agents in turn until every one is done (PettingZoo's ``agent_iter``).

        Raises:
            RuntimeError: before :meth:`reset`.
        """
        self._started("agent_iter")
        return super().agent_iter(max_iter)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: seeded ``seed`` (the deal ``rulesplay run --seed`` gives), or
        the next seed after the last one given. ``options`` is ignored (the ruleset's
        options are the environment's)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(48)
        self.state = self.game.new_state(num_players=len(self.possible_agents),
                                         seed=game_seed)
        self.chooser = Chooser(self.spaces, self.state)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        """Whose turn it is: the deciding seat, or at the end the first agent left."""
        assert self.state is not None
        p = self.state.current_player()
        self.agent_selection = self.possible_agents[p] if p >= 0 else self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        """``{"observation": float32 (obs_size,), "action_mask": int8 (num_actions,)}``
        for ``agent``; the mask is all zeros when it is not that agent's turn, and once
        the episode is over.

        Raises:
            RuntimeError: before :meth:`reset`.
            ValueError: ``agent`` is not one of the environment's agents.
        """
        self._started("observe")
        assert self.chooser is not None and self.state is not None
        seat = self._seat(agent)
        mask = self.chooser.mask() if seat == self.state.current_player() and not (
            self.terminations[agent] or self.truncations[agent]) else \
            np.zeros(self.spaces.num_actions, dtype=np.int8)
        return {"observation": self.chooser.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Take action index ``action`` for the agent to act (None once it is done).

        Raises:
            RuntimeError: before :meth:`reset`, or after every agent is done.
            SpaceError: an index that is not legal now, or None from an agent still
                playing (the message lists the legal indices).
        """
        self._started("step")
        if not self.agents:
            raise RuntimeError("the episode is over and every agent is done: call "
                               "reset() to play again")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.chooser is not None and self.state is not None
        if action is None or isinstance(action, bool) or \
                not isinstance(action, int | np.integer):
            raise SpaceError(self.spaces.refusal(action, self.chooser.legal_indices())
                             + f" ({agent} is still playing: None is for an agent done)"
                             * (action is None))
        self._cumulative_rewards[agent] = 0
        self.chooser.step(int(action))
        if self.state.is_terminal():
            self._finish()
        else:
            self._truncate_if_spent()
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _started(self, call: str) -> None:
        """Refuse ``call`` before the first :meth:`reset`.

        Raises:
            RuntimeError: no game yet.
        """
        if self.state is None:
            raise RuntimeError(f"{call}() before reset(): call reset() (or "
                               "reset(seed=S)) first to deal a game")

    def _seat(self, agent: str) -> int:
        """The seat of ``agent``.

        Raises:
            ValueError: not one of :attr:`possible_agents`.
        """
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ValueError(f"no agent {agent!r}: the agents are "
                             f"{', '.join(self.possible_agents)}") from None

    def _finish(self) -> None:
        assert self.state is not None
        scores, winners = self.state.scores(), self.state.winners()
        n = len(self.possible_agents)
        for i, a in enumerate(self.possible_agents):
            if self.reward == "score":
                self.rewards[a] = scores[i]
            else:
                self.rewards[a] = 0 if len(winners) == n else 1 if i in winners else -1
            self.terminations[a] = True
            self.infos[a] = {"scores": list(scores), "winners": list(winners)}

    def _truncate_if_spent(self) -> None:
        """At the game's ``decisions`` or ``total`` limit, end the episode as truncated
        for every agent: zero rewards, ``info["truncated"]`` the engine's message."""
        assert self.state is not None
        why = spent(self.state)
        if why is None:
            return
        for a in self.possible_agents:
            self.rewards[a] = 0
            self.truncations[a] = True
            self.infos[a] = {"truncated": why}

    def indices_of(self, action: Action) -> list[int]:
        """The action indices that take the game's ``action`` (one of
        ``env.state.legal_actions()``, a rulesplay bot's choice) for the agent to act: one,
        or a sequenced decision's cards and its ``done``, to step in order."""
        assert self.chooser is not None
        return self.chooser.indices(action)

    def render(self) -> str | None:
        """The table in words, as an onlooker sees it: the phase, whose turn and what is
        asked, the last decision (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None or self.state is None:
            return None
        s = self.state
        obs = s.observation(None)
        who = "game over" if s.is_terminal() else \
            f"player_{s.current_player()} to decide: {s.seat_prompt(None)}"
        lines = [f"{self.game.title} | {obs['phase']} | {who}"]
        if s.history:
            p, aid = s.public_history(None)[-1]
            lines.append(f"last: player_{p} {aid or 'decided in secret'}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (the game lives in this process)."""
