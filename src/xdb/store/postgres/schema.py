"""The PostgreSQL schema and its migrations, recorded in the database itself.

Migrations run under a transaction-level advisory lock, so several processes starting at
once apply each one exactly once; every migration is one transaction with the row that
records it (PostgreSQL DDL is transactional). A database migrated by a newer xdb (an
unknown version) is refused rather than guessed at.

Text: ``xdb_fold`` turns text into what the tokenizer sees, the same way FTS5's
``unicode61 remove_diacritics 2`` does in the SQLite store: accents removed (``unaccent``)
and ASCII punctuation, including ``_``, made a word break (PostgreSQL's parser would
otherwise keep ``a@b.com``, ``3.14`` or ``foo-bar`` as single tokens). Timesteps use the
``simple`` configuration (no stemming, no stop words, like FTS5 without ``porter``);
episodes use ``xdb_english``: Snowball English stemming without a stop-word list, since
a query made only of common words (``search_terms`` keeps those when nothing else is left)
must still match.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import psycopg
from psycopg import sql
from psycopg.rows import TupleRow

from xdb.errors import MigrationError
from xdb.store import (
    access,
    access_views,
    audit,
    audit_seal,
    concepts,
    fidelity,
    graph_edges,
    learning,
    policy_objects,
    session_origin,
)
from xdb.store import table_declarations as declared
from xdb.store.postgres import tables, vector_index
from xdb.store.sqlbuild import POSTGRES

Conn = psycopg.Connection[TupleRow]

# Any constant unique to xdb: the advisory lock key that serialises migrations.
MIGRATION_LOCK = 0x7864_6200_0001

# ASCII characters that are neither letters nor digits; everything non-ASCII is left to the
# parser (which splits on Unicode punctuation and spaces under a UTF-8 locale).
_BREAKS = r"[^0-9A-Za-z\u0080-\U0010ffff]+"


def _functions(conn: Conn) -> None:
    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    conn.execute("CREATE EXTENSION IF NOT EXISTS unaccent")
    row = conn.execute(
        "SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace"
        " WHERE e.extname = 'unaccent'"
    ).fetchone()
    assert row is not None  # created just above
    schema = sql.Identifier(row[0])
    # unaccent() is STABLE (it finds its dictionary through search_path); naming the
    # dictionary by OID makes the wrapper safe to declare IMMUTABLE, which a generated
    # column requires.
    conn.execute(
        sql.SQL(
            "CREATE FUNCTION xdb_fold(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT"
            " PARALLEL SAFE RETURN regexp_replace({schema}.unaccent({dictionary}::regdictionary,"
            " $1), {breaks}, ' ', 'g')"
        ).format(
            schema=schema,
            dictionary=sql.Literal(f"{row[0]}.unaccent"),
            breaks=sql.Literal(_BREAKS),
        )
    )
    conn.execute(
        "CREATE TEXT SEARCH DICTIONARY xdb_english_stem (TEMPLATE = snowball, LANGUAGE = english)"
    )
    conn.execute("CREATE TEXT SEARCH CONFIGURATION xdb_english (COPY = pg_catalog.english)")
    conn.execute(
        "ALTER TEXT SEARCH CONFIGURATION xdb_english ALTER MAPPING FOR asciiword, asciihword,"
        " hword_asciipart, word, hword, hword_part WITH xdb_english_stem"
    )


# An episode never changes its id or time window, so its concept rows carry copies: a
# concept's own index rows then answer "its first episodes by id" (graph walks) and "its
# episodes in this window" (recall, usage) without a join per row. Ids compare as bytes
# ("C"), as Python and SQLite compare them, so both stores walk a graph in one order.
_TAG_FACTS = """
ALTER TABLE episode_concepts ADD COLUMN episode_id TEXT COLLATE "C",
    ADD COLUMN start_us BIGINT, ADD COLUMN end_us BIGINT;
UPDATE episode_concepts c SET episode_id = e.id, start_us = e.start_us, end_us = e.end_us
    FROM episodes e WHERE e.namespace = c.namespace AND e.seq = c.episode_seq;
ALTER TABLE episode_concepts ALTER COLUMN episode_id SET NOT NULL,
    ALTER COLUMN start_us SET NOT NULL, ALTER COLUMN end_us SET NOT NULL;
CREATE INDEX episode_concepts_id ON episode_concepts (concept_id, episode_id)
"""


# A filtered recall reads a concept's rows in a time window and then its episodes' filter
# columns; with both covering indexes neither touches a table's pages (episodes rows are
# ~1.8 KB) once vacuum has marked them all-visible: the filtered search's statement at 100k
# went 5.5 -> 3.5-4.3 ms p50. A window's end is the key: recall mostly asks "since".
_RECALL_COVER = """
CREATE INDEX episode_concepts_window ON episode_concepts (concept_id, end_us)
    INCLUDE (start_us, score, kind, namespace, episode_seq);
