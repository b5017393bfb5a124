"""Exemplars in SQL both stores run alike: an episode or a tick range labelled for a concept
(positive, negative, neutral or other), with where the label came from.

An episode's exemplars are also its labels: the episode's ``labels`` (shown with it), its
``episode_labels`` rows (what ``label_filters`` and ``role: exemplar_label`` search) and its
text index entry (positive labels are indexed) follow every exemplar added or removed, in
the same transaction. Labels given with ``add_episode`` are exemplars from the start (the
episode's insert makes their rows). A tick range's exemplars stand on their own.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdb.store import placement
from xdb.store.sqlbuild import Connection, Dialect, add_given, many

SCHEMA = """
CREATE TABLE exemplars (
    id TEXT PRIMARY KEY,
    concept_id TEXT NOT NULL,
    label TEXT NOT NULL,
    label_source TEXT NOT NULL,
    confidence DOUBLE PRECISION NOT NULL,
    notes TEXT,
    episode_id TEXT,
    session_id TEXT,
    tick_start BIGINT,
    tick_end BIGINT,
    created_us BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    access_policy_id TEXT
);
CREATE INDEX exemplars_concept ON exemplars (concept_id, created_us);
CREATE INDEX exemplars_episode ON exemplars (episode_id) WHERE episode_id IS NOT NULL
"""
PLACES = placement.declared(
    SCHEMA,
    placement.local(
        "exemplars",
        "labels, given at the rate people and labellers give them; read by concept, by"
        " episode and by tick range, so no one column would keep its reads on one shard",
    ),
)

COLUMNS = (
    "id, concept_id, label, label_source, confidence, notes, episode_id, session_id,"
    " tick_start, tick_end, created_us, created_by, access_policy_id"
)


@dataclass
class ExemplarRow:
    id: str
    concept_id: str
    label: str
    label_source: str
    confidence: float
    notes: str | None
    episode_id: str | None
    session_id: str | None
    tick_start: int | None
    tick_end: int | None
    created_us: int
    created_by: str
    access_policy_id: str | None = None


def _row(r: Sequence[Any]) -> ExemplarRow:
    return ExemplarRow(
        r[0],
        r[1],
        r[2],
        r[3],
        float(r[4]),
        r[5],
        r[6],
        r[7],
        None if r[8] is None else int(r[8]),
        None if r[9] is None else int(r[9]),
        int(r[10]),
        r[11],
        r[12],
    )


def _values(e: ExemplarRow) -> tuple[Any, ...]:
    return (
        e.id,
        e.concept_id,
        e.label,
        e.label_source,
        e.confidence,
        e.notes,
        e.episode_id,
        e.session_id,
        e.tick_start,
        e.tick_end,
        e.created_us,
        e.created_by,
        e.access_policy_id,
    )


def of_episode_labels(
    episode_id: str, labels: Sequence[dict[str, Any]], created_us: int, created_by: str
) -> list[ExemplarRow]:
    """The exemplars an episode's own labels are (``add_episode``'s ``labels``), one per
    concept and label (the last of repeats, as the label rows keep it). Their ids derive
    from the episode, the concept and the label: the same on every store and import."""
    last = {(lb["concept_id"], lb["label"]): lb for lb in labels}
    return [
        ExemplarRow(
            label_exemplar_id(episode_id, concept, label),
            concept,
            label,
            lb.get("label_source") or "self",
            float(lb["confidence"]),
            None,
            episode_id,
            None,
            None,
            None,
            created_us,
            created_by,
        )
        for (concept, label), lb in last.items()
    ]


def label_exemplar_id(episode_id: str, concept_id: str, label: str) -> str:
    key = f"{episode_id}\x1f{concept_id}\x1f{label}".encode()
    return "exemplar-" + hashlib.sha256(key).hexdigest()[:24]


def not_stored(conn: Connection, d: Dialect, rows: Sequence[ExemplarRow]) -> list[ExemplarRow]:
    """``rows`` less those whose episode, concept and label an exemplar has already (an
    import brings an episode's exemplars before the episode)."""
    if not rows:
        return []
    params: list[Any] = []
    cond = d.one_of("episode_id", sorted({r.episode_id for r in rows if r.episode_id}), params)
    stored = {
        (e, c, lb)
        for e, c, lb in conn.execute(
            f"SELECT episode_id, concept_id, label FROM exemplars WHERE {cond}", params
        ).fetchall()
    }
    return [r for r in rows if (r.episode_id, r.concept_id, r.label) not in stored]


def insert(conn: Connection, d: Dialect, rows: Sequence[ExemplarRow]) -> None:
    if rows:
        many(
            conn,
            f"INSERT INTO exemplars ({COLUMNS}) VALUES ({d.marks(13)})",
            [_values(e) for e in rows],
        )


def forget_episode(conn: Connection, d: Dialect, episode_id: str) -> None:
    """A deleted episode's exemplars go with it."""
    conn.execute(f"DELETE FROM exemplars WHERE episode_id = {d.mark}", (episode_id,))


def get(conn: Connection, d: Dialect, exemplar_id: str) -> ExemplarRow | None:
    row = conn.execute(
        f"SELECT {COLUMNS} FROM exemplars WHERE id = {d.mark}", (exemplar_id,)
    ).fetchone()
    return None if row is None else _row(row)


def listed(
    conn: Connection,
    d: Dialect,
    concept_id: str | None,
    episode_id: str | None,
    label: str | None,
    after: tuple[int, str] | None,
    limit: int,
) -> tuple[list[ExemplarRow], int]:
    """A page of exemplars, oldest first (created_us, id), and how many match."""
    m = d.mark
    clauses: list[str] = []
    params: list[Any] = []
    add_given(
        clauses,
        params,
        (
            (f"concept_id = {m}", concept_id),
            (f"episode_id = {m}", episode_id),
            (f"label = {m}", label),
        ),
    )
    where = " AND ".join(clauses) or "1 = 1"
    total = conn.execute(f"SELECT count(*) FROM exemplars WHERE {where}", params).fetchone()
    page_clauses = list(clauses)
    page_params = list(params)
    if after is not None:
        page_clauses.append(f"(created_us > {m} OR (created_us = {m} AND id > {m}))")
        page_params += [after[0], after[0], after[1]]
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM exemplars WHERE {' AND '.join(page_clauses) or '1 = 1'}"
        f" ORDER BY created_us, id LIMIT {m}",
        [*page_params, limit],
    ).fetchall()
    return [_row(r) for r in rows], int(total[0]) if total else 0


