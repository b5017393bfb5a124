"""The one experience graph, on both stores: every walk equals a breadth-first search the
test computes itself from the raw episodes, pack and links it wrote."""

from __future__ import annotations

from collections.abc import Iterator, Set
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Required, TypedDict

import pytest

import xdb
from tests.concepts.packs import write_pack
from xdb.errors import InvalidRequest, NotFound

SPEC = "org.test/tiny@1.0.0"
TREE: dict[str, str | None] = {
    "Root": None, "A": "Root", "B": "Root", "A1": "A", "A2": "A", "B1": "B",
}  # fmt: skip
RELATED = {"A1": ["B1"]}


def concept(term: str) -> str:
    return f"concept:{SPEC}::concept/{term}"


@dataclass
class World:
    db: xdb.Database
    ids: dict[str, str]  # e1..e7, d1, t1
    edges: set[tuple[str, str, str]]  # (src, relation, dst): what the walk should find


@pytest.fixture
def world(target: str, tmp_path: Path) -> Iterator[World]:
    with xdb.connect(target, embedder="hash") as db:
        db.import_concepts(path=str(write_pack(tmp_path / "pack", tree=TREE, related=RELATED)))
        for n in range(3):
            db.record(session_id="s1", content=f"step {n}", event_type="input")
        ticks = [r.tick for r in db.query(session_id="s1").timesteps]
        plan = [  # name, session, day, concept tags
            ("e1", "s1", 1, ["A1", "candidate/x"]),
            ("e2", "s1", 2, ["A1", "B1"]),
            ("e3", "s1", 3, ["A2"]),
            ("e4", "s1", 4, []),
            ("e5", "s2", 1, ["B1"]),
            ("e6", "s2", 2, ["A1", "B"]),
            ("e7", None, 1, ["Root"]),
        ]
        ids: dict[str, str] = {}
        edges: set[tuple[str, str, str]] = set()
        for name, session, day, tags in plan:
            made = db.add_episode(
                content=f"episode {name}",
                session_id=session,
                time_window={"start_time": f"2025-01-0{day}T10:00:00Z",
                             "end_time": f"2025-01-0{day}T11:00:00Z"},
                concept_tags=[{"concept_id": t if "/" in t else concept(t)[8:], "score": 0.5}
                              for t in tags],
                provenance={"session_id": "s1", "start_tick": ticks[0], "end_tick": ticks[-1]}
                if name == "e1" else None,
            )  # fmt: skip
            ids[name] = made.episode_id
            for t in tags:
                edges.add(
                    (made.episode_id, "TAGGED_BY", "concept:" + (t if "/" in t else concept(t)[8:]))
                )
        for a, b in [("e1", "e2"), ("e2", "e3"), ("e3", "e4"), ("e5", "e6")]:
            edges.add((ids[a], "NEXT", ids[b]))
        edges |= {(ids["e1"], "CONTAINS", f"ts-s1-{t}") for t in ticks}
        edges |= {(concept(c), "CHILD_OF", concept(p)) for c, p in TREE.items() if p}
        edges.add((concept("A1"), "RELATED_CONCEPT", concept("B1")))
        ids["d1"] = db.add_node(node_type="Decision", name="retry the deploy").node_id
        ids["t1"] = db.add_node(node_type="Tool", name="bash").node_id
        assert db.add_node(node_type="Tool", name="bash").created is False  # named: one node
        links: list[tuple[str, str, Literal["INFLUENCED_BY", "CONTAINS"]]] = [
            ("d1", "e2", "INFLUENCED_BY"),
            ("e3", "t1", "CONTAINS"),
        ]
        for src, dst, rel in links:
            assert db.link(src=ids[src], dst=ids[dst], relation=rel).created
            edges.add((ids[src], rel, ids[dst]))
        assert not db.link(src=ids["d1"], dst=ids["e2"]).created  # twice changes nothing
        yield World(db, ids, edges)


def kind_of(node: str) -> str:
    if node.startswith("concept:"):
        return "Concept"
    if node.startswith("decision-"):
        return "Decision"
    if node.startswith("tool:"):
        return "Tool"
    return "Timestep" if node.startswith("ts-") else "Episode"


