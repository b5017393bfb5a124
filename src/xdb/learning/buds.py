"""Buds: candidate concepts from first example to stable concept.

One lifecycle serves both seeds' words. The experience tools' (002) statuses are stored:
collecting, ready, training, promoted, abandoned, plus validating and rejected from the
XDB specification (000/001), whose candidate-concept view maps ready to collecting and
abandoned to rejected (``AS_CANDIDATE``). ``TRANSITIONS`` are the legal moves.
"""

from __future__ import annotations

from typing import Any

from xdb.errors import InvalidRequest, NotFound
from xdb.learning.bud_models import (
    Bud,
    BudChange,
    BudExamplesRequest,
    BudExamplesResponse,
    BudReadyRequest,
    BudReadyResponse,
    BudRef,
    BudsRequest,
    BudsResponse,
    CandidateConcept,
    CandidateStatus,
    Governance,
    ListCandidateConceptsRequest,
    ListCandidateConceptsResponse,
    RelatedConcept,
    ReviewStatus,
    SetBudStatusRequest,
    SetBudStatusResponse,
)
from xdb.log.log_models import CreateTagRequest, Tag
from xdb.models.common import BudStatus, TagType
from xdb.ops import cursor
from xdb.ops.registry import Context, Operation
from xdb.store.learning import LearningObject
from xdb.store.types import TimestepFilter
from xdb.timeutil import from_us, now_us, to_us

S = BudStatus
TRANSITIONS: dict[BudStatus, tuple[BudStatus, ...]] = {
    S.COLLECTING: (S.READY, S.TRAINING, S.ABANDONED, S.REJECTED),
    S.READY: (S.COLLECTING, S.TRAINING, S.ABANDONED, S.REJECTED),
    S.TRAINING: (S.VALIDATING, S.PROMOTED, S.READY, S.ABANDONED, S.REJECTED),
    S.VALIDATING: (S.PROMOTED, S.TRAINING, S.REJECTED, S.ABANDONED),
    S.PROMOTED: (),
    S.REJECTED: (S.COLLECTING,),
    S.ABANDONED: (S.COLLECTING,),
}
C = CandidateStatus
AS_CANDIDATE: dict[BudStatus, CandidateStatus] = {
    S.COLLECTING: C.COLLECTING,
    S.READY: C.COLLECTING,
    S.TRAINING: C.TRAINING,
    S.VALIDATING: C.VALIDATING,
    S.PROMOTED: C.PROMOTED,
    S.REJECTED: C.REJECTED,
    S.ABANDONED: C.REJECTED,
}


def new_details(ctx: Context, tag: Tag, req: CreateTagRequest) -> LearningObject:
    """A new bud's details (``create_tag``)."""
    related = [{"concept_id": c, "relation": "related"} for c in req.related_concepts]
    related += [
        {"concept_id": c, "relation": r}
        for c, r in req.relations.items()
        if c not in req.related_concepts
    ]
    at = to_us(tag.created_at)
    body = {
        "related": related,
        "proposer": req.proposer or ctx.caller.id,
        "governance": {
            "tribe_id": req.tribe_id,
            "review_required": req.review_required,
            "review_status": ReviewStatus.PENDING.value if req.review_required else None,
        },
        "initial_episode_ids": list(req.initial_episode_ids),
        "dataset_id": None,
        "promoted_concept_id": None,
        "history": [_change(ctx, at, None, BudStatus.COLLECTING, None, "proposed")],
    }
    return LearningObject(
        "bud", tag.id, None, None, tag.name, BudStatus.COLLECTING.value, body, at, at, ctx.caller.id
    )


def _change(
    ctx: Context,
    at: int,
    old: BudStatus | None,
    new: BudStatus,
    review: str | None,
    reason: str | None,
) -> dict[str, Any]:
    return {
        "at_us": at,
        "by": ctx.caller.id,
        "from": None if old is None else old.value,
        "to": new.value,
        "review": review,
        "reason": reason,
    }


