"""Hidden information in the engine: blind picks from cards the chooser cannot see, and
what a seat learns of another seat's open choice of a card (issue 13, items 11 and 12)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulesplay
from rulesplay import State
from rulesplay.agents import Tracker, make_agent
from rulesplay.errors import RulesValidationError

# Old Maid in miniature: each player in turn draws a card blind from the hand of the player
# on the left, then lays down any pair it makes; the fewest cards left wins.
OLD_MAID = """
game "Draw From The Left"
players 2..4

enum suit: red, blue
card card "card" @ja "カード":
    suit: suit
    rank: 1..6
    label: "{suit} {rank}"

zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone pairs "pairs": per player, public

phase deal "Deal":
    shuffle deck
    deal 3 from deck to hand
    next draw

phase draw "Draw":
    repeat 3 times:
        for each player p:
            if count(hand[left of p]) > 0:
                p chooses pick from hand[left of p] "draw a card from the left"
                move pick to hand[p]
                for each card c in hand[p]:
                    if count(hand[p] where it.rank == c.rank) >= 2:
                        move hand[p] where it.rank == c.rank to pairs[p]
    next end

score: -count(hand[player])
"""


def _old_maid(lang: str | None = None) -> rulesplay.Game:
    return rulesplay.loads(OLD_MAID, lang=lang)


# ------------------------------------------------------------ item 12: blind picks
def test_a_pick_from_a_hand_the_chooser_cannot_see_names_positions_not_cards() -> None:
    s = _old_maid().new_state(3, seed=1)
    assert s.current_player() == 0 and s.decision_name() == "pick"
    left = s.zone_cards("hand", 1)
    actions = s.legal_actions()
    assert [a.id for a in actions] == ["pick:1", "pick:2", "pick:3"]
    assert [a.label for a in actions] == ["card 1 of 3", "card 2 of 3", "card 3 of 3"]
    names = set(s.program.card_ids) | set(s.program.card_labels)
    assert not any(n in a.id or n in a.label for a in actions for n in names)
    assert all(a.value == k and not a.card for k, a in enumerate(actions, 1))
    # The chooser's view of the left hand is a count.
    hands = {z["owner"]: z for z in s.observation(0)["zones"] if z["zone"] == "hand"}
    assert hands[1]["cards"] is None and hands[1]["count"] == 3
    s.apply("pick:2")  # resolved to the card at that position
    assert left[1] in s.zone_cards("hand", 0) + s.zone_cards("pairs", 0)
    assert s.zone_cards("hand", 1) == [left[0], left[2]]
    assert s.history == [(0, "pick:2")]


def test_a_blind_pick_is_labelled_in_the_games_language() -> None:
    s = _old_maid("ja").new_state(2, seed=3)
    assert [a.label for a in s.legal_actions()] == ["3枚中1枚目", "3枚中2枚目", "3枚中3枚目"]


def test_a_pick_from_cards_the_chooser_sees_still_names_them() -> None:
    text = OLD_MAID.replace("p chooses pick from hand[left of p]", "p chooses pick from hand[p]")
    s = rulesplay.loads(text).new_state(3, seed=1)
    assert {a.id for a in s.legal_actions()} == {f"pick:{c}" for c in s.zone_cards("hand", 0)}


def test_a_pick_whose_filter_tests_a_card_the_text_does_not_show_the_chooser_sees() -> None:
    # The text does not show that seat q is the chooser: the pick may be blind, so its
    # filter may not test the card (the run time would refuse it too, at the first listing).
    text = OLD_MAID.replace(
        "p chooses pick from hand[left of p]",
        "let q = left of p\n                p chooses pick from hand[q] where pick.rank > 0")
    with pytest.raises(RulesValidationError, match="its 'where' cannot test the card"):
        rulesplay.loads(text)


@pytest.mark.parametrize("choice, message", [
    ("p chooses pick from values(hand[left of p], it.rank)",
     "the options of 'pick' are worked out from hand[left of p], which p cannot see"),
    ("p chooses pick from hand[left of p] where pick.suit == red",
     "'pick' is picked blind (by position) from cards p cannot see: its 'where' cannot "
     "test the card"),
    ("p chooses pick from (deck where it.rank > 3)",
     "'pick' is picked blind from deck, which p cannot see (hidden: no seat sees its cards): "
     "it may take cards by position"),
    ("p chooses pick from hand[p] where any(hand[right of p], it.rank == pick.rank)",
     "the 'where' of 'pick' reads hand[right of p], which p cannot see"),
    # from the hidden-information review: through a 'let' name, and a filtered seat choice
    ("let n = sum(hand[left of p], it.rank)\n                p chooses pick from 1..20 "
     "where pick <= n",
     "the 'where' of 'pick' reads hand[left of p] (through 'n'), which p cannot see"),
    ("let top_card = top(deck)\n                p chooses pick from hand[p] where "
     "pick.rank > top_card.rank",
     "the 'where' of 'pick' reads deck (through 'top_card'), which p cannot see"),
    ("p chooses pick from seats where any(hand[pick], it.rank == 6) or pick == p",
     "the 'where' of 'pick' reads hand[pick], which p cannot see"),
])
def test_options_worked_out_from_unseen_cards_are_refused(choice: str, message: str) -> None:
    text = OLD_MAID.replace("p chooses pick from hand[left of p]", choice)
    with pytest.raises(RulesValidationError) as info:
        rulesplay.loads(text)
    assert [d.message for d in info.value.diagnostics if message in d.message], \
        [d.message for d in info.value.diagnostics]


def test_positions_and_counts_of_unseen_cards_may_be_used() -> None:
    text = OLD_MAID.replace(
        "p chooses pick from hand[left of p]",
        "p chooses pick from first(2, hand[left of p]) where count(deck) >= 0")
    s = rulesplay.loads(text).new_state(3, seed=1)
    assert [a.id for a in s.legal_actions()] == ["pick:1", "pick:2"]


def _permute_hand(state: State, seat: int, rng: random.Random) -> State:
    s = state.clone()
    cards = s.zone_cards("hand", seat)
    rng.shuffle(cards)
    s.arrange("hand", seat, cards)
    return s


@pytest.mark.parametrize("spec", ["greedy:samples=3", "mcts:iterations=40"])
def test_bots_cannot_see_the_card_they_pick_blind(spec: str) -> None:
    game = _old_maid()
    checked = 0
    for seed in range(6):
        s = game.new_state(3, seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            seat = s.current_player()
            if len(s.legal_actions()) > 1 and s.decision_name() == "pick":
                left = (seat + 1) % 3
                fake = _permute_hand(s, left, random.Random(seed))
                assert s.observation(seat)["zones"] == fake.observation(seat)["zones"]
                a = make_agent(spec, seat, 5).step(s, random.Random(9))
                b = make_agent(spec, seat, 5).step(fake, random.Random(9))
                assert a.id == b.id and a.id.split(":")[1].isdigit()
                checked += 1
            s.apply(rng.choice(s.legal_actions()))
    assert checked > 10


def test_samples_deal_the_left_hand_anew_so_a_position_is_any_card() -> None:
    s = _old_maid().new_state(3, seed=2)
    info = Tracker(0).infoset(s)
    got = set()
    for k in range(40):
        w = info.sample(random.Random(k))
        w.apply("pick:1")
        got.update(set(w.zone_cards("hand", 0) + w.zone_cards("pairs", 0)))
    assert len(got - set(s.zone_cards("hand", 0))) > 3  # not always the true card


# ------------------------------------------------------------ item 11: open choices of cards
# Each player discards a card face down, takes one from the open market face down, and
# shows one from the hand in the market.
DISCARD = """
game "Face Down"
players 2..4

