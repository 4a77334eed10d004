"""Blind plays in a trick (issue 13 item 12): a seat that plays from cards it cannot see (its
own face-down pile, the hand of the seat on its left) picks a position, never a card, as a
blind ``chooses`` does; once in the trick the card is seen by all."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

import rulesplay
from rulesplay import State
from rulesplay.agents import Tracker, make_agent
from rulesplay.cardbook import CardBook
from rulesplay.cli import main
from rulesplay.engine.choices import ChooseNode
from rulesplay.engine.tricks import TrickNode
from rulesplay.errors import RulesValidationError
from rulesplay.screens import render_screen
from rulesplay.seatview import SeatView

ROOT = Path(__file__).resolve().parents[1]

HEAD = """
game "Blind Tricks"
players 2..4

enum suit: red, blue
card card "card":
    suit: suit
    rank: 1..6
    label: "{{suit}} {{rank}}"

zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone pile "pile": per player, hidden
zone table "table": shared, public
zone won "won": per player, public
player var tricks "tricks": int = 0
var dummy "dummy": player = 1

phase deal "Deal":
    shuffle deck
    deal 3 from deck to {zone}
    next play

phase play "Play":
    repeat 3 times:
        trick in table led by 0:
            each player plays c from {source} "{prompt}"
            won by highest it.rank
            after trick:
                tricks[winner] += 1
                move table to won[winner]
    next end

