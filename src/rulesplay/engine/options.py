"""Option values: turning command-line text into an option's type, and checking a value
against what the option allows (its type, range or choices)."""

from __future__ import annotations

import re
from typing import Any

from .. import ir
from ..errors import OptionError
from ..show import expr_text

_DIGITS = re.compile(r"[+-]?[0-9]+")


def check_option_value(o: ir.OptionDecl, value: Any, players: int | None = None,
                       bounds: tuple[int | None, int | None] | None = None) -> None:
    """Raise :class:`OptionError` unless ``value`` is allowed for option ``o``.

    Args:
        o: the option's declaration (type bool, int with a range, or a list of choices).
        value: the value, already of the option's type (see :func:`coerce_option`).
        players: the player count, named in the message when given (a per-count default).
        bounds: an int option's range worked out for ``players`` (its bounds that are
            expressions of the player count, ``int in 1..(51 / players)``); without it, the
            written numbers only (a bound that is an expression is checked once the player
            count is known).
    """
    where = f" with {players} players" if players else ""
    if o.type == "bool":
        ok = isinstance(value, bool)
        allowed = "yes or no"
    elif o.type == "int":
        lo, hi = (o.lo, o.hi) if bounds is None else bounds
        ok = isinstance(value, int) and not isinstance(value, bool) and \
            (lo is None or lo <= value) and (hi is None or value <= hi)
        allowed = range_text(lo, hi)
        if isinstance(value, str) and not value.isascii():
            allowed += ", written with the digits 0-9"
        if bounds is None and (o.lo_at is not None or o.hi_at is not None):
            # (a bound written as an expression: checked once the player count is known)
            low = str(o.lo) if o.lo_at is None else f"({expr_text(o.lo_at)})"
            high = str(o.hi) if o.hi_at is None else f"({expr_text(o.hi_at)})"
            allowed = f"a whole number in {low}..{high}, which depends on the player count"
    else:
        ok = value in o.choices
        allowed = "one of " + ", ".join(o.choices)
    if not ok:
        raise OptionError(f"option {o.name} = {_shown(value)}{where} is not allowed; "
                          f"allowed: {allowed}", o.span)


def range_text(lo: int | None, hi: int | None) -> str:
    """What an int option allows, for messages: ``a whole number from 1 to 8`` (a bound not
    known yet is left out)."""
    return "a whole number" + ("" if lo is None else f" from {lo}") + \
        ("" if hi is None else f" to {hi}")


def _shown(value: Any) -> str:
    """A value as an error quotes it: cut short (a value from the command line may be
    thousands of characters; Python will not even print an int of over 4,300 digits)."""
    if isinstance(value, int) and value.bit_length() > 200:
        return f"a number of about {int(value.bit_length() * 0.30103):,} digits"
    text = f'"{value}"' if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def coerce_option(o: ir.OptionDecl, text: Any) -> Any:
    """Turn a CLI string (``"true"``, ``"8"``, ``"no_lead"``) into the option's type. A
    whole number is written with the ASCII digits 0-9 (and a sign), nothing else.

    A value that is not a string is returned as it is; a string that does not convert is
    returned unchanged, for :func:`check_option_value` to reject with the allowed values.
    """
    if not isinstance(text, str):
        return text
    t = text.strip()
    if o.type == "bool":
        if t.lower() in ("true", "yes", "on", "1"):
            return True
        if t.lower() in ("false", "no", "off", "0"):
            return False
        return t
    if o.type == "int":
        if not _DIGITS.fullmatch(t):  # (int() takes other scripts' digits and '1_000' too)
            return t
        try:
            return int(t)
        except ValueError:  # more digits than Python converts
            return t
    return t
