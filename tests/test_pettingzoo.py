"""The PettingZoo adapter (:mod:`rulesplay.adapters.pettingzoo`) passes PettingZoo's own
``api_test`` and ``seed_test`` for every shipped ruleset (short options where a game is
long), ends a game with the rewards its winners earn, and drives rulesplay bots (the
example in ``examples/``)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import ROOT, RULESETS, load_game

pytest.importorskip("pettingzoo", reason="the 'pettingzoo' extra is not installed "
                    "(pip install -e '.[pettingzoo]')")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from rulesplay.adapters.pettingzoo import RulesplayEnv, env  # noqa: E402

# Options that make a game short (a whole game within the cycles the tests play).
SHORT: dict[str, dict[str, Any]] = {
    "bargain_bin": {"game_points_to_win": 1}, "bargain_hunter": {"rounds": 1},
    "bridge": {"boards": 1}, "crazy_eights": {"target": 1}, "euchre": {"target": 1},
    "hearts": {"target": 1}, "oh_hell": {"max_cards": 2}, "president": {"hands": 1},
    "spades": {"target": 100}, "whist": {"game_points": 1}}
CYCLES = 60  # cycles of api_test and seed_test (about 2 s per ruleset, at most)


def _short(path: Path) -> dict[str, Any]:
    """The short options of ``path``'s base game that the ruleset has."""
    names = {o.name for o in load_game(path).ruleset.options}
    for base, opts in SHORT.items():
        if path.stem.startswith(base):
            return {k: v for k, v in opts.items() if k in names}
    return {}


RULESET_FILES = sorted(RULESETS.glob("**/*.rules"))


# PettingZoo's api_test warns that an observation is a dict, as every environment with an
# action mask has it (its own classic games are exempt by name): the documented form.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"
                            ":UserWarning")
@pytest.mark.parametrize("path", RULESET_FILES,
                         ids=[str(p.relative_to(RULESETS)) for p in RULESET_FILES])
def test_pettingzoo_api_and_seed_tests(path: Path) -> None:
    opts = _short(path)
    api_test(env(str(path), options=opts, render_mode="ansi"), num_cycles=CYCLES)
    seed_test(lambda: env(str(path), options=opts), num_cycles=CYCLES)


def _play_out(e: RulesplayEnv, seed: int) -> dict[str, float]:
    """A whole random game; each agent's summed rewards."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize(("name", "players"), [("hearts", 4), ("euchre", 4)])
def test_a_whole_game_ends_with_the_winners_rewarded(name: str, players: int) -> None:
    path = RULESETS / "classics" / f"{name}.rules"
    e = env(str(path), players=players, options=SHORT[name])
    totals = _play_out(e, seed=3)
    assert e.agents == [] and e.state is not None and e.state.is_terminal()
    winners = e.state.winners()
    assert totals == {f"player_{i}": (1.0 if i in winners else -1.0) for i in range(players)}
    scored = env(str(path), players=players, options=SHORT[name], reward="score")
    totals = _play_out(scored, seed=3)  # the same game: the same seed and random choices
    assert totals == {f"player_{i}": float(s) for i, s in enumerate(e.state.scores())}


def test_reset_with_a_seed_deals_as_run_does() -> None:
    path = str(RULESETS / "classics" / "whist.rules")
    e = env(path, players=4)
    e.reset(seed=11)
    assert e.state is not None
    assert e.state.to_json() == load_game(path).new_state(num_players=4, seed=11).to_json()
    e.reset()
    first = e.state.to_json()
    e.reset(seed=11)
    e.reset()
    assert e.state.to_json() == first  # the next seed follows from the last one given


def test_bad_arguments_are_refused_in_words() -> None:
    path = str(RULESETS / "classics" / "whist.rules")
    with pytest.raises(ValueError, match="render_mode 'rgb': use None, 'ansi' or 'human'"):
        env(path, render_mode="rgb")
    with pytest.raises(ValueError, match="reward 'money': use 'win' or 'score'"):
        env(path, reward="money")


def test_the_example_plays_random_and_rulesplay_bots() -> None:
    spec = importlib.util.spec_from_file_location(
        "pettingzoo_play", ROOT / "examples" / "pettingzoo_play.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["pettingzoo_play"] = module
    spec.loader.exec_module(module)
    path = str(RULESETS / "classics" / "hearts.rules")  # its pass is chosen card by card
    results = module.play(path, players=4, games=1, bot="random", options={"target": 1})
    assert len(results) == 1 and sorted(results[0].values()).count(1.0) >= 1


def test_the_docs_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    [block] = [b for b in re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)
               if "agent_iter" in b]
    monkeypatch.chdir(ROOT)
    scope: dict[str, Any] = {}
    exec(compile(block, "docs/adapters.md", "exec"), scope)  # (the docs of this repository)
    e = scope["e"]
    assert e.agents == [] and e.state.is_terminal()  # played to the end


ENDLESS = ROOT / "tests" / "pettingzoo" / "endless.rules"


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"
                            ":UserWarning")
def test_a_game_at_its_decision_limit_is_truncated() -> None:
    """A game that never ends (``limit decisions 12``) ends the episode as truncated for
    every agent, zero rewards and the limit's message in ``info``; PettingZoo's own tests
    pass on it."""
    e = env(str(ENDLESS))
    totals = _play_out(e, seed=2)
    assert e.agents == [] and totals == {"player_0": 0.0, "player_1": 0.0}
    assert e.state is not None and not e.state.is_terminal() and e.state.decisions == 12
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert all("12 decisions" in info["truncated"] for info in e.infos.values())
    api_test(env(str(ENDLESS)), num_cycles=40)
    seed_test(lambda: env(str(ENDLESS)), num_cycles=40)


def test_misuse_is_refused_in_words() -> None:
    e = env(str(ENDLESS))
    for call in (lambda: e.step(0), lambda: e.observe("player_0"), lambda: e.last(),
                 lambda: e.agent_iter()):
        with pytest.raises(RuntimeError, match=r"before reset\(\): call reset\(\)"):
            call()
    e.reset(seed=1)
    with pytest.raises(ValueError, match="no agent 'bob': the agents are player_0, player_1"):
        e.observe("bob")
    with pytest.raises(ValueError, match="no agent 'bob'"):
        e.action_space("bob")
    with pytest.raises(ValueError, match=r"action 9 is not an action of this game \(indices "
                       r"run 0 to 3\); legal now: \d \(c:\d\), \d \(c:\d\)$"):
        e.step(9)
    with pytest.raises(ValueError, match="player_0 is still playing: None is for an agent"):
        e.step(None)
    _play_out(e, seed=1)
    with pytest.raises(RuntimeError, match="every agent is done: call reset"):
        e.step(0)
