"""The MCP interface: one tool per registered operation, served over stdio or streamable HTTP.

This is the only module of xdb that imports the ``mcp`` SDK, so ``import xdb`` stays light.
Tools are generated from the operation registry: name ``xdb_record`` (or ``xdb.record`` with
dotted names), the request model's docstring as description and its JSON schema as input
schema, the response model's schema as output schema. Every call goes through
``Database.run`` in a worker thread, so the event loop never blocks on SQLite, and every
``XdbError`` comes back as an ``isError`` result the model can read and correct.

``xdb mcp`` serves a database over stdio (see ``stdio`` for how it answers before the SDK
has even loaded).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from xdb import __version__
from xdb.core import Database, connect
from xdb.errors import XdbError
from xdb.interfaces import limits
from xdb.interfaces.auth import request_caller
from xdb.interfaces.mcp_lines import serve_lines
from xdb.ops.registry import Operation, agent_groups, operations

if TYPE_CHECKING:
    from starlette.types import ASGIApp


__all__ = ["build_server", "recorded_answers", "serve_lines", "streamable_http"]

logger = logging.getLogger(__name__)

# Claude Code exposes a tool as ``mcp__<server>__<tool>`` and requires the whole name to match
# this pattern, so undotted names must leave room for that prefix.
_TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_CLIENT_PREFIX = "mcp__xdb__"

# Operations whose repetition with the same arguments changes nothing (create_tag returns the
# existing tag); the other writes append a new timestep, application or comment each time.

_INSTRUCTIONS = (
    "xdb is your experience database. Record what happens (inputs, outputs, tool calls) with "
    "xdb_record, label moments with xdb_tag, annotate with xdb_comment, and recall with "
    "xdb_query (filters + full-text, paged by cursor) or xdb_recent. xdb_status shows counts."
)


def _tool(op: Operation[Any, Any], name: str) -> types.Tool:
    input_schema = op.request.model_json_schema()
    # MCP requires an object schema at the root; every request model is one, but say so
    # explicitly in case a future model's schema is a bare $ref.
    input_schema.setdefault("type", "object")
    output_schema = op.response.model_json_schema(mode="serialization")
    output_schema.setdefault("type", "object")
    return types.Tool(
        name=name,
        description=op.description,
        input_schema=input_schema,
        output_schema=output_schema,
        annotations=types.ToolAnnotations(
            read_only_hint=op.readonly,
            destructive_hint=op.destructive,
            idempotent_hint=op.readonly or op.idempotent,
            open_world_hint=False,  # a local database, not the outside world
        ),
    )


def _check_name(name: str, dotted: bool) -> None:
    if dotted:
        ok = 0 < len(name) <= 64 and re.fullmatch(r"[a-zA-Z0-9_.-]+", name) is not None
    else:
        ok = _TOOL_NAME.fullmatch(_CLIENT_PREFIX + name) is not None
    if not ok:
        raise ValueError(f"operation tool name {name!r} is not a valid MCP tool name")


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


def _describe(exc: XdbError) -> str:
    """``<type>: <message>``, and `` (field <field>)`` when the message does not start by
    naming it: after "event_type: is required; content: is required" a trailing "(field
    event_type)" read as if it were about content."""
    text = f"{exc.code}: {exc.message}"
    if exc.field is None or exc.message.startswith(f"{exc.field}:"):
        return text
    return f"{text} (field {exc.field})"


