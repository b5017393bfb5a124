"""``engine.judge``: after a tool call, a verdict on each warning the session was shown
before it (the brain's when one is configured and answers, else the rules'; docs/engine.md),
recorded as the judge's feedback."""

from __future__ import annotations

from xdb.engine import judge, trigger_match
from xdb.engine.brain import brain_from_env
from xdb.engine.calls import parse_call
from xdb.engine.dialects import response_text
from xdb.engine.engine_models import (
    CheckRequest,
    FeedbackRequest,
    JudgeRequest,
    JudgeResponse,
    Verdict,
)
from xdb.engine.hook_sessions import action_of, call_id, session_lock, session_state
from xdb.engine.judge_shapes import call_ops
from xdb.engine.lesson_operations import feedback
from xdb.errors import NotFound, PermissionDenied
from xdb.ops.registry import Context
from xdb.timeutil import now_us


def judge_call(ctx: Context, req: JudgeRequest) -> JudgeResponse:
    """One more call in the session, and a verdict on each pending warning that can be
    decided. Answers the warnings shown for this call (what Gemini CLI's AfterTool gives
    the model), each once; ``only_shown``: that alone, deciding and counting nothing."""
    with session_lock(ctx, req.agent, req.session_id):
        return _judge(ctx, req)


def _judge(ctx: Context, req: JudgeRequest) -> JudgeResponse:
    at = now_us()
    action = action_of(CheckRequest(agent=req.agent, session_id=req.session_id,
                                    tool_name=req.tool_name, tool_input=req.tool_input,
                                    cwd=req.cwd))  # fmt: skip
    session = session_state(ctx, req.agent, req.session_id, at)
    this = call_id(req.tool_use_id, req.tool_name, req.tool_input)
    entries = list(session.body.get("pending", []))
    # The warnings shown before this very call, each given once.
    mine = [
        e for e in entries if e.get("call_id") == this and e.get("text") and not e.get("carried")
    ]
    context = "\n".join(e["text"] for e in mine) or None
    for entry in mine:
        entry["carried"] = True
    if req.only_shown:
        if mine:
            session.body = {**session.body, "pending": entries}
            ctx.store.put_learning_object(session)
        return JudgeResponse(verdicts=[], pending=len(entries), context=context)
    call = int(session.body.get("calls", 0)) + 1
    output = response_text(req.tool_response)
    brain = brain_from_env()
    later = call_ops(req.tool_name, req.tool_input, req.cwd)  # what this call did
    seen = trigger_match.seen(parse_call(req.tool_name, req.tool_input, req.cwd))
    still, verdicts = [], []
    for entry in entries:
        pending = judge.Pending(**{k: v for k, v in entry.items() if k in _PENDING})
        if entry.get("call_id") == this:  # the call it was shown for, run as it was
            still.append(entry)
            continue
        decided = judge.verdict(pending, call, later, action.language, seen)
        if brain is not None and call > pending.shown_at:
            warning = pending.text or f"{pending.question} -> {pending.answer}"
            answered = brain.judge(warning, action.text, output)
            if answered is not None:  # the brain's word; the rules' when it does not answer
                waiting = answered[0] == "unclear" and call - pending.shown_at < judge.WINDOW
                decided = None if waiting else answered
        if decided is None:
            still.append(entry)
            continue
        word, reason = decided
        record = {"lesson_id": pending.lesson_id, "verdict": word, "reason": reason}
        try:
            feedback(ctx, FeedbackRequest.model_validate({**record, "language": action.language,
                                                          "project": action.project,
                                                          "source": "judge"}))  # fmt: skip
        except (NotFound, PermissionDenied):  # gone, or no longer the caller's to change
            continue
        verdicts.append(Verdict.model_validate(record))
    session.body = {**session.body, "calls": call, "pending": still}
    session.updated_us = at
    ctx.store.put_learning_object(session)
    return JudgeResponse(verdicts=verdicts, pending=len(still), context=context)


_PENDING = frozenset(judge.Pending.__dataclass_fields__)
