"""How large one request may be, and how an oversized one is refused without reading it whole.

Two limits, each a whole number of bytes, configurable by environment variable:

- ``XDB_MAX_MESSAGE_BYTES`` (default 64 MiB): one MCP message (a line of ``xdb mcp``'s
  stdin, or the body of a POST to ``/mcp``) and the body of ``POST /v1/xdb/record-batch``.
  These carry a batch of token timesteps, which may legitimately be large.
- ``XDB_MAX_BODY_BYTES`` (default 4 MiB, the MCP SDK's own default for HTTP bodies): the
  body of every other HTTP route. One timestep, tag or episode is far smaller.

A line over the limit is read and dropped in pieces (at most ``_PIECE`` bytes buffered past
what is kept) and answered with a JSON-RPC error; an HTTP body over its limit is refused
with 413 once its ``Content-Length`` or the bytes counted so far pass the limit.

And one limit of depth, fixed: a message (a line, or an HTTP body other than a form) that
nests arrays and objects more than ``nesting.MAX_NESTING`` (128) levels deep is refused
unread, a line with a JSON-RPC error and a body with 400 (``nesting``).

This module imports nothing heavy: ``stdio`` uses it while the SDK loads.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, Protocol

from xdb.errors import InvalidRequest
from xdb.interfaces.nesting import MAX_NESTING, too_deep

log = logging.getLogger("xdb.http")

MESSAGE_LIMIT_ENV = "XDB_MAX_MESSAGE_BYTES"
BODY_LIMIT_ENV = "XDB_MAX_BODY_BYTES"
DEFAULT_MESSAGE_LIMIT = 64 * 1024 * 1024
DEFAULT_BODY_LIMIT = 4 * 1024 * 1024

# JSON-RPC's "Invalid Request": the message is refused as a whole, not its params.
INVALID_REQUEST = -32600

_PIECE = 1 << 20  # a line is read in pieces of at most this much
_PEEK = 4096  # how much of an oversized line's start and end is kept to find its id
# After refusing a body, up to this much more of it is read and dropped before answering, so
# a client that sends its whole body before reading (httpx, requests) gets the 413 rather
# than a reset connection; past it, the answer goes at once and the connection closes.
_DRAIN = 64 * 1024 * 1024


def _from_env(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        message = f"{name} must be a positive whole number of bytes, not {text!r}"
        raise InvalidRequest(message, field=name)
    return value


def message_limit() -> int:
    """The most bytes one MCP message (or a record-batch body) may have."""
    return _from_env(MESSAGE_LIMIT_ENV, DEFAULT_MESSAGE_LIMIT)


def body_limit() -> int:
    """The most bytes the body of any other HTTP request may have."""
    return _from_env(BODY_LIMIT_ENV, DEFAULT_BODY_LIMIT)


# --------------------------------------------------------------------------- lines (stdio)


class Pieces(Protocol):
    async def read_piece(self) -> tuple[bytes, bool]:
        """The next piece of the current line, and whether it ends the line (b"", True at
        the end of input)."""
        ...


class StreamPieces:
    """Pieces of an ``asyncio.StreamReader`` made with ``limit=PIECE``."""

    PIECE = _PIECE

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    async def read_piece(self) -> tuple[bytes, bool]:
        try:
            return await self._reader.readuntil(b"\n"), True
        except asyncio.IncompleteReadError as exc:  # the input ended mid-line
            return exc.partial, True
        except asyncio.LimitOverrunError as exc:  # no newline within PIECE bytes: take them
            return await self._reader.readexactly(exc.consumed), False


class Oversized:
    """What is known of a line over the limit: its size, its first and last bytes."""

    def __init__(self, size: int, head: bytes, tail: bytes) -> None:
        self.size = size
        self.head = head
        self.tail = tail


class BoundedLines:
    """``readline`` that never returns (nor holds) a line over ``limit`` bytes, nor one
    nested past ``MAX_NESTING``.

    A longer line is read on in pieces and dropped; ``refuse`` is given the JSON-RPC error
    that answers it (``refusal``), and reading goes on with the next line; a line nested too
    deep likewise (``nesting_refusal``). Memory stays at ``limit`` plus a piece, whatever
    comes in.
    """

    def __init__(
        self, pieces: Pieces, limit: int, refuse: Callable[[dict[str, Any]], Awaitable[None]]
    ) -> None:
        self._pieces = pieces
        self.limit = limit
        self._refuse = refuse

    async def readline(self) -> bytes:
        while True:
            line = await self._read()
            if isinstance(line, Oversized):
                await self._refuse(refusal(line, self.limit))
            elif too_deep(line):
                await self._refuse(nesting_refusal(line))
            else:
                return line

    async def _read(self) -> bytes | Oversized:
        parts: list[bytes] = []
        size = 0
        head = tail = b""
        while True:
            piece, last = await self._pieces.read_piece()
            size += len(piece)
            if len(head) < _PEEK:
                head = (head + piece[:_PEEK])[:_PEEK]
            tail = piece[-_PEEK:] if len(piece) >= _PEEK else (tail + piece)[-_PEEK:]
            over = size - (1 if piece.endswith(b"\n") else 0) > self.limit
            if over:
                parts.clear()  # what was kept goes: the line will not be used
            else:
                parts.append(piece)
            if last:
                if over:
                    return Oversized(size - (1 if tail.endswith(b"\n") else 0), head, tail)
                return parts[0] if len(parts) == 1 else b"".join(parts)


# A request's id, found without parsing the line. From the head: any top-level member
# before the huge value begins (a scan that skips strings and nested values, so an "id"
# inside params or inside a string never counts). From the tail: the last member (the
# TypeScript SDK writes method and params first, jsonrpc and id last).
_ID = rb'(-?\d+|"(?:[^"\\]|\\.){0,200}")'
_MEMBER_ID = re.compile(rb'"id"\s*:\s*' + _ID + rb"\s*[,}]")
_TAIL_ID = re.compile(rb'[{,]\s*"id"\s*:\s*' + _ID + rb"\s*\}\s*$")
_SKIP_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def _head_id(head: bytes) -> bytes | None:
    """The id's JSON text when ``head`` shows it as a top-level member."""
    start = head.find(b"{")
    if start < 0 or head[:start].strip():
        return None
    depth, at = 0, start
    while at < len(head):
        char = head[at : at + 1]
        if char == b'"':
            if depth == 1:
                found = _MEMBER_ID.match(head, at)
                if found is not None:
                    return found.group(1)
            string = _SKIP_STRING.match(head, at)
            if string is None:
                return None  # the head ends inside this string
            at = string.end()
            continue
        if char in b"{[":
            depth += 1
        elif char in b"}]":
            depth -= 1
        at += 1
    return None


