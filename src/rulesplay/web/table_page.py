"""The table pages: ``/new?ruleset=NAME`` (choose players, options and who sits where),
``POST /api/tables`` (create a table: one secret link per human seat and a spectator link),
``/table/ID`` (the table itself; its script talks to :mod:`.table_socket`) and
``/table/ID/log`` (a finished game's log, for ``rulesplay replay``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ..agents import PARAMS
from ..engine.game import Game, languages, load
from ..errors import OptionError, RulesError
from ..show import option_type_text
from ..words import page_word, page_words, word
from . import table_socket
from .guard import BadJson, json_body
from .html import Html, html, join, json_script, page
from .tables import named_game, public_name

if TYPE_CHECKING:
    from .app import Server

__all__ = ["routes"]

PRIVATE = {"Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}
BOTS = [name for name in PARAMS]  # random, greedy, mcts
MCTS_DEFAULT = 200  # iterations suggested for an mcts seat


_LOADED: dict[tuple[str, str, float], Game] = {}


def _game(server: Server, name: str, options: dict[str, Any] | None = None) -> Game:
    """The ruleset ``name`` (one the server serves), in the server's language when the
    ruleset has it (else English), with ``options``. A file is read again when it changed.

    Raises:
        KeyError: the server serves no ruleset of that name.
        RulesError: it does not load. OptionError: an option value is not allowed.
    """
    path = server.rulesets[name]
    key = (str(path), server.config.lang, path.stat().st_mtime if path.exists() else 0.0)
    base = _LOADED.get(key)
    if base is None:
        lang = None if server.config.lang == "en" else server.config.lang
        base = load(path)
        if lang in languages(base.ruleset):
            base = Game(base.ruleset, base.checked, None, lang, base.path, base.bundle)
        base = named_game(base, public_name(name))  # (as its tables' logs name it)
        _LOADED[key] = base
    if not options:
        return base
    return Game(base.ruleset, base.checked, options, base.lang, base.path, base.bundle)


_FORM = """<link rel="stylesheet" href="/static/table.css">
<section class="new-table"><h1>$title</h1>
<p class="about">$about</p>
<form id="new-table" data-ruleset="$name">
<label>$w_players <select name="players">$players</select></label>
<fieldset><legend>$w_seats</legend>$seats</fieldset>
<fieldset><legend>$w_options</legend>$options</fieldset>
<button type="submit">$w_create</button>
</form>
<p id="new-error" class="error" role="alert"></p>
<section id="links" hidden><h2>$w_links</h2>
<p>$w_links_help</p><ul id="link-list"></ul></section>
</section>"""

_SEAT = """<div class="seat-row" data-seat="$seat"><span>$name</span>
<select name="seat$seat">$kinds</select>
<label class="budget">$iterations <input type="number" name="budget$seat" min="1"
max="$most" value="$budget"></label></div>"""


def _option_field(lang: str, o: Any, defaults: dict[int, Any]) -> Html:
    """One option's input: a yes/no or choice list, or a number in its range; empty means
    the default (which may depend on the player count)."""
    shown = {n: ("yes" if v is True else "no" if v is False else str(v))
             for n, v in defaults.items()}
    default = next(iter(shown.values())) if len(set(shown.values())) == 1 else \
        ", ".join(page_word(lang, "per_players", n=n, value=v) for n, v in shown.items())
    default = page_word(lang, "default", value=default)
    if o.type == "bool" or o.type == "choice":
        values = ["yes", "no"] if o.type == "bool" else list(o.choices)
        field = html('<select name="opt-$n"><option value="">$d</option>$o</select>',
                     n=o.name, d=default,
                     o=join(html('<option value="$v">$v</option>', v=v) for v in values))
    else:
        field = html('<input type="number" name="opt-$n" placeholder="$d" '
                     'min="$lo" max="$hi">', n=o.name, d=default,
                     lo="" if o.lo is None else o.lo, hi="" if o.hi is None else o.hi)
    return html('<div class="option"><label><b>$name</b> <small>$type</small> $field</label>'
                '<p class="doc">$doc</p></div>', name=o.name, type=option_type_text(o),
                field=field, doc=o.doc)


def _form(server: Server, name: str, game: Game) -> Html:
    lo, hi = game.player_range
    usual = game.usual_players
    players = join(html('<option value="$n"$sel>$n</option>', n=n,
                        sel=Html(" selected") if n == usual else "") for n in range(lo, hi + 1))
    per_n = {n: game.program(n).layout.options for n in range(lo, hi + 1)}
    lang = server.config.lang
    options = join(_option_field(lang, o, {n: per_n[n][o.name] for n in per_n})
                   for o in game.ruleset.options) or \
        html("<p>$w</p>", w=page_word(lang, "no_options"))
    kinds = ["human", *BOTS]
    seat_word = word(game.lang, "seat")
    seats = join(html(_SEAT, seat=s, name=seat_word.format(n=s), budget=MCTS_DEFAULT,
                      iterations=page_word(lang, "iterations"),
                      most=int(server.config.bot_caps.get("mcts", {}).get("iterations", 1)),
                      kinds=join(html('<option value="$k"$sel>$label</option>', k=k,
                                      label=page_word(lang, "human") if k == "human" else k,
                                      sel=Html(" selected") if k == ("human" if s == 0
                                                                     else "random") else "")
                                 for k in kinds))
                 for s in range(hi))
    words = {f"w_{k}": page_word(lang, k)
             for k in ("players", "seats", "options", "create", "links", "links_help")}
    return Html(html(_FORM, title=game.title, about=game.ruleset.about or "", name=name,
                     players=players, seats=seats, options=options, **words)
                + json_script("page-words", page_words(lang)))


PLAIN = 100  # characters of an option's name or value, or a seat's bot spec


def _plain(text: str) -> bool:
    """Whether ``text`` is short printable text (so a message may repeat it)."""
    return len(text) <= PLAIN and text.isprintable()


def _bad(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status)


def _create(server: Server, data: Any) -> JSONResponse:
    """Create a table from the new-table form's JSON (see :func:`routes`)."""
    if not isinstance(data, dict):
        return _bad("send a JSON object: {ruleset, players, options, seats}")
    name, players = data.get("ruleset"), data.get("players")
    options, seats = data.get("options") or {}, data.get("seats")
    if not isinstance(name, str) or name not in server.rulesets:
        return _bad("unknown ruleset: choose one this server serves (see /)")
    if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, str | int | bool) and not isinstance(v, float)
            for k, v in options.items()):
        return _bad("options are {name: value}, each value a string, number or true/false")
    if not all(_plain(k) and (not isinstance(v, str) or _plain(v)) for k, v in options.items()):
        return _bad(f"an option's name and value are plain text of at most {PLAIN} "
                    "characters (no control characters)")
    if not isinstance(players, int) or isinstance(players, bool):
        return _bad("players is a whole number")
    try:
        game = _game(server, name, {k: v for k, v in options.items() if v != ""})
        made = server.tables.create(game, players=players, seats=seats,  # type: ignore[arg-type]
                                     title=name)
    except (OptionError, ValueError) as exc:
        return _bad(exc.message if isinstance(exc, OptionError) else str(exc))
    except RulesError as exc:
        return _bad(f"the ruleset failed while setting the game up: {exc.message}")
    return JSONResponse({"table_id": made.table_id,
                         "seat_links": {str(s): u for s, u in made.seat_links.items()},
                         "spectator_link": made.spectator_link}, 201, headers=PRIVATE)


