"""A finished session's transcript read into steps (tool calls, their results, the user's
words), for the extraction rules (``xdb.engine.extract``).

Formats read:

- Claude Code's JSONL: rows of ``type`` user/assistant, ``message.content`` blocks
  ``tool_use`` (``id``, ``name``, ``input``), ``tool_result`` (``tool_use_id``, ``content``,
  ``is_error``) and ``text``; rows marked ``isMeta`` or ``isSidechain`` carry no words of
  the user (a slash command's output, a subagent's prompt);
- the Codex CLI's rollout JSONL: ``response_item`` payloads ``function_call`` (``arguments``
  a JSON string), ``local_shell_call`` (``action.command`` argv), ``custom_tool_call``
  (``input``: a patch) and their ``*_output`` by ``call_id``, the output either text
  (``Exit code: N`` first) or JSON ``{"output", "metadata": {"exit_code"}}``; the user's
  words are ``event_msg`` ``user_message``;
- Gemini CLI's session file: one JSON object whose ``messages`` are of ``type`` user or
  gemini, a gemini message's ``toolCalls`` with ``name``, ``args``, ``status``
  (success, error, cancelled) and ``result``/``resultDisplay``; newer versions write one
  message a line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from xdb.engine.calls import command_text

__all__ = ["Step", "change_lines", "claude_steps", "codex_steps", "describe", "gemini_steps",
           "informative_error"]  # fmt: skip

# Failure words in an output whose agent does not say whether the call failed (Codex's
# older outputs, a Gemini result without an exit code).
FAILED = re.compile(
    r"(?im)^(.*(\w*error\b|\w*exception\b|\bfailed\b|\bfailure\b|\btraceback\b).*"
    r"|.*exit code [1-9]\d*.*)$"
)
# "Exit code 1" (Claude Code), "Exit code: 1" (Codex), "Exit Code: 1" (Gemini CLI).
_EXIT = re.compile(r"(?im)^\W*exit code:?\s*(-?\d+)\b")
# A call the user refused (Claude Code's answer for a rejected tool use; Gemini's status
# "cancelled"): not a failure of the call, and what the user says next corrects it.
_REJECTED = re.compile(
    r"(?i)user doesn'?t want to (proceed|take this action)|tool use was rejected"
)
_REASON = re.compile(r"(?is)(?:the user said|reason for the rejection|user provided the following"
                     r" reason[^:]*):\s*(.+)")  # fmt: skip
# User rows that are not the user's words: slash commands and their output, interruptions.
_NOT_WORDS = re.compile(r"(?s)^\s*(<command-|<local-command|caveat:|\[request interrupted)", re.I)
_REMINDER = re.compile(r"(?s)<system-reminder>.*?</system-reminder>")
_PATH_KEYS = ("file_path", "path", "absolute_path", "notebook_path", "filename")
LINE_CHARS = 100  # of one line of an edit's content in a lesson
CONTENT_LINES = 6  # lines of an edit's content a lesson keeps
DESCRIBE_CHARS = 400
ERROR_CHARS = 200

# Output lines that say only that something failed, the same for every failure (Claude
# Code's "Exit code 1", Codex's and Gemini's headers, npm/yarn/make/pytest boilerplate):
# two failures alike in these alone are not alike.
_GENERIC = re.compile(r"""(?ix)^(
    (error:?\s*)?exit\ code:?\s*-?\d+\.?
  | (error:?\s*)?(the\ )?(command|process|script)\ (failed|exited|returned)
    (\ with)?(\ (non-zero|exit))?(\ (code|status))?(\ -?\d+)?\.?
  | error\ command\ failed\ with\ exit\ code\ \d+\.?
  | elifecycle\b.* | .*\bexited\ with\ (exit\ )?code\ -?\d+\.?
  | npm\ (err!|error)(\ (code|errno|command|path|cwd|signal|lifecycle|a\ complete\ log
      |this\ is\ probably|failed\ at\ the|.*complete\ log\ of\ this\ run)\b.*)?
  | make(\[\d+\])?:\ \*\*\*.*
  | traceback\ \(most\ recent\ call\ last\):?
  | (during\ handling\ of\ the|the\ above\ exception)\b.*
  | (wall\ time|signal|background\ pids|process\ group\ pgid|directory|command):.*
  | (error|stderr|stdout|output):?\s*(\(none\))?
  | failed\.? | failure\.?
  | \[?process\ exited\ with\ code\ -?\d+\]?
  | shell\ cwd\ was\ reset\ to\ .*
  | [=_*-]{3,}.*
)\s*$""")
_LABEL = re.compile(r"(?i)^(stderr|stdout|output):\s+(?!\(none\))")  # Gemini's labels
_TAGS = re.compile(r"</?[a-z_]*error>")
# Words of a line that says what went wrong; then words that only say that it did.
_ERRORISH = re.compile(
    r"(?i)error|exception|fatal|panic|denied|not found|no such|cannot|can't|could ?n[o']t"
    r"|refused|invalid|undefined|missing|unable|conflict|rejected|forbidden|unauthori[sz]ed"
    r"|timed out|not allowed|already exists|unknown"
)
_FAILISH = re.compile(r"(?i)fail|abort")


@dataclass
class Step:
    kind: str  # call, result, user
    tool: str = ""
    text: str = ""  # a call's description; a result's output; the user's words
    call_id: str = ""
    failed: bool = False
    data: dict[str, Any] = field(default_factory=dict)  # a call's input as the agent sent it
    rejected: bool = False  # a result: the user refused the call


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text(c.get("text", c.get("content", ""))) if isinstance(c, dict)
                         else str(c) for c in content)  # fmt: skip
    return ""


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _lines(text: object) -> list[str]:
    return [line.strip() for line in str(text or "").splitlines() if line.strip()]


def change_lines(data: dict[str, Any]) -> list[str]:
    """What an edit or write puts in the file, as "- removed" and "+ added" lines: the lines
    that differ between an edit's old and new text (its context left out), a write's
    first lines, a patch's -/+ lines."""
    edits = data.get("edits")
    pairs = [e for e in edits if isinstance(e, dict)] if isinstance(edits, list) else [data]
    out: list[str] = []
    for pair in pairs:
        old = _lines(pair.get("old_string", pair.get("old_str")))
        new = _lines(pair.get("new_string", pair.get("new_str", pair.get("new_source"))))
        out += [f"- {line}" for line in old if line not in new]
        out += [f"+ {line}" for line in new if line not in old]
    if not out and isinstance(data.get("content"), str):
        out = [f"+ {line}" for line in _lines(data["content"])]
    patch = next((v for k in ("input", "patch") if isinstance(v := data.get(k), str)), "")
    if not out and "*** " in patch:
        out = [f"{line[0]} {line[1:].strip()}" for line in patch.splitlines()
               if line[:1] in "+-" and line[1:].strip()]  # fmt: skip
    return [_clip(line, LINE_CHARS) for line in out]


