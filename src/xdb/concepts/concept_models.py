"""Concept packs and the concept tools: the shapes of ``xdb_concepts``, ``xdb_find_concept``,
``xdb_get_concept``, ``xdb_import_concepts`` and ``xdb_graph_neighborhood`` (seed 002, HTTP
XAPI section 5)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field

from xdb.models.common import DeferredModel, Model, NonEmpty
from xdb.models.concept_markers import ConceptList, ConceptRef

SUMMED_COUNT = (
    "episode_count summed over this concept and every narrower one (as the caller sees"
    " the hierarchy): an episode tagged with two of them counts twice"
    " (concept_usage_summary with include_descendants counts each once, reading them"
    " all). A leaf's is its episode_count."
)


class ImportConceptsRequest(Model):
    """Load a concept pack from a directory in HatCat's format: ``pack.json``,
    ``hierarchy.json`` and one JSON file per concept under ``concepts/layerN/``. The path
    is read by the process serving the request. Importing a version again changes nothing;
    two versions of a pack can be loaded side by side."""

    path: NonEmpty = Field(
        description="The pack's directory (the one holding pack.json); over HTTP, MCP and"
        " Python, inside the data root (docs/policy.md)."
    )


class ImportConceptsResponse(DeferredModel):
    spec_id: str = Field(description="e.g. org.hatcat/first-light@1.0.1")
    created: bool = Field(description="False when this version was already loaded.")
    concept_count: int
    relation_count: int = Field(description="RELATED_CONCEPT edges between its concepts.")


class ConceptsRequest(Model):
    """Browse the concept hierarchy: the roots of every loaded pack, or a parent's children,
    by name, each with how many children it has, how many episodes carry it, and that
    count summed with its narrower concepts'."""

    parent_id: Annotated[NonEmpty | None, ConceptRef()] = Field(
        default=None,
        description="List this concept's children (full id, Term or Term:layer); "
        "omitted: the roots.",
    )
    pack: NonEmpty | None = Field(
        default=None, description="Only this pack: its spec id, or its pack id (any version)."
    )
    limit: int = Field(default=100, ge=1, le=10_000)


class ConceptSummary(DeferredModel):
    id: Annotated[str, ConceptRef()]
    name: str
    parent_id: Annotated[str | None, ConceptRef(on_hidden="clear")]
    layer: int
    child_count: int
    episode_count: int = Field(description="Episodes tagged with this concept itself.")
    summed_episode_count: int = Field(description=SUMMED_COUNT)


class ConceptsResponse(DeferredModel):
    concepts: list[ConceptSummary]
    total_count: int = Field(description="How many there are before the limit.")


class FindConceptRequest(Model):
    """Search concepts by name, alias and definition. Typo-tolerant: a misspelt name still
    finds its concept. Best first: the name or an alias exactly, then names and aliases
    that start with or contain the query, then near spellings, then definitions."""

    query: NonEmpty
    limit: int = Field(default=20, ge=1, le=200)
    pack: NonEmpty | None = Field(default=None, description="Only this pack (spec or pack id).")


class ConceptMatch(DeferredModel):
    id: Annotated[str, ConceptRef()]
    name: str
    score: float = Field(description="0..1; 1 is the exact name.")
    matched: str = Field(description="What matched: name, alias, or definition.")
    layer: int
    definition: str


class FindConceptResponse(DeferredModel):
    matches: list[ConceptMatch]


class GetConceptRequest(Model):
    """One concept in full: definition, aliases, relations, safety tags, its place in the
    hierarchy."""

    concept_id: Annotated[NonEmpty, ConceptRef()] = Field(
        description="Full id, Term, or Term:layer."
    )


class Concept(DeferredModel):
    id: Annotated[str, ConceptRef()]
    name: str
    pack: str
    layer: int
    parent_id: Annotated[str | None, ConceptRef(on_hidden="clear")]
    children: Annotated[list[str], ConceptList()]
    domain: str | None
    definition: str
    aliases: list[str]
    related: Annotated[list[str], ConceptList()]
    antonyms: Annotated[list[str], ConceptList()]
    has_part: Annotated[list[str], ConceptList()]
    part_of: Annotated[list[str], ConceptList()]
    risk_level: str | None
    treaty_relevant: bool
    harness_relevant: bool
    episode_count: int = Field(description="Episodes tagged with this concept itself.")
    summed_episode_count: int = Field(description=SUMMED_COUNT)
    details: dict[str, Any] = Field(description="Everything else the pack says of it.")


class GetConceptResponse(DeferredModel):
    concept: Concept


class ConceptPack(DeferredModel):
    spec_id: str
    pack_id: str
    version: str
    description: str
    concept_count: int
    imported_at: datetime


class ConceptPacksRequest(Model):
    """The concept packs loaded, oldest first."""


class ConceptPacksResponse(DeferredModel):
    packs: list[ConceptPack]


class Direction(StrEnum):
    BOTH = "both"
    ANCESTORS = "ancestors"
    DESCENDANTS = "descendants"


class ConceptNeighborhoodRequest(Model):
    """Walk the concept hierarchy from seed concepts, breadth-first: parents (ancestors),
    children (descendants) or both. The same walk as ``experience_graph_neighborhood`` over
    CHILD_OF edges between concepts; nearest first, ties by id."""

    seed_ids: Annotated[list[NonEmpty], ConceptList()] = Field(
        min_length=1, description="Concept ids (any form)."
    )
    max_depth: int = Field(default=2, ge=0, le=10)
    direction: Direction = Direction.BOTH
    max_nodes: int = Field(default=100, ge=1, le=10_000)


class ConceptNode(DeferredModel):
    id: Annotated[str, ConceptRef()]
    name: str
    type: str = "concept"
    depth: int = Field(description="Distance from the nearest seed.")


class ConceptEdge(DeferredModel):
    source: Annotated[str, ConceptRef()]
    target: Annotated[str, ConceptRef()]
    relation: str = Field(default="parent", description="target is source's parent.")


class ConceptNeighborhoodResponse(DeferredModel):
    nodes: list[ConceptNode]
    edges: list[ConceptEdge]
    truncated: bool = Field(description="True when the walk stopped at max_nodes.")
