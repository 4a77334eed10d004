"""Who plays with whom, and each team's result: the team queries of
:class:`~rulesplay.engine.state.State` (a mixin beside it, so that ``state`` stays small).

Teams come from the ruleset's ``teams:`` (each seat its own team without one), worked out
when the program is built; a team is numbered by its first seat and listed in seat order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import RulesError, Span

if TYPE_CHECKING:
    from .program import Program


class TeamResults:
    """The team queries of a game's state (mixed into :class:`State`)."""

    __slots__ = ()  # (the state's own slots hold everything)
    program: Program

    if TYPE_CHECKING:  # what the state gives them
        def rank_keys(self) -> list[tuple[int, ...]]: ...

        def seat_arg(self, seat: Any, onlooker: bool = True) -> None: ...

        def _located(self, exc: Exception, span: Span | None = None,
                     what: str = "the rule here") -> RulesError: ...

    def team_keys(self, keys: list[tuple[int, ...]] | None = None) -> dict[int, tuple[int, ...]]:
        """Each team's (score, tiebreak...) tuple by team number (its first seat): the one
        its seats share, from each seat's ``keys`` (default :meth:`rank_keys`).

        Raises:
            RulesError: at the ``score:`` line, when two seats of one team score
                differently (:meth:`Program.team_keys`).
        """
        try:
            return self.program.team_keys(self.rank_keys() if keys is None else keys)
        except RulesError as exc:
            score = self.program.ruleset.score
            raise self._located(exc, score.span if score else None, "the score") from None

    def teams(self) -> list[list[int]]:
        """The teams' seats, in order of first seats (each seat alone without ``teams:``)."""
        return [list(m) for m in self.program.layout.team_members.values()]

    def team_of(self, seat: int) -> int:
        """The index in :meth:`teams` of ``seat``'s team.

        Raises:
            RulesError: ``seat`` is not a seat of this game.
        """
        self.seat_arg(seat, onlooker=False)
        return list(self.program.layout.team_members).index(self.program.layout.team_of[seat])

    def team_names(self) -> list[str]:
        """Each team's display name, in the order of :meth:`teams`."""
        return [self.program.team_name(t) for t in self.program.layout.team_members]
