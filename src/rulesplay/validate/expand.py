"""Named expressions and state-dependent card attributes, expanded where they are used.

``define NAME(a, b) = EXPR`` names an expression; a call ``NAME(x, y)`` stands for EXPR with
``a`` and ``b`` replaced by the arguments. A derived card attribute that reads the game
(a variable or a zone: ``power = 16 if rank == 11 and suit == trump else rank``) is worked
out when it is read: ``c.power`` stands for its expression with the card's attributes read
from ``c``. Both are replaced before the other passes run, so every pass (types at the use,
the sight rules, both engines) sees plain expressions, and a ruleset that uses neither is
returned unchanged (a derived attribute that reads only the card stays precomputed).

A define sees only its parameters and declared names (never a local of the place it is
used), cannot use itself (directly or through another), and an argument drawn at random or
read through ``it`` is refused where expanding it would change what it means.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .. import ir
from ..errors import Diagnostic, Span
from ..visitor import nodes_of
from .functions import BUILTINS


def _reads(e: ir.Node, defines: dict[str, ir.DefineDecl],
           seen: frozenset[str] = frozenset()) -> set[str]:
    """The names ``e`` reads, through the defines it calls too (but their parameters)."""
    out = {n.id for n in nodes_of(e, ir.Name)}
    for call in nodes_of(e, ir.Call):
        d = defines.get(call.func)
        if d is not None and d.name not in seen:  # (a define using itself is reported)
            out |= _reads(d.body, defines, seen | {d.name}) - set(d.params)
    return out


def dynamic_attrs(r: ir.Ruleset) -> dict[str, tuple[ir.KindDecl, ir.AttrDecl]]:
    """The derived attributes that read the game (a variable, a zone, or an attribute of
    the same kind that does, directly or through a define), by name, with their kind."""
    state = {v.name for v in r.vars} | {z.name for z in r.zones}
    defines = {d.name: d for d in r.defines}
    out: dict[str, tuple[ir.KindDecl, ir.AttrDecl]] = {}
    for k in r.kinds:
        mine: set[str] = set()
        for a in k.attrs:
            if a.value is not None and _reads(a.value, defines) & (state | mine):
                mine.add(a.name)
                out.setdefault(a.name, (k, a))
    return out


class Expander:
    """Rewrites a ruleset's expressions: calls of defines and reads of state-dependent
    attributes become the expressions they stand for.

    Args:
        r: the parsed (merged) ruleset.
    """

    def __init__(self, r: ir.Ruleset) -> None:
        self.r = r
        self.defines = {d.name: d for d in r.defines}
        self.dynamic = dynamic_attrs(r)
        self.diagnostics: list[Diagnostic] = []
        # the span of each use -> what it expands (errors found in the expansion say it)
        self.origins: dict[Span, str] = {}
        self.used: set[str] = set()  # the defines called
        self._bodies: dict[str, ir.Expr] = {}
        self._using: list[str] = []

    def active(self) -> bool:
        """Whether there is anything to expand."""
        return bool(self.defines or self.dynamic)

    def error(self, message: str, span: Span) -> None:
        """Record an error at ``span``."""
        self.diagnostics.append(Diagnostic(message, span))

    # ------------------------------------------------------------ the ruleset
    def ruleset(self) -> ir.Ruleset:
        """The ruleset with every use expanded (itself when nothing needs expanding)."""
        if not self.active():
            return self.r
        for d in self.r.defines:
            self._body(d.name, d.span)
        out: ir.Ruleset = self._rewrite(self.r.model_copy(update={"defines": []}))
        return out.model_copy(update={"defines": self.r.defines})

    def _rewrite(self, value: Any) -> Any:
        """``value`` (a node, or lists, tuples and dicts of them) with its expressions
        expanded; the same object when nothing in it changes."""
        if isinstance(value, ir.ExprNode):
            return self.expr(value)  # type: ignore[arg-type]
        if isinstance(value, ir.Node):
            changed = {}
            for name in type(value).model_fields:
                old = getattr(value, name)
                new = self._rewrite(old)
                if new is not old:
                    changed[name] = new
            return value.model_copy(update=changed) if changed else value
        if isinstance(value, list | tuple):
            items = [self._rewrite(v) for v in value]
            if all(a is b for a, b in zip(items, value, strict=True)):
                return value
            return items if isinstance(value, list) else tuple(items)
        if isinstance(value, dict):
            new_items = {k: self._rewrite(v) for k, v in value.items()}
            if all(new_items[k] is v for k, v in value.items()):
                return value
            return new_items
        return value

    # ------------------------------------------------------------ expressions
    def expr(self, e: ir.Expr) -> ir.Expr:
        """``e`` with every define called and every state-dependent attribute read in it
        replaced by what it stands for."""
        out: ir.Expr = self._rewrite_children(e)
        if isinstance(out, ir.Call) and out.func in self.defines:
            return self._call(out)
        if isinstance(out, ir.Attr) and out.name in self.dynamic:
            kind, attr = self.dynamic[out.name]
            assert attr.value is not None
            names = {a.name for a in kind.attrs}
            if self._once(out.obj, attr.value, names, out.span,
                          f"the attribute '{attr.name}'") is None:
                return out
            self.origins.setdefault(out.span, f"the attribute '{attr.name}', line "
                                              f"{attr.span.line}")
            # (attributes it reads that read the game in turn are expanded after)
            return self.expr(self._substitute(attr.value, {
                n: ir.Attr(span=out.obj.span, obj=out.obj, name=n) for n in names}, out.span))
        return out

    def _rewrite_children(self, e: ir.Expr) -> ir.Expr:
        changed = {}
        for name in type(e).model_fields:
            old = getattr(e, name)
            if isinstance(old, ir.Node | list | tuple | dict):
                new = self._rewrite(old)
                if new is not old:
                    changed[name] = new
        return e.model_copy(update=changed) if changed else e

    def _call(self, call: ir.Call) -> ir.Expr:
        d = self.defines[call.func]
        self.used.add(d.name)
        if len(call.args) != len(d.params):
            self.error(f"'{d.name}' takes {len(d.params)} argument"
                       f"{'' if len(d.params) == 1 else 's'} ({', '.join(d.params)}), got "
                       f"{len(call.args)}", call.span)
            return call
        body = self._body(d.name, call.span)
        if body is None:
            return call
        for param, arg in zip(d.params, call.args, strict=True):
            if self._once(arg, d.body, {param}, arg.span, f"'{d.name}'") is None:
                return call
        self.origins.setdefault(call.span, f"'{d.name}', line {d.span.line}")
        return self._substitute(body, dict(zip(d.params, call.args, strict=True)),
                                call.span)

    def _body(self, name: str, span: Span) -> ir.Expr | None:
        """The body of define ``name`` with the defines it calls expanded (None after an
        error: it uses itself)."""
        if name in self._bodies:
            return self._bodies[name]
        d = self.defines[name]
        if name in self._using:
            chain = " -> ".join([*self._using[self._using.index(name):], name])
            self.error(f"'{name}' uses itself ({chain}): a define cannot be recursive", span)
            return None
        self._using.append(name)
        self._free_names(d)
        body = self.expr(d.body)
        self._using.pop()
        self._bodies[name] = body
        return body

    def _free_names(self, d: ir.DefineDecl) -> None:
        """A define's body reads its parameters, ``it`` and declared names only."""
        r = self.r
        declared = {*d.params, "it", "players", "seats", "bool", *self.defines,
                    *(o.name for o in r.options), *(v.name for v in r.vars),
                    *(z.name for z in r.zones), *(e.name for e in r.enums),
                    *(m.name for e in r.enums for m in e.values),
                    *(c for o in r.options for c in o.choices),
                    *(a.name for a in r.abilities),
                    *(("teams",) if r.teams is not None else ())}
        for n in nodes_of(d.body, ir.Name):
            if n.id not in declared:
                self.error(f"'{n.id}' is not a parameter of '{d.name}' nor a declared name:"
                           " a define sees only its parameters"
                           f" ({', '.join(d.params) or 'none'}) and what the ruleset declares",
                           n.span)

    def _once(self, arg: ir.Expr, body: ir.Expr, names: set[str], span: Span,
              what: str) -> ir.Expr | None:
        """``arg`` when putting it for ``names`` in ``body`` keeps its meaning: an argument
        drawn at random is used once, one that reads ``it`` not where ``body`` binds
        another ``it``; else None, reported."""
        uses = [n for n in nodes_of(body, ir.Name) if n.id in names]
        if len(uses) > 1 and any(c.func == "random" for c in nodes_of(arg, ir.Call)):
            self.error(f"this card is drawn at random and {what} reads it more than once: "
                       "draw it first (let x = random(...)) and pass x", span)
            return None
        if any(n.id == "it" for n in nodes_of(arg, ir.Name)) and any(
                id(u) in _element_scoped(body) for u in uses):
            self.error(f"this reads 'it', and {what} reads it inside its own count, any or "
                       "where, where 'it' is another element: use a named card there (a "
                       "loop's card, a choice, 'let')", span)
            return None
        return arg

    def _substitute(self, body: ir.Expr, by: dict[str, ir.Expr], span: Span) -> ir.Expr:
        """``body`` with each Name in ``by`` replaced, every other node placed at ``span``
        (where it is used: errors in its types point there)."""
        if isinstance(body, ir.Name) and body.id in by:
            return by[body.id]
        update: dict[str, Any] = {"span": span}
        for name in type(body).model_fields:
            old = getattr(body, name)
            if isinstance(old, ir.ExprNode):
                update[name] = self._substitute(old, by, span)  # type: ignore[arg-type]
            elif isinstance(old, list) and old and isinstance(old[0], ir.ExprNode):
                update[name] = [self._substitute(x, by, span) for x in old]
        return body.model_copy(update=update)


def _element_scoped(body: ir.Expr) -> set[int]:
    """The ids of the nodes of ``body`` evaluated with their own ``it`` (a builtin's
    per-element argument, a ``where`` filter's test)."""
    out: set[int] = set()
    for node in ir.walk(body):
        parts: list[ir.Node] = []
        if isinstance(node, ir.Call) and node.func in BUILTINS:
            k = BUILTINS[node.func].per_element
            if k is not None and k < len(node.args):
                parts.append(node.args[k])
        elif isinstance(node, ir.Filter):
            parts.append(node.cond)
        out.update(id(n) for part in parts for n in _all(part))
    return out


def _all(node: ir.Node) -> Iterator[ir.Node]:
    return ir.walk(node)
