"""A game at the table with human seats: the play loop, and saving and resuming it.

A saved session is one JSON file (:class:`SavedSession`): the game state
(:meth:`rulesplay.State.to_json`, which includes its seed and decision history), who sits
where (``human`` or a bot spec), each bot's generator state, what each human has seen, and
the header of the game's log. It names no file to write: resuming replays the saved
decisions from the seed (:func:`replay`), refuses a save whose stored state does not follow
from them, and writes the log only where the person running ``resume`` says (or to a fresh
file next to the save), rebuilt whole from the replay.
"""

from __future__ import annotations

import json
import random
import shlex
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, Literal

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr, ValidationError
from rich.console import Console

from . import gamelog
from .compose import Bundle
from .engine.game import load_bundle
from .engine.state import State
from .errors import IllegalActionError, RulesError, damage
from .events import Event
from .filekinds import SAVE_MARK
from .human import CardBook, HumanSeat, QuitRequest, SaveRequest, SeatNarrator, SeatView
from .narrate import score_table, winner_line
from .outfiles import OutputRefused, claim, write_atomic
from .words import tr

SESSION_MARK = SAVE_MARK  # (one mark, which every command that reads files knows)
SESSION_VERSION = 6  # 2: no log path or log size, events rebuilt by replay; 3: engine;
# 4: the state's format 4 (phase entries, the run's limits); 5: the state's format 5;
# 6: the state's format 6 (zones revealed, who each zone's 'seen by' adds)
RECENT_LIMIT = 600  # raw events kept for "since your last turn" and "moves"
HUMAN = "human"

OptionValue = StrictBool | StrictInt | StrictStr


class SavedState(BaseModel):
    """What of a saved :meth:`State.to_json` rebuilds the game: the rest is compared."""

    model_config = ConfigDict(extra="allow")
    ruleset: Bundle
    players: StrictInt
    seed: gamelog.Seed
    options: dict[str, OptionValue]
    lang: StrictStr | None = None
    engine: Literal["compiled", "interpret"]
    limits: dict[str, StrictInt] = {}
    history: list[tuple[StrictInt, StrictStr]]


