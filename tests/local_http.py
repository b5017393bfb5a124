"""A small local HTTP server on a thread, for testing xdb's clients of OpenAI-compatible
endpoints (embeddings, chat) against real sockets."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, TypeVar

S = TypeVar("S", bound=HTTPServer)


@contextmanager
def serving(server: S) -> Iterator[S]:
    """Serve ``server`` on a thread until the block ends."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def v1_url(server: HTTPServer) -> str:
    """The server's OpenAI-style base URL."""
    return f"http://127.0.0.1:{server.server_address[1]}/v1"


class JsonHandler(BaseHTTPRequestHandler):
    """A handler that answers JSON quietly; subclasses decide what."""

    def log_message(self, *args: Any) -> None:  # keep pytest output clean
        pass

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
