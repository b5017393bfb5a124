"""The log's and the episodes' tables as the PostgreSQL store makes them, each with its place
on a distributed PostgreSQL (``xdb.store.placement``): their columns and keys are declared
with SQLite's in ``xdb.store.table_declarations``, and what PostgreSQL alone has is added
here. The other tables both stores share are declared with their code in ``xdb.store``.
The migrations that make them are in ``schema``."""

from __future__ import annotations

from collections.abc import Sequence

from xdb.store import placement
from xdb.store import table_declarations as declared
from xdb.store.placement import Place

# Each distributed table's column leads or joins its primary key: Citus can enforce a
# unique key only where it holds the distribution column (``declared.postgres`` puts it
# first). ``pos`` columns stand in for SQLite's rowid: the insertion order listings and
# exports use. Sessions take theirs from a named sequence, which the batched upsert that
# records a log (``store.py``) draws from in the batch's order of first appearance.
_POS = "pos BIGINT GENERATED ALWAYS AS IDENTITY"
_OWN_COLUMNS = {
    "sessions": ["pos BIGINT NOT NULL"],
    "timesteps": [
        "tsv TSVECTOR GENERATED ALWAYS AS"
        " (to_tsvector('simple'::regconfig, xdb_fold(content))) STORED"
    ],
    "tags": [_POS],
    "tag_applications": [_POS],
    "comments": [_POS],
    "episodes": [
        """tsv TSVECTOR GENERATED ALWAYS AS (
        setweight(to_tsvector('xdb_english'::regconfig, xdb_fold(summary)), 'B')
        || setweight(to_tsvector('xdb_english'::regconfig, xdb_fold(content)), 'A')
        || setweight(to_tsvector('xdb_english'::regconfig, xdb_fold(context)), 'A')
    ) STORED"""
    ],
}
_AFTER = {
    "sessions": [
        "CREATE SEQUENCE sessions_pos OWNED BY sessions.pos",
        "ALTER TABLE sessions ALTER COLUMN pos SET DEFAULT nextval('sessions_pos')",
    ],
    "timesteps": ["CREATE INDEX timesteps_text ON timesteps USING gin (tsv)"],
    "episodes": ["CREATE INDEX episodes_text ON episodes USING gin (tsv)"],
}


def _script(places: Sequence[Place]) -> str:
    """The statements that make the declared tables ``places`` name, in their order."""
    out = []
    for p in places:
        table = declared.TABLES[p.table]
        out += declared.postgres(table, p.column, _OWN_COLUMNS.get(p.table, ()))
        out += _AFTER.get(p.table, ())
    return ";\n".join(out)


_LOG = (
    placement.distributed(
        "sessions",
        "session_id",
        "the log is written and read per session: ticks, events, tick ranges and tag"
        " coverage never cross sessions",
    ),
    placement.distributed(
        "timesteps",
        "session_id",
        "a session's ticks, numbered from its row in the same statement",
        colocate_with="sessions",
    ),
    placement.reference(
        "tags",
        "the tag vocabulary: small, named by every shard's tag applications (a foreign key)",
    ),
    placement.distributed(
        "tag_applications",
        "session_id",
        "applied to a session's ticks, events and ranges, and checked against them",
        colocate_with="sessions",
    ),
    placement.distributed(
        "comments",
        "session_id",
        "on a session's ticks, events and ranges, read with them",
        colocate_with="sessions",
    ),
)
LOG = _script(_LOG)
LOG_PLACES = placement.declared(LOG, *_LOG)

# Episodes are distributed by namespace: an episode's concept, label and vector rows and
# its text changes carry it too, so they sit on the episode's shard and the cascades stay
# local. ``id`` and ``seq`` are unique by construction (ids are ULIDs; seq comes from a
# sequence) and checked on insert, not by a unique index, which a distributed table could
# only have together with the namespace.
_EPISODES = (
    placement.distributed(
        "episodes",
        "namespace",
        "an agent's or a project's memory: a search names its namespace, so it runs on one shard",
    ),
    placement.distributed(
        "episode_concepts",
        "namespace",
        "an episode's concept rows, joined and cascaded on (namespace, seq)",
        colocate_with="episodes",
    ),
    placement.distributed(
        "episode_labels",
        "namespace",
        "an episode's labels, joined and cascaded on (namespace, seq)",
        colocate_with="episodes",
    ),
    placement.distributed(
        "episode_vectors",
        "namespace",
        "an episode's vectors: each shard keeps its own HNSW index over its own episodes",
        colocate_with="episodes",
    ),
    placement.distributed(
        "episode_text_changes",
        "namespace",
        "each change is written with the episode it changes, in its transaction",
        colocate_with="episodes",
    ),
)
EPISODES = _script(_EPISODES)
EPISODES_PLACES = placement.declared(EPISODES, *_EPISODES)

# What migrations have run: the coordinator migrates (Citus passes DDL on to the shards).
MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_us BIGINT NOT NULL)"
)
MIGRATIONS_PLACES = placement.declared(
    MIGRATIONS_TABLE,
    placement.local("schema_migrations", "the coordinator migrates; Citus passes DDL on"),
)

# A COLD record is an episode and goes where it goes (``fidelity.PLACES``): its key takes
# the namespace, as a distributed table's unique keys must. Its id stays unique as episode
# ids are (ULIDs, checked where episodes are stored); the index keeps lookups by id.
RECORDS_BY_NAMESPACE = """
ALTER TABLE memory_records DROP CONSTRAINT memory_records_pkey;
ALTER TABLE memory_records ADD PRIMARY KEY (namespace, id);
CREATE INDEX memory_records_id ON memory_records (id)
"""
