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


# ---------------------------------------------------------------- a referee for whole games
class Referee:
    """pagat's President beside a game, written from the rule text: who is to play, which
    sets may be played, when a trick ends and who leads, the order of going out, who deals
    and what each hand scores."""

    def __init__(self, players: int, revolutions: bool, eight_stop: bool) -> None:
        self.n, self.revolutions, self.eight_stop = players, revolutions, eight_stop
        self.points = [0] * players
        self.hand_number = 0

    def power(self, rank: int) -> int:
        return 18 - rank if self.revolution else rank

    def new_hand(self, state: State, first: int) -> None:
        """A hand starts with ``first`` to lead (the 3 of clubs' holder, or the Scum)."""
        self.hand_number += 1
        self.counts = [len(_zone(state, "hand", p)) for p in range(self.n)]
        self.revolution = False
        self.order: list[int] = []  # seats in the order they went out
        self.first_lead = self.hand_number == 1
        self.new_trick(first)

    def new_trick(self, leader: int) -> None:
        self.top: tuple[int, int] | None = None  # (cards, rank) of the last play
        self.last, self.passes = leader, 0
        self.turn = leader

    def active(self) -> list[int]:
        """The seats still holding cards (counted here: once a hand is over, the state
        has already dealt the next)."""
        return [p for p in range(self.n) if self.counts[p]]

    def left_with_cards(self, seat: int) -> int:
        seat = (seat + 1) % self.n
        while not self.counts[seat]:
            seat = (seat + 1) % self.n
        return seat

    def legal(self, hand: list[str]) -> set[frozenset[str]]:
        """[Play] the sets of one rank this seat may play now, and ``pass`` unless leading."""
        by_rank: dict[int, list[str]] = {}
        for c in hand:
            by_rank.setdefault(_rank(c), []).append(c)
        sets: set[frozenset[str]] = set()
        for rank, cards in by_rank.items():
            for mask in range(1, 1 << len(cards)):
                chosen = frozenset(c for i, c in enumerate(cards) if mask >> i & 1)
                if self.top is None:
                    if not self.first_lead or "clubs-3" in chosen:
                        sets.add(chosen)
                elif len(chosen) == self.top[0] and self.power(rank) > self.power(self.top[1]):
                    sets.add(chosen)
        return sets | ({frozenset(["pass"])} if self.top is not None else set())

    def played(self, state: State, seat: int, cards: list[str]) -> None:
        """After ``seat`` played ``cards`` (``["pass"]`` for a pass); ``state`` is after."""
        if cards == ["pass"]:
            self.passes += 1
        else:
            self.first_lead = False
            self.top, self.last, self.passes = (len(cards), _rank(cards[0])), seat, 0
            self.counts[seat] -= len(cards)
            if not self.counts[seat]:
                self.order.append(seat)
            if self.revolutions and len(cards) == 4:
                self.revolution = not self.revolution
        active = self.active()
        if len(active) <= 1:
            return  # the hand is over
        others = [p for p in active if p != self.last]
        stopped = self.eight_stop and cards != ["pass"] and _rank(cards[0]) == 8
        while not stopped and self.passes < len(others):
            seat = self.left_with_cards(seat)
            if self.legal(_zone(state, "hand", seat)) != {frozenset(["pass"])}:
                self.turn = seat
                return
            self.passes += 1  # a seat that cannot play passes (it is not asked)
        # The last to play takes the trick and leads; one gone out passes the lead left.
        leader = self.last if self.last in active else self.left_with_cards(self.last)
        self.new_trick(leader)

    def score(self) -> list[int]:
        """[Ranks] the places of the hand just over; each seat scores the seats behind it."""
        (scum,) = self.active()
        places = [0] * self.n
        for i, p in enumerate([*self.order, scum]):
            places[p] = i + 1
        for p in range(self.n):
            self.points[p] += self.n - places[p]
        return places


def referee_game(players: int, seed: int, hands: int, **options: Any) -> None:
    state = _state(players, seed, hands=hands, **options)
    ref = Referee(players, options.get("revolutions", False), options.get("eight_stop", False))
    rng = random.Random(seed)
    holder = next(p for p in range(players) if "clubs-3" in _zone(state, "hand", p))
    ref.new_hand(state, holder)
    scum = holder  # (set when a hand ends: the Scum leads the next)
    while not state.is_terminal():
        seat = state.current_player()
        if state.decision_name() != "play":  # the exchange: checked by the scenario above
            state.apply(rng.choice(_ids(state)))
            if state.decision_name() == "play":
                ref.new_hand(state, scum)
            continue
        assert seat == ref.turn
        hand = _zone(state, "hand", seat)
        assert {frozenset(_cards(i)) if i != "pass" else frozenset(["pass"])
                for i in _ids(state)} == ref.legal(hand)
        action = rng.choice(_ids(state))
        state.apply(action)
        ref.played(state, seat, ["pass"] if action == "pass" else _cards(action))
        if len(ref.active()) <= 1:
            places = ref.score()
            assert _var(state, "place") == places
            assert _var(state, "points") == ref.points
            assert state.is_terminal() == (ref.hand_number == hands)
            if state.is_terminal():
                break
            # [Deal] the Scum deals: the deal starts at the Scum's left, so with 52 cards
            # not shared evenly the first seats from there hold a card more. (The Scum has
            # given the President two cards when the President is asked to give back.)
            scum, president = places.index(players), places.index(1)
            sizes = [len(_zone(state, "hand", p)) for p in range(players)]
            sizes[scum] += 2
            sizes[president] -= 2
            extra = 52 % players
            assert sizes == [52 // players + ((p - scum - 1) % players < extra)
                             for p in range(players)]
    assert state.scores() == ref.points
    assert state.winners() == [p for p in range(players) if ref.points[p] == max(ref.points)]


@pytest.mark.parametrize(("players", "seed", "options"), [
    (4, 1, {}), (5, 2, {}), (6, 3, {"revolutions": True}), (7, 4, {"eight_stop": True}),
    (5, 5, {"revolutions": True, "eight_stop": True})])
def test_the_referee_agrees_on_every_turn_play_trick_and_score(
        players: int, seed: int, options: dict[str, Any]) -> None:
    """[Play] (who plays next, sets of one rank matching the lead's count and higher, a pass
    except when leading (a seat that cannot play passes without being asked), the 3 of clubs
    in the first lead, the trick ending when every other seat holding cards has passed since
    the last play, the last to play leading, the lead passing left from a seat gone out,
    seats gone out playing no more), [Ranks] (places in the order of going out, the hand over
    once a single seat holds cards, that seat the Scum, a point per seat behind), [Deal] (the
    Scum deals the next hand) and the options, over whole games of 3 hands."""
    referee_game(players, seed, 3, **options)
