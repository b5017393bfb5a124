"""Concurrent writers: threads sharing one Database, processes sharing one file.

Ticks are assigned inside the write transaction, so however writers interleave each session's
ticks must come out 1..N with no gap or duplicate; the combining writer must group commits
when threads contend; a job that fails inside a group commit must fail alone; and another
process holding the write lock must never surface as "database is locked" to a caller.
Children start together on a ``go`` line and report through their output: no sleeps.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import xdb
from xdb.store.sqlite import SQLiteStore

RECORDER = str(Path(__file__).with_name("_recorder.py"))
WATCHDOG_SECONDS = 60.0  # kills a hung child so a failure cannot hang the suite


# --------------------------------------------------------------------------- helpers


@dataclass
class Child:
    """A recorder process whose output a thread drains, so a full pipe never blocks it."""

    proc: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)
    stderr: str = ""

    def __post_init__(self) -> None:
        assert self.proc.stdout is not None
        ready = self.proc.stdout.readline()
        assert ready == "ready\n", f"child failed to start: {ready!r} {self._err()}"
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()
        self._watchdog = threading.Timer(WATCHDOG_SECONDS, self.proc.kill)
        self._watchdog.start()

    def _err(self) -> str:
        self.proc.kill()
        return self.proc.stderr.read() if self.proc.stderr else ""

    def _drain(self) -> None:
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.lines = self.proc.stdout.read().splitlines()
        self.stderr = self.proc.stderr.read()

    def go(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()

    def finish(self) -> list[tuple[int, int]]:
        """Wait for the child; return the (first, last) ticks of each acknowledged call."""
        self.proc.wait()
        self._reader.join()
        self._watchdog.cancel()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        assert self.proc.returncode == 0, f"child failed ({self.proc.returncode}):\n{self.stderr}"
        assert "locked" not in self.stderr and "busy" not in self.stderr, self.stderr
        assert self.lines[-1] == "done", self.lines[-3:]
        return [(int(a), int(b)) for a, b in (ln.split()[2:] for ln in self.lines[:-1])]


@pytest.fixture
def spawn() -> Iterator[Callable[..., Child]]:
    children: list[Child] = []

    def start(path: Path, session: str, calls: int, batch_size: int = 1) -> Child:
        args = [str(path), session, "--batches", str(calls), "--batch-size", str(batch_size)]
        proc = subprocess.Popen(
            [sys.executable, RECORDER, *args, "--activations", "3", "--wait-go"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        child = Child(proc)
        children.append(child)
        return child

    yield start
    for child in children:  # only after a failure: finish() has reaped the others
        if child.proc.poll() is None:
            child.proc.kill()
            child.proc.wait()


def _run_threads(target: Callable[[int], Any], n: int) -> tuple[list[Any], list[BaseException]]:
    """Run ``target(i)`` on n threads released together; return results and errors."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n
    errors: list[BaseException] = []

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = target(i)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results, errors


def _ticks(path: Path) -> dict[str, list[int]]:
    """Every session's stored ticks, in order, read straight from the file."""
    conn = sqlite3.connect(path)
    try:
        found: dict[str, list[int]] = {}
        for session, tick in conn.execute(
            "SELECT session_id, tick FROM timesteps ORDER BY session_id, tick"
        ):
            found.setdefault(session, []).append(tick)
        return found
    finally:
        conn.close()


def _writer(db: xdb.Database) -> Any:
    store = db.store
    assert isinstance(store, SQLiteStore)
    return store.writer


def _token(i: int) -> dict[str, Any]:
    return {
        "event_type": "output",
        "content": f"tok{i}",
        "token_id": i,
        "concept_activations": {f"org.hatcat/first-light@1.0.1::concept/Term{i % 50}": 0.5},
    }


# --------------------------------------------------------------------------- threads


def test_threads_each_recording_its_own_session(tmp_path: Path) -> None:
    threads, per_thread = 8, 150
    with xdb.connect(tmp_path / "t.sqlite3") as db:
        writer = _writer(db)
        before = writer.commits

        def work(i: int) -> list[int]:
            return [db.record(session_id=f"s{i}", **_token(j)).tick for j in range(per_thread)]

        results, errors = _run_threads(work, threads)
        assert errors == []
        commits = writer.commits - before
        for i in range(threads):
            # Each caller saw its own ticks in order, and the log agrees.
            assert results[i] == list(range(1, per_thread + 1))
            page = db.query(session_id=f"s{i}", limit=1000)
            assert [t.tick for t in page.timesteps] == list(range(1, per_thread + 1))
            assert len({t.id for t in page.timesteps}) == per_thread
        assert db.status().experience_stats.total_timesteps == threads * per_thread
    # Contending callers were folded into shared transactions (group commit).
    assert commits < threads * per_thread, commits
    print(f"{threads * per_thread} records in {commits} commits")


