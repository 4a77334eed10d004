"""Fuzz the engine with generated statements inserted into the shipped rulesets.

Each trial takes one shipped ruleset or variant and either inserts one generated statement
(an assignment, a card variable's, a move, a loop, a trick, an open or secret choice, a 'say'
with a placeholder, ...) before a statement of one of its phases, or adds or replaces one
declaration (a card attribute, a card label, an option, a variable, an ability's modifier,
the score, tiebreak or winners line, a limit); it loads the result and, when it loads, plays
one game with random choices in one of five ways: through the API, saving and resuming the
game on the way, printing its account and score table, as `simulate` plays it, or reading
every seat's observation and history at its decisions. A trial must end in one of three ways:

  refused   the ruleset does not load: every diagnostic has a file:line:col place;
  stopped   the game stops with a located runtime error (a RulesError with a place);
  finished  the game ends.

Anything else is a failure: a Python exception other than a located RulesError
("traceback"), or a trial still running after the harness timeout ("hang"; the engine's own
budgets, counted in steps and decisions, should have stopped it first). Trials run in worker
processes with a memory cap, so a runaway ruleset cannot take the machine down.

Everything is seeded: trial K of seed S is the same statement at the same place every time
(``--show K`` prints it).

Examples:
  python tools/fuzz_statements.py --count 2000 --workers 2
  python tools/fuzz_statements.py --seed 7 --show 153
"""

from __future__ import annotations

import argparse
import difflib
import io
import multiprocessing as mp
import os
import random
import re
import resource
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
MEMORY_CAP = 2 * 1024**3  # bytes of address space per worker
DECLARATIONS = 0.3  # the share of trials that add or replace a declaration
STATEMENT_WORDS = ("move", "shuffle", "deal", "let", "if", "repeat", "for", "say", "do",
                   "trigger", "end", "trick")


# ------------------------------------------------------------ the rulesets' words
@dataclass
class Words:
    """Names a ruleset declares, for the generator to use."""

    zones: list[str]
    shared_zones: list[str]
    int_vars: list[str]
    player_int_vars: list[str]
    player_vars: list[str]
    rules: list[str]
    steps: list[str]
    attrs: list[str]
    card_vars: list[str]  # card variables that hold a number
    stats: list[str]  # names some ability modifies
    kinds: list[str]  # kinds of card


def _words(text: str) -> Words:
    zones = re.findall(r"^\s*zone (\w+)[^:\n]*:\s*(.*)$", text, re.M)
    attrs: list[str] = []
    in_card = False
    for line in text.split("\n"):
        if line and not line[0].isspace():
            in_card = line.startswith("card ")
        elif in_card:
            m = re.match(r"\s+(\w+)\s*(?::|=)", line)
            if m and m.group(1) not in ("table", "copies", "label", "short"):
                attrs.append(m.group(1))
    return Words(
        zones=[z for z, _ in zones] or ["deck"],
        shared_zones=[z for z, flags in zones if "shared" in flags],
        int_vars=re.findall(r"^var (\w+)[^:\n]*:\s*int\b", text, re.M),
        player_int_vars=re.findall(r"^player var (\w+)[^:\n]*:\s*int\b", text, re.M),
        player_vars=re.findall(r"^var (\w+)[^:\n]*:\s*player\b", text, re.M),
        rules=re.findall(r"^rule (\w+)", text, re.M),
        steps=re.findall(r"^\s+at (\w+)\s*:", text, re.M),
        attrs=attrs or ["rank"],
        card_vars=re.findall(r"^card var (\w+)[^:\n]*:\s*int\b", text, re.M),
        stats=sorted(set(re.findall(r"^\s+modify (\w+)\s*:", text, re.M))),
        kinds=re.findall(r"^card (\w+)", text, re.M),
    )


def _bundle_files() -> dict[str, str]:
    return {p.relative_to(RULESETS).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(RULESETS.rglob("*")) if p.suffix in (".rules", ".part")}


def _family(target: str, files: dict[str, str]) -> str:
    """The text of ``target`` and of every file it extends or includes."""
    seen: list[str] = []
    todo = [target]
    while todo:
        key = todo.pop()
        if key in seen or key not in files:
            continue
        seen.append(key)
        base = Path(key).parent
        for ref in re.findall(r'^(?:extends|include) "([^"]+)"', files[key], re.M):
            todo.append(Path(os.path.normpath(base / ref)).as_posix())
    return "\n".join(files[k] for k in seen)


