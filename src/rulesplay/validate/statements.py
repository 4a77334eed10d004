"""Checking statements: one visit method per statement node, and the blocks around them.

A block opens a scope for the locals its statements bind (``let``, a choice's name, a loop
variable); ``break`` needs a loop around it; a rule's or an ability's body sees no outer
local and no outer loop.
"""

from __future__ import annotations

from .. import ir
from ..errors import Span, did_you_mean
from ..limits import MAX_SET_CARDS
from ..visitor import Stage
from .constants import value_before_play
from .expressions import ExprChecker
from .symbols import Context
from .types import ANY, compatible, describe


class StmtChecker(Stage):
    """Checks statements in the scopes of a :class:`Context`, typing their expressions with
    an :class:`ExprChecker`. Each ``visit_<Node>(s)`` returns None."""

    handles = (ir.StmtNode,)

    def __init__(self, ctx: Context, exprs: ExprChecker) -> None:
        self.ctx, self.sym, self.exprs = ctx, ctx.sym, exprs
        self.expr, self.want, self.coll = exprs.expr, exprs.want, exprs.coll

    def error(self, message: str, span: Span) -> None:
        """Report an error at ``span``."""
        self.ctx.error(message, span)

    # ------------------------------------------------------------ blocks
    def block(self, stmts: list[ir.Stmt],
              bound: dict[str, str] | None = None) -> dict[str, str]:
        """Check ``stmts`` in a new scope holding the ``bound`` locals (name -> type); returns
        that scope (the locals the block bound, with ``bound``)."""
        for name, typ in (bound or {}).items():
            self.ctx.note_local(name, typ)
        self.ctx.scopes.append(dict(bound or {}))
        with self.ctx.only_reading(None):  # a statement's expressions run once, in turn
            for s in stmts:
                self.visit(s)
        return self.ctx.scopes.pop()

    def loop_block(self, stmts: list[ir.Stmt], bound: dict[str, str] | None = None) -> None:
        """A loop's body: as :meth:`block`, where ``break`` is allowed."""
        self.ctx.loops += 1
        self.block(stmts, bound)
        self.ctx.loops -= 1

    def isolated_block(self, stmts: list[ir.Stmt], bound: dict[str, str]) -> None:
        """A body of its own (an ability or rule): no outer locals, no outer loop."""
        ctx = self.ctx
        scopes, loops, after_play, mid = ctx.scopes, ctx.loops, ctx.after_play, ctx.mid_trick
        ctx.scopes, ctx.loops, ctx.after_play, ctx.mid_trick = [{}], 0, 0, 0
        self.block(stmts, bound)
        ctx.scopes, ctx.loops, ctx.after_play, ctx.mid_trick = scopes, loops, after_play, mid

    # ------------------------------------------------------------ effects
    def visit_Assign(self, s: ir.Assign) -> None:
        """A global or trick variable, ``x[seat]`` of a player variable, or ``card.var``
        gets a value of its type; ``+=``/``-=`` need numbers."""
        t = s.target
        if not isinstance(t, ir.Name | ir.Attr | ir.Index):
            self.error("only a variable, 'x[seat]' or 'card.var' can be assigned", t.span)
            self.expr(s.value)
            return
        if isinstance(t, ir.Name):
            if self.ctx.lookup_local(t.id) is not None:
                self.error(f"'{t.id}' is a local name and cannot be assigned", t.span)
                return
            if self._not_a_variable(t):
                self.expr(s.value)
                return
        target_type = self.expr(t)
        if isinstance(t, ir.Index) and not self.expr(t.obj).startswith(("pvar:", "teamvar:")):
            self.error("only a player variable can be assigned by seat (a team variable by "
                       "team)", t.span)
        if isinstance(t, ir.Attr) and t.name not in self.sym.vars:
            self.error(f"'{t.name}' is a printed attribute of the card; only card variables "
                       "can be assigned", t.span)
        if s.op == "=":
            self.want(s.value, target_type, what=" in assignment")
        else:  # (yes/no compare with numbers, but are not added: 'v += true' was 1)
            if self.want(s.value, "int") == "bool":
                self.error(f"'{s.op}' adds or takes away a number, not yes/no: to count a "
                           f"test, write '{s.op} 1 if TEST else 0'", s.value.span)
            if not compatible(target_type, "int") or target_type in ("none", "bool"):
                self.error(f"'{s.op}' needs a number variable, got {describe(target_type)}",
                           t.span)

    def _not_a_variable(self, t: ir.Name) -> bool:
        """Report a bare name that is no global or trick variable (an option, a player or
        card variable, nothing declared); True when reported."""
        var = self.sym.vars.get(t.id)
        if var is not None and var.scope not in ("card", "player", "team"):
            return False
        if t.id in self.sym.options:
            msg = f"option '{t.id}' is read-only; declare a 'var' for a value " \
                "that changes during play"
        elif var is not None:
            msg = f"'{t.id}' is a {var.scope} variable: say " + \
                (f"card.{t.id}" if var.scope == "card" else f"{t.id}[team of seat]"
                 if var.scope == "team" else f"{t.id}[seat]")
        else:
            msg = f"undefined variable '{t.id}'" + did_you_mean(
                t.id, [v for v in self.sym.vars if self.sym.vars[v].scope
                       in ("global", "trick")])
        self.error(msg, t.span)
        return True

    def visit_Let(self, s: ir.Let) -> None:
        t = self.expr(s.value)
        self.ctx.bind(s.name, t, s.span)

    def visit_Move(self, s: ir.Move) -> None:
        if self.unknown_zone(s.cards, "move") or self.unknown_zone(s.to, "move"):
            return
        t = self.expr(s.cards)
        if t not in ("card", "zone", "pzone", "list:card", ANY):  # (pzone: every seat's)
            self.error(f"'move' needs a card, cards or a zone, got {describe(t)}",
                       s.cards.span)
        self.want(s.to, "zone", what=" (destination of move)")
        for said in s.also_end:
            self.error(f"'{said.text}' and 'at random' say two places for the cards: "
                       "give one", said.span)

    def visit_Shuffle(self, s: ir.Shuffle) -> None:
        self.want(s.zone, "zone", what=" (shuffle needs a zone)")

    def visit_Reveal(self, s: ir.Reveal) -> None:
        word = "reveal" if s.shown else "hide"
        var = self.sym.vars.get(s.zone.id) if isinstance(s.zone, ir.Name) and \
            self.ctx.lookup_local(s.zone.id) is None else None
        if var is not None:  # 'reveal VAR': its value, every seat's, is shown from now on
            if var.scope in ("card", "trick"):
                self.error(f"'{word}' shows a variable of the game, a player or a team; "
                           f"'{var.name}' is a {var.scope} variable", s.zone.span)
            elif var.visibility == "public":
                self.ctx.warn(f"variable '{var.name}' is public: every seat sees it already, "
                              f"so '{word}' changes nothing", s.span)
            self.expr(s.zone)
            return
        if self.unknown_zone(s.zone, word):
            return
        self.want(s.zone, "zone", what=f" ({word} needs a zone, one seat's zone or a variable)")
        base = s.zone.obj if isinstance(s.zone, ir.Index) else s.zone
        zone = self.sym.zones.get(base.id) if isinstance(base, ir.Name) else None
        if zone is not None and zone.visibility == "public" and \
                self.ctx.lookup_local(zone.name) is None:
            self.ctx.warn(f"zone '{zone.name}' is public: every seat sees it already, so "
                          f"'{word}' changes nothing", s.span)

    def visit_Deal(self, s: ir.Deal) -> None:
        if s.count is not None:
            self.want(s.count, "int")
        self.want(s.source, "zone")
        z = self.sym.zones.get(s.to)
        if z is None:
            self.error(f"unknown zone '{s.to}'" + did_you_mean(s.to, self.sym.zones), s.span)
        elif not z.per_player:
            self.error(f"'deal' deals to a zone per player; '{s.to}' is shared", s.span)
        if s.start is not None:
            self.want(s.start, "player")

    def visit_Say(self, s: ir.Say) -> None:
        self.exprs.template(s.text)

    def visit_EndGame(self, s: ir.EndGame) -> None:
        pass

    def unknown_zone(self, e: ir.Expr, verb: str) -> bool:
        """Report ``e`` when it is a bare name (or ``name[p]``) that nothing declares, where a
        zone is expected; the message lists the zones."""
        base = e.obj if isinstance(e, ir.Index) else e
        if not isinstance(base, ir.Name):
            return False
        n, sym = base.id, self.sym
        if self.ctx.lookup_local(n) is not None or n in ("it", "players", "seats", "bool") or \
                any(n in names for names in (sym.options.keys(), sym.vars.keys(),
                                             sym.zones.keys(), sym.enums.keys(),
                                             sym.enum_values.keys(), sym.choice_values.keys())):
            return False
        # A misspelt local (the card just chosen, a loop's card) is as likely as a zone.
        locals_ = {k for scope in self.ctx.scopes for k in scope}
        best = did_you_mean(n, [*locals_, *sym.zones])
        if best and best.split("'")[1] in locals_:
            self.error(f"undefined name '{n}' in '{verb}'{best}", base.span)
            return True
        hint = did_you_mean(n, sym.zones) or \
            "; zones: " + ", ".join(sym.zones) if sym.zones else ""
        self.error(f"unknown zone '{n}' in '{verb}'{hint}", base.span)
        return True

    # ------------------------------------------------------------ control
    def visit_If(self, s: ir.If) -> None:
        """Each test is a condition; a local bound by every branch (an ``else`` included),
        with the same type in each, stays bound after the ``if``."""
        scopes = []
        for test, body in zip(s.tests, s.bodies, strict=True):
            self.want(test, "bool")
            scopes.append(self.block(body))
        scopes.append(self.block(s.orelse))
        names = {name for scope in scopes for name in scope}
        for name in sorted(names):
            types = {scope.get(name) for scope in scopes}
            if len(types) == 1 and self.ctx.lookup_local(name) is None:
                self.ctx.scopes[-1][name] = scopes[0][name]
            elif None in types:
                self.ctx.partly_bound[name] = (
                    f"'{name}' is bound in some branches of the 'if' at line {s.span.line} "
                    "but not in all" + ("" if s.orelse else " (it has no 'else')")
                    + ": bind it in every branch to use it after the 'if'")
            else:
                self.ctx.partly_bound[name] = (
                    f"'{name}' is bound with different types in the branches of the 'if' "
                    f"at line {s.span.line} ({', '.join(sorted(describe(t) for t in types if t))})")

    def visit_Repeat(self, s: ir.Repeat) -> None:
        if s.count is not None:
            self.want(s.count, "int")
        if s.test is not None:
            self.want(s.test, "bool")
        self.loop_block(s.body, {s.var: "int"} if s.var else None)

    def visit_ForEachPlayer(self, s: ir.ForEachPlayer) -> None:
        if s.start is not None:
            self.want(s.start, "player")
        if s.until is not None:  # (tested before each turn: the loop's name is not bound)
            self.want(s.until, "bool", what=" (until)")
        self.ctx.scopes.append({})
        self.ctx.bind(s.var, "player", s.span)
        if s.order is not None:
            t = self.expr(s.order)
            if t not in ("int", "bool", "tuple", ANY):
                self.error(f"'ordered by' needs a number or a tuple, got {describe(t)}",
                           s.order.span)
        self.loop_block(s.body)
        self.ctx.scopes.pop()

    def visit_ForEachIn(self, s: ir.ForEachIn) -> None:
        el = self.coll(s.coll, None, " to loop over")
        self.ctx.scopes.append({})
        self.ctx.bind(s.var, el, s.span)
        self.loop_block(s.body)
        self.ctx.scopes.pop()

    def visit_Break(self, s: ir.Break) -> None:
        if self.ctx.loops == 0 and self.ctx.mid_trick:
            self.error("'break' cannot leave a trick while it is played ('before play' and "
                       "'after play' run inside it); 'end trick' in 'after play' ends the "
                       "trick", s.span)
        elif self.ctx.loops == 0:
            self.error("'break' is only allowed inside 'repeat' or 'for each'", s.span)

    def visit_EndTrick(self, s: ir.EndTrick) -> None:
        if self.ctx.after_play == 0:
            self.error("'end trick' is only allowed in a trick's 'after play' block (it ends "
                       "the trick being played)", s.span)

    def visit_Do(self, s: ir.Do) -> None:
        if s.name not in self.sym.rules:
            self.error(f"unknown rule '{s.name}'" + did_you_mean(s.name, self.sym.rules),
                       s.span)

    def visit_Trigger(self, s: ir.Trigger) -> None:
        if s.step not in self.sym.steps:
            self.error(f"no ability has a block 'at {s.step}'"
                       + did_you_mean(s.step, self.sym.steps), s.span)
        el = self.coll(s.cards, None, " to trigger")
        if el not in ("card", ANY):
            self.error(f"'trigger' runs the abilities of cards, got "
                       f"{describe('list:' + el)}", s.cards.span)

    # ------------------------------------------------------------ decisions
    def visit_Choose(self, s: ir.Choose) -> None:
        if (s.skip_label is not None or s.more_skips) and not s.optional:
            label = s.skip_label or s.more_skips[0].label
            self.error("'skip' needs 'may choose' (a choice that can be skipped)",
                       label.span if label.span.line else s.span)
        self.want(s.player, "player", what=" (who chooses)")
        with self.ctx.only_reading("a choice's options"):
            el = self.coll(s.domain, None, " to choose from")
        if s.cards is not None:
            el = self.card_set(s.cards, el, s.domain)
        if s.where is not None:
            self.ctx.scopes.append({s.name: el})
            with self.ctx.only_reading("a choice's 'where' filter"):
                self.want(s.where, "bool")
            self.ctx.scopes.pop()
        skips = s.skips()
        for k in skips:  # (a skip without 'may choose' is reported above)
            if k.test is not None:
                with self.ctx.only_reading("whether a choice may be skipped"):
                    self.want(k.test, "bool", what=" (when the skip is allowed)")
        # The prompt is shown before the choice is made: it cannot name the choice.
        with self.ctx.only_reading("a prompt"):
            self.exprs.template(s.prompt)
            for k in skips:
                self.exprs.template(k.label)
        self.ctx.bind(s.name, el, s.span)
        self.named_skips(s, skips)

    def named_skips(self, s: ir.Choose, skips: list[ir.SkipClause]) -> None:
        """Several skips of one choice are each named (``skip "pass" as passing``), with
        names of their own; each name is bound, a yes/no: the skip was taken. Named skips
        are for a choice of one card or value."""
        if s.cards is not None and (len(skips) > 1 or s.skip_as is not None):
            self.error("a choice of several cards has one unnamed skip; named skips are "
                       "for a choice of one card or value", skips[-1].span)
            return
        seen = {s.name}
        for k in skips:
            if k.name is None:
                if len(skips) > 1:
                    self.error("a choice with several skips names each one, e.g. "
                               "'skip \"pass\" as passing': the name says after the choice "
                               "which was taken", k.span)
                continue
            if k.name in seen:
                self.error(f"'{k.name}' already names this choice or another of its skips",
                           k.span)
                continue
            seen.add(k.name)
            self.ctx.bind(k.name, "bool", k.span)

    def card_set(self, c: ir.CardSet, el: str, domain: ir.Expr) -> str:
        """Several cards as one decision (``3 cards``, ``1..4 cards of one rank``): a count
        from 1 up to :data:`~rulesplay.limits.MAX_SET_CARDS`, cards to choose from, keys that
        are the cards' values (a run's, numbers). Returns the chosen name's type (a list of
        ``el``)."""
        if c.low is None or c.high is None:
            self.error("'of one ...' and 'of consecutive ...' describe several cards chosen "
                       "at once: give their number before the name, e.g. 'chooses 2 cards "
                       "from hand[p] of one rank'", c.span)
        elif not 1 <= c.low <= c.high <= MAX_SET_CARDS:
            self.error(f"a number of cards runs from 1 to {MAX_SET_CARDS}, low to high "
                       f"(e.g. '1..4'), not {c.low}..{c.high}" if c.low != c.high else
                       f"a number of cards runs from 1 to {MAX_SET_CARDS}, not {c.low}",
                       c.span)
        if el not in ("card", ANY):
            self.error(f"several are chosen at once only of cards; this chooses from "
                       f"{describe('list:' + el)}", domain.span)
        with self.ctx.only_reading("what the chosen cards share"):
            for key in (k for shape in c.shapes for k in shape.same):
                self.expr(key, "card")
            for key in (k for shape in c.shapes for k in shape.runs):
                t = self.expr(key, "card")
                if t not in ("int", ANY):
                    name = key.name if isinstance(key, ir.Attr) else "the key"
                    self.error(f"a run ('of consecutive {name}') needs whole numbers; "
                               f"'{name}' is {describe(t)}", key.span)
        return "list:" + el

    def visit_Trick(self, s: ir.Trick) -> None:
        """Zone, leader, the play (``player`` and the card bound), ``pass`` only when
        climbing, one ``won by`` key (``it`` each card), ``after trick`` with ``winner``."""
        ctx = self.ctx
        for again in s.duplicates:
            self.error(f"a trick has only one '{again.text}' clause", again.span)
        if s.pass_label is not None and not s.climbing:
            self.error("only a climbing trick has 'pass' (write 'trick climbing in ...'); in "
                       "this trick every player plays once",
                       s.pass_label.span if s.pass_label.span.line else s.span)
        self.want(s.zone, "zone", what=" (trick zone)")
        self.want(s.leader, "player", what=" (leader)")
        ctx.scopes.append({})
        ctx.bind("player", "player", s.span)
        if s.sits_out is not None:
            with self.ctx.only_reading("'sits out'"):
                self.want(s.sits_out, "bool", what=" (sits out if)")
            if value_before_play(s.sits_out, {}) is True:
                self.error("every seat sits out this trick ('sits out if' is always true): "
                           "nobody would play", s.sits_out.span)
        if s.chosen_by is not None:
            with self.ctx.only_reading("'chosen by'"):
                self.want(s.chosen_by, "player", what=" (chosen by)")
        # 'before play' runs as a seat's turn comes: the seat is bound, no card yet. Neither
        # it nor 'after play' may 'break' out of a loop around the trick (the trick would
        # be left half played: no winner, its cards on the table).
        loops, ctx.loops = ctx.loops, 0
        ctx.mid_trick += 1
        self.block(s.before_play)
        el = self.coll(s.source, None)
        if el not in ("card", ANY):
            self.error(f"players play cards; the source holds {describe('list:' + el)}",
                       s.source.span)
        ctx.scopes.append({})
        ctx.bind(s.card_var, "card" if s.cards is None else self.card_set(s.cards, el, s.source),
                 s.span)
        if s.where is not None:
            with self.ctx.only_reading("what may be played"):
                self.want(s.where, "bool")
        with self.ctx.only_reading("a prompt"):
            self.exprs.template(s.prompt)
        ctx.after_play += 1
        self.block(s.after_play)
        ctx.after_play -= 1
        ctx.loops = loops
        ctx.mid_trick -= 1
        ctx.scopes.pop()
        ctx.scopes.pop()
        with self.ctx.only_reading("a prompt"):
            self.exprs.template(s.pass_label)
        if s.pass_turn_test is not None:
            with self.ctx.only_reading("how long a pass holds"):
                self.want(s.pass_turn_test, "bool", what=" (pass for this turn if)")
        if s.key is None:
            self.error("this trick has no 'won by highest KEY' line saying which card wins, "
                       "e.g. 'won by highest it.rank'", s.span)
        else:
            ctx.key_card = s.card_var
            with self.ctx.only_reading("'won by'"):
                self.expr(s.key, "card")
            ctx.key_card = None
        self.block(s.after_trick, {"winner": "player"})
