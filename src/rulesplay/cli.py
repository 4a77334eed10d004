"""The ``rulesplay`` command line: run, replay, validate, compile, graph, options.

Every user error ends in a one-line message (exit 2 for wrong command-line values, exit 1 for
ruleset, runtime and log errors), never a Python traceback: :class:`RulesError` raised by any
command is rendered as ``path:line:col: error: ...`` diagnostics by the group itself.
"""

from __future__ import annotations

import json
import random
import re
import secrets
import shlex
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import click
from rich import box
from rich.console import Console
from rich.table import Table

from . import gamelog, terminal
from . import graph as graphs
from .agents import Agent, parse_spec, specs_help
from .agents import make_agent as agent_from_spec
from .cliargs import (
    ENGINE_OPTION,
    LIMIT_OPTION,
    SEED,
    check_output,
    claim_output,
    echo_warnings,
    parse_limits,
    parse_pairs,
)
from .compose import changed_since
from .engine.game import Game, load, load_bundle
from .engine.lower import ENGINES
from .engine.player_counts import check_player_counts
from .engine.routine_code import listing
from .engine.state import State
from .errors import OptionError, RulesError
from .narrate import Narrator, score_table, teams_line, winner_line
from .option_table import option_rows, value_shown
from .outfiles import folder_problem, fresh_name
from .seatview import SeatView
from .session import HUMAN, Session, play
from .shipped import shipped_root
from .show import players_text
from .words import tr


def make_agent(name: str, seat: int, seed: int) -> Agent:
    """A bot for ``seat`` by spec (:func:`rulesplay.agents.make_agent`), for a command line.

    Raises:
        click.UsageError: no bot has that name, or a bad parameter.
    """
    try:
        return agent_from_spec(name, seat, seed)
    except (KeyError, ValueError) as exc:
        raise click.UsageError(f"--bot/--seat: {exc}") from None


class RulesGroup(click.Group):
    """A click group that prints any :class:`RulesError` as diagnostics and exits with 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except RulesError as exc:  # diagnostics carry the text of the game's own files
            click.echo(exc.render(), err=True)
            ctx.exit(1)
        except click.ClickException as exc:  # its message may quote a ruleset or a file
            click.echo(terminal.clean(_click_error(exc)), err=True)
            ctx.exit(exc.exit_code)
        except OSError as exc:  # e.g. a full disk or a closed pipe while printing
            if isinstance(exc, BrokenPipeError):
                ctx.exit(0)
            click.echo(terminal.clean(f"error: {exc.strerror or exc}"
                                      + (f": {exc.filename}" if exc.filename else "")),
                       err=True)
            ctx.exit(1)


def _click_error(exc: click.ClickException) -> str:
    """A click error as every other error of the tool reads: ``error: ...`` (lower case, as
    in diagnostics), after the usage line and the help hint for a usage error."""
    head = ""
    if isinstance(exc, click.UsageError) and exc.ctx is not None:
        names = exc.ctx.command.get_help_option_names(exc.ctx)
        hint = f"Try '{exc.ctx.command_path} {max(names, key=len)}' for help.\n" if names \
            else ""
        head = f"{exc.ctx.get_usage()}\n{hint}\n"
    return f"{head}error: {exc.format_message()}"


@click.group(cls=RulesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulesplay")
def main() -> None:
    """Card games written as plain-text rulesets: validate, play, simulate and compare them.

    \b
    Examples (GAME is a name from 'rulesplay list' or a .rules file):
      rulesplay list
      rulesplay run GAME --seed 1
      rulesplay new house --from GAME
      rulesplay validate house.rules
      rulesplay run house.rules --players 4 --seed 7
      rulesplay run house.rules --option rounds=1 --log game.jsonl
      rulesplay run GAME --players 3 --seat 0=human
      rulesplay resume GAME-7.save.json
      rulesplay simulate house.rules -n 2000 --players 4
      rulesplay diff GAME house.rules
      rulesplay compare GAME house.rules
      rulesplay replay game.jsonl
    """


# ---------------------------------------------------------------- helpers
def _console() -> Console:
    return terminal.console(soft_wrap=True)


def _table_console() -> Console:
    """The console of a game with human seats: wraps to the terminal's width."""
    return terminal.console()


