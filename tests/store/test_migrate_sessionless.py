"""The migration that gives sessionless episodes stored by an older xdb their neighbours'
text in the text index (``store/context.py``: namespace and a 30-minute gap)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg

from tests.store._data import T0, episode
from tests.store.sqlite._versions import to_version_22
from xdb.store.context import context
from xdb.store.postgres import PostgresStore
from xdb.store.protocol import Store
from xdb.store.sqlite import SQLiteStore
from xdb.store.types import EpisodeFilter

MIN = 60_000_000


def _fill(store: Store) -> None:
    for n, text, minute, session in [
        (1, "alpha", 0, None),
        (2, "bravo", 10, None),
        (3, "charlie", 200, None),  # hours later: no neighbour
        (4, "delta", 10, "s"),  # in a session: not theirs
    ]:
        store.add_episode(episode(n, text, session=session, start_us=T0 + minute * MIN))


def _found(store: Store, word: str) -> set[int]:
    return {s for s, _ in store.episode_text_ranking(EpisodeFilter(), [word], 10)}


def _assert_reindexed(store: Store) -> None:
    """Reopened (the migration ran): 1 and 2 hold each other's words, the rest their own."""
    try:
        assert _found(store, "alpha") == {1, 2} and _found(store, "bravo") == {1, 2}
        assert _found(store, "charlie") == {3} and _found(store, "delta") == {4}
    finally:
        store.close()


def test_a_sqlite_file_from_before_the_rule_is_reindexed_once(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    store = SQLiteStore(path)
    _fill(store)
    store.close()
    # What an xdb before the rule left: sessionless contexts of date words alone (in the
    # row: a version before 23 stored them).
    conn = sqlite3.connect(path, isolation_level=None)
    to_version_22(conn)
    rows = conn.execute(
        "SELECT seq, summary, content, context, start_us FROM episodes WHERE session_id IS NULL"
    ).fetchall()
    for seq, summary, content, old, start in rows:
        conn.execute(
            "INSERT INTO episodes_fts (episodes_fts, rowid, summary, content, context)"
            " VALUES ('delete', ?, ?, ?, ?)",
            (seq, summary, content, old),
        )
        conn.execute("UPDATE episodes SET context = ? WHERE seq = ?", (context(start, []), seq))
        conn.execute(
            "INSERT INTO episodes_fts (rowid, summary, content, context) VALUES (?, ?, ?, ?)",
            (seq, summary, content, context(start, [])),
        )
    conn.execute("DELETE FROM schema_migrations WHERE version = 9")
    conn.close()
    _assert_reindexed(SQLiteStore(path))
    conn = sqlite3.connect(path)
    try:
        conn.execute("INSERT INTO episodes_fts (episodes_fts) VALUES ('integrity-check')")
    finally:
        conn.close()


def test_a_postgres_database_from_before_the_rule_is_reindexed_once(postgres_url: str) -> None:
    store = PostgresStore(postgres_url)
    _fill(store)
    store.close()
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for seq, start in conn.execute(
            "SELECT seq, start_us FROM episodes WHERE session_id IS NULL"
        ).fetchall():
            conn.execute(
                "UPDATE episodes SET context = %s WHERE seq = %s", (context(start, []), seq)
            )
        conn.execute("DELETE FROM schema_migrations WHERE version = 8")
    _assert_reindexed(PostgresStore(postgres_url))
