"""The experience graph's nodes and edges in SQL both stores run alike.

Decision and Tool nodes and stored edges are plain tables; the edges a walk follows are read
per level: NEXT and TAGGED_BY from the episodes, CHILD_OF from the concepts' parent column,
CONTAINS from an episode's provenance and from links, INFLUENCED_BY and RELATED_CONCEPT from
``graph_edges``. What differs between the stores (how episode_concepts joins episodes) comes
in a ``Flavor``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from xdb.ids import parse_timestep_id, timestep_id
from xdb.store import placement
from xdb.store.row_models import loads_json
from xdb.store.sqlbuild import Connection, Dialect, Flavor, chunks, insert_new
from xdb.store.types import GraphEdgeRow

CONCEPT_NODE = "concept:"
CONTAINS_LIMIT = 50  # timesteps an episode CONTAINS in the graph: the first 50 it covers
NODE_COLUMNS = "id, node_type, name, namespace, metadata, created_us, created_by"
EDGE_COLUMNS = "src, relation, dst, note, created_us, created_by"


def node_type(node_id: str) -> str:
    """A node's type, read from its id's form."""
    if node_id.startswith(CONCEPT_NODE):
        return "Concept"
    if node_id.startswith("decision-"):
        return "Decision"
    if node_id.startswith("tool:"):
        return "Tool"
    if parse_timestep_id(node_id) is not None:
        return "Timestep"
    return "Episode"


def add_node(
    conn: Connection,
    d: Dialect,
    node_id: str,
    node_type: str,
    name: str,
    namespace: str,
    metadata: dict[str, Any],
    created_us: int,
    created_by: str,
) -> bool:
    values = (node_id, node_type, name, namespace, json.dumps(metadata), created_us, created_by)
    return insert_new(conn, d, "graph_nodes", NODE_COLUMNS, values)


def add_edge(
    conn: Connection, d: Dialect, edge: GraphEdgeRow, note: str | None, created_us: int, by: str
) -> bool:
    values = (edge.src, edge.relation, edge.dst, note, created_us, by)
    return insert_new(conn, d, "graph_edges", EDGE_COLUMNS, values)


def describe(conn: Connection, f: Flavor, ids: Sequence[str]) -> dict[str, tuple[str, str | None]]:
    """(type, name or summary) of each of ``ids`` that exists: episodes, concepts (in a pack
    or on an episode), decisions, tools and timesteps."""
    by_type: dict[str, list[str]] = {}
    for node in ids:
        by_type.setdefault(node_type(node), []).append(node)
    out: dict[str, tuple[str, str | None]] = {}
    d = f.d
    for part in chunks(by_type.get("Episode", [])):
        params: list[Any] = []
        sql = f"SELECT id, summary FROM episodes WHERE {d.one_of('id', part, params)}"
        out.update((r[0], ("Episode", r[1])) for r in conn.execute(sql, params))
    for part in chunks([n[len(CONCEPT_NODE) :] for n in by_type.get("Concept", [])]):
        params = []
        sql = f"SELECT id, term FROM concepts WHERE {d.one_of('id', part, params)}"
        named = {r[0]: r[1] for r in conn.execute(sql, params)}
        # Concepts in no pack exist while an episode carries them: one index probe each
        # (a DISTINCT over the tags would read every row of a popular concept).
        probe = f"SELECT 1 FROM episode_concepts WHERE concept_id = {d.mark} LIMIT 1"
        for cid in part:
            if cid in named or conn.execute(probe, [cid]).fetchone() is not None:
                out[CONCEPT_NODE + cid] = ("Concept", named.get(cid, cid))
    for part in chunks(by_type.get("Decision", []) + by_type.get("Tool", [])):
        params = []
        sql = f"SELECT id, node_type, name FROM graph_nodes WHERE {d.one_of('id', part, params)}"
        out.update((r[0], (r[1], r[2])) for r in conn.execute(sql, params))
    for node in by_type.get("Timestep", []):
        session, tick = parse_timestep_id(node) or ("", -1)
        row = conn.execute(
            f"SELECT content FROM timesteps WHERE session_id = {d.mark} AND tick = {d.mark}",
            [session, tick],
        ).fetchone()
        if row is not None:
            out[node] = ("Timestep", row[0])
    return out


def _contained(provenance: Any, session: str | None) -> list[int]:
    prov = loads_json(provenance) or {}
    start = prov.get("start_tick")
    if session is None or start is None:
        return []
    end = prov.get("end_tick")
    last = start if end is None else end
    return list(range(start, min(last, start + CONTAINS_LIMIT - 1) + 1))


def _tagged_first(
    conn: Connection, f: Flavor, concepts: list[str], first: int, among: Sequence[str]
) -> set[GraphEdgeRow]:
    """The TAGGED_BY edges of ``concepts`` from their ``first`` smallest episode ids (all
    concepts together) and from the episodes of ``among``. An episode among the ``first``
    smallest of them all is among the ``first`` smallest of each concept tagging it, so
    each concept's ``first`` from its (concept_id, episode_id) index suffice."""
    d = f.d
    one = (
        "SELECT * FROM (SELECT episode_id, concept_id FROM episode_concepts"
        f" WHERE concept_id = {d.mark} ORDER BY episode_id LIMIT {d.mark}) t{{n}}"
    )
    pairs: list[tuple[str, str]] = []
    # One statement per 100 concepts: SQLite allows 500 terms in a compound select.
    for part in chunks(concepts, 100):
        sql = " UNION ALL ".join(one.format(n=n) for n in range(len(part)))
        pairs += conn.execute(sql, [v for cid in part for v in (cid, first)]).fetchall()
    keep = set(sorted({ep for ep, _ in pairs})[:first])
    found = {GraphEdgeRow(ep, "TAGGED_BY", CONCEPT_NODE + cid) for ep, cid in pairs if ep in keep}
    known = [n for n in among if node_type(n) == "Episode" and n not in keep]
    for walked in chunks(known):
        params: list[Any] = []
        cond = d.one_of("concept_id", concepts, params)
        ids = d.one_of("episode_id", walked, params)
        sql = f"SELECT episode_id, concept_id FROM episode_concepts WHERE {cond} AND {ids}"
        found.update(
            GraphEdgeRow(ep, "TAGGED_BY", CONCEPT_NODE + cid)
            for ep, cid in conn.execute(sql, params)
        )
    return found


