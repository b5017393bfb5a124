"""Fidelity in SQL, alike in both stores: holds (pins and submitted evidence) on timesteps,
the COLD records that stand for compacted and compressed experience, and compaction counts.

A record merged into a coarser one keeps its row (``merged_into`` names the new record; its
episode goes): a reply's row still says which ticks it covered and under which access
policy, which is what a tag, comment or exemplar on a compacted tick is read with
(``store/access.py``), and the rows trace every record's lineage.

A timestep's ``fidelity`` column is derived from its holds: ``submitted`` while any
submission holds it, else ``warm`` while any agent pins it, else ``hot``. Compaction deletes
HOT timesteps and writes one record per reply in the same transaction, so a timestep is
compacted exactly once; COLD is the records' tier. A record is also an episode (its id is
the episode's), so recall finds it like any other.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from xdb.store import placement
from xdb.store.sqlbuild import Connection, Dialect, Flavor, chunks

SCHEMA = """
CREATE TABLE timestep_holds (
    session_id TEXT NOT NULL,
    tick BIGINT NOT NULL,
    kind TEXT NOT NULL,
    holder TEXT NOT NULL,
    reason TEXT,
    tokens BIGINT NOT NULL,
    created_us BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    PRIMARY KEY (session_id, tick, kind, holder)
);
CREATE INDEX timestep_holds_holder ON timestep_holds (kind, holder);
CREATE TABLE memory_records (
    id TEXT PRIMARY KEY,
    level TEXT NOT NULL,
    namespace TEXT NOT NULL,
    session_id TEXT,
    tick_start BIGINT,
    tick_end BIGINT,
    start_us BIGINT NOT NULL,
    end_us BIGINT NOT NULL,
    tokens BIGINT NOT NULL,
    timesteps BIGINT NOT NULL,
    body TEXT NOT NULL,
    created_us BIGINT NOT NULL,
    access_policy_id TEXT,
    merged_into TEXT
);
CREATE INDEX memory_records_session ON memory_records (session_id, tick_start);
CREATE INDEX memory_records_level ON memory_records (level, end_us) WHERE merged_into IS NULL;
CREATE TABLE compactions (
    session_id TEXT PRIMARY KEY,
    count BIGINT NOT NULL,
    last_us BIGINT NOT NULL
)
"""
# On PostgreSQL a record's key is (namespace, id) (``xdb.store.postgres.schema``, version
# 18): a record is an episode, and lives on its episode's shard.
PLACES = placement.declared(
    SCHEMA,
    placement.distributed(
        "timestep_holds",
        "session_id",
        "pins and submissions on a session's ticks, set and read with them",
        colocate_with="sessions",
    ),
    placement.distributed(
        "memory_records",
        "namespace",
        "a COLD record is an episode (same id and namespace): it and its lineage sit with"
        " the episode, and what it replaces is read there",
        colocate_with="episodes",
    ),
    placement.distributed(
        "compactions",
        "session_id",
        "a session's count, moved in the compaction that deletes the session's ticks",
        colocate_with="sessions",
    ),
)
STATEMENTS = [s for s in SCHEMA.split(";") if s.strip()]

# A timestep's tokens: one for a model token (it has a token id), else the usual estimate
# for English under BPE tokenizers, a token per four characters (rounded up).
TOKENS = "(CASE WHEN token_id IS NOT NULL THEN 1 ELSE (length(content) + 3) / 4 END)"
PIN = "pin"
SUBMISSION = "submission"


def tokens_of(content: str, token_id: int | None) -> int:
    """``TOKENS`` in Python, for what was just recorded."""
    return 1 if token_id is not None else (len(content) + 3) // 4


def migrate(conn: Connection, d: Dialect) -> None:
    for statement in STATEMENTS:
        conn.execute(statement)


# ---------------------------------------------------------------------- holds


def ticks_present(
    conn: Connection, d: Dialect, session: str, ticks: Sequence[int]
) -> dict[int, tuple[int, str]]:
    """(tokens, fidelity) of each of ``ticks`` that exists in ``session``."""
    out: dict[int, tuple[int, str]] = {}
    m = d.mark
    for part in chunks(sorted(set(ticks))):
        params: list[Any] = [session]
        where = d.one_of("tick", part, params, "bigint")
        for tick, tokens, fidelity in conn.execute(
            f"SELECT tick, {TOKENS}, fidelity FROM timesteps WHERE session_id = {m} AND {where}",
            params,
        ):
            out[int(tick)] = (int(tokens), str(fidelity))
    return out


def add_holds(
    conn: Connection,
    d: Dialect,
    kind: str,
    holder: str,
    reason: str | None,
    session: str,
    ticks: dict[int, int],
    at: int,
    by: str,
) -> int:
    """Hold ``ticks`` (tick -> tokens) of ``session``; how many were not held already."""
    added = 0
    for tick, tokens in ticks.items():
        cur = conn.execute(
            "INSERT INTO timestep_holds (session_id, tick, kind, holder, reason, tokens,"
            f" created_us, created_by) VALUES ({d.marks(8)}) ON CONFLICT DO NOTHING",
            (session, tick, kind, holder, reason, tokens, at, by),
        )
        added += max(cur.rowcount, 0)
    refresh(conn, d, session, list(ticks))
    return added


def drop_holds(
    conn: Connection, d: Dialect, kind: str, holder: str, session: str, ticks: Sequence[int]
) -> int:
    removed = 0
    m = d.mark
    for part in chunks(sorted(set(ticks))):
        params: list[Any] = [kind, holder, session]
        where = d.one_of("tick", part, params, "bigint")
        cur = conn.execute(
            f"DELETE FROM timestep_holds WHERE kind = {m} AND holder = {m} AND session_id = {m}"
            f" AND {where}",
            params,
        )
        removed += max(cur.rowcount, 0)
    refresh(conn, d, session, ticks)
    return removed


def held_by(conn: Connection, d: Dialect, kind: str, holder: str) -> dict[str, list[int]]:
    """Per session, the ticks ``holder`` holds."""
    out: dict[str, list[int]] = {}
    for session, tick in conn.execute(
        f"SELECT session_id, tick FROM timestep_holds WHERE kind = {d.mark} AND holder = {d.mark}",
        (kind, holder),
    ):
        out.setdefault(str(session), []).append(int(tick))
    return out


def refresh(conn: Connection, d: Dialect, session: str, ticks: Sequence[int]) -> None:
    """Set the fidelity of ``ticks`` from their holds."""
    m = d.mark
    for part in chunks(sorted(set(ticks))):
        params: list[Any] = [session]
        where = d.one_of("tick", part, params, "bigint")
        conn.execute(
            "UPDATE timesteps SET fidelity = CASE"
            " WHEN EXISTS (SELECT 1 FROM timestep_holds h WHERE h.session_id ="
            " timesteps.session_id AND h.tick = timesteps.tick AND h.kind = 'submission')"
            " THEN 'submitted' WHEN EXISTS (SELECT 1 FROM timestep_holds h WHERE h.session_id ="
            " timesteps.session_id AND h.tick = timesteps.tick AND h.kind = 'pin') THEN 'warm'"
            f" ELSE 'hot' END WHERE session_id = {m} AND {where}",
            params,
        )


def warm_tokens(conn: Connection, d: Dialect, holder: str | None) -> int:
    """Tokens ``holder`` (None: anyone) pins that no submission holds (WARM use)."""
    who = "" if holder is None else f" AND h.holder = {d.mark}"
    distinct = "" if holder is not None else "DISTINCT "
    (total,) = conn.execute(
        f"SELECT coalesce(sum(tokens), 0) FROM (SELECT {distinct}h.session_id, h.tick, h.tokens"
        f" FROM timestep_holds h WHERE h.kind = 'pin'{who} AND NOT EXISTS (SELECT 1 FROM"
        " timestep_holds s WHERE s.session_id = h.session_id AND s.tick = h.tick AND"
        " s.kind = 'submission')) p",
        () if holder is None else (holder,),
    ).fetchone()
    return int(total)


def submitted_tokens(conn: Connection) -> int:
    (total,) = conn.execute(
        "SELECT coalesce(sum(tokens), 0) FROM (SELECT DISTINCT session_id, tick, tokens FROM"
        " timestep_holds WHERE kind = 'submission') s"
    ).fetchone()
    return int(total)


# ---------------------------------------------------------------------- the HOT window


def hot_window(conn: Connection, d: Dialect, session: str) -> tuple[int, int, int]:
    """(HOT tokens, current tick, compactions) of ``session``."""
    m = d.mark
    (tokens,) = conn.execute(
        f"SELECT coalesce(sum({TOKENS}), 0) FROM timesteps WHERE session_id = {m}"
        " AND fidelity = 'hot'",
        (session,),
    ).fetchone()
    (top,) = conn.execute(
        f"SELECT coalesce(max(tick), -1) FROM timesteps WHERE session_id = {m}", (session,)
    ).fetchone()
    row = conn.execute(
        f"SELECT count FROM compactions WHERE session_id = {m}", (session,)
    ).fetchone()
    return int(tokens), int(top), 0 if row is None else int(row[0])


def compaction_cutoff(conn: Connection, d: Dialect, session: str, keep_tokens: int) -> int:
    """The first tick to keep: HOT ticks below it hold every HOT token beyond the newest
    ``keep_tokens``; the session's newest tick is always kept (-1: nothing to compact)."""
    m = d.mark
    kept = 0
    newest = True
    cur = conn.execute(
        f"SELECT tick, {TOKENS} FROM timesteps WHERE session_id = {m} AND fidelity = 'hot'"
        " ORDER BY tick DESC",
        (session,),
    )
    for tick, tokens in cur:
        kept += int(tokens)
        if not newest and kept > keep_tokens:
            return int(tick) + 1
        newest = False
    return -1


