"""The simulation page (``/simulate``): run ``simulate`` or ``compare`` from the browser
and see win rates, score distributions and the plain-words verdict.

A ruleset is a shipped game, a file the server was given, or pasted text (the
playground's, checked as :func:`.pasted.load_pasted` checks it and written to a private
scratch folder for the run). ``POST /simulate/start`` takes JSON ``{"ruleset", "variant",
"players", "games", "bot", "seed", "text"}`` and answers ``{"id"}``; ``GET
/simulate/jobs/ID`` tells the progress and, at the end, the result; ``POST
/simulate/jobs/ID/stop`` stops it. The runs themselves: :mod:`.sim_jobs`.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..engine.game import load
from ..errors import OptionError, RulesError
from ..limits import MAX_SEED
from ..words import page_words
from .guard import BadJson, json_body
from .html import html, isolate_texts, join, json_script, page, quoted
from .pasted import PASTED, diagnostic_data, load_pasted
from .sim_jobs import Busy, SimJobs, SimRequest

if TYPE_CHECKING:  # (app.py imports this module)
    from .app import Server

__all__ = ["BOTS", "PASTED_CHOICE", "routes"]

PASTED_CHOICE = "(pasted)"  # the choice that names the pasted ruleset
BOTS = ("random", "greedy", "mcts:iterations=50")

_WORDS = ("nav_simulate", "ruleset", "compare_with", "simulate_only", "players", "usual",
          "games", "bot_word", "seed", "pasted", "run", "stop")  # the page's own words
_BODY = """<link rel="stylesheet" href="/static/simulate.css">
<section class="simulate">
<h1>$w_nav_simulate</h1>
<form id="sim-form" class="sim-form">
<label>$w_ruleset <select id="sim-ruleset">$choices</select></label>
<label>$w_compare_with <select id="sim-variant">
<option value="">$w_simulate_only</option>$choices</select></label>
<label>$w_players <input id="sim-players" type="number" min="1" max="99"
 placeholder="$w_usual"></label>
<label>$w_games <input id="sim-games" type="number" min="1" max="$max" value="$first"></label>
<label>$w_bot_word <select id="sim-bot">$bots</select></label>
<label>$w_seed <input id="sim-seed" type="number" min="0" value="0"></label>
<details id="sim-pasted-box"><summary>$w_pasted</summary>
<textarea id="sim-text" spellcheck="false" wrap="off" aria-label="pasted ruleset text">
</textarea></details>
<div class="sim-actions"><button type="submit" class="primary" id="sim-run">$w_run</button>
<button type="button" id="sim-stop" disabled>$w_stop</button></div>
</form>
<div class="progress" id="sim-progress" hidden><div class="bar"><span></span></div>
<span class="count" role="status" aria-live="polite"></span></div>
<p id="sim-error" class="error" hidden></p>
<ol id="sim-diags" class="diags"></ol>
<div id="sim-result"></div>
</section>
$data"""


def _choices(server: Server) -> Any:
    """The rulesets served: the server's files first, the shipped games, the pasted."""
    given = [n for n in server.rulesets if Path(n) in server.config.files]
    names = given + [n for n in server.rulesets if n not in given]
    return join([*(html('<option value="$n">$n</option>', n=n) for n in names),
                 html('<option value="$v">the pasted ruleset (from the playground)</option>',
                      v=PASTED_CHOICE)])


class Refused(Exception):
    """A request the page must change (the message says how); ``diagnostics`` when the
    pasted ruleset has errors."""

    def __init__(self, message: str, diagnostics: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.message, self.diagnostics = message, diagnostics or []


def _whole(data: dict[str, Any], key: str, lo: int, hi: int, what: str) -> int | None:
    """``data[key]`` as a whole number in ``lo..hi``, None when it is empty or missing.

    Raises:
        Refused: another value (the message says the range).
    """
    value = data.get(key)
    if value in (None, ""):
        return None
    if isinstance(value, str) and re.fullmatch(r"[0-9]{1,30}", value.strip()):
        value = int(value)  # (ASCII digits only: int() takes other scripts' digits too)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise Refused(f"{what}: a whole number from {lo} to {hi:,}, written with the "
                      "digits 0-9")
    return value


