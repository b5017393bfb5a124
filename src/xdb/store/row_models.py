"""Conversions between rows and domain models, shared by both stores' reads and exports.

Both stores select the same columns in the same order (PostgreSQL's JSON columns as
``::text``), so one converter serves each row kind, and the two stores answer alike.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic_core import PydanticSerializationError, from_json, to_json

from xdb.ids import timestep_id
from xdb.models.common import EventType, Fidelity, Role
from xdb.models.log_objects import Comment, SessionSummary, Tag, TagApplication, Timestep
from xdb.store.context import SESSION_GAP_US
from xdb.store.sqlbuild import Connection, Dialect, Flavor, rows_in
from xdb.store.types import NewEpisode, StoredEpisode, TextChange, TextDocument
from xdb.timeutil import from_us

TAG_COLUMNS = (
    "id, name, tag_type, description, concept_id, entity_type, bud_status, related_concepts,"
    " created_us, created_by"
)
SESSION_COLUMNS = "session_id, timesteps, next_tick, created_us, last_us"


# Stored values to their enum members: a dict lookup, not an Enum call (~0.5 us each).
_EVENT_TYPES = {e.value: e for e in EventType}
_ROLES = {r.value: r for r in Role}
_FIDELITIES = {f.value: f for f in Fidelity}
_TIMESTEP_FIELDS = frozenset(Timestep.model_fields)
_new_timestep = Timestep.__new__
_set = object.__setattr__


def timestep(row: Sequence[Any]) -> Timestep:
    """A stored row as a Timestep. Rows were validated on the way in; the instance is made
    the way ``model_construct`` makes it, less its per-field bookkeeping (8.6 -> 4.3 us a
    row: a page of 10,000 is most of a call's time)."""
    (_seq, session, tick, ts_us, etype, role, content, token, event, start, end, acts, fid) = row
    made = _new_timestep(Timestep)
    _set(
        made,
        "__dict__",
        {
            "id": timestep_id(session, tick),
            "session_id": session,
            "tick": tick,
            "timestamp": from_us(ts_us),
            "event_type": _EVENT_TYPES[etype],
            "role": _ROLES[role],
            "content": content,
            "token_id": token,
            "event_id": event,
            "event_start": bool(start),
            "event_end": bool(end),
            "concept_activations": from_json(acts) if acts else {},
            "fidelity": _FIDELITIES[fid],
        },
    )
    _set(made, "__pydantic_fields_set__", set(_TIMESTEP_FIELDS))
    _set(made, "__pydantic_extra__", None)
    _set(made, "__pydantic_private__", None)
    return made


def tag(row: Sequence[Any], application_count: int | None = None) -> Tag:
    (tid, name, ttype, desc, concept, entity, bud, related, created_us, created_by) = row[:10]
    return Tag(
        id=tid,
        name=name,
        tag_type=ttype,
        description=desc,
        concept_id=concept,
        entity_type=entity,
        bud_status=bud,
        related_concepts=json.loads(related or "[]"),
        created_at=from_us(created_us),
        created_by=created_by,
        application_count=application_count,
    )


def tag_values(t: Tag, created_us: int) -> tuple[Any, ...]:
    return (
        t.id,
        t.name,
        t.tag_type.value,
        t.description,
        t.concept_id,
        t.entity_type.value if t.entity_type else None,
        t.bud_status.value if t.bud_status else None,
        json.dumps(t.related_concepts),
        created_us,
        t.created_by,
    )


def _target(
    ttype: str, session: str, tick: int | None, event: str | None, rs: int | None, re_: int | None
) -> dict[str, Any]:
    """The shared target fields of tag applications and comments (ticks become ids)."""
    return {
        "target_type": ttype,
        "session_id": session,
        "timestep_id": timestep_id(session, tick) if tick is not None else None,
        "event_id": event,
        "range_start": rs,
        "range_end": re_,
    }


# The columns ``application`` and ``comment`` read, in their order.
APPLICATION_COLUMNS = (
    "id, tag_id, target_type, session_id, tick, event_id, range_start, range_end,"
    " confidence, source, note, created_us, created_by"
)
COMMENT_COLUMNS = (
    "id, session_id, target_type, tick, event_id, range_start, range_end, content,"
    " created_us, updated_us, created_by"
)


def application(row: Sequence[Any]) -> TagApplication:
    (aid, tag_id, ttype, session, tick, event, rs, re_, conf, source, note, cus, cby) = row
    return TagApplication(
        id=aid,
        tag_id=tag_id,
        **_target(ttype, session, tick, event, rs, re_),
        confidence=conf,
        source=source,
        note=note,
        created_at=from_us(cus),
        created_by=cby,
    )


def comment(row: Sequence[Any]) -> Comment:
    (cid, session, ttype, tick, event, rs, re_, content, cus, uus, cby) = row
    return Comment(
        id=cid,
        **_target(ttype, session, tick, event, rs, re_),
        content=content,
        created_at=from_us(cus),
        updated_at=from_us(uus),
        created_by=cby,
    )


def session_summary(row: Sequence[Any]) -> SessionSummary:
    """A row of ``SESSION_COLUMNS``."""
    session, count, next_tick, created_us, last_us = row
    return SessionSummary(
        session_id=session,
        timesteps=count,
        current_tick=next_tick - 1,
        first_time=from_us(created_us),
        last_time=from_us(last_us),
    )


def episode(row: Sequence[Any]) -> StoredEpisode:
    """A row of a store's episode ``COLUMNS``; JSON columns arrive as text."""
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


def episode_values(ep: NewEpisode) -> tuple[Any, ...]:
    """An episode's stored values, as both stores insert them: id, namespace, kind,
    session_id, summary, content, start_us, end_us, created_us, created_by, then the JSON
    columns (concept_tags, labels, motive_profile, metadata, provenance) as their text."""
    return (
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
        json_text(ep.concept_tags),
        json_text(ep.labels),
        json_text(ep.motive_profile),
        json_text(ep.metadata),
        json_text(ep.provenance),
    )


# What ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)`` makes for each
# call; made once (an import writes two JSON columns an episode that are not empty).
_JSON_TEXT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def json_text(value: Any) -> str:
    """Compact JSON, non-ASCII kept: how both stores write an episode's JSON columns."""
    if not value and isinstance(value, dict | list):  # most labels, profiles and metadata
        return "{}" if isinstance(value, dict) else "[]"
    return _JSON_TEXT.encode(value)


def activations_json(activations: dict[str, float]) -> str:
    """The stored JSON text of a timestep's concept activations.

    pydantic_core's encoder takes ~2.5 us for ten activations where ``json.dumps`` takes
    ~13 us, which made encoding the largest Python cost of ingest. The text is still plain
    JSON (compact, UTF-8) that ``json.loads`` and SQLite's ``json_each`` read back the same.
    """
    try:
        return to_json(activations).decode()
    except PydanticSerializationError:  # a lone surrogate in a concept id: json.dumps escapes it
        return json.dumps(activations)


def text_document(row: Sequence[Any]) -> TextDocument:
    """(text, namespace, start_us, end_us, kind, concept_tags, labels) as a text index
    document. A concept tagged twice keeps its first kind, as the store's concept rows do."""
    tags: dict[str, str] = {}
    for t in parsed_json(row[5]):
        tags.setdefault(t["concept_id"], t["kind"])
    labels = parsed_json(row[6])
    positive = {lb["concept_id"] for lb in labels if lb["label"] == "positive"} if labels else ()
    text, namespace, start, end, kind = row[:5]
    return TextDocument(
        text, namespace, int(start), int(end), kind, tuple(tags.items()), tuple(sorted(positive))
    )


def loads_json(value: Any) -> Any:
    """A JSON column's value: SQLite gives text, psycopg a parsed value."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def parsed_json(value: Any) -> Any:
    """``loads_json``, faster where it is called per row (an episode's concept tags and
    labels, two per episode a text index catches up with; a timestep's activations, which
    compaction reads per tick): pydantic_core's parser, ~2.5-3x json.loads on such short
    text, and nothing to parse for the common empty list."""
    if not isinstance(value, str | bytes):
        return value
    if value == "[]":
        return []
    try:
        return from_json(value)
    except ValueError:  # e.g. an escaped lone surrogate, which json.loads takes
        return json.loads(value)


def text_changes(conn: Connection, flavor: Flavor, after: int, limit: int) -> list[TextChange]:
    """Changes after ``after``: (change, seq, the episode's current text index document, or
    None when it was deleted). An import can log an episode's change more than once (added,
    then its context refreshed by a neighbour in a later batch): each row of one read holds
    the same current document, so it is made once. Where the store makes contexts
    (``Flavor.context_view``), they are read once per episode, after the rows."""
    view = flavor.context_view
    rows = conn.execute(
        "SELECT c.change, c.seq, e.summary || ' ' || e.content,"
        f" {'NULL' if view else 'e.context'}, e.namespace, e.start_us, e.end_us, e.kind,"
        " e.concept_tags, e.labels"
        f" FROM episode_text_changes c LEFT JOIN episodes e ON {flavor.text_change_join}"
        f" WHERE c.change > {flavor.d.mark} ORDER BY c.change LIMIT {flavor.d.mark}",
        (after, limit),
    ).fetchall()
    present = [int(r[1]) for r in rows if r[2] is not None]
    contexts: dict[int, str] = {}
    if view and present:
        sql = f"SELECT seq, context FROM {view} WHERE seq IN ({{marks}})"
        contexts = {int(s): c for s, c in rows_in(conn, flavor.d, sql, sorted(set(present)))}
    made: dict[int, TextDocument] = {}
    out: list[TextChange] = []
    for r in rows:
        seq = int(r[1])
        if r[2] is not None and seq not in made:
            context = contexts[seq] if view else r[3]
            made[seq] = text_document((f"{r[2]} {context}", *r[4:]))
        out.append((int(r[0]), seq, made.get(seq)))
    return out


def neighbours(conn: Connection, d: Dialect, seq: int, column: str) -> tuple[Any, Any]:
    """``column`` of the episodes just before and just after ``seq`` by (start, seq) in its
    session; for an episode without one, among its namespace's sessionless episodes that
    start within ``SESSION_GAP_US`` (``xdb.store.context``). (None, None) for an unknown seq."""
    row = conn.execute(
        f"SELECT session_id, namespace, start_us FROM episodes WHERE seq = {d.mark}", (seq,)
    ).fetchone()
    if row is None:
        return None, None
    session, namespace, start = row
    if session is not None:
        where, params = f"session_id = {d.mark}", [session]
    else:
        where, params = f"session_id IS NULL AND namespace = {d.mark}", [namespace]
    found = []
    for cmp, order, bound, limit in (
        ("<", "DESC", ">=", start - SESSION_GAP_US),
        (">", "ASC", "<=", start + SESSION_GAP_US),
    ):
        gap = "" if session is not None else f" AND start_us {bound} {d.mark}"
        near = conn.execute(
            f"SELECT {column} FROM episodes WHERE {where}"
            f" AND (start_us, seq) {cmp} ({d.mark}, {d.mark}){gap}"
            f" ORDER BY start_us {order}, seq {order} LIMIT 1",
            (*params, start, seq, *([] if session is not None else [limit])),
        ).fetchone()
        found.append(None if near is None else near[0])
    return found[0], found[1]


def sessionless_with_neighbours(conn: Connection) -> list[int]:
    """Seqs of the sessionless episodes that have a neighbour (``neighbours``): those whose
    context an xdb before the rule indexed without one (each store's migration refreshes
    them)."""
    return [
        int(r[0])
        for r in conn.execute(
            "SELECT seq FROM (SELECT seq, start_us, lag(start_us) OVER w AS before,"
            " lead(start_us) OVER w AS after FROM episodes WHERE session_id IS NULL"
            " WINDOW w AS (PARTITION BY namespace ORDER BY start_us, seq)) x"
            f" WHERE start_us - before <= {SESSION_GAP_US} OR after - start_us <= {SESSION_GAP_US}"
            " ORDER BY seq"
        )
    ]
