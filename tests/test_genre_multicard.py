"""Several cards as one decision (issue 11 item 4): a pass of three cards, a climbing trick
played in sets of one rank, open melds; their ids, the cap, hidden information, the terminal
table, saves, and both engines.
"""

from __future__ import annotations

import io
import random
from math import comb
from pathlib import Path

import pytest
from rich.console import Console
from test_differential import play_both

import rulesplay
from rulesplay.agents import make_agent
from rulesplay.agents.infoset import Tracker
from rulesplay.cardbook import CardBook
from rulesplay.engine.card_sets import action_space
from rulesplay.engine.game import loads
from rulesplay.engine.state import State
from rulesplay.errors import IllegalActionError, RulesError
from rulesplay.human import HumanSeat, SeatNarrator, SeatView
from rulesplay.limits import MAX_SET_ACTIONS

# Hearts' pass: each seat passes three cards to the seat on its left, all at once (a seat
# chooses before it receives), then one hand of tricks.
PASS = """
game "Pass three"
players 3..4
enum suit: clubs, diamonds, hearts, spades
card card "card":
    suit: suit
    rank: 2..8
    label: "{rank} of {suit}"
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone passed "passed": per player, owner
zone table "table": shared, public
zone won "won": per player, public
trick var lead: suit
var leader: player = 0

phase pass "Pass":
    shuffle deck
    deal 6 from deck to hand
    for each player q:
        q secretly chooses 3 cards from hand[q] "pass three cards"
        move cards to passed[left of q]
    for each player q:
        move passed[q] to hand[q]
    next play

phase play "Play":
    repeat while count(hand[leader]) > 0:
        trick in table led by leader:
            each player plays card from hand[player]
                where lead == none or card.suit == lead or not any(hand[player], it.suit == lead)
            after play:
                if lead == none:
                    lead = card.suit
            won by highest (it.suit == lead, it.rank)
            after trick:
                leader = winner
                move table to won[winner]
    next end

score: -count(won[player] where it.suit == hearts)
"""

# President's climbing trick: the leader plays 1 to 4 cards of one rank; each next play is as
# many cards, of a higher rank, or a pass.
CLIMB = """
game "Climbing sets"
players 3..4
enum suit: clubs, diamonds, hearts, spades
card card "card":
    suit: suit
    rank: 3..9
    label: "{rank} of {suit}"
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone table "table": shared, public
zone out "out": shared, public
trick var led "cards led": int = 0
player var place: int = 0
var finished: int = 0
var leader: player = 0

phase deal "Deal":
    shuffle deck
    deal up to 7 from deck to hand
    next play

phase play "Play":
    repeat while finished < players - 1:
        trick climbing in table led by leader:
            each player plays 1..4 cards from hand[player] of one rank
                where led == 0 or (count(cards) == led and cards[0].rank > max(table, it.rank))
                "play a set"
            pass "pass"
            after play:
                if led == 0:
                    led = count(cards)
            won by highest it.rank
            after trick:
                leader = winner
                move table to out
        for each player p:
            if count(hand[p]) == 0 and place[p] == 0:
                finished += 1
                place[p] = finished
        if count(hand[leader]) == 0:
            leader = left of leader
    next end

score: -place[player] if place[player] > 0 else -players
"""

# Open melds (runs in one suit, laid face up) and a face-down discard of two.
MELD = """
game "Melds"
players 2..3
enum suit: clubs, hearts
card card "card":
    suit: suit
    rank: 1..8
    label: "{rank} of {suit}"
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
zone table "table": shared, public
zone junk "junk": shared, hidden

phase turns "Turns":
    shuffle deck
    deal 5 from deck to hand
    for each player q:
        q may choose 2..3 meld from hand[q] of one suit and consecutive rank "lay a run"
            skip "lay nothing"
        move meld to table
    for each player q:
        q chooses 2 cards from hand[q] "discard two face down"
        move cards to junk
    next end

score: count(table)
"""


