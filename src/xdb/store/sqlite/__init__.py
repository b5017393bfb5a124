"""The embedded store: one SQLite file, WAL, one writer with group commit, FTS5."""

from xdb.store.sqlite.store import SQLiteStore

__all__ = ["SQLiteStore"]
