"""The OpenSpiel adapter (:mod:`rulesplay.adapters.openspiel`, issue 16 item 2): every shipped
ruleset passes OpenSpiel's own ``random_sim_test`` with chance drawn inside the game and with
chance explicit; explicit chance given the seeded generator's draws plays the seed's game in
both engines; states serialize as saves; CFR+ solves a Kuhn-sized trick game written for it
(``tests/openspiel/kuhn_trick.rules``) to Kuhn poker's known value; OpenSpiel's MCTS and
IS-MCTS bots play a shipped game, IS-MCTS resampling through the determinisation sampler.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import ROOT, RULESETS

pyspiel = pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed "
                              "(pip install -e '.[openspiel]')")
import numpy as np  # noqa: E402

import rulesplay  # noqa: E402
from rulesplay.adapters import chance  # noqa: E402
from rulesplay.adapters.openspiel import (  # noqa: E402
    RulesplayState,
    parse_options,
    shipped_game_names,
)
from rulesplay.encode.tensor import Spaces  # noqa: E402
from rulesplay.engine.state import State  # noqa: E402

KUHN = ROOT / "tests" / "openspiel" / "kuhn_trick.rules"
# Options that make a game short (one hand or round: a whole game in a fraction of a second).
SHORT: dict[str, dict[str, Any]] = {
    "bargain_bin": {"game_points_to_win": 1}, "bargain_hunter": {"rounds": 1},
    "bridge": {"boards": 1}, "crazy_eights": {"target": 1}, "euchre": {"target": 1},
    "hearts": {"target": 1}, "oh_hell": {"max_cards": 2}, "president": {"hands": 1},
    "spades": {"target": 100}, "whist": {"game_points": 1}}
NAMES = shipped_game_names()


def _options(name: str) -> str:
    """The short options of shipped game ``name`` as the ``options`` parameter's text."""
    have = {o.name for o in rulesplay.load(name).ruleset.options}
    last = name.rsplit("/", 1)[-1]
    for base, opts in SHORT.items():
        if last.startswith(base):
            return ";".join(f"{k}:{v}" for k, v in opts.items() if k in have)
    return ""


def _load(short: str, **params: Any) -> Any:
    return pyspiel.load_game(short, {"options": _options(NAMES[short]), **params})


def _round_trip(game: Any, state: Any) -> None:
    """``serialize``/``deserialize_state`` give back the same state (its text, history,
    legal actions, and the engine's save)."""
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state) and back.history() == state.history()
    assert back.legal_actions() == state.legal_actions()
    if not state.is_chance_node():
        assert back.core.state.to_json() == state.core.state.to_json()


@pytest.mark.parametrize("short", sorted(NAMES))
def test_random_sim_test_passes_for_every_shipped_ruleset(short: str) -> None:
    # Chance explicit: OpenSpiel's own test, with its serialization checks.
    explicit = _load(short, explicit_chance=True)
    assert explicit.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(explicit, num_sims=1, serialize=True, verbose=False)
    # Chance inside the game (OpenSpiel serializes a sampled game with its generator, which a
    # Python game cannot give): the test without it, then our own round trips.
    sampled = _load(short)
    assert sampled.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(sampled, num_sims=1, serialize=False, verbose=False)
    state, rng = sampled.new_initial_state(), random.Random(short)
    for step in range(40):
        if state.is_terminal():
            break
        if step % 8 == 0:
            _round_trip(sampled, state)
        state.apply_action(rng.choice(state.legal_actions()))
    _round_trip(sampled, state)


@pytest.mark.parametrize("short", ["rulesplay_hearts", "rulesplay_bargain_quest"])
def test_random_sim_test_with_the_frame_interpreter(short: str) -> None:
    for explicit in (True, False):
        game = _load(short, engine="interpret", explicit_chance=explicit)
        pyspiel.random_sim_test(game, num_sims=1, serialize=explicit, verbose=False)


