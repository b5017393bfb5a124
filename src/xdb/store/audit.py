"""The audit log: an append-only, hash-chained record of every timestep as recorded (its
full activations, before any policy) and of every call, in SQL both stores run alike.

Each record's hash is SHA-256 (HMAC-SHA-256 when ``XDB_AUDIT_KEY`` is set: then no one
without the key can forge a chain) over the previous record's hash and the record's own
fields, so editing, removing, inserting or reordering a record breaks the chain at that
record, and ``verify`` names it. Retention (``prune``) removes the oldest records and
appends a checkpoint naming the last record removed and its hash, so the chain still
verifies from what is left and a removal without a checkpoint does not. With the key, a
seal beside the log says where the chain ends, so removing its newest records is caught
too (``audit_seal``); without it, a log cut short is a valid shorter chain.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, TypeVar

import zstandard
from pydantic_core import to_json

from xdb.store import audit_seal, placement
from xdb.store.sqlbuild import Connection, Dialect, add_given, many

GENESIS = "0" * 64
CHECKPOINT_EVERY = 1000  # records between periodic checkpoints
KEY_ENV = "XDB_AUDIT_KEY"

# {key}: SQLite's INTEGER PRIMARY KEY is the table's rowid (no second B-tree to write on
# every append); PostgreSQL's BIGINT.
SCHEMA = """
CREATE TABLE audit_log (
    seq {key} PRIMARY KEY,
    at_us BIGINT NOT NULL,
    kind TEXT NOT NULL,
    caller TEXT NOT NULL,
    operation TEXT NOT NULL,
    body TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
)
"""
# One chain, one order: each append reads the head and writes the next link under
# APPEND_LOCK, so the log stays where that lock is (docs/scaling.md, its measured cost).
PLACES = placement.declared(
    SCHEMA,
    placement.local(
        "audit_log",
        "one hash chain over every call: each append chains off the head under one lock,"
        " which is one node's",
    ),
)
COLUMNS = "seq, at_us, kind, caller, operation, body, prev_hash, hash"
# SQLite keeps a body this long zstd-compressed, a BLOB in the same column: a batch's body is
# all of its timesteps (~0.7 MB for 1000 tokens), and writing it was half of what the log
# cost a batch (2.7 of 5.3 us a token, measured; compressed ~10x in ~0.6 us). PostgreSQL
# compresses long text by itself (TOAST). Hashes stay over the text.
COMPRESS_FROM = 8192  # characters
# The longest body compressed, in bytes of UTF-8 (a batch of ~80k tokens); a longer one is
# kept as text. Its frame states its size, and reading a body allocates that much, so a
# frame edited to state more is not read at all (``_text``).
PACKED_MOST = 64 << 20
_INSERT_SQLITE = f"INSERT INTO audit_log ({COLUMNS}) VALUES ({','.join(['?'] * 8)})"
_INSERT_POSTGRES = f"INSERT INTO audit_log ({COLUMNS}) VALUES ({','.join(['%s'] * 8)})"
# PostgreSQL: one lock for every append, held to commit, so two writers never chain off
# the same head (an arbitrary constant; the session lock's is another).
APPEND_LOCK = 7_362_912_001


class AuditEntry(NamedTuple):
    """A record to append; the log gives it its number and hashes."""

    at_us: int
    kind: str  # timestep, timesteps (a batch), call, checkpoint
    caller: str
    operation: str
    # The body, or its JSON already encoded (``timestep_entries``: hashed as given).
    body: dict[str, Any] | str


T = TypeVar("T")


class PendingCall:
    """A call's audit record, waiting for the call's first write: the store appends it in
    that write's own transaction (``carried``), so no write is committed without it."""

    def __init__(self, entry: AuditEntry) -> None:
        self.entry = entry
        self.taken = False


def carried(
    fn: Callable[[Any], T], d: Dialect, lock: bool, pending: PendingCall | None
) -> Callable[[Any], T]:
    """``fn`` (a write's job), also appending the call's ``pending`` record in its
    transaction when the call has not written before. Take it on the calling thread: a
    write may run on another (the SQLite writer's batches)."""
    if pending is None or pending.taken:
        return fn
    pending.taken = True
    entry = pending.entry

    def job(conn: Any) -> T:
        result = fn(conn)
        append(conn, d, [entry], lock)
        return result

    return job


