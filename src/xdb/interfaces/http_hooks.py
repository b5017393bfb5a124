"""Coding agents' hooks as HTTP routes of ``xdb serve`` (Claude Code's ``http`` hook type
posts the hook's JSON to a URL and reads the answer as a command hook's stdout)::

    POST /v1/hook/{agent}/{event}    body: the agent's hook JSON, as it would be on stdin
                                     200, body: the hook's JSON answer, or {} (nothing
                                     to say)

The same answer as ``xdb hook AGENT EVENT``, without a process per call: a read-only call
is answered on the event loop; the rest runs the engine's operations for the request's
caller (its API key), the judge and extraction after the response is sent. Fail open:
whatever goes wrong, the answer is 200 and ``{}``, which the agent reads as "go on".
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import BackgroundTasks, FastAPI, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from xdb.core import Database
from xdb.engine.dialects import AGENTS, EVENTS, HookEvent, parse, render
from xdb.engine.readonly import is_read_only
from xdb.errors import XdbError
from xdb.interfaces.auth import request_caller
from xdb.interfaces.hook_client import context
from xdb.models.common import Caller
from xdb.ops.catalog import REGISTRY

__all__ = ["add_hook_routes"]

log = logging.getLogger("xdb.http")


def _nothing() -> Response:
    # An empty object, which the agents read as no output (and every route answers JSON).
    # A new one each time: FastAPI attaches the request's background work to the response.
    return Response(b"{}", media_type="application/json")


def add_hook_routes(app: FastAPI, db: Database) -> None:
    def run(name: str, request: dict[str, Any], caller: Caller | None) -> dict[str, Any]:
        answered = db.run(REGISTRY[f"engine.{name}"], request, caller=caller)
        found: dict[str, Any] = answered.model_dump(mode="json")
        return found

    def quietly(name: str, request: dict[str, Any], caller: Caller | None) -> None:
        try:
            run(name, request, caller)
        except XdbError as exc:  # refused or bad input (a transcript outside the root): a line
            log.warning("hook work %s refused: %s", name, exc)
        except Exception:  # nobody waits for it: a failure leaves the warning pending
            log.exception("hook work %s failed", name)

    def answer(call: HookEvent, caller: Caller | None, later: BackgroundTasks) -> str:
        def asks(name: str, request: dict[str, Any]) -> dict[str, Any]:
            return run(name, request, caller)

        def detach(name: str, request: dict[str, Any]) -> None:
            later.add_task(run_in_threadpool, quietly, name, request, caller)

        return render(call.agent, call.event, context(call, asks, detach))

    @app.post(
        "/v1/hook/{agent}/{event}",
        tags=["engine"],
        summary="A coding agent's hook call (Claude Code's http hook): its answer, or {}.",
        response_class=Response,
    )
    async def hook(agent: str, event: str, request: Request, later: BackgroundTasks) -> Response:
        try:
            if agent not in AGENTS or event not in EVENTS:
                return _nothing()
            text = (await request.body()).decode("utf-8", "replace")
            try:
                call = parse(agent, event, text)
            except (ValueError, RecursionError) as exc:  # the sender's fault: no traceback
                log.warning("hook %s %s: the body is not a hook call: %s", agent, event, exc)
                return _nothing()
            if event == "pre-tool-use" and is_read_only(call.tool_name or "", call.tool_input):
                return _nothing()  # layer 1, on the event loop: no thread, no database
            if event == "user-prompt":
                return _nothing()
            text = await run_in_threadpool(answer, call, request_caller(request), later)
        except XdbError as exc:  # refused (the caller may not), or bad input: go on
            log.info("hook %s %s: %s", agent, event, exc)
            return _nothing()
        except Exception:  # fail open: the agent must never be blocked by its memory
            log.exception("hook %s %s failed", agent, event)
            return _nothing()
        if not text:
            return _nothing()
        return Response(text, media_type="application/json")
