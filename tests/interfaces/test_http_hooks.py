"""Claude Code's ``http`` hook type: ``POST /v1/hook/{agent}/{event}`` answers what ``xdb
hook`` would print, runs as the request's key's caller, and fails open (200, empty)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import xdb
from tests.engine.test_install import EDIT
from tests.serving import served
from xdb.engine.install import install, settings_path, uninstall
from xdb.interfaces.http import create_app

ADMIN = xdb.Caller(id="ops", roles=("admin",))


@pytest.fixture
def db(tmp_path: Path) -> Iterator[xdb.Database]:
    with xdb.connect(tmp_path / "h.sqlite3", embedder="hash") as handle:
        handle.add_lesson(question="registering the EF Core DbContext as a singleton",
                          answer="register it scoped", framework="dotnet")  # fmt: skip
        yield handle


def test_a_served_hook_warns_skips_and_runs_as_the_keys_caller(db: xdb.Database) -> None:
    admin = db.as_caller(ADMIN)
    admin.set_caller(id="reader", roles=["partner"])
    key = admin.create_key(caller_id="reader").key
    with served(create_app(db, mcp=False)) as url:
        hook = f"{url}/v1/hook/claude/pre-tool-use"
        read = {**EDIT, "tool_name": "Bash", "tool_input": {"command": "git status && ls"}}
        skipped = httpx.post(hook, json=read)
        assert (skipped.status_code, skipped.content) == (200, b"{}")
        # A partner may not write the session's state: nothing is shown, nothing counted.
        theirs = httpx.post(hook, json=EDIT, headers={"Authorization": f"Bearer {key}"})
        assert (theirs.status_code, theirs.content) == (200, b"{}")
        assert db.lessons().lessons[0].hits == 0
        # An empty XDB_API_KEY sends a bare "Bearer": a local serve's own caller.
        warned = httpx.post(hook, json=EDIT, headers={"Authorization": "Bearer"})
        answer = warned.json()["hookSpecificOutput"]
        assert answer["hookEventName"] == "PreToolUse"
        assert answer["additionalContext"].startswith("Last time registering the EF Core")
        assert httpx.post(hook, json=EDIT).content == b"{}"  # once a session
        bad = httpx.post(f"{url}/v1/hook/claude/pre-tool-use", content=b"{not json",
                         headers={"Content-Type": "application/json"})  # fmt: skip
        assert (bad.status_code, bad.content) == (200, b"{}")
        unknown = httpx.post(f"{url}/v1/hook/cursor/pre-tool-use", json=EDIT)
        assert (unknown.status_code, unknown.content) == (200, b"{}")


def test_after_the_tool_the_judge_runs_once_the_answer_is_sent(db: xdb.Database) -> None:
    # Runs background work before returning; as localhost, a Host the serve answers to.
    client = TestClient(create_app(db, mcp=False), base_url="http://localhost")
    client.post("/v1/hook/claude/pre-tool-use", json=EDIT)
    after: dict[str, Any] = {**EDIT, "hook_event_name": "PostToolUse", "tool_response": "ok"}
    assert client.post("/v1/hook/claude/post-tool-use", json=after).content == b"{}"
    fixed = {**after, "tool_input": {"file_path": "/src/shop/Startup.cs",
                                     "new_string": "services.AddScoped<DbContext>();"}}  # fmt: skip
    assert client.post("/v1/hook/claude/post-tool-use", json=fixed).content == b"{}"
    assert db.lessons().lessons[0].follows == 1
    gemini = {**EDIT, "session_id": "g", "tool_name": "replace"}
    shown = client.post("/v1/hook/gemini/pre-tool-use", json=gemini).json()["systemMessage"]
    carried = client.post("/v1/hook/gemini/post-tool-use", json={**gemini, "tool_response": {}})
    assert carried.json()["hookSpecificOutput"]["additionalContext"] == shown


def test_install_writes_http_hooks_and_uninstall_removes_them(tmp_path: Path) -> None:
    path = settings_path("claude", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text('{\n  "model": "opus"\n}\n')
    install("claude", tmp_path, url="http://127.0.0.1:8765/")
    hooks = json.loads(path.read_text())["hooks"]
    entry = hooks["PreToolUse"][0]["hooks"][0]
    assert entry["type"] == "http"
    assert entry["url"] == "http://127.0.0.1:8765/v1/hook/claude/pre-tool-use"
    assert entry["headers"] == {"Authorization": "Bearer $XDB_API_KEY"}
    assert entry["allowedEnvVars"] == ["XDB_API_KEY"]
    assert uninstall("claude", tmp_path) == (path, 5)
    assert path.read_text() == '{\n  "model": "opus"\n}\n'
    with pytest.raises(ValueError, match="only Claude Code"):
        install("codex", tmp_path, url="http://127.0.0.1:8765")
    with pytest.raises(ValueError, match="not an http"):
        install("claude", tmp_path, url="localhost:8765")


def test_refusals_and_big_bodies_still_let_the_agent_go_on(db: xdb.Database) -> None:
    admin = db.as_caller(ADMIN)
    admin.create_key(caller_id="self")
    with served(create_app(db, mcp=False, require_keys=True)) as url:
        hook = f"{url}/v1/hook/claude/pre-tool-use"
        for headers in ({}, {"Authorization": "Bearer xdb_wrong_key"}):
            refused = httpx.post(hook, json=EDIT, headers=headers)
            assert (refused.status_code, refused.content) == (200, b"{}")
        other = httpx.post(f"{url}/v1/xdb/recent", json={})
        assert other.status_code == 401  # every other route still says why
    with served(create_app(db, mcp=False)) as url:
        written = {"file_path": "/src/shop/data.cs", "content": "x" * 5_000_000}  # over 4 MiB
        big = {**EDIT, "tool_name": "Write", "tool_input": written}
        answered = httpx.post(f"{url}/v1/hook/claude/post-tool-use", json=big, timeout=60)
        assert (answered.status_code, answered.content) == (200, b"{}")
    # Over the bulk limit too: refused unread, and still "go on".
    with served(create_app(db, mcp=False, message_limit=1_000_000)) as url:
        answered = httpx.post(f"{url}/v1/hook/claude/post-tool-use", json=big, timeout=60)
        assert (answered.status_code, answered.content) == (200, b"{}")
        sessions = db.status().sessions.total
        assert sessions == 0  # nothing of the refused call was written
