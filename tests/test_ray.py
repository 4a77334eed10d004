"""``--backend ray`` (:mod:`rulesplay.sim_ray`): the same seeded games on a local Ray
instance (2 CPUs, no dashboard) give the results of local workers, for ``simulate``,
``compare`` and ``sweep``; Ctrl-C keeps the games finished; the arguments are checked."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import BARGAIN_HUNTER, RULESETS

from rulesplay.cli import main
from rulesplay.sim import GameRecord, Interrupted, compare, simulate
from rulesplay.sweep import run_sweep

ray = pytest.importorskip("ray", reason="the 'ray' extra is not installed "
                          "(pip install -e '.[ray]')")
from rulesplay import sim_cli, sim_ray  # noqa: E402

BH = str(BARGAIN_HUNTER)
QUICK = str(RULESETS / "variants" / "bargain_hunter_quick.rules")


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    """One local Ray instance for the module (starting one takes seconds), started here:
    a run that finds it running uses it and leaves it up."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    assert sim_ray.connect(None, None) == 2
    yield
    ray.shutdown()


def _games(games: list[GameRecord]) -> list[tuple[Any, ...]]:
    """Each game's record but its time."""
    return [(g.index, g.seed, g.scores, g.winners, g.decisions, g.tricks, g.rounds, g.first,
             g.outcome) for g in games]


def test_simulate_on_ray_gives_the_results_of_local_workers() -> None:
    local = simulate(BH, 300, 4, {"rounds": 1}, seed=9, workers=2)
    ray = simulate(BH, 300, 4, {"rounds": 1}, seed=9, backend="ray")
    assert ray.workers == 2 and ray.n == 300
    assert _games(ray.games) == _games(local.games)
    timeless = ("wall_seconds", "games_per_second", "seconds_per_game", "workers")
    assert {k: v for k, v in ray.summary().items() if k not in timeless} == \
        {k: v for k, v in local.summary().items() if k not in timeless}


def test_compare_and_sweep_on_ray_give_the_local_numbers() -> None:
    local = compare(BH, QUICK, 60, 4, seed=2, workers=2)
    ray = compare(BH, QUICK, 60, 4, seed=2, backend="ray")
    assert [(x.key, x.base, x.variant, x.low, x.high) for x in ray.lines] == \
        [(x.key, x.base, x.variant, x.low, x.high) for x in local.lines]
    grid = {"rounds": [1, 2], "hand_size": [6, 8]}
    assert run_sweep(BH, grid, 20, 3, seed=4, backend="ray").rows() == \
        run_sweep(BH, grid, 20, 3, seed=4, workers=2).rows()


def test_ctrl_c_keeps_the_games_finished() -> None:
    def stop(done: int) -> None:
        if done >= 10:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as exc:
        simulate(BH, 200, 4, {"rounds": 1}, seed=9, backend="ray", progress=stop)
    partial = exc.value.partial
    assert partial is not None and 10 <= partial.n < 200
    local = simulate(BH, 200, 4, {"rounds": 1}, seed=9, workers=1)
    by_index = {g.index: g for g in local.games}
    assert _games(partial.games) == _games([by_index[g.index] for g in partial.games])


def test_ctrl_c_cancels_without_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tasks left are cancelled gently: ``force=True`` kills workers while their
    replies come in, which crashed the process in Ray's C++ core (about 1 Ctrl-C in 3)."""
    calls: list[dict[str, Any]] = []
    real = ray.cancel

    def cancel(ref: Any, **kwargs: Any) -> None:
        calls.append(kwargs)
        real(ref, **kwargs)

    monkeypatch.setattr(ray, "cancel", cancel)

    def stop(done: int) -> None:
        if done >= 5:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted):
        simulate(BH, 400, 4, {"rounds": 1}, seed=3, backend="ray", progress=stop)
    assert calls and not any(c.get("force") for c in calls)


@pytest.mark.parametrize("command", [["simulate", BH], ["compare", BH, QUICK],
                                     ["sweep", BH, "--option", "rounds=1,2"]])
