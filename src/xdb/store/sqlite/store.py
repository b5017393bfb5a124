"""SQLiteStore: the embedded store behind the ``Store`` protocol."""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from xdb.errors import StoreError, XdbError
from xdb.ids import timestep_id
from xdb.models.log import Comment, SessionSummary, Tag, TagApplication, Timestep
from xdb.store import access, audit, rows, tagging
from xdb.store.fidelity_methods import EpisodeHooks, FidelityMethods
from xdb.store.learning_methods import LearningMethods
from xdb.store.rows import activations_json as _activations_json
from xdb.store.sqlbuild import SQLITE, Flavor
from xdb.store.sqlite import episodes, restricted_reader, sessions, textindex, transfer
from xdb.store.sqlite.episode_methods import EpisodeMethods
from xdb.store.sqlite.query import page_sql
from xdb.store.sqlite.rows import TIMESTEP_COLUMNS
from xdb.store.sqlite.schema import migrate
from xdb.store.sqlite.writer import Writer
from xdb.store.types import NewEpisode, NewTimestep, ResolvedTarget, TimestepFilter
from xdb.timeutil import now_us

T = TypeVar("T")

_EVENT_SQL = (
    f"SELECT {TIMESTEP_COLUMNS} FROM timesteps WHERE session_id = ? AND event_id = ? ORDER BY tick"
)
_INSERT_TIMESTEP = (
    "INSERT INTO timesteps (seq, session_id, tick, ts_us, event_type, role, content, token_id,"
    " event_id, event_start, event_end, activations) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
)


MMAP_BYTES = 2**31 - 2**16  # SQLite's default compile-time ceiling (SQLITE_MAX_MMAP_SIZE)
PAGE_BYTES = 8192  # a new file's page size


# A handle's default session: the most recently active one that no hook made (its origin).
_LATEST_SESSION = (
    "SELECT session_id FROM session_totals WHERE made NOT IN"
    " (SELECT rowid FROM sessions WHERE origin IS NOT NULL)"
    " ORDER BY last_us DESC, made DESC LIMIT 1"
)
# A tag whose type and name are taken is skipped (``tagging.insert_tag``).
_INSERT_TAG = f"INSERT OR IGNORE INTO tags ({rows.TAG_COLUMNS}) VALUES ({SQLITE.marks(10)})"


def _open(location: str) -> sqlite3.Connection:
    uri = location.startswith("file:")
    # check_same_thread=False: the combining writer runs on whichever caller leads a batch;
    # the Writer's lock, not the thread, guarantees one user at a time.
    conn = sqlite3.connect(
        location, isolation_level=None, check_same_thread=False, timeout=30.0, uri=uri
    )
    conn.execute("PRAGMA busy_timeout = 30000")
    conn.execute("PRAGMA foreign_keys = ON")
    # Reads through a memory map instead of a read() per page: a filtered recall touching
    # ~700 episode rows at 100k took 1.9 ms with read() and 0.9 ms mapped (bench.recall).
    conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
    return conn


def _to_wal(conn: sqlite3.Connection, within_s: float = 30.0) -> None:
    """Put the file in WAL mode. Several processes opening a new file at once contend for
    the switch, and SQLite answers "database is locked" at once there (it would deadlock
    waiting: the busy timeout does not apply), so the switch is retried for a while."""
    deadline = time.monotonic() + within_s
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


@dataclass
class _Tail:
    version: int  # PRAGMA data_version when read: another connection's commit changes it
    epoch: int  # Writer.rollbacks when read
    seq: int
    indexed: int
    sessions: dict[str, list[int]]  # per session, as ``sessions.uncounted`` returns it
    audit_head: tuple[int, str] | None = None  # the audit log's last (seq, hash)


