"""Crash safety: a writer killed with SIGKILL loses nothing it acknowledged.

A child process records token batches into a real SQLite file and prints each acknowledged
batch; the test kills it at a seeded random point (never with a sleep: it counts the child's
output lines), then reopens the file and checks that every acknowledged timestep is there,
that no batch was half-written, that SQLite and FTS5 report no corruption, and that recording
continues after the last tick without reusing a tick, id or row number. A second set of runs
has the child kill itself at fixed points inside the write transaction.

Reproduce a random run with ``XDB_CRASH_SEED=<printed seed - run> pytest <this file>``.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import xdb

RECORDER = str(Path(__file__).with_name("_recorder.py"))
BATCH = 50
SEED_BASE = int(os.environ.get("XDB_CRASH_SEED", "20240611"))
RUNS = 6
WATCHDOG_SECONDS = 60.0  # kills a hung child so a failure cannot hang the suite


@contextmanager
def _recorder(*args: str) -> Iterator[subprocess.Popen[str]]:
    child = subprocess.Popen(
        [sys.executable, RECORDER, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    watchdog = threading.Timer(WATCHDOG_SECONDS, child.kill)
    watchdog.start()
    try:
        assert child.stdout is not None
        first = child.stdout.readline()
        if first != "ready\n":
            child.wait()
            err = child.stderr.read() if child.stderr else ""
            pytest.fail(f"child failed to start: {first!r}\n{err}")
        yield child
    finally:
        watchdog.cancel()
        if child.poll() is None:
            child.kill()
        child.wait()
        for stream in (child.stdout, child.stderr):
            if stream is not None:
                stream.close()


def _ack(line: str) -> tuple[int, int, int]:
    assert line.startswith("ack "), f"unexpected child output {line!r}"
    n, lo, hi = (int(v) for v in line.split()[1:])
    # The child is the only writer, so its ticks are exactly 1..50, 51..100, ...
    assert (lo, hi) == ((n - 1) * BATCH + 1, n * BATCH), line
    return n, lo, hi


def _all_ticks(db: xdb.Database, session: str, last: int) -> list[int]:
    """Every tick of ``session`` in 1..last, read through the public query operation."""
    ticks: list[int] = []
    cursor = None
    while True:
        page = db.query(
            session_id=session, tick_range={"start": 1, "end": last}, limit=10_000, cursor=cursor
        )
        ticks.extend(t.tick for t in page.timesteps)
        cursor = page.next_cursor
        if cursor is None:
            return ticks


def _check_after_crash(path: Path, session: str, acked: int) -> int:
    """Reopen ``path`` after a kill; return how many timesteps the killed child left."""
    with xdb.connect(path) as db:
        if acked:
            assert db.session_id == session  # the only session is current on reopen
            assert _all_ticks(db, session, acked) == list(range(1, acked + 1))

        # A text query first brings the (deferred) full-text index up to the log; the FTS5
        # integrity check below then proves index and table agree row for row.
        assert db.query(text_search="absent", session_id=session).total_count == 0

        raw = sqlite3.connect(path)
        try:
            assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            # Raises sqlite3.DatabaseError if the full-text index disagrees with its table.
            raw.execute("INSERT INTO timesteps_fts (timesteps_fts) VALUES ('integrity-check')")
            raw.rollback()
            stored = [r[0] for r in raw.execute("SELECT tick FROM timesteps ORDER BY tick")]
            max_seq = raw.execute("SELECT coalesce(max(seq), 0) FROM timesteps").fetchone()[0]
            session_row = raw.execute(
                "SELECT next_tick, timesteps FROM sessions WHERE session_id = ?", (session,)
            ).fetchone()
            fts_rows = raw.execute("SELECT count(*) FROM timesteps_fts_docsize").fetchone()[0]
            watermark = raw.execute("SELECT position FROM index_watermarks").fetchone()[0]
        finally:
            raw.close()
        last = len(stored)
        # A batch the kill interrupted is either wholly there or wholly absent.
        assert stored == list(range(1, last + 1)), "gap in stored ticks"
        assert last % BATCH == 0 and last >= acked, f"partial or lost batch: {last} vs {acked}"
        assert (max_seq, fts_rows, watermark) == (last, last, last)
        if session_row is not None:  # absent only if the very first batch never committed
            assert session_row == (last + 1, last)

        after = db.record(event_type="output", content="after the crash", session_id=session)
        assert after.tick == last + 1
        assert after.timestep_id == f"ts-{session}-{last + 1}"

    raw = sqlite3.connect(path)
    try:
        new_seq = raw.execute(
            "SELECT seq FROM timesteps WHERE session_id = ? AND tick = ?", (session, last + 1)
        ).fetchone()[0]
        assert raw.execute("SELECT count(*) FROM timesteps").fetchone()[0] == last + 1
    finally:
        raw.close()
    assert new_seq == max_seq + 1  # row numbers are not reused either
    return last


@pytest.mark.parametrize("run", range(RUNS))
def test_sigkill_at_a_random_moment_loses_no_acknowledged_batch(tmp_path: Path, run: int) -> None:
    seed = SEED_BASE + run
    rng = random.Random(seed)
    # Up to 200 batches of 50 tokens with 10 activations each crosses SQLite's automatic WAL
    # checkpoint (every 1000 pages) several times, so some kills land during a checkpoint.
    kill_after = rng.randint(1, 200)
    # A batch cycle in the child is a few ms: validation, then the write, then the commit.
    # Busy-waiting a seeded fraction of that spreads kills over every phase; it is jitter,
    # not synchronisation -- what counts as acknowledged comes only from the child's output.
    jitter = rng.uniform(0.0, 0.004)
    # How far the full-text index may trail: every batch, every few batches, or the default.
    lag = rng.choice([1, 120, 4096])
    print(f"seed={seed} kill_after={kill_after} batches, jitter={jitter * 1e3:.2f} ms, lag={lag}")
    path = tmp_path / "crash.sqlite3"
    session = f"crash-{seed}"

    args = ["--batch-size", str(BATCH), "--text-index-lag", str(lag)]
    with _recorder(str(path), session, *args) as child:
        assert child.stdout is not None
        acks = [_ack(child.stdout.readline()) for _ in range(kill_after)]
        until = time.perf_counter() + jitter
        while time.perf_counter() < until:
            pass
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        # Lines the child flushed before it died were acknowledged too.
        acks.extend(_ack(line) for line in child.stdout.read().splitlines())
    assert child.returncode == -signal.SIGKILL, f"seed={seed}: the child was not killed"

    last = _check_after_crash(path, session, acks[-1][2])
    print(f"seed={seed}: acknowledged {acks[-1][2]}, found {last} after the kill")


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO timesteps (",  # the first row of the batch
        "INSERT INTO timesteps_fts",  # rows written, index half done
        "UPDATE sessions",  # the tick counter not yet advanced
        "COMMIT",  # everything written, the commit not yet run
    ],
)
@pytest.mark.parametrize("die_in_call", [1, 7])
def test_sigkill_inside_the_write_transaction_rolls_the_batch_back(
    tmp_path: Path, statement: str, die_in_call: int
) -> None:
    path = tmp_path / "crash.sqlite3"
    session = "crash-fixed"
    args = ["--batch-size", str(BATCH), "--die-in-call", str(die_in_call), "--die-at", statement]
    args += ["--text-index-lag", "1"]  # every batch indexes its own rows before committing
    with _recorder(str(path), session, *args) as child:
        assert child.stdout is not None
        acks = [_ack(line) for line in child.stdout.read().splitlines()]
        child.wait()
    assert child.returncode == -signal.SIGKILL, "the child did not reach its kill point"
    acked = acks[-1][2] if acks else 0
    assert acked == (die_in_call - 1) * BATCH
    # The killed batch never committed, so exactly the acknowledged ones are there.
    assert _check_after_crash(path, session, acked) == acked