def _lang(lang: str | None) -> str | None:
    return None if lang in (None, "", "en") else lang


def _load_game(path: str, options: dict[str, Any], lang: str | None,
               engine: str = ENGINES[0], limits: dict[str, int] | None = None) -> Game:
    """Load a game; wrong option names or values become usage errors (exit 2)."""
    try:
        return load(path, options, lang, engine, limits)
    except OptionError as exc:
        raise click.UsageError(exc.message) from None


def _new_state(game: Game, players: int | None, seed: int) -> State:
    try:
        return game.new_state(players, seed, record_events=True)
    except OptionError as exc:
        raise click.UsageError(exc.message) from None


# ---------------------------------------------------------------- run
@main.command(short_help="Play a complete game and print what happens.")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--players", "-p", type=int, default=None,
              help="Seats at the table (default: the ruleset's usual count, else its minimum).")
@click.option("--seed", "-s", type=SEED, default=None,
              help="Seed of the game's random generator (default: a random one, printed).")
@click.option("--option", "-o", "options", multiple=True, metavar="K=V",
              help="Set a ruleset option, e.g. --option rounds=1 (repeatable; see "
                   "'rulesplay options FILE').")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, writable=True),
              help="Write the game as JSON lines (header, then every event) for 'replay'.")
@click.option("--log-seat", "log_seat", type=int, default=None, metavar="N",
              help="The --log holds only what seat N may know (no seed, others' hidden cards "
                   "as ?): a log to share during the game. Without it the log holds every "
                   "hand.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final score table (and, "
              "on standard error, how to repeat a game given no --seed).")
@click.option("--lang", default=None, metavar="CODE",
              help="Language of the account: en (default) or ja.")
@click.option("--bot", default="random", show_default=True, metavar="NAME",
              help=f"Bot playing every seat not set with --seat: {specs_help()} (a wrong "
                   "one is told what each parameter allows).")
@click.option("--seat", "seats", multiple=True, metavar="N=BOT",
              help="Who plays one seat: a bot (--seat 1=greedy) or a person at this "
                   "terminal (--seat 0=human); repeatable, several humans pass and play.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None,
              help="With human seats: the file 'save', quit and Ctrl-C write the game to "
                   "(default: a new FILE-SEED.save.json in the current directory).")
@click.option("--force", is_flag=True,
              help="Replace an existing --log or --save file (a ruleset file is never "
                   "replaced).")
@click.option("--ask-forced", is_flag=True,
              help="With human seats: ask even when only one choice is legal (by default "
                   "a forced move is played for the person and shown on their next screen).")
