"""The fixed-size encodings of :mod:`rulesplay.encode`, on every shipped ruleset at every
player count it allows: random play, checking at each decision that

- the observation of the deciding seat (and of the next seat) has the documented shape and
  dtype, and its segments tile it;
- every legal action maps to an index of the action space and back to its id, and the
  legal mask is exactly the legal actions (card by card for a sequenced decision: the
  cards of some legal set, then ``done`` once the set is complete);
- the observation does not change when only what the seat may not see changes: a
  determinisation (the hidden cards dealt anew, the variables it may not see reset)
  gives the same vector.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import ROOT, RULESETS, load_game

import rulesplay
from rulesplay.cli import main
from rulesplay.encode.actions import NUMBERS_UNKNOWN, SpaceError
from rulesplay.encode.tensor import Chooser, Spaces
from rulesplay.engine.actions import SetAction
from rulesplay.engine.observe import resample

RULESET_FILES = sorted(RULESETS.glob("**/*.rules"))
STEPS_AT_LIMITS, STEPS_BETWEEN = 80, 25  # decisions checked per game (keeps it near 10 s)


def _cases() -> list[Any]:
    cases = []
    for path in RULESET_FILES:
        lo, hi = load_game(path).player_range
        for n in range(lo, hi + 1):
            steps = STEPS_AT_LIMITS if n in (lo, hi) else STEPS_BETWEEN
            cases.append(pytest.param(path, n, steps, id=f"{path.relative_to(RULESETS)}-{n}p"))
    return cases


def _check_mask(sp: Spaces, ch: Chooser) -> None:
    legal = ch.state.legal_actions()
    mask = ch.mask()
    assert mask.shape == (sp.num_actions,) and mask.dtype == np.int8
    on = set(np.flatnonzero(mask).tolist())
    name = ch.state.decision_name()
    if name not in sp.actions.sequenced:
        for a in legal:
            i = sp.actions.index_of(a.id)
            assert sp.actions.ids[i] == a.id
        assert on == {sp.actions.index_of(a.id) for a in legal}
        return
    sets = [set(a.value) for a in legal if isinstance(a, SetAction)]
    chosen = set(ch.selection)
    adds = {c for s in sets if chosen <= s for c in s - chosen}
    want = {sp.actions.index_of(f"{name}:+{sp.program.card_ids[c]}") for c in adds}
    if chosen in sets:
        want.add(sp.actions.index_of(f"{name}:done"))
    if not chosen:
        want |= {sp.actions.index_of(a.id) for a in legal if not isinstance(a, SetAction)}
    assert on == want


def _check_observation(sp: Spaces, ch: Chooser, seat: int, rng: random.Random) -> bool:
    """Check seat ``seat``'s observation; returns whether the determinisation it was
    compared with had other cards where the seat cannot see (so the check could fail)."""
    obs = ch.observe(seat)
    assert obs.shape == (sp.obs_size,) and obs.dtype == np.float32
    mine = ch.selection if seat == ch.state.current_player() else ()
    sample = resample(ch.state, seat, rng)
    other = sp.observe(sample, seat, mine)
    differ = [s.name for s in sp.layout.segments
              if not np.array_equal(obs[s.offset:s.offset + s.size],
                                    other[s.offset:s.offset + s.size])]
    assert not differ, f"seat {seat}'s observation shows hidden information: {differ}"
    return sample.zones != ch.state.zones


@pytest.mark.parametrize(("path", "n", "steps"), _cases())
def test_random_play_keeps_the_encodings(path: Path, n: int, steps: int) -> None:
    game = load_game(path)
    sp = Spaces(game, n)
    assert sum(s.size for s in sp.layout.segments) == sp.obs_size
    assert [s.offset for s in sp.layout.segments] == \
        [sum(s.size for s in sp.layout.segments[:i]) for i in range(len(sp.layout.segments))]
    assert len(set(sp.actions.ids)) == sp.num_actions
    rng = random.Random(n)
    ch = Chooser(sp, game.new_state(num_players=n, seed=n))
    hidden_changed = 0
    for _ in range(steps):
        if ch.state.is_terminal():
            break
        seat = ch.state.current_player()
        _check_mask(sp, ch)
        hidden_changed += _check_observation(sp, ch, seat, rng)
        hidden_changed += _check_observation(sp, ch, (seat + 1) % n, rng)
        ch.step(rng.choice(ch.legal_indices()))
    assert hidden_changed, "no determinisation differed from the game: the check tested nothing"
    if ch.state.is_terminal():
        end = ch.observe(0)
        assert end[sp.layout.segment("terminal").offset] == 1
        assert not ch.mask().any()


def test_a_large_set_is_chosen_card_by_card() -> None:
    game = load_game(RULESETS / "classics" / "hearts.rules")
    sp = Spaces(game, 4)
    assert "cards" in sp.actions.sequenced  # 3 of 52 cards: 22,100 sets
    ch = Chooser(sp, game.new_state(num_players=4, seed=5))
    seat, name = ch.state.current_player(), ch.state.decision_name()
    assert name == "cards"
    hand = set(ch.state.zones[sp.program.layout.zone_id["hand"] + seat])
    done = sp.actions.index_of("cards:done")
    picked = []
    for k in range(3):
        legal = ch.legal_indices()
        assert (done in legal) == (k == 3)
        adds = {sp.program.card_ids.index(sp.actions.ids[i].split(":+")[1])
                for i in legal if i != done}
        assert adds == hand - set(picked)  # any card of the hand not picked yet
        card = min(adds)
        picked.append(card)
        assert ch.step(sp.actions.index_of(f"cards:+{sp.program.card_ids[card]}")) is None
    sel = sp.layout.segment("selection")
    assert ch.observe(seat)[sel.offset:sel.offset + sel.size].sum() == 3
    assert ch.observe((seat + 1) % 4)[sel.offset:sel.offset + sel.size].sum() == 0
    assert ch.legal_indices() == [done]
    action = ch.step(done)
    assert action is not None and action.value == tuple(sorted(picked))
    assert ch.state.history[-1] == (seat, action.id)
    with pytest.raises(SpaceError, match="not legal now"):
        ch.step(done)


def test_numbers_known_only_in_play_are_assumed_and_said() -> None:
    sp = Spaces(load_game(RULESETS / "classics" / "oh_hell.rules"), 4)
    block = sp.actions.block_of("n")  # a bid of 0..size(), the hand size of the deal
    assert NUMBERS_UNKNOWN in block.note
    assert block.ids[0] == "n:0" and block.ids[-1] == f"n:{sp.program.num_cards}"
    with pytest.raises(SpaceError, match=r"'n:99' is not in the action space \('n': numbers"):
        sp.actions.index_of("n:99")
    spades = Spaces(load_game(RULESETS / "classics" / "spades.rules"), 4)
    assert spades.actions.block_of("n").ids == [f"n:{k}" for k in range(14)]  # 0..13
    assert spades.actions.block_of("n").note == ""


def test_the_spaces_command_prints_the_layout() -> None:
    path = str(RULESETS / "classics" / "euchre.rules")
    out = CliRunner().invoke(main, ["spaces", path, "--examples", "2"])
    assert out.exit_code == 0, out.output
    sp = Spaces(load_game(path), 4)
    assert f"float32 vector of {sp.obs_size} entries" in out.output
    assert f"actions: {sp.num_actions} ids" in out.output
    for seg in sp.layout.segments:
        assert f"{seg.offset:>6} {seg.size:>5}  {seg.name}: " in out.output
    assert "=play:" in out.output
    bad = CliRunner().invoke(main, ["spaces", path, "--players", "3"])
    assert bad.exit_code == 2 and "Euchre is for 4 to 4 players, not 3" in bad.output


def _doc_blocks(marker: str) -> list[str]:
    """The ```python blocks of docs/adapters.md that contain ``marker``."""
    text = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    return [b for b in re.findall(r"^```python\n(.*?)^```", text, re.M | re.S) if marker in b]


def test_the_docs_example_of_the_encodings_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    [block] = _doc_blocks("Chooser(")
    monkeypatch.chdir(ROOT)
    scope: dict[str, Any] = {}
    exec(compile(block, "docs/adapters.md", "exec"), scope)  # (the docs of this repository)
    assert scope["obs"].shape == (scope["spaces"].obs_size,)
    assert scope["spaces"].actions.ids[scope["index"]].startswith("cards:+")
    assert len(scope["chooser"].selection) == 1


def test_the_docs_show_the_spaces_command_as_it_prints() -> None:
    text = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    shown = text.split("$ rulesplay spaces rulesets/classics/euchre.rules --examples 2\n")[1]
    shown = shown.split("```")[0]
    out = CliRunner().invoke(main, ["spaces", str(RULESETS / "classics" / "euchre.rules"),
                                    "--examples", "2"]).output
    for line in shown.splitlines():  # (the lines shortened with "..." aside)
        if "..." not in line:
            assert line in out.splitlines(), line


