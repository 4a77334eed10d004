"""House rules as variant files: ``extends``, the merge, ``diff``, and the shipped variants.

Golden diagnostics of broken variants: ``tests/variants_bad/*.rules`` (extending
``tests/variants_bad/_base.rules``) -> ``tests/golden/variants/<name>.txt``. Regenerate with
``UPDATE_GOLDEN=1 pytest tests/test_variants.py`` and review the diff.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

import rulesplay
from rulesplay import ir
from rulesplay.compose import allowed_root, load_ruleset
from rulesplay.diff import _plain, diff, expr_text
from rulesplay.errors import RulesError, RulesValidationError
from rulesplay.parse import parse_text

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = sorted(p.name for p in (ROOT / "rulesets" / "variants").glob("*.rules"))
BAD = sorted(p.stem for p in (ROOT / "tests" / "variants_bad").glob("*.rules")
             if not p.name.startswith("_"))
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
BIN = "rulesets/bargain_bin.rules"
HUNTER = "rulesets/bargain_hunter.rules"


@pytest.fixture(autouse=True)
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Paths in diagnostics are relative to the project root, as a user would type them."""
    monkeypatch.chdir(ROOT)


def playout(game: rulesplay.Game, players: int, seed: int) -> rulesplay.State:
    """A whole game with uniformly random legal actions (events recorded)."""
    state = game.new_state(num_players=players, seed=seed, record_events=True)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


# ---------------------------------------------------------------- the shipped variants
def test_the_required_variants_ship() -> None:
    assert {"bargain_bin_selfless.rules", "bargain_bin_vegas.rules",
            "bargain_bin_kings13.rules"} <= set(VARIANTS)
    hunter = [v for v in VARIANTS if v.startswith("bargain_hunter_")]
    assert len(hunter) >= 2


@pytest.mark.parametrize("name", VARIANTS)
def test_each_variant_is_short_commented_and_plays_to_the_end(name: str) -> None:
    path = f"rulesets/variants/{name}"
    text = Path(path).read_text(encoding="utf-8")
    assert text.startswith("# "), "a variant starts with a comment saying what it changes"
    assert len(text.splitlines()) <= 20
    game = rulesplay.load(path)
    lo, hi = game.player_range
    for seed in range(3):
        state = playout(game, lo + seed % (hi - lo + 1), seed)
        assert state.is_terminal()
        # Someone wins, unless the ruleset's own 'winners:' line lets everyone lose (Bargain
        # Quest: the hero deck runs out).
        assert state.winners() or game.ruleset.winners is not None


@pytest.mark.parametrize("name", VARIANTS)
def test_each_variant_differs_from_its_base(name: str) -> None:
    path = f"rulesets/variants/{name}"
    variant, _ = load_ruleset(path)
    assert variant.extends is not None and not variant.overrides
    base, _ = load_ruleset(os.path.normpath(os.path.join("rulesets/variants", variant.extends)))
    assert diff(base, variant)


def test_selfless_never_plays_a_card_on_its_own_player() -> None:
    game = rulesplay.load("rulesets/variants/bargain_bin_selfless.rules")
    for seed in range(4):
        state = playout(game, 4 + seed, seed)
        plays = [e for e in state.events if e["type"] == "decision" and e["decision"] == "target"]
        assert plays
        assert all(e["action"] != f"target:{e['player']}" for e in plays)
    # ... while the base lets players play on themselves, and random play does so.
    base = playout(rulesplay.load(BIN), 4, 0)
    assert any(e["action"] == f"target:{e['player']}" for e in base.events
               if e["type"] == "decision" and e["decision"] == "target")


def test_selfless_offers_every_seat_but_ones_own() -> None:
    state = rulesplay.load("rulesets/variants/bargain_bin_selfless.rules").new_state(5, seed=1)
    seat = state.current_player()
    state.apply(state.legal_actions()[0])
    assert {a.id for a in state.legal_actions()} == {f"target:{s}" for s in range(5)
                                                     if s != seat}


def test_vegas_variant_moves_money_and_the_base_does_not() -> None:
    vegas = rulesplay.load("rulesets/variants/bargain_bin_vegas.rules")
    for seed in range(3):
        state = playout(vegas, 6, seed)
        money = [state.var("money", s) for s in range(6)]
        assert any(money)
        # Money is conserved: what the losers paid is with the winners or left in the bin.
        assert sum(money) + state.var("bin") == 0
        assert state.var("bin") in (0, 1)
        assert all(money[s] > 0 for s in state.winners())
    base = playout(rulesplay.load(BIN), 6, 0)
    assert [base.var("money", s) for s in range(6)] == [0] * 6