@ENGINE_OPTION
@LIMIT_OPTION
def run(file: str, players: int | None, seed: int | None, options: tuple[str, ...],
        log_path: str | None, log_seat: int | None, quiet: bool, lang: str | None, bot: str,
        seats: tuple[str, ...], save_path: str | None, force: bool, ask_forced: bool,
        engine: str, limits: tuple[str, ...]) -> None:
    """Play a complete game of FILE and print what happens.

    With bots only, the account shows each phase, every decision, trick winners and where
    cards went, then the final score table. The same --seed, options and bots always give
    the same game (a game without --seed says how to repeat it), unless a bot moves by the
    clock (mcts:seconds=...; iterations= repeats). With --seat N=human you play seat N at
    the terminal against the bots: each turn shows what your seat may see and the numbered
    choices; 'save' (or Ctrl-C) keeps the game for 'rulesplay resume'.
    """
    lang = _lang(lang)
    game = _load_game(file, dict(parse_pairs(options, "--option")), lang, engine,
                      parse_limits(limits))
    echo_warnings(game.checked.warnings)
    n = players if players is not None else game.usual_players
    try:
        game.program(n)  # the player count is allowed (checked before seats are read)
    except OptionError as exc:
        raise click.UsageError(exc.message) from None
    bots = {s: bot for s in range(n)}
    for key, name in parse_pairs(seats, "--seat"):
        if not (key.isascii() and key.isdigit() and len(key) < 6) or int(key) >= n:
            raise click.UsageError(f"--seat {key[:20]}={name}: seats are 0 to {n - 1}")
        if name.strip().lower() != HUMAN:
            try:  # checked here so that the message lists 'human' too
                parse_spec(name, others=(HUMAN,))
            except ValueError as exc:
                raise click.UsageError(f"--bot/--seat: {exc}") from None
        bots[int(key)] = HUMAN if name.strip().lower() == HUMAN else name
    humans = sorted(s for s, name in bots.items() if name == HUMAN)
    for given, option in ((save_path is not None, "--save"), (ask_forced, "--ask-forced")):
        if given and not humans:  # (said, not silently ignored)
            click.echo(f"warning: {option} is for a game with a person at the table (--seat "
                       "N=human); every seat here is a bot, so it is ignored", err=True)
    if log_seat is not None and (log_path is None or not 0 <= log_seat < n):
        raise click.UsageError(f"--log-seat: give --log FILE too, and a seat from 0 to {n - 1}"
                               if log_path is None else f"--log-seat: seats are 0 to {n - 1}")
    # With a person at the table an unasked-for seed is 128 random bits never shown: a seed
    # anyone can read (or guess from a million) would tell every hand (issue 13 item 9).
    random_seed, secret_seed = seed is None and not humans, seed is None and bool(humans)
    if seed is None:
        seed = secrets.randbits(128) if humans else random.SystemRandom().randrange(1_000_000)
    # Every bot spec is checked (by building the bots) before the game starts.
    agents = {s: make_agent(name, s, seed) for s, name in bots.items() if name != HUMAN}
    state = _new_state(game, n, seed)
    save = ""
    if humans:  # where the game will be saved: checked before anything is written or played
        tag = f"{datetime.now():%Y%m%d-%H%M%S}" if secret_seed else str(seed)
        save = save_path or str(fresh_name(f"{Path(file).stem}-{tag}", ".save.json"))
        _check_save_target(save, save_path is not None, force, log_path)
    log = _open_log(log_path, force)
    # (a table with people at it wraps to the terminal, as resume's does; a bots-only game's
    # account keeps its lines whole for logs and pipes)
    console = _table_console() if humans else _console()
    header = tr(lang, "header_private" if secret_seed else "header", title=game.title, n=n,
                seed=seed)
    if game.option_values:
        opts = ", ".join(f"{k}={value_shown(v)}" for k, v in game.option_values.items())
        header += "; " + tr(lang, "options", options=opts)
    # How to play this game again (no seed repeats a bot that moves by the clock).
    repeat = tr(lang, "unrepeatable") if any(getattr(a, "seconds", 0) for a in agents.values()) \
        else tr(lang, "repeat", command=_repeat_command(click.get_current_context(), seed)) \
        if random_seed else None
    if not quiet or humans:
        console.print(header, style="bold")
        teams = teams_line(state.program)
        if teams is not None:
            console.print(terminal.literal(teams))
        if repeat is not None:
            console.print(terminal.literal(repeat), style="dim")
    elif repeat is not None:  # -q: standard output holds the table only
        click.echo(terminal.clean(repeat), err=True)
    log_header = gamelog.header(file, game.option_values, n, seed, lang, bots, game.bundle,
                                game.limits)
    writer: gamelog.LogWriter | None = None
    try:
        if humans:
            names = ", ".join(state.program.seat_name(s) for s in humans)
            if game.ruleset.about:
                console.print(game.ruleset.about, style="italic")
            console.print(tr(lang, "human_intro", seats=names, path=save), style="dim")
            if log_path is not None and log_seat is None:
                console.print(tr(lang, "log_spoils", path=log_path), style="dim")
            if len(humans) > 1:
                console.print(tr(lang, "save_spoils", path=save), style="dim")
            session = Session(state, bots, agents, save, log_header)
            session.secret_seed = secret_seed
            session.ask_forced = ask_forced
            if log is not None:
                session.start_log(log, log_seat)
                log = None  # the session closes it
            sys.exit(_play_humans(session, _table_console()))
        writer = None
        if log is not None:
            writer = gamelog.LogWriter(log, log_header) if log_seat is None else \
                gamelog.LogWriter(log, gamelog.for_seat(log_header, log_seat),
                                  SeatView(state.program, log_seat).follower())
            log = None  # closed with the writer
        _play(state, agents, None if quiet else Narrator(state.program, console), writer)
        if writer is not None and writer.failed:
            click.echo(tr(lang, "log_failed", why=writer.failed), err=True)
    except RulesError as exc:
        if writer is not None:  # so that 'replay' can tell the same failure from a mismatch
            writer.error(exc.message)
        raise
    finally:
        if log is not None:
            log.close()
        if writer is not None:
            writer.close()
    if not quiet:
        console.print()
    console.print(score_table(state))
    console.print(winner_line(state), style="bold")


