"""The ruleset as data: frozen pydantic models of the phase graph, every node with its span.

``Ruleset`` is what the parser produces, the validator checks and the engine compiles. It is
JSON round-trippable (``rulesplay compile FILE --json``; ``Ruleset.model_validate_json``).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from .errors import NO_SPAN, Span


class Node(BaseModel):
    """Base of every IR node: immutable, with the source span it came from.

    A node's children are the nodes in its fields, found from the pydantic fields (a node,
    or lists, tuples and dict values holding nodes, at any depth): a new node class needs
    no code for :meth:`children`, :func:`walk` or a :class:`rulesplay.visitor.NodeVisitor`
    to reach inside it.
    """

    model_config = ConfigDict(frozen=True)
    span: Span = NO_SPAN

    def children(self) -> Iterator[Node]:
        """The nodes held directly in this node's fields, in field order (a field's lists
        and dicts are read through, in order; ``span`` and plain values are skipped)."""
        for name in _node_fields(type(self)):
            yield from _nodes_in(getattr(self, name))


@cache
def _node_fields(cls: type[Node]) -> tuple[str, ...]:
    """The fields of ``cls`` that may hold nodes: all but ``span`` and those declared as
    plain text, numbers or yes/no (read for every node of every walk: a 950 KB ruleset
    walks millions)."""
    plain = (str, int, bool, type(None), Span)
    out = []
    for name, info in cls.model_fields.items():
        kinds = get_args(info.annotation) or (info.annotation,)
        if name != "span" and not all(k in plain or get_origin(k) is Literal for k in kinds):
            out.append(name)
    return tuple(out)


def _nodes_in(value: Any) -> Iterator[Node]:
    """The outermost nodes in ``value``: itself if a node, else those in its items."""
    if isinstance(value, Node):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _nodes_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _nodes_in(item)


class ExprNode(Node):
    """Base of every expression node (the members of :data:`Expr`)."""


class StmtNode(Node):
    """Base of every statement node (the members of :data:`Stmt`)."""


class DeclNode(Node):
    """Base of every top-level declaration (options, enums, card kinds, zones, variables,
    abilities, rules, phases): the items of a :class:`Ruleset`'s lists."""


