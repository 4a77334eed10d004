"""The built wheel carries the shipped games: built with ``python -m build`` from a copy of the
checkout, installed (no dependency resolution, no index) into a fresh venv that borrows this
environment's dependencies, then used as a designer would from a folder of their own:
``rulesplay list``, ``run NAME``, and variants that extend a shipped game by name and a base
of their own by path (docs/files.md). Skipped where the ``build`` package is missing."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(importlib.util.find_spec("build") is None,
                                reason="the 'build' package is not installed (pip install "
                                       "build; it is in the 'test' extra)")


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, f"{args}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_wheel_ships_the_games_and_a_variant_anywhere_extends_them(tmp_path: Path) -> None:
    source = tmp_path / "checkout"  # a copy: the build writes build/ and *.egg-info
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in ("src", "rulesets"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy(ROOT / name, source / name)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    _run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "-o",
          str(tmp_path / "dist"), str(source)], tmp_path, env)
    wheel = next((tmp_path / "dist").glob("rulesplay-*.whl"))

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path, env)
    python = venv / "bin" / "python"
    inside = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                        "'purelib'))"], tmp_path, env).strip())
    # The dependencies (lark, pydantic, click, rich ...) come from this environment, after
    # the venv's own packages, so the wheel's rulesplay is the one imported.
    borrowed = [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages")]
    (inside / "zz_deps.pth").write_text("\n".join(borrowed) + "\n")
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
          "--no-index", "--quiet", str(wheel)], tmp_path, env)

    home = tmp_path / "designer"  # a folder of the user's, far from any rulesets/ folder
    home.mkdir()
    rulesplay = str(venv / "bin" / "rulesplay")
    listing = _run([rulesplay, "list"], home, env).splitlines()
    games = {line.split(":")[0] for line in listing if not line.startswith(" ")}
    shipped = {p.relative_to(ROOT / "rulesets").with_suffix("").as_posix()
               for p in (ROOT / "rulesets").rglob("*.rules")}
    assert games == shipped
    assert any(line.startswith("bargain_hunter: ") and "players" in line for line in listing)
    assert "Winner" in _run([rulesplay, "run", "bargain_hunter", "-q", "--seed", "1"], home,
                            env)

    # Variants in the user's folder: one extends a shipped game by name, the other it by
    # path; both load from the installed package (not from this checkout).
    (home / "house.rules").write_text('extends "bargain_hunter"\ngame "House"\n'
                                      "option hand_size = 6\n")
    (home / "mine.rules").write_text('extends "./house.rules"\ngame "Mine"\n')
    probe = ("import rulesplay, rulesplay.shipped as s\n"
             "print(s.__file__, s.shipped_root())\n"
             "for f in ('house.rules', 'mine.rules', 'bargain_hunter'):\n"
             "    g = rulesplay.load(f)\n"
             "    print(g.title, g.program(3).layout.options['hand_size'])\n")
    out = _run([str(python), "-c", probe], home, env).splitlines()
    assert all(Path(p).is_relative_to(venv) for p in out[0].split()), out[0]
    assert out[1:] == ["House 6", "Mine 6", "Bargain Hunter 8"]