def test_kings13_changes_only_the_kings() -> None:
    base = rulesplay.load(BIN).program(4)
    kings = rulesplay.load("rulesets/variants/bargain_bin_kings13.rules").program(4)
    assert base.card_ids == kings.card_ids
    for cid, a, b in zip(base.card_ids, base.card_attrs, kings.card_attrs, strict=True):
        if a.get("rank") == 13:
            assert (a["value"], b["value"]) == (12, 13), cid
            assert b["points"] == (13 if a["suit"] in ("clubs", "spades") else -13)
        else:
            assert a == b, cid


def test_blind_bargain_replaces_the_choice_with_a_draw() -> None:
    state = rulesplay.load("rulesets/variants/bargain_hunter_blind_bargain.rules").new_state(
        3, seed=2, record_events=True)
    assert state.decision_name() == "play"  # nobody chooses a bargain
    for seat in range(3):
        assert len(state.zone_cards("hand", seat)) == 8  # hands keep all their cards
        assert len(state.zone_cards("bargain", seat)) == 1
        assert state.zone_cards("bargain", seat)[0].startswith(
            ("red", "yellow", "green", "blue", "purple", "orange"))
    base = rulesplay.load(HUNTER).new_state(3, seed=2)
    assert base.decision_name() == "pick"


def test_quick_variant_plays_two_rounds_of_six() -> None:
    game = rulesplay.load("rulesets/variants/bargain_hunter_quick.rules")
    state = game.new_state(4, seed=5, record_events=True)
    assert len(state.zone_cards("hand", 0)) == 6
    state = playout(game, 4, 5)
    rounds = [e for e in state.events if e["type"] == "phase" and e["phase"] == "deal"]
    assert len(rounds) == 2
    assert state.var("round") == 3


def test_option_values_from_the_caller_still_override_a_variant_default() -> None:
    game = rulesplay.load("rulesets/variants/bargain_bin_selfless.rules",
                          options={"selfless": False})
    state = game.new_state(4, seed=1)
    seat = state.current_player()
    state.apply(state.legal_actions()[0])
    assert f"target:{seat}" in {a.id for a in state.legal_actions()}


# ---------------------------------------------------------------- diff
def test_diff_names_option_defaults() -> None:
    base, _ = load_ruleset(BIN)
    selfless, _ = load_ruleset("rulesets/variants/bargain_bin_selfless.rules")
    assert diff(base, selfless) == ["title 'Bargain Bin' -> 'Bargain Bin (Selfless)'",
                                    "option 'selfless': default false -> true"]
    assert diff(base, base) == []


def test_diff_names_changed_card_attributes() -> None:
    base, _ = load_ruleset(BIN)
    kings, _ = load_ruleset("rulesets/variants/bargain_bin_kings13.rules")
    assert "card kind 'card': value = 12 if rank == 13 else rank -> value = rank" in \
        diff(base, kings)


def test_diff_names_replaced_phases_and_their_constraints() -> None:
    base, _ = load_ruleset(HUNTER)
    blind, _ = load_ruleset("rulesets/variants/bargain_hunter_blind_bargain.rules")
    lines = diff(base, blind)
    assert "phase 'bargain' replaced: its statements differ; title 'The Bargain' -> " \
        "'The Blind Bargain'" in lines
    assert "  choice 'pick' removed from phase 'bargain'" in lines


def test_diff_of_added_removed_and_scoring(tmp_path: Path) -> None:
    base_text = Path("tests/variants_bad/_base.rules").read_text(encoding="utf-8")
    (tmp_path / "base.rules").write_text(base_text, encoding="utf-8")
    (tmp_path / "v.rules").write_text(
        'extends "base.rules"\n'
        "remove zone won\n"
        "zone pile \"pile\": shared, public\n"
        "player var bonus: int = 0\n"
        "replace phase play \"play\":\n"
        "    repeat while count(hand[leader]) > 0:\n"
        "        trick in table led by leader:\n"
        "            each player plays c from hand[player] \"play\"\n"
        "            won by highest it.rank\n"
        "            after trick:\n"
        "                leader = winner\n"
        "                tricks[winner] += 1\n"
        "                move table to pile\n"
        "    round += 1\n"
        "    next deal if round <= rounds\n"
        "    next end\n"
        "score: tricks[player] + bonus[player]\n"
        "winners: seats where tricks[it] > 0\n", encoding="utf-8")
    base, _ = load_ruleset(str(tmp_path / "base.rules"))
    variant, _ = load_ruleset(str(tmp_path / "v.rules"))
    lines = diff(base, variant)
    assert "zone 'won' removed" in lines
    assert "zone 'pile' added: shared, public" in lines
    assert "variable 'bonus' added: player var int = 0" in lines
    assert "  trick 1 in phase 'play': where lead == none or c.suit == lead or " \
        "not any(hand[player], it.suit == lead) -> any" in lines
    assert "score: tricks[player] -> tricks[player] + bonus[player]" in lines
    assert "winners: best score and tiebreaks -> seats where tricks[it] > 0" in lines


