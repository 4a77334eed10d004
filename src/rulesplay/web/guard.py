"""Checks every request passes before a page sees it: the ``Host`` header names this server
(against DNS rebinding), a websocket or a form post comes from this server's own pages (the
``Origin`` header, against other sites driving a table), and a request body stays within
the server's bound."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["OriginAndSizeGuard", "guarded"]

Message = MutableMapping[str, Any]
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class OriginAndSizeGuard:
    """ASGI middleware: refuses (403) a websocket or a non-GET request whose ``Origin`` is
    another site's, and (413) a request body over ``max_body`` bytes.

    Args:
        app: the application behind the guard.
        hosts: the host names this server answers to (``ServeConfig.host_names()``).
        max_body: the largest request body accepted, in bytes.
    """

    def __init__(self, app: ASGIApp, hosts: list[str], max_body: int) -> None:
        self.app = app
        self.hosts = {h.lower() for h in hosts}
        self.max_body = max_body

    def _origin_ok(self, scope: Scope) -> bool:
        origin = next((v.decode("latin-1") for k, v in scope.get("headers", [])
                       if k == b"origin"), None)
        if origin is None:  # not sent by a browser across sites: curl, the test client
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and (parts.hostname or "") in {
            h.strip("[]") for h in self.hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and not self._origin_ok(scope):
            await send({"type": "websocket.close", "code": 1008,
                        "reason": "this table only talks to its own pages"})
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in SAFE_METHODS and not self._origin_ok(scope):
            await PlainTextResponse("refused: the request came from another site's page",
                                    403)(scope, receive, send)
            return
        length = next((v for k, v in scope.get("headers", []) if k == b"content-length"), None)
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
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
    """``app`` behind the Origin/size guard and Starlette's trusted-host check (400 for a
    ``Host`` header that is not one of ``hosts``)."""
    return TrustedHostMiddleware(OriginAndSizeGuard(app, hosts, max_body),
                                 allowed_hosts=[h.strip("[]") for h in hosts])
