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

from dataclasses import dataclass, replace
from typing import NamedTuple

from .. import ir
from ..show import expr_text
from ..visibility import sight
from ..visitor import NodeVisitor, nodes_of
from .locals import binders, dependency_order
from .shown import shown_at
from .steady import ANY_VAR, changing
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
class _Item:
    """A read of something not every seat sees, before a chooser is known.

    Attributes:
        expr, text, cards: as :class:`Read`.
        visibility: the zone's or variable's (``owner``, ``hidden``, ``top``), or
            ``secret`` for another chooser's secret choice.
        what: how the reason names it (``its cards``, ``it``).
        key: the seat it belongs to as written (``hand[KEY]``, the secret chooser), if any.
        names: the names in ``key``.
        settled: ``key`` is written with local names and constants only, which do not
            change in their scope (a variable may change between two statements), or
            with variables that nothing assigns in the scope of the local name whose
            binding reads this (:mod:`.steady`).
        moving: the global variables ``key`` is written with (for :mod:`.steady`);
            ``None`` when it reads another name that may change.
    """

    expr: ir.Expr
    text: str
    cards: bool
    visibility: str
    what: str
    key: str | None
    names: frozenset[str]
    settled: bool
    moving: frozenset[str] | None = None

    def judge(self, who: str, others: frozenset[str], earlier: str | None
              ) -> Read | None:
        """The :class:`Read` when chooser ``who`` (as written) is not proven to see this,
        by :func:`sight`: the owner is the chooser only when ``key`` is written as the
        chooser, stands for no seat in turn (``it``, ``others``), and, when read
        ``earlier`` than the decision (in the place that binds local ``earlier``, or ``""``
        for a value kept since), is settled."""
        mine = self.key == who and not self.names & {"it", *others} and (
            self.settled or earlier is None)
        if self.visibility == "secret":
            if mine and self.settled:
                return None
            return Read(self.expr, self.text, f"a secret choice of {self.key}", False)
        if sight(self.visibility, None if self.key is None else 0 if mine else 1, 0) == "all":
            return None
        return Read(self.expr, self.text, self._why(who, others, earlier), self.cards)

    def _why(self, who: str, others: frozenset[str], earlier: str | None) -> str:
        what = self.what
        if self.visibility == "hidden":
            return f"hidden: no seat sees {what}"
        if self.visibility == "top":
            return "only its top card is shown"
        if self.key is None:
            return f"only its owner sees {what}, and no one seat is named"
        if self.names & {"it", *others}:
            return f"only its owner sees {what}, and '{self.key}' here is each seat in turn"
        if self.key == who:
            when = f"'{earlier}' was" if earlier else "it was"
            return (f"only its owner sees {what}, and '{self.key}' may have named another "
                    f"seat when {when} worked out")
        return f"only its owner sees {what}, and its seat is not written '{who}'"


class _Summary(NamedTuple):
    """What an expression reads that not every seat sees: the reads, and the local names
    read (whose values are worked out elsewhere)."""

    items: list[_Item]
    names: list[ir.Name]


