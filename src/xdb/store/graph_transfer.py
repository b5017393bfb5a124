"""Concept packs, concepts, Decision and Tool nodes and stored edges as export records, and
back: what both stores' ``transfer`` add to the records of ``xdb.store.records``.

The kinds, in the export's (restorable) order: ``concept_pack`` (a concept_packs row),
``concept`` (a concepts row; its aliases and details as JSON values), ``graph_node`` (a
Decision or Tool node) and ``graph_edge`` (a stored edge: a link, or a RELATED_CONCEPT edge
a pack brought). Times are ISO 8601, as in the other records. The SQL is the same on both
stores; the ``Dialect`` says how each driver takes a statement. An import skips rows whose
key (a pack's spec id, a concept's or node's id, an edge's src, relation and dst) is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from pydantic import Field, field_validator

from xdb.errors import InvalidRequest
from xdb.models.common import DeferredModel
from xdb.store.concepts import CONCEPT_COLUMNS, PACK_COLUMNS, add_pack, concept_row, concept_values
from xdb.store.graph_edges import EDGE_COLUMNS, NODE_COLUMNS, add_edge, add_node
from xdb.store.records import parse
from xdb.store.row_models import loads_json
from xdb.store.sqlbuild import Connection, Dialect, insert_new
from xdb.store.types import GraphEdgeRow, PackRow
from xdb.timeutil import as_utc, from_us, to_us

KINDS = ("concept_pack", "concept", "graph_node", "graph_edge")


class _Timed(DeferredModel):
    @field_validator("imported_at", "created_at", check_fields=False)
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        return as_utc(value)


class ConceptPackRecord(_Timed):
    spec_id: str = Field(min_length=1)
    pack_id: str
    version: str
    description: str
    concept_count: int
    imported_at: datetime


class ConceptRecord(DeferredModel):
    id: str = Field(min_length=1)
    spec_id: str = Field(min_length=1)
    term: str
    layer: int
    parent_id: str | None = None
    domain: str | None = None
    definition: str
    aliases: list[str] = Field(default_factory=list)
    child_count: int = 0
    risk_level: str | None = None
    treaty_relevant: bool = False
    harness_relevant: bool = False
    details: dict[str, Any] = Field(default_factory=dict)


class GraphNodeRecord(_Timed):
    id: str = Field(min_length=1)
    node_type: str
    name: str
    namespace: str
    metadata: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime
    created_by: str


class GraphEdgeRecord(_Timed):
    src: str = Field(min_length=1)
    relation: str = Field(min_length=1)
    dst: str = Field(min_length=1)
    note: str | None = None
    created_at: datetime
    created_by: str


def export_records(
    read: Callable[[str], Iterable[Sequence[Any]]], collate: str = ""
) -> Iterator[dict[str, Any]]:
    """Every pack, concept, node and stored edge as a record, packs before their concepts;
    ``read`` runs a query in the export's snapshot; ``collate`` (a COLLATE clause) makes
    text sort bytewise, so both stores list them in one order."""
    for spec_id, pack_id, version, description, count, imported_us in read(
        f"SELECT {PACK_COLUMNS} FROM concept_packs ORDER BY imported_us, spec_id{collate}"
    ):
        yield {
            "kind": "concept_pack",
            "spec_id": spec_id,
            "pack_id": pack_id,
            "version": version,
            "description": description,
            "concept_count": int(count),
            "imported_at": from_us(imported_us).isoformat(),
        }
    for row in read(f"SELECT {CONCEPT_COLUMNS} FROM concepts ORDER BY id{collate}"):
        yield {"kind": "concept", **asdict(concept_row(row))}
    for node_id, node_type, name, namespace, metadata, created_us, created_by in read(
        f"SELECT {NODE_COLUMNS} FROM graph_nodes ORDER BY created_us, id{collate}"
    ):
        yield {
            "kind": "graph_node",
            "id": node_id,
            "node_type": node_type,
            "name": name,
            "namespace": namespace,
            "metadata": loads_json(metadata),
            "created_at": from_us(created_us).isoformat(),
            "created_by": created_by,
        }
    for src, relation, dst, note, created_us, created_by in read(
        f"SELECT {EDGE_COLUMNS} FROM graph_edges"
        f" ORDER BY created_us, src{collate}, relation{collate}, dst{collate}"
    ):
        yield {
            "kind": "graph_edge",
            "src": src,
            "relation": relation,
            "dst": dst,
            "note": note,
            "created_at": from_us(created_us).isoformat(),
            "created_by": created_by,
        }


class GraphImport:
    """Restores the records of ``KINDS`` in an import's transaction; ``counts`` holds how
    many of each kind were inserted, for the kinds the input has."""

    def __init__(self, conn: Connection, d: Dialect) -> None:
        self.conn = conn
        self.d = d
        self.counts: dict[str, int] = {}
        self._packs: set[str] = set()  # spec ids known to be stored

    def add(self, kind: str, body: dict[str, Any], number: int) -> int:
        """Restore one record (the ``number``-th); 1 if it was inserted, 0 if skipped."""
        if kind == "concept_pack":
            p = parse(ConceptPackRecord, body, number, kind)
            imported = to_us(p.imported_at)
            row = PackRow(p.spec_id, p.pack_id, p.version, p.description, p.concept_count, imported)
            added = int(add_pack(self.conn, self.d, row))
            self._packs.add(p.spec_id)
        elif kind == "concept":
            c = parse(ConceptRecord, body, number, kind)
            self._check_pack(c.spec_id, number)
            values = concept_values(c)
            added = int(insert_new(self.conn, self.d, "concepts", CONCEPT_COLUMNS, values))
        elif kind == "graph_node":
            n = parse(GraphNodeRecord, body, number, kind)
            created = to_us(n.created_at)
            node = (n.id, n.node_type, n.name, n.namespace, n.metadata, created, n.created_by)
            added = int(add_node(self.conn, self.d, *node))
        elif kind == "graph_edge":
            e = parse(GraphEdgeRecord, body, number, kind)
            edge = GraphEdgeRow(e.src, e.relation, e.dst)
            created = to_us(e.created_at)
            added = int(add_edge(self.conn, self.d, edge, e.note, created, e.created_by))
        else:
            raise ValueError(f"not a graph record kind: {kind!r}")
        self.counts[kind] = self.counts.get(kind, 0) + added
        return added

    def _check_pack(self, spec_id: str, number: int) -> None:
        if spec_id in self._packs:
            return
        sql = f"SELECT 1 FROM concept_packs WHERE spec_id = {self.d.mark}"
        if not self.conn.execute(sql, (spec_id,)).fetchone():
            raise InvalidRequest(
                f"record {number}: spec_id {spec_id!r} names no concept pack (a concept_pack"
                " record must come before its concepts)"
            )
        self._packs.add(spec_id)
