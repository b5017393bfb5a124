"""Episode vectors in a pgvector ``vector`` column; the in-memory index is built from them.

The store's callers speak float32 little-endian bytes (what the SQLite store keeps as a
BLOB). They travel as a binary ``real[]`` cast to ``vector`` (their own bits, big-endian)
and come back through ``vector_send`` (a 4-byte header, then big-endian float4), both
exact, so the bytes read back are the bytes written. pgvector refuses what a BLOB would
take (an empty vector, NaN or infinity) when it is to be stored; that surfaces as
InvalidRequest. Each vector records its model; ``vseq``
orders vectors by arrival and is drawn under ``lock_episodes``, so it is also commit order.

Storing a model's first vector makes its HNSW index (``vector_index``); searching is in
``vector_search``.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

import numpy as np
from psycopg.adapt import Dumper
from psycopg.pq import Format

from xdb.errors import InvalidRequest
from xdb.store.postgres import vector_index
from xdb.store.postgres.connection import Conn


class _Real4Array(bytes):
    """A ``real[]`` in PostgreSQL's binary form (``array_send``'s), sent as it is."""


class _Real4ArrayDumper(Dumper):
    format = Format.BINARY
    oid = 1021  # real[]: built in, the same oid in every database

    def dump(self, obj: Any) -> bytes:
        return bytes(obj)


def _real4_array(blobs: Sequence[bytes]) -> _Real4Array:
    """The vectors' values one after another as one ``real[]``: its header (one dimension,
    no NULLs, of float4), then each value as its length (4) and its big-endian bytes. The
    bytes are the vectors' own, so what is stored is exactly what was given (NaN too, for
    PostgreSQL to refuse)."""
    values = np.frombuffer(b"".join(blobs), dtype="<f4")
    if not values.size:  # no dimension at all: the empty array
        return _Real4Array(struct.pack(">iiI", 0, 0, 700))
    body = np.empty((values.size, 2), dtype=">i4")
    body[:, 0] = 4
    body[:, 1] = values.astype(">f4").view(">i4")
    return _Real4Array(struct.pack(">iiIii", 1, 0, 700, values.size, 1) + body.tobytes())


def _blob(sent: bytes) -> bytes:
    return np.frombuffer(sent, dtype=">f4", offset=4).astype("<f4").tobytes()


def missing_vectors(
    conn: Conn, model: str, limit: int, after_seq: int = 0
) -> list[tuple[int, str, str]]:
    """Episodes with no vector from ``model`` yet, oldest first: (seq, summary, content)."""
    return [
        (int(r[0]), r[1], r[2])
        for r in conn.execute(
            "SELECT e.seq, e.summary, substr(e.content, 1, 8000) FROM episodes e"
            " WHERE NOT EXISTS (SELECT 1 FROM episode_vectors v WHERE v.namespace = e.namespace"
            " AND v.episode_seq = e.seq AND v.model = %s) AND e.seq > %s ORDER BY e.seq LIMIT %s",
            (model, after_seq, limit),
        )
    ]


def vector_counts(conn: Conn, model: str) -> tuple[int, int]:
    """(episodes, those with a vector from ``model``): a vector exists only for a stored
    episode, one per episode and model, so counting ``model``'s vectors counts them."""
    row = conn.execute(
        "SELECT (SELECT count(*) FROM episodes),"
        " (SELECT count(*) FROM episode_vectors WHERE model = %s)",
        (model,),
    ).fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


