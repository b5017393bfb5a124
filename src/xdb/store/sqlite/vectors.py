"""Episode vectors in SQLite: the source of truth the in-memory vector index is built from.

Each vector records the model that made it; ``vseq`` orders vectors by arrival and is
never reused (``numbering.next_number``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence

from xdb.store.sqlbuild import SQLITE, rows_in
from xdb.store.sqlite.numbering import next_number

_NEXT_VSEQ = f"SELECT {next_number('episode_vectors', 'vseq')}"
# Of the given episodes, those stored without a vector from the model.
_OPEN = (
    "SELECT seq FROM episodes e WHERE seq IN ({marks}) AND NOT EXISTS"
    " (SELECT 1 FROM episode_vectors v WHERE v.episode_seq = e.seq AND v.model = ?)"
)
_INSERT = "INSERT INTO episode_vectors (vseq, episode_seq, model, vector) VALUES (?,?,?,?)"


def missing_vectors(
    conn: sqlite3.Connection, model: str, limit: int, after_seq: int = 0
) -> list[tuple[int, str, str]]:
    """Episodes with no vector from ``model`` yet, oldest first: (seq, summary, content)."""
    return [
        (int(r[0]), r[1], r[2])
        for r in conn.execute(
            "SELECT e.seq, e.summary, substr(e.content, 1, 8000) FROM episodes e"
            " WHERE NOT EXISTS (SELECT 1 FROM episode_vectors v"
            " WHERE v.episode_seq = e.seq AND v.model = ?) AND e.seq > ? ORDER BY e.seq LIMIT ?",
            (model, after_seq, limit),
        )
    ]


def vector_counts(conn: sqlite3.Connection, model: str) -> tuple[int, int]:
    """(episodes, those with a vector from ``model``). A vector exists only for a stored
    episode (added only if it is there, deleted with it), one per episode and model, so
    counting ``model``'s vectors on their (model, vseq) index counts the episodes."""
    episodes, vectors = conn.execute(
        "SELECT (SELECT count(*) FROM episodes),"
        " (SELECT count(*) FROM episode_vectors WHERE model = ?)",
        (model,),
    ).fetchone()
    return int(episodes), int(vectors)


def store_vectors(
    conn: sqlite3.Connection, model: str, rows: Sequence[tuple[int, bytes]]
) -> list[int]:
    """Insert vectors of episodes that still exist; their vseqs, in order (0 if gone, or
    if the episode has a vector from ``model``: the first of an episode's vectors here is
    stored). What an insert per row numbering each vseq from the one before did, in one
    read of which episodes are open, one of the next vseq, and one ``executemany``."""
    if not rows:
        return []
    wanted = sorted({seq for seq, _ in rows})
    open_seqs = {int(r[0]) for r in rows_in(conn, SQLITE, _OPEN, wanted, (model,))}
    kept = []
    for seq, _ in rows:
        kept.append(seq in open_seqs)
        open_seqs.discard(seq)
    vseqs = iter(insert_fresh(conn, model, [r for r, k in zip(rows, kept, strict=True) if k]))
    return [next(vseqs) if k else 0 for k in kept]


def insert_fresh(
    conn: sqlite3.Connection, model: str, rows: Sequence[tuple[int, bytes]]
) -> list[int]:
    """``store_vectors`` for episodes this transaction has just inserted, each once (an
    import's): they exist and have no vector yet, so there is nothing to read first."""
    if not rows:
        return []
    (first,) = conn.execute(_NEXT_VSEQ).fetchone()
    vseqs = range(int(first), int(first) + len(rows))
    conn.executemany(
        _INSERT, [(vseq, seq, model, blob) for vseq, (seq, blob) in zip(vseqs, rows, strict=True)]
    )
    return list(vseqs)


def load_vectors(
    conn: sqlite3.Connection, model: str, after_vseq: int = 0
) -> Iterator[tuple[int, int, bytes, str, int, int, str, str | None]]:
    """(vseq, seq, vector, namespace, start_us, end_us, kind, session_id) of ``model``'s
    vectors."""
    yield from conn.execute(
        "SELECT v.vseq, v.episode_seq, v.vector, e.namespace, e.start_us, e.end_us, e.kind,"
        " e.session_id FROM episode_vectors v JOIN episodes e ON e.seq = v.episode_seq"
        " WHERE v.model = ? AND v.vseq > ? ORDER BY v.vseq",
        (model, after_vseq),
    )


def drop_other_vectors(conn: sqlite3.Connection, model: str) -> int:
    """Delete vectors made by any model but ``model`` (after a model change)."""
    return conn.execute("DELETE FROM episode_vectors WHERE model != ?", (model,)).rowcount


# What an export and an import of vectors read (``transfer``).


def model_dimension(conn: sqlite3.Connection, model: str) -> int | None:
    """The dimension of ``model``'s stored vectors (None: it has none); an import refuses
    vectors of another. One row on the (model, vseq) index."""
    row = conn.execute(
        "SELECT length(vector) FROM episode_vectors WHERE model = ? LIMIT 1", (model,)
    ).fetchone()
    return None if row is None else int(row[0]) // 4


def vectors_of(
    conn: sqlite3.Connection, episodes: Sequence[tuple[int, str]]
) -> Iterator[tuple[int, str, bytes]]:
    """(seq, model, vector) of every vector of these episodes ((seq, namespace) each), on
    (episode_seq, model)."""
    for seq, model, blob in rows_in(
        conn,
        SQLITE,
        "SELECT episode_seq, model, vector FROM episode_vectors WHERE episode_seq IN ({marks})",
        [seq for seq, _ in episodes],
    ):
        yield int(seq), str(model), bytes(blob)
