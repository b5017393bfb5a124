"""A SQLite reader connection that reads as a restricted caller may (``store/access_views.py``):
TEMP views shadow the covered tables, over a temp table of the readable policy ids."""

from __future__ import annotations

import sqlite3

from xdb.store import access, access_views

_NAMES = [*access_views.views("{col}", ""), "sessions", "session_totals", "concept_counts"]


def shadow(conn: sqlite3.Connection) -> None:
    """Make ``conn``'s reads go through the views (which read nothing until ``read_as``)."""
    for statement in access_views.sqlite_views():
        conn.execute(statement)


def read_as(conn: sqlite3.Connection, readable: access.Readable) -> tuple[str, ...]:
    """Fill the readable ids; returns them (the caller skips this while they stay the same).
    A reader connection is query_only: the temp table is written with that lifted."""
    ids = tuple(readable.ids)
    conn.execute("PRAGMA query_only = OFF")
    try:
        conn.execute("DELETE FROM temp.xdb_readable")
        conn.executemany("INSERT INTO temp.xdb_readable (id) VALUES (?)", [(i,) for i in ids])
    finally:
        conn.execute("PRAGMA query_only = ON")
    return ids


def unshadow(conn: sqlite3.Connection) -> None:
    """Back to the tables themselves (the in-memory store's one connection)."""
    for name in _NAMES:
        conn.execute(f"DROP VIEW IF EXISTS temp.{name}")
    conn.execute("DROP TABLE IF EXISTS temp.xdb_readable")
