"""Export every stored object as plain records, and import them back losslessly, on SQLite.

The record format, its validation and the export's order are ``xdb.store.records``,
shared with the PostgreSQL store, so an export from either store imports into the other.
Episode vectors (``vectors``) are read for an export that asks for them in batches of
episodes, and stored on import with the episodes inserted, a model's in one
``executemany`` per batch.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from functools import partial
from typing import Any

from xdb.gcpause import collector_paused
from xdb.models.log import Tag
from xdb.store import access, graph_transfer, policy_objects, records, rows
from xdb.store.records import (
    FORMAT,
    POLICY_KINDS,
    EpisodeRecord,
    SessionRecord,
    VectorDimensions,
    annotation_row,
    check_version,
    insert_new_episodes,
    unknown_kind,
)
from xdb.store.records import parse as _parse
from xdb.store.records import timestep as timestep_record
from xdb.store.sqlbuild import SQLITE, chunks
from xdb.store.sqlite import episodes, sessions, textindex
from xdb.store.sqlite import vectors as vector_rows
from xdb.store.sqlite.rows import TIMESTEP_COLUMNS
from xdb.store.types import Made
from xdb.timeutil import to_us

# Episodes inserted together (``episodes.insert_many``). A new episode next to one of an
# earlier batch of the same import re-indexes that one (its context changes): at 100k
# episodes in imports of 20,000, batches of 20,000 took ~11% less than batches of 5,000
# (two runs each, same machine).
# A batch's records stay in memory until it is written (~4 kB each with a 384-d vector).
BATCH = 20_000
IMPORT_CACHE_KIB = 256 * 1024  # the page cache an import may fill (what it writes, at most)

# Sessions with their uncounted timesteps added (``sessions``), in the order they were made.
_SESSIONS = "(SELECT made AS rowid, * FROM session_totals)"


def export_records(
    conn: sqlite3.Connection, restricted: bool = False, vectors: bool = False
) -> Iterator[dict[str, Any]]:
    """``restricted``: ``conn`` reads through a caller's views, and the export leaves out
    the policy objects and the objects' policies; ``vectors``: episode records carry
    their vectors (not in a restricted export)."""
    conn.execute("BEGIN")  # one snapshot for the whole export
    try:
        yield from records.export_records(
            conn.execute,
            "rowid",
            TIMESTEP_COLUMNS,
            episodes.COLUMNS,
            _SESSIONS,
            restricted,
            partial(vector_rows.vectors_of, conn) if vectors else None,
        )
        yield from graph_transfer.export_records(conn.execute)  # SQLite sorts text bytewise
        if not restricted:
            yield from policy_objects.export_records(conn.execute)
            yield from access.export_records(conn.execute)
    finally:
        conn.execute("COMMIT")


def import_records(
    conn: sqlite3.Connection, records: Iterable[dict[str, Any]], made: Made | None = None
) -> dict[str, int]:
    # A bulk write's pages stay in memory until the commit: with SQLite's default 2 MB cache
    # a 20k-episode import spilled pages mid-transaction, and its concept rows (three
    # B-trees filled in concept order) took 2.4x as long. The writer's usual size after.
    (cache,) = conn.execute("PRAGMA cache_size").fetchone()
    conn.execute(f"PRAGMA cache_size = {-IMPORT_CACHE_KIB}")
    try:
        with collector_paused():
            return _import_records(conn, records, made)
    finally:
        conn.execute(f"PRAGMA cache_size = {int(cache)}")


def _import_records(
    conn: sqlite3.Connection, records: Iterable[dict[str, Any]], made: Made | None
) -> dict[str, int]:
    counts = {k: 0 for k in ("session", "tag", "timestep", "tag_application", "comment")}
    # Counted only when the input has episodes, so a log-only import reports what it did.
    episode_count: int | None = None
    skipped = 0
    tag_ids: dict[str, str] = {}  # imported tag id -> stored id (same name and type)
    graph = graph_transfer.GraphImport(conn, SQLITE)
    seq = conn.execute("SELECT coalesce(max(seq), 0) FROM timesteps").fetchone()[0]
    # The import moves sessions' next ticks and counts one by one: rows must count every
    # timestep they are behind first, or a moved next_tick would skip some uncounted.
    sessions.settle(conn)
    pending: list[EpisodeRecord] = []  # a run of episode records, inserted together
    dimensions = VectorDimensions(partial(vector_rows.model_dimension, conn), made)

    def flush() -> None:
        nonlocal episode_count, skipped
        if pending:
            added = _insert_episodes(conn, pending)
            episode_count = (episode_count or 0) + added
            skipped += len(pending) - added
            pending.clear()

    for number, raw in enumerate(records, 1):
        kind = raw.get("kind")
        body = dict(raw)
        body.pop("kind", None)
        if kind == "episode":
            record = _parse(EpisodeRecord, body, number, kind)
            dimensions.check(record, number)
            pending.append(record)
            if len(pending) >= BATCH:
                flush()
            continue
        flush()  # keep the records' order: what follows may refer to these episodes
        if kind == FORMAT:
            check_version(raw, number)
            continue
        if kind == "session":
            s = _parse(SessionRecord, body, number, kind)
            cus, lus = to_us(s.created_at), to_us(s.last_at)
            cur = conn.execute(
                "INSERT OR IGNORE INTO sessions (session_id, next_tick, created_us, last_us)"
                " VALUES (?,?,?,?)",
                (s.session_id, s.next_tick, cus, lus),
            )
            conn.execute(
                "UPDATE sessions SET next_tick = max(next_tick, ?), last_us = max(last_us, ?)"
                " WHERE session_id = ?",
                (s.next_tick, lus, s.session_id),
            )
            counts["session"] += cur.rowcount
            skipped += 1 - cur.rowcount
        elif kind == "tag":
            t = _parse(Tag, body, number, kind)
            cur = conn.execute(
                f"INSERT OR IGNORE INTO tags ({rows.TAG_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
                rows.tag_values(t, to_us(t.created_at)),
            )
            stored = conn.execute(
                "SELECT id FROM tags WHERE tag_type = ? AND name = ?", (t.tag_type.value, t.name)
            ).fetchone()
            tag_ids[t.id] = stored[0] if stored else t.id
            counts["tag"] += cur.rowcount
            skipped += 1 - cur.rowcount
        elif kind == "timestep":
            ts = timestep_record(body, number)
            _ensure_session(conn, ts.session_id, to_us(ts.timestamp))
            cur = conn.execute(
                "INSERT OR IGNORE INTO timesteps (seq, session_id, tick, ts_us, event_type, role,"
                " content, token_id, event_id, event_start, event_end, activations, fidelity)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    seq + 1,
                    ts.session_id,
                    ts.tick,
                    to_us(ts.timestamp),
                    ts.event_type.value,
                    ts.role.value,
                    ts.content,
                    ts.token_id,
                    ts.event_id,
                    ts.event_start,
                    ts.event_end,
                    json.dumps(ts.concept_activations) if ts.concept_activations else None,
                    ts.fidelity.value,
                ),
            )
            if cur.rowcount:
                seq += 1
                conn.execute(
                    "UPDATE sessions SET next_tick = max(next_tick, ?), timesteps = timesteps + 1,"
                    " last_us = max(last_us, ?) WHERE session_id = ?",
                    (ts.tick + 1, to_us(ts.timestamp), ts.session_id),
                )
            counts["timestep"] += cur.rowcount
            skipped += 1 - cur.rowcount
        elif kind in ("tag_application", "comment"):
            table, columns, values = annotation_row(
                kind, body, number, tag_ids, lambda tag: _has_tag(conn, tag)
            )
            cur = conn.execute(
                f"INSERT OR IGNORE INTO {table} ({columns}) VALUES ({SQLITE.marks(len(values))})",
                values,
            )
            counts[kind] += cur.rowcount
            skipped += 1 - cur.rowcount
        elif kind in graph_transfer.KINDS:
            skipped += 1 - graph.add(kind, body, number)
        elif kind in POLICY_KINDS:
            added = POLICY_KINDS[kind](conn, SQLITE, body, number)
            counts[kind] = counts.get(kind, 0) + added
            skipped += 1 - added
        else:
            raise unknown_kind(kind, number)
    flush()
    textindex.catch_up(conn)  # an import leaves the text index current
    if episode_count is not None:
        counts["episode"] = episode_count
    return {**counts, **graph.counts, "skipped": skipped}


def _insert_episodes(conn: sqlite3.Connection, batch: list[EpisodeRecord]) -> int:
    def stored(ids: list[str]) -> set[str]:
        return {
            r[0]
            for part in chunks(ids)
            for r in conn.execute(
                f"SELECT id FROM episodes WHERE id IN ({SQLITE.marks(len(part))})", part
            )
        }

    return insert_new_episodes(
        batch,
        stored,
        partial(episodes.insert_many, conn),
        partial(vector_rows.insert_fresh, conn),  # the batch's own new episodes
    )


def _ensure_session(conn: sqlite3.Connection, session_id: str, ts_us: int) -> None:
    conn.execute(
        "INSERT OR IGNORE INTO sessions (session_id, next_tick, created_us, last_us)"
        " VALUES (?, 1, ?, ?)",
        (session_id, ts_us, ts_us),
    )


def _has_tag(conn: sqlite3.Connection, tag_id: str) -> bool:
    return conn.execute("SELECT 1 FROM tags WHERE id = ?", (tag_id,)).fetchone() is not None
