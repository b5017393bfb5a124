"""Export every stored object as plain records, and import them back losslessly.

Records carry a ``kind`` (session, tag, timestep, tag_application, comment, episode) and the
same fields the API shows, so an export is readable, diffable, and portable between stores.
Import is idempotent: an object whose id (or session and tick) exists is skipped.

An episode record holds add_episode's fields plus ``episode_id``, ``created_at`` and
``created_by``; since ``kind`` names the record, the episode's own kind is ``episode_kind``.
Vectors are not exported: they belong to a model, and the importing database embeds the
episodes with its own.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator

from xdb.errors import InvalidRequest, from_validation_errors
from xdb.ids import new_id, parse_timestep_id
from xdb.models.episodes import AddEpisodeRequest, NonEmpty, Provenance
from xdb.models.log import Comment, Tag, TagApplication, Timestep
from xdb.store.protocol import NewEpisode
from xdb.store.sqlite import episodes, rows, textindex
from xdb.timeutil import as_utc, from_us, now_us, to_us

FORMAT = "xdb-export"
VERSION = 1


class SessionRecord(BaseModel):
    session_id: str
    next_tick: int
    created_at: datetime
    last_at: datetime


class EpisodeRecord(AddEpisodeRequest):
    """An episode as exported: add_episode's fields, with what the store made kept."""

    # The record's "kind" says "episode"; the episode's own kind needs another name.
    kind: NonEmpty = Field(default="other", alias="episode_kind")
    episode_id: NonEmpty | None = Field(default=None, description="Default: a new id.")
    created_at: datetime | None = Field(default=None, description="Default: the import's time.")
    created_by: NonEmpty = "import"

    @field_validator("created_at")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc(value)


def export_records(conn: sqlite3.Connection) -> Iterator[dict[str, Any]]:
    conn.execute("BEGIN")  # one snapshot for the whole export
    try:
        yield {"kind": FORMAT, "version": VERSION}
        for sid, next_tick, cus, lus in conn.execute(
            "SELECT session_id, next_tick, created_us, last_us FROM sessions ORDER BY rowid"
        ):
            yield {
                "kind": "session",
                "session_id": sid,
                "next_tick": next_tick,
                "created_at": from_us(cus).isoformat(),
                "last_at": from_us(lus).isoformat(),
            }
        for row in conn.execute(f"SELECT {rows.TAG_COLUMNS} FROM tags ORDER BY rowid"):
            yield {
                "kind": "tag",
                **rows.tag(row).model_dump(mode="json", exclude={"application_count"}),
            }
        for row in conn.execute(f"SELECT {rows.TIMESTEP_COLUMNS} FROM timesteps ORDER BY seq"):
            yield {"kind": "timestep", **rows.timestep(row).model_dump(mode="json")}
        for row in conn.execute(
            "SELECT id, tag_id, target_type, session_id, tick, event_id, range_start, range_end,"
            " confidence, source, note, created_us, created_by FROM tag_applications ORDER BY rowid"
        ):
            yield {"kind": "tag_application", **rows.application(row).model_dump(mode="json")}
        for row in conn.execute(
            "SELECT id, session_id, target_type, tick, event_id, range_start, range_end, content,"
            " created_us, updated_us, created_by FROM comments ORDER BY rowid"
        ):
            yield {"kind": "comment", **rows.comment(row).model_dump(mode="json")}
        for row in conn.execute(f"SELECT {episodes.COLUMNS} FROM episodes ORDER BY seq"):
            yield _episode_record(episodes.to_stored(row).episode)
    finally:
        conn.execute("COMMIT")


def _parse(model: type[BaseModel], record: dict[str, Any], number: int, kind: str) -> Any:
    try:
        return model.model_validate(record)
    except ValidationError as exc:
        err = from_validation_errors(exc.errors())
        raise InvalidRequest(f"record {number} ({kind}): {err.message}") from exc


