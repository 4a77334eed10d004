"""Statistical agreement of rulesplay's classic games with OpenSpiel, an independent engine
(issue 12): random-play means over many games from each engine, and for each measure the
difference with a 99% confidence interval.

    python benchmarks/openspiel_agreement.py [euchre|bridge ...] [--games 2000] [--seed 1]

Both engines play uniform random legal actions; OpenSpiel's chance outcomes are sampled by
their probabilities, rulesplay's come from its seeded generator. Needs ``pyspiel`` (the
``open-spiel`` package), which the project does not depend on. Each measure is a per-game
number; the interval is the Welch (unequal variances) standard error of the difference of
the means times 2.576, the normal 99.5% quantile (the games are many: with 100 a side the
t quantile is 2.60, a 1% wider interval). "agree" when the interval holds 0. A measure on
which OpenSpiel is known to be wrong (``Match.known``) is shown with the reason and does
not fail the run; the exit status is 1 when any other measure differs.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import pyspiel

import rulesplay

ROOT = Path(__file__).resolve().parents[1]
Z99 = 2.576  # two-sided 99%: the normal 0.995 quantile

Measures = dict[str, float]


@dataclass(frozen=True)
class Match:
    """One game as both engines play it: the rulesplay ruleset with the options that match
    OpenSpiel's parameters, OpenSpiel's game string, and how to read the measures from each
    finished game (``rp_measures(state, decisions)``, ``os_measures(state, decisions)``)."""

    ruleset: str
    options: dict[str, Any]
    openspiel: str
    rp_measures: Callable[[rulesplay.State, int, dict[str, Any]], Measures]
    os_measures: Callable[[Any, int], Measures]
    rp_start: Callable[[rulesplay.State], dict[str, Any]] = lambda state: {}
    players: int = 4
    # Plays one OpenSpiel side of a game itself (several OpenSpiel games make one rulesplay
    # game): ``os_play(rng) -> measures``; None: one OpenSpiel game, read by os_measures.
    os_play: Callable[[random.Random], Measures] | None = None
    # Stops a rulesplay game before its end (after its first hand): ``rp_done(state)``.
    rp_done: Callable[[rulesplay.State], bool] | None = None
    # Sees each rulesplay action before it is applied, with the game's dict from rp_start
    # (to count kinds of moves): ``rp_step(state, action, start)``.
    rp_step: Callable[[rulesplay.State, rulesplay.Action, dict[str, Any]], None] | None = None
    # Measures on which OpenSpiel is known to be wrong, with the reason: reported, and
    # expected to differ rather than agree.
    known: dict[str, str] = field(default_factory=dict)
    # The oldest open-spiel whose game this matches, and why: (version, reason).
    min_openspiel: tuple[tuple[int, ...], str] | None = None


# ----------------------------------------------------------------- Euchre
# OpenSpiel's euchre plays one hand, the dealer chosen by chance, stick the dealer on and no
# lone defender by default; a side's return is the hand's points (1, 2 a march, 4 a lone
# march; euchred: the defenders 2), the other side's is its negative.

def euchre_rp_start(state: rulesplay.State) -> dict[str, Any]:
    """The turned-up card's suit, read before the dealer may pick it up."""
    return {"upcard": state.zone_cards("upcard")[0].split("-")[0]}


def euchre_rp(state: rulesplay.State, decisions: int, start: dict[str, Any]) -> Measures:
    """Euchre measures of a finished one-hand rulesplay game (the first dealer is seat 0)."""
    scores = state.scores()
    maker = state.var("maker")
    return {
        "dealer side net points": scores[0] - scores[1],
        "makers' net points": scores[maker] - scores[(maker + 1) % 4],
        "makers' tricks": state.var("tricks", maker % 2),
        "maker seat after dealer": (maker - 0) % 4,
        "made in the first round": float(state.var("trump") == start["upcard"]),
        "lone hands": float(state.var("alone")),
        "decisions": decisions,
    }


