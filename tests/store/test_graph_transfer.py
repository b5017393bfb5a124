"""Concept packs, concepts, graph nodes and edges in the export records, on both stores."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from xdb.errors import InvalidRequest
from xdb.store.protocol import Store
from xdb.store.types import ConceptRow, GraphEdgeRow, PackRow

SPEC = "org.test/p@1"
GRAPH_KINDS = ("concept_pack", "concept", "graph_node", "graph_edge")


def concept(term: str, parent: str | None = None) -> ConceptRow:
    return ConceptRow(
        id=f"{SPEC}::concept/{term}",
        spec_id=SPEC,
        term=term,
        layer=0 if parent is None else 1,
        parent_id=None if parent is None else f"{SPEC}::concept/{parent}",
        domain=None,
        definition=term.lower(),
        aliases=[term.upper()],
        child_count=0,
        risk_level=None,
        treaty_relevant=False,
        harness_relevant=True,
        details={"n": [1, 2]},
    )


def fill(store: Store) -> None:
    pack = PackRow(SPEC, "org.test/p", "1", "a pack", 3, 1_700_000_000_000_000)
    # Terms whose order differs bytewise and by a locale's collation.
    concepts = [concept("alpha"), concept("Beta", "alpha"), concept("_gamma", "alpha")]
    ids = [c.id for c in concepts]
    assert store.import_concept_pack(pack, concepts, [(ids[0], ids[1])], "me")
    store.add_graph_node("decision-1", "Decision", "d", "ns", {"k": 1}, 5, "me")
    store.add_graph_node("tool:grep", "Tool", "grep", "ns", {}, 5, "me")
    store.add_graph_edge(GraphEdgeRow("decision-1", "INFLUENCED_BY", "tool:grep"), "n", 6, "me")


def graph_records(store: Store) -> list[dict[str, Any]]:
    return [r for r in store.export_records() if r["kind"] in GRAPH_KINDS]


def test_graph_records_round_trip_between_the_stores(
    store: Store, make_store: Callable[[str], Store]
) -> None:
    fill(store)
    exported = list(store.export_records())
    graph = [r for r in exported if r["kind"] in GRAPH_KINDS]
    assert [r["kind"] for r in graph] == ["concept_pack"] + ["concept"] * 3 + ["graph_node"] * 2 + [
        "graph_edge"
    ] * 2
    assert [r["term"] for r in graph if r["kind"] == "concept"] == ["Beta", "_gamma", "alpha"]
    assert graph[1]["aliases"] == ["BETA"] and graph[1]["details"] == {"n": [1, 2]}
    assert graph[4]["metadata"] == {"k": 1}
    for backend in ("sqlite", "postgres"):
        other = make_store(backend)
        counts = other.import_records(exported)
        assert {k: counts[k] for k in GRAPH_KINDS} == {
            "concept_pack": 1,
            "concept": 3,
            "graph_node": 2,
            "graph_edge": 2,
        }
        assert counts["skipped"] == 0
        assert list(other.export_records()) == exported  # the same records, in the same order
        again = other.import_records(exported)
        assert {k: again[k] for k in GRAPH_KINDS} == dict.fromkeys(GRAPH_KINDS, 0)
        assert again["skipped"] == len(exported) - 1
        assert list(other.export_records()) == exported


def test_an_import_without_graph_records_counts_no_graph_kinds(store: Store) -> None:
    counts = store.import_records([{"kind": "xdb-export", "version": 1}])
    assert not set(GRAPH_KINDS) & set(counts)


def test_a_concept_needs_its_pack_and_a_failed_import_leaves_nothing(
    store: Store, make_store: Callable[[str], Store]
) -> None:
    fill(store)
    records = graph_records(store)
    node = next(r for r in records if r["kind"] == "graph_node")
    orphan = next(r for r in records if r["kind"] == "concept")
    with pytest.raises(InvalidRequest, match=r"record 2: spec_id .* names no concept pack"):
        store.import_records([{**node, "id": "decision-2"}, {**orphan, "spec_id": "nope@1"}])
    # The import is one transaction: the node it inserted first is gone again.
    assert [r["id"] for r in graph_records(store) if r["kind"] == "graph_node"] == [
        "decision-1",
        "tool:grep",
    ]
    with pytest.raises(InvalidRequest, match=r"record 1 \(graph_edge\)"):
        store.import_records([{"kind": "graph_edge", "src": "a", "dst": "b"}])