class SavedSession(BaseModel):
    """The save file of a game with human seats (format version 6)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["rulesplay-session"]
    version: Literal[6]
    state: SavedState
    seats: dict[int, StrictStr]
    bots: dict[int, tuple[StrictInt, list[StrictInt], float | None]]
    header: gamelog.LogHeader
    logged: StrictBool
    seen: dict[int, StrictInt]
    last_shown: StrictInt | None = None
    secret_seed: StrictBool = False
    log_seat: StrictInt | None = None


def _rng_of(agent: Any) -> random.Random | None:
    rng = getattr(agent, "rng", None)
    return rng if isinstance(rng, random.Random) else None


# What each part of a saved state is, for "the save differs from its decisions in ...".
_PARTS = {"ruleset": "the ruleset", "zones": "where the cards are", "g": "variables",
          "pv": "player variables", "cv": "card variables", "loc": "names in use",
          "stack": "the position in the rules", "by": "who played each card",
          "rng": "the random generator", "pending": "whose decision it is",
          "terminal": "whether the game is over", "phase": "the phase",
          "decisions": "the number of decisions", "version": "version",
          "engine": "the engine", "revealed": "the zones revealed",
          "seen": "who sees each zone"}


def replay(saved: SavedState) -> State:
    """The game a save describes, rebuilt from its ruleset's text, seed and decisions
    (events recorded); no file is read.

    Args:
        saved: the saved state's ruleset text, seed, options, players, language and
            decisions.

    Raises:
        RulesError: the ruleset does not load, a decision cannot be replayed, or the state
            the decisions lead to differs from the saved one (edited save, or a ruleset
            changed since); the message says which parts differ.
    """
    game = load_bundle(saved.ruleset, dict(saved.options), saved.lang, saved.engine,
                       saved.limits)
    state = game.new_state(saved.players, saved.seed, record_events=True)
    for k, (player, action) in enumerate(saved.history, 1):
        if state.current_player() != player:
            raise RulesError(f"decision {k} is recorded for seat {player}, but the game asks "
                             f"seat {state.current_player()}")
        try:
            state.apply(action)
        except IllegalActionError as exc:
            raise RulesError(f"decision {k} cannot be replayed: {exc.message}") from None
    rebuilt = json.loads(state.to_json())
    stored = json.loads(json.dumps(saved.model_dump(), ensure_ascii=False))
    differ = sorted(_PARTS.get(key, key) for key in set(rebuilt) | set(stored)
                    if rebuilt.get(key) != stored.get(key))
    if differ:
        raise RulesError("the saved state does not follow from its decisions (the save was "
                         "edited, or the ruleset changed since): " + ", ".join(differ)
                         + " differ")
    return state


class Session:
    """One game at the table: state, seats (humans and bots), log, and what humans have seen.

    Args:
        state: the game, recording events.
        seats: seat -> ``"human"`` or a bot spec (``random``, ``mcts:iterations=200``...).
        agents: seat -> bot, for every non-human seat.
        save_path: the file ``save`` and an interruption write to by default.
        header: the first line of the game's log (:func:`rulesplay.gamelog.header`).
    """

    def __init__(self, state: State, seats: dict[int, str], agents: dict[int, Any],
                 save_path: str, header: Event) -> None:
        self.state, self.seats, self.agents = state, seats, agents
        self.save_path, self.header = save_path, header
        self.log: gamelog.LogWriter | None = None
        self.log_seat: int | None = None  # the log holds only what this seat may know
        self.recent: list[Event] = []
        self.total = 0  # events of the game so far (the index of the next one)
        self.seen = {s: 0 for s, spec in seats.items() if spec == HUMAN}
        self.last_shown: int | None = None
        if state.events is None:
            state.events = []
        self.done = 0  # events handed on so far (a new game's deal goes with the first move)
        self.logged_before = False  # a resumed game that was logged before it was saved
        self.secret_seed = False  # the seed is never shown (chosen by rulesplay, not asked for)
        self.own_files = {Path(save_path)}  # saves of this game, replaced without asking
        self.log_warned = False  # a failing log has been reported
        self.ask_forced = False  # ask a person even when only one choice is legal

    @property
    def humans(self) -> list[int]:
        return sorted(self.seen)

    # ------------------------------------------------------------ events
    def _writer_parts(self, seat: int | None) -> tuple[Event, Any]:
        if seat is None:
            return self.header, None
        # a fresh follower: given the whole game at once, or then each move's events
        return gamelog.for_seat(self.header, seat), SeatView(self.state.program, seat).follower()

    def start_log(self, log: IO[str], seat: int | None = None) -> None:
        """Write the log's header and the events so far to ``log`` (a file the person named,
        open for writing, empty); later events follow as they happen. With ``seat``, the log
        holds only what that seat may know (no seed, hidden cards as ``?``). The session
        closes it.

        Raises:
            ValueError: ``seat`` is not a seat of this game.
        """
        if seat is not None and not 0 <= seat < self.state.num_players:
            raise ValueError(f"seats are 0 to {self.state.num_players - 1}, not {seat}")
        self.log = gamelog.LogWriter(log, *self._writer_parts(seat))
        self.log_seat = seat
        self.log.follow((self.state.events or [])[:self.done])

    def log_text(self, seat: int | None = None) -> str:
        """The whole log as it stands (header and the events handed on so far), for all to
        see or (``seat``) as that seat may know it."""
        head, view = self._writer_parts(seat)
        events = (self.state.events or [])[:self.done]
        return gamelog.lines([head, *(view(events) if view else events)])

    def emit(self) -> None:
        """Log the new events of the state and keep them for the humans' screens."""
        events = self.state.events or []
        fresh = events[self.done:]
        self.done = len(events)
        if not fresh:
            return
        if self.log is not None:
            self.log.follow(events)
        recent = self.recent + json.loads(json.dumps(fresh, ensure_ascii=False))
        self.recent, self.total = recent[-RECENT_LIMIT:], self.total + len(fresh)

    def close(self) -> None:
        """Close the log file (the session can still be saved)."""
        if self.log is not None:
            self.log.close()

    def unseen(self, seat: int | None, since: int) -> list[Event]:
        """The events from number ``since`` on, as ``seat`` may know them."""
        view = SeatView(self.state.program, seat).filter(self.recent)
        first = self.total - len(self.recent)
        return view[max(0, since - first):]

    # ------------------------------------------------------------ saving
    def save(self, path: str | None = None) -> str:
        """Write the session to ``path`` (default: :attr:`save_path`), atomically; returns
        the path.

        Raises:
            OutputRefused: ``path`` is a ruleset file, a link or a special file.
            OSError: the file cannot be written (an older save there is kept).
        """
        target = Path(path or self.save_path)
        state = self.state
        bots = {}
        for s, agent in self.agents.items():
            rng = _rng_of(agent)
            if rng is not None:
                version, internal, gauss = rng.getstate()
                bots[str(s)] = [version, list(internal), gauss]
        data = {
            "type": SESSION_MARK, "version": SESSION_VERSION,
            "state": json.loads(state.to_json()),
            "seats": {str(s): spec for s, spec in self.seats.items()},
            "bots": bots, "header": self.header, "logged": self.log is not None,
            "log_seat": self.log_seat,
            "seen": {str(s): k for s, k in self.seen.items()}, "last_shown": self.last_shown,
            "secret_seed": self.secret_seed,
        }
        write_atomic(target, json.dumps(data, ensure_ascii=False))
        return str(target)

    @classmethod
    def load(cls, path: str, make_agent: Callable[[str, int, int], Any]) -> Session:
        """Read a saved session: the game is replayed from its seed and decisions, bots are
        rebuilt and given back their generators. No file named in the save is written; the
        caller starts the log (:meth:`start_log`) where the person says.

        Args:
            path: the save file.
            make_agent: ``(spec, seat, seed) -> bot``; raises ValueError or KeyError for a
                spec it does not know.

        Raises:
            RulesError: not a session file, from another version, damaged, edited, or its
                ruleset no longer fits.
            OSError: the file cannot be read.
        """
        saved = read_save(path)
        try:
            state = replay(saved.state)
        except RulesError as exc:
            if not exc.span.line:  # not a diagnostic of the ruleset file itself
                exc.message = f"{path}: {exc.message}"
            raise
        n = state.num_players
        if sorted(saved.seats) != list(range(n)):
            raise RulesError(f"{path}: the saved game is damaged (seats must be 0 to {n - 1})")
        events = state.events or []
        agents = {}
        for s, spec in saved.seats.items():
            if spec == HUMAN:
                continue
            try:
                agent = agents[s] = make_agent(spec, s, state.seed)
            except (ValueError, KeyError) as exc:
                raise RulesError(f"{path}: the saved game is damaged (seat {s}: {exc})") \
                    from None
            rng, stored = _rng_of(agent), saved.bots.get(s)
            if stored is not None and rng is not None:
                try:
                    rng.setstate((stored[0], tuple(stored[1]), stored[2]))
                except (ValueError, TypeError, OverflowError):
                    raise RulesError(f"{path}: the saved game is damaged (the generator of "
                                     f"seat {s})") from None
        if {str(k): v for k, v in saved.seats.items()} != saved.header.bots:
            raise RulesError(f"{path}: the saved game is damaged (its seats differ from those "
                             "it started with)")
        humans = {s for s, spec in saved.seats.items() if spec == HUMAN}
        if set(saved.seen) != humans or not all(0 <= k <= len(events)
                                                for k in saved.seen.values()) \
                or saved.last_shown not in (None, *humans):
            raise RulesError(f"{path}: the saved game is damaged (what the humans have seen)")
        game = state.program.game  # the log's header, rebuilt from what was checked
        header = gamelog.header(saved.header.ruleset, game.option_values, n, state.seed,
                                game.lang, dict(saved.seats), game.bundle, game.limits)
        session = cls(state, dict(saved.seats), agents, path, header)
        session.done = session.total = len(events)
        session.recent = json.loads(json.dumps(events[-RECENT_LIMIT:], ensure_ascii=False))
        session.seen = dict(saved.seen)
        session.last_shown = saved.last_shown
        session.logged_before = saved.logged
        if saved.log_seat is not None and not 0 <= saved.log_seat < n:
            raise RulesError(f"{path}: the saved game is damaged (log_seat)")
        session.log_seat = saved.log_seat
        session.secret_seed = saved.secret_seed
        return session


