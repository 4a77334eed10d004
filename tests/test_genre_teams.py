"""Teams and partners (issue 11, item 1): ``teams:``, ``team var``, ``team of``, ``partner
of`` and ``members``; scores and winners per team; ``simulate`` and ``compare`` counting a
team's win as one win; observations, the screen, the account and the bots knowing who plays
with whom. The game is ``tests/teams/partners.rules``: two against two, partners opposite,
three tricks, each side scoring its tricks and one more for a sweep."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console
from test_differential import play_both
from test_printer import plain

import rulesplay
from rulesplay.agents import make_agent
from rulesplay.agents.base import margin, win_shares
from rulesplay.cardbook import CardBook
from rulesplay.cli import main
from rulesplay.diff import diff
from rulesplay.engine.game import load
from rulesplay.errors import RulesError, RulesRuntimeError
from rulesplay.narrate import score_table, winner_line
from rulesplay.parse import parse_text
from rulesplay.screens import render_screen
from rulesplay.seatview import SeatView
from rulesplay.show import ruleset_text
from rulesplay.sim import compare, outcome, simulate

HERE = Path(__file__).parent / "teams"
PARTNERS = HERE / "partners.rules"
DOUBLED = HERE / "partners_doubled.rules"


def _partners(seed: int = 5, **kw: object) -> rulesplay.State:
    return rulesplay.load(PARTNERS).new_state(num_players=4, seed=seed, **kw)  # type: ignore[arg-type]


def _legal(s: rulesplay.State) -> list[str]:
    return sorted(a.id for a in s.legal_actions())


# ------------------------------------------------------------ the scenario of seed 5
# Hands: seat 0 spades-2 clubs-1 hearts-4; seat 1 hearts-1 hearts-3 spades-4;
#        seat 2 hearts-2 clubs-4 clubs-3;  seat 3 spades-1 clubs-2 spades-3.
def test_a_sweep_by_partners_scores_for_both_and_they_win_as_one_team() -> None:
    s = _partners()
    assert [s.zone_cards("hand", p) for p in range(4)] == [
        ["spades-2", "clubs-1", "hearts-4"], ["hearts-1", "hearts-3", "spades-4"],
        ["hearts-2", "clubs-4", "clubs-3"], ["spades-1", "clubs-2", "spades-3"]]
    s.apply("play:hearts-4")
    assert _legal(s) == ["play:hearts-1", "play:hearts-3"]  # follow the lead
    s.apply("play:hearts-3")
    s.apply("play:hearts-2")
    s.apply("play:spades-3")
    # seat 0 took the trick: the team's variable, read the same from either seat
    assert s.observation(1)["team_vars"] == {"tricks": [1, 0]}
    assert s.scores() == [1, 0, 1, 0]
    s.apply("play:clubs-1")
    assert _legal(s) == ["play:hearts-1", "play:spades-4"]  # no club: anything
    s.apply("play:spades-4")
    s.apply("play:clubs-4")
    assert _legal(s) == ["play:clubs-2"]
    s.apply("play:clubs-2")
    assert s.current_player() == 2  # the partner took the second trick and leads
    for card in ("clubs-3", "spades-1", "spades-2", "hearts-1"):
        s.apply(f"play:{card}")
    assert s.is_terminal()
    assert s.scores() == [4, 0, 4, 0]  # three tricks and the sweep's one
    assert s.winners() == [0, 2]
    assert s.team_keys() == {0: (4,), 1: (0,)}
    assert winner_line(s) == "Team North-South wins (Seat 0, Seat 2)"


def test_the_state_says_who_plays_with_whom() -> None:
    s = _partners()
    assert s.teams() == [[0, 2], [1, 3]]
    assert s.team_names() == ["North-South", "East-West"]
    assert [s.team_of(p) for p in range(4)] == [0, 1, 0, 1]
    with pytest.raises(RulesError, match="seats are 0 to 3"):
        s.team_of(4)


def test_observations_say_who_is_whose_partner() -> None:
    s = _partners()
    o = s.observation(3)
    assert o["teams"] == [{"team": 0, "name": "North-South", "seats": [0, 2]},
                          {"team": 1, "name": "East-West", "seats": [1, 3]}]
    assert (o["team"], o["partner"]) == (1, 1)
    assert (s.observation(0)["team"], s.observation(0)["partner"]) == (0, 2)
    onlooker = s.observation(None)
    assert (onlooker["team"], onlooker["partner"]) == (None, None)
    assert "tricks" not in o["player_vars"]  # one value per team, not per seat


def test_the_screen_marks_the_partner_and_the_final_table_the_teams() -> None:
    s = _partners(record_events=True)
    console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False)
    for item in render_screen(s, 0, [], CardBook(s.program)):
        console.print(item)
    screen = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Seat 0 (you)" in screen and "Seat 2 (partner)" in screen
    assert "Seat 1 (partner)" not in screen and "Seat 3 (partner)" not in screen
    rng = random.Random(1)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    console = Console(file=io.StringIO(), width=100, color_system=None, highlight=False)
    console.print(score_table(s))
    table = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Team" in table and table.count("North-South") == 2 and table.count("East-West") == 2


# ------------------------------------------------------------ scores per team
UNEQUAL = PARTNERS.read_text(encoding="utf-8").replace(
    "team var tricks", "player var own: int = 0\nteam var tricks").replace(
    "tricks[team of winner] += 1", "tricks[team of winner] += 1\n                own[winner] += 1"
).replace("score: tricks[team of player]", "score: own[player]")


def test_teammates_who_score_differently_are_a_located_error() -> None:
    s = rulesplay.loads(UNEQUAL).new_state(num_players=4, seed=5)
    rng = random.Random(2)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    if s.scores()[0] == s.scores()[2] and s.scores()[1] == s.scores()[3]:
        pytest.skip("this deal gave partners equal tricks")  # (seed 5 does not)
    with pytest.raises(RulesRuntimeError, match="with teams the score is the team's") as info:
        s.winners()
    assert info.value.span.line == UNEQUAL.splitlines().index("score: own[player]") + 1


def test_members_and_partner_of_read_the_teams() -> None:
    text = PARTNERS.read_text(encoding="utf-8").replace(
        "score: tricks[team of player]",
        "score: tricks[team of player] + 10 * sum(members(team of player), it)"
        " + 100 * partner of player")
    s = rulesplay.loads(text).new_state(num_players=4, seed=5)
    # seat 0: seats 0+2, partner 2; seat 1: seats 1+3, partner 3
    assert s.scores() == [20 + 200, 40 + 300, 20 + 0, 40 + 100]


# ------------------------------------------------------------ simulate and compare
def test_simulate_counts_a_team_win_as_one_win() -> None:
    r = simulate(str(PARTNERS), 40, players=4, workers=1, seed=3)
    assert r.teamed and r.team_names == ["North-South", "East-West"]
    assert r.team_wins(0) + r.team_wins(1) == pytest.approx(40)  # three tricks: no tie
    assert r.ties() == 0 and r.shared() == 0
    for g in r.games:
        assert g.winners in ([0, 2], [1, 3]) and g.outcome == "alone"
    assert r.wins(0) == r.wins(2) == r.team_wins(0)  # each seat wins when its team does
    s = r.summary()
    assert [t["name"] for t in s["teams"]] == ["North-South", "East-West"]
    assert sum(t["win_rate"] for t in s["teams"]) == pytest.approx(1.0)
    assert s["first_player"]["fair"] == 0.5


def test_the_command_line_reports_teams_in_text_and_json() -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["simulate", str(PARTNERS), "-n", "12", "--players", "4",
                               "--workers", "1"])
    assert out.exit_code == 0, out.output
    assert "Teams" in out.output and "North-South" in out.output and "0, 2" in out.output
    out = runner.invoke(main, ["simulate", str(PARTNERS), "-n", "12", "--players", "4",
                               "--workers", "1", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert [t["seats"] for t in data["teams"]] == [[0, 2], [1, 3]]


def test_compare_measures_each_team_once() -> None:
    c = compare(str(PARTNERS), str(DOUBLED), 30, players=4, workers=1)
    keys = [line.key for line in c.lines]
    assert "team:0" in keys and "team:1" in keys
    assert not any(k.startswith("win:") for k in keys)  # no seat lines that repeat a team's
    team = next(line for line in c.lines if line.key == "team:0")
    assert team.base == team.variant  # doubling every score changes no winner
    assert "teams: " not in "\n".join(diff(rulesplay.load(PARTNERS).ruleset,
                                           rulesplay.load(DOUBLED).ruleset))


# ------------------------------------------------------------ bots play for their team
GIFT = """
game "Gift"
players 4
card chip "chip":
    n: 1..1
