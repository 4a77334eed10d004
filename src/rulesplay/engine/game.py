"""``Game``: a loaded ruleset with its options; ``Program``: that game compiled for one
player count (slots, zone ids, card tables, statement nodes), built once and cached.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .. import ir
from ..compose import Bundle, bundle_of, load_ruleset
from ..compose import load_bundle as load_files
from ..errors import OptionError, RulesError, RulesValidationError, did_you_mean
from ..validate import Checked, check
from .choices import Action, ChooseNode, Decision
from .codegen import ExprCompiler
from .compile_stmts import Compiled, StmtCompiler
from .effects import Block, PhaseNode
from .expr import Fn, Layout
from .state import State

__all__ = ["Action", "Game", "Program", "load", "loads"]

# The tool's own words, by language (ruleset words come from the ruleset's labels).
WORDS: dict[str, dict[str, str]] = {
    "": {"yes": "yes", "no": "no", "skip": "skip", "seat": "Seat {n}", "none": "none"},
    "ja": {"yes": "はい", "no": "いいえ", "skip": "スキップ", "seat": "席{n}", "none": "なし"},
}


def word(lang: str | None, key: str) -> str:
    """A tool word (yes, no, skip, seat...) in ``lang``, falling back to English."""
    return WORDS.get(lang or "", WORDS[""]).get(key, WORDS[""][key])


class Program:
    """A game compiled for ``n`` players: everything the hot path needs as plain tables."""

    def __init__(self, game: Game, n: int) -> None:
        self.game, self.ruleset, self.lang = game, game.ruleset, game.lang
        self.checked: Checked = game.checked
        lay = self.layout = Layout()
        lay.n = n
        self.compiler = ExprCompiler(self.checked, lay)
        self.stmts = StmtCompiler(self)
        self.nodes: list[Any] = []
        self._build_options(game.option_values)  # first: copies and attributes may use options
        self._build_cards()
        self._build_zones()
        self._build_vars()
        # Phase nodes come first, so a phase's node index is its position in `phases`.
        self.phase_index: dict[str, int] = {}
        self.phases: list[PhaseNode] = []
        for p in self.ruleset.phases:
            node = PhaseNode(len(self.nodes), p, None)  # type: ignore[arg-type]
            self.nodes.append(node)
            self.phase_index[p.name] = node.index
            self.phases.append(node)
        self._build_abilities()
        for node in self.phases:
            node.body = self.block(node.decl.body)  # type: ignore[assignment]
            node.label = self.template(node.decl.labels, default=node.name)
            node.transitions = [
                (self.compiler.expr(t.guard) if t.guard is not None else None,
                 None if t.target == "end" else self.phase_index[t.target])
                for t in node.decl.transitions]
        from ..validate import start_phase
        self.start_phase = self.phase_index[start_phase(self.ruleset) or ""]
        player_slot = lay.local("player")
        score = self.compiler.expr(self.ruleset.score)  # type: ignore[arg-type]
        ties = [self.compiler.expr(t) for t in self.ruleset.tiebreaks]
        self.score_fns: tuple[int, Fn, list[Fn]] = (player_slot, score, ties)
        self.winners_fn: Fn | None = self.compiler.expr(self.ruleset.winners) \
            if self.ruleset.winners is not None else None
        self.num_locals = len(lay.lslot)
        # Names of choices made in secret: others learn that they were made, not what.
        self.secret_choices = {n.name for n in self.nodes
                               if isinstance(n, ChooseNode) and n.secret}

    # ------------------------------------------------------------ tables
    def _build_cards(self) -> None:
        lay, lang = self.layout, self.lang
        self.card_ids: list[str] = []
        self.card_labels: list[str] = []
        self.card_attrs: list[dict[str, Any]] = []
        self.card_short: list[str] = []
        self.enum_labels: dict[str, str] = {}
        for e in self.ruleset.enums:
            for i, v in enumerate(e.values):
                self.enum_labels[v.name] = v.labels.get(lang, v.name)
                lay.sort_key[v.name] = (i,)
        attrs = sorted({a.name for k in self.ruleset.kinds for a in k.attrs})
        for a in attrs:
            lay.attr_table[a] = []
        multi_attr_kinds = sum(1 for k in self.ruleset.kinds if k.attrs) > 1
        label_fns = []
        for k in self.ruleset.kinds:
            printed = [a for a in k.attrs if a.value is None]
            # Derived attributes (``value = EXPR``), evaluated per card in declaration order.
            self.compiler.card_attrs_as_names = True
            derived = [(d, self.compiler.expr(d.value)) for d in k.attrs
                       if d.value is not None]
            self.compiler.card_attrs_as_names = False
            copies = self.compiler.expr(k.copies)(None, None)
            if not isinstance(copies, int) or copies < 1:
                raise RulesValidationError(f"copies of '{k.name}' must be at least 1", k.span)
            label = self._card_label_fn(k)
            for values, stem, short, row_copies in self._prototypes(k, printed, copies):
                if multi_attr_kinds and k.rows is None and values:
                    stem = f"{k.name}-{stem}"
                copies = row_copies
                for copy in range(1, copies + 1):
                    cid = len(lay.kind_of)
                    lay.kind_of.append(k.name)
                    for a in attrs:
                        lay.attr_table[a].append(values.get(a))
                    for attr, fn in derived:
                        try:
                            value = fn(None, cid)
                        except (RulesError, TypeError, ValueError, ZeroDivisionError) as exc:
                            msg = exc.message if isinstance(exc, RulesError) else str(exc)
                            raise RulesValidationError(
                                f"attribute '{attr.name}' of card {values}: {msg}",
                                attr.span) from None
                        values[attr.name] = lay.attr_table[attr.name][cid] = value
                    self.card_ids.append(f"{stem}#{copy}" if copies > 1 else stem)
                    self.card_attrs.append({"kind": k.name, **{
                        a: sorted(v) if isinstance(v, frozenset) else v
                        for a, v in values.items()}})
                    self.card_short.append(k.short or short)
                    label_fns.append((label, cid))
        self.num_cards = len(lay.kind_of)
        if len(set(self.card_ids)) != self.num_cards:
            raise RulesValidationError("two cards would have the same id; give the kinds "
                                       "different attributes", self.ruleset.span)
        self.card_labels = [fn(cid) for fn, cid in label_fns]

    def _prototypes(self, k: ir.KindDecl, printed: list[ir.AttrDecl], copies: int
                    ) -> list[tuple[dict[str, Any], str, str, int]]:
        """The distinct cards of a kind: (printed attribute values, id stem, short name,
        copies), from its table rows or else from every combination of its attributes."""
        if k.rows is not None:
            out = []
            for i, row in enumerate(k.rows, 1):
                values = {a.name: _cell(a, row.values.get(a.name)) for a in printed}
                name = values.get("name")
                short = "".join(w[0] for w in name.split()).lower() \
                    if isinstance(name, str) and name else f"{k.name[0]}{i}"
                out.append((values, f"{k.name}-{i}", short, row.copies))
            return out
        domains: list[list[Any]] = []
        for attr in printed:
            if attr.enum == "bool":
                domains.append([False, True])
            elif attr.enum is not None:
                decl = self.checked.symbols.enums[attr.enum]
                domains.append([v.name for v in decl.values])
            else:
                domains.append(list(range(attr.lo or 0, (attr.hi or 0) + 1)))
        out = []
        for combo in itertools.product(*domains):
            values = dict(zip((a.name for a in printed), combo, strict=True))
            stem = "-".join(str(v) for v in combo) if combo else k.name
            short = "".join(str(v)[0] if isinstance(v, str) else str(v) for v in combo) \
                or k.name
            out.append((values, stem, short, copies))
        return out

    def _card_label_fn(self, k: ir.KindDecl) -> Callable[[int], str]:
        parts = self.checked.templates.get((id(k.card_label), self.lang or "")) \
            if self.lang in k.card_label.other else \
            self.checked.templates.get((id(k.card_label), ""))
        if parts is None and any(a.name == "name" and a.text for a in k.attrs):
            names = self.layout.attr_table["name"]
            return lambda c: str(names[c])
        if parts is None:
            name = k.labels.get(self.lang, k.name)
            attrs = [a.name for a in k.attrs if a.value is None]
            return lambda c: " ".join([name] + [self._show(self.layout.attr_table[a][c])
                                                for a in attrs]) if attrs else name
        self.compiler.card_attrs_as_names = True
        fns = [(p if isinstance(p, str) else (self.compiler.expr(p), self.compiler.type_of(p)))
               for p in parts]
        self.compiler.card_attrs_as_names = False
        return lambda c: "".join(p if isinstance(p, str) else self._show(p[0](None, c), p[1])
                                 for p in fns)

    def _build_zones(self) -> None:
        lay, n = self.layout, self.layout.n
        self.zone_visibility: list[str] = []
        self.zone_label: list[str] = []
        for z in self.ruleset.zones:
            lay.zone_id[z.name] = len(lay.zone_name)
            for seat in range(n) if z.per_player else [None]:
                lay.zone_name.append(z.name)
                lay.zone_owner.append(seat)
                self.zone_visibility.append(z.visibility)
                self.zone_label.append(z.labels.get(self.lang, z.name))
        self.num_zones = len(lay.zone_name)

    def _build_options(self, values: Mapping[str, Any]) -> None:
        lay = self.layout
        for o in self.ruleset.options:
            value = values[o.name] if o.name in values else self.compiler.expr(o.default)(
                None, None)
            check_option_value(o, value, lay.n)
            lay.options[o.name] = value

    def _build_vars(self) -> None:
        lay = self.layout
        self.gvars: list[tuple[int, Fn]] = []
        self.pvars: list[tuple[int, Fn]] = []
        for v in self.ruleset.vars:
            if v.scope in ("global", "trick"):
                lay.gslot[v.name] = len(lay.gslot)
                self.gvars.append((lay.gslot[v.name], self.var_default(v)))
            elif v.scope == "player":
                lay.pslot[v.name] = len(lay.pslot)
                self.pvars.append((lay.pslot[v.name], self.var_default(v)))
            else:
                lay.cslot[v.name] = len(lay.cslot)
        # Card variables: their defaults (fixed values) and which reset when a card moves.
        self.card_var_defaults: list[Any] = []
        self.card_var_resets: list[tuple[int, Any]] = []
        for v in self.ruleset.vars:
            if v.scope == "card":
                default = self.var_default(v)(None, None)
                self.card_var_defaults.append(default)
                if not v.kept:
                    self.card_var_resets.append((lay.cslot[v.name], default))

    def _build_abilities(self) -> None:
        """Each card's ability; modifiers per stat and card; blocks per step; rules."""
        lay, rs = self.layout, self.ruleset
        ability_attrs = [a.name for k in rs.kinds for a in k.attrs if a.enum == "ability"]
        lay.ability_of = [None] * self.num_cards
        for name in ability_attrs:
            for c, value in enumerate(lay.attr_table[name]):
                lay.ability_of[c] = lay.ability_of[c] or value
        for ab in rs.abilities:
            self.enum_labels.setdefault(ab.name, ab.labels.get(self.lang, ab.name))
        self.this_slot = lay.local("this")
        modifiers: dict[str, dict[str, Fn]] = {}
        for ab in rs.abilities:
            for stat, e in ab.modifies.items():
                modifiers.setdefault(stat, {})[ab.name] = self.compiler.expr(e)
        for stat, by_ability in modifiers.items():
            table = lay.stat_tables.setdefault(stat, [])
            table[:] = [by_ability.get(a) if a else None for a in lay.ability_of]
        # Rules first as empty blocks, so `do` can name a rule declared later.
        self.rules: dict[str, Block] = {r.name: self.add(Block(len(self.nodes), []))
                                        for r in rs.rules}
        for r in rs.rules:
            self._fill(self.rules[r.name], r.body)
        self.step_blocks: dict[str, dict[str, Block]] = {}
        for ab in rs.abilities:
            for step, body in ab.steps.items():
                self.step_blocks.setdefault(step, {})[ab.name] = self.block(body)

    def var_default(self, v: ir.VarDecl) -> Fn:
        return self.compiler.expr(v.default)

    # ------------------------------------------------------------ statements
    def add(self, node: Any) -> Any:
        self.nodes.append(node)
        return node

    def block(self, stmts: list[ir.Stmt]) -> Block:
        return self._fill(self.add(Block(len(self.nodes), [])), stmts)

    def _fill(self, block: Block, stmts: list[ir.Stmt]) -> Block:
        for st in stmts:
            effect, node = self.stmt(st)
            block.stmts.append((effect, node, st.span))
        return block

    def stmt(self, st: ir.Stmt) -> Compiled:
        """Compile one statement (see :class:`~rulesplay.engine.compile_stmts.StmtCompiler`)."""
        return self.stmts.visit(st)  # type: ignore[no-any-return]

    # ------------------------------------------------------------ display
    def word(self, key: str) -> str:
        return word(self.lang, key)

    def template(self, labels: ir.Labels | None, default: str = "") -> Callable[[Any], str]:
        """Compile a display text (with ``{expr}`` placeholders) in the game's language."""
        if labels is None:
            return lambda s: default
        lang = self.lang if labels.other.get(self.lang or "") is not None else ""
        parts = self.checked.templates.get((id(labels), lang))
        if parts is None:
            return lambda s: default
        fns = [(p if isinstance(p, str) else (self.compiler.expr(p), self.compiler.type_of(p)))
               for p in parts]
        return lambda s: "".join(p if isinstance(p, str) else self._show(p[0](s, None), p[1])
                                 for p in fns)

    def _show(self, value: Any, typ: str = "any") -> str:
        if value is None:
            return self.word("none")
        if typ == "card":
            return self.card_labels[value]
        if typ == "player":
            return self.seat_name(value)
        if isinstance(value, bool):
            return self.word("yes" if value else "no")
        if isinstance(value, str):
            return self.enum_labels.get(value, value)
        if isinstance(value, tuple | list):
            return ", ".join(self._show(v) for v in value)
        return str(value)

    def seat_name(self, seat: int) -> str:
        return self.word("seat").format(n=seat)

    def value_id(self, value: Any) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    def value_label(self, value: Any) -> str:
        return self._show(value)

    def zone_ref(self, z: int) -> dict[str, Any]:
        return {"zone": self.layout.zone_name[z], "owner": self.layout.zone_owner[z]}

    def move_event(self, card: int, src: int, dst: int) -> dict[str, Any]:
        return {"type": "move", "card": self.card_ids[card], "attrs": self.card_attrs[card],
                "from": self.zone_ref(src), "to": self.zone_ref(dst)}

    def phase_name(self, s: State) -> str:
        return self.phases[s.phase].name if s.phase is not None else ""

    def decision(self, index: int) -> Decision:
        return self.nodes[index]  # type: ignore[no-any-return]