def _repeat_command(ctx: click.Context, seed: int) -> str:
    """The command that plays this game again: ``rulesplay run`` with every value given on
    the command line that changes the game (not -q, --log...), and ``--seed``."""
    words = ["rulesplay", "run", ctx.params["file"]]
    for option, key in (("--players", "players"), ("--lang", "lang"), ("--bot", "bot")):
        source = ctx.get_parameter_source(key)
        if source is not None and source.name == "COMMANDLINE":
            words += [option, str(ctx.params[key])]
    for option, key in (("--option", "options"), ("--seat", "seats"), ("--limit", "limits")):
        for value in ctx.params[key]:
            words += [option, value]
    return shlex.join([*words, "--seed", str(seed)])


def _play_humans(session: Session, console: Console) -> int:
    """Run a session with human seats; returns the exit code (0, or 130 after Ctrl-C)."""
    try:
        return play(session, console)
    except RulesError as exc:
        if session.log is not None:  # so that 'replay' can tell the same failure
            session.log.error(exc.message)
        raise
    finally:
        session.close()


@main.command(short_help="Continue a saved game.")
@click.argument("save_file", metavar="SAVE", type=click.Path(exists=True, dir_okay=False))
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="Write the game's log here: the whole game so far, then the rest (an "
                   "earlier log of this game is continued).")
@click.option("--force", is_flag=True,
              help="Replace an existing --log file that is not this game's log.")
def resume(save_file: str, log_path: str | None, force: bool) -> None:
    """Continue a game saved with 'save', quit or Ctrl-C during 'run --seat N=human'.

    The saved decisions are replayed from the game's seed, and a save whose stored state
    does not follow from them is refused. The game goes on exactly where it stopped: same
    seats, the bots with their generators as they were. A save names no file to write: the
    log goes to --log, or, when the game was logged, to a new file next to SAVE. Saving
    again writes to SAVE by default.
    """
    try:
        session = Session.load(save_file, agent_from_spec)
    except OSError as exc:
        raise click.ClickException(f"cannot resume {save_file}: {exc.strerror}") from None
    except RulesError as exc:
        if exc.span.line:  # the ruleset itself has an error now: show it with its caret
            raise
        raise click.ClickException(exc.message) from None
    state = session.state
    console = _table_console()
    console.print(tr(state.program.lang, "resumed_private" if session.secret_seed else "resumed",
                     path=save_file, title=state.program.game.title, n=state.num_players,
                     seed=state.seed, k=state.decisions + 1), style="bold")
    bundle = state.program.game.bundle
    if bundle is not None and changed_since(bundle):
        console.print(tr(state.program.lang, "ruleset_changed", path=bundle.name),
                      style="yellow")
    seat = session.log_seat
    if log_path is not None:
        text = session.log_text(seat)
        claim_output(log_path, "the log", True)  # never a link, a pipe, a ruleset...
        continued = Path(log_path).exists() and gamelog.continues(log_path, text)
        session.start_log(_open_output(log_path, "the log", force or continued), seat)
    elif session.logged_before:
        new_log = fresh_name(save_file, ".log.jsonl")
        session.start_log(_open_output(str(new_log), "the log", False), seat)
        console.print(tr(state.program.lang, "log_continues", path=new_log), style="dim")
    sys.exit(_play_humans(session, console))


