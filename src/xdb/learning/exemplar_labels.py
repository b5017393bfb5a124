"""Exemplars: add, list, remove (``store/exemplars.py`` keeps an episode's labels in step)."""

from __future__ import annotations

from typing import Any

from xdb.errors import Conflict, NotFound
from xdb.ids import new_id
from xdb.learning.exemplar_models import (
    AddExemplarRequest,
    AddExemplarResponse,
    Exemplar,
    ExemplarsRequest,
    ExemplarsResponse,
    RemoveExemplarRequest,
    RemoveExemplarResponse,
)
from xdb.models.common import TickRange
from xdb.ops.listing_pages import every_member, made_order_page
from xdb.ops.registry import Context, Operation
from xdb.policy.access_rules import check_create, check_target, configured
from xdb.store.exemplars import ExemplarRow
from xdb.store.types import ResolvedTarget, TimestepFilter
from xdb.timeutil import from_us, now_us


def exemplar_model(row: ExemplarRow, protected: set[str] | None = None) -> Exemplar:
    ticks = None
    if row.tick_start is not None and row.tick_end is not None:
        ticks = TickRange(start=row.tick_start, end=row.tick_end)
    return Exemplar(
        id=row.id,
        concept_id=row.concept_id,
        label=row.label,
        label_source=row.label_source,
        confidence=row.confidence,
        notes=row.notes,
        episode_id=row.episode_id,
        session_id=row.session_id,
        tick_range=ticks,
        protected=row.id in (protected or set()),
        created_at=from_us(row.created_us),
        created_by=row.created_by,
    )


def add_exemplar(ctx: Context, req: AddExemplarRequest) -> AddExemplarResponse:
    check_create(ctx, req.access_policy_id, "add_exemplar")
    session = ticks = None
    if req.tick_range is not None:
        ticks = req.tick_range
        session = ctx.session(req.session_id)
        target = ResolvedTarget("range", session, range_start=ticks.start, range_end=ticks.end)
        check_target(ctx, target, "add_exemplar")
        flt = TimestepFilter(session_ids=[session], tick_start=ticks.start, tick_end=ticks.end)
        if ctx.store.query(flt, None, 1)[1] == 0:
            raise NotFound(
                f"tick_range: session {session!r} has no timestep in ticks"
                f" {ticks.start}..{ticks.end}",
                field="tick_range",
            )
    else:
        policies = ctx.store.access_policies_of("episode", [(req.episode_id,)])
        if not policies:
            raise NotFound(f"unknown episode_id {req.episode_id!r}", field="episode_id")
        (policy,) = policies.values()
        if configured(ctx.policy_objects):
            ctx.require_access(policy, "write", "an episode's labels", field="episode_id")
    row = ExemplarRow(
        id=new_id("exemplar"),
        concept_id=req.concept_id,
        label=req.label.value,
        label_source=req.label_source.value,
        confidence=req.confidence,
        notes=req.notes,
        episode_id=req.episode_id,
        session_id=session,
        tick_start=None if ticks is None else ticks.start,
        tick_end=None if ticks is None else ticks.end,
        created_us=now_us(),
        created_by=ctx.caller.id,
        access_policy_id=req.access_policy_id,
    )
    ctx.store.add_exemplar(row)
    return AddExemplarResponse(exemplar=exemplar_model(row))


def exemplars(ctx: Context, req: ExemplarsRequest) -> ExemplarsResponse:
    label = None if req.label is None else req.label.value

    def fetch(after: tuple[int, str] | None, limit: int) -> tuple[list[ExemplarRow], int]:
        return ctx.store.list_exemplars(req.concept_id, req.episode_id, label, after, limit)

    rows, total, nxt = made_order_page(
        ctx, req.page, req.model_dump(mode="json", exclude={"page"}), fetch, lambda r: r.concept_id
    )
    protected = protected_exemplars(ctx)
    return ExemplarsResponse(
        exemplars=[exemplar_model(r, protected) for r in rows], total_count=total, next_cursor=nxt
    )


def protected_exemplars(ctx: Context) -> set[str]:
    """The exemplars a running training run's datasets were built from."""
    out: set[str] = set()
    for dataset_id in ctx.store.protected_datasets():
        out.update(
            m.get("label_exemplar_id") or m["exemplar_id"] for m in every_member(ctx, dataset_id)
        )
    return out


def remove_exemplar(ctx: Context, req: RemoveExemplarRequest) -> RemoveExemplarResponse:
    found = ctx.store.get_exemplar(req.exemplar_id)
    if found is None or not ctx.view.visible(found.concept_id):  # gone already, or never was
        return RemoveExemplarResponse(exemplar_id=req.exemplar_id, removed=False)
    if found.id in protected_exemplars(ctx):
        raise Conflict(
            f"exemplar_id: {found.id!r} is in a dataset a running training run reads; it can"
            " be removed once the run has ended (xdb record-training-run --status ...)",
            field="exemplar_id",
        )
    removed = ctx.store.remove_exemplar(req.exemplar_id)
    return RemoveExemplarResponse(exemplar_id=req.exemplar_id, removed=removed is not None)


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="add_exemplar",
        group="experience",
        request=AddExemplarRequest,
        response=AddExemplarResponse,
        handler=add_exemplar,
        readonly=False,
        summary="Label an episode or a tick range as an example of a concept (an exemplar).",
        example=(
            'EPISODE=$(xdb search deploy | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['episodes'][0]['episode_id'])\")\n"
            'xdb add-exemplar --concept-id Deception --label positive --episode-id "$EPISODE"'
        ),
    ),
    Operation(
        name="exemplars",
        group="experience",
        request=ExemplarsRequest,
        response=ExemplarsResponse,
        handler=exemplars,
        readonly=True,
        summary="List exemplars by concept, episode or label, a page at a time.",
        example="xdb exemplars --concept-id Deception --label positive",
    ),
    Operation(
        name="remove_exemplar",
        group="experience",
        request=RemoveExemplarRequest,
        response=RemoveExemplarResponse,
        handler=remove_exemplar,
        readonly=False,
        summary="Remove an exemplar (and the episode's label it was).",
        positional="exemplar_id",
        example=(
            'EXEMPLAR=$(xdb exemplars | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['exemplars'][0]['id'])\")\n"
            'xdb remove-exemplar "$EXEMPLAR"'
        ),
        destructive=True,
        idempotent=True,  # removing it again changes nothing
    ),
)
