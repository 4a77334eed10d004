"""Teams (partnerships): the ``teams:`` line worked out for every player count.

``teams: EXPR`` gives each seat's team as an expression of ``player``, ``players`` and
options (``teams: player % 2``): seats with equal values are one team, numbered by their
first seat; a text value is the team's label (``"North-South" if player % 2 == 0 else
"East-West"``), and so is an enum value (its label, in the game's language).
:func:`seat_teams` is the one place that works a partition out (the validator and the
engine both call it); :func:`team_checks` and :func:`partition_problem` report what cannot be
one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import ir
from ..errors import Span, value_text
from ..visitor import nodes_of
from .constants import _EvalFault, _NotConstant, _Reported, const_eval
from .symbols import Context


@dataclass(frozen=True)
class Teams:
    """The teams of one player count.

    Attributes:
        of_seat: per seat, its team's number (the team's first seat).
        members: team number -> its seats, in seat order.
        labels: team number -> the team's text (or enum value) naming it, or None.
    """

    of_seat: list[int]
    members: dict[int, list[int]]
    labels: dict[int, str | None]


class TeamsFault(Exception):
    """``teams:`` cannot be worked out before play (it reads the game's state) or fails."""

    def __init__(self, message: str, node: ir.Expr) -> None:
        super().__init__(message)
        self.message, self.node = message, node


def seat_teams(e: ir.Expr, n: int, env: dict[str, Any]) -> Teams:
    """The teams ``teams: e`` makes with ``n`` players.

    Args:
        e: the ``teams:`` expression (reads ``player``, ``players`` and ``env``).
        n: the player count.
        env: the names it may read and their values (:func:`teams_env`).

    Raises:
        TeamsFault: ``e`` reads something known only during play, fails, or gives a value
            that is not a number, a text or an enum value.
    """
    values = []
    for seat in range(n):
        try:
            value = const_eval(e, dict(env, players=n, player=seat))
        except _NotConstant as exc:
            raise TeamsFault("the teams must be known before play: use 'player', 'players', "
                             "numbers, texts, enum values and options", exc.node) from None
        except _EvalFault as exc:
            raise TeamsFault(f"the teams cannot be worked out with {n} players: "
                             f"{exc.message}", exc.node) from None
        except _Reported as exc:
            raise TeamsFault("a number too large", exc.node) from None
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise TeamsFault(f"a team is a number, a text or an enum value; seat {seat} gets "
                             f"{value_text(value)}", e)
        values.append(value)
    first: dict[Any, int] = {}
    of_seat = [first.setdefault(v, seat) for seat, v in enumerate(values)]
    members: dict[int, list[int]] = {}
    for seat, team in enumerate(of_seat):
        members.setdefault(team, []).append(seat)
    labels: dict[int, str | None] = {}
    for team in members:
        label = values[team]
        labels[team] = label if isinstance(label, str) else None
    return Teams(of_seat, members, labels)


def teams_env(r: ir.Ruleset, options: dict[str, Any]) -> dict[str, Any]:
    """The names ``teams:`` may read besides ``player`` and ``players``: enum values (a
    team named by one shows its label), choice values and ``options`` (name -> value)."""
    return {v.name: v.name for e in r.enums for v in e.values} | \
        {v: v for o in r.options for v in o.choices} | options


def team_checks(c: Context, env_of: dict[int, dict[str, Any]]) -> None:
    """Check ``teams:`` and the team words against it.

    Rules: ``team of``, ``partner of`` and ``team var`` need a ``teams:`` line; the teams
    are known before play at every player count (``env_of``: count -> option values); at
    no count are all seats one team (nobody to play against); ``partner of`` needs every
    team to have exactly two seats at every count; a team of one seat is warned about
    (it plays alone: say so with its own label if that is meant).
    """
    r = c.r
    words = [s for s in nodes_of(r, ir.Seat) if s.side in ("team", "partner")]
    team_vars = [v for v in r.vars if v.scope == "team"]
    if r.teams is None:
        for s in words:
            c.error(f"'{s.side} of' needs a 'teams:' line saying each seat's team "
                    "(e.g. teams: player % 2)", s.span)
        for v in team_vars:
            c.error(f"team variable '{v.name}' needs a 'teams:' line saying each seat's "
                    "team (e.g. teams: player % 2)", v.span)
        return
    if any(d.span == r.teams.span for d in c.out.diagnostics):
        return  # not a number or a text: reported where it is typed
    reported_partner = False
    for n, env in env_of.items():
        try:
            teams = seat_teams(r.teams, n, teams_env(r, env))
        except TeamsFault as exc:
            c.error(exc.message, exc.node.span)
            return
        problem = partition_problem(r, teams, n)
        if problem is not None and not (reported_partner and problem[1] != r.teams.span):
            c.error(*problem)
            if problem[1] == r.teams.span:
                return
            reported_partner = True
        sizes = sorted((len(m) for m in teams.members.values()), reverse=True)
        alone = [m[0] for m in teams.members.values() if len(m) == 1]
        if alone and len(alone) < n and teams.labels[alone[0]] is None:
            c.warn(f"with {n} players seat {alone[0]} is a team of one (teams of "
                   f"{_counts(sizes)} seats); label the teams with texts if that is meant",
                   r.teams.span)


def partition_problem(r: ir.Ruleset, teams: Teams, n: int) -> tuple[str, Span] | None:
    """What makes ``teams`` (of ``n`` players) unplayable for ruleset ``r``, with where to
    say it, or None: every seat in one team (nobody to play against), or ``partner of``
    with a team that is not of two seats. The validator asks this with the options'
    defaults, the engine again with the options of the game."""
    assert r.teams is not None
    sizes = sorted((len(m) for m in teams.members.values()), reverse=True)
    if len(sizes) == 1:
        return (f"with {n} players every seat is in one team: nobody plays against it",
                r.teams.span)
    partners = [s for s in nodes_of(r, ir.Seat) if s.side == "partner"]
    if partners and sizes != [2] * len(sizes):
        return (f"'partner of' needs teams of two seats; with {n} players the teams have "
                f"{_counts(sizes)} seats", partners[0].span)
    return None


def _counts(sizes: list[int]) -> str:
    return ", ".join(str(k) for k in sizes[:-1]) + f" and {sizes[-1]}" if len(sizes) > 1 \
        else str(sizes[0])