# ------------------------------------------------------------ explicit chance
CHANCE_GAMES = [("classics/hearts", {"target": 1}, 4), ("bargain_hunter", {"rounds": 1}, 3),
                ("bargain_quest", {}, 2), ("classics/crazy_eights", {"target": 1}, 3),
                ("bargain_bin", {"game_points_to_win": 1}, 4)]


def _recorded(game: rulesplay.Game, players: int, seed: int) -> tuple[State, list[str],
                                                                        list[int]]:
    """A random game played by ``random.Random(seed)``: its end, its decisions and the
    outcomes of its draws of more than one outcome."""
    rec = chance.Recorder(seed)
    ref = State.new(game.program(players), seed, True, rng=rec)
    pick, acts = random.Random(seed), []
    while not ref.is_terminal():
        aid = pick.choice(ref.legal_actions()).id
        acts.append(aid)
        ref.apply(aid)
    return ref, acts, rec.outcomes()


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
@pytest.mark.parametrize(("name", "options", "players"), CHANCE_GAMES,
                         ids=[g[0] for g in CHANCE_GAMES])
def test_explicit_chance_given_the_generators_draws_plays_the_seeds_game(
        name: str, options: dict[str, Any], players: int, engine: str) -> None:
    game = rulesplay.load(name, options, engine=engine)
    ref, acts, outcomes = _recorded(game, players, seed=5)
    plain = game.new_state(players, seed=5, record_events=True)  # the generator unrecorded
    for aid in acts:
        plain.apply(aid)
    assert plain.to_json() == ref.to_json()  # recording changes no draw
    assert len(outcomes) >= 40  # (a shuffle at least)
    given = iter(outcomes)

    def drawn(s: State | chance.Pending) -> State:
        while isinstance(s, chance.Pending):
            s = s.give(next(given))
        return s

    s = drawn(chance.start(game.program(players), 5, True))
    for aid in acts:
        s = drawn(chance.apply(s, aid))
    assert next(given, None) is None  # every outcome was asked for, none more
    assert s.history == ref.history and s.events == ref.events
    assert s.scores() == ref.scores() and s.winners() == ref.winners()
    assert s.zones == ref.zones


def test_explicit_chance_through_openspiel_plays_the_seeds_game() -> None:
    """Hearts (its pass chosen card by card) through ``pyspiel``: chance actions are the
    generator's outcomes, decisions the adapter's indices of the same actions."""
    game = rulesplay.load("classics/hearts", {"target": 1})
    ref, acts, outcomes = _recorded(game, 4, seed=8)
    osg = pyspiel.load_game("rulesplay_hearts", {"explicit_chance": True,
                                                  "options": "target:1"})
    state, given = osg.new_initial_state(), iter(outcomes)
    spaces = Spaces(game, 4)
    chance_nodes = 0
    for aid in [*acts, None]:
        while state.is_chance_node():
            k = next(given)
            assert k < len(state.chance_outcomes())
            state.apply_action(k)
            chance_nodes += 1
        if aid is None:
            break
        s = state.core.state
        action = next(a for a in s.legal_actions() if a.id == aid)
        seq = spaces.actions.sequenced
        picks = [spaces.actions.index_of(f"{s.decision_name()}:+{s.program.card_ids[c]}")
                 for c in action.value] + [spaces.actions.index_of(
                     f"{s.decision_name()}:done")] if s.decision_name() in seq \
            else [spaces.actions.index_of(aid)]
        for index in picks:
            assert index in state.legal_actions()
            state.apply_action(index)
    assert state.is_terminal() and chance_nodes == len(outcomes)
    assert state.core.state.history == ref.history
    assert state.returns() == [1.0 if i in ref.winners() else -1.0 for i in range(4)]


def test_chance_nodes_list_uniform_outcomes_and_refuse_others() -> None:
    game = pyspiel.load_game("rulesplay_whist", {"explicit_chance": True})
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert [k for k, _ in outcomes] == list(range(52))  # the shuffle's first draw
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(3)
    assert len(state.chance_outcomes()) == 51
    with pytest.raises(ValueError, match="chance outcome 51 is not one of 0..50"):
        state.apply_action(51)
    _round_trip(game, state)  # a pending step survives a round trip


