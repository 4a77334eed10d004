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
import socket
from collections.abc import Callable, Mapping
from typing import Any

import ray

from .engine.game import Game, load_bundle
from .sim import GameRecord, game_seed, play_game

__all__ = ["CONNECT_TIMEOUT", "cancel", "check_address", "connect", "play_on_ray", "shutdown"]

CONNECT_TIMEOUT = 5.0  # seconds to wait for a cluster's address to answer before giving up

_GAMES: dict[str, Game] = {}  # per worker process: each game loaded once
_STARTED = False  # this process started the Ray instance it uses


def check_address(address: str, timeout: float = CONNECT_TIMEOUT,
                  name: str = "--address") -> None:
    """Refuse, within ``timeout`` seconds, a cluster address nothing answers at (Ray
    itself would retry for minutes). ``auto`` (Ray finds the cluster of this machine, or
    says quickly that there is none) is not checked.

    Args:
        address: ``HOST:PORT``, ``ray://HOST:PORT`` or ``auto``.
        timeout: seconds to wait for the address to accept a connection.
        name: where the address was given, for the message (``RAY_ADDRESS``).

    Raises:
        ValueError: ``address`` is not ``HOST:PORT`` or ``auto``.
        ConnectionError: nothing accepts a connection at ``address`` within ``timeout``;
            the message names the address.
    """
    if address == "auto":
        return
    host, sep, port = address.split("://", 1)[-1].rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"{name} {address!r}: give the cluster's HOST:PORT "
                         "(such as 10.0.0.5:6379) or 'auto'")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        why = f"no answer within {timeout:g} s" if isinstance(exc, TimeoutError) else \
            (exc.strerror or str(exc)).lower()
        raise ConnectionError(
            f"no Ray cluster answers at {address} ({why}): start one there with "
            "'ray start --head', or check the address") from None


def connect(address: str | None, cpus: int | None) -> int:
    """Join the Ray cluster at ``address``, or start a local instance with ``cpus`` CPUs
    (default: all), unless this process is already connected. No dashboard.

    Returns:
        The CPUs of the cluster (what ``workers`` reports).

    Raises:
        ValueError: ``address`` is not ``HOST:PORT`` or ``auto``.
        ConnectionError: no cluster answers at ``address`` within
            :data:`CONNECT_TIMEOUT` seconds (:func:`check_address`), or Ray's own
            message for one that answers but is no Ray cluster.
    """
    global _STARTED
    if not ray.is_initialized():
        if address:
            check_address(address)
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
        cancel(pending)
        raise


def cancel(tasks: list[Any]) -> None:
    """Ask Ray to drop ``tasks`` (object refs of tasks not finished): a task not started
    never runs, a running one is interrupted inside its worker. Not ``force=True``,
    which kills the workers and can crash this process in Ray's C++ core while replies
    are still coming in (and the results with it). A task Ray cannot cancel (finished
    meanwhile, or the cluster gone) is left alone."""
    for task in tasks:
        try:
            ray.cancel(task)
        except Exception:  # noqa: BLE001, S112  (nothing to drop: the run stops anyway)
            continue
