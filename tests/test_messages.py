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
from rulesplay.errors import OptionError, RulesError

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
    ("if lead == none:", "if lead <> none:", "(did you mean '!='?)"),
    ("if lead == none:", "if (lead == none ? yes : no):", "'A if TEST else B'"),
    ("    shuffle deck\n", "    shuffle deck;\n", "(a statement ends at the end of its line"),
    ("    shuffle deck\n", "    round++\n    shuffle deck\n", "(did you mean '+= 1'?)"),
    ("    shuffle deck\n", "    while round > 9:\n        round -= 1\n",
     "'while' is not a statement (did you mean 'repeat while'?)"),
    (IF_LEAD, IF_LEAD + "                elseif round > 1:\n                    lead = c.suit\n",
     "'elseif' is not a statement (did you mean 'elif'?)"),
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


def test_faults_of_once_lines_point_at_their_line(tmp_path: Path) -> None:
    """``players 5..3`` and an unknown ``start`` phase pointed at line 1 (the 'extends'
    line of a variant)."""
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
    (tmp_path / "v.rules").write_text('# a variant\nextends "base.rules"\nstart dael\n',
                                      encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_ruleset(str(tmp_path / "v.rules"))
    assert info.value.diagnostics[0].span.line == 3, info.value.render()
    assert "unknown start phase 'dael' (did you mean 'deal'?)" in info.value.message


@pytest.mark.parametrize("part,said,line", [
    ("players 5..3\n", "i.part has a 'players' line, which an included part cannot set", 2),
    ('# cards\nscore: 1\n', "i.part has a 'score:' line", 2),
    ("# more\nremove phase deal\n", "an included file adds declarations only", 2),
])
def test_what_an_included_part_says_is_not_dropped_in_silence(tmp_path: Path, part: str,
                                                              said: str, line: int) -> None:
    """``players 5..3`` in an included part validated: the line was dropped unread."""
    (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
    (tmp_path / "i.part").write_text(part, encoding="utf-8")
    (tmp_path / "v.rules").write_text('extends "base.rules"\ninclude "i.part"\n',
                                      encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_ruleset(str(tmp_path / "v.rules"))
    assert said in info.value.message and info.value.span.line == line, info.value.render()


def test_players_with_one_count_means_exactly_that_many() -> None:
    game = rulesplay.loads(_edit("players 2..4", "players 3"))
    assert game.player_range == (3, 3)
    with pytest.raises(RulesError, match="is for 3 players, not 2"):  # not "3 to 3"
        game.new_state(2)


def test_one_player_count_reads_as_one_number_in_every_entry_point(tmp_path: Path) -> None:
    """simulate, compare and the API's type message still said "from 3 to 3"."""
    from click.testing import CliRunner

    from rulesplay.cli import main

    path = tmp_path / "t.rules"
    path.write_text(_edit("players 2..4", "players 3"), encoding="utf-8")
    for args in (["simulate", str(path)], ["compare", str(path), str(path)]):
        result = CliRunner().invoke(main, [*args, "-n", "1", "--players", "2"])
        assert result.exit_code == 2 and "is for 3 players, not 2" in result.output, \
            result.output
    with pytest.raises(RulesError) as caught:
        rulesplay.load(path).new_state(num_players="3")  # type: ignore[arg-type]
    assert "is for 3 players, not \"3\"" in caught.value.message
    assert "3 to 3" not in caught.value.message and "'3'" not in caught.value.message
    assert "players 0 is not a range" in _error(_edit("players 2..4", "players 0"))


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
    ("enum suit: hearts, spades", "enum suit: hearts, spades, not"),
    ('var round "round": int = 1', 'var round "round": int = 1\nvar next "n": int = 0'),
])
def test_a_name_the_language_reads_as_a_word_is_refused_where_declared(decl: str,
                                                                     what: str) -> None:
    """An enum value named ``not`` validated, then failed to parse where it was used."""
    text = _edit(decl, what)
    out = _error(text)
    name = next(w for w in ("not", "next") if f" {w}" in what)
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


# ---------------------------------------------------------------- item 10: arguments
CARD_HUNT = str(ROOT / "rulesets/card_hunt.rules")


@pytest.mark.parametrize("spec,said", [
    ("mcts:iterations=abc", "iterations must be a whole number from 1 to 1000000, not 'abc'"),
    ("mcts:iterations=1e400", "iterations must be a whole number from 1 to 1000000"),
    ("mcts:iterations=0", "iterations must be a whole number from 1 to 1000000, not '0'"),
    ("greedy:samples=2.5", "samples must be a whole number from 1 to 10000, not '2.5'"),
    ("mcts:c=nan", "c must be a number from 0 to 100, not 'nan'"),
    ("mcts:c=-inf", "c must be a number from 0 to 100"),
    ("mcts:seconds=0", "seconds must be a number above 0 and at most 3600"),
    ("mcts:reward=points", "reward must be win or score, not 'points'"),
    ("mcts:iterations=5,iterations=6", "iterations is given twice"),
    ("mcts:iteration=5", "bot 'mcts' has no parameter 'iteration' (did you mean 'iterations'?)"
                         "; its parameters: iterations (a whole number from 1 to 1000000), "
                         "seconds (a number above 0 and at most 3600), c (a number from 0 "
                         "to 100), reward (win or score)"),
    ("random:seed=3", "bot 'random' has no parameter 'seed'; it takes no parameters; a bot's "
                      "generator is seeded from the game's seed and its seat"),
    ("greedy:seed=3", "its parameters: samples (a whole number from 1 to 10000), depth"),
])
@pytest.mark.parametrize("command", ["run", "simulate"])
def test_a_bad_bot_spec_is_refused_before_anything_runs_saying_what_is_allowed(
        command: str, spec: str, said: str) -> None:
    """Each spec was a Python message ('<' not supported..., multiple values for argument
    'seed', OverflowError) or, for iterations=0, silently 100 iterations."""
    from click.testing import CliRunner

    from rulesplay.cli import main

    for args in (["--bot", spec], ["--seat", f"0={spec}"]):
        games = ["-n", "1"] if command == "simulate" else []
        result = CliRunner().invoke(main, [command, CARD_HUNT, *games, *args])
        assert result.exit_code == 2 and said in result.output, result.output
        assert "Traceback" not in result.output


def test_run_help_names_every_bot_parameter() -> None:
    from click.testing import CliRunner

    from rulesplay.agents import PARAMS
    from rulesplay.cli import main

    shown = " ".join(CliRunner().invoke(main, ["run", "--help"]).output.split())
    for name, params in PARAMS.items():
        assert name in shown
        for key in params:
            assert f"{key}=..." in shown.replace(" ", ""), key


def test_an_argument_that_would_change_nothing_is_refused() -> None:
    """``compile --players 99`` (without --python) was accepted and ignored."""
    from click.testing import CliRunner

    from rulesplay.cli import main

    result = CliRunner().invoke(main, ["compile", CARD_HUNT, "--players", "99"])
    assert result.exit_code == 2 and "--players goes with --python" in result.output
    result = CliRunner().invoke(main, ["compile", CARD_HUNT, "--python", "--players", "3"])
    assert result.exit_code == 0 and result.output


def test_a_missing_matplotlib_is_reported_before_any_game(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from click.testing import CliRunner

    from rulesplay import sim_cli
    from rulesplay.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))

    def no_games(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(sim_cli, "run_simulate", no_games)
    result = CliRunner().invoke(main, ["simulate", CARD_HUNT, "-n", "2", "--plot", "p.png"])
    assert result.exit_code == 1 and "--plot needs matplotlib" in result.output


# ---------------------------------------------------------------- item 11: the API
def test_new_state_refuses_a_player_count_or_seed_that_is_not_an_int() -> None:
    game = rulesplay.load(CARD_HUNT)
    with pytest.raises(RulesError, match="number of players is a whole number \\(an int\\): "
                                         "Card Hunt is for 2 to 8 players, not \"3\""):
        game.new_state(num_players="3")  # type: ignore[arg-type]
    for seed in ("abc", 1.5, True):
        with pytest.raises(RulesError, match="the seed is a whole number"):
            game.new_state(3, seed=seed)  # type: ignore[arg-type]
    assert game.new_state(3, seed=2**100).num_players == 3


def test_a_seat_the_game_does_not_have_is_refused() -> None:
    """``observation(7)`` in a 3-player game returned data."""
    state = rulesplay.load(CARD_HUNT).new_state(3, seed=1)
    for ask in (state.observation, state.public_history, state.seat_prompt):
        for seat in (7, -1, "0", True):
            with pytest.raises(RulesError, match="seats are 0 to 2, or None for an onlooker"):
                ask(seat)  # type: ignore[operator]
        ask(None)
        ask(2)
    with pytest.raises(RulesError, match="seats are 0 to 2$"):
        state.var("points", 3)
    assert state.observation(0)["seat"] == 0


def test_loads_of_a_variant_says_it_needs_the_file() -> None:
    """It said the variant "needs at least one 'card' kind"."""
    text = (ROOT / "rulesets/variants/bargain_hunter_quick.rules").read_text(encoding="utf-8")
    with pytest.raises(RulesError) as info:
        rulesplay.loads(text)
    assert "'extends' reads another file" in info.value.message
    assert "use rulesplay.load()" in info.value.message
    assert info.value.span.line == _line_of(text, "extends")
    with pytest.raises(RulesError, match="'include' reads another file"):
        rulesplay.loads(BASE + 'include "more.part"\n')


def test_loads_takes_utf8_bytes_and_names_a_wrong_type() -> None:
    """``loads(b"...")`` was a bare TypeError."""
    data = (ROOT / "rulesets/card_hunt.rules").read_bytes()
    assert rulesplay.loads(data).title == rulesplay.load(CARD_HUNT).title
    with pytest.raises(RulesError, match="not UTF-8"):
        rulesplay.loads(b"\xff" + data)
    with pytest.raises(TypeError, match="loads\\(\\) takes the ruleset's text"):
        rulesplay.loads(3)  # type: ignore[arg-type]


def test_a_save_of_a_variant_resumes_from_another_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fixed by the security issue's item 2 (a save holds every file of its ruleset)."""
    from click.testing import CliRunner

    from rulesplay.cli import main

    home = tmp_path / "home"
    (home / "rulesets" / "variants").mkdir(parents=True)
    (home / "rulesets" / "base.rules").write_text(BASE, encoding="utf-8")
    (home / "rulesets" / "variants" / "v.rules").write_text(
        'extends "../base.rules"\ngame "Variant"\noption rounds = 1\n', encoding="utf-8")
    monkeypatch.chdir(home)
    result = CliRunner().invoke(main, ["run", "rulesets/variants/v.rules", "--seat",
                                       "0=human", "--seed", "4", "--save", "g.save.json"],
                                input="quit\ny\n")
    assert result.exit_code == 0 and (home / "g.save.json").exists(), result.output
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = CliRunner().invoke(main, ["resume", str(home / "g.save.json")],
                                input="quit\nn\n")
    assert result.exit_code == 0, result.output
    assert "Variant" in result.output


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_a_player_count_the_ruleset_does_not_allow_is_refused_before_any_seat_is_set(
        command: str) -> None:
    """``simulate --players 99999999999999999999`` built a table of that many seats (it was
    killed for its memory) before the count was checked."""
    from click.testing import CliRunner

    from rulesplay.cli import main

    files = [CARD_HUNT] * (2 if command == "compare" else 1)
    for players in ("99999999999999999999", "1"):
        result = CliRunner().invoke(main, [command, *files, "-n", "1", "--players", players])
        assert result.exit_code == 2, result.output
        assert f"--players: Card Hunt is for 2 to 8 players, not {players}" in result.output


def test_other_api_arguments_of_the_wrong_kind_are_refused_in_words() -> None:
    """The same kind as above, in the other entry points: a seat given as text or for a
    shared zone, options that are not a mapping, a path that is not one."""
    game = rulesplay.load(CARD_HUNT)
    state = game.new_state(3, seed=1)
    with pytest.raises(RulesError, match="seat '0' is not a seat of this game"):
        state.zone_cards("hand", "0")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="zone 'deck' is shared: give no owner"):
        state.zone_cards("deck", 5)
    assert len(state.zone_cards("hand", 2)) == 13 and state.zone_cards("table") == []
    with pytest.raises(RulesError, match="options are a mapping"):
        rulesplay.load(CARD_HUNT, options=[("rounds", 1)])  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="record_events is True, False or 'counts'"):
        game.new_state(3, record_events="all")
    with pytest.raises(TypeError, match="load\\(\\) takes the ruleset file's path"):
        rulesplay.load(None)  # type: ignore[arg-type]


