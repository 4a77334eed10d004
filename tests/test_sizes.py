"""Sizes a ruleset may have: a file's length and the cards of a game (issue 14 item 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesplay import load, loads
from rulesplay.errors import RulesError
from rulesplay.parse import MAX_SOURCE_CHARS
from rulesplay.validate import MAX_CARDS


def _game(kinds: str) -> str:
    return (f'game "Big"\nplayers 2..3\n{kinds}\nzone deck: shared, hidden\n'
            "phase p:\n    end game\nscore: 0\n")


def test_many_kinds_within_the_per_kind_limit_still_meet_the_games_card_limit() -> None:
    # 300 kinds of 10,000 cards each took minutes and gigabytes to load
    kinds = "\n".join(f"card k{i}:\n    rank: 1..{MAX_CARDS}" for i in range(300))
    with pytest.raises(RulesError) as caught:
        loads(_game(kinds), file="big.rules")
    [diag] = caught.value.diagnostics
    assert diag.span.line == 5 and f"at most {MAX_CARDS} cards" in diag.message
    assert "'k1' make 20000 cards" in diag.message


def test_copies_that_grow_with_players_are_counted_per_player_count() -> None:
    kinds = f"card a:\n    rank: 1..{MAX_CARDS // 2 + 1}\n    copies: players - 1"
    with pytest.raises(RulesError) as caught:
        loads(_game(kinds))
    assert "with 3 players" in caught.value.diagnostics[0].message
    loads(_game(f"card a:\n    rank: 1..{MAX_CARDS // 4}\n    copies: players - 1"))


def test_text_longer_than_a_ruleset_may_be_is_refused_before_parsing() -> None:
    with pytest.raises(RulesError) as caught:
        loads("#" * (MAX_SOURCE_CHARS + 1), file="long.rules")
    assert str(caught.value).startswith("long.rules:1:1: error: the file is too large")


def test_an_included_file_is_read_no_further_than_the_limit(tmp_path: Path) -> None:
    (tmp_path / "huge.part").write_bytes(b"#" * (MAX_SOURCE_CHARS + 10))
    top = tmp_path / "top.rules"
    top.write_text('game "H"\nplayers 2..2\ninclude "huge.part"\n', encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load(top)
    assert "huge.part:1:1: error: the file 'huge.part' is too large for a ruleset file" in \
        str(caught.value)


def test_the_files_of_a_ruleset_together_are_no_larger_than_one_may_be(
        tmp_path: Path) -> None:
    half = MAX_SOURCE_CHARS // 2 + 10
    for name in ("a", "b"):
        (tmp_path / f"{name}.part").write_text(f"enum e{name}: x{name}\n#" + "#" * half,
                                               encoding="utf-8")
    top = tmp_path / "top.rules"
    top.write_text('game "H"\nplayers 2..2\ninclude "a.part"\ninclude "b.part"\n',
                   encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load(top)
    assert "together they may hold at most" in caught.value.message
    assert caught.value.span.line == 4  # the include that went past the limit


def test_a_long_line_is_shown_as_a_window_around_the_caret() -> None:
    with pytest.raises(RulesError) as caught:
        loads('game "H" ' + "x" * 5000 + "\n", file="long.rules")
    shown = caught.value.render().split("\n")
    assert len(shown[1]) < 200 and shown[2].strip() == "^"
