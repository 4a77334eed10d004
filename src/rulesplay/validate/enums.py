"""Enums that share values: ``enum strain: suit, notrump "NT"``.

A value of an enum's list that names an enum declared before it stands for that enum's
values, in their order (Bridge's denominations are the four suits and notrump, Law 18A): the
values are shared, not copied, so a strain compares equal to the suit of the same name and
a strain may be given to a suit variable (``trump = contract.strain``; a value that is not
a suit, ``notrump``, is then held as it is: test it first where that matters). A shared
value keeps the type of the enum that declares it first. Enum values have no order in
either enum (a tuple ordered item by item still refuses them); their list order (``for each
x in strain``, a choice's actions, a deck built over the enum) is the declaration order.

:func:`shared_enums` rewrites the enums before any pass runs; :func:`sharing` makes the
relation known to :func:`~rulesplay.validate.types.compatible` while a ruleset is checked.
"""

from __future__ import annotations

from .. import ir
from ..errors import Diagnostic


def shared_enums(r: ir.Ruleset) -> tuple[ir.Ruleset, list[Diagnostic]]:
    """``r`` with each enum's list written out (a value naming an earlier enum replaced by
    that enum's values, its ``extends`` naming that enum, and the enums it extends), and the
    errors found: an enum named that is declared later, or a value given twice.

    Returns ``r`` itself when no enum names another."""
    names = {e.name for e in r.enums}
    if not any(v.name in names for e in r.enums for v in e.values):
        return r, []
    diags: list[Diagnostic] = []
    done: dict[str, ir.EnumDecl] = {}
    out: list[ir.EnumDecl] = []
    for e in r.enums:
        values: list[ir.EnumValue] = []
        extends: list[str] = []
        for v in e.values:
            base = done.get(v.name)
            if v.name in names and base is None:
                why = "itself" if v.name == e.name else "an enum declared after it"
                diags.append(Diagnostic(f"enum '{e.name}' takes the values of {why} "
                                        f"('{v.name}'): declare '{v.name}' first", v.span))
                continue
            if base is not None:
                extends += [base.name, *base.extends]
            for value in base.values if base is not None else [v]:
                if any(w.name == value.name for w in values):
                    diags.append(Diagnostic(f"'{value.name}' is already a value of enum "
                                            f"'{e.name}'", v.span))
                else:
                    values.append(value)
        decl = e if values == e.values else \
            e.model_copy(update={"values": values, "extends": extends})
        done[e.name] = decl
        out.append(decl)
    return r.model_copy(update={"enums": out}), diags


def related(r: ir.Ruleset) -> frozenset[frozenset[str]]:
    """The pairs of enums whose values are shared (one extends the other)."""
    return frozenset(frozenset((e.name, base)) for e in r.enums for base in e.extends)
