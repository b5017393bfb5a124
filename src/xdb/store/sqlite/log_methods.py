"""The SQLite store's log methods (``LogStore``: timesteps, sessions, tags, comments),
mixed into ``SQLiteStore``, which supplies the plumbing they run on (``_read``, ``_write``,
the writer) and the log's ``stats``.

``record`` is the hot path: it keeps the log's tail (``LogTail``) between jobs so that a
lone record needs no lookup of the last seq or its session's next tick.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from xdb.ids import timestep_id
from xdb.models.log_objects import SessionSummary, Timestep
from xdb.store import access, audit, audit_bodies, row_models
from xdb.store.event_episodes import close_events, event_sql
from xdb.store.row_models import activations_json as _activations_json
from xdb.store.sqlbuild import SQLITE
from xdb.store.sqlite import audit_pending, episodes, sessions, textindex
from xdb.store.sqlite.query import page_sql
from xdb.store.sqlite.rows import TIMESTEP_COLUMNS
from xdb.store.sqlite.writer import Writer
from xdb.store.types import NewEpisode, NewTimestep, TimestepFilter
from xdb.timeutil import now_us

_EVENT_SQL = event_sql(TIMESTEP_COLUMNS, SQLITE)
# The row the audit body is written from has these columns (``audit_bodies.ROW``).
_INSERT_TIMESTEP = f"INSERT INTO timesteps ({audit_bodies.ROW}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"


# The store's ``Flavor``: a handle's default session, the most recently active one that no
# hook made (its origin); and a new empty session (its counts are the columns' defaults).
LATEST_SESSION = (
    "SELECT session_id FROM session_totals WHERE made NOT IN"
    " (SELECT rowid FROM sessions WHERE origin IS NOT NULL)"
    " ORDER BY last_us DESC, made DESC LIMIT 1"
)
NEW_SESSION = (
    "INSERT INTO sessions (session_id, next_tick, created_us, last_us) VALUES (?, 1, ?, ?)"
)


@dataclass
class LogTail:
    """The log's tail as this connection last wrote it (``LogMethods.record``)."""

    version: int  # PRAGMA data_version when read: another connection's commit changes it
    epoch: int  # Writer.rollbacks when read
    seq: int
    indexed: int
    sessions: dict[str, list[int]]  # per session, as ``sessions.uncounted`` returns it
    audit_head: tuple[int, str] | None = None  # the audit log's last (seq, hash)


class _Write(Protocol):
    """``SQLiteStore._write``: run ``fn`` on the writer; ``keeps_tail``: ``fn`` leaves the
    log's tail as ``record`` cached it."""

    def __call__(self, fn: Any, *, keeps_tail: bool = False) -> Any: ...


