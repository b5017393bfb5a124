"""Fidelity in SQL, alike in both stores: the tables of holds (pins and submitted evidence)
on timesteps, of the COLD records that stand for compacted and compressed experience (their
rows' SQL: ``store.cold_records``) and of compaction counts; holds, the HOT window and what
compaction reads of it.

A record merged into a coarser one keeps its row (``merged_into`` names the new record; its
episode goes): a reply's row still says which ticks it covered and under which access
policy, which is what a tag, comment or exemplar on a compacted tick is read with
(``store/access.py``), and the rows trace every record's lineage.

A timestep's ``fidelity`` column is derived from its holds: ``submitted`` while any
submission holds it, else ``warm`` while any agent pins it, else ``hot``. Compaction deletes
HOT timesteps and writes one record per reply in the same transaction, so a timestep is
compacted exactly once; COLD is the records' tier. A record is also an episode (its id is
the episode's), so recall finds it like any other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdb.store import placement
from xdb.store.sqlbuild import Connection, Dialect, chunks

SCHEMA = """
CREATE TABLE timestep_holds (
    session_id TEXT NOT NULL,
    tick BIGINT NOT NULL,
    kind TEXT NOT NULL,
    holder TEXT NOT NULL,
    reason TEXT,
    tokens BIGINT NOT NULL,
    created_us BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    PRIMARY KEY (session_id, tick, kind, holder)
);
CREATE INDEX timestep_holds_holder ON timestep_holds (kind, holder);
CREATE TABLE memory_records (
    id TEXT PRIMARY KEY,
    level TEXT NOT NULL,
    namespace TEXT NOT NULL,
    session_id TEXT,
    tick_start BIGINT,
    tick_end BIGINT,
    start_us BIGINT NOT NULL,
    end_us BIGINT NOT NULL,
    tokens BIGINT NOT NULL,
    timesteps BIGINT NOT NULL,
    body TEXT NOT NULL,
    created_us BIGINT NOT NULL,
    access_policy_id TEXT,
    merged_into TEXT
);
CREATE INDEX memory_records_session ON memory_records (session_id, tick_start);
CREATE INDEX memory_records_level ON memory_records (level, end_us) WHERE merged_into IS NULL;
CREATE TABLE compactions (
    session_id TEXT PRIMARY KEY,
    count BIGINT NOT NULL,
    last_us BIGINT NOT NULL
)
"""
# On PostgreSQL a record's key is (namespace, id) (``xdb.store.postgres.schema``, version
# 18): a record is an episode, and lives on its episode's shard.
PLACES = placement.declared(
    SCHEMA,
    placement.distributed(
        "timestep_holds",
        "session_id",
        "pins and submissions on a session's ticks, set and read with them",
        colocate_with="sessions",
    ),
    placement.distributed(
        "memory_records",
        "namespace",
        "a COLD record is an episode (same id and namespace): it and its lineage sit with"
        " the episode, and what it replaces is read there",
        colocate_with="episodes",
    ),
    placement.distributed(
        "compactions",
        "session_id",
        "a session's count, moved in the compaction that deletes the session's ticks",
        colocate_with="sessions",
    ),
)
STATEMENTS = [s for s in SCHEMA.split(";") if s.strip()]

# A timestep's tokens: one for a model token (it has a token id), else the usual estimate
# for English under BPE tokenizers, a token per four characters (rounded up).
TOKENS = "(CASE WHEN token_id IS NOT NULL THEN 1 ELSE (length(content) + 3) / 4 END)"
PIN = "pin"
SUBMISSION = "submission"


def tokens_of(content: str, token_id: int | None) -> int:
    """``TOKENS`` in Python, for what was just recorded."""
    return 1 if token_id is not None else (len(content) + 3) // 4


def migrate(conn: Connection, d: Dialect) -> None:
    for statement in STATEMENTS:
        conn.execute(statement)


# ---------------------------------------------------------------------- holds


def ticks_present(
    conn: Connection, d: Dialect, session: str, ticks: Sequence[int]
) -> dict[int, tuple[int, str]]:
    """(tokens, fidelity) of each of ``ticks`` that exists in ``session``."""
    out: dict[int, tuple[int, str]] = {}
    m = d.mark
    for part in chunks(sorted(set(ticks))):
        params: list[Any] = [session]
        where = d.one_of("tick", part, params, "bigint")
        for tick, tokens, fidelity in conn.execute(
            f"SELECT tick, {TOKENS}, fidelity FROM timesteps WHERE session_id = {m} AND {where}",
            params,
        ):
            out[int(tick)] = (int(tokens), str(fidelity))
    return out


def add_holds(
    conn: Connection,
    d: Dialect,
    kind: str,
    holder: str,
    reason: str | None,
    session: str,
    ticks: dict[int, int],
    at: int,
    by: str,
) -> int:
    """Hold ``ticks`` (tick -> tokens) of ``session``; how many were not held already."""
    added = 0
    for tick, tokens in ticks.items():
        cur = conn.execute(
            "INSERT INTO timestep_holds (session_id, tick, kind, holder, reason, tokens,"
            f" created_us, created_by) VALUES ({d.marks(8)}) ON CONFLICT DO NOTHING",
            (session, tick, kind, holder, reason, tokens, at, by),
        )
        added += max(cur.rowcount, 0)
    refresh(conn, d, session, list(ticks))
    return added


def drop_holds(
    conn: Connection, d: Dialect, kind: str, holder: str, session: str, ticks: Sequence[int]
) -> int:
    removed = 0
    m = d.mark
    for part in chunks(sorted(set(ticks))):
        params: list[Any] = [kind, holder, session]
        where = d.one_of("tick", part, params, "bigint")
        cur = conn.execute(
            f"DELETE FROM timestep_holds WHERE kind = {m} AND holder = {m} AND session_id = {m}"
            f" AND {where}",
            params,
        )
        removed += max(cur.rowcount, 0)
    refresh(conn, d, session, ticks)
    return removed


def held_by(conn: Connection, d: Dialect, kind: str, holder: str) -> dict[str, list[int]]:
    """Per session, the ticks ``holder`` holds."""
    out: dict[str, list[int]] = {}
    for session, tick in conn.execute(
        f"SELECT session_id, tick FROM timestep_holds WHERE kind = {d.mark} AND holder = {d.mark}",
        (kind, holder),
    ):
        out.setdefault(str(session), []).append(int(tick))
    return out


def refresh(conn: Connection, d: Dialect, session: str, ticks: Sequence[int]) -> None:
    """Set the fidelity of ``ticks`` from their holds."""
    m = d.mark
    for part in chunks(sorted(set(ticks))):
        params: list[Any] = [session]
        where = d.one_of("tick", part, params, "bigint")
        conn.execute(
            "UPDATE timesteps SET fidelity = CASE"
            " WHEN EXISTS (SELECT 1 FROM timestep_holds h WHERE h.session_id ="
            " timesteps.session_id AND h.tick = timesteps.tick AND h.kind = 'submission')"
            " THEN 'submitted' WHEN EXISTS (SELECT 1 FROM timestep_holds h WHERE h.session_id ="
            " timesteps.session_id AND h.tick = timesteps.tick AND h.kind = 'pin') THEN 'warm'"
            f" ELSE 'hot' END WHERE session_id = {m} AND {where}",
            params,
        )


def warm_tokens(conn: Connection, d: Dialect, holder: str | None) -> int:
    """Tokens ``holder`` (None: anyone) pins that no submission holds (WARM use)."""
    who = "" if holder is None else f" AND h.holder = {d.mark}"
    distinct = "" if holder is not None else "DISTINCT "
    (total,) = conn.execute(
        f"SELECT coalesce(sum(tokens), 0) FROM (SELECT {distinct}h.session_id, h.tick, h.tokens"
        f" FROM timestep_holds h WHERE h.kind = 'pin'{who} AND NOT EXISTS (SELECT 1 FROM"
        " timestep_holds s WHERE s.session_id = h.session_id AND s.tick = h.tick AND"
        " s.kind = 'submission')) p",
        () if holder is None else (holder,),
    ).fetchone()
    return int(total)


def submitted_tokens(conn: Connection) -> int:
    (total,) = conn.execute(
        "SELECT coalesce(sum(tokens), 0) FROM (SELECT DISTINCT session_id, tick, tokens FROM"
        " timestep_holds WHERE kind = 'submission') s"
    ).fetchone()
    return int(total)


# ---------------------------------------------------------------------- the HOT window


def hot_window(conn: Connection, d: Dialect, session: str) -> tuple[int, int, int]:
    """(HOT tokens, current tick, compactions) of ``session``."""
    m = d.mark
    (tokens,) = conn.execute(
        f"SELECT coalesce(sum({TOKENS}), 0) FROM timesteps WHERE session_id = {m}"
        " AND fidelity = 'hot'",
        (session,),
    ).fetchone()
    (top,) = conn.execute(
        f"SELECT coalesce(max(tick), -1) FROM timesteps WHERE session_id = {m}", (session,)
    ).fetchone()
    row = conn.execute(
        f"SELECT count FROM compactions WHERE session_id = {m}", (session,)
    ).fetchone()
    return int(tokens), int(top), 0 if row is None else int(row[0])


def compaction_cutoff(conn: Connection, d: Dialect, session: str, keep_tokens: int) -> int:
    """The first tick to keep: HOT ticks below it hold every HOT token beyond the newest
    ``keep_tokens``; the session's newest tick is always kept (-1: nothing to compact)."""
    m = d.mark
    kept = 0
    newest = True
    cur = conn.execute(
        f"SELECT tick, {TOKENS} FROM timesteps WHERE session_id = {m} AND fidelity = 'hot'"
        " ORDER BY tick DESC",
        (session,),
    )
    for tick, tokens in cur:
        kept += int(tokens)
        if not newest and kept > keep_tokens:
            return int(tick) + 1
        newest = False
    return -1


