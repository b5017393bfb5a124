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
404, 409, 403, 500), so a client needs one error path::

    {"error": {"type": "invalid_request", "message": "content: ...", "field": "content"}}

A request body over its limit is refused with 413 (``payload_too_large``) while it streams
in (``limits``): ``XDB_MAX_MESSAGE_BYTES`` (64 MiB) for ``/v1/xdb/record-batch`` and
``/mcp`` (whose 413 carries a JSON-RPC error, what MCP clients read), ``XDB_MAX_BODY_BYTES``
(4 MiB) for every other route.

Handlers are plain ``def``: FastAPI runs them in its threadpool, and ``Database`` is
thread-safe, so a slow write never blocks the event loop.
"""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, get_args, get_origin

import uvicorn
from fastapi import Body, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Route
from starlette.types import ASGIApp

from xdb import __version__
from xdb.core import Database
from xdb.errors import InvalidRequest, XdbError, from_validation_errors
from xdb.explorer.pages import add_explorer
from xdb.fidelity.schedule import MaintenanceSchedule
from xdb.interfaces import limits
from xdb.interfaces.auth import LOCAL_HOSTS, ApiKeyAuth, has_keys
from xdb.interfaces.http_hooks import add_hook_routes
from xdb.ops.registry import Operation, operations
from xdb.policy.keys import CURRENT_CALLER

__all__ = ["create_app", "serve"]

log = logging.getLogger("xdb.http")


class ErrorBody(BaseModel):
    type: str
    message: str
    field: str | None = None


class ErrorEnvelope(BaseModel):
    """The one shape of every error response."""

    error: ErrorBody


_ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorEnvelope, "description": "Invalid request (names the field)"},
    401: {"model": ErrorEnvelope, "description": "No valid API key where one is needed"},
    403: {"model": ErrorEnvelope, "description": "The caller may not do this"},
    404: {"model": ErrorEnvelope, "description": "An id that names nothing"},
    409: {"model": ErrorEnvelope, "description": "Conflicts with what is stored"},
    413: {"model": ErrorEnvelope, "description": "The body is over its limit (names it)"},
    500: {"model": ErrorEnvelope, "description": "Internal or storage error"},
    503: {"model": ErrorEnvelope, "description": "Not ready within the bound asked (retry)"},
}


# --------------------------------------------------------------------------- error envelope


def _envelope(
    status: int,
    kind: str,
    message: str,
    field: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    body = {"error": {"type": kind, "message": message, "field": field}}
    return JSONResponse(body, status_code=status, headers=headers)


def _too_large(message: str) -> bytes:
    body = {"error": {"type": "payload_too_large", "message": message, "field": None}}
    return json.dumps(body).encode("utf-8")


def _from_xdb(exc: XdbError) -> JSONResponse:
    return JSONResponse({"error": exc.to_dict()}, status_code=exc.status)


async def _on_xdb_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, XdbError)
    return _from_xdb(exc)


# Validation error types that mean the body is not an object at all (a model validator's own
# complaint about the whole request also sits at ("body",), and keeps its message).
_WHOLE_BODY = frozenset({"missing", "model_type", "model_attributes_type", "dict_type"})


async def _on_validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    for err in errors:
        if err.get("type") == "json_invalid":
            # FastAPI reports a parse failure as a "field" at the byte offset; that is no field.
            where = err.get("loc", ("body", "?"))[-1]
            detail = (err.get("ctx") or {}).get("error", "JSON decode error")
            message = f"the request body is not valid JSON: {detail} (at character {where})"
            return _from_xdb(InvalidRequest(message))
        if tuple(err.get("loc", ())) == ("body",) and err.get("type") in _WHOLE_BODY:
            # The body as a whole is wrong: absent, not an object, or (FastAPI passes a body
            # without a JSON content type through as bytes) not sent as JSON.
            if isinstance(err.get("input"), bytes):
                message = "send the request body as JSON with Content-Type: application/json"
            elif err.get("type") == "missing":
                message = "the request body is required: a JSON object of the operation's fields"
            else:
                message = "the request body must be a JSON object of the operation's fields"
            return _from_xdb(InvalidRequest(message))
    return _from_xdb(from_validation_errors(errors, strip=("body", "query", "path")))


async def _on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    where = f"{request.method} {request.url.path}"
    if exc.status_code == 404:
        kind, message = "not_found", f"no route {where}; the routes are listed at /openapi.json"
    elif exc.status_code == 405:
        allowed = (exc.headers or {}).get("allow", "")
        kind, message = "method_not_allowed", f"{where} is not allowed; use {allowed or 'POST'}"
    else:
        kind, message = "http_error", str(exc.detail)
    return _envelope(exc.status_code, kind, message, headers=exc.headers)


async def _on_unexpected(request: Request, exc: Exception) -> Response:
    # A backstop: route handlers catch their own failures, so this sees only framework faults.
    log.error("unhandled error in %s %s", request.method, request.url.path, exc_info=exc)
    return _envelope(500, "internal_error", "internal server error; see the server log")


# --------------------------------------------------------------------------- running ops


def _run(db: Database, op: Operation[Any, Any], payload: Any) -> Response:
    try:
        result = db.run(op, payload, caller=CURRENT_CALLER.get())
    except XdbError as exc:
        return _from_xdb(exc)
    except Exception:
        # Never leak a traceback to the caller; the log keeps it.
        log.exception("operation %s failed", op.name)
        return _envelope(500, "internal_error", f"internal error in {op.name}; see the server log")
    # Serialising here skips FastAPI's second validation of an already validated model.
    return Response(result.model_dump_json(), media_type="application/json")


def _is_list(annotation: Any) -> bool:
    if get_origin(annotation) is list:
        return True
    return any(_is_list(arg) for arg in get_args(annotation))


def _query_payload(op: Operation[Any, Any], request: Request) -> dict[str, Any]:
    """Build a request mapping from query and path parameters; validation happens in run."""
    fields = op.request.model_fields
    lists = {name for name, info in fields.items() if _is_list(info.annotation)}
    payload: dict[str, Any] = {}
    for key, value in request.query_params.multi_items():
        name = op.query_aliases.get(key, key)
        if name in lists:
            payload.setdefault(name, []).append(value)
        elif name in payload:
            raise InvalidRequest(f"{name}: is given more than once", field=name)
        else:
            payload[name] = value  # unknown names are left for the model to reject
    for name, value in request.path_params.items():
        if name == "session_id" and name not in fields:
            continue  # the XAPI's GET paths name the session even where nothing depends on it
        if payload.setdefault(name, value) != value:
            raise InvalidRequest(f"{name}: the path and the query disagree", field=name)
    return payload


# --------------------------------------------------------------------------- routes


def _add_post(app: FastAPI, db: Database, op: Operation[Any, Any]) -> None:
    def endpoint(body: Any) -> Response:
        return _run(db, op, body)

    # The body's type is only known at run time, so the signature FastAPI reads is built here;
    # a request whose fields are all optional may omit the body.
    optional = not any(info.is_required() for info in op.request.model_fields.values())
    body = Body(default=None) if optional else Body()
    param = inspect.Parameter(
        "body", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=op.request, default=body
    )
    endpoint.__signature__ = inspect.Signature([param])  # type: ignore[attr-defined]
    _route(app, op, op.http_path, endpoint, "POST", "")


def _add_get(app: FastAPI, db: Database, op: Operation[Any, Any], path: str) -> None:
    def endpoint(request: Request) -> Response:
        try:
            payload = _query_payload(op, request)
        except XdbError as exc:
            return _from_xdb(exc)
        return _run(db, op, payload)

    by_session = "{session_id}" in path
    # The handler reads the query itself (to accept aliases and forbid unknown names), so
    # the parameters are documented by hand.
    suffix = "_get" + ("_session" if by_session else "")
    _route(app, op, path, endpoint, "GET", suffix, _parameters(op, path))


def _add_post_alias(app: FastAPI, db: Database, op: Operation[Any, Any], path: str) -> None:
    async def endpoint(request: Request) -> Response:
        raw = await request.body()
        try:
            body = json.loads(raw) if raw.strip() else {}
        except (ValueError, RecursionError):  # (a body nested too deep for the parser)
            return _envelope(400, "invalid_request", "the body is not valid JSON")
        if not isinstance(body, dict):
            return _envelope(400, "invalid_request", "the body must be a JSON object")
        for name, value in request.path_params.items():
            if name == "session_id" and name not in op.request.model_fields:
                continue
            if body.setdefault(name, value) != value:
                return _from_xdb(
                    InvalidRequest(f"{name}: the path and the body disagree", field=name)
                )
        return await run_in_threadpool(_run, db, op, body)

    _route(app, op, path, endpoint, "POST", "_path", _parameters(op, path))


def _route(
    app: FastAPI,
    op: Operation[Any, Any],
    path: str,
    endpoint: Callable[..., Any],
    method: str,
    suffix: str,
    parameters: list[dict[str, Any]] | None = None,
) -> None:
    """One route of ``op``, documented from the operation (name ``<group>_<name><suffix>``)."""
    app.add_api_route(
        path,
        endpoint,
        methods=[method],
        name=f"{op.group}_{op.name}{suffix}",
        operation_id=f"{op.group}_{op.name}{suffix}",
        summary=op.summary,
        description=op.description,
        tags=[op.group],
        response_model=op.response,
        responses=_ERROR_RESPONSES,
        openapi_extra=None if parameters is None else {"parameters": parameters},
    )


def _parameters(op: Operation[Any, Any], path: str) -> list[dict[str, Any]]:
    schema = op.request.model_json_schema()
    defs = schema.get("$defs", {})
    aliases: dict[str, list[str]] = {}
    for alias, name in op.query_aliases.items():
        aliases.setdefault(name, []).append(alias)
    params: list[dict[str, Any]] = []
    if "{session_id}" in path and "session_id" not in schema.get("properties", {}):
        params.append(
            {
                "name": "session_id",
                "in": "path",
                "required": True,
                "schema": {"type": "string"},
                "description": "The caller's session (the answer is the same for every one).",
            }
        )
    for name, prop in schema.get("properties", {}).items():
        if "{" + name + "}" in path:
            params.append(
                {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
            )
            continue
        prop = _inline(prop, defs)
        text = prop.pop("description", None) or prop.get("title", name)
        params.append({"name": name, "in": "query", "schema": prop, "description": text})
        for alias in aliases.get(name, []):
            params.append(
                {"name": alias, "in": "query", "schema": prop, "description": f"Same as {name}."}
            )
    return params


def _inline(node: Any, defs: Mapping[str, Any]) -> Any:
    """Replace ``#/$defs/`` references, which mean nothing inside an OpenAPI parameter."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline(defs[ref.removeprefix("#/$defs/")], defs)
        return {key: _inline(value, defs) for key, value in node.items()}
    if isinstance(node, list):
        return [_inline(value, defs) for value in node]
    return node


