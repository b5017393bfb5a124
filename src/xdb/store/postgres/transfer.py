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

from xdb.models.log_objects import Timestep
from xdb.store import access, graph_transfer, policy_objects, records
from xdb.store.import_dispatch import RecordImport
from xdb.store.postgres import episodes, vector_index
from xdb.store.postgres import vectors as vector_rows
from xdb.store.postgres.connection import Conn, lock_episodes
from xdb.store.postgres.rows import TIMESTEP_COLUMNS
from xdb.store.records import EpisodeRecord, insert_new_episodes
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


def import_records(
    conn: Conn, records: Iterable[dict[str, Any]], made: Made | None = None
) -> dict[str, int]:
    """Restore exported records; call inside a write transaction."""
    return _Import(conn, made, BATCH, BATCH).run(records)


class _Import(RecordImport[Conn]):
    """``import_dispatch``'s walk, writing PostgreSQL's rows: a batch of timesteps or of
    episodes in a few statements whatever its size."""

    _dialect = POSTGRES
    _insert_ignore = "INSERT INTO {table} ({columns}) VALUES ({marks}) ON CONFLICT DO NOTHING"
    _greatest = "greatest"

    def _begin(self) -> None:
        # Before any session row: writers that take both locks take this one first.
        lock_episodes(self.conn)

    def _dimension(self, model: str) -> int | None:
        """The dimension of ``model``'s stored vectors (its index's registry row)."""
        found = vector_index.lookup(self.conn, model)
        return None if found is None else found.dimension

    def _insert_timesteps(self, batch: list[Timestep]) -> int:
        conn = self.conn
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

    def _insert_episodes(self, batch: list[EpisodeRecord]) -> int:
        conn = self.conn

        def stored(ids: list[str]) -> set[str]:
            return {
                r[0] for r in conn.execute("SELECT id FROM episodes WHERE id = ANY(%s)", (ids,))
            }

        return insert_new_episodes(
            batch,
            stored,
            partial(episodes.insert_many, conn),
            partial(vector_rows.store_vectors, conn),
        )

    def _insert_annotation(self, table: str, columns: str, values: tuple[Any, ...]) -> int:
        """The schema keeps ids unique per session (the distribution column leads the
        primary key); the NOT EXISTS keeps them unique across sessions, as the export
        promises."""
        marks = ",".join(["%s"] * len(values))
        return int(
            self.conn.execute(
                f"INSERT INTO {table} ({columns}) SELECT {marks}"
                f" WHERE NOT EXISTS (SELECT 1 FROM {table} WHERE id = %s) ON CONFLICT DO NOTHING",
                (*values, values[0]),
            ).rowcount
        )
