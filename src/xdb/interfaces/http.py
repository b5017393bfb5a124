"""The HTTP interface: every registered operation as a JSON route, and MCP at ``/mcp``.

Routes are generated from the operation registry, so the HTTP surface, its OpenAPI document
(``/openapi.json``, browsable at ``/docs``) and the other interfaces cannot drift apart::

    POST /v1/xdb/<operation>              body: the operation's request model as JSON
    GET  /v1/xdb/recent[/{session_id}]    query parameters fill the request (the XAPI's
    GET  /v1/xdb/tags[/{session_id}]      GET forms; e.g. ?type=bud&status=collecting)
    GET  /v1/xdb/status[/{session_id}]
    GET  /v1/xdb/concepts[/{session_id}], /v1/xdb/find-concept[/{session_id}] (the same for
                                          every session: the path's session is accepted)
    POST /v1/hook/{agent}/{event}         a coding agent's hook call (``http_hooks``)
    GET  /healthz                         {"status": "ok"}
    /mcp                                  MCP streamable HTTP (when ``mcp=True``)

Every error, whatever raised it, is the same JSON envelope with the XdbError's status (400,
404, 409, 403, 500; ``http_errors``), so a client needs one error path::

    {"error": {"type": "invalid_request", "message": "content: ...", "field": "content"}}

A request body over its limit is refused with 413 (``payload_too_large``) while it streams
in (``limits``): ``XDB_MAX_MESSAGE_BYTES`` (64 MiB) for ``/v1/xdb/record-batch`` and
``/mcp`` (whose 413 carries a JSON-RPC error, what MCP clients read), ``XDB_MAX_BODY_BYTES``
(4 MiB) for every other route.

Before any route, ``guard`` refuses what a web page could make a browser send: a Host the
server does not answer to (421, DNS rebinding), a write from another origin (403) or one
whose body is not JSON (415); and it adds the security headers to every answer. A POST's
body is read by its route, not by FastAPI, so that ``Database.run`` authorizes the caller
before anything validates the body: a caller who may not run an operation gets 403,
whatever it sent.

Operations run in the threadpool, and ``Database`` is thread-safe, so a slow write never
blocks the event loop.
"""

from __future__ import annotations

import inspect
import json
import logging
import warnings
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

import uvicorn
from fastapi import Body, FastAPI, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic.warnings import UnsupportedFieldAttributeWarning
from starlette.concurrency import run_in_threadpool
from starlette.routing import Route
from starlette.types import ASGIApp

from xdb import __version__
from xdb.core import Database
from xdb.errors import InvalidRequest, PermissionDenied, XdbError
from xdb.explorer.routes import add_explorer
from xdb.fidelity.schedule import MaintenanceSchedule
from xdb.interfaces import limits
from xdb.interfaces.auth import HOOK_PATHS, LOCAL_HOSTS, ApiKeyAuth, has_keys, request_caller
from xdb.interfaces.guard import Guard, Hosts
from xdb.interfaces.http_errors import (
    ERROR_RESPONSES,
    envelope,
    error_body,
    from_xdb,
    handle_errors,
)
from xdb.interfaces.http_hooks import add_hook_routes
from xdb.interfaces.http_params import parameters
from xdb.interfaces.http_params import query_payload as _query_payload
from xdb.models.common import Caller
from xdb.ops.catalog import operations
from xdb.ops.registry import Operation
from xdb.policy.authorize import authorize

__all__ = ["create_app", "serve"]

log = logging.getLogger("xdb.http")


# --------------------------------------------------------------------------- errors


def _too_large(refused: limits.Refusal) -> bytes:
    # A body refused unread: over its size limit (413), or nested too deep (400).
    return json.dumps(error_body(refused.kind, refused.message)).encode("utf-8")


# --------------------------------------------------------------------------- running ops


