"""What the hooks ask of the engine: ``check`` before a tool call (layers 1 to 3) and
``session_start`` (the principles and behaviours of the scope); and the engine's operations
as the registry lists them."""

from __future__ import annotations

import json
import os
from typing import Any

from xdb.engine import judge, scoring
from xdb.engine.brain import brain_from_env
from xdb.engine.readonly import is_read_only
from xdb.models.engine import (
    COLLECTION,
    AddLessonRequest,
    AddLessonResponse,
    CheckRequest,
    CheckResponse,
    FeedbackRequest,
    FeedbackResponse,
    JudgeRequest,
    JudgeResponse,
    LessonRequest,
    LessonResponse,
    LessonsRequest,
    LessonsResponse,
    SessionStartRequest,
    SessionStartResponse,
    Verdict,
    Warning,
)
from xdb.ops.engine import (
    KIND,
    RELATIONS,
    SESSION_KIND,
    T0_BUDGET_CHARS,
    T1_BUDGET_CHARS,
    _load,
    _scoring_lesson,
    _search,
    add_lesson,
    feedback,
    lesson,
    lessons,
    note,
)
from xdb.ops.registry import Context, Operation
from xdb.store.learning import LearningObject
from xdb.store.types import NewTimestep
from xdb.timeutil import now_us

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


def _relevant(
    action: scoring.Action,
    ranked: list[str],
    found: dict[str, tuple[Any, Any]],
) -> list[str]:
    """Layer 3: the brain's pick among the best SHORTLIST candidates when one is configured
    (all of them when it does not answer: fail open); without one, every candidate the
    deterministic filter passes (it costs nothing), best first."""
    brain = brain_from_env()
    if brain is None:
        return [i for i in ranked
                if scoring.deterministic_filter(_scoring_lesson(*found[i]), action)]  # fmt: skip
    shortlist = ranked[: scoring.SHORTLIST]
    if not shortlist:
        return []
    lessons = [_scoring_lesson(*found[i]) for i in shortlist]
    picked = brain.pick(action.text, [f"{les.question} -> {les.answer}" for les in lessons])
    return shortlist if picked is None else [shortlist[i] for i in picked]


def _session(ctx: Context, agent: str, session_id: str, at: int) -> LearningObject:
    key = f"{agent}:{session_id}"
    found = ctx.store.learning_object(SESSION_KIND, key)
    if found is not None:
        return found
    body: dict[str, Any] = {"shown": [], "count": 0}
    return LearningObject(SESSION_KIND, key, None, None, None, None, body, at, at, ctx.caller.id)