def _check_save_target(save: str, named: bool, force: bool, log_path: str | None) -> None:
    """The save file of a game with people at the table can be written: a ``--save`` file
    may be replaced (:func:`claim_output`), its folder is writable, and it is not the log.

    Raises:
        click.UsageError: the folder cannot be written, or the save is the log.
        click.ClickException: ``--save`` names a file that must not be replaced.
    """
    if log_path is not None and Path(log_path).resolve() == Path(save).resolve():
        raise click.UsageError("--log and --save name the same file; give two files")
    problem = folder_problem(save)
    if problem is not None:
        raise click.UsageError(f"cannot save the game in {Path(save).parent} ({problem}); "
                               "give --save FILE in a folder you can write to")
    if named:
        claim_output(save, "the saved game", force)


def _open_log(path: str | None, force: bool) -> IO[str] | None:
    return None if path is None else _open_output(path, "the log", force)


def _open_output(path: str, what: str, overwrite: bool) -> IO[str]:
    """Open a file the person named for writing ``what``, losing nothing: a ruleset, a link
    or a special file is never replaced, an existing file only with ``overwrite`` (--force)
    or when the person agrees at an interactive prompt.

    Raises:
        click.ClickException: refused, or the file cannot be opened.
    """
    claim_output(path, what, overwrite)
    try:
        return open(path, "w", encoding="utf-8")  # closed by the caller
    except OSError as exc:
        raise click.ClickException(f"cannot write {what} {path}: {exc.strerror}") from None


def _play(state: State, bots: dict[int, Agent], narrator: Narrator | None,
          log: gamelog.LogWriter | None) -> None:
    """Let the bots play ``state`` to its end, narrating and logging every event."""
    events = state.events or []
    done = 0

    def emit() -> None:
        nonlocal done
        fresh = events[done:]
        done = len(events)
        if log is not None:
            log.follow(events)
        if narrator is not None:
            narrator.feed(fresh)

    try:
        while not state.is_terminal():
            action = bots[state.current_player()].step(state)
            state.apply(action)
            emit()
    finally:  # a failing rule still leaves its events in the log and the account
        emit()
        if narrator is not None:
            narrator.close()


# ---------------------------------------------------------------- replay
@main.command(short_help="Re-run a game log and check it plays the same.")
@click.argument("log_file", metavar="LOG", type=click.Path(exists=True, dir_okay=False))
@click.option("--ruleset", "ruleset_file", type=click.Path(dir_okay=False), default=None,
              help="The ruleset to replay with, for a log that does not hold its ruleset's "
                   "text (written by an older rulesplay); by default the text in the log.")
def replay(log_file: str, ruleset_file: str | None) -> None:
    """Re-run a game log written by 'run --log' and check it gives the same events.

    Rebuilds the game from the ruleset text the log's header holds (never from a file the
    log names) with its options, players and seed, applies the logged decisions in order
    and compares every event. Exit 0 when they all match, 1 at the first difference.
    """
    try:
        header, logged = gamelog.read(log_file)
    except RulesError as exc:
        raise click.ClickException(exc.message) from None
    if header.seat is not None or header.seed is None:
        raise click.ClickException(
            f"{log_file} holds only what seat {header.seat} may know (written with "
            "--log-seat): it cannot be replayed")
    try:
        if ruleset_file is not None:
            game = load(ruleset_file, header.options, header.lang, limits=header.limits)
        elif header.files is not None:
            game = load_bundle(header.files, header.options, header.lang, limits=header.limits)
        else:
            raise click.ClickException(
                f"{log_file} does not hold its ruleset's text (an older log); name the "
                f"ruleset: rulesplay replay {shlex.quote(log_file)} --ruleset FILE")
    except OptionError as exc:  # (the limits of a damaged header)
        raise click.ClickException(f"{log_file}: {exc.message}") from None
    try:
        state = game.new_state(header.players, header.seed, record_events=True)
    except OptionError as exc:
        raise click.ClickException(f"{log_file}: {exc.message}") from None
    failure = next((e.get("message") for e in logged if e.get("type") == "error"), None)
    logged = [e for e in logged if e.get("type") != "error"]
    decisions = [e for e in logged if e.get("type") == "decision"]
    seats = state.program.seat_name
    for i, ev in enumerate(decisions):
        try:
            state.apply(str(ev.get("action")))
        except RulesError as exc:
            replayed = _normal(state.events or [])
            if exc.message == failure and i == len(decisions) - 1 and replayed == logged:
                click.echo(terminal.clean(f"replay matches: {len(decisions)} decisions, and the "
                                          f"game stops with the same error: {exc.message}"))
                return
            _report_difference(logged, replayed, f"decision {i + 1} ({ev.get('action')!r}) "
                               f"of seat {ev.get('player')} cannot be replayed: "
                               f"{exc.message}")
    replayed = _normal(state.events or [])
    finished = any(e.get("type") == "end" for e in logged)
    if replayed != logged and (finished or replayed[:len(logged)] != logged):
        _report_difference(logged, replayed, "the replay differs from the log")
    scores = ", ".join(f"{seats(s)} {v}" for s, v in enumerate(state.scores()))
    if finished:
        click.echo(f"replay matches: {len(decisions)} decisions, final scores {scores}")
        click.echo(winner_line(state))
    else:
        click.echo(f"replay matches: {len(decisions)} decisions; the log stops before the "
                   f"end of the game (scores then: {scores})")


