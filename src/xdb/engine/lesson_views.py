"""Inspecting the experience engine's lessons: their statistics and their timeline (how the
lessons about a topic were made, shown, judged and evolved; docs/engine.md)."""

from __future__ import annotations

from typing import Any

from xdb.engine.engine_models import (
    LessonEdge,
    LessonStatsRequest,
    LessonStatsResponse,
    TimelineEvent,
    TimelineRequest,
    TimelineResponse,
)
from xdb.engine.lesson_operations import (
    KIND,
    RELATIONS,
    SESSION_KIND,
    T3_DAYS,
    _load,
    _search,
    _view,
    short_id,
)
from xdb.engine.scoring import DAY_US, keywords
from xdb.ops.registry import Context, Operation
from xdb.timeutil import from_us, now_us

ALL = 100_000  # lessons read at most (a lesson store is thousands, not millions)


def lesson_stats(ctx: Context, req: LessonStatsRequest) -> LessonStatsResponse:
    states, _ = ctx.store.list_learning_objects(KIND, {}, None, ALL)
    found = _load(ctx, [s.id for s in states])
    now = now_us()
    by_tier = {"T0": 0, "T1": 0, "T2": 0, "T3": 0}
    counts = {"archived": 0, "superseded": 0, "expired": 0, "hits": 0, "follows": 0,
              "ignores": 0}  # fmt: skip
    noise: dict[str, int] = {}
    total = 0
    for episode, state in found.values():
        if req.project is not None and episode.metadata.get("project") != req.project:
            continue
        body = state.body
        total += 1
        if body.get("archived"):
            counts["archived"] += 1
        else:
            by_tier[body["tier"]] += 1
        counts["superseded"] += bool(body.get("superseded"))
        expired = body["tier"] == "T3" and now - episode.created_us > T3_DAYS * DAY_US
        counts["expired"] += expired and not body.get("archived")
        for key in ("hits", "follows", "ignores"):
            counts[key] += int(body.get(key, 0))
        for reason, n in dict(body.get("noise", {})).items():
            noise[str(reason)] = noise.get(str(reason), 0) + int(n)
    judged = counts["follows"] + counts["ignores"] + sum(noise.values())
    every, _ = ctx.store.list_learning_objects(SESSION_KIND, {}, None, ALL)
    sessions = [s for s in every if s.created_by == ctx.caller.id]  # the caller's own
    return LessonStatsResponse(
        total=total,
        by_tier=by_tier,
        archived=counts["archived"],
        superseded=counts["superseded"],
        expired=counts["expired"],
        warnings_shown=counts["hits"],
        follows=counts["follows"],
        ignores=counts["ignores"],
        noise=noise,
        follow_rate=round(counts["follows"] / judged, 4) if judged else None,
        sessions=len(sessions),
        pending=sum(len(s.body.get("pending", [])) for s in sessions),
    )


def timeline(ctx: Context, req: TimelineRequest) -> TimelineResponse:
    if req.topic is None:
        states, _ = ctx.store.list_learning_objects(KIND, {}, None, ALL)
        ids = [s.id for s in states]
    else:
        # Searched, then kept when they share a significant word with the topic (a vector
        # search ranks every lesson; the timeline shows the topic's).
        words = keywords(req.topic)
        ids = [
            episode.id
            for episode, _ in _load(ctx, [i for i, _ in _search(ctx, req.topic, 50)]).values()
            if words & keywords(episode.content or "")
        ]
        # 1-hop: what superseded them, the principles that generalize them, their relatives.
        near = ctx.store.graph_edges(ids, RELATIONS, True, True)
        ids = list(dict.fromkeys([*ids, *(e.src for e in near), *(e.dst for e in near)]))
    found = _load(ctx, ids)
    events: list[tuple[int, int, TimelineEvent]] = []
    for order, (episode, state) in enumerate(found.values()):
        short = state.series or short_id(episode.id)
        history: list[dict[str, Any]] = list(state.body.get("history", []))
        if not history or history[0].get("event") != "created":  # made before histories
            history.insert(0, {"at": episode.created_us, "event": "created"})
        for entry in history:
            at = int(entry["at"])
            events.append((at, order, TimelineEvent(
                at=from_us(at), lesson_id=episode.id, short_id=short, event=str(entry["event"]),
                detail=entry.get("detail"), source=entry.get("source"),
            )))  # fmt: skip
    events.sort(key=lambda e: (e[0], e[1]))
    edges = ctx.store.graph_edges(list(found), RELATIONS, True, False)
    return TimelineResponse(
        lessons=[_view(*found[i]) for i in found],
        edges=[
            LessonEdge(src=e.src, relation=e.relation, dst=e.dst)
            for e in sorted(edges)
            if e.dst in found
        ],
        events=[e for _, _, e in events[-req.limit :]],
        total=len(events),
    )


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="lesson_stats",
        group="engine",
        request=LessonStatsRequest,
        response=LessonStatsResponse,
        handler=lesson_stats,
        readonly=True,
        summary="How the lessons are doing: by tier, verdicts, follow rate, warnings shown.",
        cli_name="lessons stats",
        example="xdb lessons stats",
    ),
    Operation(
        name="timeline",
        group="engine",
        request=TimelineRequest,
        response=TimelineResponse,
        handler=timeline,
        readonly=True,
        summary="The lessons about a topic, and what happened to them, oldest first.",
        cli_name="lessons timeline",
        positional="topic",
        http_get=("/api/timeline",),
        example="xdb lessons timeline DbContext",
    ),
)
