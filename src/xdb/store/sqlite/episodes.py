"""Episodes in SQLite: rows, concept and label rows, and the FTS5 index.

Functions take a connection so the store can run them inside its writer's transaction (writes)
or on a reader (reads). The full-text index is written in the same transaction as the row:
episodes arrive one at a time, not token by token, so the per-commit flush is affordable, and
a delete must remove exactly what was indexed. Filters and pages are ``xdb.store.sqlbuild``,
shared with the PostgreSQL store.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

from xdb.store import access, exemplars, rows, sqlbuild
from xdb.store.context import context
from xdb.store.rows import episode as to_stored
from xdb.store.rows import episode_values
from xdb.store.sqlbuild import SQLITE
from xdb.store.sqlite.schema import next_number
from xdb.store.types import EpisodeFilter, NewEpisode, Place, StoredEpisode, TextChange

COLUMNS = (
    "seq, id, namespace, kind, session_id, summary, content, start_us, end_us, created_us,"
    " created_by, concept_tags, labels, motive_profile, metadata, provenance"
)
_INSERT = (
    f"INSERT INTO episodes ({COLUMNS}) VALUES"
    f" ({next_number('episodes', 'seq')},?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)


def insert(conn: sqlite3.Connection, ep: NewEpisode) -> int:
    cur = conn.execute(_INSERT, episode_values(ep))
    seq = int(cur.lastrowid or 0)
    conn.executemany(
        "INSERT INTO episode_concepts"
        " (concept_id, episode_seq, score, kind, episode_id, start_us, end_us, namespace)"
        " VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO UPDATE SET score = max(score, excluded.score)",
        [
            (
                t["concept_id"],
                seq,
                t["score"],
                t["kind"],
                ep.id,
                ep.start_us,
                ep.end_us,
                ep.namespace,
            )
            for t in ep.concept_tags
        ],
    )
    conn.executemany(
        "INSERT OR REPLACE INTO episode_labels (concept_id, episode_seq, label, confidence)"
        " VALUES (?,?,?,?)",
        [(lb["concept_id"], seq, lb["label"], lb["confidence"]) for lb in ep.labels],
    )
    made = exemplars.of_episode_labels(ep.id, ep.labels, ep.created_us, ep.created_by)
    exemplars.insert(conn, SQLITE, exemplars.not_stored(conn, SQLITE, made))
    conn.execute(
        "INSERT INTO episodes_fts (rowid, summary, content, context) VALUES (?,?,?,'')",
        (seq, ep.summary, ep.content),
    )
    # The new episode's context, and its session neighbours' (each now has a new neighbour).
    _log_text_change(conn, seq)
    for affected in (seq, *_neighbour_seqs(conn, seq)):
        refresh_context(conn, affected)
    if ep.access_policy_id is not None:
        access.assign(conn, SQLITE, "episode", [(ep.id,)], ep.access_policy_id)
    return seq


def _log_text_change(conn: sqlite3.Connection, seq: int) -> None:
    conn.execute("INSERT INTO episode_text_changes (seq) VALUES (?)", (seq,))


def text_changes(conn: sqlite3.Connection, after: int, limit: int) -> list[TextChange]:
    return rows.text_changes(conn, SQLITE, "e.seq = c.seq", after, limit)


def latest_text_change(conn: sqlite3.Connection) -> int:
    return int(
        conn.execute("SELECT coalesce(max(change), 0) FROM episode_text_changes").fetchone()[0]
    )


def _neighbour_seqs(conn: sqlite3.Connection, seq: int) -> list[int]:
    return [int(s) for s in rows.neighbours(conn, SQLITE, seq, "seq") if s is not None]


def refresh_context(conn: sqlite3.Connection, seq: int) -> None:
    """Re-index an episode's context (``xdb.store.context``): FTS5 takes out exactly the
    old text, then the new."""
    row = conn.execute(
        "SELECT summary, content, context, start_us FROM episodes WHERE seq = ?", (seq,)
    ).fetchone()
    if row is None:
        return
    summary, content, old, start_us = row
    new = context(
        start_us,
        (
            conn.execute("SELECT content FROM episodes WHERE seq = ?", (near,)).fetchone()[0]
            for near in _neighbour_seqs(conn, seq)
        ),
    )
    if new == old:
        return
    conn.execute(
        "INSERT INTO episodes_fts (episodes_fts, rowid, summary, content, context)"
        " VALUES ('delete', ?, ?, ?, ?)",
        (seq, summary, content, old),
    )
    conn.execute("UPDATE episodes SET context = ? WHERE seq = ?", (new, seq))
    _log_text_change(conn, seq)
    conn.execute(
        "INSERT INTO episodes_fts (rowid, summary, content, context) VALUES (?,?,?,?)",
        (seq, summary, content, new),
    )


def delete(conn: sqlite3.Connection, episode_id: str) -> int | None:
    """Delete an episode with its rows and index entry; its seq, or None if there was none."""
    row = conn.execute(
        "SELECT seq, summary, content, context FROM episodes WHERE id = ?", (episode_id,)
    ).fetchone()
    if row is None:
        return None
    neighbours = _neighbour_seqs(conn, row[0])
    conn.execute(
        "INSERT INTO episodes_fts (episodes_fts, rowid, summary, content, context)"
        " VALUES ('delete', ?, ?, ?, ?)",
        row,
    )
    # Concepts, labels and vectors go with it (ON DELETE CASCADE).
    conn.execute("DELETE FROM episodes WHERE seq = ?", (row[0],))
    conn.execute("DELETE FROM graph_edges WHERE src = ? OR dst = ?", (episode_id, episode_id))
    exemplars.forget_episode(conn, SQLITE, episode_id)
    # A record deleted (not merged) is gone; a merge marks its row before this runs.
    conn.execute("DELETE FROM memory_records WHERE id = ? AND merged_into IS NULL", (episode_id,))
    _log_text_change(conn, row[0])
    for near in neighbours:  # they are each other's neighbours now
        refresh_context(conn, near)
    return int(row[0])


def _where_in(conn: sqlite3.Connection, sql: str, values: Sequence[Any]) -> Iterator[Sequence[Any]]:
    """Rows of ``sql`` (whose ``{in}`` is filled with placeholders) for ``values``, in chunks
    that stay under SQLite's limit on bound parameters."""
    for i in range(0, len(values), 500):
        chunk = values[i : i + 500]
        yield from conn.execute(sql.format(marks=",".join("?" * len(chunk))), chunk)