def read_save(path: str) -> SavedSession:
    """The checked contents of a save file (the game itself is not rebuilt here).

    Raises:
        RulesError: not a saved rulesplay game, saved by another version (says which), or
            damaged (says where).
        OSError: the file cannot be read.
    """
    raw = Path(path).read_bytes()
    try:
        d = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise RulesError(not_a_save(path, "it is not text")) from None
    except (ValueError, RecursionError):  # not JSON, numbers too long, nested too deep
        raise RulesError(not_a_save(path, _what_it_is(path, raw))) from None
    if not isinstance(d, dict) or d.get("type") != SESSION_MARK:
        log = isinstance(d, dict) and d.get("type") == "header"
        raise RulesError(not_a_save(path, "it is a game log: replay it with 'rulesplay "
                                    "replay'" if log else "it is JSON of another kind"))
    if d.get("version") != SESSION_VERSION:
        raise RulesError(f"{path} was saved in format {str(d.get('version'))[:20]!r} by another "
                         f"version of rulesplay; this one reads format {SESSION_VERSION}")
    try:
        return SavedSession.model_validate(d)
    except ValidationError as exc:
        what = damage(list(exc.errors()), SavedSession.model_fields)  # type: ignore[arg-type]
        raise RulesError(f"{path}: the saved game is damaged: {what}") from None


