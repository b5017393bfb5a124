"""The memcp toolset: memcp's four episode tools, with its names and shapes, on xdb.

memcp (seed 004) names its tools bare (``add_episode``...), calls the namespace ``context``,
prefixes ids with ``episode:`` (accepted with or without), truncates content to 500
characters in search results, and makes ``delete_episode`` idempotent. Its pitfalls are
avoided here: ids are ULIDs (two episodes in one microsecond never collide), a time without
a zone is read as UTC, and every filter combination is one query.
"""

from __future__ import annotations

import os
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel, Field, ValidationError, ValidationInfo, field_validator

from xdb.episodes.episode_models import (
    AddEpisodeRequest,
    DeleteEpisodeRequest,
    SearchEpisodesRequest,
)
from xdb.episodes.episode_operations import add_episode, delete_episode, load
from xdb.episodes.episode_search import search_episodes
from xdb.errors import from_validation_errors
from xdb.models.common import DeferredModel, Model, Page, TimeRange, access_policy_field
from xdb.ops.registry import Context, Operation
from xdb.timeutil import as_utc, from_us

M = TypeVar("M", bound=BaseModel)

PREFIX = "episode:"
TRUNCATE = 500


def _bare(episode_id: str) -> str:
    return episode_id.removeprefix(PREFIX)


def _context() -> str:
    # memcp detects the project; xdb takes it from XDB_NAMESPACE, else "default".
    return os.environ.get("XDB_NAMESPACE") or "default"


class MemcpEpisode(DeferredModel):
    id: str = Field(description="episode:<id>")
    content: str
    timestamp: datetime
    summary: str | None
    metadata: dict[str, Any]
    context: str
    score: float | None = None


class MemcpAddRequest(Model):
    """Store an episode (a conversation, notes, an experience) with an automatic id."""

    content: str = Field(description="Full episode content (conversation, notes, etc.).")
    summary: str | None = Field(default=None, description="Optional brief summary.")
    metadata: dict[str, Any] = Field(default_factory=dict)
    context: str | None = Field(default=None, description="Project namespace.")
    entity_ids: list[str] = Field(default_factory=list, description="Entities to link.")
    access_policy_id: str | None = access_policy_field()

    @field_validator("content")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("Episode content cannot be empty; provide content to store")
        return value


class MemcpAddResponse(MemcpEpisode):
    linked_entities: int


class MemcpSearchRequest(Model):
    """Hybrid (BM25 + vector) episode search with optional time range and context."""

    query: str = Field(min_length=1)
    time_start: datetime | None = Field(default=None, description="ISO 8601; no zone = UTC.")
    time_end: datetime | None = Field(default=None, description="ISO 8601; no zone = UTC.")
    context: str | None = None
    limit: int = Field(default=10, ge=1, le=50)

    @field_validator("time_start", "time_end")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc(value)

    @field_validator("time_end")
    @classmethod
    def _not_before_start(cls, value: datetime | None, info: ValidationInfo) -> datetime | None:
        start = info.data.get("time_start")
        if value is not None and start is not None and value < start:
            raise ValueError(f"must not be before time_start ({start.isoformat()})")
        return value


class MemcpSearchResponse(DeferredModel):
    episodes: list[MemcpEpisode]
    count: int


class MemcpIdRequest(Model):
    """An episode by id, with or without the ``episode:`` prefix."""

    id: str = Field(min_length=1)
    include_entities: bool = False


class MemcpGetResponse(MemcpEpisode):
    entities: list[str] | None = None


class MemcpDeleteRequest(Model):
    """Delete an episode; deleting one that does not exist is not an error."""

    id: str = Field(min_length=1)


class MemcpDeleteResponse(DeferredModel):
    id: str
    deleted: bool


def _translated(model: type[M], names: dict[str, str], **values: Any) -> M:
    """xdb's request built from memcp's: a value xdb refuses is named by memcp's field
    (``names``: xdb's field -> memcp's), as the caller sent it."""
    try:
        return model(**values)
    except ValidationError as exc:
        errors = [
            {**err, "loc": (names.get(str(err["loc"][0]), err["loc"][0]), *err["loc"][1:])}
            if err.get("loc")
            else err
            for err in exc.errors()
        ]
        raise from_validation_errors(errors) from None