class Sight:
    """What the text proves a seat sees: the ruleset's zones, variables and local names.

    Args:
        ruleset: the checked ruleset.
        checked: its validator result (names resolved in ``res``, types in ``types``).
    """

    def __init__(self, ruleset: ir.Ruleset, checked: Checked) -> None:
        self.zones = {z.name: z for z in ruleset.zones}
        self.vars = {v.name: v for v in ruleset.vars}
        self.res, self.types, self.local_types = checked.res, checked.types, \
            checked.local_types
        self.binders = binders(ruleset, checked)
        self.changing = self._through_lets(changing(ruleset))
        self.shown_in_play = shown_in_play(ruleset)
        self._bound: dict[str, _Summary] = {}  # local name -> what its binders read
        self._order: list[list[str]] | None = None
        self._witness: dict[str, dict[str, Read | None]] = {}  # chooser -> name -> read

    def _through_lets(self, changing: dict[str, frozenset[str]]) -> dict[str, frozenset[str]]:
        """``changing`` where a name read through another (``let c2 = card``) counts the
        variables that may change in the other's scope too: the value is read as long as
        either name is (``card`` settled in its own scope was read, through ``c2``, after
        ``turn`` had changed)."""
        derived: dict[str, set[str]] = {}
        for name, binds in self.binders.items():
            for b in binds:
                for e in b.exprs:
                    for n in nodes_of(e, ir.Name):
                        if n.id in self.binders and n.id != name:
                            derived.setdefault(n.id, set()).add(name)
        out = dict(changing)
        for name in derived:
            acc, seen, todo = set(changing.get(name, {ANY_VAR})), {name}, [name]
            while todo:
                for d in derived.get(todo.pop(), ()):
                    if d not in seen:
                        seen.add(d)
                        acc |= changing.get(d, {ANY_VAR})
                        todo.append(d)
            out[name] = frozenset(acc)
        return out

    def category(self, e: ir.Expr) -> str:
        """What a name resolved to (``zone``, ``pzone``, ``var``, ``pvar``, ``local``...),
        or the empty string."""
        return self.res.get(id(e), ("", ""))[0] if isinstance(e, ir.Name) else ""

    def repointed(self, name: str) -> bool:
        """Whether local ``name`` only ever holds a card or cards (its one slot is
        re-pointed in samples, see :func:`rulesplay.engine.observe.repoint_cards`)."""
        return self.local_types.get(name) in ("card", "list:card")

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

    def reads(self, e: ir.Expr, chooser: ir.Expr, others: frozenset[str] = frozenset(),
              earlier: bool = False, binding: str | None = None) -> list[Read]:
        """What ``e`` reads that the text does not prove ``chooser`` sees, in the order
        written.

        Args:
            e: the expression.
            chooser: the deciding seat's expression.
            others: local names that stand for any seat or value here (a choice's
                candidate in its ``where``, a loop's seat in its ``ordered by``): never
                followed, never the chooser.
            earlier: ``e`` is worked out before the decision (not where it is written),
                so a seat written as the chooser is the chooser only when written with
                local names, or with variables nothing assigns in the scope of local
                ``binding`` (the name ``e`` is given to) up to its last read.
        """
        who = expr_text(chooser)
        found = self._summary([e])
        items = found.items if binding is None else \
            [self.steady(item, binding) for item in found.items]
        out = [r for item in items
               if (r := item.judge(who, others, "" if earlier else None)) is not None]
        for name in found.names:
            r = None if name.id in others else self.witness(name.id, who)
            if r is not None:
                text = r.text if r.text == f"'{name.id}'" else f"{r.text} (through '{name.id}')"
                out.append(Read(name, text, r.why, r.cards))
        return sorted(out, key=lambda r: (r.expr.span.line, r.expr.span.col))

    def witness(self, name: str, who: str) -> Read | None:
        """The first read, through local ``name`` (every place that binds it, and the
        names those read in turn), of something chooser ``who`` is not proven to see."""
        table = self._witness.get(who)
        if table is None:
            table = self._witness[who] = self._witnesses(who)
        return table.get(name)

    def _witnesses(self, who: str) -> dict[str, Read | None]:
        """:meth:`witness` of every local name for chooser ``who``, worked out once: names
        in dependency order, each from its own binders, else from a name it reads."""
        if self._order is None:
            self._order = dependency_order(
                self.binders, lambda n: [x.id for x in self._bound_by(n).names])
        out: dict[str, Read | None] = {}
        for group in self._order:
            found = next((r for m in group for item in self._bound_by(m).items
                          if (r := item.judge(who, frozenset(), m)) is not None), None)
            if found is None:
                found = next((out[x.id] for m in group for x in self._bound_by(m).names
                              if out.get(x.id) is not None), None)
            out.update(dict.fromkeys(group, found))
        return out

    def _bound_by(self, name: str) -> _Summary:
        summary = self._bound.get(name)
        if summary is None:
            binds = self.binders.get(name, [])
            summary = self._summary([x for b in binds for x in b.exprs])
            # A seat written with variables nothing assigns in the name's scope is the
            # same seat wherever the name is read.
            summary = self._bound[name] = _Summary(
                [self.steady(item, name) for item in summary.items], summary.names)
            for b in binds:
                if b.secret_of is not None:
                    summary.items.append(self.item(
                        ir.Name(id=name, span=b.secret_of.span), f"'{name}'", False, "secret",
                        "it", b.secret_of))
        return summary

    def steady(self, item: _Item, name: str) -> _Item:
        """``item`` read in binding local ``name``, settled when its seat is written with
        variables that nothing assigns in the scope of ``name`` (:mod:`.steady`)."""
        changed = self.changing.get(name, frozenset({ANY_VAR}))
        if item.settled or item.moving is None or item.moving & changed \
                or ANY_VAR in changed:
            return item
        return replace(item, settled=True)

    def _summary(self, exprs: list[ir.Expr]) -> _Summary:
        collect = _Collect(self)
        for e in exprs:
            collect.visit(e)
        return _Summary(collect.items, collect.names)

    def item(self, e: ir.Expr, text: str, cards: bool, visibility: str, what: str,
             key: ir.Expr | None) -> _Item:
        """A read at ``e`` of something declared ``visibility`` belonging to seat ``key``
        (see :class:`_Item`)."""
        names = [] if key is None else list(nodes_of(key, ir.Name))
        cats = {n.id: self.category(n) for n in names}
        moving = frozenset(n for n, cat in cats.items() if cat == "var")
        fixed = all(cat in ("local", "var", "option", "players") for cat in cats.values())
        return _Item(e, text, cards, visibility, what,
                     None if key is None else expr_text(key),
                     frozenset(cats), not moving and fixed, moving if fixed else None)

    def by_position(self, e: ir.Expr) -> tuple[ir.Expr, ir.ZoneDecl, list[ir.Expr]] | None:
        """When ``e`` is a zone, or cards taken from one by position only (``first(2,
        deck)``): that zone reference, the zone, and what else is read (the ``2``, the
        seat of ``hand[q]``); else None. No card of the zone is read."""
        parts: list[ir.Expr] = []
        while isinstance(e, ir.Call) and e.func in POSITIONAL and e.args:
            parts.extend(e.args[:-1])
            e = e.args[-1]
        zone = self.zone_ref(e)
        if zone is None:
            return None
        key = e.key if isinstance(e, ir.Index) else None
        return e, zone, [*parts, *([key] if key is not None else [])]

    def blind(self, e: ir.Expr, chooser: ir.Expr) -> list[ir.Expr] | None:
        """When card domain ``e`` is taken by position (:meth:`by_position`) from a zone
        the text does not prove ``chooser`` sees whole (a blind pick, maybe): what else
        it reads; else None."""
        found = self.by_position(e)
        if found is None:
            return None
        ref, zone, parts = found
        item = self.item(ref, "", True, zone.visibility, "",
                          ref.key if isinstance(ref, ir.Index) else None)
        seen = zone.visibility == "public" or item.judge(expr_text(chooser), frozenset(),
                                                         None) is None
        return None if seen else parts


