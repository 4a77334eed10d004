"""The shape check of a saved game (:meth:`State.from_json
<rulesplay.engine.state.State.from_json>`): every part the engine reads as a card, a seat,
a node, a counter or an action id is one, so a damaged save fails on loading; and the
state rebuilt from a checked save (:func:`restore`).
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from .observe import sight_tables

if TYPE_CHECKING:
    from .program import Program
    from .state import State


SAVE_VERSION = 7  # 2: the ruleset's text instead of its path; 3: the engine that wrote it;
# 4: how often each phase has begun, and the run's limits; 5: the steps and work spent;
# 6: the zones revealed in play and who each zone's 'seen by' adds; 7: the variables
# revealed in play


def save_data(data: str | dict[str, Any]) -> dict[str, Any]:
    """A save's text (or its dict) as a dict of this rulesplay's save format.

    Raises:
        RulesError: not JSON, not a rulesplay save, or a save of another format (naming it).
    """
    try:
        d = json.loads(data) if isinstance(data, str) else data
    except ValueError:
        raise RulesError("this is not a rulesplay save (not JSON text)") from None
    if not isinstance(d, dict) or "version" not in d:
        raise RulesError("this is not a rulesplay save")
    if d["version"] != SAVE_VERSION:
        raise RulesError(f"this save was written in save format {str(d['version'])[:20]!r} "
                         f"by another version of rulesplay; this one reads format "
                         f"{SAVE_VERSION}")
    return d


def check_shape(d: dict[str, Any], prog: Program) -> None:
    """Reject a save whose parts do not fit the ruleset or are not of their kind (so a
    damaged file fails on loading, not later in the middle of play): every part that the
    engine reads as a card, a seat, a node, a counter or an action id is one; the values of
    variables are any JSON (a wrong one fails where the rules use it, as a located error).

    Raises:
        RulesError: naming the part that is damaged.
    """
    n, lay, cards = prog.layout.n, prog.layout, prog.num_cards

    def need(ok: bool, what: str) -> None:
        if not ok:
            raise RulesError(f"the save is damaged ({what})")

    def is_int(v: Any, low: int = 0, high: int | None = None) -> bool:
        return v.__class__ is int and low <= v and (high is None or v < high)

    def table(v: Any, size: int) -> bool:
        return isinstance(v, list) and len(v) == size

    zones = d["zones"]
    need(table(zones, prog.num_zones) and all(isinstance(z, list) for z in zones)
         and all(is_int(c) for z in zones for c in z)
         and sorted(c for z in zones for c in z) == list(range(cards)),
         "every card must be in exactly one zone")
    need(table(d["g"], len(lay.gslot)), "variables")
    need(table(d["pv"], len(lay.pslot)) and all(table(v, n) for v in d["pv"]),
         "player variables")
    need(table(d["cv"], len(lay.cslot)) and all(table(v, cards) for v in d["cv"]),
         "card variables")
    need(table(d["loc"], prog.num_locals), "local names")
    need(table(d["by"], cards) and all(p is None or is_int(p, 0, n) for p in d["by"]),
         "who played each card")
    stack, nodes = d["stack"], prog.nodes
    # (a frame's other values fail as located errors where they are used; a lowered
    # routine's resume point it does not have, by the line its code ends with)
    need(isinstance(stack, list) and all(
        isinstance(f, list) and f and is_int(f[0], 0, len(nodes)) for f in stack),
        "position in the phase graph")
    # A lowered routine tests its resume point as a number (``if pc <= K``).
    need(all(len(f) > 1 and f[1].__class__ is int for f in stack
             if getattr(nodes[f[0]], "numbered_resume", False)), "position in the phase graph")
    rng = d["rng"]
    need(table(rng, 3) and isinstance(rng[1], list), "the random generator")
    pending = d["pending"]
    need(pending is None or (table(pending, 2) and is_int(pending[0], 0, n)
                             and is_int(pending[1], 0, len(nodes))
                             and hasattr(nodes[pending[1]], "legal")), "pending decision")
    need(d["phase"] is None or is_int(d["phase"], 0, len(prog.phases)), "phase")
    need(isinstance(d["terminal"], bool) and d["seed"].__class__ is int, "counters")
    need((pending is None) == d["terminal"],
         "a game in play must wait for a decision, and one over wait for none")
    history = d["history"]
    need(isinstance(history, list) and all(
        table(h, 2) and is_int(h[0], 0, n) and isinstance(h[1], str) for h in history),
        "the decisions so far: each a seat and an action")
    need(is_int(d["decisions"]) and d["decisions"] == len(history), "counters")
    unseen = d["unseen_choices"]
    need(isinstance(unseen, list) and all(
        table(u, 2) and is_int(u[0], 0, len(history)) and is_int(u[1], 1, 1 << n + 1)
        for u in unseen) and len({u[0] for u in unseen}) == len(unseen),
        "choices of unseen cards")
    need(table(d["entries"], len(prog.phases)) and all(is_int(e) for e in d["entries"]),
         "how often each phase has begun")
    need(is_int(d["steps"]) and is_int(d["work"]), "the steps and work spent")
    revealed = d["revealed"]
    need(isinstance(revealed, list) and all(is_int(z, 0, prog.num_zones) for z in revealed)
         and revealed == sorted(set(revealed)), "the zones revealed in play")
    seen = d["seen"]
    need(isinstance(seen, list) and (not seen if not prog.seen_by else len(seen) == prog.num_zones)
         and all(is_int(m, 0, 1 << n) for m in seen), "who sees each zone")
    shown = d["shown_vars"]
    need(isinstance(shown, list) and shown == sorted(set(shown)) and all(
        isinstance(v, str) and (v in lay.gslot or v in lay.pslot or v in lay.cslot)
        for v in shown), "the variables revealed in play")


def restore(s: State, d: dict[str, Any], prog: Program) -> None:
    """Fill the new state ``s`` of ``prog`` from the save ``d`` (checked by
    :func:`check_shape`); what a save does not hold (events, the legal list) starts empty."""
    s.program = prog
    s.zones = [list(z) for z in d["zones"]]
    s.where = [0] * prog.num_cards
    for z, cards in enumerate(s.zones):
        for c in cards:
            s.where[c] = z
    s.g, s.pv, s.cv, s.loc = d["g"], d["pv"], d["cv"], d["loc"]
    s.stack = [list(f) for f in d["stack"]]
    s.by = d["by"]
    rng = d["rng"]
    s.rng = random.Random()
    s.rng.setstate((rng[0], tuple(rng[1]), rng[2]))
    s.pending = tuple(d["pending"]) if d["pending"] else None
    s.terminal, s.phase = d["terminal"], d["phase"]
    s.decisions, s.seed = d["decisions"], d["seed"]
    s.history = [(p, aid) for p, aid in d["history"]]
    s.unseen_choices = dict(d["unseen_choices"])
    s.entries = list(d["entries"])
    s.work = s.run_work = d["work"]
    s.steps, s.check_at = d["steps"], 0
    s.work_cap = s.work + prog.max_work
    s.events_cap = prog.max_events  # (the events of a resumed game are recorded afresh)
    s.revealed, s.seen = tuple(d["revealed"]), tuple(d["seen"])
    s.seers, s.top_seers = sight_tables(prog, s.revealed, s.seen)
    s.shown_vars = tuple(d["shown_vars"])
    s.watch = s.chosen = None
    s.events, s.span = None, None
