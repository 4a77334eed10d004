"""``Program``: one game compiled for one player count, as the plain tables the run-time reads.

Nodes, :class:`~rulesplay.engine.state.State`, observations and front ends read these
tables (card ids and labels, zone ids, slots, the node list, compiled functions); the
compile step (:mod:`rulesplay.engine.build`) fills them once. Nothing here compiles or
loads anything, so every run-time module can import this one.
"""

from __future__ import annotations

from collections.abc import Callable
from types import CodeType, TracebackType
from typing import TYPE_CHECKING, Any

from .. import events
from ..errors import RUNTIME_FAULTS, RulesError, RulesRuntimeError, Span, fault_message
from ..events import Mask, seat_text
from ..visibility import sight
from ..words import word
from .expr import Fn, Layout

# Who sees each variable: the global, player (per seat) and card tables of bitmasks.
VarSeers = tuple[list[int], list[list[int]], list[int]]

if TYPE_CHECKING:
    from .. import ir
    from ..validate import Checked
    from .choices import Decision
    from .effects import PhaseNode
    from .game import Game
    from .state import State


class Program:
    """A game compiled for ``layout.n`` players: everything the hot path needs as tables.

    Built by :func:`rulesplay.engine.build.build_program` (start empty, then filled); read,
    never changed, once a game runs.

    Attributes:
        game, ruleset, checked, lang: where it came from (the loaded game, its IR, the
            validator's result, the display language or None).
        layout: slots, zone ids and per-card attribute tables (:class:`Layout`).
        nodes: every run-time node by index (frames and pending decisions name nodes by
            index); phase nodes first, so ``nodes[i]`` is ``phases[i]``.
        engine: ``compiled`` (phases lowered to generated functions by
            :mod:`rulesplay.engine.lower`) or ``interpret`` (the frame interpreter, the
            reference the compiled engine is tested against).
        phases, phase_index, start_phase: phase nodes, their index by name, the node the
            game starts with (the start phase's routine in the compiled engine).
        routine_of_phase: compiled engine: phase node index -> its routine's node index.
        everyone: the bitmask of every seat and an onlooker (see ``observe.seat_bit``).
        step_of: per node index, what runs its frame: the node's ``step``, or a lowered
            routine's generated function itself (one call less per frame run).
        routine_lines: the code object of each generated routine -> the span of the
            statement of each of its lines (see :meth:`locate`).
        card_ids, card_labels, card_attrs, card_short: per card (int id): stable id
            (``red-7#2``), display label, attributes as plain data (in events), short name.
        num_cards, enum_labels: card count; enum, choice and ability value -> display label.
        zone_visibility, zone_label, num_zones: per zone id; zone count.
        zone_seers, zone_top_seers: per zone id, the seats that see all its cards, and
            those that see its top card, as bitmasks (bit ``p`` for seat ``p``, bit ``n``
            for an onlooker), by :meth:`view`.
        gvars, pvars: ``(slot, default function)`` of global/trick and player variables.
        gvar_seers, pvar_seers, cvar_seers: who sees each variable's value, as bitmasks
            like ``zone_seers``, by :func:`sight` (its declared visibility): per global or
            trick slot; per player slot, one per owning seat; per card slot.
        concealed: whether some variable is not seen by every seat and onlooker.
        team_vars: the names of team variables (``team var``).
        card_var_defaults, card_var_resets: per card variable, its default; the
            ``(slot, default)`` of those reset when a card moves.
        num_locals: local name slots (``State.loc``); card_locals, card_list_locals: the
            slots of locals that hold a card, a list of cards.
        score_fns: ``(player slot, score function, tiebreak functions)``.
        winners_fn: the ``winners:`` function, or None (best rank keys win).
        secret_choices: names of choices made in secret (others learn that, not what).
        seen_by, seen_slot: each zone's ``seen by`` as ``(zone id, owning seat or None,
            function, its span)``, worked out with local slot ``seen_slot`` (``player``) set to the
            owner (:func:`~rulesplay.engine.observe.refresh_seen`); empty when none has one.
    """

    def __init__(self, game: Game, layout: Layout) -> None:
        # Declared types: modules in the engine's import cycle read them before mypy has
        # inferred this body (older mypy reports "Cannot determine type").
        self.game: Game = game
        # (as checked: its defines and attributes that read the game expanded)
        self.ruleset: ir.Ruleset = game.checked.ruleset
        self.lang: str | None = game.lang
        self.checked: Checked = game.checked
        self.layout: Layout = layout
        self.nodes: list[Any] = []
        self.phases: list[PhaseNode] = []
        # The game's budgets (rulesplay.limits: the defaults, the ruleset's, the run's).
        self.max_decisions = self.max_entries = self.max_steps = self.max_work = 0
        self.max_total = self.max_events = 0
        self.phase_index: dict[str, int] = {}
        self.start_phase: int = 0
        self.engine: str = game.engine
        self.everyone: int = (1 << layout.n + 1) - 1  # every seat and an onlooker (bitmask)
        self.step_of: list[Callable[[State, list[Any]], None] | None] = []
        self.routine_lines: dict[CodeType, list[Span]] = {}
        self.routine_of_phase: dict[int, int] = {}
        self.card_ids: list[str] = []
        self.card_labels: list[str] = []
        self.card_attrs: list[dict[str, Any]] = []
        self.card_short: list[str] = []
        self.num_cards: int = 0
        self.enum_labels: dict[str, str] = {}
        self.zone_visibility: list[str] = []
        self.zone_seers: list[int] = []
        self.zone_top_seers: list[int] = []
        self.zone_label: list[str] = []
        self.num_zones: int = 0
        self.gvars: list[tuple[int, Fn]] = []
        self.pvars: list[tuple[int, Fn]] = []
        self.gvar_seers: list[int] = []
        self.pvar_seers: list[list[int]] = []
        self.cvar_seers: list[int] = []
        self.concealed: bool = False
        self._shown_seers: dict[tuple[str, ...], VarSeers] = {}  # (var_seers_with)
        self.revealable: set[str] = set()  # the variables a 'reveal VAR' names
        self.team_vars: set[str] = set()  # team variables (kept in ``pv`` at first seats)
        self.card_var_defaults: list[Any] = []
        self.card_var_resets: list[tuple[int, Any]] = []
        self.num_locals: int = 0
        # local slots that hold a card, or a list of cards (a sample re-points them)
        self.card_locals: list[int] = []
        self.card_list_locals: list[int] = []
        self.score_fns: tuple[int, Fn, list[Fn]] = (0, _none, [])
        self.winners_fn: Fn | None = None
        self.secret_choices: set[str] = set()
        self.seen_by: list[tuple[int, int | None, Fn, Span]] = []
        self.seen_slot: int = 0

    # ------------------------------------------------------------ words and values
    def word(self, key: str) -> str:
        """A tool word (yes, no, skip, seat, none) in the game's language."""
        return word(self.lang, key)

    def show(self, value: Any, typ: str = "any") -> str:
        """A run-time value in the ruleset's words: a card (``typ`` "card") by its label, a
        seat (``typ`` "player") by its name, a team (``typ`` "team") by its name, a bool as
        yes/no, an enum value by its label, a tuple or list as a comma-separated list, a
        table as ``{key: value, ...}`` in those words, none as the word for none."""
        if value is None:
            return self.word("none")
        if typ == "card":
            label: str = self.card_labels[value]  # value is a card id
            return label
        if typ == "player":
            return self.seat_name(value)
        if typ == "team":
            return self.team_name(value)
        if isinstance(value, bool):
            return self.word("yes" if value else "no")
        if isinstance(value, str):
            return self.enum_labels.get(value, value)
        if isinstance(value, tuple | list):
            return ", ".join(self.show(v) for v in value)
        if isinstance(value, dict):  # (as the language writes one: {key: value, ...})
            return "{" + ", ".join(f"{self.show(k)}: {self.show(v)}"
                                   for k, v in value.items()) + "}"
        return str(value)

    def view(self, zone: int, seat: int | None) -> str:
        """How much of zone ``zone`` seat ``seat`` sees (None: an onlooker): ``"all"``,
        ``"top"`` (its top card) or ``"none"``, by :func:`sight`. Observations, samples,
        screens and seat logs all ask it (or the bitmasks made from it)."""
        return sight(self.zone_visibility[zone], self.layout.zone_owner[zone], seat)

    def var_seers_with(self, shown: tuple[str, ...]) -> VarSeers:
        """Who sees each variable (the global, player and card tables, as
        ``gvar_seers``...) while the variables named in ``shown`` are revealed in play
        (``reveal VAR``: every seat and an onlooker see them); the program's own tables
        when none is. Made once per set of names and shared (never changed in place)."""
        if not shown:
            return self.gvar_seers, self.pvar_seers, self.cvar_seers
        out = self._shown_seers.get(shown)
        if out is None:
            lay, every = self.layout, self.everyone
            g, c = self.gvar_seers[:], self.cvar_seers[:]
            p = [row[:] for row in self.pvar_seers]
            for name in shown:
                if name in lay.gslot:
                    g[lay.gslot[name]] = every
                elif name in lay.pslot:
                    p[lay.pslot[name]] = [every] * len(p[lay.pslot[name]])
                else:
                    c[lay.cslot[name]] = every
            out = self._shown_seers[shown] = (g, p, c)
        return out

    def seat_bit(self, seat: int | None) -> int:
        """Seat ``seat``'s bit in the bitmasks of seers: ``1 << seat``, ``1 << n`` for an
        onlooker (None)."""
        return 1 << (self.layout.n if seat is None else seat)

    def seat_name(self, seat: int) -> str:
        """A seat's display name ("Seat 2")."""
        return self.word("seat").format(n=seat)

    def team_name(self, team: int) -> str:
        """A team's display name: its text (or enum value's label) from ``teams:``, else
        its seats' names ("Seat 0 & Seat 2"); ``team`` is the team's number (its first
        seat)."""
        lay = self.layout
        label = lay.team_labels.get(team)
        if label is not None:  # a text, or an enum value: its label in the game's language
            return self.enum_labels.get(label, label)
        return " & ".join(self.seat_name(p) for p in lay.team_members[team])

    def team_keys(self, keys: list[tuple[int, ...]]) -> dict[int, tuple[int, ...]]:
        """Each team's (score, tiebreak...) tuple by team number, from each seat's ``keys``.

        Raises:
            RulesRuntimeError: two seats of one team score differently (with teams the
                score is the team's, e.g. ``score: points[team of player]``).
        """
        out: dict[int, tuple[int, ...]] = {}
        for seat, team in enumerate(self.layout.team_of):
            if out.setdefault(team, keys[seat]) != keys[seat]:
                raise RulesRuntimeError(
                    f"{self.seat_name(team)} and {self.seat_name(seat)} are one team "
                    f"({self.team_name(team)}) but score {out[team]} and {keys[seat]}: with "
                    "teams the score is the team's (e.g. score: points[team of player], or "
                    "sum(members(team of player), ...))")
        return out

    def value_id(self, value: Any) -> str:
        """A choice value as it appears in an action id (``yes``/``no`` for bools)."""
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    def value_label(self, value: Any) -> str:
        """A choice value's display label (see :meth:`show`)."""
        return self.show(value)

    # ------------------------------------------------------------ events and positions
    def zone_ref(self, z: int) -> events.ZoneRef:
        """Zone id ``z`` as events name it: ``{"zone": name, "owner": seat or None}``."""
        return {"zone": self.layout.zone_name[z], "owner": self.layout.zone_owner[z]}

    def move_event(self, card: int, src: int, dst: int, under: bool = False) -> events.Move:
        """The event of ``card`` moving from zone ``src`` to zone ``dst`` (ids, attributes);
        ``under``: it does not end on top of ``dst`` (marked only where that hides it from
        a seat, see :meth:`top_only`)."""
        return events.move(self.card_ids[card], self.card_attrs[card], self.zone_ref(src),
                           self.zone_ref(dst), under and self.top_only(dst))

    def top_only(self, zone: int) -> bool:
        """Whether some seat (or an onlooker) sees the top card of zone ``zone`` and not
        the others (a ``top`` zone): where a card lands there decides who sees it."""
        return self.zone_top_seers[zone] != self.zone_seers[zone]

    def locate(self, tb: TracebackType | None) -> Span | None:
        """The statement whose generated line was running innermost in traceback ``tb``
        (a lowered routine's), or None when no generated routine was running."""
        found = None
        while tb is not None:
            lines = self.routine_lines.get(tb.tb_frame.f_code)
            if lines is not None and 0 < tb.tb_lineno <= len(lines):
                found = lines[tb.tb_lineno - 1]
            tb = tb.tb_next
        return found

    def phase_name(self, s: State) -> str:
        """The name of the phase state ``s`` is in ("" before the first)."""
        return self.phases[s.phase].name if s.phase is not None else ""

    def decision(self, index: int) -> Decision:
        """The node at ``index`` (a pending decision's node)."""
        node: Decision = self.nodes[index]
        return node


