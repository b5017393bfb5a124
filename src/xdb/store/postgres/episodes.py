"""Episodes in PostgreSQL: rows, concept and label rows, and text search.

Functions take a connection so the store can run them inside a write transaction or on a
reader. Every write here runs after ``lock_episodes`` (its caller takes it), so seqs and
text changes are numbered in commit order. The text index is the generated ``tsv`` column,
current at commit; ``episode_text_changes`` still logs each change for the caches that
follow it (the tantivy index).

The context (``xdb.store.context``), the seeded shuffle and the filters (``sqlbuild``) are
shared with the SQLite store, so both stores index the same text and page in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from xdb.errors import StoreError
from xdb.store import access, exemplars, row_models, sqlbuild
from xdb.store.context import CONTEXT_CHARS, SESSION_GAP_US, Placed, context, plan_inserts
from xdb.store.postgres.query import tsquery
from xdb.store.row_models import episode_values
from xdb.store.sqlbuild import POSTGRES
from xdb.store.types import EpisodeFilter, NewEpisode

if TYPE_CHECKING:
    # Only a type here: ``connection`` runs ``schema``, whose migration runs this module.
    from xdb.store.postgres.connection import Conn

# JSON columns are read as their text: json.loads gives the same values SQLite's store does.
COLUMNS = (
    "seq, id, namespace, kind, session_id, summary, content, start_us, end_us, created_us,"
    " created_by, concept_tags::text, labels::text, motive_profile::text, metadata::text,"
    " provenance::text"
)
_INSERT_COLUMNS = (  # in ``row_models.episode_values`` order
    "id, namespace, kind, session_id, summary, content, start_us, end_us, created_us,"
    " created_by, concept_tags, labels, motive_profile, metadata, provenance"
)


def insert(conn: Conn, ep: NewEpisode) -> int:
    """Insert an episode; call under ``lock_episodes``."""
    return insert_many(conn, [ep])[0]


def insert_many(conn: Conn, eps: Sequence[NewEpisode]) -> list[int]:
    """Insert episodes as as many ``insert`` calls in order would, in a few round trips
    whatever their number (an import of 100k episodes took ~10 minutes one by one); their
    seqs. Call under ``lock_episodes``."""
    if not eps:
        return []
    ids = [ep.id for ep in eps]
    taken = {r[0] for r in conn.execute("SELECT id FROM episodes WHERE id = ANY(%s)", (ids,))}
    seen: set[str] = set()
    for episode_id in ids:
        # SQLite's UNIQUE(id) says this as an IntegrityError; here ids are unique per
        # namespace in the schema (distribution), so the lock makes this check the guard.
        if episode_id in taken:
            raise StoreError(f"write failed and was rolled back: episode id {episode_id!r} exists")
        if episode_id in seen:
            raise StoreError(f"write failed and was rolled back: episode id {episode_id!r} twice")
        seen.add(episode_id)
    values = [episode_values(ep) for ep in eps]  # what fails in Python fails before any numbering
    # The seqs one insert after another would draw, read without drawing them (the lock
    # keeps them ours); knowing them first lets each row go in once, with its final context.
    # The sequence moves past them only once the rows are in, so an insert PostgreSQL
    # refuses leaves no gap (a nextval would stay drawn).
    found = conn.execute(_NEXT_SEQ).fetchone()
    assert found is not None
    sequence, first, step = found
    seqs = [first + i * step for i in range(len(eps))]
    new = [
        Placed(seq, ep.namespace, ep.session_id, ep.start_us, ep.content[:CONTEXT_CHARS])
        for seq, ep in zip(seqs, eps, strict=True)
    ]
    stored = _nearby(conn, new)
    plan = plan_inserts(stored, new)
    nearby = {ep.seq: ep.namespace for ep in stored}
    mine = set(seqs)
    conn.execute(
        f"INSERT INTO episodes (seq, context, {_INSERT_COLUMNS}) OVERRIDING SYSTEM VALUE"
        " SELECT * FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::text[], %s::text[],"
        " %s::text[], %s::text[], %s::text[], %s::bigint[], %s::bigint[], %s::bigint[],"
        " %s::text[], %s::json[], %s::json[], %s::json[], %s::json[], %s::json[])",
        (
            seqs,
            [plan.contexts[seq] for seq in seqs],
            *_columns(values),
        ),
    )
    conn.execute("SELECT setval(%s::regclass, %s)", (sequence, seqs[-1]))
    # Stored neighbours whose context changed; by namespace too, so each shard updates its own.
    others = [(nearby[seq], seq, text) for seq, text in plan.contexts.items() if seq not in mine]
    if others:
        conn.execute(
            "UPDATE episodes e SET context = u.c"
            " FROM unnest(%s::text[], %s::bigint[], %s::text[]) AS u(n, s, c)"
            " WHERE e.namespace = u.n AND e.seq = u.s",
            _columns(others),
        )
    _insert_concepts(conn, seqs, eps)
    made = [
        e
        for ep in eps
        for e in exemplars.of_episode_labels(ep.id, ep.labels, ep.created_us, ep.created_by)
    ]
    exemplars.insert(conn, POSTGRES, exemplars.not_stored(conn, POSTGRES, made))
    for ep in eps:
        if ep.access_policy_id is not None:
            access.assign(conn, POSTGRES, "episode", [(ep.id,)], ep.access_policy_id)
    conn.execute(
        "INSERT INTO episode_text_changes (namespace, seq) SELECT n, s"
        " FROM unnest(%s::text[], %s::bigint[]) WITH ORDINALITY AS u(n, s, o) ORDER BY o",
        ([n for n, _ in plan.log], [s for _, s in plan.log]),
    )
    return seqs


# The episodes' seq sequence, the seq its next draw gives, and its step.
_NEXT_SEQ = (
    "SELECT x.s::text, coalesce(pg_sequence_last_value(x.s) + q.seqincrement, q.seqstart),"
    " q.seqincrement FROM (SELECT pg_get_serial_sequence('episodes', 'seq')::regclass AS s) x"
    " JOIN pg_sequence q ON q.seqrelid = x.s"
)


def _columns(rows: Sequence[Sequence[Any]]) -> tuple[list[Any], ...]:
    """Rows as one list per column: the arrays an ``unnest`` insert takes."""
    return tuple(map(list, zip(*rows, strict=True)))


def _nearby(conn: Conn, new: Sequence[Placed]) -> list[Placed]:
    """The stored episodes two either side of each new one in its place: its session, or,
    without one, its namespace's sessionless episodes (``plan_inserts``)."""
    found: list[Placed] = []
    for sessionless, match in ((False, "session_id = u.k"), (True, _SESSIONLESS)):
        placed = [ep for ep in new if (ep.session_id is None) == sessionless]
        if not placed:
            continue
        side = (
            "(SELECT seq, namespace, session_id, start_us, left(content, %s)"
            f" FROM episodes WHERE {match} AND (start_us, seq) {{}} (u.st, u.sq)"
            " ORDER BY start_us {}, seq {} LIMIT 2)"
        )
        found.extend(
            Placed(int(r[0]), r[1], r[2], int(r[3]), r[4])
            for r in conn.execute(
                "SELECT DISTINCT x.*"
                " FROM unnest(%s::text[], %s::bigint[], %s::bigint[]) AS u(k, st, sq)"
                f" CROSS JOIN LATERAL ({side.format('<', 'DESC', 'DESC')}"
                f" UNION ALL {side.format('>', 'ASC', 'ASC')}) x",
                (
                    [ep.namespace if sessionless else ep.session_id for ep in placed],
                    [ep.start_us for ep in placed],
                    [ep.seq for ep in placed],
                    CONTEXT_CHARS,
                    CONTEXT_CHARS,
                ),
            )
        )
    return found


