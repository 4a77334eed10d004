"""Decisions at run time: what can be pending, and the ``chooses`` statement's node.

The actions a player picks from are :class:`~rulesplay.engine.actions.Action` objects (their
ids are described there); the node is built from the IR by
:func:`rulesplay.engine.compile_stmts.compile_choose`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import RulesRuntimeError, Span
from ..events import Mask, seat_text
from .actions import BINDS, BY_NODE, BY_ROUTINE, Action, ActionCache, Position
from .expr import Fn
from .observe import refresh_seen, sees_all
from .program import DisplayText

if TYPE_CHECKING:
    from .state import State

__all__ = ["BINDS", "BY_NODE", "BY_ROUTINE", "Action", "ActionCache", "BlindPick", "ChooseNode",
           "Decision", "Position"]


class Decision:
    """Something that can be pending: it lists legal actions and resolves the chosen one.

    ``secret`` decisions are made in private: other seats learn that the player decided,
    not what (their decision events are marked ``"private": true``).
    """

    name: str = ""
    index: int = 0
    secret: bool = False
    value_slot: int | None = None  # the local the chosen value is kept in
    resolves: int = 0
    """How :meth:`State.apply <rulesplay.engine.state.State.apply>` resolves the chosen
    action: :data:`BY_NODE` calls :meth:`resolve`; :data:`BINDS` only stores its value in
    the local ``value_slot`` (all that :meth:`resolve` would do); :data:`BY_ROUTINE` hands
    the value to the lowered routine, which resolves it where it resumes (``State.chosen``).
    Saves the calls of the hot path, one decision at a time."""
    prompt_text: Callable[[State], str]  # the prompt (a DisplayText), set by each node
    per_card: Fn | None = None
    """For a choice or play of one card whose ``where`` tests each card alone
    (:func:`~rulesplay.engine.expr_facts.per_card`): ``f(state, None)`` -> the zone the
    cards are taken from; else None. A card's action is then legal with some cards in that
    zone exactly when it is with each of them alone (what a sampler may rely on)."""

    def legal(self, s: State) -> list[Action]:
        raise NotImplementedError

    def allows(self, s: State, action: Action) -> bool:
        """Whether ``action`` (one of this decision's actions) is among :meth:`legal` of
        ``s``, by id. Nodes answer a card's action without listing every candidate
        (a sampler asks this of rebuilt past states, once per card it deals).

        Raises:
            as :meth:`legal` may (a rule that fails while listing).
        """
        aid = action.id
        for a in self.legal(s):
            if a.id == aid:
                return True
        return False

    def resolve(self, s: State, action: Action) -> None:
        raise NotImplementedError

    def prompt(self, s: State) -> str:
        return ""

    def sitting_out(self, s: State) -> int:
        """The bitmask of the seats that sit out the trick of the pending decision (a
        trick's ``sits out if``), else 0."""
        return 0

    def played_for(self, s: State) -> int | None:
        """The seat whose card the pending decision chooses when that is not the deciding
        seat (a trick's ``chosen by``: the declarer plays the dummy's card), else None."""
        return None

    def masked_prompt(self, s: State) -> tuple[str, list[Mask]]:
        """The prompt and its masks: the values in it some seats may not see (see
        :meth:`rulesplay.engine.program.DisplayText.masked`)."""
        text = self.prompt_text
        return text.masked(s) if isinstance(text, DisplayText) else (self.prompt(s), [])

    def seat_prompt(self, s: State, seat: int | None) -> str:
        """The prompt as ``seat`` (None: an onlooker) is shown it: values it may not see
        as ``?``."""
        text, masks = self.masked_prompt(s)
        return seat_text(text, masks, s.program.seat_bit(seat)) if masks else text


class BlindPick:
    """The blind pick by position, shared by every decision among cards (a choice of cards,
    a trick's play): when the deciding seat does not see every candidate, by the one rule
    of visibility (:meth:`Program.view <rulesplay.engine.program.Program.view>`), the
    actions (:class:`~rulesplay.engine.actions.Position`) name positions in the candidates'
    order (``NAME:K``, "card K of N"), never cards, and the K-th candidate is the card taken.
    That order is the one the cards lie in, of which the seat knows only what it saw of the
    moves into the zone.

    A filter of a blind pick may not test the candidate (that would tell which cards are
    where): the validator refuses such a filter unless the text proves the chooser sees the
    cards (:mod:`rulesplay.validate.unseen`), and :meth:`positions` refuses it again should
    the run time find the pick blind.

    Args:
        name, span: the decision's name and where it is written (for the error).
        zone: when the candidates are a zone, ``f(state, None)`` -> its zone id (a quicker
            test than asking card by card), else None.
        tests_candidate: the decision's filter reads the candidate.
    """

    __slots__ = ("name", "span", "zone", "tests_candidate")

    def __init__(self, name: str, span: Span, zone: Fn | None, tests_candidate: bool) -> None:
        self.name, self.span = name, span
        self.zone, self.tests_candidate = zone, tests_candidate

    def applies(self, s: State, seat: int, cards: list[int]) -> bool:
        """Whether ``seat`` picks blind from ``cards`` (card ids): it does not see every
        one of them where it is now."""
        if self.zone is not None and s.seers[self.zone(s, None)] >> seat & 1:
            return False
        return not sees_all(s, seat, cards)

    def positions(self, s: State, cards: list[int],
                  filter: Callable[[State, Any], list[Any]],
                  actions: ActionCache) -> list[Action]:
        """The blind actions ``NAME:1`` .. ``NAME:K`` for the ``K`` cards of ``cards`` that
        pass ``filter`` (all or none: it does not read the card).

        Raises:
            RulesRuntimeError: the filter tests the candidate.
        """
        if self.tests_candidate:
            raise RulesRuntimeError(
                f"'{self.name}' is chosen from cards its chooser cannot see (a blind pick by "
                "position), so its 'where' cannot test the card (nor read the cards it is "
                "picked from)", self.span)
        n = len(filter(s, cards))
        return [actions.position(k, n) for k in range(1, n + 1)]

    @staticmethod
    def card(cards: list[int], action: Action) -> int:
        """The card blind pick ``action`` takes: the one at its position in ``cards``."""
        card: int = list(cards)[action.value - 1]
        return card


class SkipWay:
    """One skip of a choice that names its skips (``skip "draw a card" as drawing if
    COND``): its action (id ``NAME:skip-drawing``; ``NAME:skip`` unnamed), its label made
    per listing, when it is allowed, and the local slot of its name (None: unnamed).

    Args:
        action: the skip's action (value None: the choice's name is none).
        text: its label made from the state, or None (the action's own).
        test: ``f(state, None)`` -> whether it is allowed now, or None: always.
        flag: the local slot set True when this skip is taken (False otherwise).
    """

    __slots__ = ("action", "text", "test", "flag")

    def __init__(self, action: Action, text: Callable[[State], str] | None, test: Fn | None,
                 flag: int | None) -> None:
        self.action, self.text, self.test, self.flag = action, text, test, flag

    def made(self, s: State) -> Action:
        """The skip's action, its label worked out now."""
        a = self.action
        return a if self.text is None else Action(a.id, self.text(s), None, a.choice, False)


def skip_ids(node: Decision, choice: str) -> list[str]:
    """The ids of the skips decision ``node`` (named ``choice``) may list: each named
    skip's (``NAME:skip-WORD``, a node with :class:`SkipWay` s), else ``NAME:skip`` for a
    ``may choose``; none otherwise. What a fixed action space numbers."""
    ways = getattr(node, "ways", None)
    if ways is not None:
        return [w.action.id for w in ways]
    return [f"{choice}:skip"] if getattr(node, "optional", False) else []


class ChooseNode(Decision):
    """``PLAYER chooses NAME from DOMAIN [where COND]`` (``may choose``: skipping allowed).

    A card choice whose candidates the chooser does not all see (``p chooses c from
    hand[left of p]``) is a *blind pick* (:class:`BlindPick`): its actions name positions
    in the domain's order, never cards.

    Args:
        index: the node's index in the program.
        name, span: the choice's name and where it is written.
        player: ``f(state, None)`` -> the seat that chooses.
        domain: ``f(state, None)`` -> the candidate values.
        filter: ``f(state, candidates)`` -> the legal ones (the ``where`` test).
        slot: the local slot the chosen value is stored in.
        optional, secret: ``may choose``; ``secretly chooses``.
        may_skip: ``f(state, None)`` -> whether the skip is allowed now (``skip "pass"
            unless COND``), or None when a ``may choose`` always allows it.
        actions: the cache of this choice's actions.
        skip_text: the skip label made per listing (it may name the state), or None.
        prompt_text: the prompt in the ruleset's words.
        blind: how a card choice is picked blind, or None when it never is (a choice of
            values, or of cards the chooser always sees, such as its own hand).
        stands_for: for a choice of ``values(CARDS, KEY)``: ``f(state, value)`` -> the cards
            of CARDS whose KEY is that value (what the value stands for, shown to its
            chooser, who sees them: a choice's options read only what it sees); else None.
        ways: the skips of a choice that names them (:class:`SkipWay`, listed in order),
            or None (one unnamed skip, or none: ``optional``, ``may_skip``).
    """

    def __init__(self, index: int, name: str, span: Span, player: Fn, domain: Fn,
                 filter: Callable[[State, Any], list[Any]], slot: int, optional: bool,
                 secret: bool, actions: ActionCache,
                 skip_text: Callable[[State], str] | None,
                 prompt_text: Callable[[State], str], blind: BlindPick | None = None,
                 stands_for: Callable[[State, Any], list[int]] | None = None,
                 may_skip: Fn | None = None, ways: list[SkipWay] | None = None) -> None:
        self.index, self.name, self.span = index, name, span
        self.ways = ways
        self.may_skip = may_skip
        self.player, self.domain, self.filter, self.slot = player, domain, filter, slot
        self.value_slot = slot
        self.optional, self.secret = optional, secret
        self.actions = actions
        self.skip_text = skip_text
        self.prompt_text = prompt_text
        self.blind = blind
        self.stands_for = stands_for
        self._fixed_skip: Action | None = None  # the skip action, when its label is fixed
        # Never a blind pick, no named skip: the action's value is all there is to bind.
        self.resolves = BINDS if blind is None and ways is None else BY_NODE

    def effect(self, s: State) -> None:
        """Reaching the statement makes the decision pending for its player."""
        p = self.player(s, None)
        if p is None:
            raise self.no_player()
        if s.program.seen_by:  # who sees what, as the decision is asked
            refresh_seen(s)
        s.pending = (p, self.index)
        s._legal = self.legal(s)  # listed once: the state waits for this decision now
        if not s._legal:
            raise self.no_choice()

    def no_choice(self) -> RulesRuntimeError:
        """The error when the choice has no legal option and cannot be skipped."""
        return RulesRuntimeError(
            f"no legal choice for '{self.name}': the domain is empty and the choice "
            "cannot be skipped (write 'may choose' or guard it with 'if'"
            + (", or allow the skip in this case"
               if self.may_skip is not None or self.ways is not None else "")
            + ")", self.span)

    def no_player(self) -> RulesRuntimeError:
        """The error when the expression of the seat that chooses gives none."""
        return RulesRuntimeError(f"no player to make the choice '{self.name}'", self.span)

    def legal(self, s: State) -> list[Action]:
        get = self.actions.get
        cards = self.domain(s, None)
        blind = self.blind
        if blind is not None and blind.applies(s, self._seat(s), cards):
            out = blind.positions(s, cards, self.filter, self.actions)
        else:
            out = [get(v) for v in self.filter(s, cards)]
        if self.ways is not None:
            out += [w.made(s) for w in self.ways if w.test is None or w.test(s, None)]
        elif self.optional and (self.may_skip is None or self.may_skip(s, None)):
            out.append(self.skip(s))
        return out

    def allows(self, s: State, action: Action) -> bool:
        """As :meth:`Decision.allows`; the action of a value or a card (not a blind pick,
        nor a skip) is tested alone: the value is a candidate and passes the ``where``
        test, which is what listing finds for it (the test's parts that do not read the
        candidate are worked out once per listing, the same with one candidate as with
        all)."""
        value, actions = action.value, self.actions
        if value is None or action.__class__ is not Action or (
                actions.cache.get(value) is not action
                and not (action.card and actions.by_card[value] is action)):
            return super().allows(s, action)  # (a skip, a blind pick, another node's)
        cands = self.domain(s, None)
        blind = self.blind
        if action.card and blind is not None and blind.applies(s, self._seat(s), cands):
            return super().allows(s, action)
        return value in cands and bool(self.filter(s, [value]))

    def skip(self, s: State) -> Action:
        """The action that skips a ``may choose`` (its label may name the state)."""
        skip = self._fixed_skip
        if skip is not None:
            return skip
        skip = self.actions.get(None)
        text = self.skip_text
        if text is not None:
            skip = Action(skip.id, text(s), None, skip.choice, False)
            if isinstance(text, DisplayText) and all(p.__class__ is str for p in text.parts):
                self._fixed_skip = skip  # a label naming nothing: made once
        return skip

    @staticmethod
    def _seat(s: State) -> int:
        assert s.pending is not None  # this choice is the pending decision
        return s.pending[0]

    def resolve(self, s: State, action: Action) -> None:
        value = action.value
        if isinstance(action, Position):
            value = BlindPick.card(self.domain(s, None), action)
        s.loc[self.slot] = value
        if self.ways is not None:  # which skip was taken, if any
            for w in self.ways:
                if w.flag is not None:
                    s.loc[w.flag] = action.id == w.action.id

    def prompt(self, s: State) -> str:
        return self.prompt_text(s)