def build_server(
    db: Database,
    *,
    dotted_names: bool = False,
    groups: set[str] | None = None,
    inline: bool = False,
) -> Server[Any]:
    """An MCP server exposing one tool per registered operation of ``groups`` (None: the
    agent's toolset, every group whose operations are offered to the agent; the policy
    group's management operations are served only when named).

    ``inline`` runs each call on the event loop instead of a worker thread: right for stdio,
    where one client waits for each answer anyway, and it saves a thread hop per call.
    """
    ops: dict[str, Operation[Any, Any]] = {}
    tools: list[types.Tool] = []
    for op in operations(groups or agent_groups()):
        name = op.tool_name(dotted_names)
        _check_name(name, dotted_names)
        ops[name] = op
        tools.append(_tool(op, name))
    schemas = {tool.name: tool.input_schema for tool in tools}

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        op = ops.get(params.name)
        if op is None:
            return _error(f"not_found: unknown tool {params.name!r}; known: {', '.join(ops)}")
        try:
            # Over HTTP, the caller its API key names (interfaces.auth); else the server's.
            call = partial(db.run, op, params.arguments or {}, caller=request_caller(ctx.request))
            # SQLite work blocks; with several clients (HTTP) a worker thread keeps the event
            # loop free for the others.
            response = call() if inline else await anyio.to_thread.run_sync(call)
        except XdbError as exc:
            return _error(_describe(exc))
        except Exception as exc:
            # A bug, not bad input: log the traceback here, give the client one line only.
            logger.exception("tool %s failed", params.name)
            return _error(f"internal_error: {params.name} failed ({type(exc).__name__}: {exc})")
        data = response.model_dump(mode="json")
        return types.CallToolResult(
            content=[types.TextContent(text=json.dumps(data, ensure_ascii=False))],
            structured_content=data,
        )

    return Server(
        "xdb",
        version=__version__,
        instructions=_INSTRUCTIONS,
        # Lets the HTTP transport validate Mcp-Param headers without calling list_tools.
        get_tool_input_schema=schemas.get,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


class _Sink:
    """Collects the server's answers; lets the asker wait for each before sending more."""

    def __init__(self) -> None:
        self.answers: dict[Any, Any] = {}
        self.arrived = anyio.Event()

    async def write(self, text: str) -> None:
        message = json.loads(text)
        if "id" in message:
            self.answers[message["id"]] = message.get("result", message.get("error"))
            self.arrived.set()

    async def flush(self) -> None:
        pass


async def _ask(server: Server[Any], requests: list[dict[str, Any]]) -> list[Any]:
    sink = _Sink()

    async def lines() -> AsyncIterator[str]:
        # One at a time, as a client would: the transport ends when the lines do.
        for request in requests:
            yield json.dumps(request) + "\n"
            while "id" in request and request["id"] not in sink.answers:
                await sink.arrived.wait()
                sink.arrived = anyio.Event()

    await serve_lines(server, lines(), sink)
    return [sink.answers[r["id"]] for r in requests if "id" in r]


def recorded_answers() -> dict[str, Any]:
    """What the SDK answers to a client's opening requests, for ``stdio``'s quick front.

    For each naming: per stateless protocol version, the ``server/discover`` answer; per
    handshake version, the ``initialize`` answer; per version, the ``tools/list`` answer
    except its tools, which every version lists alike (kept once); and each tool's group.
    """
    client = {"name": "xdb-recorder", "version": "0"}
    out: dict[str, Any] = {"xdb": __version__, "mcp": _sdk_version()}
    every_group = {op.group for op in operations()}
    with connect(":memory:") as db:
        for naming, dotted in (("underscore", False), ("dotted", True)):
            server = build_server(db, dotted_names=dotted, groups=every_group)
            modern = {}
            for version in MODERN_PROTOCOL_VERSIONS:
                meta = {
                    "_meta": {
                        "io.modelcontextprotocol/protocolVersion": version,
                        "io.modelcontextprotocol/clientInfo": client,
                        "io.modelcontextprotocol/clientCapabilities": {},
                    }
                }
                asked = [
                    {"jsonrpc": "2.0", "id": i, "method": m, "params": meta}
                    for i, m in enumerate(("server/discover", "tools/list"))
                ]
                discover, tools = anyio.run(_ask, server, asked)
                modern[version] = {"server/discover": discover, "tools/list": tools}
            handshake = {}
            for version in HANDSHAKE_PROTOCOL_VERSIONS:
                init = {"protocolVersion": version, "capabilities": {}, "clientInfo": client}
                asked = [
                    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
                    {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                ]
                initialized, tools = anyio.run(_ask, server, asked)
                handshake[version] = {"initialize": initialized, "tools/list": tools}
            # Every version lists the same tools: keep one copy, not one per version; each
            # version keeps the rest of its tools/list answer.
            lists = [v["tools/list"].pop("tools") for v in (*modern.values(), *handshake.values())]
            if any(tools != lists[0] for tools in lists):
                raise RuntimeError("the SDK lists tools differently per protocol version")
            groups = {op.tool_name(dotted): op.group for op in operations()}
            out[naming] = {
                "modern": modern,
                "handshake": handshake,
                "tools": lists[0],
                "groups": groups,
                "agent_groups": sorted(agent_groups()),
            }
    return out


def _sdk_version() -> str:
    from importlib.metadata import version

    return version("mcp")


def streamable_http(
    db: Database,
    *,
    dotted_names: bool = False,
    groups: set[str] | None = None,
    allowed_hosts: Sequence[str] = (),
    message_limit: int | None = None,
    guarded: bool = False,
) -> tuple[ASGIApp, Callable[[], AbstractAsyncContextManager[None]]]:
    """An ASGI app serving the MCP streamable HTTP endpoint, and the lifespan it needs.

    Mount the app as a plain route (not ``Mount``, which would answer ``/mcp/`` only) and
    enter the lifespan for as long as the host app runs::

        mcp_app, mcp_lifespan = streamable_http(db)

        @asynccontextmanager
        async def lifespan(app: FastAPI) -> AsyncIterator[None]:
            async with mcp_lifespan():
                yield

        app = FastAPI(lifespan=lifespan)
        app.router.routes.append(Route("/mcp", endpoint=mcp_app))  # starlette.routing.Route

    A ``Route`` whose endpoint is not a function passes every method (POST, GET, DELETE)
    straight to the ASGI app. The endpoint is stateless and answers with JSON rather than SSE:
    the tools never talk back to the client mid-call, so there is no session to keep.
    Requests are refused unless their Host is localhost/127.0.0.1/[::1] (any port) or one of
    ``allowed_hosts`` (``"host:port"`` or ``"host:*"``), against DNS rebinding, and a page
    on another origin may not post (``guarded``: the host app checks both already, as
    ``xdb serve`` does for every route with ``interfaces.guard``). A body over
    ``message_limit`` bytes (None: ``XDB_MAX_MESSAGE_BYTES``, else 64 MiB) is answered with
    413 and a JSON-RPC error naming the limit, which the SDK's client hands to the caller.
    """
    limit = limits.message_limit() if message_limit is None else message_limit
    server = build_server(db, dotted_names=dotted_names, groups=groups)
    local = ("127.0.0.1", "localhost", "[::1]")
    hosts = [*local, *(f"{h}:*" for h in local), *allowed_hosts]
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=not guarded,
        allowed_hosts=hosts,
        allowed_origins=[f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")],
    )
    manager = StreamableHTTPSessionManager(
        app=server,
        stateless=True,
        json_response=True,
        security_settings=security,
        # The SDK's own check (a plain-text 413 its client reports as "Server returned an
        # error response") sees only what passed ours.
        max_request_body_size=limit,
    )

    checked = limits.BodyLimit(
        StreamableHTTPASGIApp(manager),
        lambda path: (limit, limits.MESSAGE_LIMIT_ENV),
        limits.jsonrpc_error,
    )
    return checked, manager.run
