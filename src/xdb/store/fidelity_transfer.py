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
from xdb.store import fidelity
from xdb.store.sqlbuild import Connection, Dialect

KINDS = ("timestep_hold", "memory_record", "compaction")
_HOLD_COLUMNS = "session_id, tick, kind, holder, reason, tokens, created_us, created_by"


def export_records(
    read: Callable[[str], Iterable[Sequence[Any]]], restricted: bool
) -> Iterator[dict[str, Any]]:
    names = _HOLD_COLUMNS.replace(" ", "").split(",")
    for row in read(f"SELECT {_HOLD_COLUMNS} FROM timestep_holds ORDER BY session_id, tick"):
        fields = dict(zip(names, row, strict=True))
        fields["hold"] = fields.pop("kind")
        yield {"kind": "timestep_hold", **fields}
    for row in read(f"SELECT {fidelity.RECORD_COLUMNS} FROM memory_records ORDER BY start_us, id"):
        record = fidelity.record_row(row)
        fields = dict(record.__dict__)
        if restricted:
            fields.pop("access_policy_id")
        yield {"kind": "memory_record", **fields}
    if restricted:  # a count names its session, which may hold nothing the reader sees
        return
    for session, count, last in read("SELECT session_id, count, last_us FROM compactions"):
        yield {"kind": "compaction", "session_id": session, "count": count, "last_us": last}


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
            fields = {"access_policy_id": None, **body}
            if isinstance(fields["body"], str):
                fields["body"] = json.loads(fields["body"])
            record = fidelity.RecordRow(**fields)
            if fidelity.records_by_ids(conn, d, [record.id]):
                return 0
            fidelity.insert_record(conn, d, record)
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
