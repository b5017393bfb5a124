"""Removing the audit log's newest records: caught with XDB_AUDIT_KEY (the head seal says
where the chain ends), not without it (what is left is a valid shorter chain), as
docs/policy.md says. Tampered directly in the stored file or database; on both stores."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import xdb
from tests.interfaces.test_cli import invoke
from tests.policy.conftest import is_postgres
from tests.policy.test_audit import AUDITOR, _audit_rows, raw, verdict

KEY = "a secret kept outside the database"


def _fill(target: str, records: int) -> int:
    """``records`` timesteps recorded one by one; the log's newest seq after them."""
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        for i in range(records):
            db.record(event_type="input", content=f"step {i}")
    return int(_audit_rows(target)[-1][0])


@pytest.fixture
def keyed(target: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    """A log of 60 records written with the key set (and the key set while it is read)."""
    monkeypatch.setenv("XDB_AUDIT_KEY", KEY)
    yield target, _fill(target, 60)


def _open(target: str) -> Callable[[], xdb.Database]:
    return lambda: xdb.connect(target, embedder="hash")


def _cut(target: str, removed: int) -> int:
    """Remove the log's ``removed`` newest records; the seq of the newest before."""
    newest = int(_audit_rows(target)[-1][0])
    raw(target, f"DELETE FROM audit_log WHERE seq > {newest - removed}")
    return newest


@pytest.mark.parametrize("removed", [1, 50])
def test_without_a_key_removing_the_newest_records_is_not_caught(
    target: str, monkeypatch: pytest.MonkeyPatch, removed: int
) -> None:
    # What docs/policy.md says verify cannot see without a key: keep head_hash outside.
    monkeypatch.delenv("XDB_AUDIT_KEY", raising=False)
    _fill(target, 60)
    head_hash = _audit_rows(target)[-1][7]
    newest = _cut(target, removed)
    cut = verdict(_open(target))
    assert cut.ok and cut.records == newest - removed
    assert cut.head_hash != head_hash  # what a head_hash kept outside would show


@pytest.mark.parametrize("removed", [1, 50])
def test_with_a_key_removing_the_newest_records_is_caught(
    keyed: tuple[str, int], removed: int
) -> None:
    target, _ = keyed
    assert verdict(_open(target)).ok
    newest = _cut(target, removed)
    found = verdict(_open(target))
    assert not found.ok and found.first_bad_seq == newest - removed + 1, found
    assert found.reason == (
        f"the newest records were removed: the head seal names record {newest}, "
        f"the log ends at {newest - removed}"
    )
    # Records appended since do not hide it: the seal moves only from the head it sealed.
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        for i in range(removed + 5):
            db.record(event_type="input", content=f"after {i}")
        still = db.as_caller(AUDITOR).audit_verify()
    assert not still.ok and "head seal" in str(still.reason), still


def test_with_a_key_the_cli_says_ok_false_after_the_last_record_is_removed(
    keyed: tuple[str, int],
) -> None:
    target, _ = keyed
    assert '"ok": true' in invoke("--db", target, "audit", "verify").stdout
    newest = _cut(target, 1)
    bad = invoke("--db", target, "audit", "verify")
    assert bad.exit_code == 1 and '"ok": false' in bad.stdout
    assert f'"first_bad_seq": {newest}' in bad.stdout


def _seal(target: str) -> tuple[int, str, str]:
    (row,) = _rows(target, "SELECT seq, hash, mac FROM audit_seal")
    return int(row[0]), str(row[1]), str(row[2])


def _rows(target: str, sql: str) -> list[Any]:
    if is_postgres(target):
        import psycopg

        with psycopg.connect(target) as pg:
            return list(pg.execute(sql.encode()).fetchall())
    import sqlite3

    conn = sqlite3.connect(target)
    try:
        return list(conn.execute(sql).fetchall())
    finally:
        conn.close()


def test_with_a_key_a_rewritten_or_removed_seal_is_caught(keyed: tuple[str, int]) -> None:
    target, newest = keyed
    seq, head_hash, _ = _seal(target)
    assert (seq, head_hash) == (newest, _audit_rows(target)[-1][7])
    # Cut short, and the seal rewritten to name the new end (its MAC cannot be).
    _cut(target, 10)
    end = _audit_rows(target)[-1]
    raw(target, f"UPDATE audit_seal SET seq = {end[0]}, hash = '{end[7]}'")
    rewritten = verdict(_open(target))
    assert not rewritten.ok and "does not match its MAC" in rewritten.reason, rewritten
    # A seal MACed with another key is no better.
    from xdb.store import audit_seal

    forged = audit_seal.mac(b"another key", end[0], end[7])
    raw(target, f"UPDATE audit_seal SET mac = '{forged}'")
    assert "does not match its MAC" in verdict(_open(target)).reason
    # The seal removed as well: no seal where the log has records is caught, and stays
    # caught as records are appended (only a new log's first record writes a seal).
    raw(target, "DELETE FROM audit_seal")
    last = _audit_rows(target)[-1][0]  # (each verify's own call is recorded after it)
    removed = verdict(_open(target))
    assert not removed.ok and removed.first_bad_seq == last + 1
    assert "no head seal" in removed.reason
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        db.record(event_type="input", content="after")
        assert "no head seal" in str(db.as_caller(AUDITOR).audit_verify().reason)


def test_with_a_key_an_emptied_log_is_caught_and_a_new_one_verifies(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDB_AUDIT_KEY", KEY)
    with xdb.connect(target, embedder="hash") as db:
        assert db.as_caller(AUDITOR).audit_verify().ok  # nothing recorded, nothing sealed
    newest = _fill(target, 3)
    raw(target, "DELETE FROM audit_log")
    emptied = verdict(_open(target))
    assert not emptied.ok and emptied.first_bad_seq == 1
    assert f"the head seal names record {newest}, the log ends at 0" in emptied.reason


def test_with_a_key_retention_keeps_verifying(keyed: tuple[str, int]) -> None:
    target, newest = keyed
    with xdb.connect(target, embedder="hash") as db:
        auditor = db.as_caller(AUDITOR)
        assert auditor.audit_prune(older_than_days=0).removed == newest - 1  # not the newest
        assert auditor.audit_verify().ok
        db.record(event_type="input", content="after the prune")
        assert auditor.audit_verify().ok
    _cut(target, 1)
    assert "newest records were removed" in verdict(_open(target)).reason


def test_a_log_from_before_seals_is_sealed_when_first_opened_with_the_key(
    keyed: tuple[str, int],
) -> None:
    target, _ = keyed
    version = 16 if is_postgres(target) else 17
    raw(target, "DROP TABLE audit_seal", f"DELETE FROM schema_migrations WHERE version = {version}")
    assert verdict(_open(target)).ok  # the migration sealed its head
    _cut(target, 1)
    assert "newest records were removed" in verdict(_open(target)).reason
