"""Merging a sync bundle's objects into a store, in one transaction, in SQL both stores run
alike (``learning/sync.py`` reads and verifies the bundle first).

Idempotent: an object already stored as the bundle has it changes nothing; one stored
differently is a conflict, reported and left as it is (a candidate concept whose definition
diverges, a dataset or run of the same id with other content). Nothing is overwritten.
"""

from __future__ import annotations

import json
from typing import Any

from xdb.ids import new_id
from xdb.store import exemplars, learning, row_models
from xdb.store.exemplars import ExemplarRow
from xdb.store.learning import LearningObject
from xdb.store.sqlbuild import Connection, Dialect


def definition(description: str | None, related: list[dict[str, Any]]) -> dict[str, Any]:
    """What makes two candidate concepts of one name the same concept."""
    pairs = sorted((r["concept_id"], r.get("relation", "related")) for r in related)
    return {"description": description or "", "related": pairs}


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)


def merge(
    conn: Connection, d: Dialect, objects: list[dict[str, Any]], at: int, by: str
) -> dict[str, Any]:
    """Merge ``objects`` (each ``{"kind", "id", "body"}``); what happened to each kind."""
    imported: dict[str, int] = {}
    unchanged = 0
    conflicts: list[dict[str, str]] = []
    for obj in objects:
        kind, key, body = obj["kind"], obj["id"], obj["body"]
        outcome = _MERGERS[kind](conn, d, key, body, at, by)
        if outcome == "new":
            imported[kind] = imported.get(kind, 0) + 1
        elif outcome == "same":
            unchanged += 1
        else:
            conflicts.append({"kind": kind, "id": key, "reason": outcome})
    return {"imported": imported, "unchanged": unchanged, "conflicts": conflicts}


def _bud(conn: Connection, d: Dialect, name: str, body: dict[str, Any], at: int, by: str) -> str:
    m = d.mark
    row = conn.execute(
        f"SELECT {row_models.TAG_COLUMNS} FROM tags WHERE tag_type = 'bud' AND name = {m}", (name,)
    ).fetchone()
    details = body["details"]
    theirs = definition(body.get("description"), details.get("related", []))
    if row is not None:
        tag = row_models.tag(row)
        stored = learning.get(conn, d, "bud", tag.id)
        related = stored.body.get("related", []) if stored else []
        if _same(definition(tag.description, related), theirs):
            return "same"
        return (
            f"a candidate concept named {name!r} is stored with another definition"
            " (description or related concepts differ); kept as stored"
        )
    tag_id = new_id("tag")
    conn.execute(
        f"INSERT INTO tags ({row_models.TAG_COLUMNS}) VALUES ({d.marks(10)})",
        (tag_id, name, "bud", body.get("description"), None, None, body["status"],
         json.dumps([r["concept_id"] for r in details.get("related", [])]), at, by),
    )  # fmt: skip
    learning.put(
        conn,
        d,
        LearningObject("bud", tag_id, None, None, name, body["status"], details, at, at, by),
    )
    return "new"


def _exemplar(
    conn: Connection, d: Dialect, key: str, body: dict[str, Any], at: int, by: str
) -> str:
    stored = exemplars.get(conn, d, key)
    if stored is not None:
        mine = {k: v for k, v in vars(stored).items() if k not in ("access_policy_id",)}
        return "same" if _same(mine, body) else f"exemplar {key!r} is stored with other content"
    row = ExemplarRow(**body)
    exemplars.insert(conn, d, [row])
    if row.episode_id is not None:  # the label follows, where the episode is here
        exemplars.sync_episode(conn, d, row.episode_id, row.concept_id, row.label)
    return "new"


def _object(kind: str) -> Any:
    def merge_one(
        conn: Connection, d: Dialect, key: str, body: dict[str, Any], at: int, by: str
    ) -> str:
        stored = learning.get(conn, d, kind, key)
        header = {k: v for k, v in body.items() if k != "members"}
        if stored is not None:
            mine = {
                "series": stored.series, "version": stored.version,
                "concept_id": stored.concept_id, "status": stored.status, "body": stored.body,
                "created_us": stored.created_us, "created_by": stored.created_by,
            }  # fmt: skip
            if _same(mine, header):
                return "same"
            return f"{kind.replace('_', ' ')} {key!r} is stored with other content; kept as stored"
        learning.put(
            conn,
            d,
            LearningObject(
                kind, key, header["series"], header["version"], header["concept_id"],
                header["status"], header["body"], header["created_us"], at, header["created_by"],
            ),
        )  # fmt: skip
        if kind == "dataset":
            learning.add_members(conn, d, key, body.get("members", []))
        return "new"

    return merge_one


def _fragment(
    conn: Connection, d: Dialect, key: str, body: dict[str, Any], at: int, by: str
) -> str:
    """A node and its edges: each added unless stored (an edge to what is not here is kept
    as a link waiting for it, as an import keeps it)."""
    from xdb.store.graph_transfer import GraphImport

    graph = GraphImport(conn, d)
    added = graph.add("graph_node", body["node"], 0)
    for edge in body.get("edges", []):
        added += graph.add("graph_edge", edge, 0)
    return "new" if added else "same"


_MERGERS = {
    "candidate_concept": _bud,
    "exemplar": _exemplar,
    "dataset": _object("dataset"),
    "training_run": _object("training_run"),
    "artifact": _object("artifact"),
    "graph_fragment": _fragment,
}
KINDS = tuple(_MERGERS)
