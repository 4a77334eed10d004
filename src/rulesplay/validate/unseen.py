"""What a chooser cannot see, as far as the text tells: a choice's options may not depend on it.

The options of a choice are listed to its chooser, so they tell what they were worked out
from. A choice of *values* (``values(hand[left of p], it.colour)``, ``colour where
any(hand[left of p], ...)``) worked out from cards its chooser cannot see would show those
cards: an error. A choice of *cards* from cards its chooser cannot see is a blind pick by
position (the engine lists positions, never cards): legal, but its ``where`` may not test
the card, and its cards may not be filtered by what is printed on them. A trick's play is
such a choice of a card by the player whose turn it is (a trick played from face-down
piles, or from the hand of the seat on the left, is played blind): the same rule holds.

A zone is unseen by the chooser when it is ``hidden`` or ``top`` (all but the top card), or
when it is an ``owner`` zone of another seat: written ``hand[left of p]`` or ``hand[right of
p]`` for chooser ``p``. A seat the text does not pin down (``hand[q]``) is left to the run
time. Counting a zone's cards (``count(deck)``) and taking cards by position (``top``,
``bottom``, ``first``, ``last``) read no card, so they are allowed; ``top(Z)`` of a ``top``
zone reads the card all see.
"""

from __future__ import annotations

from .. import ir
from ..show import expr_text
from ..visitor import NodeVisitor, nodes_of

POSITIONAL = ("top", "bottom", "first", "last")


def unseen_zone(e: ir.Expr, chooser: ir.Expr, zones: dict[str, ir.ZoneDecl],
                candidate: str | None = None) -> str | None:
    """The text of zone reference ``e`` when the text shows that ``chooser`` cannot see
    all of it, else None (also when ``e`` is not a zone reference). ``candidate`` is the
    name of a choice of seats being filtered: ``hand[q]`` for that name is every seat's
    zone in turn, so others' too."""
    if isinstance(e, ir.Name) and e.id in zones and not zones[e.id].per_player:
        return e.id if zones[e.id].visibility in ("hidden", "top") else None
    if not (isinstance(e, ir.Index) and isinstance(e.obj, ir.Name) and e.obj.id in zones):
        return None
    vis = zones[e.obj.id].visibility
    if vis == "public":
        return None
    if vis in ("hidden", "top"):
        return expr_text(e)
    who = expr_text(chooser)
    if isinstance(e.key, ir.Seat) and expr_text(e.key.of) == who:
        return expr_text(e)  # another seat's own zone
    if candidate is not None and isinstance(e.key, ir.Name) and e.key.id == candidate:
        return expr_text(e)  # each candidate seat's own zone, others' included
    return None


def blind_source(e: ir.Expr, chooser: ir.Expr, zones: dict[str, ir.ZoneDecl]
                 ) -> tuple[ir.Expr, list[ir.Expr]] | None:
    """When card domain ``e`` is a zone ``chooser`` cannot see, or cards taken from one by
    position only (``first(2, deck)``): that zone reference and the positional arguments
    (the ``2``); else None."""
    counts: list[ir.Expr] = []
    while isinstance(e, ir.Call) and e.func in POSITIONAL and e.args:
        counts.extend(e.args[:-1])
        e = e.args[-1]
    if unseen_zone(e, chooser, zones) is None:
        return None
    return e, counts


class UnseenReads(NodeVisitor):
    """Collects ``(expression, zone text)`` of every place an expression reads cards that
    ``chooser`` cannot see (see the module's rule).

    Args:
        chooser: the choosing seat's expression.
        zones: the ruleset's zones by name.
    """

    def __init__(self, chooser: ir.Expr, zones: dict[str, ir.ZoneDecl],
                 lets: dict[str, list[ir.Expr]] | None = None,
                 candidate: str | None = None) -> None:
        self.chooser, self.zones = chooser, zones
        self.lets, self.candidate = lets or {}, candidate
        self.found: list[tuple[ir.Expr, str]] = []

    def run(self, e: ir.Expr, blind_ok: bool = False) -> list[tuple[ir.Expr, str]]:
        """The reads of unseen cards in ``e``, in order; with ``blind_ok``, ``e`` may be a
        blind pick's source (:func:`blind_source`)."""
        source = blind_source(e, self.chooser, self.zones) if blind_ok else None
        if source is None:
            self.visit(e)
        else:
            zone, counts = source
            for part in [*counts, *zone.children()]:
                self.visit(part)  # how many, and which seat's zone: no card is read
        return self.found

    def visit_Call(self, e: ir.Call) -> None:
        if e.func == "count" and len(e.args) == 1 and self._zone_ref(e.args[0]):
            self.generic_visit(e.args[0])  # how many cards: public
            return
        if e.func == "top" and len(e.args) == 1 and self._zone_ref(e.args[0]) and \
                self._visibility(e.args[0]) == "top":
            return  # the top card of a 'top' zone: everyone sees it
        self.generic_visit(e)

    def visit_Name(self, e: ir.Name) -> None:
        self._check(e)
        for z in self.lets.get(e.id, []):  # a 'let' name worked out from a zone's cards
            zone = unseen_zone(z, self.chooser, self.zones)
            if zone is not None:
                self.found.append((e, f"{zone} (through '{e.id}')"))

    def visit_Index(self, e: ir.Index) -> None:
        self._check(e)
        self.generic_visit(e)

    def _check(self, e: ir.Expr) -> None:
        zone = unseen_zone(e, self.chooser, self.zones, self.candidate)
        if zone is not None:
            self.found.append((e, zone))

    def _zone_ref(self, e: ir.Expr) -> bool:
        if isinstance(e, ir.Name):
            return e.id in self.zones
        return isinstance(e, ir.Index) and isinstance(e.obj, ir.Name) and e.obj.id in self.zones

    def _visibility(self, e: ir.Expr) -> str:
        base = e.obj if isinstance(e, ir.Index) else e
        assert isinstance(base, ir.Name)  # a zone reference (see _zone_ref)
        return self.zones[base.id].visibility


