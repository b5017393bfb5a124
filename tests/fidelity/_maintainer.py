"""A maintenance child for the crash test (run as a script, not imported).

    python _maintainer.py DB N

Opens DB and runs maintenance, SIGKILLing itself the moment its write connection starts
the Nth transaction that writes records (``BEGIN IMMEDIATE`` after N - 1 commits of
merges): a deterministic kill between transactions of one run.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import sys

import xdb


def main() -> None:
    path, nth = sys.argv[1], int(sys.argv[2])
    db = xdb.connect(path, embedder="hash")
    conn: sqlite3.Connection = db.store._wconn  # type: ignore[attr-defined]
    merges = 0

    def trace(sql: str) -> None:
        nonlocal merges
        if sql.lstrip().startswith("INSERT INTO memory_records"):
            merges += 1
            # The first merge of transaction ``nth`` (each holds 50): die inside it.
            if merges == (nth - 1) * 50 + 1:
                os.kill(os.getpid(), signal.SIGKILL)

    conn.set_trace_callback(trace)
    db.maintenance()


if __name__ == "__main__":
    main()