class LogMethods:
    # What ``SQLiteStore`` provides.
    _read: Callable[[Any], Any]
    _write: _Write
    _tail: LogTail | None
    writer: Writer
    text_index_max_lag: int
    audit_key: bytes | None
    deferred_audit: bool  # whether this handle left a record's audit record pending
    _pending: audit.PendingCall | None  # the call's audit record (``store.binding``)
    _claim: Callable[[sqlite3.Connection, str, int], str]  # (``LogQueries``)

    def record(
        self,
        items: Sequence[NewTimestep],
        close_event: Callable[[Sequence[Timestep]], NewEpisode] | None = None,
        audit_by: tuple[str, str] | None = None,
    ) -> list[tuple[str, int]]:
        lone = len(items) == 1
        audited_at = now_us()
        # A lone record's audit record waits in its row, to be chained later
        # (``audit_pending``): not with a key, whose chain only its holder may write, nor
        # when the write carries a call's record, which must come after the record's own.
        carrying = self._pending is not None and not self._pending.taken
        pending = audit_by is not None and lone and self.audit_key is None and not carrying

        def job(conn: sqlite3.Connection) -> list[tuple[str, int]]:
            # The log's tail (last seq, index watermark, per session its next tick and the
            # timesteps its row has not counted yet) as this connection last wrote it, valid
            # while no other connection has committed (data_version) and no transaction of
            # ours rolled back: it saves a lookup per record and lets a lone record leave
            # its session's row alone (``sessions``).
            cursor = self.writer.cursor  # jobs run on the writer's connection
            (version,) = cursor.execute("PRAGMA data_version").fetchone()
            tail = self._tail
            if tail is None or tail.version != version or tail.epoch != self.writer.rollbacks:
                seq, indexed = conn.execute(
                    "SELECT coalesce(max(seq), 0), (" + textindex.WATERMARK_SQL + ") FROM timesteps"
                ).fetchone()
                tail = LogTail(version, self.writer.rollbacks, seq, indexed, {})
            seq, indexed, known = tail.seq, tail.indexed, tail.sessions
            # Per session in this job: [next tick, timesteps its row has not counted, their
            # latest ts_us, whether its row is marked pending]; copies, so that a job that
            # fails leaves the tail as it was.
            state: dict[str, list[int]] = {}
            values = []
            out = []
            for it in items:
                session = it.session_id
                ts_us = it.ts_us
                st = state.get(session)
                if st is None:
                    was = known.get(session)
                    st = state[session] = (
                        sessions.uncounted(conn, session, ts_us, it.session_origin)
                        if was is None
                        else was.copy()
                    )
                tick = st[0]
                st[0] = tick + 1
                st[1] += 1
                if ts_us > st[2]:
                    st[2] = ts_us
                seq += 1
                acts = it.activations
                values.append(
                    (
                        seq,
                        session,
                        tick,
                        ts_us,
                        it.event_type,
                        it.role,
                        it.content,
                        it.token_id,
                        it.event_id,
                        it.event_start,
                        it.event_end,
                        _activations_json(acts) if acts else None,
                    )
                )
                out.append((timestep_id(session, tick), tick))
            # execute() for one row: executemany's iteration costs ~5 us a record.
            if pending:
                assert audit_by is not None
                cursor.execute(audit_pending.INSERT, (*values[0], audited_at, *audit_by))
            elif lone:
                cursor.execute(_INSERT_TIMESTEP, values[0])
            else:
                conn.executemany(_INSERT_TIMESTEP, values)
            if any(it.access_policy_id is not None for it in items):
                access.assign_recorded(conn, SQLITE, items, out)
            if seq - indexed >= self.text_index_max_lag:
                textindex.catch_up(conn)
                indexed = seq
            # A batch folds its sessions' counts into their rows (one UPDATE per session,
            # whatever its size); a lone record only once SETTLE_EVERY are uncounted, and
            # marks its session's row pending when it is the first uncounted.
            for session, st in state.items():
                if not lone or st[1] >= sessions.SETTLE_EVERY:
                    cursor.execute(sessions.FOLD, (st[0], st[2], st[1], session))
                    st[1] = st[2] = st[3] = 0
                elif not st[3]:
                    cursor.execute(sessions.MARK, (session,))
                    st[3] = 1
            if close_event is not None:
                ended = access.ended_events(items)
                close_events(conn, _EVENT_SQL, ended, close_event, episodes.insert)
            if pending:
                # Where the pending records start, as the file says (not a cache of ours:
                # another connection's records count too, and a job rolled back marks
                # nothing): this one starts them, or they are many enough to chain.
                audit_pending.recorded(cursor, seq)
                self.deferred_audit = True
                audit_head = None
            elif audit_by is not None:  # the audit log's copy, in the same transaction
                # Records left pending (by an unkeyed connection) go first: the log keeps
                # the order of the writes.
                known_head = tail.audit_head
                if audit_pending.seal(conn):
                    known_head = None
                # Its body written from the rows as inserted (activations encoded once).
                entries = audit_bodies.timestep_entries(items, out, audit_by, audited_at, values)
                audit_head = audit.append(
                    cursor, SQLITE, entries, False, known_head, self.audit_key
                )
            # Only a job that got this far leaves its tail behind.
            known.update(state)
            tail.seq, tail.indexed = seq, indexed
            if audit_by is not None:  # (any other write to the log drops this tail)
                tail.audit_head = audit_head
            self._tail = tail
            return out

        result: list[tuple[str, int]] = self._write(job, keeps_tail=True)
        return result

    # ------------------------------------------------------------------ reads

    def claim_session(self, candidate: str, ts_us: int) -> str:
        # BEGIN IMMEDIATE (the writer's) holds the file's write lock: no other process can
        # make its own first session between ``_claim``'s look and its insert. (A new
        # session is no tail of ours: the tail stays.)
        found: str = self._write(lambda c: self._claim(c, candidate, ts_us), keeps_tail=True)
        return found

    def query(
        self, flt: TimestepFilter, after: tuple[int, int] | None, limit: int
    ) -> tuple[list[Timestep], int, tuple[int, int] | None]:
        sql, params, count_sql, count_params = page_sql(TIMESTEP_COLUMNS, flt, after, limit + 1)
        if flt.text is not None and self._read(textindex.lag) > 0:
            # Everything recorded before this query must be findable by its words.
            self._write(textindex.catch_up)

        def run(conn: sqlite3.Connection) -> tuple[list[Any], int]:
            # One read transaction: the page and the count see the same snapshot.
            conn.execute("BEGIN")
            try:
                found = conn.execute(sql, params).fetchall()
                total = conn.execute(count_sql, count_params).fetchone()[0]
            finally:
                conn.execute("COMMIT")
            return found, total

        found, total = self._read(run)
        more = len(found) > limit
        found = found[:limit]
        next_key = (found[-1][3], found[-1][0]) if more else None
        return [row_models.timestep(r) for r in found], total, next_key

    def sessions(self, limit: int) -> tuple[int, list[SessionSummary]]:
        def run(conn: sqlite3.Connection) -> tuple[int, list[Any]]:
            total = conn.execute("SELECT count(*) FROM sessions").fetchone()[0]
            found = conn.execute(
                f"SELECT {row_models.SESSION_COLUMNS} FROM session_totals"
                " ORDER BY last_us DESC, made DESC LIMIT ?",
                (limit,),
            ).fetchall()
            return total, found

        total, found = self._read(run)
        return total, [row_models.session_summary(r) for r in found]

    def session_summary(self, session_id: str) -> SessionSummary | None:
        row = self._read(
            lambda c: c.execute(
                f"SELECT {row_models.SESSION_COLUMNS} FROM session_totals WHERE session_id = ?",
                (session_id,),
            ).fetchone()
        )
        return None if row is None else row_models.session_summary(row)