def test_threads_sharing_one_session_get_distinct_ticks(tmp_path: Path) -> None:
    threads, per_thread = 6, 100
    with xdb.connect(tmp_path / "t.sqlite3", session_id="shared") as db:

        def work(i: int) -> list[int]:
            ticks: list[int] = []
            for j in range(per_thread):
                if j % 10 == 0:  # a few small batches among the single records
                    results = db.record_batch([_token(j), _token(j + 1)]).results
                    # One call's batch is one transaction: its ticks are consecutive.
                    assert results[1].tick == results[0].tick + 1
                    ticks.extend(r.tick for r in results)
                else:
                    ticks.append(db.record(**_token(j)).tick)
            return ticks

        results, errors = _run_threads(work, threads)
        assert errors == []
        every = sorted(t for r in results for t in r)
        assert every == list(range(1, len(every) + 1))
        assert all(r == sorted(r) for r in results)  # each caller's ticks only go up
    assert _ticks(tmp_path / "t.sqlite3")["shared"] == every


class _Boom(Exception):
    pass


def _write_then_fail(conn: sqlite3.Connection) -> None:
    conn.execute(
        "INSERT INTO comments (id, session_id, target_type, content, created_us, updated_us,"
        " created_by) VALUES ('comment-x', 's', 'session', 'half-written', 0, 0, 'test')"
    )
    raise _Boom("after writing")


def test_a_failing_job_in_a_group_commit_fails_alone(tmp_path: Path) -> None:
    # audit=False: the audit log's call records would be commits of their own to count.
    with xdb.connect(tmp_path / "t.sqlite3", session_id="s", audit=False) as db:
        db.record_batch([_token(i) for i in range(3)])
        writer = _writer(db)
        before = writer.commits
        holding, release = threading.Event(), threading.Event()

        def hold(conn: sqlite3.Connection) -> None:
            # Keeps the writer busy so the jobs below queue up and run as one group.
            holding.set()
            assert release.wait(WATCHDOG_SECONDS)

        leader = threading.Thread(target=writer.submit, args=(hold,))
        leader.start()
        assert holding.wait(WATCHDOG_SECONDS)

        calls: list[Callable[[], Any]] = [
            lambda: db.record(**_token(10)),
            lambda: db.tag(timestep_id="ts-s-999", tag_name_or_id="ghost"),  # no such timestep
            lambda: db.record(**_token(11)),
            lambda: db.comment(session_id="nobody", content="hello?"),  # no such session
            lambda: db.record_batch([_token(12), _token(13)]),
            lambda: db.tag(timestep_id="ts-s-2", tag_name_or_id="real"),
            lambda: writer.submit(_write_then_fail),  # fails after writing: needs its savepoint
        ]
        outcomes: list[Any] = [None] * len(calls)
        finished: list[int] = []  # calls that returned without waiting for the writer

        def call(i: int) -> None:
            try:
                outcomes[i] = calls[i]()
            except BaseException as exc:
                outcomes[i] = exc
            finished.append(i)

        threads = [threading.Thread(target=call, args=(i,)) for i in range(len(calls))]
        try:
            for t in threads:
                t.start()
            # Wait (on a condition, not a timer) until every call has queued its job behind
            # the held writer, or has returned early -- which would mean it failed before it
            # reached the write transaction, and this test would no longer test the group.
            deadline = time.monotonic() + WATCHDOG_SECONDS
            while len(writer._queue) + len(finished) < len(calls):
                assert time.monotonic() < deadline, "jobs never queued"
                os.sched_yield()
            early = [(i, outcomes[i]) for i in finished]
            assert early == [], "these calls failed before reaching the writer"
        finally:
            release.set()
            leader.join()
            for t in threads:
                t.join()

        # One commit for the held job, one for the whole group: the failures did not split it.
        assert writer.commits - before == 2
        assert isinstance(outcomes[1], xdb.NotFound)
        assert isinstance(outcomes[3], xdb.NotFound)
        good = [outcomes[i] for i in (0, 2, 4, 5)]
        assert not any(isinstance(o, BaseException) for o in good), good
        ticks = sorted([outcomes[0].tick, outcomes[2].tick] + [r.tick for r in outcomes[4].results])
        assert ticks == [4, 5, 6, 7]
        assert outcomes[5].timestep_count == 1
        assert isinstance(outcomes[6], _Boom)
        # Nothing of the failed jobs remains: not the ghost tag, not the half-written comment.
        assert [t.name for t in db.tags().tags] == ["real"]
        status = db.status()
        assert status.experience_stats.total_timesteps == 7
        assert status.experience_stats.total_comments == 0
        assert status.experience_stats.total_tag_applications == 1


# --------------------------------------------------------------------------- processes


