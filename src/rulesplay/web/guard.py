"""Checks every request passes before a page sees it, and the one reader of JSON bodies.

- The ``Host`` header names this server (against DNS rebinding); another name is refused
  with a message saying how to allow it (``--allow-host NAME``).
- A websocket or a request that changes something (any method but GET, HEAD and OPTIONS)
  comes from this server's own pages: its ``Origin`` is the request's own scheme, host and
  port (against other sites driving a table).
- A request that changes something is sent as JSON (``Content-Type: application/json``), so
  no plain cross-site form can make one.
- A request body stays within the server's bound (``max_body`` bytes).

Every JSON body, and every websocket message, is read by :func:`parse_json` (or
:func:`json_body`), which bounds its size and its depth of nesting and says what is wrong
in a :class:`BadJson` (answered 400), never a traceback.
"""

from __future__ import annotations

import json
import re
from collections.abc import MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["BadJson", "MAX_DEPTH", "OriginAndSizeGuard", "guarded", "json_body", "parse_json"]

Message = MutableMapping[str, Any]
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_DEPTH = 32  # arrays and objects nested in one JSON body or message
JSON_TYPE = "application/json"
_DEFAULT_PORT = {"http": 80, "https": 443}
_SHOWN_HOST = re.compile(r"[^A-Za-z0-9.\-_\[\]:]")


class BadJson(ValueError):
    """A JSON body or message that is not read: too large, too deeply nested, or not JSON
    (the message says which, for the page)."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


def parse_json(data: bytes | str, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """The value of the JSON text ``data``, its size and nesting bounded.

    Args:
        data: the body or message (bytes are read as UTF-8).
        max_bytes: the most bytes it may have.
        max_depth: the most arrays and objects nested in one another.

    Raises:
        BadJson: more than ``max_bytes`` bytes, nested deeper than ``max_depth``, or not
            JSON (the message says which).
    """
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "replace"))
    if size > max_bytes:
        raise BadJson(f"a request may have at most {max_bytes:,} bytes, not {size:,}")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise BadJson("the request is not JSON (it is not UTF-8 text)") from None
    depth = 0
    for m in _BRACKET.finditer(_STRING.sub('""', text)):  # (brackets outside strings)
        depth += 1 if m.group() in "[{" else -1
        if depth > max_depth:
            raise BadJson(f"the request's JSON nests arrays and objects more than "
                          f"{max_depth} deep")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise BadJson("the request is not JSON") from None


async def json_body(request: Request, max_bytes: int) -> Any:
    """The request's body read by :func:`parse_json`.

    Raises:
        BadJson: see :func:`parse_json`.
    """
    return parse_json(await request.body(), max_bytes)


def _header(scope: Scope, name: bytes) -> str | None:
    return next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == name), None)


def _host_name(host: str) -> str:
    """The name in a ``Host`` header (``name:port``, ``[v6]:port``), lower-cased."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[:host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _origin_of(scheme: str, host: str) -> tuple[str, str, int | None] | None:
    """``(scheme, host, port)`` of ``scheme://host``, the default port filled in; None
    when it is not an http(s) origin."""
    try:
        parts = urlsplit(f"{scheme}://{host}")
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in _DEFAULT_PORT or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or _DEFAULT_PORT[parts.scheme]


class OriginAndSizeGuard:
    """ASGI middleware: refuses (400) a ``Host`` this server does not answer to, (403) a
    websocket or a changing request whose ``Origin`` is not the request's own scheme, host
    and port, (415) a changing request that is not sent as JSON, and (413) a request body
    over ``max_body`` bytes.

    Args:
        app: the application behind the guard.
        hosts: the host names this server answers to (``ServeConfig.host_names()``; IPv6
            addresses in brackets).
        max_body: the largest request body accepted, in bytes.
    """

    def __init__(self, app: ASGIApp, hosts: list[str], max_body: int) -> None:
        self.app = app
        self.hosts = {h.lower() for h in hosts}
        self.max_body = max_body

    def _host_problem(self, scope: Scope) -> str | None:
        name = _host_name(_header(scope, b"host") or "")
        if name in self.hosts:
            return None
        shown = _SHOWN_HOST.sub("", name)[:100] or "(none)"
        return (f"refused: this server does not answer to the name '{shown}' (the request's "
                f"Host header). If people reach it by that name, start it again with "
                f"--allow-host {shown}")

    def _origin_ok(self, scope: Scope) -> bool:
        origin = _header(scope, b"origin")
        if origin is None:  # not sent by a browser across sites: curl, the test client
            return True
        raw = str(scope.get("scheme", "http"))
        scheme = {"ws": "http", "wss": "https"}.get(raw, raw)
        own = _origin_of(scheme, _header(scope, b"host") or "")
        parts = urlsplit(origin.strip())
        theirs = _origin_of(parts.scheme, parts.netloc) if not parts.path else None
        return own is not None and theirs == own

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host_problem = self._host_problem(scope)
        if scope["type"] == "websocket":
            if host_problem or not self._origin_ok(scope):
                await send({"type": "websocket.close", "code": 1008,
                            "reason": host_problem[:120] if host_problem else
                            "this table only talks to its own pages"})
                return
            await self.app(scope, receive, send)
            return
        if host_problem:
            await PlainTextResponse(host_problem, 400)(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS:
            if not self._origin_ok(scope):
                await PlainTextResponse("refused: the request came from another site's page",
                                        403)(scope, receive, send)
                return
            kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if kind != JSON_TYPE:
                await PlainTextResponse(f"refused: a request that changes something is sent "
                                        f"as JSON (Content-Type: {JSON_TYPE})",
                                        415)(scope, receive, send)
                return
        length = _header(scope, b"content-length")
        if length is not None and (not length.isascii() or not length.isdigit()
                                   or int(length) > self.max_body):
            await self._too_large(scope, receive, send)
            return
        body = await self._read_body(receive)
        if body is None:
            await self._too_large(scope, receive, send)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read_body(self, receive: Receive) -> bytes | None:
        """The whole request body (bounded, so reading it first costs little), or None when
        it goes over ``max_body`` bytes (a body sent in chunks says no length first)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(chunks)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        await PlainTextResponse(f"refused: a request body may have at most {self.max_body} "
                                "bytes", 413)(scope, receive, send)


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` that gives ``body`` as one message, then waits for what follows (the
    client's disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def guarded(app: ASGIApp, hosts: list[str], max_body: int) -> ASGIApp:
    """``app`` behind :class:`OriginAndSizeGuard` (Host, Origin, JSON, body size)."""
    return OriginAndSizeGuard(app, hosts, max_body)
