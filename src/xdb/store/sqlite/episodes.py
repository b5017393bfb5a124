"""Episodes in SQLite: rows, concept and label rows, the FTS5 index, vectors, and filters.

Functions take a connection so the store can run them inside its writer's transaction (writes)
or on a reader (reads). The full-text index is written in the same transaction as the row:
episodes arrive one at a time, not token by token, so the per-commit flush is affordable, and
a delete must remove exactly what was indexed.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

from xdb.store.protocol import EpisodeFilter, NewEpisode, StoredEpisode
from xdb.store.sqlite.schema import next_number
from xdb.timeutil import from_us

COLUMNS = (
    "seq, id, namespace, kind, session_id, summary, content, start_us, end_us, created_us,"
    " created_by, concept_tags, labels, motive_profile, metadata, provenance"
)
# A deterministic shuffle for sort=random: seq -> ((seq + offset) * multiplier) mod a prime,
# both drawn from the seed. Multiplying by a unit mod a prime is a permutation, so the same
# seed gives the same order, another seed another one, and paging by (key, seq) stays stable.
_PRIME = 2_147_483_647  # 2**31 - 1; products stay inside SQLite's 64-bit integers
RANDOM_KEY = f"(((e.seq + ?) * ?) % {_PRIME})"


def shuffle_params(seed: int) -> list[int]:
    offset = (seed * 40_503 + 12_345) % _PRIME
    multiplier = (1_103_515_245 + 7_919 * seed) % (_PRIME - 1) + 1
    return [offset, multiplier]


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


_INSERT = (
    f"INSERT INTO episodes ({COLUMNS}) VALUES"
    f" ({next_number('episodes', 'seq')},?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)


def insert(conn: sqlite3.Connection, ep: NewEpisode) -> int:
    cur = conn.execute(
        _INSERT,
        (
            ep.id,
            ep.namespace,
            ep.kind,
            ep.session_id,
            ep.summary,
            ep.content,
            ep.start_us,
            ep.end_us,
            ep.created_us,
            ep.created_by,
            _dumps(ep.concept_tags),
            _dumps(ep.labels),
            _dumps(ep.motive_profile),
            _dumps(ep.metadata),
            _dumps(ep.provenance),
        ),
    )
    seq = int(cur.lastrowid or 0)
    conn.executemany(
        "INSERT INTO episode_concepts (concept_id, episode_seq, score, kind) VALUES (?,?,?,?)"
        " ON CONFLICT DO UPDATE SET score = max(score, excluded.score)",
        [(t["concept_id"], seq, t["score"], t["kind"]) for t in ep.concept_tags],
    )
    conn.executemany(
        "INSERT OR REPLACE INTO episode_labels (concept_id, episode_seq, label, confidence)"
        " VALUES (?,?,?,?)",
        [(lb["concept_id"], seq, lb["label"], lb["confidence"]) for lb in ep.labels],
    )
    conn.execute(
        "INSERT INTO episodes_fts (rowid, summary, content, context) VALUES (?,?,?,'')",
        (seq, ep.summary, ep.content),
    )
    # The new episode's context, and its session neighbours' (each now has a new neighbour).
    _log_text_change(conn, seq)
    for affected in (seq, *_neighbour_seqs(conn, seq)):
        refresh_context(conn, affected)
    return seq


def _log_text_change(conn: sqlite3.Connection, seq: int) -> None:
    conn.execute("INSERT INTO episode_text_changes (seq) VALUES (?)", (seq,))


def text_changes(
    conn: sqlite3.Connection, after: int, limit: int
) -> list[tuple[int, int, tuple[str, str, int, int, str] | None]]:
    """Changes after ``after``: (change, seq, (text, namespace, start_us, end_us, kind)), the
    episode's current text index document, or None when it was deleted."""
    return [
        (int(r[0]), int(r[1]), None if r[2] is None else (r[2], r[3], r[4], r[5], r[6]))
        for r in conn.execute(
            "SELECT c.change, c.seq, e.summary || ' ' || e.content || ' ' || e.context,"
            " e.namespace, e.start_us, e.end_us, e.kind FROM episode_text_changes c"
            " LEFT JOIN episodes e ON e.seq = c.seq WHERE c.change > ? ORDER BY c.change LIMIT ?",
            (after, limit),
        )
    ]


def latest_text_change(conn: sqlite3.Connection) -> int:
    return int(
        conn.execute("SELECT coalesce(max(change), 0) FROM episode_text_changes").fetchone()[0]
    )


# How much of a neighbour's content joins an episode's context in the text index.
CONTEXT_CHARS = 1000


def date_words(us: int) -> str:
    """ "8 May 2023": how people ask about dates ("when did ... in May?")."""
    day = from_us(us)
    return f"{day.day} {day:%B} {day.year}"