Seers = Callable[[Any], int]  # state -> bitmask of the seats that see a placeholder's value
Placeholder = tuple[Fn, str, Seers | None, Span]  # value function, type, seers, where


class DisplayText:
    """A display text compiled for one game: literal parts and placeholders.

    Call it for the whole text (what the referee and the whole game's log show);
    :meth:`masked` also says which parts some seats may not see, :meth:`seen_by` gives the
    text one seat is shown.

    Args:
        prog: the program (:meth:`Program.show` renders the values).
        parts: literal strings, and per placeholder ``(value function, its type, seers,
            span)``, ``seers`` None when every seat sees the value, else
            ``f(state) -> bitmask``; ``span`` where the placeholder is in the ruleset.
    """

    __slots__ = ("prog", "parts", "everyone", "risky")

    def __init__(self, prog: Program, parts: list[str | Placeholder],
                 risky: tuple[Placeholder, ...] = ()) -> None:
        self.prog, self.parts, self.risky = prog, parts, risky
        self.everyone = (1 << prog.layout.n + 1) - 1

    def check(self, s: State) -> None:
        """Evaluate the placeholders that may fail (``risky``: see
        :func:`~rulesplay.engine.expr_facts.may_fail`) where the text itself is not
        wanted (a game not recorded, as ``simulate`` plays it), so that a placeholder
        fails however the game is run.

        Raises:
            RulesRuntimeError: as :meth:`__call__`.
        """
        try:
            for p in self.risky:
                p[0](s, None)  # (the value alone: shown only to find the failure's place)
        except RUNTIME_FAULTS:
            for p in self.risky:
                self._value(p, s)
            raise

    def __call__(self, s: State | None) -> str:
        """The whole text (``s`` may be None for a text without placeholders).

        Raises:
            RulesRuntimeError: a placeholder failed (a card of an empty zone...), at its
                place in the ruleset.
        """
        return "".join(p if isinstance(p, str) else self._value(p, s) for p in self.parts)

    def _value(self, p: Placeholder, s: State | None) -> str:
        try:
            return self.prog.show(p[0](s, None), p[1])
        except RUNTIME_FAULTS as exc:
            if isinstance(exc, RulesError) and exc.span.line:
                raise
            raise RulesRuntimeError(f"this text's placeholder failed ({fault_message(exc)})",
                                    p[3]).attach_source(self.prog.checked.sources) from None

    def masked(self, s: State) -> tuple[str, list[Mask]]:
        """The whole text and its masks: ``[start, end, seers]`` for each value that not
        every seat sees (none for a text that shows no such variable)."""
        out, masks, at = [], [], 0
        for p in self.parts:
            if isinstance(p, str):
                piece = p
            else:
                piece = self._value(p, s)
                seers = p[2](s) if p[2] is not None else self.everyone
                if seers != self.everyone:
                    masks.append([at, at + len(piece), seers])
            out.append(piece)
            at += len(piece)
        return "".join(out), masks

    def seen_by(self, s: State, seat: int | None) -> str:
        """The text as ``seat`` (None: an onlooker) is shown it: values it may not see as
        ``?``."""
        text, masks = self.masked(s)
        return seat_text(text, masks, self.prog.seat_bit(seat)) if masks else text


def _none(s: Any, it: Any) -> Any:
    """Placeholder function until the compile step sets the real one."""
    return None