def check(ctx: Context, req: CheckRequest) -> CheckResponse:
    if is_read_only(req.tool_name, req.tool_input):
        return CheckResponse(warnings=[], context=None, read_only=True)
    at = now_us()
    action = action_of(req)
    session = _session(ctx, req.agent, req.session_id, at)
    shown = set(session.body.get("shown", []))
    room = min(scoring.PER_CALL, scoring.SESSION_BUDGET - int(session.body.get("count", 0)))
    if room <= 0:
        return CheckResponse(warnings=[], context=None, read_only=False)
    relevance = dict(_search(ctx, action.text))
    found = _load(ctx, list(relevance))
    scored: dict[str, float] = {}
    for lesson_id, (episode, state) in found.items():
        value = scoring.score(_scoring_lesson(episode, state), action, relevance[lesson_id], at)
        if value is not None and value >= scoring.MIN_SCORE:
            scored[lesson_id] = value
    # 1-hop: lessons of the same failure class, or the principle generalizing one.
    edges = ctx.store.graph_edges(list(scored), RELATIONS - {"SUPERSEDES"}, True, True)
    near = {e.dst if e.src in scored else e.src: scored.get(e.src, scored.get(e.dst, 0.0))
            for e in edges}  # fmt: skip
    for lesson_id, (episode, state) in _load(ctx, [n for n in near if n not in scored]).items():
        value = scoring.score(_scoring_lesson(episode, state), action, 1.0, at)
        if value is not None:
            scored[lesson_id] = min(value, near[lesson_id]) * scoring.EDGE_FACTOR
            found[lesson_id] = (episode, state)
    ranked = [
        i
        for i in sorted(scored, key=lambda i: (-scored[i], i))
        if i not in shown and scored[i] >= scoring.MIN_SCORE
    ]
    chosen = _relevant(action, ranked, found)[:room]
    warnings = []
    for lesson_id in chosen:
        episode, state = found[lesson_id]
        collection = COLLECTION[state.body["tier"]]
        short = state.series or lesson_id
        meta = episode.metadata
        text = (f"Last time {meta.get('question')} -> {meta.get('answer')}"
                f" [id:{short} col:{collection}]")  # fmt: skip
        warnings.append(Warning(lesson_id=lesson_id, short_id=short, collection=collection,
                                score=round(scored[lesson_id], 4), text=text))  # fmt: skip
        state.body = {**state.body, "hits": int(state.body.get("hits", 0)) + 1}
        note(state.body, at, "shown", f"{req.agent}:{req.session_id}")
        state.updated_us = at
        ctx.store.put_learning_object(state)
    if not warnings:
        return CheckResponse(warnings=[], context=None, read_only=False)
    context = "\n".join(w.text for w in warnings)
    calls = int(session.body.get("calls", 0))
    pending = [
        {
            "lesson_id": i,
            "question": str(found[i][0].metadata.get("question", "")),
            "answer": str(found[i][0].metadata.get("answer", "")),
            "language": found[i][0].metadata.get("language"),
            "shown_at": calls + 1,  # the call about to run: it ran as it was
            "text": w.text,
            "shown_on_language": action.language,
        }
        for i, w in zip(chosen, warnings, strict=True)
    ]
    session.body = {
        **session.body,
        "shown": [*session.body.get("shown", []), *chosen],
        "count": int(session.body.get("count", 0)) + len(warnings),
        "pending": [*session.body.get("pending", []), *pending],
        "last": {"language": action.language, "project": action.project, "tool": req.tool_name},
    }
    session.updated_us = at
    ctx.store.put_learning_object(session)
    # The warning is experience too: a steering timestep of the agent's session.
    step = NewTimestep(f"{req.agent}-{req.session_id}", at, "steering", "system", context,
                       None, None, False, False, {})  # fmt: skip
    ctx.store.record([step], None, ctx.audit_by)
    return CheckResponse(warnings=warnings, context=context, read_only=False)


def judge_call(ctx: Context, req: JudgeRequest) -> JudgeResponse:
    """After a tool call: one more call in the session, and a verdict on each pending
    warning that can be decided (recorded as the judge's feedback): by the brain when one is
    configured and answers, else by the rules. Answers the warnings shown for this call (what
    Gemini CLI's AfterTool gives the model)."""
    at = now_us()
    action = action_of(CheckRequest(agent=req.agent, session_id=req.session_id,
                                    tool_name=req.tool_name, tool_input=req.tool_input,
                                    cwd=req.cwd))  # fmt: skip
    session = _session(ctx, req.agent, req.session_id, at)
    call = int(session.body.get("calls", 0)) + 1
    output = _output_text(req.tool_response)
    brain = brain_from_env()
    still, verdicts, shown_now = [], [], []
    for entry in session.body.get("pending", []):
        pending = judge.Pending(**entry)
        if pending.shown_at == call and pending.text:
            shown_now.append(pending.text)
        decided = judge.verdict(pending, call, action.text, action.language)
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
        feedback(ctx, FeedbackRequest.model_validate({**record, "language": action.language,
                                                      "project": action.project,
                                                      "source": "judge"}))  # fmt: skip
        verdicts.append(Verdict.model_validate(record))
    session.body = {**session.body, "calls": call, "pending": still}
    session.updated_us = at
    ctx.store.put_learning_object(session)
    return JudgeResponse(verdicts=verdicts, pending=len(still),
                         context="\n".join(shown_now) or None)  # fmt: skip


def _output_text(response: Any) -> str:
    """A tool's result as text, for the brain (its start is enough)."""
    if response is None:
        return ""
    if isinstance(response, str):
        return response[:2000]
    return json.dumps(response, ensure_ascii=False, default=str)[:2000]


