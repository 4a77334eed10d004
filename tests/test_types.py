"""The package type-checks (``mypy --strict``, configured in pyproject.toml): part of the test
command, so CI and a developer's run check the same thing.

mypy runs in-process on ``src`` with its cache in the test's temporary folder: every run is a
fresh check (a few seconds) and nothing is written into the checkout.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_strict_finds_nothing(tmp_path: Path) -> None:
    try:
        from mypy import api
    except ImportError:
        pytest.skip("mypy is not installed (pip install -e '.[test]' installs it)")
    stdout, stderr, status = api.run([
        "--config-file", str(ROOT / "pyproject.toml"),
        "--cache-dir", str(tmp_path / "mypy_cache"),
        "--no-color-output", "--no-error-summary",
        str(ROOT / "src"),
    ])
    assert status == 0 and not stdout.strip(), "mypy --strict src:\n" + stdout + stderr