def _targets(files: dict[str, str]) -> list[str]:
    return [k for k in files if k.endswith(".rules")]


# ------------------------------------------------------------ the generator
class Generator:
    """Random statements and expressions over one ruleset's names.

    Args:
        rng: the trial's generator (all choices come from it).
        words: the ruleset's names (from its own text and the files it builds on).
        locals_: local names bound where the statement goes (players and cards).
    """

    def __init__(self, rng: random.Random, words: Words, players: list[str], cards: list[str]):
        self.r, self.w, self.players, self.cards = rng, words, players, cards

    def pick(self, items: list[str]) -> str:
        return self.r.choice(items)

    def number(self) -> str:
        return str(self.r.choice([0, 1, 2, 3, 5, 13, 100, 10**6, 10**12, 10**20, 10**40,
                                  999_999_999_999]))

    def player(self) -> str:
        options = [*self.players, *self.w.player_vars]
        who = self.pick(options)
        return f"left of {who}" if self.r.random() < 0.15 else who

    def has_player(self) -> bool:
        return bool(self.players or self.w.player_vars)

    def zone(self) -> str:
        name = self.pick(self.w.zones)
        if name in self.w.shared_zones or not self.has_player():
            return name
        return f"{name}[{self.player()}]"

    def per_player_zones(self) -> list[str]:
        return [z for z in self.w.zones if z not in self.w.shared_zones]

    def trick(self, indent: str) -> list[str]:
        """A small trick over a shared zone and a per-player zone, with its clauses."""
        inner, body = indent + "    ", indent + "        "
        table, hand = self.pick(self.w.shared_zones), self.pick(self.per_player_zones())
        climbing = self.pick(["", "climbing "])
        lines = [f"{indent}trick {climbing}in {table} led by {self.player()}:",
                 f"{inner}each player plays tc from {hand}[player]"
                 + (f" where tc.{self.pick(self.w.attrs)} >= {self.int_expr(2)}"
                    if self.r.random() < 0.5 else "")]
        if climbing:
            lines.append(f'{inner}pass "pass"')
        if self.r.random() < 0.5:
            lines += [f"{inner}after play:", f'{body}say "played {{tc.{self.pick(self.w.attrs)}}}"']
        lines.append(f"{inner}won by highest it.{self.pick(self.w.attrs)}")
        lines += [f"{inner}after trick:", f"{body}move {table} to {self.zone()}"]
        return lines

    def cards_expr(self, depth: int = 0) -> str:
        z = self.zone()
        roll = self.r.random()
        if roll < 0.5 or depth > 2:
            return z
        inner = self.cards_expr(depth + 1)
        return f"({inner} where it.{self.pick(self.w.attrs)} >= {self.int_expr(depth + 1)})"

    def int_expr(self, depth: int = 0) -> str:
        r = self.r.random()
        if depth > 3 or r < 0.25:
            return self.number()
        if r < 0.35 and self.w.int_vars:
            return self.pick(self.w.int_vars)
        if r < 0.45 and self.w.player_int_vars and self.has_player():
            return f"{self.pick(self.w.player_int_vars)}[{self.player()}]"
        if r < 0.55:
            return f"count({self.cards_expr(depth + 1)})"
        if r < 0.62:
            return f"count({self.int_expr(depth + 1)}..{self.int_expr(depth + 1)})"
        if r < 0.69:
            return f"sum({self.int_expr(depth + 1)}..{self.int_expr(depth + 1)}, it)"
        if r < 0.74:
            return f"top({self.cards_expr(depth + 1)}).{self.pick(self.w.attrs)}"
        if r < 0.78:
            return f"random(1..{self.int_expr(depth + 1)})"
        if r < 0.82 and self.cards:
            return f"{self.pick(self.cards)}.{self.pick(self.w.attrs)}"
        if r < 0.85:
            n = self.int_expr(depth + 1)
            return f"{{0: {n}, 1: {self.number()}, 2: {self.int_expr(depth + 1)}}}[{n} % 3]"
        if r < 0.88:
            fn = self.pick(["max", "min", "sum"])
            return f"{fn}(values({self.cards_expr(depth + 1)}, it.{self.pick(self.w.attrs)}))"
        if r < 0.90:
            return (f"{self.pick(['max', 'min'])}({self.cards_expr(depth + 1)}, "
                    f"it.{self.pick(self.w.attrs)})")
        if r < 0.92:
            return f"best({self.cards_expr(depth + 1)}, it.{self.pick(self.w.attrs)})" \
                f".{self.pick(self.w.attrs)}"
        if r < 0.94 and self.w.stats:
            return f"bonus({self.pick(self.w.stats)}, {self.cards_expr(depth + 1)})"
        if r < 0.95 and self.w.card_vars:
            return f"top({self.cards_expr(depth + 1)}).{self.pick(self.w.card_vars)}"
        op = self.pick(["+", "-", "*", "*", "/", "%"])
        return f"({self.int_expr(depth + 1)} {op} {self.int_expr(depth + 1)})"

    def bool_expr(self, depth: int = 0) -> str:
        r = self.r.random()
        if r < 0.15:
            return self.pick(["true", "false"])
        if r < 0.3:
            return f"count({self.cards_expr(depth + 1)}) > 0"
        op = self.pick(["==", "!=", "<", ">", "<=", ">="])
        if r < 0.4:  # tuples compare item by item
            return (f"({self.int_expr(depth + 1)}, {self.int_expr(depth + 1)}) {op} "
                    f"({self.int_expr(depth + 1)}, {self.int_expr(depth + 1)})")
        if r < 0.45:
            return f"{self.int_expr(depth + 1)} in values({self.cards_expr(depth + 1)}, " \
                f"it.{self.pick(self.w.attrs)})"
        return f"{self.int_expr(depth + 1)} {op} {self.int_expr(depth + 1)}"

    def statement(self, indent: str, depth: int = 0) -> list[str]:
        """One statement as lines at ``indent`` (a compound one brings its block)."""
        r = self.r.random()
        inner = indent + "    "
        if not self.has_player() and depth == 0:  # most statements need a player somewhere
            self.players.append("q9")
            return [f"{indent}for each player q9:", *self.statement(inner, depth + 1)]
        if depth < 2 and r < 0.22:
            kind = self.r.randrange(5)
            if kind == 0:
                head = f"repeat {self.int_expr()} times:"
            elif kind == 1:
                head = f"repeat while {self.bool_expr()}:"
            elif kind == 2:
                head = f"if {self.bool_expr()}:"
            elif kind == 3:
                q = f"q{depth}"
                self.players.append(q)
                head = f"for each player {q}:"
            else:
                c = f"c{depth}"
                self.cards.append(c)
                head = f"for each card {c} in {self.cards_expr()}:"
            return [indent + head, *self.statement(inner, depth + 1)]
        if r < 0.34 and self.w.int_vars:
            return [f"{indent}{self.pick(self.w.int_vars)} = {self.int_expr()}"]
        if r < 0.44 and self.w.player_int_vars:
            who = self.player()
            var = self.pick(self.w.player_int_vars)
            return [f"{indent}{var}[{who}] {self.pick(['+=', '-=', '='])} {self.int_expr()}"]
        if r < 0.52:
            what = self.pick([self.zone(), f"top({self.zone()})", self.cards_expr()])
            return [f"{indent}move {what} to {self.zone()}"]
        if r < 0.545:
            return [f"{indent}shuffle {self.zone()}"]
        if r < 0.56:
            return [f"{indent}{self.pick(['reveal', 'hide'])} {self.zone()}"]
        if r < 0.60:
            return [f"{indent}deal {self.int_expr()} from {self.zone()} to "
                    f"{self.pick(self.w.zones)}"]
        if r < 0.70:
            return [f'{indent}say "fuzz {{{self.int_expr()}}}"']
        if r < 0.76 and self.w.rules:
            return [f"{indent}do {self.pick(self.w.rules)}"]
        if r < 0.80 and self.w.steps:
            return [f"{indent}trigger {self.pick(self.w.steps)} for {self.player()}"]
        if r < 0.83 and self.w.card_vars:
            card = self.pick(self.cards) if self.cards and self.r.random() < 0.5 \
                else f"top({self.cards_expr()})"
            return [f"{indent}{card}.{self.pick(self.w.card_vars)} "
                    f"{self.pick(['=', '+=', '-='])} {self.int_expr()}"]
        if r < 0.86 and self.per_player_zones() and self.w.shared_zones and depth < 2:
            return self.trick(indent)
        if r < 0.90:
            verb = self.pick(["chooses", "may choose", "secretly chooses",
                              "secretly may choose"])
            domain = self.pick([f"{self.int_expr()}..{self.int_expr()}", self.cards_expr()])
            return [f"{indent}{self.player()} {verb} x from {domain}"]
        if r < 0.95:
            return [f"{indent}let v{depth} = {self.int_expr()}"]
        return [f"{indent}{self.pick(['end game', 'break'])}"]


