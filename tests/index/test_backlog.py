"""Embedding backlogs: what a short-lived process leaves behind, and who picks it up.

The rule (``xdb.index.embedding``): opening a database resumes any backlog in the
background; ``close`` waits, within ``embed_wait`` / ``XDB_EMBED_WAIT``, for every episode
to get a vector when the handle added episodes, and says what it left. The processes here
are real ones (``python -c``, ``python -m xdb``) on real SQLite files, embedding with the
hashing model unless the point is the default one.
"""

from __future__ import annotations

import json
import logging
import math
import os
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import xdb
from xdb.embed.hashing import HashEmbedder
from xdb.index.embedding import BATCH, embed_wait
from xdb.store.sqlite import SQLiteStore

MINILM = "minilm:all-MiniLM-L6-v2"


def python(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``python *args`` as a process of its own, with the hashing model unless told."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("XDB_")}
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        env={**base, "XDB_EMBEDDER": "hash", **env},
        timeout=300,
    )


def counts(path: Path, model: str = "hash:384") -> tuple[int, int]:
    """(episodes, episodes with a vector from ``model``), read straight from the file."""
    with sqlite3.connect(path) as conn:
        episodes = conn.execute("SELECT count(*) FROM episodes").fetchone()[0]
        vectors = conn.execute(
            "SELECT count(*) FROM episode_vectors WHERE model = ?", (model,)
        ).fetchone()[0]
    return int(episodes), int(vectors)


def embedded(path: Path, episode_id: str, model: str = "hash:384") -> bool:
    with sqlite3.connect(path) as conn:
        found = conn.execute(
            "SELECT count(*) FROM episode_vectors v JOIN episodes e ON e.seq = v.episode_seq"
            " WHERE e.id = ? AND v.model = ?",
            (episode_id, model),
        ).fetchone()[0]
    return bool(found)


def records(n: int, start: int = 0) -> list[dict[str, Any]]:
    return [
        {"kind": "episode", "content": f"episode {i}: the kite flew over the harbour"}
        for i in range(start, start + n)
    ]


def leave_backlog(path: Path, n: int) -> None:
    """Episodes written by a process that never embedded them (one that was killed, or an
    older xdb): through the bare store, which has no embedding worker."""
    store = SQLiteStore(path)
    try:
        assert store.import_records(records(n))["episode"] == n
    finally:
        store.close()


# --------------------------------------------------------------------------- close


def test_a_script_that_adds_episodes_leaves_none_without_a_vector(tmp_path: Path) -> None:
    # The issue as reported, with the default model: a script adds episodes one by one and
    # closes; MiniLM is far slower than the adds, so closing after the batch in flight
    # left most of them unembedded.
    path = tmp_path / "script.sqlite3"
    script = (
        "import sys, xdb\n"
        "db = xdb.connect(sys.argv[1])\n"
        "for i in range(200):\n"
        "    db.add_episode(content=f'episode {i}: the kite flew over the harbour')\n"
        "print(db.close())\n"
    )
    done = python("-c", script, str(path), XDB_EMBEDDER="")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"
    assert "left without a vector" not in done.stderr
    assert counts(path, MINILM) == (200, 200)


def test_a_tiny_bound_says_what_it_left(tmp_path: Path) -> None:
    path = tmp_path / "bound.sqlite3"
    script = (
        "import sys, xdb\n"
        "db = xdb.connect(sys.argv[1])\n"
        "db.import_records({'kind': 'episode', 'content': f'kite {i}'} for i in range(2000))\n"
        "print(db.close(), db.embedding_left)\n"
    )
    done = python("-c", script, str(path), XDB_EMBED_WAIT="0")
    assert done.returncode == 0, done.stderr
    returned, kept = map(int, done.stdout.split())
    assert returned == kept > 0
    assert counts(path) == (2000, 2000 - returned)  # what it said is what it left
    warning = done.stderr
    assert f"{returned} episode(s) left without a vector" in warning
    assert "XDB_EMBED_WAIT" in warning and "xdb reindex" in warning and str(path) in warning


