"""Highlighting of ``.rules`` files: the Pygments lexer reads every shipped ruleset without an
``Error`` token, and the TextMate grammar (``editors/textmate/rules.tmLanguage.json``) has
regular expressions that compile and exactly the language's keywords, builtins and zone
flags (derived from ``grammar.lark`` and the code, so the two cannot drift)."""

from __future__ import annotations

import importlib.util
import json
import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

pytest.importorskip("pygments", reason="pygments is not installed (pip install -e '.[test]')")

from pygments.token import Error, Keyword, Name, String  # noqa: E402

from rulesplay.highlight import RulesLexer  # noqa: E402
from rulesplay.keywords import CONSTANTS, ZONE_WORDS, grammar_keywords  # noqa: E402
from rulesplay.validate import BUILTINS  # noqa: E402

ROOT = Path(__file__).parent.parent
RULESETS = sorted([*(ROOT / "rulesets").rglob("*.rules"), *(ROOT / "rulesets").rglob("*.part")])
TEXTMATE = ROOT / "editors" / "textmate" / "rules.tmLanguage.json"


def _tokens(text: str) -> list[tuple[object, str]]:
    return list(RulesLexer().get_tokens(text))


@pytest.mark.parametrize("path", RULESETS, ids=[p.name for p in RULESETS])
def test_a_shipped_ruleset_has_no_error_token(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tokens = _tokens(text)
    errors = [value for kind, value in tokens if kind in Error]
    assert not errors, f"{path.name}: the lexer cannot read {errors[:5]}"
    assert "".join(value for _, value in tokens).rstrip("\n") == text.rstrip("\n")


def test_the_lexer_tells_the_parts_apart() -> None:
    tokens = dict((value, kind) for kind, value in _tokens(
        'phase deal "Deal {count(deck)}" @ja "配る":\n'
        '    if yes and count(deck) > 0: say "x"\n'
        '    counter = 1 ; $\n'))
    assert tokens["phase"] in Keyword and tokens["yes"] in Keyword.Constant
    assert tokens["count"] in Name.Builtin and tokens["counter"] is Name
    assert tokens["{count(deck)}"] in String.Interpol and tokens["@ja"] in Name.Decorator
    assert tokens[";"] in Error and tokens["$"] in Error


def test_keywords_are_the_grammars() -> None:
    words = grammar_keywords()
    assert {"phase", "trick", "chooses", "reveal", "secretly", "counterclockwise"} <= words
    assert set(CONSTANTS) <= words and "NAME" not in words


def _textmate() -> dict[str, dict[str, object]]:
    data = json.loads(TEXTMATE.read_text(encoding="utf-8"))
    return data["repository"]  # type: ignore[no-any-return]


def _alternatives(pattern: str) -> set[str]:
    return set(re.search(r"\(([a-z|]+)\)", pattern).group(1).split("|"))  # type: ignore[union-attr]


def test_the_textmate_regexes_compile() -> None:
    patterns = [rule[key] for rule in _textmate().values() for key in ("match", "begin", "end")
                if key in rule]
    patterns += [p["match"] for rule in _textmate().values()
                 for p in rule.get("patterns", [])]  # type: ignore[attr-defined]
    assert len(patterns) > 10
    for pattern in patterns:
        re.compile(pattern)  # Oniguruma reads these few constructs alike
    keyword = re.compile(_textmate()["keyword"]["match"])  # type: ignore[arg-type]
    assert keyword.search("next end if won") and not keyword.search("phased")


def test_the_textmate_words_are_the_languages() -> None:
    repo = _textmate()
    assert _alternatives(repo["keyword"]["match"]) == grammar_keywords() - set(CONSTANTS)  # type: ignore[arg-type]
    assert _alternatives(repo["constant"]["match"]) == set(CONSTANTS)  # type: ignore[arg-type]
    assert _alternatives(repo["builtin"]["match"]) == set(BUILTINS)  # type: ignore[arg-type]
    assert _alternatives(repo["zone-flag"]["match"]) == set(ZONE_WORDS)  # type: ignore[arg-type]


def test_the_textmate_file_is_the_generators_output() -> None:
    spec = importlib.util.spec_from_file_location("textmate_grammar",
                                                  ROOT / "tools" / "textmate_grammar.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    written = json.dumps(tool.grammar(), indent=2, ensure_ascii=False) + "\n"
    assert written == TEXTMATE.read_text(encoding="utf-8"), \
        "regenerate: python tools/textmate_grammar.py > editors/textmate/rules.tmLanguage.json"


def test_the_lexer_is_a_pygments_plugin() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    target = project["entry-points"]["pygments.lexers"]["rules"]
    assert target == f"{RulesLexer.__module__}:{RulesLexer.__name__}"
    assert any(r.startswith("pygments>=") for r in project["optional-dependencies"]["highlight"])
    installed = [e for e in metadata.entry_points(group="pygments.lexers") if e.name == "rules"]
    if not installed:
        pytest.skip("the installed rulesplay predates its lexer's entry point "
                    "(pip install -e . registers it)")
    from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
    assert type(get_lexer_by_name("rules")).__name__ == "RulesLexer"
    assert type(get_lexer_for_filename("x.rules")).__name__ == "RulesLexer"


def test_every_docs_example_has_no_error_token() -> None:
    pages = [ROOT / "docs" / "language.md", *sorted((ROOT / "docs" / "language").glob("*.md"))]
    fence = re.compile(r"^```rules[-a-z]*\n(.*?)^```", re.M | re.S)
    examples = [m.group(1) for page in pages
                for m in fence.finditer(page.read_text(encoding="utf-8"))]
    assert len(examples) > 100
    bad = [(text.splitlines()[0], errors) for text in examples
           if (errors := [v for kind, v in _tokens(text) if kind in Error])]
    assert not bad, bad[:3]
