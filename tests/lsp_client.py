"""A small Language Server Protocol client for the tests: starts ``rulesplay lsp`` and
talks JSON-RPC to it over its stdin and stdout (``Content-Length`` framing), as an editor
does."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rulesplay

SRC = str(Path(rulesplay.__file__).resolve().parents[1])


class Client:
    """One server process. ``request`` waits for the answer; notifications from the
    server are kept in order for :meth:`notification`."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.proc = subprocess.Popen([sys.executable, "-m", "rulesplay", "lsp"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)  # (never read: never full)
        self.messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.held: list[dict[str, Any]] = []
        self.answers: dict[str, Any] = {}  # answers a test keeps for later ones
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while (line := out.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if line == b"":
                return
            self.messages.put(json.loads(out.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        self.send({"method": method, "params": params or {}})

    def _next(self, deadline: float) -> dict[str, Any]:
        msg = self.messages.get(timeout=max(deadline - time.monotonic(), 0.01))
        if "method" in msg and "id" in msg:  # a request of the server's: accept it
            self.send({"id": msg["id"], "result": None})
        return msg

    def request(self, method: str, params: dict[str, Any], timeout: float = 20) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            msg = self._next(deadline)
            if msg.get("id") == self.next_id and "method" not in msg:
                assert "error" not in msg, msg
                return msg.get("result")
            if "method" in msg and "id" not in msg:
                self.held.append(msg)

    def notification(self, method: str, timeout: float = 20,
                     where: Callable[[dict[str, Any]], bool] = lambda params: True,
                     **match: Any) -> dict[str, Any]:
        """The next notification ``method`` whose params hold ``match``'s items and pass
        ``where``; those of that method and match before it are dropped (stale)."""
        deadline = time.monotonic() + timeout
        while True:
            same = [i for i, msg in enumerate(self.held) if msg["method"] == method
                    and all(msg["params"].get(k) == v for k, v in match.items())]
            for i in same:
                if where(self.held[i]["params"]):
                    params: dict[str, Any] = self.held[i]["params"]
                    self.held = [m for j, m in enumerate(self.held) if j not in same or j > i]
                    return params
            msg = self._next(deadline)
            if "method" in msg and "id" not in msg:
                self.held.append(msg)

    def close(self) -> None:
        try:
            self.request("shutdown", {}, timeout=5)
            self.notify("exit")
            self.proc.wait(timeout=5)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.reader.join(timeout=5)
            for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                if pipe is not None:
                    pipe.close()
