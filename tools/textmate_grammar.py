"""Writes the TextMate grammar of ``.rules`` files (for VS Code-like editors) from the
language's own lists: the keywords of ``grammar.lark``, the builtin functions and the zone
flags (:mod:`rulesplay.keywords`). Run it after the language gains a word:

    python tools/textmate_grammar.py > editors/textmate/rules.tmLanguage.json

``tests/test_highlight.py`` fails while the checked-in file differs from this output.
"""

from __future__ import annotations

import json

from rulesplay.keywords import CONSTANTS, ZONE_WORDS, grammar_keywords
from rulesplay.validate.functions import BUILTINS

# Words that open a declaration and are followed by the name they declare.
DECLARING = ("ability", "card", "define", "enum", "option", "phase", "rule", "var", "zone")


def _alternation(names: list[str]) -> str:
    return "|".join(sorted(names))


def grammar() -> dict[str, object]:
    """The TextMate grammar as JSON-ready data (Oniguruma patterns kept to what Python's
    ``re`` reads alike: classes, alternations, ``\\b``, lookahead)."""
    keywords = sorted(grammar_keywords() - set(CONSTANTS))
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/"
                   "tmlanguage.json",
        "name": "rulesplay rules",
        "scopeName": "source.rules",
        "fileTypes": ["rules", "part"],
        "patterns": [{"include": f"#{name}"} for name in (
            "comment", "string", "language-tag", "declaration", "builtin", "constant",
            "keyword", "zone-flag", "number", "operator", "punctuation")],
        "repository": {
            "comment": {"name": "comment.line.number-sign.rules", "match": "#.*$"},
            "string": {
                "name": "string.quoted.double.rules", "begin": '"', "end": '"|$',
                "patterns": [
                    {"name": "constant.character.escape.rules", "match": "\\\\."},
                    {"name": "meta.embedded.placeholder.rules", "match": '\\{[^}"]*\\}'},
                ],
            },
            "language-tag": {"name": "entity.other.attribute-name.language.rules",
                             "match": "@[a-z]{2,3}\\b"},
            # A top-level line (``replace``, ``player var``... before the word) and its name.
            "declaration": {
                "match": f"^((?:replace|player|team|trick|card)[ \\t]+)*"
                         f"({_alternation(list(DECLARING))})[ \\t]+([^\\W\\d]\\w*)",
                "captures": {"1": {"name": "keyword.other.declaration.rules"},
                             "2": {"name": "keyword.other.declaration.rules"},
                             "3": {"name": "entity.name.rules"}},
            },
            "builtin": {"name": "support.function.builtin.rules",
                        "match": f"\\b({_alternation(list(BUILTINS))})(?=\\s*\\()"},
            "constant": {"name": "constant.language.rules",
                         "match": f"\\b({_alternation(list(CONSTANTS))})\\b"},
            "keyword": {"name": "keyword.control.rules",
                        "match": f"\\b({_alternation(keywords)})\\b"},
            "zone-flag": {"name": "storage.modifier.rules",
                          "match": f"\\b({_alternation(list(ZONE_WORDS))})\\b"},
            "number": {"name": "constant.numeric.integer.rules", "match": "\\b\\d+\\b"},
            "operator": {"name": "keyword.operator.rules",
                         "match": "==|!=|<=|>=|\\+=|-=|\\.\\.|[-+*/%<>=|]"},
            "punctuation": {"name": "punctuation.rules", "match": "[()\\[\\]{},:.]"},
        },
    }


def main() -> None:
    """Prints the grammar, two-space indented, with a final newline."""
    print(json.dumps(grammar(), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
