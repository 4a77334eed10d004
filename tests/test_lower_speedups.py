"""Speed-ups of the generated code keep the language's meaning: ``values`` of a filter in one
comprehension gives the values of filtering first; ``any`` and ``all`` as a loop in a
function of their own (``engine/quantify.py``) stop where the generator stops.

That compiled games play as the frame interpreter's is ``tests/test_differential.py``.
"""

from __future__ import annotations

import pytest

import rulesplay
from rulesplay.engine.game import loads
from rulesplay.engine.routines import Routine

VALUES = '''
game "Values"
players 2..2
card c:
    n: 1..6
    copies: 2
zone deck: shared, public
zone hand: per player, owner
var low: int = 2
phase a:
    shuffle deck
    deal 5 from deck to hand starting with 0
    0 may choose k from values(hand[0] where it.n > low, it.n)
    1 chooses m from values(hand[1] where it.n >= count(hand[0]) - 3 and it is c, it.n)
    next end
score: count(hand[player])
'''


def _sources(game: rulesplay.Game) -> str:
    return "\n".join(n.source for n in game.program(2).nodes if isinstance(n, Routine))


@pytest.mark.parametrize("seed", range(6))
def test_values_of_a_filter_are_one_comprehension(seed: int) -> None:
    game = loads(VALUES)
    code = _sources(game)
    assert code.count("_ascending({") == 2 and "_ascending({(" not in code
    assert "for it in [" not in code  # (no list of the filtered cards made first)
    assert "_cell" in code  # (the second filter's count is worked out once per filtering)
    state = game.new_state(2, seed)
    hand = [int(cid.split("#")[0]) for cid in state.zone_cards("hand", 0)]
    want = sorted({n for n in hand if n > 2})
    assert [a.value for a in state.legal_actions()] == [*want, None]
    state.apply(state.legal_actions()[0])
    other = [int(cid.split("#")[0]) for cid in state.zone_cards("hand", 1)]
    assert [a.value for a in state.legal_actions()] == sorted({n for n in other if n >= 2})


QUANTIFIED = '''
game "Quantified"
players 2..2
card c:
    n: 1..6
    copies: 2
zone deck: shared, public
zone hand: per player, owner
zone pile: shared, public
var seen: int = 0
phase a:
    shuffle deck
    deal 5 from deck to hand starting with 0
    # a card no other card of the hand beats (the candidate read inside the loop)
    0 chooses k from hand[0] where not any(hand[0], it.n > k.n)
    if any(hand[1], it == bottom(hand[1]) or 12 / 0 > 0) and all(deck, it.n > 0):
        seen = 1
    if all(pile, it.n / 0 > 0):
        seen += 10
    next end
score: seen
'''


@pytest.mark.parametrize("seed", range(8))
def test_any_and_all_are_loops_that_stop_where_the_generator_stops(seed: int) -> None:
    game = loads(QUANTIFIED)
    code = _sources(game)
    assert code.count("_q") == 3 and "any(" not in code and "all(" not in code
    listed = rulesplay.engine.routine_code.listing(game.program(2))
    assert listed.count("\ndef _q") == 3  # (shown with the routines)
    state = game.new_state(2, seed)
    hand = {cid: int(cid.split("#")[0]) for cid in state.zone_cards("hand", 0)}
    top = max(hand.values())
    assert sorted(a.value for a in state.legal_actions()) == \
        sorted(state.program.card_ids.index(cid) for cid, n in hand.items() if n == top)
    state.apply(state.legal_actions()[0])
    # any stops at the first card (the next would divide by zero); all of an empty pile
    # is yes without a test (its division by zero is never made).
    assert state.is_terminal() and state.scores() == [11, 11]


def test_a_loop_reads_the_state_once_and_without_a_state_as_written() -> None:
    from rulesplay.engine.codegen import HELPERS
    from rulesplay.engine.quantify import quantifier

    ns: dict[str, object] = dict(HELPERS, k1=[0, 1, 2, 3])
    call = quantifier(ns, "any", "((k1[it] > 1) and (k1[it] == s.g[0]))", "cards", False)
    assert call is not None and call.endswith("(s, cards)")
    fast = ns[call.split("(")[0]]
    assert "_v0 = s.g[0]" in fast.source  # type: ignore[attr-defined]

    class State:
        g = [3]

    assert fast(State(), [0, 3]) is True and fast(State(), [0, 2]) is False  # type: ignore[operator]
    # No state (while cards and options are made): the test as written, so a read fails
    # only where the generator's would.
    assert fast(None, [0, 1]) is False  # type: ignore[operator]
    with pytest.raises(AttributeError):
        fast(None, [0, 2])  # type: ignore[operator]
