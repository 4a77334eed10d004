"""``any`` and ``all`` of a test over a collection as one generated function with a plain
loop, for :class:`~rulesplay.engine.codegen.ExprCompiler`.

``any(TEST for it in COLL)`` makes a generator and resumes it once per element; a function
that loops over ``COLL`` and returns at the first element that decides costs one call and
no resumption (a trick's check for a second copy of a card, a hand's test for the lead
colour: a few elements, at nearly every decision). It decides at the same element, so it
evaluates the same tests in the same order, and counts the collection as work as the
generator's ``_charge`` does. The variables of the state the test reads (nothing in a test
changes them) are read once, before the loop, into the function's own locals. The test is
the code generator's own source (slots and constant names); a test that reads a name of
the code around it (a filter's cells, a value kept once per listing) stays a generator,
except the candidate of a listing (``_x``), which the function takes as an argument.
"""

from __future__ import annotations

import builtins
import dis
import re
from types import CodeType
from typing import Any

__all__ = ["quantifier"]

_OWN = re.compile(r"s|_c|it|_x|_v\d+")  # the function's arguments, loop name and reads
_LOADS = {"LOAD_GLOBAL", "LOAD_NAME"}
_STORES = {"STORE_FAST", "STORE_DEREF", "STORE_NAME", "STORE_GLOBAL"}
# A read of a global or trick variable, a local or a card variable's column.
_READS = re.compile(r"\bs\.(?:g|loc|cv)\[\d+\]")


def quantifier(ns: dict[str, Any], func: str, test: str, coll: str, charged: bool) -> str | None:
    """The source of a call of a new function in ``ns`` that computes ``func`` (``any`` or
    ``all``) of ``test`` (source reading ``it``) over ``coll`` (source of a collection),
    counting its length as work when ``charged``; None when ``test`` reads a name other
    than the state, ``it``, the candidate ``_x`` and the names of ``ns``."""
    charge = ("    s.work += len(_c)\n    if s.work > s.work_cap:\n        _charge(s, ())\n"
              if charged else "")
    guarded = "".join(f"    {line}\n" for line in charge.splitlines())  # (no state: none)
    name = _define(ns, func, test, guarded and f"    if s is not None:\n{guarded}")
    if name is None:
        return None
    reads = list(dict.fromkeys(_READS.findall(test)))
    if reads:  # (no state, while cards and options are made: the first, reads as written)
        for i, read in enumerate(reads):
            test = re.sub(rf"\b{re.escape(read)}", f"_v{i}", test)
        first = "".join(f"    _v{i} = {read}\n" for i, read in enumerate(reads))
        args = "s, _c, _x" if name.endswith("x") else "s, _c"
        name = _define(ns, func, test, f"    if s is None:\n        return {name[:-1]}({args})\n"
                       f"{charge}{first}")
        assert name is not None  # (the same names, read through locals)
    return f"{name[:-1]}(s, {coll}{', _x' if name.endswith('x') else ''})"


def _define(ns: dict[str, Any], func: str, test: str, before: str) -> str | None:
    """Define the function in ``ns``; its name, with ``x`` added when it takes the
    candidate, or None when the test reads a name it cannot have (see :func:`quantifier`)."""
    decides = "True" if func == "any" else "False"
    cond = test if func == "any" else f"not ({test})"
    name = f"_q{len(ns)}"
    for args in ("s, _c", "s, _c, _x"):
        src = (f"def {name}({args}):\n{before}    for it in _c:\n        if {cond}:\n"
               f"            return {decides}\n    return {'False' if func == 'any' else 'True'}\n")
        code = compile(src, "<rulesplay quantifier>", "exec")
        fn_code = next(c for c in code.co_consts if isinstance(c, CodeType))
        missing = _globals(fn_code) - ns.keys() - vars(builtins).keys()
        if missing - {"_x"} or not _own(fn_code):
            return None
        if not missing:
            exec(code, ns)  # noqa: S102 - generated from slots and constant names only
            ns[name].source = src  # (shown by ``rulesplay compile --python``)
            return name + ("x" if args.endswith("_x") else "_")
    return None


def _globals(code: CodeType) -> set[str]:
    """The global names ``code`` and the code nested in it read."""
    out = {i.argval for i in dis.get_instructions(code) if i.opname in _LOADS}
    for c in code.co_consts:
        if isinstance(c, CodeType):
            out |= _globals(c)
    return out


def _own(code: CodeType) -> bool:
    """Whether the function binds no name but its own (no ``:=`` of a value kept outside)."""
    stores = {i.argval for i in dis.get_instructions(code) if i.opname in _STORES}
    return all(_OWN.fullmatch(n) for n in stores | set(code.co_cellvars))