def _normal(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events as they read back from JSON (tuples become lists)."""
    return [json.loads(json.dumps(e, ensure_ascii=False)) for e in events]


def _report_difference(logged: list[dict[str, Any]], replayed: list[dict[str, Any]],
                       why: str) -> None:
    index = next((i for i, (a, b) in enumerate(zip(logged, replayed, strict=False)) if a != b),
                 min(len(logged), len(replayed)))
    click.echo(terminal.clean(f"replay does not match: {why}"), err=True)
    if index >= max(len(logged), len(replayed)):
        sys.exit(1)
    click.echo(f"first difference at event {index + 1}:", err=True)
    for name, seq in (("log:   ", logged), ("replay:", replayed)):
        shown = json.dumps(seq[index], ensure_ascii=False) if index < len(seq) else "(nothing)"
        click.echo(f"  {name} {terminal.json_text(shown)}", err=True)
    sys.exit(1)


# ---------------------------------------------------------------- validate / compile
@main.command(short_help="Check rulesets: 'FILE: ok' or each problem.")
@click.argument("files", metavar="FILE...", nargs=-1, required=True)
def validate(files: tuple[str, ...]) -> None:
    """Check ruleset files; print 'FILE: ok' or each problem as path:line:col with a caret.

    Every player count the ruleset allows is compiled and started too, so option defaults,
    card tables and deals are checked for each count. Warnings (legal, but probably not
    meant) print the same way before 'FILE: ok'. Exit 1 if any file has an error; warnings
    alone exit 0.
    """
    failed = False
    for path in files:
        try:
            game = load(path)
            counted = check_player_counts(game)
        except RulesError as exc:
            failed = True
            click.echo(exc.render())
            continue
        errors = [d for d in counted if d.severity == "error"]
        warnings = [*game.checked.warnings, *(d for d in counted if d.severity != "error")]
        echo_warnings(warnings, err=False)
        if errors:
            failed = True
            click.echo(RulesError(errors[0].message, errors[0].span, errors).render())
            continue
        click.echo(f"{path}: ok" + (f" ({len(warnings)} warning{'s' * (len(warnings) > 1)})"
                                    if warnings else ""))
    if failed:
        sys.exit(1)


@main.command(name="compile", short_help="Print a ruleset's checked IR, generated code or summary.")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True,
              help="Print the whole IR as JSON (loadable with rulesplay.ir.Ruleset).")
@click.option("--python", "as_python", is_flag=True,
              help="Print the Python code its phases are compiled to, with the file:line of "
                   "each statement.")
@click.option("--players", "-p", type=int, default=None,
              help="With --python: the player count to compile for (default: the usual count).")
def compile_(file: str, as_json: bool, as_python: bool, players: int | None) -> None:
    """Parse and check FILE; print its IR as JSON (--json), its compiled code (--python)
    or a short summary."""
    if as_json and as_python:
        raise click.UsageError("--json and --python: choose one")
    if players is not None and not as_python:  # it would change nothing: say so
        raise click.UsageError("--players goes with --python (the code compiled for that "
                               "many players)")
    game = load(file)
    r = game.ruleset
    if as_json:
        click.echo(terminal.json_text(r.model_dump_json(indent=2)))
        return
    if as_python:
        try:
            prog = game.program(players if players is not None else game.usual_players)
        except OptionError as exc:
            raise click.UsageError(exc.message) from None
        click.echo(terminal.clean(listing(prog)), nl=False)
        return
    cards = game.program(game.usual_players).num_cards
    click.echo(terminal.clean(f"{game.title}: {players_text(r)} players, "
                              f"{cards} cards, {len(r.zones)} zones, {len(r.phases)} phases, "
                              f"{len(r.options)} options (use --json for the IR)"))


# ---------------------------------------------------------------- list
@main.command(name="list", short_help="List rulesets: a folder's, or the shipped games.")
@click.argument("folder", required=False, type=click.Path(file_okay=False))
def list_(folder: str | None) -> None:
    """List the rulesets in FOLDER and its subfolders: game, players, and what the game is
    about (a variant: the file it extends). Without FOLDER: ./rulesets, else the games that
    come with rulesplay. Each is named as 'rulesplay run' takes it: a file's path, or a
    shipped game's name."""
    if folder is None:
        here = Path("rulesets")
        root = here if here.is_dir() else shipped_root()
        if root is None:
            raise click.UsageError("no rulesets folder here and no games come with this "
                                   "installation; name one: rulesplay list FOLDER")
    else:
        root = Path(folder)
        if not root.is_dir():
            raise click.UsageError(f"{folder} is not a folder")
    by_name = folder is None and root.resolve() == shipped_root()  # names run takes
    paths = sorted(root.rglob("*.rules"))
    if not paths:
        raise click.UsageError(f"no .rules files in {root}")
    failed = 0
    for path in paths:  # each name as 'run' takes it: a shipped name, or the file's path
        name = path.relative_to(root).as_posix().removesuffix(".rules") if by_name \
            else path.as_posix()
        try:
            game = load(str(path))
        except RulesError as exc:
            failed += 1
            click.echo(terminal.clean(f"{name}: does not load: "
                                      f"{exc.render().split(chr(10), 1)[0]}"))
            continue
        r = game.ruleset
        based = re.search(r'^extends "([^"\n]*)"', path.read_text(encoding="utf-8"), re.M)
        head = f"{name}: {game.title}, {players_text(r)} players"
        click.echo(terminal.clean(head + (f" (a variant of {based.group(1)})" if based else "")))
        if r.about and not based:
            click.echo(terminal.clean(f"    {r.about}"))
    if failed:
        sys.exit(1)


# ---------------------------------------------------------------- graph / options
# What graph writes, by the ending of an --output file.
GRAPH_ENDINGS = {".mmd": "mermaid", ".mermaid": "mermaid", ".dot": "dot", ".gv": "dot",
                 ".svg": "svg", ".png": "png"}


def _graph_format(fmt: str | None, out: str | None) -> str:
    """The format graph writes: --format, else the ending of --output, else Mermaid.

    Raises:
        click.UsageError: --output ends in no ending graph writes, or in another format's.
    """
    if out is None:
        return fmt or "mermaid"
    ending = Path(out).suffix.lower()
    named = GRAPH_ENDINGS.get(ending)
    allowed = ", ".join(GRAPH_ENDINGS)
    if fmt is None and named is None:
        raise click.UsageError(f"--output {out}: graph writes files ending in {allowed}; "
                               "give one of them, or --format")
    if fmt is not None and named is not None and named != fmt:
        raise click.UsageError(f"--output {out} is a {named} file but --format is {fmt}; "
                               "choose one")
    return fmt or named or "mermaid"


@main.command(short_help="Print or draw a ruleset's phase graph.")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["mermaid", "dot", "svg", "png"]),
              default=None,
              help="Mermaid flowchart or Graphviz DOT (text), or an SVG/PNG picture drawn by "
                   "Graphviz's 'dot' (installed separately). Default: by the ending of "
                   "--output (.mmd, .dot/.gv, .svg, .png), else mermaid.")
