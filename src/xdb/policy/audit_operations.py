"""Reading the audit log: list, show, verify, and retention (``prune``). Auditors only, and
not in the agent's MCP toolset: the agent can neither read nor change it (docs/policy.md).
Writing it is not an operation at all: ``Database.run`` and the stores append to it."""

from __future__ import annotations

import os
from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from xdb.errors import InvalidRequest, NotFound
from xdb.models.common import INT64_MAX, DeferredModel, Model
from xdb.ops.registry import Context, Operation
from xdb.policy.load import AUDITOR
from xdb.store.audit import AuditRecord, object_of
from xdb.timeutil import from_us, now_us

RETENTION_ENV = "XDB_AUDIT_RETENTION_DAYS"
DAY_US = 86_400 * 1_000_000


class AuditRecordOut(DeferredModel):
    seq: int
    at: datetime
    kind: Literal["timestep", "timesteps", "call", "checkpoint"]
    caller: str
    operation: str
    body: dict[str, Any] = Field(description="The timestep as recorded, or the call's facts.")
    prev_hash: str
    hash: str


def _out(r: AuditRecord) -> AuditRecordOut:
    return AuditRecordOut(
        seq=r.seq,
        at=from_us(r.at_us),
        kind=r.kind,  # the log holds only these
        caller=r.caller,
        operation=r.operation,
        body=_body(r.body),
        prev_hash=r.prev_hash,
        hash=r.hash,
    )


def _body(text: str) -> dict[str, Any]:
    """A record's body as an object; one edited in the file into something else says so
    (``verify`` names the record)."""
    body = object_of(text)
    return body if body is not None else {"unreadable": "the stored body is not JSON"}


class AuditListRequest(Model):
    """Audit records in order, a page at a time, optionally of one kind, caller or
    operation."""

    after: int = Field(default=0, ge=0, le=INT64_MAX, description="Records after this seq.")
    limit: int = Field(default=100, ge=1, le=1000)
    kind: Literal["timestep", "timesteps", "call", "checkpoint"] | None = None
    caller_id: str | None = Field(default=None, description="Only this caller's records.")
    operation: str | None = Field(default=None, description="e.g. experience.search_episodes")


class AuditListResponse(DeferredModel):
    records: list[AuditRecordOut]
    next_after: int | None = Field(description="Pass as after for the next page; null: none.")


class AuditShowRequest(Model):
    """One audit record in full."""

    seq: int = Field(ge=1, le=INT64_MAX)


class AuditVerifyRequest(Model):
    """Walk the whole hash chain; say whether it holds and, if not, the first bad record."""


class AuditVerifyResponse(DeferredModel):
    ok: bool
    records: int = Field(description="Records verified before the first bad one (all, if ok).")
    first_bad_seq: int | None
    reason: str | None
    head_hash: str = Field(description="The last good record's hash: keep it to compare later.")


class AuditPruneRequest(Model):
    """Remove records older than the retention period, behind a checkpoint."""

    older_than_days: int | None = Field(
        default=None, ge=0, le=1_000_000, description=f"Default: ${RETENTION_ENV}."
    )


class AuditPruneResponse(DeferredModel):
    removed: int


def audit_list(ctx: Context, req: AuditListRequest) -> AuditListResponse:
    found = ctx.store.audit_read(req.after, req.limit + 1, req.kind, req.caller_id, req.operation)
    page = found[: req.limit]
    more = len(found) > req.limit
    return AuditListResponse(
        records=[_out(r) for r in page], next_after=page[-1].seq if more else None
    )


def audit_show(ctx: Context, req: AuditShowRequest) -> AuditRecordOut:
    found = ctx.store.audit_read(req.seq - 1, 1)
    if not found or found[0].seq != req.seq:
        raise NotFound(f"seq: no audit record {req.seq}", field="seq")
    return _out(found[0])


def audit_verify(ctx: Context, req: AuditVerifyRequest) -> AuditVerifyResponse:
    v = ctx.store.audit_verify()
    return AuditVerifyResponse(
        ok=v.first_bad is None,
        records=v.records,
        first_bad_seq=v.first_bad,
        reason=v.reason,
        head_hash=v.head,
    )


def audit_prune(ctx: Context, req: AuditPruneRequest) -> AuditPruneResponse:
    days = req.older_than_days
    if days is None:
        raw = os.environ.get(RETENTION_ENV, "").strip()
        if not raw.isdigit():
            raise InvalidRequest(
                f"older_than_days: give it, or set {RETENTION_ENV} to a whole number of days",
                field="older_than_days",
            )
        days = int(raw)
    now = now_us()
    return AuditPruneResponse(removed=ctx.store.audit_prune(now - days * DAY_US, now))


def _auditing(name: str, request: type[Any], response: type[Any], handler: Any, **kw: Any) -> Any:
    return Operation(
        name=name,
        group="audit",
        request=request,
        response=response,
        handler=handler,
        roles=(AUDITOR,),
        agent_tool=False,
        cli_name=f"audit {name}",  # a subcommand of `xdb audit` (interfaces.cli)
        method=f"audit_{name}",
        **kw,
    )


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    _auditing(
        "list",
        AuditListRequest,
        AuditListResponse,
        audit_list,
        readonly=True,
        summary="List audit records in order (auditors only).",
        example="xdb audit list --kind call --limit 20",
    ),
    _auditing(
        "show",
        AuditShowRequest,
        AuditRecordOut,
        audit_show,
        readonly=True,
        summary="One audit record in full (auditors only).",
        positional="seq",
        example="xdb audit show 1",
    ),
    _auditing(
        "verify",
        AuditVerifyRequest,
        AuditVerifyResponse,
        audit_verify,
        readonly=True,
        summary="Verify the audit log's hash chain; name the first bad record.",
        example="xdb audit verify",
    ),
    _auditing(
        "prune",
        AuditPruneRequest,
        AuditPruneResponse,
        audit_prune,
        readonly=False,
        destructive=True,
        idempotent=True,  # pruning again removes nothing more than the period allows
        summary="Apply the retention period: remove older records behind a checkpoint.",
        example="xdb audit prune --older-than-days 365",
    ),
)
