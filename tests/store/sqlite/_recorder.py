"""A recording child process for the crash and concurrency tests (run as a script, not imported).

    python _recorder.py DB SESSION --batches N --batch-size B [--activations K] [--wait-go]
        [--text-index-lag L]

Opens DB with ``xdb.connect``, prints ``ready``, optionally waits for a line ``go`` on stdin
(so several writers start together without sleeps), then records N calls into SESSION: with
``--batch-size 1`` each call is one ``db.record``, otherwise one ``db.record_batch`` of B token
timesteps with K concept activations each. After every call returns (the write is committed)
it prints ``ack <call number> <first tick> <last tick>`` and flushes, so the parent
knows exactly what was acknowledged. ``--batches 0`` records until killed. Ends with ``done``.

``--die-in-call N --die-at PREFIX`` makes the process SIGKILL itself inside call N, at the
moment its write connection starts an SQL statement beginning with PREFIX (inside the write
transaction, or just before COMMIT): a deterministic kill point to go with the parent's random
ones. ``--text-index-lag L`` lets the full-text index trail the log by at most L rows (1: every
write indexes its own rows, so a kill can land inside the indexing).
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import sys
from typing import Any

import xdb


def token(i: int, activations: int) -> dict[str, Any]:
    return {
        "event_type": "output",
        "content": f"tok{i}",
        "token_id": i,
        "concept_activations": {
            f"org.hatcat/first-light@1.0.1::concept/Term{(i + j) % 997}": round(0.05 + j / 20, 3)
            for j in range(activations)
        },
    }


def die_at(db: xdb.Database, prefix: str) -> None:
    # The write connection is private to the store; the hook only observes statements.
    conn: sqlite3.Connection = db.store._wconn  # type: ignore[attr-defined]

    def trace(sql: str) -> None:
        if sql.lstrip().startswith(prefix):
            os.kill(os.getpid(), signal.SIGKILL)

    conn.set_trace_callback(trace)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("session")
    parser.add_argument("--batches", type=int, default=0)
    parser.add_argument("--batch-size", type=int, default=50)
    parser.add_argument("--activations", type=int, default=10)
    parser.add_argument("--wait-go", action="store_true")
    parser.add_argument("--die-in-call", type=int, default=0)
    parser.add_argument("--die-at", default="")
    parser.add_argument("--text-index-lag", type=int, default=0)
    args = parser.parse_args()

    db = xdb.connect(args.db, session_id=args.session)
    # The parent checks the log tick by tick: a context window no run fills, so nothing is
    # compacted away (compaction's own crash test is tests/fidelity/test_maintenance.py).
    admin = db.as_caller(xdb.Caller(id="admin", roles=("admin",)))
    admin.set_resource_contract(context_window_tokens=2**40)
    if args.text_index_lag:
        db.store.text_index_max_lag = args.text_index_lag  # type: ignore[attr-defined]
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    if args.wait_go and sys.stdin.readline().strip() != "go":
        return
    n = 0
    while args.batches == 0 or n < args.batches:
        n += 1
        if n == args.die_in_call:
            die_at(db, args.die_at)
        if args.batch_size == 1:
            r = db.record(**token(n, args.activations))
            first = last = r.tick
        else:
            batch = [
                token(n * args.batch_size + i, args.activations) for i in range(args.batch_size)
            ]
            results = db.record_batch(batch).results
            first, last = results[0].tick, results[-1].tick
        out.write(f"ack {n} {first} {last}\n")
        out.flush()
    db.close()
    out.write("done\n")
    out.flush()


if __name__ == "__main__":
    main()
