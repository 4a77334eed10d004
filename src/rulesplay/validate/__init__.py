"""Static checks of a ruleset: names, types, the phase graph and option values.

``check(ruleset)`` returns a :class:`Checked` with every name resolved and every expression
typed (the engine compiles from it) and the warnings found, or raises
:class:`RulesValidationError` carrying *all* the errors it found.

The passes, each in its module: :mod:`.declarations` fills the symbol table
(:mod:`.symbols`); :mod:`.expressions` and :mod:`.statements` type and check every
expression and statement (visitors, one method per node; builtins by their row in
:mod:`.functions`); :mod:`.phases` checks the phase graph and rules; :mod:`.unseen` the
options a chooser may not see, :mod:`.held` what is kept while a seat decides,
:mod:`.branches` the tests that lead to a decision; :mod:`.sight` the labels that would
show a variable some seat may not see; :mod:`.constants` works out option defaults and
copies before play; :mod:`.warn` finds what is legal but probably not meant. Types are
strings (:mod:`.types`).
"""

from __future__ import annotations

from .. import ir
from ..errors import Diagnostic, RulesValidationError, did_you_mean
from ..names import lookalike_warnings
from ..phasegraph import phase_edges, start_phase
from .branches import hidden_branches, trick_flow_sight
from .constants import MAX_CARDS, const_eval, constant_checks, value_before_play
from .cycles import ability_cycles, call_depths
from .declarations import Declarations, card_label_reads
from .enums import related, shared_enums
from .expand import Expander
from .expressions import ExprChecker
from .functions import BUILTINS, PER_ELEMENT, Builtin
from .held import held_values
from .leaks import public_leaks
from .phases import graph_checks, rule_cycles
from .seen_by import check_seen_by
from .sight import secret_action_labels
from .statements import StmtChecker
from .symbols import RESERVED, Checked, Context, Symbols
from .teams import team_checks
from .types import ANY, compatible, describe, elem_type, per_player_hint, sharing
from .unseen import Sight, unseen_options
from .warn import unused_options

__all__ = ["ANY", "BUILTINS", "MAX_CARDS", "PER_ELEMENT", "RESERVED", "Builtin", "Checked",
           "Checker", "Symbols", "check", "compatible", "const_eval", "describe", "elem_type",
           "per_player_hint", "phase_edges", "start_phase", "value_before_play"]


def _choice_words(o: ir.OptionDecl, diagnostics: list[Diagnostic]) -> None:
    """An unknown name as the value of a choice option (``option lead_rule = no_led``) is
    a misspelt value of that option: say so, with "did you mean" from its values (not from
    every name of the ruleset)."""
    if not o.choices or not isinstance(o.default, ir.Name):
        return
    for diag in diagnostics:
        if diag.message.startswith(f"undefined name '{o.default.id}'"):
            diag.message = (f"'{o.default.id}' is not a value of option '{o.name}'"
                            + did_you_mean(o.default.id, o.choices)
                            + "; allowed: " + ", ".join(o.choices))