def find_bud(ctx: Context, name_or_id: str) -> Tag:
    """The bud a request names by tag id or name; NotFound names the field."""
    tag = ctx.store.get_tag(name_or_id)
    if tag is None or tag.tag_type is not TagType.BUD:
        found = ctx.store.find_tags(name_or_id, TagType.BUD.value)
        tag = found[0] if found else None
    if tag is None or not ctx.view.tag_visible(tag):
        raise NotFound(
            f"bud_tag_id: no bud {name_or_id!r} (xdb buds lists them)", field="bud_tag_id"
        )
    return tag


def details(ctx: Context, tag: Tag) -> LearningObject:
    """The bud's stored details (defaults for a bud made before they were kept)."""
    found = ctx.store.learning_object("bud", tag.id)
    if found is not None:
        return found
    at = to_us(tag.created_at)
    status = tag.bud_status or BudStatus.COLLECTING
    body = {
        "related": [{"concept_id": c, "relation": "related"} for c in tag.related_concepts],
        "proposer": tag.created_by,
        "governance": {"tribe_id": None, "review_required": False, "review_status": None},
        "initial_episode_ids": [],
        "dataset_id": None,
        "promoted_concept_id": None,
        "history": [],
    }
    return LearningObject(
        "bud", tag.id, None, None, tag.name, status.value, body, at, at, tag.created_by
    )


def example_count(ctx: Context, tag_id: str) -> int:
    return ctx.store.query(TimestepFilter(session_ids=None, tag_ids=[tag_id]), None, 1)[1]


def _readable_refs(ctx: Context, body: dict[str, Any]) -> tuple[list[str], str | None]:
    """The bud's initial episodes and dataset, of those the caller reads."""
    episodes: list[str] = body.get("initial_episode_ids") or []
    dataset = body.get("dataset_id")
    if ctx.store.reading is None:
        return episodes, dataset
    found = ctx.store.episodes_by_ids(episodes) if episodes else {}
    if dataset is not None and ctx.store.learning_object("dataset", dataset) is None:
        dataset = None
    return [e for e in episodes if e in found], dataset


def bud_model(ctx: Context, tag: Tag, obj: LearningObject) -> Bud:
    b = obj.body
    episodes, dataset = _readable_refs(ctx, b)
    return Bud(
        tag_id=tag.id,
        name=tag.name,
        status=tag.bud_status or BudStatus.COLLECTING,
        description=tag.description,
        related_concepts=[RelatedConcept.model_validate(r) for r in b.get("related", [])],
        proposer=b.get("proposer") or tag.created_by,
        governance=Governance.model_validate(b.get("governance") or {}),
        initial_episode_ids=episodes,
        dataset_id=dataset,
        promoted_concept_id=b.get("promoted_concept_id"),
        example_count=example_count(ctx, tag.id),
        history=[
            BudChange(
                at=from_us(h["at_us"]),
                by=h["by"],
                from_status=h["from"],
                to_status=h["to"],
                review_status=h.get("review"),
                reason=h.get("reason"),
            )
            for h in b.get("history", [])
        ],
        created_at=tag.created_at,
        updated_at=from_us(obj.updated_us),
    )


def _visible_buds(
    ctx: Context, statuses: set[BudStatus] | None
) -> list[tuple[Tag, LearningObject]]:
    tags = [t for t in ctx.store.list_tags(TagType.BUD.value, None) if ctx.view.tag_visible(t)]
    if statuses is not None:
        tags = [t for t in tags if (t.bud_status or BudStatus.COLLECTING) in statuses]
    found = ctx.store.learning_objects("bud", [t.id for t in tags])
    out = [(t, found.get(t.id) or details(ctx, t)) for t in tags]
    return sorted(out, key=lambda p: (to_us(p[0].created_at), p[0].id))


