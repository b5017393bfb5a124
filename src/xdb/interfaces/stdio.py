"""MCP over stdin/stdout: answer the client's first requests at once, then hand over to the SDK.

Importing the ``mcp`` SDK takes about a second here (it builds several hundred pydantic
models), longer than a client should wait for ``tools/list``. So ``serve`` starts loading the
SDK, the database and the server on a worker thread and, meanwhile, answers the requests
every client opens with (``server/discover``, ``initialize``, ``tools/list``) from answers
the SDK itself gave, recorded in the user's cache (``mcp_answers``: a file per fingerprint of
xdb's sources and the SDK's version). Without that file (the first start, or after an
upgrade or an edit), the SDK answers everything, and once it has loaded the answers are
written for the next start, on a worker thread the server waits for before it exits (a
client that leaves before asking anything leaves them unwritten).
The first request the front has no recorded answer for waits for the SDK, which from then on
serves everything. A recorded ``initialize`` is replayed to the SDK under a private id whose
answer is dropped, so its session is initialised exactly as the client asked; the stateless
(2026-07-28) era needs no replay at all.

The SDK reads and writes through asyncio pipes rather than its default file wrappers, which
hop to a worker thread for every line read, written and flushed (~0.3 ms a call here), and
its server reads and writes them in place rather than through the transport's reader and
writer tasks (``mcp_lines.serve_lines``): a call takes 6 turns of the event loop instead of 10.

A line longer than the message limit (``XDB_MAX_MESSAGE_BYTES``, 64 MiB by default) is
read on and dropped in pieces, never held whole, and answered here with a JSON-RPC error;
so is a line nested more than 128 levels deep (``nesting``); the next line is served as
usual (``limits``).

This module does not import the SDK: it is what runs while the SDK loads.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import stat
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from xdb.interfaces import mcp_answers
from xdb.interfaces.limits import BoundedLines, Pieces, StreamPieces, message_limit
from xdb.interfaces.mcp_profiles import DEFAULT as DEFAULT_PROFILE

if TYPE_CHECKING:
    from pathlib import Path

    from xdb.core import Database

logger = logging.getLogger(__name__)

# The id under which a recorded initialize is replayed to the SDK; its answer is not sent.
REPLAY_ID = "xdb-replayed-initialize"
# How the SDK writes the start of its answer to the replayed initialize.
_REPLAYED_ANSWER = f'{{"jsonrpc":"2.0","id":"{REPLAY_ID}",'
_META_VERSION = "io.modelcontextprotocol/protocolVersion"
_META_CLIENT = "io.modelcontextprotocol/clientInfo"
_META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"


class LineSink(Protocol):
    async def write(self, text: str) -> None: ...

    async def flush(self) -> None: ...


# ``serve_lines(lines, sink)`` runs the SDK server until ``lines`` ends.
Runner = Callable[["Lines", LineSink], Awaitable[None]]


class Lines:
    """The client's lines as the SDK reads them: replayed ones first, then the pipe (at the
    end of input, ``serve_lines`` waits for the answers still to come)."""

    def __init__(
        self, first: list[str], pending: asyncio.Future[bytes] | None, reader: BoundedLines
    ) -> None:
        self._first = first
        self._pending = pending
        self._reader = reader

    def __aiter__(self) -> Lines:
        return self

    async def __anext__(self) -> str:
        if self._first:
            return self._first.pop(0)
        if self._pending is not None:
            line, self._pending = await self._pending, None
        else:
            line = await self._reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


class _Out:
    """Writes the SDK's lines to the pipe, dropping the answer to a replayed initialize."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer
        self.drop_replayed = False

    async def write(self, text: str) -> None:
        if self.drop_replayed and text.startswith(_REPLAYED_ANSWER):
            self.drop_replayed = False
            return
        self._writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self._writer.drain()


