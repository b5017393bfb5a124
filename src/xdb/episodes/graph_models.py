"""The one experience graph: the shapes of ``experience_graph_neighborhood``,
``experience_add_node`` and ``experience_link`` (seeds 000 and 001, HTTP XAPI section 5)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import Field

from xdb.episodes.episode_models import GraphEdge, GraphNode, NodeType, Relation
from xdb.models.common import DeferredModel, Model, NonEmpty, access_policy_field
from xdb.models.concept_markers import NodeRef


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

    seed_node_ids: Annotated[list[NonEmpty], NodeRef()] = Field(
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


class GraphNeighborhoodResponse(DeferredModel):
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
    access_policy_id: str | None = access_policy_field()


class AddNodeResponse(DeferredModel):
    node_id: Annotated[str, NodeRef()]
    created: bool


class LinkRequest(Model):
    """Add an edge between two existing nodes, e.g. a decision INFLUENCED_BY an episode, or
    an episode that CONTAINS a tool. Linking twice changes nothing."""

    src: Annotated[NonEmpty, NodeRef()] = Field(
        description="The node the edge leaves (e.g. the decision)."
    )
    dst: Annotated[NonEmpty, NodeRef()] = Field(
        description="The node it reaches (e.g. the episode)."
    )
    relation: Literal["INFLUENCED_BY", "CONTAINS", "RELATED_CONCEPT"] = "INFLUENCED_BY"
    note: str | None = None
    access_policy_id: str | None = access_policy_field()


class LinkResponse(DeferredModel):
    src: Annotated[str, NodeRef()]
    dst: Annotated[str, NodeRef()]
    relation: Relation
    created: bool
