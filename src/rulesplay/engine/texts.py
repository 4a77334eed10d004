"""Display texts compiled from the ruleset: label templates with ``{expr}`` placeholders
(phase labels, prompts, skip and pass labels, ``say``) and card labels.

Each becomes a function that builds the text in the game's language at run time; values are
shown in the ruleset's words by :meth:`rulesplay.engine.program.Program.show`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import ir

if TYPE_CHECKING:
    from .codegen import ExprCompiler
    from .expr import Fn
    from .program import Program


def template(prog: Program, comp: ExprCompiler, labels: ir.Labels | None,
             default: str = "") -> Callable[[Any], str]:
    """Compile a display text in the game's language.

    Args:
        prog: the program being built (its language, the validator's parsed templates,
            and :meth:`Program.show` for the values).
        comp: the expression compiler for the placeholders.
        labels: the text and its translations, or None.
        default: the text when there is none.

    Returns:
        ``f(state) -> str`` (``state`` may be None for a text without placeholders).
    """
    if labels is None:
        return lambda s: default
    lang = prog.lang if prog.lang and labels.other.get(prog.lang) is not None else ""
    parts = prog.checked.templates.get((id(labels), lang))
    if parts is None:
        return lambda s: default
    fns: list[str | tuple[Fn, str]] = [
        p if isinstance(p, str) else (comp.expr(p), comp.type_of(p)) for p in parts]
    return lambda s: "".join(p if isinstance(p, str) else prog.show(p[0](s, None), p[1])
                             for p in fns)


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
