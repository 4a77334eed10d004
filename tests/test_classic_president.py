"""President (``rulesets/classics/president.rules``): scenarios from the public rule texts.

Sources: pagat.com, "President" (https://www.pagat.com/climbing/president.html), and
Wikipedia, "President (card game)" (sections Deal, Play, Ranks, Exchange, Variations as the
ruleset's comments cite them). The deals are seeded; each scenario plays at random (a
seeded generator) up to the position it needs, then plays its moves by action id and
checks the legal actions or the outcome against the rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from conftest import RULESETS, load_game
from test_differential import play_both

import rulesplay
from rulesplay import State

PRESIDENT = RULESETS / "classics" / "president.rules"


def _state(players: int, seed: int, **options: Any) -> State:
    return load_game(PRESIDENT, **options).new_state(players, seed, record_events=True)


def _zone(state: State, name: str, seat: int | None = None) -> list[str]:
    prog = state.program
    return [prog.card_ids[c] for c in state.zones[prog.layout.zone_id[name] + (seat or 0)]]


def _ids(state: State) -> list[str]:
    return [a.id for a in state.legal_actions()]


def _var(state: State, name: str) -> Any:
    seen = state.observation(0)
    return seen["player_vars"][name] if name in seen["player_vars"] else seen["vars"][name]


def _cards(action: str) -> list[str]:
    """The cards of a play's id (``play:clubs-3+spades-3``)."""
    return action.split(":", 1)[1].split("+")


def _rank(card: str) -> int:
    return int(card.split("-")[1])


def _plays(state: State) -> list[str]:
    return [i for i in _ids(state) if i.startswith("play:")]


def _until(state: State, rng: random.Random, done: Callable[[State], bool]) -> bool:
    """Plays at random until ``done`` holds (True) or the game ends (False)."""
    while not state.is_terminal():
        if done(state):
            return True
        state.apply(rng.choice(_ids(state)))
    return False


def _leading(state: State) -> bool:
    return state.decision_name() != "" and not _zone(state, "table") and bool(_plays(state))


# ---------------------------------------------------------------- Deal and the first lead
@pytest.mark.parametrize("players", [4, 5, 7])
def test_the_whole_deck_is_dealt_and_the_three_of_clubs_leads(players: int) -> None:
    """[Deal] All 52 cards are dealt, some seats one more than others, from the dealer's
    left; [Play] the holder of the 3 of clubs leads the first trick, playing it."""
    state = _state(players, 3)
    sizes = [len(_zone(state, "hand", p)) for p in range(players)]
    assert sum(sizes) == 52 and max(sizes) - min(sizes) <= 1
    assert sizes[1] == max(sizes)  # the deal starts at the dealer's (seat 0's) left
    holder = next(p for p in range(players) if "clubs-3" in _zone(state, "hand", p))
    assert state.current_player() == holder
    assert _ids(state) and all("clubs-3" in _cards(i) for i in _ids(state))  # no pass either


def test_a_set_must_match_the_count_led_and_be_higher() -> None:
    """[Play] Each play is as many cards of one rank as were led, of a higher rank (2s
    highest), or a pass."""
    state = _state(4, 5)
    lead = max(_ids(state), key=lambda i: len(_cards(i)))  # the 3 of clubs in a set
    state.apply(lead)
    count, rank = len(_cards(lead)), _rank(_cards(lead)[0])
    assert "pass" in _ids(state)
    for play in _plays(state):
        cards = _cards(play)
        assert len(cards) == count and len({_rank(c) for c in cards}) == 1
        assert _rank(cards[0]) > rank
    hand = _zone(state, "hand", state.current_player())
    higher = {_rank(c) for c in hand if _rank(c) > rank}
    if count == 1:
        assert {_rank(_cards(p)[0]) for p in _plays(state)} == higher
    twos = [p for p in _plays(state) if _rank(_cards(p)[0]) == 15]
    if twos:  # a 2 beats an ace
        state.apply(twos[0])
        aces = [p for p in _plays(state) if _rank(_cards(p)[0]) == 14]
        assert not aces


def test_a_seat_that_passed_plays_again_and_the_last_to_play_takes_the_trick() -> None:
    """[Play] Passing does not put a seat out of the trick: it may play on its next turn;
    the trick ends when all the others pass after a play, and that player leads next."""
    for seed in range(40):
        state = _state(4, seed)
        lead = min(_ids(state), key=lambda i: len(_cards(i)))  # the 3 of clubs alone
        leader = state.current_player()
        state.apply(lead)
        passer = state.current_player()
        state.apply("pass")
        third = state.current_player()
        low = [p for p in _plays(state) if _rank(_cards(p)[0]) < 10]
        if not low:
            continue
        state.apply(low[0])
        for _ in range(2):  # the fourth seat and the leader pass
            if state.current_player() != passer:
                state.apply("pass")
        if state.current_player() != passer or not _plays(state):
            continue
        assert "pass" in _ids(state)
        state.apply("pass")
        # Everyone else passed after the third seat's play: it takes the trick and leads.
        assert state.current_player() == third and not _zone(state, "table")
        trick = [e for e in state.events or [] if e["type"] == "trick"][-1]
        assert trick["winner"] == third and leader != third
        return
    pytest.fail("no seed gave a seat that passed a second turn")


