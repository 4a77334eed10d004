"""Zones whose visibility changes in play (issue 11, part D): ``reveal ZONE`` shows a zone
to every seat from then on, ``hide ZONE`` puts it back to its declared visibility.

The scenario is Bridge's dummy: the dummy's hand is private until the opening lead, then
every seat sees it, and the declarer may choose from it as from any zone it sees. What each
seat sees follows it everywhere: observations, the seat's view of the events and its
account, the human screen, public_history, the bots' samples, saves.
"""

from __future__ import annotations

import io
import json
import random

import pytest
from rich.console import Console

import rulesplay
from rulesplay import State
from rulesplay.agents import Tracker, make_agent
from rulesplay.cardbook import CardBook
from rulesplay.engine.observe import resample
from rulesplay.errors import RulesError, RulesValidationError
from rulesplay.screens import render_screen
from rulesplay.seatview import SeatNarrator, SeatView

DUMMY = """
game "Dummy shown"
players 4
enum suit: clubs, hearts, spades
card card "card":
    suit: suit
    rank: 1..4
    label: "{rank} of {suit}"
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone table "table": shared, public
zone taken "taken": shared, hidden
var declarer "declarer": player = 0
var dummy "dummy": player = 2
player var tricks "tricks": int = 0
trick var lead "lead suit": suit

phase opening "Opening lead":
    shuffle deck
    deal 3 from deck to hand
    trick in table led by left of declarer:
        each player plays card from hand[player]
            where lead == none or card.suit == lead or not any(hand[player], it.suit == lead)
        after play:
            if lead == none:
                lead = card.suit
                reveal hand[dummy]
        won by highest (it.suit == lead, it.rank)
        after trick:
            tricks[winner] += 1
            move table to taken
    next pick

phase pick "The declarer takes from the dummy":
    declarer chooses c from hand[dummy] "take a card from the dummy"
    move c to hand[declarer]
    hide hand[dummy]
    declarer chooses d from hand[dummy] "take another, unseen"
    move d to hand[declarer]
    next end

score: tricks[player] + count(hand[player])
"""

ENGINES = ["compiled", "interpret"]
SEED = 3


def _game(engine: str = "compiled") -> rulesplay.Game:
    return rulesplay.loads(DUMMY, engine=engine)


def _new(engine: str = "compiled", events: bool = False) -> State:
    return _game(engine).new_state(4, seed=SEED, record_events=events)


def _hand(obs: dict, seat: int) -> dict:
    return next(z for z in obs["zones"] if z["zone"] == "hand" and z["owner"] == seat)


def _play_first(s: State, k: int) -> None:
    for _ in range(k):
        s.apply(s.legal_actions()[0])


@pytest.mark.parametrize("engine", ENGINES)
def test_the_dummy_is_private_until_the_opening_lead_then_seen_by_every_seat(
        engine: str) -> None:
    s = _new(engine)
    assert s.current_player() == 1 and s.decision_name() == "play"
    dummy = s.zone_cards("hand", 2)
    for seat in (0, 1, 3, None):
        hand = _hand(s.observation(seat), 2)
        assert hand["cards"] is None and hand["visibility"] == "owner"
    assert _hand(s.observation(2), 2)["cards"] == dummy
    _play_first(s, 1)  # the opening lead
    dummy = s.zone_cards("hand", 2)
    for seat in (0, 1, 2, 3, None):
        obs = s.observation(seat)
        assert _hand(obs, 2)["cards"] == dummy and _hand(obs, 2)["visibility"] == "public"
        # the other hands stay private
        assert all(_hand(obs, p)["cards"] is None for p in (0, 1, 3) if p != seat)
    assert s.revealed == (s.program.layout.zone_id["hand"] + 2,)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_declarer_chooses_cards_of_the_revealed_dummy_and_blind_once_hidden(
        engine: str) -> None:
    s = _new(engine)
    _play_first(s, 4)
    assert (s.current_player(), s.decision_name()) == (0, "c")
    dummy = s.zone_cards("hand", 2)
    assert [a.id for a in s.legal_actions()] == [f"c:{c}" for c in dummy]
    taken = dummy[-1]
    s.apply(f"c:{taken}")
    # hidden again: a choice from it is a blind pick by position
    left = s.zone_cards("hand", 2)
    assert [a.id for a in s.legal_actions()] == [f"d:{k}" for k in range(1, len(left) + 1)]
    for seat in (0, 1, 3):
        assert _hand(s.observation(seat), 2)["cards"] is None
    # every seat saw the card taken where it lay, so every seat knows the choice
    assert s.public_history(1)[-1] == (0, f"c:{taken}")
    assert s.revealed == ()
    s.apply("d:1")
    assert s.is_terminal() and taken in s.zone_cards("hand", 0)


