"""Layer 3 with a brain: an OpenAI-compatible chat model picks the warnings that apply; a
brain that is down, hangs or talks nonsense lets the whole shortlist through (fail open)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import xdb
from tests.engine.test_lessons import CLUSTER
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


@contextmanager
def _with_brain(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[xdb.Database]:
    """A database whose engine asks ``server`` as its brain (0.5 s before failing open)."""
    monkeypatch.setenv("XDB_BRAIN_URL", v1_url(server))
    monkeypatch.setenv("XDB_BRAIN_MODEL", "tiny")
    monkeypatch.setenv("XDB_BRAIN_TIMEOUT_S", "0.5")
    with xdb.connect(tmp_path / "x.sqlite3", embedder="hash") as db:
        yield db


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
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _with_brain(server, tmp_path, monkeypatch) as db:
        made = db.add_lesson(question="registering DbContext as a singleton",
                             answer="register it scoped", framework="dotnet").lesson  # fmt: skip
        action = {"file_path": "/p/Startup.cs", "new_string": "AddSingleton<DbContext>()"}
        server.answer = "0"  # the brain says none applies
        assert db.check(session_id="a", tool_name="Edit", tool_input=action).warnings == []
        server.answer = "hang"  # fail open: the shortlist passes
        got = db.check(session_id="b", tool_name="Edit", tool_input=action)
        assert [w.lesson_id for w in got.warnings] == [made.lesson_id]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("FOLLOWED", ("followed", None)),
        ("Ignored.", ("ignored", None)),
        ("IRRELEVANT wrong_language", ("irrelevant", "wrong_language")),
        ("irrelevant", ("irrelevant", None)),
        ("NOT FOLLOWED", ("unclear", None)),
        ("unfollowed", ("unclear", None)),
        ("UNCLEAR", ("unclear", None)),
        ("followed, not ignored", ("followed", None)),
        ("maybe", None),
    ],
)
def test_the_brain_judges_in_one_word(server: Server, answer: str, expected: Any) -> None:
    server.answer = answer
    brain = Brain(v1_url(server), "tiny")
    assert brain.judge("Last time X -> Y", "Edit a.cs", "ok") == expected
    assert "WARNING: Last time X -> Y" in server.requests[-1]["messages"][1]["content"]


def test_the_brain_words_a_principle(server: Server) -> None:
    brain = Brain(v1_url(server), "tiny")
    server.answer = (
        "When a DbContext lifetime failure appears, do register it scoped because a singleton"
        " shares one context across requests."
    )
    when, do = brain.principle([("a", "b"), ("c", "d")]) or ("", "")
    assert when == "When a DbContext lifetime failure appears"
    assert do == "do register it scoped because a singleton shares one context across requests"
    server.answer = "Register things properly."
    assert brain.principle([("a", "b")]) is None


LESSON: dict[str, Any] = {
    "question": "registering DbContext with AddSingleton in Startup.cs",
    "answer": "use AddScoped for DbContext", "framework": "dotnet",
}  # fmt: skip


def _edit(text: str) -> dict[str, Any]:
    return {"file_path": "/p/Startup.cs", "new_string": text}


def test_the_judge_takes_the_brains_verdict_and_falls_back_to_the_rules(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _with_brain(server, tmp_path, monkeypatch) as db:
        made = db.add_lesson(**LESSON).lesson
        server.answer = "1"
        for session in ("a", "b"):
            assert db.check(session_id=session, tool_name="Edit",
                            tool_input=_edit("AddSingleton<DbContext>()")).warnings  # fmt: skip
            db.judge(session_id=session, tool_name="Edit", tool_input=_edit("x"))
        # The rules would say followed (AddScoped); the brain says the warning was beside
        # the point, in words the judge records.
        server.answer = "IRRELEVANT stale_rule"
        said = db.judge(session_id="a", tool_name="Edit", tool_input=_edit("AddScoped<DbContext>"),
                        tool_response="ok")  # fmt: skip
        assert [(v.verdict, v.reason) for v in said.verdicts] == [("irrelevant", "stale_rule")]
        assert "RESULT: ok" in server.requests[-1]["messages"][1]["content"]
        # UNCLEAR from the brain waits for a later call, within the judge's window.
        server.answer = "UNCLEAR"
        waiting = db.judge(session_id="b", tool_name="Edit", tool_input=_edit("y"))
        assert waiting.verdicts == [] and waiting.pending == 1
        server.answer = "hang"  # no answer: the rules decide
        ruled = db.judge(session_id="b", tool_name="Edit", tool_input=_edit("AddScoped<DbContext>"))
        assert [v.verdict for v in ruled.verdicts] == ["followed"]
        assert db.lesson(made.lesson_id).lesson.noise == {"stale_rule": 1}


def test_a_principle_is_worded_by_the_brain(
    server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.answer = (
        "When a DbContext lifetime failure appears, do scope it because requests differ."
    )
    with _with_brain(server, tmp_path, monkeypatch) as db:
        ids = [
            db.add_lesson(question=q, answer=a, framework="dotnet", domain="data").lesson.lesson_id
            for q, a in CLUSTER
        ]
        made = [db.feedback(lesson_id=i, verdict="followed") for i in ids for _ in range(2)]
        principle = db.lesson(made[-1].principle_id or "")
        assert principle.lesson.question == "When a DbContext lifetime failure appears"
        assert principle.lesson.answer == "do scope it because requests differ"
        assert (
            "registering DbContext as a singleton" in server.requests[-1]["messages"][1]["content"]
        )