# A neighbour's neighbour starts within two gaps; the bound keeps the scan of a namespace
# whose sessionless episodes are few among many to the time that matters.
_SESSIONLESS = (
    "session_id IS NULL AND namespace = u.k"
    f" AND start_us BETWEEN u.st - {2 * SESSION_GAP_US} AND u.st + {2 * SESSION_GAP_US}"
)


def _insert_concepts(conn: Conn, seqs: Sequence[int], eps: Sequence[NewEpisode]) -> None:
    """The episodes' concept and label rows, each set in one statement."""
    concept_rows: list[tuple[Any, ...]] = []
    label_rows: list[tuple[Any, ...]] = []
    for seq, ep in zip(seqs, eps, strict=True):
        # SQLite keeps the first row of a repeated concept with the highest score, and the
        # last confidence of a repeated label; one multi-row insert may not touch a row
        # twice, so the repeats are folded here.
        concepts: dict[str, list[Any]] = {}
        for t in ep.concept_tags:
            seen = concepts.setdefault(t["concept_id"], [t["score"], t["kind"]])
            seen[0] = max(seen[0], t["score"])
        labels = {(lb["concept_id"], lb["label"]): lb["confidence"] for lb in ep.labels}
        concept_rows.extend(
            (ep.namespace, seq, ep.id, ep.start_us, ep.end_us, c, score, kind)
            for c, (score, kind) in concepts.items()
        )
        label_rows.extend((ep.namespace, seq, c, lb, conf) for (c, lb), conf in labels.items())
    if concept_rows:
        conn.execute(
            "INSERT INTO episode_concepts"
            " (namespace, episode_seq, episode_id, start_us, end_us, concept_id, score, kind)"
            " SELECT * FROM unnest(%s::text[], %s::bigint[], %s::text[], %s::bigint[],"
            " %s::bigint[], %s::text[], %s::float8[], %s::text[])",
            _columns(concept_rows),
        )
    if label_rows:
        conn.execute(
            "INSERT INTO episode_labels (namespace, episode_seq, concept_id, label, confidence)"
            " SELECT * FROM unnest(%s::text[], %s::bigint[], %s::text[], %s::text[],"
            " %s::float8[])",
            _columns(label_rows),
        )


