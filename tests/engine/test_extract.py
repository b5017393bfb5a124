"""Raw lessons from transcripts: Claude Code's and the Codex CLI's session logs, by the
extraction rules; stored once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import xdb
from xdb.engine.extract import claude_steps, codex_steps, gemini_steps, lessons


def claude_transcript() -> list[dict[str, Any]]:
    def call(i: int, name: str, data: dict[str, Any]) -> dict[str, Any]:
        block = {"type": "tool_use", "id": f"t{i}", "name": name, "input": data}
        return {"type": "assistant", "message": {"role": "assistant", "content": [block]}}

    def result(i: int, text: str, error: bool = False) -> dict[str, Any]:
        block = {"type": "tool_result", "tool_use_id": f"t{i}", "content": text,
                 "is_error": error}  # fmt: skip
        return {"type": "user", "message": {"role": "user", "content": [block]}}

    return [
        {"type": "user", "message": {"role": "user", "content": "make the tests pass"}},
        call(1, "Bash", {"command": "pytest tests/test_api.py"}),
        result(1, "E   ImportError: cannot import name 'client'\n1 failed", True),
        call(2, "Edit", {"file_path": "/p/src/api.py", "old_string": "a", "new_string": "b"}),
        result(2, "ok"),
        call(3, "Bash", {"command": "pytest tests/test_api.py"}),
        result(3, "3 passed"),
        call(4, "Bash", {"command": "git push --force"}),
        result(4, "done"),
        {"type": "user", "message": {"role": "user", "content": "no, never force-push main"}},
        *[x for i in (5, 6, 7) for x in (call(i, "Bash", {"command": "npm run build"}),
                                         result(i, "Error: cannot find module", True))],
    ]  # fmt: skip


def test_claude_code_transcripts_teach_three_kinds_of_lesson() -> None:
    steps = claude_steps(json.dumps(r) for r in claude_transcript())
    found = {f.rule: f for f in lessons(steps)}
    assert set(found) == {"fix", "correction", "retry"}
    assert found["fix"].question.startswith("`pytest tests/test_api.py` failed: E   ImportError")
    assert found["fix"].answer == "it passed after: Edit /p/src/api.py"
    assert found["correction"].question == "Bash git push --force"
    assert found["correction"].answer == "no, never force-push main"
    assert found["retry"].question.startswith("retrying `npm run build`: Error")


def test_codex_transcripts_read_alike() -> None:
    rows = [
        {"type": "event_msg", "payload": {"type": "user_message", "message": "deploy it"}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "shell",
         "call_id": "c1", "arguments": json.dumps({"command": ["cargo", "test"]})}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1",
         "output": "error[E0425]: cannot find value `x`"}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "apply_patch",
         "call_id": "c2", "arguments": json.dumps({"input": "*** Update File: src/main.rs"})}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c2",
         "output": "Done"}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "shell",
         "call_id": "c3", "arguments": json.dumps({"command": ["cargo", "test"]})}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c3",
         "output": "test result: ok. 4 passed"}},
        "not json at all",
    ]  # fmt: skip
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    (fix,) = lessons(codex_steps(lines))
    assert fix.question == "`cargo test` failed: error[E0425]: cannot find value `x`"
    assert fix.answer.startswith("it passed after: apply_patch")


def gemini_session() -> dict[str, Any]:
    def call(i: int, name: str, args: dict[str, Any], output: str, status: str) -> dict[str, Any]:
        response = {"functionResponse": {"id": f"g{i}", "name": name,
                                         "response": {"output": output}}}  # fmt: skip
        return {"id": f"g{i}", "name": name, "args": args, "status": status,
                "result": [response], "resultDisplay": output}  # fmt: skip

    def said(i: int, *calls: dict[str, Any]) -> dict[str, Any]:
        return {"id": f"m{i}", "type": "gemini", "content": "", "toolCalls": list(calls)}

    return {
        "sessionId": "9f1c", "projectHash": "ab12", "startTime": "2026-11-25T10:00:00Z",
        "messages": [
            {"id": "m0", "type": "user", "content": [{"text": "fix the build"}]},
            said(1, call(1, "run_shell_command", {"command": "go build ./..."},
                         "main.go:3:2: undefined: fmt.Printl", "error")),
            said(2, call(2, "replace", {"file_path": "/p/main.go", "old_string": "Printl",
                                        "new_string": "Println"}, "ok", "success")),
            said(3, call(3, "run_shell_command", {"command": "go build ./..."}, "", "success"),
                 call(4, "write_file", {"file_path": "/p/.env", "content": "KEY=1"}, "ok",
                      "success")),
            {"id": "m4", "type": "user", "content": "don't write secrets into .env files"},
        ],
    }  # fmt: skip


def test_gemini_session_files_read_alike() -> None:
    document = gemini_session()
    as_file = json.dumps(document, indent=2).splitlines()
    as_lines = [json.dumps(m) for m in document["messages"]]  # one message a line
    for lines in (as_file, as_lines):
        found = {f.rule: f for f in lessons(gemini_steps(lines))}
        assert set(found) == {"fix", "correction"}
        assert (
            found["fix"].question == "`go build ./...` failed: main.go:3:2: undefined: fmt.Printl"
        )
        assert found["fix"].answer == "it passed after: replace /p/main.go"
        assert found["correction"].question == "write_file /p/.env"
    assert gemini_steps(["{not json"]) == []


def test_extraction_stores_raw_lessons_once(db: xdb.Database, tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in claude_transcript()))
    made = db.extract(session_id="s", transcript_path=str(path), cwd="/home/u/shop")
    assert made.found == 3 and len(made.lesson_ids) == 3
    stored = db.lessons(tier="T3").lessons
    assert {s.project for s in stored} == {"shop"} and {s.tier for s in stored} == {"T3"}
    again = db.extract(session_id="s", transcript_path=str(path))
    assert again.found == 3 and again.lesson_ids == []  # each question once
    with pytest.raises(xdb.InvalidRequest, match="transcript_path"):
        db.extract(session_id="s", transcript_path=str(tmp_path / "missing.jsonl"))


def test_extraction_reads_a_gemini_session_file(db: xdb.Database, tmp_path: Path) -> None:
    path = tmp_path / "session-2026-11-25T10-00-9f1c.json"
    path.write_text(json.dumps(gemini_session()))
    made = db.extract(agent="gemini", session_id="g", transcript_path=str(path), cwd="/w/api")
    assert made.found == 2 and len(made.lesson_ids) == 2
    by_question = {les.question: les for les in db.lessons(tier="T3").lessons}
    assert (
        by_question["`go build ./...` failed: main.go:3:2: undefined: fmt.Printl"].language == "go"
    )
    assert by_question["write_file /p/.env"].project == "api"
