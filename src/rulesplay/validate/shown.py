"""What has been shown to every seat at each statement: the zones and variables revealed
(``reveal ZONE``, ``reveal VAR``) and not hidden again since, along each block in order.

The leak warnings (:mod:`.leaks`) read it: a public variable given a value read from a
revealed hand, or from a hidden variable once it is revealed, shows no seat anything new.
The reckoning is by the text, block by block: a ``reveal`` holds for the statements after
it in its block (and the blocks inside them); a ``hide`` anywhere in a statement (inside a
branch or a loop, through ``do RULE``) ends it after that statement, and in the whole of a
loop or trick that holds it (a block that runs again may run after it); a ``reveal ZONE[p]``
in the body of ``for each player p`` shows every seat's ZONE after the loop. Nothing is
carried from one phase, rule or ability to another (a warning there is kept).
"""

from __future__ import annotations

from .. import ir
from ..show import expr_text

Shown = frozenset[str]  # the texts shown: zone names ("deck"), one seat's ("hand[q]"), vars


def shown_at(r: ir.Ruleset) -> dict[int, Shown]:
    """Per statement (by ``id``), what is shown to every seat when it runs (statements
    where nothing is are left out)."""
    rules = {d.name: d.body for d in r.rules}
    out: dict[int, Shown] = {}
    for body in _bodies(r):
        _block(body, frozenset(), out, rules)
    return out


def _bodies(r: ir.Ruleset) -> list[list[ir.Stmt]]:
    out = [p.body for p in r.phases] + [d.body for d in r.rules]
    return out + [steps for ab in r.abilities for steps in ab.steps.values()]


def _block(stmts: list[ir.Stmt], shown: Shown, out: dict[int, Shown],
           rules: dict[str, list[ir.Stmt]]) -> None:
    for st in stmts:
        if shown:
            out[id(st)] = shown
        # A block that runs again (a loop's body, a trick's blocks) may run after a 'hide'
        # in it: what that may hide is not shown anywhere in it.
        again = _without(shown, _hidden_in(st, rules, set())) \
            if isinstance(st, ir.Repeat | ir.ForEachPlayer | ir.ForEachIn | ir.Trick) \
            else shown
        for inner in _inner_blocks(st):
            _block(inner, again, out, rules)
        shown = _after(st, shown, rules)


def _inner_blocks(st: ir.Stmt) -> list[list[ir.Stmt]]:
    """The blocks of statements directly inside ``st`` (an ``if``'s branches, a loop's
    body, a trick's ``before play``/``after play``/``after trick``)."""
    if isinstance(st, ir.If):
        return [*st.bodies, st.orelse]
    if isinstance(st, ir.Repeat | ir.ForEachPlayer | ir.ForEachIn):
        return [st.body]
    if isinstance(st, ir.Trick):
        return [st.before_play, st.after_play, st.after_trick]
    return []


def _after(st: ir.Stmt, shown: Shown, rules: dict[str, list[ir.Stmt]]) -> Shown:
    """What is shown once ``st`` has run."""
    if isinstance(st, ir.Reveal):
        text = expr_text(st.zone)
        return shown | {text} if st.shown else shown - {text}
    shown = _without(shown, _hidden_in(st, rules, set()))
    if isinstance(st, ir.ForEachPlayer):  # 'reveal hand[p]' for every p: all of 'hand'
        shown |= {x.zone.obj.id for x in st.body if isinstance(x, ir.Reveal) and x.shown
                  and isinstance(x.zone, ir.Index) and isinstance(x.zone.obj, ir.Name)
                  and isinstance(x.zone.key, ir.Name) and x.zone.key.id == st.var
                  and st.until is None}
    return shown


def _without(shown: Shown, hidden: set[str]) -> Shown:
    """``shown`` less what ``hidden`` names (a zone's name hides every seat's)."""
    if not hidden:
        return shown
    return frozenset(s for s in shown if s not in hidden and s.split("[")[0] not in hidden)


def _hidden_in(node: ir.Node, rules: dict[str, list[ir.Stmt]], seen: set[str]) -> set[str]:
    """The texts (and zone names) a ``hide`` inside ``node`` may hide, through rules run."""
    out: set[str] = set()
    for n in ir.walk(node):
        if isinstance(n, ir.Reveal) and not n.shown:
            text = expr_text(n.zone)
            out |= {text, text.split("[")[0]}
        elif isinstance(n, ir.Do) and n.name not in seen and n.name in rules:
            seen.add(n.name)
            for st in rules[n.name]:
                out |= _hidden_in(st, rules, seen)
    return out