def test_an_option_value_is_quoted_short_however_long_it_was_given() -> None:
    from rulesplay.engine.options import check_option_value

    game = rulesplay.loads('game "O"\nplayers 2..2\noption rounds: int in 1..5 = 2\n'
                           'card c:\n    copies: 2\nzone deck: shared, public\nphase a:\n'
                           '    0 chooses x from deck\n    end game\nscore: rounds\n')
    [decl] = game.ruleset.options
    for value, shown in ((10**300, "a number of about 300 digits"), ("x" * 5000, "xxx...")):
        with pytest.raises(OptionError) as caught:
            check_option_value(decl, value)
        assert shown in caught.value.message and len(caught.value.message) < 120


def test_a_placeholder_nested_too_deeply_is_reported_where_it_is() -> None:
    text = ('game "D"\nplayers 2..2\ncard c:\n    copies: 2\nzone deck: shared, public\n'
            'phase a:\n    0 chooses x from deck\n    say "v {' + "-" * 150 + '1}"\n'
            "    end game\nscore: 0\n")
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(text, file="deep.rules")
    assert caught.value.span.line == 8 and "nested too deeply" in caught.value.message


def test_a_score_that_is_none_is_a_located_error_not_a_type_error() -> None:
    text = ('game "T"\nplayers 2\ncard c "c":\n    rank: 1..5\nzone deck "deck": shared, hidden\n'
            'player var s "s": int\nphase p "P":\n    next end\nscore: s[player]\n')
    state = rulesplay.loads(text, file="t.rules").new_state(2)
    for ask in (state.scores, state.winners):
        with pytest.raises(RulesError) as caught:
            ask()
        assert "the score of seat 0 is none" in caught.value.message
        assert (caught.value.span.file, caught.value.span.line) == ("t.rules", 9)


