"""The MCP interface: one tool per operation of a profile, served over stdio or streamable HTTP.

This is the only module of xdb that imports the ``mcp`` SDK, so ``import xdb`` stays light.
Tools are generated from the operation registry through a profile (``mcp_profiles``: which
operations, under which names, with which descriptions): name ``xdb_record`` (or
``xdb.record`` with dotted names), the request model's docstring as description and its JSON
schema as input schema, the response model's schema as output schema (the ``agent`` profile
words and trims its own). Every call goes through ``Database.run`` in a worker thread, so the
event loop never blocks on SQLite, and every ``XdbError`` comes back as an ``isError`` result
the model can read and correct.

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
from urllib.parse import parse_qs

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
from xdb.interfaces.mcp_profiles import DEFAULT, PROFILES, Spec, estimate_tokens, specs
from xdb.ops.catalog import operations
from xdb.ops.registry import Operation

if TYPE_CHECKING:
    from starlette.types import ASGIApp


__all__ = [
    "build_server",
    "profile_sizes",
    "recorded_answers",
    "serve_lines",
    "streamable_http",
]

logger = logging.getLogger(__name__)

# Claude Code exposes a tool as ``mcp__<server>__<tool>`` and requires the whole name to match
# this pattern, so undotted names must leave room for that prefix.
_TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_CLIENT_PREFIX = "mcp__xdb__"

# The same for every profile (a profile's tools say what each is for).
_INSTRUCTIONS = (
    "xdb is your experience database: record what happens as it happens, label and annotate "
    "it, and recall it later by words, filters or meaning. Every answer is JSON."
)
# The query parameter of /mcp naming a profile (``/mcp?profile=full``).
PROFILE_PARAMETER = "profile"


def _tool(spec: Spec) -> types.Tool:
    op = spec.op
    annotations = types.ToolAnnotations(
        read_only_hint=op.readonly,
        destructive_hint=op.destructive,
        idempotent_hint=op.readonly or op.idempotent,
        open_world_hint=False,  # a local database, not the outside world
    )
    if spec.lean and op.readonly:
        # The destructive and idempotent hints mean something only for a tool that writes.
        annotations = types.ToolAnnotations(read_only_hint=True, open_world_hint=False)
    return types.Tool(
        name=spec.name,
        description=spec.description,
        input_schema=spec.input_schema,
        output_schema=spec.output_schema,
        annotations=annotations,
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


class _Table:
    """The tools a server lists, and the operation behind each name."""

    def __init__(self, chosen: list[Spec], dotted: bool) -> None:
        self.ops: dict[str, Operation[Any, Any]] = {}
        self.tools: list[types.Tool] = []
        for spec in chosen:
            _check_name(spec.name, dotted)
            if spec.name in self.ops:
                raise ValueError(f"tool name {spec.name!r} offered twice")
            self.ops[spec.name] = spec.op
            self.tools.append(_tool(spec))
        self.schemas = {tool.name: tool.input_schema for tool in self.tools}


def _asked_profile(scope: Any) -> str | None:
    """The profile an HTTP request names (``?profile=NAME``), or None."""
    raw = scope.get("query_string", b"") if isinstance(scope, dict) else b""
    values = parse_qs(raw.decode("latin-1")).get(PROFILE_PARAMETER)
    return values[-1] if values else None


def build_server(
    db: Database,
    *,
    dotted_names: bool = False,
    groups: set[str] | None = None,
    profile: str | None = None,
    inline: bool = False,
    per_request: bool = False,
) -> Server[Any]:
    """An MCP server exposing the tools of ``profile`` (``mcp_profiles.PROFILES``), or one
    tool per registered operation of ``groups`` (the policy, audit and sync groups, never
    offered to an agent, are served only so). Neither named: ``full``, every operation
    offered to an agent (``xdb mcp`` and ``/mcp`` name ``agent``, the default profile).

    ``inline`` runs each call on the event loop instead of a worker thread: right for stdio,
    where one client waits for each answer anyway, and it saves a thread hop per call.
    ``per_request``: an HTTP request may name another profile, ``/mcp?profile=NAME``
    (``streamable_http`` refuses an unknown name before it gets here).
    """
    if profile is None and groups is None:
        profile = "full"
    fixed = _Table(specs(profile, groups, dotted_names), dotted_names)
    tables: dict[str, _Table] = {} if profile is None else {profile: fixed}

    def table(name: str) -> _Table:
        if name not in tables:
            tables[name] = _Table(specs(name, None, dotted_names), dotted_names)
        return tables[name]

    def table_for(ctx: ServerRequestContext[Any]) -> _Table:
        asked = _asked_profile(getattr(ctx.request, "scope", None)) if per_request else None
        if asked is None or groups is not None:
            return fixed
        return table(asked)

    def input_schema(name: str) -> dict[str, Any] | None:
        # Which profile a call's request named is not known here: a name is the same
        # operation in every profile that offers it, so any of its schemas will do.
        found = fixed.schemas.get(name)
        if found is None and per_request and groups is None:
            found = next(
                (table(p).schemas[name] for p in PROFILES if name in table(p).schemas), None
            )
        return found

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=table_for(ctx).tools)

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        ops = table_for(ctx).ops
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
        get_tool_input_schema=input_schema,
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


def _listed(server: Server[Any]) -> list[dict[str, Any]]:
    """The tools ``server`` lists, as the SDK writes them to a client."""
    asked = [{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": _modern_meta()}]
    (listing,) = anyio.run(_ask, server, asked)
    tools: list[dict[str, Any]] = listing["tools"]
    return tools


def _modern_meta(version: str | None = None) -> dict[str, Any]:
    return {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": version or MODERN_PROTOCOL_VERSIONS[-1],
            "io.modelcontextprotocol/clientInfo": {"name": "xdb-recorder", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }
    }


def recorded_answers() -> dict[str, Any]:
    """What the SDK answers to a client's opening requests, for ``stdio``'s quick front.

    For each naming: per stateless protocol version, the ``server/discover`` answer; per
    handshake version, the ``initialize`` answer; per version, the ``tools/list`` answer
    except its tools, which every version lists alike (kept once: every operation's tool,
    with each tool's group); and per profile the tools it lists, by name where they are
    those tools as they are, else whole (the agent profile's, worded and trimmed its way).
    """
    client = {"name": "xdb-recorder", "version": "0"}
    out: dict[str, Any] = {"xdb": __version__, "mcp": _sdk_version()}
    every_group = {op.group for op in operations()}
    with connect(":memory:") as db:
        for naming, dotted in (("underscore", False), ("dotted", True)):
            server = build_server(db, dotted_names=dotted, groups=every_group)
            modern = {}
            for version in MODERN_PROTOCOL_VERSIONS:
                meta = _modern_meta(version)
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
            pool = {tool["name"]: tool for tool in lists[0]}
            profiles: dict[str, Any] = {}
            for name in PROFILES:
                listed = _listed(build_server(db, dotted_names=dotted, profile=name))
                same = all(pool.get(tool["name"]) == tool for tool in listed)
                profiles[name] = (
                    {"names": [tool["name"] for tool in listed]} if same else {"tools": listed}
                )
            out[naming] = {
                "modern": modern,
                "handshake": handshake,
                "tools": lists[0],
                "groups": groups,
                "profiles": profiles,
            }
    return out


def profile_sizes(dotted_names: bool = False) -> dict[str, tuple[int, int, int]]:
    """Per profile: how many tools it lists, the characters of its ``tools/list`` result as
    compact JSON, and the tokens that is estimated to cost (``mcp_profiles.estimate_tokens``)."""
    sizes = {}
    with connect(":memory:") as db:
        for name in PROFILES:
            tools = _listed(build_server(db, dotted_names=dotted_names, profile=name))
            text = json.dumps({"tools": tools}, separators=(",", ":"), ensure_ascii=False)
            sizes[name] = (len(tools), len(text), estimate_tokens({"tools": tools}))
    return sizes


def _sdk_version() -> str:
    from importlib.metadata import version

    return version("mcp")


def streamable_http(
    db: Database,
    *,
    dotted_names: bool = False,
    groups: set[str] | None = None,
    profile: str | None = None,
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

    The tools are those of ``profile`` (None: ``agent``, the default) or of ``groups``; a
    client may ask for another profile in the URL, ``/mcp?profile=full`` (``mcp_profiles``).
    An unknown profile, or one named where ``groups`` chose the tools, is answered with 400
    and a JSON-RPC error naming the profiles there are.
    """
    limit = limits.message_limit() if message_limit is None else message_limit
    if profile is None and groups is None:
        profile = DEFAULT
    server = build_server(
        db, dotted_names=dotted_names, groups=groups, profile=profile, per_request=True
    )
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

    return _ProfileCheck(checked, groups is None), manager.run


class _ProfileCheck:
    """ASGI: a request naming a profile there is not (or any, where groups chose the tools)
    is answered with 400 and a JSON-RPC error; the rest go on. A class, not a function: a
    ``Route`` calls a function endpoint with a request, an object with the ASGI triple."""

    def __init__(self, app: Any, profiles: bool) -> None:
        self.app = app
        self.profiles = profiles

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        asked = _asked_profile(scope) if scope["type"] == "http" else None
        if asked is None or (self.profiles and asked in PROFILES):
            await self.app(scope, receive, send)
            return
        known = ", ".join(PROFILES) if self.profiles else "none (this endpoint serves groups)"
        message = f"{PROFILE_PARAMETER}: unknown profile {asked!r}; known: {known}"
        error = {"code": -32600, "message": message}
        body = json.dumps({"jsonrpc": "2.0", "id": None, "error": error}).encode("utf-8")
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": 400, "headers": headers})
        await send({"type": "http.response.body", "body": body})
