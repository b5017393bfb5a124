"""Concept rows carry their episode's id and time window (migration 7 on SQLite, 6 on
PostgreSQL): written with every episode, and filled in when an older database opens."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from tests.conftest import PostgresServer
from tests.store._data import episode
from xdb.store.postgres import PostgresStore
from xdb.store.protocol import Store
from xdb.store.records import episode_record
from xdb.store.sqlite import SQLiteStore

FACTS = "SELECT concept_id, episode_seq, episode_id, start_us, end_us FROM episode_concepts"
EXPECTED = "SELECT c.concept_id, e.seq, e.id, e.start_us, e.end_us FROM episode_concepts c"
JOINED = " JOIN episodes e ON e.seq = c.episode_seq"

# What the migration added, taken away again: the database as an older xdb left it.
UNDO = {
    "sqlite": [
        "DROP INDEX episode_concepts_id",
        "ALTER TABLE episode_concepts DROP COLUMN episode_id",
        "ALTER TABLE episode_concepts DROP COLUMN start_us",
        "ALTER TABLE episode_concepts DROP COLUMN end_us",
        "DELETE FROM schema_migrations WHERE version = 7",
    ],
    "postgres": [
        # The restricted views read these columns; opening the store makes them again.
        "DROP SCHEMA public_xdb_restricted CASCADE",
        "DROP INDEX episode_concepts_id",
        "ALTER TABLE episode_concepts DROP COLUMN episode_id, DROP COLUMN start_us,"
        " DROP COLUMN end_us",
        "DELETE FROM schema_migrations WHERE version = 6",
    ],
}


def _sql(backend: str, where: str, statements: list[str]) -> list[tuple[object, ...]]:
    """Run ``statements`` outside xdb; the rows of the last."""
    rows: list[tuple[object, ...]] = []
    if backend == "sqlite":
        import sqlite3

        conn = sqlite3.connect(where, isolation_level=None)
        try:
            for statement in statements:
                rows = conn.execute(statement).fetchall()
        finally:
            conn.close()
        return rows
    with psycopg.connect(where, autocommit=True) as pg:
        for statement in statements:
            cur = pg.execute(statement.encode())
            rows = cur.fetchall() if cur.description else []
    return rows


def _open(backend: str, where: str) -> Store:
    return SQLiteStore(Path(where)) if backend == "sqlite" else PostgresStore(where)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_concept_rows_carry_their_episode_and_are_filled_in_on_upgrade(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "sqlite":
        where = str(tmp_path / "old.sqlite3")
    else:
        server: PostgresServer = request.getfixturevalue("postgres_server")
        where = server.new_database()
    tagged = [("org/p::concept/A", 0.9, "stable"), ("org/p::concept/B", 0.4, "candidate")]
    store = _open(backend, where)
    for n in (1, 2, 3):
        store.add_episode(episode(n, f"episode {n}", concepts=tagged[: n % 2 + 1]))
    store.close()
    written = sorted(_sql(backend, where, [FACTS]))
    assert written == sorted(_sql(backend, where, [EXPECTED + JOINED]))
    a_then_b = ["episode-001", "episode-002", "episode-003", "episode-001", "episode-003"]
    assert [r[2] for r in written] == a_then_b

    _sql(backend, where, UNDO[backend])
    store = _open(backend, where)  # migrates
    try:
        assert sorted(_sql(backend, where, [FACTS])) == written
        # The walk's per-concept window reads the copies.
        found = store.graph_edges(["concept:org/p::concept/A"], {"TAGGED_BY"}, False, True, 2, [])
        assert {(e.src, e.dst) for e in found} == {
            ("episode-001", "concept:org/p::concept/A"),
            ("episode-002", "concept:org/p::concept/A"),
        }
        # ... and the episodes already walked, beyond the window.
        found = store.graph_edges(
            ["concept:org/p::concept/B"], {"TAGGED_BY"}, False, True, 1, ["episode-003"]
        )
        assert {e.src for e in found} == {"episode-001", "episode-003"}
    finally:
        store.close()


def test_concept_rows_get_their_namespace_and_counts_on_upgrade(tmp_path: Path) -> None:
    """SQLite's migration 16: concept rows carry their episode's namespace, and each
    concept's episode count is kept; an older file gets both when it opens."""
    where = str(tmp_path / "old.sqlite3")
    store = _open("sqlite", where)
    a, b = ("org/p::concept/A", 0.9, "stable"), ("org/p::concept/B", 0.4, "stable")
    for n in (1, 2, 3):
        store.add_episode(episode(n, f"episode {n}", concepts=[a, b][: n % 2 + 1]))
    store.close()
    rows = "SELECT c.concept_id, c.episode_seq, c.namespace FROM episode_concepts c"
    counts = "SELECT concept_id, episodes FROM concept_counts ORDER BY 1"
    written = sorted(_sql("sqlite", where, [rows]))
    joined = "SELECT c.concept_id, e.seq, e.namespace FROM episode_concepts c" + JOINED
    assert written == sorted(_sql("sqlite", where, [joined]))
    assert _sql("sqlite", where, [counts]) == [("org/p::concept/A", 3), ("org/p::concept/B", 2)]
    _sql("sqlite", where, [
        "DROP TRIGGER concept_uncounted",  # (version 19 dropped concept_counted)
        "DROP TABLE concept_counts", "ALTER TABLE episode_concepts DROP COLUMN namespace",
        "DROP INDEX timesteps_kind_time",
        "DELETE FROM schema_migrations WHERE version IN (16, 19)",
    ])  # fmt: skip
    store = _open("sqlite", where)  # migrates
    assert sorted(_sql("sqlite", where, [rows])) == written
    assert _sql("sqlite", where, [counts]) == [("org/p::concept/A", 3), ("org/p::concept/B", 2)]
    # Version 19: inserts count their concepts per batch (no insert trigger), deletes by
    # trigger; a repeated tag counts its episode once.
    triggers = "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name LIKE 'concept%'"
    assert _sql("sqlite", where, [triggers]) == [("concept_uncounted",)]
    store.add_episode(episode(4, "episode 4", concepts=[b, b]))
    imported = [
        episode_record(episode(n, f"episode {n}", concepts=[a, b][: n % 2 + 1]))
        for n in range(5, 12)
    ]
    assert store.import_records(imported)["episode"] == 7
    assert store.delete_episode("episode-001") == 1
    store.close()
    recount = "SELECT concept_id, count(*) FROM episode_concepts GROUP BY 1 ORDER BY 1"
    assert _sql("sqlite", where, [counts]) == _sql("sqlite", where, [recount])
    assert _sql("sqlite", where, [counts]) == [("org/p::concept/A", 9), ("org/p::concept/B", 6)]
