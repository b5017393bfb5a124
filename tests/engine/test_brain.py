"""Layer 3 with a brain: an OpenAI-compatible chat model picks the warnings that apply; a
brain that is down, hangs or talks nonsense lets the whole shortlist through (fail open)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from typing import Any

import pytest

import xdb
from tests.local_http import JsonHandler, serving, v1_url
from xdb.engine.brain import Brain, brain_from_env

RELEASE = threading.Event()


class Server(ThreadingHTTPServer):
    answer: str
    requests: list[dict[str, Any]]


class Handler(JsonHandler):
    server: Server

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        if self.server.answer == "hang":
            RELEASE.wait(30)
            return
        reply = {"choices": [{"message": {"role": "assistant", "content": self.server.answer}}]}
        self._send(200, json.dumps(reply).encode())


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    srv = Server(("127.0.0.1", 0), Handler)
    srv.requests = []
    with serving(srv):
        yield srv
        RELEASE.set()


@pytest.mark.parametrize(
    ("answer", "picked"), [("2", [1]), ("1, 3", [0, 2]), ("0", []), ("none", None)]
)
def test_the_brain_picks_by_number(server: Server, answer: str, picked: list[int] | None) -> None:
    server.answer = answer
    brain = Brain(v1_url(server), "tiny")
    assert brain.pick("Edit Startup.cs", ["a", "b", "c"]) == picked
    sent = server.requests[-1]
    assert sent["model"] == "tiny" and sent["max_tokens"] == 8
    assert "ACTION: Edit Startup.cs" in sent["messages"][1]["content"]


def test_a_hanging_brain_fails_open_in_time(server: Server) -> None:
    server.answer = "hang"
    brain = Brain(v1_url(server), "tiny", timeout_s=0.5)
    started = time.monotonic()
    assert brain.pick("Edit", ["a"]) is None
    assert time.monotonic() - started < 3 and brain.last_failure is not None


def test_configuration_errors_name_the_variable() -> None:
    assert brain_from_env({}) is None
    with pytest.raises(xdb.InvalidRequest, match="XDB_BRAIN_MODEL"):
        brain_from_env({"XDB_BRAIN_URL": "http://x/v1"})
    with pytest.raises(xdb.InvalidRequest, match="XDB_BRAIN_TIMEOUT_S"):
        brain_from_env({"XDB_BRAIN_URL": "http://x/v1", "XDB_BRAIN_MODEL": "m",
                        "XDB_BRAIN_TIMEOUT_S": "soon"})  # fmt: skip


def test_check_asks_the_brain_and_fails_open(
    server: Server, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDB_BRAIN_URL", v1_url(server))
    monkeypatch.setenv("XDB_BRAIN_MODEL", "tiny")
    monkeypatch.setenv("XDB_BRAIN_TIMEOUT_S", "0.5")
    with xdb.connect(tmp_path / "x.sqlite3", embedder="hash") as db:
        made = db.add_lesson(question="registering DbContext as a singleton",
                             answer="register it scoped", framework="dotnet").lesson  # fmt: skip
        action = {"file_path": "/p/Startup.cs", "new_string": "AddSingleton<DbContext>()"}
        server.answer = "0"  # the brain says none applies
        assert db.check(session_id="a", tool_name="Edit", tool_input=action).warnings == []
        server.answer = "hang"  # fail open: the shortlist passes
        got = db.check(session_id="b", tool_name="Edit", tool_input=action)
        assert [w.lesson_id for w in got.warnings] == [made.lesson_id]
