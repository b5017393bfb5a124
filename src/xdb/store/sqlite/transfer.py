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

from xdb.models.log_objects import Timestep
from xdb.store import access, graph_transfer, policy_objects, records
from xdb.store.import_dispatch import RecordImport
from xdb.store.records import EpisodeRecord, insert_new_episodes
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
# Timesteps gathered before they are written, one by one (each row's seq and counters
# follow the one before): a run's records stay in memory only that long.
TIMESTEP_BATCH = 2000
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
        return _Import(conn, made, TIMESTEP_BATCH, BATCH).run(records)
    finally:
        conn.execute(f"PRAGMA cache_size = {int(cache)}")


class _Import(RecordImport[sqlite3.Connection]):
    """``import_dispatch``'s walk, writing SQLite's rows: timesteps one by one (each takes
    the next seq), episodes with ``episodes.insert_many``."""

    _dialect = SQLITE
    _insert_ignore = "INSERT OR IGNORE INTO {table} ({columns}) VALUES ({marks})"
    _greatest = "max"
    _seq = 0  # the last timestep's seq: each one inserted takes the next

    def _begin(self) -> None:
        conn = self.conn
        self._seq = conn.execute("SELECT coalesce(max(seq), 0) FROM timesteps").fetchone()[0]
        # The import moves sessions' next ticks and counts one by one: rows must count every
        # timestep they are behind first, or a moved next_tick would skip some uncounted.
        sessions.settle(conn)

    def _finish(self) -> None:
        textindex.catch_up(self.conn)  # an import leaves the text index current

    def _dimension(self, model: str) -> int | None:
        return vector_rows.model_dimension(self.conn, model)

    def _insert_timesteps(self, batch: list[Timestep]) -> int:
        conn, seq = self.conn, self._seq
        added = 0
        for ts in batch:
            us = to_us(ts.timestamp)
            # A session first seen here starts at the time of its first timestep.
            conn.execute(
                "INSERT OR IGNORE INTO sessions (session_id, next_tick, created_us, last_us)"
                " VALUES (?, 1, ?, ?)",
                (ts.session_id, us, us),
            )
            cur = conn.execute(
                "INSERT OR IGNORE INTO timesteps (seq, session_id, tick, ts_us, event_type, role,"
                " content, token_id, event_id, event_start, event_end, activations, fidelity)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    seq + 1,
                    ts.session_id,
                    ts.tick,
                    us,
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
                    (ts.tick + 1, us, ts.session_id),
                )
            added += cur.rowcount
        self._seq = seq
        return added

    def _insert_episodes(self, batch: list[EpisodeRecord]) -> int:
        conn = self.conn

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
