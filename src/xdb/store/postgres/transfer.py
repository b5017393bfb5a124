"""Export every stored object as plain records, and import them back, on PostgreSQL.

The record format, its validation and the export's order are ``xdb.store.records``,
shared with the SQLite store, so an export from either store imports into the other.
The export reads one REPEATABLE READ snapshot through server-side cursors, so memory stays
flat however large the database. The import is one transaction; runs of timesteps (nearly
all of any real export) and of episodes go in batches rather than a statement or ten each,
and so do the vectors an episode record carries (``vectors.store_vectors``: one statement
per model and batch) and those an export asked for reads (one query per batch of episodes).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from functools import partial
from typing import Any

from xdb.gcpause import collector_paused
from xdb.models.log import Tag, Timestep
from xdb.store import access, graph_transfer, policy_objects, records, rows
from xdb.store.postgres import episodes, vector_index
from xdb.store.postgres import vectors as vector_rows
from xdb.store.postgres.connection import Conn, lock_episodes
from xdb.store.postgres.rows import TIMESTEP_COLUMNS
from xdb.store.records import (
    FORMAT,
    POLICY_KINDS,
    EpisodeRecord,
    SessionRecord,
    VectorDimensions,
    annotation_row,
    check_version,
    insert_new_episodes,
    parse,
    unknown_kind,
)
from xdb.store.records import timestep as timestep_record
from xdb.store.sqlbuild import POSTGRES
from xdb.store.types import Made
from xdb.timeutil import to_us

BATCH = 2000  # timesteps per insert, and rows per fetch from an export cursor


def _stream(conn: Conn, sql: str) -> Iterator[tuple[Any, ...]]:
    with conn.cursor(name="xdb_export") as cur:
        cur.itersize = BATCH
        cur.execute(sql)
        yield from cur


def export_records(
    conn: Conn, restricted: bool = False, vectors: bool = False
) -> Iterator[dict[str, Any]]:
    """Call inside a snapshot transaction. ``restricted``: ``conn`` reads through a caller's
    views, and the export leaves out the policy objects and the objects' policies;
    ``vectors``: episode records carry their vectors (not in a restricted export)."""
    yield from records.export_records(
        lambda sql: _stream(conn, sql),
        "pos",
        TIMESTEP_COLUMNS,
        episodes.COLUMNS,
        restricted=restricted,
        read_vectors=partial(vector_rows.vectors_of, conn) if vectors else None,
    )
    # Text sorted bytewise, as SQLite sorts it: an export lists them alike from either store.
    yield from graph_transfer.export_records(lambda sql: _stream(conn, sql), ' COLLATE "C"')
    if not restricted:
        yield from policy_objects.export_records(lambda sql: _stream(conn, sql))
        yield from access.export_records(lambda sql: _stream(conn, sql))


def _insert_timesteps(conn: Conn, batch: list[Timestep]) -> int:
    """Insert the timesteps not stored yet (by session and tick), in order, keeping each
    session's counters as ``record`` would; how many were inserted."""
    if not batch:
        return 0
    # Sessions first seen here start as an import of the SQLite store starts them: at the
    # time of their first timestep. Appearance order keeps their listing order the same.
    first: dict[str, int] = {}
    for ts in batch:
        first.setdefault(ts.session_id, to_us(ts.timestamp))
    conn.execute(
        "INSERT INTO sessions (session_id, next_tick, created_us, last_us)"
        " SELECT s, 1, t, t FROM unnest(%s::text[], %s::bigint[]) WITH ORDINALITY AS u(s, t, o)"
        " ORDER BY o ON CONFLICT DO NOTHING",
        (list(first), list(first.values())),
    )
    inserted = conn.execute(
        "INSERT INTO timesteps (session_id, tick, ts_us, event_type, role, content, token_id,"
        " event_id, event_start, event_end, activations, fidelity)"
        " SELECT s, k, t, et, r, c, tok, ev, es, ee, a::json, f FROM unnest(%s::text[],"
        " %s::bigint[], %s::bigint[], %s::text[], %s::text[], %s::text[], %s::bigint[],"
        " %s::text[], %s::bool[], %s::bool[], %s::text[], %s::text[])"
        " WITH ORDINALITY AS u(s, k, t, et, r, c, tok, ev, es, ee, a, f, o) ORDER BY o"
        " ON CONFLICT (session_id, tick) DO NOTHING RETURNING session_id, tick, ts_us",
        (
            [ts.session_id for ts in batch],
            [ts.tick for ts in batch],
            [to_us(ts.timestamp) for ts in batch],
            [ts.event_type.value for ts in batch],
            [ts.role.value for ts in batch],
            [ts.content for ts in batch],
            [ts.token_id for ts in batch],
            [ts.event_id for ts in batch],
            [ts.event_start for ts in batch],
            [ts.event_end for ts in batch],
            [
                json.dumps(ts.concept_activations) if ts.concept_activations else None
                for ts in batch
            ],
            [ts.fidelity.value for ts in batch],
        ),
    ).fetchall()
    if inserted:
        conn.execute(
            "UPDATE sessions s SET next_tick = greatest(s.next_tick, u.top + 1),"
            " timesteps = s.timesteps + u.n, last_us = greatest(s.last_us, u.last)"
            " FROM (SELECT sid, max(tick) AS top, count(*) AS n, max(ts) AS last"
            " FROM unnest(%s::text[], %s::bigint[], %s::bigint[]) AS x(sid, tick, ts)"
            " GROUP BY sid) u WHERE s.session_id = u.sid",
            (
                [r[0] for r in inserted],
                [r[1] for r in inserted],
                [r[2] for r in inserted],
            ),
        )
    return len(inserted)


