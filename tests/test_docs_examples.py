"""Every example of the language reference (``docs/language/*.md``) is a whole ruleset that
loads and plays to its end: a page's smallest example can never drift from the language.

An example is a fenced block opened with three backticks and ``rules``; a block opened with
``rules-error`` is one the validator must refuse (a page showing a mistake)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import plays_to_the_end

import rulesplay
from rulesplay.errors import RulesError

PAGES = sorted(p for p in (Path(__file__).parent.parent / "docs" / "language").glob("*.md")
               if p.name != "README.md")
FENCE = re.compile(r"^```(rules|rules-error)\n(.*?)^```", re.M | re.S)


def _examples() -> list[tuple[str, str, str]]:
    out = []
    for page in PAGES:
        for n, m in enumerate(FENCE.finditer(page.read_text(encoding="utf-8")), 1):
            out.append((f"{page.name}#{n}", m.group(1), m.group(2)))
    return out


EXAMPLES = _examples()


@pytest.mark.parametrize(("where", "kind", "text"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_a_reference_example_loads_and_plays(where: str, kind: str, text: str) -> None:
    if kind == "rules-error":
        with pytest.raises(RulesError):
            rulesplay.loads(text)
        return
    plays_to_the_end(rulesplay.loads(text))


def test_every_page_has_an_example() -> None:
    for page in PAGES:
        assert FENCE.search(page.read_text(encoding="utf-8")), f"{page.name} shows no example"
