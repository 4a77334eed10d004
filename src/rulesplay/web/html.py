"""The one place where text becomes HTML.

Every page is built from :class:`Html` pieces. Text from a ruleset, a user, a log or an
error message enters a page only through :func:`html` (which escapes whatever is not already
:class:`Html`) or :func:`json_script` (data for the page's script). Nothing else in the web
package writes markup around a value, so escaping cannot be forgotten in one place.
"""

from __future__ import annotations

import html as _html
import json
import string
from collections.abc import Iterable
from typing import Any

__all__ = ["Html", "escape", "html", "join", "json_script", "page"]


class Html(str):
    """A string that is already HTML (built by :func:`html` from a trusted template)."""

    __slots__ = ()


def escape(value: object) -> Html:
    """``value`` as HTML text: ``Html`` unchanged, anything else ``str()``-ed with ``& < > " '``
    escaped (so it is safe in element text and in quoted attribute values)."""
    if isinstance(value, Html):
        return value
    return Html(_html.escape(str(value), quote=True))


def html(template: str, **values: object) -> Html:
    """Fill ``template`` (a constant of the web package, ``$name`` placeholders as in
    :class:`string.Template`) with ``values``, each escaped by :func:`escape`.

    Raises:
        KeyError: a placeholder has no value.
    """
    return Html(string.Template(template).substitute(
        {k: escape(v) for k, v in values.items()}))


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
</head>
<body>
<header class="top"><a href="/" class="home">rulesplay</a> <span class="title">$title</span>
<nav><a href="/">Tables</a> <a href="/playground">Playground</a>
<a href="/simulate">Simulate</a></nav>
</header>
<main>$body</main>
$scripts
</body>
</html>
"""


def page(title: str, body: Html, *, scripts: Iterable[str] = (), lang: str = "en") -> Html:
    """A whole page: the shared header and style, ``body`` (already HTML) and the page's
    scripts (paths under ``/static/``, loaded as ES modules)."""
    tags = join(html('<script type="module" src="/static/$src"></script>', src=s)
                for s in scripts)
    return html(_PAGE, title=title, body=body, scripts=tags, lang=lang)
