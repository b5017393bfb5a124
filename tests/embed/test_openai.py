"""The OpenAI-compatible client against a real HTTP server on a local thread."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from typing import Any

import numpy as np
import pytest

from tests.local_http import JsonHandler, serving, v1_url
from xdb.embed.openai import OpenAIEmbedder
from xdb.errors import StoreError


def fake_vector(text: str, dim: int) -> list[float]:
    """Deterministic and deliberately not unit length, so re-normalisation shows."""
    return [float(len(text) + 1)] + [
        float((ord(text[0]) if text else 0) % 7 + k) for k in range(dim - 1)
    ]


class Handler(JsonHandler):
    """Behaves by model name: ``ok`` answers like a server (rows in reverse order, to test
    the ``index`` field), the others fail in one particular way."""

    server: Server

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((self.path, dict(self.headers), request))
        if self.path != "/v1/embeddings":
            return self._send(404, b'{"error": "not found"}')
        model, texts = request["model"], request["input"]
        if model == "boom":
            return self._send(500, b'{"error": "CUDA out of memory"}')
        if model == "locked":
            return self._send(401, b'{"error": "bad key"}')
        if model == "notjson":
            return self._send(200, b"<html>proxy login</html>")
        if model == "noindex":
            return self._send(
                200, json.dumps({"data": [{"embedding": [1.0]} for _ in texts]}).encode()
            )
        dim = 8 if model == "ok" or len(self.server.requests) == 1 else 4  # "shrinks": 8 then 4
        data = [
            {"object": "embedding", "index": i, "embedding": fake_vector(t, dim)}
            for i, t in enumerate(texts)
        ]
        self._send(200, json.dumps({"object": "list", "data": data[::-1], "model": model}).encode())


class Server(ThreadingHTTPServer):
    requests: list[tuple[str, dict[str, str], dict[str, Any]]]


@pytest.fixture(scope="module")
def running_server() -> Iterator[Server]:
    with serving(Server(("127.0.0.1", 0), Handler)) as srv:
        yield srv


@pytest.fixture
def server(running_server: Server) -> Server:
    running_server.requests = []  # each test sees only its own requests
    return running_server


def url(srv: Server) -> str:
    return v1_url(srv)


def test_rows_follow_index_and_are_normalised(server: Server) -> None:
    texts = ["alpha", "bravo charlie", "", "delta"]
    out = OpenAIEmbedder(url(server), "ok").embed(texts)
    expected = np.array([fake_vector(t or " ", 8) for t in texts])
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, expected, rtol=1e-6)
    path, _, body = server.requests[0]
    assert path == "/v1/embeddings"
    assert body == {"model": "ok", "input": ["alpha", "bravo charlie", " ", "delta"]}


def test_batches_of_64_and_dimension_learned(server: Server) -> None:
    embedder = OpenAIEmbedder(url(server) + "/", "ok")
    out = embedder.embed([f"text {i}" for i in range(150)])
    assert out.shape == (150, 8)
    assert [len(body["input"]) for _, _, body in server.requests] == [64, 64, 22]
    assert embedder.dimension == 8
    assert len(server.requests) == 3  # known now: no extra request
    assert embedder.model_id == "openai:ok@127.0.0.1"


def test_dimension_asked_for_before_any_embed(server: Server) -> None:
    embedder = OpenAIEmbedder(url(server), "ok")
    assert embedder.embed([]).shape == (0, 8)
    assert len(server.requests) == 1


def test_texts_clipped_before_sending(server: Server) -> None:
    OpenAIEmbedder(url(server), "ok").embed(["x" * 1_000_000])
    assert len(server.requests[0][2]["input"][0]) == 8_000


def test_bearer_key_sent_only_when_given(server: Server) -> None:
    OpenAIEmbedder(url(server), "ok", api_key="sk-test").embed(["a"])
    OpenAIEmbedder(url(server), "ok").embed(["a"])
    with_key, without = (headers for _, headers, _ in server.requests)
    assert with_key["Authorization"] == "Bearer sk-test"
    assert "Authorization" not in without


def test_server_down() -> None:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    embedder = OpenAIEmbedder(f"http://127.0.0.1:{port}/v1", "m", timeout=5)
    with pytest.raises(StoreError, match=r"cannot connect.*XDB_EMBED_URL") as info:
        embedder.embed(["a"])
    assert f"127.0.0.1:{port}/v1/embeddings" in info.value.message
    assert "'m'" in info.value.message


@pytest.mark.parametrize(
    ("model", "words"),
    [
        ("boom", r"HTTP 500.*CUDA out of memory"),
        ("locked", r"HTTP 401.*XDB_EMBED_API_KEY"),
        ("notjson", r"not JSON.*proxy login"),
        ("noindex", r"'index'.*OpenAI-compatible"),
    ],
)
def test_bad_answers(server: Server, model: str, words: str) -> None:
    with pytest.raises(StoreError, match=words) as info:
        OpenAIEmbedder(url(server), model).embed(["a", "b"])
    assert url(server) in info.value.message
    assert repr(model) in info.value.message


def test_wrong_path(server: Server) -> None:
    with pytest.raises(StoreError, match=r"HTTP 404.*ends in /v1"):
        OpenAIEmbedder(url(server)[: -len("/v1")], "ok").embed(["a"])


def test_wrong_dimension_given(server: Server) -> None:
    with pytest.raises(StoreError, match=r"8-dimensional vectors, expected 384.*XDB_EMBED_DIM"):
        OpenAIEmbedder(url(server), "ok", dimension=384).embed(["a"])


def test_dimension_changing_between_batches(server: Server) -> None:
    embedder = OpenAIEmbedder(url(server), "shrinks", batch_size=2)
    with pytest.raises(StoreError, match="4-dimensional vectors, expected 8"):
        embedder.embed(["a", "b", "c"])


@pytest.mark.parametrize("bad", ["localhost:11434/v1", "http://[::1"])
def test_unusable_url(bad: str) -> None:
    with pytest.raises(StoreError, match="XDB_EMBED_URL"):
        OpenAIEmbedder(bad, "m", timeout=2).embed(["a"])
