"""Files as an earlier xdb left them, made from a current one (for migration tests)."""

from __future__ import annotations

import sqlite3

# Version 22's episodes: each row keeps its context, and FTS5 reads the rows themselves.
TO_VERSION_22 = [
    "ALTER TABLE episodes ADD COLUMN context TEXT NOT NULL DEFAULT ''",
    "UPDATE episodes SET context ="
    " (SELECT t.context FROM episode_texts t WHERE t.seq = episodes.seq)",
    "DROP TABLE episodes_fts",
    "DROP VIEW episode_texts",
    "CREATE VIRTUAL TABLE episodes_fts USING fts5 (summary, content, context,"
    " content='episodes', content_rowid='seq', tokenize='porter unicode61 remove_diacritics 2')",
    "INSERT INTO episodes_fts (episodes_fts) VALUES ('rebuild')",
    "DELETE FROM schema_migrations WHERE version = 23",
]


def to_version_22(conn: sqlite3.Connection) -> None:
    for statement in TO_VERSION_22:
        conn.execute(statement)