# ---------------------------------------------------------------- Ranks and the exchange
def test_places_score_and_the_scum_gives_the_president_the_two_best_cards() -> None:
    """[Ranks] The first out is President, ..., the last holding cards the Scum; one point
    per seat finished behind. [Exchange] In the next hand the Scum gives the two best cards
    to the President, who gives back any two; the Vice-Scum gives the best card to the
    Vice-President, who gives back one; the Scum leads."""
    players = 5
    state = _state(players, 7)
    rng = random.Random(7)
    assert _until(state, rng, lambda s: _var(s, "hand_number") == 2)
    place = _var(state, "place")
    assert sorted(place) == list(range(1, players + 1))
    assert _var(state, "points") == [players - p for p in place]
    president, vice = place.index(1), place.index(2)
    scum, vice_scum = place.index(players), place.index(players - 1)
    assert state.current_player() == president and state.prompt() == "give two cards to the Scum"
    assert all(len(_cards(i)) == 2 for i in _ids(state))
    # The Scum's two best cards went to the President (2s high): none left is better.
    moved = [e for e in state.events or [] if e["type"] == "move"
             and e["from"] == {"zone": "hand", "owner": scum}][-2:]
    assert [e["to"] for e in moved] == [{"zone": "hand", "owner": president}] * 2
    assert min(_rank(e["card"]) for e in moved) >= max(_rank(c) for c in _zone(state, "hand", scum))
    gift = _ids(state)[0]
    state.apply(gift)
    assert set(_cards(gift)) <= set(_zone(state, "hand", scum))
    assert state.current_player() == vice and len(_ids(state)) == len(_zone(state, "hand", vice))
    back = _ids(state)[0]
    state.apply(back)
    assert _cards(back)[0] in _zone(state, "hand", vice_scum)
    assert state.current_player() == scum  # the Scum leads
    assert sum(len(_zone(state, "hand", p)) for p in range(players)) == 52


# ---------------------------------------------------------------- the options
def test_a_revolution_reverses_the_ranks() -> None:
    """[Variations] Revolution (option): after four of a kind, lower ranks beat higher."""
    for seed in range(60):
        state = _state(4, seed, revolutions=True)
        rng = random.Random(seed)

        def quad(s: State) -> bool:
            return _leading(s) and _var(s, "hand_number") == 1 and any(
                len(_cards(p)) == 4 for p in _plays(s)) and len(
                    _zone(s, "hand", s.current_player())) > 5
        if not _until(state, rng, quad):
            continue
        four = next(p for p in _plays(state) if len(_cards(p)) == 4)
        seat = state.current_player()
        state.apply(four)
        assert _var(state, "revolution") is True
        while state.current_player() != seat or _zone(state, "table"):
            state.apply("pass" if "pass" in _ids(state) else _ids(state)[0])
        if _var(state, "revolution") is not True:
            continue  # another four of a kind turned it back
        single = max((p for p in _plays(state) if len(_cards(p)) == 1),
                     key=lambda p: _rank(_cards(p)[0]))  # the highest rank: now the weakest
        state.apply(single)
        if state.current_player() == seat:
            continue  # nobody could play lower: the trick is over
        low = _rank(_cards(single)[0])
        ranks = {_rank(_cards(p)[0]) for p in _plays(state)}
        assert all(r < low for r in ranks)
        below = {_rank(c) for c in _zone(state, "hand", state.current_player()) if _rank(c) < low}
        assert ranks == below
        return
    pytest.fail("no seed led four of a kind")


def test_without_revolutions_four_of_a_kind_changes_nothing() -> None:
    for seed in range(60):
        state = _state(4, seed)
        rng = random.Random(seed)
        if _until(state, rng, lambda s: any(len(_cards(p)) == 4 for p in _plays(s))):
            state.apply(next(p for p in _plays(state) if len(_cards(p)) == 4))
            assert _var(state, "revolution") is False
            return
    pytest.fail("no seed led four of a kind")


@pytest.mark.parametrize("stop", [True, False], ids=["eight-stop", "no-stop"])
def test_eights_end_the_trick_with_the_eight_stop(stop: bool) -> None:
    """[Variations] 8-stop (option): a play of eights ends the trick at once and its player
    leads the next; without the option the others may still beat it."""
    for seed in range(40):
        state = _state(4, seed, eight_stop=stop)
        rng = random.Random(seed)

        def eights(s: State) -> bool:
            return bool(_zone(s, "table")) and len(_zone(s, "hand", s.current_player())) > 4 \
                and any(_rank(_cards(p)[0]) == 8 for p in _plays(s))
        if not _until(state, rng, eights):
            continue
        seat = state.current_player()
        state.apply(next(p for p in _plays(state) if _rank(_cards(p)[0]) == 8))
        if stop:
            assert state.current_player() == seat and not _zone(state, "table")
        else:
            assert state.current_player() != seat and _zone(state, "table")
        return
    pytest.fail("no seed gave a play of eights")


@pytest.mark.parametrize("players", [4, 7])
def test_both_engines_play_the_same_games(players: int) -> None:
    options = {"revolutions": True, "eight_stop": True, "hands": 2}
    reference = rulesplay.load(PRESIDENT, options=options, engine="interpret")
    compiled = rulesplay.load(PRESIDENT, options=options, engine="compiled")
    assert play_both(reference, compiled, players, 1) > 0
