"""Episode seqs and vector vseqs are never handed out twice, files from before included.

(That a new store never reuses them is in the contract suite, on both stores.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.store._data import episode
from tests.store.sqlite._versions import TO_VERSION_22
from xdb.store.sqlite import SQLiteStore
from xdb.store.sqlite.schema import LATEST

ONE = b"\0\0\x80?"  # the float32 vector [1.0]


TABLES_WITH_POLICIES = ("timesteps", "episodes", "tags", "comments")


def test_a_version_4_file_keeps_the_seqs_it_deleted_when_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "v4.sqlite3"
    old = SQLiteStore(path)
    for n in (1, 2, 3):
        old.add_episode(episode(n, f"e{n}"))
    assert old.delete_episode("episode-003") == 3  # logged in the text change log
    old.close()
    # Back to version 4: what version 5 added is gone, the text change log remains.
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in (
        *TO_VERSION_22,  # the last version first: the rows keep their contexts
        "DROP TRIGGER episodes_deleted",
        "DROP TRIGGER episode_vectors_deleted",
        "DROP TABLE number_floors",
        "DELETE FROM schema_migrations WHERE version = 5",
        # and version 6 (concept packs and the graph), which came after
        "DROP TABLE graph_edges",
        "DROP TABLE graph_nodes",
        "DROP TABLE concepts",
        "DROP TABLE concept_packs",
        "DELETE FROM schema_migrations WHERE version = 6",
        # and version 7 (episode facts on concept rows)
        "DROP INDEX episode_concepts_id",
        "ALTER TABLE episode_concepts DROP COLUMN episode_id",
        "ALTER TABLE episode_concepts DROP COLUMN start_us",
        "ALTER TABLE episode_concepts DROP COLUMN end_us",
        "DELETE FROM schema_migrations WHERE version = 7",
        # and version 8 (session counters behind the log)
        "DROP VIEW session_totals",
        "ALTER TABLE sessions DROP COLUMN pending",
        "DELETE FROM schema_migrations WHERE version = 8",
        # and version 9 (sessionless neighbours: nothing to undo on an empty file)
        "DELETE FROM schema_migrations WHERE version = 9",
        "DROP TABLE policy_objects",
        "DELETE FROM schema_migrations WHERE version = 10",
        "DROP TABLE audit_log",
        "DELETE FROM schema_migrations WHERE version = 11",
        # and versions 12 and 13 (access policies)
        "DROP INDEX episodes_access",
        "DELETE FROM schema_migrations WHERE version = 13",
        *[f"ALTER TABLE {t} DROP COLUMN access_policy_id" for t in TABLES_WITH_POLICIES],
        "DELETE FROM schema_migrations WHERE version = 12",
        # and version 14 (the learning harness)
        "DROP TABLE exemplars",
        "DROP TABLE learning_objects",
        "DROP TABLE dataset_members",
        "DELETE FROM schema_migrations WHERE version = 14",
        # and version 15 (fidelity)
        "DROP TABLE timestep_holds",
        "DROP TABLE memory_records",
        "DROP TABLE compactions",
        "DELETE FROM schema_migrations WHERE version = 15",
        # and version 16 (concept usage without joins; 19 dropped its insert trigger)
        "DROP TRIGGER concept_uncounted",
        "DROP TABLE concept_counts",
        "ALTER TABLE episode_concepts DROP COLUMN namespace",
        "DROP INDEX timesteps_kind_time",
        "DELETE FROM schema_migrations WHERE version = 16",
        # and version 17 (the audit log's head seal)
        "DROP TABLE audit_seal",
        "DELETE FROM schema_migrations WHERE version = 17",
        # and version 18 (where a session came from)
        "ALTER TABLE sessions DROP COLUMN origin",
        "DELETE FROM schema_migrations WHERE version = 18",
        # and version 19 (concept counts per batch)
        "DELETE FROM schema_migrations WHERE version = 19",
        # and version 20 (a summary that is the content stored once)
        "UPDATE episodes SET own_summary = content WHERE summary_is_content",
        "ALTER TABLE episodes DROP COLUMN summary",
        "ALTER TABLE episodes DROP COLUMN summary_is_content",
        "ALTER TABLE episodes RENAME COLUMN own_summary TO summary",
        "DELETE FROM schema_migrations WHERE version = 20",
        # and version 21 (audit records chained from their rows)
        "ALTER TABLE timesteps DROP COLUMN audit_at",
        "ALTER TABLE timesteps DROP COLUMN audit_caller",
        "ALTER TABLE timesteps DROP COLUMN audit_operation",
        "DELETE FROM index_watermarks WHERE name = 'audit_pending'",
        "DELETE FROM schema_migrations WHERE version = 21",
        # and version 22 (long audit bodies compressed: nothing to undo)
        "DELETE FROM schema_migrations WHERE version = 22",
    ):
        conn.execute(statement)
    conn.close()

    store = SQLiteStore(path)
    try:
        assert store.add_episode(episode(4, "e4")) == 4
        assert store.store_vectors("m", [(4, ONE)]) == [1]
        assert store.delete_episode("episode-004") == 4
        # Reopened: the floors live in the file.
        store.close()
        store = SQLiteStore(path)
        assert store.add_episode(episode(5, "e5")) == 5
        assert store.store_vectors("m", [(5, ONE)]) == [2]
    finally:
        store.close()
    conn = sqlite3.connect(path)
    try:
        floors = dict(conn.execute("SELECT name, floor FROM number_floors").fetchall())
    finally:
        conn.close()
    assert floors == {"episodes.seq": 4, "episode_vectors.vseq": 1}
    assert LATEST == 23  # this test's downgrade undoes versions 5 to 23


# The statement ``store_vectors`` ran once per vector before it became set-based.
_ROW_BY_ROW = (
    "INSERT INTO episode_vectors (vseq, episode_seq, model, vector)"
    " SELECT (SELECT max(coalesce((SELECT max(vseq) FROM episode_vectors), 0), floor) + 1"
    " FROM number_floors WHERE name = 'episode_vectors.vseq'), seq, ?, ? FROM episodes"
    " WHERE seq = ? ON CONFLICT (episode_seq, model) DO NOTHING"
)


def test_vectors_stored_together_are_stored_as_one_insert_after_another(tmp_path: Path) -> None:
    # Deleted episodes and vectors (the floor), a vector already there, an episode twice
    # and one that does not exist, in one call: the same rows and vseqs as a statement each.
    stores = [SQLiteStore(tmp_path / f"{name}.sqlite3") for name in ("bulk", "single")]
    for store in stores:
        for n in range(1, 13):
            store.add_episode(episode(n, f"e{n}"))
        store.store_vectors("m", [(1, ONE), (2, ONE), (12, ONE)])
        store.delete_episode("episode-012")  # its vector's vseq (3) is never handed out again
        store.delete_episode("episode-007")
    blob = [bytes([n]) * 4 for n in range(20)]
    given = [(5, blob[5]), (2, blob[2]), (7, blob[7]), (9, blob[9]), (5, blob[6]), (99, blob[1])]
    given += [(seq, blob[seq]) for seq in (11, 3, 4, 10, 8, 6)]
    bulk, single = stores
    vseqs = bulk.store_vectors("m", given)
    conn = sqlite3.connect(tmp_path / "single.sqlite3", isolation_level=None)
    expected = []
    for seq, vector in given:
        cur = conn.execute(_ROW_BY_ROW, ("m", vector, seq))
        expected.append(int(cur.lastrowid or 0) if cur.rowcount else 0)
    conn.close()
    assert vseqs == expected and vseqs[:6] == [4, 0, 0, 5, 0, 0]
    assert bulk.load_vectors("m") == single.load_vectors("m")
    assert bulk.store_vectors("m", []) == []
    for store in stores:
        store.close()