def _declaration(gen: Generator, text: str) -> str:
    """``text`` with one declaration added or replaced (a computed card attribute, a card
    label, an option, a variable, an ability's modifier, the score, tiebreak or winners
    line, a limit), over the names of ``gen``'s ruleset."""
    r, w = gen.r, gen.w
    attr = " + ".join(gen.pick(w.attrs) for _ in range(r.randrange(1, 3)))

    def in_kind(line: str) -> str:  # a line added to a kind of card
        kind = gen.pick(w.kinds)
        return re.sub(rf"^(card {kind}\b.*:)$", lambda m: f"{m.group(1)}\n    {line}", text,
                      count=1, flags=re.M)

    roll = r.randrange(9)
    if roll == 0 and w.kinds:
        return in_kind("fz = " + gen.pick([
            f"{attr} * {gen.number()}", f"{attr} % {gen.number()}",
            f"{{1: {gen.number()}, 2: 0}}[{attr} % 3]",
            f"{attr} if {attr} > {gen.number()} else {gen.number()}",
            f"{attr} / ({attr} - {attr})", f"{attr} + players"]))
    if roll == 1 and w.kinds:
        return in_kind('label: "' + gen.pick([
            f"{{{attr}}}", f"{{{attr} * {gen.number()}}}", f"{{{attr} / 0}}",
            f"{{{gen.pick(w.attrs)}}} {{{gen.pick(w.zones)}}}", "{players}", "{nope}"]) + '"')
    if roll == 2:
        lo, hi = sorted(int(gen.number()) % 10**19 for _ in range(2))
        return f"{text}\noption fz: int in {lo}..{hi} = {gen.number()}\n"
    if roll == 3:
        return f"{text}\n{gen.pick(['var', 'player var'])} fz: int = {gen.number()}\n"
    if roll == 4 and w.stats:
        line = f"modify {gen.pick(w.stats)}: {gen.int_expr(2)}"
        return re.sub(r"^(ability \w+.*:)$", lambda m: f"{m.group(1)}\n    {line}", text,
                      count=1, flags=re.M)
    gen.players.append("player")  # the score lines are per player
    if roll == 5:
        line = f"score: {gen.int_expr(1)}"
        return re.sub(r"^score:.*$", lambda m: line, text, count=1, flags=re.M)
    if roll == 6:
        return f"{text}\ntiebreak: {gen.int_expr(1)}\n"
    if roll == 7:
        return f"{text}\nwinners: seats where {gen.bool_expr(1)}\n"
    name = gen.pick(["decisions", "entries", "steps", "work", "events", "total", "turns"])
    return f"{text}\nlimit {name} {gen.pick(['1', '10', '1000', '0', '99999999999'])}\n"