zone pool "pool": shared, public
team var points "points": int = 0
teams: player % 2
phase give "Give":
    points[team of 0] += LEAD
    0 chooses q from seats where q != 0 "give two points to the team of"
    points[team of q] += 2
    next end
score: points[team of player]
"""


@pytest.mark.parametrize(("spec", "lead"), [("greedy:samples=1", 3),
                                           ("mcts:iterations=30", 1)])
def test_a_bot_gives_to_its_partner_not_to_a_rival(spec: str, lead: int) -> None:
    # Seat 0 gives two points to the partner's team (seat 2) or a rival's (1 or 3). Leading
    # 3-0 (greedy): 5-0 or 3-2, and a bot that counted its partner among its rivals saw
    # both as "no lead over the best other seat" and chose at random. Leading 1-0 (mcts):
    # the team wins 3-0 or loses 1-2.
    game = rulesplay.loads(GIFT.replace("LEAD", str(lead)))
    for seed in range(12):
        s = game.new_state(num_players=4, seed=seed)
        action = make_agent(spec, 0, seed).step(s)
        assert action.id == "q:2", (seed, action.id)


def test_the_bots_rewards_give_a_team_win_to_each_of_its_seats() -> None:
    s = rulesplay.loads(GIFT.replace("LEAD", "3")).new_state(num_players=4, seed=1)
    s.apply("q:2")
    assert win_shares(s) == [1.0, 0.0, 1.0, 0.0]
    assert margin(s, 2) == 5.0 and margin(s, 1) == -5.0


# ------------------------------------------------------------ the language's other tools
def test_partners_print_back_to_the_same_ir() -> None:
    ruleset = parse_text(PARTNERS.read_text(encoding="utf-8"), "partners.rules")
    assert plain(parse_text(ruleset_text(ruleset), "printed.rules")) == plain(ruleset)


def test_both_engines_play_the_same_partnership_games() -> None:
    reference, compiled = load(PARTNERS, engine="interpret"), load(PARTNERS, engine="compiled")
    for seed in (1, 2, 3):
        assert play_both(reference, compiled, 4, seed) == 12


def test_a_save_keeps_the_team_variables() -> None:
    s = _partners()
    for card in ("hearts-4", "hearts-3", "hearts-2", "spades-3", "clubs-1"):
        s.apply(f"play:{card}")
    again = rulesplay.State.from_json(s.to_json(), s.program.game)
    assert again.observation(0)["team_vars"] == {"tricks": [1, 0]}
    assert again.scores() == s.scores() == [1, 0, 1, 0]


def test_diff_names_a_change_of_teams() -> None:
    base = rulesplay.load(PARTNERS).ruleset
    other = parse_text(PARTNERS.read_text(encoding="utf-8").replace(
        'teams: "North-South" if player % 2 == 0 else "East-West"', "teams: player / 2"),
        "x.rules")
    assert diff(base, other) == [
        'teams: "North-South" if player % 2 == 0 else "East-West" -> player / 2']


def test_a_team_of_one_is_warned_about() -> None:
    text = PARTNERS.read_text(encoding="utf-8").replace("players 4", "players 3..4").replace(
        'teams: "North-South" if player % 2 == 0 else "East-West"', "teams: player % 2")
    game = rulesplay.loads(text)
    warnings = [d.message for d in game.checked.warnings]
    assert any("with 3 players seat 1 is a team of one" in w for w in warnings), warnings
    s = game.new_state(num_players=3, seed=1)
    assert s.teams() == [[0, 2], [1]] and s.team_names() == ["Seat 0 & Seat 2", "Seat 1"]


def test_run_names_the_teams_before_the_first_play() -> None:
    out = CliRunner().invoke(main, ["run", str(PARTNERS), "--seed", "5"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[1] == "Teams: North-South (Seat 0, Seat 2); East-West (Seat 1, Seat 3)"
    assert lines[-1] == "Team North-South wins (Seat 0, Seat 2)" or \
        lines[-1] == "Team East-West wins (Seat 1, Seat 3)"


PAIRED = """
game "Paired"
players 4
option paired: bool = true "Play in pairs."
card c "c":
    rank: 1..4
