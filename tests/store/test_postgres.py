"""What only the PostgreSQL store has to prove: migrations kept in the database, several
writers (threads and processes) at once, and PostgreSQL's own limits on values."""

from __future__ import annotations

import multiprocessing
import threading
from collections import defaultdict

import numpy as np
import psycopg
import pytest

from tests.conftest import PostgresServer
from tests.store._data import T0, episode, step
from tests.store._pg_writer import write
from xdb.errors import InvalidRequest, MigrationError, StoreError
from xdb.store.postgres import PostgresStore
from xdb.store.postgres.connection import redacted
from xdb.store.postgres.schema import LATEST
from xdb.store.types import TimestepFilter


def _sql(url: str, sql: str) -> list[tuple[object, ...]]:
    with psycopg.connect(url, autocommit=True) as conn:
        cur = conn.execute(sql.encode())
        return cur.fetchall() if cur.description else []


def test_migrations_are_recorded_and_run_once(postgres_server: PostgresServer) -> None:
    url = postgres_server.url("postgres")
    _sql(url, "CREATE DATABASE fresh_migrations")
    fresh = postgres_server.url("fresh_migrations")
    PostgresStore(fresh).close()
    PostgresStore(fresh).close()  # the second open finds everything done
    rows = _sql(fresh, "SELECT version, name FROM schema_migrations ORDER BY version")
    assert [r[0] for r in rows] == list(range(1, LATEST + 1))
    _sql(fresh, "INSERT INTO schema_migrations VALUES (99, 'from the future', 0)")
    with pytest.raises(MigrationError, match="newer"):
        PostgresStore(fresh)


def test_opening_a_missing_database_fails_with_the_reason(postgres_server: PostgresServer) -> None:
    with pytest.raises(StoreError, match="does_not_exist"):
        PostgresStore(postgres_server.url("does_not_exist"))


def test_the_location_hides_the_password() -> None:
    assert redacted("postgresql://me:secret@db.example:5432/xdb") == (
        "postgresql://me:***@db.example:5432/xdb"
    )
    assert redacted("postgresql://me@db/xdb?sslmode=require") == (
        "postgresql://me@db/xdb?sslmode=require"
    )


def test_text_postgresql_cannot_hold_is_an_invalid_request(postgres_url: str) -> None:
    # SQLite stores a NUL character; PostgreSQL's text cannot hold one. Nothing is kept.
    store = PostgresStore(postgres_url)
    try:
        with pytest.raises(InvalidRequest):
            store.record([step("s", T0, "a\x00b")])
        store.add_episode(episode(1, "e1"))
        for bad in (b"\0\0\0", b"", np.array([np.nan], dtype="<f4").tobytes()):
            with pytest.raises(InvalidRequest):
                store.store_vectors("m", [(1, bad)])
        assert store.load_vectors("m") == []
        # A refused episode leaves no gap in the seqs, as on SQLite (its rows roll back).
        with pytest.raises(InvalidRequest):
            store.add_episode(episode(2, "e\x002"))
        assert store.add_episode(episode(3, "e3")) == 2
        assert store.record([step("s", T0, "ok")]) == [("ts-s-1", 1)]
    finally:
        store.close()


def test_threads_share_the_pool_and_never_share_a_tick(postgres_url: str) -> None:
    store = PostgresStore(postgres_url, pool_size=4)
    errors: list[BaseException] = []
    ticks: list[int] = []
    lock = threading.Lock()

    def work(n: int) -> None:
        try:
            for i in range(20):
                made = store.record([step("s", T0 + i, f"t{n}.{i}") for _ in range(3)])
                with lock:
                    ticks.extend(t for _, t in made)
                if i % 4 == 0:
                    store.add_episode(episode(100 * n + i, f"thread {n} step {i}"))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert errors == []
        assert sorted(ticks) == list(range(1, 361))
        summary = store.session_summary("s")
        assert summary is not None and (summary.timesteps, summary.current_tick) == (360, 360)
        # Text changes are numbered in commit order, so they have no holes.
        changes = [c for c, _, _ in store.text_changes(0, 10_000)]
        assert changes == list(range(1, len(changes) + 1))
        assert store.episode_max_seq() == 30
    finally:
        store.close()


def test_a_reader_never_sees_a_later_change_before_an_earlier_one(postgres_url: str) -> None:
    """The watermark promise the tantivy and vector caches rely on, under concurrent adds."""
    store = PostgresStore(postgres_url, pool_size=6)
    errors: list[BaseException] = []

    def add(n: int) -> None:
        try:
            for i in range(15):
                store.add_episode(episode(100 * n + i, f"adder {n} item {i}", session=f"s{n}"))
                todo = store.missing_vectors("m", 5)
                store.store_vectors("m", [(seq, b"\0\0\x80?") for seq, _, _ in todo])
        except BaseException as exc:
            errors.append(exc)

    adders = [threading.Thread(target=add, args=(n,)) for n in range(4)]
    for t in adders:
        t.start()
    try:
        seen_change = seen_vseq = 0
        while True:
            finished = not any(t.is_alive() for t in adders)  # then one last look
            latest = store.latest_text_change()
            below = [c for c, _, _ in store.text_changes(seen_change, 100_000) if c <= latest]
            assert below == list(range(seen_change + 1, latest + 1))
            seen_change = latest
            vseqs = [v[0] for v in store.load_vectors("m", seen_vseq)]
            assert vseqs == list(range(seen_vseq + 1, seen_vseq + len(vseqs) + 1))
            seen_vseq = vseqs[-1] if vseqs else seen_vseq
            if finished:
                break
        assert errors == []
        assert store.episode_max_seq() == 60
        assert seen_vseq == len(store.load_vectors("m")) > 0
    finally:
        for t in adders:
            t.join(60)
        store.close()


def test_two_processes_writing_at_once_lose_nothing(postgres_url: str) -> None:
    ctx = multiprocessing.get_context("spawn")
    writers, batches, size = 2, 40, 10
    start = ctx.Barrier(writers)
    out = ctx.Queue()
    procs = [
        ctx.Process(target=write, args=(postgres_url, w, batches, size, start, out))
        for w in range(writers)
    ]
    for p in procs:
        p.start()
    try:
        reports = dict(out.get(timeout=120) for _ in procs)
    finally:
        for p in procs:
            p.join(60)
            if p.is_alive():
                p.kill()
    assert [p.exitcode for p in procs] == [0] * writers
    given: dict[str, list[int]] = defaultdict(list)
    for got in reports.values():
        for session, tick in got:
            given[session].append(tick)
    expected = {"shared": writers * batches * size, "x": writers * batches}
    expected |= {"y": writers * batches, **{f"own{w}": batches for w in range(writers)}}
    assert {s: len(t) for s, t in given.items()} == expected
    store = PostgresStore(postgres_url)
    try:
        for session, count in expected.items():
            # Unique and consecutive as handed out, and exactly what the database holds.
            assert sorted(given[session]) == list(range(1, count + 1)), session
            page, total, _ = store.query(TimestepFilter(session_ids=[session]), None, 10_000)
            assert total == count
            assert sorted(t.tick for t in page) == list(range(1, count + 1))
            summary = store.session_summary(session)
            assert summary is not None and summary.current_tick == count
        assert store.episode_max_seq() == writers * batches // 5
        changes = [c for c, _, _ in store.text_changes(0, 100_000)]
        assert changes == list(range(1, len(changes) + 1))
    finally:
        store.close()
