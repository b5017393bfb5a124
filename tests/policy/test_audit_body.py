"""A timestep's audit body written from its row (``audit_bodies.row_step``, the record
path's) is the JSON the encoder writes, byte for byte, and any text that needs escaping
goes to the encoder: what the log keeps is the timestep as recorded, whatever its text. On
both stores. A long body (a batch's) is kept compressed on SQLite, and one edited in the
file is caught, never read past its stated size."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import zstandard

import xdb
from tests.policy.conftest import is_postgres
from xdb.store import audit, audit_bodies
from xdb.store.row_models import activations_json
from xdb.store.types import NewTimestep

AUDITOR = xdb.Caller(id="audit", roles=("auditor",))

PLAIN = ["tok ", "", "é中😀", "a/b {x}: [1, 2]", "'single'"]
# Each needs escaping in JSON, or is not printable: the encoder writes it.
ESCAPED = ['say "hi"', "back\\slash", "line\nbreak", "tab\there", "nul\x00", "del\x7f", "\u2028"]


def _row(content: str, event_id: str | None = None, **acts: float) -> tuple[Any, ...]:
    encoded = activations_json(acts) if acts else None
    return (7, "s1", 3, 1_700_000_000_000_000, "output", "assistant", content, 42, event_id,
            True, False, encoded)  # fmt: skip


def _item(row: tuple[Any, ...], acts: dict[str, float]) -> NewTimestep:
    return NewTimestep(row[1], row[3], row[4], row[5], row[6], row[7], row[8], row[9], row[10],
                       acts)  # fmt: skip


@pytest.mark.parametrize("content", PLAIN)
@pytest.mark.parametrize("event_id", [None, "ev-1"])
def test_a_plain_row_is_written_as_the_encoder_writes_it(content: str, event_id: Any) -> None:
    for acts in ({}, {"c/x": 0.5, "org/é::Term1": 0.25}):
        row = _row(content, event_id, **acts)
        written = audit_bodies.row_step("ts_1", row)
        assert written is not None
        assert written == audit_bodies.step_body(_item(row, acts), "ts_1", 3, row[11])


@pytest.mark.parametrize("content", [*ESCAPED, "lone \ud800"])
def test_text_that_needs_escaping_is_left_to_the_encoder(content: str) -> None:
    assert audit_bodies.row_step("ts_1", _row(content)) is None
    assert audit_bodies.row_step("ts_1", _row("plain", event_id=content)) is None


def test_a_field_of_another_type_is_left_to_the_encoder() -> None:
    row = _row("plain")
    for at, odd in ((7, True), (9, 1), (3, 1.5)):  # a bool token, an int flag, a float time
        changed = (*row[:at], odd, *row[at + 1 :])
        assert audit_bodies.row_step("ts_1", changed) is None


def test_every_text_is_kept_as_recorded_lone_and_in_a_batch(target: str) -> None:
    # (Content may not be empty, and PostgreSQL's text holds no NUL.)
    texts = [t for t in PLAIN + ESCAPED if t and "\x00" not in t]
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        lone = [
            db.record(event_type="output", content=t, concept_activations={"c/x": 0.5})
            for t in texts
        ]
        batch = db.record_batch(
            [{"event_type": "output", "content": t, "event_id": t} for t in texts]
        )
        auditor = db.as_caller(AUDITOR)
        singles = auditor.audit_list(kind="timestep").records
        (record,) = auditor.audit_list(kind="timesteps").records
        assert auditor.audit_verify().ok
    assert [s.body["content"] for s in singles] == texts
    assert [s.body["timestep_id"] for s in singles] == [r.timestep_id for r in lone]
    assert all(s.body["activations"] == {"c/x": 0.5} for s in singles)
    steps = record.body["timesteps"]
    assert [(s["content"], s["event_id"]) for s in steps] == [(t, t) for t in texts]
    assert [s["timestep_id"] for s in steps] == [r.timestep_id for r in batch.results]
    # Each step holds the same fields in the same order as a lone record's body.
    assert [list(s) for s in steps] == [list(singles[0].body)] * len(texts)
    assert json.loads(json.dumps(steps)) == steps


ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def _batch(n: int) -> list[dict[str, Any]]:
    acts = {f"org/pack::concept/Term{i}": 0.5 for i in range(10)}
    return [
        {"event_type": "output", "content": f"tok{i} ", "concept_activations": acts}
        for i in range(n)
    ]


def _stored(target: str) -> list[tuple[int, str, Any]]:
    lite = sqlite3.connect(target)
    try:
        return lite.execute("SELECT seq, typeof(body), body FROM audit_log ORDER BY seq").fetchall()
    finally:
        lite.close()


def _set_body(target: str, seq: int, body: Any) -> None:
    lite = sqlite3.connect(target)
    try:
        lite.execute("UPDATE audit_log SET body = ? WHERE seq = ?", (body, seq))
        lite.commit()
    finally:
        lite.close()


def test_a_long_body_reads_back_as_written_on_both_stores(target: str) -> None:
    """SQLite keeps it compressed, PostgreSQL as text; either way the auditor reads the same
    steps and the chain verifies."""
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        made = db.record_batch(_batch(200))
        db.record(event_type="input", content="short")
        auditor = db.as_caller(AUDITOR)
        (record,) = auditor.audit_list(kind="timesteps").records
        assert auditor.audit_verify().ok
    steps = record.body["timesteps"]
    assert [s["timestep_id"] for s in steps] == [r.timestep_id for r in made.results]
    assert steps[199]["content"] == "tok199 " and len(steps[0]["activations"]) == 10
    if is_postgres(target):
        return
    kinds = {seq: kind for seq, kind, _ in _stored(target)}
    assert kinds[record.seq] == "blob"  # (~160 kB of JSON in a few kB)
    assert all(kind == "text" for seq, kind in kinds.items() if seq != record.seq), kinds


def test_a_body_that_compresses_a_thousandfold_and_more_reads_back(tmp_path: Path) -> None:
    target = str(tmp_path / "x.sqlite3")
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        db.record(event_type="input", content="a" * 300_000)  # (a ~100-byte frame)
        db.record_batch([{"event_type": "output", "content": "é" * 20_000}] * 3)
        auditor = db.as_caller(AUDITOR)
        records = auditor.audit_list(limit=10).records
        assert auditor.audit_verify().ok
    assert records[0].body["content"] == "a" * 300_000
    assert [s["content"] for s in records[1].body["timesteps"]] == ["é" * 20_000] * 3
    assert [kind for _, kind, _ in _stored(target)][:2] == ["blob", "blob"]


def _frame(text: bytes, stated: int) -> bytes:
    """A zstd frame of ``text`` whose header states ``stated`` bytes (8 bytes of size)."""
    blocks = zstandard.ZstdCompressor().compress(text)
    header = 4 + zstandard.frame_header_size(blocks)
    return ZSTD_MAGIC + b"\xe0" + stated.to_bytes(8, "little") + blocks[header:]


def test_an_edited_compressed_body_is_caught_and_still_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit, "PACKED_MOST", 1 << 20)  # (a 64 MiB frame is slow to build)
    target = str(tmp_path / "x.sqlite3")
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        db.record_batch(_batch(100))
        db.record_batch(_batch(100))
    (first, _, packed), (second, _, _) = [r for r in _stored(target) if r[1] == "blob"]
    text = zstandard.ZstdDecompressor().decompressobj().decompress(packed)
    forged = zstandard.ZstdCompressor().compress(text.replace(b"tok5 ", b"tok6 "))
    unreadable = {"unreadable": "the stored body is not a compressed text"}
    edits: list[tuple[int, Any, Any]] = [
        (second, forged, None),  # another body, compressed as well: the hash says no
        (first, packed + b"more", unreadable),  # bytes after the frame
        (first, packed + forged, unreadable),  # a second frame after it
        (first, packed[:-9] + b"\x00" * 9, unreadable),  # bytes that no longer decompress
        # A header that states 10^12 bytes of content, which must not be allocated.
        (first, _frame(b"x" * 64, 10**12), unreadable),
        # Content that outgrows the size its header states.
        (first, _frame(b" " * 10**6, 100), unreadable),
        # More than a body may be, truly there: ~100 bytes that would be 2 MiB read.
        (first, zstandard.ZstdCompressor().compress(b" " * (2 << 20)), unreadable),
    ]
    for seq, body, listed_as in edits:
        _set_body(target, seq, body)
        with xdb.connect(target, embedder="hash") as db:
            auditor = db.as_caller(AUDITOR)
            verdict = auditor.audit_verify()
            (listed,) = auditor.audit_list(after=seq - 1, limit=1).records
        assert not verdict.ok and verdict.first_bad_seq == seq, (body[:20], verdict)
        assert "content" in (verdict.reason or "")
        if listed_as is None:
            assert listed.body["timesteps"][5]["content"] == "tok6 "  # (what the file says)
        else:
            assert listed.body == listed_as


@pytest.mark.parametrize("edited", ["{not json", "[" * 100_000, "[1, 2]", '"text"'])
def test_a_text_body_edited_into_no_object_is_listed_not_raised(
    tmp_path: Path, edited: str
) -> None:
    target = str(tmp_path / "x.sqlite3")
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        db.record(event_type="input", content="short")
    _set_body(target, 1, edited)
    with xdb.connect(target, embedder="hash") as db:
        auditor = db.as_caller(AUDITOR)
        (listed,) = auditor.audit_list(limit=1).records
        assert auditor.audit_verify().first_bad_seq == 1
    assert listed.body == {"unreadable": "the stored body is not JSON"}


@pytest.mark.parametrize("edited", ["[]", "1", "{oops", "[" * 100_000])
def test_a_checkpoint_rehashed_to_say_nothing_fails_verify_not_raises(
    tmp_path: Path, edited: str
) -> None:
    """Without a key, whoever edits a record can rehash the chain after it: a checkpoint so
    rewritten must still be an object naming the head."""
    target = str(tmp_path / "x.sqlite3")
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        for i in range(1001):
            db.record(event_type="input", content=f"r{i}")
        auditor = db.as_caller(AUDITOR)
        records = auditor.audit_list(after=999, limit=3).records
    assert records[1].kind == "checkpoint" and records[1].seq == 1001
    prev = records[0].hash
    lite = sqlite3.connect(target)
    try:
        rows = lite.execute(
            "SELECT seq, at_us, kind, caller, operation, body FROM audit_log WHERE seq >= 1001"
            " ORDER BY seq"
        ).fetchall()
        for seq, at_us, kind, caller, operation, body in rows:
            body = edited if seq == 1001 else body
            made = audit.digest(prev, seq, at_us, kind, caller, operation, body)
            lite.execute(
                "UPDATE audit_log SET body = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                (body, prev, made, seq),
            )
            prev = made
        lite.commit()
    finally:
        lite.close()
    with xdb.connect(target, embedder="hash") as db:
        verdict = db.as_caller(AUDITOR).audit_verify()
    assert not verdict.ok and verdict.first_bad_seq == 1001
    assert verdict.reason == "it is a checkpoint that says nothing"


def test_a_body_longer_than_a_frame_may_be_is_kept_as_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit, "PACKED_MOST", 30_000)
    target = str(tmp_path / "x.sqlite3")
    with xdb.connect(target, embedder="hash", session_id="s1") as db:
        db.record_batch(_batch(10))  # ~5 kB: text, too short to compress
        db.record_batch(_batch(40))  # ~20 kB: compressed
        db.record_batch(_batch(80))  # ~40 kB: over the bound, text
        auditor = db.as_caller(AUDITOR)
        sizes = [len(r.body["timesteps"]) for r in auditor.audit_list(kind="timesteps").records]
        assert auditor.audit_verify().ok
    assert sizes == [10, 40, 80]
    assert [kind for _, kind, _ in _stored(target)][:3] == ["text", "blob", "text"]
