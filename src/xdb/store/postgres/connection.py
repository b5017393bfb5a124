"""Connections to PostgreSQL: a pool, one transaction per write, errors as xdb's.

Unlike SQLite there is no single writer to lean on: several threads and processes write at
once, so each write is one transaction on a pooled connection, and whatever must not be
shared is claimed with locks inside it (a session's row for its ticks; ``EPISODE_LOCK``
for episodes, see ``lock_episodes``). A transaction PostgreSQL aborts as a deadlock or
serialization failure did nothing, so it is run again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg import errors, sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

from xdb.errors import InvalidRequest, StoreError, XdbError
from xdb.store import access, access_views, audit
from xdb.store.postgres.schema import migrate
from xdb.store.sqlbuild import POSTGRES

Conn = psycopg.Connection[TupleRow]
T = TypeVar("T")

logger = logging.getLogger(__name__)

# Serialises the writes that number episodes, their vectors and their text changes (below).
EPISODE_LOCK = 0x7864_6200_0002
# Taken by store.claim_session: the first session of an empty database is made once.
SESSION_LOCK = 0x7864_6200_0003
RETRIES = 5  # attempts at a write PostgreSQL aborted to break a deadlock
CURRENT = object()  # (``CallConnections.snapshot``) as the call reads


def redacted(url: str) -> str:
    """The URL without its password: what status and error messages may show."""
    parts = urlsplit(url)
    if parts.password:
        host = parts.netloc.rpartition("@")[2]
        parts = parts._replace(netloc=f"{parts.username or ''}:***@{host}")
    query = parse_qsl(parts.query, keep_blank_values=True)
    if any(key == "password" for key, _ in query):
        hidden = [(k, "***" if k == "password" else v) for k, v in query]
        parts = parts._replace(query=urlencode(hidden, safe="/*"))
    return urlunsplit(parts)


def lock_episodes(conn: Conn) -> None:
    """Claim the right to number episodes, vectors and text changes until commit.

    Readers keep watermarks over these numbers (the tantivy index over ``change``, the
    vector index over ``vseq``, paging snapshots over ``seq``) and assume that once a number
    is visible every smaller one is too. Numbers drawn from a sequence by concurrent
    transactions can commit out of order and break that; drawn under one lock held until
    commit, they commit in order. Writers that also lock session rows take this lock first.
    """
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (EPISODE_LOCK,))


def _wrap(exc: psycopg.Error, url: str, doing: str) -> XdbError:
    if isinstance(exc, psycopg.DataError):
        # Values PostgreSQL cannot hold (a NUL character in text, a number out of range,
        # a malformed vector): the request, not the storage, is at fault.
        return InvalidRequest(f"PostgreSQL cannot store this value: {exc}")
    if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
        return StoreError(f"{doing} failed on {redacted(url)}: {exc}")
    if doing == "write":
        return StoreError(f"write failed and was rolled back: {exc}")
    return StoreError(f"{doing} failed: {exc}")


def _restricted_path(conn: Conn) -> None:
    """A restricted reader's search path: the restricted views, then the tables."""
    row = conn.execute("SELECT current_schema()").fetchone()
    assert row is not None
    conn.execute(
        sql.SQL("SET search_path TO {}, {}").format(
            sql.Identifier(access_views.pg_schema(row[0])), sql.Identifier(row[0])
        )
    )