def _run(db: Database, op: Operation[Any, Any], payload: Any, caller: Caller | None) -> Response:
    """``op`` for ``caller``: the one the request's API key names (``request_caller``),
    None for the server's own."""
    try:
        result = db.run(op, payload, caller=caller)
    except XdbError as exc:
        return from_xdb(exc)
    except Exception:
        # Never leak a traceback to the caller; the log keeps it.
        log.exception("operation %s failed", op.name)
        return envelope(500, "internal_error", f"internal error in {op.name}; see the server log")
    # Serialising here skips FastAPI's second validation of an already validated model.
    return Response(result.model_dump_json(), media_type="application/json")


# --------------------------------------------------------------------------- routes


def _json_body(raw: bytes, required: bool) -> dict[str, Any]:
    """The JSON object a POST's body holds; InvalidRequest saying what is wrong with it."""
    whole = "a JSON object of the operation's fields"
    try:
        body = json.loads(raw) if raw.strip() else None
    except json.JSONDecodeError as exc:
        where = f"{exc.msg} (at character {exc.pos})"
        raise InvalidRequest(f"the request body is not valid JSON: {where}") from None
    except (ValueError, RecursionError):  # not UTF-8, or nested too deep for the parser
        raise InvalidRequest("the request body is not valid JSON") from None
    if body is None and required:
        raise InvalidRequest(f"the request body is required: {whole}")
    if not isinstance(body, dict | None):
        raise InvalidRequest(f"the request body must be {whole}")
    return body or {}


def _unread(
    db: Database, op: Operation[Any, Any], exc: XdbError, caller: Caller | None
) -> Response:
    """``exc``, an error in a request too malformed to run, unless the caller may not run
    ``op`` at all: authorization comes before validation on every skin (docs/policy.md), so
    such a caller is told only that it may not, whatever it sent."""
    try:
        authorize(caller or db.caller, op)
    except PermissionDenied:
        return _run(db, op, {}, caller)  # the core refuses it again, and audits the refusal
    return from_xdb(exc)


