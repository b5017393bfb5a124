"""SQLiteStore: the embedded store behind the ``Store`` protocol.

This module holds the store itself: opening the file, the reader connections and the
writer every method runs on (``_read``, ``_write``), the file's space, export and import.
The methods of each capability are mixed in from the modules that hold them
(``log_methods``, ``episode_methods``, ``store.learning_methods``,
``store.fidelity_methods``)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from xdb.errors import StoreError, XdbError
from xdb.store import access, audit
from xdb.store.capability_methods import CapabilityMethods
from xdb.store.episode_reads import EpisodeReads
from xdb.store.fidelity_methods import EpisodeHooks
from xdb.store.log_queries import LogQueries
from xdb.store.sqlbuild import SQLITE, Flavor
from xdb.store.sqlite import (
    audit_pending,
    episode_texts,
    episodes,
    restricted_reader,
    sessions,
    textindex,
    transfer,
)
from xdb.store.sqlite.episode_methods import EpisodeMethods
from xdb.store.sqlite.log_methods import LATEST_SESSION, NEW_SESSION, LogMethods, LogTail
from xdb.store.sqlite.rows import TIMESTEP_COLUMNS
from xdb.store.sqlite.schema import migrate
from xdb.store.sqlite.writer import Writer
from xdb.store.types import Made

T = TypeVar("T")


MMAP_BYTES = 2**31 - 2**16  # SQLite's default compile-time ceiling (SQLITE_MAX_MMAP_SIZE)
PAGE_BYTES = 8192  # a new file's page size


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
class _State:
    """What a store's methods change, shared by every binding of it."""

    closed: bool = False
    tail: LogTail | None = None
    deferred_audit: bool = False


class SQLiteStore(LogMethods, LogQueries, EpisodeMethods, EpisodeReads, CapabilityMethods):
    backend = "sqlite"
    _flavor = Flavor(
        SQLITE,
        "e.seq = c.episode_seq",
        "json_each(t.activations) j",
        timesteps=TIMESTEP_COLUMNS,
        episodes=episodes.COLUMNS,
        text_change_join="e.seq = c.seq",
        context_view=episode_texts.VIEW_NAME,
        latest_session=LATEST_SESSION,
        new_session=NEW_SESSION,
        concept_counts=True,
    )
    # One writer per file: episodes need no lock of their own.
    _episode_hooks = EpisodeHooks(
        episodes.insert, episodes.delete, lambda conn: None, textindex.delete_hot
    )

    def _on_reader(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        result: T = self._read(fn)
        return result

    def _in_transaction(self, fn: Callable[[sqlite3.Connection], T]) -> T:
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
        # What methods change, in one object every binding of this store shares
        # (``store.binding``).
        self._state = _State()
        # Rows the full-text index may trail the log by before a record catches it up.
        self.text_index_max_lag = textindex.MAX_LAG
        self.audit_key = audit.signing_key()  # read once: every record would read it
        # With the schema, the records a process killed before sealing left pending.
        self.writer.submit(lambda conn: (migrate(conn), audit_pending.seal(conn)))

    # ------------------------------------------------------------------ plumbing

    @property
    def closed(self) -> bool:
        return self._state.closed

    @property
    def _tail(self) -> LogTail | None:
        """``LogMethods.record``'s cache of the log's tail."""
        return self._state.tail

    @_tail.setter
    def _tail(self, tail: LogTail | None) -> None:
        self._state.tail = tail

    @property
    def deferred_audit(self) -> bool:
        """Whether this handle left a record's audit record pending (``audit_pending``)."""
        return self._state.deferred_audit

    @deferred_audit.setter
    def deferred_audit(self, left: bool) -> None:
        self._state.deferred_audit = left

    def _read(self, fn: Any) -> Any:
        if self.closed:
            raise StoreError("the database is closed")
        readable = self._readable
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
        # The call's audit record (pending), with its first write.
        job = audit.carried(fn, SQLITE, False, self._pending)
        carries = job is not fn
        if not keeps_tail or carries:
            inner = job

            def job(conn: sqlite3.Connection) -> Any:
                # Records waiting for their audit records are chained before this write:
                # the log keeps the writes' order (a call's record, carried, goes after
                # them), and no row goes before it is chained.
                if audit_pending.seal(conn) or not keeps_tail:
                    # Any other write may change the log's tail behind the cache; a seal
                    # moves the audit log's head the tail knows.
                    self._tail = None
                try:
                    return inner(conn)
                finally:
                    if carries:  # the call's record moved the head after the job (or failed)
                        self._tail = None

        fn = job

        if self.memory:
            with self._memory_lock:
                return self.writer.submit(fn)
        return self.writer.submit(fn)

    def settle_audit(self) -> None:
        """Chain the records waiting for their audit records (``audit_pending``): a write
        only when some wait (a read of the log never waits for another writer else)."""
        if self.unrestricted()._read(audit_pending.waiting):
            self._write(lambda conn: None)  # (every such write seals first)

    def close(self) -> None:
        if self.closed:
            return
        if not self.memory:  # what close writes is not worth a wait (see both below)
            with contextlib.suppress(sqlite3.Error):
                self._wconn.execute("PRAGMA busy_timeout = 100")
        self._seal_audit()
        self._settle_sessions()
        self._state.closed = True
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

        with contextlib.suppress(XdbError):  # (close shortened the busy timeout)
            self.writer.submit(fold, lock_wait=0)

    def _seal_audit(self) -> None:
        """Chain what this connection left pending before it closes. Not worth a wait, as
        ``_settle_sessions``: whoever writes or opens the file next seals them."""
        if self.memory or not self.deferred_audit:
            return
        with contextlib.suppress(XdbError):
            self.writer.submit(audit_pending.seal, lock_wait=0)

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

        pages: int = self.unrestricted()._read(read)
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

    # ------------------------------------------------------------------ export / import

    def export_records(
        self,
        readable: access.Readable | None = None,
        *,
        restricted: bool = False,
        vectors: bool = False,
    ) -> Iterator[dict[str, Any]]:
        if self.memory:
            with self._memory_lock:
                if readable is None:
                    yield from transfer.export_records(self._wconn, restricted, vectors)
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
                    conn, restricted=restricted or readable is not None, vectors=vectors
                )
            finally:
                conn.close()

    def import_records(
        self, records: Iterable[dict[str, Any]], made: Made | None = None
    ) -> dict[str, int]:
        result: dict[str, int] = self._write(lambda c: transfer.import_records(c, records, made))
        return result