def test_both_engines_play_the_same_game_and_events() -> None:
    runs = []
    for engine in ENGINES:
        s = _new(engine, events=True)
        rng = random.Random(5)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        runs.append((s.history, s.events, s.scores()))
    assert runs[0] == runs[1]
    sights = [e for e in runs[0][1] if e["type"] == "sight"]
    assert [e["shown"] for e in sights] == [True, False]
    assert sights[0]["zone"] == {"zone": "hand", "owner": 2} and len(sights[0]["cards"]) == 3


def test_the_bots_samples_keep_the_revealed_dummy_where_it_is() -> None:
    s = _new()
    rng = random.Random(1)
    # before the lead the dummy's hand is dealt anew in seat 1's samples
    before = {tuple(resample(s, 1, rng).zone_cards("hand", 2)) for _ in range(30)}
    assert len(before) > 1
    _play_first(s, 2)  # the lead and the dummy's card: seat 3 to play
    assert s.current_player() == 3
    dummy, own = s.zone_cards("hand", 2), s.zone_cards("hand", 3)
    tracker = Tracker(3)
    others = set()
    for _ in range(30):
        for w in (resample(s, 3, rng), tracker.infoset(s).sample(rng)):
            assert w.zone_cards("hand", 2) == dummy and w.zone_cards("hand", 3) == own
            others.add(tuple(w.zone_cards("hand", 0)))
    assert len(others) > 1  # what the seat cannot see is still sampled


def test_a_seat_remembers_the_cards_it_saw_once_the_dummy_is_hidden_again() -> None:
    s = _new()
    _play_first(s, 5)  # the trick, then the declarer's choice: the dummy is hidden again
    assert s.decision_name() == "d" and s.revealed == ()
    dummy = s.zone_cards("hand", 2)
    rng = random.Random(2)
    tracker = Tracker(1)
    samples = [tracker.infoset(s).sample(rng) for _ in range(20)]
    assert all(w.zone_cards("hand", 2) == dummy for w in samples)
    # it knows them where they lie (not only from the decisions made while it saw them)
    prog = s.program
    where = prog.layout.zone_id["hand"] + 2
    assert {prog.card_ids[c] for c, z in tracker.knowledge.known.items() if z == where} \
        == set(dummy)
    # a sampler that knows only what the seat sees now deals it anew
    assert any(resample(s, 1, rng).zone_cards("hand", 2) != dummy for _ in range(30))


def test_the_seat_view_account_and_screen_follow_the_reveal() -> None:
    s = _new(events=True)
    prog = s.program
    label = {cid: prog.card_labels[i] for i, cid in enumerate(prog.card_ids)}
    dealt = s.zone_cards("hand", 2)
    view = SeatView(prog, 3).follower()
    early = view(list(s.events or []))
    # the deal into the dummy's hand is not named to seat 3
    assert not {e["card"] for e in early if e["type"] == "move"} & set(dealt)
    s.events.clear()
    _play_first(s, 2)  # the lead, and the dummy's own play
    later = view(list(s.events or []))
    sight = next(e for e in later if e["type"] == "sight")
    assert sight["shown"] and sight["cards"] == dealt  # revealed before the dummy played
    account = " ".join(str(getattr(x, "plain", x)) for x in SeatNarrator(prog, 3).lines(later))
    assert "Seat 2's hand is shown to all" in account
    console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False)
    for item in render_screen(s, 3, later, CardBook(prog)):
        console.print(item)
    screen = console.file.getvalue()  # type: ignore[attr-defined]
    for cid in s.zone_cards("hand", 2):
        assert label[cid] in screen
    for cid in s.zone_cards("hand", 0) + s.zone_cards("hand", 1):
        assert label[cid] not in screen


