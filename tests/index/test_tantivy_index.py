"""The tantivy text index: a cache caught up from the change log, rebuilt when lost."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import xdb
from xdb.index import tantivy_index
from xdb.store.types import ConceptCondition, EpisodeFilter


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
        assert text is not None and text.applied == db.store.latest_text_change()
    with xdb.connect(path, embedder="hash") as db:
        text = db.indexer._text_index()
        assert text is not None and text.applied == db.store.latest_text_change()
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


def test_an_index_of_an_earlier_schema_is_started_again(tmp_path: Path) -> None:
    # Earlier versions indexed the text with positions. Such an index is another schema,
    # and its watermark is not trusted (here it claims every change and holds none): the
    # index is made again from the change log.
    import tantivy

    path = tmp_path / "t.sqlite3"
    with xdb.connect(path, embedder="hash") as db:
        made = db.add_episode(content="lighthouse keeper").episode_id
        latest = db.store.latest_text_change()
    old = tantivy.SchemaBuilder()
    old.add_integer_field("eid", stored=True, indexed=True, fast=True)
    old.add_integer_field("change", stored=True)
    old.add_text_field("text", tokenizer_name="en_stem")  # with positions
    old.add_text_field("ns", tokenizer_name="raw")
    old.add_integer_field("start", indexed=True, fast=True)
    old.add_integer_field("end", indexed=True, fast=True)
    old.add_text_field("kind", tokenizer_name="raw")
    old.add_text_field("concept", tokenizer_name="raw")
    shutil.rmtree(f"{path}.text-index")
    Path(f"{path}.text-index").mkdir()
    index = tantivy.Index(old.build(), path=f"{path}.text-index", reuse=False)
    writer = index.writer(heap_size=15_000_000, num_threads=1)
    marker = tantivy.Document(eid=-1, change=latest, kind=tantivy_index.MARKER, text="")
    writer.add_document(marker)
    writer.commit()
    writer.wait_merging_threads()
    with xdb.connect(path, embedder="hash") as db:
        assert ids(db, "lighthouse") == [made]
        text = db.indexer._text_index()
        assert text is not None
        assert text._highest_seq() == 1  # the episode's own document, not only a marker


def test_deleted_episodes_leave_the_index(tmp_path: Path) -> None:
    with xdb.connect(tmp_path / "t.sqlite3", embedder="hash") as db:
        made = db.add_episode(content="volcano eruption").episode_id
        assert ids(db, "volcano") == [made]
        db.delete_episode(episode_id=made)
        assert ids(db, "volcano") == []


def test_a_second_handle_reads_the_index_and_leaves_the_writing_to_its_holder(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.sqlite3"
    with xdb.connect(path, embedder="hash") as first, xdb.connect(path, embedder="hash") as second:
        made = first.add_episode(content="glacier hike").episode_id
        assert ids(first, "glacier") == [made]  # first takes the index's writer lock
        index = second.indexer._text_index()
        assert index is not None  # second opens the index to read all the same ...
        assert ids(second, "glacier") == [made]  # ... and ranks with it: nothing to apply
        assert index._writer is None
        later = second.add_episode(content="glacier lake").episode_id
        # Behind the change log, without the writer: FTS5 ranks, nothing is lost ...
        assert sorted(ids(second, "glacier")) == sorted([made, later])
        assert index.applied < second.store.latest_text_change()
        # ... and the holder applies the change at its next search, for both handles.
        assert sorted(ids(first, "glacier")) == sorted([made, later])
        assert index.sync() == 0 and index.applied == second.store.latest_text_change()
        assert index.ranking(["lake"], 10, EpisodeFilter(), None) is not None
    with xdb.connect(path, embedder="hash") as third:  # the lock went with its holder
        newest = third.add_episode(content="glacier cave").episode_id
        assert newest in ids(third, "glacier")
        index = third.indexer._text_index()
        assert index is not None and index._writer is not None


_HOLDER = """
import json, sys
import xdb
with xdb.connect(sys.argv[1], embedder="hash") as db:
    db.add_episode(content="glacier hike")
    db.search_episodes(text_query="glacier")  # takes the text index's writer lock
    print("holding", flush=True)
    for line in sys.stdin:
        found = db.search_episodes(text_query=line.strip(), page={"page_size": 50})
        index = db.indexer._text_index()
        print(json.dumps({"ids": [e.episode_id for e in found.episodes if e.signals.get("bm25")],
                          "applied": index.applied, "head": db.store.latest_text_change(),
                          "writer": index._writer is not None}), flush=True)
