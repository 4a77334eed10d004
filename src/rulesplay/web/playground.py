"""The playground page (``/playground``): write or paste a ruleset, check it as
``rulesplay validate`` does, see its phase graph (``rulesplay graph``) and option table
(``rulesplay options``), and start a table against bots.

``GET /playground?from=NAME`` starts from a shipped game's text (:func:`.pasted.shipped_text`),
``&as=variant`` from a variant of it (``extends "NAME"``, as ``rulesplay new --from NAME``
writes). ``POST /playground/check`` and ``POST /playground/play`` take JSON
``{"text": ...}`` (``play`` also ``players`` and ``seats``) and answer JSON; the page's
script (``static/playground.js``) shows it with ``textContent`` only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .. import graph as graphs
from ..authoring_cli import variant_skeleton
from ..engine.game import Game, languages, load
from ..errors import RulesError
from ..option_table import option_rows
from ..shipped import find_shipped, shipped_names
from ..words import page_words
from .guard import BadJson, json_body
from .html import Html, html, isolate_texts, join, json_script, page, quoted, verbatim
from .pasted import Pasted, diagnostic_data, load_pasted, shipped_text

if TYPE_CHECKING:  # (app.py imports this module)
    from .app import Server

__all__ = ["BOTS", "checked", "routes", "start_text"]

# The seats a table started from the playground may have: a person, or one of these bots.
BOTS = ("random", "greedy", "mcts:iterations=200")
NO_DOT = ("Graphviz's 'dot' is not installed on the server, so the phase graph is shown "
          "as Mermaid text (paste it into a Mermaid viewer, or install Graphviz)")

_WORDS = ("nav_playground", "check", "hint_start", "hint_extends", "phase_graph", "options",
          "col_option", "col_type", "col_default", "col_doc", "play_bots", "players",
          "start_table", "simulate_it")  # the page's own words in its template
_BODY = """<link rel="stylesheet" href="/static/playground.css">
<section class="playground">
<div class="pg-edit">
<div class="pg-bar"><h1>$w_nav_playground</h1>
<button type="button" id="pg-check" class="primary">$w_check</button>
<span id="pg-status" role="status" aria-live="polite"></span></div>
<p class="pg-hint">$w_hint_start $starts. $w_hint_extends</p>
<div class="pg-editor"><pre id="pg-lines" aria-hidden="true"></pre>
<textarea id="pg-text" spellcheck="false" autocomplete="off" autocapitalize="off"
 aria-label="ruleset text" wrap="off">
