"""API keys over HTTP: an ASGI middleware that turns ``Authorization: Bearer <key>`` (or
``X-API-Key: <key>``) into the caller the key acts as, for the HTTP routes and MCP over
HTTP alike, and answers 401 (JSON, the error envelope) for a missing key where one is
required, or a key that is malformed, unknown, wrong or revoked."""

from __future__ import annotations

import json
from typing import Any

import anyio
from starlette.types import ASGIApp, Receive, Scope, Send

from xdb.errors import Unauthorized
from xdb.models.common import Caller
from xdb.policy.keys import authenticate, stored_keys, usable
from xdb.store.protocol import Store

SCOPE_KEY = "xdb.caller"  # where MCP's handlers find the request's caller
OPEN_PATHS = frozenset({"/healthz", "/login", "/logout", "/explorer.css", "/explorer.js"})
KEY_COOKIE = "xdb_key"  # the explorer's sign-in (HttpOnly, SameSite=Strict; GET only)
HOOK_PATHS = "/v1/hook/"  # answered 200 and {} when refused (interfaces.http_hooks)
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


def presented_key(scope: Scope) -> str | None:
    headers = dict(scope.get("headers") or ())
    auth = headers.get(b"authorization", b"").decode("latin-1").strip()
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None
    key: str = headers.get(b"x-api-key", b"").decode("latin-1").strip()
    if key:
        return key
    if scope.get("method") == "GET":  # a browser's key (the explorer signs in): reads only
        return _cookie(headers.get(b"cookie", b"").decode("latin-1"), KEY_COOKIE)
    return None


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name and value:
            return value
    return None


def request_caller(request: Any) -> Caller | None:
    """The caller an HTTP request authenticated as (None: the server's own caller)."""
    scope = getattr(request, "scope", None)
    found = scope.get(SCOPE_KEY) if isinstance(scope, dict) else None
    return found if isinstance(found, Caller) else None


def has_keys(store: Store) -> bool:
    return any(usable(b) for b in stored_keys(store).values())


class ApiKeyAuth:
    """``required``: every request but ``/healthz`` needs a valid key (a server bound
    beyond localhost); otherwise a key, when sent, must be valid and decides the caller."""

    def __init__(self, app: ASGIApp, store: Store, required: bool) -> None:
        self.app = app
        self.store = store
        self.required = required

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        key = presented_key(scope)
        caller = None
        if key is not None:
            caller = await anyio.to_thread.run_sync(authenticate, self.store, key)
            if caller is None:
                await _refuse(send, "the API key is not valid (unknown, wrong or revoked)",
                              scope)  # fmt: skip
                return
        elif self.required:
            await _refuse(
                send,
                "an API key is required: send 'Authorization: Bearer <key>' "
                "(an admin makes one with 'xdb keys create --caller-id ID')",
                scope,
            )
            return
        scope[SCOPE_KEY] = caller  # (``request_caller`` reads it back from the request)
        await self.app(scope, receive, send)


async def _refuse(send: Send, message: str, scope: Scope) -> None:
    path = scope["path"]
    accept = dict(scope.get("headers") or ()).get(b"accept", b"")
    if scope.get("method") == "GET" and b"text/html" in accept:  # a person: the sign-in page
        await send({"type": "http.response.start", "status": 303,
                    "headers": [(b"location", b"/login"), (b"content-length", b"0")]})  # fmt: skip
        await send({"type": "http.response.body", "body": b""})
        return
    if path.startswith(HOOK_PATHS):  # a coding agent's hook fails open: "go on", not 401
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", b"2")]})  # fmt: skip
        await send({"type": "http.response.body", "body": b"{}"})
        return
    error = Unauthorized(message, field="authorization")
    body = json.dumps({"error": error.to_dict()}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"www-authenticate", b'Bearer realm="xdb"'),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
