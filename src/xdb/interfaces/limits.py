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

This module imports nothing heavy: ``stdio`` uses it while the SDK loads.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Protocol

from xdb.errors import InvalidRequest

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
    """``readline`` that never returns (nor holds) a line over ``limit`` bytes.

    A longer line is read on in pieces and dropped; ``refuse`` is told about it, and reading
    goes on with the next line. Memory stays at ``limit`` plus a piece, whatever comes in.
    """

    def __init__(
        self, pieces: Pieces, limit: int, refuse: Callable[[Oversized], Awaitable[None]]
    ) -> None:
        self._pieces = pieces
        self.limit = limit
        self._refuse = refuse

    async def readline(self) -> bytes:
        while True:
            line = await self._read()
            if not isinstance(line, Oversized):
                return line
            await self._refuse(line)

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


def request_id(line: Oversized) -> int | str | None:
    """The JSON-RPC id of an oversized request, when its first or last bytes show it."""
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


# --------------------------------------------------------------------------- HTTP bodies


def jsonrpc_error(message: str) -> bytes:
    """A refused MCP body's answer: id null, since the body was not read (the SDK's client
    gives the error to the call it posted all the same)."""
    error = {"code": INVALID_REQUEST, "message": message}
    return json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode("utf-8")


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: a request body over its path's limit is answered with 413.

    ``limit(path)`` is the path's limit and the setting that sets it (None: not checked
    here); ``error(message)`` the response body, in the shape the path's clients read. The
    body is counted as it arrives (a ``Content-Length`` over the limit is refused before
    reading any of it), held up to the limit and handed to the app once complete: every
    route here reads its body whole anyway, and the app never sees a body it would have to
    refuse half-read.
    """

    def __init__(
        self,
        app: ASGIApp,
        limit: Callable[[str], tuple[int, str] | None],
        error: Callable[[str], bytes],
    ) -> None:
        self.app = app
        self._limit = limit
        self._error = error

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

        async def replay() -> Message:
            return kept.popleft() if kept else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, send: Send, limit: tuple[int, str], size: str) -> None:
        where = f"{scope.get('method', 'POST')} {scope['path']}"
        message = (
            f"the request body ({size}) is over the limit of {limit[0]:,} bytes for {where} "
            f"({limit[1]}); send less in one request"
        )
        body = self._error(message)
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
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


def _int(value: bytes | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None
