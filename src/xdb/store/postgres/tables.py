"""The PostgreSQL store's own tables (the log's and the episodes'), each with its place on a
distributed PostgreSQL (``xdb.store.placement``); the tables both stores share are declared
with theirs in ``xdb.store``. The migrations that make them are in ``schema``."""

from __future__ import annotations

from xdb.store import placement

# Each distributed table's column leads or joins its primary key: Citus can enforce a
# unique key only where it holds the distribution column.
# ``pos`` columns stand in for SQLite's rowid: the insertion order listings and exports use.
LOG = """
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

LOG_PLACES = placement.declared(
    LOG,
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

# Episodes are distributed by namespace: an episode's concept, label and vector rows and
# its text changes carry it too, so they sit on the episode's shard and the cascades stay
# local. ``id`` and ``seq`` are unique by construction (ids are ULIDs; seq comes from a
# sequence) and checked on insert, not by a unique index, which a distributed table could
# only have together with the namespace.
EPISODES = """
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

EPISODES_PLACES = placement.declared(
    EPISODES,
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
