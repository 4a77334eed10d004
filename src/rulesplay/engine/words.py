"""The tool's own words (yes, no, skip, seat...), by language.

Ruleset words come from the ruleset's labels; these are the few the engine itself shows in
action labels and display texts.
"""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "": {"yes": "yes", "no": "no", "skip": "skip", "seat": "Seat {n}", "none": "none"},
    "ja": {"yes": "はい", "no": "いいえ", "skip": "スキップ", "seat": "席{n}", "none": "なし"},
}


def word(lang: str | None, key: str) -> str:
    """A tool word in ``lang`` ("ja", or None/"" for English), falling back to English.

    Args:
        lang: display language code.
        key: one of ``yes``, ``no``, ``skip``, ``seat`` (a format string with ``{n}``),
            ``none``.

    Raises:
        KeyError: ``key`` is not a tool word.
    """
    return WORDS.get(lang or "", WORDS[""]).get(key, WORDS[""][key])
