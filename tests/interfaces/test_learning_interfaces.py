"""The learning harness through every skin: MCP (both protocol eras) and real HTTP give
the same answers as the Python API; the CLI builds and exports a dataset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import xdb
from tests.interfaces.cli_runner import ok
from tests.interfaces.test_episodes_interfaces import (  # noqa: F401  (fixtures)
    Transport,
    anyio_backend,
    db,
    via,
)

pytestmark = pytest.mark.anyio

LEARNING_OPERATIONS = (
    "experience.list_candidate_concepts",
    "experience.add_exemplar",
    "experience.exemplars",
    "experience.remove_exemplar",
    "experience.build_dataset",
    "experience.datasets",
    "experience.dataset",
    "experience.export_dataset",
    "experience.record_training_run",
    "experience.training_runs",
    "experience.training_run",
    "experience.record_artifact",
)


async def test_buds_from_first_example_to_stable_concept(via: Transport) -> None:  # noqa: F811
    made = await via.ok(
        "xdb.create_tag",
        {"name": "candidate/hedging", "tag_type": "bud", "description": "Answers that hedge",
         "relations": {"Honesty": "overlaps"}, "tribe_id": "tribeA"},
    )  # fmt: skip
    bud = made["tag_id"]
    for i in range(3):
        step = await via.ok("xdb.record", {"event_type": "output", "content": f"maybe {i}"})
        await via.ok("xdb.tag", {"tag_name_or_id": bud, "timestep_id": step["timestep_id"]})
    await via.ok("xdb.record", {"event_type": "output", "content": "a", "event_id": "e"})
    await via.ok(
        "xdb.record", {"event_type": "output", "content": "b", "event_id": "e", "event_end": True}
    )
    await via.ok("xdb.tag", {"tag_name_or_id": "candidate/hedging", "event_id": "e"})

    listed = await via.ok("xdb.buds", {"status": "collecting"})
    (shown,) = listed["buds"]
    assert shown["example_count"] == 5 and shown["governance"]["tribe_id"] == "tribeA"
    assert shown["related_concepts"] == [{"concept_id": "Honesty", "relation": "overlaps"}]
    first = await via.ok("xdb.bud_examples", {"bud_tag_id": bud, "limit": 4})
    rest = await via.ok("xdb.bud_examples", {"bud_tag_id": bud, "cursor": first["next_cursor"]})
    contents = [t["content"] for t in first["examples"] + rest["examples"]]
    assert contents == ["maybe 0", "maybe 1", "maybe 2", "a", "b"]
    assert first["example_count"] == 5 and rest["next_cursor"] is None

    ready = await via.ok("xdb.bud_ready", {"bud_tag_id": bud, "reason": "enough"})
    assert (ready["previous_status"], ready["new_status"]) == ("collecting", "ready")
    refused = await via.fail("xdb.set_bud_status", {"bud_tag_id": bud, "status": "validating"})
    assert refused.type == "invalid_request" and refused.field == "status"
    assert "collecting, training, abandoned, rejected" in refused.message
    moved = await via.ok("xdb.set_bud_status", {"bud_tag_id": bud, "status": "training"})
    assert "promoted" in moved["allowed_next"]
    candidates = await via.ok(
        "experience.list_candidate_concepts", {"status": ["training"], "tribe_id": "tribeA"}
    )
    assert [c["id"] for c in candidates["candidate_concepts"]] == ["candidate/hedging"]
    assert (await via.ok("experience.list_candidate_concepts", {"status": ["collecting"]}))[
        "candidate_concepts"
    ] == []

    promoted = await via.ok("xdb.promote_bud", {"bud_tag_id": bud})
    assert promoted["concept_id"] == "candidate/hedging" and promoted["spec_id"] == "local@1"
    found = await via.ok("xdb.find_concept", {"query": "candidate/hedging"})
    assert found["matches"][0]["id"] == "candidate/hedging"
    walk = await via.ok("xdb.graph_neighborhood", {"seed_ids": ["candidate/hedging"]})
    assert [n["name"] for n in walk["nodes"]][:1] == ["candidate/hedging"]
    history = (await via.ok("xdb.buds", {"status": "promoted"}))["buds"][0]["history"]
    assert [h["to_status"] for h in history] == [
        "collecting", "ready", "training", "promoted"]  # fmt: skip
    again = await via.fail("xdb.set_bud_status", {"bud_tag_id": bud, "status": "collecting"})
    assert "none: it is final" in again.message


async def test_exemplars_datasets_and_training_runs(via: Transport, db: xdb.Database) -> None:  # noqa: F811
    ids = []
    for i in range(12):
        concept = "c/lie" if i % 2 else "c/truth"
        made = await via.ok(
            "experience.add_episode",
            {"content": f"statement {i}", "concept_tags": [{"concept_id": concept, "score": 0.9}]},
        )
        ids.append(made["episode_id"])
    added = await via.ok(
        "experience.add_exemplar",
        {"concept_id": "c/lie", "label": "positive", "episode_id": ids[0],
         "label_source": "human", "confidence": 0.8, "notes": "a lie, said plainly"},
    )  # fmt: skip
    exemplar = added["exemplar"]["id"]
    labelled = await via.ok(
        "experience.search_episodes",
        {"label_filters": {"concept_id": "c/lie", "label": "positive"}},
    )
    assert [e["episode_id"] for e in labelled["episodes"]] == [ids[0]]
    listing = await via.ok("experience.exemplars", {"concept_id": "c/lie"})
    assert listing["total_count"] == 1 and listing["exemplars"][0]["notes"] == "a lie, said plainly"

    built = await via.ok(
        "experience.build_dataset",
        {"target_concept_id": "c/lie", "max_positive": 4, "max_negative": 4,
         "sampling": {"balance": "balanced", "random_seed": 3}},
    )  # fmt: skip
    assert len(built["positive_exemplar_ids"]) == len(built["negative_exemplar_ids"]) == 4
    assert built["dataset_id"].endswith("-v1") and built["version"] == 1
    shown = await via.ok("experience.dataset", {"dataset_id": built["dataset_id"], "limit": 8})
    polarities = {m["episode_id"]: m["polarity"] for m in shown["members"]}
    assert len(polarities) == 8
    for episode_id, polarity in polarities.items():  # the sides never cross
        assert (ids.index(episode_id) % 2 == 1 or episode_id == ids[0]) == (polarity == "positive")
    listed = await via.ok("experience.datasets", {"concept_id": "c/lie"})
    assert [d["id"] for d in listed["datasets"]] == [built["dataset_id"]]

    run = await via.ok(
        "experience.record_training_run",
        {"type": "lens", "concept_ids": ["c/lie"], "dataset_ids": [built["dataset_id"]],
         "hyperparams": {"epochs": 3}},
    )  # fmt: skip
    run_id = run["training_run_id"]
    assert run["created"] and run["status"] == "running"
    protected = await via.ok("experience.dataset", {"dataset_id": built["dataset_id"], "limit": 0})
    assert protected["dataset"]["protected"] is True
    member_label = [m for m in shown["members"] if m["episode_id"] == ids[0]]
    if member_label:  # the labelled episode was drawn: its exemplar is protected
        refused = await via.fail("experience.remove_exemplar", {"exemplar_id": exemplar})
        assert refused.type == "conflict" and refused.field == "exemplar_id"
    checksum = "sha256:" + "ab" * 32
    art = await via.ok(
        "experience.record_artifact",
        {"kind": "lens", "training_run_id": run_id, "location": "blob://lens-1",
         "checksum": checksum, "concept_id": "c/lie"},
    )  # fmt: skip
    done = await via.ok(
        "experience.record_training_run",
        {"id": run_id, "type": "lens", "concept_ids": ["c/lie"],
         "dataset_ids": [built["dataset_id"]], "status": "succeeded",
         "metrics": {"val_f1": 0.9}},
    )  # fmt: skip
    assert done["created"] is False
    got = await via.ok("experience.training_run", {"training_run_id": run_id})
    assert got["training_run"]["metrics"] == {"val_f1": 0.9}
    assert [a["id"] for a in got["artifacts"]] == [art["artifact_id"]]
    assert got["artifacts"][0]["checksum"] == checksum
    runs = await via.ok("experience.training_runs", {"status": "succeeded"})
    assert [r["id"] for r in runs["training_runs"]] == [run_id]
    removed = await via.ok("experience.remove_exemplar", {"exemplar_id": exemplar})
    assert removed["removed"] is True
    again = await via.ok("experience.remove_exemplar", {"exemplar_id": exemplar})
    assert again["removed"] is False
    assert (await via.ok("experience.exemplars", {"concept_id": "c/lie"}))["total_count"] == 0
    unknown = await via.fail("experience.dataset", {"dataset_id": "dataset-nope-v1"})
    assert unknown.type == "not_found" and unknown.field == "dataset_id"


def test_the_cli_builds_shows_and_exports_a_dataset(tmp_path: Path) -> None:
    path = tmp_path / "cli.sqlite3"
    with xdb.connect(path, embedder="hash") as database:
        for i in range(6):
            tags = [{"concept_id": "c/x", "score": 0.7}] if i < 3 else []
            database.add_episode(content=f"note {i}", concept_tags=tags)
    built = ok(path, "build-dataset", "c/x", "--max-positive", "3", "--max-negative", "3")
    shown = ok(path, "dataset", "show", built["dataset_id"])
    assert shown["dataset"]["positive_count"] == 3 and len(shown["members"]) == 6
    out = tmp_path / "train.jsonl"
    written = ok(path, "dataset", "export", built["dataset_id"], "--path", str(out))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert written["rows"] == len(rows) == 6
    assert {r["label"] for r in rows} == {"positive", "negative"}
    assert all(set(r) >= {"text", "label", "confidence", "provenance"} for r in rows)


def test_the_xapi_bud_routes_take_their_path_parameters(db: xdb.Database) -> None:  # noqa: F811
    import httpx

    from tests.interfaces.test_episodes_interfaces import serving

    bud = db.create_tag(name="hunch", tag_type="bud").tag_id
    step = db.record(event_type="input", content="a hunch", session_id="s1")
    db.tag(tag_name_or_id=bud, timestep_id=step.timestep_id)
    with serving(db) as url:
        listed = httpx.get(f"{url}/v1/xdb/buds/s1", params={"status": "collecting"})
        assert [b["name"] for b in listed.json()["buds"]] == ["hunch"]
        examples = httpx.get(f"{url}/v1/xdb/bud-examples/s1/{bud}")
        assert examples.json()["example_count"] == 1
        ready = httpx.post(f"{url}/v1/xdb/bud-ready/s1/{bud}")
        assert ready.status_code == 200 and ready.json()["new_status"] == "ready"
        clash = httpx.post(f"{url}/v1/xdb/bud-ready/s1/{bud}", json={"bud_tag_id": "other"})
        assert clash.status_code == 400 and clash.json()["error"]["field"] == "bud_tag_id"
        missing = httpx.post(f"{url}/v1/xdb/bud-ready/s1/nope")
        assert missing.status_code == 404
