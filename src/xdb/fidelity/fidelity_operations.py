"""Fidelity operations (seed 002, XAPI section 7): pin, unpin, quota, context, compact,
maintenance; submitted evidence; and the resource contract (docs/fidelity.md)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from xdb.errors import NotFound, XdbError, from_validation_errors
from xdb.fidelity.compaction import ContextWatch, compact
from xdb.fidelity.compression import maintain
from xdb.fidelity.contract import DATABASE, KIND, effective, stored_contracts
from xdb.fidelity.fidelity_models import (
    ColdUsage,
    CompactRequest,
    CompactResponse,
    ContextRequest,
    ContextResponse,
    MaintenanceRequest,
    MaintenanceResponse,
    PinRequest,
    PinResponse,
    QuotaRequest,
    QuotaResponse,
    ResolveSubmissionRequest,
    ResolveSubmissionResponse,
    ResourceContract,
    ResourceContractResponse,
    SetResourceContractRequest,
    SubmitEvidenceRequest,
    SubmitEvidenceResponse,
    UnpinRequest,
    UnpinResponse,
    WarmUsage,
)
from xdb.ids import parse_timestep_id
from xdb.models.common import INT64_MAX
from xdb.ops.registry import Context, Operation
from xdb.policy.load import ADMIN
from xdb.progress import report
from xdb.store.fidelity import PIN, SUBMISSION
from xdb.timeutil import now_us

if TYPE_CHECKING:
    from xdb.fidelity.summarize import Summarizer

log = logging.getLogger(__name__)


class FidelityState:
    """What a database handle keeps for fidelity: its summarizer (``XDB_SUMMARY_*``, made
    on first use) and the context watch."""

    def __init__(self) -> None:
        self.watch = ContextWatch()
        self._summarizer: Summarizer | None = None
        self._lock = threading.Lock()

    @property
    def summarizer(self) -> Summarizer:
        with self._lock:
            if self._summarizer is None:
                # Imported here: httpx (for a chat model) is not loaded by ``import xdb``.
                from xdb.fidelity.summarize import summarizer_from_env

                self._summarizer = summarizer_from_env()
            return self._summarizer


_FALLBACK = FidelityState()


def state(ctx: Context) -> FidelityState:
    found = ctx.settings.get("fidelity")
    return found if isinstance(found, FidelityState) else _FALLBACK


def after_recording(ctx: Context, tokens: dict[str, int]) -> None:
    """Compact a session the recording pushed past its threshold, in the background
    (``ContextWatch``). The timesteps are committed already: a failure is logged, and the
    next recording that crosses the threshold tries again."""
    st = state(ctx)
    try:
        st.watch.recorded(ctx, tokens, lambda: st.summarizer)
    except XdbError as exc:
        log.warning("compaction after recording failed: %s", exc)


# ---------------------------------------------------------------------- holds


def _ticks(ids: Sequence[str], strict: bool) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for ts in ids:
        parsed = parse_timestep_id(ts)
        if parsed is not None and parsed[1] > INT64_MAX:
            parsed = None  # no tick is that large
        if parsed is None:
            if strict:
                raise NotFound(
                    f"unknown timestep_id {ts!r} (timestep ids look like 'ts-<session>-<tick>')",
                    field="timestep_ids",
                )
            continue
        out.setdefault(parsed[0], []).append(parsed[1])
    return out


def _present(ctx: Context, ids: Sequence[str]) -> dict[str, dict[int, int]]:
    """Each named timestep's tokens, by session; NotFound (naming them) if any is missing:
    never recorded, compacted, or hidden from the caller."""
    found: dict[str, dict[int, int]] = {}
    missing: list[str] = []
    for session, ticks in _ticks(ids, strict=True).items():
        present = ctx.store.ticks_present(session, ticks)
        found[session] = {t: present[t][0] for t in ticks if t in present}
        missing += [f"ts-{session}-{t}" for t in ticks if t not in present]
    if missing:
        shown = ", ".join(missing[:5]) + (
            f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        )
        raise NotFound(
            f"no such timestep: {shown} (never recorded, or compacted into a COLD record;"
            " query finds its record)",
            field="timestep_ids",
        )
    return found


def _warm(ctx: Context, contract: ResourceContract) -> WarmUsage:
    used, _ = ctx.store.hold_tokens(ctx.caller.id)
    quota = contract.warm_quota_tokens
    return WarmUsage(used_tokens=used, quota_tokens=quota, remaining_tokens=max(quota - used, 0))


def pin(ctx: Context, req: PinRequest) -> PinResponse:
    ticks = _present(ctx, req.timestep_ids)
    contract = effective(ctx.store, ctx.caller.id)
    wanted = sum(len(t) for t in ticks.values())
    added = ctx.store.add_holds(
        PIN,
        ctx.caller.id,
        req.reason,
        ticks,
        now_us(),
        ctx.caller.id,
        quota=contract.warm_quota_tokens,
    )
    return PinResponse(
        pinned_count=added, already_pinned=wanted - added, warm_usage=_warm(ctx, contract)
    )


def unpin(ctx: Context, req: UnpinRequest) -> UnpinResponse:
    ticks = _ticks(req.timestep_ids, strict=False)
    removed = ctx.store.drop_holds(PIN, ctx.caller.id, dict(ticks.items())) if ticks else 0
    return UnpinResponse(
        unpinned_count=removed, warm_usage=_warm(ctx, effective(ctx.store, ctx.caller.id))
    )


def submit_evidence(ctx: Context, req: SubmitEvidenceRequest) -> SubmitEvidenceResponse:
    ticks = _present(ctx, req.timestep_ids)
    held = ctx.store.add_holds(SUBMISSION, req.submission_id, None, ticks, now_us(), ctx.caller.id)
    return SubmitEvidenceResponse(submission_id=req.submission_id, held_count=held)


def resolve_submission(ctx: Context, req: ResolveSubmissionRequest) -> ResolveSubmissionResponse:
    held = ctx.store.held_by(SUBMISSION, req.submission_id)
    released = (
        ctx.store.drop_holds(SUBMISSION, req.submission_id, dict(held.items())) if held else 0
    )
    return ResolveSubmissionResponse(submission_id=req.submission_id, released_count=released)


# ---------------------------------------------------------------------- reads


def quota(ctx: Context, req: QuotaRequest) -> QuotaResponse:
    contract = effective(ctx.store, ctx.caller.id)
    _, submitted = ctx.store.hold_tokens(ctx.caller.id)
    limit = contract.cold_storage_bytes
    # The file's size counts what the caller may not read: not for it to know (as status);
    # and it is the agent's and its operators' business, not a partner's.
    owner = ctx.caller.has("self") or ctx.caller.has(ADMIN)
    used = None if ctx.store.reading is not None or not owner else ctx.store.storage_bytes()
    return QuotaResponse(
        warm=_warm(ctx, contract),
        cold=ColdUsage(
            used_bytes=used,
            quota_bytes=limit,
            remaining_bytes=None if used is None else max(limit - used, 0),
        ),
        submitted_tokens=submitted,
        contract=contract,
    )


def context(ctx: Context, req: ContextRequest) -> ContextResponse:
    session = ctx.session(req.session_id)
    state(ctx).watch.settle(session)  # a compaction recording started: its outcome
    contract = effective(ctx.store, ctx.caller.id)
    tokens, tick, compactions = ctx.store.hot_window(session)
    hiding = ctx.store.reading is not None
    if (
        hiding
        and tick < 0
        and not ctx.store.memory_records([session], (None, None), (None, None), False, 1)
    ):
        compactions = 0  # a session the caller reads nothing of is as if it did not exist
    window = contract.context_window_tokens
    return ContextResponse(
        max_tokens=window,
        current_tokens=tokens,
        utilization=round(tokens / window, 6),
        session_id=session,
        # The session's tick counts what the caller does not read too: withheld.
        current_tick=None if hiding else max(tick, 0),
        compaction_count=compactions,
        threshold=contract.compaction_threshold,
    )


# ---------------------------------------------------------------------- compaction


def compact_op(ctx: Context, req: CompactRequest) -> CompactResponse:
    session = ctx.session(req.session_id)
    state(ctx).watch.settle(session)  # not beside one recording started
    keep = req.keep_tokens
    if keep is None:
        contract = effective(ctx.store, ctx.caller.id)
        keep = int(contract.context_window_tokens * contract.compaction_target)
    return compact(ctx, session, keep, state(ctx).summarizer)


def maintenance(ctx: Context, req: MaintenanceRequest) -> MaintenanceResponse:
    # The records compressed so far, for a progress bar (xdb.progress).
    return maintain(ctx, state(ctx).summarizer, req.max_seconds, report)


def set_resource_contract(
    ctx: Context, req: SetResourceContractRequest
) -> ResourceContractResponse:
    key = req.agent or DATABASE
    fields: dict[str, Any] = dict(stored_contracts(ctx.store).get(key, {}))
    given = req.model_dump(mode="json", exclude={"agent"}, exclude_none=True)
    ages = {**fields.get("compression_after_days", {}), **given.pop("compression_after_days", {})}
    fields.update(given)
    if ages:
        fields["compression_after_days"] = ages
    base = {} if req.agent is None else dict(stored_contracts(ctx.store).get(DATABASE, {}))
    try:
        ResourceContract.model_validate({**base, **fields})
    except ValidationError as exc:  # refused whole, naming the field
        raise from_validation_errors(exc.errors()) from None
    ctx.store.put_policy_object(KIND, key, fields, now_us(), ctx.caller.id)
    state(ctx).watch.forget()
    return ResourceContractResponse(agent=req.agent, contract=effective(ctx.store, req.agent))


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="pin",
        group="xdb",
        request=PinRequest,
        response=PinResponse,
        handler=pin,
        readonly=False,
        summary="Pin timesteps to WARM (kept whole, never compacted) within the token quota.",
        example=(
            'TS=$(xdb recent -n 1 | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['timesteps'][0]['id'])\")\n"
            "xdb pin --timestep-ids \"$TS\" --reason 'good example'"
        ),
        idempotent=True,
    ),
    Operation(
        name="unpin",
        group="xdb",
        request=UnpinRequest,
        response=UnpinResponse,
        handler=unpin,
        readonly=False,
        summary="Unpin timesteps (back to HOT, where compaction may take them).",
        example=(
            'TS=$(xdb recent -n 1 | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['timesteps'][0]['id'])\")\n"
            'xdb unpin --timestep-ids "$TS"'
        ),
        idempotent=True,
    ),
    Operation(
        name="quota",
        group="xdb",
        request=QuotaRequest,
        response=QuotaResponse,
        handler=quota,
        readonly=True,
        summary="WARM tokens and COLD bytes used, against the resource contract.",
        http_get=("/v1/xdb/quota/{session_id}",),
        example="xdb quota",
    ),
    Operation(
        name="context",
        group="xdb",
        request=ContextRequest,
        response=ContextResponse,
        handler=context,
        readonly=True,
        summary="The session's HOT context window: tokens, utilization, compactions.",
        http_get=("/v1/xdb/context/{session_id}",),
        example="xdb context",
    ),
    Operation(
        name="compact",
        group="xdb",
        request=CompactRequest,
        response=CompactResponse,
        handler=compact_op,
        readonly=False,
        summary="Compact the session's oldest HOT timesteps into COLD reply records now.",
        http_post=("/v1/xdb/compact/{session_id}",),
        example="xdb compact --keep-tokens 1000",
        idempotent=True,
        destructive=True,
    ),
    Operation(
        name="maintenance",
        group="xdb",
        request=MaintenanceRequest,
        response=MaintenanceResponse,
        handler=maintenance,
        readonly=False,
        summary="Progressive compression by age and under storage pressure; audit retention;"
        " reclaim space.",
        http_post=("/v1/xdb/maintenance/{session_id}",),
        example="xdb maintenance",
        idempotent=True,
        destructive=True,
    ),
    Operation(
        name="submit_evidence",
        group="xdb",
        request=SubmitEvidenceRequest,
        response=SubmitEvidenceResponse,
        handler=submit_evidence,
        readonly=False,
        summary="Hold timesteps as SUBMITTED evidence of a submission until it is resolved.",
        example=(
            'TS=$(xdb recent -n 1 | python3 -c "import json, sys;'
            " print(json.load(sys.stdin)['timesteps'][0]['id'])\")\n"
            'xdb submit-evidence --submission-id graft-1 --timestep-ids "$TS"'
        ),
        idempotent=True,
    ),
    Operation(
        name="resolve_submission",
        group="xdb",
        request=ResolveSubmissionRequest,
        response=ResolveSubmissionResponse,
        handler=resolve_submission,
        readonly=False,
        summary="Release a resolved submission's evidence (back to WARM if pinned, else HOT).",
        positional="submission_id",
        example="xdb resolve-submission graft-1",
        idempotent=True,
    ),
)

POLICY_OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="set_resource_contract",
        group="policy",
        request=SetResourceContractRequest,
        response=ResourceContractResponse,
        handler=set_resource_contract,
        readonly=False,
        summary="Set the resource contract (quotas, window, retention) of the database or an"
        " agent.",
        example="xdb set-resource-contract --warm-quota-tokens 500000",
        idempotent=True,
        destructive=True,
        roles=(ADMIN,),
        agent_tool=False,
    ),
)
