"""Episodes and their recall: the shapes of the ``experience`` operations (seeds 000, 001)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import Field

from xdb.models.common import DeferredModel, Int64, Model, NonEmpty, Page, Score, TimeRange
from xdb.models.concept_markers import ConceptKeys, ConceptList, ConceptRef, NodeRef

# An episode as it is written is the kernel's (storage builds rows from it); here under the
# names it has always had.
from xdb.models.episode_objects import DEFAULT_NAMESPACE as DEFAULT_NAMESPACE
from xdb.models.episode_objects import AddEpisodeRequest as AddEpisodeRequest
from xdb.models.episode_objects import ConceptTag as ConceptTag
from xdb.models.episode_objects import ExemplarLabel as ExemplarLabel
from xdb.models.episode_objects import Label as Label
from xdb.models.episode_objects import Provenance as Provenance
from xdb.models.episode_objects import TagKind as TagKind
from xdb.models.episode_objects import TimeWindow as TimeWindow


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


class Episode(DeferredModel):
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


class EpisodeHit(DeferredModel):
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


class AddEpisodeResponse(DeferredModel):
    episode_id: str
    created_at: datetime


class DeleteEpisodeRequest(Model):
    """Delete an episode and its tags, labels and vector; deleting a missing one is no error."""

    episode_id: NonEmpty


class DeleteEpisodeResponse(DeferredModel):
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


class SearchEpisodesResponse(DeferredModel):
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


class GraphNode(DeferredModel):
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


class GraphEdge(DeferredModel):
    src: Annotated[str, NodeRef()]
    dst: Annotated[str, NodeRef()]
    type: Relation


class GraphNeighbors(DeferredModel):
    nodes: list[GraphNode]
    edges: list[GraphEdge]


class GetEpisodeDetailResponse(DeferredModel):
    episode: Episode
    graph_neighbors: GraphNeighbors


class SimilarEpisodesRequest(Model):
    """Episodes like a seed episode: its top concepts, its text and its session neighbours."""

    seed_episode_id: NonEmpty
    concept_k: int = Field(default=5, ge=0, le=50)
    max_results: int = Field(default=20, ge=1, le=200)
    exclude_seed: bool = True
    namespace: NonEmpty | None = Field(default=None, description="Default: the seed's namespace.")


class SimilarEpisode(DeferredModel):
    episode_id: str
    summary: str
    similarity_score: float
    concept_overlap: Annotated[list[str], ConceptList()]


class SimilarEpisodesResponse(DeferredModel):
    seed_episode: EpisodeHit
    neighbors: list[SimilarEpisode]