# --------------------------------------------------------------------------- the app


# Routes whose body may be as large as one MCP message: a batch of token timesteps.
_BULK = frozenset({"record_batch"})


def create_app(
    db: Database,
    *,
    mcp: bool = True,
    dotted_names: bool = False,
    body_limit: int | None = None,
    message_limit: int | None = None,
    require_keys: bool = False,
) -> FastAPI:
    """A FastAPI app serving every operation of ``db`` (and MCP at ``/mcp`` when ``mcp``).

    Bodies are limited to ``message_limit`` bytes on ``/mcp`` and the bulk routes and to
    ``body_limit`` on the others (None: ``XDB_MAX_MESSAGE_BYTES`` / ``XDB_MAX_BODY_BYTES``,
    else 64 MiB / 4 MiB; see ``limits``). An API key (``xdb keys create``) sent with a
    request makes it run as the key's caller; ``require_keys``: a request without one is
    refused with 401 (``interfaces.auth``).
    """
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

        mcp_app, mcp_lifespan = streamable_http(
            db, dotted_names=dotted_names, message_limit=bulk[0]
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
    app.add_exception_handler(XdbError, _on_xdb_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
    app.add_exception_handler(Exception, _on_unexpected)
    bulk_paths = {op.http_path for op in operations() if op.name in _BULK}

    def limit_for(path: str) -> tuple[int, str] | None:
        if path == "/mcp" and mcp_app is not None:
            return None  # the MCP app limits its own bodies, answering in JSON-RPC
        # A hook carries a tool's whole input (a large Write): the bulk limit.
        return bulk if path in bulk_paths or path.startswith("/v1/hook/") else body

    app.add_middleware(limits.BodyLimit, limit=limit_for, error=_too_large)
    # Added last, so it runs first: who is calling is known before any body is read.
    app.add_middleware(ApiKeyAuth, store=db.store, required=require_keys)

    for op in operations():
        _add_post(app, db, op)
        for path in op.http_get:
            _add_get(app, db, op, path)
        for path in op.http_post:
            _add_post_alias(app, db, op, path)

    add_hook_routes(app, db)
    add_explorer(app, db)

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
) -> None:
    """Serve ``db`` over HTTP until interrupted (localhost only unless ``host`` says otherwise).

    Bound beyond localhost, every request needs an API key, and the server refuses to start
    while the database has none. Every ``maintenance_every`` seconds (0: never) memory is
    maintained: progressive compression, audit retention, space reclaimed."""
    exposed = host not in LOCAL_HOSTS
    if exposed and not has_keys(db.store):
        raise InvalidRequest(
            f"host: serving on {host} (beyond localhost) needs an API key; make one with "
            "'xdb keys create --caller-id ID', or serve on 127.0.0.1",
            field="host",
        )
    app = create_app(db, mcp=mcp, dotted_names=dotted_names, require_keys=exposed)
    schedule = MaintenanceSchedule(db, maintenance_every).start() if maintenance_every else None
    try:
        uvicorn.run(app, host=host, port=port, log_level=log_level)
    finally:
        if schedule is not None:
            schedule.stop()
