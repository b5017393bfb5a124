"""Episodes ranked by cosine similarity to a query vector, in PostgreSQL with pgvector.

The query orders by the model's indexed expression (``vector_index``), so PostgreSQL may
walk the HNSW graph; an HNSW scan alone yields its ``ef_search`` nearest and then drops
those the filters refuse, which can leave fewer than k. Iterative scans (pgvector 0.8,
``relaxed_order``) keep walking until k rows pass or ``hnsw.max_scan_tuples`` (20,000 by
default) were visited; their order is only nearly sorted, so the rows are re-sorted here
by the exact similarity of the stored vector (never the half-precision copy an index may
hold). When a scan still comes back short (a filter too selective for the walk, or an
older pgvector without iterative scans), the same query ordered by the unindexed
distance answers exactly from the matching rows.

The planner may also skip the index (a selective filter makes scanning the matches
cheaper); that plan is exact by construction.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from psycopg import sql

from xdb.errors import InvalidRequest
from xdb.store import sqlbuild
from xdb.store.postgres.connection import Conn
from xdb.store.postgres.vector_index import ModelIndex, indexed, lookup
from xdb.store.sqlbuild import POSTGRES, episode_where
from xdb.store.types import EpisodeFilter, RankedMatches

MAX_EF_SEARCH = 1000  # pgvector's ceiling
MIN_EF_SEARCH = 40  # pgvector's default
# Up to this many allowed episodes, score them exactly: an HNSW walk under a filter that
# leaves fewer rows than asked for scans up to hnsw.max_scan_tuples and then falls back to
# the exact query anyway (two queries, 28 ms p50 at 100k in bench.stores).
EXACT_ROWS = 5000


def query_values(query: bytes | npt.NDArray[Any]) -> list[float]:
    """The query as floats: float32 little-endian bytes (as vectors are stored) or an array."""
    if isinstance(query, bytes | bytearray | memoryview):
        if len(query) % 4:
            raise InvalidRequest(f"a query vector of {len(query)} bytes is not float32 values")
        array = np.frombuffer(query, dtype="<f4")
    else:
        array = np.asarray(query, dtype=np.float32).reshape(-1)
    values: list[float] = array.astype(np.float64).tolist()
    return values


def supports_iterative_scan(conn: Conn) -> bool:
    row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    if row is None:
        return False
    parts = [int(p) if p.isdigit() else 0 for p in str(row[0]).split(".")[:2]]
    return tuple(parts) >= (0, 8)


def model_index(conn: Conn, model: str) -> ModelIndex | None:
    return lookup(conn, model)


def max_vseq(conn: Conn, model: str) -> int:
    row = conn.execute(
        "SELECT coalesce(max(vseq), 0) FROM episode_vectors WHERE model = %s", (model,)
    ).fetchone()
    return int(row[0]) if row else 0


def embedded(conn: Conn, model: str, seqs: Sequence[int], max_vseq: int) -> set[int]:
    found = conn.execute(
        "SELECT episode_seq FROM episode_vectors WHERE model = %s"
        " AND episode_seq = ANY(%s::bigint[]) AND vseq <= %s",
        (model, list(seqs), max_vseq),
    )
    return {int(r[0]) for r in found}


def _select(
    flt: EpisodeFilter,
    model: str,
    index: ModelIndex,
    values: list[float],
    limit: int,
    max_vseq: int | None,
    allowed: Sequence[int] | None,
    use_index: bool,
) -> tuple[sql.Composed, list[Any]]:
    # An allowlist obeys the whole filter already: testing it again only costs planning
    # (the concept subquery made planning 1.3 ms of a 2 ms query at 20k).
    clauses, params = episode_where(flt, POSTGRES) if allowed is None else ([], [])
    # A literal, not a parameter: only then can the planner match the partial index.
    head: list[sql.Composable] = [sql.SQL("v.model = {}").format(sql.Literal(model))]
    extra: list[Any] = []
    if max_vseq is not None:
        head.append(sql.SQL("v.vseq <= %s"))
        extra.append(max_vseq)
    if allowed is not None:
        head.append(sql.SQL("e.seq = ANY(%s::bigint[])"))
        extra.append(list(allowed))
    conditions = sql.SQL(" AND ").join([*head, *(sql.SQL(c) for c in clauses)])
    order: sql.Composable
    if use_index and index.kind is not None:
        order = sql.SQL("{} <=> %s::{}({})").format(
            indexed(index.kind, index.dimension), sql.SQL(index.kind), sql.Literal(index.dimension)
        )
    else:
        # Not the indexed expression: PostgreSQL computes every matching row's distance.
        order = sql.SQL("v.vector <=> %s::vector")
    query = sql.SQL(
        "SELECT v.episode_seq, 1 - (v.vector <=> %s::vector) FROM episode_vectors v"
        " JOIN episodes e ON e.namespace = v.namespace AND e.seq = v.episode_seq"
        " WHERE {} ORDER BY {} LIMIT %s"
    ).format(conditions, order)
    text = vector_text(values)
    return query, [text, *extra, *params, text, limit]


def vector_text(values: list[float]) -> str:
    """The vector as pgvector's text form: psycopg dumps a list of floats element by element
    (0.75 ms for 384 of them), a string in one piece."""
    return "[" + ",".join(map(repr, values)) + "]"


def one_query(allowed: Sequence[int] | None) -> bool:
    """Whether a ranking is one exact query (no scan settings, no second scan)."""
    return allowed is not None and len(allowed) <= EXACT_ROWS


def ranking(
    conn: Conn,
    flt: EpisodeFilter,
    query: bytes | npt.NDArray[Any],
    model: str,
    limit: int,
    max_vseq: int | None,
    allowed: Sequence[int] | None,
    index: ModelIndex | None,
    iterative: bool,
) -> list[tuple[int, float]]:
    """Up to ``limit`` (seq, cosine similarity) of ``model``'s vectors whose episodes pass
    ``flt`` (and are ``allowed``, and have a vseq up to ``max_vseq``), best first, ties by
    newer seq. Call inside a transaction unless ``one_query(allowed)``: the scan settings
    are local to it, and both scans of a short answer must see the same rows."""
    values = _comparable(query, model, index)
    if index is None or values is None or limit <= 0:
        return []
    if allowed is not None and len(allowed) > EXACT_ROWS:
        allowed = None  # the SQL applies the same filter; a long list only costs
    exact_first = allowed is not None or index.kind is None
    if not exact_first:
        # SET LOCAL statements, not set_config(): Citus forwards these to the workers (with
        # citus.propagate_set_commands = 'local'), and they end with the transaction.
        ef_search = min(MAX_EF_SEARCH, max(MIN_EF_SEARCH, limit))
        conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(ef_search)))
        if iterative:
            conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
    statement, params = _select(
        flt, model, index, values, limit, max_vseq, allowed, not exact_first
    )
    found = conn.execute(statement, params).fetchall()
    if len(found) < limit and not exact_first:
        statement, params = _select(flt, model, index, values, limit, max_vseq, allowed, False)
        found = conn.execute(statement, params).fetchall()
    return _best_first(found)


def _best_first(found: list[tuple[Any, Any]]) -> list[tuple[int, float]]:
    # A stored zero vector has no cosine (NaN): it relates to nothing, like orthogonal ones.
    scored = [(int(s), 0.0 if math.isnan(v) else float(v)) for s, v in found]
    return sorted(scored, key=lambda item: (-item[1], -item[0]))


def _comparable(
    query: bytes | npt.NDArray[Any], model: str, index: ModelIndex | None
) -> list[float] | None:
    """The query's values, or None when nothing can be compared with it (the model never
    stored a vector, or the query has no direction: every cosine would be NaN)."""
    if index is None:
        return None
    values = query_values(query)
    if len(values) != index.dimension:
        raise InvalidRequest(
            f"the query has {len(values)} dimensions; model {model!r} has {index.dimension}"
        )
    if not any(values) or not all(math.isfinite(v) for v in values):
        return None
    return values


def matches_ranked(
    conn: Conn,
    flt: EpisodeFilter,
    concept_ids: Sequence[str],
    join: str,
    query: bytes | npt.NDArray[Any],
    model: str,
    index: ModelIndex | None,
    limit: int,
    max_vseq: int | None,
) -> RankedMatches:
    """A filter's matches, their exact vector ranking, the vector snapshot and the text
    change log's head in one statement: asked apart they were four round trips, the
    matches' ids sent back as an allowlist and joined to ``episodes`` again."""
    matches, params = sqlbuild.matches_sql(flt, concept_ids, join, POSTGRES, ", e.namespace")
    values = _comparable(query, model, index)
    model_sql = sql.Literal(model)
    ranked: sql.Composable = sql.SQL("")
    if values is not None and limit > 0:
        text = vector_text(values)
        bound = sql.SQL("")
        if max_vseq is not None:
            bound = sql.SQL(" AND v.vseq <= %s")
        # The one-time condition keeps a long match list from being scored exactly: the
        # caller ranks those through the HNSW index instead.
        ranked = sql.SQL(
            " UNION ALL SELECT 1, r.seq, NULL, r.sim FROM (SELECT v.episode_seq AS seq,"
            " 1 - (v.vector <=> %s::vector) AS sim FROM m JOIN episode_vectors v"
            " ON v.namespace = m.namespace AND v.episode_seq = m.seq"
            " WHERE v.model = {}{} AND (SELECT count(*) FROM m) <= {}"
            " ORDER BY v.vector <=> %s::vector, v.episode_seq DESC LIMIT %s) r"
        ).format(model_sql, bound, sql.Literal(EXACT_ROWS))
        params += [text, *([] if max_vseq is None else [max_vseq]), text, limit]
    top: sql.Composable = sql.SQL("%s")
    if max_vseq is None:
        top = sql.SQL(
            "(SELECT coalesce(max(vseq), 0) FROM episode_vectors WHERE model = {})"
        ).format(model_sql)
    else:
        params.append(max_vseq)
    statement = sql.SQL(
        "WITH m AS MATERIALIZED ({}) SELECT 0, seq, session_id, score::float8 FROM m{}"
        " UNION ALL SELECT 2, {}::bigint, NULL, (SELECT count(*) FROM m)::float8"
        " UNION ALL SELECT 3, coalesce(max(change), 0), NULL, NULL FROM episode_text_changes"
    ).format(sql.SQL(matches), ranked, top)
    rows: list[tuple[int, str | None, float | None]] = []
    found: list[tuple[Any, Any]] = []
    newest, count, text_change = 0, 0, 0
    for part, seq, session, value in conn.execute(statement, params):
        if part == 0:
            rows.append((seq, session, value))
        elif part == 1:
            found.append((seq, value))
        elif part == 2:
            newest, count = int(seq), int(value)
        else:
            text_change = int(seq)
    ranking = _best_first(found) if count <= EXACT_ROWS or values is None else None
    return RankedMatches(rows, ranking, newest, text_change)