def import_records(
    conn: Conn, records: Iterable[dict[str, Any]], made: Made | None = None
) -> dict[str, int]:
    """Restore exported records; call inside a write transaction."""
    with collector_paused():  # (``xdb.gcpause``: why)
        return _import_records(conn, records, made)


def _import_records(
    conn: Conn, records: Iterable[dict[str, Any]], made: Made | None
) -> dict[str, int]:
    # Before any session row: writers that take both locks take this one first.
    lock_episodes(conn)
    counts = {k: 0 for k in ("session", "tag", "timestep", "tag_application", "comment")}
    episode_count: int | None = None
    skipped = 0
    tag_ids: dict[str, str] = {}  # imported tag id -> stored id (same name and type)
    graph = graph_transfer.GraphImport(conn, POSTGRES)
    pending: list[Timestep] = []
    pending_episodes: list[EpisodeRecord] = []
    dimensions = VectorDimensions(lambda model: _dimension(conn, model), made)

    def flush() -> None:
        nonlocal skipped, episode_count
        if pending:
            added = _insert_timesteps(conn, pending)
            counts["timestep"] += added
            skipped += len(pending) - added
            pending.clear()
        if pending_episodes:
            added = _insert_episodes(conn, pending_episodes)
            episode_count = (episode_count or 0) + added
            skipped += len(pending_episodes) - added
            pending_episodes.clear()

    for number, raw in enumerate(records, 1):
        kind = raw.get("kind")
        body = dict(raw)
        body.pop("kind", None)
        if kind == "timestep":
            if pending_episodes:
                flush()
            pending.append(timestep_record(body, number))
            if len(pending) >= BATCH:
                flush()
            continue
        if kind == "episode":
            if pending:
                flush()
            record = parse(EpisodeRecord, body, number, kind)
            dimensions.check(record, number)
            pending_episodes.append(record)
            if len(pending_episodes) >= BATCH:
                flush()
            continue
        flush()  # keep the records' order: what follows may refer to these timesteps
        if kind == FORMAT:
            check_version(raw, number)
        elif kind == "session":
            s = parse(SessionRecord, body, number, kind)
            cus, lus = to_us(s.created_at), to_us(s.last_at)
            added = conn.execute(
                "INSERT INTO sessions (session_id, next_tick, created_us, last_us)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                (s.session_id, s.next_tick, cus, lus),
            ).rowcount
            conn.execute(
                "UPDATE sessions SET next_tick = greatest(next_tick, %s),"
                " last_us = greatest(last_us, %s) WHERE session_id = %s",
                (s.next_tick, lus, s.session_id),
            )
            counts["session"] += added
            skipped += 1 - added
        elif kind == "tag":
            t = parse(Tag, body, number, kind)
            added = conn.execute(
                f"INSERT INTO tags ({rows.TAG_COLUMNS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)"
                " ON CONFLICT DO NOTHING",
                rows.tag_values(t, to_us(t.created_at)),
            ).rowcount
            stored = conn.execute(
                "SELECT id FROM tags WHERE tag_type = %s AND name = %s",
                (t.tag_type.value, t.name),
            ).fetchone()
            tag_ids[t.id] = stored[0] if stored else t.id
            counts["tag"] += added
            skipped += 1 - added
        elif kind in ("tag_application", "comment"):
            table, columns, values = annotation_row(
                kind, body, number, tag_ids, lambda tag: _has_tag(conn, tag)
            )
            added = _insert_new(conn, table, columns, values)
            counts[kind] += added
            skipped += 1 - added
        elif kind in graph_transfer.KINDS:
            skipped += 1 - graph.add(kind, body, number)
        elif kind in POLICY_KINDS:
            added = POLICY_KINDS[kind](conn, POSTGRES, body, number)
            counts[kind] = counts.get(kind, 0) + added
            skipped += 1 - added
        else:
            raise unknown_kind(kind, number)
    flush()
    if episode_count is not None:
        counts["episode"] = episode_count
    return {**counts, **graph.counts, "skipped": skipped}


def _insert_episodes(conn: Conn, batch: list[EpisodeRecord]) -> int:
    def stored(ids: list[str]) -> set[str]:
        return {r[0] for r in conn.execute("SELECT id FROM episodes WHERE id = ANY(%s)", (ids,))}

    return insert_new_episodes(
        batch,
        stored,
        partial(episodes.insert_many, conn),
        partial(vector_rows.store_vectors, conn),
    )


def _dimension(conn: Conn, model: str) -> int | None:
    """The dimension of ``model``'s stored vectors (its index's registry row; None: none)."""
    found = vector_index.lookup(conn, model)
    return None if found is None else found.dimension


def _insert_new(conn: Conn, table: str, columns: str, values: tuple[Any, ...]) -> int:
    """Insert one row unless a row with its id (the first value) is stored; 1 if inserted.
    The schema keeps ids unique per session (the distribution column leads the primary
    key); the NOT EXISTS keeps them unique across sessions, as the export promises."""
    marks = ",".join(["%s"] * len(values))
    return int(
        conn.execute(
            f"INSERT INTO {table} ({columns}) SELECT {marks}"
            f" WHERE NOT EXISTS (SELECT 1 FROM {table} WHERE id = %s) ON CONFLICT DO NOTHING",
            (*values, values[0]),
        ).rowcount
    )


def _has_tag(conn: Conn, tag_id: str) -> bool:
    return conn.execute("SELECT 1 FROM tags WHERE id = %s", (tag_id,)).fetchone() is not None
