"""Fidelity's rows as export records, and back (``xdb export``/``import``, ``xdb migrate``):
``timestep_hold`` (a pin or submitted evidence), ``memory_record`` (a COLD record's row; its
episode is exported as an episode) and ``compaction`` (a session's count), each row as it is
stored, after the timesteps (a hold's import sets its timestep's tier). An import skips a
row whose key is stored. A restricted export leaves out the records' access policies."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from xdb.errors import InvalidRequest
from xdb.models.common import Level
from xdb.store import cold_records, fidelity
from xdb.store.sqlbuild import Connection, Dialect

KINDS = ("timestep_hold", "memory_record", "compaction")
_HOLD_COLUMNS = "session_id, tick, kind, holder, reason, tokens, created_us, created_by"


def export_records(
    read: Callable[[str], Iterable[Sequence[Any]]], restricted: bool
) -> Iterator[dict[str, Any]]:
    names = _HOLD_COLUMNS.replace(" ", "").split(",")
    # Pins name their agents and reasons: not for a restricted export (nor are the counts).
    for row in (
        ()
        if restricted
        else read(f"SELECT {_HOLD_COLUMNS} FROM timestep_holds ORDER BY session_id, tick")
    ):
        fields = dict(zip(names, row, strict=True))
        fields["hold"] = fields.pop("kind")
        yield {"kind": "timestep_hold", **fields}
    for row in read(
        f"SELECT {cold_records.RECORD_COLUMNS} FROM memory_records ORDER BY start_us, id"
    ):
        record = cold_records.record_row(row)
        fields = dict(record.__dict__)
        if restricted:
            fields.pop("access_policy_id")
        yield {"kind": "memory_record", **fields}
    if restricted:  # a count names its session, which may hold nothing the reader sees
        return
    for session, count, last in read("SELECT session_id, count, last_us FROM compactions"):
        yield {"kind": "compaction", "session_id": session, "count": count, "last_us": last}


def _record(body: dict[str, Any]) -> cold_records.RecordRow:
    """A record's row from its export record, checked (raises ValueError, KeyError)."""
    inner = body["body"]
    inner = json.loads(inner) if isinstance(inner, str) else inner
    if not isinstance(inner, dict):
        raise ValueError("body must be an object")

    def whole(name: str) -> int | None:
        value = body.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} must be a whole number")
        return value

    def text(name: str) -> str | None:
        value = body.get(name)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"{name} must be text")
        return value

    required = {n: whole(n) for n in ("start_us", "end_us", "tokens", "timesteps", "created_us")}
    if any(v is None for v in required.values()):
        raise ValueError("start_us, end_us, tokens, timesteps and created_us are required")
    if not text("id"):
        raise ValueError("id is required")
    return cold_records.RecordRow(
        id=str(text("id")),
        level=Level(body["level"]).value,
        namespace=str(text("namespace") or ""),
        session_id=text("session_id"),
        tick_start=whole("tick_start"),
        tick_end=whole("tick_end"),
        start_us=int(required["start_us"] or 0),
        end_us=int(required["end_us"] or 0),
        tokens=int(required["tokens"] or 0),
        timesteps=int(required["timesteps"] or 0),
        body=inner,
        created_us=int(required["created_us"] or 0),
        access_policy_id=text("access_policy_id"),
        merged_into=text("merged_into"),
    )


def import_record(
    conn: Connection, d: Dialect, body: dict[str, Any], number: int, kind: str
) -> int:
    """Store one record unless its key is stored; 1 if new."""
    m = d.mark
    try:
        if kind == "timestep_hold":
            key = (body["session_id"], body["tick"], body["hold"], body["holder"])
            if conn.execute(
                f"SELECT 1 FROM timestep_holds WHERE session_id = {m} AND tick = {m}"
                f" AND kind = {m} AND holder = {m}",
                key,
            ).fetchone():
                return 0
            conn.execute(
                f"INSERT INTO timestep_holds ({_HOLD_COLUMNS}) VALUES ({d.marks(8)})",
                (*key, body.get("reason"), int(body["tokens"]), int(body["created_us"]),
                 body["created_by"]),
            )  # fmt: skip
            fidelity.refresh(conn, d, body["session_id"], [int(body["tick"])])
            return 1
        if kind == "memory_record":
            record = _record(body)
            if cold_records.records_by_ids(conn, d, [record.id], merged=True):
                return 0
            cold_records.insert_record(conn, d, record)
            return 1
        if kind == "compaction":
            if conn.execute(
                f"SELECT 1 FROM compactions WHERE session_id = {m}", (body["session_id"],)
            ).fetchone():
                return 0
            conn.execute(
                f"INSERT INTO compactions (session_id, count, last_us) VALUES ({d.marks(3)})",
                (body["session_id"], int(body["count"]), int(body["last_us"])),
            )
            return 1
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidRequest(f"record {number} ({kind}): malformed ({exc})") from None
    raise InvalidRequest(f"record {number}: unknown kind {kind!r}")