def _cell(attr: ir.AttrDecl, value: Any) -> Any:
    """A table cell as a run-time value: a set attribute becomes a frozenset of names, an
    enum or ability attribute its one name."""
    if attr.set_of is not None:
        return frozenset(value or ())
    if isinstance(value, list):
        return value[0] if value else None
    return value


def languages(ruleset: ir.Ruleset) -> set[str]:
    """The language codes the ruleset's labels are translated into (``@ja`` ...)."""
    return {lang for node in ir.walk(ruleset) if isinstance(node, ir.Labels)
            for lang in node.other}


def check_option_value(o: ir.OptionDecl, value: Any, players: int | None = None) -> None:
    """Raise :class:`OptionError` unless ``value`` is allowed for option ``o``."""
    where = f" with {players} players" if players else ""
    if o.type == "bool":
        ok = isinstance(value, bool)
        allowed = "true or false"
    elif o.type == "int":
        ok = isinstance(value, int) and not isinstance(value, bool) and \
            (o.lo is None or o.lo <= value) and (o.hi is None or value <= o.hi)
        allowed = f"a whole number from {o.lo} to {o.hi}"
    else:
        ok = value in o.choices
        allowed = "one of " + ", ".join(o.choices)
    if not ok:
        raise OptionError(f"option {o.name} = {value!r}{where} is not allowed; allowed: "
                          f"{allowed}", o.span)