@click.option("--output", "-o", "out", type=click.Path(dir_okay=False), default=None,
              help="The file to write (text formats are printed without it); default for "
                   "svg/png: FILE's name with the format's ending, in the current folder, "
                   "numbered when taken.")
@click.option("--force", is_flag=True,
              help="Replace an existing --output file (a ruleset file or a symbolic link is "
                   "never replaced).")
@click.option("--lang", default=None, metavar="CODE", help="Language of the phase labels.")
def graph(file: str, fmt: str | None, out: str | None, force: bool, lang: str | None) -> None:
    """Print the phase graph of FILE: phases and the conditions of their 'next' steps; or
    write it to a file (--output), or draw it (--format svg|png)."""
    if out is not None:  # before Graphviz is asked, and before the ending is looked at
        check_output(out, "--output", "the graph", force)
    fmt = _graph_format(fmt, out)
    game = _load_game(file, {}, _lang(lang))
    if fmt in ("svg", "png"):
        target = Path(out) if out else fresh_name(Path(Path(file).name), f".{fmt}")
        graphs.render_picture(graphs.to_dot(game.ruleset, game.lang), fmt, target)
        click.echo(terminal.clean(f"wrote {target}"))
        return
    render: Callable[..., str] = graphs.to_mermaid if fmt == "mermaid" else graphs.to_dot
    text = render(game.ruleset, game.lang)
    if out is None:
        click.echo(terminal.clean(text), nl=False)
        return
    with _open_output(out, "the graph", True) as fh:  # (checked above)
        fh.write(text)
    click.echo(terminal.clean(f"wrote {out}"))