def not_a_save(path: str, why: str) -> str:
    """The message for a file ``resume`` cannot read as a save, saying ``why`` and what a
    save is."""
    return (f"{path} is not a rulesplay save ({why}). A save is the .save.json file that "
            "'rulesplay run FILE --seat N=human' writes when a person types 'save' or 'quit' "
            "or presses Ctrl-C; resume takes that file.")


def _what_it_is(path: str, raw: bytes) -> str:
    """Why ``raw`` (text that is not JSON) is no save, in a few words."""
    if not raw.strip():
        return "it is empty"
    if Path(path).suffix.lower() in (".rules", ".part"):
        return "it is a ruleset: play it with 'rulesplay run'"
    first = raw.lstrip().split(b"\n", 1)[0]
    try:
        head = json.loads(first)
    except (ValueError, RecursionError):
        return "it is not JSON"
    if isinstance(head, dict) and head.get("type") == "header":
        return "it is a game log: replay it with 'rulesplay replay'"
    return "it is not a single JSON document"


# ---------------------------------------------------------------- playing
def play(session: Session, console: Console, ask: Callable[[str], str] = input) -> int:
    """Play the session to its end, asking humans and letting bots move.

    End of input (EOF), Ctrl-C, SIGTERM or SIGHUP save the game to :attr:`Session.save_path`,
    say so, and return 0 (EOF), 130 (Ctrl-C) or 128 + the signal's number; ``quit`` asks whether to
    save. Returns 0 at the end of a game. The caller closes the session's log
    (:meth:`Session.close`).

    Args:
        session: the game and its seats.
        console: where screens are printed.
        ask: reads one line from the person at the keyboard.
    """
    lang = session.state.program.lang
    book = CardBook(session.state.program)
    seat_ui = HumanSeat(console, ask, lambda path: _save_and_say(session, console, lang, None,
                                                                 path, ask), session.save_path)
    session.last_shown = None  # after a resume, whoever sits down first is asked to
    with _Stops() as stops:
        try:
            return _loop(session, console, ask, seat_ui, book, stops)
        except (KeyboardInterrupt, Hangup) as exc:  # while another stop was being handled
            stops.stopping = True
            saved = _stop_and_save(session, console, lang)
            return (128 + exc.signum if isinstance(exc, Hangup) else 130) if saved else 1


