"""``status``: what a database holds (tags, timesteps by fidelity, storage, sessions) and how
far embedding has got."""

from __future__ import annotations

from typing import Any

from xdb.fidelity.contract import effective
from xdb.log.log_models import (
    EmbeddingStats,
    ExperienceStats,
    SessionStats,
    StatusRequest,
    StatusResponse,
    StorageStats,
    TagStats,
)
from xdb.ops.registry import Context, Operation


def status(ctx: Context, req: StatusRequest) -> StatusResponse:
    session = ctx.session(req.session_id)
    stats = ctx.store.stats()
    total_sessions, recent_sessions = ctx.store.sessions(10)
    summary = ctx.store.session_summary(session)
    hiding = ctx.store.reading is not None
    if hiding:
        # A session's tick counts what the caller does not read too: withheld (its counts
        # are the store's views', of what it reads).
        recent_sessions = [s.model_copy(update={"current_tick": None}) for s in recent_sessions]
    # connect(quota_bytes=...) if given, else the resource contract's cold_storage_bytes.
    quota = (
        ctx.settings.get("quota_bytes") or effective(ctx.store, ctx.caller.id).cold_storage_bytes
    )
    by_fidelity = {
        f: stats["timesteps_by_fidelity"].get(f, 0) for f in ("hot", "warm", "submitted")
    }
    # COLD timesteps live on as the records that replaced them.
    by_fidelity["cold"] = ctx.store.cold_timesteps()
    by_type = {t: stats["tags_by_type"].get(t, 0) for t in ("concept", "entity", "bud", "custom")}
    applications = stats["tag_applications"]
    if ctx.view.restricted:
        # Counts of what the caller may see: tags about hidden concepts are not counted,
        # nor are their applications.
        for tag in ctx.store.list_tags(None, None):
            if not ctx.view.tag_visible(tag):
                by_type[tag.tag_type.value] -= 1
                applications -= tag.application_count or 0
    return StatusResponse(
        embedding=_embedding_stats(ctx),
        be_id=ctx.caller.id,
        session_id=session,
        current_tick=None if hiding else summary.current_tick if summary else 0,
        tag_stats=TagStats(total_tags=sum(by_type.values()), by_type=by_type),
        experience_stats=ExperienceStats(
            total_timesteps=sum(by_fidelity.values()),
            by_fidelity=by_fidelity,
            total_comments=stats["comments"],
            total_tag_applications=applications,
        ),
        storage_stats=StorageStats(
            # The file's size counts what the caller may not read: not for it to know.
            total_bytes=None if hiding else stats["bytes"],
            quota_bytes=quota,
            utilization=stats["bytes"] / quota if quota and not hiding else None,
            backend=ctx.store.backend,
            location=ctx.store.location,
        ),
        sessions=SessionStats(total=total_sessions, recent=recent_sessions),
    )


def _embedding_stats(ctx: Context) -> EmbeddingStats:
    """Counts over indexes; the model's id is worked out without loading the model."""
    if ctx.indexer is None:  # a context made without a worker: nothing embeds here
        from xdb.embed import model_id

        try:
            model: str | None = model_id()
            failure = None
        except Exception as exc:
            model, failure = None, f"{type(exc).__name__}: {exc}"
        episodes, with_vectors = ctx.store.vector_counts(model or "")
    else:
        model, episodes, with_vectors, failure = ctx.indexer.coverage(ctx.store)
    return EmbeddingStats(
        model=model,
        episodes=episodes,
        episodes_with_vectors=with_vectors,
        backlog=episodes - with_vectors,
        failure=failure,
    )


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="status",
        group="xdb",
        request=StatusRequest,
        response=StatusResponse,
        handler=status,
        readonly=True,
        summary="Get xdb state: tags, timesteps, storage, sessions, embedding backlog.",
        http_get=("/v1/xdb/status", "/v1/xdb/status/{session_id}"),
        example="xdb status",
    ),
)
