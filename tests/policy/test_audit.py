"""The audit log: every timestep as recorded (its full activations, whoever may see them)
and every call, hash-chained; tampering with the stored records directly (edit, delete,
insert, reorder) is caught and the first bad record named. On both stores."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import xdb
from tests.policy.conftest import is_postgres

AUDITOR = xdb.Caller(id="audit", roles=("auditor",))
PARTNER = xdb.Caller(id="acme", roles=("partner",), treaty_ids=("t",))


def raw(target: str, *statements: str) -> None:
    """Run SQL on the stored file or database itself, as a tamperer would."""
    if is_postgres(target):
        import psycopg

        with psycopg.connect(target, autocommit=True) as conn:
            for sql in statements:
                conn.execute(sql.encode())
        return
    lite = sqlite3.connect(target)
    try:
        for sql in statements:
            lite.execute(sql)
        lite.commit()
    finally:
        lite.close()


@pytest.fixture
def logged(target: str) -> Iterator[tuple[str, Callable[[], xdb.Database]]]:
    """A database whose audit log holds 4 timesteps and some calls, closed: tamper, then
    open it again to verify."""
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        for i in range(3):
            db.record(event_type="input", content=f"step {i}", concept_activations={"c/x": 0.5})
        db.record_batch([{"event_type": "output", "content": "done"}])
        db.query(text_search="step")
        with pytest.raises(xdb.PermissionDenied):
            db.as_caller(PARTNER).record(event_type="input", content="not yours")
        db.recent(n=2)
    yield target, lambda: xdb.connect(target, embedder="hash")


def verdict(open_db: Callable[[], xdb.Database]) -> Any:
    with open_db() as db:
        return db.as_caller(AUDITOR).audit_verify()


def test_every_timestep_and_call_is_kept_in_order(logged: Any) -> None:
    _, open_db = logged
    with open_db() as db:
        auditor = db.as_caller(AUDITOR)
        records = auditor.audit_list(limit=100).records
        kinds = [(r.kind, r.operation) for r in records]
        assert kinds[:6] == [("timestep", "xdb.record")] * 3 + [
            ("timestep", "xdb.record_batch"),
            ("call", "xdb.query"),
            ("call", "xdb.record"),
        ]
        assert records[0].body["activations"] == {"c/x": 0.5}
        assert records[0].body["content"] == "step 0"
        refused = records[5].body
        assert records[5].caller == "acme" and refused["allowed"] is False
        assert refused["error"] == "permission_denied"
        assert records[4].body["results"] == 3 and records[4].body["allowed"] is True
        assert [r.seq for r in records] == list(range(1, len(records) + 1))
        assert auditor.audit_verify().ok
        page = auditor.audit_list(limit=2, kind="timestep")
        assert [r.seq for r in page.records] == [1, 2] and page.next_after == 2


def test_the_agent_can_neither_read_nor_change_it(logged: Any) -> None:
    _, open_db = logged
    with open_db() as db:
        for call in (db.audit_list, db.audit_verify, lambda: db.audit_prune(older_than_days=0)):
            with pytest.raises(xdb.PermissionDenied, match="needs one of the roles auditor"):
                call()


@pytest.mark.parametrize(
    ("tamper", "first_bad", "why"),
    [
        (["UPDATE audit_log SET body = replace(body, 'step 1', 'step X') WHERE seq = 2"], 2,
         "content"),
        (["UPDATE audit_log SET caller = 'someone' WHERE seq = 3"], 3, "content"),
        (["DELETE FROM audit_log WHERE seq = 2"], 3, "missing"),
        (["DELETE FROM audit_log WHERE seq <= 2"], 3, "removed without a checkpoint"),
        (["UPDATE audit_log SET seq = seq + 100 WHERE seq >= 3",
          "UPDATE audit_log SET seq = seq - 99 WHERE seq >= 103",
          "INSERT INTO audit_log SELECT 3, at_us, kind, caller, operation, body, prev_hash,"
          " hash FROM audit_log WHERE seq = 2"], 3, "link"),
        (["UPDATE audit_log SET seq = 100 WHERE seq = 2",
          "UPDATE audit_log SET seq = 2 WHERE seq = 3",
          "UPDATE audit_log SET seq = 3 WHERE seq = 100"], 2, "link"),
    ],
    ids=["edit content", "edit caller", "delete", "delete the first", "insert", "reorder"],
)  # fmt: skip
def test_tampering_is_caught_at_the_first_bad_record(
    logged: Any, tamper: list[str], first_bad: int, why: str
) -> None:
    target, open_db = logged
    assert verdict(open_db).ok
    raw(target, *tamper)
    found = verdict(open_db)
    assert not found.ok
    assert found.first_bad_seq == first_bad, found
    assert why in found.reason


def test_retention_removes_the_oldest_behind_a_checkpoint(logged: Any) -> None:
    target, open_db = logged
    with open_db() as db:
        auditor = db.as_caller(AUDITOR)
        before = auditor.audit_list(limit=1000).records  # then the listing's own record
        assert auditor.audit_prune(older_than_days=0).removed == len(before)
        left = auditor.audit_list(limit=1000).records
        assert left[0].seq == len(before) + 1  # the newest stays: the chain goes on from it
        checkpoint = next(r for r in left if r.kind == "checkpoint")
        assert checkpoint.body["purged_through"] == len(before)
        assert auditor.audit_verify().ok
    raw(target, f"DELETE FROM audit_log WHERE seq = {len(before) + 1}")
    broken = verdict(open_db)
    assert not broken.ok and "without a checkpoint" in broken.reason


def test_a_checkpoint_names_the_head_every_thousand_records(target: str) -> None:
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        for i in range(999):
            db.record(event_type="output", content=f"t{i}")
        db.record(event_type="output", content="the thousandth")
        batch = [{"event_type": "output", "content": f"b{i}"} for i in range(3)]
        db.record_batch(batch)
        auditor = db.as_caller(AUDITOR)
        (mark,) = auditor.audit_list(after=1000, limit=1).records
        assert mark.kind == "checkpoint" and mark.seq == 1001
        assert mark.body == {"records_through": 1000, "head": mark.prev_hash}
        assert auditor.audit_verify().ok
    raw(target, "UPDATE audit_log SET body = replace(body, '1000', '999') WHERE seq = 1001")
    with xdb.connect(target, embedder="hash") as db:
        assert db.as_caller(AUDITOR).audit_verify().first_bad_seq == 1001


def test_a_batch_is_one_record_holding_every_timestep(target: str) -> None:
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        made = db.record_batch(
            [
                {
                    "event_type": "output",
                    "content": f"b{i}",
                    "concept_activations": {"c/x": 0.1 * i},
                }
                for i in range(3)
            ]
        )
        auditor = db.as_caller(AUDITOR)
        (record,) = auditor.audit_list(kind="timesteps").records
        steps = record.body["timesteps"]
        assert [s["timestep_id"] for s in steps] == [r.timestep_id for r in made.results]
        assert steps[2]["activations"] == {"c/x": pytest.approx(0.2)}
        assert auditor.audit_verify().ok


def test_the_cli_verifies_and_exits_1_when_broken(logged: Any) -> None:
    from tests.interfaces.test_cli import invoke

    target, _ = logged
    ok = invoke("--db", target, "audit", "verify")
    assert ok.exit_code == 0 and '"ok": true' in ok.stdout
    listed = invoke("--db", target, "audit", "list", "--kind", "call")
    assert listed.exit_code == 0 and '"xdb.query"' in listed.stdout
    raw(target, "UPDATE audit_log SET body = '{}' WHERE seq = 1")
    bad = invoke("--db", target, "audit", "verify")
    assert bad.exit_code == 1 and '"first_bad_seq": 1' in bad.stdout
    refused = invoke("--db", target, "--caller", "self", "audit", "list")
    assert refused.exit_code == 2 and "needs one of the roles auditor" in refused.stderr


def test_with_a_key_a_rewritten_chain_does_not_verify(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """XDB_AUDIT_KEY makes each hash an HMAC: someone who edits a record and recomputes
    plain SHA-256 hashes down the chain (possible without a key) is still caught."""
    monkeypatch.setenv("XDB_AUDIT_KEY", "a secret kept outside the database")
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        for i in range(3):
            db.record(event_type="input", content=f"step {i}")
        assert db.as_caller(AUDITOR).audit_verify().ok
    monkeypatch.delenv("XDB_AUDIT_KEY")
    with xdb.connect(target, embedder="hash") as db:
        keyless = db.as_caller(AUDITOR).audit_verify()
    assert not keyless.ok and keyless.first_bad_seq == 1  # without the key nothing verifies
    # Forge: record 2 edited, every hash recomputed without the key.
    from xdb.store import audit

    rows = _audit_rows(target)
    prev = audit.GENESIS
    forged = []
    for seq, at, kind, caller, op, body, _, _ in rows:
        body = body.replace("step 1", "step one") if seq == 2 else body
        h = audit.digest(prev, seq, at, kind, caller, op, body, None)
        forged.append((body, prev, h, seq))
        prev = h
    mark = "%s" if is_postgres(target) else "?"
    _raw_many(target, f"UPDATE audit_log SET body = {mark}, prev_hash = {mark}, hash = {mark}"
              f" WHERE seq = {mark}", forged)  # fmt: skip
    monkeypatch.setenv("XDB_AUDIT_KEY", "a secret kept outside the database")
    with xdb.connect(target, embedder="hash") as db:
        caught = db.as_caller(AUDITOR).audit_verify()
    assert not caught.ok and caught.first_bad_seq == 1


def _audit_rows(target: str) -> list[Any]:
    sql = "SELECT seq, at_us, kind, caller, operation, body, prev_hash, hash FROM audit_log"
    if is_postgres(target):
        import psycopg

        with psycopg.connect(target) as conn:
            return list(conn.execute(sql + " ORDER BY seq").fetchall())
    lite = sqlite3.connect(target)
    try:
        return list(lite.execute(sql + " ORDER BY seq").fetchall())
    finally:
        lite.close()


def _raw_many(target: str, sql: str, values: list[tuple[Any, ...]]) -> None:
    if is_postgres(target):
        import psycopg

        with psycopg.connect(target, autocommit=True) as conn:
            for v in values:
                conn.execute(sql.encode(), v)
        return
    lite = sqlite3.connect(target)
    try:
        lite.executemany(sql, values)
        lite.commit()
    finally:
        lite.close()


def test_a_writes_call_record_is_kept_once_with_its_write(target: str) -> None:
    """A write's call record goes in with its first write (no write commits without it),
    once; its ``results`` is null, since it was made before the answer."""
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        db.record(event_type="input", content="ship it")
        db.add_episode(content="We shipped the release.")
        db.comment(content="a good day")
        db.recent(n=1)
        records = db.as_caller(AUDITOR).audit_list(limit=100).records
    calls = [(r.operation, r.body["results"]) for r in records if r.kind == "call"]
    assert calls == [("experience.add_episode", None), ("xdb.comment", None), ("xdb.recent", 1)]