def coerce_option(o: ir.OptionDecl, text: Any) -> Any:
    """Turn a CLI string (``"true"``, ``"8"``, ``"no_lead"``) into the option's type."""
    if not isinstance(text, str):
        return text
    t = text.strip()
    if o.type == "bool":
        if t.lower() in ("true", "yes", "on", "1"):
            return True
        if t.lower() in ("false", "no", "off", "0"):
            return False
        return t
    if o.type == "int":
        try:
            return int(t)
        except ValueError:
            return t
    return t


class Game:
    """A loaded, checked ruleset with chosen options: makes new games (states).

    Args:
        ruleset: the parsed IR (variants already merged).
        checked: the validator's result for it.
        options: option name -> value (strings are converted to the option's type).
        lang: display language code ("ja") or None for English.
        path: the ruleset as the person named it (shown in accounts and logs).
        bundle: the text of every file it was composed from (kept in saves and logs, so
            they rebuild this very game without reading any file).

    Raises:
        OptionError: an unknown option name or a value outside what the option allows.
    """

    def __init__(self, ruleset: ir.Ruleset, checked: Checked,
                 options: Mapping[str, Any] | None = None, lang: str | None = None,
                 path: str | None = None, bundle: Bundle | None = None) -> None:
        if lang in ("", "en"):
            lang = None
        if lang is not None and lang not in languages(ruleset):
            have = ", ".join(["en", *sorted(languages(ruleset))])
            raise OptionError(f"{ruleset.title.get(None, 'this ruleset')} has no '{lang}' "
                              f"labels; languages: {have}")
        self.ruleset, self.checked, self.lang, self.path = ruleset, checked, lang, path
        self.bundle = bundle
        decls = {o.name: o for o in ruleset.options}
        self.option_values: dict[str, Any] = {}
        for name, raw in (options or {}).items():
            if name not in decls:
                allowed = ", ".join(decls) or "none"
                raise OptionError(f"unknown option '{name}'" + did_you_mean(name, decls)
                                  + f"; this ruleset's options: {allowed}")
            value = coerce_option(decls[name], raw)
            check_option_value(decls[name], value)
            self.option_values[name] = value
        self._programs: dict[int, Program] = {}

    @property
    def title(self) -> str:
        return self.ruleset.title.get(self.lang, "untitled")

    @property
    def player_range(self) -> tuple[int, int]:
        return self.ruleset.min_players, self.ruleset.max_players

    def program(self, num_players: int) -> Program:
        """The game compiled for ``num_players`` (built once, then cached)."""
        lo, hi = self.player_range
        if not isinstance(num_players, int) or not lo <= num_players <= hi:
            raise OptionError(f"{self.title} is for {lo} to {hi} players, not {num_players}")
        if num_players not in self._programs:
            try:
                self._programs[num_players] = Program(self, num_players)
            except RulesError as exc:
                raise exc.attach_source(self.checked.sources) from None
        return self._programs[num_players]

    def new_state(self, num_players: int | None = None, seed: int = 0,
                  record_events: bool = False) -> State:
        """A new game, run up to its first decision.

        Args:
            num_players: seats at the table (default: the ruleset's minimum).
            seed: seed of the state's random generator (all chance flows from it).
            record_events: keep every decision and card movement in ``state.events``.

        Raises:
            OptionError: a player count outside the ruleset's range, or an option value
                not allowed for it.
        """
        n = self.player_range[0] if num_players is None else num_players
        return State.new(self.program(n), seed, record_events)

    def state_from_json(self, data: Any) -> State:
        """Rebuild a state saved with :meth:`State.to_json` (same ruleset and options)."""
        return State.from_json(data, self)


