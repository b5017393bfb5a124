"""The hooks' HTTP client: a POST over a socket, read back whole, chunked or not."""

from __future__ import annotations

import json
from http.server import ThreadingHTTPServer

import pytest

from tests.local_http import JsonHandler, serving
from xdb.engine.client import _parse, post


class Echo(JsonHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        said = {"path": self.path, "body": json.loads(body), "key": self.headers["X-Key"]}
        self._send(201, json.dumps(said).encode())


def test_a_post_and_its_answer() -> None:
    with serving(ThreadingHTTPServer(("127.0.0.1", 0), Echo)) as srv:
        url = f"http://127.0.0.1:{srv.server_address[1]}/v1/hook/claude/stop?x=1"
        status, body = post(url, b'{"a": 1}', {"X-Key": "k"}, 5)
    assert status == 201
    assert json.loads(body) == {"path": "/v1/hook/claude/stop?x=1", "body": {"a": 1}, "key": "k"}


def test_chunked_answers_are_joined() -> None:
    raw = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n"
    )
    assert _parse(raw) == (200, b"Wikipedia")
    assert _parse(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n") == (204, b"")


def test_nothing_listening_is_a_refusal_and_other_schemes_are_errors() -> None:
    with ThreadingHTTPServer(("127.0.0.1", 0), Echo) as srv:
        port = srv.server_address[1]  # bound, then closed: nothing listens
    with pytest.raises(ConnectionRefusedError):
        post(f"http://127.0.0.1:{port}/", b"{}", {}, 5)
    with pytest.raises(OSError, match="not an http URL"):
        post("ftp://127.0.0.1/", b"{}", {}, 5)