@pytest.mark.parametrize(("default", "says"), [
    ("1 / 0", "the default of 'q' failed (division by zero"),
    ("999999999999999999 + 1", "is out of range"),
])
def test_a_variables_default_that_fails_is_located_at_the_default(default: str,
                                                                  says: str) -> None:
    text = ('game "T"\nplayers 2\ncard c "c":\n    rank: 1..5\nzone deck "deck": shared, hidden\n'
            f'player var q "q": int = {default}\nphase p "P":\n    next end\nscore: 0\n')
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(text, file="t.rules").new_state(2)
    assert says in caught.value.message
    assert (caught.value.span.file, caught.value.span.line, caught.value.span.col) == \
        ("t.rules", 6, 25)
    assert "^" in caught.value.render()


@pytest.mark.parametrize("name", ["player", "winner"])
def test_a_name_the_rules_bind_to_a_seat_cannot_be_declared(name: str) -> None:
    text = (f'game "T"\nplayers 2\nenum who: {name}, other\ncard c "c":\n    rank: 1..5\n'
            'zone deck "deck": shared, hidden\nphase p "P":\n    next end\nscore: 0\n')
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(text, file="t.rules")
    assert f"'{name}' is a seat the rules name" in caught.value.message
    assert (caught.value.span.line, caught.value.span.col) == (3, 11)


def test_another_languages_function_name_points_at_the_builtin() -> None:
    text = ('game "T"\nplayers 2\ncard c "c":\n    rank: 1..5\nzone deck "deck": shared, hidden\n'
            'var v "v": int = 0\nphase p "P":\n    v = len(deck)\n    next end\nscore: 0\n')
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(text, file="t.rules")
    assert "unknown function 'len' (did you mean 'count'?)" in caught.value.message


