"""Every player count a ruleset allows can be dealt and started, or 'validate' says which
cannot (issue 14 item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesplay import loads
from rulesplay.cli import main
from rulesplay.engine.player_counts import check_player_counts

SHIPPED = [*sorted(Path("rulesets").glob("*.rules")),
           *sorted(Path("rulesets/variants").glob("*.rules"))]


def ruleset(opening: str, players: str = "4..10", cards: int = 40) -> str:
    body = "\n".join("    " + line for line in opening.strip().split("\n"))
    return f"""game "Deals"
players {players}
var hand_size: int = 5
card card:
    rank: 1..{cards}
zone deck: shared, hidden
zone aside: shared, hidden
zone hand: per player, owner
phase deal:
{body}
    for each player p:
        p chooses c from hand[p]
        move c to deck
    end game
score: count(hand[player])
"""


def test_a_deal_too_big_for_some_counts_is_an_error_naming_them_and_those_that_fit() -> None:
    text = ruleset("deal 5 from deck to hand")
    [diag] = check_player_counts(loads(text, file="d.rules"))
    assert diag.severity == "error" and diag.span.line == 10
    assert "with 9 or 10 players" in diag.message and "40 cards" in diag.message
    assert "it can be made with 4 to 8 players only" in diag.message
    assert "deal 5 from deck to hand" in diag.render()  # the line and its caret


def test_a_deal_of_a_count_that_grows_with_the_players_names_the_counts_it_fits() -> None:
    """'deal players - 2' (6 each at 8 players) said 'enough for at most 6 players' (40 //
    6), though 7 players take 5 each: 35 cards."""
    [diag] = check_player_counts(loads(ruleset("deal players - 2 from deck to hand",
                                              "4..10")))
    assert "with 8 to 10 players this deal cannot be made" in diag.message
    assert "it can be made with 4 to 7 players only" in diag.message, diag.message


def test_a_deal_that_fits_every_count_or_deals_up_to_is_fine() -> None:
    assert check_player_counts(loads(ruleset("deal 5 from deck to hand", "2..8"))) == []
    assert check_player_counts(loads(ruleset("deal up to 7 from deck to hand"))) == []


def test_a_deal_from_a_zone_emptied_first_fails_when_the_game_starts() -> None:
    # 40 cards in all, but 30 go aside before the deal: only 2 players can get 5 each
    text = ruleset("repeat 30 times:\n    move top(deck) to aside\ndeal 5 from deck to hand",
                   players="2..4")
    [diag] = check_player_counts(loads(text, file="d.rules"))
    assert diag.severity == "error"
    assert "with 3 or 4 players the game cannot start" in diag.message
    assert diag.span.line == 12


def test_a_start_that_never_ends_is_tried_at_every_count_or_once_when_asked() -> None:
    """A loop without a decision runs to the steps limit at each count it is started at: a
    server checking pasted text (``stop_at_limit``) starts one count and names the rest as
    not tried; ``validate`` tries them all. Other faults are looked for at every count."""
    text = "limit steps 2000\n" + ruleset("repeat while true:\n    move top(deck) to aside\n"
                                          "    move top(aside) to deck", "2..6")
    game = loads(text, file="d.rules")
    [every] = check_player_counts(game)
    assert "with 2 to 6 players the game cannot start (with 2: " in every.message
    assert "step limit reached" in every.message and "not tried" not in every.message
    starts = []
    start = game.new_state
    game.new_state = lambda n, **kw: starts.append(n) or start(n, **kw)  # type: ignore
    [once] = check_player_counts(game, stop_at_limit=True)
    assert once.message.startswith("with 2 players the game cannot start: ")
    assert once.message.endswith("; not tried with 3 to 6 players") and starts == [2]
    assert once.span == every.span and once.span.line == 11  # (the loop)
    emptied = ruleset("repeat 30 times:\n    move top(deck) to aside\ndeal 5 from deck to hand",
                      players="2..4")
    [diag] = check_player_counts(loads(emptied), stop_at_limit=True)
    assert "with 3 or 4 players the game cannot start" in diag.message


def test_a_deal_of_a_number_known_only_during_play_is_warned_about() -> None:
    text = ruleset("hand_size = count(deck) / 8\ndeal hand_size from deck to hand", "2..4")
    [diag] = check_player_counts(loads(text))
    assert diag.severity == "warning" and "known only during play" in diag.message


def test_validate_exits_1_on_an_undealable_count_0_on_warnings(tmp_path: Path) -> None:
    bad = tmp_path / "bad.rules"
    bad.write_text(ruleset("deal 5 from deck to hand"), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(bad)])
    assert result.exit_code == 1 and "with 9 or 10 players" in result.output
    warned = tmp_path / "warned.rules"
    warned.write_text(ruleset("hand_size = 2\ndeal hand_size from deck to hand", "2..4"),
                      encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(warned)])
    assert result.exit_code == 0 and "warning:" in result.output
    assert "ok (1 warning)" in result.output


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_ruleset_deals_and_starts_at_every_count(path: Path) -> None:
    from rulesplay import load

    assert check_player_counts(load(path)) == []


def test_validate_shows_the_first_prompt_and_the_texts_said_before_it() -> None:
    # (a prompt failing at the first decision passed 'validate' and failed in 'run')
    text = ('game "T"\nplayers 2\ncard c "c":\n    rank: 1..13\nzone deck "deck": shared, hidden\n'
            'zone hand "hand": per player, owner\nzone pile "pile": shared, public\n'
            'phase p "P":\n    deal 2 from deck to hand starting with 0\n'
            '    for each player q:\n        q chooses x from hand[q] "play {top(pile).rank + 1}"\n'
            '        move x to pile\n    next end\nscore: 0\n')
    [d] = check_player_counts(loads(text, file="t.rules"))
    assert "the game cannot start" in d.message and (d.span.line, d.span.col) == (11, 41)