_TABLE = """<link rel="stylesheet" href="/static/table.css">
<div class="table-page">
<section class="board" aria-label="$w_table">
<div class="topline"><p class="whoami"><span id="you">…</span></p>
<p id="status" class="status" role="status">$w_connecting</p></div>
<p id="notice" class="notice" role="alert" hidden></p>
<div id="result" class="result" hidden></div>
<div id="facts" class="facts"></div>
<div id="seats" class="seats"></div>
<div id="shared" class="shared"></div>
<section id="yours" class="yours" hidden><h2 class="yours-head">$w_your_zones</h2>
<div id="yours-zones"></div></section>
<section id="me" class="me">
<div id="moves" class="moves"><p id="prompt" class="prompt"></p><div id="choices"></div></div>
<div id="mine"></div>
</section>
</section>
<aside class="account-box"><h2>$w_account</h2><ol id="account" class="account"></ol></aside>
</div>"""


def routes(server: Server) -> list[BaseRoute]:
    """The new-table page, the table API, the table page and its log (and its socket)."""

    async def new_page(request: Request) -> Response:
        name = request.query_params.get("ruleset", "")
        lang = server.config.lang
        if name not in server.rulesets:
            body = html('<p class="error">$w <a href="/">/</a></p>',
                        w=page_word(lang, "no_ruleset", name=name[:200]))
            return HTMLResponse(page(page_word(lang, "new_table"), body, lang=lang), 404)
        try:
            game = _game(server, name)
        except RulesError as exc:
            body = html('<pre class="error">$e</pre>', e=exc.render())
            return HTMLResponse(page(page_word(lang, "new_table"), body, lang=lang), 422)
        return HTMLResponse(page(f"{page_word(lang, 'new_table')}: {game.title}",
                                 _form(server, name, game),
                                 scripts=["new_table.js"], lang=server.config.lang))

    async def create(request: Request) -> Response:
        try:
            data = await json_body(request, server.config.max_body)
        except BadJson as exc:
            return _bad(str(exc))
        return _create(server, data)

    async def table_page(request: Request) -> Response:
        table_id = str(request.path_params["table_id"])
        table = server.tables.get(table_id)
        lang = server.config.lang
        if table is None:
            body = html('<p class="error">$w</p>', w=page_word(lang, "no_table"))
            return HTMLResponse(page(page_word(lang, "table"), body, lang=lang), 404,
                                headers=PRIVATE)
        data = json_script("table-data", {"socket": f"/table/{table_id}/ws"})
        words = json_script("page-words", page_words(lang))
        filled = html(_TABLE, **{f"w_{k}": page_word(lang, k) for k in
                                 ("table", "connecting", "your_zones", "account")})
        return HTMLResponse(page(table.state.program.game.title,
                                 Html(filled + data + words),
                                 scripts=["table.js"], lang=server.config.lang),
                            headers=PRIVATE)

    async def log(request: Request) -> Response:
        table = server.tables.get(str(request.path_params["table_id"]))
        if table is None:
            return PlainTextResponse("there is no such table on this server", 404)
        if not table.state.is_terminal():
            return PlainTextResponse("the log is available once the game is over (it holds "
                                     "every hand)", 409)
        return PlainTextResponse(table.log_text(), media_type="application/x-ndjson",
                                 headers={**PRIVATE, "Content-Disposition":
                                          f'attachment; filename="{table.table_id}.log.jsonl"'})

    return [Route("/new", new_page), Route("/api/tables", create, methods=["POST"]),
            Route("/table/{table_id}", table_page), Route("/table/{table_id}/log", log),
            *table_socket.routes(server)]