def test_the_next_process_resumes_the_backlog_in_the_background(tmp_path: Path) -> None:
    path = tmp_path / "resume.sqlite3"
    leave_backlog(path, 3 * BATCH + 5)
    # The child only opens the database and watches its worker (without waking it).
    script = (
        "import json, sys, xdb\n"
        "db = xdb.connect(sys.argv[1])\n"
        "done = db.indexer.wait(120, wake=False)\n"
        "backlog = db.status().embedding.backlog\n"
        "print(json.dumps([done, db.indexer.stored, backlog, db.close(0)]))\n"
    )
    done = python("-c", script, str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [True, 3 * BATCH + 5, 0, 0]
    assert counts(path) == (3 * BATCH + 5, 3 * BATCH + 5)


class Gated(HashEmbedder):
    """The hashing model, holding its first batch until the handle's close has begun."""

    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Event()
        self.armed = threading.Event()
        self.stopping = threading.Event()

    def embed(self, texts: Sequence[str]) -> Any:
        self.started.set()
        assert self.armed.wait(30)
        assert self.stopping.wait(30)
        return super().embed(texts)


def test_a_handle_that_only_reads_leaves_the_backlog_without_waiting(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "reader.sqlite3"
    leave_backlog(path, 3 * BATCH + 5)
    gated = Gated()
    db = xdb.Database(SQLiteStore(path), embedder=gated, embed_wait=math.inf)
    gated.stopping = db.indexer.stopping
    gated.armed.set()
    assert gated.started.wait(30)  # opening resumed the backlog: the first batch is in flight
    assert db.status().embedding.backlog == 3 * BATCH + 5
    with caplog.at_level(logging.INFO, logger="xdb.index.embedding"):
        left = db.close()  # no bound reached: a reader does not wait for others' backlog
    assert left == db.embedding_left == 2 * BATCH + 5  # the batch in flight was stored
    assert counts(path) == (3 * BATCH + 5, BATCH)
    said = [r for r in caplog.records if "left without a vector" in r.getMessage()]
    assert [r.levelno for r in said] == [logging.INFO]
    assert "added none" in said[0].getMessage()


def test_ctrl_c_in_a_with_block_closes_without_waiting(tmp_path: Path) -> None:
    path = tmp_path / "interrupted.sqlite3"
    gated = Gated()
    db = xdb.Database(SQLiteStore(path), embedder=gated, embed_wait=math.inf)
    gated.stopping = db.indexer.stopping
    gated.armed.set()
    with pytest.raises(KeyboardInterrupt), db:
        db.add_episode(content="stored before the interrupt")
        assert gated.started.wait(30)
        raise KeyboardInterrupt
    # Closing stopped the worker at once (a wait would have held the batch until the
    # gate gave up); the batch in flight was still stored.
    assert db.embedding_left == 0
    assert counts(path) == (1, 1)


def test_a_handle_that_adds_episodes_waits_for_its_own_not_the_backlog(tmp_path: Path) -> None:
    path = tmp_path / "writer.sqlite3"
    leave_backlog(path, 40 * BATCH)
    db = xdb.connect(path, embedder="hash")
    mine = db.add_episode(content="one more, about the harbour").episode_id
    left = db.close(timeout=math.inf)
    assert embedded(path, mine)
    episodes, vectors = counts(path)
    assert left == episodes - vectors > 0  # the backlog is the next process's to resume
    with xdb.connect(path, embedder="hash") as db:  # ... which it does
        assert db.wait_for_embeddings(60)
    assert counts(path) == (40 * BATCH + 1, 40 * BATCH + 1)


def test_the_wait_is_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDB_EMBED_WAIT", raising=False)
    assert embed_wait() == 30.0  # the default
    assert embed_wait(0) == 0.0 and embed_wait(2.5) == 2.5
    for text, expected in (("2.5", 2.5), ("0", 0.0), ("inf", math.inf), (" ", 30.0)):
        monkeypatch.setenv("XDB_EMBED_WAIT", text)
        assert embed_wait() == expected
        assert embed_wait(1) == 1.0  # the keyword wins
    for text in ("-1", "soon", "nan"):
        monkeypatch.setenv("XDB_EMBED_WAIT", text)
        with pytest.raises(xdb.InvalidRequest) as caught:
            embed_wait()
        assert caught.value.field == "XDB_EMBED_WAIT" and repr(text) in caught.value.message
    with pytest.raises(xdb.InvalidRequest) as caught:
        embed_wait(-1)
    assert caught.value.field == "embed_wait"


def test_a_bad_wait_in_the_environment_refuses_to_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDB_EMBED_WAIT", "forever")
    with pytest.raises(xdb.InvalidRequest, match="XDB_EMBED_WAIT"):
        xdb.connect(tmp_path / "bad.sqlite3")
    monkeypatch.setenv("XDB_EMBED_WAIT", "7")
    with xdb.connect(tmp_path / "bad.sqlite3", embedder="hash") as db:
        assert db.embed_wait == 7.0


# --------------------------------------------------------------------------- the CLI


def test_xdb_add_episode_embeds_its_own_episode_before_an_old_backlog(tmp_path: Path) -> None:
    # On a database with a backlog: closing after the batch in flight embedded the oldest
    # episodes and left the new one; a wait for the whole backlog made the command stall
    # behind others' work. The handle's own episode goes first, and close waits for it.
    path = tmp_path / "cli.sqlite3"
    leave_backlog(path, 40 * BATCH)
    done = python("-m", "xdb", "--db", str(path), "add-episode", "The kite landed in the sea.")
    assert done.returncode == 0, done.stderr
    new = json.loads(done.stdout)["episode_id"]
    assert embedded(path, new)
    episodes, vectors = counts(path)
    assert episodes == 40 * BATCH + 1
    assert vectors < episodes  # it did not wait for the backlog (most is left to others)


def test_xdb_import_embeds_what_it_imported(tmp_path: Path) -> None:
    path, source = tmp_path / "import.sqlite3", tmp_path / "episodes.jsonl"
    lines = [{"kind": "xdb-export", "version": 1}, *records(300)]
    source.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    # No wait at close: the import itself embeds.
    done = python(
        "-m", "xdb", "--db", str(path), "import", str(source), "--progress", XDB_EMBED_WAIT="0"
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["episode"] == 300
    assert "embedding" in done.stderr and "300/300" in done.stderr  # its bar, on stderr
    assert counts(path) == (300, 300)


# --------------------------------------------------------------------------- cost at open


def test_opening_a_database_without_a_backlog_loads_no_model(tmp_path: Path) -> None:
    # Episodes that all have vectors from the default model: opening looks for a backlog,
    # and status names the model and counts, without numpy or the model's runtime.
    path = tmp_path / "light.sqlite3"
    leave_backlog(path, 70)
    store = SQLiteStore(path)
    try:
        store.store_vectors(MINILM, [(seq, b"\0\0\x80?" * 384) for seq in range(1, 71)])
    finally:
        store.close()
    script = (
        "import json, sys, xdb\n"
        "db = xdb.connect(sys.argv[1])\n"
        "assert db.indexer.wait(60, wake=False)\n"
        "embedding = db.status().embedding.model_dump()\n"
        "left = db.close()\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & "
        "{'numpy', 'onnxruntime', 'tokenizers', 'httpx'})\n"
        "print(json.dumps([embedding, left, heavy]))\n"
    )
    done = python("-c", script, str(path), XDB_EMBEDDER="")
    assert done.returncode == 0, done.stderr
    embedding, left, heavy = json.loads(done.stdout)
    assert embedding == {
        "model": MINILM,
        "episodes": 70,
        "episodes_with_vectors": 70,
        "backlog": 0,
        "failure": None,
    }
    assert (left, heavy) == (0, [])


class LookThenWrite(SQLiteStore):
    """Holds the worker's first look for new episodes that finds none until the test has
    written one: the write's commit lands after the look, its announcement before the
    worker concludes from the look."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.looked = threading.Event()
        self.written = threading.Event()

    def missing_vectors(
        self, model: str, limit: int, after_seq: int = 0
    ) -> list[tuple[int, str, str]]:
        found = super().missing_vectors(model, limit, after_seq)
        if after_seq > 0 and not found and not self.looked.is_set():
            self.looked.set()
            assert self.written.wait(30)
        return found


def test_an_episode_written_while_the_worker_looks_is_waited_for_at_close(
    tmp_path: Path,
) -> None:
    path = tmp_path / "race.sqlite3"
    leave_backlog(path, 2 * BATCH)
    store = LookThenWrite(path)
    db = xdb.Database(store, embedder=HashEmbedder(), embed_wait=math.inf)
    assert store.looked.wait(30)  # the worker found nothing new at open ...
    mine = db.add_episode(content="written while it looked").episode_id  # ... then this
    store.written.set()
    db.close()
    assert embedded(path, mine)