def bfs(world: World, seeds: list[str], depth: int, relations: Set[str] | None = None,
        types: Set[str] | None = None, direction: str = "both", max_nodes: int = 200,
        ) -> tuple[list[tuple[str, int]], list[tuple[str, str, str]], bool]:  # fmt: skip
    """The walk as specified: level by level, each level's new nodes in id order."""
    edges = {e for e in world.edges if relations is None or e[1] in relations}
    seen = {s: 0 for s in sorted(set(seeds))[:max_nodes]}  # more seeds than room: the first
    frontier, found, truncated = list(seen), set(), len(set(seeds)) > max_nodes
    for level in range(1, 0 if truncated else depth + 1):
        fresh = set()
        for src, rel, dst in edges:
            hit = False
            if direction != "incoming" and src in frontier:
                hit, other = True, dst
                if other not in seen and (types is None or kind_of(other) in types):
                    fresh.add(other)
            if direction != "outgoing" and dst in frontier:
                hit, other = True, src
                if other not in seen and (types is None or kind_of(other) in types):
                    fresh.add(other)
            if hit:
                found.add((src, rel, dst))
        ordered = sorted(fresh)
        room = max_nodes - len(seen)
        if len(ordered) > room:
            ordered, truncated = ordered[:room], True
        seen.update({n: level for n in ordered})
        frontier = ordered
        if truncated or not frontier:
            break
    kept = sorted(e for e in found if e[0] in seen and e[2] in seen)
    return list(seen.items()), kept, truncated


class Walk(TypedDict, total=False):
    """A ``graph_neighborhood`` request by the names of ``World.ids``."""

    seeds: Required[list[str]]
    depth: Required[int]
    relations: set[
        Literal["NEXT", "TAGGED_BY", "CONTAINS", "RELATED_CONCEPT", "INFLUENCED_BY", "CHILD_OF"]
    ]
    types: set[Literal["Episode", "Concept", "Decision", "Tool", "Timestep"]]
    direction: Literal["both", "outgoing", "incoming"]
    max_nodes: int


CASES: list[tuple[Walk, dict[str, object]]] = [
    ({"seeds": ["e1"], "depth": 0}, {}),
    ({"seeds": ["e1"], "depth": 1}, {}),
    ({"seeds": ["e1"], "depth": 2}, {}),
    ({"seeds": ["e1"], "depth": 4}, {}),
    ({"seeds": ["e1", "e5"], "depth": 3}, {}),
    ({"seeds": ["d1"], "depth": 3}, {}),
    ({"seeds": ["e2"], "depth": 3, "relations": {"NEXT"}}, {}),
    ({"seeds": ["e2"], "depth": 3, "relations": {"TAGGED_BY", "CHILD_OF"}}, {}),
    ({"seeds": ["e2"], "depth": 3, "types": {"Episode", "Concept"}}, {}),
    ({"seeds": ["e2"], "depth": 3, "direction": "outgoing"}, {}),
    ({"seeds": ["e2"], "depth": 3, "direction": "incoming"}, {}),
    ({"seeds": ["e2"], "depth": 3, "max_nodes": 4}, {}),
    ({"seeds": ["e2"], "depth": 5, "max_nodes": 1}, {}),
]