def test_an_include_of_a_pipe_says_it_is_not_a_regular_file(tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / "p.part")
    (tmp_path / "t.rules").write_text(
        'game "T"\nplayers 2\ninclude "p.part"\ncard c "c":\n    rank: 1..5\n'
        'zone deck "deck": shared, hidden\nphase p "P":\n    next end\nscore: 0\n',
        encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        rulesplay.load(tmp_path / "t.rules")
    assert "'p.part' is not a regular file (a pipe or a device)" in caught.value.message
    assert caught.value.span.line == 3


def test_library_words_do_not_reach_the_user() -> None:
    # (from the review: "not NoneType None", "Expecting value: line 1 column 1 (char 0)",
    # "0 is not in the range x>=1")
    from click.testing import CliRunner

    from rulesplay.cli import main

    state = rulesplay.load(ROOT / "rulesets/card_hunt.rules").new_state(2)
    with pytest.raises(RulesError, match="an action is an Action or its id .a string., not none$"):
        state.apply(None)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=r"this is not a rulesplay save \(not JSON text\)$"):
        rulesplay.State.from_json("xx")
    result = CliRunner().invoke(main, ["simulate", str(ROOT / "rulesets/card_hunt.rules"),
                                       "--workers", "0"])
    assert result.exit_code == 2 and "must be a whole number of at least 1, not 0" in \
        result.output


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
def test_left_and_right_are_words_only_before_of(engine: str) -> None:
    # (Hearts passes left, right or across: 'enum direction: left, right' was refused)
    text = ('game "T"\nplayers 3\nenum direction: left, right, across\ncard c "c":\n'
            '    rank: 1..5\nzone deck "deck": shared, public\n'
            'var d "d": direction = left\nvar s "s": player = 0\nphase p "P":\n'
            '    let nxt = left of s\n    s = nxt\n    if d == left or d == right:\n'
            '        d = across\n    next end\nscore: 0\n')
    state = rulesplay.loads(text, engine=engine).new_state(3)
    assert state.is_terminal() and state.observation(0)["vars"] == {"d": "across", "s": 1}


@pytest.mark.parametrize(("line", "hint"), [
    ("    v := 3", "(to assign a value, write '=')"),
    ("    esle:", "'esle' is not a statement (did you mean 'else'?)"),
])
def test_other_spellings_get_a_hint(line: str, hint: str) -> None:
    text = ('game "T"\nplayers 2\ncard c "c":\n    rank: 1..5\nzone deck "deck": shared, hidden\n'
            f'var v "v": int = 0\nphase p "P":\n{line}\n    next end\nscore: 0\n')
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(text, file="t.rules")
    assert hint in caught.value.message and caught.value.span.line == 8


@pytest.mark.parametrize("local,hidden", [
    ("let players = 3", "the built-in 'players'"),
    ("let seats = 3", "the built-in 'seats'"),
])
def test_a_local_may_not_hide_a_built_in_name(local: str, hidden: str) -> None:
    """A local named 'players' made 'repeat players times' count the local (found by the
    session-6 review with a skip named 'players'): refused where it is bound."""
    text = _edit(IF_LEAD, "                " + local + "\n" + IF_LEAD)
    out = _error(text)
    assert f"would hide {hidden}" in out
    assert f"f.rules:{_line_of(text, local)}:" in out


@pytest.mark.parametrize(("line", "message"), [
    ("    elsif v > 0:", "'elsif' is not a statement (did you mean 'elif'?)"),
    ("    elseif v:", "'elseif' is not a statement (did you mean 'elif'?)"),
])
def test_a_word_that_is_not_a_statement_is_pointed_at_not_what_follows(line: str,
                                                                      message: str) -> None:
    # (the caret was at 'v', after "unexpected 'v'")
    text = ('game "T"\nplayers 2\ncard c "c":\n    rank: 1..5\nzone deck "deck": shared, hidden\n'
            f'var v "v": int = 0\nphase p "P":\n    if v == 0:\n        v = 1\n{line}\n'
            '        v = 2\n    next end\nscore: 0\n')
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(text, file="t.rules")
    assert caught.value.message == message
    assert (caught.value.span.line, caught.value.span.col) == (10, 5)


@pytest.mark.parametrize(("loop", "hint"), [
    ("for each players:", "(every seat in turn: 'for each player p:')"),
    ("for each player:", "(name the seat: 'for each player p:')"),
    ("for each deck:", "(every seat in turn: 'for each player p:'; each item of deck: "
                       "'for each x in deck:')"),
])
def test_a_for_each_without_a_name_says_what_was_meant(loop: str, hint: str) -> None:
    # (it said only "expected 'in'")
    text = ('game "T"\nplayers 2\ncard c "c":\n    rank: 1..5\nzone deck "deck": shared, hidden\n'
            f'var v "v": int = 0\nphase p "P":\n    {loop}\n        v += 1\n    next end\n'
            'score: 0\n')
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(text, file="t.rules")
    assert caught.value.message.endswith(hint) and caught.value.span.line == 8


