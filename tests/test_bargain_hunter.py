"""Bargain Hunter as the rule text describes it: each rule of bargain_hunter.en.txt and each
ruling BH1-BH11 of RULINGS.md as a scenario with fixed hands.

Seats in the rulebook's examples, in play order (clockwise): Sara 1, James 2, Fred 3, Mandy 0.
With ``first_dealer=0`` Sara, left of the dealer, picks first and leads the first trick.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from conftest import events, legal, load_game, new_state, play

from rulesplay import State
from rulesplay.errors import OptionError

MANDY, SARA, JAMES, FRED = 0, 1, 2, 3

# Bargain cards picked in round 1 unless a test says otherwise (no test hand holds them).
PICKS = {0: "purple-9#1", 1: "purple-9#2", 2: "orange-9#1", 3: "orange-9#2"}


def hunt(hands: dict[int, list[str]], dealer: int = 0, picks: dict[int, str] | None = None,
         seed: int = 0, **options: object) -> State:
    """A round-1 state at the first play: every hand is exactly ``hands[seat]`` after each seat
    picked ``picks[seat]`` as its bargain (in turn from left of the dealer)."""
    players = len(hands)
    picks = picks or PICKS
    s = new_state(players, seed, first_dealer=dealer, **options)
    while s.current_player() != (dealer + 1) % players:  # dealt only an Offer (tiny hands)
        seed += 1
        s = new_state(players, seed, first_dealer=dealer, **options)
    for seat, cards in hands.items():
        s.arrange("hand", seat, [picks[seat], *cards])
    for i in range(players):
        seat = (dealer + 1 + i) % players
        assert (s.current_player(), s.decision_name()) == (seat, "pick")
        s.apply(f"pick:{picks[seat]}")
    assert s.current_player() == (dealer + 1) % players
    return s


def last_trick(s: State) -> dict[str, object]:
    return events(s, "trick")[-1]


def single_trick(plays: list[tuple[int, str, list[str]]], dealer: int = 0,
                 **options: object) -> State:
    """Play one trick from one-card hands: ``plays`` = (seat, card, answers to the
    declarations that card prompts), in play order starting left of ``dealer``."""
    s = hunt({seat: [card] for seat, card, _ in plays}, dealer=dealer, **options)
    for seat, card, answers in plays:
        assert s.current_player() == seat
        s.apply(f"play:{card}")
        for answer in answers:
            assert s.current_player() == seat
            s.apply(answer)
    assert events(s, "trick"), "the trick did not end"
    return s


def hunt_to_cleaning(players: int = 4, dealer: int = 0, **options: object) -> State:
    """A state at the first spring cleaning of round 1: one-card hands, so after the bargain
    choice the round has no trick and the cleaning starts left of the dealer (BH3)."""
    s = hunt({seat: [] for seat in range(players)}, dealer=dealer, hand_size=1, **options)
    assert s.decision_name() == "clean"
    assert s.current_player() == (dealer + 1) % players
    return s


def autoplay(s: State, rng: random.Random | None = None) -> None:
    """Finish the game: random (or first) plays, never trump, never clean."""
    while not s.is_terminal():
        ids = [a.id for a in s.legal_actions()]
        if "clean:skip" in ids:
            s.apply("clean:skip")
        elif s.decision_name() == "declare_trump":
            s.apply("declare_trump:no")
        else:
            s.apply(rng.choice(ids) if rng else ids[0])


def rounds_of(s: State) -> list[list[dict[str, object]]]:
    """The recorded events split at each deal phase (one list per round)."""
    out: list[list[dict[str, object]]] = []
    assert s.events is not None
    for e in s.events:
        if e["type"] == "phase" and e["phase"] == "deal":
            out.append([])
        if out:
            out[-1].append(e)
    return out


# ---------------------------------------------------------------- the rulebook's trick examples
def test_example_1_duplicate_seven_declared_higher_wins() -> None:
    """Sara leads green 2; James follows green 7; Fred plays the other green 7 and declares it
    higher; Mandy, void in green, plays yellow 6 and declares it not trump. Fred wins."""
    s = hunt({SARA: ["green-2#1", "red-1#1", "red-4#1"],
              JAMES: ["green-7#1", "green-5#1", "blue-1#1"],
              FRED: ["green-7#2", "green-1#1", "blue-2#1"],
              MANDY: ["yellow-6#1", "blue-3#1", "red-5#1"]})
    assert legal(s) == {"play:green-2#1", "play:red-1#1", "play:red-4#1"}
    play(s, "play:green-2#1")
    assert s.var("lead") == "green"
    assert legal(s) == {"play:green-7#1", "play:green-5#1"}  # James must follow green
    play(s, "play:green-7#1")
    # Following the lead is never a trump declaration: Fred plays next.
    assert (s.current_player(), legal(s)) == (FRED, {"play:green-7#2", "play:green-1#1"})
    play(s, "play:green-7#2")
    assert (s.current_player(), s.decision_name()) == (FRED, "order")
    assert legal(s) == {"order:higher", "order:lower"}
    play(s, "order:higher")
    assert s.current_player() == MANDY
    assert legal(s) == {"play:yellow-6#1", "play:blue-3#1", "play:red-5#1"}  # no green
    play(s, "play:yellow-6#1")
    assert (s.current_player(), s.decision_name()) == (MANDY, "declare_trump")
    assert legal(s) == {"declare_trump:yes", "declare_trump:no"}
    play(s, "declare_trump:no")
    trick = last_trick(s)
    assert (trick["winner"], trick["card"]) == (FRED, "green-7#2")
    assert trick["cards"] == ["green-2#1", "green-7#1", "green-7#2", "yellow-6#1"]
    assert s.zone_cards("junk", FRED) == ["green-2#1", "green-7#1", "green-7#2", "yellow-6#1"]
    assert s.var("leader") == FRED
    assert (s.current_player(), s.decision_name()) == (FRED, "play")


@pytest.mark.parametrize("sara_offer, james_offer", [("offer#1", "offer#2"),
                                                     ("offer#2", "offer#1")])
def test_example_2_second_offer_beats_first_and_declared_trump(sara_offer: str,
                                                               james_offer: str) -> None:
    """Fred leads yellow 4; Mandy, void in yellow, plays blue 9 and declares blue trump; Sara
    (only low yellows) plays an Offer; James plays the other Offer and wins (whichever copy)."""
    s = hunt({FRED: ["yellow-4#1", "red-6#1", "green-6#1"],
              MANDY: ["blue-9#1", "red-2#1", "green-3#1"],
              SARA: ["yellow-1#1", "yellow-2#1", sara_offer],
              JAMES: ["yellow-8#1", james_offer, "red-7#1"]}, dealer=JAMES)
    play(s, "play:yellow-4#1")
    assert legal(s) == {"play:blue-9#1", "play:red-2#1", "play:green-3#1"}
    play(s, "play:blue-9#1")
    assert s.decision_name() == "declare_trump"
    play(s, "declare_trump:yes")
    assert (s.var("lead"), s.var("trump")) == ("yellow", "blue")
    # Sara must follow yellow, but an Offer may be played at any time.
    assert legal(s) == {"play:yellow-1#1", "play:yellow-2#1", f"play:{sara_offer}"}
    play(s, f"play:{sara_offer}")
    assert (s.current_player(), s.decision_name()) == (JAMES, "play")  # Offers: no declaration
    assert legal(s) == {"play:yellow-8#1", f"play:{james_offer}"}
    play(s, f"play:{james_offer}")
    trick = last_trick(s)  # the Offers' order needs no declaration
    assert (trick["winner"], trick["card"]) == (JAMES, james_offer)
    assert (s.current_player(), s.decision_name()) == (JAMES, "play")
    assert {sara_offer, james_offer} <= set(s.zone_cards("junk", JAMES))


@pytest.mark.parametrize("order, winner", [("lower", FRED), ("higher", SARA)])
def test_example_3_trump_already_declared(order: str, winner: int) -> None:
    """James leads blue 5; Fred plays red 3 and declares red trump; Mandy (no blue, no red)
    plays yellow 9 and cannot declare; Sara (only reds) plays the other red 3 and declares it
    lower: Fred wins (had she declared it higher, she would win)."""
    s = hunt({JAMES: ["blue-5#1", "green-4#1", "green-5#1"],
              FRED: ["red-3#1", "red-7#1", "green-1#1"],
              MANDY: ["yellow-9#1", "green-2#1", "purple-1#1"],
              SARA: ["red-3#2", "red-1#1", "red-2#1"]}, dealer=SARA)
    play(s, "play:blue-5#1")
    assert legal(s) == {"play:red-3#1", "play:red-7#1", "play:green-1#1"}
    play(s, "play:red-3#1", "declare_trump:yes")
    assert s.var("trump") == "red"
    play(s, "play:yellow-9#1")
    assert (s.current_player(), s.decision_name()) == (SARA, "play")  # no second trump
    assert legal(s) == {"play:red-3#2", "play:red-1#1", "play:red-2#1"}
    play(s, "play:red-3#2")
    assert (s.current_player(), s.decision_name()) == (SARA, "order")  # no trump question
    play(s, f"order:{order}")
    assert last_trick(s)["winner"] == winner


# ---------------------------------------------------------------- the spring-cleaning examples
SARA_JUNK = ["red-1#1", "red-3#1", "blue-3#1", "green-3#1", "yellow-3#1", "red-4#1",
             "blue-4#1", "red-5#1", "red-7#1", "red-9#1"]
SARA_SIXES = ["green-6#1", "blue-6#1", "yellow-6#1"]


def sara_cleans_threes() -> State:
    s = hunt_to_cleaning(4)
    s.arrange("bargain", SARA, SARA_SIXES)
    s.arrange("junk", SARA, SARA_JUNK)
    assert s.current_player() == SARA
    assert legal(s) == {"clean:1", "clean:3", "clean:4", "clean:5", "clean:7", "clean:9",
                        "clean:skip"}
    play(s, "clean:3")
    return s


def test_spring_cleaning_example_sara_clears_out_threes() -> None:
    """4 players, junk 1 3 3 3 3 4 4 5 7 9: two 3s trashed, two onto the bargain pile, which
    then hunts 3s; the two 4s stay in the junk pile."""
    s = sara_cleans_threes()
    assert s.zone_cards("trash") == ["red-3#1", "blue-3#1"]
    assert s.zone_cards("bargain", SARA) == [*SARA_SIXES, "green-3#1", "yellow-3#1"]
    assert s.zone_cards("junk", SARA) == ["red-1#1", "red-4#1", "blue-4#1", "red-5#1",
                                          "red-7#1", "red-9#1"]
    assert (s.current_player(), s.decision_name()) == (JAMES, "clean")  # once per round


def test_spring_cleaning_example_new_bargain_collects_threes_only() -> None:
    """After changing to 3, Sara wins a trick with 2 3 6 8: the 3 goes to the bargain pile,
    the 6 with the 2 and 8 to junk; the old 6s stay on the bargain pile."""
    s = sara_cleans_threes()
    play(s, "clean:skip", "clean:skip", "clean:skip")
    assert (s.var("round"), s.var("dealer"), s.current_player()) == (2, SARA, JAMES)
    for seat, card in ((JAMES, "red-2#1"), (FRED, "red-3#2"), (MANDY, "red-6#1"),
                       (SARA, "red-8#1")):
        s.arrange("hand", seat, [card])
    play(s, "play:red-2#1", "play:red-3#2", "play:red-6#1", "play:red-8#1")
    assert last_trick(s)["winner"] == SARA
    assert s.zone_cards("bargain", SARA) == [*SARA_SIXES, "green-3#1", "yellow-3#1", "red-3#2"]
    assert s.zone_cards("junk", SARA)[-3:] == ["red-2#1", "red-6#1", "red-8#1"]
    assert s.scores()[SARA] == 6 - 9


# ---------------------------------------------------------------- BH1 deck
def test_bh1_deck_is_110_cards() -> None:
    prog = new_state(4).program
    assert len(prog.card_ids) == 110 == len(set(prog.card_ids))
    items = [a for a in prog.card_attrs if a["kind"] == "item"]
    assert len(items) == 108
    assert Counter((a["colour"], a["number"]) for a in items) == {
        (c, n): 2 for c in ("red", "yellow", "green", "blue", "purple", "orange")
        for n in range(1, 10)}
    assert [cid for cid, a in zip(prog.card_ids, prog.card_attrs, strict=True)
            if a["kind"] == "offer"] == ["offer#1", "offer#2"]
    assert "red-7#2" in prog.card_ids


# ---------------------------------------------------------------- BH2 players, rounds, trash
@pytest.mark.parametrize("players", [1, 2, 5, 6])
def test_bh2_only_three_or_four_players(players: int) -> None:
    with pytest.raises(OptionError):
        load_game().new_state(num_players=players, seed=0)


@pytest.mark.parametrize("players, rounds, minimum", [(3, 6, 3), (4, 4, 2)])
def test_bh2_rounds_and_trash_minimum_by_player_count(players: int, rounds: int,
                                                      minimum: int) -> None:
    s = new_state(players, 5)
    assert s.program.layout.options["rounds"] == rounds
    assert s.program.layout.options["trash_minimum"] == minimum
    autoplay(s)
    assert len(rounds_of(s)) == rounds


@pytest.mark.parametrize("players, trashed", [(3, 3), (4, 2)])
def test_bh2_trash_minimum_applies(players: int, trashed: int) -> None:
    s = hunt_to_cleaning(players)
    fives = ["red-5#1", "red-5#2", "blue-5#1", "blue-5#2"]
    s.arrange("junk", SARA, fives)
    play(s, "clean:5")
    assert s.zone_cards("trash") == fives[:trashed]
    assert s.zone_cards("bargain", SARA) == [PICKS[SARA], *fives[trashed:]]


# ---------------------------------------------------------------- BH3 tricks per round
@pytest.mark.parametrize("players, tricks", [(3, [7, 8, 8, 8, 4, 0]), (4, [7, 8, 8, 3])])
def test_bh3_tricks_per_round_equal_hand_size(players: int, tricks: list[int]) -> None:
    """Nobody cleans, so the trash stays empty and the deck runs short: 110 cards give
    3 players 8+8+8+8 after round 1, then 14 cards = 4 each, then 2 cards = none."""
    s = new_state(players, 11)
    hand_sizes = []
    seen_round = 0
    while not s.is_terminal():
        if s.var("round") != seen_round and s.decision_name() in ("pick", "play", "clean"):
            seen_round = s.var("round")
            sizes = {len(s.zone_cards("hand", p)) for p in range(players)}
            assert len(sizes) == 1, f"round {seen_round}: unequal hands {sizes}"
            hand_sizes.append(sizes.pop())
            assert len(s.zone_cards("deck")) < players or hand_sizes[-1] == 8
        ids = [a.id for a in s.legal_actions()]
        s.apply("clean:skip" if "clean:skip" in ids else ids[0])
    per_round = [sum(e["type"] == "trick" for e in r) for r in rounds_of(s)]
    assert per_round == tricks
    assert hand_sizes[0] == 8 and hand_sizes[1:] == tricks[1:]


def test_bh3_zero_trick_round_cleans_from_last_trick_winner() -> None:
    """3 players, nobody cleans: round 6 deals nothing; its spring cleaning still happens,
    starting with the winner of the most recent trick of the game (round 5's last)."""
    s = new_state(3, 11)
    while s.var("round") < 6:
        ids = [a.id for a in s.legal_actions()]
        s.apply("clean:skip" if "clean:skip" in ids else ids[0])
    last_winner = events(s, "trick")[-1]["winner"]
    assert [len(s.zone_cards("hand", p)) for p in range(3)] == [0, 0, 0]
    assert s.decision_name() == "clean"
    assert s.current_player() == last_winner


@pytest.mark.parametrize("players, hand_size, dealt", [(4, 30, 27), (3, 36, 36), (4, 36, 27)])
def test_bh3_short_deal_gives_equal_hands(players: int, hand_size: int, dealt: int) -> None:
    s = new_state(players, 2, hand_size=hand_size)
    assert [len(s.zone_cards("hand", p)) for p in range(players)] == [dealt] * players
    assert len(s.zone_cards("deck")) == 110 - players * dealt
    for _ in range(players):  # the picks, then one trick per card left in hand
        s.apply(s.legal_actions()[0])
    autoplay(s)
    assert sum(e["type"] == "trick" for e in rounds_of(s)[0]) == dealt - 1


# ---------------------------------------------------------------- BH4 offer led
def test_bh4_offer_led_first_coloured_card_sets_lead() -> None:
    s = hunt({SARA: ["offer#1", "red-9#1"],
              JAMES: ["green-5#1", "red-5#1"],
              FRED: ["green-1#1", "red-2#1"],
              MANDY: ["red-3#1", "blue-3#1"]})
    play(s, "play:offer#1")
    assert s.var("lead") is None
    assert legal(s) == {"play:green-5#1", "play:red-5#1"}  # any card after a led Offer
    play(s, "play:green-5#1")
    assert s.var("lead") == "green"
    assert (s.current_player(), s.decision_name()) == (FRED, "play")  # no trump question
    assert legal(s) == {"play:green-1#1"}  # must follow green now
    play(s, "play:green-1#1")
    assert legal(s) == {"play:red-3#1", "play:blue-3#1"}
    play(s, "play:red-3#1", "declare_trump:yes")
    assert last_trick(s)["winner"] == SARA  # the Offer is the highest trump
    assert "offer#1" in s.zone_cards("junk", SARA)


def test_bh4_two_offers_then_first_coloured_card() -> None:
    s = hunt({SARA: ["offer#1", "red-9#1"],
              JAMES: ["offer#2", "green-5#1"],
              FRED: ["red-1#1", "green-1#1"],
              MANDY: ["red-3#1", "blue-3#1"]})
    play(s, "play:offer#1")
    play(s, "play:offer#2")
    assert legal(s) == {"play:red-1#1", "play:green-1#1"}
    play(s, "play:red-1#1")
    assert s.var("lead") == "red"
    assert legal(s) == {"play:red-3#1"}
    play(s, "play:red-3#1")
    assert last_trick(s)["winner"] == JAMES


def test_bh4_option_no_lead_after_offer() -> None:
    """offer_lead=no_lead: after a led Offer nobody must follow; every coloured card is off
    the (absent) lead, so its player answers the trump question."""
    s = hunt({SARA: ["offer#1", "red-9#1"],
              JAMES: ["green-5#1", "red-5#1"],
              FRED: ["green-1#1", "red-2#1"],
              MANDY: ["red-3#1", "blue-3#1"]}, offer_lead="no_lead")
    play(s, "play:offer#1", "play:green-5#1")
    assert s.var("lead") is None
    assert s.decision_name() == "declare_trump"
    play(s, "declare_trump:no")
    assert legal(s) == {"play:green-1#1", "play:red-2#1"}  # no need to follow green
    play(s, "play:red-2#1", "declare_trump:no", "play:blue-3#1", "declare_trump:no")
    assert last_trick(s)["winner"] == SARA


# ---------------------------------------------------------------- BH5 trump declaration
def test_bh5_declared_colour_includes_earlier_card() -> None:
    """James plays blue 8 undeclared, Fred green 9 undeclared; Mandy declares blue trump with
    blue 3: James's earlier blue 8 becomes trump and wins."""
    s = single_trick([(SARA, "red-5#1", []),
                      (JAMES, "blue-8#1", ["declare_trump:no"]),
                      (FRED, "green-9#1", ["declare_trump:no"]),
                      (MANDY, "blue-3#1", ["declare_trump:yes"])])
    assert (last_trick(s)["winner"], last_trick(s)["card"]) == (JAMES, "blue-8#1")


def test_bh5_only_a_void_player_with_a_coloured_card_declares() -> None:
    s = hunt({SARA: ["red-5#1", "red-1#1"],
              JAMES: ["red-7#1", "blue-7#1"],
              FRED: ["offer#1", "red-2#1"],
              MANDY: ["green-2#1", "blue-2#1"]})
    play(s, "play:red-5#1", "play:red-7#1")
    assert (s.current_player(), s.decision_name()) == (FRED, "play")  # followed: no question
    play(s, "play:offer#1")
    assert (s.current_player(), s.decision_name()) == (MANDY, "play")  # Offer: no question
    play(s, "play:green-2#1")
    assert (s.current_player(), s.decision_name()) == (MANDY, "declare_trump")
    assert s.prompt() == "declare green trump"
    play(s, "declare_trump:yes")
    assert last_trick(s)["winner"] == FRED
    # Trump does not carry over to the next trick.
    assert (s.var("lead"), s.var("trump")) == (None, None)


# ---------------------------------------------------------------- BH6 duplicates
def test_bh6_duplicate_declared_even_when_it_cannot_matter() -> None:
    s = hunt({SARA: ["red-5#1"], JAMES: ["red-9#1"], FRED: ["red-5#2"], MANDY: ["blue-5#1"]})
    play(s, "play:red-5#1", "play:red-9#1", "play:red-5#2")
    assert (s.current_player(), s.decision_name()) == (FRED, "order")
    assert s.prompt() == "red 5 is"
    play(s, "order:lower", "play:blue-5#1")
    # Same number, other colour: a trump question but no order question.
    assert s.decision_name() == "declare_trump"
    play(s, "declare_trump:no")
    assert last_trick(s)["winner"] == JAMES


@pytest.mark.parametrize("order, winner", [("higher", FRED), ("lower", JAMES)])
def test_bh6_both_declarations_on_one_card(order: str, winner: int) -> None:
    """Fred's blue 4 duplicates James's undeclared blue 4: Fred declares trump, then order."""
    s = single_trick([(SARA, "red-5#1", []),
                      (JAMES, "blue-4#1", ["declare_trump:no"]),
                      (FRED, "blue-4#2", ["declare_trump:yes", f"order:{order}"]),
                      (MANDY, "red-9#1", [])])
    decisions = [e["decision"] for e in events(s, "decision") if e["player"] == FRED]
    assert decisions[-3:] == ["play", "declare_trump", "order"]
    assert last_trick(s)["winner"] == winner


@pytest.mark.parametrize("order, winner", [("higher", FRED), ("lower", JAMES)])
def test_bh6_declaration_orders_only_the_two_copies(order: str, winner: int) -> None:
    """A 7 declared lower than the other 7 still beats the 6 led."""
    s = single_trick([(SARA, "red-6#1", []), (JAMES, "red-7#1", []),
                      (FRED, "red-7#2", [f"order:{order}"]), (MANDY, "red-1#1", [])])
    assert last_trick(s)["winner"] == winner


# ---------------------------------------------------------------- BH7 winner
@pytest.mark.parametrize("plays, winner", [
    pytest.param([(SARA, "red-2#1", []), (JAMES, "blue-9#1", ["declare_trump:no"]),
                  (FRED, "red-3#1", []), (MANDY, "green-9#1", ["declare_trump:no"])],
                 FRED, id="highest-lead-colour-without-trump"),
    pytest.param([(SARA, "red-8#1", []), (JAMES, "red-9#1", []),
                  (FRED, "blue-1#1", ["declare_trump:yes"]), (MANDY, "red-7#1", [])],
                 FRED, id="lowest-trump-beats-lead-colour"),
    pytest.param([(SARA, "red-8#1", []), (JAMES, "blue-2#1", ["declare_trump:yes"]),
                  (FRED, "blue-9#1", []), (MANDY, "red-9#1", [])],
                 FRED, id="highest-trump"),
    pytest.param([(SARA, "red-8#1", []), (JAMES, "blue-9#1", ["declare_trump:yes"]),
                  (FRED, "offer#1", []), (MANDY, "red-9#1", [])],
                 FRED, id="offer-beats-trump"),
    pytest.param([(SARA, "offer#2", []), (JAMES, "offer#1", []),
                  (FRED, "red-1#1", []), (MANDY, "blue-9#1", ["declare_trump:yes"])],
                 JAMES, id="last-offer"),
])
def test_bh7_winner(plays: list[tuple[int, str, list[str]]], winner: int) -> None:
    s = single_trick(plays)
    assert last_trick(s)["winner"] == winner
    assert s.var("leader") == winner


# ---------------------------------------------------------------- BH8 collection
def test_bh8_collection_by_top_bargain_card() -> None:
    s = hunt({SARA: ["red-9#1", "green-6#1"],
              JAMES: ["red-6#1", "offer#1"],
              FRED: ["yellow-6#1", "green-2#2"],
              MANDY: ["red-1#1", "green-8#1"]},
             picks={SARA: "blue-6#1", JAMES: "green-2#1", FRED: "red-4#1", MANDY: "red-8#2"})
    play(s, "play:red-9#1", "play:red-6#1", "play:yellow-6#1", "declare_trump:no",
         "play:red-1#1")
    assert last_trick(s)["winner"] == SARA
    assert s.zone_cards("bargain", SARA) == ["blue-6#1", "red-6#1", "yellow-6#1"]
    assert s.zone_cards("junk", SARA) == ["red-9#1", "red-1#1"]
    play(s, "play:green-6#1", "play:offer#1", "play:green-2#2", "play:green-8#1")
    assert last_trick(s)["winner"] == JAMES
    # James collects his 2s only (not Sara's 6s, not Mandy's 8s); the Offer is junk.
    assert s.zone_cards("bargain", JAMES) == ["green-2#1", "green-2#2"]
    assert s.zone_cards("junk", JAMES) == ["green-6#1", "offer#1", "green-8#1"]
    assert s.zone_cards("bargain", MANDY) == ["red-8#2"]


# ---------------------------------------------------------------- BH9 spring cleaning
def test_bh9_earliest_cards_are_trashed() -> None:
    s = hunt_to_cleaning(4)
    s.arrange("junk", SARA, ["blue-3#1", "red-4#1", "red-3#1", "offer#1", "green-3#1"])
    play(s, "clean:3")
    assert s.zone_cards("trash") == ["blue-3#1", "red-3#1"]
    assert s.zone_cards("bargain", SARA) == [PICKS[SARA], "green-3#1"]
    assert s.zone_cards("junk", SARA) == ["red-4#1", "offer#1"]


@pytest.mark.parametrize("players, junk", [(3, ["red-5#1", "red-5#2"]),
                                           (3, ["red-5#1", "red-5#2", "blue-5#1"]),
                                           (4, ["red-5#1"])])
def test_bh9_too_few_cards_all_trashed_bargain_unchanged(players: int, junk: list[str]) -> None:
    s = hunt_to_cleaning(players)
    s.arrange("junk", SARA, junk)
    play(s, "clean:5")
    assert s.zone_cards("trash") == junk
    assert s.zone_cards("bargain", SARA) == [PICKS[SARA]]
    assert s.zone_cards("junk", SARA) == []


def test_bh9_skip_and_offers_never_cleared() -> None:
    s = hunt_to_cleaning(4)
    s.arrange("junk", SARA, ["offer#1", "red-2#1", "offer#2"])
    assert legal(s) == {"clean:2", "clean:skip"}
    play(s, "clean:skip")
    assert s.zone_cards("junk", SARA) == ["offer#1", "red-2#1", "offer#2"]
    assert s.zone_cards("trash") == []
    assert s.current_player() == JAMES


def test_bh9_last_round_cleans_twice_back_to_back() -> None:
    s = hunt_to_cleaning(4, rounds=1)
    s.arrange("junk", SARA, ["red-3#1", "blue-3#1", "green-3#1", "red-4#1", "blue-4#1",
                             "red-5#1"])
    play(s, "clean:3")
    assert s.current_player() == SARA
    assert legal(s) == {"clean:4", "clean:5", "clean:skip"}  # 3 is no longer offered
    play(s, "clean:4")
    assert s.zone_cards("trash") == ["red-3#1", "blue-3#1", "red-4#1", "blue-4#1"]
    assert s.zone_cards("bargain", SARA) == [PICKS[SARA], "green-3#1"]
    seats = []
    while not s.is_terminal():
        seats.append(s.current_player())
        play(s, "clean:skip")
    assert seats == [JAMES, FRED, MANDY]  # a skip ends a seat's cleaning


def test_bh9_last_round_skip_ends_the_seats_cleaning() -> None:
    """Skipping and then cleaning would be cleaning once: after a skip the next seat cleans."""
    s = hunt_to_cleaning(4, rounds=1)
    s.arrange("junk", SARA, ["red-3#1", "blue-3#1", "green-3#1", "red-4#1"])
    play(s, "clean:skip")
    assert s.current_player() == JAMES
    assert s.zone_cards("junk", SARA) == ["red-3#1", "blue-3#1", "green-3#1", "red-4#1"]


def test_bh9_cleaning_starts_with_last_trick_winner() -> None:
    s = single_trick([(SARA, "red-2#1", []), (JAMES, "red-3#1", []),
                      (FRED, "red-9#1", []), (MANDY, "red-4#1", [])])
    seats = []
    while s.decision_name() == "clean":
        seats.append(s.current_player())
        play(s, "clean:skip")
    assert seats == [FRED, MANDY, SARA, JAMES]


# ---------------------------------------------------------------- BH10 next round
def test_bh10_next_round_dealer_trash_and_leader() -> None:
    s = hunt_to_cleaning(4)
    s.arrange("junk", SARA, ["red-3#1", "blue-3#1", "green-3#1", "yellow-3#1"])
    play(s, "clean:3")
    trash = s.zone_cards("trash")
    assert trash == ["red-3#1", "blue-3#1"]
    play(s, "clean:skip", "clean:skip", "clean:skip")
    assert (s.var("round"), s.var("dealer"), s.var("leader")) == (2, SARA, JAMES)
    assert (s.current_player(), s.decision_name()) == (JAMES, "play")
    assert set(s.zone_cards("deck")[:2]) == set(trash)  # under the remaining deck
    assert s.zone_cards("trash") == []
    round2 = rounds_of(s)[-1]
    assert {"type": "shuffle", "zone": {"zone": "trash", "owner": None}} in round2


def test_bh10_dealer_moves_clockwise_every_round() -> None:
    s = new_state(3, 4, first_dealer=2)
    starts = []
    while not s.is_terminal():
        if s.decision_name() in ("pick", "play") and len(starts) < s.var("round"):
            starts.append((s.var("dealer"), s.current_player()))
        ids = [a.id for a in s.legal_actions()]
        s.apply("clean:skip" if "clean:skip" in ids else ids[0])
    # Round 6 deals nothing (see BH3), so no one plays in it.
    assert starts == [(2, 0), (0, 1), (1, 2), (2, 0), (0, 1)]


def test_bh10_first_dealer_drawn_from_seed_or_fixed() -> None:
    drawn = {}
    for seed in range(30):
        s = new_state(4, seed)
        dealer = s.var("dealer")
        assert s.current_player() == (dealer + 1) % 4
        assert new_state(4, seed).var("dealer") == dealer
        drawn[seed] = dealer
    assert set(drawn.values()) == {0, 1, 2, 3}
    for dealer in range(4):
        s = new_state(4, 0, first_dealer=dealer)
        assert (s.var("dealer"), s.current_player()) == (dealer, (dealer + 1) % 4)


# ---------------------------------------------------------------- BH11 score
def final_with_piles(piles: dict[int, tuple[list[str], list[str]]]) -> State:
    s = hunt_to_cleaning(4, rounds=1)
    for seat, (bargain, junk) in piles.items():
        s.arrange("bargain", seat, bargain)
        s.arrange("junk", seat, junk)
    while not s.is_terminal():
        play(s, "clean:skip")
    return s


def test_bh11_score_and_junk_tiebreak() -> None:
    s = final_with_piles({
        MANDY: (["red-1#1", "red-1#2", "blue-1#1", "blue-1#2", "green-1#1"],
                ["red-2#1", "red-3#1"]),
        SARA: (["red-5#1", "red-5#2", "blue-5#1", "blue-5#2"], ["offer#1"]),
        JAMES: (["red-6#1", "red-6#2"], []),
        FRED: ([], ["red-7#1", "red-8#1", "offer#2"]),
    })
    assert s.scores() == [3, 3, 2, -3]  # Offers count as junk
    assert s.rank_keys() == [(3, -2), (3, -1), (2, 0), (-3, -3)]
    assert s.winners() == [SARA]  # tie on 3: the smaller junk pile wins
    end = events(s, "end")[-1]
    assert (end["scores"], end["winners"]) == ([3, 3, 2, -3], [SARA])


def test_bh11_shared_win() -> None:
    s = final_with_piles({
        MANDY: (["red-1#1", "red-1#2"], ["red-2#1"]),
        SARA: (["red-5#1", "red-5#2"], ["red-2#2"]),
        JAMES: (["red-6#1"], ["red-3#1"]),
        FRED: ([], ["red-7#1"]),
    })
    assert s.winners() == [MANDY, SARA]


@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2), (4, 3)])
def test_bh11_random_games_score_bargains_minus_junk(players: int, seed: int) -> None:
    s = new_state(players, seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    expected = [len(s.zone_cards("bargain", p)) - len(s.zone_cards("junk", p))
                for p in range(players)]
    assert s.scores() == expected
    keys = [(expected[p], -len(s.zone_cards("junk", p))) for p in range(players)]
    assert s.winners() == [p for p in range(players) if keys[p] == max(keys)]
