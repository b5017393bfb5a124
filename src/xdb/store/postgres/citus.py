"""Every table's place on Citus, gathered from the declarations beside the DDL; the script
that would distribute a database xdb has made; and the check of a live schema against them.
No sharding here: Citus shards; this says how (``docs/scaling.md``, whose generated part
``python -m xdb.store.postgres.scaling_doc`` writes from these declarations).

``problems`` reads a live schema from PostgreSQL's catalogs and names what Citus would
refuse or what would stop rows read together from sitting together: a table without a
place (or a place without its table), a distributed table whose distribution column is
missing, nullable, or left out of a unique key (Citus enforces a unique key only where it
holds that column), a group whose columns differ in type or collation, a foreign key that
neither stays within one group on its distribution column nor points at a reference table,
and any trigger (a counter kept by trigger would be one row written from every shard).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from xdb.store import (
    audit,
    audit_seal,
    concepts,
    exemplars,
    fidelity,
    graph_edges,
    learning,
    policy_objects,
)
from xdb.store.placement import DISTRIBUTED, LOCAL, REFERENCE, Place
from xdb.store.postgres import tables, vector_index

# Every table the PostgreSQL store makes, in the order the script places them within their
# kind (a reference table after those its foreign keys name; a group's first table first).
PLACES: tuple[Place, ...] = (
    *tables.LOG_PLACES,
    *tables.EPISODES_PLACES,
    *fidelity.PLACES,
    *concepts.PLACES,
    *graph_edges.PLACES,
    *learning.PLACES,
    *exemplars.PLACES,
    *policy_objects.PLACES,
    *audit.PLACES,
    *audit_seal.PLACES,
    *vector_index.PLACES,
    *tables.MIGRATIONS_PLACES,
)


def group(p: Place) -> str:
    """The first table of ``p``'s co-location group (``p`` itself when it starts one)."""
    return p.colocate_with or p.table


def plan_problems(places: Sequence[Place]) -> list[str]:
    """What is wrong with the declarations themselves, before any database is read."""
    out = []
    by_table = {p.table: p for p in places}
    if len(by_table) != len(places):
        out.append("a table is placed twice")
    for p in places:
        if p.colocate_with is None:
            continue
        root = by_table.get(p.colocate_with)
        if root is None or root.kind != DISTRIBUTED or root.colocate_with is not None:
            out.append(
                f"{p.table}: co-located with {p.colocate_with}, which does not start a"
                " distributed group"
            )
        elif places.index(root) > places.index(p):
            out.append(f"{p.table}: placed before {root.table}, the first of its group")
    return out


def script(places: Sequence[Place] = PLACES) -> str:
    """The SQL that distributes a database xdb has made, run once on the coordinator."""
    lines = [
        "-- Reference tables first: the foreign keys of the tables placed after name them.",
    ]
    for p in places:
        if p.kind == REFERENCE:
            lines.append(f"SELECT create_reference_table('{p.table}');")
    lines.append("-- Each group's first table, then the tables co-located with it.")
    for p in places:
        if p.kind == DISTRIBUTED:
            with_ = "none" if p.colocate_with is None else p.colocate_with
            lines.append(
                f"SELECT create_distributed_table('{p.table}', '{p.column}',"
                f" colocate_with => '{with_}');"
            )
    lines.append(
        "-- Local to the coordinator, known to Citus so queries may join them with the rest."
    )
    for p in places:
        if p.kind == LOCAL:
            lines.append(f"SELECT citus_add_local_table_to_metadata('{p.table}');")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- the live schema

_TABLES = """
SELECT c.relname, c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = %(schema)s AND c.relkind IN ('r', 'p') AND NOT c.relispartition
"""
_COLUMNS = """
SELECT c.relname, a.attname, a.attnum, format_type(a.atttypid, a.atttypmod),
    a.attcollation, a.attnotnull, a.attidentity <> '' OR coalesce(pg_get_expr(d.adbin,
    d.adrelid), '') LIKE 'nextval(%%'
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE n.nspname = %(schema)s AND c.relkind IN ('r', 'p') AND a.attnum > 0
    AND NOT a.attisdropped
"""
# Unique indexes: primary keys, unique constraints and unique indexes alike.
_UNIQUE = """
SELECT c.relname, x.relname, (i.indkey::int2[])[0:i.indnkeyatts - 1]
FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_class x ON x.oid = i.indexrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = %(schema)s AND i.indisunique
"""
_FOREIGN = """
SELECT k.conname, s.relname, k.conkey, t.relname, k.confkey
FROM pg_constraint k JOIN pg_class s ON s.oid = k.conrelid JOIN pg_class t ON t.oid = k.confrelid
JOIN pg_namespace n ON n.oid = s.relnamespace
WHERE n.nspname = %(schema)s AND k.contype = 'f'
"""
_TRIGGERS = """
SELECT c.relname, g.tgname FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = %(schema)s AND NOT g.tgisinternal
"""


