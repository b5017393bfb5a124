"""Fidelity tiers, the resource contract, compaction and progressive compression: the
shapes of seed 002's fidelity tools (pin, unpin, quota, context, compact, maintenance) and
of XDB section 8 (docs/fidelity.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import Field, field_validator, model_validator

from xdb.models.common import DeferredModel, Model, NonEmpty

# COLD's levels are the kernel's (storage's export names them); here under their old name.
from xdb.models.common import Level as Level
from xdb.models.concept_markers import ConceptKeys

MIB = 1024 * 1024
# An age in days: finite, at most ~2,700 years (larger would overflow microseconds).
Days = Annotated[float, Field(ge=0, le=1_000_000, allow_inf_nan=False)]

LEVELS = list(Level)

# How old (days) a record must be before it is merged into the next level: the spec's
# "typical age" of each level (hours, days, weeks, months, quarters, years, long-term).
DEFAULT_AGES = {
    "session": 1.0,
    "day": 7.0,
    "week": 30.0,
    "month": 90.0,
    "quarter": 365.0,
    "year": 730.0,
}


class ResourceContract(Model):
    """What memory may use (XDB section 8.4); the defaults are the tribal minimums."""

    warm_quota_tokens: int = Field(
        default=100_000, ge=0, le=2**62, description="Tokens pinned to WARM, at most."
    )
    context_window_tokens: int = Field(
        default=8192, ge=1, le=2**62, description="Tokens in a session's HOT window."
    )
    cold_storage_bytes: int = Field(
        default=100 * MIB, ge=0, le=2**62, description="Bytes the database may use on disk."
    )
    audit_log_retention_days: int = Field(
        default=30, ge=1, le=100_000, description="Days the audit log keeps its records."
    )
    compaction_threshold: float = Field(
        default=0.8,
        gt=0.0,
        le=1.0,
        description="Utilization of the HOT window at which the oldest ticks are compacted.",
    )
    compaction_target: float = Field(
        default=0.5,
        ge=0.0,
        lt=1.0,
        description="Utilization compaction brings the HOT window down to.",
    )
    compression_after_days: dict[Level, Days] = Field(
        default_factory=lambda: {Level(k): v for k, v in DEFAULT_AGES.items()},
        description="Age (days) at which records are merged into each level (session..year);"
        " a level left out keeps its default.",
    )

    @field_validator("compression_after_days", mode="after")
    @classmethod
    def _every_level(cls, ages: dict[Level, float]) -> dict[Level, float]:
        # Levels left out keep their default age (1,000,000 days: never by age).
        return {**{Level(k): v for k, v in DEFAULT_AGES.items()}, **ages}

    @model_validator(mode="after")
    def _consistent(self) -> ResourceContract:
        if self.compaction_target >= self.compaction_threshold:
            raise ValueError("compaction_target must be below compaction_threshold")
        if Level.REPLY in self.compression_after_days:
            raise ValueError("compression_after_days names the levels session..year, not reply")
        return self


class SetResourceContractRequest(Model):
    """Set the resource contract of the database, or of one agent (caller id) over it.

    Fields left out keep the database's values (for an agent) or the defaults."""

    agent: NonEmpty | None = Field(
        default=None, description="The caller id it applies to; default: the whole database."
    )
    warm_quota_tokens: int | None = Field(default=None, ge=0, le=2**62)
    context_window_tokens: int | None = Field(default=None, ge=1, le=2**62)
    cold_storage_bytes: int | None = Field(default=None, ge=0, le=2**62)
    audit_log_retention_days: int | None = Field(default=None, ge=1, le=100_000)
    compaction_threshold: float | None = Field(default=None, gt=0.0, le=1.0)
    compaction_target: float | None = Field(default=None, ge=0.0, lt=1.0)
    compression_after_days: dict[Level, Days] | None = None


class ResourceContractResponse(DeferredModel):
    agent: str | None
    contract: ResourceContract = Field(description="The values in force for it now.")


class PinRequest(Model):
    """Pin timesteps to WARM (kept at full detail, never compacted), within the WARM quota."""

    timestep_ids: list[NonEmpty] = Field(min_length=1, max_length=100_000)
    reason: str | None = Field(default=None, description="Why (kept for audit).")
    session_id: str | None = Field(default=None, description="Accepted for XAPI compatibility.")


class WarmUsage(DeferredModel):
    used_tokens: int = Field(description="Tokens the caller has pinned (not submitted).")
    quota_tokens: int
    remaining_tokens: int


class PinResponse(DeferredModel):
    pinned_count: int = Field(description="Timesteps pinned now (not pinned by you before).")
    already_pinned: int = Field(description="Timesteps you had pinned already.")
    warm_usage: WarmUsage