zone deck "deck": shared, hidden
var leader: player = 0
teams: player % 2 if paired else player
phase p:
    leader = partner of leader
    next end
score: 0
"""


def test_options_that_leave_a_seat_without_a_partner_are_refused_at_the_partner() -> None:
    game = rulesplay.loads(PAIRED)  # the default pairs the seats
    assert game.new_state(num_players=4, seed=1).is_terminal()
    with pytest.raises(RulesError, match="'partner of' needs teams of two seats") as info:
        rulesplay.loads(PAIRED, options={"paired": False}).new_state(num_players=4, seed=1)
    assert (info.value.span.line, info.value.span.col) == (11, 14)


def test_a_team_in_a_text_is_shown_by_its_name() -> None:
    text = PARTNERS.read_text(encoding="utf-8").replace(
        "                tricks[team of winner] += 1\n",
        "                tricks[team of winner] += 1\n"
        '                say "{team of winner} takes it"\n')
    s = rulesplay.loads(text).new_state(num_players=4, seed=5, record_events=True)
    for card in ("hearts-4", "hearts-3", "hearts-2", "spades-3"):
        s.apply(f"play:{card}")
    said = [e for e in s.events or [] if "North-South takes it" in json.dumps(e, default=str)]
    assert said, s.events


ENUM_TEAMS = """
game "Sides"
players 4
enum side "side" @ja "陣営": north_south "North-South" @ja "南北", east_west "East-West" @ja "東西"
card c "c":
    rank: 1..4