class _Column(NamedTuple):
    number: int
    type: str
    collation: int
    notnull: bool
    numbered: bool  # an identity column or one defaulting to a sequence


def problems(conn: Any, places: Sequence[Place] = PLACES, schema: str | None = None) -> list[str]:
    """What in ``schema`` (the connection's current one by default) contradicts ``places``
    or would not distribute as they say; empty when it would."""
    if schema is None:
        schema = str(conn.execute("SELECT current_schema()").fetchone()[0])
    args = {"schema": schema}
    out = plan_problems(places)
    live = {str(r[0]) for r in conn.execute(_TABLES, args)}
    by_table = {p.table: p for p in places}
    out += [f"{t}: no stated place (xdb.store.placement)" for t in sorted(live - set(by_table))]
    out += [f"{t}: placed, but not in the schema" for t in sorted(set(by_table) - live)]

    columns: dict[tuple[str, str], _Column] = {}
    numbers: dict[tuple[str, int], str] = {}
    for table, name, num, typ, collation, notnull, numbered in conn.execute(_COLUMNS, args):
        columns[(table, name)] = _Column(int(num), str(typ), int(collation), notnull, numbered)
        numbers[(table, int(num))] = str(name)
        p = by_table.get(table)
        if p is not None and p.kind != LOCAL and numbered and typ != "bigint":
            # Citus numbers the rows of the tables it holds from bigint sequences only.
            out.append(f"{table}: {name} is numbered by a sequence as {typ}, not bigint")

    def column_of(p: Place) -> _Column | None:
        return None if p.column is None else columns.get((p.table, p.column))

    for p in places:
        col = column_of(p)
        if p.kind != DISTRIBUTED or p.table not in live:
            continue
        if col is None:
            out.append(f"{p.table}: no column {p.column} to distribute by")
            continue
        if not col.notnull:
            out.append(f"{p.table}: {p.column} may be null; Citus cannot place a null row")
        root = by_table.get(group(p))
        root_col = None if root is None else column_of(root)  # (no root: said above)
        if root is not None and root_col is not None and root_col[1:3] != col[1:3]:
            out.append(
                f"{p.table}: {p.column} is {col.type}, {root.table}.{root.column}"
                f" {root_col.type} (or their collations differ): a group's columns must match"
            )
    for table, index, keys in conn.execute(_UNIQUE, args):
        p = by_table.get(table)
        col = None if p is None else column_of(p)
        if p is not None and p.kind == DISTRIBUTED and col is not None and col.number not in keys:
            out.append(
                f"{table}: unique key {index} leaves out {p.column}, its distribution column"
            )
    for name, src, src_keys, dst, dst_keys in conn.execute(_FOREIGN, args):
        if dst not in live:
            out.append(f"{src}: foreign key {name} names {dst}, outside the schema")
            continue
        keys = zip(src_keys, dst_keys, strict=True)
        pair = [(numbers[(src, a)], numbers[(dst, b)]) for a, b in keys]
        why = _foreign_key(by_table.get(src), by_table.get(dst), pair)
        if why:
            out.append(f"{src}: foreign key {name} to {dst} {why}")
    for table, trigger in conn.execute(_TRIGGERS, args):
        out.append(
            f"{table}: trigger {trigger}; a row kept by trigger is written from every shard"
            " (count per shard instead, as a query)"
        )
    return out


def _foreign_key(src: Place | None, dst: Place | None, pairs: list[tuple[str, str]]) -> str:
    """Why Citus would refuse a foreign key from ``src`` to ``dst`` ('' where it would not)."""
    if src is None or dst is None:
        return ""  # reported above as a table without a place
    if dst.kind == REFERENCE:
        return ""  # every node holds the referenced rows
    if dst.kind == LOCAL:
        return "" if src.kind == LOCAL else "points at a local table from another place"
    if src.kind != DISTRIBUTED or group(src) != group(dst):
        return "joins tables that are neither co-located nor a reference table"
    if (src.column, dst.column) not in pairs:
        return f"does not join {src.column} to {dst.column}: its rows may be on two shards"
    return ""