@main.command(short_help="List a ruleset's options: values and defaults.")
@click.argument("file", type=click.Path(dir_okay=False))
def options(file: str) -> None:
    """List the options of FILE: name, allowed values, default (per player count) and doc."""
    game = load(file)
    r = game.ruleset
    table = Table(title=terminal.literal(f"{game.title}: options", "table.title"),
                  title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("option", no_wrap=True, style="bold")
    table.add_column("type")
    table.add_column("default", no_wrap=True)
    table.add_column("description", overflow="fold", ratio=1)
    for row in option_rows(game):
        table.add_row(row.name, row.type, row.default, terminal.literal(row.doc))
    if not r.options:
        click.echo(terminal.clean(f"{game.title} has no options."))
        return
    _console().print(table)


@main.command(name="diff", short_help="Show what a variant changes, in the rules' words.")
@click.argument("base", type=click.Path(dir_okay=False))
@click.argument("variant", type=click.Path(dir_okay=False))
def diff_(base: str, variant: str) -> None:
    """Show what VARIANT changes compared with BASE, in the language's terms.

    Lists options whose defaults changed, phases added, removed or replaced (with the
    choice and trick constraints that differ), card kinds, zones, variables, abilities,
    rules and scoring. Exit 0 in every case; "no change" when the two play the same.
    """
    from .compose import load_ruleset
    from .diff import diff

    base_rs = load_ruleset(base)[0]
    variant_rs = load_ruleset(variant)[0]
    lines = diff(base_rs, variant_rs)
    click.echo(terminal.clean(f"{variant} compared with {base}:"))
    for line in lines or ["no change: the two rulesets play the same"]:
        click.echo(terminal.clean(("  " if not line.startswith("  ") else "    ")
                                  + line.strip()))


@main.command(short_help="Run the language server for editors (stdio).")
@click.option("--stdio", is_flag=True, help="Talk over stdin/stdout (the only way; accepted "
              "because editors' clients pass it).")
def lsp(stdio: bool) -> None:
    """Run the language server for editors, over stdin and stdout: diagnostics while typing,
    hover, completion, go to definition, outline (docs/editors.md). Needs the 'lsp' extra."""
    from .lsp import missing  # here: pygls loads only for this command

    problem = missing()
    if problem:
        raise click.ClickException(problem)
    from .lsp.server import serve

    serve()


def _register_simulation() -> None:
    from .authoring_cli import cards, fmt_, new
    from .serve_cli import serve
    from .sim_cli import compare, simulate
    from .spaces_cli import spaces
    from .sweep_cli import sweep

    main.add_command(simulate)
    main.add_command(compare)
    main.add_command(spaces)
    main.add_command(sweep)
    main.add_command(new)
    main.add_command(cards)
    main.add_command(fmt_)
    main.add_command(serve)


_register_simulation()
