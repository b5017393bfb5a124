"""The log's and the episodes' tables, declared once and rendered for each store's dialect.

A table is its columns in a small type vocabulary, its keys, references and indexes;
``sqlite`` and ``postgres`` render its CREATE TABLE and CREATE INDEX statements. These are
the tables as the stores' first migrations make them: later migrations alter them in each
store's schema module. What one store alone has stays there: SQLite's FTS5 tables and
triggers; PostgreSQL's text-search columns and indexes, its ``pos`` columns and sequences.
Keys and indexes that exist for Citus (a distributed table's keys hold its distribution
column) are declared here beside SQLite's, as ``pg_key`` and ``only=POSTGRES``.

SQLite keeps each CREATE statement's text (``sqlite_master``), and ALTER TABLE edits that
text, so the SQLite rendering writes what the first migrations always wrote, clause for
clause: a key, unique key or reference of one column inline after it, the rest after the
columns. PostgreSQL keeps no text, only what it means.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

SQLITE: Literal["sqlite"] = "sqlite"
POSTGRES: Literal["postgres"] = "postgres"
Only = Literal["sqlite", "postgres"] | None

# The type vocabulary. INT is 64-bit on both (SQLite's INTEGER is); FLAG is SQLite's 0/1;
# NUMBERED is assigned on insert in arrival order, which on SQLite only a rowid is: such a
# column must be its table's whole key there.
TEXT, INT, REAL, FLAG, JSON, VECTOR, NUMBERED = (
    "text",
    "int",
    "real",
    "flag",
    "json",
    "vector",
    "numbered",
)
TYPES = {
    SQLITE: {
        TEXT: "TEXT",
        INT: "INTEGER",
        REAL: "REAL",
        FLAG: "INTEGER",
        JSON: "TEXT",
        VECTOR: "BLOB",
        NUMBERED: "INTEGER",
    },
    POSTGRES: {
        TEXT: "TEXT",
        INT: "BIGINT",
        REAL: "DOUBLE PRECISION",
        FLAG: "BOOLEAN",
        JSON: "JSON",
        VECTOR: "VECTOR",
        NUMBERED: "BIGINT GENERATED ALWAYS AS IDENTITY",
    },
}


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    null: bool = False
    default: str | int | bool | None = None
    only: Only = None


@dataclass(frozen=True)
class Reference:
    column: str
    table: str
    to: str
    cascade: bool = False
    # A distribution column both tables share: PostgreSQL's reference holds it too, so
    # the rows it joins and cascades to stay on one shard.
    shard: str | None = None


@dataclass(frozen=True)
class Index:
    name: str
    columns: str
    where: str | None = None
    unique: bool = False
    only: Only = None


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    unique: tuple[tuple[str, ...], ...] = ()
    references: tuple[Reference, ...] = ()
    indexes: tuple[Index, ...] = ()
    pg_key: tuple[str, ...] | None = None  # where PostgreSQL's differs (None: the same)
    pg_unique: tuple[tuple[str, ...], ...] | None = None
    without_rowid: bool = False


def _literal(value: str | int | bool, dialect: str) -> str:
    if isinstance(value, bool):
        return ("TRUE" if value else "FALSE") if dialect == POSTGRES else str(int(value))
    if isinstance(value, int):
        return str(value)
    return "'" + value.replace("'", "''") + "'"


def _create(
    table: Table,
    dialect: Literal["sqlite", "postgres"],
    key: tuple[str, ...],
    unique: tuple[tuple[str, ...], ...],
    columns: Iterable[Column],
    extra: Sequence[str],
) -> list[str]:
    types = TYPES[dialect]
    refs = {r.column: r for r in table.references if dialect == SQLITE or r.shard is None}
    lines = []
    for c in columns:
        sole_key = key == (c.name,)
        if c.type == NUMBERED and dialect == SQLITE and not sole_key:
            raise ValueError(f"{table.name}.{c.name}: only a rowid is numbered on SQLite")
        line = f"{c.name} {types[c.type]}"
        if sole_key:
            line += " PRIMARY KEY"
        elif not c.null and c.type != NUMBERED:
            line += " NOT NULL"
        if (c.name,) in unique:
            line += " UNIQUE"
        if c.default is not None:
            line += f" DEFAULT {_literal(c.default, dialect)}"
        ref = refs.get(c.name)
        if ref is not None:
            line += f" REFERENCES {ref.table} ({ref.to})" + (" ON DELETE CASCADE" * ref.cascade)
        lines.append(line)
    lines += extra
    if len(key) > 1:
        lines.append(f"PRIMARY KEY ({', '.join(key)})")
    lines += [f"UNIQUE ({', '.join(u)})" for u in unique if len(u) > 1]
    for r in table.references:
        if dialect == POSTGRES and r.shard is not None:
            lines.append(
                f"FOREIGN KEY ({r.shard}, {r.column}) REFERENCES {r.table} ({r.shard}, {r.to})"
                + (" ON DELETE CASCADE" * r.cascade)
            )
    body = ",\n    ".join(lines)
    rowid = " WITHOUT ROWID" * table.without_rowid if dialect == SQLITE else ""
    out = [f"CREATE TABLE {table.name} (\n    {body}\n){rowid}"]
    for i in table.indexes:
        if i.only in (None, dialect):
            where = f" WHERE {i.where}" if i.where else ""
            unique_index = "UNIQUE " * i.unique
            out.append(f"CREATE {unique_index}INDEX {i.name} ON {table.name} ({i.columns}){where}")
    return out


def sqlite(table: Table) -> list[str]:
    """The statements that make ``table`` on SQLite, in order."""
    columns = [c for c in table.columns if c.only in (None, SQLITE)]
    return _create(table, SQLITE, table.key, table.unique, columns, ())


def postgres(table: Table, lead: str | None = None, extra: Sequence[str] = ()) -> list[str]:
    """The statements that make ``table`` on PostgreSQL, with ``extra`` column definitions
    of its own after the declared ones. ``lead``, the distribution column, comes first and
    the key's columns next: the layout these tables have always had there, so that a fresh
    database's columns are in the order an existing one's are."""
    key = table.key if table.pg_key is None else table.pg_key
    unique = table.unique if table.pg_unique is None else table.pg_unique
    columns = [c for c in table.columns if c.only in (None, POSTGRES)]
    first = [lead] if lead else []
    first += [k for k in key if k not in first]
    columns.sort(key=lambda c: first.index(c.name) if c.name in first else len(first))
    return _create(table, POSTGRES, key, unique, columns, extra)


# ---------------------------------------------------------------------- the log

SESSIONS = Table(
    "sessions",
    (
        Column("session_id", TEXT),
        Column("next_tick", INT),
        Column("created_us", INT),
        Column("last_us", INT),
        Column("timesteps", INT, default=0),
    ),
    key=("session_id",),
)

# SQLite numbers timesteps by rowid and keeps (session, tick) unique in an index; on
# PostgreSQL (session, tick) is the key, which holds the distribution column.
TIMESTEPS = Table(
    "timesteps",
    (
        Column("seq", NUMBERED),
        Column("session_id", TEXT),
        Column("tick", INT),
        Column("ts_us", INT),
        Column("event_type", TEXT),
        Column("role", TEXT),
        Column("content", TEXT),
        Column("token_id", INT, null=True),
        Column("event_id", TEXT, null=True),
        Column("event_start", FLAG, default=False),
        Column("event_end", FLAG, default=False),
        Column("activations", JSON, null=True),
        Column("fidelity", TEXT, default="hot"),
    ),
    key=("seq",),
    pg_key=("session_id", "tick"),
    indexes=(
        Index("timesteps_session_tick", "session_id, tick", unique=True, only=SQLITE),
        Index("timesteps_time", "ts_us, seq"),
        Index("timesteps_seq", "seq", only=POSTGRES),
        Index("timesteps_event", "session_id, event_id", where="event_id IS NOT NULL"),
    ),
)

TAGS = Table(
    "tags",
    (
        Column("id", TEXT),
        Column("name", TEXT),
        Column("tag_type", TEXT),
        Column("description", TEXT, null=True),
        Column("concept_id", TEXT, null=True),
        Column("entity_type", TEXT, null=True),
        Column("bud_status", TEXT, null=True),
        Column("related_concepts", TEXT, default="[]"),
        Column("created_us", INT),
        Column("created_by", TEXT),
    ),
    key=("id",),
    unique=(("tag_type", "name"),),
    indexes=(Index("tags_name", "name"),),
)

# A tag application and a comment are found by id alone too: PostgreSQL's key leads with
# the session (the distribution column), so the id has its own index there.
TAG_APPLICATIONS = Table(
    "tag_applications",
    (
        Column("id", TEXT),
        Column("tag_id", TEXT),
        Column("target_type", TEXT),
        Column("session_id", TEXT),
        Column("tick", INT, null=True),
        Column("event_id", TEXT, null=True),
        Column("range_start", INT, null=True),
        Column("range_end", INT, null=True),
        Column("confidence", REAL),
        Column("source", TEXT),
        Column("note", TEXT, null=True),
        Column("created_us", INT),
        Column("created_by", TEXT),
    ),
    key=("id",),
    pg_key=("session_id", "id"),
    references=(Reference("tag_id", "tags", "id"),),
    indexes=(
        Index("tag_applications_tag", "tag_id, session_id"),
        Index("tag_applications_id", "id", only=POSTGRES),
    ),
)

COMMENTS = Table(
    "comments",
    (
        Column("id", TEXT),
        Column("session_id", TEXT),
        Column("target_type", TEXT),
        Column("tick", INT, null=True),
        Column("event_id", TEXT, null=True),
        Column("range_start", INT, null=True),
        Column("range_end", INT, null=True),
        Column("content", TEXT),
        Column("created_us", INT),
        Column("updated_us", INT),
        Column("created_by", TEXT),
    ),
    key=("id",),
    pg_key=("session_id", "id"),
    indexes=(
        Index("comments_session", "session_id", only=SQLITE),
        Index("comments_id", "id", only=POSTGRES),
    ),
)

# ---------------------------------------------------------------------- the episodes

# concept_tags and labels are kept twice: as JSON in the row (one read per hit) and as
# rows (indexed for filters). Vectors live here; any in-memory index is a cache. vseq
# orders vectors by arrival, so a paged search can ignore those that came later.
# On PostgreSQL every episode table holds the namespace, its distribution column, in its
# keys (``postgres/tables.py``), and seq and id are indexed alone for lookups. SQLite's
# episode rows gain a namespace later, if at all.
EPISODES = Table(
    "episodes",
    (
        Column("seq", NUMBERED),
        Column("id", TEXT),
        Column("namespace", TEXT),
        Column("kind", TEXT),
        Column("session_id", TEXT, null=True),
        Column("summary", TEXT),
        Column("content", TEXT),
        Column("start_us", INT),
        Column("end_us", INT),
        Column("created_us", INT),
        Column("created_by", TEXT),
        Column("concept_tags", JSON),
        Column("labels", JSON),
        Column("motive_profile", JSON),
        Column("metadata", JSON),
        Column("provenance", JSON),
        # SQLite makes an episode's context when it needs it (``sqlite/episode_texts``).
        Column("context", TEXT, default="", only=POSTGRES),
    ),
    key=("seq",),
    unique=(("id",),),
    pg_key=("namespace", "seq"),
    pg_unique=(("namespace", "id"),),
    indexes=(
        Index("episodes_seq", "seq", only=POSTGRES),
        Index("episodes_id", "id", only=POSTGRES),
        Index("episodes_time", "start_us, seq"),
        Index("episodes_namespace_time", "namespace, start_us, seq"),
        Index("episodes_session", "session_id, start_us, seq", where="session_id IS NOT NULL"),
    ),
)

_NAMESPACE = Column("namespace", TEXT, only=POSTGRES)
_OF_EPISODE = Reference("episode_seq", "episodes", "seq", cascade=True, shard="namespace")

EPISODE_CONCEPTS = Table(
    "episode_concepts",
    (
        _NAMESPACE,
        Column("concept_id", TEXT),
        Column("episode_seq", INT),
        Column("score", REAL),
        Column("kind", TEXT),
    ),
    key=("concept_id", "episode_seq"),
    pg_key=("concept_id", "episode_seq", "namespace"),
    references=(_OF_EPISODE,),
    indexes=(Index("episode_concepts_episode", "episode_seq"),),
    without_rowid=True,
)

EPISODE_LABELS = Table(
    "episode_labels",
    (
        _NAMESPACE,
        Column("concept_id", TEXT),
        Column("episode_seq", INT),
        Column("label", TEXT),
        Column("confidence", REAL),
    ),
    key=("concept_id", "episode_seq", "label"),
    pg_key=("concept_id", "episode_seq", "label", "namespace"),
    references=(_OF_EPISODE,),
    indexes=(Index("episode_labels_episode", "episode_seq"),),
    without_rowid=True,
)

EPISODE_VECTORS = Table(
    "episode_vectors",
    (
        _NAMESPACE,
        Column("vseq", NUMBERED),
        Column("episode_seq", INT),
        Column("model", TEXT),
        Column("vector", VECTOR),
    ),
    key=("vseq",),
    unique=(("episode_seq", "model"),),
    pg_key=("namespace", "vseq"),
    pg_unique=(("namespace", "episode_seq", "model"),),
    references=(_OF_EPISODE,),
    indexes=(Index("episode_vectors_model", "model, vseq"),),
)

EPISODE_TEXT_CHANGES = Table(
    "episode_text_changes",
    (_NAMESPACE, Column("change", NUMBERED), Column("seq", INT)),
    key=("change",),
    pg_key=("namespace", "change"),
    indexes=(Index("episode_text_changes_order", "change", only=POSTGRES),),
)

TABLES = {
    t.name: t
    for t in (
        SESSIONS,
        TIMESTEPS,
        TAGS,
        TAG_APPLICATIONS,
        COMMENTS,
        EPISODES,
        EPISODE_CONCEPTS,
        EPISODE_LABELS,
        EPISODE_VECTORS,
        EPISODE_TEXT_CHANGES,
    )
}

# The latest timesteps of a type across sessions (the warnings the engine showed, as
# steering) were a walk down the time index testing every row: 50 ms at 20,000 timesteps.
# Both stores add it in a later migration.
TIMESTEPS_BY_KIND = "CREATE INDEX timesteps_kind_time ON timesteps (event_type, ts_us, seq)"
