"""The hooks' full path. With a running ``xdb serve`` (``XDB_ENGINE_URL``, default
``http://127.0.0.1:8765``; ``XDB_API_KEY`` when it wants a key) the hook relays the agent's
JSON to its hook route (``POST /v1/hook/AGENT/EVENT``, ``interfaces.http_hooks``), which
answers in the agent's dialect and runs the judge and extraction after answering. When
none is listening, the same happens in this process on the database (``XDB_DB``, or the
default file; never made here):

| event | asks | gives the agent |
|---|---|---|
| pre-tool-use | ``engine.check`` | the warnings |
| session-start | ``engine.session_start`` | the principles and behaviours of its scope |
| post-tool-use | ``engine.judge``, in a detached worker (never blocking the agent) | nothing |
| post-tool-use (Gemini CLI) | ``engine.judge``, answered | the warnings its BeforeTool showed |
| stop | ``engine.extract`` of its transcript, in a detached worker | nothing |
| user-prompt | nothing yet | nothing |
"""

from __future__ import annotations

import json
import os
import sys

from xdb.engine import client
from xdb.engine.dialects import HookEvent, render, response_text

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

DEFAULT_URL = "http://127.0.0.1:8765"
# A serve slower than its brain's timeout and this margin is treated as failed (the hook
# fails open); the brain's own timeout comes first, so its shortlist still passes.
TIMEOUT_MARGIN_S = 2.0
ROUTES = {"pre-tool-use": "check", "session-start": "session_start"}
# What runs detached (never blocking the agent): the judge, and extraction at the end.
WORKERS = {"post-tool-use": "judge", "stop": "extract"}
DIRECT_TIMEOUT_S = 5.0  # the most a hook waits on the database itself


def request_of(call: HookEvent) -> dict[str, Any] | None:
    """The engine operation's request for a hook call (None: nothing to ask)."""
    base = {"agent": call.agent, "session_id": call.session_id, "cwd": call.cwd}
    if call.event == "pre-tool-use" and call.tool_name:
        return {**base, "tool_name": call.tool_name, "tool_input": call.tool_input,
                "tool_use_id": call.call_id}  # fmt: skip
    if call.event == "post-tool-use" and call.tool_name:
        return {**base, "tool_name": call.tool_name, "tool_input": call.tool_input,
                "tool_use_id": call.call_id,
                "tool_response": response_text(call.tool_response) or None}  # fmt: skip
    if call.event == "session-start":
        return base
    if call.event == "stop" and call.transcript_path:
        return {**base, "transcript_path": call.transcript_path}
    return None


def context(
    call: HookEvent,
    asks: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None,
    detach: Callable[[str, dict[str, Any]], None] | None = None,
) -> str | None:
    """What the engine gives the agent for this call (raises on failure: the runner fails
    open). ``asks`` answers an engine operation (default: a serve, else the database) and
    ``detach`` starts one nobody waits for (default: a worker process); ``xdb serve``'s
    hook route passes its own."""
    request = request_of(call)
    if request is None:
        return None
    asks = ask if asks is None else asks
    if call.agent == "gemini" and call.event == "post-tool-use":
        # Gemini CLI's BeforeTool cannot reach the model: its AfterTool carries the warnings
        # shown for this call (read at once); the verdicts are left to the detached judge.
        found = asks("judge", {**request, "only_shown": True}).get("context")
        (spawn_worker if detach is None else detach)("judge", request)
    elif call.event in WORKERS:
        (spawn_worker if detach is None else detach)(WORKERS[call.event], request)
        return None
    else:
        found = asks(ROUTES[call.event], request).get("context")
    return found if isinstance(found, str) and found else None


def ask(name: str, request: dict[str, Any]) -> dict[str, Any]:
    """The engine operation's answer: from a running serve, else from the database."""
    try:
        return _post(name, request)
    except ConnectionRefusedError:
        return _direct(name, request)


def spawn_worker(op: str, request: dict[str, Any]) -> None:
    """Run ``op`` in a process of its own that outlives this hook: the agent goes on."""
    import subprocess

    worker = subprocess.Popen(
        [sys.executable, "-m", "xdb.interfaces.hook_worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert worker.stdin is not None
    worker.stdin.write(json.dumps({"op": op, "request": request}).encode())
    worker.stdin.close()


def _headers() -> dict[str, str]:
    headers = {"Content-Type": "application/json"}
    key = os.environ.get("XDB_API_KEY")
    if key:
        headers["Authorization"] = f"Bearer {key}"
    return headers


def _url() -> str:
    return os.environ.get("XDB_ENGINE_URL", DEFAULT_URL).rstrip("/")


def _post(name: str, request: dict[str, Any]) -> dict[str, Any]:
    body = json.dumps(request).encode()
    path = f"{_url()}/v1/engine/{name.replace('_', '-')}"
    status, answer = client.post(path, body, _headers(), _timeout())
    if status != 200:
        raise OSError(f"{path} answered {status}")
    found = json.loads(answer)
    return found if isinstance(found, dict) else {}


def answer(call: HookEvent) -> str:
    """The hook's output for a call past the read-only skip: what a running serve's hook
    route answers (it does the same work in a warm process), else the same from the
    database in this process."""
    body = json.dumps(call.raw).encode()
    path = f"{_url()}/v1/hook/{call.agent}/{call.event}"
    try:
        status, out = client.post(path, body, _headers(), _timeout())
    except ConnectionRefusedError:
        return _within(direct_timeout(), lambda: render(call.agent, call.event,
                                                        context(call, asks=_direct)))  # fmt: skip
    text = out.decode("utf-8", "replace").strip() if status == 200 else ""
    try:  # only a JSON object is a hook's answer (not another service's page)
        said = json.loads(text) if text else None
    except ValueError:
        return ""
    return text if isinstance(said, dict) and said else ""


def _timeout() -> float:
    try:
        brain = float(os.environ.get("XDB_BRAIN_TIMEOUT_S") or 3.0)
    except ValueError:
        brain = 3.0
    return min(brain, 600.0) + TIMEOUT_MARGIN_S


def direct_timeout() -> float:
    """Seconds the hook gives the database when no serve answers (``XDB_HOOK_TIMEOUT_S``,
    default 5: under the 10 s the agents are told to wait; the first call loads the model)."""
    try:
        return max(0.1, float(os.environ.get("XDB_HOOK_TIMEOUT_S") or DIRECT_TIMEOUT_S))
    except ValueError:
        return DIRECT_TIMEOUT_S


def _within(seconds: float, work: Callable[[], str]) -> str:
    """``work()``'s answer, or TimeoutError after ``seconds`` (a locked database waits far
    longer; the thread is left behind, and ``launch`` ends the process without it)."""
    import threading

    done: list[str] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(work())
        except BaseException as exc:  # handed to the caller's thread
            failed.append(exc)

    worker = threading.Thread(target=run, name="xdb-hook", daemon=True)
    worker.start()
    worker.join(seconds)
    if failed:
        raise failed[0]
    if not done:
        raise TimeoutError(f"the database did not answer within {seconds:g} s")
    return done[0]


def _direct(name: str, request: dict[str, Any]) -> dict[str, Any]:
    """No serve: open the database in this process (slower: the library loads)."""
    import xdb
    from xdb.config import default_db

    with xdb.connect(default_db(), create=False, embed_wait=0) as db:
        return db.call(f"engine.{name}", request).model_dump(mode="json")