def _add(ctx: Context, req: MemcpAddRequest) -> MemcpAddResponse:
    metadata = dict(req.metadata)
    if req.entity_ids:
        metadata["entity_ids"] = list(req.entity_ids)
    context = req.context or _context()
    made = add_episode(
        ctx,
        _translated(
            AddEpisodeRequest,
            {"namespace": "context"},
            content=req.content,
            summary=req.summary,
            namespace=context,
            metadata=metadata,
            kind="episode",
            access_policy_id=req.access_policy_id,
        ),
    )
    linked = sum(1 for e in req.entity_ids if ctx.store.get_tag(e) or ctx.store.find_tags(e))
    return MemcpAddResponse(
        id=PREFIX + made.episode_id,
        content=req.content[:TRUNCATE],
        timestamp=made.created_at,
        summary=req.summary,
        metadata=metadata,
        context=context,
        linked_entities=linked,
    )


def _search(ctx: Context, req: MemcpSearchRequest) -> MemcpSearchResponse:
    window = None
    if req.time_start or req.time_end:
        window = _translated(
            TimeRange,
            {"start_time": "time_start", "end_time": "time_end"},
            start_time=req.time_start,
            end_time=req.time_end,
        )
    found = search_episodes(
        ctx,
        _translated(
            SearchEpisodesRequest,
            {"text_query": "query", "namespace": "context", "page": "limit"},
            text_query=req.query,
            time_range=window,
            namespace=req.context,
            page=Page(page_size=req.limit),
        ),
    )
    stored = ctx.store.episodes_by_ids([h.episode_id for h in found.episodes])
    out = [
        _shape(stored[h.episode_id], TRUNCATE, h.score)
        for h in found.episodes
        if h.episode_id in stored
    ]
    return MemcpSearchResponse(episodes=out, count=len(out))


def _shape(stored: Any, limit: int | None, score: float | None = None) -> MemcpEpisode:
    ep = stored.episode
    return MemcpEpisode(
        id=PREFIX + ep.id,
        content=ep.content if limit is None else ep.content[:limit],
        timestamp=from_us(ep.start_us),
        summary=ep.summary,
        metadata=ep.metadata,
        context=ep.namespace,
        score=score,
    )


def _get(ctx: Context, req: MemcpIdRequest) -> MemcpGetResponse:
    stored = load(ctx, _bare(req.id), "id")
    shaped = _shape(stored, None).model_dump()
    entities = list(stored.episode.metadata.get("entity_ids", [])) if req.include_entities else None
    return MemcpGetResponse(**shaped, entities=entities)


def _delete(ctx: Context, req: MemcpDeleteRequest) -> MemcpDeleteResponse:
    done = delete_episode(ctx, DeleteEpisodeRequest(episode_id=_bare(req.id)))
    return MemcpDeleteResponse(id=PREFIX + done.episode_id, deleted=done.deleted)


def _memcp(
    name: str, request: Any, response: Any, handler: Any, readonly: bool, summary: str, **more: Any
) -> Operation[Any, Any]:
    # memcp's tools are MCP (and HTTP) only: their bare names would clash with experience's
    # on the command line, so the Python methods carry the group's name.
    return Operation(
        name=name,
        group="memcp",
        request=request,
        response=response,
        handler=handler,
        readonly=readonly,
        summary=summary,
        cli_name="",
        bare_tool_name=True,
        method=f"memcp_{name}",
        **more,
    )


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    _memcp(
        "add_episode", MemcpAddRequest, MemcpAddResponse, _add, False, "memcp: store an episode."
    ),
    _memcp(
        "search_episodes", MemcpSearchRequest, MemcpSearchResponse, _search, True, "memcp: search."
    ),
    _memcp(
        "get_episode", MemcpIdRequest, MemcpGetResponse, _get, True, "memcp: one episode by id."
    ),
    _memcp(
        "delete_episode",
        MemcpDeleteRequest,
        MemcpDeleteResponse,
        _delete,
        False,
        "memcp: delete.",
        destructive=True,
        idempotent=True,
    ),
)