def by_ids(conn: sqlite3.Connection, ids: Sequence[str]) -> dict[str, StoredEpisode]:
    sql = f"SELECT {COLUMNS} FROM episodes WHERE id IN ({{marks}})"
    return {row[1]: to_stored(row) for row in _where_in(conn, sql, ids)}


def by_seqs(conn: sqlite3.Connection, seqs: Sequence[int]) -> dict[int, StoredEpisode]:
    sql = f"SELECT {COLUMNS} FROM episodes WHERE seq IN ({{marks}})"
    return {row[0]: to_stored(row) for row in _where_in(conn, sql, seqs)}


def places_of(conn: sqlite3.Connection, seqs: Sequence[int]) -> dict[int, Place]:
    sql = "SELECT seq, session_id, end_us, namespace, start_us FROM episodes WHERE seq IN ({marks})"
    return {int(r[0]): Place(r[1], int(r[2]), r[3], int(r[4])) for r in _where_in(conn, sql, seqs)}


def session_neighbours(conn: sqlite3.Connection, seq: int) -> tuple[str | None, str | None]:
    """The ids of the episodes just before and just after ``seq`` (NEXT): in its session,
    or among its namespace's nearby sessionless episodes (``rows.neighbours``)."""
    before, after = rows.neighbours(conn, SQLITE, seq, "id")
    return before, after


def bm25(
    conn: sqlite3.Connection, flt: EpisodeFilter, match: str, limit: int
) -> list[tuple[int, float]]:
    """Up to ``limit`` (seq, bm25 score, higher better) for an FTS5 MATCH expression."""
    clauses, params = sqlbuild.episode_where(flt, SQLITE)
    clauses.insert(0, "episodes_fts MATCH ?")
    # Column weights: the summary (often the content's first sentence: counted half, not
    # twice), the content, and the context (date words and neighbours' text).
    sql = (
        "SELECT e.seq, -bm25(episodes_fts, 0.5, 1.0, 1.0) FROM episodes_fts"
        f" JOIN episodes e ON e.seq = episodes_fts.rowid{sqlbuild.sql_where(clauses)}"
        " ORDER BY bm25(episodes_fts, 0.5, 1.0, 1.0) LIMIT ?"
    )
    return [(int(s), float(v)) for s, v in conn.execute(sql, [match, *params, limit])]


def count(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM episodes").fetchone()[0])


def max_seq(conn: sqlite3.Connection) -> int:
    # (Not max(seq): through a restricted caller's views max() reads every row; this walks
    # back from the newest to the first it may read.)
    row = conn.execute("SELECT seq FROM episodes ORDER BY seq DESC LIMIT 1").fetchone()
    return 0 if row is None else int(row[0])
