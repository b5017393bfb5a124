"""Concept packs and their concepts in SQL both stores run alike: importing a pack, browsing
and naming its concepts, counting the episodes they tag, and the hierarchy.

The hierarchy is read in recursive CTEs: unlike the whole-graph walk
(``episodes/experience_graph.py``, one query per level so it can stop at ``max_nodes``), a
pack's few thousand concepts are small and a CTE answers in one round trip; the caller
orders and cuts what it returns. What differs between the stores comes in a ``Flavor``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from xdb.store import placement
from xdb.store.graph_edges import CONCEPT_NODE, EDGE_COLUMNS
from xdb.store.row_models import loads_json
from xdb.store.sqlbuild import Connection, Dialect, Flavor, chunks, insert_new, many
from xdb.store.types import ConceptRow, HierarchyStep, PackRow

PACK_COLUMNS = "spec_id, pack_id, version, description, concept_count, imported_us"
CONCEPT_COLUMNS = (
    "id, spec_id, term, layer, parent_id, domain, definition, aliases, child_count,"
    " risk_level, treaty_relevant, harness_relevant, details"
)


def import_pack(
    conn: Connection,
    f: Flavor,
    pack: PackRow,
    concepts: Sequence[ConceptRow],
    related: Sequence[tuple[str, str]],
    created_by: str,
) -> bool:
    """Insert a pack, its concepts and their RELATED_CONCEPT edges unless the pack's version
    is stored; whether it was new."""
    m = f.d.marks
    if not add_pack(conn, f.d, pack):
        return False
    many(
        conn,
        f"INSERT INTO concepts ({CONCEPT_COLUMNS}) VALUES ({m(13)})",
        [concept_values(c) for c in concepts],
    )
    many(
        conn,
        f"INSERT INTO graph_edges ({EDGE_COLUMNS}) VALUES ({m(6)}) ON CONFLICT DO NOTHING",
        [
            (
                CONCEPT_NODE + a,
                "RELATED_CONCEPT",
                CONCEPT_NODE + b,
                None,
                pack.imported_us,
                created_by,
            )
            for a, b in related
        ],
    )
    return True


def add_pack(conn: Connection, d: Dialect, pack: PackRow) -> bool:
    """Insert a pack's row unless its spec id is stored; whether it was new."""
    values = (pack.spec_id, pack.pack_id, pack.version, pack.description, pack.concept_count)
    return insert_new(conn, d, "concept_packs", PACK_COLUMNS, (*values, pack.imported_us))


def concept_values(c: Any) -> tuple[Any, ...]:
    """The ``CONCEPT_COLUMNS`` values of a ``ConceptRow`` (or an export record like one)."""
    return (
        c.id,
        c.spec_id,
        c.term,
        c.layer,
        c.parent_id,
        c.domain,
        c.definition,
        json.dumps(c.aliases, ensure_ascii=False),
        c.child_count,
        c.risk_level,
        int(c.treaty_relevant),
        int(c.harness_relevant),
        json.dumps(c.details, ensure_ascii=False),
    )


def packs(conn: Connection) -> list[PackRow]:
    rows = conn.execute(
        f"SELECT {PACK_COLUMNS} FROM concept_packs ORDER BY imported_us, spec_id"
    ).fetchall()
    return [PackRow(*row) for row in rows]


def concept_row(row: Sequence[Any]) -> ConceptRow:
    return ConceptRow(
        id=row[0],
        spec_id=row[1],
        term=row[2],
        layer=int(row[3]),
        parent_id=row[4],
        domain=row[5],
        definition=row[6],
        aliases=loads_json(row[7]),
        child_count=int(row[8]),
        risk_level=row[9],
        treaty_relevant=bool(row[10]),
        harness_relevant=bool(row[11]),
        details=loads_json(row[12]),
    )