class UnpinRequest(Model):
    """Unpin timesteps; back in HOT, compaction may take them. Unknown or unpinned ids are
    no error (they count 0)."""

    timestep_ids: list[NonEmpty] = Field(min_length=1, max_length=100_000)
    session_id: str | None = Field(default=None, description="Accepted for XAPI compatibility.")


class UnpinResponse(DeferredModel):
    unpinned_count: int = Field(description="Timesteps whose pin was removed now.")
    warm_usage: WarmUsage


class SubmitEvidenceRequest(Model):
    """Hold timesteps as SUBMITTED evidence of a tribe submission (graft or meld): kept at
    full detail, not counted against the WARM quota, until the submission is resolved."""

    submission_id: NonEmpty
    timestep_ids: list[NonEmpty] = Field(min_length=1, max_length=100_000)


class SubmitEvidenceResponse(DeferredModel):
    submission_id: str
    held_count: int = Field(description="Timesteps newly held for this submission.")


class ResolveSubmissionRequest(Model):
    """Release a resolved submission's evidence: each timestep returns to WARM if pinned,
    else to HOT (where compaction may take it)."""

    submission_id: NonEmpty


class ResolveSubmissionResponse(DeferredModel):
    submission_id: str
    released_count: int


class QuotaRequest(Model):
    """WARM and COLD use against the caller's resource contract."""

    session_id: str | None = Field(default=None, description="Accepted for XAPI compatibility.")


class ColdUsage(DeferredModel):
    used_bytes: int | None = Field(
        description="Bytes the database uses (SQLite: its pages, WAL included; PostgreSQL: its"
        " tables' and indexes' relation sizes); null for a caller objects are hidden from, or"
        " one neither self nor admin."
    )
    quota_bytes: int
    remaining_bytes: int | None


class QuotaResponse(DeferredModel):
    warm: WarmUsage
    cold: ColdUsage
    submitted_tokens: int = Field(description="Tokens held as evidence (not in the quota).")
    contract: ResourceContract


class ContextRequest(Model):
    """The session's HOT context window: tokens, utilization, compactions so far."""

    session_id: str | None = Field(default=None, description="Default: the current session.")


class ContextResponse(DeferredModel):
    max_tokens: int
    current_tokens: int = Field(description="Tokens in HOT timesteps (pinned ones are WARM).")
    utilization: float
    session_id: str
    current_tick: int | None = Field(
        description="The session's latest tick; null for a caller that access policies keep"
        " from part of the log."
    )
    compaction_count: int
    threshold: float = Field(description="Utilization at which compaction runs by itself.")


class CompactRequest(Model):
    """Compact the session's oldest HOT timesteps into COLD reply records now."""

    session_id: str | None = Field(default=None, description="Default: the current session.")
    keep_tokens: int | None = Field(
        default=None,
        ge=0,
        le=2**62,
        description="HOT tokens to keep (the newest); default: the contract's target share of"
        " the window. The session's newest timestep is always kept.",
    )


class CompactResponse(DeferredModel):
    compacted: bool
    timesteps_compacted: int
    records_made: int
    tokens_before: int
    tokens_after: int
    record_ids: list[str]


class MaintenanceRequest(Model):
    """Progressive compression (reply to year by age, and under storage pressure), audit log
    retention, then reclaiming space."""

    session_id: str | None = Field(default=None, description="Accepted for XAPI compatibility.")
    max_seconds: float | None = Field(
        default=None, gt=0, le=86_400, description="Stop after this long; the next run goes on."
    )


class MaintenanceResponse(DeferredModel):
    records_compressed: int = Field(description="Records and episodes merged into coarser ones.")
    records_made: int
    by_level: dict[str, int] = Field(description="Records made per level.")
    protected_kept: int = Field(description="Candidates kept whole by the retention rules.")
    audit_records_pruned: int
    bytes_before: int
    bytes_after: int
    bytes_freed: int
    under_quota: bool = Field(description="Whether the database is within cold_storage_bytes.")
    finished: bool = Field(description="False: stopped at max_seconds; run again to go on.")
    duration_ms: int


class MemoryRecord(DeferredModel):
    """A COLD record standing for experience compressed away, found by ``query``; of the
    tags, comments and exemplars it carries, those the caller reads."""

    record_id: str = Field(description="Also an episode id (get_episode_detail shows lineage).")
    level: Level
    fidelity: str = "cold"
    session_id: str | None
    tick_start: int | None
    tick_end: int | None
    start_time: datetime
    end_time: datetime
    summary: str
    concept_activations: Annotated[dict[str, float], ConceptKeys()]
    tag_ids: list[str] = Field(description="Tags its timesteps carried, most frequent first.")
    comment_ids: list[str] = Field(description="Comments on the timesteps it replaced.")
    exemplar_ids: list[str] = Field(description="Exemplars on the timesteps it replaced.")
    tokens: int
    timesteps: int