def test_serialize_game_and_state_round_trips_at_chance_and_decisions() -> None:
    game = pyspiel.load_game("rulesplay_euchre", {"explicit_chance": True,
                                                  "options": "target:1"})
    state, rng = game.new_initial_state(), random.Random(2)
    texts = []
    while not state.is_terminal():
        text = pyspiel.serialize_game_and_state(game, state)
        again, back = pyspiel.deserialize_game_and_state(text)
        assert str(again) == str(game) and str(back) == str(state)
        assert back.history() == state.history()
        texts.append(text)
        actions = [k for k, _ in state.chance_outcomes()] if state.is_chance_node() \
            else state.legal_actions()
        state.apply_action(rng.choice(actions))
    assert "__dict__=" in texts[-1] and len(texts) > 30


# ------------------------------------------------------------ views and rewards
def test_tensors_and_strings_are_the_seats_views() -> None:
    game = _load("rulesplay_hearts")
    spaces = game.spaces
    state = game.new_initial_state()
    s = state.core.state
    for seat in range(4):
        obs = np.array(state.observation_tensor(seat), dtype=np.float32)
        assert np.array_equal(obs, spaces.observe(s, seat))
        info = np.array(state.information_state_tensor(seat), dtype=np.float32)
        assert info.shape == (spaces.obs_size + 2 * (1024 + 1),)
        assert np.array_equal(info[:spaces.obs_size], obs)
        assert info[spaces.obs_size] == 1  # one token recorded: its view of the deal
    assert game.observation_tensor_shape() == [spaces.obs_size]
    mine = state.core.state.zone_cards("hand", 0)
    text = state.information_state_string(0)
    assert all(f'"{c}"' in text for c in mine)
    assert not any(f'"{c}"' in state.information_state_string(1) for c in mine)
    # The pass, card by card: the seat's own selection is in its view only.
    first = state.legal_actions()[0]
    state.apply_action(first)
    assert state.current_player() == 0 and "selection" in state.information_state_string(0)
    assert "selection" not in state.information_state_string(1)
    # Perfect recall: after play, the history is in the string (and the record's tokens in
    # the tensor: seat 2 recorded 6 decisions and its views).
    rng = random.Random(1)
    while state.core.state.decision_name() != "play" or len(state.core.state.history) < 6:
        state.apply_action(rng.choice(state.legal_actions()))
    assert "history 0:cards:" in state.information_state_string(0)
    assert "history 0:? " in state.information_state_string(2)  # another seat's pass: unseen
    recall = np.array(state.information_state_tensor(2))[spaces.obs_size:]
    length = int(recall[0])
    assert length >= 6 and recall[1] == 0 and f"recall {length} " in \
        state.information_state_string(2)
    assert recall[2:2 + 2 * length:2].tolist() == [1.0] * length
    ids = recall[3:3 + 2 * length:2]
    assert len(set(ids.tolist())) > 1 and ids.max() < 2 ** 24 and not recall[2 + 2 * length:].any()


RECALL = ROOT / "tests" / "openspiel" / "recall.rules"


def test_cfr_plus_remembers_a_card_shown_then_hidden() -> None:
    """``tests/openspiel/recall.rules``: a card is turned up while seat 1 nods, then put
    back face down, and seat 0 names its rank. With perfect recall seat 0 remembers it (the
    game's value to it is 1); an information state that forgets what is no longer on the
    table leaves it 1/3."""
    from open_spiel.python.algorithms import cfr, expected_game_score

    game = pyspiel.load_game("rulesplay", {"ruleset": str(RECALL), "explicit_chance": True,
                                           "reward": "score"})
    solver = cfr.CFRPlusSolver(game)
    for _ in range(10):
        solver.evaluate_and_update_policy()
    value = expected_game_score.policy_value(game.new_initial_state(),
                                             [solver.average_policy()] * 2)
    assert value[0] > 0.95


