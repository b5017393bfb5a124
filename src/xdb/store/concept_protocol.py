"""The concepts' parts of the ``Store`` protocol (``xdb.store.protocol``): packs and the
hierarchy, the experience graph, and what usage statistics read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from xdb.store.types import (
    ConceptFact,
    ConceptRow,
    EpisodeFilter,
    GraphEdgeRow,
    HierarchyStep,
    PackRow,
)


class ConceptStore(Protocol):
    """Concept packs and the concept hierarchy."""

    def import_concept_pack(
        self,
        pack: PackRow,
        concepts: Sequence[ConceptRow],
        related: Sequence[tuple[str, str]],
        created_by: str,
    ) -> bool:
        """Store a pack with its concepts and RELATED_CONCEPT edges in one transaction,
        unless its version is stored; whether it was new."""
        ...

    def concept_packs(self) -> list[PackRow]: ...

    def concepts_by_ids(self, ids: Sequence[str]) -> list[ConceptRow]: ...

    def concept_facts(self) -> list[ConceptFact]:
        """Every concept's pack, term, parent and risk level (what disclosure rules read)."""
        ...

    def concept_names(self) -> list[tuple[str, str, str, int, list[str], str]]:
        """(id, spec_id, term, layer, aliases, definition) of every concept."""
        ...

    def concept_children(
        self, parent_id: str | None, spec_ids: Sequence[str] | None, limit: int
    ) -> tuple[list[ConceptRow], int]:
        """Children of ``parent_id`` (roots when None) by name, and how many there are."""
        ...

    def concepts_by_term(self, term: str, layer: int | None) -> list[tuple[str, str, int]]:
        """(id, pack_id, imported_us) of concepts named ``term``, newest import first."""
        ...

    def concept_episode_counts(self, concept_ids: Sequence[str]) -> dict[str, int]:
        """Episodes tagged with each concept itself (absent: none)."""
        ...

    def concepts_carried(self, values: Sequence[str]) -> set[str]:
        """Those of ``values`` some record names as a concept, whether or not a pack holds
        it: an episode's tag or label, an exemplar, a concept tag or bud, a learning object,
        a timestep's activation (``store.concepts.carried``)."""
        ...

    def concept_subtree(self, concept_id: str) -> list[str]:
        """The concept and all below it (a recursive walk of the hierarchy)."""
        ...

    def concept_walk(
        self, seeds: Sequence[str], max_depth: int, up: bool, down: bool
    ) -> list[HierarchyStep]:
        """Every concept within ``max_depth`` parent (``up``) and/or child (``down``) steps
        of the ``seeds`` concept ids, each at its smallest depth, in no order."""
        ...


class GraphStore(Protocol):
    """The experience graph: Decision and Tool nodes and the edges between all nodes."""

    def add_graph_node(
        self,
        node_id: str,
        node_type: str,
        name: str,
        namespace: str,
        metadata: dict[str, Any],
        created_us: int,
        created_by: str,
        access_policy_id: str | None = None,
    ) -> bool: ...

    def add_graph_edge(
        self,
        edge: GraphEdgeRow,
        note: str | None,
        created_us: int,
        created_by: str,
        access_policy_id: str | None = None,
    ) -> bool: ...

    def describe_nodes(self, ids: Sequence[str]) -> dict[str, tuple[str, str | None]]:
        """(type, name or summary) of each of ``ids`` that exists."""
        ...

    def graph_edges(
        self,
        nodes: Sequence[str],
        relations: set[str],
        outgoing: bool,
        incoming: bool,
        first: int | None = None,
        among: Sequence[str] = (),
    ) -> set[GraphEdgeRow]:
        """Edges of ``relations`` leaving and/or reaching any of ``nodes``; with ``first``,
        a concept's episodes only among its ``first`` smallest ids or in ``among``."""
        ...


class UsageStore(Protocol):
    """What concept usage statistics read: carriers, time buckets, co-occurrence, activations."""

    def concept_carriers(
        self, flt: EpisodeFilter, concept_ids: Sequence[str]
    ) -> list[tuple[int, int, float, bool]]:
        """(seq, start_us, best score, mostly candidate) of matching episodes carrying any
        of ``concept_ids``."""
        ...

    def episode_span(self, flt: EpisodeFilter) -> tuple[int, int | None, int | None]:
        """(count, first start, last start) of matching episodes."""
        ...

    def episode_buckets(self, flt: EpisodeFilter, lo: int, width: int, count: int) -> list[int]:
        """Matching episodes starting in each of ``count`` buckets of ``width`` from ``lo``."""
        ...

    def cooccurring_concepts(
        self, flt: EpisodeFilter, group: Sequence[str], min_count: int, limit: int
    ) -> list[tuple[str, int, int]]:
        """(concept, episodes shared with ``group``, its own episode count), most shared first."""
        ...

    def activation_stats(
        self, concept_ids: Sequence[str], start_us: int | None, end_us: int | None
    ) -> tuple[int, float | None, float | None, float | None]:
        """(count, mean, max, min) of the concepts' activations on timesteps in the range."""
        ...