def _loop(session: Session, console: Console, ask: Callable[[str], str], seat_ui: HumanSeat,
          book: CardBook, stops: _Stops) -> int:
    """The body of :func:`play`."""
    state = session.state
    prog = state.program
    lang = prog.lang
    multi = len(session.humans) > 1
    snapshot: tuple[State, dict[int, Any], dict[int, int]] | None = None
    while True:
        try:
            while not state.is_terminal():
                p = state.current_player()
                if p in session.seen and not session.ask_forced \
                        and len(forced := state.legal_actions()) == 1:
                    # A forced move is played for the person; its next screen tells it
                    # (the seat's events since its last screen include this decision).
                    snapshot = _snapshot(session)
                    action = forced[0]
                elif p in session.seen:
                    if multi and session.last_shown != p:
                        _pass_to(session, console, ask, prog.seat_name(p), lang)
                    session.last_shown = p
                    since = session.unseen(p, session.seen[p])
                    compact = _follow_up(session, p)
                    action = seat_ui.choose(state, p, since, book, session.recent, compact)
                    snapshot = _snapshot(session)
                    session.seen[p] = session.total
                else:
                    snapshot = _snapshot(session)
                    action = session.agents[p].step(state)
                state.apply(action)
                session.emit()
                snapshot = None
                if session.log is not None and session.log.failed and not session.log_warned:
                    session.log_warned = True  # said once; the game goes on without its log
                    console.print(tr(lang, "log_failed", why=session.log.failed), style="red")
            break
        except (KeyboardInterrupt, Hangup, EOFError, OSError) as exc:
            # OSError: the terminal is gone (reading or writing it fails once its window
            # closes), which is an end of input too
            stops.stopping = True  # from here on, a signal changes nothing
            if snapshot is not None:  # stopped inside a move: go back to before it
                _restore(session, *snapshot)
            code = 128 + exc.signum if isinstance(exc, Hangup) else \
                130 if isinstance(exc, KeyboardInterrupt) else 0
            return code if _stop_and_save(session, console, lang) else 1
        except RulesError:
            # The ruleset failed (the caller prints where): keep the game up to this move.
            stops.stopping = True
            if snapshot is not None:
                _restore(session, *snapshot)
            _save_and_say(session, console, lang, "rules_failed", said="saved_failed")
            raise
        except SaveRequest:
            stops.stopping = True
            if _save_and_say(session, console, lang, None):
                return 0
            stops.stopping = False  # not saved (the message said why): the game goes on
        except QuitRequest as leave:
            console.print(tr(lang, "left") if leave.saved is None else
                          tr(lang, "left_saved", path=leave.saved,
                             arg=shlex.quote(leave.saved)))
            return 0
    _finish(session, console)
    return 0


def _stop_and_save(session: Session, console: Console, lang: str | None) -> bool:
    """Save a game that is being left (end of input, Ctrl-C, SIGTERM, SIGHUP, a terminal
    that is gone) and say so; returns whether it was saved. Signals change nothing by now
    (:class:`_Stops`), and a terminal that is gone does not stop the save."""
    try:
        console.print()
        return _save_and_say(session, console, lang, "interrupted")
    except OSError:  # the terminal is gone (a hang-up): the save is what matters
        try:
            session.save()
        except (OSError, OutputRefused):
            return False
        return True


