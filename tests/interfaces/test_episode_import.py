"""`xdb import` and `xdb export` with episode records, through the CLI on real SQLite files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import xdb
from tests.interfaces.cli_runner import fails, ok, run

HEADER = {"kind": "xdb-export", "version": 1}
INCIDENT = {
    "kind": "episode",
    "episode_id": "episode-imported-1",
    "episode_kind": "incident",
    "namespace": "proj",
    "session_id": "s9",
    "content": "The deploy failed. We rolled back at 10:05.",
    "time_window": {"start_time": "2025-03-01T10:00:00", "end_time": "2025-03-01T10:05:00Z"},
    "concept_tags": [{"concept_id": "Failure", "score": 0.9}],
    "motive_profile": {"Care": 0.6},
    "metadata": {"source": "slack"},
    "labels": [{"concept_id": "Failure", "label": "positive", "confidence": 0.8}],
    "provenance": {"session_id": "s9", "start_tick": 3, "end_tick": 9, "source": "log"},
    "created_at": "2025-03-01T10:06:00+00:00",
    "created_by": "ops-bot",
}
FOLLOW_UP = {
    "kind": "episode",
    "episode_id": "episode-imported-2",
    "namespace": "proj",
    "session_id": "s9",
    "content": "Fixed the config and redeployed.",
    "time_window": {"start_time": "2025-03-01T11:00:00Z", "end_time": "2025-03-01T11:30:00Z"},
}


def export(db: Path) -> list[dict[str, Any]]:
    result = run(db, "export")
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def write_jsonl(path: Path, *records: dict[str, Any] | str) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "episodes.sqlite3"


def test_episode_records_import_with_their_ids_and_get_vectors(db: Path, tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", HEADER, INCIDENT, FOLLOW_UP)
    counts = ok(db, "import", str(source))
    assert counts == {
        "session": 0,
        "tag": 0,
        "timestep": 0,
        "tag_application": 0,
        "comment": 0,
        "episode": 2,
        "skipped": 0,
    }
    detail = ok(db, "get-episode-detail", "--episode-id", "episode-imported-1")["episode"]
    assert (detail["kind"], detail["namespace"], detail["session_id"]) == ("incident", "proj", "s9")
    assert detail["summary"] == "The deploy failed."  # the default, as add_episode makes it
    assert detail["time_window"] == {
        "start_time": "2025-03-01T10:00:00Z",  # no zone: read as UTC
        "end_time": "2025-03-01T10:05:00Z",
    }
    assert detail["created_at"] == "2025-03-01T10:06:00Z"
    assert detail["concept_tags"] == [{"concept_id": "Failure", "score": 0.9, "kind": "stable"}]
    assert detail["labels"][0]["label"] == "positive"
    assert detail["provenance"]["start_tick"] == 3
    assert detail["next_episode_id"] == "episode-imported-2"  # NEXT links within s9
    # The import woke the embedder: both episodes are vector-searchable.
    with xdb.connect(db, embedder="hash") as database:
        assert database.wait_for_embeddings(30)
        assert database.store.missing_vectors("hash:384", 10) == []
        found = database.search_episodes(text_query="redeployed config", namespace="proj")
        assert found.episodes[0].episode_id == "episode-imported-2"


def test_a_second_import_skips_the_episodes_it_already_has(db: Path, tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", HEADER, INCIDENT, FOLLOW_UP)
    ok(db, "import", str(source))
    before = export(db)
    again = ok(db, "import", str(source))
    assert again["episode"] == 0 and again["skipped"] == 2
    assert export(db) == before


def test_minimal_records_get_defaults_and_new_ids(db: Path, tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", {"kind": "episode", "content": "Just this."})
    assert ok(db, "import", str(source))["episode"] == 1
    (record,) = [r for r in export(db) if r["kind"] == "episode"]
    assert record["episode_id"].startswith("episode-")
    assert (record["episode_kind"], record["namespace"]) == ("other", "default")
    assert record["created_by"] == "import"
    assert record["provenance"]["source"] == "import"
    # Without an id there is nothing to recognise it by: importing it again adds another.
    assert ok(db, "import", str(source))["episode"] == 1


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        ({"kind": "episode", "content": ""}, ["(episode)", "content"]),
        ({"kind": "episode"}, ["(episode)", "content", "required"]),
        ({"kind": "episode", "content": "x", "episode_kind": ""}, ["episode_kind"]),
        (
            {"kind": "episode", "content": "x", "concept_tags": [{"concept_id": "c", "score": 2}]},
            ["concept_tags[0].score"],
        ),
        (
            {
                "kind": "episode",
                "content": "x",
                "time_window": {"start_time": "2025-01-02", "end_time": "2025-01-01"},
            },
            ["time_window", "end_time must not be before start_time"],
        ),
        ({"kind": "episode", "content": "x", "colour": "red"}, ["colour"]),
        ({"kind": "episode", "content": "x", "created_at": "tuesday"}, ["created_at"]),
    ],
)
def test_a_bad_episode_line_names_it_and_its_field_and_writes_nothing(
    db: Path, tmp_path: Path, bad: dict[str, Any], words: list[str]
) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", HEADER, INCIDENT, bad, FOLLOW_UP)
    message = fails(db, "import", str(source))
    assert "line 3 (episode)" in message, message
    for word in words:
        assert word in message, message
    assert export(db) == [HEADER]  # the good episode before it was rolled back too


def test_export_then_import_round_trips_episodes_and_the_log(db: Path, tmp_path: Path) -> None:
    # Episodes three ways: written by hand, made from the log when an event ends, imported.
    ok(db, "record", "deploy staging", "--event-type", "input", "--event-id", "t1",
       "--event-start", "--concept-activations", '{"Deploy": 0.8}')  # fmt: skip
    ok(db, "record", "staging is up", "--event-type", "output", "--event-id", "t1",
       "--event-end")  # fmt: skip
    ok(db, "add-episode", "Rolled back the deploy. It was late.", "--kind", "incident",
       "--namespace", "proj", "--session-id", "s1",
       "--time-window", json.dumps(INCIDENT["time_window"]),
       "--concept-tags", '[{"concept_id": "Failure", "score": 0.9, "kind": "candidate"}]',
       "--motive-profile", '{"Care": 0.6}', "--metadata", '{"ticket": [1, 2]}',
       "--labels", '[{"concept_id": "Failure", "label": "negative", "confidence": 0.5}]',
       "--summary", "A rollback")  # fmt: skip
    ok(db, "import", str(write_jsonl(tmp_path / "extra.jsonl", INCIDENT, FOLLOW_UP)))
    dump = tmp_path / "dump.jsonl"
    counts = ok(db, "export", str(dump))
    assert counts["episode"] == 4 and counts["timestep"] == 2
    original = [json.loads(line) for line in dump.read_text().splitlines()]

    copy = tmp_path / "copy.sqlite3"
    assert ok(copy, "import", str(dump)) == {**counts, "skipped": 0}
    assert export(copy) == original
    for record in original:
        if record["kind"] == "episode":
            args = ["get-episode-detail", "--episode-id", record["episode_id"]]
            args += ["--include-graph-neighbors", '{"depth": 2}']
            assert ok(copy, *args) == ok(db, *args)