@pytest.mark.parametrize(("line", "message", "col"), [
    ("    v += true", "'+=' adds or takes away a number, not yes/no: to count a test, write "
                    "'+= 1 if TEST else 0'", 10),
    ("    v -= v > 2", "'-=' adds or takes away a number, not yes/no", 10),
    ("    b += 1", "'+=' needs a number variable, got yes/no", 5),
])
def test_yes_and_no_are_not_added_to_numbers(line: str, message: str, col: int) -> None:
    # ('v += true' validated and added 1)
    text = ('game "T"\nplayers 2\ncard c "c":\n    rank: 1..5\nzone deck "deck": shared, hidden\n'
            f'var v "v": int = 0\nvar b "b": bool = no\nphase p "P":\n{line}\n    next end\n'
            'score: 0\n')
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(text, file="t.rules")
    assert caught.value.message.startswith(message)
    assert (caught.value.span.line, caught.value.span.col) == (9, col)


# ---------------------------------------------------------------- review s6: results
_RESULTS = ('game "T"\nplayers 2\ncard c "c":\n    rank: 1..5\nzone deck "deck": shared, hidden\n'
            'player var p "p": int = 0\nphase a "A":\n    p[0] = 2\n    next end\n'
            'score: p[player]\n')
_ZERO = "10 / (p[player] - p[player])"


@pytest.mark.parametrize("engine", ["compiled", "interpret"])
@pytest.mark.parametrize(("tail", "line", "what"), [
    ("score: " + _ZERO + "\n", 10, "the score of Seat 0: division by zero"),
    ("score: p[player] * 999999999999999999\n", 10, "the score of Seat 0: 1999999999999999998 "
     "is out of range"),
    ("tiebreak: 1\ntiebreak: " + _ZERO + "\n", 12, "tiebreak 2 of Seat 0: division by zero"),
    ("tiebreak: " + _ZERO + "\n", 11, "the tiebreak of Seat 0: division by zero"),
    ("winners: seats where 10 / (p[it] - p[it]) > 0\n", 11, "the winners rule: division by "
     "zero"),
])
def test_a_failing_result_rule_is_located_at_its_own_line_wherever_it_is_asked(
        engine: str, tail: str, line: int, what: str) -> None:
    """Simulate and the API said the last statement run (or nothing, compiled) and 'in
    phase' for a score line; run alone pointed at the score line."""
    from rulesplay.sim import play_game

    text = _RESULTS.replace("score: p[player]\n", tail) if tail.startswith("score") else \
        _RESULTS + tail
    game = rulesplay.loads(text, file="t.rules", engine=engine)
    state = game.new_state(2, seed=1)
    asks = [state.winners, lambda: play_game(game, 2, {}, 1)]
    asks += [state.scores] if tail.startswith("score") else []
    asks += [state.rank_keys] if not tail.startswith("winners") else []
    for ask in asks:
        with pytest.raises(RulesError) as caught:
            ask()
        assert what in caught.value.message and "in phase" not in caught.value.message
        assert (caught.value.span.file, caught.value.span.line) == ("t.rules", line)


# ---------------------------------------------------------------- review s6: files
_TOP = 'game "T"\nplayers 2\ninclude "{name}"\ncard c "c":\n    rank: 1..5\n' \
    'zone deck "deck": shared, hidden\nphase p "P":\n    next end\nscore: 0\n'


