"""Opaque, tamper-evident paging cursors.

A cursor holds the keyset position of the last row returned and a digest of the filters it
was made for, so a cursor reused with other filters is refused instead of silently skipping.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from typing import Any

from xdb.errors import InvalidRequest


def digest(filters: dict[str, Any]) -> str:
    text = json.dumps(filters, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def encode(position: list[Any], filters_digest: str) -> str:
    raw = json.dumps({"v": 1, "p": position, "f": filters_digest}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode(cursor: str, filters_digest: str, field: str = "cursor") -> list[Any]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode()))
        position = data["p"]
        ok = data.get("v") == 1 and isinstance(position, list)
    except (ValueError, KeyError, TypeError, binascii.Error):
        ok = False
    if not ok:
        raise InvalidRequest(
            "cursor is malformed; pass the next_cursor of a previous page unchanged, or omit it",
            field=field,
        )
    if data.get("f") != filters_digest:
        raise InvalidRequest(
            "cursor was made for different filters; repeat the original filters or omit cursor",
            field=field,
        )
    return list(position)


def decode_pair(cursor: str, filters_digest: str, field: str = "cursor") -> tuple[int, int]:
    """A cursor holding a keyset position of two whole numbers (a timestep page's)."""
    position = decode(cursor, filters_digest, field)
    if len(position) != 2 or not all(isinstance(v, int) for v in position):
        raise InvalidRequest("cursor is malformed; omit it to start again", field=field)
    return position[0], position[1]