def _guess_strings(game: Any) -> set[str]:
    """Seat 0's information state strings at its guess, over every deal."""
    out = set()
    for first in range(3):
        for second in range(2):
            state = game.new_initial_state()
            state.apply_action(first)
            state.apply_action(second)
            state.apply_action(state.legal_actions()[0])  # seat 1 nods
            assert state.current_player() == 0
            out.add(state.information_state_string(0))
    return out


def test_the_information_state_keeps_a_card_shown_then_hidden() -> None:
    game = pyspiel.load_game("rulesplay", {"ruleset": str(RECALL), "explicit_chance": True,
                                           "recall_tokens": 4})
    assert len(_guess_strings(game)) == 3  # one per card shown (the deck's order unseen)
    assert game.information_state_tensor_shape() == [game.spaces.obs_size + 2 * 5]
    # The observation forgets it: one string for every deal.
    state = game.new_initial_state()
    for _ in range(2):
        state.apply_action(0)
    state.apply_action(state.legal_actions()[0])
    assert "recall" not in state.observation_string(0)
    # A record longer than the tensor holds: its length, the flag, its last tokens.
    info = np.array(state.information_state_tensor(0))[game.spaces.obs_size:]
    assert info[0] == 3 and info[1] == 0 and info[2:].tolist()[::2] == [1, 1, 1, 0]
    short = pyspiel.load_game("rulesplay", {"ruleset": str(RECALL), "explicit_chance": True,
                                            "recall_tokens": 2})
    again = short.deserialize_state(state.serialize())
    tail = np.array(again.information_state_tensor(0))[short.spaces.obs_size:]
    assert tail[0] == 3 and tail[1] == 1 and tail[3] == info[5] and tail[5] == info[7]


def test_the_order_of_ones_own_picks_is_recalled() -> None:
    """Hearts' pass, chosen card by card: the same three cards picked in two orders give
    the same observation but two information states (and two tensors)."""
    game = _load("rulesplay_hearts", seed=1)
    start = game.new_initial_state()
    picks = start.legal_actions()[:2]
    states = []
    for order in (picks, picks[::-1]):
        state = start.clone()
        for index in order:
            state.apply_action(index)
        states.append(state)
    a, b = states
    assert a.observation_string(0) != b.observation_string(0)  # its selection in order
    assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_tensor(0) != b.information_state_tensor(0)
    assert a.information_state_string(1) == b.information_state_string(1)  # unseen by 1
    _round_trip(game, a)
    back = game.deserialize_state(a.serialize())
    assert back.information_state_string(0) == a.information_state_string(0)
    assert back.information_state_tensor(0) == a.information_state_tensor(0)


def test_returns_follow_the_winners_or_the_scores() -> None:
    for reward in ("win", "score"):
        game = _load("rulesplay_whist", reward=reward, seed=4)
        state, rng = game.new_initial_state(), random.Random(4)
        while not state.is_terminal():
            assert state.returns() == [0.0] * 4 and state.rewards() == [0.0] * 4
            state.apply_action(rng.choice(state.legal_actions()))
        s = state.core.state
        want = [float(v) for v in s.scores()] if reward == "score" else \
            [1.0 if i in s.winners() else -1.0 for i in range(4)]
        assert state.returns() == want and state.rewards() == want
    assert game.min_utility() < 0 < game.max_utility()


def test_the_seed_parameter_deals_as_run_does() -> None:
    game = _load("rulesplay_whist", seed=11)
    first, second = game.new_initial_state(), game.new_initial_state()
    deal = rulesplay.load("whist").new_state(4, seed=11)
    assert first.core.state.zones == deal.zones
    assert second.core.state.zones == rulesplay.load("whist").new_state(4, seed=12).zones
    clone = first.clone()
    assert str(clone) == str(first)


def test_seed_minus_one_draws_a_seed_and_a_seed_out_of_range_is_refused_at_load() -> None:
    """OpenSpiel's usual seed=-1 ("any seed") was refused, and only when the first state was
    built; it now draws the game's first seed from the operating system."""
    zones = set()
    for _ in range(3):
        game = _load("rulesplay_whist", seed=-1)
        seed = game.seed
        state = game.new_initial_state().core.state
        assert state.zones == rulesplay.load("whist").new_state(4, seed=seed).zones
        assert game.new_initial_state().core.state.seed == seed + 1
        zones.add(str(state.zones))
    assert len(zones) > 1  # (each game object its own seed)
    with pytest.raises(ValueError, match=r"seed -2: give a whole number from 0 to .*or -1"):
        pyspiel.load_game("rulesplay_whist", {"seed": -2})