def session_start(ctx: Context, req: SessionStartRequest) -> SessionStartResponse:
    action = scoring.Action(
        tool="", text="", project=os.path.basename(req.cwd.rstrip("/")) if req.cwd else None
    )
    states, _ = ctx.store.list_learning_objects(KIND, {"status": ["T0", "T1"]}, None, 100_000)
    found = _load(ctx, [s.id for s in states])
    lines: dict[str, list[str]] = {"T0": [], "T1": []}
    used = {"T0": 0, "T1": 0}
    budget = {"T0": T0_BUDGET_CHARS, "T1": T1_BUDGET_CHARS}
    ids = []
    ranked = sorted(found.values(), key=lambda f: (-float(f[1].body.get("confidence", 0)), f[0].id))
    for episode, state in ranked:
        tier = state.body["tier"]
        if not scoring.gate(_scoring_lesson(episode, state), action) or state.body.get(
            "superseded"
        ):
            continue
        line = f"- {episode.metadata.get('question')}: {episode.metadata.get('answer')}"
        if used[tier] + len(line) > budget[tier]:
            continue
        used[tier] += len(line)
        lines[tier].append(line)
        ids.append(episode.id)
    parts = []
    if lines["T0"]:
        parts.append("Principles learned in past sessions:\n" + "\n".join(lines["T0"]))
    if lines["T1"]:
        parts.append("Confirmed behaviours:\n" + "\n".join(lines["T1"]))
    return SessionStartResponse(context="\n\n".join(parts) or None, lesson_ids=ids)


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="add_lesson",
        group="engine",
        request=AddLessonRequest,
        response=AddLessonResponse,
        handler=add_lesson,
        readonly=False,
        summary="Store a lesson (a past mistake and what to do instead) to warn with.",
        example="xdb add-lesson --question 'registering DbContext as a singleton'"
        " --answer 'register it scoped' --framework dotnet",
    ),
    Operation(
        name="lessons",
        group="engine",
        request=LessonsRequest,
        response=LessonsResponse,
        handler=lessons,
        readonly=True,
        summary="List lessons by tier (T0 principles, T1 behaviours, T2 Q&A, T3 raw).",
        cli_name="lessons list",
        example="xdb lessons list --tier T1",
    ),
    Operation(
        name="lesson",
        group="engine",
        request=LessonRequest,
        response=LessonResponse,
        handler=lesson,
        readonly=True,
        summary="One lesson, its counts and its edges (generalizes, relates-to, supersedes).",
        positional="lesson_id",
        cli_name="lessons show",
        example="xdb lessons show a1b2c3",
    ),
    Operation(
        name="feedback",
        group="engine",
        request=FeedbackRequest,
        response=FeedbackResponse,
        handler=feedback,
        readonly=False,
        summary="A verdict on a lesson's warning: followed, ignored, noise (with a reason).",
        positional="lesson_id",
        example="xdb feedback a1b2c3 --verdict noise --reason wrong_repo --project shop",
    ),
    Operation(
        name="check",
        group="engine",
        request=CheckRequest,
        response=CheckResponse,
        handler=check,
        readonly=False,
        summary="The warnings for a tool call about to run (the hooks' full path).",
        example="xdb check --session-id s1 --tool-name Edit"
        ' --tool-input \'{"file_path": "Startup.cs"}\'',
        agent_tool=False,
    ),
    Operation(
        name="judge",
        group="engine",
        request=JudgeRequest,
        response=JudgeResponse,
        handler=judge_call,
        readonly=False,
        summary="After a tool call: verdicts on the warnings the session was shown.",
        example="xdb judge --session-id s1 --tool-name Edit"
        ' --tool-input \'{"new_string": "services.AddScoped<DbContext>()"}\'',
    ),
    Operation(
        name="session_start",
        group="engine",
        request=SessionStartRequest,
        response=SessionStartResponse,
        handler=session_start,
        readonly=True,
        summary="The principles and behaviours to give an agent as its session starts.",
        example="xdb session-start --session-id s1",
    ),
)