def test_every_os_error_of_an_included_or_extended_file_is_said_at_its_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A name too long gave the system's 'File name too long: <5000 characters>' with no
    place (a raw OSError from the API); a folder was 'a folder ... (did you mean <itself>?)'."""
    import errno

    long = "a" * 5000 + ".part"
    (tmp_path / "dir.part").mkdir()
    (tmp_path / "locked.part").write_text("enum e: x\n", encoding="utf-8")
    (tmp_path / "v.rules").write_text(f'extends "{"b" * 5000}.rules"\n', encoding="utf-8")
    real_open = Path.open

    def refuse(self: Path, *args: object, **kwargs: object) -> object:
        if self.name == "locked.part":
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "open", refuse)
    cases = [(long, 3, "'include': '" + "a" * 28 + "..." + "a" * 23 + ".part' cannot be read "
              "(its name is too long for the file system)"),
             ("dir.part", 3, "'include': 'dir.part' is a folder, not a ruleset file"),
             ("locked.part", 3, "'include': 'locked.part': the file 'locked.part' cannot be "
              "read (permission denied)")]
    for name, line, says in cases:
        (tmp_path / "t.rules").write_text(_TOP.format(name=name), encoding="utf-8")
        with pytest.raises(RulesError) as caught:
            rulesplay.load(tmp_path / "t.rules")
        assert says in caught.value.message, caught.value.message
        assert caught.value.span.line == line and "did you mean" not in caught.value.message
        assert len(caught.value.message) < 200
    with pytest.raises(RulesError) as caught:
        rulesplay.load(tmp_path / "v.rules")
    assert caught.value.span.line == 1 and "its name is too long" in caught.value.message
    with pytest.raises(RulesError) as caught:
        rulesplay.load(tmp_path / ("c" * 5000 + ".rules"))
    assert "its name is too long for the file system" in caught.value.message


def test_file_messages_name_their_subject(tmp_path: Path) -> None:
    """'is a folder, not a ruleset file' and 'is too large' had no subject; an empty part
    was told that a ruleset starts with 'game'."""
    (tmp_path / "d.rules").mkdir()
    with pytest.raises(RulesError, match="'d.rules' is a folder, not a ruleset file"):
        rulesplay.load(tmp_path / "d.rules")
    (tmp_path / "e.part").write_text("# only a comment\n", encoding="utf-8")
    (tmp_path / "t.rules").write_text(_TOP.format(name="e.part"), encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        rulesplay.load(tmp_path / "t.rules")
    assert "a ruleset part holds declarations" in caught.value.message
    assert "'game" not in caught.value.message


def test_a_tab_moves_to_the_next_tab_stop() -> None:
    """'\t  \t' counted 8 + 2 + 8 = 18 columns (Python: 16, the next tab stop), so a line
    consistent at tab widths 8 and 4 was refused as matching no block."""
    text = ('game "T"\nplayers 2\ncard c "c":\n\trank: 1..5\nzone deck "deck": shared, '
            'hidden\nvar v "v": int = 0\nphase p "P":\n\tif v == 0:\n\t  \tv = 1\n'
            '\t\tv = 2\n\tnext end\nscore: 0\n')
    state = rulesplay.loads(text).new_state(2)
    assert state.observation(0)["vars"]["v"] == 2


# ---------------------------------------------------------------- review s6: syntax words
@pytest.mark.parametrize(("old", "new", "at", "says"), [
    # a bracket left open: at the end of its line, naming it (it was 'unexpected <the next
    # line's first word>' on the next line), for every bracket kind and at the end of file
    ("    shuffle deck\n", "    round = count(hand[0]\n    shuffle deck\n", (28, 26),
     "'(' opened at 28:18 is not closed (expected ')'"),
    ("    shuffle deck\n", "    round = hand_size + [1, 2\n    shuffle deck\n", (28, 30),
     "'[' opened at 28:25 is not closed (expected ']'"),
    ("    shuffle deck\n", "    round = {1: 2, 2: 3\n    shuffle deck\n", (28, 24),
     "'{' opened at 28:13 is not closed (expected '}'"),
    ("    shuffle deck\n", "    round = count(\n        hand[0]\n    shuffle deck\n", (29, 16),
     "'(' opened at 28:18 is not closed"),
    # a misspelt word: the caret under it, a hint from the words that fit there
    ("    shuffle deck\n", "    shufle deck\n", (28, 5),
     "'shufle' is not a statement (did you mean 'shuffle'?)"),
    ("    copies: 1\n", "    copise: 1\n", (14, 5),
     "'copise' is not a card kind's field (did you mean 'copies'?)"),
    ('    label: "{suit} {rank}"\n', '    lable: "{suit} {rank}"\n', (15, 5),
     "(did you mean 'label'?)"),
    ("    copies: 1\n", '    copies: 1\n    shrt: "x"\n', (15, 5), "(did you mean 'short'?)"),
    ("var round", "VAR round", (22, 1), "'VAR' is not a declaration (did you mean 'var'?)"),
    # a type after ':' (an option's, a card attribute's): the caret under it
    ("option hand_size: int", "option hand_size: itn", (7, 19), "'itn' is not a type (did "
     "you mean 'int'?)"),
    ("    suit: suit\n", "    suit: tetx\n", (12, 11), "unknown enum 'tetx' for attribute "
     "'suit' (did you mean 'text'?)"),
    ("player var tricks", "player vra tricks", (25, 8), "'vra' is not a word here (did you "
     "mean 'var'?)"),
    # other languages' spellings
    ("    shuffle deck\n", "    print(round)\n", (28, 5), "'print' is not a statement (did "
     "you mean 'say'?)"),
    ("    shuffle deck\n", "    return\n", (28, 5), "there is no 'return'"),
    ("    shuffle deck\n", "    round = 1 === 2\n", (28, 17), "(to compare, write '==')"),
    ("    shuffle deck\n", "    // deal\n", (28, 5), "(a comment starts with '#')"),
    ("    shuffle deck\n", "    for p in table:\n        shuffle deck\n", (28, 9),
     "(a loop is written 'for each player p:'"),
    ("    repeat while count(hand[leader]) > 0:",
     "    repeat while count(hand[leader]) > 0 AND round > 0:", (33, 42),
     "unexpected 'AND'; expected ':' or an operator (did you mean 'and'?)"),
    ("enum suit: hearts, spades", "enum suit: hearts, spades, not", (9, 28),
     "'not' is a reserved word and cannot name an enum value"),
])
def test_a_syntax_error_names_what_fits_where_it_is(old: str, new: str, at: tuple[int, int],
                                                   says: str) -> None:
    out = _error(_edit(old, new))
    head = out.splitlines()[0]
    assert head.startswith(f"f.rules:{at[0]}:{at[1]}: error: "), out
    assert says in head, out


@pytest.mark.parametrize(("old", "new"), [
    ("    shuffle deck\n", "    round = 3 +\n"),  # was: 'round' ... (did you mean 'about'?)
    ("    shuffle deck\n", "    leader = 3 *\n"),
    ("    rank: 1..6\n", "    rank: 1...6\n"),  # was: 'rank' is not a statement ('break'?)
    ("    rank: 1..6\n", "    rank: 1-6\n"),
    ("    rank: 1..6\n", "    rank: range(1, 6)\n"),
])
def test_a_right_word_gets_no_false_hint(old: str, new: str) -> None:
    out = _error(_edit(old, new))
    assert "did you mean" not in out and "is not a statement" not in out, out


def test_an_enum_value_that_is_a_word_is_refused_where_it_is_declared() -> None:
    """'d = not' was reported as 'd' is not a statement (did you mean 'do'?)."""
    text = _edit("enum suit: hearts, spades", "enum suit: hearts, spades\nenum dir: not, other")
    text = text.replace("    shuffle deck\n", "    round = 1\n    d = not\n")
    out = _error(text)
    assert out.startswith("f.rules:10:11: error: 'not' is a reserved word"), out


def test_a_misspelt_keyword_after_a_name_gets_a_hint() -> None:
    text = ('game "T"\nplayers 2\ncard c "c":\n    rank: 1..5\nzone deck "deck": shared, public\n'
            'phase p "P":\n    0 choses x from deck\n    next end\nscore: 0\n')
    out = _error(text)
    assert out.startswith("f.rules:7:7: error: unexpected 'choses'") and \
        out.splitlines()[0].endswith("; did you mean 'chooses'?"), out


def test_a_nul_and_an_unknown_type_are_pointed_at() -> None:
    """A NUL was reported at 1:1; an unknown type at the variable's name."""
    out = _error(_edit("    shuffle deck\n", "    shuffle\x00 deck\n"))
    assert out.startswith("f.rules:28:12: error: the file is binary"), out
    out = _error(_edit('var round "round": int', 'var round "round: a": itn'))
    assert out.startswith("f.rules:22:23: error: unknown type 'itn'"), out
    assert "(did you mean 'int'?)" in out and "^~~" in out


