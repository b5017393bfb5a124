"""What a web page in the user's browser may not make ``xdb serve`` do: one pure ASGI
middleware in front of every route, MCP at ``/mcp`` included.

- **Host** (DNS rebinding): a page on ``evil.example`` whose name an attacker re-points at
  127.0.0.1 reaches a local serve as its own origin, with ``Host: evil.example``. Only the
  names the serve answers to are served, else 421: the localhost names (127.0.0.1,
  localhost, [::1], any port; a browser sends them only for a page that is itself on
  localhost), the bound host, and each ``--allowed-host``. Bound to every interface
  (0.0.0.0, ::), any IP address is served too (a rebinding needs a DNS name).
- **Writes** (cross-site requests): a browser sends a cross-origin POST whose type is
  text/plain, a form or nothing without asking the server first (no CORS preflight), and
  a local serve needs no key. So a request that may write (every method but GET, HEAD and
  OPTIONS) is refused when it carries a body that is not ``application/json`` (415; the
  explorer's sign-in form may post urlencoded) or when the browser says it comes from
  another origin (403): an ``Origin`` that is not the serve's own, or ``Sec-Fetch-Site``
  other than same-origin or none. Clients that are not browsers send neither. The hook
  route fails open (200, ``{}``, which the agent reads as "go on") and runs nothing.
  ``/mcp`` keeps the MCP SDK's own content-type rule, and refuses another origin whatever
  the method (a GET opens its event stream), as the MCP transport asks of every server.
- **Headers**: every answer says ``X-Frame-Options: DENY``, ``X-Content-Type-Options:
  nosniff`` and a ``Content-Security-Policy``: nothing at all for JSON; for the explorer's
  pages only its own stylesheet and script (its heat cells set a CSS variable inline).

Refusals are the JSON error envelope. Pure ASGI (no request objects), so the hot path pays
a scan of the headers and nothing more.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from xdb.errors import InvalidRequest
from xdb.interfaces.auth import HOOK_PATHS, LOCAL_HOSTS
from xdb.interfaces.http_errors import error_body

__all__ = ["Guard", "Hosts"]

log = logging.getLogger("xdb.http")

LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
_EVERY_INTERFACE = frozenset({"0.0.0.0", "::", "[::]", ""})
_READS = frozenset({"GET", "HEAD", "OPTIONS"})
_SAME = frozenset({b"same-origin", b"none"})  # Sec-Fetch-Site values of the serve's own
MCP_PATH = "/mcp"
FORM_PATHS = frozenset({"/login"})  # the explorer's sign-in form posts urlencoded

JSON_POLICY = b"default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
PAGE_POLICY = (
    b"default-src 'none'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    b"img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
    b"frame-ancestors 'none'"
)
# FastAPI's /docs and /redoc pages load Swagger UI and ReDoc from a CDN and start them with
# an inline script; they show only the OpenAPI document.
DOCS_POLICY = (
    b"default-src 'none'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    b"style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    b"font-src https://fonts.gstatic.com; img-src 'self' data: https:; connect-src 'self'; "
    b"worker-src blob:; base-uri 'none'; frame-ancestors 'none'"
)
_FIXED = ((b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"))


def _split(value: str) -> tuple[str, int | None] | None:
    """(name, port) of ``host[:port]`` (IPv6 in brackets), lowercased; None if malformed."""
    value = value.strip().lower()
    if value.startswith("["):
        name, bracket, rest = value.partition("]")
        name += bracket
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port = rest[1:]
    else:
        name, _, port = value.partition(":")
    if not name or any(c in name for c in " /\\@?#,") or (port and not port.isdigit()):
        return None
    number = int(port) if port else None
    return (name, number) if number is None or number < 65536 else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


class Hosts:
    """The Host header values a serve answers to (see the module's docstring).

    ``allowed``: ``NAME`` or ``NAME:*`` (any port), or ``NAME:PORT``; an IPv6 address in
    brackets. ``InvalidRequest`` (field allowed_hosts) names an entry that is not one.
    """

    def __init__(self, bound: str = "127.0.0.1", allowed: Iterable[str] = ()) -> None:
        self.any_port: set[str] = set(LOCAL_NAMES)
        self.exact: set[tuple[str, int]] = set()
        self.any_ip = bound.strip().lower() in _EVERY_INTERFACE
        if not self.any_ip and bound not in LOCAL_HOSTS:
            name = f"[{bound}]" if ":" in bound and not bound.startswith("[") else bound
            self.any_port.add(name.lower())
        for entry in allowed:
            parsed = _split(entry.removesuffix(":*"))
            if parsed is None:
                raise InvalidRequest(
                    f"allowed_hosts: {entry!r} is not a host name, an address or NAME:PORT "
                    "(e.g. xdb.example.com or xdb.example.com:8443)",
                    field="allowed_hosts",
                )
            name, port = parsed
            if port is None:
                self.any_port.add(name)
            else:
                self.exact.add((name, port))

    def allows(self, host: str) -> bool:
        parsed = _split(host)
        if parsed is None:
            return False
        name, port = parsed
        if name in self.any_port or (port is not None and (name, port) in self.exact):
            return True
        return self.any_ip and _is_ip(name)


def _default_port(scheme: str) -> int:
    return 443 if scheme in ("https", "wss") else 80


def same_origin(origin: str, scheme: str, host: str) -> bool:
    """Whether ``origin`` (an Origin header) is ``scheme://host``, default ports filled in."""
    try:
        parts = urlsplit(origin)
        theirs = (parts.scheme, (parts.hostname or "").strip("[]"), parts.port)
    except ValueError:  # a port that is not a number
        return False
    ours = _split(host)
    if ours is None or not theirs[1]:
        return False
    return (theirs[0], theirs[1], theirs[2] or _default_port(theirs[0])) == (
        scheme,
        ours[0].strip("[]"),
        ours[1] or _default_port(scheme),
    )


class Guard:
    """The middleware; ``docs``: the paths whose HTML is FastAPI's API browser."""

    def __init__(self, app: ASGIApp, hosts: Hosts, docs: Iterable[str] = ()) -> None:
        self.app = app
        self.hosts = hosts
        self.docs = frozenset(docs)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        headed = _Headed(send, DOCS_POLICY if path in self.docs else PAGE_POLICY)
        refused = self._refusal(scope, path)
        if refused is None:
            await self.app(scope, receive, headed)
            return
        status, kind, message = refused
        if path.startswith(HOOK_PATHS):  # the agent goes on; nothing ran
            log.warning("hook %s refused: %s", path, message)
            status, body = 200, b"{}"
        else:
            body = json.dumps(error_body(kind, message)).encode()
        await headed({"type": "http.response.start", "status": status,
                      "headers": [(b"content-type", b"application/json"),
                                  (b"content-length", str(len(body)).encode())]})  # fmt: skip
        await headed({"type": "http.response.body", "body": body})

    def _refusal(self, scope: Scope, path: str) -> tuple[int, str, str] | None:
        host = origin = kind = fetch_site = None
        length = chunked = False
        for name, value in scope["headers"]:
            if name == b"host":
                host = value.decode("latin-1")
            elif name == b"origin":
                origin = value.decode("latin-1")
            elif name == b"content-type":
                kind = value.decode("latin-1")
            elif name == b"sec-fetch-site":
                fetch_site = value.strip().lower()
            elif name == b"content-length":
                length = value.strip() not in (b"", b"0")
            elif name == b"transfer-encoding":
                chunked = True
        # No Host (HTTP/1.0): the address connected to; a browser always sends one.
        if host is not None and not self.hosts.allows(host):
            return (
                421,
                "misdirected_request",
                (
                    f"this server does not answer to the host {host!r}: serve it with "
                    "'xdb serve --allowed-host NAME' to allow a name (DNS rebinding protection)"
                ),
            )
        # MCP checks every request's Origin, a GET's (its event stream) too, as its SDK does.
        if scope["method"] in _READS and path != MCP_PATH:
            return None
        foreign = origin is not None and not same_origin(
            origin, scope.get("scheme", "http"), host or _server(scope)
        )
        if foreign or (fetch_site is not None and fetch_site not in _SAME):
            return (
                403,
                "forbidden_origin",
                (
                    f"a {'request to MCP' if path == MCP_PATH else 'write'} from another "
                    f"origin ({origin or 'a cross-site page'}) is refused: only the server's "
                    "own pages and clients that are not browsers may make one"
                ),
            )
        if path == MCP_PATH or (kind is None and not (length or chunked)):
            return None  # MCP checks its own; a bare POST with no body has nothing to misread
        media = (kind or "").partition(";")[0].strip().lower()
        if media == "application/json" or (
            path in FORM_PATHS and media == "application/x-www-form-urlencoded"
        ):
            return None
        return (
            415,
            "unsupported_media_type",
            (
                f"send the request body as JSON with Content-Type: application/json "
                f"(got {kind or 'no Content-Type'})"
            ),
        )


def _server(scope: Scope) -> str:
    server = scope.get("server")
    return f"{server[0]}:{server[1]}" if server else ""


class _Headed:
    """``send``, adding the security headers to the response's start."""

    __slots__ = ("page_policy", "send")

    def __init__(self, send: Send, page_policy: bytes) -> None:
        self.send = send
        self.page_policy = page_policy

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", ()))
            names = {name.lower() for name, _ in headers}
            html = any(n.lower() == b"content-type" and v.startswith(b"text/html")
                       for n, v in headers)  # fmt: skip
            if b"content-security-policy" not in names:
                policy = self.page_policy if html else JSON_POLICY
                headers.append((b"content-security-policy", policy))
            headers.extend(pair for pair in _FIXED if pair[0] not in names)
            message = {**message, "headers": headers}
        await self.send(message)
