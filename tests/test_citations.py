"""Every ruling a ruleset or the source cites by id (``BH5``, ``CH3``) is one of
``docs/rules/RULINGS.md``, and no shipped file points at the rule texts' folder outside the
checkout (``shared/rules/``): a citation always resolves."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
RULINGS = ROOT / "docs" / "rules" / "RULINGS.md"
DEFINED = re.compile(r"^- ([A-Z]{2})(\d+)\b", re.M)


def _cited_files() -> list[Path]:
    return [*sorted((ROOT / "rulesets").rglob("*.rules")),
            *sorted((ROOT / "rulesets").rglob("*.part")),
            *sorted((ROOT / "src").rglob("*.py")), ROOT / "README.md"]


def test_every_cited_ruling_exists() -> None:
    defined = {a + n for a, n in DEFINED.findall(RULINGS.read_text(encoding="utf-8"))}
    prefixes = "|".join(sorted({d[:2] for d in defined}))
    # An id, or a range of ids (BH1-BH11): both ends must exist.
    cited = re.compile(rf"\b((?:{prefixes})\d+)(?:-((?:{prefixes})?\d+))?\b")
    missing = []
    for path in _cited_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for first, last in cited.findall(line):
                ends = [first] + ([last if last[:1].isalpha() else first[:2] + last]
                                  if last else [])
                missing += [f"{path.relative_to(ROOT)}:{n}: {e}" for e in ends
                            if e not in defined]
    assert len(defined) > 20
    assert not missing, "rulings cited but not in docs/rules/RULINGS.md:\n" + "\n".join(missing)


def test_no_citation_points_outside_the_checkout() -> None:
    stale = [f"{p.relative_to(ROOT)}:{n}" for p in _cited_files()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if "shared/rules" in line]
    assert not stale, "cite docs/rules/RULINGS.md or the rule book's title instead: " + \
        ", ".join(stale)