def _ranks(s: State, aid: str) -> list[int]:
    """The ranks of the cards of a set's id."""
    prog = s.program
    ids = aid.split(":", 1)[1].split("+")
    return [prog.card_attrs[prog.card_ids.index(c)]["rank"] for c in ids]


# ---------------------------------------------------------------- the pass of three
def test_a_pass_of_three_is_one_decision_among_every_three_cards_of_the_hand() -> None:
    s = loads(PASS).new_state(4, seed=1, record_events=True)
    prog = s.program
    hand = s.zone_cards("hand", 0)
    legal = s.legal_actions()
    assert s.current_player() == 0 and len(legal) == comb(6, 3) == 20
    order = {cid: i for i, cid in enumerate(prog.card_ids)}
    for a in legal:
        cards = a.id.split(":", 1)[1].split("+")
        assert a.id.startswith("cards:") and len(set(cards)) == 3 and set(cards) <= set(hand)
        assert [order[c] for c in cards] == sorted(order[c] for c in cards)  # card order
        assert a.label == ", ".join(prog.card_labels[order[c]] for c in cards)
    chosen = legal[7]
    s.apply(chosen.id)
    passed = chosen.id.split(":", 1)[1].split("+")
    assert sorted(s.zone_cards("passed", 1)) == sorted(passed)
    assert len(s.zone_cards("hand", 0)) == 3 and s.current_player() == 1
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    assert s.decision_name() == "play"  # every seat passed, then received: hands of 6
    assert all(len(s.zone_cards("hand", p)) == 6 for p in range(4))
    assert set(passed) <= set(s.zone_cards("hand", 1))


def test_a_set_is_named_by_its_cards_in_card_order_only() -> None:
    s = loads(PASS).new_state(4, seed=2)
    first = s.legal_actions()[0].id
    cards = first.split(":", 1)[1].split("+")
    reordered = "cards:" + "+".join(reversed(cards))
    with pytest.raises(IllegalActionError):
        s.apply(reordered)
    # The same cards have the same id in another game (another deal, another seat).
    seen: dict[frozenset[str], str] = {}
    for seed in range(1, 6):
        t = loads(PASS).new_state(3, seed=seed)
        for a in t.legal_actions():
            key = frozenset(a.id.split(":", 1)[1].split("+"))
            assert seen.setdefault(key, a.id) == a.id


def test_every_id_of_a_decision_is_listed_from_the_declaration() -> None:
    game = loads(PASS)
    prog = game.program(4)
    space = action_space(prog, "cards")
    assert len(space) == len(set(space)) == comb(28, 3)
    assert action_space(prog, "play") == [f"play:{c}" for c in prog.card_ids]
    climb = loads(CLIMB).program(4)
    # 7 ranks, 4 suits: 1 to 4 cards of one rank are 15 sets a rank; and the pass.
    assert len(action_space(climb, "play")) == 7 * 15 + 1
    with pytest.raises(ValueError, match="no decision named 'nope'"):
        action_space(prog, "nope")
    # Every id a game lists is in the space.
    for text, name, n in ((PASS, "cards", 4), (CLIMB, "play", 3), (MELD, "meld", 2)):
        g = loads(text)
        ids = set(action_space(g.program(n), name))
        for seed in (1, 2):
            s = g.new_state(n, seed=seed)
            rng = random.Random(seed)
            while not s.is_terminal():
                legal = s.legal_actions()
                if s.decision_name() == name:
                    assert {a.id for a in legal} <= ids
                s.apply(rng.choice(legal))


# ---------------------------------------------------------------- the cap
BIG = PASS.replace("rank: 2..8", "rank: 2..14").replace("deal 6", "deal 13")