class AuditRecord(NamedTuple):
    seq: int
    at_us: int
    kind: str
    caller: str
    operation: str
    body: str  # canonical JSON, as hashed
    prev_hash: str
    hash: str


# The body is hashed as stored, so its JSON need not be canonical, only compact.
_ENCODER = json.JSONEncoder(separators=(",", ":"))


def canonical(body: dict[str, Any]) -> str:
    """Compact JSON: pydantic_core's encoder (~3x json's, on the record path), or json's
    ASCII escapes for text it refuses (a lone surrogate in a free-form value)."""
    try:
        return to_json(body).decode()
    except (ValueError, UnicodeError):
        return _ENCODER.encode(body)


def signing_key() -> bytes | None:
    key = os.environ.get(KEY_ENV)
    return key.encode() if key else None


# Characters of a body encoded at a time (``digest``): 32 kB of ASCII, which malloc serves
# from memory it reuses (from 128 kB an allocation is a fresh mapping of its own).
_PIECE = 32_768


def digest(
    prev_hash: str,
    seq: int,
    at_us: int,
    kind: str,
    caller: str,
    op: str,
    body: str,
    key: bytes | None = None,
    packer: _Packer | None = None,
) -> str:
    """The record's hash; with ``packer``, the body's encoding goes to it too, compressed
    in the same pass (``_link``)."""
    # The fields, then the body, fed in parts: the same bytes hashed as one message,
    # without first copying a batch's body (~800 kB for 1000 tokens) into a joined string
    # and then its encoding (~0.6 of ~1 ms a batch; a lone record's is the same either way).
    # A long body's encoding goes in pieces: one ~800 kB bytes object was a fresh mapping
    # each batch, faulted in page by page (append 1.24-1.32 ms a batch; in pieces 1.05-1.10).
    fields = f"{prev_hash}\x1f{seq}\x1f{at_us}\x1f{kind}\x1f{caller}\x1f{op}\x1f"
    h = hmac.new(key, None, hashlib.sha256) if key else hashlib.sha256()
    h.update(fields.encode(errors="surrogatepass"))
    for at in range(0, len(body), _PIECE):  # (one piece is ``body`` itself, not a copy)
        piece = body[at : at + _PIECE].encode(errors="surrogatepass")
        h.update(piece)
        if packer is not None:
            packer.append(piece)
    return h.hexdigest()


def head(conn: Connection) -> tuple[int, str]:
    """The last record's number and hash ((0, GENESIS) for an empty log)."""
    row = conn.execute("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1").fetchone()
    return (0, GENESIS) if row is None else (int(row[0]), str(row[1]))


# How the key is passed: ``FROM_ENV`` reads ``XDB_AUDIT_KEY`` now; a store reads it once,
# when it opens, and passes what it read (bytes, or None for none) with every append.
FROM_ENV: Any = object()


class _Packer:
    """A body's encoded pieces, zstd-compressed as they come (``COMPRESS_FROM``), in a
    frame that states their ``size`` in bytes."""

    def __init__(self, size: int) -> None:
        self._zstd = zstandard.ZstdCompressor(level=1).compressobj(size=size)
        self.out: list[bytes] = []

    def append(self, piece: bytes) -> None:
        self.out.append(self._zstd.compress(piece))

    def packed(self) -> bytes:
        self.out.append(self._zstd.flush())
        return b"".join(self.out)


def _link(
    at: tuple[int, str], e: AuditEntry, key: bytes | None, pack: bool
) -> tuple[AuditRecord, str | bytes]:
    """``e`` chained after ``at``, and its body as stored: compressed when ``pack`` and it
    is long (SQLite's, ``COMPRESS_FROM``), in the pass that hashes it."""
    seq = at[0] + 1
    body = e.body if isinstance(e.body, str) else canonical(e.body)
    packer = None
    if pack and len(body) >= COMPRESS_FROM:
        # (isascii is a flag of the string's, not a scan: a batch's body is ASCII mostly.)
        size = len(body) if body.isascii() else len(body.encode(errors="surrogatepass"))
        packer = _Packer(size) if size <= PACKED_MOST else None
    h = digest(at[1], seq, e.at_us, e.kind, e.caller, e.operation, body, key, packer)
    record = AuditRecord(seq, e.at_us, e.kind, e.caller, e.operation, body, at[1], h)
    return record, body if packer is None else packer.packed()