def _episode_record(ep: NewEpisode) -> dict[str, Any]:
    return {
        "kind": "episode",
        "episode_id": ep.id,
        "episode_kind": ep.kind,
        "namespace": ep.namespace,
        "session_id": ep.session_id,
        "summary": ep.summary,
        "content": ep.content,
        "time_window": {
            "start_time": from_us(ep.start_us).isoformat(),
            "end_time": from_us(ep.end_us).isoformat(),
        },
        "concept_tags": ep.concept_tags,
        "motive_profile": ep.motive_profile,
        "metadata": ep.metadata,
        "labels": ep.labels,
        "provenance": ep.provenance,
        "created_at": from_us(ep.created_us).isoformat(),
        "created_by": ep.created_by,
    }


def _import_episode(conn: sqlite3.Connection, record: EpisodeRecord) -> bool:
    """Insert an episode unless its id is stored; True when it was inserted."""
    # Imported lazily: the operations register themselves on import, in an order the
    # interfaces list them in, which a store module must not decide.
    from xdb.ops.episodes import episode_row

    episode_id = record.episode_id or new_id("episode")
    if conn.execute("SELECT 1 FROM episodes WHERE id = ?", (episode_id,)).fetchone():
        return False
    if record.provenance is None:
        record = record.model_copy(
            update={"provenance": Provenance(session_id=record.session_id, source="import")}
        )
    created = to_us(record.created_at) if record.created_at else now_us()
    episodes.insert(
        conn,
        episode_row(
            record, episode_id=episode_id, created_us=created, created_by=record.created_by
        ),
    )
    return True


