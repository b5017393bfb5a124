"""An import's FTS5 entries, the page size of a new file, a summary stored once.

An import re-indexes the stored episodes whose context a new neighbour changes, giving FTS5
their texts as values (``episodes.insert_many``). The index it leaves must be the one FTS5
builds from the rows themselves ('rebuild'): the same entries, so the same BM25 scores.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path

from tests.store._data import T0, episode
from tests.store.sqlite._versions import TO_VERSION_22
from xdb.store.episode_row import default_summary
from xdb.store.records import episode_record
from xdb.store.sqlite import SQLiteStore
from xdb.store.sqlite.store import PAGE_BYTES
from xdb.store.types import EpisodeFilter, NewEpisode

# Back to version 19's row: the summary's text in the row, under its own name.
TO_VERSION_19 = [
    "UPDATE episodes SET own_summary = content WHERE summary_is_content",
    "ALTER TABLE episodes DROP COLUMN summary",
    "ALTER TABLE episodes DROP COLUMN summary_is_content",
    "ALTER TABLE episodes RENAME COLUMN own_summary TO summary",
    "DELETE FROM schema_migrations WHERE version = 20",
]

MIN = 60_000_000
WORDS = ["cat", "train", "Paris", "midnight", "rain", "harbour", "kite", "lamp"]
TERMS = [[w.lower()] for w in WORDS] + [["note"], ["paris", "rain"], ["more"]]


def _made(rng: random.Random, n: int) -> NewEpisode:
    words = " ".join(rng.choice(WORDS) for _ in range(4))
    return episode(
        n,
        f"Note {n} on {words}. Then {rng.choice(WORDS)}." + (" more" * 300 if n % 9 == 0 else ""),
        namespace=rng.choice(["default", "elsewhere"]),
        session=rng.choice(["a", "b", None, None, None]),
        start_us=T0 + rng.randrange(40) * 7 * MIN,
    )


def _rankings(conn: sqlite3.Connection) -> list[list[tuple[int, float]]]:
    sql = (
        "SELECT rowid, bm25(episodes_fts, 0.5, 1.0, 1.0) FROM episodes_fts"
        " WHERE episodes_fts MATCH ? ORDER BY rowid"
    )
    return [[(int(r), float(s)) for r, s in conn.execute(sql, (" OR ".join(t),))] for t in TERMS]


def test_an_import_indexes_its_stored_neighbours_as_a_rebuild_would(tmp_path: Path) -> None:
    rng = random.Random(7)
    path = tmp_path / "x.sqlite3"
    store = SQLiteStore(path)
    for n in range(1, 40):
        store.add_episode(_made(rng, n))
    contexts_before = _contexts(path)
    for lo in (40, 100):  # two imports among the stored episodes, the second among the first
        assert store.import_records([episode_record(_made(rng, n)) for n in range(lo, lo + 60)])
    store.close()
    # The import changed stored episodes' contexts (the path under test ran).
    after = _contexts(path)
    assert sum(after[seq] != old for seq, old in contexts_before.items()) >= 10
    copy = tmp_path / "rebuilt.sqlite3"
    shutil.copy(path, copy)
    conn, rebuilt = sqlite3.connect(path), sqlite3.connect(copy)
    try:
        # FTS5 holds exactly what the rows hold (checked against the content table)...
        conn.execute("INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('integrity-check', 1)")
        rebuilt.execute("INSERT INTO episodes_fts (episodes_fts) VALUES ('rebuild')")
        # ... so every query scores as on an index FTS5 built from the rows.
        assert _rankings(conn) == _rankings(rebuilt)
        assert all(_rankings(conn)[: len(WORDS)])  # each word is found
    finally:
        conn.close()
        rebuilt.close()
    # And the store's own text ranking reads the same.
    store, again = SQLiteStore(path), SQLiteStore(copy)
    try:
        for terms in TERMS:
            assert store.episode_text_ranking(EpisodeFilter(), terms, 500) == (
                again.episode_text_ranking(EpisodeFilter(), terms, 500)
            )
    finally:
        store.close()
        again.close()


def _contexts(path: Path) -> dict[int, str]:
    conn = sqlite3.connect(path)
    try:
        return {int(s): str(c) for s, c in conn.execute("SELECT seq, context FROM episode_texts")}
    finally:
        conn.close()


def test_a_new_file_has_8_kib_pages_and_an_older_file_keeps_its_own(tmp_path: Path) -> None:
    new = SQLiteStore(tmp_path / "new.sqlite3")
    new.add_episode(episode(1, "A first note."))
    new.close()
    old_path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(old_path)
    conn.execute("PRAGMA page_size = 4096")
    conn.execute("CREATE TABLE made_before (x)")  # the file has its pages now
    conn.close()
    old = SQLiteStore(old_path)
    old.add_episode(episode(1, "A first note."))
    assert [e.episode.content for e in old.episodes_by_seqs([1]).values()] == ["A first note."]
    old.close()
    for path, size in ((tmp_path / "new.sqlite3", PAGE_BYTES), (old_path, 4096)):
        conn = sqlite3.connect(path)
        try:
            assert conn.execute("PRAGMA page_size").fetchone()[0] == size
        finally:
            conn.close()


def _summaries() -> list[NewEpisode]:
    """Summaries that are the content, that are not, and the edge cases of both."""
    cases = [
        ("The kite flew.", None),  # the default summary: the whole content
        ("", ""),  # an empty content and summary (added, not imported: imports refuse it)
        ("   ", ""),  # whitespace: its default summary is empty, not the content
        ("Rain on the harbour", "Rain on the harbour"),  # given, equal
        ("The kite flew. Then it rained.", None),  # the first sentence only
        ("Rain on the harbour", "Harbour"),  # given, different
        ("x" * 3000, None),  # long: the default summary is cut
    ]
    made = []
    for n, (content, summary) in enumerate(cases, 1):
        ep = episode(n, content, session=None, namespace=f"ns{n % 2}", start_us=T0 + n * MIN)
        made.append(replace(ep, summary=default_summary(content) if summary is None else summary))
    return made


def test_a_summary_that_is_the_content_is_stored_once_and_read_as_before(
    tmp_path: Path,
) -> None:
    eps = _summaries()
    new_path, old_path = tmp_path / "new.sqlite3", tmp_path / "old.sqlite3"
    for path in (new_path, old_path):
        store = SQLiteStore(path)
        for ep in eps[:4]:
            store.add_episode(ep)
        assert store.import_records([episode_record(ep) for ep in eps[4:]])["episode"] == 3
        store.close()
    # The old file is taken back to version 19 (each summary's text in its row), then
    # migrated again as it opens: rows written before version 20 keep their text.
    conn = sqlite3.connect(old_path, isolation_level=None)
    for statement in [*TO_VERSION_22, *TO_VERSION_19]:
        conn.execute(statement)
    conn.close()
    new, old = SQLiteStore(new_path), SQLiteStore(old_path)
    try:
        read = new.episodes_by_seqs(range(1, 10))
        assert [e.episode for e in read.values()] == eps
        assert read == old.episodes_by_seqs(range(1, 10))
        assert new.text_changes(0, 100) == old.text_changes(0, 100)
        assert list(new.export_records()) == list(old.export_records())
        for terms in (["kite"], ["harbour"], ["rain"], ["flew"]):
            ranked = new.episode_text_ranking(EpisodeFilter(), terms, 10)
            assert ranked and ranked == old.episode_text_ranking(EpisodeFilter(), terms, 10)
        # Deleting re-indexes the neighbours from the rows: the index still agrees.
        assert new.delete_episode(eps[4].id) == old.delete_episode(eps[4].id) == 5
        assert new.episodes_by_seqs(range(1, 10)) == old.episodes_by_seqs(range(1, 10))
    finally:
        new.close()
        old.close()
    stored = "SELECT seq, own_summary, summary_is_content FROM episodes ORDER BY seq"
    for path, compact in ((new_path, True), (old_path, False)):
        conn = sqlite3.connect(path)
        try:
            conn.execute(
                "INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('integrity-check', 1)"
            )
            rows = conn.execute(stored).fetchall()
        finally:
            conn.close()
        if compact:  # the whole kite sentence and the equal given one: stored as ''
            assert [(s, f) for s, own, f in rows if own == ""] == [(1, 1), (2, 0), (3, 0), (4, 1)]
        else:
            assert all(f == 0 for _, _, f in rows)