def append(
    conn: Connection,
    d: Dialect,
    entries: Sequence[AuditEntry],
    lock: bool,
    known_head: tuple[int, str] | None = None,
    key: bytes | None = FROM_ENV,
) -> tuple[int, str]:
    """Chain ``entries`` onto the log inside the caller's transaction; the new head.
    ``known_head``: the head as this connection last left it, when nothing else can have
    written since (the SQLite writer knows)."""
    if not entries:
        return known_head or head(conn)
    if lock:
        conn.execute(f"SELECT pg_advisory_xact_lock({d.mark})", (APPEND_LOCK,))
    if key is FROM_ENV:
        key = signing_key()
    start = known_head or head(conn)
    records: list[tuple[Any, ...]] = []  # as stored (``_link``)
    at = start
    pack = d.mark == "?"
    for entry in entries:
        record, stored = _link(at, entry, key, pack)
        records.append(record if stored is record.body else (*record[:5], stored, *record[6:]))
        at = record.seq, record.hash
        if record.seq // CHECKPOINT_EVERY > (record.seq - 1) // CHECKPOINT_EVERY:
            # Every thousand records, a checkpoint naming the chain's head so far (right
            # after that record, however many are appended together): a value to keep
            # outside the database and compare later (verify checks each one).
            mark = {"records_through": record.seq, "head": record.hash}
            checkpoint = AuditEntry(entry.at_us, "checkpoint", "xdb", "audit.checkpoint", mark)
            made, _ = _link(at, checkpoint, key, False)
            records.append(made)
            at = made.seq, made.hash
    sql = _INSERT_SQLITE if d.mark == "?" else _INSERT_POSTGRES
    end = at
    if key and d.arrays and len(records) == 1:
        # PostgreSQL: the seal moves in the INSERT's own statement (a round trip less).
        seal_sql, seal_values = audit_seal.statement(d.mark, key, start, end)
        conn.execute(f"WITH appended AS ({sql}) {seal_sql}", (*records[0], *seal_values))
        return end
    if len(records) == 1:
        conn.execute(sql, records[0])
    else:
        many(conn, sql, records)
    if key:
        audit_seal.advance(conn, d.mark, key, start, end)
    return end


def read(
    conn: Connection,
    d: Dialect,
    after: int,
    limit: int,
    kind: str | None,
    caller: str | None,
    operation: str | None,
) -> list[AuditRecord]:
    m = d.mark
    clauses, params = [f"seq > {m}"], [after]
    add_given(
        clauses,
        params,
        ((f"kind = {m}", kind), (f"caller = {m}", caller), (f"operation = {m}", operation)),
    )
    sql = f"SELECT {COLUMNS} FROM audit_log WHERE {' AND '.join(clauses)} ORDER BY seq LIMIT {m}"
    return [_record(r) for r in conn.execute(sql, [*params, limit]).fetchall()]


UNREADABLE = '{"unreadable":"the stored body is not a compressed text"}'


def _text(body: str | bytes) -> str:
    """A stored body as text: SQLite's compressed ones decompressed. One that is not exactly
    one frame of at most ``PACKED_MOST`` bytes, as stated in its header (edited in the file),
    reads as ``UNREADABLE``, which no hash matches; nothing is allocated for more."""
    if isinstance(body, str):
        return body
    try:
        size = zstandard.frame_content_size(body)
        if not 0 <= size <= PACKED_MOST:
            return UNREADABLE
        # (zstd stops a frame whose content outgrows its stated size.)
        reader = zstandard.ZstdDecompressor().decompressobj()
        text = reader.decompress(body)
        if not reader.eof or reader.unused_data or len(text) != size:
            return UNREADABLE
        return text.decode(errors="surrogatepass")
    except (zstandard.ZstdError, UnicodeError):
        return UNREADABLE


def _record(r: Sequence[Any]) -> AuditRecord:
    return AuditRecord(int(r[0]), int(r[1]), r[2], r[3], r[4], _text(r[5]), r[6], r[7])


def scan(conn: Connection, d: Dialect, batch: int = 5000) -> Iterator[AuditRecord]:
    """Every record in order, a batch at a time."""
    after = -1
    while True:
        rows = conn.execute(
            f"SELECT {COLUMNS} FROM audit_log WHERE seq > {d.mark} ORDER BY seq LIMIT {d.mark}",
            (after, batch),
        ).fetchall()
        if not rows:
            return
        for r in rows:
            yield _record(r)
        after = int(rows[-1][0])


