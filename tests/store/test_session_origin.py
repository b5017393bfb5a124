"""Where a session came from (``store/session_origin.py``): the sessions the engine's hooks
make are marked when made and are never the default session; on a database from before the
column, the migration recognises them by their names and contents."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg

from xdb.store.postgres import PostgresStore
from xdb.store.protocol import Store
from xdb.store.sqlite import SQLiteStore
from xdb.store.types import HOOK, NewTimestep

T0 = 1_700_000_000_000_000


def _step(
    session: str, at: int, event_type: str = "input", origin: str | None = None
) -> NewTimestep:
    return NewTimestep(session, T0 + at, event_type, "system", f"{session} {at}", None, None,
                       False, False, {}, session_origin=origin)  # fmt: skip


def _fill_as_an_older_xdb(store: Store) -> None:
    """What an xdb before the column wrote, oldest first: the user's sessions, a session of
    theirs that happens to be named like an agent's, and two hooks' sessions (latest)."""
    try:
        store.record([_step("mine", 1)])
        store.record([_step("claude-notes", 2)])  # the user's: it holds an input
        store.record([_step("codex-x1", 3, "steering"), _step("gemini-y", 4, "steering")])
        store.record([_step("claude-abc", 5, "steering")])
    finally:
        store.close()


def _assert_backfilled(store: Store) -> None:
    try:
        assert store.latest_session() == "claude-notes"
        assert store.claim_session("new", T0) == "claude-notes"
        # Marked in the same write that makes it, and only then: later records keep it.
        store.record([_step("claude-def", 9, "steering", HOOK)])
        store.record([_step("claude-def", 10, "steering")])
        store.record([_step("plain", 8, origin=None)])
        assert store.latest_session() == "plain"
        store.record([_step("plain", 11, origin=HOOK)])  # an existing session stays as it was
        assert store.latest_session() == "plain"
    finally:
        store.close()


def test_a_sqlite_file_from_before_the_column_has_its_hook_sessions_marked(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    _fill_as_an_older_xdb(SQLiteStore(path))
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("ALTER TABLE sessions DROP COLUMN origin")
        conn.execute("DELETE FROM schema_migrations WHERE version = 18")
    finally:
        conn.close()
    reopened = SQLiteStore(path)
    assert reopened.latest_session() == "claude-notes"
    reopened.close()
    conn = sqlite3.connect(path)
    try:
        marked = conn.execute("SELECT session_id FROM sessions WHERE origin = 'hook'").fetchall()
    finally:
        conn.close()
    assert sorted(r[0] for r in marked) == ["claude-abc", "codex-x1", "gemini-y"]
    _assert_backfilled(SQLiteStore(path))


def test_a_postgres_database_from_before_the_column_has_its_hook_sessions_marked(
    postgres_url: str,
) -> None:
    _fill_as_an_older_xdb(PostgresStore(postgres_url))
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE sessions DROP COLUMN origin")
        conn.execute("DELETE FROM schema_migrations WHERE version = 17")
    reopened = PostgresStore(postgres_url)
    assert reopened.latest_session() == "claude-notes"
    reopened.close()
    with psycopg.connect(postgres_url) as conn:
        marked = conn.execute("SELECT session_id FROM sessions WHERE origin = 'hook'").fetchall()
    assert sorted(r[0] for r in marked) == ["claude-abc", "codex-x1", "gemini-y"]
    _assert_backfilled(PostgresStore(postgres_url))
