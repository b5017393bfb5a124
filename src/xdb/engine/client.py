"""A minimal HTTP/1.1 client for the hooks' calls to a local ``xdb serve``: one POST of
JSON, standard library ``socket`` only. ``urllib.request`` would cost the hook more than
the call itself (it imports email, ssl and more); an ``https`` URL still goes through it.
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["post"]


def post(url: str, body: bytes, headers: Mapping[str, str], timeout: float) -> tuple[int, bytes]:
    """(status, body) of ``POST url``. Raises ConnectionRefusedError when nothing listens
    there, OSError (a timeout included) for any other failure."""
    if url.startswith("https://"):
        return _by_urllib(url, body, headers, timeout)
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise OSError(f"not an http URL: {url}")
    hostport = parts.netloc.rpartition("@")[2]
    path = parts.path.lstrip("/") + (f"?{parts.query}" if parts.query else "")
    host, port = parts.hostname, parts.port or 80
    lines = [f"POST /{path} HTTP/1.1", f"Host: {hostport}", "Connection: close",
             f"Content-Length: {len(body)}"]  # fmt: skip
    lines += [f"{name}: {value}" for name, value in headers.items()]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
    with socket.create_connection((host, port), timeout=timeout) as conn:
        conn.sendall(request)
        chunks = []
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    try:
        return _parse(b"".join(chunks))
    except (ValueError, IndexError) as exc:  # not an HTTP answer
        raise OSError(f"{url} did not answer HTTP: {exc}") from None


def _parse(raw: bytes) -> tuple[int, bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *fields = head.decode("latin-1").split("\r\n")
    status = int(status_line.split(" ", 2)[1])
    named = {k.strip().lower(): v.strip() for k, _, v in (f.partition(":") for f in fields)}
    if named.get("transfer-encoding", "").lower() == "chunked":
        body = _unchunk(body)
    elif "content-length" in named:
        body = body[: int(named["content-length"])]
    return status, body


def _unchunk(body: bytes) -> bytes:
    out, rest = [], body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out.append(rest[:size])
        rest = rest[size + 2 :]
    return b"".join(out)


def _by_urllib(
    url: str, body: bytes, headers: Mapping[str, str], timeout: float
) -> tuple[int, bytes]:
    import urllib.error
    import urllib.request

    sent = urllib.request.Request(url, data=body, headers=dict(headers), method="POST")
    try:
        with urllib.request.urlopen(sent, timeout=timeout) as response:
            return int(response.status), bytes(response.read())
    except urllib.error.HTTPError as exc:
        return int(exc.code), exc.read()
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, OSError):
            raise exc.reason from None
        raise OSError(str(exc.reason)) from None