# Not the activations: a reply's concepts are aggregated in SQL (``reply_concepts``), which
# reads their JSON in C instead of decoding ~10 pairs per tick in Python.
COMPACT_COLUMNS = "seq, tick, ts_us, event_type, event_id, content, token_id, access_policy_id"


def compactable(
    conn: Connection, d: Dialect, session: str, below: int, limit: int, after: int = -1
) -> list[tuple[Any, ...]]:
    """The oldest HOT ticks of ``session`` after ``after`` and below ``below``, in order, at
    most ``limit``."""
    m = d.mark
    return list(
        conn.execute(
            f"SELECT {COMPACT_COLUMNS} FROM timesteps WHERE session_id = {m}"
            f" AND fidelity = 'hot' AND tick > {m} AND tick < {m} ORDER BY tick"
            f" LIMIT {int(limit)}",
            (session, after, below),
        )
    )


def reply_concepts(
    conn: Connection, f: Flavor, session: str, spans: Sequence[tuple[int, int]], k: int
) -> list[dict[str, tuple[float, int]]]:
    """Per span (first, last tick) of ``session``'s HOT ticks: its ``k`` concepts of most
    weight, each with (its highest activation, the ticks carrying it). Weight is the two
    multiplied, ties broken by the concept id, as ``records.top_concepts`` ranks them: only
    these ``k`` can be a reply's concepts."""
    m = f.d.mark
    score = "max(CAST(j.value AS DOUBLE PRECISION))"
    sql = (
        f"SELECT j.key, {score}, count(*) FROM timesteps t, {f.json_each}"
        f" WHERE t.session_id = {m} AND t.fidelity = 'hot' AND t.tick BETWEEN {m} AND {m}"
        f" AND t.activations IS NOT NULL GROUP BY j.key"
        f" ORDER BY {score} * count(*) DESC, j.key{f.bytewise} LIMIT {int(k)}"
    )
    return [
        {str(key): (float(s), int(n)) for key, s, n in conn.execute(sql, (session, lo, hi))}
        for lo, hi in spans
    ]