def _patch_files(text: str) -> list[str]:
    return re.findall(r"(?m)^\*\*\* (?:Update|Add|Delete) File: (.+)$", text)


def describe(tool: str, data: object) -> str:
    """A call in one line: a command as written; an edit or write as its file and what it
    writes there (a lesson from it keeps what was written, not only where)."""
    if not isinstance(data, dict):
        return _clip(str(data), DESCRIBE_CHARS)
    command = command_text(data)
    if command is not None and "*** Begin Patch" not in command:
        return _clip(" ".join(command.split()), DESCRIBE_CHARS)
    path = next((v for k in _PATH_KEYS if isinstance(v := data.get(k), str) and v), "")
    patch = command or next(
        (v for k in ("input", "patch") if isinstance(v := data.get(k), str)), ""
    )
    if not path and "*** " in patch:
        path = ", ".join(_patch_files(patch))
        data = {"patch": patch}
    changes = change_lines(data)
    if path:
        shown = " / ".join(changes[:CONTENT_LINES])
        more = " / …" if len(changes) > CONTENT_LINES else ""
        return _clip(f"{path}: {shown}{more}" if shown else path, DESCRIBE_CHARS)
    for key in ("pattern", "query", "url", "prompt"):
        if isinstance(data.get(key), str):
            return _clip(data[key], DESCRIBE_CHARS)
    return _clip(json.dumps(data, ensure_ascii=False, default=str), DESCRIBE_CHARS)


def informative_error(output: str) -> str:
    """The line of an output that tells this failure from others, once the generic lines
    are set aside: the first that says what went wrong, else the first that says that it
    failed, else the first line left ("")."""
    kept = []
    for raw in _TAGS.sub("", output[:20000]).splitlines():
        line = " ".join(_LABEL.sub("", raw.strip()).split())
        if line and not _GENERIC.match(line):
            kept.append(line)
    for words in (_ERRORISH, _FAILISH):
        found = next((line for line in kept if words.search(line)), None)
        if found is not None:
            return _clip(found, ERROR_CHARS)
    return _clip(kept[0], ERROR_CHARS) if kept else ""


def exit_code(output: str) -> int | None:
    """The exit code an output reports in its first lines, if it does."""
    found = _EXIT.search(output[:2000])
    return int(found.group(1)) if found else None


def failed_by_text(output: str) -> bool:
    """For an agent that does not mark failures: the exit code reported, else failure
    words in the output."""
    code = exit_code(output)
    return code != 0 if code is not None else bool(FAILED.search(output[:2000]))


def _call(name: str, data: object, call_id: str) -> Step:
    inner = data if isinstance(data, dict) else {}
    return Step("call", name, describe(name, data), call_id, data=inner)


