"""Display texts compiled from the ruleset: label templates with ``{expr}`` placeholders
(phase labels, prompts, skip and pass labels, ``say``) and card labels.

Each becomes a :class:`~rulesplay.engine.program.DisplayText` that builds the text in the
game's language at run time; values are shown in the ruleset's words by
:meth:`rulesplay.engine.program.Program.show`. A placeholder that reads a variable some
seat may not see (``owner``, ``hidden``) is masked for the others (``DisplayText.masked``,
:func:`rulesplay.events.seat_text`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import ir
from ..validate.sight import SecretRead, secret_reads
from .expr_facts import may_fail
from .observe import var_seers
from .program import DisplayText, Seers

if TYPE_CHECKING:
    from .codegen import ExprCompiler
    from .expr import Fn
    from .program import Program

def template(prog: Program, comp: ExprCompiler, labels: ir.Labels | None,
             default: str = "") -> DisplayText:
    """Compile a display text in the game's language.

    Args:
        prog: the program being built (its language, the validator's parsed templates,
            and :meth:`Program.show` for the values).
        comp: the expression compiler for the placeholders.
        labels: the text and its translations, or None.
        default: the text when there is none.

    Returns:
        The :class:`~rulesplay.engine.program.DisplayText` (called with ``state`` None for
        a text without placeholders).
    """
    if labels is None:
        return DisplayText(prog, [default])
    lang = prog.lang if prog.lang and labels.other.get(prog.lang) is not None else ""
    parts = prog.checked.templates.get((id(labels), lang))
    if parts is None:
        return DisplayText(prog, [default])
    # (a number shown is checked like one stored: a huge one is a located error)
    made = [p if isinstance(p, str) else
            (comp.bounded(p), comp.type_of(p), _seers(prog, comp, p), p.span) for p in parts]
    risky = tuple(m for p, m in zip(parts, made, strict=True)
                  if not isinstance(p, str) and not isinstance(m, str) and may_fail(p))
    return DisplayText(prog, made, risky)


def _seers(prog: Program, comp: ExprCompiler, e: ir.Expr) -> Seers | None:
    """Who sees the value of placeholder ``e``: None when it reads no ``owner`` or
    ``hidden`` variable; else ``f(state) -> bitmask``: the seats that see every such
    variable it reads, from the program's tables of seers (a player variable read as
    ``x[SEAT]``: those of SEAT's; read another way: those that see every seat's)."""
    reads = secret_reads(e, prog.checked)
    if not reads:
        return None
    if any(r.var.name in prog.revealable for r in reads):
        return _shown_seers(prog, comp, reads)
    lay, n = prog.layout, prog.layout.n
    fixed = (1 << n + 1) - 1  # what does not depend on the state
    per_seat: list[tuple[list[int], Fn]] = []
    for r in reads:
        name = r.var.name
        # (a team variable is kept at its team's first seat: its number, read as a seat)
        if r.var.scope in ("player", "team") and r.seat is not None:
            per_seat.append((prog.pvar_seers[lay.pslot[name]], comp.expr(r.seat)))
        elif r.var.scope in ("player", "team"):
            for each in prog.pvar_seers[lay.pslot[name]]:
                fixed &= each
        else:
            fixed &= prog.cvar_seers[lay.cslot[name]] if r.var.scope == "card" else \
                prog.gvar_seers[lay.gslot[name]]
    if not per_seat:
        return lambda s: fixed

    def seers(s: Any) -> int:
        who = fixed
        for table, seat in per_seat:
            p = seat(s, None)
            who &= table[p] if isinstance(p, int) and 0 <= p < n else 0
        return who
    return seers


def _shown_seers(prog: Program, comp: ExprCompiler, reads: list[SecretRead]) -> Seers:
    """As :func:`_seers`, for a placeholder that reads a variable revealed in play: its
    seers are read from the state's tables (:func:`~rulesplay.engine.observe.var_seers`)
    each time the text is shown."""
    lay, n = prog.layout, prog.layout.n
    parts = [(r.var.scope, lay.pslot[r.var.name] if r.var.scope in ("player", "team")
              else lay.cslot[r.var.name] if r.var.scope == "card" else lay.gslot[r.var.name],
              comp.expr(r.seat) if r.seat is not None else None) for r in reads]

    def seers(s: Any) -> int:
        g, p, c = var_seers(s)
        who = (1 << n + 1) - 1
        for scope, slot, seat in parts:
            if scope in ("player", "team"):
                if seat is None:
                    for each in p[slot]:
                        who &= each
                else:
                    q = seat(s, None)
                    who &= p[slot][q] if isinstance(q, int) and 0 <= q < n else 0
            else:
                who &= c[slot] if scope == "card" else g[slot]
        return who
    return seers


def card_label_fn(prog: Program, comp: ExprCompiler, k: ir.KindDecl) -> Callable[[int], str]:
    """Compile the label of the cards of kind ``k``: its ``label`` template (attributes read
    as names), else its ``name`` attribute, else the kind's label and its printed attribute
    values.

    Returns:
        ``f(card id) -> str``, to be called once every card's attributes are in the layout.
    """
    parts = prog.checked.templates.get((id(k.card_label), prog.lang or "")) \
        if prog.lang in k.card_label.other else \
        prog.checked.templates.get((id(k.card_label), ""))
    if parts is None and any(a.name == "name" and a.text for a in k.attrs):
        names = prog.layout.attr_table["name"]
        return lambda c: str(names[c])
    if parts is None:
        name = k.labels.get(prog.lang, k.name)
        attrs = [a.name for a in k.attrs if a.value is None]
        return lambda c: " ".join([name] + [prog.show(prog.layout.attr_table[a][c])
                                            for a in attrs]) if attrs else name
    comp.card_attrs_as_names = True
    fns: list[str | tuple[Fn, str]] = [
        p if isinstance(p, str) else (comp.expr(p), comp.type_of(p)) for p in parts]
    comp.card_attrs_as_names = False
    return lambda c: "".join(p if isinstance(p, str) else prog.show(p[0](None, c), p[1])
                             for p in fns)