class _Collect(NodeVisitor):
    """The reads of an expression that not every seat sees (:class:`_Item`) and the local
    names it reads, for any chooser (see the module's rule)."""

    def __init__(self, sight_: Sight) -> None:
        self.s = sight_
        self.items: list[_Item] = []
        self.names: list[ir.Name] = []

    def visit_Call(self, e: ir.Call) -> None:
        zone = self.s.zone_ref(e.args[0]) if len(e.args) == 1 else None
        if zone is not None and (e.func in COUNTS or (
                e.func == "top" and zone.visibility == "top")):
            if isinstance(e.args[0], ir.Index):  # how many, or the card all see: which
                self.visit(e.args[0].key)  # seat's zone is all that is read
            return
        self.generic_visit(e)

    def visit_Name(self, e: ir.Name) -> None:
        cat = self.s.category(e)
        if cat in ("zone", "pzone"):
            self._zone(e, None)
        elif cat in ("var", "tvar", "pvar"):
            self._var(e, self.s.vars[e.id], None)
        elif cat == "local":
            self.names.append(e)

    def visit_Index(self, e: ir.Index) -> None:
        cat = self.s.category(e.obj)
        if cat == "pzone":
            self._zone(e, e.key)
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

    def _zone(self, e: ir.Expr, key: ir.Expr | None) -> None:
        zone = self.s.zone_ref(e)
        assert zone is not None  # resolved as a zone
        if zone.visibility != "public":
            self.items.append(self.s.item(e, expr_text(e), True, zone.visibility,
                                           "its cards", key))

    def _var(self, e: ir.Expr, var: ir.VarDecl, key: ir.Expr | None) -> None:
        if var.visibility != "public":
            self.items.append(self.s.item(e, f"'{expr_text(e)}'", False, var.visibility,
                                           "it", key))


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
    blind = sight_.blind(domain, chooser) if cards else None
    zone = sight_.zone_ref(domain) if blind is not None else None
    # A zone the text shows in play: its cards (the candidate, the zone as written) are
    # judged when the options are listed; a blind pick then may not read them.
    in_play = expr_text(domain) if zone is not None and zone.name in sight_.shown_in_play \
        else None
    if blind is not None:  # which cards, by position: none is read
        reads = [r for part in blind for r in sight_.reads(part, chooser)]
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
    if blind is not None and in_play is None and any(
            n.id == name for n in nodes_of(where, ir.Name)):
        out.append((f"{what} is picked blind (by position) from cards {who} cannot "
                    f"see: its 'where' cannot test the card", where))
    for r in sight_.reads(where, chooser, frozenset({name})):
        if in_play is not None and expr_text(r.expr) == in_play:
            continue
        out.append((f"the 'where' of {what} reads {r.text}, which {who} cannot see "
                    f"({r.why}): the options listed would show {_shown(r)}", r.expr))
    return out


