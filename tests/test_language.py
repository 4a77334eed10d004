"""Language constructs grown for card-table games: tables, sets, abilities (modify / at),
trigger, bonus, secret choices, for each ... in, ordered turns, break, kept card variables,
rules with ``do``, and ``include``. Each test runs a small ruleset written for it."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesplay
from rulesplay.errors import RulesError
from rulesplay.show import ruleset_text

BASE = '''
game "Lab"
players 2..3
enum cls: fighter, mage, rogue
card hero:
    name: text
    classes: set of cls
    attack: 0..9
    ability: ability
    table:
        "Knight" | fighter        | 3 | steady | 2
        "Wizard" | mage, rogue    | 1 | spark
        "Squire" | -              | 0 | none
zone deck: shared, public
zone town: shared, public
zone camp: per player, public
var total: int = 0
var seen: int = 0
card var gold: int = 5 kept
card var mark: int = 1
ability steady "Steady: +2 attack":
    modify attack: 2
ability spark "Spark: +1 attack per hero in town, and 10 at dawn":
    modify attack: count(town)
    at dawn:
        total += 10 + this.attack
'''


def game(body: str, tmp_path: Path | None = None) -> rulesplay.Game:
    return rulesplay.loads(BASE + body)


def finish(state: rulesplay.State) -> rulesplay.State:
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return state


def test_table_rows_make_cards_with_ids_labels_sets_and_copies() -> None:
    g = game("phase p:\n    next end\nscore: 0\n")
    s = g.new_state(2)
    prog = s.program
    assert prog.card_ids == ["hero-1#1", "hero-1#2", "hero-2", "hero-3"]
    assert prog.card_labels == ["Knight", "Knight", "Wizard", "Squire"]
    assert prog.card_attrs[2]["classes"] == ["mage", "rogue"]
    assert prog.card_attrs[3]["classes"] == []


def test_set_attributes_membership_shares_and_union() -> None:
    g = game('''
phase p:
    total = count(deck where mage in it.classes) * 100
            + count(deck where shares(it.classes, top(deck).classes))
    seen = count(union(deck, it.classes))
    next end
score: total + seen
''')
    s = g.new_state(2)
    # one mage (Wizard); top(deck) is the Squire (no classes): shares nothing
    assert s.var("total") == 100
    assert s.var("seen") == 3


def test_bonus_sums_modifiers_with_this_bound() -> None:
    g = game('''
phase p:
    move deck where it.name == "Wizard" to town
    total = bonus(attack, deck) * 10 + bonus(attack, town)
    next end
score: total
''')
    s = g.new_state(2)
    # deck: two Knights (+2 each) and the Squire (no ability): 4; town: Wizard, count(town)=1
    assert s.var("total") == 41


def test_trigger_runs_step_blocks_in_order_with_this() -> None:
    g = game('''
phase p:
    trigger dawn for deck
    next end
score: total
''')
    s = g.new_state(2)
    assert s.var("total") == 11  # only the Wizard acts at dawn: 10 + its attack 1


def test_secret_choice_is_marked_private_in_the_log() -> None:
    g = game('''
phase p:
    for each player q:
        q secretly chooses h from deck "pick a hero"
        move h to camp[q]
    next end
score: 0
''')
    s = g.new_state(2, record_events=True)
    finish(s)
    decisions = [e for e in s.events if e["type"] == "decision"]
    assert len(decisions) == 2 and all(e["private"] for e in decisions)


def test_for_each_in_loops_over_a_snapshot_and_break_leaves_it() -> None:
    g = game('''
phase p:
    for each card c in deck:
        move c to town
        seen += 1
        if c.name == "Wizard":
            break
    next end
score: seen
''')
    s = g.new_state(2)
    assert s.var("seen") == 3  # Knight, Knight, Wizard; the Squire stays
    assert s.zone_cards("deck") == ["hero-3"]


def test_ordered_turns_highest_key_first_ties_from_the_start_seat() -> None:
    g = game('''
player var points: int = 0
phase p:
    points[2] = 5
    for each player q ordered by points[q] from 1:
        total = total * 10 + q + 1
    next end
score: total
''')
    s = g.new_state(3)
    # seat 2 first (5 points), then the tie of seats 0 and 1 in turn order from seat 1: 1, 0
    assert s.var("total") == 321


def test_kept_card_variables_survive_moves_and_others_reset_to_default() -> None:
    g = game('''
phase p:
    top(deck).gold = 9
    top(deck).mark = 7
    move top(deck) to town
    total = top(town).gold * 10 + top(town).mark
    next end
score: total
''')
    s = g.new_state(2)
    assert s.var("total") == 91


def test_rules_run_with_do_and_cannot_call_themselves() -> None:
    g = game('''
rule pay:
    total += 3
phase p:
    do pay
    do pay
    next end
score: total
''')
    assert g.new_state(2).var("total") == 6
    with pytest.raises(RulesError, match="runs itself"):
        rulesplay.loads(BASE + '''
rule a:
    do b
rule b:
    do a
phase p:
    do a
    next end
score: 0
''')


def test_an_ability_that_triggers_its_own_step_is_checked_once() -> None:
    """The phase graph follows each triggered step once (it recursed without end)."""
    game = rulesplay.loads('''game "T"
players 2..2
ability echo:
    at tick:
        trigger tick for [this]
card c:
    gift: ability
    table:
        echo
zone deck: shared, public
phase p:
    trigger tick for deck
    next end
score: 0
''')
    assert game.title == "T"


def test_break_outside_a_loop_and_unknown_step_are_errors() -> None:
    with pytest.raises(RulesError) as err:
        rulesplay.loads(BASE + '''
phase p:
    break
    trigger dwan for deck
    next end
score: bonus(attak, deck)
''')
    text = err.value.render()
    assert "'break' is only allowed inside" in text
    assert "no ability has a block 'at dwan'" in text and "did you mean 'dawn'" in text
    assert "no ability modifies 'attak'" in text and "did you mean 'attack'" in text


def test_table_cells_are_checked_against_their_attributes() -> None:
    bad = BASE.replace('"Squire" | -              | 0 | none',
                       '"Squire" | fightr         | 12 | stedy')
    with pytest.raises(RulesError) as err:
        rulesplay.loads(bad + "phase p:\n    next end\nscore: 0\n")
    text = err.value.render()
    assert "the 'classes' cell of this row must be values of cls" in text
    assert "did you mean 'fighter'" in text


def test_a_row_with_the_wrong_number_of_cells_is_a_syntax_error() -> None:
    bad = BASE.replace('"Squire" | -              | 0 | none', '"Squire" | 0')
    with pytest.raises(RulesError, match="this row has 2 cells; the table needs 4"):
        rulesplay.loads(bad + "phase p:\n    next end\nscore: 0\n")


def test_include_adds_declarations_and_reports_missing_files(tmp_path: Path) -> None:
    folder = tmp_path / "rulesets"
    folder.mkdir()
    (folder / "cards.rules").write_text(BASE.split("zone deck")[0].replace(
        'game "Lab"\nplayers 2..3\n', ""))
    main = folder / "main.rules"
    main.write_text('game "Inc"\nplayers 2..2\ninclude "cards.rules"\n'
                    "zone deck: shared, public\nzone town: shared, public\n"
                    "var total: int = 0\n"
                    "ability steady \"s\":\n    modify attack: 2\n"
                    "ability spark \"p\":\n    modify attack: 1\n"
                    "phase p:\n    total = bonus(attack, deck)\n    next end\nscore: total\n")
    s = rulesplay.load(main).new_state(2)
    assert s.var("total") == 2 + 2 + 1
    (folder / "broken.rules").write_text('game "B"\nplayers 2..2\ninclude "nope.rules"\n')
    with pytest.raises(RulesError, match="'include': no such file 'nope.rules'"):
        rulesplay.load(folder / "broken.rules")


@pytest.mark.parametrize("line,shown", [
    ('include "secret.env"', "main.rules:3:1: error: 'include' reads ruleset files only "
     "(a '.part' file or a '.rules' file), not 'secret.env'"),
    ('include "cards.part"', "main.rules:3:1: error: 'include' reads ruleset files only "
     "(a '.part' file or a '.rules' file), not 'cards.part' (a link to "),
    ('extends "secret.env"', "main.rules:3:9: error: 'extends' reads ruleset files only "
     "(a '.rules' file), not 'secret.env'"),
])
def test_include_and_extends_read_ruleset_files_only_and_never_show_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, shown: str) -> None:
    folder = tmp_path / "rulesets"
    folder.mkdir()
    (folder / "secret.env").write_text("TOKEN = 'hunter2'\n")
    (folder / "cards.part").symlink_to(folder / "secret.env")
    (folder / "main.rules").write_text(f'game "Inc"\nplayers 2..2\n{line}\n'
                                       "phase p:\n    next end\nscore: 0\n")
    monkeypatch.chdir(folder)
    with pytest.raises(RulesError) as exc:
        rulesplay.load("main.rules")
    text = exc.value.render()
    assert text.startswith(shown) and f"    {line}\n" in text
    assert "hunter2" not in text and "TOKEN" not in text


def test_a_saved_ruleset_includes_ruleset_files_only() -> None:
    from rulesplay.compose import Bundle, load_bundle

    main = 'game "Inc"\nplayers 2..2\ninclude "secret.env"\nphase p:\n    next end\nscore: 0\n'
    bundle = Bundle(name="main.rules", top="main.rules",
                    files={"main.rules": main, "secret.env": "TOKEN = 'hunter2'\n"})
    with pytest.raises(RulesError) as exc:
        load_bundle(bundle)
    text = exc.value.render()
    assert text.startswith("main.rules:3:1: error: 'include' reads ruleset files only")
    assert "hunter2" not in text


def test_yes_no_card_attributes_and_dynamic_skip_labels() -> None:
    g = rulesplay.loads('''
game "Flags"
players 2..2
card token:
    name: text
    shiny: bool
    table:
        "Gem" | yes | 2
        "Rock" | no
zone box: shared, public
zone keep: per player, public
phase p:
    0 may choose t from box where t.shiny "take a shiny token"
        skip "leave {count(box)} tokens"
    if t != none:
        move t to keep[0]
    next end
score: count(keep[player])
''')
    s = g.new_state(2)
    actions = {a.id: a.label for a in s.legal_actions()}
    assert set(actions) == {"t:token-1#1", "t:token-1#2", "t:skip"}
    assert actions["t:skip"] == "leave 3 tokens"


def test_tables_count_rows_not_attribute_ranges() -> None:
    # A wide range per attribute would be millions of combinations; a table makes its rows.
    g = rulesplay.loads('''
game "Wide"
players 2..2
card thing:
    name: text
    a: 0..999
    b: 0..999
    table:
        "x" | 1 | 2
zone box: shared, public
phase p:
    next end
score: 0
''')
    assert g.new_state(2).program.num_cards == 1


def test_a_chooser_may_be_any_seat_expression() -> None:
    # ('partner of p chooses ...' was refused by the grammar: the chooser had to be a name)
    text = ('game "T"\nplayers 4\nteams: player % 2\ncard c "c":\n    rank: 1..5\n'
            'zone deck "deck": shared, public\nphase p "P":\n'
            '    partner of 0 chooses x from deck "pick"\n'
            '    left of 1 may choose y from deck skip "no"\n    next end\nscore: 0\n')
    s = rulesplay.loads(text).new_state(4)
    assert s.current_player() == 2
    s.apply(s.legal_actions()[0])
    assert s.current_player() == 2  # left of seat 1


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_deal_all_deals_every_card_round_the_table(engine: str) -> None:
    # 10 cards to 4 seats from seat 1: seats 1 and 2 get 3, seats 3 and 0 get 2
    text = ('game "T"\nplayers 4\ncard c "c":\n    rank: 1..10\nzone deck "deck": shared, hidden\n'
            'zone hand "hand": per player, owner\nphase p "P":\n'
            '    deal all from deck to hand starting with 1\n'
            '    0 chooses x from hand[0]\n    next end\nscore: count(hand[player])\n')
    s = rulesplay.loads(text, engine=engine).new_state(4)
    assert s.scores() == [2, 3, 3, 2]
    printed = ruleset_text(rulesplay.loads(text).ruleset)
    assert "deal all from deck to hand starting with 1" in printed


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_moving_a_zone_per_player_moves_every_seats_cards(engine: str) -> None:
    # ('move taken to deck' was refused: "got a zone per player")
    text = ('game "T"\nplayers 3\ncard c "c":\n    rank: 1..9\nzone deck "deck": shared, hidden\n'
            'zone taken "taken": per player, public\nphase p "P":\n'
            '    deal 3 from deck to taken\n    move taken to deck\n'
            '    0 chooses x from deck\n    next end\nscore: count(taken[player])\n')
    s = rulesplay.loads(text, engine=engine).new_state(3)
    assert s.scores() == [0, 0, 0] and len(s.legal_actions()) == 9
