"""A table's websocket (``/table/ID/ws``): the page says which seat it plays (its secret
token), then gets a view after every move and sends its moves; bots move on the server, in
the server's bounded pool of bot threads (``Server.bots``), so the server keeps answering
while they think and no number of tables takes more threads.

Messages from the page (JSON, at most :data:`MAX_MESSAGE` bytes, read by
:func:`.guard.parse_json`; a message a little over is answered with an error, and
``rulesplay serve`` tells uvicorn to close a socket that sends a frame over
:data:`MAX_FRAME` bytes before reading it)::

    {"type": "hello", "token": "SEAT TOKEN" | null}      first; null: watch (public view)
    {"type": "move", "action": "ACTION ID", "version": N} N: the view's version it answers

To the page: ``{"type": "hello", "seat", "name"}``, then views (:func:`.table_view.view`,
built for its seat only) and ``{"type": "error", "message"}`` (a bad token, a move out of
turn, an illegal or stale move: the game goes on; what the page sent is repeated at most
:data:`ECHOED` characters long).

A page that has not said hello is closed after ``ServeConfig.hello_wait`` seconds, and at
most ``ServeConfig.max_connecting`` such pages are open at once (more are closed at once).
"""

from __future__ import annotations

import asyncio
import sys
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import IllegalActionError, RulesError
from ..session import HUMAN
from ..words import tr
from .guard import BadJson, parse_json
from .html import isolate, quoted
from .table_view import view

if TYPE_CHECKING:
    from .app import Server
    from .tables import Table

__all__ = ["Rooms", "routes"]

MAX_MESSAGE = 4096  # bytes of one message from a page
MAX_FRAME = 4 * MAX_MESSAGE  # bytes of a frame uvicorn reads at all (larger: closed, 1009)
MAX_ACTION = 200  # characters of an action id a move may name
MAX_PAGES = 64  # pages open on one table at once
ECHOED = 60  # characters of what a page sent that a message repeats


@dataclass(eq=False)
class Listener:
    """One open page: its seat (None: onlooker) and how much of its account it has."""

    socket: WebSocket
    seat: int | None
    sent: int = 0


@dataclass
class Room:
    """The live side of a table: its lock (one change at a time, views never built during
    one), its open pages and its bots' task."""

    table: Table
    bots: Executor
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: list[Listener] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    def message(self, who: Listener) -> dict[str, Any]:
        """The view for ``who``: its seat's view, and the account lines it has not had."""
        table = self.table
        lines = table.accounts.lines[who.seat]
        start = who.sent
        who.sent = len(lines)
        log = f"/table/{table.table_id}/log" if table.state.is_terminal() else None
        return view(table.state, who.seat, table.session.seats,
                    busy=not table.waits_for_person(),
                    account=lines[start:], account_from=start, log=log, error=table.error)

    async def broadcast(self) -> None:
        """Send every open page its view (under the lock)."""
        for who in list(self.listeners):
            try:
                await who.socket.send_json(self.message(who))
            except (RuntimeError, WebSocketDisconnect, OSError):
                if who in self.listeners:
                    self.listeners.remove(who)

    def wake(self) -> None:
        """Let the bots (and forced moves) play until a person has a choice, in the
        background, unless they are already at it."""
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self.advance())

    async def advance(self) -> None:
        """Play bots' moves and people's forced moves (one legal action) until a person
        has a real choice or the game ends; every page gets a view after each move (the
        last one says the table waits for a person: ``busy`` false)."""
        try:
            await self._advance()
        except Exception as exc:  # a bot's fault: the table says so, the server goes on
            print(f"rulesplay serve: table {self.table.table_id} stopped: {exc!r}",
                  file=sys.stderr)
            async with self.lock:
                self.table.error = f"the game stopped: a bot failed ({exc})"
                await self.broadcast()

    async def _advance(self) -> None:
        table = self.table
        while True:
            async with self.lock:
                if table.waits_for_person():
                    return
                seat = table.to_move()
                assert seat is not None
                if table.session.seats[seat] == HUMAN:  # forced: played for the person
                    await self.apply(table.state.legal_actions()[0])
                    await self.broadcast()
                    continue
            agent = table.session.agents[seat]
            # The state changes only under the lock, and only this task moves for bots, so
            # the bot may read it while views are built from it.
            action = await asyncio.get_running_loop().run_in_executor(
                self.bots, agent.step, table.state)
            async with self.lock:
                await self.apply(action)
                await self.broadcast()

    async def apply(self, action: Any) -> bool:
        """Play ``action`` (call it under the lock); a ruleset that fails stops the game
        with its message (returns False).

        The rules run on the server's bounded pool, not on the event loop: a move that
        sets off a long stretch of play (or a loop that only a limit ends) must not hold up
        the other tables' pages.

        Raises:
            IllegalActionError: not a legal action now (nothing changed).
        """
        try:
            await asyncio.get_running_loop().run_in_executor(
                self.bots, self.table.apply, action)
        except IllegalActionError:
            raise
        except RulesError as exc:
            self.table.error = f"the game cannot go on: {exc.message}"
            return False
        return True