_NESTED_CHOICE = """game "Nested"
players 2..2
card c:
    n: 1..3
zone deck: shared, public
zone hand: per player, public
phase main:
    {block}:
        0 chooses x from hand[0] where {where} "pick"
        move x to deck
    next end
score: 0
"""


@pytest.mark.parametrize("block", ["for each card y in hand[1]", "repeat 2 times",
                                   "for each player q", "if true"])
def test_diff_reports_a_changed_where_inside_any_block(block: str) -> None:
    """A choice's changed constraint is reported wherever the choice is nested (it once was
    missed inside 'for each card x in ...')."""
    base, variant = (parse_text(_NESTED_CHOICE.format(block=block, where=where), "t.rules")
                     for where in ("x.n > 1", "x.n > 2"))
    assert "  choice 'x' in phase 'main': where x.n > 1 -> where x.n > 2" in diff(base, variant)


def _score_of(text: str) -> ir.Expr:
    ruleset = parse_text(f"score: {text}\n", "t")
    assert ruleset.score is not None
    return ruleset.score


@pytest.mark.parametrize("text", [
    "12 if rank == 13 else rank", "(a + b) * c", "a - (b - c)", "not (a or b)",
    "left of right of p", "count(hand[p], it is offer and it.n > 2)", "{3: 6, 4: 4}[players]",
    "seats where total[it] < high", "-x.value", "(a if b else c) + 1", "x in 1..3",
    "(1, a is not b)", "[1, 2] == none"])
def test_expr_text_writes_what_the_parser_reads(text: str) -> None:
    rendered = expr_text(_score_of(text))
    assert rendered == text
    assert _plain(_score_of(rendered)) == _plain(_score_of(text))


# ---------------------------------------------------------------- merging
def test_merge_keeps_each_node_span_in_its_own_file() -> None:
    merged, _ = load_ruleset("rulesets/variants/bargain_hunter_blind_bargain.rules")
    phases = {p.name: p for p in merged.phases}
    assert phases["bargain"].span.file == "rulesets/variants/bargain_hunter_blind_bargain.rules"
    assert phases["hunt"].span.file == "rulesets/bargain_hunter.rules"
    assert [p.name for p in merged.phases] == ["deal", "bargain", "hunt", "spring_cleaning"]


def test_option_default_override_points_at_the_variant() -> None:
    merged, _ = load_ruleset("rulesets/variants/bargain_bin_selfless.rules")
    option = next(o for o in merged.options if o.name == "selfless")
    assert option.span.file.endswith("bargain_bin_selfless.rules")
    assert isinstance(option.default, ir.Bool) and option.default.value is True
    assert option.doc.startswith("Selfless")  # the base's doc is kept when none is given


def test_allowed_root_is_the_nearest_rulesets_folder(tmp_path: Path) -> None:
    assert allowed_root("rulesets/variants/bargain_bin_vegas.rules") == ROOT / "rulesets"
    assert allowed_root(tmp_path / "a" / "x.rules") == tmp_path / "a"


def test_extends_may_not_climb_out_through_a_nested_variant(tmp_path: Path) -> None:
    root = tmp_path / "rulesets"
    (root / "house").mkdir(parents=True)
    (tmp_path / "outside.rules").write_text(
        Path("tests/variants_bad/_base.rules").read_text(encoding="utf-8"), encoding="utf-8")
    (root / "house" / "v.rules").write_text('extends "../../outside.rules"\n', encoding="utf-8")
    with pytest.raises(RulesValidationError, match="cannot reach outside the ruleset folder"):
        load_ruleset(str(root / "house" / "v.rules"))


