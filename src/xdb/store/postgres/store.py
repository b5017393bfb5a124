"""PostgresStore: the shared store behind the ``Store`` protocol, on PostgreSQL + pgvector."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from xdb.ids import timestep_id
from xdb.models.log_objects import SessionSummary, Timestep
from xdb.store import access, audit, audit_bodies, row_models
from xdb.store.capability_methods import CapabilityMethods
from xdb.store.episode_reads import EpisodeReads
from xdb.store.event_episodes import close_events, event_sql
from xdb.store.fidelity_methods import EpisodeHooks
from xdb.store.log_queries import LogQueries
from xdb.store.postgres import episodes, transfer
from xdb.store.postgres.connection import (
    SESSION_LOCK,
    CallConnections,
    Conn,
    Connections,
    lock_episodes,
    redacted,
)
from xdb.store.postgres.episode_methods import EpisodeMethods
from xdb.store.postgres.query import page_sql
from xdb.store.postgres.rows import TIMESTEP_COLUMNS
from xdb.store.row_models import SESSION_COLUMNS
from xdb.store.sqlbuild import POSTGRES, Flavor
from xdb.store.types import Made, NewEpisode, NewTimestep, TimestepFilter
from xdb.timeutil import now_us

T = TypeVar("T")

# One statement appends a batch: it claims each session's row (creating it if new) and
# moves its counters, then inserts the timesteps with ticks counted from the row's old
# next_tick. The row lock it takes is held to commit, so concurrent writers to a session
# queue there and never share a tick; rows are claimed in session-id order, so two
# batches spanning the same sessions cannot deadlock. ``pos`` (the listing order of
# sessions) is drawn in order of first appearance in the batch, as the SQLite store's
# rowid is. Ticks: ``rel`` is a timestep's offset among its session's timesteps in the
# batch minus their count, so ``new next_tick + rel`` counts up from the old next_tick.
_RECORD_SQL = """
WITH s AS (
    INSERT INTO sessions AS x (session_id, next_tick, created_us, last_us, timesteps, pos,
        origin)
    SELECT sid, n + 1, first_us, last_us, n, pos, origin FROM (
        SELECT sid, n, first_us, last_us, origin, nextval('sessions_pos') AS pos FROM (
            SELECT * FROM unnest(%s::text[], %s::bigint[], %s::bigint[], %s::bigint[],
                %s::text[]) WITH ORDINALITY AS u(sid, n, first_us, last_us, origin, o)
                ORDER BY o
        ) appearing
    ) numbered ORDER BY sid
    ON CONFLICT (session_id) DO UPDATE SET next_tick = x.next_tick + excluded.timesteps,
        last_us = greatest(x.last_us, excluded.last_us),
        timesteps = x.timesteps + excluded.timesteps
    RETURNING session_id, next_tick
), t AS (
    INSERT INTO timesteps (session_id, tick, ts_us, event_type, role, content, token_id,
        event_id, event_start, event_end, activations)
    SELECT u.sid, s.next_tick + u.rel, u.ts, u.et, u.r, u.c, u.tok, u.ev, u.es, u.ee, u.a::json
    FROM unnest(%s::text[], %s::bigint[], %s::bigint[], %s::text[], %s::text[], %s::text[],
        %s::bigint[], %s::text[], %s::bool[], %s::bool[], %s::text[])
        WITH ORDINALITY AS u(sid, rel, ts, et, r, c, tok, ev, es, ee, a, o)
    JOIN s ON s.session_id = u.sid ORDER BY u.o
)
SELECT session_id, next_tick FROM s
"""
# A handle's default session: the most recently active one that no hook made (its origin).
_LATEST_SESSION = (
    "SELECT session_id FROM sessions WHERE origin IS NULL ORDER BY last_us DESC, pos DESC LIMIT 1"
)
_NEW_SESSION = (
    "INSERT INTO sessions (session_id, next_tick, created_us, last_us, timesteps)"
    " VALUES (%s, 1, %s, %s, 0) ON CONFLICT (session_id) DO NOTHING"
)
_EVENT_SQL = event_sql(TIMESTEP_COLUMNS, POSTGRES)


def _record(conn: Conn, items: Sequence[NewTimestep]) -> list[tuple[str, int]]:
    # Per session, in order of first appearance: [timesteps, first ts_us, latest ts_us],
    # and the origin it is made with if new (its first timestep's).
    state: dict[str, list[int]] = {}
    origins: list[str | None] = []
    offsets = []
    for it in items:
        st = state.get(it.session_id)
        if st is None:
            st = state[it.session_id] = [0, it.ts_us, 0]
            origins.append(it.session_origin)
        offsets.append(st[0])
        st[0] += 1
        if it.ts_us > st[2]:
            st[2] = it.ts_us
    rel = [off - state[it.session_id][0] for off, it in zip(offsets, items, strict=True)]
    found = conn.execute(
        _RECORD_SQL,
        (
            list(state),
            [st[0] for st in state.values()],
            [st[1] for st in state.values()],
            [st[2] for st in state.values()],
            origins,
            [it.session_id for it in items],
            rel,
            [it.ts_us for it in items],
            [it.event_type for it in items],
            [it.role for it in items],
            [it.content for it in items],
            [it.token_id for it in items],
            [it.event_id for it in items],
            [it.event_start for it in items],
            [it.event_end for it in items],
            [
                row_models.activations_json(it.activations) if it.activations else None
                for it in items
            ],
        ),
    ).fetchall()
    next_tick = {str(sid): int(n) for sid, n in found}
    out = []
    for it, r in zip(items, rel, strict=True):
        tick = next_tick[it.session_id] + r
        out.append((timestep_id(it.session_id, tick), tick))
    return out


def _delete_hot(conn: Conn, session: str, ticks: Sequence[int]) -> int:
    cur = conn.execute(
        "DELETE FROM timesteps WHERE session_id = %s AND fidelity = 'hot'"
        " AND tick = ANY(%s::bigint[])",
        (session, list(ticks)),
    )
    return max(cur.rowcount, 0)


class PostgresStore(LogQueries, EpisodeMethods, EpisodeReads, CapabilityMethods):
    backend = "postgresql"
    # Concept rows join their episodes on the distribution column too (as in search).
    _flavor = Flavor(
        POSTGRES,
        "e.namespace = c.namespace AND e.seq = c.episode_seq",
        "json_each_text(t.activations) j",
        timesteps=TIMESTEP_COLUMNS,
        episodes=episodes.COLUMNS,
        text_change_join="e.namespace = c.namespace AND e.seq = c.seq",
        context_view=None,
        latest_session=_LATEST_SESSION,
        new_session=_NEW_SESSION,
    )
    _episode_hooks = EpisodeHooks(episodes.insert, episodes.delete, lock_episodes, _delete_hot)

    def _on_reader(self, fn: Callable[[Conn], T]) -> T:
        return self._db.read(fn)

    def _in_transaction(self, fn: Callable[[Conn], T]) -> T:
        return self._db.write(fn)

    def __init__(self, url: str, *, pool_size: int = 10) -> None:
        self.location = redacted(url)  # shown by status: never the password
        self.text_index_path: str | None = None  # each process keeps its own (see Store)
        self._db: Connections | CallConnections = Connections(url, pool_size)
        # Caches every binding of this store shares (``store.binding``): changed in place.
        self._vector_models = {}
        self._capabilities: dict[str, bool] = {}

    def __repr__(self) -> str:
        return f"PostgresStore({self.location!r})"

    def _bound(self) -> None:
        base = self._db.base if isinstance(self._db, CallConnections) else self._db
        self._db = CallConnections(base, self._readable, self._pending)

    @property
    def closed(self) -> bool:
        return self._db.closed

    def close(self) -> None:
        self._db.close()

    # ------------------------------------------------------------------ writes

    def record(
        self,
        items: Sequence[NewTimestep],
        close_event: Callable[[Sequence[Timestep]], NewEpisode] | None = None,
        audit_by: tuple[str, str] | None = None,
    ) -> list[tuple[str, int]]:
        if not items:
            return []
        ended = access.ended_events(items)
        makes_episodes = close_event is not None and bool(ended)
        audited_at = now_us()
        placed = any(it.access_policy_id is not None for it in items)

        if not makes_episodes and audit_by is None and not placed:
            return self._db.write(lambda conn: _record(conn, items), one_statement=True)

        def job(conn: Conn) -> list[tuple[str, int]]:
            if makes_episodes:
                lock_episodes(conn)  # before the session rows, as every writer of both does
            out = _record(conn, items)
            if placed:
                access.assign_recorded(conn, POSTGRES, items, out)
            if close_event is not None:
                close_events(conn, _EVENT_SQL, ended, close_event, episodes.insert)
            if audit_by is not None:  # the audit log's copy, in the same transaction
                entries = audit_bodies.timestep_entries(items, out, audit_by, audited_at)
                audit.append(conn, POSTGRES, entries, lock=True)
            return out

        return self._db.write(job)

    # ------------------------------------------------------------------ reads

    def claim_session(self, candidate: str, ts_us: int) -> str:
        def job(conn: Conn) -> str:
            # One lock for every first-session decision, held to commit: processes starting
            # on an empty database take turns, and the later ones find the first one's.
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SESSION_LOCK,))
            return self._claim(conn, candidate, ts_us)

        return self._db.write(job)

    def query(
        self, flt: TimestepFilter, after: tuple[int, int] | None, limit: int
    ) -> tuple[list[Timestep], int, tuple[int, int] | None]:
        sql, params, count_sql, count_params = page_sql(TIMESTEP_COLUMNS, flt, after, limit + 1)
        # One snapshot: the page and the count agree. The text index is the generated
        # column, current at every commit, so there is nothing to catch up first.
        with self._db.snapshot() as conn:
            found = conn.execute(sql, params).fetchall()
            row = conn.execute(count_sql, count_params).fetchone()
        total = int(row[0]) if row else 0
        more = len(found) > limit
        found = found[:limit]
        next_key = (int(found[-1][3]), int(found[-1][0])) if more else None
        return [row_models.timestep(r) for r in found], total, next_key

    def storage_bytes(self, live: bool = False) -> int:
        """The relation sizes (tables, their indexes and TOAST) of this database's schema;
        ``live`` alike (a relation's free space is reused, not returned: see reclaim)."""
        row = self.unrestricted()._db.read(
            lambda c: c.execute(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
                " JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')"
            ).fetchone()
        )
        return int(row[0]) if row else 0

    # Relation sizes keep a deleted row's space until VACUUM FULL: maintenance estimates what
    # it freed instead of reading it back (``fidelity/compression.py``).
    live_bytes_exact = False

    def reclaim_space(self, full: bool = False) -> None:
        """VACUUM the schema's tables: dead rows' space is reused, trailing pages returned;
        ``full`` rewrites each table (VACUUM FULL: the files shrink, each table locked while
        it is rewritten)."""
        verb = "VACUUM FULL" if full else "VACUUM"

        def vacuum(c: Conn) -> None:
            tables = c.execute(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON"
                " n.oid = c.relnamespace WHERE n.nspname = current_schema()"
                " AND c.relkind = 'r'"
            ).fetchall()
            for (name,) in tables:
                c.execute(f'{verb} "{name}"'.encode())

        self.unrestricted()._db.read(vacuum)

    def stats(self) -> dict[str, Any]:
        def run(conn: Conn) -> dict[str, Any]:
            def count(table: str) -> int:
                row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()
                return int(row[0]) if row else 0

            by_type = conn.execute("SELECT tag_type, count(*) FROM tags GROUP BY tag_type")
            by_fid = conn.execute("SELECT fidelity, count(*) FROM timesteps GROUP BY fidelity")
            size = conn.execute("SELECT pg_database_size(current_database())").fetchone()
            return {
                "tags_by_type": {str(k): int(v) for k, v in by_type},
                "timesteps_by_fidelity": {str(k): int(v) for k, v in by_fid},
                "comments": count("comments"),
                "tag_applications": count("tag_applications"),
                # The whole database: tables, indexes, and PostgreSQL's own catalogs.
                "bytes": int(size[0]) if size else 0,
            }

        with self._db.snapshot() as conn:
            return run(conn)

    def sessions(self, limit: int) -> tuple[int, list[SessionSummary]]:
        with self._db.snapshot() as conn:
            row = conn.execute("SELECT count(*) FROM sessions").fetchone()
            found = conn.execute(
                f"SELECT {SESSION_COLUMNS} FROM sessions ORDER BY last_us DESC, pos DESC LIMIT %s",
                (limit,),
            ).fetchall()
        return (int(row[0]) if row else 0), [row_models.session_summary(r) for r in found]

    def session_summary(self, session_id: str) -> SessionSummary | None:
        row = self._db.read(
            lambda c: c.execute(
                f"SELECT {SESSION_COLUMNS} FROM sessions WHERE session_id = %s", (session_id,)
            ).fetchone()
        )
        return None if row is None else row_models.session_summary(row)

    # ------------------------------------------------------------------ export / import

    def export_records(
        self,
        readable: access.Readable | None = None,
        *,
        restricted: bool = False,
        vectors: bool = False,
    ) -> Iterator[dict[str, Any]]:
        with self._db.snapshot(readable) as conn:
            yield from transfer.export_records(
                conn, restricted=restricted or readable is not None, vectors=vectors
            )

    def import_records(
        self, records: Iterable[dict[str, Any]], made: Made | None = None
    ) -> dict[str, int]:
        return self._db.write(lambda conn: transfer.import_records(conn, records, made))