def _insertion_points(text: str) -> list[tuple[int, str, list[str], list[str]]]:
    """Lines of a phase, rule or step body before which a statement may go, with their
    indentation and the player and card names bound around them (roughly)."""
    points = []
    players: list[str] = []
    cards: list[str] = []
    in_body = False
    for i, line in enumerate(text.split("\n")):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = line[: len(line) - len(line.lstrip())]
        if not indent:
            in_body = line.startswith(("phase ", "rule ", "ability ", "replace phase",
                                       "replace rule"))
            players, cards = [], []
            continue
        words = line.split()
        players += re.findall(r"for each player (\w+)", line)
        cards += re.findall(r"for each (?:card )?(\w+) in", line)
        cards += re.findall(r"plays (\w+) from", line)
        assigns = re.match(r"\w+(\[.*\])? [+-]?= ", line.strip())
        if in_body and (words[0] in STATEMENT_WORDS or assigns):
            points.append((i, indent, list(players), list(cards)))
    return points


def make_trial(seed: int, k: int, files: dict[str, str]) -> tuple[str, int, str, dict[str, str]]:
    """Trial ``k`` of ``seed``: (target file, line number, inserted text, mutated files)."""
    rng = random.Random(seed * 1_000_003 + k)
    targets = _targets(files)
    while True:
        target = rng.choice(targets)
        points = _insertion_points(files[target])
        if points:
            break
    line, indent, players, cards = rng.choice(points)
    gen = Generator(rng, _words(_family(target, files)), players, cards)
    mutated = dict(files)
    if rng.random() < DECLARATIONS:
        gen.players, gen.cards = [], []  # none is bound at the top level
        mutated[target] = _declaration(gen, files[target])
        added = [d[1:] for d in difflib.unified_diff(
            files[target].split("\n"), mutated[target].split("\n"), lineterm="", n=0)
            if d.startswith("+") and not d.startswith("+++")]
        return target, 0, "\n".join(added) or "(no change)", mutated
    new = gen.statement(indent)
    lines = files[target].split("\n")
    lines[line:line] = new
    mutated[target] = "\n".join(lines)
    return target, line + 1, "\n".join(new), mutated


