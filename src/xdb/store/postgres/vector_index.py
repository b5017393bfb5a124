"""HNSW indexes (cosine) over episode vectors, one per embedding model.

Every model's vectors share the untyped ``vector`` column, while an HNSW index needs a
single dimension: so each model gets a partial expression index, on
``vector::vector(D)`` ``WHERE model = '<model>'``, made in the transaction that stores
the model's first vector (under ``lock_episodes``, so two writers cannot both make it) and
registered in ``episode_vector_indexes``. A query uses the index when it orders by the
same expression and names the model as a literal (a parameter would not prove the
partial index's predicate under a generic plan).

HNSW takes at most 2,000 dimensions of ``vector`` and 4,000 of ``halfvec``: models up to
4,000 dimensions (OpenAI's large embeddings have 3,072) are indexed as ``halfvec``, whose
half precision only chooses candidates (similarities are computed on the stored vectors);
larger ones get no index and are searched exactly.

The index name carries a digest of the model and the dimension, because a model id may
hold any characters and indexes are named in one namespace with the tables.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

import psycopg
from psycopg import sql
from psycopg.rows import TupleRow

from xdb.store import placement

Conn = psycopg.Connection[TupleRow]

MAX_VECTOR_DIMENSIONS = 2000  # pgvector's HNSW limits
MAX_HALFVEC_DIMENSIONS = 4000

REGISTRY = """
CREATE TABLE episode_vector_indexes (
    model TEXT PRIMARY KEY,
    dimension INTEGER NOT NULL,
    kind TEXT,
    name TEXT
)
"""
PLACES = placement.declared(
    REGISTRY,
    placement.local(
        "episode_vector_indexes",
        "which HNSW indexes exist: read and written by the coordinator, whose CREATE INDEX"
        " Citus passes on to every shard",
    ),
)


class ModelIndex(NamedTuple):
    """A model's vectors: their dimension and the type their HNSW index casts them to
    (``vector`` or ``halfvec``; None when there is no index)."""

    dimension: int
    kind: str | None


def kind_for(dimension: int) -> str | None:
    if dimension <= MAX_VECTOR_DIMENSIONS:
        return "vector"
    if dimension <= MAX_HALFVEC_DIMENSIONS:
        return "halfvec"
    return None


def indexed(kind: str, dimension: int) -> sql.Composed:
    """The indexed expression over ``episode_vectors v``; queries must repeat it exactly."""
    return sql.SQL("(v.vector::{}({}))").format(sql.SQL(kind), sql.Literal(dimension))


def index_name(model: str, dimension: int) -> str:
    digest = hashlib.sha256(model.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"episode_vectors_hnsw_{digest}_{dimension}"


def lookup(conn: Conn, model: str) -> ModelIndex | None:
    row = conn.execute(
        "SELECT dimension, kind FROM episode_vector_indexes WHERE model = %s", (model,)
    ).fetchone()
    return None if row is None else ModelIndex(int(row[0]), row[1])


def ensure(conn: Conn, model: str, dimension: int) -> ModelIndex:
    """The model's index, made now if it has none. Call under ``lock_episodes``."""
    found = lookup(conn, model)
    if found is not None:
        return found
    kind = kind_for(dimension)
    name = index_name(model, dimension) if kind else None
    if kind and name:
        # The alias ``v`` of the query expression is no part of the index's.
        expression = sql.SQL("(vector::{}({}))").format(sql.SQL(kind), sql.Literal(dimension))
        conn.execute(
            sql.SQL(
                "CREATE INDEX IF NOT EXISTS {} ON episode_vectors USING hnsw ({} {})"
                " WHERE model = {}"
            ).format(
                sql.Identifier(name),
                expression,
                sql.SQL(f"{kind}_cosine_ops"),
                sql.Literal(model),
            )
        )
    conn.execute(
        "INSERT INTO episode_vector_indexes (model, dimension, kind, name) VALUES (%s, %s, %s, %s)",
        (model, dimension, kind, name),
    )
    return ModelIndex(dimension, kind)


def drop_except(conn: Conn, model: str) -> None:
    """Drop the indexes of every model but ``model`` (their vectors are being deleted)."""
    gone = conn.execute(
        "DELETE FROM episode_vector_indexes WHERE model <> %s RETURNING name", (model,)
    ).fetchall()
    for (name,) in gone:
        if name is not None:
            conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(name)))


def migrate(conn: Conn) -> None:
    """The registry, and an index for each model already holding vectors."""
    conn.execute(REGISTRY)
    found = conn.execute(
        "SELECT DISTINCT ON (model) model, vector_dims(vector) FROM episode_vectors"
        " ORDER BY model, vseq"
    ).fetchall()
    for model, dimension in found:
        ensure(conn, model, int(dimension))
