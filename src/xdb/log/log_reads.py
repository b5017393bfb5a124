"""Reading the log: query (filters, text, paging), the recent timesteps of a session, and
the tags with their counts."""

from __future__ import annotations

from functools import partial
from typing import Any

from xdb.errors import InvalidRequest
from xdb.fidelity.recall import matching_records
from xdb.log.log_models import (
    AnnotationsRequest,
    AnnotationsResponse,
    AppliedTag,
    QueryRequest,
    QueryResponse,
    RecentRequest,
    RecentResponse,
    TagsRequest,
    TagsResponse,
)
from xdb.log.recording import resolve_tag
from xdb.ops import cursor
from xdb.ops.registry import Context, Operation
from xdb.store.types import TimestepFilter
from xdb.timeutil import to_us


def query(ctx: Context, req: QueryRequest) -> QueryResponse:
    flt = TimestepFilter(
        session_ids=None if req.all_sessions else [ctx.session(req.session_id)],
        event_types=[e.value for e in req.event_types] if req.event_types else None,
        text=req.text_search if req.text_search and req.text_search.strip() else None,
        descending=req.order == "desc",
    )
    if req.tick_range is not None:
        flt.tick_start, flt.tick_end = req.tick_range.start, req.tick_range.end
    if req.time_range is not None:
        if req.time_range.start_time is not None:
            flt.time_start_us = to_us(req.time_range.start_time)
        if req.time_range.end_time is not None:
            flt.time_end_us = to_us(req.time_range.end_time)
    if req.concept_activations:
        for concept, rng in req.concept_activations.items():
            if rng.max < rng.min:
                raise InvalidRequest(
                    f"concept_activations.{concept}: max ({rng.max}) must be >= min ({rng.min})",
                    field="concept_activations",
                )
            flt.activations[concept] = (rng.min, rng.max)
    unknown_tag = False
    for name in req.tags or []:
        found = resolve_tag(ctx, name, reading=True)
        if found is None:
            unknown_tag = True  # a tag nobody applied matches nothing
        else:
            flt.tag_ids.append(found.id)
    digest = cursor.digest(
        req.model_dump(exclude={"cursor", "limit", "include_records"}, mode="json")
    )
    after = None
    if req.cursor:
        after = cursor.decode_pair(req.cursor, digest)
    if unknown_tag:
        return QueryResponse(timesteps=[], total_count=0, next_cursor=None)
    page, total, next_key = ctx.store.query(flt, after, req.limit)
    return QueryResponse(
        timesteps=page,
        total_count=total,
        next_cursor=cursor.encode(list(next_key), digest) if next_key else None,
        # Compressed experience, at its lower fidelity: with the first page only.
        records=(
            matching_records(ctx.store, flt, req.limit, partial(visible_ids, ctx))
            if after is None and req.include_records
            else []
        ),
    )


def visible_ids(ctx: Context, kind: str, ids: list[str]) -> set[str]:
    """Those of ``ids`` (of tags, comments or exemplars) the caller reads: through the
    store's views, and for a tag, its disclosure too."""
    if kind == "tag":
        return {
            i
            for i in ids
            if (tag := ctx.store.get_tag(i)) is not None and ctx.view.tag_visible(tag)
        }
    return ctx.store.visible_ids(kind, ids)


def recent(ctx: Context, req: RecentRequest) -> RecentResponse:
    return RecentResponse(timesteps=ctx.store.recent(ctx.session(req.session_id), req.n))


def session_annotations(ctx: Context, req: AnnotationsRequest) -> AnnotationsResponse:
    session_id = ctx.session(req.session_id)
    ticks = None if req.tick_range is None else (req.tick_range.start, req.tick_range.end)
    limit = depth = req.limit
    while True:
        # Tags about concepts the caller may not see take no place (read deeper to fill the
        # page), so that neither the page nor ``truncated`` tells where such tags are.
        applied, said = ctx.store.annotations(session_id, ticks, depth)
        shown = [(a, t) for a, t in applied if ctx.view.tag_visible(t, session_id)]
        if len(shown) > limit or len(applied) <= depth:
            break
        depth *= 4
    return AnnotationsResponse(
        session_id=session_id,
        tags=[AppliedTag(tag=tag, application=a) for a, tag in shown[:limit]],
        comments=said[:limit],
        truncated=len(shown) > limit or len(said) > limit,
    )


def tags(ctx: Context, req: TagsRequest) -> TagsResponse:
    return TagsResponse(
        tags=ctx.store.list_tags(
            req.tag_type.value if req.tag_type else None,
            req.bud_status.value if req.bud_status else None,
        )
    )


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="query",
        group="xdb",
        request=QueryRequest,
        response=QueryResponse,
        handler=query,
        readonly=True,
        summary="Query the experience log for timesteps matching filters, a page at a time.",
        positional="text_search",
        example='xdb query "paris" --event-types output --tags geography --jsonl',
    ),
    Operation(
        name="recent",
        group="xdb",
        request=RecentRequest,
        response=RecentResponse,
        handler=recent,
        readonly=True,
        summary="Get the N most recent timesteps of a session, oldest first.",
        http_get=("/v1/xdb/recent", "/v1/xdb/recent/{session_id}"),
        example="xdb recent -n 20",
    ),
    Operation(
        name="annotations",
        group="xdb",
        request=AnnotationsRequest,
        response=AnnotationsResponse,
        handler=session_annotations,
        readonly=True,
        summary="The tags applied and comments made on a session's experience, in tick order.",
        http_get=("/v1/xdb/annotations", "/v1/xdb/annotations/{session_id}"),
        example="xdb annotations --session-id s1",
    ),
    Operation(
        name="tags",
        group="xdb",
        request=TagsRequest,
        response=TagsResponse,
        handler=tags,
        readonly=True,
        summary="List tags, optionally filtered by type or bud status, with application counts.",
        http_get=("/v1/xdb/tags", "/v1/xdb/tags/{session_id}"),
        query_aliases={"type": "tag_type", "status": "bud_status"},
        example="xdb tags --tag-type bud",
    ),
)
