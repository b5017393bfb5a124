"""Recording operations: record, record_batch, tag, create_tag, comment."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from xdb.episodes.auto_episodes import episode_maker
from xdb.errors import InvalidRequest, NotFound
from xdb.fidelity.fidelity_operations import after_recording
from xdb.ids import new_id, parse_timestep_id
from xdb.log.log_models import (
    Comment,
    CommentRequest,
    CommentResponse,
    CreateTagRequest,
    CreateTagResponse,
    RecordBatchRequest,
    RecordBatchResponse,
    RecordRequest,
    RecordResponse,
    Tag,
    TagApplication,
    TagRequest,
    TagResponse,
    _Targeted,
)
from xdb.models.common import DEFAULT_ROLE, BudStatus, EventType, Role, TagType, TargetType
from xdb.ops.registry import Context, Operation
from xdb.policy.access_rules import check_create, check_target
from xdb.store.fidelity import tokens_of
from xdb.store.types import NewTimestep, ResolvedTarget
from xdb.timeutil import from_us, now_us, to_us

# An event type's stored name and default role, and a role's stored name. Enum ``.value`` is a
# Python-level descriptor in 3.11: one dict lookup per timestep instead of several saves
# ~1.5 us a timestep, about 5% of batch ingest.
_KINDS = {kind: (kind.value, DEFAULT_ROLE[kind].value) for kind in EventType}
_ROLES = {role: role.value for role in Role}


def _new_timestep(req: RecordRequest, now: int, default_session: str) -> NewTimestep:
    event_type, role = _KINDS[req.event_type]
    if req.role is not None:
        role = _ROLES[req.role]
    return NewTimestep(
        req.session_id or default_session,
        to_us(req.timestamp) if req.timestamp is not None else now,
        event_type,
        role,
        req.content,
        req.token_id,
        req.event_id,
        req.event_start,
        req.event_end,
        req.concept_activations,
        req.access_policy_id,
    )


def record(ctx: Context, req: RecordRequest) -> RecordResponse:
    # The log records under the default without a look at the policies (the hot path: the
    # authorization matrix admits only self and admin); a policy named is checked.
    if req.access_policy_id is not None:
        check_create(ctx, req.access_policy_id, "record")
    session = ctx.session_to_record(req.session_id)
    item = _new_timestep(req, now_us(), session)
    if req.event_end and req.event_id is not None:
        ((ts_id, tick),) = ctx.store.record([item], episode_maker(ctx), ctx.audit_by)
        if ctx.indexer is not None:
            ctx.indexer.notify()  # the event's new episode needs its vector
    else:
        ((ts_id, tick),) = ctx.store.record([item], None, ctx.audit_by)
    after_recording(ctx, {item.session_id: tokens_of(item.content, item.token_id)})
    return RecordResponse(timestep_id=ts_id, tick=tick)  # (model_construct is slower here)


def record_batch(ctx: Context, req: RecordBatchRequest) -> RecordBatchResponse:
    now = now_us()
    default = (
        ctx.session_to_record(None) if any(t.session_id is None for t in req.timesteps) else ""
    )
    for policy_id in dict.fromkeys(t.access_policy_id for t in req.timesteps):
        if policy_id is not None:
            check_create(ctx, policy_id, "record_batch")
    items = [_new_timestep(t, now, default) for t in req.timesteps]
    ends = any(it.event_end and it.event_id for it in items)
    made = ctx.store.record(items, episode_maker(ctx) if ends else None, ctx.audit_by)
    if ends and ctx.indexer is not None:
        ctx.indexer.notify()
    tokens: dict[str, int] = {}
    for it in items:
        tokens[it.session_id] = tokens.get(it.session_id, 0) + tokens_of(it.content, it.token_id)
    after_recording(ctx, tokens)
    # Validated as one document: a RecordResponse() per timestep costs ~2 us, this ~1.2.
    results = [{"timestep_id": i, "tick": t} for i, t in made]
    return RecordBatchResponse.model_validate({"results": results})


def resolve_target(ctx: Context, req: _Targeted) -> ResolvedTarget | None:
    """Turn a request's target fields into a ResolvedTarget (existence is checked on write)."""
    if req.timestep_id is not None:
        parsed = parse_timestep_id(req.timestep_id)
        if parsed is None:
            raise NotFound(
                f"unknown timestep_id {req.timestep_id!r} (timestep ids look like"
                " 'ts-<session>-<tick>')",
                field="timestep_id",
            )
        if req.session_id is not None and req.session_id != parsed[0]:
            raise InvalidRequest(
                f"timestep_id {req.timestep_id!r} is not in session {req.session_id!r}",
                field="session_id",
            )
        return ResolvedTarget(TargetType.TIMESTEP.value, parsed[0], tick=parsed[1])
    session = ctx.session(req.session_id)
    if req.event_id is not None:
        return ResolvedTarget(TargetType.EVENT.value, session, event_id=req.event_id)
    if req.tick_range is not None:
        return ResolvedTarget(
            TargetType.RANGE.value,
            session,
            range_start=req.tick_range.start,
            range_end=req.tick_range.end,
        )
    return None