def test_a_chain_of_variants_merges_in_order(tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text(
        Path("tests/variants_bad/_base.rules").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "one.rules").write_text('extends "base.rules"\noption hand_size = 4\n'
                                        'option rounds = 2\n', encoding="utf-8")
    (tmp_path / "two.rules").write_text('extends "one.rules"\noption hand_size = 5\n',
                                        encoding="utf-8")
    merged, _ = load_ruleset(str(tmp_path / "two.rules"))
    defaults = {o.name: expr_text(o.default) for o in merged.options}
    assert defaults == {"rounds": "2", "hand_size": "5"}


# ---------------------------------------------------------------- broken variants
def test_there_are_broken_variants_for_each_kind_of_fault() -> None:
    assert {"missing_base", "cycle_a", "self_cycle", "unknown_override", "escaping",
            "already_declared", "error_in_variant"} <= set(BAD)


@pytest.mark.parametrize("name", BAD)
def test_broken_variant_diagnostics_match_golden(name: str) -> None:
    with pytest.raises(RulesError) as info:
        load_ruleset(f"tests/variants_bad/{name}.rules")
    out = info.value.render() + "\n"
    for diag in info.value.diagnostics:
        assert diag.source is not None, f"no source attached for {diag.span.file}"
        assert diag.render().count("\n") == 2  # head, source line, caret
    golden = ROOT / "tests" / "golden" / "variants" / f"{name}.txt"
    if UPDATE:
        golden.write_text(out, encoding="utf-8")
    assert golden.exists(), f"no golden file {golden}; run with UPDATE_GOLDEN=1"
    assert out == golden.read_text(encoding="utf-8")


def test_unknown_overrides_suggest_the_name_meant() -> None:
    with pytest.raises(RulesValidationError) as info:
        load_ruleset("tests/variants_bad/unknown_override.rules")
    assert [d.message for d in info.value.diagnostics] == [
        "'option rouns = ...': the base has no option 'rouns' (did you mean 'rounds'?)",
        "'replace phase plya': the base has no phase 'plya' (did you mean 'play'?); to add "
        "one, write 'phase plya' without 'replace'",
        "'remove zone wonn': the base has no zone 'wonn' (did you mean 'won'?)"]


def test_diagnostics_inside_a_variant_point_at_the_variant() -> None:
    with pytest.raises(RulesValidationError) as info:
        load_ruleset("tests/variants_bad/error_in_variant.rules")
    spans = [(d.span.file, d.span.line) for d in info.value.diagnostics]
    assert spans == [("tests/variants_bad/error_in_variant.rules", 4),
                     ("tests/variants_bad/error_in_variant.rules", 7)]


# ---------------------------------------------------------------- language additions
def _base_with(old: str, new: str) -> str:
    text = Path("tests/variants_bad/_base.rules").read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new)


def _messages(text: str) -> list[str]:
    with pytest.raises(RulesValidationError) as info:
        rulesplay.loads(text, file="t.rules")
    return [d.message for d in info.value.diagnostics]


def test_derived_attributes_are_computed_per_card() -> None:
    text = _base_with("    rank: 1..6\n", "    rank: 1..6\n    double = rank * 2\n"
                      "    high = rank > 3\n")
    prog = rulesplay.loads(text).program(2)
    for attrs in prog.card_attrs:
        assert attrs["double"] == 2 * attrs["rank"]
        assert attrs["high"] == (attrs["rank"] > 3)
    assert len(prog.card_ids) == 12  # derived attributes make no new cards
    assert "hearts-1" in prog.card_ids


def test_derived_attributes_may_use_options() -> None:
    text = _base_with("    rank: 1..6\n", "    rank: 1..6\n    worth = rank + hand_size\n")
    game = rulesplay.loads(text, options={"hand_size": 5})
    assert {a["worth"] - a["rank"] for a in game.program(2).card_attrs} == {5}


def test_derived_attribute_mistakes_are_diagnosed() -> None:
    later = _base_with("    rank: 1..6\n", "    twice = rank + ranks\n    rank: 1..6\n")
    assert _messages(later) == [
        "'rank' is declared after 'twice': a derived attribute can use only the attributes "
        "above it", "undefined name 'ranks'"]
    listy = _base_with("    rank: 1..6\n", "    rank: 1..6\n    every = seats\n")
    [message] = _messages(listy)
    assert message.startswith("attribute 'every' must be a number, text, yes/no or an enum "
                              "value, got ")


def test_a_derived_attribute_failing_for_one_card_names_the_card() -> None:
    text = _base_with("    rank: 1..6\n", "    rank: 1..6\n    odd = {1: 1, 3: 3, 5: 5}[rank]\n")
    with pytest.raises(RulesValidationError, match=r"attribute 'odd' of card hearts-2: "):  # its id
        rulesplay.loads(text).program(2)


def test_winners_declaration_decides_who_wins() -> None:
    text = _base_with("score: tricks[player]\n",
                      "score: tricks[player]\nwinners: seats where tricks[it] == 0\n")
    game = rulesplay.loads(text)
    state = game.new_state(3, seed=1)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    tricks = [state.var("tricks", s) for s in range(3)]
    assert state.winners() == [s for s in range(3) if tricks[s] == 0]
    assert max(tricks) > 0 and max(tricks) not in [tricks[s] for s in state.winners()]


def test_winners_must_be_seats() -> None:
    text = _base_with("score: tricks[player]\n", "score: tricks[player]\nwinners: 3\n")
    [message] = _messages(text)
    assert message.startswith("type mismatch (winners: the winning seats): expected ")
