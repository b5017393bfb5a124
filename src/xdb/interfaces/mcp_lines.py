"""The MCP server over a line source and a line sink, read and written in place (``stdio``).

The SDK's own stdio transport reads and writes in tasks of their own and hands each message
over a memory stream; reading and writing in place saves those task switches on every
message. Parsing and its errors are the SDK transport's own.

At the end of input the reader waits until every request it handed over has been answered
(or cancelled by the client): the SDK ends its session when its input ends and would drop
calls still running (``xdb mcp < requests.jsonl`` must answer them all). Requests are
counted as the SDK parses them, so a line the SDK passes over (an id of the wrong type, a
``jsonrpc`` other than "2.0") is not waited for. A request the SDK cannot read but whose id
can be told is answered with a JSON-RPC error rather than passed over in silence.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import suppress
from typing import TYPE_CHECKING, Any, Self

import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

if TYPE_CHECKING:
    from xdb.interfaces.stdio import LineSink

__all__ = ["serve_lines"]


class _InPlaceStream:
    """What the SDK's stream protocols ask besides reading or writing: nothing to open or
    close, since the lines' source and sink belong to the caller of ``serve_lines``."""

    async def aclose(self) -> None:
        pass

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        pass


def _key(request_id: Any) -> Any:
    # The SDK's correlation rule: "7" and 7 are one id.
    if isinstance(request_id, str):
        try:
            return int(request_id)
        except ValueError:
            pass
    return request_id


class _Outstanding:
    """The requests handed to the SDK and not answered yet, by id."""

    def __init__(self) -> None:
        self._ids: Counter[Any] = Counter()
        self._changed = anyio.Event()

    def asked(self, request_id: Any) -> None:
        self._ids[_key(request_id)] += 1

    def settled(self, request_id: Any) -> None:
        """Answered, or cancelled by the client (the SDK never answers a cancelled call)."""
        key = _key(request_id)
        if self._ids[key] > 1:
            self._ids[key] -= 1
        else:
            self._ids.pop(key, None)
        self._changed.set()

    def forget(self) -> None:
        """Nothing more can be answered (the output failed)."""
        self._ids.clear()
        self._changed.set()

    async def none_left(self) -> None:
        while self._ids:
            self._changed = anyio.Event()
            await self._changed.wait()


class _LineReader(_InPlaceStream):
    """The server's read stream: parses each line of the client's as it is asked for."""

    def __init__(self, lines: AsyncIterator[str], outstanding: _Outstanding) -> None:
        self._lines = lines
        self._outstanding = outstanding
        self.stopped = False
        self.writer: _LineWriter | None = None

    async def _refuse(self, line: str, exc: Exception) -> None:
        """Answer a request the SDK cannot read, when its id can be told.

        The SDK's stdio transport passes over such a line in silence, and the client's call
        would wait for ever: a lone surrogate escape (``"\\ud83d"``, half an emoji, which
        JavaScript's JSON.stringify writes) is JSON to Python but not to pydantic's parser,
        and a request with a field of the wrong type (``"method": 7``) is no request to it.
        A line whose id cannot be told is still passed over, as the SDK does.
        """
        try:
            request = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, or nested past Python's parser
            return
        if not isinstance(request, dict) or "method" not in request:
            return  # not a request: nothing waits for an answer
        request_id = request.get("id")
        if not isinstance(request_id, int | str) or isinstance(request_id, bool):
            return
        errors = exc.errors() if isinstance(exc, ValidationError) else []
        unreadable = any(e["type"] == "json_invalid" for e in errors)
        # What is wrong with it as a request (the union's other members say less).
        as_request = [e for e in errors if e["loc"][:1] == ("JSONRPCRequest",)] or errors
        detail = str(exc)
        if as_request:
            where = ".".join(str(part) for part in as_request[0]["loc"][1:])
            detail = f"{where}: {as_request[0]['msg']}" if where else as_request[0]["msg"]
        if unreadable and "escape" in detail:
            detail += " (\\ud800-\\udfff escapes must come in pairs: a lone one is no character)"
        error = types.ErrorData(
            code=types.PARSE_ERROR if unreadable else types.INVALID_REQUEST,
            message=f"{'parse error' if unreadable else 'invalid request'}: {detail}",
        )
        answer = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=error)
        if self.writer is not None:
            with suppress(anyio.BrokenResourceError):  # the output failed: serving stops
                await self.writer.send(SessionMessage(answer))

    async def receive(self) -> SessionMessage | Exception:
        if self.stopped:
            raise anyio.EndOfStream
        try:
            line = await anext(self._lines)
        except StopAsyncIteration:
            await self._outstanding.none_left()
            raise anyio.EndOfStream from None
        try:
            message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except Exception as exc:  # handed over as the SDK's transport does (it skips it)
            await self._refuse(line, exc)
            return exc
        if isinstance(message, types.JSONRPCRequest):
            self._outstanding.asked(message.id)
        elif (
            isinstance(message, types.JSONRPCNotification)
            and message.method == "notifications/cancelled"
        ):
            cancelled = (message.params or {}).get("requestId")
            if isinstance(cancelled, int | str) and not isinstance(cancelled, bool):
                self._outstanding.settled(cancelled)
        return SessionMessage(message)

    def __aiter__(self) -> _LineReader:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None


class _LineWriter(_InPlaceStream):
    """The server's write stream: each answer goes out as one line when it is sent.

    When the output fails (the client has gone, or a file is full), serving stops as it
    does when the SDK's writer task fails: nothing more is read, the answers still to come
    are dropped as the SDK drops them on a broken stream, and ``serve_lines`` raises the
    error once the server is done.
    """

    def __init__(self, sink: LineSink, reader: _LineReader, outstanding: _Outstanding) -> None:
        self._sink = sink
        self._reader = reader
        self._outstanding = outstanding
        self.failed: OSError | None = None

    async def send(self, item: SessionMessage, /) -> None:
        if self.failed is not None:
            raise anyio.BrokenResourceError from self.failed
        message = item.message
        text = message.model_dump_json(by_alias=True, exclude_unset=True)
        try:
            await self._sink.write(text + "\n")
            await self._sink.flush()
        except OSError as exc:
            self.failed = exc
            self._reader.stopped = True
            self._outstanding.forget()
            raise anyio.BrokenResourceError from exc
        if (
            isinstance(message, types.JSONRPCResponse | types.JSONRPCError)
            and message.id is not None
        ):
            self._outstanding.settled(message.id)


async def serve_lines(server: Server[Any], lines: AsyncIterator[str], sink: LineSink) -> None:
    """Run ``server`` over a line source and sink until the source ends and every request
    read is answered (see ``stdio``)."""
    outstanding = _Outstanding()
    reader = _LineReader(lines, outstanding)
    writer = reader.writer = _LineWriter(sink, reader, outstanding)
    await server.run(reader, writer, server.create_initialization_options())
    if writer.failed is not None:
        raise writer.failed