def import_records(conn: sqlite3.Connection, records: Iterable[dict[str, Any]]) -> dict[str, int]:
    counts = {k: 0 for k in ("session", "tag", "timestep", "tag_application", "comment")}
    # Counted only when the input has episodes, so a log-only import reports what it did.
    episode_count: int | None = None
    skipped = 0
    tag_ids: dict[str, str] = {}  # imported tag id -> stored id (same name and type)
    seq = conn.execute("SELECT coalesce(max(seq), 0) FROM timesteps").fetchone()[0]
    for number, raw in enumerate(records, 1):
        kind = raw.get("kind")
        body = {k: v for k, v in raw.items() if k != "kind"}
        if kind == FORMAT:
            if raw.get("version") != VERSION:
                raise InvalidRequest(
                    f"record {number}: unsupported export version {raw.get('version')!r}"
                )
            continue
        if kind == "session":
            s = _parse(SessionRecord, body, number, kind)
            cus, lus = to_us(s.created_at), to_us(s.last_at)
            cur = conn.execute(
                "INSERT OR IGNORE INTO sessions (session_id, next_tick, created_us, last_us)"
                " VALUES (?,?,?,?)",
                (s.session_id, s.next_tick, cus, lus),
            )
            conn.execute(
                "UPDATE sessions SET next_tick = max(next_tick, ?), last_us = max(last_us, ?)"
                " WHERE session_id = ?",
                (s.next_tick, lus, s.session_id),
            )
            counts["session"] += cur.rowcount
            skipped += 1 - cur.rowcount
        elif kind == "tag":
            t = _parse(Tag, body, number, kind)
            cur = conn.execute(
                f"INSERT OR IGNORE INTO tags ({rows.TAG_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
                rows.tag_values(t, to_us(t.created_at)),
            )
            stored = conn.execute(
                "SELECT id FROM tags WHERE tag_type = ? AND name = ?", (t.tag_type.value, t.name)
            ).fetchone()
            tag_ids[t.id] = stored[0] if stored else t.id
            counts["tag"] += cur.rowcount
            skipped += 1 - cur.rowcount
        elif kind == "timestep":
            ts = _parse(Timestep, body, number, kind)
            _ensure_session(conn, ts.session_id, to_us(ts.timestamp))
            cur = conn.execute(
                "INSERT OR IGNORE INTO timesteps (seq, session_id, tick, ts_us, event_type, role,"
                " content, token_id, event_id, event_start, event_end, activations, fidelity)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    seq + 1,
                    ts.session_id,
                    ts.tick,
                    to_us(ts.timestamp),
                    ts.event_type.value,
                    ts.role.value,
                    ts.content,
                    ts.token_id,
                    ts.event_id,
                    ts.event_start,
                    ts.event_end,
                    json.dumps(ts.concept_activations) if ts.concept_activations else None,
                    ts.fidelity.value,
                ),
            )
            if cur.rowcount:
                seq += 1
                conn.execute(
                    "UPDATE sessions SET next_tick = max(next_tick, ?), timesteps = timesteps + 1,"
                    " last_us = max(last_us, ?) WHERE session_id = ?",
                    (ts.tick + 1, to_us(ts.timestamp), ts.session_id),
                )
            counts["timestep"] += cur.rowcount
            skipped += 1 - cur.rowcount
        elif kind == "tag_application":
            a = _parse(TagApplication, body, number, kind)
            tag_id = tag_ids.get(a.tag_id, a.tag_id)
            if not conn.execute("SELECT 1 FROM tags WHERE id = ?", (tag_id,)).fetchone():
                raise InvalidRequest(f"record {number}: tag_id {a.tag_id!r} names no tag")
            tick = _tick(a.timestep_id, number)
            cur = conn.execute(
                "INSERT OR IGNORE INTO tag_applications (id, tag_id, target_type, session_id, tick,"
                " event_id, range_start, range_end, confidence, source, note, created_us,"
                " created_by) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    a.id,
                    tag_id,
                    a.target_type.value,
                    a.session_id,
                    tick,
                    a.event_id,
                    a.range_start,
                    a.range_end,
                    a.confidence,
                    a.source.value,
                    a.note,
                    to_us(a.created_at),
                    a.created_by,
                ),
            )
            counts["tag_application"] += cur.rowcount
            skipped += 1 - cur.rowcount
        elif kind == "comment":
            c = _parse(Comment, body, number, kind)
            cur = conn.execute(
                "INSERT OR IGNORE INTO comments (id, session_id, target_type, tick, event_id,"
                " range_start, range_end, content, created_us, updated_us, created_by)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    c.id,
                    c.session_id,
                    c.target_type.value,
                    _tick(c.timestep_id, number),
                    c.event_id,
                    c.range_start,
                    c.range_end,
                    c.content,
                    to_us(c.created_at),
                    to_us(c.updated_at),
                    c.created_by,
                ),
            )
            counts["comment"] += cur.rowcount
            skipped += 1 - cur.rowcount
        elif kind == "episode":
            inserted = _import_episode(conn, _parse(EpisodeRecord, body, number, kind))
            episode_count = (episode_count or 0) + (1 if inserted else 0)
            skipped += 0 if inserted else 1
        else:
            raise InvalidRequest(
                f"record {number}: unknown kind {kind!r}; expected one of session, tag,"
                " timestep, tag_application, comment, episode",
                field="kind",
            )
    textindex.catch_up(conn)  # an import leaves the text index current
    if episode_count is not None:
        counts["episode"] = episode_count
    return {**counts, "skipped": skipped}


def _ensure_session(conn: sqlite3.Connection, session_id: str, ts_us: int) -> None:
    conn.execute(
        "INSERT OR IGNORE INTO sessions (session_id, next_tick, created_us, last_us)"
        " VALUES (?, 1, ?, ?)",
        (session_id, ts_us, ts_us),
    )


def _tick(timestep_id: str | None, number: int) -> int | None:
    if timestep_id is None:
        return None
    parsed = parse_timestep_id(timestep_id)
    if parsed is None:
        raise InvalidRequest(f"record {number}: malformed timestep_id {timestep_id!r}")
    return parsed[1]