class Front:
    """Answers the opening requests from the SDK's recorded answers, while it loads."""

    def __init__(
        self, answers: dict[str, Any], groups: set[str] | None, profile: str | None = None
    ) -> None:
        self._answers = answers
        # The tools of the profile (default: the agent's), or every tool of the groups named.
        if groups is not None:
            self._tools = [t for t in answers["tools"] if answers["groups"][t["name"]] in groups]
        else:
            chosen = answers["profiles"][profile or DEFAULT_PROFILE]
            pool = {tool["name"]: tool for tool in answers["tools"]}
            self._tools = chosen.get("tools") or [pool[name] for name in chosen["names"]]
        self.version: str | None = None  # the handshake era's negotiated version
        self.replay: list[str] = []  # lines the SDK must see before the rest

    def answer(self, line: bytes) -> dict[str, Any] | None:
        """The reply to ``line``, or None when only the SDK can answer it."""
        try:
            msg = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, or nested past Python's parser
            return None
        # Only a message the SDK would take as it is gets a recorded answer; anything odd (an
        # id that is no string or integer, a version that is no string, a client that does not
        # say who it is) goes to the SDK, which answers or passes over it its own way.
        if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
            return None
        method, params = msg.get("method"), msg.get("params")
        params = {} if params is None else params
        if not isinstance(method, str) or not isinstance(params, dict):
            return None
        meta = params.get("_meta")
        modern = meta.get(_META_VERSION) if isinstance(meta, dict) else None
        if "id" not in msg:
            if method == "notifications/initialized" and self.version is not None:
                self.replay.append(line.decode("utf-8"))
                return {}  # nothing to send: a notification has no answer
            return None
        if not _is_id(msg["id"]):
            return None
        known: dict[str, Any] | None = None
        if modern is not None:
            assert isinstance(meta, dict)
            client = meta.get(_META_CLIENT), meta.get(_META_CAPABILITIES)
            if isinstance(modern, str) and _is_client(*client):
                known = self._answers["modern"].get(modern)
        elif method == "initialize" and self.version is None:
            version = params.get("protocolVersion")
            client = params.get("clientInfo"), params.get("capabilities")
            if isinstance(version, str) and _is_client(*client):
                known = self._answers["handshake"].get(version)
            if known is not None:
                self.version = version
                self.replay.append(json.dumps({**msg, "id": REPLAY_ID}) + "\n")
        elif self.version is not None and method != "initialize":
            known = self._answers["handshake"][self.version]
        if known is None or (set(params) - {"_meta"} and method != "initialize"):
            return None  # unknown era or version, or a cursor: the SDK decides
        if method not in known:
            return None  # a method the SDK has to answer itself
        result = known[method]
        if method == "tools/list":
            result = {**result, "tools": self._tools}
        return {"jsonrpc": "2.0", "id": msg["id"], "result": result}


def _is_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _is_client(info: Any, capabilities: Any) -> bool:
    """A client's name, version and capabilities, as far as can be told without the SDK."""
    return (
        isinstance(info, dict)
        and isinstance(info.get("name"), str)
        and isinstance(info.get("version"), str)
        and isinstance(capabilities, dict)
        and all(isinstance(v, dict) for v in capabilities.values())
    )


class _FilePieces:
    """Pieces of the lines of a stdin the event loop cannot wait on (``_selectable``)."""

    def __init__(self, fd: int) -> None:
        self._file = os.fdopen(fd, "rb")

    async def read_piece(self) -> tuple[bytes, bool]:
        piece = self._file.readline(StreamPieces.PIECE)
        return piece, len(piece) < StreamPieces.PIECE or piece.endswith(b"\n")


class _FileWriter:
    def __init__(self, fd: int) -> None:
        self._file = os.fdopen(fd, "wb")

    def write(self, data: bytes) -> None:
        self._file.write(data)

    async def drain(self) -> None:
        self._file.flush()


def _claim_stdio() -> tuple[int, int]:
    """Private copies of fds 0 and 1; fd 1 then points at stderr so a stray print from any
    library lands there instead of corrupting the protocol stream, and fd 0 at /dev/null."""
    rfd, wfd = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    return rfd, wfd


def _selectable(fd: int) -> bool:
    """Whether the event loop can wait on ``fd``: a pipe, a socket or a terminal. A regular
    file or another device (``xdb mcp < /dev/null``) is refused by epoll, and is read and
    written directly instead, where a read never waits long."""
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)


async def _open(rfd: int, wfd: int) -> tuple[Pieces, Any]:
    loop = asyncio.get_running_loop()
    pieces: Pieces
    writer: Any
    if not _selectable(rfd):
        pieces = _FilePieces(rfd)
    else:
        # The stream holds at most a piece or two: a long line is put together (or, over the
        # limit, dropped) piece by piece by BoundedLines.
        reader = asyncio.StreamReader(limit=StreamPieces.PIECE)
        proto = asyncio.StreamReaderProtocol(reader)
        await loop.connect_read_pipe(lambda: proto, os.fdopen(rfd, "rb", buffering=0))
        pieces = StreamPieces(reader)
    if not _selectable(wfd):
        writer = _FileWriter(wfd)
    else:
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, os.fdopen(wfd, "wb", buffering=0)
        )
        writer = asyncio.StreamWriter(transport, protocol, None, loop)
    return pieces, writer


