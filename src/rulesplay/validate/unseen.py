"""What a seat cannot see, as far as the text proves: a decision's options may not depend on it.

The options of a decision are listed to its chooser, so they tell what they were worked out
from. The rule is conservative: whatever a choice's options (its domain and ``where``) read
must be something the text *proves* its chooser sees, by the one rule of visibility
(:func:`rulesplay.visibility.sight`):

- a ``public`` zone or variable;
- an ``owner`` zone or player variable indexed by exactly the chooser as written
  (``hand[p]`` for ``p chooses``, ``hand[player]`` in a trick). ``hand[left of left of p]``,
  ``hand[(p + 1) % players]``, ``hand[q]`` and ``hand[it]`` may be another seat's, so they
  are refused whatever seat they turn out to be at run time;
- the top card of a ``top`` zone (``top(pile)``), and how many cards any zone holds
  (``count(Z)``, ``any(Z)``): counts are public;
- a local name worked out only from such things: each place that binds the name (a
  ``let``, a loop over cards, a choice of cards, a trick's card, ``this`` of an ability)
  is checked in turn, and there a seat may only be the chooser when written with local
  names (a variable such as ``leader`` may have changed since). Any seat's open choice of a
  value is public; another chooser's secret choice is not.

Anything else (a ``hidden`` zone or variable, the cards of a ``top`` zone under its top,
another seat's ``owner`` zone or variable) is an error naming what was read and why.

A choice of *cards* from a zone its chooser may not see (``p chooses c from hand[left of
p]``, ``first(2, deck)``) is a blind pick by position (the engine lists positions, never
cards; for a seat the text does not pin down it decides at run time): legal, but its
``where`` may not test the card, and its cards may not be filtered by what is printed on
them. A trick's play is such a choice of a card by the player whose turn it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import ir
from ..show import expr_text
from ..visibility import sight
from ..visitor import NodeVisitor, nodes_of
from .symbols import Checked, Context
from .types import elem_type

POSITIONAL = ("top", "bottom", "first", "last")  # cards by position: none is read
COUNTS = ("count", "any")  # of one zone: how many cards, never which


@dataclass(frozen=True)
class Read:
    """One read of something a seat may not see.

    Attributes:
        expr: where it is read (for the caret).
        text: what is read, as written (``hand[q]``, ``'bid[q]'``, ``deck (through 'c')``).
        why: why the seat may not see it.
        cards: it reads cards (else a variable's value or a secret choice).
    """

    expr: ir.Expr
    text: str
    why: str
    cards: bool


@dataclass(frozen=True)
class Binder:
    """A place that gives a local name its value: the expressions the value is worked out
    from, and for a secret choice the chooser as written."""

    exprs: tuple[ir.Expr, ...]
    secret_of: ir.Expr | None = None


class Sight:
    """What the text proves a seat sees: the ruleset's zones, variables and local names.

    Args:
        ruleset: the checked ruleset.
        checked: its validator result (names resolved in ``res``, types in ``types``).
    """

    def __init__(self, ruleset: ir.Ruleset, checked: Checked) -> None:
        self.zones = {z.name: z for z in ruleset.zones}
        self.vars = {v.name: v for v in ruleset.vars}
        self.res, self.types = checked.res, checked.types
        self.binders = binders(ruleset, checked)

    def category(self, e: ir.Expr) -> str:
        """What a name resolved to (``zone``, ``pzone``, ``var``, ``pvar``, ``local``...),
        or the empty string."""
        return self.res.get(id(e), ("", ""))[0] if isinstance(e, ir.Name) else ""

    def holds_cards(self, e: ir.Expr) -> bool:
        """Whether ``e`` is a zone or a list of cards (by its checked type)."""
        return elem_type(self.types.get(id(e), "")) == "card"

    def zone_ref(self, e: ir.Expr) -> ir.ZoneDecl | None:
        """The zone ``e`` names (``deck``, ``hand[p]``), or None."""
        base = e.obj if isinstance(e, ir.Index) else e
        if self.category(base) in ("zone", "pzone"):
            assert isinstance(base, ir.Name)  # resolved as a zone
            return self.zones.get(base.id)
        return None

    def reads(self, e: ir.Expr, chooser: ir.Expr, others: frozenset[str] = frozenset()
              ) -> list[Read]:
        """What ``e`` reads that the text does not prove ``chooser`` sees, in order.

        Args:
            e: the expression.
            chooser: the deciding seat's expression.
            others: local names that stand for any seat or value here (a choice's
                candidate in its ``where``, a loop's seat in its ``ordered by``): never
                followed, never the chooser.
        """
        visitor = _Reads(self, chooser, others)
        visitor.visit(e)
        return visitor.found

    def by_position(self, e: ir.Expr, chooser: ir.Expr
                    ) -> tuple[ir.Expr, list[ir.Expr]] | None:
        """When ``e`` is a zone ``chooser`` may not see whole, or cards taken from one by
        position only (``first(2, deck)``): that zone reference and what else is read
        (the ``2``, the seat of ``hand[q]``); else None."""
        parts: list[ir.Expr] = []
        while isinstance(e, ir.Call) and e.func in POSITIONAL and e.args:
            parts.extend(e.args[:-1])
            e = e.args[-1]
        zone = self.zone_ref(e)
        if zone is None:
            return None
        key = e.key if isinstance(e, ir.Index) else None
        if _reader(chooser).seen(zone, key) == "all":
            return None
        return e, [*parts, *([key] if key is not None else [])]


def binders(ruleset: ir.Ruleset, checked: Checked) -> dict[str, list[Binder]]:
    """For each local name, every place that binds it (names are one per slot in the
    engine, so all places are taken together): ``let``, ``for each x in``, a choice (its
    cards' zone for a choice of cards; none for an open choice of values), a trick's card
    and ``this`` (each ``trigger``'s cards)."""
    out: dict[str, list[Binder]] = {}
    types = checked.types

    def add(name: str, exprs: tuple[ir.Expr, ...], secret_of: ir.Expr | None = None) -> None:
        out.setdefault(name, []).append(Binder(exprs, secret_of))

    for node in ir.walk(ruleset):
        if isinstance(node, ir.Let):
            add(node.name, (node.value,))
        elif isinstance(node, ir.ForEachIn):
            add(node.var, (node.coll,))
        elif isinstance(node, ir.Choose):
            cards = elem_type(types.get(id(node.domain), "")) == "card"
            add(node.name, (node.domain,) if cards else (),
                node.player if node.secret else None)
        elif isinstance(node, ir.Trick):
            add(node.card_var, (node.source,))
        elif isinstance(node, ir.Trigger):
            add("this", (node.cards,))
    return out


@dataclass
class _Reader:
    """The chooser as written, and whether a seat written the same way is that seat."""

    who: str

    def seen(self, zone_or_var: ir.ZoneDecl | ir.VarDecl, key: ir.Expr | None,
             others: frozenset[str] = frozenset(), sure: bool = True) -> str:
        """How much the chooser is proven to see of ``zone_or_var`` (indexed by ``key``),
        by :func:`sight`: the owner is the chooser when ``key`` is written as the chooser
        (and ``sure``), else taken to be another seat."""
        owner = None if key is None else 0 if sure and self.is_chooser(key, others) else 1
        return sight(zone_or_var.visibility, owner, 0)

    def is_chooser(self, key: ir.Expr, others: frozenset[str]) -> bool:
        names = {n.id for n in nodes_of(key, ir.Name)}
        return expr_text(key) == self.who and "it" not in names and not names & others


def _reader(chooser: ir.Expr) -> _Reader:
    return _Reader(expr_text(chooser))


class _Reads(NodeVisitor):
    """Collects the :class:`Read` of an expression for one chooser (see the module's
    rule), following local names to where they are bound."""

    def __init__(self, sight_: Sight, chooser: ir.Expr, others: frozenset[str]) -> None:
        self.s, self.reader, self.others = sight_, _reader(chooser), others
        self.found: list[Read] = []
        self.through: list[str] = []  # the local names being followed, outermost first

    def visit_Call(self, e: ir.Call) -> None:
        zone = self.s.zone_ref(e.args[0]) if len(e.args) == 1 else None
        if zone is not None and (e.func in COUNTS or (
                e.func == "top" and self._seen(zone, e.args[0]) == "top")):
            self._key(e.args[0])  # how many, or the card all see: which seat's zone only
            return
        self.generic_visit(e)

    def visit_Name(self, e: ir.Name) -> None:
        cat = self.s.category(e)
        if cat in ("zone", "pzone"):
            self._zone(e)
        elif cat in ("var", "tvar", "pvar"):
            self._var(e, self.s.vars[e.id], None)
        elif cat == "local":
            self._local(e)

    def visit_Index(self, e: ir.Index) -> None:
        cat = self.s.category(e.obj)
        if cat == "pzone":
            self._zone(e)
        elif cat == "pvar":
            assert isinstance(e.obj, ir.Name)  # resolved as a player variable
            self._var(e, self.s.vars[e.obj.id], e.key)
        else:
            self.generic_visit(e)
            return
        self.visit(e.key)

    def visit_Attr(self, e: ir.Attr) -> None:
        var = self.s.vars.get(e.name)
        if var is not None and var.scope == "card":
            self._var(e, var, None)
        self.generic_visit(e)

    # ------------------------------------------------------------ what is read
    def _seen(self, zone: ir.ZoneDecl | ir.VarDecl, e: ir.Expr) -> str:
        key = e.key if isinstance(e, ir.Index) else None
        return self.reader.seen(zone, key, self.others, self._sure(key))

    def _sure(self, key: ir.Expr | None) -> bool:
        """Whether a seat written as the chooser is the chooser: always where the choice
        is written; through a local name only when written with local names (which do not
        change in their scope; a variable may have)."""
        return not self.through or key is None or all(
            self.s.category(n) == "local" for n in nodes_of(key, ir.Name))

    def _key(self, e: ir.Expr) -> None:
        if isinstance(e, ir.Index):
            self.visit(e.key)

    def _zone(self, e: ir.Expr) -> None:
        zone = self.s.zone_ref(e)
        assert zone is not None  # resolved as a zone
        if self._seen(zone, e) != "all":
            self._add(e, expr_text(e), self._why(zone.visibility, e, "its cards"), True)

    def _var(self, e: ir.Expr, var: ir.VarDecl, key: ir.Expr | None) -> None:
        if var.visibility == "public":
            return
        if self.reader.seen(var, key, self.others, self._sure(key)) != "all":
            self._add(e, f"'{expr_text(e)}'", self._why(var.visibility, e, "it"), False)

    def _why(self, visibility: str, e: ir.Expr, what: str) -> str:
        if visibility == "hidden":
            return f"hidden: no seat sees {what}"
        if visibility == "top":
            return "only its top card is shown"
        if not isinstance(e, ir.Index):
            return f"only its owner sees {what}, and no one seat is named"
        if expr_text(e.key) == self.reader.who and not self._sure(e.key):
            return (f"only its owner sees {what}, and '{expr_text(e.key)}' may have named "
                    f"another seat when '{self.through[0]}' was worked out")
        return f"only its owner sees {what}, and its seat is not written '{self.reader.who}'"

    def _local(self, e: ir.Name) -> None:
        name = e.id
        if name in self.others or name in self.through:
            return
        start = len(self.found)
        self.through.append(name)
        for b in self.s.binders.get(name, []):
            if b.secret_of is not None and not (
                    self.reader.is_chooser(b.secret_of, self.others)
                    and all(self.s.category(n) == "local" for n in nodes_of(b.secret_of, ir.Name))):
                self._add(e, f"'{name}'", f"a secret choice of {expr_text(b.secret_of)}",
                          False)
            for x in b.exprs:
                self.visit(x)
        self.through.pop()
        if not self.through:  # shown at the name read here, through it
            self.found[start:] = [Read(e, f"{r.text} (through '{name}')", r.why, r.cards)
                                  if r.expr is not e else r for r in self.found[start:]]

    def _add(self, e: ir.Expr, text: str, why: str, cards: bool) -> None:
        self.found.append(Read(e, text, why, cards))



def pick_errors(sight_: Sight, what: str, name: str, chooser: ir.Expr, who: str,
                domain: ir.Expr, where: ir.Expr | None) -> list[tuple[str, ir.Expr]]:
    """The errors of a decision by the module's rule: ``(message, where)`` pairs.

    Args:
        sight_: the ruleset's :class:`Sight`.
        what: the decision as messages name it (``'pick'``).
        name: the name its ``where`` binds to the candidate.
        chooser, who: the deciding seat's expression, and how messages name it.
        domain, where: the candidates and their filter (or None).
    """
    out: list[tuple[str, ir.Expr]] = []
    cards = sight_.holds_cards(domain)
    blind = sight_.by_position(domain, chooser) if cards else None
    if blind is not None:
        _zone, parts = blind  # which cards, by position: none is read
        reads = [r for part in parts for r in sight_.reads(part, chooser)]
    else:
        reads = sight_.reads(domain, chooser)
    for r in reads:
        if cards and r.cards:
            out.append((f"{what} is picked blind from {r.text}, which {who} cannot see "
                        f"({r.why}): it may take cards by position (top, first...) but not "
                        "test them", r.expr))
        else:
            out.append((f"the options of {what} are worked out from {r.text}, which {who} "
                        f"cannot see ({r.why}): listing them would show "
                        f"{_shown(r)}", r.expr))
    if where is None:
        return out
    if blind is not None and any(n.id == name for n in nodes_of(where, ir.Name)):
        out.append((f"{what} is picked blind (by position) from cards {who} cannot "
                    f"see: its 'where' cannot test the card", where))
    for r in sight_.reads(where, chooser, frozenset({name})):
        out.append((f"the 'where' of {what} reads {r.text}, which {who} cannot see "
                    f"({r.why}): the options listed would show {_shown(r)}", r.expr))
    return out


def _shown(r: Read) -> str:
    return "those cards" if r.cards else "its value"


def unseen_options(ctx: Context, sight_: Sight) -> None:
    """Report every choice and every trick's play whose options read what the chooser
    cannot see (the module's rule). Runs once every statement is checked, so that every
    name read, wherever it is bound, is resolved."""
    for node in ir.walk(ctx.r):
        if isinstance(node, ir.Choose):
            errors = pick_errors(sight_, f"'{node.name}'", node.name, node.player,
                                 expr_text(node.player), node.domain, node.where)
        elif isinstance(node, ir.Trick):
            # The play is a choice of a card by the player whose turn it is.
            errors = pick_errors(sight_, f"the card played ('{node.card_var}')",
                                 node.card_var, ir.Name(id="player", span=node.span),
                                 "the player", node.source, node.where)
        else:
            continue
        for message, e in errors:
            ctx.error(message, e.span)
