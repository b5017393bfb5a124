"""Time as stored (integer microseconds since the epoch, UTC) and as shown (ISO 8601).

An ISO time without a zone is read as UTC; this is documented in docs/reference.md.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def as_utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def to_us(value: datetime) -> int:
    delta = as_utc(value) - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_us(value: int) -> datetime:
    # Epoch plus a timedelta: half the time of fromtimestamp().replace(), on every row read.
    return _EPOCH + timedelta(microseconds=value)


def now_us() -> int:
    return time.time_ns() // 1000
