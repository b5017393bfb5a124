"""Identifiers that are unique forever.

Timestep ids are derived from the session and its tick (``ts-<session>-<tick>``): ticks are
never reused within a session, so neither is the id, and no separate unique index is needed
on the hot ingest path. Every other object gets a ULID-style id: 48 bits of milliseconds
followed by 80 random bits, monotonic within a process, so ids sort by creation time and two
ids made in the same microsecond still differ.
"""

from __future__ import annotations

import os
import threading
import time

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lower case
_lock = threading.Lock()
_last_ms = 0
_last_rand = 0


def _encode(value: int, length: int) -> str:
    out = []
    for _ in range(length):
        out.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(out))


def ulid() -> str:
    """A 26-character, time-ordered, process-monotonic unique id."""
    global _last_ms, _last_rand
    with _lock:
        now = time.time_ns() // 1_000_000
        if now <= _last_ms:
            now = _last_ms
            _last_rand += 1
        else:
            _last_rand = int.from_bytes(os.urandom(10), "big") >> 1
        _last_ms = now
        return _encode(now, 10) + _encode(_last_rand & ((1 << 80) - 1), 16)


def new_id(prefix: str) -> str:
    return f"{prefix}-{ulid()}"


def timestep_id(session_id: str, tick: int) -> str:
    return f"ts-{session_id}-{tick}"


def parse_timestep_id(value: str) -> tuple[str, int] | None:
    """Split ``ts-<session>-<tick>`` into (session, tick); None if it is not of that form."""
    if not value.startswith("ts-"):
        return None
    session, sep, tick = value[3:].rpartition("-")
    if not sep or not session or not tick.isdigit():
        return None
    return session, int(tick)