def for_episodes(
    conn: Connection, d: Dialect, episode_ids: Sequence[str], concept_id: str
) -> list[ExemplarRow]:
    """The exemplars of ``concept_id`` on these episodes."""
    out: list[ExemplarRow] = []
    params: list[Any] = [concept_id]
    if not episode_ids:
        return out
    cond = d.one_of("episode_id", list(episode_ids), params)
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM exemplars WHERE concept_id = {d.mark} AND {cond}"
        " ORDER BY created_us, id",
        params,
    ).fetchall()
    return [_row(r) for r in rows]


# --------------------------------------------------------------- the episode's own labels


def sync_episode(
    conn: Connection, d: Dialect, episode_id: str, concept_id: str, label: str
) -> bool:
    """Make the episode's labels for (``concept_id``, ``label``) what its exemplars say (the
    highest confidence among them, or none left); whether the episode exists."""
    m = d.mark
    found = conn.execute(
        f"SELECT seq, namespace, labels FROM episodes WHERE id = {m}", (episode_id,)
    ).fetchone()
    if found is None:
        return False
    seq, namespace, raw = int(found[0]), found[1], found[2]
    labels: list[dict[str, Any]] = raw if isinstance(raw, list) else json.loads(raw or "[]")
    best = conn.execute(
        f"SELECT confidence, label_source FROM exemplars WHERE episode_id = {m}"
        f" AND concept_id = {m} AND label = {m} ORDER BY confidence DESC, created_us LIMIT 1",
        (episode_id, concept_id, label),
    ).fetchone()
    kept = [lb for lb in labels if (lb.get("concept_id"), lb.get("label")) != (concept_id, label)]
    pg = d.arrays
    where = f"episode_seq = {m} AND concept_id = {m} AND label = {m}"
    conn.execute(
        f"DELETE FROM episode_labels WHERE {where}" + (f" AND namespace = {m}" if pg else ""),
        (seq, concept_id, label, namespace) if pg else (seq, concept_id, label),
    )
    if best is not None:
        confidence, source = float(best[0]), best[1]
        kept.append(
            {
                "concept_id": concept_id,
                "label": label,
                "confidence": confidence,
                "label_source": source,
            }
        )
        if pg:
            conn.execute(
                "INSERT INTO episode_labels (namespace, episode_seq, concept_id, label, confidence)"
                " VALUES (%s, %s, %s, %s, %s)",
                (namespace, seq, concept_id, label, confidence),
            )
        else:
            conn.execute(
                "INSERT INTO episode_labels (concept_id, episode_seq, label, confidence)"
                " VALUES (?, ?, ?, ?)",
                (concept_id, seq, label, confidence),
            )
    text = json.dumps(kept, ensure_ascii=False)
    if pg:
        conn.execute(
            "UPDATE episodes SET labels = %s::json WHERE namespace = %s AND seq = %s",
            (text, namespace, seq),
        )
        conn.execute(
            "INSERT INTO episode_text_changes (namespace, seq) VALUES (%s, %s)", (namespace, seq)
        )
    else:
        conn.execute("UPDATE episodes SET labels = ? WHERE seq = ?", (text, seq))
        conn.execute("INSERT INTO episode_text_changes (seq) VALUES (?)", (seq,))
    return True


def remove(conn: Connection, d: Dialect, exemplar_id: str) -> ExemplarRow | None:
    found = get(conn, d, exemplar_id)
    if found is None:
        return None
    conn.execute(f"DELETE FROM exemplars WHERE id = {d.mark}", (exemplar_id,))
    if found.episode_id is not None:
        sync_episode(conn, d, found.episode_id, found.concept_id, found.label)
    return found


def backfill(conn: Connection, d: Dialect) -> None:
    """Migration: the labels of episodes stored before exemplars had rows become exemplars."""
    rows = conn.execute(
        "SELECT id, labels, created_us, created_by FROM episodes ORDER BY seq"
    ).fetchall()
    made: list[ExemplarRow] = []
    for episode_id, raw, created_us, created_by in rows:
        labels = raw if isinstance(raw, list) else json.loads(raw or "[]")
        if labels:
            made += of_episode_labels(episode_id, labels, int(created_us), created_by)
    insert(conn, d, made)