def _neighbour_seqs(conn: sqlite3.Connection, seq: int) -> list[int]:
    row = conn.execute("SELECT session_id, start_us FROM episodes WHERE seq = ?", (seq,)).fetchone()
    if row is None or row[0] is None:
        return []
    found = []
    for cmp, order in (("<", "DESC"), (">", "ASC")):
        near = conn.execute(
            f"SELECT seq FROM episodes WHERE session_id = ? AND (start_us, seq) {cmp} (?, ?)"
            f" ORDER BY start_us {order}, seq {order} LIMIT 1",
            (row[0], row[1], seq),
        ).fetchone()
        if near is not None:
            found.append(int(near[0]))
    return found


def refresh_context(conn: sqlite3.Connection, seq: int) -> None:
    """Re-index an episode's context: its date words and its session neighbours' text.

    A turn of a conversation rarely repeats what it answers: "Yes, last Tuesday!" is found
    by the question before it. Indexing each episode with its neighbours' words (measured
    on LoCoMo: BM25 turn recall@10 0.678 -> 0.803) lets a question find the turn that
    answers it. The text is kept in ``episodes.context`` so a later re-index or delete can
    remove exactly what was indexed.
    """
    row = conn.execute(
        "SELECT summary, content, context, start_us FROM episodes WHERE seq = ?", (seq,)
    ).fetchone()
    if row is None:
        return
    summary, content, old, start_us = row
    parts = [date_words(start_us)]
    for near in _neighbour_seqs(conn, seq):
        text = conn.execute("SELECT content FROM episodes WHERE seq = ?", (near,)).fetchone()[0]
        parts.append(text[:CONTEXT_CHARS])
    context = " ".join(parts)
    if context == old:
        return
    conn.execute(
        "INSERT INTO episodes_fts (episodes_fts, rowid, summary, content, context)"
        " VALUES ('delete', ?, ?, ?, ?)",
        (seq, summary, content, old),
    )
    conn.execute("UPDATE episodes SET context = ? WHERE seq = ?", (context, seq))
    _log_text_change(conn, seq)
    conn.execute(
        "INSERT INTO episodes_fts (rowid, summary, content, context) VALUES (?,?,?,?)",
        (seq, summary, content, context),
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
    _log_text_change(conn, row[0])
    for near in neighbours:  # they are each other's neighbours now
        refresh_context(conn, near)
    return int(row[0])


def to_stored(row: Sequence[Any]) -> StoredEpisode:
    return StoredEpisode(
        row[0],
        NewEpisode(
            id=row[1],
            namespace=row[2],
            kind=row[3],
            session_id=row[4],
            summary=row[5],
            content=row[6],
            start_us=row[7],
            end_us=row[8],
            created_us=row[9],
            created_by=row[10],
            concept_tags=json.loads(row[11]),
            labels=json.loads(row[12]),
            motive_profile=json.loads(row[13]),
            metadata=json.loads(row[14]),
            provenance=json.loads(row[15]),
        ),
    )


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


def sessions_of(conn: sqlite3.Connection, seqs: Sequence[int]) -> dict[int, str]:
    sql = "SELECT seq, session_id FROM episodes WHERE seq IN ({marks}) AND session_id IS NOT NULL"
    return {int(r[0]): str(r[1]) for r in _where_in(conn, sql, seqs)}


def session_neighbours(conn: sqlite3.Connection, seq: int) -> tuple[str | None, str | None]:
    """The ids of the episodes just before and just after ``seq`` in its session (NEXT)."""
    row = conn.execute("SELECT session_id, start_us FROM episodes WHERE seq = ?", (seq,)).fetchone()
    if row is None or row[0] is None:
        return None, None
    session, start = row
    before = conn.execute(
        "SELECT id FROM episodes WHERE session_id = ? AND (start_us, seq) < (?, ?)"
        " ORDER BY start_us DESC, seq DESC LIMIT 1",
        (session, start, seq),
    ).fetchone()
    after = conn.execute(
        "SELECT id FROM episodes WHERE session_id = ? AND (start_us, seq) > (?, ?)"
        " ORDER BY start_us, seq LIMIT 1",
        (session, start, seq),
    ).fetchone()
    return (before[0] if before else None), (after[0] if after else None)


def where(flt: EpisodeFilter) -> tuple[list[str], list[Any]]:
    """SQL conditions on ``episodes e`` for a filter."""
    clauses: list[str] = []
    params: list[Any] = []
    if flt.namespace is not None:
        clauses.append("e.namespace = ?")
        params.append(flt.namespace)
    if flt.session_id is not None:
        clauses.append("e.session_id = ?")
        params.append(flt.session_id)
    if flt.end_us is not None:
        clauses.append("e.start_us <= ?")
        params.append(flt.end_us)
    if flt.start_us is not None:
        clauses.append("e.end_us >= ?")
        params.append(flt.start_us)
    if flt.kinds:
        clauses.append(f"e.kind IN ({','.join('?' * len(flt.kinds))})")
        params.extend(flt.kinds)
    if flt.max_seq is not None:
        clauses.append("e.seq <= ?")
        params.append(flt.max_seq)
    for c in flt.concepts:
        # IN (subquery) lets SQLite start from the concept's index rows (a selective set)
        # instead of testing every episode the other conditions leave.
        either = []
        if c.as_tag:
            kind = " AND kind = ?" if c.kind else ""
            either.append(
                "e.seq IN (SELECT episode_seq FROM episode_concepts"
                f" WHERE concept_id = ? AND score >= ?{kind})"
            )
            params.extend([c.concept_id, c.min_score] + ([c.kind] if c.kind else []))
        if c.as_label:
            either.append(
                "e.seq IN (SELECT episode_seq FROM episode_labels WHERE concept_id = ?"
                " AND label = 'positive' AND confidence >= ?)"
            )
            params.extend([c.concept_id, c.min_score])
        test = "(" + " OR ".join(either) + ")"
        clauses.append(f"NOT {test}" if c.absent else test)
    if flt.label_concept or flt.label or flt.label_min_confidence:
        conds = ["l.episode_seq = e.seq"]
        if flt.label_concept:
            conds.append("l.concept_id = ?")
            params.append(flt.label_concept)
        if flt.label:
            conds.append("l.label = ?")
            params.append(flt.label)
        if flt.label_min_confidence:
            conds.append("l.confidence >= ?")
            params.append(flt.label_min_confidence)
        clauses.append(f"EXISTS (SELECT 1 FROM episode_labels l WHERE {' AND '.join(conds)})")
    return clauses, params


def _sql_where(clauses: list[str]) -> str:
    return (" WHERE " + " AND ".join(clauses)) if clauses else ""


def ordered_page(
    conn: sqlite3.Connection,
    flt: EpisodeFilter,
    after: tuple[int, int] | None,
    limit: int,
    descending: bool,
    seed: int | None = None,
) -> list[tuple[int, int]]:
    """(key, seq) of the next ``limit`` matches by time (key start_us) or by seeded shuffle."""
    clauses, params = where(flt)
    key = "e.start_us" if seed is None else RANDOM_KEY
    key_params: list[Any] = [] if seed is None else shuffle_params(seed)
    if after is not None:
        clauses.append(f"({key}, e.seq) {'<' if descending else '>'} (?, ?)")
        params = [*params, *key_params, *after]
    direction = "DESC" if descending else "ASC"
    sql = (
        f"SELECT {key}, e.seq FROM episodes e{_sql_where(clauses)}"
        f" ORDER BY 1 {direction}, 2 {direction} LIMIT ?"
    )
    return [(int(r[0]), int(r[1])) for r in conn.execute(sql, [*key_params, *params, limit])]


def bm25(
    conn: sqlite3.Connection, flt: EpisodeFilter, match: str, limit: int
) -> list[tuple[int, float]]:
    """Up to ``limit`` (seq, bm25 score, higher better) for an FTS5 MATCH expression."""
    clauses, params = where(flt)
    clauses.insert(0, "episodes_fts MATCH ?")
    # Column weights: the summary (often the content's first sentence: counted half, not
    # twice), the content, and the context (date words and neighbours' text).
    sql = (
        "SELECT e.seq, -bm25(episodes_fts, 0.5, 1.0, 1.0) FROM episodes_fts"
        f" JOIN episodes e ON e.seq = episodes_fts.rowid{_sql_where(clauses)}"
        " ORDER BY bm25(episodes_fts, 0.5, 1.0, 1.0) LIMIT ?"
    )
    return [(int(s), float(v)) for s, v in conn.execute(sql, [match, *params, limit])]


def concept_scores(
    conn: sqlite3.Connection, flt: EpisodeFilter, concept_ids: Sequence[str], limit: int
) -> list[tuple[int, float]]:
    """Episodes carrying any of ``concept_ids``: (seq, summed tag score), best first."""
    clauses, params = where(flt)
    clauses.insert(0, f"c.concept_id IN ({','.join('?' * len(concept_ids))})")
    sql = (
        "SELECT e.seq, sum(c.score) FROM episode_concepts c JOIN episodes e"
        f" ON e.seq = c.episode_seq{_sql_where(clauses)}"
        " GROUP BY e.seq ORDER BY 2 DESC, e.seq DESC LIMIT ?"
    )
    return [(int(s), float(v)) for s, v in conn.execute(sql, [*concept_ids, *params, limit])]


def matching_seqs(conn: sqlite3.Connection, flt: EpisodeFilter) -> list[int]:
    clauses, params = where(flt)
    return [
        r[0] for r in conn.execute(f"SELECT e.seq FROM episodes e{_sql_where(clauses)}", params)
    ]


def count(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM episodes").fetchone()[0])


def max_seq(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT coalesce(max(seq), 0) FROM episodes").fetchone()[0])
