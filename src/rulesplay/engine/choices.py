"""Decisions at run time: what can be pending, and the ``chooses`` statement's node.

The actions a player picks from are :class:`~rulesplay.engine.actions.Action` objects (their
ids are described there); the node is built from the IR by
:func:`rulesplay.engine.compile_stmts.compile_choose`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import RulesRuntimeError, Span
from .actions import Action, ActionCache
from .expr import Fn
from .observe import sees_all

if TYPE_CHECKING:
    from .state import State

__all__ = ["Action", "ActionCache", "ChooseNode", "Decision"]


class Decision:
    """Something that can be pending: it lists legal actions and resolves the chosen one.

    ``secret`` decisions are made in private: other seats learn that the player decided,
    not what (their decision events are marked ``"private": true``).
    """

    name: str = ""
    index: int = 0
    secret: bool = False
    value_slot: int | None = None  # the local the chosen value is kept in

    def legal(self, s: State) -> list[Action]:
        raise NotImplementedError

    def resolve(self, s: State, action: Action) -> None:
        raise NotImplementedError

    def prompt(self, s: State) -> str:
        return ""


class ChooseNode(Decision):
    """``PLAYER chooses NAME from DOMAIN [where COND]`` (``may choose``: skipping allowed).

    A card choice whose candidates the chooser does not all see (``p chooses c from
    hand[left of p]``) is a *blind pick*: its actions name positions in the domain's order
    (``NAME:K``, "card K of N"), never cards, and the K-th candidate is the card chosen.
    Its ``where`` may not test the candidate (that would tell which cards are where): the
    validator refuses such a choice when it can tell, and the run time when it cannot.

    Args:
        index: the node's index in the program.
        name, span: the choice's name and where it is written.
        player: ``f(state, None)`` -> the seat that chooses.
        domain: ``f(state, None)`` -> the candidate values.
        filter: ``f(state, candidates)`` -> the legal ones (the ``where`` test).
        slot: the local slot the chosen value is stored in.
        optional, secret: ``may choose``; ``secretly chooses``.
        actions: the cache of this choice's actions.
        skip_text: the skip label made per listing (it may name the state), or None.
        prompt_text: the prompt in the ruleset's words.
        zone: for a domain that is a zone, ``f(state, None)`` -> its zone id (a quicker
            test of what the chooser sees), else None.
        tests_candidate: the ``where`` test reads the candidate.
    """

    def __init__(self, index: int, name: str, span: Span, player: Fn, domain: Fn,
                 filter: Callable[[State, Any], list[Any]], slot: int, optional: bool,
                 secret: bool, actions: ActionCache,
                 skip_text: Callable[[State], str] | None,
                 prompt_text: Callable[[State], str], zone: Fn | None = None,
                 tests_candidate: bool = False) -> None:
        self.index, self.name, self.span = index, name, span
        self.player, self.domain, self.filter, self.slot = player, domain, filter, slot
        self.value_slot = slot
        self.optional, self.secret = optional, secret
        self.actions = actions
        self.skip_text = skip_text
        self.prompt_text = prompt_text
        self.zone, self.tests_candidate = zone, tests_candidate

    def effect(self, s: State) -> None:
        """Reaching the statement makes the decision pending for its player."""
        p = self.player(s, None)
        if p is None:
            raise RulesRuntimeError(f"no player to make the choice '{self.name}'", self.span)
        s.pending = (p, self.index)
        s._legal = self.legal(s)  # listed once: the state waits for this decision now
        if not s._legal:
            raise RulesRuntimeError(
                f"no legal choice for '{self.name}': the domain is empty and the choice "
                "cannot be skipped (write 'may choose' or guard it with 'if')", self.span)

    def blind(self, s: State, cards: list[Any]) -> bool:
        """Whether the pending choice is a blind pick: a card choice whose chooser does not
        see every candidate in ``cards`` (the domain)."""
        if not self.actions.card:
            return False
        assert s.pending is not None  # this choice is the pending decision
        seat = s.pending[0]
        if self.zone is not None and s.program.zone_seers[self.zone(s, None)] >> seat & 1:
            return False
        return not sees_all(s, seat, cards)

    def legal(self, s: State) -> list[Action]:
        get = self.actions.get
        cards = self.domain(s, None)
        if self.blind(s, cards):
            if self.tests_candidate:
                raise RulesRuntimeError(
                    f"'{self.name}' is chosen from cards its chooser cannot see (a blind "
                    "pick by position), so its 'where' cannot test the card", self.span)
            n = len(self.filter(s, cards))  # all or none: the test does not read the card
            out = [self.actions.position(k, n) for k in range(1, n + 1)]
        else:
            out = [get(v) for v in self.filter(s, cards)]
        if self.optional:
            skip = get(None)
            if self.skip_text is not None:
                skip = Action(skip.id, self.skip_text(s), None, skip.choice, False)
            out.append(skip)
        return out

    def resolve(self, s: State, action: Action) -> None:
        value = action.value
        if value is not None and self.actions.card and not action.card:
            value = list(self.domain(s, None))[value - 1]  # a blind pick: the K-th card
        s.loc[self.slot] = value

    def prompt(self, s: State) -> str:
        return self.prompt_text(s)