class SQLiteStore(EpisodeMethods, LearningMethods, FidelityMethods):
    backend = "sqlite"
    _flavor = Flavor(SQLITE, "e.seq = c.episode_seq", "json_each(t.activations) j", True)
    # One writer per file: episodes need no lock of their own.
    _episode_hooks = EpisodeHooks(
        episodes.insert, episodes.delete, lambda conn: None, textindex.delete_hot
    )

    def _graph_read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        result: T = self._read(fn)
        return result

    def _graph_write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        result: T = self._write(fn)
        return result

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.location = str(path)
        self.memory = self.location == ":memory:"
        self.text_index_path = None if self.memory else f"{self.location}.text-index"
        # No directory is made here: xdb.connect decides what a path may create.
        try:
            self._wconn = _open(self.location)
            # A new file's pages are 8 KiB (a no-op on a file that has its pages already):
            # a 384-d vector's row is ~1.55 kB, and a 4 KiB page held two of them, a
            # quarter of the vector table left empty; an 8 KiB page holds five.
            self._wconn.execute(f"PRAGMA page_size = {PAGE_BYTES}")
            if not self.memory:
                _to_wal(self._wconn)
                self._wconn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open database {self.location!r}: {exc}") from exc
        self.writer = Writer(self._wconn)
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        # An in-memory database exists only on its one connection; reads share it.
        self._memory_lock = threading.Lock()
        self.closed = False
        # Rows the full-text index may trail the log by before a record catches it up.
        self.text_index_max_lag = textindex.MAX_LAG
        self._tail: _Tail | None = None
        self.audit_key = audit.signing_key()  # read once: every record would read it
        self.writer.submit(migrate)

    # ------------------------------------------------------------------ plumbing

    def _read(self, fn: Any) -> Any:
        if self.closed:
            raise StoreError("the database is closed")
        readable = access.reading()
        if self.memory:
            with self._memory_lock:
                if readable is None:
                    return fn(self._wconn)
                # One connection for every use: the views exist for this read alone.
                restricted_reader.shadow(self._wconn)
                try:
                    self._wconn.execute("PRAGMA query_only = ON")
                    restricted_reader.read_as(self._wconn, readable)
                    return fn(self._wconn)
                finally:
                    self._wconn.execute("PRAGMA query_only = OFF")
                    restricted_reader.unshadow(self._wconn)
        slot = "conn" if readable is None else "restricted"
        conn: sqlite3.Connection | None = getattr(self._local, slot, None)
        if conn is None:
            conn = _open(self.location)
            if readable is not None:
                restricted_reader.shadow(conn)
            conn.execute("PRAGMA query_only = ON")
            setattr(self._local, slot, conn)
            with self._readers_lock:
                self._readers.append(conn)
        if readable is not None and getattr(self._local, "holding", None) != readable:
            # The readable ids change rarely (callers alternate on a thread at most).
            restricted_reader.read_as(conn, readable)
            self._local.holding = readable
        return fn(conn)

    def _write(self, fn: Any, *, keeps_tail: bool = False) -> Any:
        if self.closed:
            raise StoreError("the database is closed")
        fn = audit.carried(fn, SQLITE, lock=False)  # a call's record, with its first write
        if not keeps_tail:  # any other write may change the log's tail behind the cache
            inner = fn

            def fn(conn: sqlite3.Connection) -> Any:
                self._tail = None
                return inner(conn)

        if self.memory:
            with self._memory_lock:
                return self.writer.submit(fn)
        return self.writer.submit(fn)

    def close(self) -> None:
        if self.closed:
            return
        self._settle_sessions()
        self.closed = True
        with self._readers_lock:
            for conn in self._readers:
                conn.close()
            self._readers.clear()
        self._wconn.close()

    def _settle_sessions(self) -> None:
        """Fold the timesteps this connection left uncounted into their sessions' rows, so a
        closed file has nothing to add up. Not worth a wait: if another process holds the
        write lock, they stay uncounted, which readers and writers allow for (``sessions``)."""
        tail = self._tail
        # list(): one step under the GIL, while a record job may be adding sessions.
        if self.memory or tail is None or not any(st[1] for st in list(tail.sessions.values())):
            return

        def fold(conn: sqlite3.Connection) -> None:
            # In the writer, so no record job runs meanwhile; and the tail goes, or a record
            # queued behind this fold would count (and mark) from a state it no longer has.
            tail, self._tail = self._tail, None
            if tail is not None:
                sessions.settle(conn, [s for s, st in tail.sessions.items() if st[1]])

        try:
            self._wconn.execute("PRAGMA busy_timeout = 100")
            self.writer.submit(fold, lock_wait=0)
        except XdbError:
            pass

    # ------------------------------------------------------------------ writes

    def record(
        self,
        items: Sequence[NewTimestep],
        close_event: Callable[[Sequence[Timestep]], NewEpisode] | None = None,
        audit_by: tuple[str, str] | None = None,
    ) -> list[tuple[str, int]]:
        lone = len(items) == 1
        audited_at = now_us()

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
                tail = _Tail(version, self.writer.rollbacks, seq, indexed, {})
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
            if lone:
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
                for (session, event_id), policy in access.ended_events(items).items():
                    steps = [
                        rows.timestep(r) for r in conn.execute(_EVENT_SQL, (session, event_id))
                    ]
                    made = close_event(steps)
                    made.access_policy_id = policy
                    episodes.insert(conn, made)
            if audit_by is not None:  # the audit log's copy, in the same transaction
                # The activations as the rows have them: encoded once for both.
                if lone:
                    audit_head = audit.append_timestep(
                        cursor,
                        items[0],
                        out[0],
                        values[0][11],
                        audit_by,
                        audited_at,
                        tail.audit_head,
                        self.audit_key,
                    )
                else:
                    entries = audit.timestep_entries(
                        items, out, audit_by, audited_at, [v[11] for v in values]
                    )
                    audit_head = audit.append(
                        cursor, SQLITE, entries, False, tail.audit_head, self.audit_key
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

    def create_tag(self, tag: Tag, access_policy_id: str | None = None) -> tuple[Tag, bool]:
        def job(conn: sqlite3.Connection) -> tuple[Tag, bool]:
            return tagging.insert_tag(conn, tag, _INSERT_TAG, SQLITE, access_policy_id)

        result: tuple[Tag, bool] = self._write(job)
        return result

    def apply_tag(
        self, application: TagApplication, target: ResolvedTarget, new_tag: Tag | None
    ) -> tuple[Tag, bool, int]:
        def job(conn: sqlite3.Connection) -> tuple[Tag, bool, int]:
            return tagging.apply_tag(conn, application, target, new_tag, _INSERT_TAG, SQLITE)

        result: tuple[Tag, bool, int] = self._write(job)
        return result

    def add_comment(
        self, comment: Comment, target: ResolvedTarget | None, access_policy_id: str | None = None
    ) -> None:
        self._write(
            lambda conn: tagging.add_comment(conn, comment, target, SQLITE, access_policy_id)
        )

    # ------------------------------------------------------------------ reads

    def latest_session(self) -> str | None:
        row = self._read(lambda c: c.execute(_LATEST_SESSION).fetchone())
        return None if row is None else str(row[0])

    def claim_session(self, candidate: str, ts_us: int) -> str:
        def job(conn: sqlite3.Connection) -> str:
            # BEGIN IMMEDIATE (the writer's) holds the file's write lock: no other process
            # can make its own first session between this look and the insert.
            row = conn.execute(_LATEST_SESSION).fetchone()
            if row is not None:
                return str(row[0])
            conn.execute(
                "INSERT INTO sessions (session_id, next_tick, created_us, last_us)"
                " VALUES (?, 1, ?, ?)",
                (candidate, ts_us, ts_us),
            )
            return candidate

        found: str = self._write(job, keeps_tail=True)  # a new session is no tail of ours
        return found

    def get_tag(self, tag_id: str) -> Tag | None:
        row = self._read(
            lambda c: c.execute(
                f"SELECT {rows.TAG_COLUMNS} FROM tags WHERE id = ?", (tag_id,)
            ).fetchone()
        )
        return None if row is None else rows.tag(row)

    def find_tags(self, name: str, tag_type: str | None = None) -> list[Tag]:
        sql, params = tagging.find_tags_sql(name, tag_type, SQLITE)
        found = self._read(lambda c: c.execute(sql, params).fetchall())
        return [rows.tag(r) for r in found]

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
        return [rows.timestep(r) for r in found], total, next_key

    def recent(self, session_id: str, n: int) -> list[Timestep]:
        found = self._read(
            lambda c: c.execute(
                f"SELECT {TIMESTEP_COLUMNS} FROM timesteps WHERE session_id = ?"
                " ORDER BY tick DESC LIMIT ?",
                (session_id, n),
            ).fetchall()
        )
        return [rows.timestep(r) for r in reversed(found)]

    def annotations(
        self, session_id: str, ticks: tuple[int, int] | None, limit: int
    ) -> tuple[list[tuple[TagApplication, Tag]], list[Comment]]:
        found: tuple[list[tuple[TagApplication, Tag]], list[Comment]] = self._read(
            lambda c: tagging.session_annotations(c, SQLITE, session_id, ticks, limit)
        )
        return found

    def list_tags(self, tag_type: str | None, bud_status: str | None) -> list[Tag]:
        sql, params = tagging.list_tags_sql(tag_type, bud_status, SQLITE)
        found = self._read(lambda c: c.execute(sql, params).fetchall())
        return [rows.tag(r, application_count=r[10]) for r in found]

    def stats(self) -> dict[str, Any]:
        def run(conn: sqlite3.Connection) -> dict[str, Any]:
            by_type = dict(conn.execute("SELECT tag_type, count(*) FROM tags GROUP BY tag_type"))
            by_fid = dict(
                conn.execute("SELECT fidelity, count(*) FROM timesteps GROUP BY fidelity")
            )
            page_size = conn.execute("PRAGMA page_size").fetchone()[0]
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            return {
                "tags_by_type": by_type,
                "timesteps_by_fidelity": by_fid,
                "comments": conn.execute("SELECT count(*) FROM comments").fetchone()[0],
                "tag_applications": conn.execute(
                    "SELECT count(*) FROM tag_applications"
                ).fetchone()[0],
                "bytes": page_size * pages + self._wal_bytes(),
            }

        result: dict[str, Any] = self._read(run)
        return result

    def storage_bytes(self, live: bool = False) -> int:
        """The file's pages and its write-ahead log: what it takes on disk (``live``: the
        pages in use, free ones left out, and no log)."""

        def read(c: sqlite3.Connection) -> int:
            size = int(c.execute("PRAGMA page_size").fetchone()[0])
            pages = int(c.execute("PRAGMA page_count").fetchone()[0])
            if live:
                pages -= int(c.execute("PRAGMA freelist_count").fetchone()[0])
            return size * pages

        with access.reading_as(None):
            pages: int = self._read(read)
        return pages if live else pages + self._wal_bytes()

    live_bytes_exact = True  # free pages are counted (PRAGMA freelist_count)

    def reclaim_space(self, full: bool = False) -> None:
        """Give free pages back to the file system: incrementally once the file keeps the
        map that needs (a file made before maintenance first ran is rebuilt once, by a
        VACUUM that switches it over), then truncate the write-ahead log. (``full``: the
        same; the file gives back every free page either way.)"""

        def vacuum(conn: sqlite3.Connection) -> None:
            (mode,) = conn.execute("PRAGMA auto_vacuum").fetchone()
            if mode != 2:
                conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
                conn.execute("VACUUM")
            else:
                # Run to completion: a statement stepped once (execute) frees one page.
                conn.executescript("PRAGMA incremental_vacuum;")
            if not self.memory:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

        if self.closed:
            raise StoreError("the database is closed")
        if self.memory:
            with self._memory_lock:
                self.writer.exclusive(vacuum)
        else:
            self.writer.exclusive(vacuum)
        self._tail = None

    def _wal_bytes(self) -> int:
        try:
            return os.path.getsize(self.location + "-wal") if not self.memory else 0
        except OSError:
            return 0

    def sessions(self, limit: int) -> tuple[int, list[SessionSummary]]:
        def run(conn: sqlite3.Connection) -> tuple[int, list[Any]]:
            total = conn.execute("SELECT count(*) FROM sessions").fetchone()[0]
            found = conn.execute(
                f"SELECT {rows.SESSION_COLUMNS} FROM session_totals"
                " ORDER BY last_us DESC, made DESC LIMIT ?",
                (limit,),
            ).fetchall()
            return total, found

        total, found = self._read(run)
        return total, [rows.session_summary(r) for r in found]

    def session_summary(self, session_id: str) -> SessionSummary | None:
        row = self._read(
            lambda c: c.execute(
                f"SELECT {rows.SESSION_COLUMNS} FROM session_totals WHERE session_id = ?",
                (session_id,),
            ).fetchone()
        )
        return None if row is None else rows.session_summary(row)

    # ------------------------------------------------------------------ export / import

    def export_records(
        self, readable: access.Readable | None = None, *, restricted: bool = False
    ) -> Iterator[dict[str, Any]]:
        if self.memory:
            with self._memory_lock:
                if readable is None:
                    yield from transfer.export_records(self._wconn, restricted=restricted)
                    return
                restricted_reader.shadow(self._wconn)
                try:
                    restricted_reader.read_as(self._wconn, readable)
                    yield from transfer.export_records(self._wconn, restricted=True)
                finally:
                    self._wconn.execute("PRAGMA query_only = OFF")
                    restricted_reader.unshadow(self._wconn)
        else:
            conn = _open(self.location)
            try:
                if readable is not None:  # the export reads through the caller's views
                    restricted_reader.shadow(conn)
                    restricted_reader.read_as(conn, readable)
                yield from transfer.export_records(
                    conn, restricted=restricted or readable is not None
                )
            finally:
                conn.close()

    def import_records(self, records: Iterable[dict[str, Any]]) -> dict[str, int]:
        result: dict[str, int] = self._write(lambda c: transfer.import_records(c, records))
        return result
