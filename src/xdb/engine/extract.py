"""Lessons from a finished session's transcript (the stop hook): retry loops, failures
followed by a fix, and the user correcting the agent become raw (T3) lessons.

Transcripts read: Claude Code's JSONL (``type`` user/assistant, ``message.content`` blocks
``tool_use``, ``tool_result`` with ``is_error``, ``text``) and the Codex CLI's rollout JSONL
(``response_item`` payloads ``function_call``/``function_call_output``, ``event_msg``
``user_message``) and Gemini CLI's session file (one JSON object, ``messages`` of ``type``
user/gemini, a gemini message's ``toolCalls`` with ``name``, ``args``, ``status`` and
``result``/``resultDisplay``; written as JSONL, one message a line, by newer versions).
Rules (deterministic):

- **failure then fix**: a tool call whose result failed, and a later call of the same
  command (its first two words) that succeeded: the question is the command and its first
  error line, the answer what was done between (files edited, commands run);
- **retry loop**: the same command failing RETRIES times in a row: "stop retrying; read the
  error and change the approach";
- **user correction**: a user message that starts by correcting (no, don't, stop, wrong,
  instead, actually) right after a tool call: the question is that call, the answer the
  user's words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

RETRIES = 3
_FAILED = re.compile(
    r"(?im)^(.*(\w*error\b|\w*exception\b|\bfailed\b|\bfailure\b|\btraceback\b).*"
    r"|.*exit code [1-9]\d*.*)$"
)
_CORRECTION = re.compile(r"(?i)^\s*(no\b|don'?t\b|do not\b|stop\b|wrong\b|instead\b|actually\b"
                         r"|that'?s not\b|not like that)")  # fmt: skip


@dataclass
class Step:
    kind: str  # call, result, user
    tool: str = ""
    text: str = ""  # a call's command or path; a result's output; the user's words
    call_id: str = ""
    failed: bool = False


@dataclass
class Found:
    rule: str
    question: str
    answer: str


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text(c.get("text", c.get("content", ""))) if isinstance(c, dict)
                         else str(c) for c in content)  # fmt: skip
    return ""


def _describe(tool: str, data: object) -> str:
    if not isinstance(data, dict):
        return str(data)[:300]
    for key in ("command", "file_path", "path", "absolute_path", "pattern"):
        value = data.get(key)
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        if isinstance(value, str):
            return value[:300]
    return json.dumps(data)[:300]


def _rows(lines: Iterable[str], key: str) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(row, row[key]) of each JSONL line that is an object with an object under ``key``
    (a line that is not is skipped: transcripts end mid-write)."""
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            continue
        inner = row.get(key) if isinstance(row, dict) else None
        if isinstance(inner, dict):
            yield row, inner


def claude_steps(lines: Iterable[str]) -> list[Step]:
    steps: list[Step] = []
    for row, message in _rows(lines, "message"):
        content = message.get("content")
        if row.get("type") == "user" and isinstance(content, str):
            steps.append(Step("user", text=content))
            continue
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "tool_use":
                name = str(block.get("name", ""))
                steps.append(Step("call", name, _describe(name, block.get("input")),
                                  str(block.get("id", ""))))  # fmt: skip
            elif kind == "tool_result":
                out = _text(block.get("content"))
                failed = bool(block.get("is_error")) or bool(_FAILED.search(out[:2000]))
                steps.append(Step("result", text=out, call_id=str(block.get("tool_use_id", "")),
                                  failed=failed))  # fmt: skip
            elif kind == "text" and row.get("type") == "user":
                steps.append(Step("user", text=str(block.get("text", ""))))
    return steps


