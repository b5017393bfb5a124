"""xdb migrate: a database copied SQLite -> PostgreSQL -> SQLite loses nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import xdb
from tests.interfaces.cli_runner import fails, ok

SPEC = "org.test/tiny@0.1.0"
CHILD = f"{SPEC}::concept/Child"


def write_pack(directory: Path) -> Path:
    """A two-concept pack in HatCat's format: Root (layer 0) and its Child (layer 1)."""

    def write(path: Path, value: Any) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value), encoding="utf-8")

    write(
        directory / "pack.json",
        {"spec_id": SPEC, "pack_id": "org.test/tiny", "version": "0.1.0", "description": "t"},
    )
    write(directory / "hierarchy.json", {"child_to_parent": {"Child:1": "Root:0"}})
    for layer, term, other in ((0, "Root", "Child"), (1, "Child", "Root")):
        write(
            directory / "concepts" / f"layer{layer}" / f"{term.lower()}.json",
            {
                "term": term,
                "layer": layer,
                "definition": f"the {term.lower()} — ünïcode",
                "aliases": [f"{term} alias", "ça"],
                "relationships": {"related": [other]},
                "safety_tags": {
                    "risk_level": "low" if layer else "high",
                    "treaty_relevant": layer == 0,
                    "harness_relevant": layer == 1,
                },
            },
        )
    return directory


def fill(path: Path, pack: Path | None = None) -> str:
    """A database with a log, a tag, a comment and episodes; with ``pack``, also the pack,
    a Decision node and its link to an episode. The decision's id (or "")."""
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
        episode = db.add_episode(content="the cat knocked the vase over", namespace="home")
        if pack is None:
            return ""
        assert db.import_concepts(path=str(pack)).created
        decision = db.add_node(node_type="Decision", name="x", metadata={"why": "vase"}).node_id
        db.link(src=decision, dst=episode.episode_id, note="because")
        return decision


def records(location: str | Path) -> list[dict[str, Any]]:
    """The export, less its header and the fields a copy legitimately renumbers."""
    with xdb.connect(location, embedder="hash") as db:
        out = []
        for record in db.export_records():
            if record["kind"] != "xdb-export":
                out.append({k: v for k, v in record.items() if k not in ("seq",)})
    return sorted(out, key=lambda r: (r["kind"], json.dumps(r, sort_keys=True)))


def graph_view(location: str | Path, decision: str) -> list[Any]:
    """What the concept and graph tools answer about the pack and the decision."""
    with xdb.connect(location, embedder="hash") as db:
        return [
            db.concept_packs().model_dump(mode="json"),
            db.concepts().model_dump(mode="json"),
            db.concepts(parent_id="Root").model_dump(mode="json"),
            db.get_concept(concept_id=CHILD).model_dump(mode="json"),
            db.get_concept(concept_id="Root:0").model_dump(mode="json"),
            db.graph_neighborhood(seed_node_ids=[decision]).model_dump(mode="json"),
            db.graph_neighborhood(seed_node_ids=["Child"], max_depth=1).model_dump(mode="json"),
        ]


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


def test_concept_packs_nodes_and_links_survive_a_round_trip(
    tmp_path: Path, postgres_url: str
) -> None:
    source = tmp_path / "source.sqlite3"
    decision = fill(source, write_pack(tmp_path / "pack"))
    before = graph_view(source, decision)
    # The walk from the decision reaches the episode it links, and the concepts are all there.
    nodes = {n["node_id"]: n for n in before[5]["nodes"]}
    assert nodes[decision]["name"] == "x" and len(before[5]["edges"]) >= 1
    assert before[3]["concept"]["aliases"] == ["Child alias", "ça"]
    assert before[3]["concept"]["related"] == ["Root"]
    assert before[3]["concept"]["parent_id"] == f"{SPEC}::concept/Root"

    exported = records(source)
    kinds = [r["kind"] for r in exported]
    assert {k: kinds.count(k) for k in ("concept_pack", "concept", "graph_node", "graph_edge")} == {
        "concept_pack": 1,
        "concept": 2,
        "graph_node": 1,
        "graph_edge": 3,  # Root and Child RELATED_CONCEPT each other; the decision's link
    }
    concept = next(r for r in exported if r["kind"] == "concept" and r["id"] == CHILD)
    assert concept["aliases"] == ["Child alias", "ça"]  # JSON values, not strings
    assert concept["details"]["relationships"] == {"related": ["Root"]}
    with xdb.connect(source, embedder="hash") as db:
        dump = list(db.export_records())
    order = [r["kind"] for r in dump]
    assert order.index("concept_pack") < order.index("concept")  # packs before their concepts

    result = ok(source, "migrate", "--to", postgres_url, "--no-progress")
    assert result["copied"] == result["verified"]
    assert result["copied"]["concept"] == 2 and result["copied"]["graph_edge"] == 3
    back = tmp_path / "back.sqlite3"
    again = ok(source, "migrate", "--from", postgres_url, "--to", str(back), "--no-progress")
    assert again["copied"] == result["copied"]
    assert records(back) == records(postgres_url) == exported
    assert graph_view(back, decision) == graph_view(postgres_url, decision) == before

    # Importing the same records again changes nothing, on either store.
    for location in (postgres_url, back):
        with xdb.connect(location, embedder="hash") as db:
            counts = db.import_records(dump)
        assert {k: counts[k] for k in ("concept_pack", "concept", "graph_node", "graph_edge")} == {
            "concept_pack": 0,
            "concept": 0,
            "graph_node": 0,
            "graph_edge": 0,
        }
        assert counts["skipped"] == len(exported)
        assert records(location) == exported
        assert graph_view(location, decision) == before


def test_migrate_needs_a_target(tmp_path: Path) -> None:
    assert "--to" in fails(tmp_path / "x.sqlite3", "migrate")
