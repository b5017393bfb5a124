"""What the learning harness keeps, in SQL both stores run alike: buds' details, datasets,
training runs and artifacts as JSON documents keyed by kind and id, and each dataset's
members with their content as it was when the dataset was built (frozen: a later edit or
compression of the episode changes nothing a training run read).

Kinds: ``bud`` (a bud tag's candidate-concept details; its status is the tag's), ``dataset``,
``training_run``, ``artifact``. ``concept_id`` and ``status`` are copied out of the body for
the filters lists use; ``series`` groups a dataset's versions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdb.store import exemplars, placement
from xdb.store.sqlbuild import Connection, Dialect, many

SCHEMA = """
CREATE TABLE learning_objects (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    series TEXT,
    version INTEGER,
    concept_id TEXT,
    status TEXT,
    body TEXT NOT NULL,
    created_us BIGINT NOT NULL,
    updated_us BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    access_policy_id TEXT,
    PRIMARY KEY (kind, id)
);
CREATE INDEX learning_objects_series ON learning_objects (kind, series, version);
CREATE INDEX learning_objects_order ON learning_objects (kind, created_us, id);
CREATE TABLE dataset_members (
    dataset_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    polarity TEXT NOT NULL,
    exemplar_id TEXT NOT NULL,
    episode_id TEXT NOT NULL,
    body TEXT NOT NULL,
    access_policy_id TEXT,
    PRIMARY KEY (dataset_id, position)
)
"""
PLACES = placement.declared(
    SCHEMA,
    placement.local(
        "learning_objects",
        "buds, datasets, runs, artifacts, lessons and the engine's session state: documents"
        " listed by kind and status by the coordinator; small next to the log",
    ),
    placement.distributed(
        "dataset_members",
        "dataset_id",
        "frozen copies of episodes, the bulk of the harness; a dataset is built and read"
        " whole, on one shard",
    ),
)

# Both stores' migration: the tables, then the exemplars (store/exemplars.py) with the
# labels of episodes stored before.
STATEMENTS = [s for s in f"{SCHEMA};{exemplars.SCHEMA}".split(";") if s.strip()]

COLUMNS = (
    "kind, id, series, version, concept_id, status, body, created_us, updated_us, created_by,"
    " access_policy_id"
)


@dataclass
class LearningObject:
    kind: str
    id: str
    series: str | None
    version: int | None
    concept_id: str | None
    status: str | None
    body: dict[str, Any]
    created_us: int
    updated_us: int
    created_by: str
    access_policy_id: str | None = None


def migrate(conn: Connection, d: Dialect) -> None:
    for statement in STATEMENTS:
        conn.execute(statement)
    exemplars.backfill(conn, d)


def _object(r: Sequence[Any]) -> LearningObject:
    body = r[6] if isinstance(r[6], dict) else json.loads(r[6])
    return LearningObject(
        r[0],
        r[1],
        r[2],
        None if r[3] is None else int(r[3]),
        r[4],
        r[5],
        body,
        int(r[7]),
        int(r[8]),
        r[9],
        r[10],
    )


def put(conn: Connection, d: Dialect, obj: LearningObject) -> None:
    """Insert or replace an object (its creation fields stay those first stored)."""
    conn.execute(
        f"INSERT INTO learning_objects ({COLUMNS}) VALUES ({d.marks(11)})"
        " ON CONFLICT (kind, id) DO UPDATE SET series = excluded.series,"
        " version = excluded.version, concept_id = excluded.concept_id,"
        " status = excluded.status, body = excluded.body, updated_us = excluded.updated_us",
        (
            obj.kind,
            obj.id,
            obj.series,
            obj.version,
            obj.concept_id,
            obj.status,
            json.dumps(obj.body, ensure_ascii=False, sort_keys=True),
            obj.created_us,
            obj.updated_us,
            obj.created_by,
            obj.access_policy_id,
        ),
    )


def get(conn: Connection, d: Dialect, kind: str, key: str) -> LearningObject | None:
    row = conn.execute(
        f"SELECT {COLUMNS} FROM learning_objects WHERE kind = {d.mark} AND id = {d.mark}",
        (kind, key),
    ).fetchone()
    return None if row is None else _object(row)


def get_many(
    conn: Connection, d: Dialect, kind: str, keys: Sequence[str]
) -> dict[str, LearningObject]:
    if not keys:
        return {}
    params: list[Any] = [kind]
    cond = d.one_of("id", list(keys), params)
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM learning_objects WHERE kind = {d.mark} AND {cond}", params
    ).fetchall()
    return {r[1]: _object(r) for r in rows}


def listed(
    conn: Connection,
    d: Dialect,
    kind: str,
    filters: dict[str, Any],
    after: tuple[int, str] | None,
    limit: int,
) -> tuple[list[LearningObject], int]:
    """A page of one kind's objects, oldest first, and how many match. ``filters`` on the
    columns ``series``, ``concept_id`` and ``status`` (a value, or a list of them)."""
    m = d.mark
    clauses, params = [f"kind = {m}"], list[Any]([kind])
    for column in ("series", "concept_id", "status"):
        value = filters.get(column)
        if isinstance(value, list):
            clauses.append(d.one_of(column, value, params) if value else d.false)
        elif value is not None:
            clauses.append(f"{column} = {m}")
            params.append(value)
    where = " AND ".join(clauses)
    total = conn.execute(f"SELECT count(*) FROM learning_objects WHERE {where}", params).fetchone()
    page_params = list(params)
    if after is not None:
        where += f" AND (created_us > {m} OR (created_us = {m} AND id > {m}))"
        page_params += [after[0], after[0], after[1]]
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM learning_objects WHERE {where} ORDER BY created_us, id LIMIT {m}",
        [*page_params, limit],
    ).fetchall()
    return [_object(r) for r in rows], int(total[0]) if total else 0


def latest_version(conn: Connection, d: Dialect, kind: str, series: str) -> int:
    row = conn.execute(
        f"SELECT max(version) FROM learning_objects WHERE kind = {d.mark} AND series = {d.mark}",
        (kind, series),
    ).fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def add_members(
    conn: Connection, d: Dialect, dataset_id: str, members: Sequence[dict[str, Any]]
) -> None:
    many(
        conn,
        "INSERT INTO dataset_members (dataset_id, position, polarity, exemplar_id, episode_id,"
        f" body, access_policy_id) VALUES ({d.marks(7)})",
        [
            (
                dataset_id,
                i,
                mem["polarity"],
                mem["exemplar_id"],
                mem["episode_id"],
                json.dumps(mem, ensure_ascii=False, sort_keys=True),
                mem.get("access_policy_id"),
            )
            for i, mem in enumerate(members)
        ],
    )


def members(
    conn: Connection, d: Dialect, dataset_id: str, after: int, limit: int
) -> list[dict[str, Any]]:
    """A dataset's members in order after position ``after``, each with its ``position``
    (the next page starts after the last one's: positions a caller may not read are
    gaps)."""
    rows = conn.execute(
        f"SELECT position, body FROM dataset_members WHERE dataset_id = {d.mark} AND position >"
        f" {d.mark} ORDER BY position LIMIT {d.mark}",
        (dataset_id, after, limit),
    ).fetchall()
    return [
        {**(body if isinstance(body, dict) else json.loads(body)), "position": int(position)}
        for position, body in rows
    ]


def member_counts(conn: Connection, d: Dialect, dataset_id: str) -> dict[str, int]:
    """How many members of each polarity (of those the caller reads)."""
    rows = conn.execute(
        f"SELECT polarity, count(*) FROM dataset_members WHERE dataset_id = {d.mark}"
        " GROUP BY polarity",
        (dataset_id,),
    ).fetchall()
    return {r[0]: int(r[1]) for r in rows}


def referenced_by_active_runs(conn: Connection, d: Dialect) -> set[str]:
    """The dataset ids a training run still running names (protected: not to be compressed
    or deleted while it runs)."""
    rows = conn.execute(
        f"SELECT body FROM learning_objects WHERE kind = 'training_run' AND status = {d.mark}",
        ("running",),
    ).fetchall()
    out: set[str] = set()
    for (raw,) in rows:
        body = raw if isinstance(raw, dict) else json.loads(raw)
        out.update(body.get("dataset_ids") or [])
    return out