def concepts_by_ids(conn: Connection, f: Flavor, ids: Sequence[str]) -> list[ConceptRow]:
    out: list[ConceptRow] = []
    for part in chunks(list(ids)):
        params: list[Any] = []
        sql = f"SELECT {CONCEPT_COLUMNS} FROM concepts WHERE {f.d.one_of('id', part, params)}"
        out.extend(concept_row(r) for r in conn.execute(sql, params))
    return out


def concept_names(conn: Connection) -> list[tuple[str, str, str, int, list[str], str]]:
    """(id, spec_id, term, layer, aliases, definition) of every concept: what find_concept
    indexes."""
    rows = conn.execute(
        "SELECT id, spec_id, term, layer, aliases, definition FROM concepts ORDER BY id"
    ).fetchall()
    return [(r[0], r[1], r[2], int(r[3]), loads_json(r[4]), r[5]) for r in rows]


def concept_children(
    conn: Connection, f: Flavor, parent_id: str | None, spec_ids: Sequence[str] | None, limit: int
) -> tuple[list[ConceptRow], int]:
    """The children of ``parent_id`` (the roots when None) by name, and how many there are."""
    params: list[Any] = []
    clauses = ["parent_id IS NULL" if parent_id is None else f"parent_id = {f.d.mark}"]
    if parent_id is not None:
        params.append(parent_id)
    if spec_ids is not None:
        clauses.append(f.d.one_of("spec_id", spec_ids, params) if spec_ids else f.d.false)
    where = " AND ".join(clauses)
    total = conn.execute(f"SELECT count(*) FROM concepts WHERE {where}", params).fetchone()[0]
    rows = conn.execute(
        f"SELECT {CONCEPT_COLUMNS} FROM concepts WHERE {where} ORDER BY term, id LIMIT {f.d.mark}",
        [*params, limit],
    ).fetchall()
    return [concept_row(r) for r in rows], int(total)


def concepts_by_term(
    conn: Connection, f: Flavor, term: str, layer: int | None
) -> list[tuple[str, str, int]]:
    """(id, pack_id, imported_us) of the concepts named ``term`` (at ``layer``), newest
    pack first."""
    m = f.d.mark
    sql = (
        "SELECT c.id, p.pack_id, p.imported_us FROM concepts c"
        f" JOIN concept_packs p ON p.spec_id = c.spec_id WHERE c.term = {m}"
    )
    params: list[Any] = [term]
    if layer is not None:
        sql += f" AND c.layer = {m}"
        params.append(layer)
    rows = conn.execute(sql + " ORDER BY p.imported_us DESC, c.id", params).fetchall()
    return [(r[0], r[1], int(r[2])) for r in rows]


def episode_counts(conn: Connection, f: Flavor, concept_ids: Sequence[str]) -> dict[str, int]:
    """Episodes tagged with each of ``concept_ids`` (itself, not its descendants): a row
    each where the store keeps the counts (``Flavor.concept_counts``), else its tag rows
    counted."""
    out: dict[str, int] = {}
    for part in chunks(list(concept_ids)):
        params: list[Any] = []
        cond = f.d.one_of("concept_id", part, params)
        if f.concept_counts:
            sql = f"SELECT concept_id, episodes FROM concept_counts WHERE {cond}"
        else:
            sql = "SELECT concept_id, count(*) FROM episode_concepts"
            sql += f" WHERE {cond} GROUP BY concept_id"
        for cid, n in conn.execute(sql, params):
            if n:
                out[cid] = int(n)
    return out


# Where the experience names a concept no pack need hold, each probed by the value (the
# tables' concept indexes, or a small table); the timesteps' activations come last: they
# are read row by row, until the first that carries the value.
_CARRIERS = (
    "SELECT 1 FROM episode_concepts WHERE concept_id = {m}",
    "SELECT 1 FROM episode_labels WHERE concept_id = {m}",
    "SELECT 1 FROM exemplars WHERE concept_id = {m}",
    "SELECT 1 FROM tags WHERE concept_id = {m} OR (name = {m} AND tag_type IN ('concept', 'bud'))",
    "SELECT 1 FROM learning_objects WHERE concept_id = {m}",
    "SELECT 1 FROM timesteps t, {json_each} WHERE t.activations IS NOT NULL AND j.key = {m}",
)


