"""The language reference (``docs/language.md``) against the language itself.

Every example is validated, and played where it is valid: a ``rules`` block is a whole
ruleset; a ``rules-stmt`` block is statements put in a phase of the page's ``rules-prelude``;
a ``rules-decl`` block is declarations appended to it (the page says how). A block whose
kind ends in ``-error`` must be refused, with the text of its ``# error:`` line in the
diagnostic. And every IR statement, expression and declaration class, option type, builtin
function and top-level line of the grammar has a section (its heading ends with ``·`` and
the things it documents), found from the code, so a new construct without one fails here
by name.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest
from conftest import plays_to_the_end

import rulesplay
from rulesplay import ir
from rulesplay.errors import RulesError
from rulesplay.keywords import ZONE_WORDS, grammar_keywords
from rulesplay.validate import BUILTINS

ROOT = Path(__file__).parent.parent
PAGE = ROOT / "docs" / "language.md"
TEXT = PAGE.read_text(encoding="utf-8")
FENCE = re.compile(r"^```(rules(?:-stmt|-decl|-prelude)?(?:-error)?)\n(.*?)^```", re.M | re.S)
BLOCKS = [(m.group(1), m.group(2), TEXT.count("\n", 0, m.start()) + 1)
          for m in FENCE.finditer(TEXT)]
PRELUDE = next(text for kind, text, _ in BLOCKS if kind == "rules-prelude")
EXAMPLES = [(kind, text, line) for kind, text, line in BLOCKS if kind != "rules-prelude"]
EXPECT = re.compile(r"^# error: (.+)$", re.M)


def wrap(kind: str, text: str) -> str:
    """The whole ruleset an example stands for (see "How to read the examples")."""
    if kind.startswith("rules-stmt"):
        body = "".join(f"    {line}\n" for line in text.splitlines())
        return f"{PRELUDE}phase main:\n{body}    next end\nscore: points[player]\n"
    if kind.startswith("rules-decl"):
        out = PRELUDE + text
        if not re.search(r"^phase ", text, re.M):
            out += "phase main:\n    next end\n"
        if not re.search(r"^score:", text, re.M):
            out += "score: points[player]\n"
        return out
    return text


@pytest.mark.parametrize(("kind", "text", "line"), EXAMPLES,
                         ids=[f"line{line}-{kind}" for kind, _, line in EXAMPLES])
def test_a_reference_example_is_what_it_says(kind: str, text: str, line: int) -> None:
    source = wrap(kind, text)
    if kind.endswith("-error"):
        with pytest.raises(RulesError) as caught:
            rulesplay.loads(source)
        for expected in EXPECT.findall(text):
            assert expected in str(caught.value), f"line {line}: {caught.value}"
        return
    plays_to_the_end(rulesplay.loads(source))


def test_every_error_example_quotes_its_diagnostic() -> None:
    bare = [line for kind, text, line in EXAMPLES
            if kind.endswith("-error") and not EXPECT.search(text)]
    assert not bare, f"error examples without an '# error:' line at lines {bare}"


def _documented() -> set[str]:
    """What the section headings say they document (after the last ``·``)."""
    tags: set[str] = set()
    for heading in re.findall(r"^#{2,4} .* · (.+)$", TEXT, re.M):
        tags.update(t.strip() for t in heading.split(","))
    return tags


def _grammar_top_lines() -> list[str]:
    """The top-level declarations of the grammar (the alternatives of its ``_decl`` rule)."""
    grammar = (Path(rulesplay.__file__).parent / "grammar.lark").read_text(encoding="utf-8")
    rule = re.search(r"^_decl:(.*?)(?=^\S)", grammar, re.M | re.S)
    assert rule is not None
    return re.findall(r"\w+", rule.group(1))


def required() -> list[str]:
    """Everything the reference must have a section for, derived from the code."""
    classes = [c.__name__ for base in (ir.StmtNode, ir.ExprNode, ir.DeclNode)
               for c in ir.kinds(base)]
    option_types = get_args(ir.OptionDecl.model_fields["type"].annotation)
    return [*classes, *(f"option {t}" for t in option_types),
            *(f"builtin {name}" for name in BUILTINS),
            *(f"grammar {rule}" for rule in _grammar_top_lines())]


def test_every_construct_has_a_section() -> None:
    need = required()
    assert len(need) > 60 and "Move" in need and "builtin count" in need
    missing = [n for n in need if n not in _documented()]
    assert not missing, ("docs/language.md has no section for: " + ", ".join(missing)
                         + " (add a heading ending in '· NAME' with an example)")


def test_every_section_documents_something_real() -> None:
    stale = sorted(_documented() - set(required()))
    assert not stale, f"sections for what the code no longer has: {stale}"


def test_the_readme_links_the_reference() -> None:
    assert "docs/language.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_cheat_sheet_names_every_keyword_and_builtin() -> None:
    sheet = (ROOT / "docs" / "cheatsheet.md").read_text(encoding="utf-8")
    present = set(re.findall(r"\w+", sheet))
    missing = sorted(grammar_keywords() - present)
    assert not missing, f"docs/cheatsheet.md lacks the words {missing}"
    missing = [b for b in BUILTINS if f"{b}(" not in sheet]
    assert not missing, f"docs/cheatsheet.md lacks the builtins {missing}"


def _code_words(text: str) -> set[str]:
    """The words in a page's code: its fenced blocks and its `code spans`."""
    blocks = re.findall(r"^```.*?^```", text, re.M | re.S)
    prose = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    spans = re.findall(r"``?([^`]+)``?", prose)
    return set(re.findall(r"\w+", " ".join([*blocks, *spans])))


def test_the_reference_shows_every_word_of_the_language() -> None:
    """A new keyword (a clause of a statement the section headings do not name) is
    flagged until the reference shows it in code."""
    missing = sorted((grammar_keywords() | set(ZONE_WORDS)) - _code_words(TEXT))
    assert not missing, f"docs/language.md shows no code with the words {missing}"