@pytest.mark.parametrize("engine", ENGINES)
def test_a_save_keeps_the_revealed_zone_and_resumes_the_same_game(engine: str) -> None:
    game = _game(engine)
    s = game.new_state(4, seed=SEED)
    _play_first(s, 2)
    data = json.loads(s.to_json())
    assert data["version"] == 7 and data["revealed"] == list(s.revealed) != []
    back = State.from_json(s.to_json(), game)
    assert back.revealed == s.revealed
    for seat in (0, 1, 3, None):
        assert back.observation(seat) == s.observation(seat)
    while not s.is_terminal():
        action = s.legal_actions()[-1].id
        s.apply(action)
        back.apply(action)
        assert back.observation(1) == s.observation(1)
    assert back.scores() == s.scores() and back.revealed == s.revealed == ()
    data["revealed"] = [999]
    with pytest.raises(RulesError, match="zones revealed in play"):
        State.from_json(data, game)


def test_reveal_and_hide_print_back_and_change_nothing_twice() -> None:
    text = DUMMY.replace("                reveal hand[dummy]\n",
                         "                reveal hand[dummy]\n                reveal hand[dummy]\n")
    s = rulesplay.loads(text).new_state(4, seed=SEED, record_events=True)
    _play_first(s, 1)
    assert [e["type"] for e in s.events or []].count("sight") == 1


# The same deal with the dummy seen by the declarer alone once the lead is made: a zone's
# 'seen by' (the seats that see it besides the declared ones), worked out in play.
SEEN_BY = DUMMY.replace(
    'zone hand "hand": per player, owner\n',
    'zone hand "hand": per player, owner,\n'
    '    seen by declarer if player == dummy and dummy_open else none\n').replace(
    'var dummy "dummy": player = 2\n',
    'var dummy "dummy": player = 2\nvar dummy_open "dummy open": bool = false\n').replace(
    "                reveal hand[dummy]\n", "                dummy_open = true\n").replace(
    "    hide hand[dummy]\n", "    dummy_open = false\n")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_zone_seen_by_the_declarer_is_seen_by_it_alone(engine: str) -> None:
    s = rulesplay.loads(SEEN_BY, engine=engine).new_state(4, seed=SEED, record_events=True)
    assert all(_hand(s.observation(p), 2)["cards"] is None for p in (0, 1, 3))
    _play_first(s, 1)  # the opening lead: from the next decision on the declarer sees it
    dummy = s.zone_cards("hand", 2)
    assert _hand(s.observation(0), 2)["cards"] == dummy
    assert _hand(s.observation(0), 2)["visibility"] == "owner"
    for seat in (1, 3, None):
        assert _hand(s.observation(seat), 2)["cards"] is None
    _play_first(s, 3)
    assert [a.id for a in s.legal_actions()] == [f"c:{c}" for c in s.zone_cards("hand", 2)]
    taken = s.legal_actions()[0].id
    s.apply(taken)
    # the others never saw the card taken into the declarer's hand: the choice is hidden
    assert s.public_history(1)[-1] == (0, None) and s.public_history(0)[-1] == (0, taken)
    assert [a.id for a in s.legal_actions()] == ["d:1"]  # not seen any more: blind
    sights = [e for e in s.events or [] if e["type"] == "sight"]
    assert [(e["was"], e["seers"]) for e in sights] == [(0, 1), (1, 0)]
    # seat 1's view: the events say who sees the zone, never its cards
    view = SeatView(s.program, 1).filter(s.events or [])
    seen = [e for e in view if e["type"] == "sight"]
    assert all(set(e["cards"]) == {"?"} for e in seen)
    mine = [e for e in SeatView(s.program, 0).filter(s.events or []) if e["type"] == "sight"]
    assert mine[0]["cards"] == sights[0]["cards"]
    account = " ".join(str(getattr(x, "plain", x))
                       for x in SeatNarrator(s.program, 1).lines(view))
    assert "Seat 2's hand is now seen by Seat 0" in account


