"""Transcripts written as each agent writes them, for the extraction tests: Claude Code's
session JSONL, the Codex CLI's rollout JSONL and Gemini CLI's session file."""

from __future__ import annotations

import json
from typing import Any


class ClaudeLog:
    """Rows of a Claude Code session (``~/.claude/projects/<project>/<session>.jsonl``):
    each with its uuid, parent, session and cwd; tool calls in assistant messages, their
    results in user rows (``is_error`` set by Claude Code, ``toolUseResult`` beside)."""

    def __init__(self, cwd: str = "/home/dev/shop") -> None:
        self.rows: list[dict[str, Any]] = []
        self.cwd = cwd
        self.calls = 0

    def _row(self, kind: str, message: dict[str, Any], **extra: Any) -> None:
        n = len(self.rows)
        self.rows.append({
            "parentUuid": f"u{n - 1}" if n else None, "isSidechain": False,
            "userType": "external", "cwd": self.cwd, "sessionId": "5c1e0a2b-session",
            "version": "1.0.98", "gitBranch": "main", "type": kind, "message": message,
            "uuid": f"u{n}", "timestamp": f"2026-11-25T10:{n // 60:02d}:{n % 60:02d}.000Z",
            **extra,
        })  # fmt: skip

    def user(self, text: str, **extra: Any) -> None:
        self._row("user", {"role": "user", "content": text}, **extra)

    def call(self, name: str, data: dict[str, Any], output: str, error: bool = False) -> str:
        """A tool call and its result; the call's id."""
        self.calls += 1
        call_id = f"toolu_01{self.calls:04d}"
        self._row("assistant", {
            "id": f"msg_{self.calls}", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5", "stop_reason": "tool_use",
            "content": [{"type": "text", "text": "Running it."},
                        {"type": "tool_use", "id": call_id, "name": name, "input": data}],
        })  # fmt: skip
        content = [{"type": "text", "text": output}] if self.calls % 2 else output
        result: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id,
                                  "content": content}  # fmt: skip
        if error:
            result["is_error"] = True
        self._row("user", {"role": "user", "content": [result]},
                  toolUseResult=f"Error: {output}" if error else {"stdout": output})  # fmt: skip
        return call_id

    def bash(self, command: str, output: str, code: int = 0) -> str:
        # Claude Code's Bash answers a non-zero exit with "Exit code N" and the output.
        text = f"Exit code {code}\n{output}" if code else output
        return self.call("Bash", {"command": command, "description": "run"}, text, bool(code))

    def lines(self) -> list[str]:
        return [json.dumps(row) for row in self.rows]


class CodexLog:
    """Rows of a Codex CLI rollout (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``)."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = [
            {"timestamp": "2026-11-25T10:00:00Z", "type": "session_meta",
             "payload": {"id": "0199", "cwd": "/home/dev/api", "originator": "codex_cli_rs"}},
        ]  # fmt: skip
        self.calls = 0

    def _item(self, payload: dict[str, Any], kind: str = "response_item") -> None:
        self.rows.append({"timestamp": "2026-11-25T10:00:01Z", "type": kind, "payload": payload})

    def user(self, text: str) -> None:
        self._item({"type": "message", "role": "user",
                    "content": [{"type": "input_text", "text": text}]})  # fmt: skip
        self._item({"type": "user_message", "message": text, "images": []}, "event_msg")

    def shell(self, argv: list[str], output: str, code: int = 0, text_output: bool = False) -> None:
        """A ``shell`` function call; its output as older versions wrote it (JSON with the
        exit code) or newer ones (text, "Exit code: N" first)."""
        self.calls += 1
        call_id = f"call_{self.calls}"
        self._item(
            {
                "type": "function_call",
                "name": "shell",
                "call_id": call_id,
                "arguments": json.dumps({"command": argv, "workdir": "/home/dev/api"}),
            }
        )
        if text_output:
            out = f"Exit code: {code}\nWall time: 0.4 seconds\nOutput:\n{output}"
        else:
            out = json.dumps(
                {"output": output, "metadata": {"exit_code": code, "duration_seconds": 0.4}}
            )
        self._item({"type": "function_call_output", "call_id": call_id, "output": out})

    def local_shell(self, argv: list[str], output: str, code: int = 0) -> None:
        self.calls += 1
        call_id = f"call_{self.calls}"
        self._item({"type": "local_shell_call", "call_id": call_id, "status": "completed",
                    "action": {"type": "exec", "command": argv, "timeout_ms": 10000}})  # fmt: skip
        out = json.dumps({"output": output, "metadata": {"exit_code": code}})
        self._item({"type": "function_call_output", "call_id": call_id, "output": out})

    def patch(self, patch: str, output: str) -> None:
        self.calls += 1
        call_id = f"call_{self.calls}"
        self._item({"type": "custom_tool_call", "name": "apply_patch", "call_id": call_id,
                    "input": patch, "status": "completed"})  # fmt: skip
        self._item({"type": "custom_tool_call_output", "call_id": call_id, "output": output})

    def lines(self) -> list[str]:
        return [json.dumps(row) for row in self.rows]


def gemini_shell_output(command: str, stderr: str, code: int) -> str:
    """What Gemini CLI's run_shell_command gives the model (its status stays success)."""
    return (f"Command: {command}\nDirectory: (root)\nStdout: (empty)\nStderr: {stderr or '(empty)'}"
            f"\nError: (none)\nExit Code: {code}\nSignal: (none)\nBackground PIDs: (none)"
            "\nProcess Group PGID: 48213")  # fmt: skip


class GeminiLog:
    """A Gemini CLI session file (``~/.gemini/tmp/<project hash>/chats/session-*.json``)."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def user(self, text: str) -> None:
        self.messages.append({"id": f"m{len(self.messages)}", "type": "user",
                              "timestamp": "2026-11-25T10:00:00Z", "content": text})  # fmt: skip

    def call(self, name: str, args: dict[str, Any], output: str, status: str = "success") -> None:
        n = len(self.messages)
        response = {"functionResponse": {"id": f"g{n}", "name": name,
                                         "response": {"output": output}}}  # fmt: skip
        call = {"id": f"g{n}", "name": name, "args": args, "status": status,
                "result": [response], "resultDisplay": output, "displayName": name}  # fmt: skip
        self.messages.append({"id": f"m{n}", "type": "gemini", "content": "",
                              "model": "gemini-2.5-pro", "toolCalls": [call]})  # fmt: skip

    def shell(self, command: str, stderr: str = "", code: int = 0) -> None:
        self.call("run_shell_command", {"command": command},
                  gemini_shell_output(command, stderr, code))  # fmt: skip

    def document(self) -> dict[str, Any]:
        return {"sessionId": "9f1c", "projectHash": "ab12", "startTime": "2026-11-25T10:00:00Z",
                "lastUpdated": "2026-11-25T10:05:00Z", "messages": self.messages}  # fmt: skip
