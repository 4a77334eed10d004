"""What the checking passes share: the symbol table, the result, scopes and reporting."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .. import ir
from ..errors import Diagnostic, Span, did_you_mean
from ..grammar import language_word
from ..parse import MAX_DIGITS
from ..parse_errors import quoted
from .types import ANY

# Words that name no declaration, phase, rule or local (besides the words of the grammar).
RESERVED = {"it", "this", "players", "seats", "bool", "end", "none", "yes", "no", "true",
            "false", "ability"}


def reserved(name: str, what: str, assigned: bool = False) -> str | None:
    """Why ``name`` cannot name a ``what`` (option, zone, phase, local...), or None when it
    can: the one check of reserved words for every kind of name. ``assigned``: the name is
    also assigned by a statement (``name = ...``), so statement words are refused too."""
    article = "an" if what[0] in "aeiou" else "a"
    if name == "end" and what == "phase":
        return ("'end' is reserved for the game's end ('next end' ends the game), so a phase "
                "named 'end' would never run; put final scoring in a phase of another name "
                "that goes 'next end'")
    if name in RESERVED or language_word(name, assigned=assigned):
        return f"'{name}' is a reserved word and cannot name {article} {what}"
    return None


@dataclass
class Symbols:
    """Everything a ruleset declares, by name."""

    options: dict[str, ir.OptionDecl] = field(default_factory=dict)
    enums: dict[str, ir.EnumDecl] = field(default_factory=dict)
    enum_values: dict[str, str] = field(default_factory=dict)  # value -> enum name
    choice_values: dict[str, str] = field(default_factory=dict)  # value -> option name
    kinds: dict[str, ir.KindDecl] = field(default_factory=dict)
    attrs: dict[str, str] = field(default_factory=dict)  # attribute -> type
    zones: dict[str, ir.ZoneDecl] = field(default_factory=dict)
    vars: dict[str, ir.VarDecl] = field(default_factory=dict)
    phases: dict[str, ir.PhaseDecl] = field(default_factory=dict)
    abilities: dict[str, ir.AbilityDecl] = field(default_factory=dict)
    rules: dict[str, ir.RuleDecl] = field(default_factory=dict)
    stats: set[str] = field(default_factory=set)  # names some ability modifies
    steps: set[str] = field(default_factory=set)  # names some ability has blocks at


@dataclass
class Checked:
    """A checked ruleset: the IR plus each node's resolution and type (keyed by ``id(node)``).

    ``res`` maps a Name node to ``(category, name)``; categories: local, it, option, var,
    tvar, pvar, enum_value, zone, pzone, players, seats, enum, bool. ``types`` maps every
    expression node to its type string. ``templates`` maps each Labels node to its parsed
    parts per language. ``diagnostics`` are the errors found (none in a ruleset that
    :func:`check` returns); ``warnings`` are diagnostics with severity ``"warning"``, sorted
    by position, with their source attached.
    """

    ruleset: ir.Ruleset
    symbols: Symbols
    res: dict[int, tuple[str, str]] = field(default_factory=dict)
    types: dict[int, str] = field(default_factory=dict)
    templates: dict[tuple[int, str], list[Any]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)  # file -> text, for carets later
    # local name -> its type wherever it is bound (``any`` when the places disagree)
    local_types: dict[str, str] = field(default_factory=dict)
    # derived attributes that read the game: worked out where read, never precomputed
    dynamic_attrs: set[str] = field(default_factory=set)


class Context:
    """The state every checking pass of one ruleset shares.

    Args:
        ruleset: the parsed IR being checked.

    Attributes:
        r: the ruleset. sym: its :class:`Symbols` (filled by the declarations pass).
        out: the :class:`Checked` result being built (resolutions, types, diagnostics).
        scopes: local names -> type, innermost last.
        key_card: a trick's card name while its ``won by`` key is checked, else None.
        loops: loops around the statement being checked (for ``break``).
        expand: a placeholder's expression with its defines and state-dependent attributes
            expanded (:class:`rulesplay.validate.expand.Expander`).
        defines: the ruleset's defines by name.
        origins: where a define or an attribute that reads the game is used -> what it
            expands there (an error at that place says it).
        partly_bound: a local bound in some branches of an ``if`` but not all -> why it is
            unbound after it (for the "undefined name" diagnostic).
        after_play: tricks' ``after play`` blocks around it (for ``end trick``).
        reading: what is being checked when it is an expression that only reads the game
            (a choice's options, filter and prompt, a play's filter, ``won by``, a label,
            the score...): evaluated whenever it is listed or shown, so chance may not be
            drawn in it; None inside statements, whose expressions run once.
    """

    def __init__(self, ruleset: ir.Ruleset) -> None:
        self.r = ruleset
        self.sym = Symbols()
        self.out = Checked(ruleset, self.sym)
        self.scopes: list[dict[str, str]] = []
        self.key_card: str | None = None
        self.loops = 0
        self.partly_bound: dict[str, str] = {}
        self.expand: Callable[[ir.Expr], ir.Expr] = lambda e: e
        self.origins: dict[Span, str] = {}
        self.defines: dict[str, ir.DefineDecl] = {}
        self.after_play = 0
        # Loops around a trick that its 'before play'/'after play' may not break out of.
        self.mid_trick = 0
        self.reading: str | None = "a declaration"

    @contextmanager
    def only_reading(self, what: str | None) -> Iterator[None]:
        """Check what follows as an expression that only reads the game (``what`` it is, e.g.
        "a choice's filter"), or, with None, as the effects of statements."""
        before, self.reading = self.reading, what
        try:
            yield
        finally:
            self.reading = before

    # ------------------------------------------------------------ reporting
    def error(self, message: str, span: Span) -> None:
        """Record an error at ``span``; at a define or attribute expanded there, the first
        one only (a misuse gives one error, not one per part of the expression), saying
        which it is."""
        origin = self.origins.get(span)
        if origin is not None:
            if any(d.span == span for d in self.out.diagnostics):
                return
            message += f" (in {origin})"
        self.out.diagnostics.append(Diagnostic(message, span))

    def warn(self, message: str, span: Span) -> None:
        """Record a warning at ``span``."""
        self.out.warnings.append(Diagnostic(message, span, severity="warning"))

    def number(self, value: int | None, span: Span) -> None:
        """A number has at most :data:`MAX_DIGITS` digits (a ruleset counts cards, seats and
        points); ``span`` is where it is written."""
        if value is not None and abs(value) >= 10 ** MAX_DIGITS:
            self.error(f"the number {quoted(str(abs(value)))} is too large (at most "
                       f"{MAX_DIGITS} digits)", span)

    # ------------------------------------------------------------ names
    def global_names(self) -> list[str]:
        """Every declared name an expression may use (for "did you mean")."""
        s = self.sym
        return [*s.options, *s.enum_values, *s.zones, *s.vars, *s.enums, "players", "seats"]

    def bind(self, name: str, typ: str, span: Span) -> None:
        """Bind local ``name`` of type ``typ`` in the innermost scope; a name already bound
        in an enclosing scope, or one hiding a declared variable, option or zone, is an
        error at ``span``."""
        if language_word(name):
            self.error(f"'{name}' is a reserved word and cannot name a local", span)
            return
        for scope in self.scopes:
            if name in scope:
                self.error(f"'{name}' is already bound here; choose another name", span)
                return
        if name in self.sym.vars or name in self.sym.options or name in self.sym.zones:
            self.error(f"'{name}' would hide the declared '{name}'; choose another name", span)
        elif name in ("players", "seats") or name in self.sym.enum_values:
            # (an enum's own name may name a local: 'chooses order from order')
            what = "the built-in" if name in ("players", "seats") else "the enum value"
            self.error(f"'{name}' would hide {what} '{name}'; choose another name", span)
        self.scopes[-1][name] = typ
        self.note_local(name, typ)

    def note_local(self, name: str, typ: str) -> None:
        """Record that local ``name`` holds a ``typ`` here (one slot per name in the engine:
        its type is ``any`` when the places disagree)."""
        known = self.out.local_types.setdefault(name, typ)
        if known != typ:
            self.out.local_types[name] = ANY

    def lookup_local(self, name: str) -> str | None:
        """The type of local ``name`` (innermost scope first), or None."""
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def type_span(self, decl: ir.VarDecl | ir.AttrDecl, typ: str | None = None) -> Span:
        """Where ``decl``'s type (``typ``, default its ``type``) is written: the word after
        the first ':' outside quotes, after its name, found in its source; its name's span
        when the source is unknown."""
        typ = typ if typ is not None else getattr(decl, "type", "")
        text = self.out.sources.get(decl.span.file)
        lines = text.split("\n") if text else []
        if not typ or not 0 < decl.span.line <= len(lines):
            return decl.span
        line = lines[decl.span.line - 1]
        quoted = False
        for i in range(max(decl.span.col - 1, 0), len(line)):
            if line[i] == '"' and line[i - 1:i] != "\\":
                quoted = not quoted
            elif line[i] == ":" and not quoted:
                at = i + 1 + len(line[i + 1:]) - len(line[i + 1:].lstrip(" \t"))
                if line.startswith(typ, at):
                    return Span(file=decl.span.file, line=decl.span.line, col=at + 1,
                                end_line=decl.span.line, end_col=at + 1 + len(typ))
                break
        return decl.span

    def var_type(self, decl: ir.VarDecl) -> str:
        """The type a variable holds (``int``, ``enum:suit``...); an unknown type name is
        an error, typed :data:`ANY`."""
        t = decl.type
        if t in ("int", "bool", "player", "card"):
            return t
        if t in self.sym.enums:
            return f"enum:{t}"
        self.error(f"unknown type '{t}'; allowed: int, bool, player, card or an enum"
                   + did_you_mean(t, [*self.sym.enums, "int", "bool", "player", "card"]),
                   self.type_span(decl))
        return ANY