DROP INDEX episodes_seq;
CREATE INDEX episodes_seq ON episodes (seq) INCLUDE (namespace, session_id, start_us, end_us, kind)
"""


def _run(script: str) -> Callable[[Conn], None]:
    def apply(conn: Conn) -> None:
        for statement in script.split(";"):
            if statement.strip():
                conn.execute(statement)

    return apply


def _sessionless_contexts(conn: Conn) -> None:
    from xdb.store.postgres.episodes import refresh_context
    from xdb.store.row_models import sessionless_with_neighbours

    for seq in sessionless_with_neighbours(conn):
        refresh_context(conn, seq)


def _access_policies(conn: Conn) -> None:
    for statement in access.COLUMNS:
        conn.execute(statement)


def restricted_views(conn: Conn, applied: list[int]) -> None:
    """(Re)create the views restricted callers read through (``store/access_views.py``) after
    any migration (a view keeps the columns it was made with) or when they are missing."""
    row = conn.execute("SELECT current_schema()").fetchone()
    assert row is not None
    base = str(row[0])
    present = conn.execute(
        "SELECT 1 FROM pg_namespace WHERE nspname = %s", (access_views.pg_schema(base),)
    ).fetchone()
    if applied or present is None:
        for statement in access_views.pg_views(base):
            conn.execute(statement.encode())


MIGRATIONS: list[tuple[int, str, Callable[[Conn], None]]] = [
    (1, "extensions and text search", _functions),
    (2, "experience log", _run(tables.LOG)),
    (3, "episodes", _run(tables.EPISODES)),
    # HNSW indexes per model (see vector_index): building one over vectors already stored
    # takes a while on a large database, once.
    (4, "vector search", vector_index.migrate),
    (5, "concept packs and the experience graph", _run(f"{concepts.SCHEMA};{graph_edges.SCHEMA}")),
    (6, "episode facts on concept rows", _run(_TAG_FACTS)),
    (7, "covering indexes for filtered recall", _run(_RECALL_COVER)),
    # Episodes without a session have had neighbours (store/context.py) since version 8;
    # those stored before are indexed with theirs now, once.
    (8, "sessionless neighbours in the text index", _sessionless_contexts),
    (9, "policy objects", _run(policy_objects.SCHEMA)),
    (10, "the audit log", _run(audit.SCHEMA.format(key="BIGINT"))),
    (11, "access policies on objects", _access_policies),
    (12, "episodes under an access policy", _run(access.EPISODE_POLICIES)),
    (13, "the learning harness", lambda conn: learning.migrate(conn, POSTGRES)),
    (14, "fidelity: holds, records, compactions", lambda conn: fidelity.migrate(conn, POSTGRES)),
    (15, "timesteps by type", _run(declared.TIMESTEPS_BY_KIND)),
    # Where the audit log ends, MACed with XDB_AUDIT_KEY: removing its newest records is
    # caught.
    (16, "the audit log's head seal", lambda c: audit_seal.migrate(c, "%s", audit.signing_key())),
    # The sessions the engine's hooks make are never a handle's default session; those made
    # before are recognised by their names and contents (``session_origin``).
    (17, "where a session came from", _run(f"{session_origin.COLUMN};{session_origin.BACKFILL}")),
    # A COLD record lives on its episode's shard, so its key takes the namespace
    # (``tables.RECORDS_BY_NAMESPACE``; docs/scaling.md).
    (18, "memory records keyed by namespace", _run(tables.RECORDS_BY_NAMESPACE)),
]
ACCESS_VERSION = 11  # the columns the restricted views read come with it

LATEST = MIGRATIONS[-1][0]


def migrate(conn: Conn) -> list[int]:
    """Bring the schema up to date; return the versions applied now."""
    applied: list[int] = []
    with conn.transaction():
        # Taken before anything else: two processes starting together would otherwise
        # both see "not applied yet" and race to create the same objects.
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(tables.MIGRATIONS_TABLE)
        done = {int(r[0]) for r in conn.execute("SELECT version FROM schema_migrations")}
        unknown = sorted(v for v in done if v > LATEST)
        if unknown:
            raise MigrationError(
                f"this database has schema version {unknown[-1]}, newer than this xdb knows"
                f" ({LATEST}); upgrade xdb to open it"
            )
        for version, name, apply in MIGRATIONS:
            if version in done:
                continue
            try:
                with conn.transaction():  # a savepoint: the error names the migration
                    apply(conn)
            except psycopg.Error as exc:
                raise MigrationError(
                    f"schema migration {version} ({name}) failed: {exc}. It needs the"
                    " 'vector' (pgvector) and 'unaccent' extensions and the right to create"
                    " tables in this database's schema"
                ) from exc
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_us) VALUES (%s, %s, %s)",
                (version, name, time.time_ns() // 1000),
            )
            applied.append(version)
        if ACCESS_VERSION in done or ACCESS_VERSION in applied:
            restricted_views(conn, applied)
    return applied