"""


def by_words(hits: list[dict[str, Any]]) -> list[str]:
    """The hits a text ranking (BM25) found, not the vectors alone."""
    return [h["episode_id"] for h in hits if h["signals"].get("bm25")]


def test_another_process_writes_and_searches_while_one_holds_the_index(tmp_path: Path) -> None:
    """A server holds the text index's writer; CLI commands in other processes add and
    search episodes beside it: no lock message, and the holder indexes what they added."""
    path = str(tmp_path / "t.sqlite3")
    env = {**os.environ, "XDB_EMBEDDER": "hash"}

    def cli(*args: str) -> dict[str, Any]:
        line = [sys.executable, "-m", "xdb", "--db", path, *args]
        done = subprocess.run(line, capture_output=True, text=True, timeout=120, env=env)
        assert done.returncode == 0, done.stderr
        assert "LockBusy" not in done.stderr and "text index" not in done.stderr, done.stderr
        answer: dict[str, Any] = json.loads(done.stdout)
        return answer

    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, path],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline().strip() == "holding"
        added = cli("add-episode", "a walk on the moraine above the glacier")["episode_id"]
        found = cli("search", "--text-query", "moraine")  # from the other process ...
        assert by_words(found["episodes"]) == [added]
        holder.stdin.write("moraine\n")
        holder.stdin.flush()
        seen = json.loads(holder.stdout.readline())  # ... and from the holder
        assert seen["ids"] == [added] and seen["writer"]
        assert seen["applied"] == seen["head"]  # its index applied the other's change
        found = cli("search", "--text-query", "glacier")  # the index caught up: it ranks
        assert added in {h["episode_id"] for h in found["episodes"]}
    finally:
        holder.stdin.close()
        assert holder.wait(timeout=120) == 0
        assert holder.stderr is not None
        errors = holder.stderr.read()
        holder.stderr.close()
        holder.stdout.close()
    assert "LockBusy" not in errors and "text index" not in errors, errors


def test_the_index_filters_by_concept_as_the_allowlist_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past ``FEW_IDS`` allowed episodes the index applies concept conditions itself (its
    ``concept`` terms); every kind of condition ranks exactly as the allowlist of ids."""
    with xdb.connect(tmp_path / "t.sqlite3", embedder="hash") as db:
        for i in range(400):
            tags = [{"concept_id": "c/a", "score": 0.5, "kind": "candidate" if i % 3 else "stable"}]
            tags = (tags if i % 2 == 0 else []) + (
                [{"concept_id": "c/b", "score": 0.9}] if i % 5 == 0 else []
            )
            label = "positive" if i % 7 == 0 else "negative"
            day = 1 + i % 28
            db.add_episode(
                content=f"river walk {i}" + (" kayak kayak" if i % 4 == 0 else ""),
                namespace="one" if i % 2 else "two",
                kind="task" if i % 3 else "reply",
                time_window={
                    "start_time": f"2025-02-{day:02d}T10:00:00Z",
                    "end_time": f"2025-02-{day:02d}T11:00:00Z",
                },
                concept_tags=tags,
                labels=[{"concept_id": "c/a", "label": label}] if i % 7 in (0, 1) else [],
            )
        index = db.indexer._text_index()
        assert index is not None

        def tag(cid: str, kind: str | None = None, absent: bool = False) -> ConceptCondition:
            return ConceptCondition(cid, 0.0, kind, absent, True, False)

        february_10 = 1_739_181_600_000_000  # 2025-02-10T10:00:00Z
        cases = [
            EpisodeFilter(concepts=[tag("c/a")]),
            EpisodeFilter(concepts=[tag("c/a", "candidate")]),
            EpisodeFilter(concepts=[tag("c/a", absent=True)]),
            EpisodeFilter(concepts=[tag("c/a"), tag("c/b")]),
            EpisodeFilter(concepts=[ConceptCondition("c/a", 0.0, None, False, False, True)]),
            EpisodeFilter(concepts=[ConceptCondition("c/a", 0.0, None, False, True, True)]),
            EpisodeFilter(concepts=[ConceptCondition("c/a", 0.0, None, True, True, True)]),
            EpisodeFilter(
                concepts=[tag("c/b", absent=True)],
                namespace="two",
                kinds=["task"],
                end_us=february_10,
                max_seq=300,
            ),
        ]
        for flt in cases:
            allowed = db.store.episode_seqs(flt)
            monkeypatch.setattr(tantivy_index, "FEW_IDS", 10**9)
            by_ids = index.ranking(["river", "kayak"], 500, flt, allowed)
            monkeypatch.setattr(tantivy_index, "FEW_IDS", 0)
            by_terms = index.ranking(["river", "kayak"], 500, flt, allowed)
            assert by_ids is not None  # this handle holds the writer: never behind
            assert sorted(s for s, _ in by_ids) == sorted(allowed), flt
            assert by_terms == by_ids, flt
        # A score threshold is SQL's: the index keeps to the ids then.
        strict = EpisodeFilter(concepts=[ConceptCondition("c/b", 0.95, None, False, True, False)])
        assert not tantivy_index.answers(strict) and index.ranking(["river"], 500, strict, []) == []