enum suit: red, blue
card card "card":
    suit: suit
    rank: 1..6
    label: "{suit} {rank}"

zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone pile "discard pile": shared, hidden
zone market "market": shared, public
zone stash "stash": per player, hidden

phase deal "Deal":
    shuffle deck
    deal 3 from deck to hand
    move top(deck) to market
    next play

phase play "Play":
    for each player p:
        p chooses discard from hand[p] "discard a card face down"
        move discard to pile
        p chooses bought from market "take a card from the market"
        move bought to stash[p]
        p chooses shown from hand[p] "show a card"
        move shown to market
    next end

score: count(stash[player])
"""


def _discard_game(seed: int = 1) -> State:
    s = rulesplay.loads(DISCARD).new_state(3, seed=seed, record_events=True)
    rng = random.Random(seed)
    while s.decisions < 3:
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_a_card_chosen_from_a_hand_and_put_face_down_is_not_in_others_history() -> None:
    s = _discard_game()
    (p, discard), (_, bought), (_, shown) = s.history
    assert p == 0 and discard.startswith("discard:") and bought.startswith("bought:")
    assert s.public_history(0) == s.history  # the chooser knows its own choices
    for seat in (1, 2, None):  # other seats and an onlooker saw only that a card went
        assert s.public_history(seat) == [(0, None), (0, bought), (0, shown)], seat
    # The market card was chosen openly (everyone saw it there); the shown card was seen
    # arriving in the market.


def test_samples_conceal_a_card_choice_the_seat_never_saw() -> None:
    s = _discard_game()
    s.apply(s.legal_actions()[0])  # seat 1 decides now
    seat = s.current_player()
    info = Tracker(seat).infoset(s)
    assert info.history[0] == (0, None)
    for k in range(5):
        w = info.sample(random.Random(k))
        assert [aid for _, aid in w.history[:3]] == ["discard:?", s.history[1][1],
                                                    s.history[2][1]]
    # The chooser's own samples keep it.
    assert Tracker(0).infoset(s).sample(random.Random(0)).history[0] == s.history[0]


def test_the_history_the_bots_and_the_screen_agree_on_what_a_seat_saw() -> None:
    from rulesplay.human import SeatView

    s = _discard_game(4)
    rng = random.Random(4)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    decisions = [e for e in s.events or [] if e["type"] == "decision"]
    for seat in range(3):
        view = [e for e in SeatView(s.program, seat).filter(s.events or [])
                if e["type"] == "decision"]
        screen = [e["action"] if not e["action"].endswith(":?") else None for e in view]
        assert screen == [aid for _, aid in s.public_history(seat)], seat
        assert len(decisions) == len(view)


def test_which_seats_never_saw_a_chosen_card_survives_a_save() -> None:
    s = _discard_game()
    back = State.from_json(s.to_json())
    assert back.unseen_choices == s.unseen_choices == {0: 0b1110}
    assert back.public_history(1) == s.public_history(1)


@pytest.mark.parametrize("name", ["bargain_hunter", "card_hunt", "bargain_bin",
                                  "bargain_quest"])
def test_the_screen_and_the_history_agree_in_every_shipped_game(name: str) -> None:
    from rulesplay.human import SeatView

    path = Path(__file__).resolve().parents[1] / "rulesets" / f"{name}.rules"
    game = rulesplay.load(path)
    n = game.player_range[0] + 1
    s = game.new_state(n, seed=1, record_events=True)
    rng = random.Random(1)  # (a seed whose game turns over a public card it chose: 'flip')
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    for seat in range(n):
        view = [e for e in SeatView(s.program, seat).filter(s.events or [])
                if e["type"] == "decision"]
        screen = [e["action"] if not e["action"].endswith(":?") else None for e in view]
        assert screen == [aid for _, aid in s.public_history(seat)], seat


PEEK = """
game "Peek"
players 2..2
card card "card":
    rank: 1..9
    label: "r{rank}"