def codex_steps(lines: Iterable[str]) -> list[Step]:
    steps: list[Step] = []
    for _, payload in _rows(lines, "payload"):
        kind = payload.get("type")
        if kind == "function_call":
            try:
                args = json.loads(payload.get("arguments") or "{}")
            except ValueError:
                args = {}
            name = str(payload.get("name", ""))
            steps.append(Step("call", name, _describe(name, args), str(payload.get("call_id", ""))))
        elif kind == "function_call_output":
            out = _text(payload.get("output"))
            steps.append(Step("result", text=out, call_id=str(payload.get("call_id", "")),
                              failed=bool(_FAILED.search(out[:2000]))))  # fmt: skip
        elif kind == "user_message":
            steps.append(Step("user", text=str(payload.get("message", ""))))
    return steps


def _head(command: str) -> str:
    return " ".join(command.split()[:2])


def _first_error(text: str) -> str:
    found = _FAILED.search(text)
    return (found.group(0) if found else text.strip().splitlines()[0] if text.strip() else "")[:200]


def lessons(steps: list[Step]) -> list[Found]:
    """What the transcript teaches, by the rules above (each question once)."""
    calls = {s.call_id: s for s in steps if s.kind == "call"}
    out: dict[str, Found] = {}
    failing: dict[str, list[tuple[int, str]]] = {}  # command head -> (index, error) runs
    last_call: Step | None = None
    for i, step in enumerate(steps):
        if step.kind == "call":
            last_call = step
        elif step.kind == "user" and last_call is not None and _CORRECTION.match(step.text):
            question = f"{last_call.tool} {last_call.text}"
            out.setdefault(question, Found("correction", question, step.text.strip()[:300]))
        elif step.kind == "result" and step.call_id in calls:
            call = calls[step.call_id]
            head = _head(call.text)
            if step.failed:
                failing.setdefault(head, []).append((i, _first_error(step.text)))
                runs = failing[head]
                if len(runs) == RETRIES:
                    question = f"retrying `{call.text}`: {runs[-1][1]}"
                    answer = (
                        "stop retrying the same command; read the error and change the approach"
                    )
                    out.setdefault(question, Found("retry", question, answer))
            elif head in failing:
                first, error = failing.pop(head)[0]
                between = [s for s in steps[first:i] if s.kind == "call" and _head(s.text) != head]
                done = "; ".join(dict.fromkeys(f"{s.tool} {s.text}" for s in between)) or "a retry"
                question = f"`{call.text}` failed: {error}"
                out.setdefault(question, Found("fix", question, f"it passed after: {done}"[:300]))
    return list(out.values())


def gemini_steps(lines: Iterable[str]) -> list[Step]:
    text = "\n".join(lines)
    try:
        document = json.loads(text)
        messages = document.get("messages") if isinstance(document, dict) else document
        if isinstance(document, dict) and "messages" not in document:
            messages = [document]  # a session of one message, written as a line
    except ValueError:  # one message a line (or a file cut mid-write)
        messages = [row for row in map(_json, text.splitlines()) if isinstance(row, dict)]
    steps: list[Step] = []
    for message in messages if isinstance(messages, list) else []:
        if not isinstance(message, dict):
            continue
        if message.get("type") == "user":
            steps.append(Step("user", text=_text(message.get("content"))))
            continue
        for number, call in enumerate(message.get("toolCalls") or []):
            if not isinstance(call, dict):
                continue
            name = str(call.get("name", ""))
            call_id = str(call.get("id") or f"{message.get('id')}:{number}")
            steps.append(Step("call", name, _describe(name, call.get("args")), call_id))
            out = _gemini_output(call)
            failed = call.get("status") == "error" or bool(_FAILED.search(out[:2000]))
            steps.append(Step("result", text=out, call_id=call_id, failed=failed))
    return steps


def _json(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _gemini_output(call: dict[str, Any]) -> str:
    """A Gemini tool call's output: its function response, else what was displayed."""
    for part in call.get("result") or []:
        function = part.get("functionResponse") if isinstance(part, dict) else None
        response = function.get("response") if isinstance(function, dict) else None
        if isinstance(response, dict):
            return str(response.get("output", response.get("error", "")))
    display = call.get("resultDisplay")
    return display if isinstance(display, str) else ""
