"""``Game``: a loaded, checked ruleset with its options, and the loaders that make one
(``load`` a file, ``loads`` text, ``load_bundle`` a save's or a log's files).

The top of the engine: a game compiles itself for a player count through
:func:`rulesplay.engine.build.build_program` (once, then cached) and makes states.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .. import ir
from ..compose import Bundle, bundle_of, load_ruleset, ruleset_file
from ..compose import load_bundle as load_files
from ..errors import OptionError, RulesError, Span, did_you_mean, value_text
from ..limits import MAX_STATE_SEED, SEED_RANGE, limit_problem
from ..parse import parse_text
from ..validate import Checked, check
from .build import build_program
from .lower import ENGINES
from .options import check_option_value, coerce_option
from .program import Program
from .state import State

__all__ = ["Game", "game_of_save", "languages", "load", "load_bundle", "loads"]


def languages(ruleset: ir.Ruleset) -> set[str]:
    """The language codes the ruleset's labels are translated into (``@ja`` ...)."""
    return {lang for node in ir.walk(ruleset) if isinstance(node, ir.Labels)
            for lang in node.other}


class Game:
    """A loaded, checked ruleset with chosen options: makes new games (states).

    Args:
        ruleset: the parsed IR (variants already merged).
        checked: the validator's result for it.
        options: option name -> value (strings are converted to the option's type).
        lang: display language code ("ja") or None for English.
        path: the ruleset as the person named it (shown in accounts and logs).
        bundle: the text of every file it was composed from (kept in saves and logs, so
            they rebuild this very game without reading any file).
        engine: ``compiled`` (the default: phases lowered to generated code) or
            ``interpret`` (the frame interpreter, the reference); both play the same games.
        limits: this run's budgets, name -> value (:mod:`rulesplay.limits`: ``decisions``,
            ``entries``, ``steps``), over the ruleset's ``limit`` lines and the defaults.

    Raises:
        OptionError: an unknown option name or a value outside what the option allows,
            an unknown engine, or an unknown limit or a value it cannot take.
    """

    def __init__(self, ruleset: ir.Ruleset, checked: Checked,
                 options: Mapping[str, Any] | None = None, lang: str | None = None,
                 path: str | None = None, bundle: Bundle | None = None,
                 engine: str = ENGINES[0], limits: Mapping[str, int] | None = None) -> None:
        if engine not in ENGINES:
            raise OptionError(f"unknown engine '{engine}'; engines: {', '.join(ENGINES)}")
        self.engine = engine
        if lang in ("", "en"):
            lang = None
        if lang is not None and lang not in languages(ruleset):
            have = ", ".join(["en", *sorted(languages(ruleset))])
            raise OptionError(f"{ruleset.title.get(None, 'this ruleset')} has no '{lang}' "
                              f"labels; languages: {have}")
        self.ruleset, self.checked, self.lang, self.path = ruleset, checked, lang, path
        self.bundle = bundle
        decls = {o.name: o for o in ruleset.options}
        if options is not None and not isinstance(options, Mapping):
            raise OptionError(f"options are a mapping of option name to value (a dict), not "
                              f"{type(options).__name__}")
        self.option_values: dict[str, Any] = {}
        for name, raw in (options or {}).items():
            if name not in decls:
                allowed = ", ".join(decls) or "none"
                raise OptionError(f"unknown option '{name}'" + did_you_mean(name, decls)
                                  + f"; this ruleset's options: {allowed}")
            value = coerce_option(decls[name], raw)
            check_option_value(decls[name], value)
            self.option_values[name] = value
        self.limits: dict[str, int] = {}
        for name, value in (limits or {}).items():
            problem = limit_problem(name, value)
            if problem is not None:
                raise OptionError(problem)
            self.limits[name] = value
        self._programs: dict[int, Program] = {}

    @property
    def title(self) -> str:
        return self.ruleset.title.get(self.lang, "untitled")

    @property
    def player_range(self) -> tuple[int, int]:
        return self.ruleset.min_players, self.ruleset.max_players

    @property
    def usual_players(self) -> int:
        """The player count a game gets when none is given: the ruleset's ``usually N``,
        else its fewest."""
        r = self.ruleset
        return r.min_players if r.usual_players is None else r.usual_players

    @property
    def player_counts(self) -> str:
        """The player counts allowed, in words: "2 players", "2 to 4 players"."""
        lo, hi = self.player_range
        return f"{lo} players" if lo == hi else f"{lo} to {hi} players"

    def program(self, num_players: int) -> Program:
        """The game compiled for ``num_players`` (built once, then cached)."""
        lo, hi = self.player_range
        if not isinstance(num_players, int) or isinstance(num_players, bool):
            raise OptionError(f"the number of players is a whole number (an int): "
                              f"{self.title} is for {self.player_counts}, not "
                              f"{value_text(num_players)}")
        if not lo <= num_players <= hi:
            raise OptionError(f"{self.title} is for {self.player_counts}, not {num_players}")
        if num_players not in self._programs:
            try:
                self._programs[num_players] = build_program(self, num_players)
            except RulesError as exc:
                raise exc.attach_source(self.checked.sources) from None
        return self._programs[num_players]

    def new_state(self, num_players: int | None = None, seed: int = 0,
                  record_events: bool | str = False) -> State:
        """A new game, run up to its first decision.

        Args:
            num_players: seats at the table (default: the ruleset's usual count, ``usually N``,
                else its minimum).
            seed: seed of the state's random generator (all chance flows from it).
            record_events: keep every decision and card movement in ``state.events``;
                ``"counts"``: keep only how many tricks, phases... there were (a
                :class:`~rulesplay.events.Tally`, what ``simulate`` needs).

        Raises:
            OptionError: a player count that is not an int or is outside the ruleset's
                range, an option value not allowed for it, or a seed that is not an int or
                is outside 0..2^128 - 1 (a person's seeds are 0..2^63 - 1:
                :data:`rulesplay.limits.MAX_SEED`; the rest are rulesplay's secret seeds).
        """
        n = self.usual_players if num_players is None else num_players
        program = self.program(n)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise OptionError(f"the seed is a whole number (an int), not {seed!r}")
        if not 0 <= seed <= MAX_STATE_SEED:  # (a person's seeds: 0..MAX_SEED, rulesplay.limits)
            raise OptionError(f"the seed is {SEED_RANGE}, not {seed}"[:200])
        if record_events not in (True, False, "counts"):
            raise OptionError(f"record_events is True, False or 'counts', not {record_events!r}")
        return State.new(program, seed, record_events)

    def state_from_json(self, data: Any) -> State:
        """Rebuild a state saved with :meth:`State.to_json` (same ruleset and options)."""
        return State.from_json(data, self)


