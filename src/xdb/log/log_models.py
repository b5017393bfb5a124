"""The experience log: timesteps, tags, tag applications, comments, and their operations."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from xdb.fidelity.fidelity_models import MemoryRecord
from xdb.models.common import (
    BudStatus,
    DeferredModel,
    EntityType,
    EventType,
    Int64,
    Model,
    NonEmpty,
    Role,
    Score,
    TagSource,
    TagType,
    TargetType,
    TickRange,
    TimeRange,
    access_policy_field,
)
from xdb.models.concept_markers import ConceptKeys, ConceptList, ConceptRef

# The log's records are the kernel's (storage reads and writes them); here under the names
# they have always had.
from xdb.models.log_objects import Comment as Comment
from xdb.models.log_objects import SessionSummary as SessionSummary
from xdb.models.log_objects import Tag as Tag
from xdb.models.log_objects import TagApplication as TagApplication
from xdb.models.log_objects import Targeted as Targeted
from xdb.models.log_objects import Timestep as Timestep
from xdb.timeutil import as_utc

# --------------------------------------------------------------------------- recording


class RecordRequest(Model):
    """Record one timestep; the session starts implicitly on its first record."""

    event_type: EventType = Field(description="What happened.")
    content: NonEmpty = Field(description="The content to record (a token, message, ...).")
    session_id: str | None = Field(
        default=None, min_length=1, description="Session to record into; defaults to current."
    )
    concept_activations: Annotated[dict[NonEmpty, Score], ConceptKeys()] = Field(
        default_factory=dict, description="Top-k concept activations: concept id -> score 0..1."
    )
    event_id: str | None = Field(
        default=None, min_length=1, description="Groups related timesteps (a call and its reply)."
    )
    event_start: bool = Field(default=False, description="This timestep opens the event.")
    event_end: bool = Field(default=False, description="This timestep closes the event.")
    token_id: Int64 | None = Field(default=None, description="For output tokens, the token id.")
    role: Role | None = Field(
        default=None, description="Speaker; derived from event_type when omitted."
    )
    timestamp: datetime | None = Field(
        default=None, description="When it happened (ISO 8601, UTC if no zone); default now."
    )
    access_policy_id: str | None = access_policy_field()

    @field_validator("timestamp")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc(value)


class RecordResponse(DeferredModel):
    timestep_id: str
    tick: int


class RecordBatchRequest(Model):
    """Record many timesteps (a token stream) in one transaction, in order."""

    timesteps: list[RecordRequest] = Field(
        min_length=1, description="The timesteps, each shaped like a `record` request."
    )


class RecordBatchResponse(DeferredModel):
    results: list[RecordResponse]


class _Targeted(Model):
    """Shared target fields: one timestep, all timesteps of an event, or a tick range."""

    session_id: str | None = Field(
        default=None,
        min_length=1,
        description="Session of event_id / tick_range; defaults to current.",
    )
    timestep_id: str | None = Field(default=None, min_length=1, description="One timestep.")
    event_id: str | None = Field(
        default=None, min_length=1, description="Every timestep of this event."
    )
    tick_range: TickRange | None = Field(default=None, description="A range of ticks.")

    @model_validator(mode="before")
    @classmethod
    def _flatten_target(cls, data: Any) -> Any:
        # The HTTP XAPI nests the target as {"target": {...}}; the MCP tools keep it flat.
        if isinstance(data, dict) and isinstance(data.get("target"), dict):
            data = dict(data)
            target = data.pop("target")
            for key, value in target.items():
                data.setdefault(key, value)
        return data

    def targets(self) -> list[str]:
        return [
            name
            for name in ("timestep_id", "event_id", "tick_range")
            if getattr(self, name) is not None
        ]


class TagRequest(_Targeted):
    """Apply a tag to a timestep, an event, or a tick range; an unknown name makes a custom tag."""

    tag_name_or_id: NonEmpty = Field(description="Tag name or id; unknown names create a tag.")
    confidence: Score = Field(default=1.0, description="How sure the tagger is, 0..1.")
    note: str | None = Field(default=None, description="Optional note about this tagging.")
    source: TagSource = Field(default=TagSource.MANUAL, description="auto, manual or inherited.")

    @model_validator(mode="after")
    def _one_target(self) -> TagRequest:
        if len(self.targets()) != 1:
            raise ValueError(
                "give exactly one target: timestep_id, event_id or tick_range"
                f" (got {', '.join(self.targets()) or 'none'})"
            )
        return self


class TagResponse(DeferredModel):
    application_id: str
    tag_id: str
    created: bool = Field(
        description="True when the target did not carry this tag before: its first "
        "application there (an unknown name also creates the tag); false when it already did."
    )
    target_type: TargetType
    timestep_count: int = Field(description="How many timesteps the application covers now.")


class CreateTagRequest(Model):
    """Create a tag in the folksonomy (concept, entity, bud or custom)."""

    name: NonEmpty = Field(description="Tag name.")
    tag_type: TagType = Field(description="concept, entity, bud or custom.")
    description: str | None = Field(default=None, description="Optional description.")
    entity_type: EntityType | None = Field(default=None, description="For entity tags.")
    related_concepts: Annotated[list[NonEmpty], ConceptList()] = Field(
        default_factory=list, description="For bud tags: related concept ids."
    )
    concept_id: Annotated[str | None, ConceptRef()] = Field(
        default=None, min_length=1, description="For concept tags: the concept id (default name)."
    )
    relations: Annotated[dict[str, NonEmpty], ConceptKeys()] = Field(
        default_factory=dict,
        description="For bud tags: related concept ids, each with how it relates (overlaps,"
        " narrower, ...); those in related_concepts alone relate as 'related'.",
    )
    proposer: str | None = Field(default=None, description="For bud tags (default: the caller).")
    tribe_id: str | None = Field(default=None, description="For bud tags: the governing tribe.")
    review_required: bool = Field(
        default=False, description="For bud tags: promotion waits for an approving review."
    )
    initial_episode_ids: list[NonEmpty] = Field(
        default_factory=list, description="For bud tags: the episodes that suggested it."
    )
    session_id: str | None = Field(default=None, description="Accepted for XAPI compatibility.")
    access_policy_id: str | None = access_policy_field()

    @model_validator(mode="after")
    def _type_specific(self) -> CreateTagRequest:
        if self.entity_type is not None and self.tag_type is not TagType.ENTITY:
            raise ValueError("entity_type applies only to tag_type 'entity'")
        bud_only = [
            name
            for name, given in (
                ("relations", bool(self.relations)),
                ("proposer", self.proposer is not None),
                ("tribe_id", self.tribe_id is not None),
                ("review_required", self.review_required),
                ("initial_episode_ids", bool(self.initial_episode_ids)),
            )
            if given
        ]
        if bud_only and self.tag_type is not TagType.BUD:
            raise ValueError(f"{', '.join(bud_only)} apply only to tag_type 'bud'")
        if self.concept_id is not None and self.tag_type is not TagType.CONCEPT:
            raise ValueError("concept_id applies only to tag_type 'concept'")
        return self


class CreateTagResponse(DeferredModel):
    tag_id: str
    tag_type: TagType
    bud_status: BudStatus | None = None
    created: bool = Field(description="False when an identical tag already existed.")


class CommentRequest(_Targeted):
    """Add commentary to a timestep, an event, a tick range, or (no target) the session."""

    content: NonEmpty = Field(description="The comment.")
    access_policy_id: str | None = access_policy_field()

    @model_validator(mode="after")
    def _at_most_one_target(self) -> CommentRequest:
        if len(self.targets()) > 1:
            raise ValueError(
                "give at most one target: timestep_id, event_id or tick_range"
                f" (got {', '.join(self.targets())})"
            )
        return self


class CommentResponse(DeferredModel):
    comment_id: str


# --------------------------------------------------------------------------- reading


class ActivationRange(Model):
    min: Score = 0.0
    max: Score = 1.0


class QueryRequest(Model):
    """Find timesteps by session, ticks, time, event type, tags, concept activations and text."""

    session_id: str | None = Field(
        default=None, min_length=1, description="Session to query; defaults to current."
    )
    all_sessions: bool = Field(default=False, description="Search every session instead.")
    tick_range: TickRange | None = None
    time_range: TimeRange | None = None
    event_types: list[EventType] | None = Field(default=None, description="Any of these types.")
    tags: list[NonEmpty] | None = Field(
        default=None,
        description="Tag names or ids (or type:name); a timestep must carry all of them, "
        "applied to it, to its event or to a tick range that covers it.",
    )
    concept_activations: Annotated[dict[NonEmpty, ActivationRange] | None, ConceptKeys()] = Field(
        default=None, description="concept id -> {min, max}; every range must hold."
    )
    text_search: str | None = Field(
        default=None, description="Full-text search: every word must occur in the content."
    )
    order: Literal["asc", "desc"] = Field(default="asc", description="By time, then tick.")
    limit: int = Field(default=100, ge=1, le=10_000, description="Page size.")
    cursor: str | None = Field(default=None, description="next_cursor of the previous page.")
    include_records: bool = Field(
        default=True,
        description="Also the COLD records standing for compacted timesteps that match (false:"
        " timesteps only, which saves reading up to 5,000 records).",
    )


class QueryResponse(DeferredModel):
    timesteps: list[Timestep]
    total_count: int = Field(description="Matches over all pages.")
    next_cursor: str | None = Field(description="Pass as cursor for the next page; null at end.")
    records: list[MemoryRecord] = Field(
        default_factory=list,
        description="COLD records standing for compacted timesteps that match, at their"
        " lower fidelity (with the first page; up to limit).",
    )


class AnnotationsRequest(Model):
    """The tags applied and comments made on a session's experience, in tick order: those
    on timesteps and tick ranges in ``tick_range`` (all when absent), on its events, and on
    the session itself."""

    session_id: str | None = Field(
        default=None, min_length=1, description="Session; defaults to current."
    )
    tick_range: TickRange | None = Field(
        default=None, description="Only marks on these ticks (and on events and the session)."
    )
    limit: int = Field(default=500, ge=1, le=5000, description="At most this many of each.")


class AppliedTag(DeferredModel):
    """One application of a tag, with the tag."""

    tag: Tag
    application: TagApplication


class AnnotationsResponse(DeferredModel):
    session_id: str
    tags: list[AppliedTag]
    comments: list[Comment]
    truncated: bool = Field(description="True when either list stopped at the limit.")


class RecentRequest(Model):
    """The N most recent timesteps of a session, oldest first."""

    n: int = Field(default=100, ge=1, le=10_000, description="How many timesteps.")
    session_id: str | None = Field(
        default=None, min_length=1, description="Session; defaults to current."
    )


class RecentResponse(DeferredModel):
    timesteps: list[Timestep]


class TagsRequest(Model):
    """List tags in the folksonomy, optionally by type or bud status."""

    tag_type: TagType | None = None
    bud_status: BudStatus | None = None
    session_id: str | None = Field(default=None, description="Accepted for XAPI compatibility.")


class TagsResponse(DeferredModel):
    tags: list[Tag]


class StatusRequest(Model):
    """Counts per tag type and fidelity, storage used, sessions, and the embedding backlog."""

    session_id: str | None = Field(default=None, description="Session; defaults to current.")


class TagStats(DeferredModel):
    total_tags: int
    by_type: dict[str, int]


class ExperienceStats(DeferredModel):
    total_timesteps: int
    by_fidelity: dict[str, int]
    total_comments: int
    total_tag_applications: int


class StorageStats(DeferredModel):
    total_bytes: int | None = Field(
        description="Bytes on disk; null for a caller objects are hidden from (they count)."
    )
    quota_bytes: int | None
    utilization: float | None
    backend: str
    location: str


class SessionStats(DeferredModel):
    total: int
    recent: list[SessionSummary]


class EmbeddingStats(DeferredModel):
    """Episodes and their vectors from the current model.

    An episode is searchable by its words at once and by meaning once it has a vector;
    the backlog is embedded in the background by every process that has the database
    open."""

    model: str | None = Field(
        description="The current embedding model's id (XDB_EMBEDDER); null when none can be"
        " made (see failure)."
    )
    episodes: int = Field(description="Episodes stored, in every namespace.")
    episodes_with_vectors: int = Field(description="Episodes with a vector from this model.")
    backlog: int = Field(description="Episodes still waiting for a vector from this model.")
    failure: str | None = Field(
        description="Why embedding last failed in this process, if it did; retried with the"
        " next episode, search or wait."
    )


class StatusResponse(DeferredModel):
    be_id: str
    session_id: str
    current_tick: int | None = Field(
        description="The session's latest tick; null for a caller that access policies keep"
        " from part of the log."
    )
    tag_stats: TagStats
    experience_stats: ExperienceStats
    storage_stats: StorageStats
    sessions: SessionStats
    embedding: EmbeddingStats