def _page(
    ctx: Context,
    items: list[tuple[Tag, LearningObject]],
    page_cursor: str | None,
    size: int,
    digest: str,
) -> tuple[list[tuple[Tag, LearningObject]], str | None]:
    if page_cursor is not None:
        at, key = cursor.decode(page_cursor, digest, "page.cursor")
        items = [p for p in items if (to_us(p[0].created_at), p[0].id) > (at, key)]
    page = items[:size]
    more = len(items) > size
    last = page[-1][0] if page else None
    next_cursor = (
        cursor.encode([to_us(last.created_at), last.id], digest) if more and last else None
    )
    return page, next_cursor


def buds(ctx: Context, req: BudsRequest) -> BudsResponse:
    digest = cursor.digest(req.model_dump(mode="json", exclude={"page"}))
    items = _visible_buds(ctx, None if req.status is None else {req.status})
    page, next_cursor = _page(ctx, items, req.page.cursor, req.page.page_size, digest)
    return BudsResponse(buds=[bud_model(ctx, t, o) for t, o in page], next_cursor=next_cursor)


def list_candidate_concepts(
    ctx: Context, req: ListCandidateConceptsRequest
) -> ListCandidateConceptsResponse:
    digest = cursor.digest(req.model_dump(mode="json", exclude={"page"}))
    wanted = None
    if req.status:
        asked = set(req.status)
        wanted = {s for s, c in AS_CANDIDATE.items() if c in asked}
    items = _visible_buds(ctx, wanted)
    if req.tribe_id is not None:
        items = [
            p for p in items if (p[1].body.get("governance") or {}).get("tribe_id") == req.tribe_id
        ]
    page, next_cursor = _page(ctx, items, req.page.cursor, req.page.page_size, digest)
    out = []
    for tag, obj in page:
        b = bud_model(ctx, tag, obj)
        out.append(
            CandidateConcept(
                id=tag.name,
                tag_id=tag.id,
                proposer_aal_id=b.proposer,
                description=b.description,
                initial_episode_ids=b.initial_episode_ids,
                dataset_id=b.dataset_id,
                status=AS_CANDIDATE[b.status],
                bud_status=b.status,
                related_concepts=b.related_concepts,
                governance=b.governance,
                created_at=b.created_at,
                updated_at=b.updated_at,
            )
        )
    return ListCandidateConceptsResponse(candidate_concepts=out, next_cursor=next_cursor)


def bud_examples(ctx: Context, req: BudExamplesRequest) -> BudExamplesResponse:
    tag = find_bud(ctx, req.bud_tag_id)
    digest = cursor.digest({"bud": tag.id})
    after = None
    if req.cursor:
        after = cursor.decode_pair(req.cursor, digest)
    page, total, next_key = ctx.store.query(
        TimestepFilter(session_ids=None, tag_ids=[tag.id]), after, req.limit
    )
    return BudExamplesResponse(
        bud=BudRef(tag_id=tag.id, name=tag.name, status=tag.bud_status or BudStatus.COLLECTING),
        examples=page,
        example_count=total,
        next_cursor=cursor.encode(list(next_key), digest) if next_key else None,
    )


def move(
    ctx: Context,
    tag: Tag,
    new: BudStatus | None,
    review: ReviewStatus | None,
    reason: str | None,
) -> tuple[BudStatus, BudStatus, LearningObject]:
    """Check a move (or a review alone) and make the bud's next details; nothing stored."""
    old = tag.bud_status or BudStatus.COLLECTING
    if new is not None and new is not old and new not in TRANSITIONS[old]:
        allowed = ", ".join(s.value for s in TRANSITIONS[old]) or "none: it is final"
        raise InvalidRequest(
            f"status: a bud may not go from {old.value} to {new.value}; from {old.value} it may"
            f" go to {allowed}",
            field="status",
        )
    obj = details(ctx, tag)
    at = now_us()
    target = old if new is None else new
    body = dict(obj.body)
    if review is not None:
        body["governance"] = {**(body.get("governance") or {}), "review_status": review.value}
    if target is not old or review is not None:  # (marking a ready bud ready changes nothing)
        body["history"] = [
            *body.get("history", []),
            _change(ctx, at, old, target, None if review is None else review.value, reason),
        ]
    nxt = LearningObject(
        "bud", tag.id, None, None, tag.name, target.value, body, obj.created_us, at, obj.created_by
    )
    return old, target, nxt