class Verdict(NamedTuple):
    records: int
    first_bad: int | None  # the seq of the first record that does not verify
    reason: str | None
    head: str  # the hash of the last record that verified


def verify(
    records: Iterable[AuditRecord], seal: audit_seal.Seal | None = None, sealed: bool = False
) -> Verdict:
    """Walk the chain: numbers consecutive, each record linked to the one before, each hash
    its fields' own. A log that starts after 1 must be continued by a checkpoint that
    names the record before its first (retention removed those). ``sealed``: with the key,
    the chain must also end where ``seal`` (the stored head seal, or None) says."""
    count, expected_seq, prev = 0, 0, GENESIS
    key = signing_key()
    last: tuple[int, str] | None = None
    first: AuditRecord | None = None
    accounted = True  # whether the records before the first are (a checkpoint says so)
    for r in records:
        if first is None:
            first = r
            expected_seq, prev = r.seq, r.prev_hash if r.seq > 1 else GENESIS
            accounted = r.seq == 1
        if r.seq != expected_seq:
            why = "a record before it is missing" if r.seq > expected_seq else "out of order"
            return Verdict(count, r.seq, why, prev)
        if r.prev_hash != prev:
            return Verdict(count, r.seq, "its link to the record before does not match", prev)
        if digest(prev, r.seq, r.at_us, r.kind, r.caller, r.operation, r.body, key) != r.hash:
            return Verdict(count, r.seq, "its content does not match its hash", prev)
        if r.kind == "checkpoint":
            stated = object_of(r.body)
            if stated is None:
                return Verdict(count, r.seq, "it is a checkpoint that says nothing", prev)
            if "head" in stated and stated["head"] != prev:
                return Verdict(count, r.seq, "the head it names is not the chain's", prev)
            if not accounted:
                accounted = (
                    stated.get("purged_through") == first.seq - 1
                    and stated.get("purged_hash") == first.prev_hash
                )
        count += 1
        expected_seq, prev = r.seq + 1, r.hash
        last = r.seq, r.hash
    if first is not None and not accounted:
        why = "the records before it were removed without a checkpoint"
        return Verdict(count, first.seq, why, prev)
    if sealed and key:
        wrong = audit_seal.check(seal, last, key)
        if wrong is not None:
            return Verdict(count, wrong[0], wrong[1], prev)
    return Verdict(count, None, None, prev)


def object_of(text: str) -> dict[str, Any] | None:
    """A body's JSON object; None for anything else (a record edited in the file)."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def verify_snapshot(conn: Connection, d: Dialect) -> Verdict:
    """``verify`` over one snapshot of the log (its batches in one read transaction): a
    prune or an append while it reads is not mistaken for a removed record."""
    conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ" if d.arrays else "BEGIN")
    try:
        return verify(scan(conn, d), audit_seal.read(conn), sealed=True)
    finally:
        conn.execute("COMMIT")


def prune(conn: Connection, d: Dialect, before_us: int, at_us: int, lock: bool) -> int:
    """Remove the records older than ``before_us`` (never the last one) and append the
    checkpoint that accounts for them; how many were removed."""
    m = d.mark
    if lock:
        conn.execute(f"SELECT pg_advisory_xact_lock({m})", (APPEND_LOCK,))
    last, _ = head(conn)
    row = conn.execute(
        f"SELECT seq, hash FROM audit_log WHERE at_us < {m} AND seq < {m}"
        " ORDER BY seq DESC LIMIT 1",
        (before_us, last),
    ).fetchone()
    if row is None:
        return 0
    through, through_hash = int(row[0]), str(row[1])
    first = conn.execute("SELECT min(seq) FROM audit_log").fetchone()[0]
    conn.execute(f"DELETE FROM audit_log WHERE seq <= {m}", (through,))
    # (No index on at_us: every append would pay for it; a prune reads the table once.)
    body = {"purged_through": through, "purged_hash": through_hash, "records": through - first + 1}
    append(conn, d, [AuditEntry(at_us, "checkpoint", "xdb", "audit.prune", body)], lock=False)
    return int(through - first + 1)
