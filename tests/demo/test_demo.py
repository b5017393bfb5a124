"""``xdb demo``: the bundled concept pack is first-light's own sample, the demo fills an
empty database the same way every time with what the README's tour reads, fills nothing
twice, refuses a database it did not fill, and is fast with the real embedding model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import xdb
from tests.concepts.packs import unpack_first_light
from xdb.demo import BUD, PACK
from xdb.demo.fill import fill, state
from xdb.demo.sample_pack import SEEDS, SPEC_ID, write
from xdb.demo.script import SESSIONS

XDB = Path(sys.executable).parent / "xdb"
DAY = datetime(2025, 11, 3, tzinfo=UTC)


def files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_the_bundled_pack_is_what_the_sampler_writes_from_first_light(tmp_path: Path) -> None:
    source = unpack_first_light(tmp_path / "source")
    count = write(source, tmp_path / "sample")
    assert files(tmp_path / "sample") == files(PACK)
    assert 300 <= count <= 400  # a few hundred concepts
    # Each concept's file is first-light's own, byte for byte.
    for name, data in files(PACK).items():
        if name.startswith("concepts/"):
            assert (source / name).read_bytes() == data, name


def test_every_concept_the_sessions_name_is_in_the_pack() -> None:
    named = {c for s in SESSIONS for step in s.steps for c in step.concepts}
    assert named <= set(SEEDS)
    terms = {p.stem for p in PACK.glob("concepts/layer*/*.json")}
    assert {s.lower() for s in SEEDS} <= terms


@pytest.fixture
def filled(tmp_path: Path) -> Any:
    with xdb.connect(tmp_path / "demo.sqlite3", embedder="hash") as db:
        assert state(db) == "empty"
        made = fill(db, today=DAY)
        yield db, made


def test_the_demo_writes_what_the_tour_reads(filled: Any) -> None:
    db, made = filled
    assert state(db) == "demo"
    # The four sessions' timesteps, and the warning the engine gave in a hook session.
    assert made.timesteps + 1 == db.status().experience_stats.total_timesteps
    assert [p.spec_id for p in db.concept_packs().packs] == [SPEC_ID]
    for session in SESSIONS:
        steps = db.recent(session_id=session.id, n=100).timesteps
        assert steps and DAY - timedelta(days=6) <= steps[0].timestamp < DAY
        for step in steps:  # every activation names a concept of the pack
            assert all(c.startswith(f"{SPEC_ID}::concept/") for c in step.concept_activations)
    found = db.search_episodes(text_query="why did the deploy fail?", namespace="shop")
    assert "migration locked the users table" in found.episodes[0].summary
    assert db.find_concept(query="decepton").matches[0].name == "Deception"
    examples = db.bud_examples(bud_tag_id=BUD).examples
    assert {e.id for e in examples} == {"ts-deploy-2", "ts-refund-4", "ts-research-2"}
    (dataset,) = db.datasets(concept_id="Deception").datasets
    assert dataset.id == made.dataset_id == "dataset-deception-ff04cd-v1"
    assert len(db.lessons().lessons) == made.lessons == 3
    assert db.lesson_stats().warnings_shown == 1  # the next migration was warned
    warned = db.check(
        session_id="s2", tool_name="Bash", tool_input={"command": "alembic upgrade head"}
    )
    assert "CONCURRENTLY" in warned.warnings[0].text


def test_the_same_content_every_time(tmp_path: Path, filled: Any) -> None:
    first, _ = filled
    with xdb.connect(tmp_path / "again.sqlite3", embedder="hash") as second:
        fill(second, today=DAY)

        def log(db: xdb.Database) -> list[tuple[Any, ...]]:
            """The four sessions (the engine's warning is given now, naming a new id)."""
            steps = db.query(all_sessions=True, limit=1000).timesteps
            ours = [s for s in steps if not s.session_id.startswith("claude-")]
            return [(s.id, s.timestamp, s.content, s.concept_activations) for s in ours]

        assert log(first) == log(second)


def demo(*args: str, cwd: Path, embedder: str = "hash") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDB_")}
    env["XDB_EMBEDDER"] = embedder
    return subprocess.run([str(XDB), *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)  # fmt: skip


def test_the_command_fills_once_then_serves_what_it_filled(tmp_path: Path) -> None:
    started = time.monotonic()
    first = demo("demo", "--no-serve", cwd=tmp_path, embedder="minilm")  # the real model
    took = time.monotonic() - started
    assert first.returncode == 0, first.stderr
    assert took < 15, took
    said = json.loads(first.stdout)
    assert said["filled"] is True and said["db"] == "demo.sqlite3"
    assert "demo.sqlite3 filled with" in first.stderr
    assert (tmp_path / "demo.sqlite3").exists()  # the default: in the working directory
    again = demo("demo", "--no-serve", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["filled"] is False
    assert "holds the demo already" in again.stderr
    with xdb.connect(tmp_path / "demo.sqlite3", embedder="minilm") as db:
        assert db.status().embedding.backlog == 0  # every episode has its model's vector


def test_the_command_refuses_a_database_it_did_not_fill(tmp_path: Path) -> None:
    mine = tmp_path / "mine.sqlite3"
    with xdb.connect(mine, embedder="hash") as db:
        db.record(event_type="input", content="my own work")
    refused = demo("demo", "--db", str(mine), cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.startswith("error: the demo fills a new or empty database")
    assert "is not empty" in refused.stderr
    with xdb.connect(mine, embedder="hash") as db:
        assert db.status().experience_stats.total_timesteps == 1
        assert not db.concept_packs().packs
