"""Episodes and their recall: the shapes of the ``experience`` operations (seeds 000, 001)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from xdb.models.common import (
    INT64_MAX,
    Int64,
    Model,
    NonEmpty,
    Page,
    Score,
    TimeRange,
    access_policy_field,
)
from xdb.policy.markers import ConceptKeys, ConceptList, ConceptRef, NoConcept, NodeRef
from xdb.timeutil import as_utc

DEFAULT_NAMESPACE = "default"


class TagKind(StrEnum):
    STABLE = "stable"
    CANDIDATE = "candidate"


class FilterKind(StrEnum):
    STABLE = "stable"
    CANDIDATE = "candidate"
    ANY = "any"


class Polarity(StrEnum):
    PRESENT = "present"
    ABSENT = "absent"


class FilterRole(StrEnum):
    TAG = "tag"
    EXEMPLAR_LABEL = "exemplar_label"
    ANY = "any"


class Label(StrEnum):
    POSITIVE = "positive"
    NEGATIVE = "negative"
    NEUTRAL = "neutral"
    OTHER = "other"


class SortBy(StrEnum):
    RELEVANCE = "relevance"
    TIME_DESC = "time_desc"
    TIME_ASC = "time_asc"
    RANDOM = "random"


class Relation(StrEnum):
    NEXT = "NEXT"
    TAGGED_BY = "TAGGED_BY"
    CONTAINS = "CONTAINS"
    RELATED_CONCEPT = "RELATED_CONCEPT"
    INFLUENCED_BY = "INFLUENCED_BY"
    CHILD_OF = "CHILD_OF"  # the concept hierarchy: src's parent is dst


# --------------------------------------------------------------------------- domain objects


class ConceptTag(Model):
    """A concept an episode carries, with how strongly (0..1) and whether it is a bud."""

    concept_id: Annotated[NonEmpty, ConceptRef(candidate_if=("kind", "candidate"))]
    score: Score
    kind: TagKind = TagKind.STABLE


class ExemplarLabel(Model):
    """The episode as a labelled example of a concept (an exemplar, for training sets)."""

    concept_id: Annotated[NonEmpty, ConceptRef()]
    label: Label
    confidence: Score = 1.0
    label_source: str = Field(default="self", description="sensor, tool, teacher, human, self")


class TimeWindow(Model):
    """When the episode happened. A time without a zone is read as UTC."""

    start_time: datetime
    end_time: datetime

    @field_validator("start_time", "end_time")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        return as_utc(value)

    @model_validator(mode="after")
    def _ordered(self) -> TimeWindow:
        if self.end_time < self.start_time:
            raise ValueError("end_time must not be before start_time")
        return self


class Provenance(Model):
    """Where the episode came from: the timesteps it covers, and free-form source facts."""

    session_id: str | None = None
    start_tick: int | None = Field(default=None, ge=0, le=INT64_MAX)
    end_tick: int | None = Field(default=None, ge=0, le=INT64_MAX)
    source: Annotated[str, NoConcept()] = Field(
        default="manual", description="manual, log (made from an event), import"
    )
    details: dict[str, Any] = Field(default_factory=dict)


class Episode(BaseModel):
    """A coherent slice of experience: a reply, a task, an incident, a conversation turn."""

    episode_id: str
    kind: str
    namespace: str
    session_id: str | None
    summary: str
    content: str
    time_window: TimeWindow
    concept_tags: list[ConceptTag]
    motive_profile: Annotated[dict[str, float], ConceptKeys()]
    metadata: dict[str, Any]
    labels: list[ExemplarLabel]
    provenance: Provenance
    fidelity: str = Field(
        default="full",
        description="full, or the COLD level (reply, session, day, week, month, quarter,"
        " year) of a record standing for compressed experience.",
    )
    previous_episode_id: str | None = Field(description="NEXT link: the one before, same session.")
    next_episode_id: str | None = Field(description="NEXT link: the one after, same session.")
    created_at: datetime


class EpisodeHit(BaseModel):
    """One search result: the episode without its full content, and its score."""

    episode_id: str
    kind: str
    namespace: str
    session_id: str | None
    summary: str
    snippet: str = Field(description="The content's first 500 characters.")
    concept_tags: list[ConceptTag]
    motive_profile: Annotated[dict[str, float], ConceptKeys()]
    time_window: TimeWindow
    score: float = Field(description="Relevance (higher first); 0 for time and random sorts.")
    signals: dict[str, float] = Field(
        default_factory=dict,
        description="What each ranking signal added to score (the parts sum to it): bm25 and"
        " vector (text relevance), session (the lift from the best text match in its session),"
        " concepts (the tags of the concept filters), recency. Empty for other sorts.",
    )
    fidelity: str = Field(
        default="full",
        description="full, or the COLD level (reply, session, day, week, month, quarter,"
        " year) of a record standing for compressed experience.",
    )


# --------------------------------------------------------------------------- requests


class AddEpisodeRequest(Model):
    """Store an episode; it is text-searchable at once and vector-searchable within a second."""

    content: NonEmpty = Field(description="What happened (stored whole; embedded from a prefix).")
    summary: str | None = Field(default=None, description="Default: the content's first sentence.")
    kind: NonEmpty = Field(default="other", description="reply, task, incident, conversation, ...")
    namespace: NonEmpty = Field(default=DEFAULT_NAMESPACE, description="Scope, e.g. a project.")
    session_id: NonEmpty | None = None
    time_window: TimeWindow | None = Field(default=None, description="Default: now.")
    concept_tags: list[ConceptTag] = Field(default_factory=list)
    motive_profile: Annotated[dict[NonEmpty, float], ConceptKeys()] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)
    labels: list[ExemplarLabel] = Field(default_factory=list)
    provenance: Provenance | None = None
    access_policy_id: str | None = access_policy_field()


class AddEpisodeResponse(BaseModel):
    episode_id: str
    created_at: datetime


class DeleteEpisodeRequest(Model):
    """Delete an episode and its tags, labels and vector; deleting a missing one is no error."""

    episode_id: NonEmpty


class DeleteEpisodeResponse(BaseModel):
    episode_id: str
    deleted: bool = Field(description="False when there was no such episode.")


class ConceptFilter(Model):
    """Episodes must (polarity present) or must not (absent) carry this concept."""

    concept_id: Annotated[NonEmpty, ConceptRef()]
    min_score: Score = 0.0
    kind: FilterKind = FilterKind.ANY
    polarity: Polarity = Polarity.PRESENT
    role: FilterRole = Field(
        default=FilterRole.ANY,
        description="tag: a concept tag; exemplar_label: a label for this concept; any: either.",
    )


class LabelFilter(Model):
    """Episodes labelled (as exemplars) for a concept."""

    concept_id: Annotated[NonEmpty | None, ConceptRef()] = None
    label: Label | None = None
    min_confidence: Score = 0.0


class Sort(Model):
    by: SortBy = SortBy.RELEVANCE
    score_weight: Score = Field(
        default=0.5, description="Weight of concept match against text (relevance only)."
    )
    recency_weight: Score = Field(default=0.0, description="Weight of recency (relevance only).")
    seed: Int64 = Field(default=0, description="Seed of the random order; same seed, same order.")


class SearchEpisodesRequest(Model):
    """Search episodes by concepts, text, time, kind, labels; hybrid relevance, stable paging."""

    concept_filters: list[ConceptFilter] = Field(default_factory=list)
    text_query: str | None = Field(default=None, description="Words or a question.")
    time_range: TimeRange | None = Field(
        default=None, description="Episodes whose time window overlaps this range."
    )
    episode_kinds: list[NonEmpty] | None = None
    label_filters: LabelFilter | None = None
    namespace: NonEmpty | None = Field(default=None, description="Only this scope (default all).")
    session_id: NonEmpty | None = Field(default=None, description="Only this session's episodes.")
    sort: Sort = Field(default_factory=Sort)
    page: Page = Field(default_factory=Page)
    wait_for_embeddings_s: float | None = Field(
        default=None,
        gt=0,
        le=300,
        description="Read your writes: wait up to this many seconds for the embedding"
        " worker to reach the episodes written since the database was opened, before"
        " ranking (default: rank at once; an episode not embedded yet is ranked by its text"
        " alone; later pages keep the first page's snapshot and do not wait). On timeout"
        " the search fails with not_ready.",
    )


class SearchEpisodesResponse(BaseModel):
    episodes: list[EpisodeHit]
    next_cursor: str | None = Field(description="Pass as page.cursor for the next page.")


class NeighborOptions(Model):
    depth: int = Field(default=1, ge=0, le=5)
    relation_filters: list[Relation] | None = None


class GetEpisodeDetailRequest(Model):
    """One episode in full, with its graph neighbours to a depth."""

    episode_id: NonEmpty
    include_graph_neighbors: NeighborOptions | None = None


NodeType = Literal["Episode", "Concept", "Decision", "Tool", "Timestep"]


class GraphNode(BaseModel):
    node_id: Annotated[str, NodeRef()]
    type: NodeType
    episode_id: str | None = None
    concept_id: Annotated[str | None, ConceptRef()] = None
    name: str | None = Field(default=None, description="A concept's, decision's or tool's name.")
    summary: str | None = None
    depth: int = Field(default=0, description="Distance from the nearest seed.")
    fidelity: str | None = Field(
        default=None,
        description="An episode's: full, or the COLD level (reply ... year) of a record.",
    )


class GraphEdge(BaseModel):
    src: Annotated[str, NodeRef()]
    dst: Annotated[str, NodeRef()]
    type: Relation


class GraphNeighbors(BaseModel):
    nodes: list[GraphNode]
    edges: list[GraphEdge]


class GetEpisodeDetailResponse(BaseModel):
    episode: Episode
    graph_neighbors: GraphNeighbors


class SimilarEpisodesRequest(Model):
    """Episodes like a seed episode: its top concepts, its text and its session neighbours."""

    seed_episode_id: NonEmpty
    concept_k: int = Field(default=5, ge=0, le=50)
    max_results: int = Field(default=20, ge=1, le=200)
    exclude_seed: bool = True
    namespace: NonEmpty | None = Field(default=None, description="Default: the seed's namespace.")


class SimilarEpisode(BaseModel):
    episode_id: str
    summary: str
    similarity_score: float
    concept_overlap: Annotated[list[str], ConceptList()]


class SimilarEpisodesResponse(BaseModel):
    seed_episode: EpisodeHit
    neighbors: list[SimilarEpisode]