def load(path: str | Path, options: Mapping[str, Any] | None = None,
         lang: str | None = None, engine: str = ENGINES[0],
         limits: Mapping[str, int] | None = None) -> Game:
    """Load, check and compile a ruleset file.

    Args:
        path: the ``.rules`` file.
        options: option values by name (strings allowed, as from the command line).
        lang: display language ("ja") or None for English.
        engine: ``compiled`` or ``interpret`` (see :class:`Game`).
        limits: this run's budgets (see :class:`Game`).

    Raises:
        TypeError: ``path`` is neither str nor Path.
        RulesError: the file cannot be read, does not parse, or does not validate; the
            error's ``render()`` gives ``path:line:col`` diagnostics with carets.
        OptionError: an unknown option or a value it does not allow; ``options`` that are
            not a mapping.
    """
    if not isinstance(path, str | Path):
        raise TypeError(f"load() takes the ruleset file's path (str or Path), not "
                        f"{type(path).__name__}")
    path = ruleset_file(str(path))  # a path, or a shipped game's name
    ruleset, checked = load_ruleset(path)
    return Game(ruleset, checked, options, lang, str(path),
                bundle_of(str(path), checked.sources), engine, limits)


def load_bundle(bundle: Bundle, options: Mapping[str, Any] | None = None,
                lang: str | None = None, engine: str = ENGINES[0],
                limits: Mapping[str, int] | None = None) -> Game:
    """Like :func:`load` for a ruleset's files held in memory (a save's or a log's
    :class:`~rulesplay.compose.Bundle`): no file is opened.

    Raises:
        RulesError: the files do not parse or validate. OptionError: as :func:`load`.
    """
    ruleset, checked = load_files(bundle)
    return Game(ruleset, checked, options, lang, bundle.name, bundle, engine, limits)


def loads(text: str | bytes, options: Mapping[str, Any] | None = None,
          lang: str | None = None, file: str = "<input>", engine: str = ENGINES[0],
          limits: Mapping[str, int] | None = None) -> Game:
    """Like :func:`load` for ruleset text held in memory.

    Args:
        text: the ruleset, as text or as UTF-8 bytes (what a file holds).
        file: the name diagnostics give it.
        options, lang, engine, limits: as for :func:`load`.

    Raises:
        TypeError: ``text`` is neither str nor bytes.
        RulesError: as :func:`load`; bytes that are not UTF-8; an ``extends`` or
            ``include`` line (text in memory has no folder to find other files in: use
            :func:`load` with the file's path).
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RulesError(f"the text is not UTF-8 (byte {exc.start} is "
                             f"0x{text[exc.start]:02x})", Span(file=file)) from None
    if not isinstance(text, str):
        raise TypeError(f"loads() takes the ruleset's text (str, or UTF-8 bytes), not "
                        f"{type(text).__name__}")
    ruleset = parse_text(text, file)
    others = [("extends", ruleset.extends_span)] if ruleset.extends is not None else []
    others += [("include", span) for _, span in ruleset.includes]
    if others:
        verb, span = others[0]
        raise RulesError(f"'{verb}' reads another file, and text given to loads() has no "
                         "folder to read it from: use rulesplay.load() with the file's path",
                         span).attach_source({file: text})
    try:
        checked = check(ruleset, {file: text})
    except RulesError as exc:
        raise exc.attach_source({file: text}) from None
    return Game(ruleset, checked, options, lang, None,
                Bundle(name=file, top=file, files={file: text}), engine, limits)


def game_of_save(data: dict[str, Any]) -> Game:
    """The game a saved state belongs to, rebuilt from the ruleset text, options and
    language recorded in the save (no file is read). Installed as the loader of
    :meth:`State.from_json` by the ``rulesplay`` package.

    Args:
        data: a save (the dict of :meth:`State.to_json`'s text).

    Raises:
        RulesError: the save holds no ruleset text, or a damaged one, or one that does
            not load with the saved options.
    """
    if not isinstance(data.get("ruleset"), dict):
        raise RulesError("the save does not hold its ruleset's text")
    try:
        bundle = Bundle.model_validate(data["ruleset"])
    except ValidationError:
        raise RulesError("the save's ruleset text is damaged") from None
    engine = data.get("engine")
    if engine not in ENGINES:
        raise RulesError(f"the save names no engine this rulesplay has ({', '.join(ENGINES)})")
    limits = data.get("limits") or {}
    if not isinstance(limits, dict):
        raise RulesError("the save's limits are damaged")
    try:
        return load_bundle(bundle, data.get("options") or {}, data.get("lang"), engine, limits)
    except OptionError as exc:  # a limit edited into something it cannot be
        raise RulesError(f"the save's limits are damaged: {exc.message}") from None
