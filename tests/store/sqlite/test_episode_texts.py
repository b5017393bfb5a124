"""Contexts made, not stored (``store/sqlite/episode_texts``, schema 23).

FTS5 is told an episode's old text when its entry is taken out; nothing stores that text any
more, so the store makes it from the episode's neighbours. 'integrity-check' compares the
index against the view, which makes every context in SQL: a context told to FTS5 that is
not the one the episode was indexed with, or a view that makes a context other than
Python's, fails it.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from tests.store._data import T0, episode
from tests.store.sqlite._versions import to_version_22
from xdb.store.context import DAY_US, context, date_words
from xdb.store.records import episode_record
from xdb.store.sqlite import SQLiteStore
from xdb.store.types import EpisodeFilter, NewEpisode

MIN = 60_000_000
WORDS = ["kite", "harbour", "Zürich", "naïve", "rain", "東京", "lamp", "emoji🙂", "nul\0byte"]


def _made(rng: random.Random, n: int, *, imported: bool = False) -> NewEpisode:
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(0, 6)))
    long = "é" * 1200 if n % 11 == 0 else ""  # a neighbour gives its first 1,000 characters
    return episode(
        n,
        # Some added empty (an import refuses an empty content).
        f"{words or 'lamp'}{long}" if imported else f"{words}{long}" if n % 13 else "",
        namespace=rng.choice(["default", "elsewhere"]),
        session=rng.choice(["a", "b", None, None, None]),
        # Ties, the 30-minute gap on both sides, and days on either side of 1970.
        start_us=rng.choice([T0, -3 * DAY_US - 1, 0]) + rng.randrange(12) * 20 * MIN,
    )


def _python_contexts(conn: sqlite3.Connection) -> dict[int, str]:
    """Every episode's context as ``context.context`` makes it from the rows."""
    rows = conn.execute("SELECT seq, namespace, session_id, start_us, content FROM episodes")
    places: dict[tuple[str, str | None], list[tuple[int, int, str]]] = {}
    for seq, namespace, session, start, content in rows:
        key = (namespace, None) if session is None else ("", session)
        places.setdefault(key, []).append((start, seq, content))
    out = {}
    for (_, session), eps in places.items():
        eps.sort()
        for i, (start, seq, _) in enumerate(eps):
            near = [
                eps[j][2]
                for j in (i - 1, i + 1)
                if 0 <= j < len(eps) and (session is not None or abs(eps[j][0] - start) <= 30 * MIN)
            ]
            out[seq] = context(start, near)
    return out


def _check(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute("INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('integrity-check', 1)")
        viewed = dict(conn.execute("SELECT seq, context FROM episode_texts"))
        assert viewed == _python_contexts(conn)
    finally:
        conn.close()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_adds_imports_and_deletes_tell_fts5_each_text_as_it_was_indexed(
    tmp_path: Path, seed: int
) -> None:
    rng = random.Random(seed)
    path = tmp_path / "x.sqlite3"
    store = SQLiteStore(path)
    try:
        n = 0
        for _ in range(4):
            for _ in range(15):
                n += 1
                store.add_episode(_made(rng, n))
            batch = [_made(rng, n + i, imported=True) for i in range(1, 41)]
            n += 40
            assert store.import_records([episode_record(e) for e in batch])["episode"] == 40
            for gone in rng.sample(range(1, n + 1), 12):
                store.delete_episode(f"episode-{gone:03d}")
            _check(path)
        # The tantivy index reads the same contexts (its documents): each one as made now.
        docs = {seq: doc for _, seq, doc in store.text_changes(0, 100_000) if doc is not None}
        conn = sqlite3.connect(path)
        try:
            texts = {
                int(s): f"{summary} {content} {ctx}"
                for s, summary, content, ctx in conn.execute("SELECT * FROM episode_texts")
            }
        finally:
            conn.close()
        assert {seq: doc.text for seq, doc in docs.items()} == texts
    finally:
        store.close()


def test_the_view_names_the_day_as_python_does(tmp_path: Path) -> None:
    rng = random.Random(4)
    starts = [0, -1, 1, DAY_US - 1, DAY_US, -DAY_US, -DAY_US - 1, 951_782_400_000_000]
    starts += [rng.randrange(-(2**50), 2**51) for _ in range(300)]
    path = tmp_path / "x.sqlite3"
    store = SQLiteStore(path)
    try:
        for n, start in enumerate(starts, 1):
            store.add_episode(episode(n, "", session=f"s{n}", start_us=start))
    finally:
        store.close()
    conn = sqlite3.connect(path)
    try:
        viewed = dict(conn.execute("SELECT seq, context FROM episode_texts"))
    finally:
        conn.close()
    assert viewed == {n: date_words(start) for n, start in enumerate(starts, 1)}


def test_a_version_22_file_stops_storing_contexts_and_ranks_as_before(tmp_path: Path) -> None:
    rng = random.Random(9)
    path = tmp_path / "x.sqlite3"
    store = SQLiteStore(path)
    for n in range(1, 60):
        store.add_episode(_made(rng, n))
    terms = [[w.lower()] for w in WORDS if "\0" not in w]
    before = [store.episode_text_ranking(EpisodeFilter(), t, 100) for t in terms]
    store.close()
    conn = sqlite3.connect(path, isolation_level=None)
    to_version_22(conn)
    # One row's stored context is not the one its neighbours make (as a bug could have
    # left it): the migration logs it for the tantivy index, and FTS5 indexes the right one.
    conn.execute("UPDATE episodes SET context = 'stale' WHERE seq = 7")
    (last,) = conn.execute("SELECT max(change) FROM episode_text_changes").fetchone()
    conn.close()
    store = SQLiteStore(path)
    try:
        assert [store.episode_text_ranking(EpisodeFilter(), t, 100) for t in terms] == before
        assert [seq for _, seq, _ in store.text_changes(last, 100)] == [7]
    finally:
        store.close()
    _check(path)
    conn = sqlite3.connect(path)
    try:
        columns = {r[1] for r in conn.execute("PRAGMA table_info(episodes)")}
    finally:
        conn.close()
    assert "context" not in columns
