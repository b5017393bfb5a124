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
    audit,
    audit_seal,
    concepts,
    fidelity,
    graph_edges,
    learning,
    policy_objects,
    session_origin,
)
from xdb.store.postgres import vector_index
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


# Each large table's distribution column leads or joins its primary key (see __init__).
# ``pos`` columns stand in for SQLite's rowid: the insertion order listings and exports use.
_LOG = """
CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,
    next_tick BIGINT NOT NULL,
    created_us BIGINT NOT NULL,
    last_us BIGINT NOT NULL,
    timesteps BIGINT NOT NULL DEFAULT 0,
    pos BIGINT NOT NULL
);
CREATE SEQUENCE sessions_pos OWNED BY sessions.pos;
ALTER TABLE sessions ALTER COLUMN pos SET DEFAULT nextval('sessions_pos');
CREATE TABLE timesteps (
    session_id TEXT NOT NULL,
    tick BIGINT NOT NULL,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    ts_us BIGINT NOT NULL,
    event_type TEXT NOT NULL,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    token_id BIGINT,
    event_id TEXT,
    event_start BOOLEAN NOT NULL DEFAULT FALSE,
    event_end BOOLEAN NOT NULL DEFAULT FALSE,
    activations JSON,
    fidelity TEXT NOT NULL DEFAULT 'hot',
    tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, xdb_fold(content))) STORED,
    PRIMARY KEY (session_id, tick)
);
CREATE INDEX timesteps_time ON timesteps (ts_us, seq);
CREATE INDEX timesteps_seq ON timesteps (seq);
CREATE INDEX timesteps_event ON timesteps (session_id, event_id) WHERE event_id IS NOT NULL;
CREATE INDEX timesteps_text ON timesteps USING gin (tsv);
CREATE TABLE tags (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    tag_type TEXT NOT NULL,
    description TEXT,
    concept_id TEXT,
    entity_type TEXT,
    bud_status TEXT,
    related_concepts TEXT NOT NULL DEFAULT '[]',
    created_us BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    pos BIGINT GENERATED ALWAYS AS IDENTITY,
    UNIQUE (tag_type, name)
);
CREATE INDEX tags_name ON tags (name);
CREATE TABLE tag_applications (
    session_id TEXT NOT NULL,
    id TEXT NOT NULL,
    tag_id TEXT NOT NULL REFERENCES tags (id),
    target_type TEXT NOT NULL,
    tick BIGINT,
    event_id TEXT,
    range_start BIGINT,
    range_end BIGINT,
    confidence DOUBLE PRECISION NOT NULL,
    source TEXT NOT NULL,
    note TEXT,
    created_us BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    pos BIGINT GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (session_id, id)
);
CREATE INDEX tag_applications_tag ON tag_applications (tag_id, session_id);
CREATE INDEX tag_applications_id ON tag_applications (id);
CREATE TABLE comments (
    session_id TEXT NOT NULL,
    id TEXT NOT NULL,
    target_type TEXT NOT NULL,
    tick BIGINT,
    event_id TEXT,
    range_start BIGINT,
    range_end BIGINT,
    content TEXT NOT NULL,
    created_us BIGINT NOT NULL,
    updated_us BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    pos BIGINT GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (session_id, id)
);
CREATE INDEX comments_id ON comments (id)
"""