def _peeked(line: bytes) -> Oversized:
    """What ``request_id`` reads of a line it must not parse (one nested too deep)."""
    return Oversized(len(line), line[:_PEEK], line[-_PEEK:])


def request_id(line: Oversized) -> int | str | None:
    """The JSON-RPC id of a request that is not parsed, when its first or last bytes show
    it."""
    if b'"method"' not in line.head and b'"method"' not in line.tail:
        return None  # not a request (or not JSON-RPC at all): nothing waits for an answer
    text = _head_id(line.head)
    if text is None:
        found = _TAIL_ID.search(line.tail)
        text = found.group(1) if found is not None else None
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, int | str) else None


def refusal(line: Oversized, limit: int) -> dict[str, Any]:
    """The JSON-RPC error answering an oversized line.

    It carries the request's id when the line shows it, so the client's call fails at once
    with this message; otherwise id null, as JSON-RPC prescribes when the id cannot be read
    (the SDK's client drops such an answer quietly, as it would a line skipped in silence,
    and a person reading the stream still sees why).
    """
    message = (
        f"the message is {line.size:,} bytes, over the limit of {limit:,} bytes for one MCP "
        f"message ({MESSAGE_LIMIT_ENV}); it was not read: send less in one call"
    )
    error = {"code": INVALID_REQUEST, "message": message}
    return {"jsonrpc": "2.0", "id": request_id(line), "error": error}


def nesting_message(what: str) -> str:
    return (
        f"{what} nests arrays and objects more than {MAX_NESTING} levels deep, over the "
        "nesting limit (xdb.interfaces.nesting.MAX_NESTING); it was not read: send flatter data"
    )


def nesting_refusal(line: bytes) -> dict[str, Any]:
    """The JSON-RPC error answering a line nested too deep, with the request's id when the
    line's first or last bytes show it (as ``refusal``)."""
    error = {"code": INVALID_REQUEST, "message": nesting_message("the message")}
    return {"jsonrpc": "2.0", "id": request_id(_peeked(line)), "error": error}


# --------------------------------------------------------------------------- HTTP bodies


@dataclass(frozen=True)
class Refusal:
    """A body refused unread, for the ``error`` that writes the answer its clients read."""

    status: int  # 413: over the size limit; 400: nested past the nesting limit
    kind: str  # the error envelope's type: payload_too_large, invalid_request
    message: str
    request_id: int | str | None = None  # a JSON-RPC request's, when its bytes show it


