"""The deferred full-text index: never visible to readers, bounded, and upgraded in place."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import xdb
from xdb.store.sqlite import textindex
from xdb.store.sqlite.schema import LATEST, MIGRATIONS


def _raw(path: Path, sql: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(sql).fetchone()[0])
    finally:
        conn.close()


def test_a_text_query_finds_what_was_recorded_just_before_it(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    with xdb.connect(path, session_id="s") as db:
        db.record_batch([{"event_type": "output", "content": f"word{i} common"} for i in range(50)])
        # Nothing is indexed yet: the log runs ahead of the index ...
        assert _raw(path, "SELECT count(*) FROM timesteps_fts_docsize") == 0
        # ... but a query never sees that.
        assert db.query(text_search="word7").total_count == 1
        assert db.query(text_search="common").total_count == 50
        assert _raw(path, "SELECT position FROM index_watermarks") == 50
        db.record(event_type="input", content="word7 again")
        assert db.query(text_search="word7").total_count == 2


def test_recording_keeps_the_index_lag_bounded(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    with xdb.connect(path, session_id="s") as db:
        db.store.text_index_max_lag = 100  # type: ignore[attr-defined]
        for start in range(0, 1000, 30):
            db.record_batch(
                [{"event_type": "output", "content": f"t{start + i}"} for i in range(30)]
            )
            lag = _raw(
                path, "SELECT (SELECT max(seq) FROM timesteps) - position FROM index_watermarks"
            )
            assert 0 <= lag < 100
        assert _raw(path, "SELECT count(*) FROM timesteps_fts_docsize") >= 1020 - 100


def test_a_version_1_file_is_upgraded_with_its_index_counted_as_current(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "CREATE TABLE schema_migrations"
        " (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_us INTEGER NOT NULL)"
    )
    first = MIGRATIONS[0][2]
    assert isinstance(first, str)
    for statement in first.split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("INSERT INTO schema_migrations VALUES (1, 'experience log', 0)")
    conn.execute("INSERT INTO sessions VALUES ('old', 3, 0, 0, 2)")
    for tick, text in ((1, "kept words"), (2, "more words")):
        conn.execute(
            "INSERT INTO timesteps (seq, session_id, tick, ts_us, event_type, role, content)"
            " VALUES (?, 'old', ?, 0, 'input', 'user', ?)",
            (tick, tick, text),
        )
        # Version 1 indexed every row in the transaction that wrote it.
        conn.execute("INSERT INTO timesteps_fts (rowid, content) VALUES (?, ?)", (tick, text))
    conn.close()

    with xdb.connect(path) as db:
        assert _raw(path, "SELECT position FROM index_watermarks") == 2
        assert db.query(text_search="words", session_id="old").total_count == 2
        assert db.record(event_type="input", content="new words", session_id="old").tick == 3
        assert db.query(text_search="words", session_id="old").total_count == 3
    assert _raw(path, "SELECT max(version) FROM schema_migrations") == LATEST


def test_catch_up_is_a_no_op_when_current(tmp_path: Path) -> None:
    with xdb.connect(tmp_path / "x.sqlite3", session_id="s") as db:
        db.record(event_type="input", content="hello")
        conn: sqlite3.Connection = db.store._wconn  # type: ignore[attr-defined]
        conn.execute("BEGIN IMMEDIATE")
        assert textindex.lag(conn) == 1
        assert textindex.catch_up(conn) == 1
        assert textindex.catch_up(conn) == 0
        assert textindex.lag(conn) == 0
        conn.execute("COMMIT")