class Hangup(Exception):
    """The process was asked to stop (SIGTERM) or its terminal went away (SIGHUP)."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.signum = signum


class _Stops:
    """Ctrl-C, SIGTERM and SIGHUP while a game is at the table: the first stops the game
    (``KeyboardInterrupt``, :class:`Hangup`) so that it is saved; once the game is stopping
    (``stopping``: saving, or leaving), more of them change nothing, so the save is whole.
    A context manager; outside the main thread it does nothing."""

    def __init__(self) -> None:
        self.stopping = False
        self._before: dict[int, Any] = {}

    def _on_signal(self, signum: int, frame: object) -> None:
        if self.stopping:
            return
        self.stopping = True
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Hangup(signum)

    def __enter__(self) -> _Stops:
        if threading.current_thread() is threading.main_thread():
            for name in ("SIGINT", "SIGTERM", "SIGHUP"):
                sig = getattr(signal, name, None)
                if sig is not None:
                    self._before[sig] = signal.signal(sig, self._on_signal)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, handler in self._before.items():
            signal.signal(sig, handler)


def _follow_up(session: Session, seat: int) -> bool:
    """Whether the seat's last screen is still current: since its own last decision nobody
    else decided and no phase or trick ended (a follow-up question gets a short screen)."""
    first = session.total - len(session.recent)
    new = session.recent[max(0, session.seen[seat] - first):]
    deciders = [ev.get("player") for ev in new if ev.get("type") == "decision"]
    return bool(deciders) and all(p == seat for p in deciders) and not any(
        ev.get("type") in ("phase", "trick", "end") for ev in new)


def _clear(console: Console) -> None:
    """Clear the screen and the terminal's scrollback (so the last hand cannot be scrolled
    back to); on a terminal without cursor control, scroll it out of sight."""
    if console.is_terminal and not console.is_dumb_terminal:
        console.clear()
        console.file.write("\x1b[3J")  # erase the scrollback too (xterm and most others)
        console.file.flush()
    else:
        console.print("\n" * max(console.height, 40))


def _pass_to(session: Session, console: Console, ask: Callable[[str], str], name: str,
             lang: str | None) -> None:
    """Pass-and-play: hide the last screen, wait for the next player, then show theirs
    (``save [FILE]`` works here too)."""
    _clear(console)
    while True:
        text = ask(tr(lang, "pass_to", seat=name) + " ").strip()
        word, _, rest = text.partition(" ")
        if word.lower() != "save":
            break
        _save_and_say(session, console, lang, None, rest.strip() or None, ask)
    _clear(console)


def _snapshot(session: Session) -> tuple[State, dict[int, Any], dict[int, int]]:
    """What a move changes: the state, the bots' generators and what the humans saw."""
    rngs = {s: r.getstate() for s, a in session.agents.items()
            if (r := _rng_of(a)) is not None}
    return session.state.clone(), rngs, dict(session.seen)


def _restore(session: Session, state: State, rngs: dict[int, Any],
             seen: dict[int, int]) -> None:
    """Go back to a :func:`_snapshot` (keeping the same state object)."""
    session.seen = seen
    old = session.state
    state.events = list(old.events or [])[:session.done]
    for slot in State.__slots__:
        setattr(old, slot, getattr(state, slot))
    for s, st in rngs.items():
        rng = _rng_of(session.agents[s])
        if rng is not None:
            rng.setstate(st)


def _save_and_say(session: Session, console: Console, lang: str | None,
                  why: str | None, path: str | None = None,
                  ask: Callable[[str], str] | None = None, said: str = "saved") -> bool:
    """Save the session (to ``path``, default its save file) and say where; when it cannot
    be saved, say why and keep the game (returns whether it was saved). Another existing
    file is replaced only when the person answers yes to ``ask``."""
    if why:
        console.print(tr(lang, why), style="yellow")
    confirm: Callable[[str], bool] | None = None  # (None: nobody can be asked)
    try:
        if path is not None and Path(path) not in session.own_files:
            # another file is replaced only when the person at a terminal says yes
            confirm = None if ask is None or not sys.stdin.isatty() else \
                (lambda q: ask(f"{q} [y/N] ").strip().lower() in ("y", "yes"))
            claim(path, "the saved game", False, confirm)
        written = session.save(path)
        if path is not None:
            session.own_files.add(Path(path))
    except OutputRefused as exc:  # an existing file: in the prompt's words, not --force's
        shown = tr(lang, "save_kept" if confirm is not None else "save_kept_ask", path=path,
                   arg=shlex.quote(str(path))) if exc.replaceable else str(exc)
        console.print(shown, style="red", markup=False)
        return False
    except OSError as exc:
        console.print(f"cannot save to {path or session.save_path}: {exc.strerror}",
                      style="red", markup=False)
        return False
    console.print(tr(lang, said, path=written, arg=shlex.quote(written)),
                  style="green")
    return True


def _finish(session: Session, console: Console) -> None:
    """The last events (public view, or the single human's), then the score table."""
    state = session.state
    humans = session.humans
    seat = humans[0] if len(humans) == 1 else None
    since = session.seen[seat] if seat is not None else \
        (min(session.seen.values()) if session.seen else 0)
    narrator = SeatNarrator(state.program, seat)
    for item in narrator.lines(session.unseen(seat, since)):
        console.print(item)
    console.print()
    console.print(score_table(state))
    console.print(winner_line(state), style="bold")