def test_ctrl_c_while_ray_starts_stops_as_locally(monkeypatch: pytest.MonkeyPatch,
                                                 command: list[str]) -> None:
    """Starting Ray takes seconds, so Ctrl-C often comes first: the run says it stopped
    and exits 130 (as the local workers do), no 'Aborted!' and no traceback."""
    def starting(address: str | None, cpus: int | None) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(sim_ray, "connect", starting)
    res = CliRunner().invoke(main, [*command, "-n", "4", "--backend", "ray"])
    assert res.exit_code == 130, res.output
    assert "Stopped" in res.output and "Aborted" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)


def test_the_command_runs_on_ray() -> None:
    res = CliRunner().invoke(main, ["simulate", BH, "-n", "20", "--players", "4", "--option",
                                    "rounds=1", "--backend", "ray", "--json"])
    assert res.exit_code == 0, res.output
    assert '"games": 20' in res.stdout
    assert ray.is_initialized()  # (not the run's instance: left up)


@pytest.mark.parametrize(("args", "message"), [
    (["--address", "auto"], "--address is for --backend ray"),
    (["--backend", "ray", "--address", "auto", "--workers", "2"],
     "the cluster at --address uses the CPUs it has"),
    (["--backend", "spark"], "'spark' is not one of 'local', 'ray'"),
])
def test_bad_backend_arguments_are_refused(args: list[str], message: str) -> None:
    for command in (["simulate", BH], ["compare", BH, QUICK],
                    ["sweep", BH, "--option", "rounds=1,2"]):
        res = CliRunner().invoke(main, [*command, "-n", "2", *args])
        assert res.exit_code == 2 and message in res.output, (command, res.output)


def _unused_port() -> int:
    """A local port nothing listens at (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_dead_address_is_refused_within_seconds() -> None:
    """Nothing listens at the address: a usage error naming it (Ray alone retries for
    minutes), before any game (the module's local instance is not used instead)."""
    address = f"127.0.0.1:{_unused_port()}"
    for command in (["simulate", BH], ["sweep", BH, "--option", "rounds=1,2"]):
        res = CliRunner().invoke(main, [*command, "-n", "2", "--backend", "ray",
                                        "--address", address])
        assert res.exit_code == 2, res.output
        assert f"no Ray cluster answers at {address}" in res.output
        assert "Traceback" not in res.output
    res = CliRunner().invoke(main, ["simulate", BH, "-n", "2", "--backend", "ray",
                                    "--address", "head-node"])
    assert res.exit_code == 2 and "give the cluster's HOST:PORT" in res.output
    with pytest.raises(ConnectionError, match=f"answers at {address}"):
        sim_ray.check_address(address, timeout=2)


def test_a_dead_ray_address_variable_is_refused_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """RAY_ADDRESS, which Ray joins when no --address is given, skipped the quick check: a
    dead one had Ray retry for minutes. It is checked and named like --address."""
    address = f"127.0.0.1:{_unused_port()}"
    monkeypatch.setenv("RAY_ADDRESS", address)
    res = CliRunner().invoke(main, ["simulate", BH, "-n", "2", "--backend", "ray"])
    assert res.exit_code == 2, res.output
    assert f"RAY_ADDRESS: no Ray cluster answers at {address}" in res.output
    res = CliRunner().invoke(main, ["simulate", BH, "-n", "2", "--backend", "ray",
                                    "--workers", "2"])
    assert res.exit_code == 2 and "unset RAY_ADDRESS" in res.output
    monkeypatch.setenv("RAY_ADDRESS", "head-node")
    res = CliRunner().invoke(main, ["simulate", BH, "-n", "2", "--backend", "ray"])
    assert res.exit_code == 2 and "RAY_ADDRESS 'head-node': give the cluster's" in res.output
    # 'local' asks Ray to start an instance here: no cluster to check, --workers sets it
    monkeypatch.setenv("RAY_ADDRESS", "local")
    sim_cli.check_backend("ray", None, 2)