def test_two_processes_and_threads_share_one_file(
    tmp_path: Path, spawn: Callable[..., Child]
) -> None:
    path = tmp_path / "p.sqlite3"
    xdb.connect(path).close()  # create the schema before the writers race for it
    per_child, threads, per_thread = 2000, 4, 300
    children = [spawn(path, f"proc{i}", per_child) for i in range(2)]
    with xdb.connect(path) as db:
        for child in children:
            child.go()

        def work(i: int) -> int:
            for j in range(per_thread):
                db.record(session_id=f"thread{i}", **_token(j))
            return per_thread

        _, errors = _run_threads(work, threads)
        assert errors == []  # in particular no "database is locked"
        acks = [child.finish() for child in children]
        total = db.status().experience_stats.total_timesteps
    for got in acks:
        assert [first for first, _ in got] == list(range(1, per_child + 1))
    assert total == 2 * per_child + threads * per_thread
    stored = _ticks(path)
    for i in range(2):
        assert stored[f"proc{i}"] == list(range(1, per_child + 1))
    for i in range(threads):
        assert stored[f"thread{i}"] == list(range(1, per_thread + 1))


def test_two_processes_sharing_one_session_get_distinct_ticks(
    tmp_path: Path, spawn: Callable[..., Child]
) -> None:
    path = tmp_path / "p.sqlite3"
    xdb.connect(path).close()
    singles = spawn(path, "shared", 600)  # one record per call
    batches = spawn(path, "shared", 120, batch_size=5)  # five per call
    with xdb.connect(path, session_id="shared") as db:
        singles.go()
        batches.go()
        mine = [db.record(**_token(j)).tick for j in range(200)]
        single_acks, batch_acks = singles.finish(), batches.finish()
    ticks = [first for first, _ in single_acks] + mine
    for first, last in batch_acks:
        assert last == first + 4  # a batch's ticks are consecutive: it is one transaction
        ticks.extend(range(first, last + 1))
    assert sorted(ticks) == list(range(1, 600 + 600 + 200 + 1))  # no duplicate, no gap
    assert _ticks(path)["shared"] == sorted(ticks)


# --------------------------------------------------------------------------- reopening


def test_reopen_continues_the_current_session_without_reusing_ids(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    with xdb.connect(path) as db:
        db.record(session_id="older", **_token(0))
        current = db.start_session()  # a new session, recorded into last
        first = [r.timestep_id for r in db.record_batch([_token(i) for i in range(5)]).results]
    conn = sqlite3.connect(path)
    max_seq = conn.execute("SELECT max(seq) FROM timesteps").fetchone()[0]
    conn.close()

    with xdb.connect(path) as db:
        # The most recently active session is current again, and it carries on.
        assert db.session_id == current
        nxt = db.record(**_token(5))
        assert nxt.tick == 6 and nxt.timestep_id not in first
        assert db.record(session_id="older", **_token(1)).tick == 2
        assert db.record(session_id="fresh", **_token(0)).tick == 1
        db.start_session()
        assert db.record(**_token(0)).tick == 1

    with xdb.connect(path, session_id="fresh") as db:
        assert db.record(**_token(1)).tick == 2
    stored = _ticks(path)
    assert stored["older"] == [1, 2] and stored["fresh"] == [1, 2]
    assert stored[current] == [1, 2, 3, 4, 5, 6]
    conn = sqlite3.connect(path)
    seqs = [r[0] for r in conn.execute("SELECT seq FROM timesteps ORDER BY seq")]
    conn.close()
    # Row numbers only grow: every record after the reopen got one past the old maximum.
    assert seqs == list(range(1, max_seq + 6))


# --------------------------------------------------------------------------- the cached tail


def test_two_connections_taking_turns_never_reuse_a_tick(tmp_path: Path) -> None:
    """Each store caches the log's tail between its own records; a commit by the other
    connection (PRAGMA data_version) must make it read the tail again."""
    path = tmp_path / "t.sqlite3"
    with xdb.connect(path, session_id="s") as a, xdb.connect(path, session_id="s") as b:
        ticks = []
        for i in range(6):
            ticks.append(a.record(**_token(i)).tick)
            ticks.append(a.record(**_token(i)).tick)
            ticks.append(b.record(**_token(i)).tick)
        assert ticks == list(range(1, 19))
        assert b.record(session_id="new", **_token(0)).tick == 1
        assert a.record(session_id="new", **_token(1)).tick == 2


def test_an_import_through_the_same_connection_refreshes_the_tail(tmp_path: Path) -> None:
    source = tmp_path / "source.sqlite3"
    with xdb.connect(source, session_id="s") as db:
        db.record_batch([_token(i) for i in range(3)])
        exported = list(db.store.export_records())
    with xdb.connect(tmp_path / "target.sqlite3", session_id="other") as db:
        assert db.record(**_token(0)).tick == 1  # the tail is now cached
        db.store.import_records(exported)
        assert db.record(session_id="s", **_token(3)).tick == 4
        assert db.record(**_token(1)).tick == 2
    assert _ticks(tmp_path / "target.sqlite3") == {"s": [1, 2, 3, 4], "other": [1, 2]}
