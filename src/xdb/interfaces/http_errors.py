"""The HTTP interface's one error shape: every error, whatever raised it, is the same JSON
envelope with the XdbError's status (``http`` documents it), and the exception handlers that
make it of FastAPI's and Starlette's own errors."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from xdb.errors import InvalidRequest, XdbError, from_validation_errors
from xdb.models.common import DeferredModel

__all__ = [
    "ERROR_RESPONSES",
    "ErrorEnvelope",
    "envelope",
    "error_body",
    "from_xdb",
    "handle_errors",
]

log = logging.getLogger("xdb.http")


class ErrorBody(DeferredModel):
    type: str
    message: str
    field: str | None = None


class ErrorEnvelope(DeferredModel):
    """The one shape of every error response."""

    error: ErrorBody


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorEnvelope, "description": "Invalid request (names the field)"},
    401: {"model": ErrorEnvelope, "description": "No valid API key where one is needed"},
    403: {"model": ErrorEnvelope, "description": "The caller (or a page's origin) may not"},
    404: {"model": ErrorEnvelope, "description": "An id that names nothing"},
    409: {"model": ErrorEnvelope, "description": "Conflicts with what is stored"},
    413: {"model": ErrorEnvelope, "description": "The body is over its limit (names it)"},
    415: {"model": ErrorEnvelope, "description": "A body that is not application/json"},
    421: {"model": ErrorEnvelope, "description": "A Host the server does not answer to"},
    500: {"model": ErrorEnvelope, "description": "Internal or storage error"},
    503: {"model": ErrorEnvelope, "description": "Not ready within the bound asked (retry)"},
}


def error_body(kind: str, message: str, field: str | None = None) -> dict[str, Any]:
    """The envelope's JSON (raw ASGI answers, which write it themselves, use this too)."""
    return {"error": {"type": kind, "message": message, "field": field}}


def envelope(
    status: int,
    kind: str,
    message: str,
    field: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    return JSONResponse(error_body(kind, message, field), status_code=status, headers=headers)


def from_xdb(exc: XdbError) -> JSONResponse:
    return JSONResponse({"error": exc.to_dict()}, status_code=exc.status)


async def _on_xdb_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, XdbError)
    return from_xdb(exc)


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
            return from_xdb(InvalidRequest(message))
        if tuple(err.get("loc", ())) == ("body",) and err.get("type") in _WHOLE_BODY:
            # The body as a whole is wrong: absent, not an object, or (FastAPI passes a body
            # without a JSON content type through as bytes) not sent as JSON.
            if isinstance(err.get("input"), bytes):
                message = "send the request body as JSON with Content-Type: application/json"
            elif err.get("type") == "missing":
                message = "the request body is required: a JSON object of the operation's fields"
            else:
                message = "the request body must be a JSON object of the operation's fields"
            return from_xdb(InvalidRequest(message))
    return from_xdb(from_validation_errors(errors, strip=("body", "query", "path")))


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
    return envelope(exc.status_code, kind, message, headers=exc.headers)


async def _on_unexpected(request: Request, exc: Exception) -> Response:
    # A backstop: route handlers catch their own failures, so this sees only framework faults.
    log.error("unhandled error in %s %s", request.method, request.url.path, exc_info=exc)
    return envelope(500, "internal_error", "internal server error; see the server log")


def handle_errors(app: FastAPI) -> None:
    """Answer every error ``app`` meets with the envelope."""
    app.add_exception_handler(XdbError, _on_xdb_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
    app.add_exception_handler(Exception, _on_unexpected)
