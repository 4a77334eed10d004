"""The bots' fast draws are random.Random's draws: same results, same generator state after.
So is the engine's shuffle (``rulesplay.engine.shuffles``), which the bots' is."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesplay.agents.draws import LateSeeded, choice, copier, shuffle
from rulesplay.engine import shuffles


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 64, 100])
def test_shuffle_and_choice_draw_as_random_does(size: int) -> None:
    ours, theirs = random.Random(size), random.Random(size)
    a, b = list(range(size)), list(range(size))
    for _ in range(20):
        shuffle(a, ours)
        theirs.shuffle(b)
        assert a == b
        if size:
            assert choice(a, ours) == theirs.choice(b)
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**64), size=st.integers(0, 300), rounds=st.integers(1, 3))
def test_the_engine_shuffle_is_random_shuffle(seed: int, size: int, rounds: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(size)), list(range(size))
    for _ in range(rounds):
        shuffles.shuffle(a, ours)
        theirs.shuffle(b)
        assert a == b
        assert ours.getstate() == theirs.getstate()
    assert ours.random() == theirs.random()


@pytest.mark.parametrize("size", [2**k + d for k in range(1, 11) for d in (-1, 0, 1)])
def test_the_engine_shuffle_at_each_power_of_two(size: int) -> None:
    for seed in range(20):  # (the runs of positions sharing a number of bits end there)
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(size)), list(range(size))
        shuffles.shuffle(a, ours)
        theirs.shuffle(b)
        assert a == b and ours.getstate() == theirs.getstate()


def test_a_generator_with_its_own_draws_shuffles_its_own_way() -> None:
    class Drawn(random.Random):  # (as the OpenSpiel adapter's chance answers draws)
        def __init__(self) -> None:
            super().__init__(0)
            self.asked: list[int] = []

        def _randbelow(self, n: int) -> int:
            self.asked.append(n)
            return 0

    class Shuffles(random.Random):
        def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
            x.reverse()

    g = Drawn()
    cards = list(range(5))
    shuffles.shuffle(cards, g)
    assert g.asked == [5, 4, 3, 2] and cards == [1, 2, 3, 4, 0]
    cards = list(range(5))
    shuffles.shuffle(cards, Shuffles(1))
    assert cards == [4, 3, 2, 1, 0]
    late, plain = LateSeeded(9), random.Random(9)  # (late seeded: its draws are Random's)
    a, b = list(range(40)), list(range(40))
    shuffles.shuffle(a, late)
    plain.shuffle(b)
    assert a == b and late.getstate() == plain.getstate()
    assert shuffle is shuffles.shuffle


def test_choice_of_nothing_fails_as_random_does() -> None:
    with pytest.raises(IndexError):
        choice([], random.Random(1))


def _use(g: random.Random) -> list[object]:
    cards = list(range(30))
    g.shuffle(cards)
    return [cards, g.random(), g.choice(cards), g.randrange(1000), g.getrandbits(70),
            g.gauss(0, 1), g.sample(cards, 5)]


@pytest.mark.parametrize("first", ["random", "getrandbits", "shuffle", "choice", "getstate",
                                   "gauss", "copy", "pickle"])
def test_a_late_seeded_generator_is_the_seeded_one(first: str) -> None:
    late, plain = LateSeeded(2**63 + 5), random.Random(2**63 + 5)
    if first == "random":
        assert late.random() == plain.random()
    elif first == "getrandbits":
        assert late.getrandbits(64) == plain.getrandbits(64)
    elif first == "shuffle":
        a, b = list(range(9)), list(range(9))
        late.shuffle(a)
        plain.shuffle(b)
        assert a == b
    elif first == "choice":
        assert late.choice("abcdefg") == plain.choice("abcdefg")
    elif first == "getstate":
        assert late.getstate() == plain.getstate()
    elif first == "gauss":
        assert late.gauss(0, 1) == plain.gauss(0, 1)
    elif first == "copy":
        late = copy.copy(late)
    else:
        late = pickle.loads(pickle.dumps(late))
    assert type(late) is random.Random
    assert _use(late) == _use(plain)


def test_a_late_seeded_generator_can_be_set_or_reseeded_first() -> None:
    late = LateSeeded(1)
    late.setstate(random.Random(7).getstate())
    assert late.random() == random.Random(7).random()
    late = LateSeeded(1)
    late.seed(9)
    assert late.random() == random.Random(9).random()


def test_a_copier_makes_generators_in_the_state_it_saw() -> None:
    for g in (LateSeeded(3), random.Random(3)):
        make = copier(g)
        twins = [make(), make()]
        want = _use(random.Random(3))
        assert [_use(t) for t in twins] == [want, want]
        assert _use(g) == want  # the copied generator itself is untouched
