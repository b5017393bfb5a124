"""A session's row counts behind the log (``xdb.store.sqlite.sessions``); nobody sees the lag.

Lone records leave their session's row alone until ``SETTLE_EVERY`` are uncounted; these tests
read the raw row to show the lag is there and bounded, and read every summary through the
store to show it never shows: in the same store, in a second one on the file, after a process
died without closing, after an import, and when closing cannot get the write lock.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store._data import T0, step
from xdb.log.log_models import Timestep
from xdb.store.sqlite import SQLiteStore
from xdb.store.sqlite.sessions import SETTLE_EVERY
from xdb.store.types import NewTimestep

RECORDER = str(Path(__file__).with_name("_recorder.py"))


def _step(session: str, ts_us: int = T0) -> NewTimestep:
    return step(session, ts_us, "x")


def _row(path: Path, session: str) -> tuple[int, int, int]:
    """The raw sessions row: (next_tick, timesteps, pending)."""
    conn = sqlite3.connect(path)
    try:
        row = conn.execute(
            "SELECT next_tick, timesteps, pending FROM sessions WHERE session_id = ?", (session,)
        ).fetchone()
    finally:
        conn.close()
    return row[0], row[1], row[2]


def _summary(store: SQLiteStore, session: str) -> tuple[int, int, int]:
    """(timesteps, current tick, last time in us) as the store reports them."""
    summary = store.session_summary(session)
    assert summary is not None and summary.current_tick is not None
    assert summary.last_time is not None
    return summary.timesteps, summary.current_tick, round(summary.last_time.timestamp() * 1e6)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "sessions.sqlite3"


@pytest.fixture
def store(path: Path) -> Iterator[SQLiteStore]:
    opened = SQLiteStore(path)
    yield opened
    opened.close()


def test_lone_records_leave_the_row_behind_by_less_than_settle_every(
    store: SQLiteStore, path: Path
) -> None:
    n = 2 * SETTLE_EVERY + 5
    lags = []
    for tick in range(1, n + 1):
        store.record([_step("a", 1_000 + tick)])
        next_tick, counted, pending = _row(path, "a")
        lags.append(tick - counted)
        assert next_tick == counted + 1  # the row is a consistent checkpoint
        assert pending == (counted < tick)  # marked exactly while it is behind
        assert _summary(store, "a") == (tick, tick, 1_000 + tick)
    assert max(lags) == SETTLE_EVERY - 1  # behind, and never by SETTLE_EVERY
    assert lags[SETTLE_EVERY - 1] == 0  # the SETTLE_EVERY-th record folded them in
    store.close()
    assert _row(path, "a") == (n + 1, n, 0)  # closing folds the rest


def test_a_batch_folds_what_lone_records_left(store: SQLiteStore, path: Path) -> None:
    for _ in range(3):
        store.record([_step("a")])
    store.record([_step("a"), _step("b"), _step("a")])
    assert _row(path, "a") == (6, 5, 0)
    assert _row(path, "b") == (2, 1, 0)


def test_a_second_store_sees_and_continues_what_the_first_left_uncounted(
    store: SQLiteStore, path: Path
) -> None:
    for tick in (1, 2, 3):
        store.record([_step("a", 10 * tick)])
    other = SQLiteStore(path)
    try:
        assert _summary(other, "a") == (3, 3, 30)
        assert [s.session_id for s in other.sessions(5)[1]] == ["a"]
        assert other.record([_step("a", 40)]) == [("ts-a-4", 4)]
        # The first store's view of the tail is stale now; it reads the log again.
        assert store.record([_step("a", 50)]) == [("ts-a-5", 5)]
        assert _summary(other, "a") == _summary(store, "a") == (5, 5, 50)
    finally:
        other.close()  # folds what it left: all it knows is read from the log
    assert _row(path, "a") == (6, 5, 0)


def test_the_latest_session_counts_uncounted_timesteps(store: SQLiteStore) -> None:
    store.record([_step("old", 100)])
    store.record([_step("new", 200), _step("new", 201)])  # a batch: folded
    store.record([_step("old", 300)])  # lone: the row still says 100
    assert store.latest_session() == "old"
    assert [s.session_id for s in store.sessions(5)[1]] == ["old", "new"]


def test_a_process_killed_before_folding_loses_no_count(path: Path) -> None:
    # Ten lone records, then the child kills itself inside the eleventh: nothing folded.
    args = ["--batches", "20", "--batch-size", "1", "--die-in-call", "11", "--die-at", "COMMIT"]
    child = subprocess.run(
        [sys.executable, RECORDER, str(path), "s", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr
    assert child.stdout.count("ack ") == 10
    assert _row(path, "s") == (1, 0, 1)  # the row never moved, but says it is behind
    store = SQLiteStore(path)
    try:
        assert _summary(store, "s")[:2] == (10, 10)
        assert store.record([_step("s")]) == [("ts-s-11", 11)]
        assert _summary(store, "s")[:2] == (11, 11)
    finally:
        store.close()
    assert _row(path, "s") == (12, 11, 0)


def test_an_import_counts_what_the_row_had_not(store: SQLiteStore) -> None:
    for _ in range(3):
        store.record([_step("a")])
    moved = Timestep(  # a tick beyond the uncounted ones
        id="ts-a-10",
        session_id="a",
        tick=10,
        timestamp=T0 / 1e6,
        event_type="input",
        role="user",
        content="ten",
    )
    store.import_records([{"kind": "timestep", **moved.model_dump(mode="json")}])
    summary = store.session_summary("a")
    assert summary is not None and (summary.timesteps, summary.current_tick) == (4, 10)
    assert store.record([_step("a")]) == [("ts-a-11", 11)]


def test_close_does_not_wait_for_another_process_lock(store: SQLiteStore, path: Path) -> None:
    store.record([_step("a")])
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock
        store.close()  # gives up folding rather than wait
        holder.execute("ROLLBACK")
    finally:
        holder.close()
    assert _row(path, "a") == (1, 0, 1)
    reopened = SQLiteStore(path)
    try:
        assert _summary(reopened, "a")[:2] == (1, 1)
    finally:
        reopened.close()


def test_a_record_queued_behind_the_fold_at_close_counts_from_the_log(path: Path) -> None:
    store = SQLiteStore(path)
    for _ in range(3):
        store.record([_step("a")])  # uncounted, and the store's tail knows it
    gate, holding = threading.Event(), threading.Event()

    def hold(conn: sqlite3.Connection) -> None:
        holding.set()
        gate.wait()

    def queued(n: int) -> None:
        while len(store.writer._queue) < n:  # spin: no sleep decides the order
            pass

    holder = threading.Thread(target=store.writer.submit, args=(hold,))
    holder.start()
    holding.wait()  # the writer is busy: what follows queues, in this order
    closer = threading.Thread(target=store.close)
    closer.start()
    queued(1)  # the fold close asks for
    made: list[list[tuple[str, int]]] = []
    batch = threading.Thread(target=lambda: made.append(store.record([_step("a"), _step("a")])))
    batch.start()
    queued(2)
    gate.set()
    for t in (holder, closer, batch):
        t.join()
    assert made == [[("ts-a-4", 4), ("ts-a-5", 5)]]
    assert _row(path, "a") == (6, 5, 0)  # folded once, not the first three twice
    reopened = SQLiteStore(path)
    try:
        assert _summary(reopened, "a")[:2] == (5, 5)
    finally:
        reopened.close()