def shown_in_play(ruleset: ir.Ruleset) -> set[str]:
    """The zones the text may show in play: named by a ``reveal``, or declared with a
    ``seen by``. A choice from one is judged when its options are listed (a blind pick
    then may not test the cards: :class:`~rulesplay.engine.choices.BlindPick`)."""
    out = {z.name for z in ruleset.zones if z.seen_by is not None}
    for node in ir.walk(ruleset):
        if isinstance(node, ir.Reveal) and node.shown:
            base = node.zone.obj if isinstance(node.zone, ir.Index) else node.zone
            if isinstance(base, ir.Name):
                out.add(base.id)
    return out


def reads_cards_of(where: ir.Expr, name: str, zone: ir.Expr, ruleset: ir.Ruleset) -> bool:
    """Whether ``where`` tests candidate ``name``, or, for a zone the text shows in play
    (:func:`shown_in_play`), reads the cards of zone reference ``zone`` as written
    (``hand[dummy]``, not only how many): what a pick among its cards may read only while
    its chooser sees them (a blind pick by position may not)."""
    if any(n.id == name for n in nodes_of(where, ir.Name)):
        return True
    base = zone.obj if isinstance(zone, ir.Index) else zone
    if not isinstance(base, ir.Name) or base.id not in shown_in_play(ruleset):
        return False
    text = expr_text(zone)

    def reads(e: ir.Node) -> bool:
        if isinstance(e, ir.Call) and e.func in COUNTS and len(e.args) == 1:
            return False  # how many: never which
        if isinstance(e, ir.Index | ir.Name) and expr_text(e) == text:
            return True
        return any(reads(c) for c in e.children())
    return reads(where)