class Sparse(Node):
    """A node with optional slots grown after its first form (``sparse`` names them): such
    a field is left out of JSON while unset, so the JSON of a ruleset that does not use it
    is as before, and reads back equal either way."""

    sparse: ClassVar[tuple[str, ...]] = ()
    written: ClassVar[tuple[str, ...]] = ()

    @model_serializer(mode="wrap")
    def _skip_unset(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        for name in (*self.written, *self.sparse):
            if not data.get(name):
                data.pop(name, None)
        return data


class Written(Sparse):
    """A node that also keeps what its text says beyond its slots (``written`` names those
    fields: clauses given twice, unknown flags, extra table cells); the validator reports
    them. Such a field is left out of JSON while empty, so a valid ruleset's JSON is as if
    the fields did not exist, and reads back equal either way."""


class Word(Node):
    """A word or phrase as the file wrote it, with its span: a part the IR has no other slot
    for (a clause given a second time, an unknown zone flag), kept for the validator."""

    text: str


class Labels(Node):
    """Display texts of a named thing: ``text`` in English, ``other`` by language code.

    A text may hold ``{expr}`` placeholders that are evaluated when shown.
    """

    text: str | None = None
    other: dict[str, str] = Field(default_factory=dict)

    def get(self, lang: str | None, fallback: str) -> str:
        """The text for ``lang`` (e.g. "ja"), else the English text, else ``fallback``."""
        if lang and lang in self.other:
            return self.other[lang]
        return self.text if self.text is not None else fallback


# ---------------------------------------------------------------- expressions


class Num(ExprNode):
    node: Literal["num"] = "num"
    value: int


class Str(ExprNode):
    node: Literal["str"] = "str"
    value: str


class Bool(ExprNode):
    node: Literal["bool"] = "bool"
    value: bool


class NoneLit(ExprNode):
    node: Literal["none"] = "none"


class Name(ExprNode):
    """A name: variable, option, enum value, zone, kind, local, ``it``, ``players`` ..."""

    node: Literal["name"] = "name"
    id: str


class Attr(ExprNode):
    """``obj.name``: a card attribute or card variable."""

    node: Literal["attr"] = "attr"
    obj: Expr
    name: str


class Index(ExprNode):
    """``obj[key]``: a per-player zone or variable of a seat, or a lookup in a table."""

    node: Literal["index"] = "index"
    obj: Expr
    key: Expr


class Call(ExprNode):
    """A builtin function call such as ``count(hand[p])`` or ``sum(zone, it.value)``."""

    node: Literal["call"] = "call"
    func: str
    args: list[Expr]


BinaryOp = Literal["or", "and", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "+", "-", "*",
                   "/", "%"]
"""Every binary operator of the language: a closed set, so IR loaded from JSON can name no
other (the engine writes the operator into generated Python source)."""

UnaryOp = Literal["-", "not"]
SeatSide = Literal["left", "right", "team", "partner"]
AssignOp = Literal["=", "+=", "-="]
MoveEnd = Literal["top", "bottom", "random"]
VarScope = Literal["global", "player", "team", "trick", "card"]
# Who sees a variable's value (the words zones use): every seat, only the seat of a player
# variable, or no seat (only the referee and the whole game's log).
VarVisibility = Literal["public", "owner", "hidden"]


class BinOp(ExprNode):
    """Arithmetic, comparison, boolean and membership operators (``op``: a :data:`BinaryOp`;
    anything else is refused when the model is built or loaded)."""

    node: Literal["binop"] = "binop"
    op: BinaryOp
    left: Expr
    right: Expr


class UnOp(ExprNode):
    """``-x`` or ``not x`` (``op``: a :data:`UnaryOp`)."""

    node: Literal["unop"] = "unop"
    op: UnaryOp
    operand: Expr


class Cond(ExprNode):
    """``then if test else other``."""

    node: Literal["cond"] = "cond"
    test: Expr
    then: Expr
    other: Expr


class TupleExpr(ExprNode):
    node: Literal["tuple"] = "tuple"
    items: list[Expr]


class ListExpr(ExprNode):
    node: Literal["list"] = "list"
    items: list[Expr]


class DictExpr(ExprNode):
    """``{3: 6, 4: 4}``: a literal table, usually indexed by ``players``."""

    node: Literal["dict"] = "dict"
    keys: list[Expr]
    values: list[Expr]


class RangeExpr(ExprNode):
    """``lo..hi``, inclusive at both ends."""

    node: Literal["range"] = "range"
    lo: Expr
    hi: Expr


class Filter(ExprNode):
    """``coll where cond``: the elements of ``coll`` for which ``cond`` holds, ``it`` bound."""

    node: Literal["filter"] = "filter"
    coll: Expr
    cond: Expr


class IsKind(ExprNode):
    """``card is kind`` (or ``is not``)."""

    node: Literal["is"] = "is"
    obj: Expr
    kind: str
    negate: bool = False


class Seat(ExprNode):
    """Seat arithmetic: ``left of p`` (clockwise next) or ``right of p``; with ``teams:``,
    ``team of p`` (p's team) and ``partner of p`` (the other seat of p's two-seat team)."""

    node: Literal["seat"] = "seat"
    side: SeatSide
    of: Expr


Expr = Annotated[
    Num | Str | Bool | NoneLit | Name | Attr | Index | Call | BinOp | UnOp | Cond | TupleExpr
    | ListExpr | DictExpr | RangeExpr | Filter | IsKind | Seat,
    Field(discriminator="node"),
]


# ---------------------------------------------------------------- statements


class Assign(StmtNode):
    """``target = value`` or ``target += value``; target is a name, ``x[seat]`` or ``card.var``."""

    node: Literal["assign"] = "assign"
    target: Expr
    op: AssignOp = "="
    value: Expr


class Let(StmtNode):
    """``let name = value``: a local name for the rest of the enclosing block."""

    node: Literal["let"] = "let"
    name: str
    value: Expr


class Move(StmtNode, Written):
    """``move CARDS to [top of|bottom of] ZONE [at random]``: one card, a filtered list, or
    a whole zone; ``at random`` (``end`` "random") puts each card at a place drawn from the
    game's generator. ``also_end``: a ``top of``/``bottom of`` written with ``at random``
    (the validator reports it)."""

    written: ClassVar[tuple[str, ...]] = ("also_end",)

    node: Literal["move"] = "move"
    cards: Expr
    to: Expr
    end: MoveEnd = "top"
    also_end: list[Word] = Field(default_factory=list)


class Shuffle(StmtNode):
    node: Literal["shuffle"] = "shuffle"
    zone: Expr


class Reveal(StmtNode):
    """``reveal ZONE`` (``shown``): from now on every seat sees the zone's cards;
    ``hide ZONE``: the zone is back to its declared visibility. ZONE is a shared zone or one
    seat's zone (``hand[dummy]``)."""

    node: Literal["reveal"] = "reveal"
    zone: Expr
    shown: bool = True


class Deal(StmtNode):
    """``deal [up to] N from SRC to ZONE [starting with SEAT]``: one card at a time, in seat
    order; ``up to`` deals as many as possible so that every hand gets the same number.
    ``deal all from ...`` (``count`` None) deals every card round the table, so the first
    seats may get one more."""

    node: Literal["deal"] = "deal"
    count: Expr | None
    up_to: bool = False
    source: Expr
    to: str
    start: Expr | None = None


class If(StmtNode):
    node: Literal["if"] = "if"
    tests: list[Expr]
    bodies: list[list[Stmt]]
    orelse: list[Stmt] = Field(default_factory=list)


class Repeat(StmtNode):
    """``repeat N times [as i]`` (count given) or ``repeat while COND`` (test given)."""

    node: Literal["repeat"] = "repeat"
    count: Expr | None = None
    test: Expr | None = None
    var: str | None = None
    body: list[Stmt]


class ForEachPlayer(StmtNode, Sparse):
    """``for each player p [from SEAT] [counterclockwise]``: every seat once, in turn order.

    With ``until`` (``for each player p from SEAT until COND``) the loop goes round the
    table again and again: COND is tested before each seat's turn (``p`` not bound in it)
    and the loop ends when it holds; each turn counts against the game's step budget."""

    node: Literal["foreach"] = "foreach"
    var: str
    start: Expr | None = None
    clockwise: bool = True
    order: Expr | None = None  # ``ordered by KEY``: highest KEY first, ties in turn order
    until: Expr | None = None  # round the table until this holds (tested before each turn)
    body: list[Stmt]
    sparse: ClassVar[tuple[str, ...]] = ("until",)


class CardShape(Node):
    """What the cards of a set share, one way (``one suit and consecutive rank``): equal
    values of each ``same`` key (``of one KEY``), and for each ``runs`` key distinct values
    with no gap (``of consecutive KEY``, a run). The keys are ``it.ATTR`` of each card, as
    ``won by`` keys are."""

    same: list[Expr] = Field(default_factory=list)
    runs: list[Expr] = Field(default_factory=list)


class CardSet(Node):
    """Several cards as one decision: ``N NAME`` or ``LOW..HIGH NAME`` in a choice or a
    trick's play, and what the chosen cards must share: any one of ``shapes`` (``of one rank
    or one suit and consecutive rank``), or nothing when there is none. ``low`` is None when
    the text gives a shape and no count (the validator reports it).
    """

    low: int | None = None
    high: int | None = None
    shapes: list[CardShape] = Field(default_factory=list)


class SkipClause(Node):
    """A further ``skip "label" as NAME [if|unless COND]`` of a choice (see
    :class:`Choose`): its label, the local yes/no ``name`` it binds, and when it is
    allowed."""

    label: Labels
    name: str | None = None
    test: Expr | None = None
    unless: bool = False


class Choose(StmtNode, Sparse):
    """A decision: ``PLAYER chooses NAME from DOMAIN [where COND] [or skip] "prompt"``.

    ``domain`` is a zone or card list (a card choice), or values (an enum name, a range, a list,
    ``bool``). With ``optional`` the player may skip, which sets ``name`` to none.
    """

    node: Literal["choose"] = "choose"
    player: Expr
    name: str
    domain: Expr
    where: Expr | None = None
    optional: bool = False
    secret: bool = False  # ``secretly``: other seats learn that a choice was made, not which
    cards: CardSet | None = None  # several cards as one decision: ``name`` holds the list
    skip_label: Labels | None = None
    prompt: Labels = Field(default_factory=Labels)
    # ``skip "pass" if COND`` / ``unless COND``: the skip is allowed only when COND holds
    # (``unless``: when it does not); None: always.
    skip_test: Expr | None = None
    skip_unless: bool = False
    # ``skip "draw a card" as drawing``: the name of the skip, a local yes/no that is true
    # after the choice when this skip was taken; ``more_skips``: the further skips of the
    # choice, each named (drawing and passing: two ways not to play).
    skip_as: str | None = None
    more_skips: list[SkipClause] = Field(default_factory=list)
    sparse: ClassVar[tuple[str, ...]] = ("skip_test", "skip_unless", "skip_as", "more_skips")

    def skips(self) -> list[SkipClause]:
        """Every skip of the choice, the first (in the fields above) included, in the
        order written; none without a ``skip`` clause."""
        if self.skip_label is None and not self.more_skips:
            return []
        first = SkipClause(span=self.skip_label.span if self.skip_label else self.span,
                           label=self.skip_label or Labels(), name=self.skip_as,
                           test=self.skip_test, unless=self.skip_unless)
        return [first, *self.more_skips]

    def skip_flags(self) -> list[str]:
        """The local names the choice's named skips bind."""
        return [k.name for k in self.skips() if k.name is not None]


class Trick(StmtNode, Written):
    """A trick: players play cards from ``source`` into ``zone`` starting with ``leader``.

    Standard tricks: every seat plays once, in turn order. Climbing tricks: seats keep playing
    in turn, each either playing (``where``) or passing and dropping out for the trick, until
    one active seat is left; a seat with no playable card passes; the leader may not pass on
    the first play; with ``pass_for_turn`` a pass holds for that turn only (the seat may play
    again later in the trick), and the trick ends when every other seat in it has passed
    since the last play; ``pass_turn_test`` (``pass for this turn if COND``, or ``unless``
    with ``pass_turn_unless``), worked out at each play, says whether the passes so far
    hold for their turn only (then the play lets those seats in again) or to the end of
    the trick (an option choosing between the two common rules). ``after_play`` runs
    after each play with ``player`` and ``card_var`` bound;
    the winner is the player of the card with the highest ``key`` (``it`` bound per card), and
    ``after_trick`` runs with ``winner`` bound. A player who cannot see the cards of
    ``source`` (a face-down pile, the hand on its left) plays blind: it picks a position, and
    ``where`` may not test the card (as for a blind ``chooses``).

    ``before_play`` runs when a seat's turn comes, before its legal plays are listed
    (``player`` bound to the seat about to play: a card it takes into ``source`` may be
    played); it runs only for a seat that plays (not one that sits the trick out or has
    passed out of a climbing trick), and for a dummy's turn with ``player`` the dummy.

    ``sits_out`` (``player`` bound), tested for every seat when the trick begins, names the
    seats that sit this trick out: the plays go round the others, and a leader that sits out
    leads through the next seat that plays. ``chosen_by`` (``player`` bound: the seat whose
    turn it is) names the seat that chooses the card, played from ``source`` in that turn as
    that player's (a declarer playing the dummy's hand). ``end trick`` in ``after_play`` ends
    the trick at once: the winner is decided among the cards played so far.

    As parsed, ``key`` is None when the trick has no ``won by`` line, ``pass_label`` is None
    when it has no ``pass`` line, and ``duplicates`` holds every clause given again; the
    validator requires ``key``, allows ``pass`` only in a climbing trick, and reports each
    duplicate.
    """

    written: ClassVar[tuple[str, ...]] = ("duplicates",)
    sparse: ClassVar[tuple[str, ...]] = ("pass_turn_test", "pass_turn_unless", "before_play",
                                         "order")

    node: Literal["trick"] = "trick"
    zone: Expr
    leader: Expr
    climbing: bool = False
    card_var: str = "card"
    cards: CardSet | None = None  # a play of several cards: ``card_var`` holds the list
    source: Expr
    where: Expr | None = None
    prompt: Labels = Field(default_factory=Labels)
    pass_label: Labels | None = None
    pass_for_turn: bool = False
    pass_turn_test: Expr | None = None
    pass_turn_unless: bool = False
    sits_out: Expr | None = None
    chosen_by: Expr | None = None
    before_play: list[Stmt] = Field(default_factory=list)
    after_play: list[Stmt] = Field(default_factory=list)
    key: Expr | None = None
    after_trick: list[Stmt] = Field(default_factory=list)
    duplicates: list[Word] = Field(default_factory=list)
    # The clauses as the file orders them, by their first words (``won by``), when not in
    # the order of :data:`TRICK_CLAUSES`: for the printer only, play ignores it.
    order: list[str] = Field(default_factory=list)


# A trick's clauses, by their first words, in the order the printer writes them unless a
# node's ``order`` says otherwise.
TRICK_CLAUSES = ("pass", "sits out", "chosen by", "before play", "after play", "won by",
                 "after trick")


class ForEachIn(StmtNode):
    """``for each [card] x in COLL:`` once per element of COLL (a list fixed at the start)."""

    node: Literal["foreach_in"] = "foreach_in"
    var: str
    coll: Expr
    body: list[Stmt]


class Break(StmtNode):
    """``break``: leave the innermost loop."""

    node: Literal["break"] = "break"


class Do(StmtNode):
    """``do NAME``: run the rule NAME."""

    node: Literal["do"] = "do"
    name: str


class Trigger(StmtNode):
    """``trigger STEP for CARDS``: run each card's ability block ``at STEP`` (``this`` bound)."""

    node: Literal["trigger"] = "trigger"
    step: str
    cards: Expr


class EndGame(StmtNode):
    node: Literal["end"] = "end"


class EndTrick(StmtNode):
    """``end trick`` (in a trick's ``after play``): no more plays in this trick; its winner is
    decided among the cards played so far and ``after trick`` runs."""

    node: Literal["end_trick"] = "end_trick"


class Say(StmtNode):
    """``say "text {expr}"``: a line for the game's account (an event, no effect on play)."""

    node: Literal["say"] = "say"
    text: Labels


Stmt = Annotated[
    Assign | Let | Move | Shuffle | Deal | If | Repeat | ForEachPlayer | ForEachIn | Choose
    | Trick | EndGame | Say | Break | Do | Trigger | Reveal | EndTrick,
    Field(discriminator="node"),
]


# ---------------------------------------------------------------- declarations


class OptionDecl(DeclNode, Sparse):
    """``option NAME: TYPE = DEFAULT "doc"``; TYPE is ``int in lo..hi``, ``bool`` or ``a | b``.

    A bound written in brackets (``int in 1..(51 / players)``) is an expression of the
    player count and earlier options, in ``lo_at``/``hi_at`` (``lo``/``hi`` are then None):
    the range is worked out for each player count.
    """

    sparse: ClassVar[tuple[str, ...]] = ("lo_at", "hi_at")

    name: str
    type: Literal["int", "bool", "choice"]
    lo: int | None = None
    hi: int | None = None
    lo_at: Expr | None = None
    hi_at: Expr | None = None
    choices: list[str] = Field(default_factory=list)
    default: Expr
    doc: str = ""


class EnumValue(Node):
    name: str
    labels: Labels = Field(default_factory=Labels)


class EnumDecl(DeclNode, Sparse):
    """``enum NAME: a, b, c``. A value that names an enum declared before it stands for
    that enum's values (``enum strain: suit, notrump``): as checked, ``values`` holds them
    all and ``extends`` names the enums whose values it shares (empty as parsed)."""

    name: str
    values: list[EnumValue]
    labels: Labels = Field(default_factory=Labels)
    extends: list[str] = Field(default_factory=list)
    sparse: ClassVar[tuple[str, ...]] = ("extends",)


class AttrDecl(Node):
    """A card attribute: ``name: DOMAIN`` with DOMAIN an enum name or ``lo..hi``, or a derived
    attribute ``name = EXPR`` (``value``) computed once per card from the attributes declared
    before it in the same kind (e.g. ``value = 12 if rank >= 12 else rank``)."""

    name: str
    enum: str | None = None
    lo: int | None = None
    hi: int | None = None
    value: Expr | None = None
    text: bool = False  # ``name: text``: a printed text such as a card's name
    set_of: str | None = None  # ``classes: set of cls``: a set of values of an enum


class CardRow(Written):
    """One row of a card table: attribute values and how many copies.

    Cells go to the kind's printed attributes (those without ``=``) in order, then one more
    to ``copies``; as parsed, a short row has fewer ``values``, the cells past the copies
    column are in ``extra``, and ``copies`` is the cell as written. The validator checks all
    three (a whole number of copies, at least 1).
    """

    written: ClassVar[tuple[str, ...]] = ("extra",)
    values: dict[str, Any]
    copies: Any = 1
    extra: list[Any] = Field(default_factory=list)


class KindDecl(DeclNode, Sparse):
    """A kind of card: attributes, copies, and either every combination or listed rows.

    ``order``: the kind's lines as the file orders them (an attribute by its name, another
    line by its word: ``copies``, ``label``, ``short``, ``table``) when not attributes first,
    then those lines in that order; for the printer only."""

    sparse: ClassVar[tuple[str, ...]] = ("order",)
    name: str
    attrs: list[AttrDecl] = Field(default_factory=list)
    copies: Expr = Field(default_factory=lambda: Num(value=1))
    rows: list[CardRow] | None = None
    labels: Labels = Field(default_factory=Labels)
    card_label: Labels = Field(default_factory=Labels)
    short: str | None = None
    order: list[str] = Field(default_factory=list)


# Every flag a zone may have: where it is (``shared`` or one ``per player``), who sees it
# (``public``, ``owner``, ``hidden``, ``top``: the top card only) and two words kept for
# readability (``stack``, ``ordered``: every zone keeps its order).
ZONE_FLAGS = ("shared", "per player", "public", "owner", "hidden", "top", "stack", "ordered")


class ZoneDecl(DeclNode, Written):
    """A zone: shared or one per player; visibility public | owner | hidden | top; the
    seats that see it besides (``seen by EXPR``).

    As parsed, ``per_player`` is None when the zone says neither ``shared`` nor ``per
    player`` and ``unknown_flags`` holds flags the language does not have; the validator
    reports both.
    """

    written: ClassVar[tuple[str, ...]] = ("unknown_flags",)
    name: str
    per_player: bool | None = None
    visibility: Literal["public", "owner", "hidden", "top"] = "public"
    labels: Labels = Field(default_factory=Labels)
    unknown_flags: list[Word] = Field(default_factory=list)
    # ``seen by EXPR``: the seats that see all its cards besides the declared ones (a seat,
    # a list of seats or none; ``player`` is the owning seat of a per-player zone), worked
    # out again each time the game waits for a decision.
    seen_by: Expr | None = None


class VarDecl(DeclNode):
    """A variable: scope global | player | trick | card; type int | bool | player | ENUM.

    A card variable is reset to its default when its card moves, unless ``kept``.
    ``visibility``: ``public`` (every seat sees the value; a card variable, every seat that
    sees its card), ``owner`` (a player variable: only its own seat) or ``hidden`` (no
    seat); the validator refuses ``owner`` on any but a player variable.
    """

    name: str
    scope: VarScope = "global"
    type: str
    default: Expr = Field(default_factory=NoneLit)
    labels: Labels = Field(default_factory=Labels)
    kept: bool = False
    visibility: VarVisibility = "public"

    @model_serializer(mode="wrap")
    def _skip_public(self, handler: SerializerFunctionWrapHandler) -> Any:
        # Left out while public (the default), so JSON written before variables had a
        # visibility reads the same and stays the same.
        data = handler(self)
        if data.get("visibility") == "public":
            data.pop("visibility")
        return data


class AbilityDecl(DeclNode, Written):
    """``ability NAME "text":`` with ``modify STAT: EXPR`` lines and ``at STEP:`` blocks.

    Cards name their ability in an attribute of type ``ability``; ``bonus(STAT, CARDS)`` sums
    the modifiers and ``trigger STEP for CARDS`` runs the blocks, with ``this`` the card.
    A stat or step given again is kept in ``duplicates`` (``modify STAT``, ``at STEP``) for
    the validator to report; the first one counts. ``order``: the lines as the file orders
    them (``modify STAT``, ``at STEP``) when not every ``modify`` first; for the printer
    only.
    """

    written: ClassVar[tuple[str, ...]] = ("duplicates",)
    sparse: ClassVar[tuple[str, ...]] = ("order",)
    name: str
    labels: Labels = Field(default_factory=Labels)
    modifies: dict[str, Expr] = Field(default_factory=dict)
    steps: dict[str, list[Stmt]] = Field(default_factory=dict)
    duplicates: list[Word] = Field(default_factory=list)
    order: list[str] = Field(default_factory=list)


class RuleDecl(DeclNode):
    """``rule NAME:`` a named block of statements, run by ``do NAME``."""

    name: str
    labels: Labels = Field(default_factory=Labels)
    body: list[Stmt]


class Transition(Node):
    """``next PHASE [if COND]``; PHASE ``end`` ends the game."""

    target: str
    guard: Expr | None = None


class PhaseDecl(DeclNode):
    name: str
    labels: Labels = Field(default_factory=Labels)
    body: list[Stmt]
    transitions: list[Transition] = Field(default_factory=list)


class Override(Node):
    """What a variant (a file with ``extends``) says about a declaration of its base.

    ``action`` is ``replace`` (the variant's own declaration of ``name`` replaces the base's:
    ``replace phase play ...``), ``remove`` (``remove phase NAME``) or ``default`` (``option
    NAME = EXPR``: a new default for an option of the base, in ``value``, with ``doc``).
    ``what`` is option, enum, card, zone, var or phase.
    """

    action: Literal["replace", "remove", "default"]
    what: Literal["option", "enum", "card", "zone", "var", "phase", "ability", "rule",
                  "define"]
    name: str
    value: Expr | None = None
    doc: str = ""


class LimitDecl(DeclNode):
    """``limit NAME N``: one of the game's budgets (decisions per game, entries of one
    phase, steps between two decisions) set by the ruleset; the engine has defaults."""

    name: str
    value: int


class DefineDecl(DeclNode):
    """A named expression: ``define NAME(a, b) = EXPR``. A call ``NAME(x, y)`` anywhere an
    expression is stands for ``body`` with the parameters replaced by the arguments (see
    :mod:`rulesplay.validate.expand`); it is typed where it is used."""

    name: str
    params: list[str] = Field(default_factory=list)
    body: Expr


class Ruleset(Written):
    """A whole ruleset: metadata, options, enums, cards, zones, variables, phases, scoring.

    ``winners`` (``winners: EXPR``, seats) says who wins when it is not simply the best
    (score, tiebreak...) tuple. ``teams`` (``teams: EXPR`` of ``player``) gives each seat's
    team: seats with equal values play and win as one side. ``extends``/``overrides`` are
    what a variant file says about its base; :func:`rulesplay.compose.load_ruleset` merges
    them away. A line a ruleset has once (``game``, ``players``, ``score:`` ...) given again
    is kept in ``duplicates`` (the last one counts) for the validator to report.
    ``usual_players`` is the count a game gets when none is given (``usually N``).
    ``players_span`` and ``start_span`` are where the ``players`` and ``start`` lines are (a
    variant's, when it gives its own), for the diagnostics about them.
    """

    written: ClassVar[tuple[str, ...]] = ("duplicates",)
    sparse: ClassVar[tuple[str, ...]] = ("defines", "teams", "usual_players")

    title: Labels = Field(default_factory=Labels)
    min_players: int = 2
    max_players: int = 2
    # ``players 3..5, usually 4``: the count a game gets when none is given (None: the fewest).
    usual_players: int | None = None
    players_span: Span = NO_SPAN
    author: str = ""
    about: str = ""
    options: list[OptionDecl] = Field(default_factory=list)
    enums: list[EnumDecl] = Field(default_factory=list)
    kinds: list[KindDecl] = Field(default_factory=list)
    zones: list[ZoneDecl] = Field(default_factory=list)
    vars: list[VarDecl] = Field(default_factory=list)
    phases: list[PhaseDecl] = Field(default_factory=list)
    start: str | None = None
    start_span: Span = NO_SPAN
    score: Expr | None = None
    tiebreaks: list[Expr] = Field(default_factory=list)
    winners: Expr | None = None
    teams: Expr | None = None
    abilities: list[AbilityDecl] = Field(default_factory=list)
    rules: list[RuleDecl] = Field(default_factory=list)
    limits: list[LimitDecl] = Field(default_factory=list)
    defines: list[DefineDecl] = Field(default_factory=list)
    includes: list[tuple[str, Span]] = Field(default_factory=list)
    extends: str | None = None
    extends_span: Span = NO_SPAN
    overrides: list[Override] = Field(default_factory=list)
    duplicates: list[Word] = Field(default_factory=list)


def walk(node: Any) -> Iterator[Node]:
    """Every IR node inside ``node`` (a node, or lists, tuples and dicts of them), itself
    included, depth first in field order (by a stack: nested generators cost the depth of
    the tree for every node)."""
    stack = list(_nodes_in(node))
    stack.reverse()
    while stack:
        top = stack.pop()
        yield top
        kids: list[Node] = []
        for name in _node_fields(type(top)):
            value = getattr(top, name)
            if isinstance(value, Node):
                kids.append(value)
            elif value:  # (None, or an empty list: nothing)
                kids.extend(_nodes_in(value))
        kids.reverse()
        stack.extend(kids)


def kinds(base: type[Node]) -> list[type[Node]]:
    """The concrete node classes below ``base`` (e.g. :class:`ExprNode`), in declaration
    order: what a stage that handles ``base`` must have a visit method for."""
    return [cls for cls in _CLASSES if issubclass(cls, base) and cls not in _BASES]


_BASES = (Node, Sparse, Written, ExprNode, StmtNode, DeclNode)
_CLASSES = [c for c in list(globals().values()) if isinstance(c, type) and issubclass(c, Node)]


for _model in list(globals().values()):
    if isinstance(_model, type) and issubclass(_model, Node) and _model is not Node:
        _model.model_rebuild()