def euchre_os(state: Any, decisions: int) -> Measures:
    """The same measures of a finished OpenSpiel euchre game."""
    returns = state.returns()
    dealer, maker = state.dealer(), state.declarer()
    side = {maker % 2}
    return {
        "dealer side net points": returns[dealer],
        "makers' net points": returns[maker],
        "makers' tricks": sum(t.winner() % 2 in side for t in state.tricks()),
        "maker seat after dealer": (maker - dealer) % 4,
        "made in the first round": float(
            int(pyspiel.euchre.card_suit(state.upcard())) == state.trump_suit()),
        "lone hands": float(state.declarer_go_alone()),
        "decisions": decisions,
    }


# ----------------------------------------------------------------- Bridge
# OpenSpiel's bridge(use_double_dummy_result=false) plays one deal: North deals, neither side
# vulnerable (its defaults), a passed-out deal scores 0; returns are the North-South score
# for North and South and its negative for East and West.

STRAINS = ["clubs", "diamonds", "hearts", "spades", "notrump"]


def bridge_rp(state: rulesplay.State, decisions: int, start: dict[str, Any]) -> Measures:
    """Bridge measures of a finished one-board rulesplay game (board 1: North deals, none
    vulnerable). Level, declarer's tricks and doubled are counted over the deals played."""
    scores = state.scores()
    bids = [name.split("-") for name in state.zone_cards("auction")]
    out: Measures = {"North-South score": scores[0], "passed out": float(not bids),
                     "decisions": decisions}
    if bids:
        level, strain = max((int(b[1]), STRAINS.index(b[2])) for b in bids)
        declarer = state.var("declarer")
        out |= {"contract level": level, "notrump contracts": float(strain == 4),
                "declarer's tricks": state.var("tricks", declarer % 2),
                "doubled or redoubled": float(state.var("stake") != "undoubled"),
                "declarer side score": scores[declarer]}
    return out


OS_PASS, OS_DOUBLE, OS_REDOUBLE, OS_FIRST_BID = 52, 53, 54, 55


def bridge_os(state: Any, decisions: int) -> Measures:
    """The same measures of a finished OpenSpiel bridge game, read from its calls (52 pass,
    53 double, 54 redouble, 55 + 5 (level - 1) + strain a bid) and its closing text."""
    # The auction is the calls before the first card is played (card actions are 0..51).
    auction: list[int] = []
    for a in state.history()[52:]:
        if a < OS_PASS:
            break
        auction.append(a)
    returns = state.returns()
    out: Measures = {"North-South score": returns[0], "decisions": decisions}
    bid_at = [i for i, a in enumerate(auction) if a >= OS_FIRST_BID]
    out["passed out"] = float(not bid_at)
    if bid_at:
        last = auction[bid_at[-1]]
        level, strain = (last - OS_FIRST_BID) // 5 + 1, (last - OS_FIRST_BID) % 5
        side = bid_at[-1] % 2  # North (0) calls first
        declarer = next(i % 4 for i in bid_at
                        if i % 2 == side and (auction[i] - OS_FIRST_BID) % 5 == strain)
        tricks = re.search(r"Declarer tricks(?: won)?: (\d+)", str(state))  # (1.5; 2.0)
        assert tricks is not None
        out |= {"contract level": level, "notrump contracts": float(strain == 4),
                "declarer's tricks": int(tricks.group(1)),
                "doubled or redoubled": float(any(a in (OS_DOUBLE, OS_REDOUBLE)
                                                  for a in auction[bid_at[-1]:])),
                "declarer side score": returns[declarer]}
    return out


# ----------------------------------------------------------------- Oh Hell
# OpenSpiel's oh_hell plays one deal (3 players here), its hand size and dealer chosen by
# chance unless fixed; the hook holds (the dealer may not make the bids add up to the
# tricks); an exact bid scores 10 plus a point a trick, a missed one a point a trick
# (off_bid_penalty=false). rulesplay's oh_hell.rules plays a sequence of deals: with
# sequence=down and max_cards=K, deals of K, K-1, ... 1 cards, dealt by seats 0, 1, 2, 0 ...
# The OpenSpiel side of one game is K deals with num_tricks_fixed and the dealer fixed the
# same way, each seat's points summed.

OH_HELL_CARDS = 5
OH_HELL_PLAYERS = 3


