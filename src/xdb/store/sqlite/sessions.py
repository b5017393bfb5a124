"""A session's row counts its timesteps behind the log, and the ``session_totals`` view adds
what it has not counted yet.

Rewriting a session's row (next tick, timesteps, last time) with every ``record`` made every
commit write one page more (the sessions table's) than the timestep itself needs: ~10 us
of a ~100 us single record here. So the row is a checkpoint instead:

- every timestep of a session with ``tick >= next_tick`` is not yet counted in its row, and
  a row with such timesteps is marked ``pending`` in the transaction that writes the first
  of them; ``session_totals`` adds them up for pending rows (``timesteps``, ``next_tick``,
  ``last_us``), so readers never see the lag: they read the view, never the table;
- the writer (``SQLiteStore.record``) keeps, per session, the uncounted timesteps it wrote
  and folds them into the row (``FOLD``, which clears the mark) when a batch is recorded,
  when a lone record leaves ``SETTLE_EVERY`` of them, and when the store closes. A lone
  record thus writes its session's row once in ``SETTLE_EVERY`` records, and marks it once;
- a writer that does not know a session's uncounted timesteps (first record after opening,
  or after another connection committed) reads them from the log (``uncounted``), so a
  process killed before it folded leaves nothing wrong, only a few rows to add up;
- whoever writes a session's row otherwise (an import) settles it first (``settle``).

A pending session's uncounted timesteps are an index range of at most ``SETTLE_EVERY`` rows
(``timesteps_session_tick``); a row that is not pending costs the view nothing, so listing
10,000 sessions by last activity stays a scan of the sessions table.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

SETTLE_EVERY = 32

_UNCOUNTED = "FROM timesteps t WHERE t.session_id = s.session_id AND t.tick >= s.next_tick"

# Migration 8. Correlated subqueries rather than a join and GROUP BY: the view stays simple
# enough for SQLite to flatten, so ``WHERE session_id = ?`` on it is one row's lookup.
MIGRATION = [
    "ALTER TABLE sessions ADD COLUMN pending INTEGER NOT NULL DEFAULT 0",
    "CREATE VIEW session_totals AS SELECT s.rowid AS made, s.session_id AS session_id,"
    f" s.timesteps + CASE WHEN s.pending THEN (SELECT count(*) {_UNCOUNTED}) ELSE 0 END"
    " AS timesteps,"
    f" CASE WHEN s.pending THEN coalesce((SELECT max(t.tick) + 1 {_UNCOUNTED}), s.next_tick)"
    " ELSE s.next_tick END AS next_tick,"
    " s.created_us AS created_us,"
    " CASE WHEN s.pending THEN"
    f" max(s.last_us, coalesce((SELECT max(t.ts_us) {_UNCOUNTED}), s.last_us))"
    " ELSE s.last_us END AS last_us"
    " FROM sessions s",
]

# A session's row, its mark and its uncounted timesteps; no row when the session is new.
_READ = (
    "SELECT s.next_tick, s.pending, count(t.tick), max(t.tick), max(t.ts_us) FROM sessions s"
    " LEFT JOIN timesteps t ON t.session_id = s.session_id AND t.tick >= s.next_tick"
    " WHERE s.session_id = ? GROUP BY s.session_id"
)

# Folds timesteps the writer counted itself: (next tick, their latest ts_us, how many, session).
FOLD = (
    "UPDATE sessions SET next_tick = ?, last_us = max(last_us, ?), timesteps = timesteps + ?,"
    " pending = 0 WHERE session_id = ?"
)

MARK = "UPDATE sessions SET pending = 1 WHERE session_id = ?"

# Folds whatever the log holds beyond a session's row, whoever wrote it.
_SETTLE = (
    "UPDATE sessions SET (timesteps, next_tick, last_us, pending) = (SELECT v.timesteps,"
    " v.next_tick, v.last_us, 0 FROM session_totals v WHERE v.session_id = sessions.session_id)"
)


def uncounted(
    conn: sqlite3.Connection, session: str, ts_us: int, origin: str | None = None
) -> list[int]:
    """``[next tick, uncounted timesteps, their latest ts_us, pending]`` of ``session``, which
    is made (next tick 1, first seen at ``ts_us``, pending, of ``origin``) when it does not
    exist yet."""
    row = conn.execute(_READ, (session,)).fetchone()
    if row is None:
        conn.execute(
            "INSERT INTO sessions (session_id, next_tick, created_us, last_us, pending, origin)"
            " VALUES (?, 1, ?, ?, 1, ?)",
            (session, ts_us, ts_us, origin),
        )
        return [1, 0, 0, 1]
    next_tick, pending, count, top, latest = row
    if not count:
        return [next_tick, 0, 0, pending]
    return [top + 1, count, latest, pending]


def settle(conn: sqlite3.Connection, sessions: Iterable[str] | None = None) -> None:
    """Fold every uncounted timestep of ``sessions`` (all pending ones by default) into their
    rows; call inside a write transaction."""
    if sessions is None:
        conn.execute(_SETTLE + " WHERE pending")
    else:
        conn.executemany(_SETTLE + " WHERE session_id = ?", ((s,) for s in sessions))
