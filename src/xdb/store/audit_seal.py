"""The audit log's head seal: with ``XDB_AUDIT_KEY`` set, the number and hash of the log's
newest record, MACed with the key, kept beside the log (table ``audit_seal``, one row).

A hash chain shows every record edited, inserted, reordered or removed *before* its newest
one, but not the newest ones removed: what is left is a valid shorter chain. The seal says
where the chain ends, and without the key no one can write a seal of their own, so
``verify`` catches removal from the end (``check``).

Every append moves the seal to the new head in the append's own transaction (one UPDATE; no
key, no seal and no cost), but only from the head it seals now: a seal left behind by
removed records stays behind, whatever is appended after, and ``verify`` goes on saying so.
A log's first record writes the seal; a log that has records when this table is made (a
database from before it) is sealed then, if the key is known, else never (``migrate``).
"""

from __future__ import annotations

import hmac
from functools import lru_cache
from typing import Any, NamedTuple

from xdb.store import placement

__all__ = ["PLACES", "SCHEMA", "Seal", "advance", "check", "mac", "migrate", "read", "statement"]

SCHEMA = (
    "CREATE TABLE audit_seal ("
    " id INTEGER PRIMARY KEY, seq BIGINT NOT NULL, hash TEXT NOT NULL, mac TEXT NOT NULL)"
)
PLACES = placement.declared(
    SCHEMA,
    placement.local("audit_seal", "one row, moved in each append's transaction: beside the log"),
)


class Seal(NamedTuple):
    seq: int
    hash: str
    mac: str


@lru_cache(maxsize=16)  # an append's start is the last one's end: its MAC is known
def mac(key: bytes, seq: int, head_hash: str) -> str:
    """The seal's MAC of a head (a label first: no record's hash is computed over it)."""
    return hmac.new(key, f"xdb audit seal\x1f{seq}\x1f{head_hash}".encode(), "sha256").hexdigest()


def advance(conn: Any, mark: str, key: bytes, start: tuple[int, str], end: tuple[int, str]) -> None:
    """Move the seal from ``start`` (the head the append chained from) to ``end``, in the
    append's transaction. Only a seal of ``start`` moves (its MAC says so): one left behind
    by records removed from the end stays where it was."""
    conn.execute(*statement(mark, key, start, end))


def statement(
    mark: str, key: bytes, start: tuple[int, str], end: tuple[int, str]
) -> tuple[str, tuple[Any, ...]]:
    """``advance``'s SQL and values (PostgreSQL runs it in the append's INSERT: one round
    trip, not two)."""
    m = mark
    values = (end[0], end[1], mac(key, *end), mac(key, *start))
    if start[0] == 0:
        # A new log's first record writes the seal (a log emptied under a seal does not).
        sql = (
            f"INSERT INTO audit_seal (id, seq, hash, mac) VALUES (1, {m}, {m}, {m})"
            " ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash,"
            f" mac = excluded.mac WHERE audit_seal.mac = {m}"
        )
    else:
        sql = f"UPDATE audit_seal SET seq = {m}, hash = {m}, mac = {m} WHERE id = 1 AND mac = {m}"
    return sql, values


def read(conn: Any) -> Seal | None:
    row = conn.execute("SELECT seq, hash, mac FROM audit_seal WHERE id = 1").fetchone()
    return None if row is None else Seal(int(row[0]), str(row[1]), str(row[2]))


def migrate(conn: Any, mark: str, key: bytes | None) -> None:
    """Make the table; seal the head of a log that has records already, when the key is
    known to the process that opens the database first (it is to every process that writes
    a keyed log: a record chained without the key does not verify with it)."""
    conn.execute(SCHEMA)
    row = conn.execute("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1").fetchone()
    if key and row is not None:
        seq, head_hash = int(row[0]), str(row[1])
        conn.execute(
            f"INSERT INTO audit_seal (id, seq, hash, mac) VALUES (1, {mark}, {mark}, {mark})",
            (seq, head_hash, mac(key, seq, head_hash)),
        )


def check(seal: Seal | None, last: tuple[int, str] | None, key: bytes) -> tuple[int, str] | None:
    """Whether the chain, which verified up to ``last`` (its newest record's number and
    hash; None: no records), ends where the seal says: None, or the first record that does
    not hold and why."""
    if seal is None:
        if last is None:
            return None  # a new log, nothing recorded yet
        return last[0] + 1, (
            "the log has no head seal (XDB_AUDIT_KEY): its newest records may have been "
            "removed along with it"
        )
    after = 0 if last is None else last[0]
    if not hmac.compare_digest(seal.mac, mac(key, seal.seq, seal.hash)):
        return after + 1, "the head seal does not match its MAC: edited, or made with another key"
    if seal.seq > after:
        return after + 1, (
            f"the newest records were removed: the head seal names record {seal.seq}, "
            f"the log ends at {after}"
        )
    if last is not None and (seal.seq, seal.hash) != last:
        return min(seal.seq + 1, after), (
            f"the log does not end at the record its head seal names ({seal.seq}): records "
            "were removed from its end and others appended, or appended without the key"
        )
    return None