# ------------------------------------------------------------ running a trial
def run_trial(seed: int, k: int, files: dict[str, str]) -> tuple[str, str]:
    """Load trial ``k`` and play it once: (outcome, detail). Outcomes: refused, stopped,
    finished, traceback."""
    from rulesplay.compose import Bundle
    from rulesplay.engine.game import load_bundle
    from rulesplay.errors import RulesError

    target, _, _, mutated = make_trial(seed, k, files)
    try:
        try:
            game = load_bundle(Bundle(name=target, top=target, files=mutated))
        except RulesError as exc:
            return _located("refused", exc)
        rng = random.Random(k)
        try:
            _play(game, rng.choice(PLAYS), rng, k)
        except RulesError as exc:
            return _located("stopped", exc)
        return "finished", ""
    except BaseException as exc:  # noqa: BLE001 - anything else is the finding
        if isinstance(exc, KeyboardInterrupt):
            raise
        tb = traceback.format_exception(exc)
        return "traceback", "".join(tb[-3:]).strip()


PLAYS = ("api", "saves", "account", "simulate", "views")


def _play(game: object, how: str, rng: random.Random, k: int) -> None:
    """Play one game of ``game`` with random choices, ``how``: through the API ("api");
    saved and resumed on the way and at the end ("saves"); recorded, its account and score
    table printed ("account"); as ``simulate`` plays one ("simulate"); reading every seat's
    observation and history at its decisions ("views")."""
    import rulesplay
    from rulesplay.narrate import Narrator, score_table, winner_line
    from rulesplay.sim import play_game
    from rulesplay.terminal import console

    low, high = game.player_range  # type: ignore[attr-defined]
    players = rng.randint(low, high)
    if how == "simulate":
        play_game(game, players, {}, seed=k)
        return
    state = game.new_state(players, seed=k,  # type: ignore[attr-defined]
                           record_events=how in ("saves", "account"))
    resume_at = rng.randrange(0, 80)
    while not state.is_terminal():
        # (at the first decisions and then now and then: a seat's history is as long as
        # the game, and a game may go on to the decisions limit)
        if how == "views" and (state.decisions < 200 or state.decisions % 1000 == 0):
            for seat in range(players):
                state.observation(seat)
                state.public_history(seat)
        if how == "saves" and state.decisions == resume_at:  # from the save's text alone
            state = rulesplay.State.from_json(state.to_json())
        state.apply(rng.choice(state.legal_actions()))
    state.scores()
    state.winners()
    if how == "saves":
        rulesplay.State.from_json(state.to_json(), game)  # type: ignore[arg-type]
    if how == "account":
        out = console(file=io.StringIO(), width=100)
        narrator = Narrator(state.program, out)
        narrator.feed(state.events or [])
        narrator.close()
        out.print(score_table(state))
        out.print(winner_line(state))