def let_reads(ruleset: ir.Ruleset) -> dict[str, list[ir.Expr]]:
    """For each ``let`` name, the zone references whose cards its value reads (a count of
    a zone reads none), wherever the name is bound."""
    out: dict[str, list[ir.Expr]] = {}
    for let in nodes_of(ruleset, ir.Let):
        refs = _ZoneRefs()
        refs.visit(let.value)
        out.setdefault(let.name, []).extend(refs.found)
    return out


class _ZoneRefs(NodeVisitor):
    """The zone references an expression reads cards of (not inside ``count``)."""

    def __init__(self) -> None:
        self.found: list[ir.Expr] = []

    def visit_Call(self, e: ir.Call) -> None:
        if e.func != "count":
            self.generic_visit(e)

    def visit_Name(self, e: ir.Name) -> None:
        self.found.append(e)

    def visit_Index(self, e: ir.Index) -> None:
        self.found.append(e)
        self.generic_visit(e)


def choice_errors(s: ir.Choose, card_choice: bool, zones: dict[str, ir.ZoneDecl],
                  lets: dict[str, list[ir.Expr]] | None = None
                  ) -> list[tuple[str, ir.Expr]]:
    """The errors of choice ``s`` by the module's rule: ``(message, where)`` pairs.

    Args:
        s: the choice.
        card_choice: its domain holds cards (else values).
        zones: the ruleset's zones by name.
        lets: what each ``let`` name reads (:func:`let_reads`), so that options worked out
            through a name are checked like options worked out directly.
    """
    return pick_errors(f"'{s.name}'", s.name, s.player, expr_text(s.player), s.domain,
                       s.where, card_choice, zones, lets)


def trick_errors(t: ir.Trick, zones: dict[str, ir.ZoneDecl],
                 lets: dict[str, list[ir.Expr]] | None = None) -> list[tuple[str, ir.Expr]]:
    """The errors of trick ``t``'s play by the module's rule, the play being a choice of a
    card by ``player`` (the seat whose turn it is) from the trick's source: from a face-down
    pile or another seat's hand it is a blind pick, so its ``where`` may not test the card
    (``follow suit`` cannot be checked on cards nobody sees), and no ``where`` may read cards
    the player cannot see. Arguments as :func:`choice_errors`."""
    player = ir.Name(id="player", span=t.span)
    return pick_errors(f"the card played ('{t.card_var}')", t.card_var, player, "the player",
                       t.source, t.where, True, zones, lets)


def pick_errors(what: str, name: str, chooser: ir.Expr, who: str, domain: ir.Expr,
                where: ir.Expr | None, card_choice: bool, zones: dict[str, ir.ZoneDecl],
                lets: dict[str, list[ir.Expr]] | None = None) -> list[tuple[str, ir.Expr]]:
    """The errors of a decision by the module's rule: ``(message, where)`` pairs.

    Args:
        what: the decision as messages name it (``'pick'``).
        name: the name its ``where`` binds to the candidate.
        chooser, who: the deciding seat's expression, and how messages name it.
        domain, where: the candidates and their filter (or None).
        card_choice: the candidates are cards (else values).
        zones, lets: as :func:`choice_errors`.
    """
    out: list[tuple[str, ir.Expr]] = []
    reads = UnseenReads(chooser, zones, lets).run(domain, blind_ok=card_choice)
    for e, zone in reads:
        if card_choice:
            out.append((f"{what} is picked blind from {zone}, which {who} cannot see: "
                        "it may take cards by position (top, first...) but not test "
                        "them", e))
        else:
            out.append((f"the options of {what} are worked out from {zone}, which "
                        f"{who} cannot see: listing them would show those cards", e))
    if where is None:
        return out
    blind = card_choice and blind_source(domain, chooser, zones) is not None
    if blind and any(n.id == name for n in nodes_of(where, ir.Name)):
        out.append((f"{what} is picked blind (by position) from cards {who} cannot "
                    f"see: its 'where' cannot test the card", where))
    for e, zone in UnseenReads(chooser, zones, lets, name).run(where):
        out.append((f"the 'where' of {what} reads {zone}, which {who} cannot see: "
                    "the options listed would show those cards", e))
    return out
