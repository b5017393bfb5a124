"""Concept usage: the shapes of ``experience_concept_usage_summary`` (seed 001, HTTP XAPI
section 7)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from xdb.models.common import INT64_MAX, DeferredModel, Model, NonEmpty, TimeRange
from xdb.models.concept_markers import ConceptList, ConceptRef


class ConceptUsageSummaryRequest(Model):
    """How concepts show up in experience: episode counts, scores, a trend, what they occur
    with, and their activations in the log. Counts cover the episodes whose window overlaps the
    time range, of the given kinds, in the namespace; the trend, co-occurrence score (NPMI)
    and buckets are defined in docs/graph.md."""

    concept_ids: Annotated[list[NonEmpty], ConceptList()] = Field(
        min_length=1, max_length=100, description="Concept ids (full id, Term, Term:layer)."
    )
    time_range: TimeRange | None = None
    episode_kinds: list[NonEmpty] | None = None
    namespace: NonEmpty | None = None
    include_descendants: bool = Field(
        default=False,
        description="Count an episode for a concept when it carries the concept or any "
        "concept below it in the hierarchy.",
    )
    include_cooccurrence: bool = True
    top_k: int = Field(default=10, ge=1, le=100, description="Co-occurring concepts listed.")
    min_cooccurrence: int = Field(
        default=2, ge=1, le=INT64_MAX, description="Episodes two concepts must share to be listed."
    )
    include_activations: bool = Field(
        default=True,
        description="Also summarise the concept's activations in the experience log "
        "(timesteps in the time range: a scan of those timesteps).",
    )


class Cooccurrence(DeferredModel):
    concept_id: Annotated[str, ConceptRef()]
    cooccurrence_score: float = Field(description="NPMI, -1..1: 1 always together.")
    episode_count: int = Field(description="Episodes carrying both.")


class ActivationStats(DeferredModel):
    timestep_count: int = Field(description="Timesteps with an activation of the concept.")
    mean: float | None
    max: float | None
    min: float | None


class UsageBucket(DeferredModel):
    """One of the equal time buckets the trend is read from."""

    start: datetime
    end: datetime
    episode_count: int = Field(description="Episodes starting in it that carry the concept.")
    total: int = Field(description="Episodes starting in it (passing the filters).")


class ConceptUsage(DeferredModel):
    concept_id: Annotated[str, ConceptRef(candidate_if=("kind", "candidate"))]
    kind: Literal["stable", "candidate"]
    episode_count: int
    avg_score: float | None
    recent_trend: Literal["increasing", "stable", "decreasing"]
    trend_z: float = Field(
        description="Mann-Kendall z over the share of episodes per time bucket; |z| >= 1.96 "
        "is a trend."
    )
    first_seen: datetime | None
    last_seen: datetime | None
    top_cooccurring_concepts: list[Cooccurrence]
    activations: ActivationStats | None
    buckets: list[UsageBucket] = Field(
        default_factory=list,
        description="Usage over time: the trend's buckets, oldest first (empty: no episodes).",
    )
    by_fidelity: dict[str, int] = Field(
        default_factory=dict,
        description="The episodes counted by fidelity: full, or the COLD level (reply ..."
        " year) of a record standing for compressed experience (one record, many replies).",
    )


class ConceptUsageSummaryResponse(DeferredModel):
    concept_summaries: list[ConceptUsage]
    total_episodes: int = Field(description="Episodes passing the filters, the base of shares.")