def carried(conn: Connection, f: Flavor, values: Sequence[str]) -> set[str]:
    """Those of ``values`` that some record names as a concept: an episode's concept tag or
    exemplar label, an exemplar, a concept tag or bud, a dataset or training run, a
    timestep's activation."""
    out: set[str] = set()
    for value in dict.fromkeys(values):
        for probe in _CARRIERS:
            sql = probe.format(m=f.d.mark, json_each=f.json_each) + " LIMIT 1"
            if conn.execute(sql, [value] * sql.count(f.d.mark)).fetchone() is not None:
                out.add(value)
                break
    return out


# --------------------------------------------------------------------------- the hierarchy


def subtree(conn: Connection, d: Dialect, concept_id: str) -> list[str]:
    """``concept_id`` and every concept below it."""
    rows = conn.execute(
        "WITH RECURSIVE below(id) AS ("
        f" SELECT {d.mark} UNION SELECT c.id FROM concepts c JOIN below b ON c.parent_id = b.id)"
        " SELECT id FROM below ORDER BY id",
        [concept_id],
    ).fetchall()
    return [r[0] for r in rows]


def walk(
    conn: Connection, d: Dialect, seeds: Sequence[str], max_depth: int, up: bool, down: bool
) -> list[HierarchyStep]:
    """Every concept within ``max_depth`` steps of ``seeds`` (which are concept ids), going
    to parents (``up``) and/or children (``down``), each once, at its smallest depth (in no
    order). UNION drops repeated (concept, depth) rows, so going up and down again (siblings,
    with both directions) stays bounded by the depth."""
    if not seeds:
        return []
    steps = [s for s, on in (("c.id = w.parent_id", up), ("c.parent_id = w.id", down)) if on]
    if not steps:
        return []
    params: list[Any] = []
    start = d.one_of("id", seeds, params)
    sql = (
        "WITH RECURSIVE w(id, parent_id, term, depth) AS ("
        f" SELECT id, parent_id, term, 0 FROM concepts WHERE {start}"
        " UNION SELECT c.id, c.parent_id, c.term, w.depth + 1 FROM w JOIN concepts c"
        f" ON {' OR '.join(steps)} WHERE w.depth < {d.mark})"
        " SELECT id, parent_id, term, min(depth) FROM w GROUP BY id, parent_id, term"
    )
    rows = conn.execute(sql, [*params, max_depth]).fetchall()
    return [HierarchyStep(r[0], r[1], r[2], int(r[3])) for r in rows]


# The tables, in SQL both databases take, and their places on Citus (docs/scaling.md).
SCHEMA = """
CREATE TABLE concept_packs (
    spec_id TEXT PRIMARY KEY,
    pack_id TEXT NOT NULL,
    version TEXT NOT NULL,
    description TEXT NOT NULL,
    concept_count INTEGER NOT NULL,
    imported_us BIGINT NOT NULL
);
CREATE TABLE concepts (
    id TEXT PRIMARY KEY,
    spec_id TEXT NOT NULL REFERENCES concept_packs (spec_id),
    term TEXT NOT NULL,
    layer INTEGER NOT NULL,
    parent_id TEXT,
    domain TEXT,
    definition TEXT NOT NULL,
    aliases TEXT NOT NULL,
    child_count INTEGER NOT NULL,
    risk_level TEXT,
    treaty_relevant INTEGER NOT NULL,
    harness_relevant INTEGER NOT NULL,
    details TEXT NOT NULL
);
CREATE INDEX concepts_parent ON concepts (parent_id, term);
CREATE INDEX concepts_term ON concepts (term, layer)
"""
PLACES = placement.declared(
    SCHEMA,
    placement.reference(
        "concept_packs", "a few rows, named by every concept row (its foreign key)"
    ),
    placement.reference(
        "concepts",
        "small (first-light: 7,947) and joined by every shard's episode concept rows and walks",
    ),
)
