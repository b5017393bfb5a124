"""The SQLite schema and its migrations, recorded in the file itself.

Each migration runs once, in order, inside the write transaction that records it; a file
written by a newer xdb (an unknown version) is refused rather than guessed at.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

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
from xdb.store import table_declarations as declared
from xdb.store.sqlbuild import SQLITE
from xdb.store.sqlite import audit_pending, episode_texts, sessions


def _sessionless_contexts(conn: sqlite3.Connection) -> None:
    """Version 9: each sessionless episode with a neighbour is indexed with its context, as
    the file then kept it (a stored column, until version 23)."""
    from xdb.store.context import context
    from xdb.store.row_models import neighbours, sessionless_with_neighbours

    for seq in sessionless_with_neighbours(conn):
        summary, content, old, start_us = conn.execute(
            "SELECT summary, content, context, start_us FROM episodes WHERE seq = ?", (seq,)
        ).fetchone()
        near = [
            conn.execute("SELECT content FROM episodes WHERE seq = ?", (s,)).fetchone()[0]
            for s in neighbours(conn, SQLITE, seq, "seq")
            if s is not None
        ]
        new = context(start_us, near)
        if new == old:
            continue
        conn.execute(
            "INSERT INTO episodes_fts (episodes_fts, rowid, summary, content, context)"
            " VALUES ('delete', ?, ?, ?, ?)",
            (seq, summary, content, old),
        )
        conn.execute("UPDATE episodes SET context = ? WHERE seq = ?", (new, seq))
        conn.execute("INSERT INTO episode_text_changes (seq) VALUES (?)", (seq,))
        conn.execute(
            "INSERT INTO episodes_fts (rowid, summary, content, context) VALUES (?,?,?,?)",
            (seq, summary, content, new),
        )


# The tables are declared with PostgreSQL's (``table_declarations``); the FTS5 indexes are
# SQLite's own, each made after the table it reads its text from (external content).
_LOG = ";\n".join(
    [
        *declared.sqlite(declared.SESSIONS),
        *declared.sqlite(declared.TIMESTEPS),
        "CREATE VIRTUAL TABLE timesteps_fts USING fts5 (\n    content, content='timesteps',"
        " content_rowid='seq',\n    tokenize='unicode61 remove_diacritics 2'\n)",
        *declared.sqlite(declared.TAGS),
        *declared.sqlite(declared.TAG_APPLICATIONS),
        *declared.sqlite(declared.COMMENTS),
    ]
)
_EPISODES = [
    *declared.sqlite(declared.EPISODES),
    *declared.sqlite(declared.EPISODE_CONCEPTS),
    *declared.sqlite(declared.EPISODE_LABELS),
    "CREATE VIRTUAL TABLE episodes_fts USING fts5 (\n    summary, content, context,"
    " content='episodes', content_rowid='seq',\n"
    "    tokenize='porter unicode61 remove_diacritics 2'\n)",
    *declared.sqlite(declared.EPISODE_VECTORS),
]


# A concept's rows carry their episode's namespace too (PostgreSQL's always have: it is the
# distribution column), so "its episodes in this namespace" needs no join per row (at 1M
# episodes a join cost ~10x the rows' own read). And each concept's episode count is kept
# by triggers (one writer per file: no contention), so NPMI's marginal counts are one row
# each, where counting 200 concepts' rows took 138 ms. A restricted reader counts its own
# visible rows instead (``access_views.sqlite_views``).
_CONCEPT_USAGE = [
    "ALTER TABLE episode_concepts ADD COLUMN namespace TEXT NOT NULL DEFAULT ''",
    "UPDATE episode_concepts SET namespace ="
    " coalesce((SELECT namespace FROM episodes WHERE seq = episode_seq), '')",
    "CREATE TABLE concept_counts (concept_id TEXT PRIMARY KEY, episodes INTEGER NOT NULL)"
    " WITHOUT ROWID",
    "INSERT INTO concept_counts SELECT concept_id, count(*) FROM episode_concepts"
    " GROUP BY concept_id",
    "CREATE TRIGGER concept_counted AFTER INSERT ON episode_concepts BEGIN"
    " INSERT INTO concept_counts VALUES (NEW.concept_id, 1) ON CONFLICT (concept_id)"
    " DO UPDATE SET episodes = episodes + 1; END",
    "CREATE TRIGGER concept_uncounted AFTER DELETE ON episode_concepts BEGIN"
    " UPDATE concept_counts SET episodes = episodes - 1 WHERE concept_id = OLD.concept_id; END",
    declared.TIMESTEPS_BY_KIND,
]


_SUMMARY_AS_CONTENT = [
    "ALTER TABLE episodes RENAME COLUMN summary TO own_summary",
    "ALTER TABLE episodes ADD COLUMN summary_is_content INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE episodes ADD COLUMN summary TEXT GENERATED ALWAYS AS"
    " (CASE WHEN summary_is_content THEN content ELSE own_summary END) VIRTUAL",
]


# A migration is a script of statements separated by ";", a list of statements (for
# those, like triggers, that hold a ";" themselves), or a function of the connection (for
# data that Python rewrites).
MIGRATIONS: list[tuple[int, str, str | list[str] | Callable[[sqlite3.Connection], None]]] = [
    (1, "experience log", _LOG),
    (
        2,
        "deferred full-text indexing",
        # Everything already in the log was indexed with its commit under version 1.
        """
        CREATE TABLE index_watermarks (
            name TEXT PRIMARY KEY,
            position INTEGER NOT NULL
        );
        INSERT INTO index_watermarks (name, position)
            SELECT 'timesteps_fts', coalesce(max(seq), 0) FROM timesteps;
        """,
    ),
    (3, "episodes", _EPISODES),
    (
        4,
        "episode text change log",
        # Every change to what an episode's text index entry holds (added, its context
        # refreshed, deleted), in order: the tantivy index applies it up to a watermark.
        [
            *declared.sqlite(declared.EPISODE_TEXT_CHANGES),
            "INSERT INTO episode_text_changes (seq) SELECT seq FROM episodes ORDER BY seq",
        ],
    ),
    (
        5,
        "numbers are never reused",
        # seq and vseq are rowids, which SQLite numbers max + 1: deleting the newest row
        # would hand its number to the next one, behind the back of every cache that keeps
        # a watermark over them (the vector index loads vseqs above its own). Triggers keep
        # the highest number deleted (cascades included), and inserts number from above
        # it (``numbering.next_number``). Only deletes pay; AUTOINCREMENT would cost every insert a
        # write to sqlite_sequence, and adding it means rebuilding the tables. The text
        # change log knows seqs deleted before this migration, as far as it goes back; a
        # vseq deleted before it may come back once, which no cache can notice: the vector
        # index is rebuilt by every process that starts, and this runs as one starts.
        [
            "CREATE TABLE number_floors ("
            " name TEXT PRIMARY KEY, floor INTEGER NOT NULL) WITHOUT ROWID",
            "INSERT INTO number_floors (name, floor) VALUES"
            " ('episodes.seq', (SELECT coalesce(max(seq), 0) FROM episode_text_changes)),"
            " ('episode_vectors.vseq', 0)",
            "CREATE TRIGGER episodes_deleted AFTER DELETE ON episodes BEGIN"
            " UPDATE number_floors SET floor = max(floor, OLD.seq) WHERE name = 'episodes.seq';"
            " END",
            "CREATE TRIGGER episode_vectors_deleted AFTER DELETE ON episode_vectors BEGIN"
            " UPDATE number_floors SET floor = max(floor, OLD.vseq)"
            " WHERE name = 'episode_vectors.vseq'; END",
        ],
    ),
    (6, "concept packs and the experience graph", f"{concepts.SCHEMA};{graph_edges.SCHEMA}"),
    (
        7,
        "episode facts on concept rows",
        # An episode never changes its id or time window, so its concept rows carry copies:
        # a concept's own index rows then answer "its first episodes by id" (graph walks)
        # and "its episodes in this window" (recall, usage) without a join per row.
        [
            "ALTER TABLE episode_concepts ADD COLUMN episode_id TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE episode_concepts ADD COLUMN start_us INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE episode_concepts ADD COLUMN end_us INTEGER NOT NULL DEFAULT 0",
            "UPDATE episode_concepts SET (episode_id, start_us, end_us) ="
            " (SELECT id, start_us, end_us FROM episodes WHERE seq = episode_seq)",
            "CREATE INDEX episode_concepts_id ON episode_concepts (concept_id, episode_id)",
        ],
    ),
    # A lone record no longer rewrites its session's row: the row counts behind the log and
    # a view adds the rest (``sessions``). A version before 8 would trust the row's
    # next_tick, so it must not open a file written since.
    (8, "session counters behind the log", sessions.MIGRATION),
    # Episodes without a session have had neighbours (store/context.py) since version 9;
    # those stored before are indexed with theirs now, once.
    (9, "sessionless neighbours in the text index", _sessionless_contexts),
    (10, "policy objects", policy_objects.SCHEMA),
    (11, "the audit log", audit.SCHEMA.format(key="INTEGER")),
    (12, "access policies on objects", access.COLUMNS),
    (13, "episodes under an access policy", access.EPISODE_POLICIES),
    (14, "the learning harness", lambda conn: learning.migrate(conn, SQLITE)),
    (15, "fidelity: holds, records, compactions", lambda conn: fidelity.migrate(conn, SQLITE)),
    (16, "concept usage without joins; timesteps by type", _CONCEPT_USAGE),
    # Where the audit log ends, MACed with XDB_AUDIT_KEY: removing its newest records is
    # caught. A version before 17 would append without moving the seal, so it must not open
    # a file written since.
    (17, "the audit log's head seal", lambda c: audit_seal.migrate(c, "?", audit.signing_key())),
    # The sessions the engine's hooks make are never a handle's default session; those made
    # before are recognised by their names and contents (``session_origin``).
    (18, "where a session came from", [session_origin.COLUMN, session_origin.BACKFILL]),
    # Concept counts are added once per batch of inserted episodes (``episodes.insert_many``)
    # rather than by a trigger per concept row: the trigger's upsert was 60% of inserting
    # an import's concept rows (0.35 of 0.58 s at 20,000 episodes). Deletes keep theirs. A
    # version before 19 would insert without counting, so it must not open a file written
    # since.
    (19, "concept counts per batch", ["DROP TRIGGER concept_counted"]),
    # An episode's default summary is its content's first sentence, often the whole of a
    # short content: the row kept that text twice (79% of an import of ``bench.recall``'s
    # episodes, 168 bytes each). A summary equal to the content is now stored as '' with a
    # flag, and ``summary`` is a column computed from the two, so every read (FTS5's own
    # reads of its content table included) sees what it saw before. Rows written before
    # keep their text. A version before 20 would insert into the computed column, so it
    # must not open a file written since.
    (20, "a summary that is the content is not stored twice", _SUMMARY_AS_CONTENT),
    # A lone record's audit record is chained after its commit, from its row
    # (``audit_pending``). A version before 21 would record without either, so it must not
    # open a file written since.
    (21, "audit records chained from their rows", audit_pending.MIGRATION),
    # A long audit body is stored compressed, as a BLOB (``audit.COMPRESS_FROM``): a version
    # before 22 would read it as text and fail, so it must not open a file written since.
    (22, "long audit bodies compressed", []),
    # An episode's context is made from its neighbours when needed, not stored
    # (``episode_texts``): FTS5 reads a view. A version before 23 would insert a context
    # into a column that is gone, so it must not open a file written since.
    (23, "contexts computed, not stored", episode_texts.migrate),
]


LATEST = MIGRATIONS[-1][0]


def migrate(conn: sqlite3.Connection) -> list[int]:
    """Bring the schema up to date; return the versions applied now. Call in a write txn."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_us INTEGER NOT NULL)"
    )
    done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
    unknown = sorted(v for v in done if v > LATEST)
    if unknown:
        raise MigrationError(
            f"this database has schema version {unknown[-1]}, newer than this xdb knows"
            f" ({LATEST}); upgrade xdb to open it"
        )
    applied = []
    for version, name, sql in MIGRATIONS:
        if version in done:
            continue
        if callable(sql):
            sql(conn)
        else:
            for statement in sql if isinstance(sql, list) else sql.split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(
            "INSERT INTO schema_migrations (version, name, applied_us) VALUES (?, ?, ?)",
            (version, name, time.time_ns() // 1000),
        )
        applied.append(version)
    return applied