def store_vectors(conn: Conn, model: str, rows: Sequence[tuple[int, bytes]]) -> list[int]:
    """Insert vectors of episodes that still exist; their vseqs, in order (0 if gone or
    already there). Call under ``lock_episodes``."""
    index: vector_index.ModelIndex | None = None
    first: dict[int, bytes] = {}  # per episode, the first of its vectors here
    for seq, blob in rows:
        if len(blob) % 4:
            raise InvalidRequest(f"a vector of {len(blob)} bytes is not float32 values")
        dimension = len(blob) // 4
        if index is None and dimension:  # an empty vector fails below, as PostgreSQL says
            index = vector_index.ensure(conn, model, dimension)
        if index is not None and dimension != index.dimension:
            # One dimension per model: its index casts to it, and searches compare with it.
            raise InvalidRequest(
                f"model {model!r} makes vectors of {index.dimension} dimensions, not {dimension}"
            )
        first.setdefault(seq, blob)
    if not first:
        return []
    # Where each vector's values start and end (1-based, inclusive) in the one array.
    ends = np.cumsum([len(blob) // 4 for blob in first.values()]).tolist()
    starts = [1, *(end + 1 for end in ends[:-1])]
    with conn.cursor() as cur:
        cur.adapters.register_dumper(_Real4Array, _Real4ArrayDumper)
        cur.execute(
            # One statement for the batch, numbered in the batch's order; the vectors as one
            # binary real[] (writing pgvector's text form, each float's repr, cost 0.2-0.8 ms
            # of Python a 384-d vector here; the array ~10 us). NOT EXISTS, not only ON
            # CONFLICT: a conflicting row would still draw a vseq, and the numbers
            # would drift from the SQLite store's for the same calls. A vector is cast only
            # for the rows that are inserted: one PostgreSQL cannot hold is no error where
            # nothing would be stored.
            "INSERT INTO episode_vectors (namespace, episode_seq, model, vector)"
            " SELECT e.namespace, e.seq, %s, (%b::real[])[u.a:u.z]::vector"
            " FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[]) WITH ORDINALITY"
            " AS u(s, a, z, o) JOIN episodes e ON e.seq = u.s WHERE NOT EXISTS"
            " (SELECT 1 FROM episode_vectors x WHERE x.namespace = e.namespace"
            " AND x.episode_seq = e.seq AND x.model = %s)"
            " ORDER BY u.o ON CONFLICT (namespace, episode_seq, model) DO NOTHING"
            " RETURNING episode_seq, vseq",
            (model, _real4_array(list(first.values())), list(first), starts, ends, model),
        )
        made = {int(r[0]): int(r[1]) for r in cur.fetchall()}
    # A repeated episode gets its vseq once, at its first place.
    out = []
    for seq, _ in rows:
        out.append(made.pop(seq, 0))
    return out


def load_vectors(
    conn: Conn, model: str, after_vseq: int = 0
) -> list[tuple[int, int, bytes, str, int, int, str, str | None]]:
    """(vseq, seq, vector, namespace, start_us, end_us, kind, session_id) of ``model``'s
    vectors."""
    return [
        (int(r[0]), int(r[1]), _blob(r[2]), r[3], r[4], r[5], r[6], r[7])
        for r in conn.execute(
            "SELECT v.vseq, v.episode_seq, vector_send(v.vector), e.namespace, e.start_us,"
            " e.end_us, e.kind, e.session_id FROM episode_vectors v"
            " JOIN episodes e ON e.namespace = v.namespace AND e.seq = v.episode_seq"
            " WHERE v.model = %s AND v.vseq > %s ORDER BY v.vseq",
            (model, after_vseq),
        )
    ]


def vectors_of(conn: Conn, episodes: Sequence[tuple[int, str]]) -> list[tuple[int, str, bytes]]:
    """(seq, model, vector) of every vector of these episodes ((seq, namespace) each, the
    key's order): an export's, one query per batch."""
    return [
        (int(r[0]), str(r[1]), _blob(r[2]))
        for r in conn.execute(
            "SELECT v.episode_seq, v.model, vector_send(v.vector)"
            " FROM unnest(%s::text[], %s::bigint[]) AS u(n, s) JOIN episode_vectors v"
            " ON v.namespace = u.n AND v.episode_seq = u.s",
            ([ns for _, ns in episodes], [seq for seq, _ in episodes]),
        )
    ]


def drop_other_vectors(conn: Conn, model: str) -> int:
    """Delete vectors made by any model but ``model`` (after a model change), and their
    indexes. Call under ``lock_episodes``."""
    vector_index.drop_except(conn, model)
    return conn.execute("DELETE FROM episode_vectors WHERE model <> %s", (model,)).rowcount
