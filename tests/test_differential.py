"""The compiled engine against the frame interpreter (the reference): on every shipped
ruleset and variant at every player count they play exactly the same games.

For each game: the same legal actions at every decision, the same events (every card
movement, decision and phase), the same scores and winners; and a third copy of the compiled
game, saved and reloaded (``to_json``/``from_json``) or cloned at random points, keeps
playing the same game. ``benchmarks/differential.py`` runs the same check on many seeds.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulesplay
from rulesplay.engine.game import Game, load
from rulesplay.engine.state import State

ROOT = Path(__file__).resolve().parents[1]
RULESETS = [path for folder in ("", "variants", "classics", "classics/variants")
            for path in sorted((ROOT / "rulesets" / folder).glob("*.rules"))]
SEEDS = (1, 2)


def _cases() -> list[tuple[Path, int]]:
    out = []
    for path in RULESETS:
        lo, hi = rulesplay.load(path).player_range
        out += [(path, n) for n in range(lo, hi + 1)]
    return out


def play_both(reference: Game, compiled: Game, players: int, seed: int) -> int:
    """Play one random game on both engines side by side; return its decisions.

    Raises AssertionError at the first difference (legal actions, events, scores, winners,
    or a reloaded/cloned copy that plays differently)."""
    a = reference.new_state(players, seed, record_events=True)
    b = compiled.new_state(players, seed, record_events=True)
    c = compiled.new_state(players, seed)
    rng = random.Random(seed)
    # Reload or clone the third copy at a few random decisions (games run to about 2,000).
    reload_at, clone_at = {rng.randrange(60) for _ in range(2)}, {rng.randrange(60)
                                                                    for _ in range(2)}
    decisions = 0
    while not a.is_terminal():
        legal = [x.id for x in a.legal_actions()]
        assert [x.id for x in b.legal_actions()] == legal, f"decision {decisions}"
        assert [x.id for x in c.legal_actions()] == legal, f"decision {decisions} (reloaded)"
        assert b.prompt() == a.prompt() and b.current_player() == a.current_player()
        action = rng.choice(legal)
        for s in (a, b, c):
            s.apply(action)
        decisions += 1
        if decisions in reload_at or decisions % 500 == 0:
            c = State.from_json(c.to_json(), compiled)
        elif decisions in clone_at:
            c = c.clone()
    assert b.is_terminal() and c.is_terminal()
    assert b.events == a.events
    assert b.scores() == a.scores() == c.scores()
    assert b.winners() == a.winners() == c.winners()
    assert b.history == a.history == c.history
    return decisions


@pytest.mark.parametrize(("path", "players"), _cases(),
                         ids=lambda v: v.stem if isinstance(v, Path) else str(v))
def test_compiled_engine_plays_the_reference_games(path: Path, players: int) -> None:
    reference, compiled = load(path, engine="interpret"), load(path, engine="compiled")
    assert reference.program(players).engine == "interpret"
    assert compiled.program(players).engine == "compiled"
    for seed in SEEDS:
        assert play_both(reference, compiled, players, seed) > 0


# A step triggered from a rule, and from an ability block written before the step's own
# blocks: both engines run the abilities (the interpreter once skipped them).
TRIGGERS = '''
game "Triggers"
players 2..2
card c "c":
    name: text
    ability: ability
    table:
        "a" | boom | 1
        "b" | none | 1
ability boom "Boom":
    at play:
        say "play {this}"
        trigger chain for pile
    at chain:
        say "chain {this}"
zone pile "pile": shared, public
rule r:
    trigger chain for pile
phase main "Main":
    do r
    trigger play for pile
    say "end"
    next end
score: 0
'''


@pytest.mark.parametrize("engine", ["interpret", "compiled"])
def test_a_step_triggered_before_its_blocks_are_written_runs_them(engine: str) -> None:
    s = rulesplay.loads(TRIGGERS, engine=engine).new_state(2, 1, record_events=True)
    said = [e["text"] for e in s.events or [] if e["type"] == "say"]
    assert said == ["chain a", "play a", "chain a", "end"]