def _documents(db: xdb.Database) -> list[int]:
    """The seqs of every episode document in the handle's text index (repeats kept)."""
    from tantivy import Query

    index = db.indexer._text_index()
    assert index is not None
    searcher = index._index.searcher()
    hits = searcher.search(Query.all_query(), 10_000, count=False, order_by_field="eid").hits
    seqs = searcher.fast_field_values("eid", [address for _, address in hits])
    return sorted(int(s or 0) for s in seqs if s != -1)


def _bm25(db: xdb.Database, word: str) -> list[int]:
    """The seqs the text index finds for ``word`` (after catching up)."""
    index = db.indexer._text_index()
    assert index is not None
    ranked = index.ranking([word], 50, EpisodeFilter(), None)
    assert ranked is not None
    return sorted(seq for seq, _ in ranked)


def test_new_episodes_are_added_without_a_delete_and_refreshed_ones_replaced(
    tmp_path: Path,
) -> None:
    """An episode above the index's highest seq was never indexed: it is added without a
    delete first; one refreshed (a neighbour joined its context) or deleted is replaced
    or removed as before, also by a handle that reads the highest seq from the index."""
    path = tmp_path / "t.sqlite3"

    def record(n: int, words: str, minute: int) -> dict[str, Any]:
        start = f"2023-11-14T10:{minute:02d}:00+00:00"
        return {
            "kind": "episode",
            "episode_id": f"episode-{n:03d}",
            "content": f"Entry {n}: {words}.",
            "session_id": "s",
            "time_window": {"start_time": start, "end_time": start},
        }

    with xdb.connect(path, embedder="hash") as db:
        db.import_records([record(n, "harbour crane", 2 * n) for n in range(1, 6)])
        assert _bm25(db, "crane") == [1, 2, 3, 4, 5]
        # Each between two stored ones in time: their contexts take the new one's words.
        db.import_records([record(n, "lighthouse", 2 * (n - 5) + 1) for n in range(6, 11)])
        assert _bm25(db, "lighthouse") == list(range(1, 11))
        assert _bm25(db, "crane") == list(range(1, 11))
        db.delete_episode(episode_id="episode-003")
        assert _bm25(db, "crane") == [1, 2, 4, 5, 6, 7, 8, 9, 10]
        assert _documents(db) == [1, 2, 4, 5, 6, 7, 8, 9, 10]  # each once
    with xdb.connect(path, embedder="hash") as db:
        db.delete_episode(episode_id="episode-009")  # its neighbours 4 and 5 refreshed
        assert _bm25(db, "lighthouse") == [1, 2, 4, 5, 6, 7, 8, 10]
        assert _documents(db) == [1, 2, 4, 5, 6, 7, 8, 10]
        db.import_records([record(11, "ferry", 4)])  # after episode 2, before 7: both refreshed
        assert _bm25(db, "ferry") == [2, 7, 11]
        assert _documents(db) == [1, 2, 4, 5, 6, 7, 8, 10, 11]