def _play_errors(sight_: Sight, t: ir.Trick) -> list[tuple[str, ir.Expr]]:
    """The errors of a trick's play: a choice of a card by the player whose turn it is, or
    by the seat ``chosen by`` names. A ``chosen by`` written ``A if TEST else B`` is checked
    as two choices, by A and by B, each from the matching branch of a source written
    ``X if TEST else Y`` with the same TEST (``hand[dummy]`` chosen by the declarer, every
    other hand by its own player), its ``where`` read without the branches of the same TEST
    that the case never takes."""
    what = f"the card played ('{t.card_var}')"
    if t.chosen_by is None:
        return pick_errors(sight_, what, t.card_var, ir.Name(id="player", span=t.span),
                           "the player", t.source, t.where)
    by, src = t.chosen_by, t.source
    if not isinstance(by, ir.Cond):
        return pick_errors(sight_, what, t.card_var, by, f"the seat choosing ('{expr_text(by)}')",
                           src, t.where)
    test = expr_text(by.test)
    out: list[tuple[str, ir.Expr]] = []
    for chooser, holds in ((by.then, True), (by.other, False)):
        source = (src.then if holds else src.other) \
            if isinstance(src, ir.Cond) and expr_text(src.test) == test else src
        # The branches of the 'where' that this case never takes (same TEST) are not read.
        conds = nodes_of(t.where, ir.Cond) if t.where is not None else iter(())
        dead = {id(n) for c in conds if expr_text(c.test) == test
                for n in nodes_of(c.other if holds else c.then, ir.Node)}
        who = f"the seat choosing ('{expr_text(chooser)}')"
        for err in pick_errors(sight_, what, t.card_var, chooser, who, source, t.where):
            if err not in out and id(err[1]) not in dead:
                out.append(err)
    return out


def _shown(r: Read) -> str:
    return "those cards" if r.cards else "its value"


def unseen_options(ctx: Context, sight_: Sight) -> None:
    """Report every choice and every trick's play whose options read what the chooser
    cannot see (the module's rule). Runs once every statement is checked, so that every
    name read, wherever it is bound, is resolved. A variable revealed where the choice is
    made (``reveal VAR`` before it in its block, :mod:`.shown`) is seen by its chooser."""
    shown_where = shown_at(ctx.r)
    for node in ir.walk(ctx.r):
        if isinstance(node, ir.Choose):
            if node.cards is not None and sight_.holds_cards(node.domain) and \
                    sight_.blind(node.domain, node.player) is not None:
                ctx.error(f"'{node.name}' chooses several cards from "
                          f"{expr_text(node.domain)}, which '{expr_text(node.player)}' "
                          "cannot see: a set is chosen only from cards its chooser sees",
                          node.domain.span)
                continue
            errors = pick_errors(sight_, f"'{node.name}'", node.name, node.player,
                                 expr_text(node.player), node.domain, node.where)
            errors += [(f"whether '{node.name}' may be skipped is worked out from "
                        f"{r.text}, which {expr_text(node.player)} cannot see ({r.why}):"
                        f" the options listed would show {_shown(r)}", r.expr)
                       for k in node.skips() if k.test is not None
                       for r in sight_.reads(k.test, node.player)]
        elif isinstance(node, ir.Trick):
            player = ir.Name(id="player", span=node.span)
            if node.cards is not None and sight_.holds_cards(node.source) and \
                    sight_.blind(node.source, player) is not None:
                ctx.error(f"a play of several cards ('{node.card_var}') is made from "
                          f"{expr_text(node.source)}, which the player cannot see: a set "
                          "is played only from cards its player sees", node.source.span)
                continue
            errors = _play_errors(sight_, node)
        else:
            continue
        shown = shown_where.get(id(node), frozenset())
        for message, e in errors:
            if _var_read(e, sight_) not in shown:
                ctx.error(message, e.span)


def _var_read(e: ir.Expr, sight_: Sight) -> str | None:
    """The variable ``e`` reads (``x``, ``x[p]``), or None."""
    name = e.id if isinstance(e, ir.Name) else \
        e.obj.id if isinstance(e, ir.Index) and isinstance(e.obj, ir.Name) else None
    return name if name in sight_.vars else None