class _ReadsItsBody(APIRoute):
    """A route documented from its endpoint's typed body (the OpenAPI request schema) whose
    requests go to the endpoint's ``handler`` instead, which reads the body itself: FastAPI
    validates a typed body before any endpoint runs, so a caller who may not run the
    operation would learn what is wrong with its body (400) instead of that it may not
    (403). ``Database.run`` authorizes, then validates (into InvalidRequest)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler: Callable[[Request], Coroutine[Any, Any, Response]] | None = getattr(
            self.endpoint, "handler", None
        )
        return handler or super().get_route_handler()


def _add_post(app: FastAPI, db: Database, op: Operation[Any, Any]) -> None:
    # A request whose fields are all optional may omit the body.
    optional = not any(info.is_required() for info in op.request.model_fields.values())

    async def handler(request: Request) -> Response:
        try:
            body = _json_body(await request.body(), required=not optional)
        except XdbError as exc:
            return await run_in_threadpool(_unread, db, op, exc, request_caller(request))
        return await run_in_threadpool(_run, db, op, body, request_caller(request))

    def endpoint(body: Any) -> Response:  # never called: it documents the body
        return _run(db, op, body, None)

    # The body's type is only known at run time, so the signature FastAPI reads is built here.
    body = Body(default=None) if optional else Body()
    param = inspect.Parameter(
        "body", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=op.request, default=body
    )
    endpoint.__signature__ = inspect.Signature([param])  # type: ignore[attr-defined]
    endpoint.handler = handler  # type: ignore[attr-defined]
    _route(app, op, op.http_path, endpoint, "POST", "", route_class=_ReadsItsBody)


def _quiet_openapi(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """``app.openapi`` without pydantic's warning that the body's alias does nothing.
    FastAPI ignores it where it makes each body's adapter (``fastapi._compat``), but xdb's
    models are deferred (``DeferredModel``), so their adapters are built later, in here."""
    openapi = app.openapi

    def documented() -> dict[str, Any]:
        if app.openapi_schema is not None:  # built once, then cached: nothing to silence
            return openapi()
        with warnings.catch_warnings():  # (process-wide, so only around that one build)
            warnings.simplefilter("ignore", UnsupportedFieldAttributeWarning)
            return openapi()

    return documented


def _add_get(app: FastAPI, db: Database, op: Operation[Any, Any], path: str) -> None:
    def endpoint(request: Request) -> Response:
        try:
            payload = _query_payload(op, request)
        except XdbError as exc:
            return _unread(db, op, exc, request_caller(request))
        return _run(db, op, payload, request_caller(request))

    by_session = "{session_id}" in path
    # The handler reads the query itself (to accept aliases and forbid unknown names), so
    # the parameters are documented by hand.
    suffix = "_get" + ("_session" if by_session else "")
    _route(app, op, path, endpoint, "GET", suffix, parameters(op, path))


def _add_post_alias(app: FastAPI, db: Database, op: Operation[Any, Any], path: str) -> None:
    async def endpoint(request: Request) -> Response:
        try:
            body = _json_body(await request.body(), required=False)
            for name, value in request.path_params.items():
                if name == "session_id" and name not in op.request.model_fields:
                    continue
                if body.setdefault(name, value) != value:
                    raise InvalidRequest(f"{name}: the path and the body disagree", field=name)
        except XdbError as exc:
            return await run_in_threadpool(_unread, db, op, exc, request_caller(request))
        return await run_in_threadpool(_run, db, op, body, request_caller(request))

    _route(app, op, path, endpoint, "POST", "_path", parameters(op, path))


def _route(
    app: FastAPI,
    op: Operation[Any, Any],
    path: str,
    endpoint: Callable[..., Any],
    method: str,
    suffix: str,
    parameters: list[dict[str, Any]] | None = None,
    route_class: type[APIRoute] | None = None,
) -> None:
    """One route of ``op``, documented from the operation (name ``<group>_<name><suffix>``)."""
    app.router.add_api_route(  # (the router's: the app's own takes no route class)
        path,
        endpoint,
        methods=[method],
        name=f"{op.group}_{op.name}{suffix}",
        operation_id=f"{op.group}_{op.name}{suffix}",
        summary=op.summary,
        description=op.description,
        tags=[op.group],
        response_model=op.response,
        responses=ERROR_RESPONSES,
        openapi_extra=None if parameters is None else {"parameters": parameters},
        route_class_override=route_class,
    )


# --------------------------------------------------------------------------- the app


def create_app(
    db: Database,
    *,
    mcp: bool = True,
    dotted_names: bool = False,
    body_limit: int | None = None,
    message_limit: int | None = None,
    require_keys: bool = False,
    host: str = "127.0.0.1",
    allowed_hosts: Sequence[str] = (),
) -> FastAPI:
    """A FastAPI app serving every operation of ``db`` (and MCP at ``/mcp`` when ``mcp``).

    Bodies are limited to ``message_limit`` bytes on ``/mcp`` and the bulk routes and to
    ``body_limit`` on the others (None: ``XDB_MAX_MESSAGE_BYTES`` / ``XDB_MAX_BODY_BYTES``,
    else 64 MiB / 4 MiB; see ``limits``). An API key (``xdb keys create``) sent with a
    request makes it run as the key's caller; ``require_keys``: a request without one is
    refused with 401 (``interfaces.auth``). Requests are served only for the Host names of
    the address it is bound to (``host``) and ``allowed_hosts``, and a browser's writes only
    from its own origin, as JSON (``interfaces.guard``).
    """
    hosts = Hosts(host, allowed_hosts)  # first: a bad entry is refused before anything opens
    body = (limits.body_limit() if body_limit is None else body_limit, limits.BODY_LIMIT_ENV)
    bulk = (
        limits.message_limit() if message_limit is None else message_limit,
        limits.MESSAGE_LIMIT_ENV,
    )
    mcp_lifespan: Callable[[], AbstractAsyncContextManager[None]] | None = None
    mcp_app: ASGIApp | None = None
    if mcp:
        # Imported here so an HTTP-only server never loads the MCP library.
        from xdb.interfaces.mcp import streamable_http

        # The guard below checks Host and Origin for /mcp as for every route.
        mcp_app, mcp_lifespan = streamable_http(
            db, dotted_names=dotted_names, message_limit=bulk[0], guarded=True
        )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if mcp_lifespan is None:
            yield
            return
        async with mcp_lifespan():
            yield

    app = FastAPI(
        title="xdb",
        version=__version__,
        description="An experience database for AI agents: record, tag and recall.",
        lifespan=lifespan,
    )
    handle_errors(app)
    # Routes whose body may be as large as one MCP message: a batch of token timesteps.
    bulk_paths = {op.http_path for op in operations() if op.bulk}

    def limit_for(path: str) -> tuple[int, str] | None:
        if path == "/mcp" and mcp_app is not None:
            return None  # the MCP app limits its own bodies, answering in JSON-RPC
        # A hook carries a tool's whole input (a large Write): the bulk limit.
        return bulk if path in bulk_paths or path.startswith("/v1/hook/") else body

    app.add_middleware(
        limits.BodyLimit,
        limit=limit_for,
        error=_too_large,
        fail_open=lambda path: path.startswith(HOOK_PATHS),  # a hook answers "go on"
    )
    # Added late, so it runs early: who is calling is known before any body is read.
    app.add_middleware(ApiKeyAuth, store=db.store, required=require_keys)
    # Added last, so it runs first: a page elsewhere is refused before a key is even looked up.
    docs = (app.docs_url, app.redoc_url, app.swagger_ui_oauth2_redirect_url)
    app.add_middleware(Guard, hosts=hosts, docs=[path for path in docs if path])

    for op in operations():
        _add_post(app, db, op)
        for path in op.http_get:
            _add_get(app, db, op, path)
        for path in op.http_post:
            _add_post_alias(app, db, op, path)

    add_hook_routes(app, db)
    add_explorer(app, db)
    app.openapi = _quiet_openapi(app)  # type: ignore[method-assign]

    @app.get("/healthz", tags=["meta"], summary="Liveness check.")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    if mcp_app is not None:
        # A Route, not a Mount: a Mount answers only /mcp/, while clients are given /mcp.
        # A non-function endpoint receives every method (POST, GET, DELETE) untouched.
        app.router.routes.append(Route("/mcp", endpoint=mcp_app))
    return app


def serve(
    db: Database,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    mcp: bool = True,
    dotted_names: bool = False,
    log_level: str = "info",
    maintenance_every: float = 3600.0,
    allowed_hosts: Sequence[str] = (),
    announce: Callable[[FastAPI], None] | None = None,
) -> None:
    """Serve ``db`` over HTTP until interrupted (localhost only unless ``host`` says otherwise).

    Bound beyond localhost, every request needs an API key, and the server refuses to start
    while the database has none. Requests naming another Host than ``host`` (or localhost,
    or one of ``allowed_hosts``) are refused (``interfaces.guard``). Every
    ``maintenance_every`` seconds (0: never) memory is maintained: progressive compression,
    audit retention, space reclaimed. ``announce`` is given the app just before it is served
    (``xdb serve`` prints where its pages are)."""
    exposed = host not in LOCAL_HOSTS
    if exposed and not has_keys(db.store):
        raise InvalidRequest(
            f"host: serving on {host} (beyond localhost) needs an API key; make one with "
            "'xdb keys create --caller-id ID', or serve on 127.0.0.1",
            field="host",
        )
    app = create_app(db, mcp=mcp, dotted_names=dotted_names, require_keys=exposed, host=host,
                     allowed_hosts=allowed_hosts)  # fmt: skip
    if announce is not None:
        announce(app)
    schedule = MaintenanceSchedule(db, maintenance_every).start() if maintenance_every else None
    try:
        uvicorn.run(app, host=host, port=port, log_level=log_level)
    finally:
        if schedule is not None:
            schedule.stop()
