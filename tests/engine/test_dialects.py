"""Each agent's hook payloads (as their documentation shows them) read into one shape, and
answers written in each dialect; the runner fails open."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

from xdb.engine import hook
from xdb.engine.dialects import parse, render

CLAUDE_PRE = {
    "session_id": "abc123",
    "transcript_path": "/home/u/.claude/projects/p/abc123.jsonl",
    "cwd": "/home/u/project",
    "permission_mode": "default",
    "hook_event_name": "PreToolUse",
    "tool_name": "Edit",
    "tool_input": {"file_path": "/home/u/project/Startup.cs", "old_string": "a", "new_string": "b"},
    "tool_use_id": "toolu_01ABC123",
}
CLAUDE_POST = {
    **CLAUDE_PRE,
    "hook_event_name": "PostToolUse",
    "tool_response": {"filePath": "/home/u/project/Startup.cs", "success": True},
}
CODEX_PRE = {
    "session_id": "019a-codex",
    "transcript_path": "/home/u/.codex/sessions/2026/11/25/rollout.jsonl",
    "cwd": "/home/u/project",
    "hook_event_name": "PreToolUse",
    "model": "gpt-5-codex",
    "tool_name": "Bash",
    "tool_input": {"command": "dotnet ef database update"},
}
GEMINI_BEFORE = {
    "session_id": "gem-1",
    "transcript_path": "/home/u/.gemini/tmp/chats/session.json",
    "cwd": "/home/u/project",
    "hook_event_name": "BeforeTool",
    "timestamp": "2026-11-25T10:00:00Z",
    "tool_name": "run_shell_command",
    "tool_input": {"command": "rm -rf node_modules"},
}
GEMINI_AFTER = {**GEMINI_BEFORE, "hook_event_name": "AfterTool",
                "tool_response": {"llmContent": "done", "returnDisplay": "done"}}  # fmt: skip
PROMPT = {"session_id": "abc123", "cwd": "/p", "hook_event_name": "UserPromptSubmit",
          "prompt": "fix the login bug"}  # fmt: skip


@pytest.mark.parametrize(
    ("agent", "event", "payload", "tool"),
    [
        ("claude", "pre-tool-use", CLAUDE_PRE, "Edit"),
        ("claude", "post-tool-use", CLAUDE_POST, "Edit"),
        ("codex", "pre-tool-use", CODEX_PRE, "Bash"),
        ("gemini", "pre-tool-use", GEMINI_BEFORE, "run_shell_command"),
        ("gemini", "post-tool-use", GEMINI_AFTER, "run_shell_command"),
    ],
)
def test_each_agents_tool_calls_read_alike(
    agent: str, event: str, payload: dict[str, Any], tool: str
) -> None:
    call = parse(agent, event, json.dumps(payload))
    assert (call.agent, call.event, call.tool_name) == (agent, event, tool)
    assert call.session_id == payload["session_id"] and call.cwd == "/home/u/project"
    assert call.tool_input == payload["tool_input"]
    assert call.tool_response == payload.get("tool_response")


def test_a_prompt_and_a_stop_read() -> None:
    assert parse("claude", "user-prompt", json.dumps(PROMPT)).prompt == "fix the login bug"
    stop = parse("codex", "stop", json.dumps({"session_id": "s", "transcript_path": "/t.jsonl"}))
    assert stop.transcript_path == "/t.jsonl" and stop.tool_name is None


@pytest.mark.parametrize(
    ("agent", "event", "expected"),
    [
        ("claude", "pre-tool-use", {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                                           "additionalContext": "W"}}),
        ("claude", "session-start", {"hookSpecificOutput": {"hookEventName": "SessionStart",
                                                            "additionalContext": "W"}}),
        ("codex", "pre-tool-use", {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                                          "additionalContext": "W"}}),
        ("gemini", "pre-tool-use", {"systemMessage": "W"}),
        ("gemini", "post-tool-use", {"hookSpecificOutput": {"hookEventName": "AfterTool",
                                                            "additionalContext": "W"}}),
        ("gemini", "user-prompt", {"hookSpecificOutput": {"hookEventName": "BeforeAgent",
                                                          "additionalContext": "W"}}),
    ],
)  # fmt: skip
def test_answers_in_each_dialect(agent: str, event: str, expected: dict[str, Any]) -> None:
    assert json.loads(render(agent, event, "W")) == expected


def test_nothing_to_say_prints_nothing() -> None:
    assert render("claude", "pre-tool-use", None) == ""
    assert render("claude", "stop", "W") == ""  # Stop takes no context


def test_a_read_only_call_skips_the_full_path() -> None:
    calls: list[str] = []

    def full(call: Any) -> str:
        calls.append(call.tool_name)
        return render(call.agent, call.event, "Last time this caused X [id:a1b2 col:behavioral]")

    read = {**CLAUDE_PRE, "tool_name": "Bash", "tool_input": {"command": "git status && ls"}}
    assert hook.answer("claude", "pre-tool-use", json.dumps(read), full) == ""
    out = hook.answer("claude", "pre-tool-use", json.dumps(CLAUDE_PRE), full)
    assert json.loads(out)["hookSpecificOutput"]["additionalContext"].startswith("Last time")
    assert calls == ["Edit"]


@pytest.mark.parametrize("stdin", ["", "not json", "[1, 2]", '{"tool_input": 7}', "\x00\xff"])
def test_malformed_stdin_fails_open(stdin: str) -> None:
    def full(call: Any) -> str:
        raise RuntimeError("the database is locked")

    out = io.StringIO()
    assert hook.main(["claude", "pre-tool-use"], io.StringIO(stdin), out, full) == 0
    assert out.getvalue() == ""


def test_a_failing_full_path_fails_open() -> None:
    def full(call: Any) -> str:
        raise OSError("no such database")

    assert hook.answer("codex", "pre-tool-use", json.dumps(CODEX_PRE), full) == ""


def test_the_skip_path_runs_on_the_standard_library_alone() -> None:
    code = (
        "import io, sys; from xdb.launch import main;"
        "sys.stdin = io.StringIO(sys.argv[1]); main(['hook', 'claude', 'pre-tool-use']);"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in"
        " ('pydantic', 'httpx', 'click', 'numpy') or m.startswith(('xdb.store', 'xdb.core'))))"
    )
    payload = json.dumps({**CLAUDE_PRE, "tool_name": "Read", "tool_input": {"file_path": "a"}})
    out = subprocess.run(
        [sys.executable, "-c", code, payload], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]"
