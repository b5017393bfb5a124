"""An agent's hook session as the engine keeps it, shared by the check before a tool call
(``hook_operations``) and the judge after it (``judge_operations``): the session's stored
state, the lock its read-change-write holds, a call's id and the action scoring reads off
it."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from typing import Any

from xdb.engine import scoring
from xdb.engine.engine_models import CheckRequest
from xdb.engine.lesson_operations import SESSION_KIND
from xdb.ops.registry import Context
from xdb.store.learning import LearningObject

_PATH_KEYS = ("file_path", "path", "absolute_path", "notebook_path", "filename")
_TEXT_KEYS = ("command", "new_string", "content", "old_string", "pattern", "patch", "input")
ACTION_CHARS = 2000


def action_of(req: CheckRequest) -> scoring.Action:
    """The tool call as scoring reads it: its path, command and written text."""
    data = req.tool_input
    path = next((str(data[k]) for k in _PATH_KEYS if isinstance(data.get(k), str)), None)
    parts = [path or ""]
    for key in _TEXT_KEYS:
        value = data.get(key)
        if isinstance(value, list):
            value = " ".join(str(v) for v in value)
        if isinstance(value, str):
            parts.append(value)
    if len(parts) == 1:
        parts.append(json.dumps(data, ensure_ascii=False, default=str))
    text = f"{req.tool_name} " + " ".join(p for p in parts if p)
    text = text[:ACTION_CHARS]
    return scoring.Action(
        tool=req.tool_name,
        text=text,
        language=scoring.action_language(text, path),
        domain=scoring.domain_of(text),
        project=os.path.basename(req.cwd.rstrip("/")) if req.cwd else None,
    )


def session_key(ctx: Context, agent: str, session_id: str) -> str:
    """An agent session's state is the caller's own: another caller's same session id is
    another session."""
    return f"{ctx.caller.id}:{agent}:{session_id}"


def session_state(ctx: Context, agent: str, session_id: str, at: int) -> LearningObject:
    key = session_key(ctx, agent, session_id)
    found = ctx.store.learning_object(SESSION_KIND, key)
    if found is not None:
        return found
    body: dict[str, Any] = {"shown": [], "count": 0}
    return LearningObject(SESSION_KIND, key, None, None, None, None, body, at, at, ctx.caller.id)


_GUARD = threading.Lock()
_LOCKS: dict[str, threading.Lock] = {}


def session_lock(ctx: Context, agent: str, session_id: str) -> threading.Lock:
    """The lock a session's read-change-write holds in this process: a serve runs the judge
    of one call beside the check of the next."""
    key = f"{id(ctx.store.unbound)}:{session_key(ctx, agent, session_id)}"
    with _GUARD:
        if len(_LOCKS) > 10_000:
            _LOCKS.clear()  # (held ones stay held by their holders)
        return _LOCKS.setdefault(key, threading.Lock())


def call_id(tool_use_id: str | None, tool_name: str, tool_input: dict[str, Any]) -> str:
    """The agent's id of a tool call, or its name and input standing for it."""
    if tool_use_id:
        return tool_use_id
    said = json.dumps([tool_name, tool_input], sort_keys=True, default=str)
    return hashlib.sha256(said.encode()).hexdigest()[:16]