def jsonrpc_error(refused: Refusal) -> bytes:
    """A refused MCP body's answer: the request's id when the body's first or last bytes show
    it, else null (a body over the size limit is not read; the SDK's client gives the error
    to the call it posted all the same)."""
    error = {"code": INVALID_REQUEST, "message": refused.message}
    answer = {"jsonrpc": "2.0", "id": refused.request_id, "error": error}
    return json.dumps(answer).encode("utf-8")


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: a request body over its path's limit is answered with 413, one
    nested past ``MAX_NESTING`` with 400.

    ``limit(path)`` is the path's limit and the setting that sets it (None: not checked
    here); ``error(refusal)`` the response body, in the shape the path's clients read. The
    body is counted as it arrives (a ``Content-Length`` over the limit is refused before
    reading any of it), held up to the limit and handed to the app once complete: every
    route here reads its body whole anyway, and the app never sees a body it would have to
    refuse half-read. A complete body's depth is checked before any parser recurses into
    it (a form's is not: it is no JSON, and a bracket in a password means nothing).
    """

    def __init__(
        self,
        app: ASGIApp,
        limit: Callable[[str], tuple[int, str] | None],
        error: Callable[[Refusal], bytes],
        fail_open: Callable[[str], bool] = lambda path: False,
    ) -> None:
        self.app = app
        self._limit = limit
        self._error = error
        # Paths whose clients read any answer but 200 as a failure of their own (a coding
        # agent's hook: "go on" is 200 and {}), so a refusal is answered that way.
        self._fail_open = fail_open

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = self._limit(scope["path"]) if scope["type"] == "http" else None
        if found is None:
            await self.app(scope, receive, send)
            return
        limit, setting = found
        headers = dict(scope.get("headers") or ())
        declared = _int(headers.get(b"content-length"))
        if declared is not None and declared > limit:
            # Read on only when it is worth it and the client is not waiting to be asked.
            if declared <= limit + _DRAIN and headers.get(b"expect") != b"100-continue":
                await _drain(receive)
            await self._refuse(scope, send, (limit, setting), f"{declared:,} bytes")
            return
        kept: deque[Message] = deque()
        size = 0
        while True:
            message = await receive()
            kept.append(message)
            if message["type"] != "http.request":
                break  # the client left: the app sees it as it would have
            size += len(message.get("body", b""))
            if size > limit:
                kept.clear()
                rest = await _drain(receive) if message.get("more_body", False) else 0
                shown = f"{size + rest:,} bytes" if rest is not None else f"over {size:,} bytes"
                await self._refuse(scope, send, (limit, setting), shown)
                return
            if not message.get("more_body", False):
                break
        if not _is_form(headers.get(b"content-type", b"")):
            body = b"".join(m.get("body", b"") for m in kept if m["type"] == "http.request")
            if too_deep(body):
                where = f"{scope.get('method', 'POST')} {scope['path']}"
                said = nesting_message(f"the request body of {where}")
                asked = request_id(_peeked(body))
                await self._answer(scope, send, Refusal(400, "invalid_request", said, asked))
                return

        async def replay() -> Message:
            return kept.popleft() if kept else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, send: Send, limit: tuple[int, str], size: str) -> None:
        where = f"{scope.get('method', 'POST')} {scope['path']}"
        message = (
            f"the request body ({size}) is over the limit of {limit[0]:,} bytes for {where} "
            f"({limit[1]}); send less in one request"
        )
        await self._answer(scope, send, Refusal(413, "payload_too_large", message))

    async def _answer(self, scope: Scope, send: Send, refused: Refusal) -> None:
        status, body = refused.status, self._error(refused)
        if self._fail_open(scope["path"]):
            log.warning("%s %s refused: %s", scope.get("method"), scope["path"], refused.message)
            status, body = 200, b"{}"
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        if refused.status == 413:
            headers.append((b"connection", b"close"))  # the rest of the body is not read
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


async def _drain(receive: Receive) -> int | None:
    """Read and drop the rest of a body: its size, or None when it ran past ``_DRAIN`` bytes
    (what is left is not read) or the client left."""
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        size += len(message.get("body", b""))
        if not message.get("more_body", False):
            return size
        if size > _DRAIN:
            return None


def _is_form(content_type: bytes) -> bool:
    kind = content_type.split(b";", 1)[0].strip().lower()
    return kind in (b"application/x-www-form-urlencoded", b"multipart/form-data")


def _int(value: bytes | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None