def _result(call_id: str, output: str, failed: bool) -> list[Step]:
    """A result, and the user's words when a refusal carries them."""
    if _REJECTED.search(output[:500]):
        steps = [Step("result", text=output, call_id=call_id, rejected=True)]
        reason = _REASON.search(output)
        return [*steps, Step("user", text=reason.group(1).strip())] if reason else steps
    return [Step("result", text=output, call_id=call_id, failed=failed)]


def _user(text: str) -> list[Step]:
    words = _REMINDER.sub("", text).strip()
    return [] if not words or _NOT_WORDS.match(words) else [Step("user", text=words)]


def _rows(lines: Iterable[str], key: str) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(row, row[key]) of each JSONL line that is an object with an object under ``key``
    (a line that is not is skipped: transcripts end mid-write)."""
    for line in lines:
        row = _json(line)
        inner = row.get(key) if isinstance(row, dict) else None
        if isinstance(inner, dict):
            yield row, inner


def claude_steps(lines: Iterable[str]) -> list[Step]:
    steps: list[Step] = []
    for row, message in _rows(lines, "message"):
        content = message.get("content")
        # A subagent's prompt, a slash command's output, a summary of the compacted
        # conversation: not the user speaking.
        words = row.get("type") == "user" and not any(
            row.get(k) for k in ("isMeta", "isSidechain", "isCompactSummary")
        )
        if isinstance(content, str):
            steps += _user(content) if words else []
            continue
        for block in content if isinstance(content, list) else []:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "tool_use":
                steps.append(_call(str(block.get("name", "")), block.get("input"),
                                   str(block.get("id", ""))))  # fmt: skip
            elif kind == "tool_result":
                # is_error is Claude Code's own verdict (a non-zero exit, a refused edit):
                # an output that merely mentions an error did not fail.
                steps += _result(str(block.get("tool_use_id", "")), _text(block.get("content")),
                                 bool(block.get("is_error")))  # fmt: skip
            elif kind == "text" and words:
                steps += _user(str(block.get("text", "")))
    return steps


def _codex_output(payload: dict[str, Any]) -> tuple[str, bool]:
    """A Codex call's output and whether it failed (its exit code when known)."""
    raw = payload.get("output")
    inner = _json(raw) if isinstance(raw, str) and raw.lstrip().startswith("{") else raw
    if isinstance(inner, dict):
        text = _text(inner.get("output", inner.get("content", "")))
        meta = inner.get("metadata")
        code = meta.get("exit_code") if isinstance(meta, dict) else None
        if isinstance(code, int):
            return text, code != 0
        if isinstance(inner.get("success"), bool):
            return text, not inner["success"]
        return text, failed_by_text(text)
    text = _text(raw)
    return text, failed_by_text(text)


def codex_steps(lines: Iterable[str]) -> list[Step]:
    steps: list[Step] = []
    for _, payload in _rows(lines, "payload"):
        kind = payload.get("type")
        call_id = str(payload.get("call_id", payload.get("id", "")))
        if kind == "function_call":
            args = _json(payload.get("arguments") or "{}")
            steps.append(_call(str(payload.get("name", "")), args, call_id))
        elif kind == "local_shell_call":
            action = payload.get("action")
            command = action.get("command") if isinstance(action, dict) else None
            steps.append(_call("local_shell", {"command": command}, call_id))
        elif kind == "custom_tool_call":
            steps.append(_call(str(payload.get("name", "")), {"input": payload.get("input")},
                               call_id))  # fmt: skip
        elif kind in ("function_call_output", "custom_tool_call_output",
                      "local_shell_call_output"):  # fmt: skip
            steps += _result(call_id, *_codex_output(payload))
        elif kind == "user_message":
            steps += _user(str(payload.get("message", "")))
    return steps


def gemini_steps(lines: Iterable[str]) -> list[Step]:
    text = "\n".join(lines)
    document = _json(text)
    if document is None:  # one message a line (or a file cut mid-write)
        messages: Any = [row for row in map(_json, text.splitlines()) if isinstance(row, dict)]
    elif isinstance(document, dict):
        # a session of one message, written as a line
        messages = document.get("messages") if "messages" in document else [document]
    else:
        messages = document
    steps: list[Step] = []
    for message in messages if isinstance(messages, list) else []:
        if not isinstance(message, dict):
            continue
        if message.get("type") == "user":
            steps += _user(_text(message.get("content")))
            continue
        for number, call in enumerate(message.get("toolCalls") or []):
            if not isinstance(call, dict):
                continue
            name = str(call.get("name", ""))
            call_id = str(call.get("id") or f"{message.get('id')}:{number}")
            steps.append(_call(name, call.get("args"), call_id))
            out = _gemini_output(call)
            if call.get("status") == "cancelled":
                steps.append(Step("result", text=out, call_id=call_id, rejected=True))
                continue
            status = call.get("status")
            if status in ("success", "error"):
                # run_shell_command reports success with "Exit Code: 1" in its output;
                # another tool's output that mentions an error (a file read) did not fail.
                failed = status == "error" or (exit_code(out) or 0) != 0
            else:
                failed = failed_by_text(out)
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
