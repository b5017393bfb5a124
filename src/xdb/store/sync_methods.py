"""The store methods of sync, shared by both stores (``SharedMethods``): merging a verified
bundle's objects (``store.sync_merge``) and the session graph fragments a bundle carries."""

from __future__ import annotations

from typing import Any

from xdb.store import graph_transfer, sync_merge
from xdb.store.shared_methods import SharedMethods


class SyncMethods(SharedMethods):
    def sync_merge(self, objects: list[dict[str, Any]], at_us: int, by: str) -> dict[str, Any]:
        """Merge a verified sync bundle's objects, all in one transaction."""
        d = self._flavor.d
        return self._in_transaction(lambda c: sync_merge.merge(c, d, objects, at_us, by))

    def graph_fragments(self) -> list[dict[str, Any]]:
        """Each Decision or Tool node's record with the records of the stored edges that
        touch it (``graph_node`` and ``graph_edge`` export records) and the node's access
        policy: the session graph fragments a sync bundle carries."""

        def read(c: Any) -> list[dict[str, Any]]:
            found = graph_transfer.export_records(c.execute)
            kept = [r for r in found if r["kind"] in ("graph_node", "graph_edge")]
            nodes = [r for r in kept if r["kind"] == "graph_node"]
            policies = dict(c.execute("SELECT id, access_policy_id FROM graph_nodes").fetchall())
            return [
                {
                    "access_policy_id": policies.get(n["id"]),
                    "node": n,
                    "edges": [
                        e
                        for e in kept
                        if e["kind"] == "graph_edge" and n["id"] in (e["src"], e["dst"])
                    ],
                }
                for n in nodes
            ]

        return self._on_reader(read)
