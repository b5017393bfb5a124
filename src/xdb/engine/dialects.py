"""The hook dialects of Claude Code, the Codex CLI and Gemini CLI: what each sends on stdin
and how each takes an answer (standard library only, like ``readonly``).

One event vocabulary for all three (the ``xdb hook AGENT EVENT`` words):

| event | Claude Code | Codex CLI | Gemini CLI |
|---|---|---|---|
| pre-tool-use | PreToolUse | PreToolUse | BeforeTool |
| post-tool-use | PostToolUse | PostToolUse | AfterTool |
| stop | Stop | Stop | AfterAgent |
| session-start | SessionStart | SessionStart | SessionStart |
| user-prompt | UserPromptSubmit | UserPromptSubmit | BeforeAgent |

Claude Code and Codex take context for the model as ``hookSpecificOutput.additionalContext``
on every event but Stop. Gemini CLI takes it on AfterTool, BeforeAgent and SessionStart;
its BeforeTool carries no context to the model, so a warning before a tool is shown to the
person (``systemMessage``) and given to the model with the tool's result (AfterTool).
"""

from __future__ import annotations

import json

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from typing import Any

__all__ = ["AGENTS", "EVENTS", "HookEvent", "parse", "render"]

AGENTS = ("claude", "codex", "gemini")
EVENTS = ("pre-tool-use", "post-tool-use", "stop", "session-start", "user-prompt")
NATIVE = {
    "claude": {
        "pre-tool-use": "PreToolUse",
        "post-tool-use": "PostToolUse",
        "stop": "Stop",
        "session-start": "SessionStart",
        "user-prompt": "UserPromptSubmit",
    },
    "gemini": {
        "pre-tool-use": "BeforeTool",
        "post-tool-use": "AfterTool",
        "stop": "AfterAgent",
        "session-start": "SessionStart",
        "user-prompt": "BeforeAgent",
    },
}
NATIVE["codex"] = dict(NATIVE["claude"])
# Where each agent's model reads context (the others get no context output).
_CONTEXT_EVENTS = {
    "claude": {"pre-tool-use", "post-tool-use", "session-start", "user-prompt"},
    "codex": {"pre-tool-use", "post-tool-use", "session-start", "user-prompt"},
    "gemini": {"post-tool-use", "session-start", "user-prompt"},
}


class HookEvent:
    """A hook call, in one shape whichever agent sent it (a plain class: a dataclass would
    import ``inspect``, a tenth of the skip path's time)."""

    __slots__ = (
        "agent",
        "call_id",
        "cwd",
        "event",
        "prompt",
        "raw",
        "session_id",
        "tool_input",
        "tool_name",
        "tool_response",
        "transcript_path",
    )  # fmt: skip

    def __init__(
        self,
        agent: str,
        event: str,
        session_id: str,
        cwd: str | None = None,
        transcript_path: str | None = None,
        tool_name: str | None = None,
        tool_input: dict[str, Any] | None = None,
        tool_response: Any = None,
        prompt: str | None = None,
        raw: dict[str, Any] | None = None,
        call_id: str | None = None,
    ) -> None:
        self.agent = agent
        self.event = event
        self.session_id = session_id
        self.cwd = cwd
        self.transcript_path = transcript_path
        self.tool_name = tool_name
        self.tool_input: dict[str, Any] = {} if tool_input is None else tool_input
        self.tool_response = tool_response
        self.prompt = prompt
        self.raw: dict[str, Any] = {} if raw is None else raw
        self.call_id = call_id  # the agent's id of the tool call, when it sends one

    def __repr__(self) -> str:
        return f"HookEvent({self.agent!r}, {self.event!r}, {self.session_id!r}, {self.tool_name!r})"


def parse(agent: str, event: str, text: str) -> HookEvent:
    """The hook call in ``text`` (the agent's stdin); ValueError when it is not one."""
    if agent not in AGENTS:
        raise ValueError(f"unknown agent {agent!r}: one of {', '.join(AGENTS)}")
    if event not in EVENTS:
        raise ValueError(f"unknown event {event!r}: one of {', '.join(EVENTS)}")
    raw = json.loads(text) if text.strip() else {}
    if not isinstance(raw, dict):
        raise ValueError("the hook input is not a JSON object")
    tool_input = raw.get("tool_input")
    if isinstance(tool_input, str):  # some agents send arguments as a JSON string
        try:
            tool_input = json.loads(tool_input)
        except ValueError:
            tool_input = {"command": tool_input}
    response = raw.get("tool_response", raw.get("tool_output"))
    prompt = raw.get("prompt")
    ids = [raw.get(k) for k in ("tool_use_id", "call_id", "tool_call_id")]
    call_id = next((str(i) for i in ids if isinstance(i, (str, int)) and i != ""), None)
    return HookEvent(
        agent=agent,
        event=event,
        session_id=str(raw.get("session_id") or raw.get("conversation_id") or "unknown"),
        cwd=raw.get("cwd") if isinstance(raw.get("cwd"), str) else None,
        transcript_path=(
            raw.get("transcript_path") if isinstance(raw.get("transcript_path"), str) else None
        ),
        tool_name=raw.get("tool_name") if isinstance(raw.get("tool_name"), str) else None,
        tool_input=tool_input if isinstance(tool_input, dict) else {},
        tool_response=response,
        prompt=prompt if isinstance(prompt, str) else None,
        raw=raw,
        call_id=call_id,
    )


RESPONSE_CHARS = 2000  # of a tool's result: what the judge reads (its start is enough)


def response_text(response: Any) -> str:
    """A tool's result as text, cut to what the judge reads ("" for none)."""
    if response is None:
        return ""
    text = response if isinstance(response, str) else json.dumps(response, ensure_ascii=False,
                                                                  default=str)  # fmt: skip
    return text[:RESPONSE_CHARS]


def render(agent: str, event: str, context: str | None) -> str:
    """What to print on stdout to give ``context`` to the agent ("" when nothing is to be
    said: the agent then goes on as if there were no hook)."""
    if not context:
        return ""
    native = NATIVE[agent][event]
    out: dict[str, Any] = {}
    if event in _CONTEXT_EVENTS[agent]:
        out["hookSpecificOutput"] = {"hookEventName": native, "additionalContext": context}
    elif agent == "gemini" and event == "pre-tool-use":
        out["systemMessage"] = context
    else:
        return ""
    return json.dumps(out, ensure_ascii=False)
