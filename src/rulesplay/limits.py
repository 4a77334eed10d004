"""The budgets of a game: how long it may go on before the engine stops it with a located
error instead of running for ever (issue 14 item 3).

A ruleset may set any of them (``limit decisions 20000``), and so may a run
(``--limit decisions=20000``); otherwise the defaults hold. The defaults are far above what
the shipped rulesets need: in 100 random games of each, at most 4,100 decisions (a game
played to a points target) and 41 entries of one phase; in 10-20 at each player count, at most
10,594 events and 47,680 steps and work (work: every card or number a filter, sum, count,
``in`` or loop goes over, and every card moved, shuffled or dealt). The budgets between two
decisions (``steps``, ``work``) bound the time to the next decision; those of a whole game
(``decisions``, ``entries``, ``events``, ``total``) bound a game that never ends, in time and
in memory.
"""

from __future__ import annotations

from .errors import did_you_mean
from .words import counted

# name -> (default, what it counts)
LIMITS: dict[str, tuple[int, str]] = {
    "decisions": (50_000, "decisions in one game"),
    "entries": (2_000, "times one phase may begin in one game"),
    "steps": (200_000, "steps of the rules (loop turns; in a recorded game, cards moved "
                       "too) between two decisions"),
    "work": (20_000_000, "cards and numbers gone over by expressions, and cards moved, "
                         "between two decisions"),
    "events": (1_000_000, "events recorded in one game's account"),
    "total": (20_000_000, "steps and work in one game"),
}
MAX_LIMIT = 1_000_000_000  # the largest value a limit may be given
MAX_RANGE = 100_000  # the most numbers a range (lo..hi) may hold
# Several cards as one decision (``chooses 1..4 cards``): at most MAX_SET_CARDS cards, and at
# most MAX_SET_ACTIONS ways to choose them among the game's cards (every one is an action a
# fixed action space must hold: 3 of 52 cards are 22,100 ways; 4 of 52, 270,725, too many).
MAX_SET_CARDS = 13
MAX_SET_ACTIONS = 50_000
# Whole numbers run from -MAX_INT to MAX_INT (18 digits, as a number may be written): a
# value stored outside that range stops the game, so no number grows without end.
MAX_INT = 10**18 - 1
# Seeds. A seed a person gives (``--seed`` of run, simulate, compare and sweep; the web's
# simulation page) is a whole number from 0 to MAX_SEED (2^63 - 1, the largest signed 64-bit
# integer). The generator, saves and logs take every seed from 0 to MAX_STATE_SEED: those and
# the 128 random bits rulesplay draws as the secret seed of a game with people at the table
# (a seed that is never shown). Negative seeds are refused: Python's generator would play the
# game of the seed without its sign.
MAX_SEED = 2**63 - 1
MAX_STATE_SEED = 2**128 - 1
SEED_RANGE = f"a whole number from 0 to {MAX_SEED:,} (2^63 - 1)"


def out_of_range(value: int) -> str:
    """The message of a number outside -MAX_INT..MAX_INT (a huge one by its digits: Python
    will not even print one of more than 4,300)."""
    digits = len(str(value)) if value.bit_length() < 10_000 else \
        f"about {int(value.bit_length() * 0.30103):,}"
    shown = str(value) if value.bit_length() < 200 else f"a number of {digits} digits"
    return f"{shown} is out of range: numbers run from -{MAX_INT:,} to {MAX_INT:,}"


def defaults() -> dict[str, int]:
    """Every limit at its default value: name -> value."""
    return {name: value for name, (value, _) in LIMITS.items()}


RULESET_RAISE = 10  # a ruleset's own 'limit' line may raise a default this many times at most


def limit_problem(name: str, value: object, in_ruleset: bool = False) -> str | None:
    """What is wrong with setting limit ``name`` to ``value``, or None when it is fine. A
    ruleset (``in_ruleset``) may raise a default at most :data:`RULESET_RAISE` times, so
    that any ruleset stays safe to run; a run's ``--limit`` may go up to
    :data:`MAX_LIMIT`."""
    if name not in LIMITS:
        return (f"unknown limit '{name}'{did_you_mean(name, LIMITS)}; limits: "
                + ", ".join(f"{n} ({what})" for n, (_, what) in LIMITS.items()))
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_LIMIT:
        return f"limit {name} must be a whole number from 1 to {MAX_LIMIT:,}, not {value!r}"
    most = LIMITS[name][0] * RULESET_RAISE
    if in_ruleset and value > most:
        return (f"a ruleset may set limit {name} to at most {most:,} ({RULESET_RAISE} times "
                f"the default), so that it stays safe to run; a run may go higher with "
                f"--limit {name}=N")
    return None


def over_limit(name: str, value: int, phase: str = "") -> str:
    """The message of a game stopped by limit ``name`` (at ``value``), in phase ``phase``
    (the engine names the phase of the other two where it reports them)."""
    raise_it = f"('limit {name} N' in the ruleset or --limit {name}=N raises the limit)"
    phase = f" (in phase '{phase}')" if phase else ""  # (none: the message is located)
    if name == "steps":
        return f"step limit reached: {counted(value, 'step', 'steps')} without a decision " \
               f"(a loop that never ends?) {raise_it}"
    if name == "work":
        return f"{counted(value, 'card or number', 'cards and numbers')} gone over by " \
               f"expressions and moves without a decision (a filter or a move in a " \
               f"long loop, a sum inside a sum?) {raise_it}"
    if name == "events":
        return f"the game has recorded {counted(value, 'event', 'events')} without " \
               f"ending{phase}: do its phases ever reach 'next end'? {raise_it}"
    if name == "total":
        return f"the game has taken {value:,} steps and work without ending{phase}: " \
               f"do its phases ever reach 'next end'? {raise_it}"
    if name == "entries":
        return f"this phase has begun {counted(value, 'time', 'times')} in this game: do the " \
               f"'next' lines ever lead to 'next end'? {raise_it}"
    return f"the game has gone on for {counted(value, 'decision', 'decisions')} without " \
           f"ending{phase}: do its phases ever reach 'next end'? {raise_it}"