def tick_annotations(
    conn: Connection, d: Dialect, session: str, lo: int, hi: int, events: Sequence[str]
) -> tuple[list[tuple[str, str | None, int | None, int | None, int | None]], list[str]]:
    """Tag applications touching ticks ``lo``..``hi`` of ``session`` (or its ``events``):
    (tag id, event id, tick, range start, range end) each, and the ids of comments there."""
    m = d.mark
    params: list[Any] = [session, lo, hi, hi, lo]
    ev_where = d.one_of("event_id", list(events) or [""], params)
    touching = (
        f"session_id = {m} AND ((tick BETWEEN {m} AND {m}) OR (range_start <= {m} AND"
        f" range_end >= {m}) OR {ev_where})"
    )
    tags = [
        (str(r[0]), r[1], r[2], r[3], r[4])
        for r in conn.execute(
            f"SELECT tag_id, event_id, tick, range_start, range_end FROM tag_applications"
            f" WHERE {touching}",
            params,
        )
    ]
    comments = [
        str(r[0]) for r in conn.execute(f"SELECT id FROM comments WHERE {touching}", params)
    ]
    return tags, comments


def exemplars_on(
    conn: Connection, d: Dialect, session: str, lo: int, hi: int
) -> list[dict[str, Any]]:
    """The exemplars on tick ranges touching ``lo``..``hi`` of ``session``, as labels."""
    m = d.mark
    return [
        {
            "id": r[0],
            "concept_id": r[1],
            "label": r[2],
            "confidence": r[3],
            "label_source": r[4],
            "access_policy_id": r[5],
        }
        for r in conn.execute(
            "SELECT id, concept_id, label, confidence, label_source, access_policy_id FROM"
            " exemplars"
            f" WHERE session_id = {m} AND tick_start <= {m} AND tick_end >= {m}",
            (session, hi, lo),
        )
    ]


# ---------------------------------------------------------------------- records


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
    if ticks[0] is not None:
        clauses.append(f"tick_end >= {m}")
        params.append(ticks[0])
    if ticks[1] is not None:
        clauses.append(f"tick_start <= {m}")
        params.append(ticks[1])
    if times[0] is not None:
        clauses.append(f"end_us >= {m}")
        params.append(times[0])
    if times[1] is not None:
        clauses.append(f"start_us <= {m}")
        params.append(times[1])
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
