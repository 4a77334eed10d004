"""Several cards as one decision (``q secretly chooses 3 cards from hand[q]``, ``p may choose
1..4 cards from hand[p] of one rank``): the ways to choose them, their actions, and every id
such a decision can have.

One action per set of cards. Its id is ``NAME:ID+ID+...``: the cards' ids in the game's card
order (the order the deck is declared in), so a set has one id whatever order its cards lie
in, in every game of the ruleset; its label is the cards' labels, joined by commas; its value
the tuple of card numbers in that order. Listing is bounded: a decision has at most
:data:`~rulesplay.limits.MAX_SET_ACTIONS` ways to choose among the game's cards, which the
build checks from the declaration (:meth:`CardSets.bound`), so the listing never runs long
and :func:`action_space` can list every id of a decision from the ruleset alone (an adapter's
fixed action space).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from math import comb, prod
from typing import TYPE_CHECKING, Any

from ..errors import RUNTIME_FAULTS, RulesRuntimeError, RulesValidationError, Span
from ..limits import MAX_SET_ACTIONS
from .actions import BY_NODE, Action, SetAction
from .choices import ChooseNode, Decision, skip_ids

if TYPE_CHECKING:
    from .program import Program
    from .state import State

__all__ = ["CardSets", "Key", "SetAction", "SetChooseNode", "Shape", "action_space"]

WAYS_KEPT = 100_000  # sets kept in the listings of one decision (CardSets.listed): < 1 MB

Key = Callable[[Any, Any], Any]  # a card's value of a shape key: f(state, card)


class Shape:
    """One way the cards of a set may be alike (``one suit and consecutive rank``): equal
    values of each ``same`` key, and a run of the values of each ``runs`` key (whole
    numbers in a row, none twice). No keys: any cards.

    Args:
        same, runs: the keys, ``f(state, card)``.
    """

    __slots__ = ("same", "runs", "table")

    def __init__(self, same: list[Key], runs: list[Key]) -> None:
        self.same, self.runs = same, runs
        self.table: list[tuple[Any, ...]] | None = None  # card -> its same values, if pure

    def groups(self, s: State | None, cards: list[int]) -> list[list[int]]:
        """``cards`` by their values of the ``same`` keys (all in one group without)."""
        if not self.same:
            return [cards]
        groups: dict[tuple[Any, ...], list[int]] = {}
        table = self.table
        if table is not None:  # (the keys read the card alone: read once per game)
            for c in cards:
                v = table[c]
                if v in groups:
                    groups[v].append(c)
                else:
                    groups[v] = [c]
            return list(groups.values())
        for c in cards:
            groups.setdefault(tuple(key(s, c) for key in self.same), []).append(c)
        return list(groups.values())

    def sets(self, s: State | None, group: list[int], k: int) -> Iterator[tuple[int, ...]]:
        """The sets of ``k`` cards of ``group`` (in card order) that make the runs."""
        if k > len(group):
            return
        if not self.runs:
            yield from itertools.combinations(group, k)
            return
        first, *others = self.runs
        by_value: dict[int, list[int]] = {}
        for c in group:
            v = first(s, c)
            if v.__class__ is int:  # (a card without the key is in no run)
                by_value.setdefault(v, []).append(c)
        for v in sorted(by_value):
            steps = [by_value.get(v + i, []) for i in range(k)]
            if not all(steps):
                continue
            for pick in itertools.product(*steps):  # (one card of each value)
                cards = tuple(sorted(pick))
                if all(_is_run([key(s, c) for c in cards]) for key in others):
                    yield cards

    def bound(self, cards: int, low: int, high: int) -> int:
        """How many sets of ``low`` to ``high`` cards of this shape there can be among the
        game's ``cards``, from the declaration: the ``same`` groups and the first run's
        values of the cards as dealt (keys read without a state; a key that needs one
        counts every combination)."""
        try:
            groups = self.groups(None, list(range(cards)))
            first = self.runs[0] if self.runs else None
            values = [[first(None, c) for c in g] for g in groups] if first else None
        except RUNTIME_FAULTS:
            groups, values = [list(range(cards))], None
        total = 0
        for i, g in enumerate(groups):
            for k in range(low, high + 1):
                if values is None:
                    total += comb(len(g), k)
                    continue
                counts: dict[Any, int] = {}
                for v in values[i]:
                    counts[v] = counts.get(v, 0) + 1
                total += sum(prod(counts.get(v + j, 0) for j in range(k))
                             for v in counts if isinstance(v, int))
        return total


class CardSets:
    """How one decision takes several cards: how many (``low`` to ``high``), alike in one
    of the ``shapes`` (a set of one rank or a run in one suit), and the actions of each
    set, made once.

    Args:
        prog: the program (card ids and labels name the actions).
        choice: the decision's name (the part of every id before the colon).
        low, high: how many cards, at least and at most.
        shapes: ``(same keys, run keys)`` of each way the cards may be alike
            (:class:`Shape`); ``[([], [])]``: any cards.
        span: where the count is written (for the errors).
    """

    def __init__(self, prog: Program, choice: str, low: int, high: int,
                 shapes: list[tuple[list[Key], list[Key]]], span: Span) -> None:
        self.prog, self.choice, self.low, self.high = prog, choice, low, high
        self.shapes = [Shape(same, runs) for same, runs in shapes]
        self.span = span
        self.cache: dict[tuple[int, ...], SetAction] = {}
        self._pure: bool | None = None  # every key a function of the card alone (_is_pure)
        self._kept: dict[tuple[int, ...], list[SetAction]] = {}
        self._kept_ways = 0  # the sets in _kept

    def action(self, cards: tuple[int, ...]) -> SetAction:
        """The action of ``cards`` (card numbers in card order), made on first use."""
        a = self.cache.get(cards)
        if a is None:
            prog = self.prog
            a = self.cache[cards] = SetAction(
                f"{self.choice}:" + "+".join(prog.card_ids[c] for c in cards),
                ", ".join(prog.card_labels[c] for c in cards), cards, self.choice, False)
        return a

    def ways(self, s: State | None, cards: Iterable[int]) -> list[tuple[int, ...]]:
        """Every set of ``cards`` the count and a shape allow, each in card order, fewest
        cards first, then in card order (a set of two shapes once).

        Raises:
            RulesRuntimeError: more than :data:`MAX_SET_ACTIONS` (the build's bound rules
                this out unless a key changes with the state).
        """
        ordered = sorted(cards)
        shapes, low, high = self.shapes, self.low, self.high
        levels: list[list[tuple[int, ...]]] = [[] for _ in range(low, high + 1)]
        # Shapes may find a set twice (deduplicated below), and each group finds the
        # empty set: the cap allows for that while listing, exactly at the end.
        cap, found = MAX_SET_ACTIONS * len(shapes), 0
        for shape in shapes:
            runs = shape.runs
            for group in shape.groups(s, ordered):
                for k in range(low, min(high, len(group)) + 1):
                    level = levels[k - low]
                    size = len(level)
                    level.extend(shape.sets(s, group, k) if runs
                                 else itertools.combinations(group, k))
                    found += len(level) - size
                    if found > cap:
                        raise self._too_many()
        out: list[tuple[int, ...]] = []
        once = len(shapes) == 1
        for k, level in enumerate(levels, low):  # (fewest cards first, then card order)
            out.extend(sorted(level if once and k else set(level)))
        if len(out) > MAX_SET_ACTIONS:
            raise self._too_many()
        return out

    def _too_many(self) -> RulesRuntimeError:
        return RulesRuntimeError(
            f"more than {MAX_SET_ACTIONS:,} ways to choose '{self.choice}'", self.span)

    def listed(self, s: State, cards: Iterable[int],
               keep: Callable[[State, list[list[int]]], list[list[int]]]) -> list[Action]:
        """The actions of the ways of ``cards`` (:meth:`ways`) that ``keep`` (a decision's
        test of a set, given the sets as lists of cards) keeps, in the order of
        :meth:`ways`.

        When every key of every shape is a function of the card alone, the ways and their
        actions depend on the cards only: they are kept per set of cards (a bot's playouts
        list the same hand again and again: a seat that passes, each sample of a decision),
        up to :data:`WAYS_KEPT` sets in all; the answer is the same either way.
        """
        key = tuple(sorted(cards))
        pure = self._pure
        if pure is None:
            pure = self._pure = self._is_pure()
        actions = self._kept.get(key) if pure else None
        if actions is None:
            made, action = self.cache.get, self.action  # (made once per set: looked up)
            actions = [made(w) or action(w) for w in self.ways(s, key)]
            if pure:
                # (only the actions, made once per set anyway: lists kept alive would
                # burden the garbage collector more than making them again costs)
                self._kept_ways += len(actions)
                if self._kept_ways > WAYS_KEPT:
                    self._kept.clear()
                    self._kept_ways = len(actions)
                self._kept[key] = actions
        lists = [list(a.value) for a in actions]
        kept = keep(s, lists)
        if len(kept) == len(lists):  # (a test keeps a subset in order: all of them)
            return list(actions)
        action = self.action
        return [action(tuple(w)) for w in kept]

    def _is_pure(self) -> bool:
        """Whether every shape's keys read the card alone: each key is read for every card
        of the game without a state (as :meth:`Shape.bound` reads them), so a key that
        reads the state (a computed attribute, a card variable) fails for some card."""
        keys = [k for shape in self.shapes for k in (*shape.same, *shape.runs)]
        cards = range(self.prog.num_cards)
        try:
            for k in keys:
                for c in cards:
                    k(None, c)
        except RUNTIME_FAULTS:
            return False
        for shape in self.shapes:
            if shape.same:
                shape.table = [tuple(k(None, c) for k in shape.same) for c in cards]
        return True

    def bound(self, cards: int) -> int:
        """How many sets there can be among the game's ``cards``: the sum of the shapes'
        bounds (:meth:`Shape.bound`; a set of two shapes counted twice)."""
        return sum(shape.bound(cards, self.low, self.high) for shape in self.shapes)

    def check_bound(self, cards: int) -> None:
        """Refuse a decision with more ways than :data:`MAX_SET_ACTIONS` among the game's
        ``cards``.

        Raises:
            RulesValidationError: at the count, saying how many and what would lower it.
        """
        n = self.bound(cards)
        if n > MAX_SET_ACTIONS:
            raise RulesValidationError(
                f"'{self.choice}' can be chosen in {n:,} ways among the game's {cards} cards, "
                f"more than the {MAX_SET_ACTIONS:,} one decision may have: choose fewer "
                "cards at once, or say what they share ('of one rank', 'of consecutive "
                "rank')", self.span)


def _is_run(values: list[Any]) -> bool:
    """Whether ``values`` are whole numbers in a row, none twice."""
    values = sorted(values)
    return all(b == a + 1 for a, b in itertools.pairwise(values))


class SetChooseNode(ChooseNode):
    """``PLAYER chooses N NAME from DOMAIN [of one KEY] [where COND]``: several cards as one
    decision; ``NAME`` is bound to the list of chosen cards (card order; empty when a ``may
    choose`` is skipped), and ``where`` tests the whole set. Built as a
    :class:`ChooseNode` (same arguments) plus ``sets``.

    A choice of several cards is never blind: a seat that does not see every candidate
    would learn which cards are which from the sets' ids, so the validator refuses such a
    domain and the run time refuses it again.
    """

    def __init__(self, *args: Any, sets: CardSets, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sets = sets
        self.resolves = BY_NODE

    def legal(self, s: State) -> list[Action]:
        cards = self.domain(s, None)
        blind = self.blind
        if blind is not None and blind.applies(s, self._seat(s), cards):
            raise RulesRuntimeError(
                f"'{self.name}' chooses several cards among cards its chooser cannot see; "
                "a set is chosen only from cards its chooser sees", self.span)
        out = self.sets.listed(s, cards, self.filter)
        if self.optional:
            out.append(self.skip(s))
        return out

    def allows(self, s: State, action: Action) -> bool:
        return Decision.allows(self, s, action)

    def no_choice(self) -> RulesRuntimeError:
        """The error when no set of cards meets the count and the constraints and the
        choice cannot be skipped."""
        return RulesRuntimeError(
            f"no legal choice for '{self.name}': no set of the cards to choose from has "
            "the number and the shape asked, and the choice cannot be skipped (write 'may "
            "choose' or guard it with 'if')", self.span)

    def resolve(self, s: State, action: Action) -> None:
        s.loc[self.slot] = [] if action.value is None else list(action.value)  # (skip: none)


def action_space(prog: Program, choice: str) -> list[str]:
    """Every id decision ``choice`` can have in a game of ``prog`` (its cards, options and
    player count), from the declaration alone: what an adapter with a fixed action space
    numbers. Sets of cards: every set the count and the shape allow among the game's cards
    (keys read as dealt); one card: every card, and ``NAME:K`` for the blind picks; a skip
    or a pass when the decision has one. Ids in a fixed order (as listed above).

    Raises:
        ValueError: no decision has that name, or it chooses values, not cards (their ids
            are its values: ``NAME:VALUE``).
    """
    found = [node for node in prog.nodes if isinstance(node, Decision) and node.name == choice]
    if not found:
        raise ValueError(f"no decision named '{choice}'")
    ids: list[str] = []
    for node in found:
        sets: CardSets | None = getattr(node, "sets", None)
        actions = getattr(node, "actions", None)
        if sets is not None:
            ids.extend(sets.action(w).id for w in sets.ways(None, range(prog.num_cards)))
        elif actions is not None and actions.card:
            ids.extend(a.id for a in actions.by_card)
            if getattr(node, "blind", None) is not None:
                ids.extend(f"{choice}:{k}" for k in range(1, prog.num_cards + 1))
        else:
            raise ValueError(f"'{choice}' chooses values, not cards: its ids are its values")
        ids.extend(skip_ids(node, choice))
        if getattr(node, "climbing", False):
            ids.append("pass")
    return list(dict.fromkeys(ids))
