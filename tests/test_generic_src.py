"""The engine is generic: no seed game's name or game-only term appears in ``src/``.

The interpreter, the CLI, the web pages and the adapters must serve any ruleset, so a seed
game's words (its name, its cards, its zones, its verbs) in the source are a sign that one
game's rule leaked into the engine. Comments, docstrings, CSS and JavaScript count too:
they are what the next reader copies from.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "rulesplay"

# Names and terms of the four seed games (rulesets/*.rules and ../shared/rules). Words that
# are also the field's standard terms (trick, trump, deck, hand, pile, item) are not here.
GAME_TERMS = re.compile(
    r"bargain|junk|irresistible|spring.?clean|card.?hunt|monster|adventure|employee"
    r"|\bfox(es)?\b|\bhero(es)?\b|\bquest\b|\blair\b|\boffer\w*",
    re.IGNORECASE)

TEXT_SUFFIXES = {".py", ".lark", ".js", ".css", ".html", ".json", ".txt", ".md", ".toml"}


def _source_files() -> list[Path]:
    return sorted(p for p in SRC.rglob("*")
                  if p.is_file() and p.suffix in TEXT_SUFFIXES and "egg-info" not in str(p))


def test_the_source_tree_is_found() -> None:
    files = _source_files()
    assert any(p.name == "cli.py" or p.parent.name == "cli" for p in files)
    assert len(files) > 50


def test_no_seed_game_term_in_the_source() -> None:
    hits = []
    for path in _source_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in GAME_TERMS.finditer(line):
                hits.append(f"{path.relative_to(SRC)}:{number}: {match.group(0)!r}: "
                            f"{line.strip()[:100]}")
    assert not hits, "game-only words in src/ (use the field's generic terms):\n" + \
        "\n".join(hits)


def test_the_pattern_catches_what_it_should() -> None:
    # The check could fail: each kind of word it is for is caught, and generic words are not.
    for text in ("Bargain Hunter", "the junk pile", "an offer", "OFFERED", "the Fox",
                 "heroes", "a quest", "Card Hunt", "card_hunt", "spring cleaning"):
        assert GAME_TERMS.search(text), text
    for text in ("request", "heroic", "foxtrot", "bins", "the trick's lead", "trump"):
        assert not GAME_TERMS.search(text), text