def _located(outcome: str, exc: Exception) -> tuple[str, str]:
    from rulesplay.errors import RulesError

    assert isinstance(exc, RulesError)
    text = exc.render()
    if all(d.span.line > 0 for d in exc.diagnostics):
        return outcome, text.split("\n", 1)[0]
    return "unlocated", text


def _worker(conn: object, seed: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    # (Python's own recursion limit, as the command line and the API run with)
    files = _bundle_files()
    while True:
        k = conn.recv()  # type: ignore[attr-defined]
        if k is None:
            return
        conn.send(run_trial(seed, k, files))  # type: ignore[attr-defined]


def _cpu(pid: int, otherwise: float) -> float:
    """Seconds of CPU the process ``pid`` has used (Linux), else ``otherwise``: a busy
    machine must not turn a slow trial into a hang."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return otherwise


class Pool:
    """Worker processes that each run one trial at a time; a worker past the harness
    timeout (in CPU seconds where the system says them) is killed (the trial is a hang)
    and replaced."""

    def __init__(self, seed: int, workers: int, timeout: float):
        self.seed, self.timeout = seed, timeout
        self.ctx = mp.get_context("spawn")
        self.slots = [self._start() for _ in range(workers)]

    def _start(self) -> list:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker, args=(child, self.seed), daemon=True)
        proc.start()
        return [proc, parent, None, 0.0]  # process, pipe, trial, started

    def run(self, trials: list[int], progress: bool = False) -> dict[int, tuple[str, str]]:
        todo = list(reversed(trials))
        results: dict[int, tuple[str, str]] = {}
        while todo or any(s[2] is not None for s in self.slots):
            for i, slot in enumerate(self.slots):
                proc, pipe, k, started = slot
                if k is None and todo:
                    slot[2], slot[3] = todo.pop(), _cpu(proc.pid, time.monotonic())
                    pipe.send(slot[2])
                elif k is not None and pipe.poll():
                    try:
                        results[k] = pipe.recv()
                    except EOFError:  # the worker died (out of memory, a signal)
                        results[k] = ("traceback", f"worker died ({proc.exitcode})")
                        self.slots[i] = self._start()
                        continue
                    slot[2] = None
                    if progress and len(results) % 50 == 0:
                        print(f"  {len(results)} trials", file=sys.stderr, flush=True)
                elif k is not None and _cpu(proc.pid, time.monotonic()) - started > self.timeout:
                    proc.kill()
                    proc.join()
                    results[k] = ("hang", f"still running after {self.timeout:g} s of CPU")
                    self.slots[i] = self._start()
            time.sleep(0.002)
        return results

    def close(self) -> None:
        for proc, pipe, _, _ in self.slots:
            pipe.send(None)
            proc.join(5)


FAILURES = ("traceback", "unlocated", "hang")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    ap.add_argument("--count", type=int, default=100, help="trials (default 100)")
    ap.add_argument("--first", type=int, default=0, help="first trial number (default 0)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="CPU seconds after which a trial counts as a hang (default 60)")
    ap.add_argument("--show", type=int, metavar="K", help="print trial K's statement and stop")
    args = ap.parse_args(argv)
    files = _bundle_files()
    if args.show is not None:
        target, line, text, _ = make_trial(args.seed, args.show, files)
        print(f"{target}:{line}: inserted\n{text}")
        print(run_trial(args.seed, args.show, files))
        return 0
    pool = Pool(args.seed, args.workers, args.timeout)
    t0 = time.monotonic()
    try:
        results = pool.run(list(range(args.first, args.first + args.count)), progress=True)
    finally:
        pool.close()
    counts = Counter(outcome for outcome, _ in results.values())
    print(f"{len(results)} trials (seed {args.seed}) in {time.monotonic() - t0:.0f} s: "
          + ", ".join(f"{n} {o}" for o, n in sorted(counts.items())))
    for k in sorted(results):
        outcome, detail = results[k]
        if outcome in FAILURES:
            target, line, text, _ = make_trial(args.seed, k, files)
            print(f"\n[{k}] {outcome}: {target}:{line}: {text.strip()}\n{detail}")
    return 1 if any(counts[f] for f in FAILURES) else 0


if __name__ == "__main__":
    sys.exit(main())