def load(path: str | Path, options: Mapping[str, Any] | None = None,
         lang: str | None = None) -> Game:
    """Load, check and compile a ruleset file.

    Args:
        path: the ``.rules`` file.
        options: option values by name (strings allowed, as from the command line).
        lang: display language ("ja") or None for English.

    Raises:
        RulesError: the file cannot be read, does not parse, or does not validate; the
            error's ``render()`` gives ``path:line:col`` diagnostics with carets.
        OptionError: an unknown option or a value it does not allow.
    """
    ruleset, checked = load_ruleset(str(path))
    return Game(ruleset, checked, options, lang, str(path), bundle_of(str(path), checked.sources))


def load_bundle(bundle: Bundle, options: Mapping[str, Any] | None = None,
                lang: str | None = None) -> Game:
    """Like :func:`load` for a ruleset's files held in memory (a save's or a log's
    :class:`~rulesplay.compose.Bundle`): no file is opened.

    Raises:
        RulesError: the files do not parse or validate. OptionError: as :func:`load`.
    """
    ruleset, checked = load_files(bundle)
    return Game(ruleset, checked, options, lang, bundle.name, bundle)


def loads(text: str, options: Mapping[str, Any] | None = None, lang: str | None = None,
          file: str = "<input>") -> Game:
    """Like :func:`load` for ruleset text held in memory (no ``extends``)."""
    from ..parse import parse_text

    ruleset = parse_text(text, file)
    try:
        checked = check(ruleset, {file: text})
    except RulesError as exc:
        raise exc.attach_source({file: text}) from None
    return Game(ruleset, checked, options, lang, None,
                Bundle(name=file, top=file, files={file: text}))
