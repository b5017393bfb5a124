"""The tantivy text index: a cache caught up from the change log, rebuilt when lost."""

from __future__ import annotations

import shutil
from pathlib import Path

import xdb


def ids(db: xdb.Database, text: str) -> list[str]:
    return [
        h.episode_id for h in db.search_episodes(text_query=text, page={"page_size": 50}).episodes
    ]


def test_the_index_keeps_its_watermark_across_reopening(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    with xdb.connect(path, embedder="hash") as db:
        made = [db.add_episode(content=f"kayak trip number {i}").episode_id for i in range(5)]
        assert sorted(ids(db, "kayak")) == sorted(made)
        text = db.indexer._text_index()
        assert text is not None and text.applied == db.store.latest_text_change()  # type: ignore[attr-defined]
    with xdb.connect(path, embedder="hash") as db:
        text = db.indexer._text_index()
        assert text is not None and text.applied == db.store.latest_text_change()  # type: ignore[attr-defined]
        assert text.sync() == 0  # nothing to apply again
        later = db.add_episode(content="one more kayak").episode_id
        assert later in ids(db, "kayak")  # a search sees what was added just before it


def test_a_lost_index_is_rebuilt_from_the_database(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    with xdb.connect(path, embedder="hash") as db:
        made = db.add_episode(content="lighthouse keeper").episode_id
        assert ids(db, "lighthouse") == [made]
    shutil.rmtree(f"{path}.text-index")
    with xdb.connect(path, embedder="hash") as db:
        assert ids(db, "lighthouse") == [made]


def test_deleted_episodes_leave_the_index(tmp_path: Path) -> None:
    with xdb.connect(tmp_path / "t.sqlite3", embedder="hash") as db:
        made = db.add_episode(content="volcano eruption").episode_id
        assert ids(db, "volcano") == [made]
        db.delete_episode(episode_id=made)
        assert ids(db, "volcano") == []


def test_a_second_handle_without_the_writer_lock_searches_with_fts5(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    with xdb.connect(path, embedder="hash") as first, xdb.connect(path, embedder="hash") as second:
        made = first.add_episode(content="glacier hike").episode_id
        assert ids(first, "glacier") == [made]  # first takes the index's writer lock
        assert second.indexer._text_index() is None  # so second cannot open it ...
        assert ids(second, "glacier") == [made]  # ... and ranks with FTS5 instead