zone deck "deck": shared, hidden
team var points: int = 0
teams: north_south if player % 2 == 0 else east_west
phase p:
    points[team of 1] += 1
    next end
score: points[team of player]
"""


def test_teams_named_by_an_enum_show_its_labels_in_the_games_language() -> None:
    assert rulesplay.loads(ENUM_TEAMS).new_state(4, 1).team_names() == ["North-South",
                                                                          "East-West"]
    s = rulesplay.loads(ENUM_TEAMS, lang="ja").new_state(4, 1)
    assert s.team_names() == ["南北", "東西"]
    assert s.winners() == [1, 3] and winner_line(s) == "チーム 東西 の勝ち (席1, 席3)"


def test_the_plot_of_a_team_game_is_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "teams.png"
    run = CliRunner().invoke(main, ["simulate", str(PARTNERS), "-n", "10", "--workers", "1",
                                    "--plot", str(out)])
    assert run.exit_code == 0, run.output
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_the_ir_json_holds_the_teams_and_reads_back_equal() -> None:
    from rulesplay import ir
    ruleset = parse_text(PARTNERS.read_text(encoding="utf-8"), "partners.rules")
    text = ruleset.model_dump_json()
    assert '"teams":' in text
    assert ir.Ruleset.model_validate_json(text) == ruleset
    no_teams = parse_text(GIFT.replace("teams: player % 2\n", "").replace(
        "team var points", "player var points").replace("[team of 0]", "[0]").replace(
        "[team of q]", "[q]").replace("[team of player]", "[player]"), "gift.rules")
    assert '"teams"' not in no_teams.model_dump_json()  # as before teams existed


def test_a_variant_may_change_the_teams(tmp_path: Path) -> None:
    (tmp_path / "partners.rules").write_text(PARTNERS.read_text(encoding="utf-8"),
                                             encoding="utf-8")
    (tmp_path / "neighbours.rules").write_text(
        'extends "partners.rules"\ngame "Neighbours"\nteams: player / 2\n', encoding="utf-8")
    s = rulesplay.load(tmp_path / "neighbours.rules").new_state(num_players=4, seed=5)
    assert s.teams() == [[0, 1], [2, 3]] and s.team_names() == ["Seat 0 & Seat 1",
                                                                 "Seat 2 & Seat 3"]
    assert s.observation(0)["partner"] == 1


# ------------------------------------------------------------ a tiny Spades
SPADES = HERE / "tiny_spades.rules"


def test_tiny_spades_scores_each_side_by_its_two_bids_together() -> None:
    # Seed 1: seat 0 clubs-3 spades-3 spades-1; seat 1 spades-2 clubs-4 clubs-1;
    #         seat 2 clubs-2 hearts-3 spades-4; seat 3 hearts-1 hearts-2 hearts-4.
    s = rulesplay.load(SPADES).new_state(num_players=4, seed=1)
    assert [s.zone_cards("hand", p) for p in range(4)] == [
        ["clubs-3", "spades-3", "spades-1"], ["spades-2", "clubs-4", "clubs-1"],
        ["clubs-2", "hearts-3", "spades-4"], ["hearts-1", "hearts-2", "hearts-4"]]
    for n in ("n:1", "n:1", "n:1", "n:0"):  # North-South bid 2 together, East-West 1
        s.apply(n)
    assert _legal(s) == ["play:clubs-3"]  # spades are not led before they are broken
    for card in ("clubs-3", "clubs-4", "clubs-2", "hearts-1"):
        s.apply(f"play:{card}")
    assert _legal(s) == ["play:clubs-1"]  # seat 1 took it, and still may not lead a spade
    for card in ("clubs-1", "spades-4", "hearts-2", "spades-1"):
        s.apply(f"play:{card}")
    assert s.current_player() == 2  # the partner trumped
    for card in ("hearts-3", "hearts-4", "spades-3", "spades-2"):
        s.apply(f"play:{card}")
    assert s.is_terminal()
    # North-South took 2 (seats 0 and 2, one each) of 2 bid: 10 a trick bid; East-West 1 of 1
    assert s.scores() == [20, 10, 20, 10]
    assert s.winners() == [0, 2]


def test_a_side_of_greedy_bots_beats_a_side_of_random_ones() -> None:
    r = simulate(str(SPADES), 100, players=4, workers=1, bots={0: "greedy", 2: "greedy"},
                 seed=1)
    rate = r.summary()["teams"][0]
    assert rate["name"] == "North-South" and rate["win_low"] > 0.5, rate


def test_a_hidden_team_variable_is_seen_by_no_seat() -> None:
    text = PARTNERS.read_text(encoding="utf-8").replace(
        'team var tricks "tricks": int = 0',
        'team var tricks "tricks": int = 0\nteam var secret: int = 0 hidden').replace(
        "                tricks[team of winner] += 1\n",
        "                tricks[team of winner] += 1\n"
        "                secret[team of winner] += 1\n"
        '                say "{secret[team of winner]}!"\n')
    s = rulesplay.loads(text).new_state(num_players=4, seed=5, record_events=True)
    for card in ("hearts-4", "hearts-3", "hearts-2", "spades-3"):
        s.apply(f"play:{card}")
    assert s.observation(0)["team_vars"]["secret"] == ["?", "?"]
    assert s.observation(0)["team_vars"]["tricks"] == [1, 0]
    for seat in range(4):
        told = [e for e in SeatView(s.program, seat).filter(s.events or [])
                if e.get("type") == "say"]
        assert told and all("1!" not in json.dumps(e) for e in told), told


EACH_TEAM = """
game "Each team"
players 4
card c "c":
    rank: 1..4
