"""A lone record's audit record, chained from its row after its commit (``audit_pending``):
the log holds what it held when each record wrote its own, in the order of the writes;
nothing acknowledged is lost to a SIGKILL; a key holder never signs a row it did not record.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import xdb
from xdb.policy.audit_operations import AuditRecordOut
from xdb.store import audit
from xdb.store.sqlbuild import SQLITE
from xdb.store.sqlite import audit_pending
from xdb.store.sqlite.store import SQLiteStore

AUDITOR = xdb.Caller(id="audit", roles=("auditor",))
RECORDER = str(Path(__file__).with_name("_recorder.py"))

# Contents the record path writes itself (row_step) and those it leaves to the encoder.
TRICKY = [
    "plain",
    'a "quoted" word',
    "back\\slash",
    "tab\there and a newline\n",
    "naïve café, 東京",
    " ",
    "\x00nul",
]


def _rows(path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def _bodies(path: Path) -> list[tuple[str, str, str, str]]:
    return [
        (kind, caller, operation, body)
        for kind, caller, operation, body in _rows(
            path, "SELECT kind, caller, operation, body FROM audit_log ORDER BY seq"
        )
    ]


def _record_tricky(db: xdb.Database) -> None:
    for i, content in enumerate(TRICKY):
        db.record(
            event_type="output" if i % 2 else "input",
            content=content,
            token_id=i if i % 3 else None,
            timestamp=datetime(2026, 1, 1, 0, 0, i, tzinfo=UTC),
            event_id="ev" if i in (2, 3) else None,
            event_start=i == 2,
            event_end=i == 3,
            concept_activations={"c/x": 0.5, 'org/"é"::T': 0.25} if i % 2 else {},
        )


def test_a_pending_record_is_chained_as_it_would_have_been_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    later, at_once = tmp_path / "later.sqlite3", tmp_path / "at-once.sqlite3"
    with xdb.connect(later, session_id="s") as db:
        _record_tricky(db)
        assert _rows(later, "SELECT count(*) FROM audit_log") == [(0,)]  # all pending
    monkeypatch.setenv(audit.KEY_ENV, "k")  # a keyed store appends with each record
    with xdb.connect(at_once, session_id="s") as db:
        _record_tricky(db)
        assert _rows(at_once, "SELECT count(*) FROM audit_log") != [(0,)]
    assert len(_bodies(later)) == len(TRICKY)
    assert _bodies(later) == _bodies(at_once)  # the same records, byte for byte
    monkeypatch.delenv(audit.KEY_ENV)
    with xdb.connect(later) as db:
        assert db.as_caller(AUDITOR).audit_verify().ok


def test_records_are_chained_every_seal_every_and_when_the_log_is_read(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    with xdb.connect(path, session_id="s") as db:
        for i in range(audit_pending.SEAL_EVERY - 1):
            db.record(event_type="output", content=f"t{i}")
        assert _rows(path, "SELECT count(*) FROM audit_log") == [(0,)]
        db.record(event_type="output", content="the last of a seal")
        assert _rows(path, "SELECT count(*) FROM audit_log") == [(audit_pending.SEAL_EVERY,)]
        db.record(event_type="output", content="pending again")
        listed = db.as_caller(AUDITOR).audit_list(after=audit_pending.SEAL_EVERY).records
        assert [r.body.get("content") for r in listed[:1]] == ["pending again"]
        assert _rows(path, "SELECT position FROM index_watermarks WHERE name = ?", "audit_pending")


def test_the_log_keeps_the_order_of_writes_across_connections(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    with xdb.connect(path, session_id="a") as first, xdb.connect(path, session_id="b") as other:
        first.record(event_type="input", content="one")
        first.record(event_type="input", content="two")
        other.create_tag(tag_type="custom", name="between")  # a call of the other handle
        first.record(event_type="input", content="three")
        records = other.as_caller(AUDITOR).audit_list(limit=100).records
    shown = [(r.kind, r.operation, r.body.get("content")) for r in records][:4]
    assert shown == [
        ("timestep", "xdb.record", "one"),
        ("timestep", "xdb.record", "two"),
        ("call", "xdb.create_tag", None),
        ("timestep", "xdb.record", "three"),
    ]


def test_a_compacted_row_was_chained_before_it_went(tmp_path: Path) -> None:
    with xdb.connect(tmp_path / "x.sqlite3", session_id="s") as db:
        for i in range(4):
            db.record(event_type="input", content=f"step {i}", concept_activations={"c/x": 0.5})
        assert db.compact(keep_tokens=0).timesteps_compacted == 3
        auditor = db.as_caller(AUDITOR)
        steps = auditor.audit_list(kind="timestep", limit=100).records
        assert [r.body["content"] for r in steps] == [f"step {i}" for i in range(4)]
        assert steps[0].body["activations"] == {"c/x": 0.5}
        assert auditor.audit_verify().ok


def test_a_sigkill_loses_no_acknowledged_records_audit_record(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    wanted = audit_pending.SEAL_EVERY + 40  # some chained by a seal, the rest left pending
    child = subprocess.Popen(
        [sys.executable, RECORDER, str(path), "s", "--batch-size", "1", "--activations", "2"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "ready\n"
        for _ in range(wanted):
            assert child.stdout.readline().startswith("ack ")
        child.send_signal(signal.SIGKILL)
        child.wait()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()
    with xdb.connect(path) as db:
        auditor = db.as_caller(AUDITOR)
        steps: list[AuditRecordOut] = []
        while page := auditor.audit_list(
            kind="timestep", limit=1000, after=steps[-1].seq if steps else 0
        ).records:
            steps.extend(page)
        assert [r.body["content"] for r in steps][:wanted] == [
            f"tok{n}" for n in range(1, wanted + 1)
        ]
        assert {(r.caller, r.operation) for r in steps} == {("self", "xdb.record")}
        assert auditor.audit_verify().ok


def test_a_key_holder_does_not_sign_a_row_put_in_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.sqlite3"
    monkeypatch.setenv(audit.KEY_ENV, "the key")
    with xdb.connect(path, session_id="s") as db:
        db.record(event_type="input", content="recorded by the key holder")
        assert db.as_caller(AUDITOR).audit_verify().ok
    (last,) = _rows(path, "SELECT max(seq) FROM timesteps")[0]
    conn = sqlite3.connect(path)  # a forger who can write the file but has no key
    conn.execute(
        "INSERT INTO timesteps (seq, session_id, tick, ts_us, event_type, role, content,"
        " audit_at, audit_caller, audit_operation)"
        " VALUES (?, 's', 99, 1, 'input', 'user', 'forged', 1, 'admin', 'xdb.record')",
        (last + 1,),
    )
    conn.execute(
        "UPDATE index_watermarks SET position = ? WHERE name = 'audit_pending'", (last + 1,)
    )
    conn.commit()
    conn.close()
    with xdb.connect(path) as db:
        found = db.as_caller(AUDITOR).audit_verify()
    assert not found.ok
    (forged,) = _rows(path, "SELECT seq FROM audit_log WHERE body LIKE '%forged%'")
    assert found.first_bad_seq == forged[0]


def test_a_calls_record_carried_by_a_log_write_follows_the_pending_records(
    tmp_path: Path,
) -> None:
    path = tmp_path / "x.sqlite3"
    with xdb.connect(path, session_id="a") as first:
        first.record(event_type="input", content="pending")
        other = SQLiteStore(path)
        try:
            entry = audit.AuditEntry(1, "call", "b", "xdb.tag", {"allowed": True})
            # A call whose first write keeps the tail.
            other.for_call(None, audit.PendingCall(entry)).claim_session("b-session", 1)
        finally:
            other.close()
        records = first.as_caller(AUDITOR).audit_list(limit=10).records
    assert [(r.kind, r.operation) for r in records[:2]] == [
        ("timestep", "xdb.record"),
        ("call", "xdb.tag"),
    ]


def test_handles_taking_turns_still_chain_every_seal_every_with_checkpoints(
    tmp_path: Path,
) -> None:
    path = tmp_path / "x.sqlite3"
    with xdb.connect(path, session_id="a") as first, xdb.connect(path, session_id="b") as other:
        for i in range(1100):
            (first if i % 2 else other).record(event_type="output", content=f"t{i}")
            if i + 1 == audit_pending.SEAL_EVERY:  # the record that makes 500, whoever's
                chained = _rows(path, "SELECT count(*) FROM audit_log WHERE kind = 'timestep'")
                assert chained == [(audit_pending.SEAL_EVERY,)]
        assert first.as_caller(AUDITOR).audit_verify().ok
    marks = _rows(path, "SELECT seq, body FROM audit_log WHERE kind = 'checkpoint'")
    assert [(seq, json.loads(body)["records_through"]) for seq, body in marks] == [(1001, 1000)]


def _with_the_write_lock_held(path: Path, fn: Callable[[], object]) -> bool:
    """Whether ``fn`` returned within 10 s while another connection held the file's write
    lock (the lock is let go either way)."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    worker = threading.Thread(target=fn, daemon=True)
    try:
        worker.start()
        worker.join(10)
        return not worker.is_alive()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        worker.join()