def bud_ready(ctx: Context, req: BudReadyRequest) -> BudReadyResponse:
    tag = find_bud(ctx, req.bud_tag_id)
    old, new, obj = move(ctx, tag, BudStatus.READY, None, req.reason)
    ctx.store.update_bud(tag.id, new.value, obj)
    return BudReadyResponse(
        tag_id=tag.id, previous_status=old, new_status=new, example_count=example_count(ctx, tag.id)
    )


def set_bud_status(ctx: Context, req: SetBudStatusRequest) -> SetBudStatusResponse:
    if req.status is None and req.review_status is None:
        raise InvalidRequest("give status, review_status or both", field="status")
    if req.status is BudStatus.PROMOTED:
        raise InvalidRequest(
            "status: promotion makes a concept; use promote_bud (xdb promote-bud)", field="status"
        )
    tag = find_bud(ctx, req.bud_tag_id)
    old, new, obj = move(ctx, tag, req.status, req.review_status, req.reason)
    ctx.store.update_bud(tag.id, new.value, obj)
    return SetBudStatusResponse(
        tag_id=tag.id,
        previous_status=old,
        new_status=new,
        review_status=(obj.body.get("governance") or {}).get("review_status"),
        allowed_next=list(TRANSITIONS[new]),
    )


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="buds",
        group="xdb",
        request=BudsRequest,
        response=BudsResponse,
        handler=buds,
        readonly=True,
        summary="List buds (candidate concepts), optionally by status, with example counts.",
        http_get=("/v1/xdb/buds", "/v1/xdb/buds/{session_id}"),
        example="xdb buds --status collecting",
    ),
    Operation(
        name="bud_examples",
        group="xdb",
        request=BudExamplesRequest,
        response=BudExamplesResponse,
        handler=bud_examples,
        readonly=True,
        summary="Every timestep tagged with a bud (its training examples), a page at a time.",
        http_get=("/v1/xdb/bud-examples/{session_id}/{bud_tag_id}",),
        positional="bud_tag_id",
        example="xdb bud-examples financial-ambiguity",
    ),
    Operation(
        name="bud_ready",
        group="xdb",
        request=BudReadyRequest,
        response=BudReadyResponse,
        handler=bud_ready,
        readonly=False,
        summary="Mark a bud ready for training (collecting -> ready).",
        http_post=("/v1/xdb/bud-ready/{session_id}/{bud_tag_id}",),
        positional="bud_tag_id",
        example="xdb bud-ready financial-ambiguity",
        idempotent=True,
    ),
    Operation(
        name="set_bud_status",
        group="xdb",
        request=SetBudStatusRequest,
        response=SetBudStatusResponse,
        handler=set_bud_status,
        readonly=False,
        summary="Move a bud along its lifecycle or record a review (illegal moves refused).",
        positional="bud_tag_id",
        example="xdb set-bud-status financial-ambiguity --status training",
    ),
)
# The XDB specification's view of buds, listed with the experience group's operations.
EXPERIENCE_OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="list_candidate_concepts",
        group="experience",
        request=ListCandidateConceptsRequest,
        response=ListCandidateConceptsResponse,
        handler=list_candidate_concepts,
        readonly=True,
        summary="List candidate concepts in flight, by status or governing tribe.",
        example="xdb list-candidate-concepts --status collecting --status training",
    ),
)