class Rooms:
    """Every table's :class:`Room`, made when a page first opens the table."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.rooms: dict[str, Room] = {}

    def room(self, table_id: str) -> Room | None:
        """The room of table ``table_id``, or None when the server has no such table."""
        table = self.server.tables.get(table_id)
        if table is None:
            self.rooms.pop(table_id, None)
            return None
        room = self.rooms.get(table_id)
        if room is None or room.table is not table:
            room = self.rooms[table_id] = Room(table, self.server.bots)
        return room


async def _error(socket: WebSocket, message: str) -> None:
    await socket.send_json({"type": "error", "message": message})


async def _read(socket: WebSocket) -> dict[str, Any] | str:
    """The next message as a dict, or what is wrong with it.

    Raises:
        WebSocketDisconnect: the page closed the connection.
    """
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if not isinstance(text, str):
        return "messages are JSON text, not binary"
    try:
        data = parse_json(text, MAX_MESSAGE)
    except BadJson as exc:
        if "not JSON" not in str(exc):
            return str(exc).replace("a request", "a message").replace("request's", "message's")
        return "a message is a JSON object such as {\"type\": \"move\", \"action\": \"...\"}"
    return data if isinstance(data, dict) else "a message is a JSON object"


async def _hello(socket: WebSocket, room: Room, wait: float) -> Listener | None:
    """Read the page's hello (within ``wait`` seconds): its seat from its token (None: an
    onlooker). A token that opens no seat is told and the socket closed."""
    try:
        data = await asyncio.wait_for(_read(socket), wait)
    except TimeoutError:
        await socket.close(1008, "no hello")
        return None
    if isinstance(data, str) or data.get("type") != "hello":
        await _error(socket, data if isinstance(data, str) else
                     "the first message says which seat this page plays: "
                     "{\"type\": \"hello\", \"token\": ...}")
        await socket.close(1008)
        return None
    token = data.get("token")
    seat = None
    if token is not None:
        seat = room.table.seat_of(token)
        if seat is None:  # (the token is never echoed or logged)
            await _error(socket, "this seat link is not valid for this table (mistyped, or "
                         "from another table); ask for the link again, or open the table "
                         "without '#seat=...' to watch")
            await socket.close(1008)
            return None
    prog = room.table.state.program
    name = prog.seat_name(seat) if seat is not None else "spectator"
    await socket.send_json({"type": "hello", "seat": seat, "name": isolate(name),
                            "you": tr(prog.lang, "you", seat=isolate(name))
                            if seat is not None else name})
    return Listener(socket, seat)


async def _move(room: Room, who: Listener, data: dict[str, Any]) -> str | None:
    """Play the move a page sent; returns why not (None: played)."""
    table = room.table
    if who.seat is None:
        return "a spectator cannot play; open a seat's link to play"
    action = data.get("action")
    if not isinstance(action, str) or len(action) > MAX_ACTION:
        return f"a move names one of the legal actions by its id (at most {MAX_ACTION} " \
               "characters)"
    async with room.lock:
        if table.error is not None:
            return table.error
        if table.state.is_terminal():
            return "the game is over"
        if table.to_move() != who.seat:
            mover = table.to_move()
            name = table.state.program.seat_name(mover) if mover is not None else "nobody"
            return f"it is not your turn: {name} is to move"
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            return "a move carries the version of the view it was chosen from (the " \
                   "whole number the page was sent)"
        if version != table.state.decisions:
            await who.socket.send_json(room.message(who))
            return "the table has moved on since that view; here is the current one"
        try:
            if not await room.apply(action):
                await room.broadcast()
                return table.error
        except IllegalActionError:
            return f"not a legal move now: '{quoted(action, ECHOED)}' is none of your moves; " \
                   "choose one the page shows"
        await room.broadcast()
        if table.waits_for_person():
            return None
    room.wake()
    return None


def routes(server: Server) -> list[BaseRoute]:
    """The tables' websocket route."""
    rooms = Rooms(server)
    config = server.config
    connecting = 0  # pages open that have not said hello yet

    async def table_socket(socket: WebSocket) -> None:
        nonlocal connecting
        room = rooms.room(str(socket.path_params["table_id"]))
        crowded = connecting >= config.max_connecting
        connecting += 1  # (counted from before it is accepted until it says hello)
        try:
            await socket.accept()
            if room is None:
                await _error(socket, "there is no such table on this server (finished and "
                             "removed, or a mistyped link)")
                await socket.close(1008)
                return
            if crowded:
                await _error(socket, "too many pages are connecting to this server at "
                             "once; try again in a moment")
                await socket.close(1013)
                return
            who = await _hello(socket, room, config.hello_wait)
        except WebSocketDisconnect:
            return
        finally:
            connecting -= 1
        try:
            if who is None:
                return
            async with room.lock:
                if len(room.listeners) >= MAX_PAGES:
                    await _error(socket, f"this table has {MAX_PAGES} pages open already")
                    await socket.close(1008)
                    return
                room.listeners.append(who)
                await socket.send_json(room.message(who))
            room.wake()
            while True:
                data = await _read(socket)
                if isinstance(data, str):
                    await _error(socket, data)
                elif data.get("type") == "move":
                    problem = await _move(room, who, data)
                    if problem:
                        await _error(socket, problem)
                else:
                    await _error(socket, "messages are 'hello' (first) and 'move'")
        except WebSocketDisconnect:
            pass
        finally:
            for who_ in [w for w in room.listeners if w.socket is socket]:
                room.listeners.remove(who_)

    return [WebSocketRoute("/table/{table_id}/ws", table_socket)]
