"""Golden games: the single reference for "the same games" across refactorings.

For every shipped ruleset (``rulesets/*.rules``) and variant (``rulesets/variants/*.rules``),
and every classic game and its variants (``rulesets/classics/*.rules``,
``rulesets/classics/variants/*.rules``; file stems are unique across these folders),
at its smallest and largest player count and seeds 1, 2 and 3, with random bots in every seat,
``tests/golden/games/<stem>-p<N>-s<S>.jsonl.gz`` holds, gzip-compressed, the log that
``rulesplay run rulesets/... --players N --seed S --log OUT --quiet`` writes from the project
root. Each case re-runs that command (through click's CliRunner) and compares every event line
with the decompressed golden byte for byte; the header is compared by its fields ``ruleset``,
``options``, ``players``, ``seed``, ``lang`` and ``bots`` only, so fields added to it later
keep the goldens valid. ``rulesplay replay --ruleset <the ruleset named in the header>`` must
also accept each golden log (decompressed into a temporary directory): today's ruleset file,
not a text stored in the log, must replay it (the goldens predate headers that hold the
ruleset's text; regenerated ones would hold it, and ``--ruleset`` still takes precedence).

The goldens are compressed deterministically (:func:`write_golden`: no timestamp, the plain
log's name as the stored file name, a fixed level), so regenerating an unchanged game rewrites
the same bytes and git sees no change. ``gunzip -kN`` or ``zcat`` show one as text.

Regenerate with ``UPDATE_GOLDEN=1 pytest tests/test_golden_games.py`` (this also deletes
goldens of games no longer shipped); the classics alone (and their variants) with
``UPDATE_GOLDEN=1 pytest tests/test_golden_games.py -k "bridge or crazy_eights or euchre or
hearts or oh_hell or president or spades or whist"``, then check with ``git status`` that no
other golden changed. Only a change of ruling may regenerate them, in the
commit that makes that change, with the reason in the commit message; a refactoring or a new
feature that changes a golden game is a bug.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import rulesplay.cli
from rulesplay.engine.game import Game, load

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "games"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
SEEDS = (1, 2, 3)
HEADER_FIELDS = ("ruleset", "options", "players", "seed", "lang", "bots")
SHOWN = 160  # characters of a differing line shown in a failure
LEVEL = 9  # gzip compression level of the goldens (fixed: the same log gives the same bytes)


@functools.cache
def _load(path: str, options: str, lang: str | None, engine: str, limits: str) -> Game:
    return load(path, json.loads(options), lang, engine, json.loads(limits))


def cached_load(path: str, options: dict[str, Any] | None = None,
                lang: str | None = None, engine: str = "compiled",
                limits: dict[str, int] | None = None) -> Game:
    """``rulesplay.engine.game.load``, loaded once per ruleset and options in this session.

    Stands in for ``load`` inside ``rulesplay.cli`` (run and replay) only to save time: loading
    a Bargain Quest ruleset costs about 0.15 s and would be paid twice per game. Everything
    after loading is the command's own code; the goldens were written by fresh processes, so
    a game that depended on an earlier game played with the same ``Game`` would show up as a
    difference here.
    """
    return _load(path, json.dumps(options or {}, sort_keys=True), lang, engine,
                 json.dumps(limits or {}, sort_keys=True))


def _rulesets() -> list[str]:
    """The shipped rulesets and variants, as paths relative to the project root."""
    files = [path for folder in ("", "variants", "classics", "classics/variants")
             for path in (ROOT / "rulesets" / folder).glob("*.rules")]
    stems = [p.stem for p in files]
    assert len(set(stems)) == len(stems), f"two shipped rulesets share a name: {stems}"
    return sorted(p.relative_to(ROOT).as_posix() for p in files)


def _cases() -> dict[str, tuple[str, int, int]]:
    """Log name -> (ruleset path, players, seed) for every game that must have a golden
    (the golden file is the log name plus ``.gz``)."""
    cases = {}
    with contextlib.chdir(ROOT):  # the same cache key as the run and the replay use
        ranges = {path: cached_load(path).player_range for path in _rulesets()}
    for path, (lo, hi) in ranges.items():
        for n in sorted({lo, hi}):
            for seed in SEEDS:
                cases[f"{Path(path).stem}-p{n}-s{seed}.jsonl"] = (path, n, seed)
    return cases


CASES = _cases()


def write_golden(path: Path, log: bytes) -> None:
    """Write ``log`` to ``path`` gzip-compressed, the same bytes for the same log.

    The gzip header holds no modification time (``mtime=0``) and, as the stored file name,
    ``path``'s name without ``.gz``; the level is fixed (``LEVEL``).
    """
    buf = io.BytesIO()
    with gzip.GzipFile(filename=path.name.removesuffix(".gz"), mode="wb", fileobj=buf,
                       compresslevel=LEVEL, mtime=0) as gz:
        gz.write(log)
    path.write_bytes(buf.getvalue())


def read_golden(path: Path) -> bytes:
    """The log stored in the gzip file ``path``."""
    return gzip.decompress(path.read_bytes())


@pytest.fixture(autouse=True)
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Logs name the ruleset as typed; from the root that is the machine-independent path."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(rulesplay.cli, "load", cached_load)


def invoke(*args: str) -> str:
    """Run ``rulesplay ARGS`` in-process; returns its output, failing on a non-zero exit."""
    result = CliRunner().invoke(rulesplay.cli.main, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, f"rulesplay {' '.join(args)} exited {result.exit_code}:\n" \
                                  f"{result.output}"
    return result.output


def first_difference(got: list[bytes], want: list[bytes]) -> str | None:
    """A short message naming the first line where two logs differ (both without header).

    Lines are numbered as in the file (the header is line 1); None when they are equal.
    """
    for i in range(max(len(got), len(want))):
        a = got[i] if i < len(got) else b"(the log ends here)"
        b = want[i] if i < len(want) else b"(the golden ends here)"
        if a != b:
            def cut(line: bytes) -> str:
                text = line.decode("utf-8", "replace")
                return text if len(text) <= SHOWN else text[:SHOWN] + "..."
            counts = f"{sum(map(bool, got))} events now, {sum(map(bool, want))} in the golden"
            return (f"line {i + 2} differs ({counts})\n"
                    f"  now:    {cut(a)}\n  golden: {cut(b)}")
    return None


@pytest.mark.parametrize("name", sorted(CASES))
def test_game_replays_its_golden_log(name: str, tmp_path: Path) -> None:
    path, players, seed = CASES[name]
    out = tmp_path / name
    invoke("run", path, "--players", str(players), "--seed", str(seed), "--log", str(out),
           "--quiet")
    golden = GOLDEN / f"{name}.gz"
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        write_golden(golden, out.read_bytes())
    assert golden.exists(), f"no golden file {golden}; run with UPDATE_GOLDEN=1"
    log = read_golden(golden)
    head, *lines = out.read_bytes().split(b"\n")
    want_head, *want = log.split(b"\n")
    header, want_header = json.loads(head), json.loads(want_head)
    assert want_header["type"] == header["type"] == "header"
    for field in HEADER_FIELDS:
        assert header[field] == want_header[field], f"header field {field!r} differs"
    diff = first_difference(lines, want)
    if diff is not None:
        pytest.fail(f"{name}: {diff}", pytrace=False)
    plain = tmp_path / "golden" / name
    plain.parent.mkdir()
    plain.write_bytes(log)
    said = invoke("replay", str(plain), "--ruleset", want_header["ruleset"])
    assert said.startswith("replay matches: ") and "final scores" in said, said


def test_every_golden_game_is_still_shipped() -> None:
    stale = sorted({p.name for p in GOLDEN.glob("*")} - {f"{name}.gz" for name in CASES})
    if UPDATE:
        for name in stale:
            (GOLDEN / name).unlink()
        stale = []
    assert not stale, (f"golden games of no shipped ruleset or player count: {stale}; "
                       "delete them (UPDATE_GOLDEN=1 does) in the commit that drops the game")


def test_first_difference_names_the_line_and_shows_both() -> None:
    same = [b'{"type": "phase"}', b""]
    assert first_difference(same, same) is None
    msg = first_difference([b'{"a": 1}', b"x" * 500], [b'{"a": 1}', b"y"])
    assert msg is not None and msg.startswith("line 3 differs")
    assert "x" * SHOWN + "..." in msg and "golden: y" in msg
    assert "(the log ends here)" in str(first_difference([b"a"], [b"a", b"b"]))


def test_goldens_are_written_deterministically(tmp_path: Path) -> None:
    log = b'{"type": "header"}\n{"type": "end"}\n'
    first, second = tmp_path / "a" / "g.jsonl.gz", tmp_path / "b" / "g.jsonl.gz"
    for path in (first, second):
        path.parent.mkdir()
        write_golden(path, log)
    assert first.read_bytes() == second.read_bytes()
    assert read_golden(first) == log
    with gzip.open(first) as gz:
        assert gz.read() == log
    assert first.read_bytes()[4:8] == bytes(4)  # no modification time
    assert b"g.jsonl\x00" in first.read_bytes()[:32]  # the stored name, without .gz