def _log_text_change(conn: Conn, namespace: str, seq: int) -> None:
    conn.execute(
        "INSERT INTO episode_text_changes (namespace, seq) VALUES (%s, %s)", (namespace, seq)
    )


def _neighbour_seqs(conn: Conn, seq: int) -> list[int]:
    return [int(s) for s in row_models.neighbours(conn, POSTGRES, seq, "seq") if s is not None]


def refresh_context(conn: Conn, seq: int) -> None:
    """Re-index an episode's context (``xdb.store.context``); the generated ``tsv`` follows."""
    row = conn.execute(
        "SELECT namespace, context, start_us FROM episodes WHERE seq = %s", (seq,)
    ).fetchone()
    if row is None:
        return
    namespace, old, start_us = row
    texts = []
    for near in _neighbour_seqs(conn, seq):
        text = conn.execute("SELECT content FROM episodes WHERE seq = %s", (near,)).fetchone()
        assert text is not None
        texts.append(str(text[0]))
    new = context(start_us, texts)
    if new == old:
        return
    conn.execute(
        "UPDATE episodes SET context = %s WHERE namespace = %s AND seq = %s",
        (new, namespace, seq),
    )
    _log_text_change(conn, namespace, seq)


def delete(conn: Conn, episode_id: str) -> int | None:
    """Delete an episode with its rows; its seq, or None if there was none. Call under
    ``lock_episodes``."""
    row = conn.execute(
        "SELECT namespace, seq FROM episodes WHERE id = %s", (episode_id,)
    ).fetchone()
    if row is None:
        return None
    namespace, seq = row[0], int(row[1])
    neighbours = _neighbour_seqs(conn, seq)
    # Concepts, labels and vectors go with it (ON DELETE CASCADE).
    conn.execute("DELETE FROM episodes WHERE namespace = %s AND seq = %s", (namespace, seq))
    conn.execute("DELETE FROM graph_edges WHERE src = %s OR dst = %s", (episode_id, episode_id))
    exemplars.forget_episode(conn, POSTGRES, episode_id)
    # A record deleted (not merged) is gone; a merge marks its row before this runs.
    conn.execute(
        "DELETE FROM memory_records WHERE namespace = %s AND id = %s AND merged_into IS NULL",
        (namespace, episode_id),
    )
    _log_text_change(conn, namespace, seq)
    for near in neighbours:  # they are each other's neighbours now
        refresh_context(conn, near)
    return seq


def text_rank(
    conn: Conn, flt: EpisodeFilter, terms: Sequence[str], limit: int
) -> list[tuple[int, float]]:
    """Up to ``limit`` (seq, ts_rank, higher better) of episodes holding any of ``terms``.

    Weights mirror the SQLite store's BM25 column weights: the summary (label B) counts
    half, the content and the context (label A) fully. Normalisation 1 divides by the log
    of the document's length, standing in for BM25's length normalisation.
    """
    query, query_params = tsquery("xdb_english", terms, "||")
    clauses, params = sqlbuild.episode_where(flt, POSTGRES)
    clauses.insert(0, "e.tsv @@ q.q")
    sql = (
        "SELECT e.seq, ts_rank('{0, 0, 0.5, 1}'::float4[], e.tsv, q.q, 1)"
        f" FROM episodes e, (SELECT {query} AS q) q{sqlbuild.sql_where(clauses)}"
        " ORDER BY 2 DESC, e.seq DESC LIMIT %s"
    )
    return [(int(s), float(v)) for s, v in conn.execute(sql, [*query_params, *params, limit])]
