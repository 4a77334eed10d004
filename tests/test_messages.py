"""Every message a user meets says the right thing (issue 14 items 9-11): diagnostics point
at the line at fault and name what was probably meant, command-line arguments are checked
before anything runs and say what is allowed, and the API refuses wrong arguments in words.

Each test is one *kind* of fault, shown with the example that was reported and at least one
other of its kind.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import rulesplay
from rulesplay.compose import load_ruleset
from rulesplay.errors import RulesError

ROOT = Path(__file__).resolve().parent.parent
BASE = (ROOT / "tests/bad/_base_ok.rules").read_text(encoding="utf-8")
IF_LEAD = "                if lead == none:\n                    lead = c.suit\n"


def _error(text: str, file: str = "f.rules") -> str:
    """The rendered diagnostics of loading ``text`` (which must fail)."""
    with pytest.raises(RulesError) as info:
        rulesplay.loads(text, file=file)
    return info.value.render()


def _edit(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, 1)


def _line_of(text: str, fragment: str) -> int:
    return next(i for i, ln in enumerate(text.split("\n"), 1) if fragment in ln)


# ---------------------------------------------------------------- item 9: diagnostics
@pytest.mark.parametrize("old,new,word,meant", [
    ("zone won ", "zoen won ", "zoen", "zone"),
    ('phase play "play":', 'Phase play "play":', "Phase", "phase"),
    ("option hand_size:", "opton hand_size:", "opton", "option"),
])
def test_a_misspelt_declaration_is_reported_on_its_own_line(old: str, new: str, word: str,
                                                             meant: str) -> None:
    """It was reported at the end of the line before, with a false 'indented more' hint."""
    text = _edit(old, new)
    out = _error(text)
    head = out.splitlines()[0]
    assert head.startswith(f"f.rules:{_line_of(text, new)}:1: error: unexpected '{word}'"), out
    assert f"'{word}' is not a declaration (did you mean '{meant}'?)" in head
    assert "indented more" not in out


def test_a_continuation_line_still_gets_its_hint() -> None:
    """The hint that was wrongly given above is right for a truly deeper line."""
    out = _error(_edit("    shuffle deck\n", "    shuffle deck\n        shuffle deck\n"))
    assert "indented more than" in out


@pytest.mark.parametrize("old,new,hint", [
    ("leader = winner\n", "if leader = winner:\n                    leader = winner\n",
     "(to compare, write '==')"),
    ("if lead == none:", "if lead == none && round > 0:", "(did you mean 'and'?)"),
    ("if lead == none:", "if lead == none || round > 0:", "(did you mean 'or'?)"),
    ("if lead == none:", "if !(lead == none):", "(did you mean 'not'?)"),
    (IF_LEAD, IF_LEAD + "                else if round > 1:\n                    lead = c.suit\n",
     "(did you mean 'elif'?)"),
    ("if lead == none:", "if True:", "undefined name 'True' (did you mean 'true'?)"),
    ("if lead == none:", "if lead == None:", "undefined name 'None' (did you mean 'none'?)"),
    ("if lead == none:", "if lead == null:", "undefined name 'null' (did you mean 'none'?)"),
])
def test_another_languages_spelling_gets_a_did_you_mean(old: str, new: str, hint: str) -> None:
    assert hint in _error(_edit(old, new))


def test_a_misspelt_chosen_card_suggests_the_card_not_a_zone() -> None:
    text = _edit("    shuffle deck\n", "    shuffle deck\n    for each player p:\n"
                 '        p chooses pick from hand[p] "discard"\n        move pik to deck\n')
    out = _error(text)
    assert "undefined name 'pik' in 'move' (did you mean 'pick'?)" in out, out
    # A misspelt zone is still a zone.
    assert "unknown zone 'dek' in 'move' (did you mean 'deck'?)" in _error(
        _edit("move table to won[winner]", "move table to dek"))


def test_players_faults_point_at_the_players_line(tmp_path: Path) -> None:
    """They pointed at line 1 (the 'extends' line of a variant)."""
    text = _edit("players 2..4", "players 5..3")
    out = _error(text)
    assert out.startswith(f"f.rules:{_line_of(text, 'players 5..3')}:1: error: players 5..3 "
                          "is not a range"), out
    (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
    (tmp_path / "v.rules").write_text('# a variant\nextends "base.rules"\nplayers 5..3\n',
                                      encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_ruleset(str(tmp_path / "v.rules"))
    assert info.value.diagnostics[0].span.line == 3, info.value.render()


def test_players_with_one_count_means_exactly_that_many() -> None:
    game = rulesplay.loads(_edit("players 2..4", "players 3"))
    assert game.player_range == (3, 3)
    with pytest.raises(RulesError, match="for 3 to 3 players, not 2"):
        game.new_state(2)


@pytest.mark.parametrize("option,written", [("hand_size", "true"), ("rounds", "no")])
def test_a_value_is_not_shown_in_a_spelling_the_author_did_not_write(
        tmp_path: Path, option: str, written: str) -> None:
    """``option hand_size = true`` in a variant was reported as '... is yes'."""
    (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
    (tmp_path / "v.rules").write_text(f'extends "base.rules"\noption {option} = {written}\n',
                                      encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_ruleset(str(tmp_path / "v.rules"))
    out = info.value.render()
    assert f"the default of option '{option}' is a yes/no value; allowed: a whole number" in out
    assert " is yes" not in out and " is no;" not in out
    out = _error(_edit("option hand_size: int in 1..10 = 3", f"option hand_size: int in 1..10"
                       f" = {written}"))
    assert "the default of option 'hand_size' is a yes/no value; allowed: a whole" in out


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_runtime_messages_name_values_in_the_languages_words(engine: str) -> None:
    """``seat None``, ``no entry for False``: Python's names for values, not the game's."""
    unset = rulesplay.loads(_edit('var leader "leader": player = 0', 'var leader "leader": '
                                  "player"), engine=engine)
    with pytest.raises(RulesError) as info:
        unset.new_state(2)
    said = info.value.message
    assert "a seat is needed here, but the value is none" in said and "None" not in said
    keyed = rulesplay.loads(_edit("    shuffle deck\n", "    shuffle deck\n"
                                  "    round += {yes: 1}[round > 5]\n"), engine=engine)
    with pytest.raises(RulesError) as info:
        keyed.new_state(2)
    assert "no entry for the key no in" in info.value.message
    assert "False" not in info.value.message


@pytest.mark.parametrize("decl,what", [
    ("enum suit: hearts, spades", "enum suit: hearts, spades, left"),
    ("enum suit: hearts, spades", "enum suit: hearts, spades, not"),
    ('var round "round": int = 1', 'var round "round": int = 1\nvar right "r": int = 0'),
    ('var round "round": int = 1', 'var round "round": int = 1\nvar next "n": int = 0'),
    ("    shuffle deck\n", "    let left = 1\n    shuffle deck\n"),
])
def test_a_name_the_language_reads_as_a_word_is_refused_where_declared(decl: str,
                                                                     what: str) -> None:
    """An enum value named ``left`` validated, then failed to parse where it was used."""
    text = _edit(decl, what)
    out = _error(text)
    name = next(w for w in ("left", "not", "right", "next") if f" {w}" in what)
    assert f"'{name}' is a reserved word and cannot name" in out, out
    assert out.startswith(f"f.rules:{_line_of(text, name)}:"), out


def test_indentation_that_depends_on_the_tab_width_is_refused() -> None:
    """Python's TabError: a tab counted 8 columns put this line outside the ``if`` that a
    4-column editor shows it in."""
    text = _edit("    shuffle deck\n", "    if round > 0:\n        shuffle deck\n\tround += 0\n")
    out = _error(text)
    assert out.startswith(f"f.rules:{_line_of(text, chr(9) + 'round')}:1: error: "
                          "inconsistent use of tabs and spaces"), out
    # Tabs only, or spaces only, are read as before; so are tabs followed by spaces that
    # keep every line's block whatever a tab's width.
    tabs = BASE.replace("    ", "\t")
    rulesplay.loads(tabs)
    assert "\n\t\t\t\tor not any(" in tabs
    rulesplay.loads(tabs.replace("\n\t\t\t\tor not any(", "\n\t\t\t  or not any("))


@pytest.mark.parametrize("line", ['include "a\\u0000b.part"', 'extends "a\\x00b.rules"',
                                  'include "a\\nb.part"'])
def test_a_control_character_in_a_file_name_is_a_located_error(tmp_path: Path,
                                                               line: str) -> None:
    """A NUL in an include path ended in a traceback."""
    top = tmp_path / "top.rules"
    top.write_text(f"# here\n{line}\n", encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_ruleset(str(top))
    assert info.value.span.line == 2 and "control character U+00" in info.value.message
    with pytest.raises(RulesError, match="cannot hold the character U\\+0000"):
        rulesplay.load(str(tmp_path / "a\x00b.rules"))