def test_samples_keep_a_zone_seen_by_the_seat_and_deal_it_anew_for_the_others() -> None:
    s = rulesplay.loads(SEEN_BY).new_state(4, seed=SEED)
    _play_first(s, 3)  # seat 0 to play; it sees the dummy
    assert s.current_player() == 0
    dummy, rng = s.zone_cards("hand", 2), random.Random(4)
    assert all(resample(s, 0, rng).zone_cards("hand", 2) == dummy for _ in range(20))
    assert all(Tracker(0).infoset(s).sample(rng).zone_cards("hand", 2) == dummy
               for _ in range(5))
    assert any(resample(s, 3, rng).zone_cards("hand", 2) != dummy for _ in range(30))


def test_a_save_keeps_who_a_zone_is_seen_by() -> None:
    game = rulesplay.loads(SEEN_BY)
    s = game.new_state(4, seed=SEED)
    _play_first(s, 2)
    data = json.loads(s.to_json())
    assert data["seen"][s.program.layout.zone_id["hand"] + 2] == 1
    back = State.from_json(s.to_json(), game)
    assert back.observation(0) == s.observation(0) and back.seen == s.seen
    data["seen"] = [1 << 9] * len(data["seen"])
    with pytest.raises(RulesError, match="who sees each zone"):
        State.from_json(data, game)


def test_a_seen_by_naming_a_seat_the_table_lacks_fails_at_its_place() -> None:
    text = SEEN_BY.replace("seen by declarer if", "seen by 7 if")
    s = rulesplay.loads(text).new_state(4, seed=SEED)
    with pytest.raises(RulesError, match="'seen by' gave seat 7") as err:
        s.apply(s.legal_actions()[0])
    assert err.value.span.line == 11


def test_the_seen_by_game_plays_the_same_on_both_engines() -> None:
    runs = []
    for engine in ENGINES:
        s = rulesplay.loads(SEEN_BY, engine=engine).new_state(4, seed=8, record_events=True)
        rng = random.Random(9)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        runs.append((s.history, s.events, s.scores()))
    assert runs[0] == runs[1]
    assert any(e["type"] == "sight" for e in runs[0][1])


def test_the_declarers_screen_shows_the_dummy_it_sees_and_no_other_screen_does() -> None:
    s = rulesplay.loads(SEEN_BY).new_state(4, seed=SEED)
    _play_first(s, 3)  # the declarer, seat 0, to play; it sees the dummy
    prog = s.program
    label = {cid: prog.card_labels[i] for i, cid in enumerate(prog.card_ids)}
    only_dummy = [c for c in s.zone_cards("hand", 2)]
    screens = {}
    for seat in (0, 1):
        console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False)
        for item in render_screen(s, seat, [], CardBook(prog)):
            console.print(item)
        screens[seat] = console.file.getvalue()  # type: ignore[attr-defined]
    assert all(label[c] in screens[0] for c in only_dummy)
    assert not any(label[c] in screens[1] for c in only_dummy)


