"""An ASGI app served by uvicorn in a thread, for the tests that speak real HTTP."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn


@contextmanager
def served(app: Any) -> Iterator[str]:
    """Serve ``app`` on a free local port; yields its base URL (``http://127.0.0.1:N``)."""
    # Bound and listening before uvicorn starts: early requests wait in the backlog, so
    # nothing polls for readiness.
    # (IPPROTO_TCP named: asyncio sets TCP_NODELAY only on accepted sockets whose protocol
    # says TCP, and a plain socket() says 0; without it each keep-alive answer waited ~40 ms
    # for the client's delayed ACK.)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", log_config=None, lifespan="on")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()
        assert not thread.is_alive(), "uvicorn did not stop"
