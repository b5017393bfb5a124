"""The timesteps' full-text index, written behind the log rather than with each commit.

FTS5 flushes a new segment at every commit that touched it: about 58 us here, more than
half of a single ``record``'s floor (an insert and a commit are ~45 us without it). So
``record`` only appends to the log, and the index catches up in bulk:

- a watermark row (``index_watermarks``) holds the highest ``seq`` already indexed, and is
  moved in the same transaction as the index rows, so a crash can never leave the two apart;
- a text query first catches the index up (through the writer), so a search sees every
  timestep recorded before it started: readers never observe the lag;
- ``record`` catches up inside its own transaction once the lag reaches ``max_lag`` rows,
  which bounds the work a later query inherits (~4k rows, a few ms) after a long ingest.

Timesteps are immutable; whoever later deletes or rewrites one (compaction) must delete its
index entry first when its ``seq`` is at or below the watermark.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from xdb.store.sqlbuild import chunks

NAME = "timesteps_fts"
MAX_LAG = 4096

WATERMARK_SQL = f"SELECT position FROM index_watermarks WHERE name = '{NAME}'"


def lag(conn: sqlite3.Connection) -> int:
    """Rows recorded but not yet in the full-text index."""
    row = conn.execute(
        f"SELECT coalesce((SELECT max(seq) FROM timesteps), 0) - ({WATERMARK_SQL})"
    ).fetchone()
    return int(row[0])


def catch_up(conn: sqlite3.Connection) -> int:
    """Index every timestep above the watermark; call inside a write transaction."""
    (position,) = conn.execute(WATERMARK_SQL).fetchone()
    (top,) = conn.execute("SELECT coalesce(max(seq), 0) FROM timesteps").fetchone()
    if top <= position:
        return 0
    conn.execute(
        "INSERT INTO timesteps_fts (rowid, content)"
        " SELECT seq, content FROM timesteps WHERE seq > ? ORDER BY seq",
        (position,),
    )
    conn.execute(f"UPDATE index_watermarks SET position = ? WHERE name = '{NAME}'", (top,))
    return int(top - position)


def delete_hot(conn: sqlite3.Connection, session: str, ticks: Sequence[int]) -> int:
    """Delete the listed ticks of ``session`` that are still HOT (compaction), their index
    entries first where the index holds them; how many went."""
    (position,) = conn.execute(WATERMARK_SQL).fetchone()
    gone = 0
    for part in chunks(sorted(set(ticks))):
        where = f"session_id = ? AND fidelity = 'hot' AND tick IN ({','.join('?' * len(part))})"
        indexed = conn.execute(
            f"SELECT seq, content FROM timesteps WHERE {where} AND seq <= ?",
            (session, *part, position),
        ).fetchall()
        conn.executemany(
            f"INSERT INTO {NAME} ({NAME}, rowid, content) VALUES ('delete', ?, ?)", indexed
        )
        gone += conn.execute(f"DELETE FROM timesteps WHERE {where}", (session, *part)).rowcount
    return gone
