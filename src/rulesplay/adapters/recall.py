"""Perfect recall for OpenSpiel's information state: per seat, a record of what it has
observed, in order.

A seat's record grows by one *token* for each thing it observes, in the order it comes:

- each decision taken, as the seat knows it (``seat:action id``, or ``seat:?`` for another
  seat's secret choice or its choice of a card this seat never saw:
  :meth:`~rulesplay.State.public_history`);
- each card it adds itself to a decision chosen card by card (``+index``), so the order of
  its own picks is kept (others see nothing until its ``done``);
- its view whenever it changed since its last token of a view (``state.observation(seat)``
  at the next decision, or at the end): a card that chance turned up and the rules later
  covered stays in the record (a Crazy Eights starter under the plays), as does a hand
  that was seen and then passed on.

A token is a 16-byte BLAKE2b digest of its text. A record is a persistent linked list (a
node holds its token, the record before it, its length and a digest of the whole
record), so a clone shares it and a step adds to it in constant time per seat: no record
is copied or rewritten. The information state string shows the record's length and digest
(equal records, equal strings); the tensor holds its last ``recall_tokens`` tokens, each
folded to a 24-bit id (exact in float32). A save holds each seat's tokens.

No OpenSpiel import: :mod:`rulesplay.adapters.openspiel` keeps the records.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine.observe import knows_choice

if TYPE_CHECKING:
    from ..engine.state import State

__all__ = ["ID_BITS", "Record", "Recorder", "token", "view_token"]

ID_BITS = 24  # a token's id in the tensor: its digest's first 3 bytes (exact in float32)


def token(text: str) -> bytes:
    """The 16-byte BLAKE2b digest of a token's text."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


def view_token(seen: dict[str, Any]) -> bytes:
    """The token of a seat's view: its observation's ``repr`` (``seen``: the engine builds
    an observation in a fixed order, so equal views print alike; ``repr`` is several times
    faster than JSON)."""
    return token("view " + repr(seen))


class Record:
    """One node of a seat's record (immutable; see the module docstring).

    Attributes:
        tok: this token (16 bytes); prev: the record before it (None: the first).
        length: tokens in the record up to here; digest: 16 bytes naming the whole
            record (BLAKE2b of the previous digest and this token).
    """

    __slots__ = ("digest", "length", "prev", "tok")

    tok: bytes
    prev: Record | None
    length: int
    digest: bytes

    def __init__(self, tok: bytes, prev: Record | None) -> None:
        self.tok, self.prev = tok, prev
        self.length = 1 if prev is None else prev.length + 1
        before = b"" if prev is None else prev.digest
        self.digest = hashlib.blake2b(before + tok, digest_size=16).digest()

    def last(self, limit: int) -> list[bytes]:
        """The last ``limit`` tokens, oldest first."""
        out: list[bytes] = []
        node: Record | None = self
        while node is not None and len(out) < limit:
            out.append(node.tok)
            node = node.prev
        out.reverse()
        return out

    def tokens(self) -> list[bytes]:
        """Every token, oldest first."""
        return self.last(self.length)


class Recorder:
    """Every seat's record of one game, and where it stands (how many decisions and which
    view each seat last recorded). Copied per clone (a tuple per seat: the records
    themselves are shared).

    Args:
        n: the seats.
    """

    __slots__ = ("decisions", "records", "views")

    def __init__(self, n: int) -> None:
        self.records: list[Record | None] = [None] * n
        self.views: list[bytes | None] = [None] * n
        self.decisions = 0

    def copy(self) -> Recorder:
        """A copy sharing the records (which nothing changes)."""
        c = Recorder(0)
        c.records, c.views, c.decisions = self.records[:], self.views[:], self.decisions
        return c

    def push(self, seat: int, tok: bytes) -> None:
        """Add ``tok`` to ``seat``'s record."""
        self.records[seat] = Record(tok, self.records[seat])

    def pick(self, seat: int, index: int) -> None:
        """``seat`` added action index ``index`` (a card) to its selection."""
        self.push(seat, token(f"+{index}"))

    def observe(self, state: State, seen: Callable[[int], dict[str, Any]]) -> None:
        """Record what every seat observes of ``state`` (a decision point or the end):
        the decisions taken since the last call as each knows them, then its view
        (``seen(seat)``: ``state.observation(seat)``) if it changed."""
        history = state.history
        for i in range(self.decisions, len(history)):
            p, aid = history[i]
            for seat in range(len(self.records)):
                known = aid if knows_choice(state, i, seat) else "?"
                self.push(seat, token(f"{p}:{known}"))
        self.decisions = len(history)
        for seat in range(len(self.records)):
            view = view_token(seen(seat))
            if view != self.views[seat]:
                self.views[seat] = view
                self.push(seat, view)

    def summary(self, seat: int) -> str:
        """``seat``'s record in the information state string: its length and digest."""
        rec = self.records[seat]
        return "recall 0" if rec is None else f"recall {rec.length} {rec.digest.hex()}"

    def tensor(self, seat: int, limit: int, out: Any) -> None:
        """Write ``seat``'s record into ``out`` (float32, shape ``(2 * (limit + 1),)``):
        the record's length and 1 when it holds more than ``limit`` tokens, then per
        token of the last ``limit`` (oldest first) 1 and its 24-bit id; zeros after."""
        out.fill(0)
        rec = self.records[seat]
        if rec is None:
            return
        out[0], out[1] = rec.length, float(rec.length > limit)
        toks = rec.last(limit)
        ids = np.frombuffer(b"".join(t[:3] + b"\0" for t in toks), dtype="<u4")
        out[2:2 + 2 * len(toks):2] = 1
        out[3:3 + 2 * len(toks):2] = ids

    def save(self) -> dict[str, Any]:
        """As plain data: each seat's tokens (hex), its last view token, the decisions
        recorded."""
        return {"records": [[] if r is None else [t.hex() for t in r.tokens()]
                            for r in self.records],
                "views": [None if v is None else v.hex() for v in self.views],
                "decisions": self.decisions}

    @staticmethod
    def load(data: Any, n: int) -> Recorder:
        """A recorder from :meth:`save`'s data for ``n`` seats.

        Raises:
            ValueError: data of another shape (a damaged save).
        """
        try:
            rec = Recorder(n)
            if len(data["records"]) != n or len(data["views"]) != n:
                raise ValueError("a record per seat")
            for seat, toks in enumerate(data["records"]):
                for t in toks:
                    rec.push(seat, bytes.fromhex(t))
            rec.views = [None if v is None else bytes.fromhex(v) for v in data["views"]]
            rec.decisions = int(data["decisions"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"the serialized state's records are damaged ({exc})") from None
        return rec
