"""Who plays with whom, and each seat's and team's result: the result queries of
:class:`~rulesplay.engine.state.State` (a mixin beside it, so that ``state`` stays small).

A ``score:``, ``tiebreak:`` or ``winners:`` line that fails is reported at its own line, in
both engines and whoever asks (the end of a game, a simulation, a bot, the API): not at the
statement that ran last, and not "in phase ...", since no phase runs it.

Teams come from the ruleset's ``teams:`` (each seat its own team without one), worked out
when the program is built; a team is numbered by its first seat and listed in seat order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import RUNTIME_FAULTS, RulesError, RulesRuntimeError, Span, fault_message

if TYPE_CHECKING:
    from .program import Program


class ResultFault(RulesRuntimeError):
    """A ``score:``, ``tiebreak:`` or ``winners:`` line failed: located at that line, and
    not said to be in a phase (the game may be over)."""


class TeamResults:
    """The result and team queries of a game's state (mixed into :class:`State`)."""

    __slots__ = ()  # (the state's own slots hold everything)
    program: Program
    loc: list[Any]

    if TYPE_CHECKING:  # what the state gives them
        @property
        def num_players(self) -> int: ...

        def seat_arg(self, seat: Any, onlooker: bool = True) -> None: ...

    def scores(self) -> list[int]:
        """Each seat's score by the ruleset's ``score:`` expression (points).

        Raises:
            RulesError: at the ``score:`` line, when it fails for a seat.
        """
        slot, score, _ = self.program.score_fns
        loc = self.loc
        saved = loc[slot]
        out = []
        try:  # (bots ask this after every look-ahead: the loop stays bare)
            for seat in range(self.num_players):
                loc[slot] = seat
                out.append(score(self, None))
        except RUNTIME_FAULTS as exc:
            raise self._result_fault(exc, saved) from None
        loc[slot] = saved
        return out

    def rank_keys(self) -> list[tuple[int, ...]]:
        """Each seat's (score, tiebreak...) tuple; the highest wins.

        Raises:
            RulesError: at the ``score:`` or ``tiebreak:`` line that fails for a seat.
        """
        slot, score, ties = self.program.score_fns
        loc = self.loc
        saved = loc[slot]
        out = []
        try:  # (bots ask this after every playout: the loop stays bare)
            for seat in range(self.num_players):
                loc[slot] = seat
                out.append((score(self, None), *(t(self, None) for t in ties)))
        except RUNTIME_FAULTS as exc:
            raise self._result_fault(exc, saved) from None
        loc[slot] = saved
        return out

    def winners(self) -> list[int]:
        """The winning seats: the ruleset's ``winners:`` expression when it has one, else the
        seats with the best (score, tiebreaks) tuple (with teams: the best team's seats);
        several when still tied.

        Raises:
            RulesError: at the ``winners:``, ``score:`` or ``tiebreak:`` line that fails.
        """
        rs = self.program.ruleset
        if self.program.winners_fn is not None:
            try:
                return sorted(set(self.program.winners_fn(self, None)))
            except RUNTIME_FAULTS as exc:
                assert rs.winners is not None
                raise self._result_located(exc, rs.winners.span, "the winners rule") from None
        keys = self.rank_keys()
        if self.program.layout.teamed:  # teammates score alike, so the best team's seats win
            self.team_keys(keys)
        try:
            best = max(keys)  # (scores that are not numbers: a damaged save)
        except RUNTIME_FAULTS as exc:
            raise self._result_located(exc, rs.score.span if rs.score else Span(),
                                       "the score") from None
        return [seat for seat, k in enumerate(keys) if k == best]

    def _result_fault(self, exc: Exception, saved: Any) -> RulesError:
        """``exc``, raised while the seat in the ``player`` slot was ranked, located at the
        rule that failed: the score, else the first tiebreak that fails for that seat (each
        is worked out again here, on the fault path only); the slot gets ``saved`` back."""
        slot, score, ties = self.program.score_fns
        rs = self.program.ruleset
        seat = self.loc[slot]
        rules = [(score, rs.score, "the score")]
        rules += [(t, node, f"tiebreak {i + 1}" if len(ties) > 1 else "the tiebreak")
                  for i, (t, node) in enumerate(zip(ties, rs.tiebreaks, strict=True))]
        span, what = (rs.score.span if rs.score else Span()), "the score"
        for fn, node, name in rules:
            try:
                fn(self, None)
            except RUNTIME_FAULTS:
                span, what = (node.span if node is not None else Span()), name
                break
        self.loc[slot] = saved
        if isinstance(seat, int):
            what += f" of {self.program.seat_name(seat)}"
        return self._result_located(exc, span, what)

    def _result_located(self, exc: Exception, span: Span, what: str) -> RulesError:
        """``exc`` as a :class:`RulesError` at ``span`` (kept when it is already located,
        e.g. inside a function the rule calls), saying which result rule failed."""
        sources = self.program.checked.sources
        if isinstance(exc, ResultFault):
            return exc.attach_source(sources)
        if isinstance(exc, RulesError):
            located = exc.span if exc.span != Span() else span
            out = ResultFault(f"{what}: {exc.message}", located)
        else:
            out = ResultFault(f"{what} failed ({fault_message(exc)})", span)
        return out.attach_source(sources)

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
            raise self._result_located(exc, score.span if score else Span(),
                                       "the score") from None

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