zone deck "deck": shared, hidden
zone hand "hand": per player, hidden
zone junk "junk": shared, public
phase p "P":
    shuffle deck
    for each player p:
        let c = top(deck)
        p chooses keep from bool "keep the top card unseen?"
        if keep:
            move c to hand[p]
        else:
            move c to junk
    next end
score: sum(hand[player], it.rank - 5)
"""


def test_a_sample_never_keeps_an_unseen_card_through_a_let_name() -> None:
    """From a hostile review: ``let c = top(deck)`` kept the true unseen card in every sample,
    so a greedy bot kept exactly the good cards it could not see."""
    game = rulesplay.loads(PEEK)
    kept_good = 0
    for seed in range(40):
        s = game.new_state(2, seed=seed)
        true_card = s.loc[s.program.layout.lslot["c"]]
        cards = {Tracker(0).infoset(s).sample(random.Random(k)).loc[
            s.program.layout.lslot["c"]] for k in range(20)}
        assert len(cards) > 1 and true_card in s.zones[s.program.layout.zone_id["deck"]]
        action = make_agent("greedy:samples=4", 0, seed).step(s)
        good = s.program.card_attrs[true_card]["rank"] > 5
        kept_good += (action.id == "keep:yes") == good
    assert kept_good < 36  # it guesses (it knew the card in 99 of 100 before)