class _Rulesets:
    """Turns the page's choices into rulesets ``simulate`` loads, writing pasted text to a
    scratch folder (deleted when the run ends)."""

    def __init__(self, server: Server, text: str) -> None:
        self.server, self.text = server, text
        self.scratch: list[Path] = []

    def path(self, choice: str) -> tuple[str, str]:
        """``(ruleset for simulate, label)`` of a choice.

        Raises:
            Refused: an unknown choice, or pasted text with errors (its diagnostics).
        """
        if choice in self.server.rulesets:
            return str(self.server.rulesets[choice]), choice
        if choice != PASTED_CHOICE:
            raise Refused(f"no ruleset '{quoted(choice)}' on this server")
        pasted = load_pasted(self.text, self.server.config.max_body)
        if not pasted.ok:
            raise Refused("the pasted ruleset has errors: fix them in the playground",
                          [diagnostic_data(d) for d in pasted.diagnostics])
        folder = Path(tempfile.mkdtemp(prefix="rulesplay-sim-"))  # private: mode 0700
        self.scratch.append(folder)
        (folder / PASTED).write_text(self.text, encoding="utf-8")
        return str(folder / PASTED), "the pasted ruleset"


def sim_request(server: Server, data: dict[str, Any]) -> SimRequest:
    """The simulation a page's JSON asks for, checked: the rulesets load, the player count
    and the bot are allowed, and games are within ``config.max_sim_games``.

    Raises:
        Refused: what is wrong, said for the page.
    """
    cap = server.config.max_sim_games
    games = _whole(data, "games", 1, cap, f"games (this server plays at most {cap:,} "
                                          "per simulation)") or min(200, cap)
    seed = _whole(data, "seed", 0, MAX_SEED, "seed")
    players = _whole(data, "players", 1, 99, "players")
    bot = data.get("bot") or BOTS[0]
    if bot not in BOTS:
        raise Refused(f"bot: one of {', '.join(BOTS)}")
    text = data.get("text") or ""
    if not isinstance(text, str) or not isinstance(data.get("ruleset"), str):
        raise Refused("choose a ruleset")
    rulesets = _Rulesets(server, text)
    try:
        base, label = rulesets.path(data["ruleset"])
        variant = label_v = None
        if data.get("variant"):
            variant, label_v = rulesets.path(str(data["variant"]))
        try:
            game = load(base)
            players = players if players is not None else game.usual_players
            game.program(players)
            if variant is not None:
                load(variant).program(players)
        except RulesError as exc:
            raise Refused(exc.message if isinstance(exc, OptionError) else exc.render()) \
                from None
    except Refused:
        SimJobs.discard(rulesets.scratch)
        raise
    return SimRequest(base, label, games, players, bot, 0 if seed is None else seed,
                      variant, label_v, tuple(rulesets.scratch))


def routes(server: Server, jobs: SimJobs | None = None) -> list[BaseRoute]:
    """The simulation page's routes (``jobs``: where its runs are kept; a new
    :class:`SimJobs` running two at a time by default)."""
    runs = jobs or SimJobs()
    cap = server.config.max_sim_games

    async def show(request: Request) -> Response:
        words = page_words(server.config.lang)
        body = html(_BODY, choices=_choices(server), max=cap, first=min(200, cap),
                    bots=join(html('<option>$b</option>', b=b) for b in BOTS),
                    data=json_script("sim-data", {
                        "max_games": cap, "pasted": PASTED_CHOICE, "words": words,
                        "from_playground": request.query_params.get("pasted") == "1"}),
                    **{f"w_{k}": words[k] for k in _WORDS})
        return HTMLResponse(page(words["nav_simulate"], body, scripts=["simulate.js"],
                                 lang=server.config.lang))

    async def start(request: Request) -> Response:
        try:
            data = await json_body(request, server.config.max_body)
        except BadJson as exc:
            return JSONResponse({"error": str(exc)}, 400)
        if not isinstance(data, dict):
            return JSONResponse({"error": "the request is a JSON object"}, 400)
        try:
            job = runs.start(await run_in_threadpool(sim_request, server, data))
        except Refused as exc:
            return JSONResponse({"error": exc.message, "diagnostics": exc.diagnostics}, 400)
        except Busy as exc:
            return JSONResponse({"error": str(exc)}, 429)
        return JSONResponse({"id": job.id})

    async def status(request: Request) -> Response:
        job = runs.get(request.path_params["job"])
        if job is None:
            return JSONResponse({"error": "no such simulation (finished long ago, or the "
                                          "server restarted)"}, 404)
        return JSONResponse(isolate_texts(job.view()))

    async def stop(request: Request) -> Response:
        job = runs.get(request.path_params["job"])
        if job is None:
            return JSONResponse({"error": "no such simulation"}, 404)
        job.stop.set()
        return JSONResponse(isolate_texts(job.view()))

    return [Route("/simulate", show),
            Route("/simulate/start", start, methods=["POST"]),
            Route("/simulate/jobs/{job}", status),
            Route("/simulate/jobs/{job}/stop", stop, methods=["POST"])]
