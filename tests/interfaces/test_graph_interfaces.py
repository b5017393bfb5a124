"""Concept packs, the graph and concept usage through every skin: MCP (both protocol eras)
and real HTTP give the same answers as the Python API, and the CLI imports and browses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import xdb
from tests.concepts.packs import write_pack
from tests.interfaces.cli_runner import fails, ok
from tests.interfaces.test_episodes_interfaces import (  # noqa: F401  (fixtures)
    Transport,
    anyio_backend,
    db,
    via,
)
from xdb.ops.catalog import operations

pytestmark = pytest.mark.anyio
TREE: dict[str, str | None] = {"Root": None, "Honesty": "Root", "Candour": "Honesty"}
SPEC = "org.test/tiny@1.0.0"


async def test_concepts_and_the_graph_end_to_end(
    via: Transport,  # noqa: F811
    db: xdb.Database,  # noqa: F811
    tmp_path: Path,
) -> None:
    pack = write_pack(tmp_path / "pack", tree=TREE, aliases={"Candour": ["frankness"]})
    made = await via.ok("xdb.import_concepts", {"path": str(pack)})
    assert made == {"spec_id": SPEC, "created": True, "concept_count": 3, "relation_count": 0}
    assert (await via.ok("xdb.concept_packs", {}))["packs"][0]["spec_id"] == SPEC
    roots = await via.ok("xdb.concepts", {})
    assert [c["name"] for c in roots["concepts"]] == ["Root"]
    children = await via.ok("xdb.concepts", {"parent_id": "Root"})
    assert [(c["name"], c["child_count"]) for c in children["concepts"]] == [("Honesty", 1)]
    found = await via.ok("xdb.find_concept", {"query": "frankness"})
    assert found["matches"][0]["name"] == "Candour"
    got = await via.ok("xdb.get_concept", {"concept_id": "Candour:2"})
    assert got["concept"]["aliases"] == ["frankness"]
    walk = await via.ok(
        "xdb.graph_neighborhood", {"seed_ids": ["Candour"], "direction": "ancestors"}
    )
    assert [(n["name"], n["depth"]) for n in walk["nodes"]] == [
        ("Candour", 0), ("Honesty", 1), ("Root", 2)]  # fmt: skip
    assert walk["edges"][0]["relation"] == "parent"

    tag = {"concept_id": f"{SPEC}::concept/Candour", "score": 0.8}
    episode: dict[str, Any] = await via.ok(
        "experience.add_episode", {"content": "Said it plainly.", "concept_tags": [tag]}
    )
    decision = await via.ok("experience.add_node", {"node_type": "Decision", "name": "be plain"})
    link = await via.ok(
        "experience.link", {"src": decision["node_id"], "dst": episode["episode_id"]}
    )
    assert link["relation"] == "INFLUENCED_BY" and link["created"]
    graph = await via.ok(
        "experience.graph_neighborhood",
        {"seed_node_ids": [decision["node_id"]], "max_depth": 3},
    )
    assert [(n["type"], n["depth"]) for n in graph["nodes"]] == [
        ("Decision", 0), ("Episode", 1), ("Concept", 2), ("Concept", 3)]  # fmt: skip
    assert graph == db.graph_neighborhood(
        seed_node_ids=[decision["node_id"]], max_depth=3
    ).model_dump(mode="json")
    usage = await via.ok(
        "experience.concept_usage_summary",
        {"concept_ids": ["Honesty"], "include_descendants": True},
    )
    (summary,) = usage["concept_summaries"]
    assert (summary["episode_count"], summary["avg_score"]) == (1, 0.8)


async def test_graph_errors_name_the_field(via: Transport) -> None:  # noqa: F811
    failure = await via.fail("xdb.get_concept", {"concept_id": "Nowhere"})
    assert (failure.type, failure.field) == ("not_found", "concept_id")
    # A missing folder inside the data root (one outside it is refused: tests/test_paths.py).
    failure = await via.fail("xdb.import_concepts", {"path": "no/such/dir"})
    assert (failure.type, failure.field) == ("invalid_request", "path")
    failure = await via.fail("experience.graph_neighborhood", {"seed_node_ids": []})
    assert (failure.type, failure.field) == ("invalid_request", "seed_node_ids")
    failure = await via.fail("experience.link", {"src": "decision-x", "dst": "episode-y"})
    assert (failure.type, failure.field) == ("not_found", "src")


def test_the_cli_imports_browses_and_finds(tmp_path: Path) -> None:
    path = tmp_path / "cli.sqlite3"
    pack = write_pack(tmp_path / "pack", tree=TREE, aliases={"Candour": ["frankness"]})
    assert ok(path, "concepts", "import", str(pack))["created"] is True
    assert ok(path, "concepts", "import", str(pack))["created"] is False
    assert [c["name"] for c in ok(path, "concepts")["concepts"]] == ["Root"]
    assert [c["name"] for c in ok(path, "concepts", "--parent-id", "Root")["concepts"]] == [
        "Honesty"
    ]
    assert ok(path, "find-concept", "frankness")["matches"][0]["name"] == "Candour"
    walk = ok(path, "concept-neighborhood", "--seed-ids", "Root", "--direction", "descendants")
    assert [n["name"] for n in walk["nodes"]] == ["Root", "Honesty", "Candour"]
    usage = ok(path, "concept-usage-summary", "--concept-ids", "Candour")
    assert usage["concept_summaries"][0]["episode_count"] == 0
    assert "is a file" in fails(path, "concepts", "import", str(tmp_path / "pack" / "pack.json"))
    assert "concept_id" in fails(path, "get-concept", "--concept-id", "Nowhere")


def test_every_graph_operation_is_tested_here() -> None:
    mine = {"import_concepts", "concept_packs", "concepts", "find_concept", "get_concept",
            "graph_neighborhood", "add_node", "link", "concept_usage_summary"}  # fmt: skip
    groups = {f"{op.group}.{op.name}" for op in operations({"xdb", "experience"})}
    assert {g.split(".", 1)[1] for g in groups} >= mine