class Checker:
    """Checks one ruleset: every pass, in order, over one shared :class:`Context`.

    Args:
        ruleset: the parsed IR.
    """

    def __init__(self, ruleset: ir.Ruleset) -> None:
        # Enums that share values are written out; defines and attributes that read the
        # game are expanded where they are used, first.
        ruleset, enum_errors = shared_enums(ruleset)
        self.shared = related(ruleset)
        self.expander = expander = Expander(ruleset)
        self.ctx = Context(expander.ruleset())
        self.ctx.out.diagnostics.extend(enum_errors + expander.diagnostics)
        expander.diagnostics = self.ctx.out.diagnostics
        self.ctx.expand = expander.expr
        self.ctx.defines = expander.defines
        self.ctx.origins = expander.origins
        self.ctx.out.dynamic_attrs = set(expander.dynamic)
        self.exprs = ExprChecker(self.ctx)
        self.stmts = StmtChecker(self.ctx, self.exprs)

    def run(self) -> Checked:
        """Run the passes; return the :class:`Checked` result with its diagnostics
        (unsorted; :func:`check` sorts them). The enums that share values are compatible
        while they run (:func:`~rulesplay.validate.types.sharing`)."""
        with sharing(self.shared):
            return self._passes()

    def _passes(self) -> Checked:  # noqa: C901 - one line per part of a ruleset
        ctx, exprs, stmts, r = self.ctx, self.exprs, self.stmts, self.ctx.r
        declarations = Declarations(ctx, exprs)
        declarations.run()
        ctx.scopes.append({})
        for o in r.options:
            ctx.scopes.append({})
            first = len(ctx.out.diagnostics)
            exprs.expr(o.default)
            for bound in (o.lo_at, o.hi_at):
                if bound is not None:
                    exprs.want(bound, "int")
            ctx.scopes.pop()
            _choice_words(o, ctx.out.diagnostics[first:])
        for v in r.vars:
            t = ctx.var_type(v)
            with ctx.only_reading(None):  # worked out when it is set, like a statement
                dt = exprs.expr(v.default)
            if not compatible(dt, t):
                ctx.error(f"type mismatch: the default of '{v.name}' is {describe(dt)}; "
                          f"the variable holds {describe(t)}", v.default.span)
        check_seen_by(ctx, exprs)
        for k in r.kinds:
            exprs.want(k.copies, "int")
            exprs.template(k.card_label, attrs=True)
            card_label_reads(ctx, k.card_label)
            declarations.tables(k)
        for ab in r.abilities:
            exprs.template(ab.labels)
            for stat, e in ab.modifies.items():
                ctx.scopes.append({"this": "card"})
                with ctx.only_reading(f"'modify {stat}'"):
                    exprs.want(e, "int", what=f" (modify {stat})")
                ctx.scopes.pop()
            for body in ab.steps.values():
                stmts.isolated_block(body, {"this": "card"})
        for rule in r.rules:
            stmts.isolated_block(rule.body, {})
        rule_cycles(ctx)
        ability_cycles(ctx)
        too_deep = call_depths(ctx)
        for p in r.phases:
            exprs.template(p.labels)
            stmts.block(p.body)
            for tr in p.transitions:
                if tr.guard is not None:
                    with ctx.only_reading(None):  # worked out once, as the phase ends
                        exprs.want(tr.guard, "bool")
                if tr.target != "end" and tr.target not in ctx.sym.phases:
                    ctx.error(f"unknown phase '{tr.target}'"
                              + did_you_mean(tr.target, [*ctx.sym.phases, "end"]), tr.span)
        if r.score is None:
            ctx.error("a ruleset needs a 'score:' line (the score of each player)", r.span)
        else:
            ctx.scopes.append({"player": "player"})
            with ctx.only_reading("the score"):
                exprs.want(r.score, "int", what=" (score)")
                for tie in r.tiebreaks:
                    exprs.want(tie, "int", what=" (tiebreak)")
            ctx.scopes.pop()
        if r.winners is not None:
            with ctx.only_reading("the winners rule"):
                exprs.want(r.winners, "list:player", what=" (winners: the winning seats)")
        if r.teams is not None:
            ctx.scopes.append({"player": "player"})
            with ctx.only_reading("the teams"):
                t = exprs.expr(r.teams)
                if t not in ("int", "str", ANY) and not t.startswith("enum:"):
                    ctx.error(f"a seat's team is a number, a text or an enum value, not "
                              f"{describe(t)}", r.teams.span)
            ctx.scopes.pop()
        for change in r.overrides:
            said = f"option {change.name} = ..." if change.action == "default" else \
                f"{change.action} {change.what} {change.name}"
            ctx.error(f"'{said}' changes a base ruleset; this file has no 'extends'",
                      change.span)
        ctx.scopes.pop()
        if too_deep:  # (the passes below follow every chain of calls)
            return ctx.out
        sight = Sight(r, ctx.out)
        unseen_options(ctx, sight)
        held_values(ctx, sight)
        hidden_branches(ctx, sight)
        trick_flow_sight(ctx, sight)
        graph_checks(ctx)
        secret_action_labels(ctx)
        team_checks(ctx, constant_checks(ctx))
        unused_options(ctx)
        for d in r.defines:
            if d.name not in self.expander.used:
                ctx.warn(f"define '{d.name}' is never used", d.span)
        return ctx.out


def check(ruleset: ir.Ruleset, sources: dict[str, str] | None = None) -> Checked:
    """Check a ruleset; return names and types resolved for the engine.

    Args:
        ruleset: the parsed IR.
        sources: file path -> text, so diagnostics can print the line and a caret.

    Returns:
        The :class:`Checked` ruleset; its ``warnings`` are sorted by position and carry
        their source for the caret.

    Raises:
        RulesValidationError: with every error found, sorted by position (warnings are not
            included).
    """
    checker = Checker(ruleset)
    checker.ctx.out.sources = dict(sources or {})  # (a message may point inside a line)
    checked = checker.run()
    checked.sources = dict(sources or {})
    ruleset = checked.ruleset  # (with defines and state-dependent attributes expanded)
    if checked.diagnostics:
        diags = _in_order(checked.diagnostics)
        first = diags[0]
        raise RulesValidationError(first.message, first.span, diags).attach_source(
            sources or {})
    checked.warnings = _in_order(checked.warnings + lookalike_warnings(checked.sources)
                                 + public_leaks(ruleset, checked))
    for diag in checked.warnings:
        diag.source = checked.sources.get(diag.span.file)
    return checked


def _in_order(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic once, sorted by file and position."""
    unique = {(d.message, d.span): d for d in diags}
    return sorted(unique.values(), key=lambda d: (d.span.file, d.span.line, d.span.col))
