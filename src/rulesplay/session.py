"""A game at the table with human seats: the play loop, and saving and resuming it.

A saved session is one JSON file holding everything needed to continue exactly where it
stopped: the game state (:meth:`rulesplay.State.to_json`, which includes its random generator
and decision history), who sits where (``human`` or a bot spec), each bot's generator state,
the log file and how much of it belonged to the game at the time of saving (a resumed game
truncates the log to that size and appends, so the log reads as one uninterrupted game), and
the recent events each human has not seen yet.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from rich.console import Console

from .engine.game import load
from .engine.state import State
from .errors import RulesError
from .human import CardBook, HumanSeat, QuitRequest, SaveRequest, SeatNarrator, SeatView
from .narrate import score_table, tr, winner_line

SESSION_MARK = "rulesplay-session"
SESSION_VERSION = 1
RECENT_LIMIT = 600  # raw events kept for "since your last turn" and "moves"
HUMAN = "human"

Event = dict[str, Any]


def agent_step(agent: Any, state: State) -> Any:
    """The action a bot takes (``agent.step(state)`` or ``agent(state)``)."""
    return agent.step(state) if hasattr(agent, "step") else agent(state)


def _rng_of(agent: Any) -> random.Random | None:
    rng = getattr(agent, "rng", None)
    return rng if isinstance(rng, random.Random) else None


class Session:
    """One game at the table: state, seats (humans and bots), log, and what humans have seen.

    Args:
        state: the game, recording events.
        seats: seat -> ``"human"`` or a bot spec (``random``, ``mcts:iterations=200``...).
        agents: seat -> bot, for every non-human seat.
        log_path: the JSON-lines log (None: no log); ``log`` its open handle.
        save_path: the file ``save`` and an interruption write to by default.
    """

    def __init__(self, state: State, seats: dict[int, str], agents: dict[int, Any],
                 log_path: str | None, log: IO[str] | None, save_path: str) -> None:
        self.state, self.seats, self.agents = state, seats, agents
        self.log_path, self.log, self.save_path = log_path, log, save_path
        self.recent: list[Event] = []
        self.total = 0  # events of the game so far (the index of the next one)
        self.seen = {s: 0 for s, spec in seats.items() if spec == HUMAN}
        self.last_shown: int | None = None
        if state.events is None:
            state.events = []
        self.done = 0  # events not yet logged (a new game's deal is logged too)
        self.logged = log.tell() if log is not None else 0  # log size after whole moves

    @property
    def humans(self) -> list[int]:
        return sorted(self.seen)

    # ------------------------------------------------------------ events
    def emit(self) -> None:
        """Log the new events of the state and keep them for the humans' screens."""
        events = self.state.events or []
        fresh = events[self.done:]
        self.done = len(events)
        if not fresh:
            return
        if self.log is not None:
            self.log.write("".join(json.dumps(ev, ensure_ascii=False) + "\n" for ev in fresh))
            self.log.flush()
        recent = self.recent + json.loads(json.dumps(fresh, ensure_ascii=False))
        self.recent, self.total = recent[-RECENT_LIMIT:], self.total + len(fresh)
        if self.log is not None:
            self.logged = self.log.tell()

    def close(self) -> None:
        """Close the log file (the session can still be saved)."""
        if self.log is not None and not self.log.closed:
            self.log.close()

    def unseen(self, seat: int | None, since: int) -> list[Event]:
        """The events from number ``since`` on, as ``seat`` may know them."""
        view = SeatView(self.state.program, seat).filter(self.recent)
        first = self.total - len(self.recent)
        return view[max(0, since - first):]

    # ------------------------------------------------------------ saving
    def save(self, path: str | None = None) -> str:
        """Write the session to ``path`` (default: :attr:`save_path`); returns the path.

        Raises:
            OSError: the file cannot be written.
        """
        target = Path(path or self.save_path)
        state = self.state
        bots = {}
        for s, agent in self.agents.items():
            rng = _rng_of(agent)
            if rng is not None:
                version, internal, gauss = rng.getstate()
                bots[str(s)] = [version, list(internal), gauss]
        size = self.logged if self.log is not None else None
        data = {
            "type": SESSION_MARK, "version": SESSION_VERSION,
            "ruleset": str(Path(str(state.program.game.path)).resolve()),
            "state": json.loads(state.to_json()),
            "seats": {str(s): spec for s, spec in self.seats.items()},
            "bots": bots, "log": self.log_path, "log_size": size,
            "total": self.total, "recent": self.recent,
            "seen": {str(s): k for s, k in self.seen.items()}, "last_shown": self.last_shown,
        }
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, target)
        return str(target)

    @classmethod
    def load(cls, path: str, make_agent: Callable[[str, int, int], Any]) -> Session:
        """Read a saved session; bots are rebuilt and given back their generators.

        Args:
            path: the save file.
            make_agent: ``(spec, seat, seed) -> bot``.

        Raises:
            RulesError: not a session file, damaged, or its ruleset no longer fits.
            OSError: the file or the log cannot be opened.
        """
        try:
            d = json.loads(Path(path).read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise RulesError(f"{path} is not a saved rulesplay game ({exc})") from None
        if not isinstance(d, dict) or d.get("type") != SESSION_MARK:
            raise RulesError(f"{path} is not a saved rulesplay game")
        if d.get("version") != SESSION_VERSION:
            raise RulesError(f"{path} was saved by another version of rulesplay")
        try:
            sd = d["state"]
            game = load(d["ruleset"], sd.get("options") or {}, sd.get("lang"))
            state = State.from_json(sd, game)
            state.events = []
            seats = {int(s): str(spec) for s, spec in d["seats"].items()}
            agents = {}
            for s, spec in seats.items():
                if spec == HUMAN:
                    continue
                agent = agents[s] = make_agent(spec, s, state.seed)
                saved = d["bots"].get(str(s))
                rng = _rng_of(agent)
                if saved is not None and rng is not None:
                    rng.setstate((saved[0], tuple(saved[1]), saved[2]))
            log_path = d.get("log")
            log = None
            if log_path:
                log = open(log_path, "r+", encoding="utf-8")  # noqa: SIM115 - Session.close()
                log.truncate(int(d["log_size"]))
                log.seek(0, os.SEEK_END)
            session = cls(state, seats, agents, log_path, log, path)
            session.total = int(d["total"])
            session.recent = list(d["recent"])
            session.seen = {int(s): int(k) for s, k in d["seen"].items()}
            session.last_shown = d.get("last_shown")
            return session
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise RulesError(f"{path}: the saved game is damaged ({exc})") from None


# ---------------------------------------------------------------- playing
def play(session: Session, console: Console, ask: Callable[[str], str] = input) -> int:
    """Play the session to its end, asking humans and letting bots move.

    End of input (EOF) or Ctrl-C saves the game to :attr:`Session.save_path`, says so, and
    returns 0 (EOF) or 130 (Ctrl-C); ``quit`` offers to save. Returns 0 at the end of a game.
    The caller closes the session's log (:meth:`Session.close`).

    Args:
        session: the game and its seats.
        console: where screens are printed.
        ask: reads one line from the person at the keyboard.
    """
    state = session.state
    prog = state.program
    lang = prog.lang
    book = CardBook(prog)
    seat_ui = HumanSeat(console, ask, session.save, session.save_path)
    multi = len(session.humans) > 1
    session.last_shown = None  # after a resume, whoever sits down first is asked to
    snapshot: tuple[State, dict[int, Any], dict[int, int]] | None = None
    try:
        while not state.is_terminal():
            p = state.current_player()
            if p in session.seen:
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
                action = agent_step(session.agents[p], state)
            state.apply(action)
            session.emit()
            snapshot = None
    except KeyboardInterrupt:
        if snapshot is not None:  # stopped inside a move: go back to before it
            _restore(session, *snapshot)
        console.print()
        _save_and_say(session, console, lang, "interrupted")
        return 130
    except EOFError:
        console.print()
        _save_and_say(session, console, lang, "interrupted")
        return 0
    except SaveRequest:
        _save_and_say(session, console, lang, None)
        return 0
    except QuitRequest:
        console.print(tr(lang, "left"))
        return 0
    _finish(session, console)
    return 0


def _follow_up(session: Session, seat: int) -> bool:
    """Whether the seat's last screen is still current: since its own last decision nobody
    else decided and no phase or trick ended (a follow-up question gets a short screen)."""
    first = session.total - len(session.recent)
    new = session.recent[max(0, session.seen[seat] - first):]
    deciders = [ev.get("player") for ev in new if ev.get("type") == "decision"]
    return bool(deciders) and all(p == seat for p in deciders) and not any(
        ev.get("type") in ("phase", "trick", "end") for ev in new)


def _clear(console: Console) -> None:
    """Clear the screen (on a terminal without cursor control: scroll it out of sight)."""
    if console.is_terminal and not console.is_dumb_terminal:
        console.clear()
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
        path = session.save(rest.strip() or None)
        console.print(tr(lang, "saved", path=path), style="green")
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
                  why: str | None) -> None:
    if why:
        console.print(tr(lang, why), style="yellow")
    try:
        path = session.save()
    except OSError as exc:
        console.print(f"cannot save to {session.save_path}: {exc.strerror}", style="red")
        return
    console.print(tr(lang, "saved", path=path), style="green")


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
