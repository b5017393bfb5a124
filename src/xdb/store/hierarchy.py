"""The concept hierarchy in recursive CTEs, in SQL both stores run alike: a concept's
subtree, and a walk up and/or down the parent column from seed concepts.

Unlike the whole-graph walk (``ops/graph.py``, one query per level so it can stop at
``max_nodes``), the hierarchy is small (a pack's few thousand concepts) and a CTE answers in
one round trip; the caller orders and cuts what it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdb.store.sqlbuild import Connection, Dialect
from xdb.store.types import HierarchyStep


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