class Connections:
    def __init__(self, url: str, pool_size: int) -> None:
        self.url = url
        try:
            # libpq waits for an unreachable host forever unless told otherwise.
            conninfo = url
            if "connect_timeout" not in conninfo_to_dict(url):
                conninfo = make_conninfo(url, connect_timeout=30)
            # One plain connection first: it fails fast with the server's own reason,
            # where a pool would keep retrying in the background.
            with psycopg.connect(conninfo, autocommit=True) as conn:
                migrate(conn)
        except psycopg.Error as exc:
            raise StoreError(f"cannot open database {redacted(url)}: {exc}") from exc
        self.pool: ConnectionPool[Conn] = ConnectionPool(
            conninfo,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True},
            name="xdb",
            open=True,
        )
        self.closed = False
        self.conninfo = conninfo
        self.pool_size = pool_size
        # Reads of a restricted caller (store/access.py), on connections of their own whose
        # search path puts the restricted views first: made on first use.
        self._restricted: ConnectionPool[Conn] | None = None
        self._restricted_lock = threading.Lock()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.pool.close()
            if self._restricted is not None:
                self._restricted.close()

    @contextmanager
    def _conn(self) -> Iterator[Conn]:
        if self.closed:
            raise StoreError("the database is closed")
        with self.pool.connection() as conn:
            yield conn

    @contextmanager
    def _reader(self, readable: access.Readable | None) -> Iterator[Conn]:
        """A connection for a read: a restricted one, reading as ``readable`` allows, when
        that is restricted (None: every row)."""
        if readable is None:
            with self._conn() as conn:
                yield conn
            return
        if self.closed:
            raise StoreError("the database is closed")
        with self._restricted_pool().connection() as conn:
            conn.execute(
                "SELECT set_config(%s, %s, false)",
                (access_views.PG_SETTING, access_views.pg_array(readable.ids)),
            )
            yield conn

    def _restricted_pool(self) -> ConnectionPool[Conn]:
        with self._restricted_lock:
            if self._restricted is None:
                self._restricted = ConnectionPool(
                    self.conninfo,
                    min_size=1,
                    max_size=self.pool_size,
                    kwargs={"autocommit": True},
                    configure=_restricted_path,
                    name="xdb-restricted",
                    open=True,
                )
            return self._restricted

    def read(self, fn: Callable[[Conn], T], readable: access.Readable | None = None) -> T:
        """``fn(conn)`` in autocommit: each statement sees what was committed before it
        (and what ``readable`` allows)."""
        try:
            with self._reader(readable) as conn:
                return fn(conn)
        except psycopg.Error as exc:
            raise _wrap(exc, self.url, "read") from exc

    def write(
        self,
        fn: Callable[[Conn], T],
        *,
        one_statement: bool = False,
        pending: audit.PendingCall | None = None,
    ) -> T:
        """``fn(conn)`` in one transaction, committed before this returns.

        ``one_statement``: ``fn`` runs a single statement, which autocommit makes its own
        transaction, saving the round trips of BEGIN and COMMIT (a third of a small write).
        The call's ``pending`` audit record goes in the same transaction (``audit.carried``).
        """
        with_record = audit.carried(fn, POSTGRES, True, pending)
        if with_record is not fn:
            fn, one_statement = with_record, False
        for attempt in range(1, RETRIES + 1):
            try:
                with self._conn() as conn:
                    if one_statement:
                        return fn(conn)
                    with conn.transaction():
                        return fn(conn)
            except (errors.DeadlockDetected, errors.SerializationFailure) as exc:
                if attempt == RETRIES:
                    raise StoreError(f"write failed and was rolled back: {exc}") from exc
                logger.info("retrying a write PostgreSQL aborted: %s", exc)
            except psycopg.Error as exc:
                raise _wrap(exc, self.url, "write") from exc
        raise AssertionError("unreachable")

    @contextmanager
    def snapshot(self, readable: access.Readable | None = None) -> Iterator[Conn]:
        """A read-only transaction whose statements all see one snapshot (read as
        ``_reader`` reads)."""
        try:
            with self._reader(readable) as conn, conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                yield conn
        except psycopg.Error as exc:
            raise _wrap(exc, self.url, "read") from exc


class CallConnections:
    """``Connections`` for one call (``store.binding``): its reads as its ``readable``
    allows, its first write carrying its ``pending`` audit record."""

    def __init__(
        self,
        base: Connections,
        readable: access.Readable | None,
        pending: audit.PendingCall | None,
    ) -> None:
        self.base = base
        self.readable = readable
        self.pending = pending

    @property
    def closed(self) -> bool:
        return self.base.closed

    def close(self) -> None:
        self.base.close()

    def read(self, fn: Callable[[Conn], T]) -> T:
        return self.base.read(fn, self.readable)

    def write(self, fn: Callable[[Conn], T], *, one_statement: bool = False) -> T:
        return self.base.write(fn, one_statement=one_statement, pending=self.pending)

    def snapshot(
        self, readable: access.Readable | object | None = CURRENT
    ) -> AbstractContextManager[Conn]:
        """As ``Connections.snapshot``; by default as the call reads."""
        chosen = self.readable if readable is CURRENT else readable
        return self.base.snapshot(chosen if isinstance(chosen, access.Readable) else None)
