"""Policy objects (disclosure policies, treaties, hush constraints, named callers) in SQL
both stores run alike: one small table of JSON documents keyed by kind and id, read whole
on each call that needs them (a handful of rows), written by the management operations."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from xdb.errors import InvalidRequest
from xdb.store import placement
from xdb.store.sqlbuild import Connection, Dialect
from xdb.store.types import ConceptFact

SCHEMA = """
CREATE TABLE policy_objects (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    body TEXT NOT NULL,
    updated_us BIGINT NOT NULL,
    updated_by TEXT NOT NULL,
    PRIMARY KEY (kind, id)
)
"""
PLACES = placement.declared(
    SCHEMA,
    placement.local(
        "policy_objects",
        "callers, keys, policies, treaties, contracts: a handful of documents the process"
        " reads whole, never joined in SQL; a key made is in force at once, without a"
        " write to every node",
    ),
)


def put(
    conn: Connection, d: Dialect, kind: str, key: str, body: dict[str, Any], at: int, by: str
) -> bool:
    """Insert or replace one object; whether it is new."""
    m = d.mark
    existed = conn.execute(
        f"SELECT 1 FROM policy_objects WHERE kind = {m} AND id = {m}", [kind, key]
    ).fetchone()
    conn.execute(
        f"INSERT INTO policy_objects (kind, id, body, updated_us, updated_by)"
        f" VALUES ({d.marks(5)}) ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body,"
        " updated_us = excluded.updated_us, updated_by = excluded.updated_by",
        [kind, key, json.dumps(body, sort_keys=True), at, by],
    )
    return existed is None


def delete(conn: Connection, d: Dialect, kind: str, key: str) -> bool:
    m = d.mark
    cur = conn.execute(f"DELETE FROM policy_objects WHERE kind = {m} AND id = {m}", [kind, key])
    return bool(cur.rowcount)


def export_records(read: Any) -> Iterator[dict[str, Any]]:
    """Every policy object as an export record (API keys as their hashes)."""
    for kind, key, body, at, by in read(
        "SELECT kind, id, body, updated_us, updated_by FROM policy_objects ORDER BY kind, id"
    ):
        yield {
            "kind": "policy_object",
            "object": kind,
            "id": key,
            "body": json.loads(body),
            "updated_us": at,
            "updated_by": by,
        }


def import_record(conn: Connection, d: Dialect, body: dict[str, Any], number: int) -> int:
    """Store a ``policy_object`` record unless one of its kind and id is stored; 1 if new."""
    kind, key, obj = body.get("object"), body.get("id"), body.get("body")
    if not (isinstance(kind, str) and isinstance(key, str) and isinstance(obj, dict)):
        raise InvalidRequest(f"record {number} (policy_object): needs object, id and body")
    m = d.mark
    if conn.execute(
        f"SELECT 1 FROM policy_objects WHERE kind = {m} AND id = {m}", [kind, key]
    ).fetchone():
        return 0
    at = body.get("updated_us")
    put(conn, d, kind, key, obj, at if isinstance(at, int) else 0, str(body.get("updated_by")))
    return 1


def read_all(conn: Connection) -> list[tuple[str, str, dict[str, Any]]]:
    """(kind, id, body) of every object, by kind and id."""
    rows = conn.execute("SELECT kind, id, body FROM policy_objects ORDER BY kind, id").fetchall()
    return [(r[0], r[1], json.loads(r[2])) for r in rows]


def concept_facts(conn: Connection) -> list[ConceptFact]:
    """What disclosure rules read of every concept: its pack, term, parent and risk."""
    rows = conn.execute(
        "SELECT c.id, c.spec_id, p.pack_id, c.term, c.layer, c.parent_id, c.risk_level"
        " FROM concepts c JOIN concept_packs p ON p.spec_id = c.spec_id ORDER BY c.id"
    ).fetchall()
    return [ConceptFact(r[0], r[1], r[2], r[3], int(r[4]), r[5], r[6]) for r in rows]