zone deck "deck": shared, hidden
team var points "points": int = 0
player var bid: int = 1
teams: "NS" if player % 2 == 0 else "EW"
phase p:
    bid[3] = 2
    for each t in teams:
        points[t] += sum(members(t), bid[it])
    next end
score: points[team of player] * 10 + count(teams)
"""


@pytest.mark.parametrize("engine", ["interpret", "compiled"])
def test_for_each_team_goes_over_the_teams(engine: str) -> None:
    s = rulesplay.loads(EACH_TEAM, engine=engine).new_state(num_players=4, seed=1)
    assert s.observation(0)["team_vars"] == {"points": [2, 3]}
    assert s.scores() == [22, 32, 22, 32] and s.winners() == [1, 3]


def test_a_tie_of_teams_names_the_teams() -> None:
    s = rulesplay.loads(EACH_TEAM.replace("bid[3] = 2", "bid[3] = 1")).new_state(4, 1)
    assert s.winners() == [0, 1, 2, 3]
    assert winner_line(s) == "Tied winners: NS (Seat 0, Seat 2), EW (Seat 1, Seat 3)"
    assert outcome(s.winners(), s.rank_keys(), s.program.layout.team_of) == "tie"


def test_a_declared_name_teams_is_not_the_teams() -> None:
    text = EACH_TEAM.replace("player var bid: int = 1",
                             "player var bid: int = 1\nvar teams: int = 5").replace(
        "count(teams)", "teams").replace(
        "    for each t in teams:\n        points[t] += sum(members(t), bid[it])\n", "")
    assert rulesplay.loads(text).new_state(4, 1).scores() == [5, 5, 5, 5]


def test_a_choice_of_a_team_is_labelled_by_its_name() -> None:
    text = EACH_TEAM.replace("    bid[3] = 2\n",
                             '    0 chooses side from teams where side != team of 0 "help"\n'
                             "    points[side] += 4\n")
    s = rulesplay.loads(text).new_state(num_players=4, seed=1)
    assert [(a.id, a.label) for a in s.legal_actions()] == [("side:1", "EW")]
    s.apply("side:1")
    assert s.observation(0)["team_vars"] == {"points": [2, 6]}


SEEN_BY_PARTNER = """
game "Open partnership"
players 4
card card "card":
    rank: 1..8
