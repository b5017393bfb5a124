"""The tables declared once (``xdb.store.table_declarations``) as each store makes them: every
declared column, index and key is in a fresh database of either store, with the type the
dialect gives it. Later migrations add and rename columns; what was declared stays."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg

from xdb.store import table_declarations as declared
from xdb.store.sqlite import SQLiteStore


def _columns(table: declared.Table, dialect: str) -> list[declared.Column]:
    return [c for c in table.columns if c.only in (None, dialect)]


def _indexes(table: declared.Table, dialect: str) -> set[str]:
    return {i.name for i in table.indexes if i.only in (None, dialect)}


def test_sqlite_makes_the_declared_tables(tmp_path: Path) -> None:
    SQLiteStore(tmp_path / "fresh.sqlite3").close()
    conn = sqlite3.connect(tmp_path / "fresh.sqlite3")
    try:
        for table in declared.TABLES.values():
            live = {
                r[1]: (r[2], r[5])
                for r in conn.execute(f"SELECT * FROM pragma_table_xinfo('{table.name}')")
            }
            for c in _columns(table, declared.SQLITE):
                if (table.name, c.name) == ("episodes", "summary"):
                    c = declared.Column("own_summary", c.type)  # migration 20 renamed it
                assert c.name in live, (table.name, c.name)
                assert live[c.name][0] == declared.TYPES[declared.SQLITE][c.type]
            key = sorted((r[5], r[1]) for r in conn.execute(f"PRAGMA table_info('{table.name}')"))
            assert tuple(name for pk, name in key if pk) == table.key
            indexes = {r[1] for r in conn.execute(f"PRAGMA index_list('{table.name}')")}
            assert _indexes(table, declared.SQLITE) <= indexes
    finally:
        conn.close()


def test_postgres_makes_the_declared_tables(postgres_url: str) -> None:
    with psycopg.connect(postgres_url) as conn:
        for table in declared.TABLES.values():
            live: dict[str, str] = dict(
                conn.execute(
                    "SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute"
                    " WHERE attrelid = %s::regclass AND attnum > 0 AND NOT attisdropped",
                    (table.name,),
                ).fetchall()
            )
            for c in _columns(table, declared.POSTGRES):
                sql_type = declared.TYPES[declared.POSTGRES][c.type].split(" GENERATED")[0]
                assert live.get(c.name) == sql_type.lower(), (table.name, c.name)
            row = conn.execute(
                "SELECT array_agg(a.attname ORDER BY k.n) FROM pg_constraint p,"
                " unnest(p.conkey) WITH ORDINALITY k(attnum, n), pg_attribute a"
                " WHERE p.conrelid = %s::regclass AND p.contype = 'p'"
                " AND a.attrelid = p.conrelid AND a.attnum = k.attnum",
                (table.name,),
            ).fetchone()
            assert row is not None
            assert tuple(row[0]) == (table.pg_key or table.key)
            indexes = {
                str(r[0])
                for r in conn.execute(
                    "SELECT indexname FROM pg_indexes WHERE tablename = %s", (table.name,)
                )
            }
            assert _indexes(table, declared.POSTGRES) <= indexes


def test_the_dialects_differ_only_where_declared() -> None:
    for table in declared.TABLES.values():
        sqlite_columns = {c.name for c in _columns(table, declared.SQLITE)}
        postgres_columns = {c.name for c in _columns(table, declared.POSTGRES)}
        # PostgreSQL's episode tables hold their distribution column, SQLite's need not;
        # SQLite makes an episode's context from its neighbours (``sqlite/episode_texts``).
        assert postgres_columns - sqlite_columns <= {"namespace", "context"}
        assert sqlite_columns <= postgres_columns
        created = [s for s in declared.sqlite(table) if s.startswith("CREATE TABLE")]
        assert len(created) == 1 and f"CREATE TABLE {table.name} (" in created[0]