def resolve_tag(ctx: Context, name_or_id: str, reading: bool = False) -> Tag | None:
    """Find a tag by id, by exact name, or by ``type:name``; None when nothing matches.

    A name shared by tags of several types is ambiguous and must be given as type:name or id.
    ``reading``: a tag about a concept the caller may not see is as if it did not exist.
    """
    tag = ctx.store.get_tag(name_or_id)
    if tag is not None:
        return tag if not reading or ctx.view.tag_visible(tag) else None
    found = ctx.store.find_tags(name_or_id)
    if reading:
        found = [t for t in found if ctx.view.tag_visible(t)]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        choices = ", ".join(f"{t.tag_type.value}:{t.name} ({t.id})" for t in found)
        raise InvalidRequest(
            f"tag name {name_or_id!r} is ambiguous; use one of {choices}", field="tag_name_or_id"
        )
    prefix, sep, rest = name_or_id.partition(":")
    if sep and prefix in TagType._value2member_map_:
        typed = ctx.store.find_tags(rest, prefix)
        if typed and (not reading or ctx.view.tag_visible(typed[0])):
            return typed[0]
    return None


def _new_tag(ctx: Context, req: CreateTagRequest) -> Tag:
    return Tag(
        id=new_id("tag"),
        name=req.name,
        tag_type=req.tag_type,
        description=req.description,
        concept_id=(req.concept_id or req.name) if req.tag_type is TagType.CONCEPT else None,
        entity_type=req.entity_type,
        bud_status=BudStatus.COLLECTING if req.tag_type is TagType.BUD else None,
        related_concepts=req.related_concepts,
        created_at=_now(),
        created_by=ctx.caller.id,
    )


def _now() -> datetime:
    return from_us(now_us())


def tag(ctx: Context, req: TagRequest) -> TagResponse:
    target = resolve_target(ctx, req)
    assert target is not None  # the request model demands exactly one target
    check_target(ctx, target, "tag")
    existing = resolve_tag(ctx, req.tag_name_or_id)
    new_tag = None
    if existing is None:
        if req.tag_name_or_id.startswith("tag-"):
            raise NotFound(f"unknown tag id {req.tag_name_or_id!r}", field="tag_name_or_id")
        new_tag = _new_tag(ctx, CreateTagRequest(name=req.tag_name_or_id, tag_type=TagType.CUSTOM))
    application = TagApplication(
        id=new_id("ta"),
        tag_id=existing.id if existing else new_tag.id,  # type: ignore[union-attr]
        target_type=TargetType(target.target_type),
        session_id=target.session_id,
        confidence=req.confidence,
        source=req.source,
        note=req.note,
        created_at=_now(),
        created_by=ctx.caller.id,
    )
    applied, created, count = ctx.store.apply_tag(application, target, new_tag)
    return TagResponse(
        application_id=application.id,
        tag_id=applied.id,
        created=created,
        target_type=application.target_type,
        timestep_count=count,
    )


def create_tag(ctx: Context, req: CreateTagRequest) -> CreateTagResponse:
    check_create(ctx, req.access_policy_id, "create_tag")
    new = _new_tag(ctx, req)
    if req.tag_type is TagType.BUD:  # with its candidate-concept details (learning/buds.py)
        from xdb.learning.buds import new_details

        details = new_details(ctx, new, req)
        stored, created = ctx.store.create_bud(new, details, req.access_policy_id)
    else:
        stored, created = ctx.store.create_tag(new, req.access_policy_id)
    return CreateTagResponse(
        tag_id=stored.id, tag_type=stored.tag_type, bud_status=stored.bud_status, created=created
    )


def comment(ctx: Context, req: CommentRequest) -> CommentResponse:
    target = resolve_target(ctx, req)
    session = target.session_id if target else ctx.session(req.session_id)
    check_create(ctx, req.access_policy_id, "comment")
    check_target(ctx, target or ResolvedTarget("session", session), "comment")
    new = Comment(
        id=new_id("comment"),
        session_id=session,
        target_type=TargetType(target.target_type) if target else TargetType.SESSION,
        content=req.content,
        created_at=_now(),
        updated_at=_now(),
        created_by=ctx.caller.id,
    )
    ctx.store.add_comment(new, target, req.access_policy_id)
    return CommentResponse(comment_id=new.id)


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="record",
        group="xdb",
        request=RecordRequest,
        response=RecordResponse,
        handler=record,
        readonly=False,
        summary="Record a timestep (token, message, tool call, ...) to the experience log.",
        positional="content",
        example='xdb record "What is the capital of France?" --event-type input',
        self_audited=True,
    ),
    Operation(
        name="record_batch",
        group="xdb",
        request=RecordBatchRequest,
        response=RecordBatchResponse,
        handler=record_batch,
        readonly=False,
        summary="Record many timesteps in order in one transaction (token streams).",
        example="xdb record-batch --file tokens.jsonl",
        bulk=True,
        self_audited=True,
    ),
    Operation(
        name="tag",
        group="xdb",
        request=TagRequest,
        response=TagResponse,
        handler=tag,
        readonly=False,
        summary="Apply a folksonomy tag to a timestep, an event, or a tick range.",
        positional="tag_name_or_id",
        example="xdb tag geography --event-id call-1",
    ),
    Operation(
        name="create_tag",
        group="xdb",
        request=CreateTagRequest,
        response=CreateTagResponse,
        handler=create_tag,
        readonly=False,
        summary="Create a tag (concept, entity, bud or custom).",
        positional="name",
        example="xdb create-tag paris --tag-type entity --entity-type place",
        idempotent=True,  # a tag of that type and name is made once
    ),
    Operation(
        name="comment",
        group="xdb",
        request=CommentRequest,
        response=CommentResponse,
        handler=comment,
        readonly=False,
        summary="Add a comment to a timestep, an event, a tick range or a session.",
        positional="content",
        example='xdb comment "answered from memory" --timestep-id ts-s1-2',
    ),
)