def test_a_decision_with_too_many_ways_is_refused_where_its_count_is_written() -> None:
    assert len(action_space(loads(BIG).program(4), "cards")) == comb(52, 3)  # under the cap
    five = BIG.replace("chooses 3 cards", "chooses 5 cards")
    with pytest.raises(RulesError) as info:
        loads(five).new_state(4, seed=1)
    assert comb(52, 5) > MAX_SET_ACTIONS
    assert f"in {comb(52, 5):,} ways among the game's 52 cards" in info.value.message
    assert info.value.span.line == 1 + five.splitlines().index(
        next(ln for ln in five.splitlines() if "chooses 5 cards" in ln))
    # What the cards share bounds the ways: 5 cards of one suit are 4 * C(13, 5).
    suited = five.replace('"pass three cards"', 'of one suit "pass five of a suit"')
    assert len(action_space(loads(suited).program(4), "cards")) == 4 * comb(13, 5)
    small = MELD.replace("rank: 1..8", "rank: 1..2").replace("deal 5", "deal 2")
    with pytest.raises(RulesError, match="'cards' takes at least 5 cards, and the game has 4"):
        loads(small.replace("chooses 2 cards", "chooses 5 cards")).new_state(2)


def test_validate_reports_the_cap_at_the_count(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulesplay.cli import main

    path = tmp_path / "five.rules"
    path.write_text(BIG.replace("chooses 3 cards", "chooses 5 cards"), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert f"five.rules:21:28: error: 'cards' can be chosen in {comb(52, 5):,} ways" in \
        " ".join(result.output.split())


# ---------------------------------------------------------------- hidden information
def test_a_secret_pass_tells_the_others_only_that_it_was_made() -> None:
    s = loads(PASS).new_state(4, seed=3, record_events=True)
    s.apply(s.legal_actions()[5])
    passed = s.history[0][1].split(":", 1)[1].split("+")
    labels = [s.program.card_labels[s.program.card_ids.index(c)] for c in passed]
    assert s.public_history(0) == [(0, s.history[0][1])]
    for seat in (1, 2, 3):
        assert s.public_history(seat) == [(0, None)]
    # Seat 2 neither passes nor receives them: its observation, screen and log hold none.
    obs = s.observation(2)
    shown = [c for z in obs["zones"] for c in (z["cards"] or [])]
    assert not set(passed) & set(shown)
    view = SeatView(s.program, 2).filter(s.events or [])
    assert all(e.get("action") in (None, "cards:?") for e in view if e["type"] == "decision")
    text = "\n".join(str(getattr(line, "plain", line))
                     for line in SeatNarrator(s.program, 2).lines(view))
    assert "decides in secret" in text and not any(label in text for label in labels)
    # The receiver sees them arrive (in its own zone), as a rule book has it.
    assert set(passed) <= set(s.zone_cards("passed", 1))


def test_samples_conceal_another_seats_secret_pass() -> None:
    s = loads(PASS).new_state(4, seed=4)
    s.apply(s.legal_actions()[3])
    slot = s.program.layout.lslot["cards"]
    assert len(s.loc[slot]) == 3  # the local still holds seat 0's cards
    info = Tracker(1).infoset(s)
    assert info.history[0][1] is None
    for k in range(5):
        w = info.sample(random.Random(k))
        assert w.loc[slot] == [] and w.history[0] == (0, "cards:?")
    # Its own: the same cards (in the order it knows them in the zone they went to).
    own = Tracker(0).infoset(s).sample(random.Random(0)).loc[slot]
    assert sorted(own) == sorted(s.loc[slot])


def _permuted(s: State, seat: int, rng: random.Random) -> State:
    """A clone with the cards ``seat`` cannot see dealt anew among their places."""
    w = s.clone()
    zones = [z for z in ("hand", "passed") if z in w.program.layout.zone_id]
    places = [(z, o) for z in zones for o in range(w.num_players) if o != seat]
    places.append(("deck", None))
    contents = [w.zone_cards(z, o) for z, o in places]
    pool = [c for cards in contents for c in cards]
    rng.shuffle(pool)
    for (z, o), cards in zip(places, contents, strict=True):
        w.arrange(z, o, [pool.pop() for _ in cards])
    return w


@pytest.mark.parametrize("spec", ["greedy:samples=2", "mcts:iterations=12"])
def test_a_bots_pass_does_not_depend_on_cards_it_cannot_see(spec: str) -> None:
    changed = 0
    for seed in (1, 2):
        real = loads(PASS).new_state(4, seed=seed)
        real.apply(real.legal_actions()[seed])  # seat 0 has passed in secret
        fake = _permuted(real, 1, random.Random(seed))
        changed += fake.zones != real.zones
        assert real.observation(1)["zones"] == fake.observation(1)["zones"]
        a = make_agent(spec, 1, 5).step(real, random.Random(9))
        b = make_agent(spec, 1, 5).step(fake, random.Random(9))
        assert a.id == b.id and a.id.count("+") == 2
    assert changed == 2


def test_an_open_meld_is_known_and_a_face_down_discard_is_not() -> None:
    g = loads(MELD)
    for seed in range(1, 30):
        s = g.new_state(2, seed=seed)
        melds = [a for a in s.legal_actions() if a.id != "meld:skip"]
        if melds:
            break
    assert melds and all(len(set(_ranks(s, a.id))) == len(_ranks(s, a.id)) for a in melds)
    for a in melds:  # a run in one suit
        ranks = sorted(_ranks(s, a.id))
        assert ranks == list(range(ranks[0], ranks[0] + len(ranks)))
        suits = {c.split("-")[0] for c in a.id.split(":", 1)[1].split("+")}
        assert len(suits) == 1
    s.apply(melds[0])
    s.apply(s.legal_actions()[0])  # seat 1 melds or skips
    s.apply(s.legal_actions()[0])  # seat 0 discards two face down
    assert s.public_history(1)[0] == (0, melds[0].id)  # laid face up: seen by all
    assert s.public_history(1)[2] == (0, None)  # put face down from a hand: not seen
    assert s.public_history(0)[2][1] is not None
    back = State.from_json(s.to_json())
    assert back.unseen_choices == s.unseen_choices and back.public_history(1)[2] == (0, None)


def test_a_set_from_cards_the_chooser_cannot_see_is_refused() -> None:
    blind = PASS.replace("chooses 3 cards from hand[q]", "chooses 3 cards from hand[left of q]")
    with pytest.raises(RulesError, match="a set is chosen only from cards its chooser sees"):
        loads(blind)


# ---------------------------------------------------------------- the climbing trick
def test_a_climbing_trick_is_played_in_sets_of_one_rank() -> None:
    s = loads(CLIMB).new_state(3, seed=5, record_events=True)
    lead = s.legal_actions()
    assert all(len(set(_ranks(s, a.id))) == 1 for a in lead)  # of one rank
    pairs = [a for a in lead if a.id.count("+") == 1]
    assert pairs and "pass" not in {a.id for a in lead}  # the leader may not pass
    pair = pairs[0]
    rank = _ranks(s, pair.id)[0]
    s.apply(pair)
    assert len(s.zone_cards("table")) == 2
    nxt = s.legal_actions()
    assert [a.id for a in nxt][-1] == "pass"
    for a in nxt[:-1]:  # as many cards, higher
        assert a.id.count("+") == 1 and _ranks(s, a.id)[0] > rank
    while s.decision_name() == "play" and len(s.zone_cards("table")) > 0:
        top = s.zone_cards("table")[-2:]
        before = len(s.history)
        s.apply(s.legal_actions()[-1])  # everyone passes: the pair's seat wins the trick
        if len(s.history) == before:
            break
    trick = next(e for e in s.events or [] if e["type"] == "trick")
    assert trick["winner"] == 0 and set(top) <= set(trick["cards"])


@pytest.mark.parametrize(("text", "players"), [(PASS, 3), (PASS, 4), (CLIMB, 3), (CLIMB, 4),
                                               (MELD, 2), (MELD, 3)])
def test_both_engines_play_the_same_set_games(text: str, players: int) -> None:
    reference, compiled = loads(text, engine="interpret"), loads(text, engine="compiled")
    for seed in (1, 2, 3):
        assert play_both(reference, compiled, players, seed) > 0


def test_a_game_saved_at_a_set_decision_resumes_there() -> None:
    s = loads(CLIMB).new_state(4, seed=6)
    rng = random.Random(6)
    for _ in range(5):
        s.apply(rng.choice(s.legal_actions()))
    back = State.from_json(s.to_json())
    assert [a.id for a in back.legal_actions()] == [a.id for a in s.legal_actions()]
    while not s.is_terminal():
        aid = rng.choice(s.legal_actions()).id
        s.apply(aid)
        back.apply(aid)
    assert back.history == s.history and back.scores() == s.scores()


# ---------------------------------------------------------------- the terminal table
def test_a_person_types_a_set_on_one_line() -> None:
    s = loads(PASS).new_state(4, seed=7, record_events=True)
    book = CardBook(s.program)
    hand = sorted(s.zone_cards("hand", 0), key=s.program.card_ids.index)
    shorts = [book.short(c) for c in hand[:3]]
    typed = iter(["zz9", "3", "1 2 3", "help", " ".join(shorts[:2]),
                  ", ".join(reversed(shorts))])
    out = io.StringIO()
    seat = HumanSeat(Console(file=out, width=80, color_system=None), lambda _: next(typed),
                     lambda _: False, "x.json")
    action = seat.choose(s, 0, [], book, [])
    assert action.id == "cards:" + "+".join(hand[:3])
    text = " ".join(out.getvalue().split())
    assert "Choose 3 cards at once: type them on one line" in text
    assert "'zz9' names none of the cards you may choose from" in text
    assert f"'{' '.join(shorts[:2])}' is not a set you may choose now" in text
    assert "There are 20 sets, too many to number: type the cards instead" in text
    assert "'1' is a number, not one card: type the cards by their short names, e.g. " in text
    assert all(book.short(c) in text for c in hand)
    # help shows the cards and how to type a set, not every set (there are 20) in a row
    helped = text[text.index("Help"):]
    assert "You may choose" not in helped and "Commands: help" in helped
    assert helped.count("Choose 3 cards at once") == 1


def test_the_reference_example_ids_are_stable_across_player_counts() -> None:
    game = rulesplay.loads(PASS)
    assert action_space(game.program(3), "cards") == action_space(game.program(4), "cards")


def test_diff_names_a_changed_count_or_shape() -> None:
    from rulesplay.diff import diff
    from rulesplay.parse import parse_text

    base = parse_text(PASS, "a.rules")
    four = parse_text(PASS.replace("chooses 3 cards", "chooses 2..4 cards")
                      .replace('"pass three cards"', 'of one suit "pass"'), "b.rules")
    assert "  choice 'cards' in phase 'pass': 3 cards any -> 2..4 cards of one suit any" in \
        diff(base, four)


@pytest.mark.parametrize("spec", ["greedy:samples=2", "mcts:iterations=12"])
def test_a_bots_set_play_does_not_depend_on_cards_it_cannot_see(spec: str) -> None:
    """The sets others played are constraints on the samples (they held them); the cards
    still hidden are not read: permuting them leaves the bot's play unchanged."""
    changed = 0
    for seed in (3, 4):
        real = loads(CLIMB).new_state(3, seed=seed)
        rng = random.Random(seed)
        for _ in range(4):
            real.apply(rng.choice(real.legal_actions()))
        seat = real.current_player()
        fake = _permuted(real, seat, random.Random(seed))
        changed += fake.zones != real.zones
        assert real.observation(seat)["zones"] == fake.observation(seat)["zones"]
        a = make_agent(spec, seat, 5).step(real, random.Random(9))
        b = make_agent(spec, seat, 5).step(fake, random.Random(9))
        assert a.id == b.id
    assert changed == 2


def test_a_count_without_a_name_says_where_the_name_goes() -> None:
    text = PASS.replace("chooses 3 cards from", "chooses 3 from")
    with pytest.raises(RulesError) as info:
        loads(text)
    assert "write the name after their number, e.g. 'chooses 3 cards from hand[p]'" in \
        info.value.message
    with pytest.raises(RulesError, match="expected 'consecutive' or 'one'"):
        loads(PASS.replace('"pass three cards"', 'of rank "pass"'))


# A rummy meld: three or four cards of one rank, or a run of three or more in one suit.
RUMMY = MELD.replace("rank: 1..8", "rank: 1..8\n    copies: 1").replace(
    "enum suit: clubs, hearts", "enum suit: clubs, diamonds, hearts, spades").replace(
    "deal 5 from", "deal 9 from").replace(
    "q may choose 2..3 meld from hand[q] of one suit and consecutive rank",
    "q may choose 3..5 meld from hand[q] of one rank or one suit and consecutive rank")


def test_a_meld_is_a_set_of_one_rank_or_a_run_in_one_suit() -> None:
    g = loads(RUMMY)
    kinds = set()
    for seed in range(1, 40):
        s = g.new_state(3, seed=seed)
        hand = s.zone_cards("hand", 0)
        for a in s.legal_actions():
            if a.id == "meld:skip":
                continue
            cards = a.id.split(":", 1)[1].split("+")
            assert set(cards) <= set(hand) and 3 <= len(cards) <= 5
            ranks = sorted(_ranks(s, a.id))
            suits = {c.split("-")[0] for c in cards}
            run = len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))
            assert len(set(ranks)) == 1 or run, a.id
            kinds.add("set" if len(set(ranks)) == 1 else "run")
        ids = [a.id for a in s.legal_actions()]
        assert len(ids) == len(set(ids))
    assert kinds == {"set", "run"}
    # 8 ranks of 4 suits: C(4,3) + C(4,4) sets a rank; runs of 3, 4, 5 in 4 suits.
    space = action_space(g.program(3), "meld")
    assert len(space) == 8 * 5 + 4 * (6 + 5 + 4) + 1