zone deck "deck": shared, hidden
zone hand "hand": per player, owner, seen by partner of player
teams: player % 2

phase play "Play":
    shuffle deck
    deal 2 from deck to hand
    0 chooses c from hand[2] "take a card from your partner"
    move c to hand[0]
    next end

score: count(hand[player])
"""


def test_a_hand_seen_by_the_partner_is_hidden_from_the_rivals() -> None:
    s = rulesplay.loads(SEEN_BY_PARTNER).new_state(num_players=4, seed=1)

    def seen(seat: int) -> list[int]:
        return [z["owner"] for z in s.observation(seat)["zones"]
                if z["zone"] == "hand" and z["cards"] is not None]

    assert [seen(p) for p in range(4)] == [[0, 2], [1, 3], [0, 2], [1, 3]]
    # seat 0 sees its partner's cards, so it takes one by name, not blind by position
    assert {a.id for a in s.legal_actions()} == {f"c:{c}" for c in s.zone_cards("hand", 2)}


def test_a_define_reads_every_team_as_any_expression_does() -> None:
    """``teams`` is a declared name in a define when the ruleset has a ``teams:`` line
    (as ``seats`` always is), and not without one."""
    text = PARTNERS.read_text(encoding="utf-8").replace(
        "score: tricks[team of player]",
        "define most() = max(teams, tricks[it])\n"
        "score: tricks[team of player] + (1 if tricks[team of player] == most() else 0)")
    state = rulesplay.loads(text).new_state(4, 5)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    tricks = state.observation(0)["team_vars"]["tricks"]
    assert state.scores()[0] == tricks[0] + (tricks[0] == max(tricks))
    alone = text.replace('teams: "North-South" if player % 2 == 0 else "East-West"\n', "") \
        .replace("[team of winner]", "[winner]").replace("[team of leader]", "[leader]") \
        .replace("[team of player]", "[player]").replace("team var", "player var")
    with pytest.raises(RulesError, match="'teams' is not a parameter of 'most'"):
        rulesplay.loads(alone)


def test_the_api_reads_a_team_variable_by_any_seat_of_the_team() -> None:
    # (State.var read a team variable at the index of the seat: seats 2 and 3 read 0)
    text = ('game "T"\nplayers 4\nteams: player % 2\ncard c "c":\n    rank: 1..5\n'
            'zone deck "deck": shared, public\nteam var pts "points": int = 0\nphase p "P":\n'
            '    pts[team of 0] = 5\n    pts[team of 1] = 7\n    next end\nscore: 0\n')
    s = rulesplay.loads(text).new_state(4)
    assert [s.var("pts", seat) for seat in range(4)] == [5, 7, 5, 7]