@pytest.mark.parametrize(("line", "says"), [
    # was: undefined name 'no_led' (did you mean 'offer_lead'?)
    ("option offer_lead = no_led", "'no_led' is not a value of option 'offer_lead' (did you "
     "mean 'no_lead'?); allowed: first_coloured, no_lead"),
    # was: the default of option 'rounds' is 3 (a text "3" shown as the number)
    ('option rounds = "3"', "the default of option 'rounds' is the text \"3\"; allowed: a "
     "whole number from 1 to 12"),
])
def test_a_variants_option_value_is_told_in_the_options_words(tmp_path: Path, line: str,
                                                              says: str) -> None:
    import shutil

    shutil.copy(ROOT / "rulesets/bargain_hunter.rules", tmp_path / "b.rules")
    (tmp_path / "v.rules").write_text(f'extends "b.rules"\ngame "V"\n{line}\n',
                                      encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        rulesplay.load(tmp_path / "v.rules")
    assert says in caught.value.message and caught.value.span.line == 3, caught.value.message


def test_a_card_and_a_damaged_log_are_told_in_the_games_words(tmp_path: Path) -> None:
    """A failing derived attribute showed the card as a Python dict ({'suit': 'a', ...});
    replay of a damaged log showed the JSON reader's 'Expecting value: line 1 column 1
    (char 0)'."""
    from click.testing import CliRunner

    from rulesplay.cli import main

    text = ('game "T"\nplayers 2\nenum suit: a, b\ncard c "c":\n    suit: suit\n'
            '    rank: 1..5\n    value = 10 / (rank - 3)\nzone deck "deck": shared, hidden\n'
            'phase p "P":\n    next end\nscore: 0\n')
    with pytest.raises(RulesError) as caught:
        rulesplay.loads(text, file="t.rules").new_state(2)
    assert "attribute 'value' of card a-3: division by zero" in caught.value.message
    assert "{" not in caught.value.message and caught.value.span.line == 7
    for content, says in (("xx\n", "line 1 of the log is not an event (a value was expected "
                                   "at column 1)"),
                          ('{"type": "header",}\n', "(a quoted name was expected at column "
                                                    "19)")):
        (tmp_path / "g.log").write_text(content, encoding="utf-8")
        result = CliRunner().invoke(main, ["replay", str(tmp_path / "g.log")])
        assert result.exit_code != 0 and says in result.output, result.output
        assert "char" not in result.output and "Expecting" not in result.output


def test_an_option_that_does_nothing_here_says_so() -> None:
    """--plot "", --save F and --ask-forced without a person at the table were ignored
    without a word."""
    from click.testing import CliRunner

    from rulesplay.cli import main

    game = str(ROOT / "rulesets/card_hunt.rules")
    result = CliRunner().invoke(main, ["simulate", game, "-n", "1", "--plot", ""])
    assert result.exit_code == 2 and "--plot: give the file to write the plot to" in result.output
    for extra in (["--save", "x.save.json"], ["--ask-forced"]):
        result = CliRunner().invoke(main, ["run", game, "--seed", "1", "-q", *extra])
        assert result.exit_code == 0, result.output
        assert f"warning: {extra[0]} is for a game with a person at the table" in \
            result.output and "so it is ignored" in result.output


def test_a_table_in_a_text_is_written_as_the_language_writes_one(tmp_path: Path) -> None:
    """'say "{m}"' of a table printed Python's repr ({'hearts': 1}; session-6 review)."""
    from click.testing import CliRunner

    from rulesplay.cli import main

    (tmp_path / "t.rules").write_text(
        'game "T"\nplayers 2\nenum suit: clubs, hearts "H"\ncard c "c":\n    rank: 1..5\n'
        'zone deck "deck": shared, hidden\nphase p "P":\n    let m = {clubs: 1, hearts: yes}\n'
        '    say "table {m}"\n    next end\nscore: 0\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(tmp_path / "t.rules"), "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "table {clubs: 1, H: yes}" in result.output


@pytest.mark.parametrize("decl,what", [
    ('phase players "P":\n    next end\n', "a phase"),
    ('phase seats "P":\n    next end\n', "a phase"),
    ('rule end "R":\n    say "x"\n', "a rule"),
    ('rule true "R":\n    say "x"\n', "a rule"),
])
def test_phases_and_rules_check_the_one_list_of_reserved_words(decl: str, what: str) -> None:
    """Phases and rules are refused the reserved words that options, zones and variables
    are (one list), at the name; a phase named 'end' has its own advice (test_diagnostics)."""
    text = BASE + "\n" + decl
    out = _error(text)
    name = decl.split()[1]
    assert f"'{name}' is a reserved word and cannot name {what}" in out
    line = _line_of(text, decl.split("\n")[0])
    assert f"f.rules:{line}:{len(decl.split()[0]) + 2}: error" in out


def _playout(text: str, engine: str) -> list[int]:
    state = rulesplay.loads(text, file="f.rules", engine=engine).new_state(2, seed=3)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return [int(v) for v in state.scores()]


@pytest.mark.parametrize("score,terms", [
    ("tricks[player]" + " + 1" * 149, 150),
    ("tricks[player]" + " - 1 + 2" * 70 + " * 1 * 1", 141),
    ("1 if tricks[player] >= 0" + " and tricks[player] < 99" * 149 + " else 0", 150),
])
def test_a_flat_chain_of_terms_is_one_level_not_a_nesting(score: str, terms: int) -> None:
    """A sum of 150 terms was "nested too deeply (more than 100 levels)": a chain of terms
    joined by operators of one kind is one level; both engines play it alike."""
    text = BASE.replace("score: tricks[player]", "score: " + score)
    assert text.count("score: ") == 1 and score.count(" ") >= terms
    assert _playout(text, "compiled") == _playout(text, "interpret")


@pytest.mark.parametrize("score,terms,joined", [
    ("tricks[player]" + " + 1" * 5000, "5,001", "'+' and '-'"),
    ("1 if tricks[player] >= 0" + " and yes" * 300 + " else 0", "301", "'and'"),
    ("1 if tricks[player] >= 0" + " or no" * 400 + " else 0", "401", "'or'"),
])
def test_a_chain_too_long_to_evaluate_says_it_has_too_many_terms(
        score: str, terms: str, joined: str) -> None:
    """The real limit that remains (the chain becomes operations one inside another) says
    what was too many, terms, at the chain's start; 300 'and's were a RecursionError."""
    text = BASE.replace("score: tricks[player]", "score: " + score)
    out = _error(text)
    line = _line_of(text, "score: ")
    col = 8 if score.startswith("tricks") else 13  # (after 'score: 1 if ')
    assert out.startswith(f"f.rules:{line}:{col}: error: this has too many terms: {terms} "
                          f"joined by {joined}, inside "), out
    assert "nested too deeply" not in out


def test_a_file_of_only_comments_says_so_not_that_it_is_empty(tmp_path: Path) -> None:
    """The golden 'empty' case is comments only (it said 'the file is empty'); a file
    with nothing in it still is empty."""
    (tmp_path / "blank.rules").write_text("\n  \n", encoding="utf-8")
    (tmp_path / "notes.part").write_text("# to do\n", encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_ruleset(str(tmp_path / "blank.rules"))
    assert info.value.message.startswith("the file is empty; a ruleset starts")
    with pytest.raises(RulesError) as info:
        load_ruleset(str(tmp_path / "notes.part"))
    assert info.value.message.startswith("the file holds only comments, no declarations; ")


def test_a_name_declared_again_by_an_include_names_the_file_of_the_first(
        tmp_path: Path) -> None:
    """'already declared (line 6)' named a line of another file without naming it."""
    (tmp_path / "cards.part").write_text(
        "\n\n\n\n\noption hand_size: int in 1..10 = 3\n", encoding="utf-8")
    text = BASE.replace("players 2..4\n", 'players 2..4\ninclude "cards.part"\n', 1)
    (tmp_path / "g.rules").write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_ruleset(str(tmp_path / "g.rules"))
    messages = [d.message for d in info.value.diagnostics]
    part = str(tmp_path / "cards.part")
    assert any(m.startswith(f"'hand_size' is already declared (at {part}:6:8)")
               for m in messages), messages
    same = BASE.replace("zone table ", "zone won ", 1)
    with pytest.raises(RulesError) as info:
        rulesplay.loads(same, file="f.rules")
    assert info.value.diagnostics[0].message == \
        f"'won' is already declared (line {_line_of(same, 'zone won ')})"


@pytest.mark.parametrize("target,hint", [
    ("./nothere.rules", ""),          # 'huge.rules', 'nogame.rules' only share '.rules'
    ("./nogam.rules", " (did you mean 'nogame.rules'?)"),
    ("./HUGE.rules", " (did you mean 'huge.rules'?)"),
])
def test_a_missing_file_suggests_only_a_close_name(tmp_path: Path, target: str,
                                                   hint: str) -> None:
    for name in ("huge.rules", "nogame.rules", "v.rules"):
        (tmp_path / name).write_text(BASE, encoding="utf-8")
    (tmp_path / "v.rules").write_text(f'extends "{target}"\ngame "V"\n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_ruleset(str(tmp_path / "v.rules"))
    message = info.value.diagnostics[0].message if info.value.diagnostics else \
        info.value.message
    assert message.startswith(f"'extends': no such file '{target}' in "), message
    assert message.endswith(hint) if hint else "did you mean" not in message, message