def oh_hell_made(points: list[float]) -> float:
    """Exact bids over the deals, from the points: every trick scores 1 and every exact bid
    10 more, and the deals have 1 + 2 + ... + K tricks."""
    return (sum(points) - OH_HELL_CARDS * (OH_HELL_CARDS + 1) // 2) / 10


def oh_hell_measures(points: list[float], decisions: int) -> Measures:
    """Points per seat, exact bids and decisions of one game (either engine)."""
    out: Measures = {f"seat {p} points": points[p] for p in range(OH_HELL_PLAYERS)}
    return out | {"exact bids": oh_hell_made(points), "decisions": decisions}


def oh_hell_rp(state: rulesplay.State, decisions: int, start: dict[str, Any]) -> Measures:
    """Oh Hell measures of a finished rulesplay game."""
    return oh_hell_measures([float(x) for x in state.scores()], decisions)


def oh_hell_os(rng: random.Random) -> Measures:
    """K OpenSpiel oh_hell deals of K, K-1, ... 1 cards, seat d % 3 dealing deal d."""
    points = [0.0] * OH_HELL_PLAYERS
    decisions = 0
    for d in range(OH_HELL_CARDS):
        game = pyspiel.load_game("oh_hell", {"players": OH_HELL_PLAYERS,
                                             "num_tricks_fixed": OH_HELL_CARDS - d})
        state, n = random_openspiel_game(game, rng, first_chance=d % OH_HELL_PLAYERS)
        points = [a + b for a, b in zip(points, state.returns(), strict=True)]
        decisions += n
    return oh_hell_measures(points, decisions)


# ----------------------------------------------------------------- Hearts
# OpenSpiel's hearts plays one hand, the passing direction chosen by chance (none, left,
# across, right); its defaults: pass three, the 2 of clubs leads, no points on the first
# trick, hearts must be broken and the queen of spades breaks them, shooting the moon gives
# the others 26. A seat's return is 26 less its points. rulesplay's hearts.rules passes left
# in the first hand; target=1 ends the game after it. The OpenSpiel side is fixed to "Left"
# (outcome 1). Passing is one decision a seat in rulesplay (three cards at once, uniform
# over the sets of three) and three in OpenSpiel (a card at a time, so the same uniform
# set): the decisions are counted from the first card played.

HEARTS_PASS_LEFT = 1


def hearts_measures(points: list[float], plays: int) -> Measures:
    """Points per seat, moon shots and card plays of one hand (either engine)."""
    out: Measures = {f"seat {p} points": points[p] for p in range(4)}
    return out | {"moon shots": float(sorted(points) == [0, 26, 26, 26]),
                  "seat 0 points, moon aside": points[0] if points[0] != 26 else 0.0,
                  "card plays": plays}


def hearts_rp(state: rulesplay.State, decisions: int, start: dict[str, Any]) -> Measures:
    """Hearts measures of a finished one-hand rulesplay game (4 passing decisions)."""
    return hearts_measures([-float(x) for x in state.scores()], decisions - 4)


def hearts_os(rng: random.Random) -> Measures:
    """One OpenSpiel hearts hand passing left (12 passing decisions, a card at a time)."""
    state, decisions = random_openspiel_game(pyspiel.load_game("hearts"), rng,
                                             first_chance=HEARTS_PASS_LEFT)
    return hearts_measures([26 - r for r in state.returns()], decisions - 12)


# ----------------------------------------------------------------- Spades
# OpenSpiel's spades plays one hand from scores 0-0: North bids first (West deals), nil is
# 100, no blind nil, 10 a trick bid and 1 a bag, every ten bags -100; the returns are the
# sides' scores. A side's bids add up to 13 at most and a nil bidder's tricks count towards
# the partner's bid: options cannot say the first, so variants/spades_openspiel.rules
# replaces the bidding. rulesplay's spades.rules plays to a target (at least 100, which one hand
# may reach): the game is stopped after its first hand (its hand counter turns 2), with the
# target and losing score out of reach. Seat 0 deals there and seat 1 bids first, so the
# measures are by side: the first bidder's and the dealer's.

def spades_rp(state: rulesplay.State, decisions: int, start: dict[str, Any]) -> Measures:
    """Spades measures after rulesplay's first hand (team var index: 0 North-South, the
    dealer's side; 1 East-West, the first bidder's)."""
    return {"first bidder's side points": state.var("points", 1),
            "dealer's side points": state.var("points", 0), "decisions": decisions}


def spades_os(state: Any, decisions: int) -> Measures:
    """The same measures of a finished OpenSpiel spades hand (North, 0, bids first)."""
    returns = state.returns()
    return {"first bidder's side points": returns[0], "dealer's side points": returns[1],
            "decisions": decisions}


# ----------------------------------------------------------------- Crazy Eights
# OpenSpiel's crazy_eights plays one hand (players=5, max_draw_cards=5, no reshuffle and no
# special cards by default), its dealer chosen by chance, the seat after the dealer first.
# A seat's return is minus the value of the cards left in its own hand: an eight 50; a
# jack, queen, king or ace 10; the others their pips (its header and kMaxPenality = 544)...
# but its ScoreUp charges a pip card its action id + 2 (id = 4 rank + suit), not its rank +
# 2, so the returns are read as they are (a known difference) and also worked out from the
# hands by the header's rule. variants/crazy_eights_openspiel.rules is the game as OpenSpiel
# plays it; rulesplay's dealer is seat 0, so seats are counted from the dealer.

C8_RETURNS_BUG = "OpenSpiel's ScoreUp charges a pip card its action id + 2, not its rank + 2"
# Before 1.6.1 the starter stayed in the dealer's hand as well (fixed there: "the initial
# face up card should be regarded as played"): a card too many, played about once a game.
C8_MIN = ((1, 6, 1), "crazy_eights leaves the starter in the dealer's hand before 1.6.1")
C8_RANKS = "A23456789TJQK"  # rulesplay's ranks 1..13; OpenSpiel orders 2..A
C8_KINDS = ("card plays", "draws", "passes", "suits named")


def c8_penalty(rank: int) -> int:
    """OpenSpiel's stated penalty of a card of ``rank`` (1 ace .. 13 king)."""
    return 50 if rank == 8 else 10 if rank >= 10 or rank == 1 else rank


def c8_measures(hands: list[list[int]], dealer: int, returns: list[float],
                counts: dict[str, float], decisions: int) -> Measures:
    """Crazy Eights measures of one finished hand (either engine): ``hands`` the ranks left
    in each seat's hand, ``returns`` the engine's own points per seat."""
    n = len(hands)
    out: Measures = {f"penalty, dealer+{k}": sum(map(c8_penalty, hands[(dealer + k) % n]))
                     for k in range(n)}
    out |= {"returns, all seats": sum(returns),
            "cards left, all seats": sum(map(len, hands)),
            "blocked (no one out)": float(all(hands)),
            "decisions": decisions,
            "turns (plays and passes)": counts["card plays"] + counts["passes"]}
    return out | {k: counts[k] for k in C8_KINDS}


def c8_rp_start(state: rulesplay.State) -> dict[str, Any]:
    """A counter per kind of move."""
    return dict.fromkeys(C8_KINDS, 0.0)


def c8_rp_step(state: rulesplay.State, action: rulesplay.Action, counts: dict[str, Any]) -> None:
    """Counts a rulesplay move by its kind (the skip is labelled a draw or a pass)."""
    kind = ("suits named" if action.id.startswith("named:") else
            "draws" if action.label == "draw a card" else
            "passes" if action.label == "pass" else "card plays")
    counts[kind] += 1


def c8_rp(state: rulesplay.State, decisions: int, counts: dict[str, Any]) -> Measures:
    """Measures of a finished one-hand rulesplay game (seat 0 deals; the cards left are
    shown in each 'hand')."""
    hands = [[int(c.split("-")[1]) for c in state.zone_cards("hand", p)]
             for p in range(state.num_players)]
    return c8_measures(hands, 0, [float(x) for x in state.scores()], counts, decisions)


def c8_os(state: Any, decisions: int) -> Measures:
    """The same measures of a finished OpenSpiel hand: the dealer from the first chance
    outcome (52 + seat), moves from the history (a card 0..51, 52 draw, 53 pass, 54..57 a
    suit), the hands from each seat's observation ("Suit C: 2  5 ...")."""
    history = state.full_history()
    dealer = history[0].action - 52
    counts = dict.fromkeys(C8_KINDS, 0.0)
    for step in history:
        if step.player >= 0:
            a = step.action
            counts["card plays" if a < 52 else "draws" if a == 52 else
                   "passes" if a == 53 else "suits named"] += 1
    hands = []
    for p in range(state.num_players()):
        rows = re.findall(r"^Suit [CDHS]: (.*)$", state.observation_string(p), re.M)
        hands.append([C8_RANKS.index(ch) + 1 for row in rows[:4] for ch in row if ch != " "])
    return c8_measures(hands, dealer, list(state.returns()), counts, decisions)


MATCHES: dict[str, Match] = {
    "euchre": Match("rulesets/classics/euchre.rules",
                    {"target": 1, "stick_the_dealer": True, "loners": True,
                     "lone_defenders": False},
                    "euchre(allow_lone_defender=false,stick_the_dealer=true)",
                    euchre_rp, euchre_os, euchre_rp_start),
    "bridge": Match("rulesets/classics/bridge.rules", {"boards": 1, "scoring": "duplicate"},
                    "bridge(use_double_dummy_result=false,dealer_vul=false,"
                    "non_dealer_vul=false)",
                    bridge_rp, bridge_os),
    "oh_hell": Match("rulesets/classics/oh_hell.rules",
                     {"max_cards": OH_HELL_CARDS, "sequence": "down", "hook": True,
                      "bonus": 10, "missed": "per_trick"},
                     f"oh_hell(players={OH_HELL_PLAYERS},off_bid_penalty=false,"
                     f"points_per_trick=1,num_tricks_fixed=K..1)",
                     oh_hell_rp, lambda state, decisions: {}, players=OH_HELL_PLAYERS,
                     os_play=oh_hell_os),
    "hearts": Match("rulesets/classics/hearts.rules",
                    {"target": 1, "points_on_first_trick": False, "queen_breaks_hearts": True,
                     "moon": "add"},
                    "hearts (defaults), passing left", hearts_rp, lambda state, decisions: {},
                    os_play=hearts_os),
    "spades": Match("rulesets/classics/variants/spades_openspiel.rules",
                    {"target": 1000, "losing_score": -1000, "bag_limit": 10},
                    "spades", spades_rp, spades_os,
                    rp_done=lambda state: state.var("hand_number") > 1),
    **{name: Match("rulesets/classics/variants/crazy_eights_openspiel.rules", {},
                   f"crazy_eights(players={n},max_draw_cards=5,reshuffle=false,"
                   "use_special_cards=false)",
                   c8_rp, c8_os, c8_rp_start, players=n, rp_step=c8_rp_step,
                   known={"returns, all seats": C8_RETURNS_BUG}, min_openspiel=C8_MIN)
       for name, n in (("crazy_eights", 5), ("crazy_eights_2p", 2))},
}


def openspiel_version() -> tuple[int, ...]:
    """The installed open-spiel's version as numbers, e.g. (2, 0, 2)."""
    return tuple(int(x) for x in re.findall(r"\d+", metadata.version("open-spiel"))[:3])


def play_rulesplay(match: Match, games: int, seed: int) -> list[Measures]:
    """``games`` random games of the rulesplay side (game ``i`` from seed ``seed + i``)."""
    game = rulesplay.load(ROOT / match.ruleset, options=match.options)
    out = []
    for i in range(games):
        state = game.new_state(match.players, seed=seed + i)
        start = match.rp_start(state)
        rng = random.Random(seed + i)
        decisions = 0
        while not state.is_terminal() and not (match.rp_done and match.rp_done(state)):
            action = rng.choice(state.legal_actions())
            if match.rp_step is not None:
                match.rp_step(state, action, start)
            state.apply(action)
            decisions += 1
        out.append(match.rp_measures(state, decisions, start))
    return out


def random_openspiel_game(game: Any, rng: random.Random,
                          first_chance: int | None = None) -> tuple[Any, int]:
    """Play one OpenSpiel game at random; return the final state and the decisions made.
    ``first_chance``: the outcome taken at the first chance node with a choice (Oh Hell's
    dealer), instead of sampling it; raises ValueError when it is not one of its outcomes."""
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            if first_chance is not None and len(outcomes) > 1:
                if first_chance not in outcomes:
                    raise ValueError(f"{first_chance} is not among {outcomes}")
                state.apply_action(first_chance)
                first_chance = None
            else:
                state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return state, decisions


def play_openspiel(match: Match, games: int, seed: int) -> list[Measures]:
    """``games`` random games of the OpenSpiel side, from one generator seeded ``seed``."""
    rng = random.Random(seed)
    if match.os_play is not None:
        return [match.os_play(rng) for _ in range(games)]
    game = pyspiel.load_game(match.openspiel)
    return [match.os_measures(*random_openspiel_game(game, rng)) for _ in range(games)]


@dataclass(frozen=True)
class Row:
    """One measure: each engine's mean and count, the difference (rulesplay - OpenSpiel)
    and its 99% half-width; ``agree`` when the interval holds 0."""

    measure: str
    rp_mean: float
    rp_n: int
    os_mean: float
    os_n: int
    diff: float
    half: float

    @property
    def agree(self) -> bool:
        """True when 0 lies in diff +- half."""
        return abs(self.diff) <= self.half


def welch(measure: str, a: list[float], b: list[float]) -> Row:
    """The difference of the means of ``a`` (rulesplay) and ``b`` (OpenSpiel) with its 99%
    Welch interval; raises ValueError when either has fewer than 2 values."""
    if len(a) < 2 or len(b) < 2:
        raise ValueError(f"{measure}: too few values ({len(a)}, {len(b)})")
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    return Row(measure, ma, len(a), mb, len(b), ma - mb, Z99 * se)


def compare(name: str, games: int, seed: int) -> list[Row]:
    """Play ``games`` games of game ``name`` on each engine; one row per measure (measures
    defined for some games only, such as a contract's level, are over those games)."""
    match = MATCHES[name]
    rp, osp = play_rulesplay(match, games, seed), play_openspiel(match, games, seed)
    names = list(dict.fromkeys(k for m in rp + osp for k in m))
    return [welch(k, [m[k] for m in rp if k in m], [m[k] for m in osp if k in m])
            for k in names]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_to_run", nargs="*", metavar="GAME",
                        help=f"games to compare: {', '.join(MATCHES)} (default all)")
    parser.add_argument("--games", type=int, default=2000, help="games per engine")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    args = parser.parse_args()
    unknown = [g for g in args.games_to_run if g not in MATCHES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}: choose from {', '.join(MATCHES)}")
    differs = False
    for name in args.games_to_run or list(MATCHES):
        start = time.process_time()
        rows = compare(name, args.games, args.seed)
        m = MATCHES[name]
        print(f"{name}: rulesplay {m.ruleset} {m.options} vs OpenSpiel {m.openspiel}, "
              f"{args.games} games each ({time.process_time() - start:.1f} s CPU)")
        print(f"  {'measure':28s} {'rulesplay':>10s} {'OpenSpiel':>10s} "
              f"{'difference (99% CI)':>26s}")
        if m.min_openspiel and openspiel_version() < m.min_openspiel[0]:
            print(f"  (open-spiel {'.'.join(map(str, openspiel_version()))} is older than "
                  f"{'.'.join(map(str, m.min_openspiel[0]))}: {m.min_openspiel[1]})")
        for r in rows:
            known = m.known.get(r.measure)
            print(f"  {r.measure:28s} {r.rp_mean:10.3f} {r.os_mean:10.3f} "
                  f"{r.diff:+10.3f} +- {r.half:8.3f}   {'agree' if r.agree else 'DIFFER'}"
                  + ("" if r.rp_n == r.os_n == args.games else f"  (n {r.rp_n}, {r.os_n})")
                  + (f"  (known: {known})" if known else ""))
            differs = differs or not (r.agree or known)
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