def test_a_set_played_from_cards_the_player_cannot_see_is_refused() -> None:
    blind = CLIMB.replace("plays 1..4 cards from hand[player]",
                          "plays 1..4 cards from hand[left of player]")
    with pytest.raises(RulesError, match="a set is played only from cards its player sees"):
        loads(blind)


def test_a_person_passes_or_plays_a_set_in_a_climbing_trick() -> None:
    s = loads(CLIMB).new_state(3, seed=5, record_events=True)
    s.apply(s.legal_actions()[0])  # seat 0 leads a single card
    book = CardBook(s.program)
    seat = s.current_player()
    out = io.StringIO()
    typed = iter(["pass"])
    human = HumanSeat(Console(file=out, width=80, color_system=None), lambda _: next(typed),
                      lambda _: False, "x.json")
    assert human.choose(s, seat, [], book, []).id == "pass"
    assert "Choose 1..4 cards at once" in " ".join(out.getvalue().split())


@pytest.mark.parametrize("text", [PASS, CLIMB, MELD], ids=["pass", "climb", "meld"])
def test_kept_listings_of_sets_are_the_fresh_listings(text: str) -> None:
    # A decision's ways are kept per set of cards when its keys read the card alone: what
    # is listed again (a seat that passed, a bot's playout) is what a fresh listing gives.
    game = loads(text)
    players = 4 if 4 in range(game.player_range[0], game.player_range[1] + 1) else \
        game.player_range[0]
    prog = game.program(players)
    found = [node.sets for node in prog.nodes if getattr(node, "sets", None) is not None]
    assert found
    s = State.new(prog, 1)
    rng = random.Random(5)
    for sets in found:
        assert sets._is_pure()
        for _ in range(40):
            hand = rng.sample(range(prog.num_cards), rng.randint(0, 9))
            fresh = [sets.action(w) for w in sets.ways(s, hand)]
            assert sets.listed(s, hand, lambda s, ways: ways) == fresh
            assert sets.listed(s, hand[::-1], lambda s, ways: ways) == fresh  # (kept)
            odd = [a for a in fresh if len(a.value) % 2]
            assert sets.listed(s, hand, lambda s, ways: [w for w in ways
                                                         if len(w) % 2]) == odd
            # Fewest cards first, then in card order; each set once and in card order.
            assert [a.value for a in fresh] == sorted({a.value for a in fresh},
                                                      key=lambda t: (len(t), t))
            assert all(list(a.value) == sorted(a.value) for a in fresh)
