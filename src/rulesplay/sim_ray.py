"""Simulation on a Ray cluster (``--backend ray``, the ``ray`` extra): the games of
:func:`rulesplay.sim.simulate` run as Ray tasks, batch by batch, on a local Ray instance
or on the cluster at ``--address``.

The ruleset travels as its files' text (the game's bundle, put in Ray's object store once),
so a worker needs rulesplay installed, not the ruleset file. Game ``i`` is seeded from
``(seed, i)`` as everywhere (:func:`~rulesplay.sim.game_seed`), so the results are those of
``--workers N`` for the same seeds, whatever the cluster. Progress is reported as batches
finish; Ctrl-C cancels the tasks not finished and keeps the games that are.

Pointing it at a cluster: start one (``ray start --head`` on one machine, ``ray start
--address HEAD:6379`` on the others, each with ``pip install 'rulesplay[ray]'``), then
``rulesplay simulate FILE -n 100000 --backend ray --address HEAD:6379`` (or ``auto`` on a
machine of the cluster; the ``RAY_ADDRESS`` variable works too).
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable, Mapping
from typing import Any

import ray

from .engine.game import Game, load_bundle
from .sim import GameRecord, game_seed, play_game

__all__ = ["connect", "play_on_ray", "shutdown"]

_GAMES: dict[str, Game] = {}  # per worker process: each game loaded once
_STARTED = False  # this process started the Ray instance it uses


def connect(address: str | None, cpus: int | None) -> int:
    """Join the Ray cluster at ``address``, or start a local instance with ``cpus`` CPUs
    (default: all), unless this process is already connected. No dashboard.

    Returns:
        The CPUs of the cluster (what ``workers`` reports).

    Raises:
        ConnectionError: no cluster answers at ``address`` (Ray's own message).
    """
    global _STARTED
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
            _STARTED = True
    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
    return max(1, int(cpus))


def shutdown() -> None:
    """Stop the local Ray instance this process started (a cluster joined stays up)."""
    global _STARTED
    if _STARTED and ray.is_initialized():
        ray.shutdown()
    _STARTED = False


@ray.remote
def _batch(key: str, loading: tuple[Any, ...], players: int, bots: dict[int, str],
           seed: int, indices: list[int]) -> list[GameRecord]:
    """Play the games ``indices`` of a run in a Ray worker."""
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = load_bundle(*loading)
    return [play_game(game, players, bots, game_seed(seed, i), i) for i in indices]


def play_on_ray(game: Game, n: int, players: int, bots: Mapping[int, str], seed: int,
                cpus: int, loading: tuple[dict[str, Any], str | None, str, dict[str, int]],
                collect: Callable[[list[GameRecord]], int],
                progress: Callable[[int], None] | None) -> None:
    """Play the ``n`` games of a run on Ray, each batch handed to ``collect`` (which
    returns how many games are done; see the module docstring).

    Args:
        game: the loaded game (its bundle is sent).
        cpus: the cluster's CPUs (:func:`connect`): the batches are sized from it.
        loading: options, language, engine and limits the workers load the game with.

    Raises:
        KeyboardInterrupt: Ctrl-C; the games finished were collected.
        RulesError: a game failed (the first one to fail).
    """
    assert game.bundle is not None  # (every loaded game keeps its files' text)
    options, lang, engine, limits = loading
    full = (game.bundle, options, lang, engine, limits)
    key = hashlib.sha256(pickle.dumps(full)).hexdigest()
    ref = ray.put(full)
    size = max(1, min(25, n // (cpus * 8)))
    pending = [_batch.remote(key, ref, players, dict(bots), seed,
                             list(range(i, min(n, i + size))))
               for i in range(0, n, size)]
    finished = 0
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for batch in ray.get(done):
                finished = collect(batch)
            if progress:
                progress(finished)
    except BaseException:
        for task in pending:
            ray.cancel(task, force=True)
        raise