score: tricks[player]
"""

# Each seat turns over a card of its own face-down pile, which not even it can see.
PILES = HEAD.format(zone="pile", source="pile[player]", prompt="turn over a card")
# Each seat plays a card of the hand of the seat on its left, held face to that seat.
LEFT = HEAD.format(zone="hand", source="hand[left of player]", prompt="play from the left")
GAMES = {"piles": (PILES, "pile", 0), "left": (LEFT, "hand", 1)}  # text, zone, owner's offset


def _state(name: str, seed: int = 1, **kw: bool) -> State:
    return rulesplay.loads(GAMES[name][0]).new_state(3, seed=seed, **kw)


def _source(s: State, name: str) -> list[str]:
    """The cards the seat to play plays from, bottom to top."""
    _, zone, offset = GAMES[name]
    return s.zone_cards(zone, (s.current_player() + offset) % 3)


def _names(s: State) -> set[str]:
    return set(s.program.card_ids) | set(s.program.card_labels)


@pytest.mark.parametrize("name", GAMES)
def test_the_plays_are_positions_and_the_card_at_one_goes_to_the_trick(name: str) -> None:
    s = _state(name)
    assert s.current_player() == 0 and s.decision_name() == "play"
    cards = _source(s, name)
    owner = GAMES[name][2]
    actions = s.legal_actions()
    assert [a.id for a in actions] == ["play:1", "play:2", "play:3"]
    assert [a.label for a in actions] == ["card 1 of 3", "card 2 of 3", "card 3 of 3"]
    assert not any(n in a.id or n in a.label for a in actions for n in _names(s))
    assert all(a.value == k and not a.card for k, a in enumerate(actions, 1))
    s.apply("play:2")
    assert s.zone_cards("table") == [cards[1]]
    assert s.zone_cards(GAMES[name][1], owner) == [cards[0], cards[2]]
    s.apply("play:3")
    assert s.history == [(0, "play:2"), (1, "play:3")]
    assert s.program.card_ids[s.loc[s.program.layout.lslot["c"]]] == s.zone_cards("table")[-1]
    # A position is all anyone learnt of the choice, and all may know it.
    for seat in (0, 1, 2, None):
        assert s.public_history(seat) == s.history
    assert s.unseen_choices == {}
    back = State.from_json(s.to_json())  # a save resumes at a blind play
    assert [a.id for a in back.legal_actions()] == ["play:1", "play:2", "play:3"]
    nxt = _source(s, name)[0]
    s.apply("play:1")
    back.apply("play:1")
    assert nxt in s.zone_cards("won", s.pv[s.program.layout.pslot["tricks"]].index(1))
    assert back.zones == s.zones


def test_the_owner_of_the_hand_played_from_sees_it_but_the_player_does_not() -> None:
    s = _state("left")
    hands = {z["owner"]: z for z in s.observation(0)["zones"] if z["zone"] == "hand"}
    assert hands[1]["cards"] is None and hands[1]["count"] == 3  # seat 0 plays from it
    assert {z["owner"]: z for z in s.observation(1)["zones"]
            if z["zone"] == "hand"}[1]["cards"] == s.zone_cards("hand", 1)


def test_which_tricks_are_blind_is_decided_once_when_the_zone_makes_it_constant() -> None:
    """The common case (a seat's own hand, a public zone) costs no visibility test per play;
    a zone other seats own, or nobody sees, is tested per play."""
    for path in sorted((ROOT / "rulesets").glob("*.rules")):
        game = rulesplay.load(path)
        prog = game.program(game.player_range[0])
        picks = [n for n in prog.nodes if isinstance(n, TrickNode)
                 or isinstance(n, ChooseNode) and n.actions.card]
        assert picks and all(n.blind is None for n in picks), path.name
    own = rulesplay.loads(HEAD.format(zone="hand", source="hand[player]", prompt="p"))
    seen = [n.blind for n in own.program(3).nodes if isinstance(n, TrickNode)]
    table = rulesplay.loads(HEAD.format(zone="hand", source="first(1, table)", prompt="p"))
    assert seen and set(seen) == {None}
    assert {n.blind is None for n in table.program(3).nodes if isinstance(n, TrickNode)} \
        == {False}  # not a zone: tested card by card when it is played
    for name in GAMES:
        prog = rulesplay.loads(GAMES[name][0]).program(3)
        assert {n.blind is not None for n in prog.nodes if isinstance(n, TrickNode)} == {True}


def test_a_trick_from_the_players_own_hand_still_names_the_cards() -> None:
    s = rulesplay.loads(HEAD.format(zone="hand", source="hand[player]", prompt="p")) \
        .new_state(3, seed=1)
    assert {a.id for a in s.legal_actions()} == {f"play:{c}" for c in s.zone_cards("hand", 0)}


def test_a_play_from_a_zone_seen_by_some_seats_only_is_blind_for_the_others() -> None:
    """``hand[dummy]``: the text does not tell whose hand it is, the run time does."""
    s = rulesplay.loads(HEAD.format(zone="hand", source="hand[dummy]", prompt="p")) \
        .new_state(3, seed=1)
    assert [a.id for a in s.legal_actions()] == ["play:1", "play:2", "play:3"]  # seat 0
    s.apply("play:1")
    assert {a.id for a in s.legal_actions()} == {f"play:{c}" for c in s.zone_cards("hand", 1)}


# ------------------------------------------------------------ what a blind play may test
@pytest.mark.parametrize("name, play, message, col", [
    ("piles", "pile[player] where c.rank > 2",
     "the card played ('c') is picked blind (by position) from cards the player cannot see: "
     "its 'where' cannot test the card", 57),
    ("left", "hand[left of player] where count(table) == 0 or c.suit == top(table).suit",
     "the card played ('c') is picked blind (by position) from cards the player cannot see: "
     "its 'where' cannot test the card", 65),
    ("left", "hand[player] where any(hand[left of player], it.rank == c.rank)",
     "the 'where' of the card played ('c') reads hand[left of player], which the player "
     "cannot see (only its owner sees its cards, and its seat is not written 'player'): the "
     "options listed would show those cards", 61),
    ("left", "hand[player] where any(hand[(player + 2) % players], it.rank == c.rank)",
     "the 'where' of the card played ('c') reads hand[(player + 2) % players], which the "
     "player cannot see (only its owner sees its cards, and its seat is not written "
     "'player'): the options listed would show those cards", 61),
    ("left", "(deck where it.rank > 3)",
     "the card played ('c') is picked blind from deck, which the player cannot see (hidden: "
     "no seat sees its cards): it may take cards by position (top, first...) but not test "
     "them", 39),
])
def test_plays_worked_out_from_unseen_cards_are_refused(name: str, play: str, message: str,
                                                        col: int) -> None:
    text, zone, _ = GAMES[name]
    source = "pile[player]" if zone == "pile" else "hand[left of player]"
    text = text.replace(f"plays c from {source}", f"plays c from {play}")
    with pytest.raises(RulesValidationError) as info:
        rulesplay.loads(text, file="t.rules")
    found = [d for d in info.value.diagnostics if d.message == message]
    assert found, [d.message for d in info.value.diagnostics]
    assert (found[0].span.line, found[0].span.col) == (27, col)


def test_a_play_whose_filter_tests_a_card_the_text_does_not_show_the_player_sees() -> None:
    # The text does not show that the dummy is the player: the play may be blind, so its
    # filter may not test the card.
    text = HEAD.format(zone="hand", source="hand[dummy] where c.rank > 0", prompt="p")
    with pytest.raises(RulesValidationError, match="its 'where' cannot test the card"):
        rulesplay.loads(text)


def test_a_filter_that_does_not_test_the_card_allows_all_positions_or_none() -> None:
    """A climbing trick from face-down piles: at most two cards a trick, then the others
    must pass (a seat with no play passes by itself)."""
    text = PILES.replace("trick in table", "trick climbing in table").replace(
        '"turn over a card"', 'where count(table) < 2 "turn over a card"\n'
        '            pass "pass"')
    s = rulesplay.loads(text).new_state(3, seed=1)
    assert [a.id for a in s.legal_actions()] == ["play:1", "play:2", "play:3"]  # leads
    s.apply("play:3")
    assert [a.id for a in s.legal_actions()] == ["play:1", "play:2", "play:3", "pass"]
    s.apply("play:1")
    # seats 2 and 0 have no play and pass; seat 1 wins with the higher of the two cards
    assert len(s.zone_cards("won", 0) + s.zone_cards("won", 1)) == 2
    assert s.current_player() == 0 and len(s.legal_actions()) == 2


# ------------------------------------------------------------ logs, screens and bots
def _log(tmp_path: Path, name: str, *extra: str) -> list[dict]:
    rules = tmp_path / f"{name}.rules"
    rules.write_text(GAMES[name][0], encoding="utf-8")
    out = tmp_path / f"{name}{len(extra)}.jsonl"
    result = CliRunner().invoke(main, ["run", str(rules), "--players", "3", "--seed", "4",
                                       "--quiet", "--log", str(out), *extra])
    assert result.exit_code == 0, result.output
    return [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_log_names_no_card_it_cannot_see_before_it_is_played(tmp_path: Path,
                                                                    name: str) -> None:
    whole = _log(tmp_path, name)
    mine = _log(tmp_path, name, "--log-seat", "0")
    assert len(whole) == len(mine) and mine[0]["seat"] == 0
    ids = rulesplay.loads(GAMES[name][0]).program(3).card_ids
    own = {r["card"] for r in whole if r["type"] == "move"
           and r["to"] == {"zone": "hand", "owner": 0}}  # seat 0's own hand (left)
    played: set[str] = set()
    for full, row in zip(whole[1:], mine[1:], strict=True):
        if full["type"] == "move" and full["to"]["zone"] == "table":
            played.add(full["card"])
        named = {c for c in ids if f'"{c}"' in json.dumps(row)}
        assert named <= played | own, (row, named - played - own)
        if row["type"] == "decision":
            assert re.fullmatch(r"play:\d", row["action"]), row
            assert re.fullmatch(r"card \d of \d", row["label"]), row
    assert len(played) == 9 and (not own if name == "piles" else len(own) == 3)
    result = CliRunner().invoke(main, ["replay", str(tmp_path / f"{name}0.jsonl")])
    assert result.exit_code == 0, result.output


def test_the_screen_shows_positions_and_no_card_the_seat_cannot_see() -> None:
    s = _state("piles", record_events=True)
    s.apply("play:1")
    console = Console(file=io.StringIO(), width=80, color_system=None, highlight=False)
    view = SeatView(s.program, 1).filter(s.events or [])
    for item in render_screen(s, 1, view, CardBook(s.program)):
        console.print(item)
    screen = console.file.getvalue()  # type: ignore[attr-defined]
    assert "card 1 of 3" in screen and "card 3 of 3" in screen
    played = s.zone_cards("table")[0]
    labels = {s.program.card_labels[s.program.card_ids.index(c)]
              for seat in range(3) for c in s.zone_cards("pile", seat)}
    assert not {lb for lb in labels if lb in screen}
    assert s.program.card_labels[s.program.card_ids.index(played)] in screen


@pytest.mark.parametrize("spec", ["random", "greedy:samples=3", "mcts:iterations=30"])
@pytest.mark.parametrize("name", GAMES)
def test_bots_finish_a_game_of_blind_plays(spec: str, name: str) -> None:
    s = _state(name, seed=2)
    bots = [make_agent(spec, seat, 2) for seat in range(3)]
    while not s.is_terminal():
        action = bots[s.current_player()].step(s)
        assert action.id.split(":")[1].isdigit()
        s.apply(action)
    assert sum(s.scores()) == 3
    assert all(b.tracker.stats["fallbacks"] == 0 for b in bots)


@pytest.mark.parametrize("spec", ["greedy:samples=3", "mcts:iterations=40"])
@pytest.mark.parametrize("name", GAMES)
def test_bots_do_not_see_the_cards_they_play_blind(spec: str, name: str) -> None:
    _, zone, offset = GAMES[name]
    checked = 0
    for seed in range(4):
        s = _state(name, seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            seat = s.current_player()
            if len(s.legal_actions()) > 1:
                fake = s.clone()
                cards = _source(s, name)
                random.Random(seed).shuffle(cards)
                fake.arrange(zone, (seat + offset) % 3, cards)
                assert s.observation(seat)["zones"] == fake.observation(seat)["zones"]
                a = make_agent(spec, seat, 5).step(s)
                b = make_agent(spec, seat, 5).step(fake)
                assert a.id == b.id
                checked += 1
            s.apply(rng.choice(s.legal_actions()))
    assert checked >= 8


@pytest.mark.parametrize("name", GAMES)
def test_samples_deal_the_source_anew_so_a_position_is_any_card(name: str) -> None:
    s = _state(name, seed=2)
    info = Tracker(0).infoset(s)
    got = set()
    for k in range(30):
        w = info.sample(random.Random(k))
        w.apply("play:1")
        got.update(w.zone_cards("table"))
    assert len(got) > 3  # not always the true card
    assert not got & set(s.zone_cards("hand", 0))  # (left: never seat 0's own cards)


@pytest.mark.parametrize("name", GAMES)
def test_both_engines_play_the_same_blind_games(name: str) -> None:
    from test_differential import play_both

    text = GAMES[name][0]
    for seed in (1, 2):
        assert play_both(rulesplay.loads(text, engine="interpret"),
                         rulesplay.loads(text, engine="compiled"), 3, seed) == 9
