"""The :class:`Action` objects players pick from, and the per-decision cache that makes them.

An action id is stable and independent of list order: ``NAME:VALUE`` where NAME is the
choice's name in the ruleset and VALUE the card id (``red-7#2``), enum or option value,
number, ``yes``/``no`` or ``skip`` (e.g. ``declare_trump:yes``, ``play:joker#1``). A blind
pick (a card choice from cards its chooser cannot see) names a position, never a card:
``NAME:K`` for the K-th candidate, labelled "card K of N". Several cards chosen as one
decision are ``NAME:ID+ID+...``, the cards in card order (:class:`SetAction`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .program import Program


# How State.apply resolves a decision's chosen action (``Decision.resolves``, in
# engine/choices.py): the node's resolve(), only binding its value to a local, or by the
# lowered routine where it resumes.
BY_NODE, BINDS, BY_ROUTINE = 0, 1, 2


class Action:
    """One legal action: a stable ``id``, a readable ``label`` and the chosen ``value``.

    ``value`` is the card id (int) for card choices, the enum/option value (str), the number
    (int), ``True``/``False``, or None for skip/pass; for a blind pick, the position (int,
    from 1) with ``card`` False. ``choice`` is the decision's name.
    """

    __slots__ = ("id", "label", "value", "choice", "card")

    def __init__(self, id: str, label: str, value: Any, choice: str, card: bool) -> None:
        self.id, self.label, self.value, self.choice, self.card = id, label, value, choice, card

    @property
    def payload(self) -> dict[str, Any]:
        """The structured action: ``{"choice": NAME, "value": VALUE}``."""
        return {"choice": self.choice, "value": self.value}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)

    def __repr__(self) -> str:
        return f"Action({self.id!r}, {self.label!r})"


class Position(Action):
    """A blind pick's action (made by :meth:`ActionCache.position`): ``value`` is a
    position, from 1, and ``card`` False. Whether it is legal depends on how many cards there
    are, never on which, so it tells nothing of them."""

    __slots__ = ()


class SetAction(Action):
    """The action of several cards chosen as one decision (made by
    :class:`~rulesplay.engine.card_sets.CardSets`): id ``NAME:ID+ID+...``, ``value`` the
    card numbers in card order, ``card`` False (the set is not one card)."""

    __slots__ = ()


class ActionCache:
    """Creates each (value -> Action) once per decision, so listing legal actions is cheap.

    Args:
        prog: the program whose card ids, labels and words name the actions.
        choice: the decision's name (the part of every id before the colon).
        card: the values are card ids (int); ``by_card`` then holds one Action per card.
        seats: the values are seats, labelled by seat name.
        teams: the values are teams (their numbers), labelled by team name.
    """

    def __init__(self, prog: Program, choice: str, card: bool, seats: bool = False,
                 teams: bool = False) -> None:
        self.prog, self.choice, self.card, self.seats = prog, choice, card, seats
        self.teams = teams
        self.cache: dict[Any, Action] = {}
        self.blind: dict[tuple[int, int], Position] = {}
        self.skip_label = prog.word("skip")
        # Card choices: one Action per card, made once (the hot path indexes this list).
        self.by_card: list[Action] = [self._make(c) for c in range(prog.num_cards)] \
            if card else []

    def get(self, value: Any) -> Action:
        """The Action for ``value`` (None: skip), made on first use."""
        a = self.cache.get(value)
        if a is None:
            a = self.cache[value] = self._make(value)
        return a

    def position(self, k: int, n: int) -> Position:
        """The blind pick of the ``k``-th of ``n`` candidates (from 1): id ``NAME:k``,
        label "card k of n", value ``k``; it names no card."""
        a = self.blind.get((k, n))
        if a is None:
            label = self.prog.word("card_of").format(k=k, n=n)
            a = self.blind[k, n] = Position(f"{self.choice}:{k}", label, k, self.choice, False)
        return a

    def _make(self, value: Any) -> Action:
        prog = self.prog
        if value is None:
            return Action(f"{self.choice}:skip", self.skip_label, None, self.choice, False)
        if self.card:
            return Action(f"{self.choice}:{prog.card_ids[value]}", prog.card_labels[value],
                          value, self.choice, True)
        label = prog.seat_name(value) if self.seats else prog.team_name(value) if self.teams \
            else prog.value_label(value)
        return Action(f"{self.choice}:{prog.value_id(value)}", label, value, self.choice, False)