VALUES_OF_CARDS = """game "Values"
players 2..2
enum suit: red, blue
card card "card":
    suit: suit
    rank: 1..9
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
var named "named": int = 0

phase deal "Deal":
    shuffle deck
    deal 3 from deck to hand
    for each player p:
        p chooses r from values(hand[p], it.rank) "name a rank"
        named = r
    end game

score: named
"""


def test_a_choice_of_a_card_attribute_holds_every_value_of_it() -> None:
    game = rulesplay.loads(VALUES_OF_CARDS)
    sp = Spaces(game, 2)
    block = sp.actions.block_of("r")
    assert block.ids == [f"r:{k}" for k in range(1, 10)] and block.note == ""
    for seed in range(5):
        ch = Chooser(sp, game.new_state(num_players=2, seed=seed))
        while not ch.state.is_terminal():
            hand = ch.state.zone_cards("hand", ch.state.current_player())
            ranks = {int(cid.split("-")[1]) for cid in hand}
            assert {sp.actions.ids[i] for i in ch.legal_indices()} == {f"r:{k}" for k in ranks}
            ch.step(ch.legal_indices()[0])


SHARED_ENUMS = '''game "Strains"
players 2
enum suit: clubs, hearts
enum strain: suit, notrump "NT"
card card "card":
    suit: suit
    rank: 1..4
zone deck "deck": shared, hidden
zone hand "hand": per player, owner
var trump "trump": suit

phase play "Play":
    shuffle deck
    deal 2 from deck to hand
    0 chooses named from strain "name a strain"
    trump = named
    1 chooses c from hand[1] "pick"
    next end

score: 0
'''


def test_a_shared_enum_value_in_a_smaller_enums_variable_is_encoded() -> None:
    """docs/language/shared_enums.md: a strain given to a suit variable keeps its value, so
    the suit variable's one-hot has an entry for 'notrump' too (it raised KeyError)."""
    game = rulesplay.loads(SHARED_ENUMS)
    spaces = Spaces(game, players=2)
    chooser = Chooser(spaces, game.new_state(num_players=2, seed=1))
    chooser.step(spaces.actions.ids.index("named:notrump"))
    seg = next(s for s in spaces.layout.segments if s.name == "var trump")
    vec = chooser.observe(1)[seg.offset:seg.offset + seg.size]
    assert seg.size == 3 and list(vec) == [0, 0, 1]
