"""The sampler's short cuts change no sample: the samples and the sampler's counts are those
of the long way.

* It leaves out the exact check of a past play when its per-card exclusions already say all
  the check would (``infoset._by_exclusions``: a play or choice of one card whose test reads
  the other cards one at a time, as following suit does).
* Such a play keeps its exclusions from one layout of its working copy to the next
  (``infoset._keeps``).
* A decision legal whatever the cards (a yes/no) is no record (``Replay.free``).
* The trackers of one game share one replay of it (``replay.replay_for``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rulesplay
from rulesplay.agents import infoset, replay
from rulesplay.agents.infoset import Tracker
from rulesplay.engine.choices import Decision

GAMES = [("bargain_hunter", 4, {"rounds": 1}), ("bargain_hunter", 3, {"rounds": 1}),
         ("classics/whist", 4, {}), ("classics/oh_hell", 5, {}), ("classics/bridge", 4, {})]


def _game(name: str, options: dict[str, Any]) -> rulesplay.Game:
    return rulesplay.load(f"rulesets/{name}.rules", options=options)


def _run(game: rulesplay.Game, players: int, seed: int, decisions: int = 40,
         samples: int = 6) -> tuple[list[Any], dict[str, int]]:
    """Every seat's samples at each of the first ``decisions`` decisions of a random game,
    as (zones, where) of each sample, and the trackers' counts added up."""
    state = game.new_state(players, seed)
    trackers = [Tracker(p) for p in range(players)]
    rng = random.Random(seed)
    out = []
    for _ in range(decisions):
        if state.is_terminal():
            break
        seat = state.current_player()
        info = trackers[seat].infoset(state)
        for _ in range(samples):
            s = info.sample(rng)
            out.append((s.zones, s.where))
        state.apply(rng.choice(state.legal_actions()))
    stats = {k: sum(t.stats[k] for t in trackers) for k in trackers[0].stats}
    return out, stats


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_leaving_out_implied_checks_changes_no_sample(
        name: str, players: int, options: dict[str, Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(name, options)
    told = infoset._by_exclusions
    left_out = []

    def counted(*args: Any) -> bool:
        answer = told(*args)
        left_out.append(answer)
        return answer

    for seed in range(3):
        monkeypatch.setattr(infoset, "_by_exclusions", counted)
        fast = _run(game, players, seed)
        monkeypatch.setattr(infoset, "_by_exclusions", lambda *args: False)
        assert _run(game, players, seed) == fast
    assert any(left_out)  # (the games do leave checks out)


@pytest.mark.parametrize(("name", "players", "options"), GAMES[:3])
def test_keeping_exclusions_and_sharing_the_replay_change_no_sample(
        name: str, players: int, options: dict[str, Any],
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = _game(name, options)
    kept, free, shared = infoset._keeps, replay.Replay.free, infoset.replay_for
    keeps, frees, replays = [], [], set()

    def keeping(*args: Any) -> bool:
        keeps.append(kept(*args))
        return keeps[-1]

    def freeing(*args: Any) -> bool:
        frees.append(free(*args))
        return frees[-1]

    def sharing(state: Any) -> replay.Replay:
        replays.add(id(shared(state)))
        return shared(state)

    for seed in range(2):
        monkeypatch.setattr(infoset, "_keeps", keeping)
        monkeypatch.setattr(replay.Replay, "free", freeing)
        monkeypatch.setattr(infoset, "replay_for", sharing)
        fast = _run(game, players, seed)
        monkeypatch.setattr(infoset, "_keeps", lambda *args: False)
        monkeypatch.setattr(replay.Replay, "free", lambda *args: False)
        monkeypatch.setattr(infoset, "replay_for",  # (a replay of its own for each tracker)
                            lambda state: replay.Replay(game.new_state(
                                players, state.seed, record_events=True), True))
        assert _run(game, players, seed) == fast
    assert any(keeps) and len(replays) == 2  # (each game: one replay for all its trackers)
    if name == "bargain_hunter":
        assert any(frees)  # (declaring trump is legal whatever the cards)


def test_a_replay_is_shared_only_while_the_games_agree() -> None:
    """Two games from one seed that part ways: each tracker follows its own game, and
    samples as a tracker that never shared would."""
    game = _game("bargain_hunter", {"rounds": 1})
    states = [game.new_state(4, 5), game.new_state(4, 5)]
    trackers = [Tracker(p) for p in range(4)], [Tracker(p) for p in range(4)]
    alone = [Tracker(p) for p in range(4)], [Tracker(p) for p in range(4)]
    rng = random.Random(1)
    for i in range(30):
        for g, state in enumerate(states):
            seat = state.current_player()
            replay._shared.clear()
            single = alone[g][seat].infoset(state).sample(random.Random(i))
            replay._shared.clear()
            alone[g][seat].replay = None  # (the next sync replays it again, alone)
            info = trackers[g][seat].infoset(state)
            assert info.sample(random.Random(i)).zones == single.zones
            legal = state.legal_actions()
            state.apply(legal[0] if g == 0 or len(legal) == 1 else rng.choice(legal[1:]))
    assert states[0].history != states[1].history


@pytest.mark.parametrize(("name", "players", "options"), GAMES[::2])
def test_every_check_left_out_would_pass(name: str, players: int, options: dict[str, Any],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    told, check = infoset._by_exclusions, infoset.InfoSet._check
    implied: set[int] = set()
    passed = []

    def noted(rec: Any, *args: Any) -> bool:  # checks all, noting the ones it may leave out
        if told(rec, *args):
            implied.add(id(rec))
        return False

    def checked(self: Any, rec: Any, zones: list[int], deal: dict[int, list[int]]) -> bool:
        ok = check(self, rec, zones, deal)
        if id(rec) in implied:
            passed.append(ok)
        return ok

    monkeypatch.setattr(infoset, "_by_exclusions", noted)
    monkeypatch.setattr(infoset.InfoSet, "_check", checked)
    game = _game(name, options)
    for seed in range(2):
        _run(game, players, seed)
    assert passed and all(passed)


# Each hand must hold at most one card of the lead colour besides the one played: a test of
# the cards together, so a deal that keeps each excluded card out may still break it.
TOGETHER = '''
game "Together"
players 3..3
enum colour: red, blue, green
card c:
    colour: colour
    n: 1..8
zone deck: shared, hidden
zone hand: per player, owner
zone table: shared, public
trick var lead: colour
phase play:
    shuffle deck
    deal 8 from deck to hand starting with 0
    repeat 8 times:
        trick in table led by 0:
            each player plays card from hand[player]
                where lead == none or card.colour == lead
                      or count(hand[player] where it.colour == lead) < 2
            after play:
                if lead == none:
                    lead = card.colour
            won by highest (it.colour == lead, it.n)
            after trick:
                move table to deck
    next end
score: 0
'''


def test_a_test_of_the_cards_together_is_checked() -> None:
    game = rulesplay.loads(TOGETHER)
    assert game.program(3).nodes[_play(game)].per_card is None
    stats: dict[str, int] = {}
    for seed in range(6):
        stats = {k: stats.get(k, 0) + v for k, v in _run(game, 3, seed, 20)[1].items()}
    assert stats["rejected"] > 0  # (the exact checks refuse deals the exclusions allow)


def _play(game: rulesplay.Game) -> int:
    return next(node.index for node in game.program(3).nodes
                if isinstance(node, Decision) and node.name == "play")


def test_which_decisions_test_each_card_alone() -> None:
    def marked(name: str, players: int) -> dict[str, bool]:
        prog = rulesplay.load(f"rulesets/{name}.rules").program(players)
        return {node.name: node.per_card is not None for node in prog.nodes
                if isinstance(node, Decision)}

    # Following suit (not any card of the lead colour in the hand) and a kind test do;
    # a play that must beat the top card of the table, a choice of values or of a yes/no
    # do not.
    assert marked("bargain_hunter", 4) == {"pick": True, "play": True, "declare_trump": False,
                                           "order": False, "clean": False}
    assert marked("card_hunt", 4)["play"] is False
    assert marked("classics/whist", 4)["play"] is True
    assert marked("classics/hearts", 4)["play"] is False  # (count(taken) reads a zone)


def test_games_on_threads_that_share_replays_play_as_they_do_alone() -> None:
    """Bots of games from the same seed on threads (a web server's pool) share replays
    while the games agree; each game plays exactly as it does alone."""
    import threading

    from rulesplay.agents import make_agent

    game = _game("bargain_hunter", {"rounds": 1})

    def play(seed: int, out: dict[int, Any], key: int) -> None:
        s = game.new_state(4, seed)
        agents = [make_agent("greedy:samples=1" if p % 2 else "random", p, key)
                  for p in range(4)]
        while not s.is_terminal():
            s.apply(agents[s.current_player()].step(s))
        out[key] = s.history

    alone: dict[int, Any] = {}
    for key in range(4):
        replay._shared.clear()
        play(5 + key % 2, alone, key)
    together: dict[int, Any] = {}
    threads = [threading.Thread(target=play, args=(5 + key % 2, together, key))
               for key in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert together == alone


# Seat 0 secretly names a suit, then must play that suit if it can.
SECRET_SUIT = '''
game "Secret suit"
players 3
enum suit: clubs, diamonds, hearts, spades
card card:
    suit: suit
    rank: 1..6
zone deck: shared, hidden
zone hand: per player, owner
zone table: shared, public
phase play:
    shuffle deck
    deal 6 from deck to hand starting with 0
    repeat 3 times:
        for each player p:
            p secretly chooses x from suit "name a suit"
            p chooses c from hand[p] where c.suit == x or not any(hand[p], it.suit == x)
                "play"
            move c to table
    next end
score: 0
'''


@pytest.mark.parametrize("source", ["secret", "classics/hearts", "bargain_quest"])
def test_a_tracker_that_joins_a_replay_others_have_moved_on_samples_as_alone(
        source: str) -> None:
    """A tracker made mid-game (a resumed game's bots, OpenSpiel's lazy trackers) joined a
    shared replay other trackers had moved on, and its records were told of decisions made
    after them: a secret choice's value leaked into its samples (a named suit never
    sampled in the hand that did not follow it)."""
    game = rulesplay.loads(SECRET_SUIT) if source == "secret" else _game(source, {})
    players = 3
    for seed in range(3):
        state = game.new_state(players, seed)
        rng = random.Random(seed)
        if source == "secret":  # seat 0 names a suit it has none of, plays; seat 1 names
            prog = state.program
            hand = {prog.card_attrs[c]["suit"] for c in state.zones[state._zone("hand", 0)]}
            legal = state.legal_actions()
            state.apply(next((a for a in legal if a.id[2:] not in hand), legal[0]))
            state.apply(state.legal_actions()[0])
            state.apply(state.legal_actions()[0])
        else:
            for _ in range(4 + seed):
                state.apply(rng.choice(state.legal_actions()))
        replay._shared.clear()
        alone = Tracker(1).infoset(state)
        replay._shared.clear()
        Tracker(0).infoset(state)  # (moves the shared replay on first)
        joined = Tracker(1).infoset(state)
        for k in range(20):
            assert joined.sample(random.Random(k)).zones == alone.sample(random.Random(k)).zones
