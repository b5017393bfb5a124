"""The COLD records' rows, alike in both stores: a compacted reply or a compressed stretch is
one ``memory_records`` row (its level, span, access policy, the annotations it carries and
which coarser record it was merged into) beside its episode; and what maintenance reads of
them (candidates to compress, what retention keeps, visible ids). The tables are declared
with the rest of fidelity's (``store.fidelity``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from xdb.store.sqlbuild import Connection, Dialect, add_given, chunks


@dataclass
class RecordRow:
    """A COLD record as stored; ``body`` holds its tags, carried annotations and lineage."""

    id: str
    level: str
    namespace: str
    session_id: str | None
    tick_start: int | None
    tick_end: int | None
    start_us: int
    end_us: int
    tokens: int
    timesteps: int
    body: dict[str, Any] = field(default_factory=dict)
    created_us: int = 0
    access_policy_id: str | None = None
    merged_into: str | None = None


RECORD_COLUMNS = (
    "id, level, namespace, session_id, tick_start, tick_end, start_us, end_us, tokens,"
    " timesteps, body, created_us, access_policy_id, merged_into"
)
LIVE = "merged_into IS NULL"


def record_values(r: RecordRow) -> tuple[Any, ...]:
    return (
        r.id,
        r.level,
        r.namespace,
        r.session_id,
        r.tick_start,
        r.tick_end,
        r.start_us,
        r.end_us,
        r.tokens,
        r.timesteps,
        json.dumps(r.body, sort_keys=True, ensure_ascii=False),
        r.created_us,
        r.access_policy_id,
        r.merged_into,
    )


def record_row(r: Sequence[Any]) -> RecordRow:
    return RecordRow(
        str(r[0]),
        str(r[1]),
        str(r[2]),
        r[3],
        None if r[4] is None else int(r[4]),
        None if r[5] is None else int(r[5]),
        int(r[6]),
        int(r[7]),
        int(r[8]),
        int(r[9]),
        r[10] if isinstance(r[10], dict) else json.loads(r[10]),
        int(r[11]),
        r[12],
        r[13],
    )


def insert_record(conn: Connection, d: Dialect, r: RecordRow) -> None:
    conn.execute(
        f"INSERT INTO memory_records ({RECORD_COLUMNS}) VALUES ({d.marks(14)})", record_values(r)
    )


def count_compaction(conn: Connection, d: Dialect, session: str, at: int) -> None:
    conn.execute(
        f"INSERT INTO compactions (session_id, count, last_us) VALUES ({d.marks(3)})"
        " ON CONFLICT (session_id) DO UPDATE SET count = compactions.count + 1,"
        " last_us = excluded.last_us",
        (session, 1, at),
    )


def records_where(
    conn: Connection,
    d: Dialect,
    sessions: Sequence[str] | None,
    ticks: tuple[int | None, int | None],
    times: tuple[int | None, int | None],
    descending: bool,
    limit: int,
) -> list[RecordRow]:
    """Records of ``sessions`` (None: any) overlapping the tick and time ranges (a None
    bound is open), by start time."""
    m = d.mark
    params: list[Any] = []
    clauses = [LIVE]
    if sessions is not None:
        clauses.append(d.one_of("session_id", list(sessions), params))
    add_given(
        clauses,
        params,
        (
            (f"tick_end >= {m}", ticks[0]),
            (f"tick_start <= {m}", ticks[1]),
            (f"end_us >= {m}", times[0]),
            (f"start_us <= {m}", times[1]),
        ),
    )
    where = " AND ".join(clauses) or "1 = 1"
    order = "DESC" if descending else "ASC"
    return [
        record_row(r)
        for r in conn.execute(
            f"SELECT {RECORD_COLUMNS} FROM memory_records WHERE {where}"
            f" ORDER BY start_us {order}, id {order} LIMIT {int(limit)}",
            params,
        )
    ]


def records_by_ids(
    conn: Connection, d: Dialect, ids: Sequence[str], merged: bool = False
) -> dict[str, RecordRow]:
    """The live records among ``ids`` (``merged``: and those merged away)."""
    out: dict[str, RecordRow] = {}
    live = "" if merged else f" AND {LIVE}"
    for part in chunks(list(ids)):
        params: list[Any] = []
        where = d.one_of("id", part, params)
        for r in conn.execute(
            f"SELECT {RECORD_COLUMNS} FROM memory_records WHERE {where}{live}", params
        ):
            row = record_row(r)
            out[row.id] = row
    return out


def repoint(conn: Connection, d: Dialect, old: str, new: str) -> None:
    """What hangs on episode ``old`` (its exemplars, its stored graph edges) moves to
    ``new``, which replaces it: a merged record keeps them."""
    m = d.mark
    conn.execute(f"UPDATE exemplars SET episode_id = {m} WHERE episode_id = {m}", (new, old))
    for end, other in (("src", "dst"), ("dst", "src")):
        conn.execute(
            f"UPDATE graph_edges SET {end} = {m} WHERE {end} = {m} AND NOT EXISTS (SELECT 1"
            f" FROM graph_edges g WHERE g.{end} = {m} AND g.relation = graph_edges.relation"
            f" AND g.{other} = graph_edges.{other})",
            (new, old, new),
        )


# ---------------------------------------------------------------------- maintenance

CANDIDATE_COLUMNS = "id, namespace, session_id, start_us, end_us, access_policy_id"


def candidates(
    conn: Connection, d: Dialect, level: str | None, before_us: int, limit: int
) -> list[tuple[str, str, str | None, int, int, str | None]]:
    """What may be merged next, oldest first: records of ``level`` that ended before
    ``before_us``, or (``level`` None) full episodes (no record) that did."""
    m = d.mark
    if level is None:
        sql = (
            # A record shares its episode's namespace: joined on it too, the check stays
            # on the episode's shard (docs/scaling.md).
            f"SELECT {CANDIDATE_COLUMNS} FROM episodes e WHERE end_us < {m} AND NOT EXISTS"
            " (SELECT 1 FROM memory_records r WHERE r.namespace = e.namespace AND r.id = e.id)"
            " ORDER BY start_us, seq"
            f" LIMIT {int(limit)}"
        )
        params: tuple[Any, ...] = (before_us,)
    else:
        sql = (
            f"SELECT {CANDIDATE_COLUMNS} FROM memory_records WHERE level = {m} AND end_us < {m}"
            f" AND {LIVE}"
            f" ORDER BY start_us, id LIMIT {int(limit)}"
        )
        params = (level, before_us)
    return [
        (str(r[0]), str(r[1]), r[2], int(r[3]), int(r[4]), r[5]) for r in conn.execute(sql, params)
    ]


def retained(conn: Connection) -> tuple[set[str], set[str]]:
    """(episodes frozen into a dataset, sessions holding an incident): what maintenance
    keeps whole (XDB section 8.5)."""
    members = {str(r[0]) for r in conn.execute("SELECT DISTINCT episode_id FROM dataset_members")}
    incidents = {
        str(r[0])
        for r in conn.execute(
            "SELECT DISTINCT session_id FROM episodes WHERE kind = 'incident'"
            " AND session_id IS NOT NULL"
        )
    }
    return members, incidents


def cold_timesteps(conn: Connection) -> int:
    """Timesteps compacted into the records there are now."""
    (total,) = conn.execute(
        f"SELECT coalesce(sum(timesteps), 0) FROM memory_records WHERE {LIVE}"
    ).fetchone()
    return int(total)


def record_levels(conn: Connection, d: Dialect, concept_ids: Sequence[str]) -> dict[int, str]:
    """seq -> level of the records carrying any of ``concept_ids``."""
    out: dict[int, str] = {}
    for part in chunks(list(concept_ids)):
        params: list[Any] = []
        where = d.one_of("c.concept_id", part, params)
        for seq, level in conn.execute(
            "SELECT c.episode_seq, r.level FROM episode_concepts c JOIN memory_records r"
            f" ON r.namespace = c.namespace AND r.id = c.episode_id WHERE {where}",
            params,
        ):
            out[int(seq)] = str(level)
    return out


def repoint_ticks(
    conn: Connection, d: Dialect, session: str, ticks: Sequence[int], record_id: str
) -> None:
    """Stored graph edges on compacted ticks (``ts-<session>-<tick>`` nodes) move to the
    record that replaced them."""
    nodes = [f"ts-{session}-{t}" for t in ticks]
    m = d.mark
    for end, other in (("src", "dst"), ("dst", "src")):
        for part in chunks(nodes):
            params: list[Any] = [record_id]
            where = d.one_of(end, part, params)
            params.append(record_id)
            conn.execute(
                f"UPDATE graph_edges SET {end} = {m} WHERE {where} AND NOT EXISTS (SELECT 1"
                f" FROM graph_edges g WHERE g.{end} = {m} AND g.relation ="
                f" graph_edges.relation AND g.{other} = graph_edges.{other})",
                params,
            )


_TABLES = {"comment": "comments", "exemplar": "exemplars"}


def visible_ids(conn: Connection, d: Dialect, kind: str, ids: Sequence[str]) -> set[str]:
    """Those of ``ids`` that exist in ``kind``'s table (through a reader's views)."""
    out: set[str] = set()
    for part in chunks(list(ids)):
        params: list[Any] = []
        where = d.one_of("id", part, params)
        out |= {
            str(r[0]) for r in conn.execute(f"SELECT id FROM {_TABLES[kind]} WHERE {where}", params)
        }
    return out