$text</textarea></div>
<ol id="pg-diags" class="diags"></ol>
</div>
<div class="pg-out" id="pg-out" hidden>
<h2 id="pg-title"></h2>
<section><h3>$w_phase_graph</h3><p id="pg-graph-note" class="note"></p>
<div id="pg-graph"></div></section>
<section><h3>$w_options</h3><div class="scroll-x"><table id="pg-options" class="data">
<thead><tr><th>$w_col_option</th><th>$w_col_type</th><th>$w_col_default</th>
<th>$w_col_doc</th></tr></thead>
<tbody></tbody></table></div><p id="pg-no-options" class="note" hidden></p></section>
<section><h3>$w_play_bots</h3>
<form id="pg-play"><label>$w_players <select id="pg-players"></select></label>
<div id="pg-seats" class="seats"></div>
<button type="submit" class="primary">$w_start_table</button>
<a id="pg-simulate" href="/simulate?pasted=1">$w_simulate_it</a></form>
<div id="pg-links"></div></section>
</div>
</section>
$data"""


def _starts(server: Server) -> Html:
    """Links that start the editor from the top-level shipped games (their text, or a
    variant); the others are a ``?from=NAME`` away."""
    names = [n for n in shipped_names() if "/" not in n]
    return join((html('<a href="/playground?from=$n">$n</a> (<a href="/playground?from=$n'
                      '&amp;as=variant">a variant</a>)', n=n) for n in names), ", ")


def start_text(name: str | None, as_variant: bool) -> tuple[str, str | None]:
    """The editor's first text and a problem to show (None when there is none): empty,
    a shipped game's text, or a variant of it.

    Args:
        name: a shipped game's name (``?from=``), or None.
        as_variant: start a variant of it (``extends "NAME"``) rather than its text.
    """
    if not name:
        return "", None
    try:
        path = find_shipped(name)
        if as_variant:
            return variant_skeleton(load(str(path)), name, "House Rules"), None
        return shipped_text(name), None
    except LookupError as exc:
        return "", str(exc.args[0])
    except RulesError as exc:
        return "", exc.render()


def _graph(game: Game, lang: str | None) -> dict[str, Any]:
    """The phase graph as ``rulesplay graph --lang LANG`` makes it (phase labels in
    ``lang`` where the ruleset has them): SVG drawn by Graphviz when ``dot`` is installed,
    else Mermaid text (``note`` says why)."""
    dot = graphs.to_dot(game.ruleset, lang)
    try:
        svg = graphs.svg_text(dot)
    except RuntimeError as exc:
        return {"format": "mermaid", "text": graphs.to_mermaid(game.ruleset, lang),
                "note": f"Graphviz could not draw it ({exc}); here is the Mermaid text"}
    if svg is None:
        return {"format": "mermaid", "text": graphs.to_mermaid(game.ruleset, lang),
                "note": NO_DOT}
    return {"format": "svg", "svg": svg, "note": "drawn by Graphviz"}


def checked(result: Pasted, lang: str | None = None) -> dict[str, Any]:
    """What ``/playground/check`` answers: ``ok``, ``diagnostics`` (:func:`diagnostic_data`
    each) and, when the text loads, ``title``, ``players`` (the counts allowed),
    ``usual``, ``graph`` (phase labels in ``lang``, the server's language, where the
    ruleset has it), ``options`` (the rows of ``rulesplay options``) and ``bots``."""
    out: dict[str, Any] = {"ok": result.ok,
                           "diagnostics": [diagnostic_data(d) for d in result.diagnostics]}
    game = result.game
    if game is None:
        return out
    lo, hi = game.player_range
    out.update(title=game.title, players=list(range(lo, hi + 1)), usual=game.usual_players,
               graph=_graph(game, lang if lang in languages(game.ruleset) else None),
               bots=list(BOTS),
               options=[{"name": r.name, "type": r.type, "default": r.default,
                         "doc": r.doc} for r in option_rows(game)])
    # (shown text isolated, as every page's: right-to-left names reorder nothing around them)
    return {k: v if k == "graph" else isolate_texts(v) for k, v in out.items()}


async def _json_body(request: Request, limit: int) -> dict[str, Any] | str:
    """The request's JSON object (read by :func:`.guard.json_body`), or what is wrong with
    it (said for the page)."""
    try:
        data = await json_body(request, limit)
    except BadJson as exc:
        return str(exc)
    if not isinstance(data, dict) or not isinstance(data.get("text", ""), str):
        return "the request is a JSON object whose 'text' is the ruleset's text"
    return data


def _error(message: str, status: int = 400, **more: Any) -> JSONResponse:
    return JSONResponse({"error": message, **more}, status)


def _busy() -> JSONResponse:
    return _error("the server is checking as many rulesets as it may at once; try again "
                  "in a moment", 503)


def routes(server: Server) -> list[BaseRoute]:
    """The playground's routes: the page, ``check`` and ``play``."""
    limit = server.config.max_body
    checking = 0  # pasted rulesets being checked now (at most config.max_checks)

    async def check_pasted(text: str) -> Pasted | None:
        """``text`` loaded and checked in a thread (a large or looping ruleset takes a
        while, and the server goes on meanwhile); None when ``max_checks`` checks run."""
        nonlocal checking
        if checking >= server.config.max_checks:
            return None
        checking += 1
        try:
            return await run_in_threadpool(load_pasted, text, limit)
        finally:
            checking -= 1

    async def show(request: Request) -> Response:
        text, problem = await run_in_threadpool(start_text, request.query_params.get("from"),
                                                request.query_params.get("as") == "variant")
        lang = server.config.lang
        words = page_words(lang)
        body = html(_BODY, starts=_starts(server), text=verbatim(text),
                    data=json_script("pg-data", {"problem": isolate_texts(problem),
                                                 "limit": limit, "words": words}),
                    **{f"w_{k}": words[k] for k in _WORDS})
        return HTMLResponse(page(words["nav_playground"], body, scripts=["playground.js"],
                                 lang=server.config.lang))

    async def check(request: Request) -> Response:
        data = await _json_body(request, limit)
        if isinstance(data, str):
            return _error(data)
        result = await check_pasted(data.get("text", ""))
        if result is None:
            return _busy()
        return JSONResponse(checked(result, server.config.lang))

    async def play(request: Request) -> Response:
        data = await _json_body(request, limit)
        if isinstance(data, str):
            return _error(data)
        result = await check_pasted(data.get("text", ""))
        if result is None:
            return _busy()
        if result.game is None:
            return _error("the ruleset has errors: check it first", 400,
                          diagnostics=[diagnostic_data(d) for d in result.diagnostics])
        players, seats = data.get("players"), data.get("seats")
        if not isinstance(players, int) or isinstance(players, bool) or \
                not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            return _error("'players' is a whole number and 'seats' a list of 'human' or a "
                          "bot for each seat")
        wrong = [s for s in seats if s != "human" and s not in BOTS]
        if wrong:
            return _error(f"a seat is 'human' or one of the bots {', '.join(BOTS)}, not "
                          f"'{quoted(wrong[0])}'")
        tables = getattr(server, "tables", None)
        if tables is None:
            return _error("this server cannot start tables yet", 503)
        try:
            table = tables.create(result.game, players=players, seats=seats)
        except (RulesError, ValueError) as exc:  # a player count, a seat, too many tables
            return _error(exc.message if isinstance(exc, RulesError) else str(exc))
        return JSONResponse({"table_id": table.table_id,
                             "seat_links": {str(k): v for k, v in table.seat_links.items()},
                             "spectator_link": table.spectator_link})

    return [Route("/playground", show),
            Route("/playground/check", check, methods=["POST"]),
            Route("/playground/play", play, methods=["POST"])]
