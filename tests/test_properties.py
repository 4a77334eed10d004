"""Properties every ruleset must have, checked by random playouts of every ``rulesets/**/*.rules``
file (new files are picked up automatically) at every player count it allows:

- the game ends;
- after every step every card is in exactly one zone (``state.where`` agrees);
- at every decision there is at least one legal action and the action ids are unique;
- the final scores are what the ruleset's ``score:`` and ``tiebreak:`` expressions say, evaluated
  here by a separate small interpreter over the IR; ``winners()`` follows the ruleset's
  ``winners:`` expression when it has one, else the best rank keys.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from conftest import RULESETS, load_game

import rulesplay
from rulesplay import State, ir

RULESET_FILES = sorted(RULESETS.glob("**/*.rules"))
SEEDS_AT_LIMITS = 5  # seeds for the smallest and largest tables
SEEDS_BETWEEN = 2  # seeds for the player counts in between (keeps the file under 20 s)
MAX_DECISIONS = 20_000


def _cases() -> list[Any]:
    cases = []
    for path in RULESET_FILES:
        try:
            lo, hi = load_game(path).player_range
        except rulesplay.RulesError:  # fails in the test itself, with the diagnostic
            cases.append(pytest.param(path, 0, 0, id=f"{path.relative_to(RULESETS)}-load"))
            continue
        for n in range(lo, hi + 1):
            seeds = SEEDS_AT_LIMITS if n in (lo, hi) else SEEDS_BETWEEN
            cases.append(pytest.param(path, n, seeds,
                                      id=f"{path.relative_to(RULESETS)}-{n}p"))
    return cases


def test_rulesets_exist() -> None:
    assert RULESET_FILES, f"no .rules files under {RULESETS}"


def check_zones(s: State) -> None:
    """Every card in exactly one zone, and ``where`` says which."""
    n = s.program.num_cards
    assert sum(len(z) for z in s.zones) == n
    placed = sorted(c for z in s.zones for c in z)
    assert placed == list(range(n)), "a card is missing or in two places"
    for z, cards in enumerate(s.zones):
        for c in cards:
            assert s.where[c] == z, f"card {s.program.card_ids[c]}: where={s.where[c]}, in {z}"


def check_decision(s: State) -> None:
    actions = s.legal_actions()
    if s.is_terminal():
        assert actions == [] and s.current_player() == -1
        return
    assert actions, f"no legal action at decision '{s.decision_name()}'"
    ids = [a.id for a in actions]
    assert len(ids) == len(set(ids)), f"duplicate action ids: {ids}"
    assert 0 <= s.current_player() < s.num_players


@pytest.mark.parametrize("path, players, seeds", _cases())
def test_random_playouts(path: Path, players: int, seeds: int) -> None:
    try:
        game = load_game(path)
    except rulesplay.RulesError as exc:
        pytest.fail(f"{path} does not load:\n{exc.render()}")
    # The same checked ruleset compiled again, apart from ``game``, to re-read final states.
    fresh = rulesplay.Game(game.ruleset, game.checked, game.option_values, game.lang, game.path)
    for seed in range(seeds):
        rng = random.Random(seed)
        s = game.new_state(num_players=players, seed=seed)
        check_zones(s)
        check_decision(s)
        steps = 0
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
            steps += 1
            assert steps < MAX_DECISIONS, f"seed {seed}: no end after {steps} decisions"
            check_zones(s)
            check_decision(s)
        check_scores(s, fresh)


# ---------------------------------------------------------------- scores, evaluated again
class Unsupported(Exception):
    """The small interpreter below does not know this expression form."""


def check_scores(s: State, fresh: rulesplay.Game) -> None:
    """scores()/rank_keys()/winners() against an independent evaluation of the expressions,
    and against the same save reloaded by a freshly compiled game."""
    scores, keys = s.scores(), s.rank_keys()
    assert s.scores() == scores  # evaluating does not change anything
    assert [k[0] for k in keys] == scores
    ruleset = s.program.ruleset
    if ruleset.winners is None:
        assert s.winners() == [p for p in range(s.num_players) if keys[p] == max(keys)]
    try:
        expected = [tuple(Eval(s, seat).value(e) for e in [ruleset.score, *ruleset.tiebreaks])
                    for seat in range(s.num_players)]
        winners = None if ruleset.winners is None else \
            sorted(set(Eval(s, -1).coll(ruleset.winners, None)))
    except Unsupported:
        expected = winners = None
    if expected is not None:
        assert keys == expected
    if winners is not None:
        assert s.winners() == winners
    again = State.from_json(s.to_json(), fresh)
    assert (again.scores(), again.rank_keys()) == (scores, keys)


class Eval:
    """Evaluate a checked IR expression for one seat, reading the state only through its
    card tables, zone contents and variables (not through compiled closures)."""

    def __init__(self, s: State, seat: int) -> None:
        self.s, self.seat = s, seat
        self.res = s.program.checked.res
        self.index = {cid: i for i, cid in enumerate(s.program.card_ids)}

    def cards(self, zone: tuple[str, int | None]) -> list[int]:
        return [self.index[c] for c in self.s.zone_cards(*zone)]

    def coll(self, e: ir.Expr, it: Any) -> list[Any]:
        v = self.value(e, it)
        if isinstance(v, tuple) and len(v) == 3 and v[0] == "zone":
            return self.cards((v[1], v[2]))
        return list(v.keys()) if isinstance(v, dict) else list(v)

    def value(self, e: ir.Expr, it: Any = None) -> Any:  # noqa: C901 - one case per node
        s = self.s
        if isinstance(e, ir.Num | ir.Str | ir.Bool):
            return e.value
        if isinstance(e, ir.NoneLit):
            return None
        if isinstance(e, ir.Name):
            cat, name = self.res[id(e)]
            if cat == "it":
                return it
            if cat == "local" and name == "player":
                return self.seat
            if cat in ("var", "tvar"):
                return s.var(name)
            if cat == "pvar":
                return [s.var(name, p) for p in range(s.num_players)]
            if cat == "option":
                return s.program.layout.options[name]
            if cat in ("enum_value", "choice_value"):
                return name
            if cat == "zone":
                return ("zone", name, None)
            if cat == "players":
                return s.num_players
            if cat == "seats":
                return tuple(range(s.num_players))
            raise Unsupported(cat)
        if isinstance(e, ir.Index):
            key = self.value(e.key, it)
            if isinstance(e.obj, ir.Name) and self.res[id(e.obj)][0] == "pzone":
                return ("zone", e.obj.id, key)
            return self.value(e.obj, it)[key]
        if isinstance(e, ir.Attr):
            c = self.value(e.obj, it)
            if c is None:
                return None
            if e.name in s.program.layout.cslot:
                return s.cv[s.program.layout.cslot[e.name]][c]
            return s.program.card_attrs[c].get(e.name)
        if isinstance(e, ir.IsKind):
            c = self.value(e.obj, it)
            yes = c is not None and s.program.card_attrs[c]["kind"] == e.kind
            return not yes if e.negate else yes
        if isinstance(e, ir.UnOp):
            v = self.value(e.operand, it)
            return (not v) if e.op == "not" else -v
        if isinstance(e, ir.Cond):
            return self.value(e.then if self.value(e.test, it) else e.other, it)
        if isinstance(e, ir.TupleExpr | ir.ListExpr):
            return tuple(self.value(i, it) for i in e.items)
        if isinstance(e, ir.DictExpr):
            return {self.value(k, it): self.value(v, it)
                    for k, v in zip(e.keys, e.values, strict=True)}
        if isinstance(e, ir.Filter):
            return [x for x in self.coll(e.coll, it) if self.value(e.cond, x)]
        if isinstance(e, ir.BinOp):
            return self.binop(e, it)
        if isinstance(e, ir.Call):
            return self.call(e, it)
        raise Unsupported(type(e).__name__)

    def binop(self, e: ir.BinOp, it: Any) -> Any:
        if e.op == "and":
            return self.value(e.left, it) and self.value(e.right, it)
        if e.op == "or":
            return self.value(e.left, it) or self.value(e.right, it)
        a = self.value(e.left, it)
        if e.op in ("in", "not in"):
            return (a in self.coll(e.right, it)) == (e.op == "in")
        b = self.value(e.right, it)
        ops = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
               "/": lambda: a // b, "%": lambda: a % b, "==": lambda: a == b,
               "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
               ">": lambda: a > b, ">=": lambda: a >= b}
        if e.op not in ops:
            raise Unsupported(e.op)
        return ops[e.op]()

    def call(self, e: ir.Call, it: Any) -> Any:
        f, args = e.func, e.args
        if f == "abs":
            return abs(self.value(args[0], it))
        if f in ("max", "min") and len(args) == 2 and \
                isinstance(self.value(args[0], it), int):
            pair = [self.value(args[0], it), self.value(args[1], it)]
            return max(pair) if f == "max" else min(pair)
        if f not in ("count", "any", "all", "sum", "max", "min", "top", "bottom"):
            raise Unsupported(f)
        items = self.coll(args[0], it)
        per = [self.value(args[1], x) for x in items] if len(args) > 1 else items
        if f == "count":
            return sum(1 for v in per if v) if len(args) > 1 else len(items)
        if f == "any":
            return any(per) if len(args) > 1 or all(isinstance(v, bool) for v in per) \
                else bool(items)
        if f == "all":
            return all(per)
        if f == "sum":
            return sum(per)
        if f in ("max", "min"):
            return (max(per) if f == "max" else min(per)) if per else None
        return (items[-1] if f == "top" else items[0]) if items else None


def test_independent_score_evaluation_covers_bargain_hunter() -> None:
    """The shipped example's score and tiebreak are within the small interpreter's reach, so
    the comparison above really runs for it."""
    s = rulesplay.load(RULESETS / "bargain_hunter.rules").new_state(num_players=3, seed=1)
    ruleset = s.program.ruleset
    s.arrange("junk", 0, ["offer#1", "red-1#1"])
    s.arrange("bargain", 0, ["red-2#1"])
    assert Eval(s, 0).value(ruleset.score) == -1 == s.scores()[0]
    assert Eval(s, 0).value(ruleset.tiebreaks[0]) == -2 == s.rank_keys()[0][1]
