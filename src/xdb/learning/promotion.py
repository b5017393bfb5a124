"""Promotion: a bud becomes a stable concept of the database's own concept pack.

The concept keeps the bud's name as its id (and term), so every concept tag, activation,
filter and exemplar that named the candidate names the stable concept from then on; the
bud's tag, history and examples stay. The pack (``local``) is made by the first promotion.
"""

from __future__ import annotations

from typing import Any

from xdb.concepts.resolve import resolve
from xdb.errors import InvalidRequest
from xdb.learning.bud_models import PromoteBudRequest, PromoteBudResponse, ReviewStatus
from xdb.learning.buds import details, find_bud, move
from xdb.models.common import BudStatus
from xdb.ops.registry import Context, Operation
from xdb.store.types import ConceptRow, PackRow

LOCAL_PACK = "local"
LOCAL_SPEC = "local@1"


def promote_bud(ctx: Context, req: PromoteBudRequest) -> PromoteBudResponse:
    tag = find_bud(ctx, req.bud_tag_id)
    governance = details(ctx, tag).body.get("governance") or {}
    if governance.get("review_required") and governance.get("review_status") != (
        ReviewStatus.APPROVED.value
    ):
        raise InvalidRequest(
            f"bud_tag_id: {tag.name!r} needs an approving review before promotion"
            " (xdb set-bud-status NAME --review-status approved)",
            field="bud_tag_id",
        )
    old, new, obj = move(ctx, tag, BudStatus.PROMOTED, None, req.reason)
    if ctx.store.concepts_by_term(tag.name, None) or ctx.store.concepts_by_ids([tag.name]):
        raise InvalidRequest(
            f"bud_tag_id: a loaded concept is already named {tag.name!r}", field="bud_tag_id"
        )
    parent_id, layer = None, 0
    if req.parent_concept_id is not None:
        parent_id = resolve(ctx.store, req.parent_concept_id, "parent_concept_id", ctx.sees)
        (parent,) = ctx.store.concepts_by_ids([parent_id])
        layer = parent.layer + 1
    related = [r["concept_id"] for r in obj.body.get("related", [])]
    known = {c.id for c in ctx.store.concepts_by_ids(related)} if related else set()
    obj.body["promoted_concept_id"] = tag.name
    local = [p for p in ctx.store.concept_packs() if p.spec_id == LOCAL_SPEC]
    count = (local[0].concept_count if local else 0) + 1
    pack = PackRow(
        spec_id=LOCAL_SPEC,
        pack_id=LOCAL_PACK,
        version=str(count),
        description="Concepts this database grew: promoted buds.",
        concept_count=0,
        imported_us=obj.updated_us,
    )
    concept = ConceptRow(
        id=tag.name,
        spec_id=LOCAL_SPEC,
        term=tag.name,
        layer=layer,
        parent_id=parent_id,
        domain=None,
        definition=req.definition or tag.description or "",
        aliases=[tag.id],
        child_count=0,
        risk_level=None,
        treaty_relevant=False,
        harness_relevant=False,
        details={"promoted_from_bud": tag.id, "related": obj.body.get("related", [])},
    )
    ctx.store.promote_bud(
        tag.id, obj, pack, concept, [c for c in related if c in known], ctx.caller.id
    )
    assert new is BudStatus.PROMOTED
    return PromoteBudResponse(
        tag_id=tag.id, concept_id=tag.name, spec_id=LOCAL_SPEC, previous_status=old
    )


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="promote_bud",
        group="xdb",
        request=PromoteBudRequest,
        response=PromoteBudResponse,
        handler=promote_bud,
        readonly=False,
        summary="Promote a bud to a stable concept of the local concept pack.",
        positional="bud_tag_id",
        example="xdb promote-bud financial-ambiguity",
    ),
)