def test_reading_the_log_with_nothing_pending_takes_no_write_lock(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    with xdb.connect(path, session_id="s") as db:
        db.record(event_type="input", content="one")
        assert db.as_caller(AUDITOR).audit_verify().ok  # chains it
    store = SQLiteStore(path)  # (a call's own audit record is a write: the store's verify)
    try:
        verdicts: list[bool] = []
        assert _with_the_write_lock_held(
            path, lambda: verdicts.append(store.audit_verify().first_bad is None)
        )
        assert verdicts == [True]
    finally:
        store.close()


def test_close_does_not_wait_for_another_writer(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    db = xdb.connect(path, session_id="s")
    db.record(event_type="input", content="left pending")
    assert _with_the_write_lock_held(path, db.close)
    with xdb.connect(path) as again:  # whoever opens the file next chains it
        steps = again.as_caller(AUDITOR).audit_list(kind="timestep").records
        assert [r.body["content"] for r in steps] == ["left pending"]


def test_records_chained_together_keep_a_checkpoint_after_every_thousandth() -> None:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute(audit.SCHEMA.format(key="INTEGER"))
    entries = [audit.AuditEntry(i, "timestep", "c", "xdb.record", "{}") for i in range(2100)]
    audit.append(conn, SQLITE, entries, False, None, None)
    marks = conn.execute("SELECT seq, body FROM audit_log WHERE kind = 'checkpoint'").fetchall()
    assert [(seq, json.loads(body)["records_through"]) for seq, body in marks] == [
        (1001, 1000),
        (2001, 2000),
    ]
    assert audit.verify(audit.scan(conn, SQLITE)).first_bad is None