@pytest.mark.parametrize(("case", "_"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_every_walk_equals_a_breadth_first_search(
    world: World, case: Walk, _: dict[str, object]
) -> None:
    seeds = [world.ids[s] for s in case["seeds"]]
    nodes, edges, truncated = bfs(
        world, seeds, case["depth"], case.get("relations"), case.get("types"),
        case.get("direction", "both"), case.get("max_nodes", 200),
    )  # fmt: skip
    got = world.db.graph_neighborhood(
        seed_node_ids=seeds,
        max_depth=case["depth"],
        relation_filters=sorted(case["relations"]) if "relations" in case else None,
        node_type_filters=sorted(case["types"]) if "types" in case else None,
        direction=case.get("direction", "both"),
        max_nodes=case.get("max_nodes", 200),
    )
    assert [(n.node_id, n.depth) for n in got.nodes] == nodes
    assert [(e.src, e.type.value, e.dst) for e in got.edges] == edges
    assert got.truncated is truncated


def test_concept_seeds_in_any_form_walk_the_same_graph(world: World) -> None:
    walks = [
        world.db.graph_neighborhood(seed_node_ids=[form], max_depth=2).nodes
        for form in ("A1", "A1:2", concept("A1")[8:], concept("A1"))
    ]
    assert all(w == walks[0] for w in walks)
    nodes, _, _ = bfs(world, [concept("A1")], 2)
    assert [(n.node_id, n.depth) for n in walks[0]] == nodes
    kinds = {n.node_id: (n.type, n.name) for n in walks[0]}
    assert kinds[concept("A")] == ("Concept", "A")
    assert kinds[world.ids["e2"]][0] == "Episode"


def test_a_concept_only_on_episodes_is_a_node_too(world: World) -> None:
    got = world.db.graph_neighborhood(seed_node_ids=["concept:candidate/x"], max_depth=1)
    assert [(n.node_id, n.depth) for n in got.nodes] == bfs(world, ["concept:candidate/x"], 1)[0]


@pytest.mark.parametrize(
    ("seeds", "depth", "max_nodes"),
    [
        (["A"], 3, 200),
        (["A"], 0, 200),
        (["A1"], 1, 200),
        (["A1"], 3, 3),  # stops inside a level
        (["A", "A1"], 2, 200),  # a seed and its child
        (["A1", "B1"], 3, 4),
        (["A1", "B1", "A2"], 2, 2),  # more seeds than max_nodes
    ],
)
def test_the_concept_view_is_the_hierarchy_walk(
    world: World, seeds: list[str], depth: int, max_nodes: int
) -> None:
    """One recursive CTE answers it; it must equal the graph's breadth-first walk, edges
    and truncation included."""
    directions: tuple[tuple[Literal["ancestors", "descendants", "both"], str], ...] = (
        ("ancestors", "outgoing"),
        ("descendants", "incoming"),
        ("both", "both"),
    )
    for direction, way in directions:
        got = world.db.concept_neighborhood(
            seed_ids=seeds, max_depth=depth, direction=direction, max_nodes=max_nodes
        )
        nodes, edges, truncated = bfs(
            world, [concept(s) for s in seeds], depth, {"CHILD_OF"}, None, way, max_nodes
        )
        assert [("concept:" + n.id, n.depth) for n in got.nodes] == nodes, direction
        assert [
            ("concept:" + e.source, "CHILD_OF", "concept:" + e.target) for e in got.edges
        ] == edges, direction
        assert got.truncated == truncated, direction
        assert {e.relation for e in got.edges} <= {"parent"}


def test_episode_detail_shows_the_same_neighbourhood(world: World) -> None:
    detail = world.db.get_episode_detail(
        episode_id=world.ids["e2"], include_graph_neighbors={"depth": 2}
    )
    walk = world.db.graph_neighborhood(seed_node_ids=[world.ids["e2"]], max_depth=2)
    assert detail.graph_neighbors.nodes == walk.nodes
    assert detail.graph_neighbors.edges == walk.edges


def test_deleting_an_episode_removes_its_links(world: World) -> None:
    world.db.delete_episode(episode_id=world.ids["e2"])
    got = world.db.graph_neighborhood(seed_node_ids=[world.ids["d1"]], max_depth=1)
    assert [n.node_id for n in got.nodes] == [world.ids["d1"]] and got.edges == []


def test_bad_links_and_seeds_are_clear_errors_that_write_nothing(world: World) -> None:
    with pytest.raises(NotFound) as caught:
        world.db.link(src=world.ids["d1"], dst="episode-nope")
    assert caught.value.field == "dst"
    with pytest.raises(InvalidRequest) as invalid:
        world.db.link(src=world.ids["e1"], dst=world.ids["e2"], relation="RELATED_CONCEPT")
    assert invalid.value.field == "relation"
    with pytest.raises(InvalidRequest) as invalid:
        world.db.link(src=world.ids["e1"], dst=world.ids["e1"])
    assert invalid.value.field == "dst"
    with pytest.raises(NotFound) as caught:
        world.db.graph_neighborhood(seed_node_ids=["nothing-here"])
    assert caught.value.field == "seed_node_ids"
    got = world.db.graph_neighborhood(seed_node_ids=[world.ids["e1"]], max_depth=1)
    assert {(e.src, e.type.value, e.dst) for e in got.edges} <= world.edges
