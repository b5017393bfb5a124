"""The store methods of the experience graph, shared by both stores (``SharedMethods``):
nodes and edges (``store.graph_edges``), a new one under its access policy."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdb.store import access, graph_edges
from xdb.store.shared_methods import SharedMethods
from xdb.store.types import GraphEdgeRow


class GraphMethods(SharedMethods):
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

        return self._in_transaction(job)

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

        return self._in_transaction(job)

    def describe_nodes(self, ids: Sequence[str]) -> dict[str, tuple[str, str | None]]:
        return self._on_reader(lambda c: graph_edges.describe(c, self._flavor, ids))

    def graph_edges(
        self,
        nodes: Sequence[str],
        relations: set[str],
        outgoing: bool,
        incoming: bool,
        first: int | None = None,
        among: Sequence[str] = (),
    ) -> set[GraphEdgeRow]:
        return self._on_reader(
            lambda c: graph_edges.edges(
                c, self._flavor, nodes, relations, outgoing, incoming, first, among
            )
        )
