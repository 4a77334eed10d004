"""The warning pass: what is legal but probably not meant."""

from __future__ import annotations

from .symbols import Context


def unused_options(c: Context) -> None:
    """Warn about an option nothing reads (no expression, default or text names it):
    setting it, from the command line or a variant, would change nothing. Legal (a variant
    may drop the rule that read it), so a warning, not an error."""
    read = {name for category, name in c.out.res.values() if category == "option"}
    for o in c.r.options:
        if o.name not in read:
            c.warn(f"option '{o.name}' is never used: no rule, default or text reads it, so "
                   "setting it changes nothing", o.span)