def test_bad_parameters_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="reward 'money': use 'win' or 'score'"):
        pyspiel.load_game("rulesplay_whist", {"reward": "money"})
    with pytest.raises(ValueError, match="engine 'fast': use compiled or interpret"):
        pyspiel.load_game("rulesplay_whist", {"engine": "fast"})
    with pytest.raises(ValueError, match="'target' is not NAME:VALUE"):
        pyspiel.load_game("rulesplay_hearts", {"options": "target"})
    with pytest.raises(ValueError, match="recall_tokens -1: give 0 to 1048576"):
        pyspiel.load_game("rulesplay_whist", {"recall_tokens": -1})
    with pytest.raises(ValueError, match="needs a 'ruleset'"):
        pyspiel.load_game("rulesplay", {})
    with pytest.raises(rulesplay.RulesError, match="is for 3 to 5 players, not 9"):
        pyspiel.load_game("rulesplay_hearts", {"players": 9})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("rulesplay_hearts", {"colour": 1})
    assert parse_options(" target: 20 ;moon:add;") == {"target": "20", "moon": "add"}


def test_any_ruleset_file_loads_by_path() -> None:
    game = pyspiel.load_game("rulesplay", {"ruleset": str(RULESETS / "card_hunt.rules"),
                                           "players": 3})
    assert game.num_players() == 3 and game.get_type().min_num_players == 2
    assert str(game).startswith("rulesplay(players=3,ruleset=")


def test_the_docs_list_every_registered_name() -> None:
    text = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    for short in NAMES:
        assert f"`{short}`" in text, short
    assert set(NAMES) <= set(pyspiel.registered_names())


