"""A lone ``record``'s audit record, chained a little later (issue 36): the SQLite store's
way of keeping the audit log without paying a second row per record.

A record's audit record was written in the record's own transaction: one more row in
another table, whose page the commit then writes too. That second row, even of one byte,
cost 1.15-1.18x of a record without the audit log (``bench.ingest``); with its body, 1.25x.
Here the record's row carries what its audit record needs besides itself: when it was
recorded, by whom, through which operation (``audit_at``, ``audit_caller``,
``audit_operation``; NULL on rows no one is auditing). Those rows are *pending*. ``seal``
chains them onto the log in order, each as the ``timestep`` record it would have been (the
same body, written from the row, whose fields no write changes: compaction removes rows, it
never edits them). Nothing acknowledged is lost: a pending row is in the file, and whoever
opens the file next seals it.

When the log is sealed:
- before every other write (``SQLiteStore._write``), and before any write that carries a
  call's record: a batch's records, a compaction that removes rows, a deletion: so the
  log's order is still the order of the writes, and no row leaves before it is chained;
- every ``SEAL_EVERY`` pending records, within the record that reaches that many (whichever
  connections recorded them), so that a seal stays short;
- before the log is read, verified or pruned (only when some wait: a read of the log takes
  no write lock otherwise); when the handle closes (not waiting for another writer's lock);
  when a file opens. Sealed together, records keep a checkpoint after every thousandth
  (``audit.append``), as they did appended one by one.

Which rows are pending is said by ``index_watermarks['audit_pending']``: the lowest pending
seq, or 0 for none. Each pending record reads it in its own transaction (set it when 0,
seal when ``SEAL_EVERY`` may be waiting), so it is the file's word, whichever connections
recorded and whatever job rolled back; a check before a write is one point read, whatever
the log's size.

Only without ``XDB_AUDIT_KEY``. With the key, the chain is what no one without the key can
forge; a pending row is plain data in the file, and a key holder who sealed it would sign
what anyone who could write the file put there. So a keyed store records as before, and a
row it finds pending (only an unkeyed writer leaves them) is sealed without the key, as
that writer would have: a keyed verify then stops at it. PostgreSQL records as before.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from xdb.ids import timestep_id
from xdb.store import audit, audit_bodies
from xdb.store.sqlbuild import SQLITE
from xdb.store.types import NewTimestep

NAME = "audit_pending"
SEAL_EVERY = 500  # pending records a record seals at (~2 ms, one record in 500)
COLUMNS = ("audit_at", "audit_caller", "audit_operation")

MIGRATION = [
    "ALTER TABLE timesteps ADD COLUMN audit_at INTEGER",
    "ALTER TABLE timesteps ADD COLUMN audit_caller TEXT",
    "ALTER TABLE timesteps ADD COLUMN audit_operation TEXT",
    f"INSERT INTO index_watermarks (name, position) VALUES ('{NAME}', 0)",
]

# A pending record's row: ``audit_bodies.ROW``'s columns, then the three above.
INSERT = (
    f"INSERT INTO timesteps ({audit_bodies.ROW}, {', '.join(COLUMNS)})"
    f" VALUES ({','.join(['?'] * 15)})"
)
# The first pending record since a seal says where the pending rows start.
_MARK = f"UPDATE index_watermarks SET position = ? WHERE name = '{NAME}'"
_FIRST = f"SELECT position FROM index_watermarks WHERE name = '{NAME}'"
_PENDING = (
    f"SELECT {audit_bodies.ROW}, {', '.join(COLUMNS)} FROM timesteps"
    " WHERE seq >= ? AND audit_at IS NOT NULL ORDER BY seq"
)
_CLEAR = f"UPDATE index_watermarks SET position = 0 WHERE name = '{NAME}'"


def recorded(conn: sqlite3.Cursor | sqlite3.Connection, seq: int) -> None:
    """A pending record was inserted at ``seq`` (in the same transaction): mark where the
    pending records start, or chain them once ``SEAL_EVERY`` may be waiting."""
    (first,) = conn.execute(_FIRST).fetchone()
    if not first:
        conn.execute(_MARK, (seq,))
    elif seq - first + 1 >= SEAL_EVERY:  # (at most that many: other rows may lie between)
        seal(conn)


def waiting(conn: sqlite3.Connection) -> bool:
    """Whether any record waits to be chained (a read)."""
    return bool(conn.execute(_FIRST).fetchone()[0])


def seal(conn: sqlite3.Cursor | sqlite3.Connection) -> int:
    """Chain every pending record onto the audit log, in the caller's write transaction;
    how many. One point read when none is pending."""
    (first,) = conn.execute(_FIRST).fetchone()
    if not first:
        return 0
    # The rows as inserted: SQLite gives the flags back as integers.
    rows = [(*r[:9], bool(r[9]), bool(r[10]), *r[11:]) for r in conn.execute(_PENDING, (first,))]
    ids = [(timestep_id(r[1], r[2]), r[2]) for r in rows]
    bodies = audit_bodies.plain_steps(ids, [r[:12] for r in rows]) or [
        _body(tid, r[:12]) for (tid, _), r in zip(ids, rows, strict=True)
    ]
    # Without the key, always: see the module's docstring.
    entries = [
        audit.AuditEntry(r[12], "timestep", r[13], r[14], body)
        for r, body in zip(rows, bodies, strict=True)
    ]
    audit.append(conn, SQLITE, entries, False, None, None)
    conn.execute(_CLEAR)
    return len(entries)


def _body(tid: str, row: tuple[Any, ...]) -> str:
    """A pending row's ``timestep`` body, as the record would have written it: from the row,
    or by the encoder when a text must be escaped."""
    body = audit_bodies.row_step(tid, row)
    if body is not None:
        return body
    _, session, tick, ts_us, kind, role, content, token, event, start, end, acts = row
    stored = json.loads(acts) if acts else {}
    item = NewTimestep(session, ts_us, kind, role, content, token, event, start, end, stored)
    return audit_bodies.step_body(item, tid, tick, acts)