# A tick's activations come as stored (JSON text, or what the driver decoded): compaction
# aggregates a reply's concepts from them in Python, which decodes a tick's ten in ~1.5 us
# where SQL's json_each and GROUP BY took ~16 us a tick.
COMPACT_COLUMNS = (
    "tick, ts_us, event_type, event_id, content, token_id, access_policy_id, activations"
)


def compactable(
    conn: Connection, d: Dialect, session: str, below: int, limit: int, after: int = -1
) -> list[tuple[Any, ...]]:
    """The oldest HOT ticks of ``session`` after ``after`` and below ``below``, in order, at
    most ``limit``."""
    m = d.mark
    return list(
        conn.execute(
            f"SELECT {COMPACT_COLUMNS} FROM timesteps WHERE session_id = {m}"
            f" AND fidelity = 'hot' AND tick > {m} AND tick < {m} ORDER BY tick"
            f" LIMIT {int(limit)}",
            (session, after, below),
        )
    )


def tick_annotations(
    conn: Connection, d: Dialect, session: str, lo: int, hi: int, events: Sequence[str]
) -> tuple[list[tuple[str, str | None, int | None, int | None, int | None]], list[str]]:
    """Tag applications touching ticks ``lo``..``hi`` of ``session`` (or its ``events``):
    (tag id, event id, tick, range start, range end) each, and the ids of comments there."""
    m = d.mark
    params: list[Any] = [session, lo, hi, hi, lo]
    ev_where = d.one_of("event_id", list(events) or [""], params)
    touching = (
        f"session_id = {m} AND ((tick BETWEEN {m} AND {m}) OR (range_start <= {m} AND"
        f" range_end >= {m}) OR {ev_where})"
    )
    tags = [
        (str(r[0]), r[1], r[2], r[3], r[4])
        for r in conn.execute(
            f"SELECT tag_id, event_id, tick, range_start, range_end FROM tag_applications"
            f" WHERE {touching}",
            params,
        )
    ]
    comments = [
        str(r[0]) for r in conn.execute(f"SELECT id FROM comments WHERE {touching}", params)
    ]
    return tags, comments


def exemplars_on(
    conn: Connection, d: Dialect, session: str, lo: int, hi: int
) -> list[dict[str, Any]]:
    """The exemplars on tick ranges touching ``lo``..``hi`` of ``session``, as labels."""
    m = d.mark
    return [
        {
            "id": r[0],
            "concept_id": r[1],
            "label": r[2],
            "confidence": r[3],
            "label_source": r[4],
            "access_policy_id": r[5],
        }
        for r in conn.execute(
            "SELECT id, concept_id, label, confidence, label_source, access_policy_id FROM"
            " exemplars"
            f" WHERE session_id = {m} AND tick_start <= {m} AND tick_end >= {m}",
            (session, hi, lo),
        )
    ]
