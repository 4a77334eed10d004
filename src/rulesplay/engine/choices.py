"""Decisions: the ``chooses`` statement and the :class:`Action` objects players pick from.

An action id is stable and independent of list order: ``NAME:VALUE`` where NAME is the
choice's name in the ruleset and VALUE the card id (``red-7#2``), enum or option value,
number, ``yes``/``no`` or ``skip`` (e.g. ``declare_trump:yes``, ``play:joker#1``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import ir
from ..errors import RulesRuntimeError

if TYPE_CHECKING:
    from .game import Program
    from .state import State


class Action:
    """One legal action: a stable ``id``, a readable ``label`` and the chosen ``value``.

    ``value`` is the card id (int) for card choices, the enum/option value (str), the number
    (int), ``True``/``False``, or None for skip/pass. ``choice`` is the decision's name.
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


class Decision:
    """Something that can be pending: it lists legal actions and resolves the chosen one.

    ``secret`` decisions are made in private: other seats learn that the player decided,
    not what (their decision events are marked ``"private": true``).
    """

    name: str = ""
    index: int = 0
    secret: bool = False

    def legal(self, s: State) -> list[Action]:
        raise NotImplementedError

    def resolve(self, s: State, action: Action) -> None:
        raise NotImplementedError

    def prompt(self, s: State) -> str:
        return ""


class ActionCache:
    """Creates each (value -> Action) once per decision, so listing legal actions is cheap."""

    def __init__(self, prog: Program, choice: str, card: bool, seats: bool = False) -> None:
        self.prog, self.choice, self.card, self.seats = prog, choice, card, seats
        self.cache: dict[Any, Action] = {}
        self.skip_label = prog.word("skip")
        # Card choices: one Action per card, made once (the hot path indexes this list).
        self.by_card: list[Action] = [self._make(c) for c in range(prog.num_cards)] \
            if card else []

    def get(self, value: Any) -> Action:
        a = self.cache.get(value)
        if a is None:
            a = self.cache[value] = self._make(value)
        return a

    def _make(self, value: Any) -> Action:
        prog = self.prog
        if value is None:
            return Action(f"{self.choice}:skip", self.skip_label, None, self.choice, False)
        if self.card:
            return Action(f"{self.choice}:{prog.card_ids[value]}", prog.card_labels[value],
                          value, self.choice, True)
        label = prog.seat_name(value) if self.seats else prog.value_label(value)
        return Action(f"{self.choice}:{prog.value_id(value)}", label, value, self.choice, False)


class ChooseNode(Decision):
    """``PLAYER chooses NAME from DOMAIN [where COND]`` (``may choose``: skipping allowed)."""

    def __init__(self, prog: Program, index: int, c: ir.Choose) -> None:
        comp, lay = prog.compiler, prog.layout
        self.index, self.name, self.span = index, c.name, c.span
        self.player = comp.expr(c.player)
        self.domain = comp.coll(c.domain)
        self.filter, _ = comp.candidate_filter(c.where, c.name)
        self.slot = lay.local(c.name)
        self.optional = c.optional
        self.secret = c.secret
        card = comp.type_of(c.domain) in ("zone", "list:card")
        self.actions = ActionCache(prog, c.name, card,
                                   seats=comp.type_of(c.domain) == "list:player")
        # A skip label may name the state ("keep {count(hand[p])} cards"): made per listing.
        self.skip_text: Callable[[State], str] | None = \
            prog.template(c.skip_label) if c.skip_label is not None else None
        self.prompt_text: Callable[[State], str] = prog.template(c.prompt, default=c.name)

    def effect(self, s: State) -> None:
        """Reaching the statement makes the decision pending for its player."""
        p = self.player(s, None)
        if p is None:
            raise RulesRuntimeError(f"no player to make the choice '{self.name}'", self.span)
        s.pending = (p, self.index)
        if not self.legal(s):
            raise RulesRuntimeError(
                f"no legal choice for '{self.name}': the domain is empty and the choice "
                "cannot be skipped (write 'may choose' or guard it with 'if')", self.span)

    def legal(self, s: State) -> list[Action]:
        get = self.actions.get
        out = [get(v) for v in self.filter(s, self.domain(s, None))]
        if self.optional:
            skip = get(None)
            if self.skip_text is not None:
                skip = Action(skip.id, self.skip_text(s), None, skip.choice, False)
            out.append(skip)
        return out

    def resolve(self, s: State, action: Action) -> None:
        s.loc[self.slot] = action.value

    def prompt(self, s: State) -> str:
        return self.prompt_text(s)