# Episodes are distributed by namespace: an episode's concept, label and vector rows and
# its text changes carry it too, so they sit on the episode's shard and the cascades stay
# local. ``id`` and ``seq`` are unique by construction (ids are ULIDs; seq comes from a
# sequence) and checked on insert, not by a unique index, which a distributed table could
# only have together with the namespace.
_EPISODES = """
CREATE TABLE episodes (
    namespace TEXT NOT NULL,
    seq BIGINT GENERATED ALWAYS AS IDENTITY,
    id TEXT NOT NULL,
    kind TEXT NOT NULL,
    session_id TEXT,
    summary TEXT NOT NULL,
    content TEXT NOT NULL,
    start_us BIGINT NOT NULL,
    end_us BIGINT NOT NULL,
    created_us BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    concept_tags JSON NOT NULL,
    labels JSON NOT NULL,
    motive_profile JSON NOT NULL,
    metadata JSON NOT NULL,
    provenance JSON NOT NULL,
    context TEXT NOT NULL DEFAULT '',
    tsv TSVECTOR GENERATED ALWAYS AS (
        setweight(to_tsvector('xdb_english'::regconfig, xdb_fold(summary)), 'B')
        || setweight(to_tsvector('xdb_english'::regconfig, xdb_fold(content)), 'A')
        || setweight(to_tsvector('xdb_english'::regconfig, xdb_fold(context)), 'A')
    ) STORED,
    PRIMARY KEY (namespace, seq),
    UNIQUE (namespace, id)
);
CREATE INDEX episodes_seq ON episodes (seq);
CREATE INDEX episodes_id ON episodes (id);
CREATE INDEX episodes_time ON episodes (start_us, seq);
CREATE INDEX episodes_namespace_time ON episodes (namespace, start_us, seq);
CREATE INDEX episodes_session ON episodes (session_id, start_us, seq)
    WHERE session_id IS NOT NULL;
CREATE INDEX episodes_text ON episodes USING gin (tsv);
CREATE TABLE episode_concepts (
    namespace TEXT NOT NULL,
    concept_id TEXT NOT NULL,
    episode_seq BIGINT NOT NULL,
    score DOUBLE PRECISION NOT NULL,
    kind TEXT NOT NULL,
    PRIMARY KEY (concept_id, episode_seq, namespace),
    FOREIGN KEY (namespace, episode_seq) REFERENCES episodes (namespace, seq) ON DELETE CASCADE
);
CREATE INDEX episode_concepts_episode ON episode_concepts (episode_seq);
CREATE TABLE episode_labels (
    namespace TEXT NOT NULL,
    concept_id TEXT NOT NULL,
    episode_seq BIGINT NOT NULL,
    label TEXT NOT NULL,
    confidence DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (concept_id, episode_seq, label, namespace),
    FOREIGN KEY (namespace, episode_seq) REFERENCES episodes (namespace, seq) ON DELETE CASCADE
);
CREATE INDEX episode_labels_episode ON episode_labels (episode_seq);
CREATE TABLE episode_vectors (
    namespace TEXT NOT NULL,
    vseq BIGINT GENERATED ALWAYS AS IDENTITY,
    episode_seq BIGINT NOT NULL,
    model TEXT NOT NULL,
    vector VECTOR NOT NULL,
    PRIMARY KEY (namespace, vseq),
    UNIQUE (namespace, episode_seq, model),
    FOREIGN KEY (namespace, episode_seq) REFERENCES episodes (namespace, seq) ON DELETE CASCADE
);
CREATE INDEX episode_vectors_model ON episode_vectors (model, vseq);
CREATE TABLE episode_text_changes (
    namespace TEXT NOT NULL,
    change BIGINT GENERATED ALWAYS AS IDENTITY,
    seq BIGINT NOT NULL,
    PRIMARY KEY (namespace, change)
);
CREATE INDEX episode_text_changes_order ON episode_text_changes (change)
"""


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
    from xdb.store.rows import sessionless_with_neighbours

    for seq in sessionless_with_neighbours(conn):
        refresh_context(conn, seq)


def _access_policies(conn: Conn) -> None:
    for statement in access.COLUMNS:
        conn.execute(statement)


def restricted_views(conn: Conn, applied: list[int]) -> None:
    """(Re)create the views restricted callers read through (``store/access.py``) after
    any migration (a view keeps the columns it was made with) or when they are missing."""
    row = conn.execute("SELECT current_schema()").fetchone()
    assert row is not None
    base = str(row[0])
    present = conn.execute(
        "SELECT 1 FROM pg_namespace WHERE nspname = %s", (access.pg_schema(base),)
    ).fetchone()
    if applied or present is None:
        for statement in access.pg_views(base):
            conn.execute(statement.encode())


# The latest timesteps of a type across sessions (the warnings the engine showed, as
# steering) were a walk down the time index testing every row.
TIMESTEPS_BY_KIND = "CREATE INDEX timesteps_kind_time ON timesteps (event_type, ts_us, seq)"


MIGRATIONS: list[tuple[int, str, Callable[[Conn], None]]] = [
    (1, "extensions and text search", _functions),
    (2, "experience log", _run(_LOG)),
    (3, "episodes", _run(_EPISODES)),
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
    (15, "timesteps by type", _run(TIMESTEPS_BY_KIND)),
    # Where the audit log ends, MACed with XDB_AUDIT_KEY: removing its newest records is
    # caught.
    (16, "the audit log's head seal", lambda c: audit_seal.migrate(c, "%s", audit.signing_key())),
    # The sessions the engine's hooks make are never a handle's default session; those made
    # before are recognised by their names and contents (``session_origin``).
    (17, "where a session came from", _run(f"{session_origin.COLUMN};{session_origin.BACKFILL}")),
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
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_us BIGINT NOT NULL)"
        )
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