# ------------------------------------------------------------ algorithms
def test_cfr_plus_solves_the_kuhn_trick_game() -> None:
    """CFR+ on Kuhn poker written as a trick game: the uniform policy's NashConv is Kuhn
    poker's (11/12), and 50 iterations bring NashConv under 0.01 and the average policy's
    value to seat 0 within 0.002 of Kuhn's -1/18."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    game = pyspiel.load_game("rulesplay", {"ruleset": str(KUHN), "explicit_chance": True,
                                           "reward": "score"})
    uniform = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    assert uniform == pytest.approx(11 / 12)
    solver = cfr.CFRPlusSolver(game)
    for _ in range(50):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    assert exploitability.nash_conv(game, average) < 0.01
    value = expected_game_score.policy_value(game.new_initial_state(), [average, average])
    assert value[0] == pytest.approx(-1 / 18, abs=0.002)
    assert value[0] + value[1] == pytest.approx(0.0)


@pytest.mark.parametrize("explicit", [False, True])
def test_mcts_and_ismcts_play_a_shipped_game(explicit: bool) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = _load("rulesplay_euchre", explicit_chance=explicit, seed=3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1,
                                            random_state=np.random.RandomState(1))
    is_bot = ismcts.ISMCTSBot(game, evaluator, uct_c=1.5, max_simulations=20,
                              random_state=np.random.RandomState(2))
    rng = random.Random(4)
    sampled: list[RulesplayState] = []

    def resample(state: RulesplayState, player: int) -> RulesplayState:
        world = state.resample_from_infostate(player, rng)
        sampled.append(world)
        return world

    is_bot.set_resampler(resample)
    bots = [is_bot, mcts.MCTSBot(game, 1.5, 20, evaluator,
                                 random_state=np.random.RandomState(3)), None, None]
    state, decisions = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([k for k, _ in state.chance_outcomes()]))
            continue
        bot = bots[state.current_player()]
        action = bot.step(state) if bot is not None else rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions >= 15 and sorted(state.returns()) == [-1.0, -1.0, 1.0, 1.0]
    assert len(sampled) >= 20  # IS-MCTS searched worlds from the sampler


def test_resampling_keeps_what_the_seat_knows() -> None:
    game = _load("rulesplay_hearts", seed=6)
    state, rng = game.new_initial_state(), random.Random(6)
    while state.core.state.decision_name() != "play" or len(state.core.state.history) < 8:
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    key = state.information_state_string(seat)
    worlds = [state.resample_from_infostate(seat, rng) for _ in range(10)]
    assert all(w.information_state_string(seat) == key for w in worlds)
    assert all(w.core.state.zone_cards("hand", seat) == state.core.state.zone_cards(
        "hand", seat) for w in worlds)
    other = (seat + 1) % 4
    assert any(sorted(w.core.state.zone_cards("hand", other)) !=
               sorted(state.core.state.zone_cards("hand", other)) for w in worlds)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    assert state.resample_from_infostate(seat, sampler).information_state_string(seat) == key


def test_the_docs_example_of_is_mcts_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    text = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    [block] = [b for b in re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)
               if "ISMCTSBot(" in b]
    monkeypatch.chdir(ROOT)
    scope: dict[str, Any] = {"pyspiel": pyspiel}
    exec(compile(block.replace("max_simulations=100", "max_simulations=10"),
                 "docs/adapters.md", "exec"), scope)  # (the docs of this repository)
    assert scope["state"].current_player() == 1  # (the bot only chose: nothing applied)


# ------------------------------------------------------------ limits and misuse
ENDLESS = ROOT / "tests" / "pettingzoo" / "endless.rules"


@pytest.mark.parametrize("explicit", [False, True])
def test_a_game_at_its_decision_limit_is_terminal_with_zero_returns(explicit: bool) -> None:
    game = pyspiel.load_game("rulesplay", {"ruleset": str(ENDLESS),
                                           "explicit_chance": explicit})
    pyspiel.random_sim_test(game, num_sims=2, serialize=explicit, verbose=False)
    state, rng = game.new_initial_state(), random.Random(1)
    while not state.is_terminal():
        actions = [k for k, _ in state.chance_outcomes()] if state.is_chance_node() \
            else state.legal_actions()
        state.apply_action(rng.choice(actions))
    assert state.core.state.decisions == 12 and not state.core.state.terminal
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [0.0, 0.0] and state.legal_actions() == []
    assert "12 decisions" in str(state.truncation())
    with pytest.raises(ValueError, match="no action is legal now"):
        state.apply_action(0)
    _round_trip(game, state)


def test_misuse_is_refused_in_words() -> None:
    whist, hearts = _load("rulesplay_whist"), _load("rulesplay_hearts")
    state = whist.new_initial_state()
    for junk in ("junk", "", "history=\nmove_number=0\n__dict__=Zm9v"):
        with pytest.raises(ValueError, match="not a serialized rulesplay state|damaged"):
            whist.deserialize_state(junk)
    with pytest.raises(ValueError, match="is of classics/hearts for 4 players with options "
                       "'target:1', not of this game \\(classics/whist for 4 players"):
        whist.deserialize_state(hearts.new_initial_state().serialize())
    for bad in (9999, -1):
        with pytest.raises(ValueError, match=f"action {bad} is not an action of this game "
                           r"\(indices run 0 to 51\); legal now: .* and \d+ more$"):
            state.apply_action(bad)
    with pytest.raises(ValueError, match=r"action 1 \(play:clubs-3\) is not legal now|legal"):
        state.apply_action(next(a for a in range(52) if a not in state.legal_actions()))
    for call in (state.observation_tensor, state.information_state_tensor,
                 state.information_state_string):
        with pytest.raises(ValueError, match="player 9 is not a seat of this game"):
            call(9)
    with pytest.raises(ValueError, match="action 99999 is not an action of this game"):
        state.action_to_string(0, 99999)
    chance = pyspiel.load_game("rulesplay_whist", {"explicit_chance": True})
    with pytest.raises(ValueError, match=r"chance outcome -1 is not one of 0\.\.51"):
        chance.new_initial_state().apply_action(-1)
