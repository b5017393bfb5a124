"""xdb migrate: a database copied SQLite -> PostgreSQL -> SQLite loses nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import xdb
from tests.interfaces.cli_runner import fails, ok


def fill(path: Path) -> None:
    with xdb.connect(path, session_id="s1", embedder="hash") as db:
        db.record_batch(
            [
                {"event_type": "input", "content": "deploy the release on friday"},
                {"event_type": "output", "content": "deploying", "event_id": "e1"},
                {
                    "event_type": "output",
                    "content": "done",
                    "event_id": "e1",
                    "event_end": True,
                    "concept_activations": {"C1": 0.7},
                },
            ]
        )
        db.tag(tag_name_or_id="release", session_id="s1", event_id="e1")
        db.comment(content="risky on a friday", session_id="s1", tick_range={"start": 1, "end": 2})
        db.add_episode(content="the cat knocked the vase over", namespace="home")


def records(location: str | Path) -> list[dict[str, Any]]:
    """The export, less its header and the fields a copy legitimately renumbers."""
    with xdb.connect(location, embedder="hash") as db:
        out = []
        for record in db.export_records():
            if record["kind"] != "xdb-export":
                out.append({k: v for k, v in record.items() if k not in ("seq",)})
    return sorted(out, key=lambda r: (r["kind"], str(r.get("id", r.get("session_id")))))


def test_a_round_trip_through_postgresql_loses_nothing(tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "source.sqlite3"
    fill(source)
    result = ok(source, "migrate", "--to", postgres_url, "--no-progress")
    assert result["copied"] == result["verified"]
    assert result["copied"]["timestep"] == 3 and result["copied"]["episode"] == 2

    back = tmp_path / "back.sqlite3"
    again = ok(source, "migrate", "--from", postgres_url, "--to", str(back), "--progress")
    assert again["copied"] == result["copied"]
    assert records(back) == records(source) == records(postgres_url)

    # A second copy finds everything there already and adds nothing.
    twice = ok(source, "migrate", "--to", str(back), "--no-progress")
    assert twice["verified"] == result["verified"]
    with xdb.connect(back, embedder="hash") as db:
        found = db.search_episodes(text_query="vase", namespace="home").episodes
        assert [e.summary for e in found] == ["the cat knocked the vase over"]


def test_migrate_needs_a_target(tmp_path: Path) -> None:
    assert "--to" in fails(tmp_path / "x.sqlite3", "migrate")
