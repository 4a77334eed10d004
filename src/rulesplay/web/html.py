"""The one place where text becomes HTML.

Every page is built from :class:`Html` pieces. Text from a ruleset, a user, a log or an
error message enters a page only through :func:`html` (which escapes whatever is not already
:class:`Html`) or :func:`json_script` (data for the page's script). Nothing else in the web
package writes markup around a value, so escaping cannot be forgotten in one place.

Right-to-left text and bidirectional controls (U+202E and the like) in a name, a label or a
title must not reorder the words around them, so each line of shown text that has any is
*isolated* (:func:`isolate`: between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL
ISOLATE, what ``<bdi>`` and ``dir=auto`` do, with its own isolates balanced so it cannot
close ours). :func:`html` does it for every value written as element text;
:func:`isolate_texts` for the text in data a page's script shows (``textContent``). Values
in attributes (a link, a form's value) and :func:`verbatim` (an editor's text) are data, left
as they are. Text that echoes what someone sent is cut short by :func:`quoted`.
"""

from __future__ import annotations

import html as _html
import json
import re
import string
import unicodedata
from collections.abc import Iterable
from typing import Any

from ..words import page_word

__all__ = ["Html", "escape", "html", "isolate", "isolate_texts", "join",
           "json_script", "page", "quoted", "verbatim"]

FSI, PDI = "\u2068", "\u2069"
_OPENS = "\u2066\u2067\u2068"  # LRI, RLI, FSI (each closed by a PDI)
# Bidirectional controls, and the scripts written right to left.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u0590-\u08ff"
                   "\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff"
                   "\U0001e800-\U0001efff]")


# What ends a paragraph for the bidirectional algorithm (and with it every isolate): kept as
# pieces of their own, so each line is isolated apart.
_PARAGRAPHS = re.compile("(\r\n|[\n\r\x1c-\x1e\x85\u2029])")


class Html(str):
    """A string that is already HTML (built by :func:`html` from a trusted template)."""

    __slots__ = ()


def _isolated_line(line: str) -> str:
    if not _BIDI.search(line):
        return line
    kept, depth = [], 0
    for ch in line:
        if ch in _OPENS:
            depth += 1
        elif ch == PDI:
            if not depth:
                continue  # (a PDI of its own would close our isolate)
            depth -= 1
        kept.append(ch)
    return FSI + "".join(kept) + PDI * (depth + 1)


def isolate(text: str) -> str:
    """``text`` as it may be shown among other words: each line (each paragraph, as the
    bidirectional algorithm counts them) that has right-to-left
    letters or a bidirectional control is isolated (U+2068 ... U+2069, its own isolates
    balanced), so it cannot reorder the text around it; other text is returned as it is.
    The embeddings and overrides it opens (U+202A-U+202E) end at the isolate's end."""
    if not _BIDI.search(text):
        return text
    return "".join(_isolated_line(part) for part in _PARAGRAPHS.split(text))


def isolate_texts(value: Any, ids: frozenset[str] = frozenset()) -> Any:
    """``value`` (JSON-like data for a page's script) with every string :func:`isolate`-d,
    except dictionary keys and the strings (alone or in lists) under a key in ``ids``
    (names the page sends back: action ids, card ids, zone names)."""
    if isinstance(value, str):
        return isolate(value)
    if isinstance(value, dict):
        return {k: _under(k in ids, v, ids) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [isolate_texts(v, ids) for v in value]
    return value


def _under(kept: bool, value: Any, ids: frozenset[str]) -> Any:
    if not kept:
        return isolate_texts(value, ids)
    if isinstance(value, dict):
        return isolate_texts(value, ids)
    return value


def quoted(text: object, limit: int = 60) -> str:
    """What someone sent, as a message may repeat it: control and format characters
    (bidirectional ones too) shown as U+FFFD, at most ``limit`` characters (then "…")."""
    shown = "".join("\ufffd" if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch
                    for ch in str(text)[:limit + 1])
    return shown if len(shown) <= limit else shown[:limit] + "…"


def escape(value: object) -> Html:
    """``value`` as HTML element text: ``Html`` unchanged, anything else ``str()``-ed,
    :func:`isolate`-d and with ``& < > " '`` escaped."""
    if isinstance(value, Html):
        return value
    return Html(_html.escape(isolate(str(value)), quote=True))


def _attribute(value: object) -> Html:
    """``value`` for a quoted attribute: ``Html`` unchanged, anything else escaped only."""
    if isinstance(value, Html):
        return value
    return Html(_html.escape(str(value), quote=True))


def verbatim(value: object) -> Html:
    """Text that is data, not words to read (an editor's text), escaped but not
    isolated: it goes back to the server as it came."""
    return _attribute(value)


def html(template: str, **values: object) -> Html:
    """Fill ``template`` (a constant of the web package, ``$name`` placeholders as in
    :class:`string.Template`) with ``values``: a placeholder inside a tag (an attribute's
    value) escaped, one in element text by :func:`escape` (escaped and isolated).

    Raises:
        KeyError: a placeholder has no value.
    """
    out: list[str] = []
    at = 0
    for m in string.Template.pattern.finditer(template):
        out.append(template[at:m.start()])
        at = m.end()
        if m.group("escaped") is not None:
            out.append("$")
            continue
        name = m.group("named") or m.group("braced")
        if name is None:
            raise ValueError(f"a bad placeholder in a template at {m.start()}")
        in_tag = template.rfind("<", 0, m.start()) > template.rfind(">", 0, m.start())
        out.append((_attribute if in_tag else escape)(values[name]))
    out.append(template[at:])
    return Html("".join(out))


def join(pieces: Iterable[object], sep: str = "") -> Html:
    """Pieces escaped and joined (``sep`` is markup written by the web package)."""
    return Html(sep.join(escape(p) for p in pieces))


def json_script(element_id: str, data: Any) -> Html:
    """``data`` as JSON in a ``<script type="application/json">`` element the page's
    script reads with ``JSON.parse``. ``<``, ``>`` and ``&`` are written as ``\\u`` escapes,
    so no value can close the element."""
    text = json.dumps(data, ensure_ascii=False)
    for ch, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(ch, code)
    return Html(html('<script type="application/json" id="$id">', id=element_id) + text
                + "</script>")


_PAGE = """<!doctype html>
<html lang="$lang">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title · rulesplay</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
</head>
<body>
<header class="top"><a href="/" class="home">rulesplay</a> <span class="title">$title</span>
<nav><a href="/">$nav_tables</a> <a href="/playground">$nav_playground</a>
<a href="/simulate">$nav_simulate</a></nav>
</header>
<main>$body</main>
$scripts
</body>
</html>
"""


def page(title: str, body: Html, *, scripts: Iterable[str] = (), lang: str = "en") -> Html:
    """A whole page: the shared header and style, ``body`` (already HTML) and the page's
    scripts (paths under ``/static/``, loaded as ES modules); the header's words in
    ``lang``."""
    tags = join(html('<script type="module" src="/static/$src"></script>', src=s)
                for s in scripts)
    nav = {k: page_word(lang, k) for k in ("nav_tables", "nav_playground", "nav_simulate")}
    return html(_PAGE, title=title, body=body, scripts=tags, lang=lang, **nav)