async def _serve(
    load: Callable[[], Runner],
    front: Front | None,
    limit: int,
    record: Callable[[], object] | None = None,
) -> None:
    pieces, writer = await _open(*_claim_stdio())

    async def refuse(reply: dict[str, Any]) -> None:
        # Answered here, before the SDK sees anything: its reader would have to hold the
        # whole line, and the asyncio stream's limit error ended the SDK's session (every
        # later call got "Connection closed"); a line nested past every parser's depth was
        # passed over in silence, the client's call waiting for ever. One line on stderr
        # says it too.
        print(f"xdb mcp: {reply['error']['message']}", file=sys.stderr, flush=True)
        writer.write(json.dumps(reply, separators=(",", ":")).encode("utf-8") + b"\n")
        await writer.drain()

    reader = BoundedLines(pieces, limit, refuse)
    loading = asyncio.get_running_loop().run_in_executor(None, load)
    out = _Out(writer)
    pending: asyncio.Future[bytes] | None = None
    while not loading.done():
        if pending is None:
            pending = asyncio.ensure_future(reader.readline())
        either: set[asyncio.Future[Any]] = {pending, loading}
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if not pending.done():
            break  # loaded: the SDK takes the read in flight
        line = pending.result()
        if not line:
            return  # the client left before asking anything only the SDK can answer
        reply = None if front is None else front.answer(line)
        if reply is None:
            break  # the SDK answers this one, and everything after it
        pending = None
        if reply:
            writer.write(json.dumps(reply, separators=(",", ":")).encode("utf-8") + b"\n")
            await writer.drain()
    run = await loading
    # The SDK is loaded: ``record`` writes its answers for the next start meanwhile, waited
    # for here while the loop still holds the pipes (collected after it closes, they warn).
    recording = None if record is None else asyncio.ensure_future(asyncio.to_thread(record))
    replay = [] if front is None else front.replay
    out.drop_replayed = any(REPLAY_ID in line for line in replay)
    try:
        await run(Lines(replay, pending, reader), out)
    finally:
        if recording is not None:
            await recording


def serve(
    open_db: Callable[[], Database],
    *,
    dotted_names: bool = False,
    groups: set[str] | None = None,
    profile: str | None = None,
    line_limit: int | None = None,
) -> None:
    """Serve the database ``open_db()`` opens on stdin/stdout until the client closes stdin:
    the tools of ``profile`` (None: the agent's, ``mcp_profiles``), or every tool of
    ``groups``.

    The SDK import, ``open_db`` and the server's construction run on a worker thread while
    the opening requests are answered from the cached answers (``mcp_answers``); without
    them the SDK answers everything, and they are written on another worker thread once it
    has loaded (blocks until the client leaves and they are written). A line (one message)
    over ``line_limit`` bytes (default: ``XDB_MAX_MESSAGE_BYTES``, else 64 MiB), or nested
    past ``nesting.MAX_NESTING``, is dropped unread and answered with a JSON-RPC error
    (``limits``).
    """
    limit = message_limit() if line_limit is None else line_limit
    opened: list[Database] = []
    try:
        fingerprint = mcp_answers.fingerprint()
        path = mcp_answers.answers_path(fingerprint)
        front = _front(mcp_answers.load(path, fingerprint), dotted_names, groups, profile)
        cached: Path | None = path
    except Exception as exc:  # no home to cache in, a mangled stamp: serve without the cache
        logger.debug("not using the cached MCP answers: %r", exc)
        fingerprint, cached, front = "", None, None

    def load() -> Runner:
        from xdb.interfaces.mcp import build_server, serve_lines

        opened.append(open_db())
        server = build_server(
            opened[0],
            dotted_names=dotted_names,
            groups=groups,
            profile=DEFAULT_PROFILE if profile is None and groups is None else profile,
            inline=True,
        )
        return partial(serve_lines, server)

    # Without cached answers, the SDK answers everything, and once loaded records them.
    record = (
        None
        if front is not None or cached is None
        else partial(mcp_answers.store, cached, fingerprint)
    )
    try:
        asyncio.run(_serve(load, front, limit, record))
    finally:
        for db in opened:
            db.close()


def _front(
    recorded: dict[str, Any] | None,
    dotted_names: bool,
    groups: set[str] | None,
    profile: str | None,
) -> Front | None:
    """The quick front over the cached answers, or None when there are none to use."""
    if recorded is None:
        return None
    try:
        return Front(recorded["dotted" if dotted_names else "underscore"], groups, profile)
    except (KeyError, TypeError, AttributeError) as exc:  # a set this xdb cannot read
        logger.debug("not answering from the cached MCP answers: %r", exc)
        return None
