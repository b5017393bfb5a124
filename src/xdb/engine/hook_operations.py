"""What the hooks ask of the engine: ``check`` before a tool call (layers 1 to 3) and
``session_start`` (the principles and behaviours of the scope); and the engine's operations
as the registry lists them."""

from __future__ import annotations

import os
from typing import Any

from xdb.engine import scoring, trigger_match, triggers
from xdb.engine.brain import brain_from_env
from xdb.engine.calls import parse_call
from xdb.engine.engine_models import (
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
    Warning,
)
from xdb.engine.hook_sessions import action_of, call_id, session_lock, session_state
from xdb.engine.judge import warned_call
from xdb.engine.judge_operations import judge_call
from xdb.engine.lesson_candidates import structural
from xdb.engine.lesson_operations import (
    KIND,
    RELATIONS,
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
from xdb.engine.readonly import is_read_only
from xdb.ops.registry import Context, Operation
from xdb.store.types import HOOK, NewTimestep
from xdb.timeutil import now_us


def _relevant(
    action: scoring.Action,
    ranked: list[str],
    found: dict[str, tuple[Any, Any]],
    structure: dict[str, str],
    relevance: dict[str, float],
) -> list[str]:
    """Layer 3: the brain's pick among the best SHORTLIST candidates when one is configured
    (all of them when it does not answer: fail open); without one, every candidate the
    deterministic filter passes (it costs nothing), best first. A lesson whose trigger
    sees its safe form in the call is never a candidate."""
    ranked = [i for i in ranked if structure.get(i) != triggers.SAFE]
    brain = brain_from_env()
    if brain is None:
        return [i for i in ranked
                if scoring.deterministic_filter(_scoring_lesson(*found[i]), action,
                                                structure.get(i, triggers.SILENT),
                                                relevance.get(i, 0.0))]  # fmt: skip
    shortlist = ranked[: scoring.SHORTLIST]
    if not shortlist:
        return []
    lessons = [_scoring_lesson(*found[i]) for i in shortlist]
    picked = brain.pick(action.text, [f"{les.question} -> {les.answer}" for les in lessons])
    return shortlist if picked is None else [shortlist[i] for i in picked]


def trigger_of(ctx: Context, episode: Any, state: Any) -> triggers.Trigger:
    """A lesson's trigger: stored with it (``add_lesson``), else derived from its words; a
    principle's generalizes the triggers of the lessons it has GENERALIZES edges to."""
    meta = episode.metadata
    if state.body.get("tier") == "T0":
        edges = ctx.store.graph_edges([episode.id], {"GENERALIZES"}, True, False)
        members = _load(ctx, [e.dst for e in edges if e.src == episode.id])
        if members:
            of = [trigger_of(ctx, ep, st) for ep, st in members.values()]
            return trigger_match.generalize(of)
    stored = triggers.Trigger.from_json(meta.get("trigger") or {})
    if stored is not None:
        return stored
    return triggers.derived(str(meta.get("question", "")), str(meta.get("answer", "")))


def _structure(trigger: triggers.Trigger, episode: Any, seen: trigger_match.Seen) -> str:
    return trigger_match.match(trigger, seen, scoring.FLAG_SHARE, scoring.TRIGGER_CODE_SHARE,
                               str(episode.metadata.get("question", "")),
                               scoring.LINE_WORDS)  # fmt: skip


def check(ctx: Context, req: CheckRequest) -> CheckResponse:
    if is_read_only(req.tool_name, req.tool_input):
        return CheckResponse(warnings=[], context=None, read_only=True)
    with session_lock(ctx, req.agent, req.session_id):
        return _check(ctx, req)


def _check(ctx: Context, req: CheckRequest) -> CheckResponse:
    at = now_us()
    action = action_of(req)
    session = session_state(ctx, req.agent, req.session_id, at)
    shown = set(session.body.get("shown", []))
    room = min(scoring.PER_CALL, scoring.SESSION_BUDGET - int(session.body.get("count", 0)))
    if room <= 0:
        return CheckResponse(warnings=[], context=None, read_only=False)
    relevance = dict(_search(ctx, action.text))
    seen = trigger_match.seen(parse_call(req.tool_name, req.tool_input, req.cwd))
    for lesson_id in structural(ctx, seen):  # a repeat in other words: only a HIT counts
        relevance.setdefault(lesson_id, 0.0)
    found = _load(ctx, list(relevance))
    # Each candidate's trigger, read once: the structure and a shown warning's pending
    # entry both need it (a principle's reads its members).
    trigger = {i: trigger_of(ctx, ep, st) for i, (ep, st) in found.items()}
    structure = {i: _structure(trigger[i], found[i][0], seen) for i in found}
    scored: dict[str, float] = {}
    for lesson_id, (episode, state) in found.items():
        value = scoring.score(_scoring_lesson(episode, state), action, relevance[lesson_id], at)
        if value is not None and (
            value >= scoring.MIN_SCORE or structure[lesson_id] == triggers.HIT
        ):  # a repeat of the lesson's form is a candidate however few words it shares
            scored[lesson_id] = max(value, scoring.MIN_SCORE)
    # 1-hop: lessons of the same failure class, or the principle generalizing one.
    edges = ctx.store.graph_edges(list(scored), RELATIONS - {"SUPERSEDES"}, True, True)
    near = {e.dst if e.src in scored else e.src: scored.get(e.src, scored.get(e.dst, 0.0))
            for e in edges}  # fmt: skip
    for lesson_id, (episode, state) in _load(ctx, [n for n in near if n not in scored]).items():
        value = scoring.score(_scoring_lesson(episode, state), action, 1.0, at)
        if value is not None:
            scored[lesson_id] = min(value, near[lesson_id]) * scoring.EDGE_FACTOR
            found[lesson_id] = (episode, state)
            trigger[lesson_id] = trigger_of(ctx, episode, state)
            structure[lesson_id] = _structure(trigger[lesson_id], episode, seen)
            if structure[lesson_id] == triggers.HIT:  # a principle's new case of its class
                scored[lesson_id] = max(scored[lesson_id], scoring.MIN_SCORE)
    ranked = [
        i
        for i in sorted(scored, key=lambda i: (-scored[i], i))
        if i not in shown and scored[i] >= scoring.MIN_SCORE
    ]
    chosen = _relevant(action, ranked, found, structure, relevance)[:room]
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
            "call_id": call_id(req.tool_use_id, req.tool_name, req.tool_input),
            # What the judge compares the later calls with (xdb.engine.judge).
            **warned_call(
                req.tool_name, req.tool_input, req.cwd, found[i][0].metadata.get("learned_from")
            ),
            # Whether the warned call was the lesson's form, and the form: a later call of
            # it is the mistake again, one of its safe form the lesson heeded.
            "structure": structure.get(i, triggers.SILENT),
            "trigger": trigger[i].to_json(),
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
    # The warnings are experience too: steering timesteps of the agent's session, one for
    # the warnings of each lesson access policy, under it.
    by_policy: dict[str | None, list[str]] = {}
    for lesson_id, warning in zip(chosen, warnings, strict=True):
        by_policy.setdefault(found[lesson_id][1].access_policy_id, []).append(warning.text)
    # Marked as a hook's session (``store.session_origin``): never another skin's default.
    steps = [NewTimestep(f"{req.agent}-{req.session_id}", at, "steering", "system",
                         "\n".join(texts), None, None, False, False, {}, access_policy_id=policy,
                         session_origin=HOOK)
             for policy, texts in by_policy.items()]  # fmt: skip
    ctx.store.record(steps, None, ctx.audit_by)
    return CheckResponse(warnings=warnings, context=context, read_only=False)


def session_start(ctx: Context, req: SessionStartRequest) -> SessionStartResponse:
    action = scoring.Action(
        tool="", text="", project=os.path.basename(req.cwd.rstrip("/")) if req.cwd else None
    )
    states, _ = ctx.store.list_learning_objects(KIND, {"status": ["T0", "T1"]}, None, 100_000)
    found = _load(ctx, [s.id for s in states])
    lines: dict[str, list[str]] = {"T0": [], "T1": []}
    used = {"T0": 0, "T1": 0}
    budget = {"T0": T0_BUDGET_CHARS, "T1": T1_BUDGET_CHARS}
    ids: list[str] = []
    # Principles first: a principle given replaces the behaviours it generalizes (seed 003:
    # memory shrinks as a pattern is generalized), so those are left out.
    ranked = sorted(found.values(), key=lambda f: (f[1].body["tier"] != "T0",
                    -float(f[1].body.get("confidence", 0)), f[0].id))  # fmt: skip
    replaced: set[str] = set()
    for episode, state in ranked:
        tier = state.body["tier"]
        if (
            not scoring.gate(_scoring_lesson(episode, state), action)
            or state.body.get("superseded")
            or episode.id in replaced
        ):
            continue
        line = f"- {episode.metadata.get('question')}: {episode.metadata.get('answer')}"
        if used[tier] + len(line) > budget[tier]:
            continue
        used[tier] += len(line)
        lines[tier].append(line)
        ids.append(episode.id)
        if tier == "T0":
            edges = ctx.store.graph_edges([episode.id], {"GENERALIZES"}, True, False)
            replaced.update(e.dst for e in edges if e.src == episode.id)
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
        example=(
            'LESSON=$(xdb lessons list | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['lessons'][0]['short_id'])\")\n"
            'xdb lessons show "$LESSON"'
        ),
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
        example=(
            'LESSON=$(xdb lessons list | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['lessons'][0]['short_id'])\")\n"
            'xdb feedback "$LESSON" --verdict noise --reason wrong_repo --project shop'
        ),
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
