"""The one experience graph and concept usage: the shapes of ``experience_graph_neighborhood``,
``experience_add_node``, ``experience_link`` and ``experience_concept_usage_summary`` (seeds
000 and 001, HTTP XAPI sections 5 and 7)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from xdb.models.common import INT64_MAX, Model, NonEmpty, TimeRange
from xdb.models.episodes import GraphEdge, GraphNode, NodeType, Relation


class WalkDirection(StrEnum):
    BOTH = "both"
    OUTGOING = "outgoing"
    INCOMING = "incoming"


class GraphNeighborhoodRequest(Model):
    """Walk the experience graph around seed nodes, breadth-first and deterministic:
    episodes (NEXT in their session, TAGGED_BY their concepts, CONTAINS their timesteps),
    concepts (CHILD_OF their parent, RELATED_CONCEPT), decisions and tools (INFLUENCED_BY
    and CONTAINS links). Nodes come nearest first, ties by id; the walk stops at max_nodes
    and says so."""

    seed_node_ids: list[NonEmpty] = Field(
        min_length=1,
        description="Episode ids, concept ids (concept:<id>, a full id, Term or Term:layer), "
        "decision and tool ids, timestep ids.",
    )
    max_depth: int = Field(default=2, ge=0, le=10)
    relation_filters: list[Relation] | None = Field(
        default=None, description="Follow only these relations (default: all)."
    )
    node_type_filters: list[NodeType] | None = Field(
        default=None,
        description="Visit only nodes of these types (default: all); seeds are always kept.",
    )
    direction: WalkDirection = Field(
        default=WalkDirection.BOTH, description="Follow edges from src to dst, back, or both."
    )
    max_nodes: int = Field(default=200, ge=1, le=10_000)


class GraphNeighborhoodResponse(BaseModel):
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    truncated: bool = Field(description="True when the walk stopped at max_nodes.")


class AddNodeRequest(Model):
    """Add a Decision or a Tool node to the experience graph. A tool is named: adding one
    twice returns the same node (``tool:<name>``). A decision gets a new id each time."""

    node_type: Literal["Decision", "Tool"]
    name: NonEmpty = Field(description="The tool's name, or the decision in a few words.")
    namespace: NonEmpty = "default"
    metadata: dict[str, Any] = Field(default_factory=dict)


class AddNodeResponse(BaseModel):
    node_id: str
    created: bool


class LinkRequest(Model):
    """Add an edge between two existing nodes, e.g. a decision INFLUENCED_BY an episode, or
    an episode that CONTAINS a tool. Linking twice changes nothing."""

    src: NonEmpty = Field(description="The node the edge leaves (e.g. the decision).")
    dst: NonEmpty = Field(description="The node it reaches (e.g. the episode).")
    relation: Literal["INFLUENCED_BY", "CONTAINS", "RELATED_CONCEPT"] = "INFLUENCED_BY"
    note: str | None = None


class LinkResponse(BaseModel):
    src: str
    dst: str
    relation: Relation
    created: bool


class ConceptUsageSummaryRequest(Model):
    """How concepts show up in experience: episode counts, scores, a trend, what they occur
    with, and their activations in the log. Counts cover the episodes whose window overlaps the
    time range, of the given kinds, in the namespace; the trend, co-occurrence score (NPMI)
    and buckets are defined in docs/graph.md."""

    concept_ids: list[NonEmpty] = Field(
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


class Cooccurrence(BaseModel):
    concept_id: str
    cooccurrence_score: float = Field(description="NPMI, -1..1: 1 always together.")
    episode_count: int = Field(description="Episodes carrying both.")


class ActivationStats(BaseModel):
    timestep_count: int = Field(description="Timesteps with an activation of the concept.")
    mean: float | None
    max: float | None
    min: float | None


class ConceptUsage(BaseModel):
    concept_id: str
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


class ConceptUsageSummaryResponse(BaseModel):
    concept_summaries: list[ConceptUsage]
    total_episodes: int = Field(description="Episodes passing the filters, the base of shares.")