# Relations kept as rows: links between nodes, a pack's related concepts, and the experience
# engine's edges between lessons.
STORED = frozenset(
    {"CONTAINS", "INFLUENCED_BY", "RELATED_CONCEPT", "GENERALIZES", "RELATES_TO", "SUPERSEDES"}
)


def edges(
    conn: Connection,
    f: Flavor,
    nodes: Sequence[str],
    relations: set[str],
    outgoing: bool,
    incoming: bool,
    first: int | None = None,
    among: Sequence[str] = (),
) -> set[GraphEdgeRow]:
    """Every edge of ``relations`` leaving (``outgoing``) or reaching (``incoming``) one of
    ``nodes``; with ``first``, of the episodes tagged by a concept of ``nodes``, only those
    among the ``first`` smallest ids or in ``among`` (a popular concept tags most of the
    database, and a walk takes new nodes in id order up to its limit)."""
    d = f.d
    found: set[GraphEdgeRow] = set()
    episodes = [n for n in nodes if node_type(n) == "Episode"]
    concepts = [n[len(CONCEPT_NODE) :] for n in nodes if n.startswith(CONCEPT_NODE)]
    timesteps = [p for n in nodes if (p := parse_timestep_id(n)) is not None]

    def rows(sql: str, column: str, values: Sequence[Any]) -> Iterator[Any]:
        for part in chunks(list(values)):
            params: list[Any] = []
            yield from conn.execute(sql.format(cond=d.one_of(column, part, params)), params)

    if "NEXT" in relations and episodes:
        sql = (
            "SELECT e.id,"
            " (SELECT p.id FROM episodes p WHERE p.session_id = e.session_id"
            "  AND (p.start_us, p.seq) < (e.start_us, e.seq)"
            "  ORDER BY p.start_us DESC, p.seq DESC LIMIT 1),"
            " (SELECT n.id FROM episodes n WHERE n.session_id = e.session_id"
            "  AND (n.start_us, n.seq) > (e.start_us, e.seq)"
            "  ORDER BY n.start_us, n.seq LIMIT 1)"
            " FROM episodes e WHERE {cond} AND e.session_id IS NOT NULL"
        )
        for ep, before, after in rows(sql, "e.id", episodes):
            if incoming and before:
                found.add(GraphEdgeRow(before, "NEXT", ep))
            if outgoing and after:
                found.add(GraphEdgeRow(ep, "NEXT", after))
    if "TAGGED_BY" in relations:
        if outgoing:
            tag_sql = (
                "SELECT e.id, c.concept_id FROM episode_concepts c"
                f" JOIN episodes e ON {f.concept_join} WHERE {{cond}}"
            )
            for ep, cid in rows(tag_sql, "e.id", episodes):
                found.add(GraphEdgeRow(ep, "TAGGED_BY", CONCEPT_NODE + cid))
        if incoming and concepts and first is not None:
            found |= _tagged_first(conn, f, concepts, first, among)
        elif incoming:
            tagged_sql = "SELECT episode_id, concept_id FROM episode_concepts WHERE {cond}"
            for ep, cid in rows(tagged_sql, "concept_id", concepts):
                found.add(GraphEdgeRow(ep, "TAGGED_BY", CONCEPT_NODE + cid))
    if "CHILD_OF" in relations:
        parent_sql = "SELECT id, parent_id FROM concepts WHERE {cond} AND parent_id IS NOT NULL"
        if outgoing:
            for child, parent in rows(parent_sql, "id", concepts):
                found.add(GraphEdgeRow(CONCEPT_NODE + child, "CHILD_OF", CONCEPT_NODE + parent))
        if incoming:
            for child, parent in rows(parent_sql, "parent_id", concepts):
                found.add(GraphEdgeRow(CONCEPT_NODE + child, "CHILD_OF", CONCEPT_NODE + parent))
    if "CONTAINS" in relations:
        prov_sql = "SELECT id, session_id, provenance FROM episodes WHERE {cond}"
        if outgoing:
            for ep, session, prov in rows(prov_sql, "id", episodes):
                for tick in _contained(prov, session):
                    found.add(GraphEdgeRow(ep, "CONTAINS", timestep_id(session, tick)))
        if incoming and timesteps:
            wanted = set(timesteps)
            for ep, session, prov in rows(prov_sql, "session_id", sorted({s for s, _ in wanted})):
                for tick in _contained(prov, session):
                    if (session, tick) in wanted:
                        found.add(GraphEdgeRow(ep, "CONTAINS", timestep_id(session, tick)))
    stored = sorted(relations & STORED)
    if stored:
        params_rel: list[Any] = []
        rel_cond = d.one_of("relation", stored, params_rel)
        for column, wanted_dir in (("src", outgoing), ("dst", incoming)):
            if not wanted_dir:
                continue
            for part in chunks(list(nodes)):
                params = list(params_rel)
                cond = d.one_of(column, part, params)
                sql = f"SELECT src, relation, dst FROM graph_edges WHERE {rel_cond} AND {cond}"
                found.update(GraphEdgeRow(*r) for r in conn.execute(sql, params))
    return found


# The tables, in SQL both databases take, and their places on Citus (docs/scaling.md).
SCHEMA = """
CREATE TABLE graph_nodes (
    id TEXT PRIMARY KEY,
    node_type TEXT NOT NULL,
    name TEXT NOT NULL,
    namespace TEXT NOT NULL,
    metadata TEXT NOT NULL,
    created_us BIGINT NOT NULL,
    created_by TEXT NOT NULL
);
CREATE TABLE graph_edges (
    src TEXT NOT NULL,
    relation TEXT NOT NULL,
    dst TEXT NOT NULL,
    note TEXT,
    created_us BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    PRIMARY KEY (src, relation, dst)
);
CREATE INDEX graph_edges_dst ON graph_edges (dst, relation)
"""
PLACES = placement.declared(
    SCHEMA,
    placement.reference(
        "graph_nodes", "decisions, tools and entities: few next to episodes, read by walks"
    ),
    placement.reference(
        "graph_edges",
        "links between nodes, episodes and ticks of any shard: few next to episodes, and a"
        " walk's steps read them on whichever node they run",
    ),
)
