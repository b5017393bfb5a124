"""Episodes in SQLite: rows, concept and label rows, and the FTS5 index.

Functions take a connection so the store can run them inside its writer's transaction (writes)
or on a reader (reads). The full-text index is written in the same transaction as the row:
episodes arrive one at a time or in batches, not token by token, so the per-commit flush is
affordable, and a delete must remove exactly what was indexed. Filters and pages are
``xdb.store.sqlbuild``, shared with the PostgreSQL store.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Sequence
from typing import Any

from xdb.store import access, exemplars, row_models, sqlbuild
from xdb.store.context import CONTEXT_CHARS, SESSION_GAP_US, Placed, plan_inserts
from xdb.store.row_models import episode_values
from xdb.store.sqlbuild import SQLITE
from xdb.store.sqlite import episode_texts
from xdb.store.sqlite.numbering import next_number
from xdb.store.types import EpisodeFilter, NewEpisode

COLUMNS = (
    "seq, id, namespace, kind, session_id, summary, content, start_us, end_us, created_us,"
    " created_by, concept_tags, labels, motive_profile, metadata, provenance"
)


def insert(conn: sqlite3.Connection, ep: NewEpisode) -> int:
    return insert_many(conn, [ep])[0]


def insert_many(conn: sqlite3.Connection, eps: Sequence[NewEpisode]) -> list[int]:
    """Insert episodes as as many one-at-a-time inserts in order would (rows, concept and
    label rows, exemplars, FTS5 entries, contexts and the text change log), each set in a
    statement or an ``executemany`` whatever their number; their seqs. The contexts are
    worked out once for the batch (``plan_inserts``) from the stored episodes beside the
    new ones, so each FTS5 entry goes in once with its final context: one at a time cost
    ~15 statements an episode (the neighbours' contexts refreshed after each)."""
    if not eps:
        return []
    values = [episode_values(ep) for ep in eps]  # what fails in Python fails before any write
    (first,) = conn.execute(_NEXT_SEQ).fetchone()
    seqs = list(range(int(first), int(first) + len(eps)))
    new = [
        Placed(seq, ep.namespace, ep.session_id, ep.start_us, ep.content[:CONTEXT_CHARS])
        for seq, ep in zip(seqs, eps, strict=True)
    ]
    plan = plan_inserts(_nearby(conn, new), new)
    contexts = [plan.contexts[seq] for seq in seqs]
    conn.executemany(_INSERT_MANY, [(s, *_stored(v)) for s, v in zip(seqs, values, strict=True)])
    conn.executemany(
        _FTS_INSERT,
        [(s, ep.summary, ep.content, c) for s, ep, c in zip(seqs, eps, contexts, strict=True)],
    )
    # Stored neighbours whose context changed: FTS5 takes out exactly the old text first
    # (the context the plan made from their neighbours before the batch: none is stored).
    # Their texts are read in one statement and given to FTS5 as values: FTS5 fed by an
    # INSERT ... SELECT from its content table cost ~32 us a row against ~6 us given the
    # values (at 100k episodes, ~2,300 neighbours a batch of 5,000).
    if plan.before:
        old = {
            int(r[0]): (r[1], r[2])
            for r in sqlbuild.rows_in(conn, SQLITE, _STORED_TEXT, list(plan.before))
        }
        conn.executemany(_FTS_DELETE, [(seq, *old[seq], was) for seq, was in plan.before.items()])
        conn.executemany(_FTS_INSERT, [(seq, *old[seq], plan.contexts[seq]) for seq in plan.before])
    concept_rows = [
        (cid, seq, score, kind, ep.id, ep.start_us, ep.end_us, ep.namespace)
        for seq, ep in zip(seqs, eps, strict=True)
        for cid, (score, kind) in _concepts(ep).items()
    ]
    conn.executemany(
        "INSERT INTO episode_concepts"
        " (concept_id, episode_seq, score, kind, episode_id, start_us, end_us, namespace)"
        " VALUES (?,?,?,?,?,?,?,?)",
        concept_rows,
    )
    # Each concept's episode count, once per concept of the batch (schema version 19).
    conn.executemany(_COUNT_CONCEPTS, Counter(row[0] for row in concept_rows).items())
    conn.executemany(
        "INSERT OR REPLACE INTO episode_labels (concept_id, episode_seq, label, confidence)"
        " VALUES (?,?,?,?)",
        [
            (lb["concept_id"], seq, lb["label"], lb["confidence"])
            for seq, ep in zip(seqs, eps, strict=True)
            for lb in ep.labels
        ],
    )
    made = [
        e
        for ep in eps
        if ep.labels
        for e in exemplars.of_episode_labels(ep.id, ep.labels, ep.created_us, ep.created_by)
    ]
    exemplars.insert(conn, SQLITE, exemplars.not_stored(conn, SQLITE, made))
    conn.executemany(
        "INSERT INTO episode_text_changes (seq) VALUES (?)", [(seq,) for _, seq in plan.log]
    )
    policies: dict[str, list[tuple[str]]] = {}
    for ep in eps:
        if ep.access_policy_id is not None:
            policies.setdefault(ep.access_policy_id, []).append((ep.id,))
    for policy_id, keys in policies.items():
        access.assign(conn, SQLITE, "episode", keys, policy_id)
    return seqs


def _concepts(ep: NewEpisode) -> dict[str, tuple[float, str]]:
    """An episode's concept rows: a concept tagged twice keeps its first kind and its
    highest score (what an upsert per tag kept; folded here, each row is inserted once)."""
    concepts: dict[str, tuple[float, str]] = {}
    for t in ep.concept_tags:
        cid = t["concept_id"]
        seen = concepts.get(cid)
        concepts[cid] = (
            (t["score"], t["kind"]) if seen is None else (max(seen[0], t["score"]), seen[1])
        )
    return concepts


def _stored(values: tuple[Any, ...]) -> tuple[Any, ...]:
    """``episode_values`` as the row stores them (``_INSERTED``): a summary that is the
    content itself is stored as '' and flagged (schema version 20); ``summary`` reads it back."""
    summary, content = values[4], values[5]
    same = summary == content and content != ""
    return (*values[:4], "" if same else summary, int(same), *values[5:])


_NEXT_SEQ = f"SELECT {next_number('episodes', 'seq')}"
_COUNT_CONCEPTS = (
    "INSERT INTO concept_counts (concept_id, episodes) VALUES (?, ?)"
    " ON CONFLICT (concept_id) DO UPDATE SET episodes = episodes + excluded.episodes"
)
# The columns an insert writes: ``COLUMNS`` with the stored summary and its flag for the
# computed ``summary`` (schema version 20).
_INSERTED = COLUMNS.removeprefix("seq, ").replace("summary,", "own_summary, summary_is_content,")
_INSERT_MANY = f"INSERT INTO episodes (seq, {_INSERTED}) VALUES ({SQLITE.marks(17)})"
_STORED_TEXT = "SELECT seq, summary, content FROM episodes WHERE seq IN ({marks})"
_FTS_DELETE = (
    "INSERT INTO episodes_fts (episodes_fts, rowid, summary, content, context)"
    " VALUES ('delete', ?, ?, ?, ?)"
)
_FTS_INSERT = "INSERT INTO episodes_fts (rowid, summary, content, context) VALUES (?,?,?,?)"
# The stored episodes two either side of each new one (k: its session, or its namespace
# for a sessionless one; st, sq: its start and seq), as ``plan_inserts`` needs them. A
# sessionless neighbour's neighbour starts within two gaps: the bound keeps the scan of a
# namespace whose sessionless episodes are few among many to the time that matters.
_SIDE = (
    "SELECT seq FROM episodes WHERE {match} AND (start_us, seq) {cmp} (u.st, u.sq)"
    " ORDER BY start_us {order}, seq {order} LIMIT 2"
)
# The neighbours' seqs first, then their rows: a DISTINCT over the rows themselves sorted
# their texts (up to 3 kB each, a neighbour found twice read twice), 67 us a new episode
# at 200k episodes here against 30 us for seqs first.
_NEARBY = (
    "WITH u(k, st, sq) AS (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'),"
    " json_extract(value, '$[2]') FROM json_each(?)),"
    " near(seq) AS (SELECT b.seq FROM u JOIN episodes b ON b.seq IN ({before})"
    " UNION SELECT a.seq FROM u JOIN episodes a ON a.seq IN ({after}))"
    " SELECT e.seq, e.namespace, e.session_id, e.start_us, substr(e.content, 1, ?)"
    " FROM episodes e WHERE e.seq IN near"
)
_SESSIONLESS = (
    "session_id IS NULL AND namespace = u.k"
    f" AND start_us BETWEEN u.st - {2 * SESSION_GAP_US} AND u.st + {2 * SESSION_GAP_US}"
)
_NEARBY_SQL = {
    sessionless: _NEARBY.format(
        before=_SIDE.format(match=match, cmp="<", order="DESC"),
        after=_SIDE.format(match=match, cmp=">", order="ASC"),
    )
    for sessionless, match in ((False, "session_id = u.k"), (True, _SESSIONLESS))
}


def _nearby(conn: sqlite3.Connection, new: Sequence[Placed]) -> list[Placed]:
    """The stored episodes two either side of each new one in its place (its session, or,
    without one, its namespace's sessionless episodes), in one statement per kind of place."""
    found: list[Placed] = []
    for sessionless, sql in _NEARBY_SQL.items():
        placed = [
            [ep.namespace if sessionless else ep.session_id, ep.start_us, ep.seq]
            for ep in new
            if (ep.session_id is None) == sessionless
        ]
        if placed:
            found.extend(
                Placed(int(r[0]), r[1], r[2], int(r[3]), r[4])
                for r in conn.execute(sql, (json.dumps(placed), CONTEXT_CHARS))
            )
    return found


def _log_text_change(conn: sqlite3.Connection, seq: int) -> None:
    conn.execute("INSERT INTO episode_text_changes (seq) VALUES (?)", (seq,))


def _neighbour_seqs(conn: sqlite3.Connection, seq: int) -> list[int]:
    return [int(s) for s in row_models.neighbours(conn, SQLITE, seq, "seq") if s is not None]


def delete(conn: sqlite3.Connection, episode_id: str) -> int | None:
    """Delete an episode with its rows and index entry; its seq, or None if there was none.
    FTS5 is told each text as it was indexed: the episode's, and its neighbours' before
    they become each other's neighbours (``episode_texts``)."""
    row = conn.execute("SELECT seq FROM episodes WHERE id = ?", (episode_id,)).fetchone()
    if row is None:
        return None
    seq = int(row[0])
    neighbours = _neighbour_seqs(conn, seq)
    before = episode_texts.texts(conn, [seq, *neighbours])
    conn.execute(_FTS_DELETE, (seq, *before[seq]))
    # Concepts, labels and vectors go with it (ON DELETE CASCADE).
    conn.execute("DELETE FROM episodes WHERE seq = ?", (seq,))
    conn.execute("DELETE FROM graph_edges WHERE src = ? OR dst = ?", (episode_id, episode_id))
    exemplars.forget_episode(conn, SQLITE, episode_id)
    # A record deleted (not merged) is gone; a merge marks its row before this runs.
    conn.execute("DELETE FROM memory_records WHERE id = ? AND merged_into IS NULL", (episode_id,))
    _log_text_change(conn, seq)
    after = episode_texts.texts(conn, neighbours)
    for near in neighbours:
        if after[near] != before[near]:
            conn.execute(_FTS_DELETE, (near, *before[near]))
            conn.execute(_FTS_INSERT, (near, *after[near]))
            _log_text_change(conn, near)
    return seq


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
