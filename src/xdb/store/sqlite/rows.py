"""Conversions between SQLite rows and domain models, shared by reads and export."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from xdb.ids import timestep_id
from xdb.models.common import EventType, Fidelity, Role
from xdb.models.log import Comment, Tag, TagApplication, Timestep
from xdb.timeutil import from_us

TIMESTEP_COLUMNS = (
    "seq, session_id, tick, ts_us, event_type, role, content, token_id, event_id,"
    " event_start, event_end, activations, fidelity"
)
TAG_COLUMNS = (
    "id, name, tag_type, description, concept_id, entity_type, bud_status, related_concepts,"
    " created_us, created_by"
)


def timestep(row: sqlite3.Row | tuple[Any, ...]) -> Timestep:
    (_seq, session, tick, ts_us, etype, role, content, token, event, start, end, acts, fid) = row
    # model_construct: rows were validated on the way in; re-validating costs ~10 us each.
    return Timestep.model_construct(
        id=timestep_id(session, tick),
        session_id=session,
        tick=tick,
        timestamp=from_us(ts_us),
        event_type=EventType(etype),
        role=Role(role),
        content=content,
        token_id=token,
        event_id=event,
        event_start=bool(start),
        event_end=bool(end),
        concept_activations=json.loads(acts) if acts else {},
        fidelity=Fidelity(fid),
    )


def tag(row: sqlite3.Row | tuple[Any, ...], application_count: int | None = None) -> Tag:
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


def application(row: sqlite3.Row | tuple[Any, ...]) -> TagApplication:
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


def comment(row: sqlite3.Row | tuple[Any, ...]) -> Comment:
    (cid, session, ttype, tick, event, rs, re_, content, cus, uus, cby) = row
    return Comment(
        id=cid,
        **_target(ttype, session, tick, event, rs, re_),
        content=content,
        created_at=from_us(cus),
        updated_at=from_us(uus),
        created_by=cby,
    )
