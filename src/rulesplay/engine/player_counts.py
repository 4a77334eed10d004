"""Can every player count a ruleset allows be dealt and started? (``rulesplay validate``)

A ruleset says ``players 4..10``; whether a deal of 5 cards from a 40-card deck works
depends on the count. Two checks per count, both before anybody plays:

* a ``deal N`` whose ``N`` is fixed before play (numbers, ``players``, options) needs
  ``N`` cards for each player: more than the game's cards can never be dealt;
* the game is started (run to its first decision, seed 0): a fault on the way, such as a
  deal from a zone emptied by an earlier move, is reported with the counts it happens at.

A start that runs out of one of the game's limits (a loop that never ends) may take as long at
every count; a caller that must answer quickly (a server checking pasted text) stops at the
first such count.

A ``deal N`` whose ``N`` is known only during play is warned about: no check can say that
every count has cards enough (``deal up to`` deals what there is).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import ir
from ..errors import Diagnostic, LimitError, RulesError, Span
from ..validate import value_before_play
from ..validate.functions import UNKNOWN
from ..visitor import nodes_of

if TYPE_CHECKING:
    from .game import Game


def _counts(ns: list[int]) -> str:
    """``[9, 10]`` -> "9 or 10 players"; runs of counts shown as ranges."""
    if len(ns) > 2 and ns[-1] - ns[0] == len(ns) - 1:
        return f"{ns[0]} to {ns[-1]} players"
    return (", ".join(map(str, ns[:-1])) + " or " if len(ns) > 1 else "") + f"{ns[-1]} players"


def check_player_counts(game: Game, stop_at_limit: bool = False) -> list[Diagnostic]:
    """Problems dealing or starting ``game`` at the player counts its ruleset allows.

    Args:
        game: a loaded game (its chosen options are used; the rest take their defaults).
        stop_at_limit: start no more counts once a start has run out of a limit
            (:class:`~rulesplay.errors.LimitError`): each start of an endless loop runs to
            the limits, about a second or more; the error then names the counts not tried.

    Returns:
        Diagnostics with their sources attached: an error per ``deal`` that needs more cards
        than the game has at some counts, an error per fault met while starting the game
        (with the counts it happens at), a warning per ``deal`` whose count is known only
        during play. Empty when every count can be dealt and started.

    Raises:
        RulesError: a player count's program cannot be built (an option not allowed with
            that many players, a kind with no copies): what ``validate`` reports already.
    """
    deals = [d for d in nodes_of(game.ruleset, ir.Deal)
             if not d.up_to and d.count is not None]
    short: dict[int, list[tuple[int, int, int, int]]] = {}  # deal -> (n, each, needed, cards)
    unknown: set[int] = set()
    dealt: dict[int, list[int]] = {}  # deal -> the counts it can be made at
    faults: dict[Span, list[tuple[int, str]]] = {}  # where -> (count, message)
    lo, hi = game.player_range
    untried: list[int] = []  # counts not started after a start ran out of a limit
    for n in range(lo, hi + 1):
        prog = game.program(n)
        env = dict(prog.layout.options, players=n)
        fits = True
        for i, d in enumerate(deals):
            assert d.count is not None  # ('deal all' deals what there is)
            each = value_before_play(d.count, env)
            if each is UNKNOWN or not isinstance(each, int):
                unknown.add(i)
            elif each * n > prog.num_cards:
                short.setdefault(i, []).append((n, each, each * n, prog.num_cards))
                fits = False
            else:
                dealt.setdefault(i, []).append(n)
        if untried:
            untried.append(n)
        elif fits:  # a count whose deal cannot fit fails at that deal: said once, above
            try:  # (recorded, and the first prompt shown: their texts are worked out too)
                state = game.new_state(n, seed=0, record_events=True)
                if not state.is_terminal():
                    state.prompt()
            except RulesError as exc:
                faults.setdefault(exc.span, []).append((n, exc.message))
                if stop_at_limit and isinstance(exc, LimitError):
                    untried.append(n)  # (the fault's count: the ones after it are untried)
    found: list[Diagnostic] = []
    for i, rows in short.items():
        ns = [n for n, *_ in rows]
        _, each, needed, cards = rows[0]
        # (the most the whole deck could serve: what else the game deals first is found
        # by starting it, below)
        # (the count it deals may depend on the count of players: say where it fits)
        fits_at = f"it can be made with {_counts(dealt[i])} only" if i in dealt else \
            "it fits no player count of the game"
        found.append(Diagnostic(
            f"with {_counts(ns)} this deal cannot be made: {each} cards to each of {ns[0]} "
            f"players need {needed}, and the game has {cards} cards; {fits_at} (or write "
            "'deal up to')", deals[i].span))
    for span, failed in faults.items():
        ns = [n for n, _ in failed]
        first = f" (with {ns[0]}: {failed[0][1]})" if len(ns) > 1 else f": {failed[0][1]}"
        rest = f"; not tried with {_counts(untried[1:])}" \
            if untried[1:] and failed[-1][0] == untried[0] else ""
        found.append(Diagnostic(f"with {_counts(ns)} the game cannot start{first}{rest}", span))
    for i in sorted(unknown - short.keys()):
        found.append(Diagnostic(
            "the number this deals is known only during play, so no check can say that "
            f"every player count from {lo} to {hi} has cards enough (write 'deal up to' to "
            "deal what there is)", deals[i].span, severity="warning"))
    for diag in found:
        diag.source = game.checked.sources.get(diag.span.file)
    return found
