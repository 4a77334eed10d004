"""The compile step of a whole program: a loaded game and a player count in, a
:class:`~rulesplay.engine.program.Program` with every table and node filled out.

The order is fixed: slots, card ids and node indices are numbered as they are made, and
saves and frames hold those numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import RulesValidationError, Span
from ..limits import defaults
from ..validate import start_phase
from ..validate.teams import Teams, TeamsFault, partition_problem, seat_teams, teams_env
from .choices import ChooseNode
from .codegen import ExprCompiler
from .compile_stmts import StmtCompiler
from .effects import PhaseNode
from .expr import Fn, Layout
from .lower import lower_program
from .program import Program
from .routines import Routine
from .tables import (
    build_ability_tables,
    build_cards,
    build_options,
    build_seen_by,
    build_teams,
    build_vars,
    build_zones,
)
from .team_results import ResultFault

if TYPE_CHECKING:
    from .. import ir
    from .game import Game


def game_teams(ruleset: ir.Ruleset, n: int, options: dict[str, Any]) -> Teams | None:
    """The teams of ``n`` players with the game's ``options`` (None without ``teams:``).

    Raises:
        RulesValidationError: at the ``teams:`` line or a ``partner of``, when the options
            chosen make teams the validator refuses (it checked their defaults).
    """
    if ruleset.teams is None:
        return None
    try:
        teams = seat_teams(ruleset.teams, n, teams_env(ruleset, options))
    except TeamsFault as exc:
        raise RulesValidationError(exc.message, exc.node.span) from None
    problem = partition_problem(ruleset, teams, n)
    if problem is not None:
        raise RulesValidationError(*problem)
    return teams


def _a_number(fn: Fn, what: str, span: Span) -> Fn:
    """``fn``, a score or tiebreak (at ``span``), failing with a message there when it is
    none (a number variable never set), which no seat can be ranked by."""
    def number(s: Any, x: Any) -> Any:
        v = fn(s, x)
        if v is None:
            raise ResultFault(f"{what} of seat {s.loc[s.program.score_fns[0]]} is none "
                                    "(a number that was never given a value?)", span)
        return v
    return number


def build_program(game: Game, n: int) -> Program:
    """Compile ``game`` for ``n`` players.

    Args:
        game: the loaded game (checked ruleset, chosen options, language).
        n: seats at the table (already checked against the ruleset's range).

    Raises:
        RulesError: an option value not allowed with ``n`` players, fewer than one copy of
            a card, a derived card attribute that fails, two cards with the same id, or
            teams the options make unplayable.
    """
    lay = Layout()
    lay.n = n
    prog = Program(game, lay)
    comp = ExprCompiler(prog.checked, lay)
    ruleset = prog.ruleset
    build_options(prog, comp, game.option_values)  # first: copies and attributes may use them
    build_teams(prog, game_teams(ruleset, n, lay.options))
    limits = defaults() | {lim.name: lim.value for lim in ruleset.limits} | game.limits
    prog.max_decisions, prog.max_entries, prog.max_steps, prog.max_work, prog.max_total = \
        limits["decisions"], limits["entries"], limits["steps"], limits["work"], limits["total"]
    prog.max_events = limits["events"]
    build_cards(prog, comp)
    build_zones(prog)
    build_vars(prog, comp)
    build_seen_by(prog, comp)  # (before the phases: a decision asks it first)
    # Phase nodes come first, so a phase's node index is its position in `phases`.
    for p in ruleset.phases:
        node = PhaseNode(len(prog.nodes), p.name, p.span)
        prog.nodes.append(node)
        prog.phase_index[p.name] = node.index
        prog.phases.append(node)
    sc = StmtCompiler(prog, comp, build_ability_tables(prog, comp))
    sc.compile_rules(ruleset.rules)
    sc.compile_steps(ruleset.abilities)
    for node, decl in zip(prog.phases, ruleset.phases, strict=True):
        node.body = sc.block(decl.body)
        node.label = sc.template(decl.labels, default=node.name)
        node.transitions = [
            (comp.expr(t.guard) if t.guard is not None else None,
             None if t.target == "end" else prog.phase_index[t.target])
            for t in decl.transitions]
    prog.start_phase = prog.phase_index[start_phase(ruleset) or ""]
    if prog.engine == "compiled":
        lower_program(prog, comp, sc)
    player_slot = lay.local("player")
    assert ruleset.score is not None  # the validator requires a 'score:' line
    score = _a_number(comp.bounded(ruleset.score), "the score", ruleset.score.span)
    ties = [_a_number(comp.bounded(t), "a tiebreak", t.span) for t in ruleset.tiebreaks]
    prog.score_fns = (player_slot, score, ties)
    winners: Fn | None = comp.expr(ruleset.winners) if ruleset.winners is not None else None
    prog.winners_fn = winners
    prog.num_locals = len(lay.lslot)
    types = prog.checked.local_types
    prog.card_locals = [slot for name, slot in lay.lslot.items() if types.get(name) == "card"]
    prog.card_list_locals = [slot for name, slot in lay.lslot.items()
                             if types.get(name) == "list:card"]
    # Names of choices made in secret: others learn that they were made, not what.
    prog.step_of = [node.fn if isinstance(node, Routine) else getattr(node, "step", None)
                    for node in prog.nodes]
    prog.routine_lines = {node.fn.__code__: node.spans for node in prog.nodes
                          if isinstance(node, Routine)}
    prog.secret_choices = {node.name for node in prog.nodes
                           if isinstance(node, ChooseNode) and node.secret}
    return prog