def test_a_revealed_deck_and_top_pile_are_seen_whole() -> None:
    text = """
game "Open deck"
players 2
card card "card":
    rank: 1..6
zone deck "deck": shared, hidden
zone pile "pile": shared, top
zone hand "hand": per player, owner

phase play "Play":
    move deck to pile
    reveal pile
    0 chooses c from pile "take a card from the pile"
    move c to hand[0]
    hide pile
    1 chooses d from pile "take a card from the pile"
    move d to hand[1]
    next end

score: count(hand[player])
"""
    for engine in ENGINES:
        s = rulesplay.loads(text, engine=engine).new_state(2, seed=1)
        pile = s.zone_cards("pile")
        assert s.observation(1)["zones"][1]["cards"] == pile
        assert [a.id for a in s.legal_actions()] == [f"c:{c}" for c in pile]
        s.apply(f"c:{pile[0]}")
        # hidden again: the top card only, and a blind pick
        obs = s.observation(1)["zones"][1]
        assert obs["cards"] is None and obs["top"] == pile[-1]
        assert [a.id for a in s.legal_actions()] == [f"d:{k}" for k in range(1, 6)]


FILTERED = DUMMY.replace(
    'declarer chooses c from hand[dummy] "take',
    'declarer chooses c from hand[dummy]\n'
    '        where c.suit == lead or not any(hand[dummy], it.suit == lead) "take').replace(
    'declarer chooses d from hand[dummy] "take',
    'declarer chooses d from hand[dummy] where d.rank > 1 "take')


@pytest.mark.parametrize("engine", ENGINES)
def test_a_choice_from_a_zone_shown_in_play_may_test_its_cards_while_its_chooser_sees_them(
        engine: str) -> None:
    """The text cannot prove the dummy seen when the declarer chooses: the filter is
    judged when the options are listed (the cards while the declarer sees them; a located
    error when it would be a blind pick)."""
    s = rulesplay.loads(FILTERED, engine=engine).new_state(4, seed=SEED)
    _play_first(s, 4)
    lead = s.var("lead")
    dummy = s.zone_cards("hand", 2)
    suit = {cid: s.program.card_attrs[s.program.card_ids.index(cid)]["suit"] for cid in dummy}
    follows = [c for c in dummy if suit[c] == lead] or dummy
    assert [a.id for a in s.legal_actions()] == [f"c:{c}" for c in follows]
    with pytest.raises(RulesError, match="'d' is chosen from cards its chooser cannot see"):
        s.apply(s.legal_actions()[0])  # hidden again: 'd' would test cards it cannot see


def test_a_choice_from_a_zone_never_shown_in_play_may_not_test_its_cards() -> None:
    text = FILTERED.replace("reveal hand[dummy]", "lead = card.suit")
    with pytest.raises(RulesValidationError, match="'c' is picked blind") as err:
        rulesplay.loads(text)
    assert "the 'where' of 'c' reads hand[dummy]" in str(err.value.render())


@pytest.mark.parametrize("spec", ["random", "greedy:samples=2", "mcts:iterations=20"])
def test_bots_finish_games_with_a_revealed_and_a_seen_by_dummy(spec: str) -> None:
    for text in (DUMMY, SEEN_BY):
        s = rulesplay.loads(text).new_state(4, seed=6)
        bots = [make_agent(spec, seat, 3) for seat in range(4)]
        while not s.is_terminal():
            s.apply(bots[s.current_player()].step(s))
        assert sum(s.scores()) == 1 + 12 - 4  # one trick won, the cards left in hands


def test_revealing_a_public_zone_is_a_warning() -> None:
    text = DUMMY.replace("    hide hand[dummy]\n", "    hide hand[dummy]\n    reveal table\n")
    (warning,) = rulesplay.loads(text).checked.warnings
    assert warning.message == ("zone 'table' is public: every seat sees it already, so "
                               "'reveal' changes nothing")
    assert not rulesplay.loads(DUMMY).checked.warnings


@pytest.mark.parametrize("text", [DUMMY, SEEN_BY], ids=["reveal", "seen_by"])
def test_the_differential_check_holds_with_reveals_saves_and_clones(text: str) -> None:
    """tests/test_differential.py's check (the same legal actions, events, scores and
    history on both engines, and a compiled copy saved and reloaded or cloned on the way)."""
    from test_differential import play_both
    reference = rulesplay.loads(text, engine="interpret")
    compiled = rulesplay.loads(text, engine="compiled")
    for seed in range(1, 9):
        assert play_both(reference, compiled, 4, seed) == 6
