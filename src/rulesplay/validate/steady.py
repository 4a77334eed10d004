"""Which variables may change while a local name holds its value: the statements that can
run between a place that binds the name and a read of it.

A local name is read only in its scope: the rest of the block that binds it (and, when
that block is a branch of an ``if`` that binds it in every branch, the rest of the
enclosing block, and so on), the body of a ``for each x in`` loop, a trick's clauses for
its card; of it, what runs up to the last statement that reads the name matters. An
assignment there (inside nested blocks, in a rule run by ``do``, in an ability run by
``trigger``; a ``trick`` resets the trick variables) may change a variable between the
binding and a read; any other variable keeps its value.
So ``turn may choose card from hand[turn]`` followed by ``turn chooses ...`` in the scope
of ``card`` names the same seat twice when nothing there assigns ``turn``.

A name bound in several places is taken as one (its one slot in the engine), so the sets
of all its bindings are joined (conservative).
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import ir

# A binding whose scope cannot be told (``this`` of an ability): every variable may change.
ANY_VAR = "*"


def changing(ruleset: ir.Ruleset) -> dict[str, frozenset[str]]:
    """For each local name bound by ``let``, a choice, ``for each x in`` or a trick's card:
    the variables an assignment in its scope may change (:data:`ANY_VAR` when the scope
    cannot be told).

    Args:
        ruleset: the checked ruleset (rules and abilities resolved by name).
    """
    return _Scopes(ruleset).run()


class _Scopes:
    def __init__(self, ruleset: ir.Ruleset) -> None:
        self.r = ruleset
        self.rules = {d.name: d.body for d in ruleset.rules}
        self.trick_vars = frozenset(v.name for v in ruleset.vars if v.scope == "trick")
        self._rule_sets: dict[str, frozenset[str]] = {}
        self._ability: frozenset[str] | None = None
        self.out: dict[str, set[str]] = {}

    def run(self) -> dict[str, frozenset[str]]:
        for phase in self.r.phases:
            self.block(phase.body, [])
        for rule in self.r.rules:
            self.block(rule.body, [])
        for ability in self.r.abilities:
            for steps in ability.steps.values():
                self.block(steps, [])
        self.out.setdefault("this", set()).add(ANY_VAR)
        return {name: frozenset(vs) for name, vs in self.out.items()}

    # ------------------------------------------------------------ scopes
    def block(self, stmts: list[ir.Stmt], outer: list[list[ir.Stmt]]) -> None:
        """Each statement of ``stmts``; ``outer`` holds, innermost first, the statements
        that follow an ``if`` whose branch ``stmts`` is (where a name bound in every
        branch stays in scope)."""
        for i, s in enumerate(stmts):
            rest = stmts[i + 1:]
            if isinstance(s, ir.Let | ir.Choose):
                for name in [s.name, *(s.skip_flags() if isinstance(s, ir.Choose) else [])]:
                    self.note(name, _until_read(name, [rest, *outer]))
            elif isinstance(s, ir.ForEachIn):
                self.note(s.var, [s.body])
            elif isinstance(s, ir.Trick):
                self.note(s.card_var, [s.after_play, s.after_trick])
            if isinstance(s, ir.If):
                for body in [*s.bodies, s.orelse]:
                    self.block(body, [rest, *outer])
            else:
                for body in _blocks(s):
                    self.block(body, [])

    def note(self, name: str, scope: Iterable[list[ir.Stmt]]) -> None:
        found = self.out.setdefault(name, set())
        for stmts in scope:
            found |= self.assigned(stmts)

    # ------------------------------------------------------------ assignments
    def assigned(self, stmts: list[ir.Stmt], seen: frozenset[str] = frozenset()
                 ) -> frozenset[str]:
        """The variables ``stmts`` (and what they run) may assign."""
        out: set[str] = set()
        for node in (n for s in stmts for n in ir.walk(s)):
            if isinstance(node, ir.Assign):
                out.add(_target(node.target))
            elif isinstance(node, ir.Trick):
                out |= self.trick_vars
            elif isinstance(node, ir.Do):
                out |= self.rule(node.name, seen)
            elif isinstance(node, ir.Trigger):
                out |= self.abilities()
        return frozenset(out)

    def rule(self, name: str, seen: frozenset[str]) -> frozenset[str]:
        if name in seen or name not in self.rules:
            return frozenset()  # a cycle (refused elsewhere) or an unknown rule
        if name not in self._rule_sets:
            self._rule_sets[name] = self.assigned(self.rules[name], seen | {name})
        return self._rule_sets[name]

    def abilities(self) -> frozenset[str]:
        if self._ability is None:
            self._ability = frozenset()  # an ability triggering abilities: no loop
            self._ability = self.assigned(
                [s for a in self.r.abilities for steps in a.steps.values() for s in steps])
        return self._ability


def _until_read(name: str, chain: list[list[ir.Stmt]]) -> list[list[ir.Stmt]]:
    """The part of a name's scope (``chain``: the statements after its binding, then after
    each ``if`` it leaves, innermost first) that runs before its last read: what follows
    the last statement reading it changes nothing it is read with."""
    for k in range(len(chain) - 1, -1, -1):
        reads = [i for i, s in enumerate(chain[k]) if _reads(s, name)]
        if reads:
            return [*chain[:k], chain[k][:reads[-1] + 1]]
    return []


def _reads(s: ir.Stmt, name: str) -> bool:
    return any(isinstance(n, ir.Name) and n.id == name for n in ir.walk(s))


def _blocks(s: ir.Stmt) -> list[list[ir.Stmt]]:
    """The blocks of statement ``s`` (a loop's body, a trick's clauses)."""
    if isinstance(s, ir.Repeat | ir.ForEachPlayer | ir.ForEachIn):
        return [s.body]
    if isinstance(s, ir.Trick):
        return [s.after_play, s.after_trick]
    return []


def _target(e: ir.Expr) -> str:
    """The variable an assignment's target names (``x``, ``x[seat]``, ``card.x``)."""
    if isinstance(e, ir.Index):
        return _target(e.obj)
    if isinstance(e, ir.Attr):
        return e.name
    return e.id if isinstance(e, ir.Name) else ANY_VAR
