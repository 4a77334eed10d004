"""Bargain Quest (rulesets/bargain_quest.rules and its variants): a scenario per step of the
rule text with fixed decks, each ruling BQ1-BQ7 of RULINGS.md, each tie-break of the shopping
order, the draft direction, the end of the game, and the variants played to the end.

Scenarios run the real game and fix what matters with ``state.arrange`` (decks, hands, the
monster, heroes in town) at a known decision. Hero cards carry coins in the card variable
``gold``; a hero put into town by ``arrange`` gets its purse with :func:`set_card_var`, as
the rules do when a hero enters town. Decisions: ``pick`` (draft), ``shown``/``extra``
(display), ``h`` (hero for a shop), ``sale`` (sell an item), ``buy``/``flip`` (upgrade),
``kept_card``/``more`` (storage).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from conftest import RULESETS, legal, load_game

from rulesplay import State

BQ = RULESETS / "bargain_quest.rules"
VARIANTS = RULESETS / "variants"
FIVE_SIX = VARIANTS / "bargain_quest_5_6_players.rules"
ADVANCED_2P = VARIANTS / "bargain_quest_advanced_2p.rules"
RELIABLE = VARIANTS / "bargain_quest_reliable_heroes.rules"


# ---------------------------------------------------------------- helpers
def new(players: int = 4, seed: int = 0, path: Path = BQ, **options: Any) -> State:
    """A new game with the quest token on seat 0 unless the options say otherwise."""
    options.setdefault("first_quest", 0)
    return load_game(path, **options).new_state(num_players=players, seed=seed,
                                                record_events=True)


def cid(s: State, name: str, copy: int = 1) -> str:
    """The id of the ``copy``-th card labelled ``name`` (``"Short Sword"`` -> ``item-1#1``)."""
    found = [c for c, label in zip(s.program.card_ids, s.program.card_labels, strict=True)
             if label == name]
    assert len(found) >= copy, f"no copy {copy} of {name!r}"
    return found[copy - 1]


def attr(s: State, card: str, name: str) -> Any:
    """A printed attribute of a card."""
    return s.program.card_attrs[s.program.card_ids.index(card)][name]


def set_var(s: State, name: str, value: Any, seat: int | None = None) -> None:
    """Set a global (or, with ``seat``, a player) variable for a scenario."""
    lay = s.program.layout
    if seat is None:
        s.g[lay.gslot[name]] = value
    else:
        s.pv[lay.pslot[name]][seat] = value


def card_var(s: State, card: str, name: str) -> Any:
    """A card variable's value (e.g. the coins on a hero card, ``gold``)."""
    return s.cv[s.program.layout.cslot[name]][s.program.card_ids.index(card)]


def set_card_var(s: State, card: str, name: str, value: Any) -> None:
    """Set a card variable for a scenario."""
    s.cv[s.program.layout.cslot[name]][s.program.card_ids.index(card)] = value


def phase(s: State) -> str:
    """The name of the phase being played."""
    return s.program.nodes[s.phase].name


def coins(s: State) -> list[int]:
    """Each shop's coins."""
    return [s.var("coins", p) for p in range(s.num_players)]


def stars(s: State) -> list[int]:
    """Each shop's stars."""
    return [s.var("stars", p) for p in range(s.num_players)]


def names(s: State, zone: str, owner: int | None = None) -> list[str]:
    """The labels of a zone's cards, bottom to top."""
    labels = dict(zip(s.program.card_ids, s.program.card_labels, strict=True))
    return [labels[c] for c in s.zone_cards(zone, owner)]


def advance(s: State, until_phase: str, decision: str | None = None) -> None:
    """Play on (skipping where allowed, else the first legal action) until the game is in
    ``until_phase`` at a decision named ``decision`` (any decision when None)."""
    for _ in range(2000):
        if s.is_terminal():
            raise AssertionError(f"the game ended before {until_phase}/{decision}")
        if phase(s) == until_phase and decision in (None, s.decision_name()):
            return
        actions = s.legal_actions()
        skip = [a for a in actions if a.id.endswith(":skip")]
        s.apply(skip[0] if skip else actions[0])
    raise AssertionError(f"never reached {until_phase}/{decision}")


def put_in_town(s: State, heroes: list[str]) -> None:
    """Heroes in town, each with its purse in coins on the card."""
    s.arrange("town", None, heroes)
    for h in heroes:
        set_card_var(s, h, "gold", attr(s, h, "purse"))


def to_shopping(s: State, displays: dict[int, str], town: list[str]) -> list[int]:
    """From the first display decision: each seat's hand is just its display item, the town
    holds ``town``; play the display step. Returns the seats in the order they are asked to
    choose a hero (the shopping order), after choosing the first legal hero for each."""
    advance(s, "display", "shown")
    for seat, item in displays.items():
        s.arrange("hand", seat, [item])
    put_in_town(s, town)
    while phase(s) == "display":
        s.apply(s.legal_actions()[0])
    order = []
    while s.decision_name() == "h":
        order.append(s.current_player())
        s.apply(s.legal_actions()[0])
    return order


def play_out(s: State, seed: int = 0, limit: int = 20_000) -> State:
    """Random legal actions to the end of the game."""
    rng = random.Random(seed)
    for _ in range(limit):
        if s.is_terminal():
            return s
        s.apply(rng.choice(s.legal_actions()))
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- BQ1: the card set
def test_bq1_card_set_counts_and_first_game_names() -> None:
    prog = load_game(BQ).program(4)
    kinds: dict[str, list[dict[str, Any]]] = {}
    for a in prog.card_attrs:
        kinds.setdefault(a["kind"], []).append(a)
    assert {k: len(v) for k, v in kinds.items()} == {
        "item": 120, "hero": 16, "monster": 12, "employee": 20, "upgrade": 12, "adventure": 18}
    heroes = [h["name"] for h in kinds["hero"]]
    for name in ("Rogue", "Fighter", "Cleric", "Mage"):
        assert heroes.count(name) == 2
    assert [sum(1 for m in kinds["monster"] if m["rank"] == r) for r in (1, 2, 3)] == [4, 4, 4]
    ranks = {m["name"]: m["rank"] for m in kinds["monster"]}
    assert (ranks["Bandit Captain"], ranks["Orc Warlord"], ranks["Vampire Queen"]) == (1, 2, 3)
    assert sorted(u["type"] for u in kinds["upgrade"]) == ["more_display"] * 6 + \
        ["more_storage"] * 6
    assert all(1 <= len(i["classes"]) <= 2 for i in kinds["item"])


# ---------------------------------------------------------------- setup, BQ7
def test_setup_bq7_five_coins_quest_token_monster_deck_and_town() -> None:
    s = new(4, seed=3, first_quest=2)
    assert (phase(s), s.decision_name()) == ("supply", "pick")
    assert coins(s) == [5, 5, 5, 5] and stars(s) == [0, 0, 0, 0]  # BQ7
    assert s.var("quest") == 2
    # One monster per rank: rank I flipped at the start of the Supply step, II above III.
    assert [attr(s, m, "rank") for m in s.zone_cards("lair")] == [1]
    assert [attr(s, m, "rank") for m in s.zone_cards("monster_deck")] == [3, 2]
    assert len(s.zone_cards("box")) == 9  # the unused monsters stay in the box
    town = s.zone_cards("town")
    assert len(town) == 4 and len(s.zone_cards("hero_deck")) == 12
    assert all(card_var(s, h, "gold") == attr(s, h, "purse") for h in town)
    # 4 items each (the rank I Goblin Raiders deal one fewer).
    dealt = 3 if names(s, "lair") == ["Goblin Raiders"] else 4
    assert all(len(s.zone_cards("packet", p)) == dealt for p in range(4))
    assert len(s.zone_cards("adventure_deck")) == 18
    assert len(s.zone_cards("employee_deck")) == 20 and len(s.zone_cards("market")) == 12


def test_setup_quest_token_drawn_when_not_given() -> None:
    holders = {new(3, seed=seed, first_quest=-1).var("quest") for seed in range(12)}
    assert holders <= {0, 1, 2} and len(holders) > 1


def test_setup_first_game_monsters_and_hero_order() -> None:
    s = new(4, first_game=True)
    assert names(s, "lair") == ["Bandit Captain"]
    assert names(s, "monster_deck") == ["Vampire Queen", "Orc Warlord"]
    assert sorted(names(s, "town")) == ["Cleric", "Fighter", "Mage", "Rogue"]
    s2 = new(2, first_game=True)
    assert len(s2.zone_cards("town")) == 2
    assert sorted(names(s2, "town") + names(s2, "hero_deck")[-2:]) == \
        ["Cleric", "Fighter", "Mage", "Rogue"]


# ---------------------------------------------------------------- step 1: supply
def test_supply_draft_secret_picks_pass_left_until_all_drafted() -> None:
    s = new(4)
    packets = {p: [cid(s, name, p + 1) for name in
                   ("Short Sword", "Rusty Dagger", "Holy Symbol", "Oak Staff")]
               for p in range(4)}
    for p, cards in packets.items():
        s.arrange("packet", p, cards)
    for p in range(4):
        assert s.current_player() == p
        s.apply(f"pick:{packets[p][0]}")
    # Each player passed the rest to the left: seat 0 now drafts from seat 3's cards.
    assert s.current_player() == 0
    assert legal(s) == {f"pick:{c}" for c in packets[3][1:]}
    picks = [e for e in s.events if e["type"] == "decision" and e["decision"] == "pick"]
    assert len(picks) == 4 and all(e["private"] for e in picks)
    advance(s, "display", "shown")
    assert all(len(s.zone_cards("hand", p)) == 4 for p in range(4))
    assert all(not s.zone_cards("packet", p) for p in range(4))


def test_supply_stored_cards_stay_out_of_the_draft_and_join_the_hand_after_it() -> None:
    s = new(2)
    stored = cid(s, "Crystal Orb")
    s.arrange("storage", 0, [stored])
    drafted = 0
    while phase(s) == "supply":
        assert f"pick:{stored}" not in legal(s)
        drafted += s.current_player() == 0
        s.apply(s.legal_actions()[0])
    assert drafted >= 3
    assert stored in s.zone_cards("hand", 0) and len(s.zone_cards("hand", 0)) == drafted + 1
    assert not s.zone_cards("storage", 0)


@pytest.mark.parametrize(("path", "players", "monster", "receiver"), [
    (FIVE_SIX, 5, "Orc Warlord", 4),      # rank II in play at 5 players: counter-clockwise
    (FIVE_SIX, 5, "Bandit Captain", 1),   # rank I: clockwise
    (FIVE_SIX, 6, "Wyvern", 5),           # rank II at 6 players
    (BQ, 4, "Orc Warlord", 1),            # 4 players: always clockwise
])
def test_supply_draft_direction(path: Path, players: int, monster: str, receiver: int) -> None:
    s = new(players, path=path)
    s.arrange("lair", None, [cid(s, monster)])
    rest = [c for c in s.zone_cards("packet", 0)]
    s.apply(f"pick:{rest.pop(0)}")
    for _ in range(players - 1):
        s.apply(s.legal_actions()[0])
    assert set(s.zone_cards("packet", receiver)) == set(rest)


# ---------------------------------------------------------------- step 2: display
def test_display_secret_one_item_more_with_upgrade_revealed_together() -> None:
    s = new(2)
    advance(s, "display", "shown")
    s.arrange("upgrades", 0, [cid(s, "Glass Counter")])
    hand0 = s.zone_cards("hand", 0)
    s.apply(f"shown:{hand0[0]}")
    assert s.decision_name() == "extra" and "extra:skip" in legal(s)
    s.apply(f"extra:{hand0[1]}")
    # Face down until every shop has chosen; the other shop may display one item only.
    assert s.current_player() == 1 and s.decision_name() == "shown"
    assert s.zone_cards("showcase", 0) == hand0[:2] and not s.zone_cards("display", 0)
    s.apply(s.legal_actions()[0])
    assert sorted(s.zone_cards("display", 0)) == sorted(hand0[:2])
    assert len(s.zone_cards("display", 1)) == 1
    shown = [e for e in s.events if e["type"] == "decision" and e["phase"] == "display"]
    assert all(e["private"] for e in shown)


def test_display_flipped_upgrade_adds_two() -> None:
    s = new(2)
    advance(s, "display", "shown")
    counter = cid(s, "Velvet Window")
    s.arrange("upgrades", 0, [counter])
    set_card_var(s, counter, "flipped", True)
    hand0 = s.zone_cards("hand", 0)
    s.apply(f"shown:{hand0[0]}")
    s.apply(f"extra:{hand0[1]}")
    s.apply(f"extra:{hand0[2]}")
    assert s.current_player() == 1
    assert len(s.zone_cards("showcase", 0)) == 3


# ---------------------------------------------------------------- step 3: shopping (BQ4)
FIGHTERS = ("Fighter", "Knight", "Paladin")


def fighter_town(s: State) -> list[str]:
    """Four Fighter-class heroes."""
    return [cid(s, "Fighter", 1), cid(s, "Fighter", 2), cid(s, "Knight"), cid(s, "Paladin")]


@pytest.mark.parametrize(("displays", "quest", "order"), [
    # Most hearts first, whatever the prices.
    ({0: ("Bearded War Axe", 1), 1: ("Short Sword", 1), 2: ("Gilded Helm", 1),
      3: ("Vanguard Banner", 1)}, 0, [2, 3, 1, 0]),
    # Equal hearts: the higher display price first.
    ({0: ("Short Sword", 1), 1: ("Iron Longsword", 1), 2: ("Giant's Maul", 1),
      3: ("Tower Shield", 1)}, 0, [2, 3, 1, 0]),
    # Equal hearts and prices: clockwise from the quest token.
    ({0: ("Short Sword", 1), 1: ("Short Sword", 2), 2: ("Leather Jerkin", 1),
      3: ("Leather Jerkin", 2)}, 2, [2, 3, 0, 1]),
])
def test_shopping_bq4_order_hearts_then_price_then_clockwise_from_quest(
        displays: dict[int, tuple[str, int]], quest: int, order: list[int]) -> None:
    s = new(4, first_quest=quest)
    got = to_shopping(s, {p: cid(s, n, k) for p, (n, k) in displays.items()}, fighter_town(s))
    assert got == order
    # The shop that took the last hero claims the quest token.
    assert s.var("quest") == order[-1]


def test_shopping_hero_must_match_display_else_wait_and_choose_freely() -> None:
    s = new(4)
    advance(s, "display", "shown")
    displays = {0: cid(s, "Oak Staff"), 1: cid(s, "Bearded War Axe", 1),
                2: cid(s, "Bearded War Axe", 2), 3: cid(s, "Bearded War Axe", 3)}
    for p, item in displays.items():
        s.arrange("hand", p, [item])
    cleric = cid(s, "Cleric")
    put_in_town(s, [cid(s, "Fighter", 1), cid(s, "Fighter", 2), cid(s, "Knight"), cleric])
    while phase(s) == "display":
        s.apply(s.legal_actions()[0])
    # Seat 0 has the most hearts but no Mage hero in town: it waits. The others must take
    # a Fighter hero (the Cleric shares no icon with their displays).
    seen = []
    while s.decision_name() == "h":
        seen.append(s.current_player())
        if s.current_player() != 0:
            assert f"h:{cleric}" not in legal(s)
        else:
            assert legal(s) == {f"h:{cleric}"}
        s.apply(s.legal_actions()[0])
    assert seen == [1, 2, 3, 0]
    assert s.var("quest") == 0


def test_shopping_bq7_sell_matching_items_from_hand_for_the_heroes_coins() -> None:
    s = new(2)
    advance(s, "display", "shown")
    s.arrange("lair", None, [cid(s, "Goblin Raiders")])
    s.arrange("hand", 0, [cid(s, "Flanged Mace")])
    s.arrange("hand", 1, [cid(s, "Short Sword")])
    paladin, knight = cid(s, "Paladin"), cid(s, "Knight")
    put_in_town(s, [paladin, knight])
    while phase(s) == "display":
        s.apply(s.legal_actions()[0])
    assert s.current_player() == 0 and s.decision_name() == "h"
    kite, symbol, staff, reliquary = (cid(s, "Kite Shield"), cid(s, "Holy Symbol"),
                                      cid(s, "Oak Staff"), cid(s, "Reliquary Shield"))
    s.arrange("hand", 0, [kite, symbol, staff, reliquary])
    s.apply(f"h:{paladin}")
    s.apply(f"h:{knight}")
    # Seat 1 (quest token) has nothing to sell; seat 0 may sell Cleric/Fighter items it can
    # price within the Paladin's 10 coins; not the Mage item, not the display.
    assert s.current_player() == 0 and s.decision_name() == "sale"
    assert legal(s) == {f"sale:{kite}", f"sale:{symbol}", f"sale:{reliquary}", "sale:skip"}
    s.apply(f"sale:{reliquary}")
    assert coins(s) == [12, 5] and card_var(s, paladin, "gold") == 3  # BQ7
    assert legal(s) == {f"sale:{symbol}", "sale:skip"}
    s.apply(f"sale:{symbol}")
    # Nothing more is affordable: the step ends, the display returns to the hand.
    assert phase(s) != "shopping"
    assert coins(s)[0] == 15 + 1  # and 1 from the Paladin's Tithe after the adventure
    assert sorted(s.zone_cards("hand", 0)) == sorted([kite, staff, cid(s, "Flanged Mace")])
    assert reliquary in s.zone_cards("item_discard") and symbol in s.zone_cards("item_discard")


# ---------------------------------------------------------------- step 4: adventure (BQ5)
def to_adventure(s: State, monster: str, cards: tuple[str, str],
                 hero_deck: list[str] | None = None) -> tuple[str, str]:
    """Two players: seat 0 gets the Knight, seat 1 the Mage (no items); the adventure deck
    deals ``cards[0]`` to the Knight and ``cards[1]`` to the Mage. Runs the Adventure step
    up to the next decision. Returns (knight, mage)."""
    advance(s, "display", "shown")
    knight, mage = cid(s, "Knight"), cid(s, "Mage")
    s.arrange("lair", None, [cid(s, monster)])
    s.arrange("hand", 0, [cid(s, "Short Sword")])
    s.arrange("hand", 1, [cid(s, "Oak Staff")])
    put_in_town(s, [knight, mage])
    top = [cid(s, cards[1]), cid(s, cards[0])]
    deck = [c for c in s.zone_cards("adventure_deck") if c not in top]
    s.arrange("adventure_deck", None, deck + top)
    if hero_deck is not None:
        s.arrange("hero_deck", None, hero_deck)
    while phase(s) == "display":
        s.apply(s.legal_actions()[0])
    # The Mage shop (more display price) chooses first; the Knight shop takes the last
    # hero and the quest token, so the Knight resolves first.
    s.apply(f"h:{mage}")
    s.apply(f"h:{knight}")
    assert s.var("quest") == 0
    return knight, mage


def test_adventure_bq5_wound_survive_defeat_and_reward() -> None:
    s = new(2)
    monk = cid(s, "Monk")
    knight, mage = to_adventure(s, "Goblin Raiders", ("Quiet Road", "Ambushed!"),
                                hero_deck=[cid(s, "Bard"), monk])
    assert (phase(s), s.decision_name()) == ("upgrade", "buy")
    # Knight: attack 4 >= toughness 4 (wound, star); defense 4 >= strength 4 (star).
    # Mage: attack 3-2 < 4; defense 2-1 < 4: defeated, with its coins.
    assert stars(s) == [2, 0]
    assert s.var("wounds") == 1 and names(s, "lair") == ["Goblin Raiders"]
    # Not defeated (1 < 2 players): the coin reward (2) onto the surviving hero.
    assert card_var(s, knight, "gold") == 8 + 2
    assert names(s, "hero_discard") == ["Mage"]
    # The defeated hero is replaced from the hero deck, with its purse.
    assert sorted(names(s, "town")) == ["Knight", "Monk"]
    assert card_var(s, monk, "gold") == 9
    assert len(s.zone_cards("adventure_deck")) == 18  # adventure cards shuffled back
    assert not s.zone_cards("heroes", 0) and not s.zone_cards("adventure", 1)


def test_adventure_bq5_monster_defeated_at_wounds_equal_players_pays_treasure() -> None:
    s = new(2)
    knight, _ = to_adventure(s, "Goblin Raiders", ("Quiet Road", "Perfect Opening"))
    assert phase(s) == "upgrade"
    assert stars(s) == [2, 1]  # the Mage wounds (3+3 >= 4) but falls (2-1 < 4)
    assert names(s, "slain") == ["Goblin Raiders"] and not s.zone_cards("lair")
    assert card_var(s, knight, "gold") == 8 + 3  # treasure
    assert len(s.zone_cards("monster_deck")) == 2


def test_adventure_one_wound_when_nobody_wounds() -> None:
    s = new(2)
    # Orc Warlord: toughness 6, strength 5 (+1 with Warband against heroes without 2 items).
    to_adventure(s, "Orc Warlord", ("Ambushed!", "Lost in the Woods"))
    assert stars(s) == [0, 0]
    assert s.var("wounds") == 1
    assert sorted(names(s, "hero_discard")) == ["Knight", "Mage"]
    assert len(s.zone_cards("town")) == 2


def last_adventure(s: State, stars_: tuple[int, int], coins_: tuple[int, int]) -> None:
    """Two players, the last monster (Goblin Raiders, no monster left in the deck): the
    Knight wounds and survives (2 stars), the Mage wounds and falls (1 star); the shops have
    ``stars_`` and ``coins_`` before the adventure."""
    advance(s, "display", "shown")
    s.arrange("monster_deck", None, [])
    knight, mage = cid(s, "Knight"), cid(s, "Mage")
    s.arrange("lair", None, [cid(s, "Goblin Raiders")])
    s.arrange("hand", 0, [cid(s, "Short Sword")])
    s.arrange("hand", 1, [cid(s, "Oak Staff")])
    put_in_town(s, [knight, mage])
    top = [cid(s, "Perfect Opening"), cid(s, "Quiet Road")]
    deck = [c for c in s.zone_cards("adventure_deck") if c not in top]
    s.arrange("adventure_deck", None, deck + top)
    while phase(s) == "display":
        s.apply(s.legal_actions()[0])
    for p in (0, 1):
        set_var(s, "stars", stars_[p], p)
        set_var(s, "coins", coins_[p], p)
    s.apply(f"h:{mage}")
    s.apply(f"h:{knight}")


def test_adventure_last_monster_defeated_ends_the_game() -> None:
    s = new(2)
    last_adventure(s, (1, 2), (27, 25))
    assert s.is_terminal()
    assert names(s, "slain") == ["Goblin Raiders"]
    # Stars 3 and 3; a point per 10 coins: 5 and 5; the tie goes to the most coins (BQ2).
    assert stars(s) == [3, 3]
    assert s.scores() == [5, 5]
    assert s.winners() == [0]


@pytest.mark.parametrize(("coins_", "scores", "winners"), [
    ((25, 25), [5, 5], [0, 1]),   # still tied: shared victory
    ((35, 29), [6, 5], [0]),
    ((9, 30), [3, 6], [1]),
])
def test_bq2_score_stars_plus_coins_over_ten(coins_: tuple[int, int], scores: list[int],
                                            winners: list[int]) -> None:
    s = new(2)
    last_adventure(s, (1, 2), coins_)
    assert s.is_terminal()
    assert s.scores() == scores and s.winners() == winners


def test_adventure_empty_hero_deck_everyone_loses() -> None:
    s = new(2)
    to_adventure(s, "Goblin Raiders", ("Quiet Road", "Ambushed!"), hero_deck=[])
    assert s.is_terminal()
    assert s.var("town_lost") is True
    assert s.winners() == []
    ends = [e for e in s.events if e["type"] == "end"]
    assert ends and ends[-1]["winners"] == []


def test_adventure_monster_ability_modifies_attack() -> None:
    s = new(2)
    # Rat King (toughness 4, strength 4), Swarm: -1 attack without an item of attack 2+.
    # The Knight (attack 4 - 1, defense 5) cannot wound it but survives: 1 star; so does the
    # Mage (attack 3 - 1, defense 3 + 1 from Fair Weather).
    knight, _ = to_adventure(s, "Rat King", ("Quiet Road", "Fair Weather"),
                             hero_deck=[cid(s, "Monk"), cid(s, "Bard")])
    says = [e["text"] for e in s.events if e["type"] == "say"]
    assert any(t.startswith("Knight (Seat 0) attacks with 3 against toughness 4") for t in says)
    assert stars(s) == [1, 1] and s.var("wounds") == 1


def cleric_adventure(s: State, monster: str, adventure_top: list[str]) -> None:
    """Every shop gets a Cleric-class hero without items (attack 2-3); the adventure deck
    deals ``adventure_top`` first (to the quest token holder's hero first)."""
    advance(s, "display", "shown")
    shown = [cid(s, "Holy Symbol", k) for k in (1, 2, 3, 4)] + [cid(s, "Prayer Beads", 1),
                                                               cid(s, "Prayer Beads", 2)]
    for p in range(s.num_players):
        s.arrange("hand", p, [shown[p]])
    s.arrange("lair", None, [cid(s, monster)])
    put_in_town(s, [cid(s, "Cleric", 1), cid(s, "Cleric", 2), cid(s, "Pilgrim"),
                    cid(s, "Druid"), cid(s, "Monk"), cid(s, "Paladin")][:s.num_players])
    top = [cid(s, n) for n in adventure_top]
    rest = [c for c in s.zone_cards("adventure_deck") if c not in top]
    s.arrange("adventure_deck", None, rest + top[::-1])
    while phase(s) in ("display", "shopping"):
        s.apply(s.legal_actions()[0])


NO_GAIN = ["Quiet Road", "Fair Weather", "Sprained Ankle", "Morning Mist", "Second Wind",
           "Lost in the Woods"]


@pytest.mark.parametrize(("path", "players", "top", "wounds"), [
    (FIVE_SIX, 5, NO_GAIN, 2),                           # nobody wounds: 2 tokens
    (FIVE_SIX, 6, ["Sharpened Steel", *NO_GAIN], 1 + 1),  # only one wounds: 1 more
    (FIVE_SIX, 4, NO_GAIN, 1),                           # 4 players: the base rule
    (BQ, 4, ["Sharpened Steel", *NO_GAIN], 1),           # no extra token below 5 players
])
def test_five_six_players_extra_wound_tokens(path: Path, players: int, top: list[str],
                                             wounds: int) -> None:
    s = new(players, path=path)
    cleric_adventure(s, "Goblin Raiders", top)
    assert s.var("wounds") == wounds
    assert names(s, "lair") == ["Goblin Raiders"]


# ---------------------------------------------------------------- step 5: upgrade
def test_upgrade_buy_refill_and_unsold_employees_shuffled_back() -> None:
    s = new(2)
    advance(s, "shopping", "h")
    wd1, wd2, arm = cid(s, "Window Dresser", 1), cid(s, "Window Dresser", 2), cid(s, "Armourer")
    rest = [c for c in s.zone_cards("employee_deck") if c not in (wd1, wd2, arm)]
    s.arrange("employee_deck", None, rest + [arm, wd1, wd2])
    for p in (0, 1):
        set_var(s, "coins", 20, p)
    advance(s, "upgrade", "buy")
    first = s.current_player()
    assert first == s.var("quest")
    cabinet, vault = cid(s, "Gilded Cabinet"), cid(s, "Hidden Vault")
    # Two employees face up; only the top card of each upgrade deck is for sale.
    assert legal(s) == {f"buy:{wd1}", f"buy:{wd2}", f"buy:{cabinet}", f"buy:{vault}",
                        "buy:skip"}
    before = s.var("coins", first)
    s.apply(f"buy:{wd2}")
    assert s.var("coins", first) == before - 4
    assert s.zone_cards("employees", first) == [wd2]
    # The bought employee is replaced at once from the employee deck.
    assert s.current_player() == 1 - first
    assert {f"buy:{wd1}", f"buy:{arm}"} <= legal(s)
    s.apply(f"buy:{cabinet}")
    assert s.zone_cards("upgrades", 1 - first) == [cabinet]
    # Unsold employees go back into the deck, shuffled.
    assert phase(s) == "storage"
    assert not [c for c in s.zone_cards("market") if attr(s, c, "kind") == "employee"]
    assert len(s.zone_cards("employee_deck")) == 19
    assert any(e["type"] == "shuffle" and e["zone"]["zone"] == "employee_deck"
               for e in s.events)


def test_upgrade_one_per_type_no_two_employees_of_a_name_and_flip_for_ten() -> None:
    s = new(2)
    advance(s, "upgrade", "buy")
    p = s.current_player()
    glass, wd1, wd2, arm = (cid(s, "Glass Counter"), cid(s, "Window Dresser", 1),
                            cid(s, "Window Dresser", 2), cid(s, "Armourer"))
    s.arrange("upgrades", p, [glass])
    s.arrange("employees", p, [wd1])
    upgrades = [c for c in s.zone_cards("market") if attr(s, c, "kind") == "upgrade"]
    s.arrange("market", None, upgrades + [wd2, arm])
    set_var(s, "coins", 20, p)
    assert legal(s) == {f"buy:{arm}", f"buy:{cid(s, 'Hidden Vault')}", "buy:skip"}
    s.apply("buy:skip")
    assert s.current_player() == p and legal(s) == {f"flip:{glass}", "flip:skip"}
    s.apply(f"flip:{glass}")
    assert s.var("coins", p) == 10 and card_var(s, glass, "flipped") is True
    assert s.current_player() != p or phase(s) != "upgrade"


# ---------------------------------------------------------------- step 6: storage (BQ6)
def test_storage_bq6_keep_one_plus_upgrade_level_discard_the_rest() -> None:
    s = new(2)
    advance(s, "storage", "kept_card")
    p = s.current_player()
    a, b, c = cid(s, "Crystal Orb"), cid(s, "Mirror Ward"), cid(s, "Staff of Storms")
    s.arrange("hand", p, [a, b, c])
    s.arrange("upgrades", p, [cid(s, "Root Cellar")])
    s.apply(f"kept_card:{a}")
    assert s.decision_name() == "more" and legal(s) == {f"more:{b}", f"more:{c}", "more:skip"}
    s.apply(f"more:{b}")
    assert s.zone_cards("storage", p) == [a, b]
    assert not s.zone_cards("hand", p) and c in s.zone_cards("item_discard")
    private = [e for e in s.events if e["type"] == "decision" and e["phase"] == "storage"]
    assert private and all(e["private"] for e in private)


def test_phase_labels_name_each_step_bq6_closing_is_storage() -> None:
    s = new(2)
    advance(s, "storage", "kept_card")
    labels = [e["label"] for e in s.events if e["type"] == "phase"]
    assert labels == ["Setup", "Round 1 · Step 1: Supply", "Round 1 · Step 2: Display",
                      "Round 1 · Step 3: Shopping", "Round 1 · Step 4: Adventure",
                      "Round 1 · Step 5: Upgrade", "Round 1 · Step 6: Storage"]


# ---------------------------------------------------------------- running out of cards
def test_empty_item_deck_the_discard_pile_becomes_the_deck() -> None:
    s = new(2)
    advance(s, "storage", "kept_card")
    s.apply(s.legal_actions()[0])
    assert s.current_player() == 1 and phase(s) == "storage"
    s.arrange("item_discard", None, s.zone_cards("items") + s.zone_cards("item_discard"))
    s.arrange("items", None, [])
    advance(s, "supply", "pick")
    assert s.var("round") == 2
    assert not s.zone_cards("item_discard")
    assert len(s.zone_cards("packet", 0)) >= 3
    assert any(e["type"] == "say" and "ran out" in e["text"] for e in s.events)


# ---------------------------------------------------------------- BQ3: the variants
def test_advanced_two_player_two_heroes_per_shop_six_cards_two_purchases() -> None:
    s = new(2, path=ADVANCED_2P)
    assert len(s.zone_cards("town")) == 4
    dealt = 5 if names(s, "lair") == ["Goblin Raiders"] else 6
    assert len(s.zone_cards("packet", 0)) == dealt
    order = to_shopping(s, {0: cid(s, "Gilded Helm"), 1: cid(s, "Short Sword")},
                        fighter_town(s))
    assert order == [0, 1, 0, 1]
    assert s.var("quest") == 1
    advance(s, "upgrade", "buy")
    p = s.current_player()
    set_var(s, "coins", 30, p)
    employee = next(c for c in s.zone_cards("market") if attr(s, c, "kind") == "employee")
    s.apply(f"buy:{employee}")
    assert s.current_player() == p and s.decision_name() == "buy"


def test_reliable_heroes_no_adventure_cards() -> None:
    s = new(3, path=RELIABLE)
    aside = {attr(s, c, "kind") for c in s.zone_cards("set_aside")}
    assert not s.zone_cards("adventure_deck")
    assert "adventure" in aside
    every = s.program.card_attrs
    referencing = [s.program.card_ids[i] for i, a in enumerate(every)
                   if a.get("adventure") or a["kind"] == "adventure"]
    assert sorted(referencing) == sorted(s.zone_cards("set_aside"))
    play_out(s)
    assert not [e for e in s.events if e["type"] == "move" and e["to"]["zone"] == "adventure"]


@pytest.mark.parametrize(("path", "players"), [
    (BQ, 2), (BQ, 3), (BQ, 4), (FIVE_SIX, 5), (FIVE_SIX, 6), (ADVANCED_2P, 2),
    (RELIABLE, 2), (RELIABLE, 4),
])
def test_bq3_base_and_variants_end_for_several_seeds(path: Path, players: int) -> None:
    for seed in range(3):
        s = play_out(new(players, seed=seed, path=path, first_quest=-1), seed)
        assert s.is_terminal()
        assert set(s.winners()) <= set(range(players))
        if s.var("town_lost"):
            assert s.winners() == []
        else:
            assert s.winners()


def test_variant_player_ranges() -> None:
    game = load_game(FIVE_SIX)
    assert game.player_range == (2, 6)
    assert load_game(ADVANCED_2P).player_range == (2, 2)


# ---------------------------------------------------------------- the text, not approximations
def test_advanced_two_player_second_pick_by_icons_without_waiting() -> None:
    """'Each player chooses an additional hero, starting with the player with the most total
    icons in their display': the shop with more hearts picks first even when no hero left in
    town matches its display (it takes any hero); nobody waits in this pick."""
    s = new(2, path=ADVANCED_2P)
    advance(s, "display", "shown")
    s.arrange("hand", 0, [cid(s, "Gilded Helm")])  # Fighter, 3 hearts
    s.arrange("hand", 1, [cid(s, "Oak Staff")])    # Mage, 1 heart
    knight, mage, bard, cleric = (cid(s, n) for n in ("Knight", "Mage", "Bard", "Cleric"))
    put_in_town(s, [knight, mage, bard, cleric])
    while phase(s) == "display":
        s.apply(s.legal_actions()[0])
    assert (s.current_player(), s.decision_name()) == (0, "h")
    s.apply(f"h:{knight}")
    assert s.current_player() == 1
    s.apply(f"h:{mage}")
    # Second pick: the Bard (Rogue, Mage) and the Cleric are left; neither matches seat 0.
    assert s.current_player() == 0 and legal(s) == {f"h:{bard}", f"h:{cleric}"}
    s.apply(f"h:{cleric}")
    assert s.current_player() == 1 and legal(s) == {f"h:{bard}"}
    s.apply(f"h:{bard}")
    assert s.var("quest") == 1  # the last hero entered seat 1's shop
    entered = [e["card"] for e in s.events if e["type"] == "move"
               and e["to"] == {"zone": "heroes", "owner": 0}]
    assert entered == [knight, cleric]


def test_highway_toll_charges_each_shop_once_with_two_heroes() -> None:
    """Highway Toll: 'each shop with a hero in it pays 1 coin', once per shop, not per hero
    (Advanced 2 Player: two heroes in each shop; nothing else here moves a shop's coins)."""
    s = new(2, path=ADVANCED_2P)
    advance(s, "display", "shown")
    s.arrange("lair", None, [cid(s, "Bandit Captain")])
    s.arrange("hand", 0, [cid(s, "Gilded Helm")])
    s.arrange("hand", 1, [cid(s, "Oak Staff")])
    put_in_town(s, [cid(s, n) for n in ("Knight", "Mage", "Bard", "Cleric")])
    advance(s, "upgrade")
    entered = [e["to"]["owner"] for e in s.events if e["type"] == "move"
               and e["to"]["zone"] == "heroes"]
    assert sorted(entered) == [0, 0, 1, 1]
    assert coins(s) == [5 - 1, 5 - 1]


def test_scout_ahead_card_is_the_heros_at_once_and_acts() -> None:
    """Scout Ahead draws an adventure card for the Ranger; that card is the Ranger's at once,
    so its own text acts in the same step: Twist of Fate draws one more (Sharpened Steel,
    +2 attack), which counts in the Ranger's attack."""
    s = new(2)
    advance(s, "display", "shown")
    ranger, mage = cid(s, "Ranger"), cid(s, "Mage")
    s.arrange("lair", None, [cid(s, "Goblin Raiders")])
    s.arrange("hand", 0, [cid(s, "Short Sword")])
    s.arrange("hand", 1, [cid(s, "Oak Staff")])
    put_in_town(s, [ranger, mage])
    order = ["Quiet Road", "Fair Weather", "Twist of Fate", "Sharpened Steel"]  # top first
    top = [cid(s, n) for n in order]
    rest = [c for c in s.zone_cards("adventure_deck") if c not in top]
    s.arrange("adventure_deck", None, rest + top[::-1])
    while phase(s) == "display":
        s.apply(s.legal_actions()[0])
    s.apply(f"h:{mage}")   # the Mage's shop shows the dearer item and picks first
    s.apply(f"h:{ranger}")
    assert s.var("quest") == 0  # so the Ranger is dealt first and resolves first
    labels = dict(zip(s.program.card_ids, s.program.card_labels, strict=True))
    drawn = [labels[e["card"]] for e in s.events if e["type"] == "move"
             and e["to"] == {"zone": "adventure", "owner": 0}]
    assert drawn == ["Quiet Road", "Twist of Fate", "Sharpened Steel"]
    says = [e["text"] for e in s.events if e["type"] == "say"]
    assert any(t.startswith("Ranger (Seat 0) attacks with 6 against") for t in says), says


@pytest.mark.parametrize("use", [True, False])
def test_using_an_employee_is_optional(use: bool) -> None:
    """'Using an employee card is always optional': the Bookkeeper (Upgrade: gain 1 coin)
    and the Window Dresser (Display: +1 appeal) act only when their shop says so."""
    s = new(2)
    s.arrange("employees", 0, [cid(s, "Window Dresser"), cid(s, "Bookkeeper")])
    advance(s, "display", "use")
    assert s.current_player() == 0 and legal(s) == {"use:yes", "use:no"}
    s.apply(f"use:{'yes' if use else 'no'}")
    advance(s, "shopping")
    hearts = sum(attr(s, c, "hearts") for c in s.zone_cards("display", 0))
    assert s.var("display_appeal", 0) == hearts + use
    advance(s, "upgrade", "use")
    before = coins(s)[0]
    assert s.current_player() == 0
    s.apply(f"use:{'yes' if use else 'no'}")
    assert coins(s)[0] == before + use
