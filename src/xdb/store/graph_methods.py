"""The store methods for concept packs, the experience graph and concept usage, shared by
both stores: each runs a ``graph``/``usage`` function on a reader or in a write transaction
of its store, with the store's ``Flavor``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from xdb.store import access, audit, graph_edges, policy_objects, usage
from xdb.store import concepts as concept_sql
from xdb.store.binding import CallBinding
from xdb.store.sqlbuild import Flavor
from xdb.store.types import (
    ConceptFact,
    ConceptRow,
    EpisodeFilter,
    GraphEdgeRow,
    HierarchyStep,
    PackRow,
    ResolvedTarget,
)

T = TypeVar("T")


class GraphMethods(CallBinding):
    """(Bound to a call by ``CallBinding``: both stores are.)"""

    _flavor: Flavor

    def _graph_read(self, fn: Callable[[Any], T]) -> T:
        raise NotImplementedError

    def _graph_write(self, fn: Callable[[Any], T]) -> T:
        raise NotImplementedError

    def settle_audit(self) -> None:
        """Chain audit records a store keeps waiting (SQLite's ``audit_pending``) before
        the log is read."""

    # ------------------------------------------------------------------ concept packs

    def import_concept_pack(
        self,
        pack: PackRow,
        concepts: Sequence[ConceptRow],
        related: Sequence[tuple[str, str]],
        created_by: str,
    ) -> bool:
        f = self._flavor
        return self._graph_write(
            lambda c: concept_sql.import_pack(c, f, pack, concepts, related, created_by)
        )

    def concept_packs(self) -> list[PackRow]:
        return self._graph_read(concept_sql.packs)

    def concepts_by_ids(self, ids: Sequence[str]) -> list[ConceptRow]:
        return self._graph_read(lambda c: concept_sql.concepts_by_ids(c, self._flavor, ids))

    def concept_names(self) -> list[tuple[str, str, str, int, list[str], str]]:
        return self._graph_read(concept_sql.concept_names)

    def concept_children(
        self, parent_id: str | None, spec_ids: Sequence[str] | None, limit: int
    ) -> tuple[list[ConceptRow], int]:
        return self._graph_read(
            lambda c: concept_sql.concept_children(c, self._flavor, parent_id, spec_ids, limit)
        )

    def concepts_by_term(self, term: str, layer: int | None) -> list[tuple[str, str, int]]:
        return self._graph_read(
            lambda c: concept_sql.concepts_by_term(c, self._flavor, term, layer)
        )

    def concept_episode_counts(self, concept_ids: Sequence[str]) -> dict[str, int]:
        return self._graph_read(lambda c: concept_sql.episode_counts(c, self._flavor, concept_ids))

    def concepts_carried(self, values: Sequence[str]) -> set[str]:
        return self._graph_read(lambda c: concept_sql.carried(c, self._flavor, values))

    def concept_subtree(self, concept_id: str) -> list[str]:
        return self._graph_read(lambda c: concept_sql.subtree(c, self._flavor.d, concept_id))

    def concept_walk(
        self, seeds: Sequence[str], max_depth: int, up: bool, down: bool
    ) -> list[HierarchyStep]:
        return self._graph_read(
            lambda c: concept_sql.walk(c, self._flavor.d, seeds, max_depth, up, down)
        )

    # ------------------------------------------------------------------ the graph

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
    ) -> bool:
        d = self._flavor.d

        def job(c: Any) -> bool:
            made = graph_edges.add_node(
                c, d, node_id, node_type, name, namespace, metadata, created_us, created_by
            )
            if made and access_policy_id is not None:
                access.assign(c, d, "node", [(node_id,)], access_policy_id)
            return made

        return self._graph_write(job)

    def add_graph_edge(
        self,
        edge: GraphEdgeRow,
        note: str | None,
        created_us: int,
        created_by: str,
        access_policy_id: str | None = None,
    ) -> bool:
        d = self._flavor.d

        def job(c: Any) -> bool:
            made = graph_edges.add_edge(c, d, edge, note, created_us, created_by)
            if made and access_policy_id is not None:
                access.assign(c, d, "edge", [tuple(edge)], access_policy_id)
            return made

        return self._graph_write(job)

    def assign_access(self, kind: str, keys: Sequence[Sequence[Any]], policy_id: str | None) -> int:
        d = self._flavor.d
        return self._graph_write(lambda c: access.assign(c, d, kind, keys, policy_id))

    def access_policies_of(
        self, kind: str, keys: Sequence[Sequence[Any]]
    ) -> dict[tuple[Any, ...], str | None]:
        return self._graph_read(lambda c: access.policies_of(c, self._flavor.d, kind, keys))

    def episode_policies(self, seqs: Sequence[int]) -> dict[int, str]:
        # The table itself, whoever is calling.
        whole = self.unrestricted()
        return whole._graph_read(lambda c: access.episode_policies(c, self._flavor.d, seqs))

    def access_in_use(self, policy_id: str) -> list[str]:
        return self._graph_read(lambda c: access.in_use(c, self._flavor.d, policy_id))

    def target_policies(self, target: ResolvedTarget) -> set[str | None]:
        return self._graph_read(lambda c: access.covered(c, self._flavor.d, target))

    def describe_nodes(self, ids: Sequence[str]) -> dict[str, tuple[str, str | None]]:
        return self._graph_read(lambda c: graph_edges.describe(c, self._flavor, ids))

    def graph_edges(
        self,
        nodes: Sequence[str],
        relations: set[str],
        outgoing: bool,
        incoming: bool,
        first: int | None = None,
        among: Sequence[str] = (),
    ) -> set[GraphEdgeRow]:
        return self._graph_read(
            lambda c: graph_edges.edges(
                c, self._flavor, nodes, relations, outgoing, incoming, first, among
            )
        )

    # ------------------------------------------------------------------ usage

    def concept_carriers(
        self, flt: EpisodeFilter, concept_ids: Sequence[str]
    ) -> list[tuple[int, int, float, bool]]:
        return self._graph_read(lambda c: usage.carrying(c, self._flavor, flt, concept_ids))

    def episode_span(self, flt: EpisodeFilter) -> tuple[int, int | None, int | None]:
        return self._graph_read(lambda c: usage.span(c, self._flavor, flt))

    def episode_buckets(self, flt: EpisodeFilter, lo: int, width: int, count: int) -> list[int]:
        return self._graph_read(lambda c: usage.buckets(c, self._flavor, flt, lo, width, count))

    def cooccurring_concepts(
        self, flt: EpisodeFilter, group: Sequence[str], min_count: int, limit: int
    ) -> list[tuple[str, int, int]]:
        return self._graph_read(
            lambda c: usage.cooccurring(c, self._flavor, flt, group, min_count, limit)
        )

    def activation_stats(
        self, concept_ids: Sequence[str], start_us: int | None, end_us: int | None
    ) -> tuple[int, float | None, float | None, float | None]:
        return self._graph_read(
            lambda c: usage.activations(c, self._flavor, concept_ids, start_us, end_us)
        )

    # ------------------------------------------------------------------ policy objects

    def policy_objects(self) -> list[tuple[str, str, dict[str, Any]]]:
        return self._graph_read(policy_objects.read_all)

    def put_policy_object(
        self, kind: str, key: str, body: dict[str, Any], at_us: int, by: str
    ) -> bool:
        d = self._flavor.d
        return self._graph_write(lambda c: policy_objects.put(c, d, kind, key, body, at_us, by))

    def delete_policy_object(self, kind: str, key: str) -> bool:
        d = self._flavor.d
        return self._graph_write(lambda c: policy_objects.delete(c, d, kind, key))

    def concept_facts(self) -> list[ConceptFact]:
        return self._graph_read(policy_objects.concept_facts)

    # ------------------------------------------------------------------ the audit log

    def audit_append(self, entries: Sequence[audit.AuditEntry]) -> int:
        d = self._flavor.d
        return self._graph_write(lambda c: audit.append(c, d, entries, lock=d.arrays)[0])

    def audit_read(
        self,
        after: int,
        limit: int,
        kind: str | None = None,
        caller: str | None = None,
        operation: str | None = None,
    ) -> list[audit.AuditRecord]:
        d = self._flavor.d
        self.settle_audit()
        return self._graph_read(lambda c: audit.read(c, d, after, limit, kind, caller, operation))

    def audit_verify(self) -> audit.Verdict:
        d = self._flavor.d
        self.settle_audit()
        return self._graph_read(lambda c: audit.verify_snapshot(c, d))

    def audit_prune(self, before_us: int, at_us: int) -> int:
        d = self._flavor.d
        return self._graph_write(lambda c: audit.prune(c, d, before_us, at_us, lock=d.arrays))
