"""Progressive compression (maintenance): reply records merge up to years by age, the
finest and oldest first under storage pressure, never what retention protects; lineage
reaches back to the ticks; a killed run loses nothing and the next one finishes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import xdb
from tests.fidelity.conftest import ADMIN, contract, is_postgres

OLD = datetime(2023, 3, 6, 9, tzinfo=UTC)  # a Monday, long ago


@pytest.fixture
def db(target: str) -> Iterator[xdb.Database]:
    handle = xdb.connect(target, session_id="s0", embedder="hash")
    yield handle
    handle.close()


def old_reply(db: xdb.Database, session: str, at: datetime, words: list[str], **kw: Any) -> None:
    for i, w in enumerate(words):
        db.record(
            event_type="output",
            content=f" {w}",
            token_id=i,
            session_id=session,
            event_id=f"{session}-{at.isoformat()}",
            timestamp=at + timedelta(seconds=i),
            **kw,
        )


def old_sessions(db: xdb.Database, days: list[int]) -> None:
    """A session a day on each of ``days`` after OLD, compacted to reply records."""
    for d in days:
        session = f"day{d}"
        old_reply(db, session, OLD + timedelta(days=d), ["the", "deploy", "broke", str(d)])
        old_reply(db, session, OLD + timedelta(days=d, hours=1), ["then", "it", "worked"])
        db.compact(session_id=session, keep_tokens=0)


def levels(db: xdb.Database) -> list[str]:
    return sorted(r.level.value for r in db.query(all_sessions=True, limit=1000).records)


def test_records_climb_the_levels_by_age(db: xdb.Database) -> None:
    old_sessions(db, [0, 1, 8, 40, 400])
    assert levels(db) == ["reply"] * 10  # two replies a session; its newest tick stays HOT
    contract(db, compression_after_days={"session": 1, "day": 7, "week": 30, "month": 90,
                                         "quarter": 365, "year": 10_000})  # fmt: skip
    done = db.maintenance()
    assert done.finished and done.records_compressed > 0 and done.under_quota
    # March and April 2023 (days 0 to 40) and April 2024 (day 400): a quarter record each;
    # a year needs 10,000 days.
    assert levels(db) == ["quarter"] * 3
    again = db.maintenance()
    assert again.records_compressed == 0 and levels(db) == ["quarter"] * 3
    contract(db, compression_after_days={"year": 365})
    db.maintenance()
    assert levels(db) == ["year", "year"]


def test_lineage_leads_from_a_year_back_to_its_ticks(db: xdb.Database) -> None:
    old_sessions(db, [0, 3])
    left = {s: [t.tick for t in db.query(session_id=s).timesteps] for s in ("day0", "day3")}
    db.maintenance()
    (record,) = db.query(all_sessions=True).records
    assert record.level == "year" and record.timesteps == 12  # 2 sessions x (7 - 1 kept)
    lineage = db.get_episode_detail(episode_id=record.record_id).episode.provenance.details[
        "lineage"
    ]
    assert lineage["ticks"] == [["day0", 1, 6], ["day3", 1, 6]]
    assert left == {"day0": [7], "day3": [7]}
    chain = {r["level"] for r in lineage["records"]}
    assert chain == {"reply", "session", "day", "week", "month", "quarter"}
    assert sum(r["level"] == "reply" for r in lineage["records"]) == 4
    assert record.summary and "deploy" in record.summary


def test_what_was_said_survives_every_level(db: xdb.Database) -> None:
    old_reply(db, "a", OLD, ["the", "deploy", "broke"], concept_activations={"c/fail": 0.9})
    old_reply(db, "a", OLD + timedelta(hours=1), ["newest"])
    db.tag(tag_name_or_id="outage", tick_range={"start": 1, "end": 2}, session_id="a")
    comment = db.comment(content="look here", session_id="a", tick_range={"start": 1, "end": 1})
    ex = db.add_exemplar(concept_id="c/fail", label="positive", session_id="a",
                         tick_range={"start": 1, "end": 3}).exemplar.id  # fmt: skip
    db.compact(session_id="a", keep_tokens=0)
    db.maintenance()
    (record,) = db.query(tags=["outage"], all_sessions=True).records
    assert record.level == "year" and record.concept_activations == {"c/fail": 0.9}
    assert record.comment_ids == [comment.comment_id] and record.exemplar_ids == [ex]
    details = db.get_episode_detail(episode_id=record.record_id).episode
    assert [(lb.concept_id, lb.label.value) for lb in details.labels] == [("c/fail", "positive")]
    found = db.search_episodes(label_filters={"concept_id": "c/fail"}).episodes
    assert [h.fidelity for h in found] == ["year"]
    usage = db.concept_usage_summary(concept_ids=["c/fail"])
    assert usage.concept_summaries[0].episode_count == 1
    assert usage.concept_summaries[0].by_fidelity == {"year": 1}
    assert db.exemplars(concept_id="c/fail").exemplars[0].id == ex
    walked = db.graph_neighborhood(seed_node_ids=["concept:c/fail"]).nodes
    assert [(n.node_id, n.fidelity) for n in walked if n.type == "Episode"] == [
        (record.record_id, "year")
    ]


def _episodes(db: xdb.Database, n: int, **kw: Any) -> list[str]:
    text = " ".join(f"word{i}" for i in range(300))
    return [
        db.add_episode(
            content=f"episode {i}: {text}",
            session_id=f"p{i % 10}",
            time_window={
                "start_time": OLD + timedelta(hours=i),
                "end_time": OLD + timedelta(hours=i),
            },
            **kw,
        ).episode_id
        for i in range(n)
    ]


def test_storage_pressure_compresses_until_under_the_limit_keeping_protected_data(
    db: xdb.Database, target: str
) -> None:
    member = db.add_episode(content="a frozen example of c/x", concept_tags=[
        {"concept_id": "c/x", "score": 0.9}]).episode_id  # fmt: skip
    db.add_exemplar(concept_id="c/x", label="positive", episode_id=member)
    built = db.build_dataset(target_concept_id="c/x", sampling={"balance": "skewed"})
    db.record_training_run(type="lens", concept_ids=["c/x"], dataset_ids=[built.dataset_id])
    plain = _episodes(db, 300)  # after the dataset, so none is frozen into it
    incident = db.add_episode(content="the outage", kind="incident", session_id="p3").episode_id
    admin = db.as_caller(ADMIN)
    admin.set_treaty(id="t1", partner="acme", disclosure_policy_id="none")
    admin.set_access_policy(id="shared", read_treaties=["t1"])
    treaty = db.add_episode(content="owed to acme", access_policy_id="shared").episode_id
    protected = [member, incident, treaty]
    assert db.maintenance().records_compressed == 0  # nothing old enough; space reclaimed
    used = db.quota().cold.used_bytes
    assert used is not None
    limit = int(used * 0.6)
    contract(db, cold_storage_bytes=limit)
    done = db.maintenance()
    assert done.under_quota and done.bytes_after <= limit < done.bytes_before
    assert done.bytes_freed == done.bytes_before - done.bytes_after
    assert done.records_compressed > 0 and done.protected_kept >= 1
    kept = db.search_episodes(episode_kinds=["incident"]).episodes
    assert [h.episode_id for h in kept] == [incident]
    for episode_id in protected:
        assert db.get_episode_detail(episode_id=episode_id).episode.fidelity == "full"
    gone = sum(1 for e in plain if _exists(db, e))
    assert gone < len(plain)
    # Every plain episode is one a record's lineage names, or is still there.
    records = db.search_episodes(episode_kinds=["compressed"], page={"page_size": 1000})
    folded: set[str] = set()
    for hit in records.episodes:
        details = db.get_episode_detail(episode_id=hit.episode_id).episode.provenance.details
        folded |= set(details["lineage"]["episodes"])
    assert {e for e in plain if not _exists(db, e)} <= folded
    assert not folded & set(protected)
    if not is_postgres(target):
        assert os.path.getsize(target) <= limit


def _exists(db: xdb.Database, episode_id: str) -> bool:
    try:
        db.get_episode_detail(episode_id=episode_id)
    except xdb.NotFound:
        return False
    return True


def test_a_summary_model_that_is_down_falls_back_to_extractive(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("XDB_SUMMARY_URL", f"http://127.0.0.1:{port}/v1")
    monkeypatch.setenv("XDB_SUMMARY_MODEL", "tiny")
    with xdb.connect(target, session_id="s0", embedder="hash") as db:
        old_sessions(db, [0])
        assert db.maintenance().finished
        (record,) = db.query(all_sessions=True).records
        assert "deploy" in record.summary


MAINTAINER = Path(__file__).with_name("_maintainer.py")


def test_a_killed_maintenance_loses_nothing_and_the_next_run_finishes(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    with xdb.connect(path, embedder="hash") as db:
        # 120 sessions of one reply each: three transactions of 50 session merges.
        for d in range(120):
            old_reply(db, f"k{d}", OLD + timedelta(minutes=d), ["a", "b", "c"])
            old_reply(db, f"k{d}", OLD + timedelta(minutes=d, seconds=30), ["z"])
            db.compact(session_id=f"k{d}", keep_tokens=0)
    child = subprocess.run(
        [sys.executable, str(MAINTAINER), str(path), "2"], capture_output=True, text=True
    )
    assert child.returncode == -signal.SIGKILL, child.stderr
    raw = sqlite3.connect(path)
    try:
        by_level = dict(raw.execute("SELECT level, count(*) FROM memory_records GROUP BY level"))
        orphans = raw.execute(
            "SELECT count(*) FROM memory_records r WHERE NOT EXISTS"
            " (SELECT 1 FROM episodes e WHERE e.id = r.id)"
        ).fetchone()[0]
    finally:
        raw.close()
    # One transaction of 50 merges committed before the kill, the second never did.
    assert by_level == {"session": 50, "reply": 70} and orphans == 0
    with xdb.connect(path, embedder="hash") as db:
        done = db.maintenance()
        assert done.finished
        (record,) = db.query(all_sessions=True, limit=1000).records
        assert record.level == "year" and record.timesteps == 360
        ticks = db.get_episode_detail(episode_id=record.record_id).episode.provenance.details[
            "lineage"
        ]["ticks"]
        assert ticks == [[f"k{d}", 1, 3] for d in sorted(range(120), key=str)]
