"""Whose turn comes next: a public seat variable given a seat found from hidden cards
(``leader = owner(first(hand where it.rank == 2 and it.suit == clubs))``: the holder of a
card leads) tells every seat who holds that card. Nothing leaks when that seat's turn is
the next decision, before any other seat decides: whose turn it is, is public, so the turn
shows the seat anyway. :func:`seat_shown_next` checks that, for the leak warnings
(:mod:`.leaks`).

The next decision is looked for as the text runs on from the assignment: the rest of its
block, the blocks around it, a rule run by ``do``, and at the end of a phase the phases its
transitions lead to (a transition whose test is an ``if`` test known to hold on the way, as
``if hand_number == 1: ...`` then ``next play if hand_number == 1``, is the one taken). Every
branch of an ``if`` must lead to that seat's turn (one without ``else`` may be skipped); a
loop is taken to run its body (the first pass, as written: a loop after the assignment that
could run no pass at all is not followed past). The seat's turn is a choice it makes
(``V chooses ...``) or a trick led by it (``trick ... led by V`` with no decision in its
``before play``: the first play is the leader's, its seat named in the account even when
another chooses its card, ``chosen by``; a leader that sits out hands the lead on to the
next seat in play, and who sits out is told to all, so the leader is known to be among
them). The variable set again before any decision, or the game's end, ends the search too;
any other decision first is a leak, and so is the end of a rule that sets it (run from
places the search does not follow).
"""

from __future__ import annotations

from .. import ir
from ..show import expr_text
from ..visitor import nodes_of

# What is left to run: blocks (statements and the index of the next) and, at the bottom,
# the phase whose transitions follow them.
_Frame = tuple[list[ir.Stmt], int]
_Known = frozenset[tuple[str, frozenset[str]]]  # tests known to hold: text and names read


class _Search:
    """The search for the next decision after an assignment to variable ``var``."""

    def __init__(self, r: ir.Ruleset, var: str) -> None:
        self.var = var
        self.phases = {p.name: p for p in r.phases}
        self.rules = {d.name: d.body for d in r.rules}
        self.entered: set[str] = set()  # phases followed already (a cycle ends the path)

    def decides(self, frames: list[_Frame], phase: ir.PhaseDecl | None, known: _Known,
                depth: int = 0) -> bool:
        """Whether every path from ``frames`` reaches the seat's turn first."""
        if depth > 200:
            return False
        while frames:
            stmts, i = frames[-1]
            if i >= len(stmts):
                frames = frames[:-1]
                continue
            st = stmts[i]
            rest = [*frames[:-1], (stmts, i + 1)]
            verdict = self.statement(st, rest, phase, known, depth)
            if verdict is not None:
                return verdict
            frames = rest
            known = _forget(known, st)
        return self.transitions(phase, known, depth)

    def statement(self, st: ir.Stmt, rest: list[_Frame], phase: ir.PhaseDecl | None,
                  known: _Known, depth: int) -> bool | None:
        """The verdict at ``st`` (None: go on past it)."""
        var = self.var
        if isinstance(st, ir.Assign):
            return True if isinstance(st.target, ir.Name) and st.target.id == var else None
        if isinstance(st, ir.Choose):
            return expr_text(st.player) == var
        if isinstance(st, ir.Trick):
            return expr_text(st.leader) == var and not _decides(st.before_play)
        if isinstance(st, ir.EndGame):
            return True
        if isinstance(st, ir.Trigger):
            return False  # (an ability may decide anything)
        if isinstance(st, ir.If):
            paths = [(body, known | {_test(t)} if k == 0 else known)
                     for k, (t, body) in enumerate(zip(st.tests, st.bodies, strict=True))]
            paths.append((st.orelse, known))
            return all(self.decides([*rest, (body, 0)], phase, ks, depth + 1)
                       for body, ks in paths)
        if isinstance(st, ir.Repeat | ir.ForEachPlayer | ir.ForEachIn):
            return self.decides([*rest, (st.body, 0)], phase, known, depth + 1)
        if isinstance(st, ir.Do) and st.name in self.rules:
            return self.decides([*rest, (self.rules[st.name], 0)], phase, known, depth + 1)
        return None

    def transitions(self, phase: ir.PhaseDecl | None, known: _Known, depth: int) -> bool:
        """Whether every phase that ``phase`` may go on to reaches the seat's turn first
        (the end of a rule run from who knows where does not)."""
        if phase is None:
            return False
        texts = {text for text, _ in known}
        for t in phase.transitions:
            sure = t.guard is None or expr_text(t.guard) in texts
            if t.target != "end" and t.target not in self.entered:
                self.entered.add(t.target)
                nxt = self.phases.get(t.target)
                if nxt is not None and not self.decides([(nxt.body, 0)], nxt, known,
                                                         depth + 1):
                    return False
            if sure:
                break
        return True


def _test(t: ir.Expr) -> tuple[str, frozenset[str]]:
    return expr_text(t), frozenset(n.id for n in nodes_of(t, ir.Name))


def _forget(known: _Known, st: ir.Stmt) -> _Known:
    """``known`` less the tests that read a name ``st`` may set."""
    if not known:
        return known
    set_names = {a.target.id if isinstance(a.target, ir.Name) else expr_text(a.target)
                 .split("[")[0] for a in nodes_of(st, ir.Assign)}
    return frozenset(k for k in known if not k[1] & set_names)


def _decides(stmts: list[ir.Stmt]) -> bool:
    return any(isinstance(n, ir.Choose | ir.Trick) for n in ir.walk(stmts))


def seat_shown_next(r: ir.Ruleset, assign: ir.Assign) -> bool:
    """Whether the seat that ``assign`` gives to a variable (``V = SEAT``) is shown by its
    own turn before any other seat decides (the module's rule); False when ``assign`` is
    not found in a phase or rule body."""
    if not isinstance(assign.target, ir.Name):
        return False
    bodies: list[tuple[list[ir.Stmt], ir.PhaseDecl | None]] = \
        [(p.body, p) for p in r.phases] + [(d.body, None) for d in r.rules]
    for body, phase in bodies:
        frames = _find(body, assign, [], frozenset())
        if frames is not None:
            search = _Search(r, assign.target.id)
            return search.decides(frames[0], phase, frames[1])
    return False


def _find(stmts: list[ir.Stmt], target: ir.Stmt, outer: list[_Frame], known: _Known
          ) -> tuple[list[_Frame], _Known] | None:
    """The frames left to run just after ``target`` in ``stmts`` (inside ``outer``), and the
    tests known to hold there (the ``if`` tests it is under), or None when not inside."""
    for i, st in enumerate(stmts):
        here = [*outer, (stmts, i + 1)]
        if st is target:
            return here, known
        inner: list[tuple[list[ir.Stmt], _Known]] = []
        if isinstance(st, ir.If):
            inner = [(body, known | {_test(t)} if k == 0 else known)
                     for k, (t, body) in enumerate(zip(st.tests, st.bodies, strict=True))]
            inner.append((st.orelse, known))
        elif isinstance(st, ir.Repeat | ir.ForEachPlayer | ir.ForEachIn):
            inner = [(st.body, known)]
        for body, ks in inner:
            found = _find(body, target, here, ks)
            if found is not None:
                return found
    return None
