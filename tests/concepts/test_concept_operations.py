"""The concept tools against the first-light pack itself, on both stores: the hierarchy as
the pack's hierarchy.json has it, every single-concept alias found, short ids resolved."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

import xdb
from tests.concepts.packs import SPEC, concept_files, full, hierarchy, write_pack
from xdb.concepts.finder import normalize
from xdb.errors import InvalidRequest, NotFound


def key_id(key: str) -> str:
    return full(key.rsplit(":", 1)[0])


def test_import_keeps_every_concept_and_is_idempotent(
    pack_db: xdb.Database, first_light: Path
) -> None:
    (pack,) = pack_db.concept_packs().packs
    assert (pack.spec_id, pack.pack_id, pack.version) == (SPEC, "first-light", "1.0.1")
    assert pack.concept_count == 7947
    again = pack_db.import_concepts(path=str(first_light))
    assert again.created is False and again.concept_count == 7947
    assert len(pack_db.concept_packs().packs) == 1


def test_roots_and_children_equal_the_hierarchy_file(
    pack_db: xdb.Database, first_light: Path
) -> None:
    tree = hierarchy(first_light)
    roots = pack_db.concepts(limit=100)
    assert sorted(c.id for c in roots.concepts) == sorted(key_id(k) for k in tree["root_concepts"])
    for parent, children in tree["parent_to_children"].items():
        listed = pack_db.concepts(parent_id=key_id(parent), limit=10_000)
        assert sorted(c.id for c in listed.concepts) == sorted(key_id(k) for k in children), parent
        assert listed.total_count == len(children)
        assert all(c.child_count == len(tree["parent_to_children"].get(
            f"{c.name}:{c.layer}", [])) for c in listed.concepts)  # fmt: skip


def test_every_leaf_reaches_a_root_in_exactly_layer_steps(
    pack_db: xdb.Database, first_light: Path
) -> None:
    tree = hierarchy(first_light)
    roots = {key_id(k) for k in tree["root_concepts"]}
    leaves = sorted(tree["leaf_concepts"])
    if pack_db.store.backend == "postgresql":
        leaves = leaves[::10]  # every leaf on SQLite; a tenth over the network
    for leaf in leaves:
        layer = int(leaf.rsplit(":", 1)[1])
        walk = pack_db.concept_neighborhood(seed_ids=[leaf], max_depth=10, direction="ancestors")
        deepest = max(walk.nodes, key=lambda n: n.depth)
        assert deepest.depth == layer and deepest.id in roots, leaf
        assert [n.depth for n in walk.nodes] == list(range(layer + 1))  # a chain, one parent each


def single_aliases(first_light: Path) -> dict[str, str]:
    owners: dict[str, set[str]] = defaultdict(set)
    for c in concept_files(first_light):
        for alias in c.get("aliases", []):
            owners[normalize(alias)].add(c["term"])
    return {a: next(iter(t)) for a, t in owners.items() if len(t) == 1 and a}


def test_every_alias_naming_one_concept_finds_it_in_the_top_3(
    pack_db: xdb.Database, first_light: Path
) -> None:
    aliases = sorted(single_aliases(first_light).items())
    assert len(aliases) > 10_000
    if pack_db.store.backend == "postgresql":
        aliases = aliases[::20]  # the index is the same Python on both stores
    missed = []
    for alias, term in aliases:
        top = [m.name for m in pack_db.find_concept(query=alias, limit=3).matches]
        if term not in top:
            missed.append((alias, term, top))
    assert missed == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [("Deception", "Deception"), ("decepton", "Deception"), ("rewrd hackng", "RewardHacking"),
     ("reward hacking", "RewardHacking"), ("terpsichore", "Dancing"), ("DANCING", "Dancing")],
)  # fmt: skip
def test_find_concept_is_typo_tolerant_and_ranked(
    pack_db: xdb.Database, query: str, expected: str
) -> None:
    matches = pack_db.find_concept(query=query, limit=5).matches
    assert matches[0].name == expected
    assert [m.score for m in matches] == sorted((m.score for m in matches), reverse=True)


def test_definitions_are_searched_when_no_name_matches(pack_db: xdb.Database) -> None:
    matches = pack_db.find_concept(query="rhythmical steps in time to music", limit=5).matches
    assert "Dancing" in [m.name for m in matches]
    assert {m.matched for m in matches} == {"definition"}


def test_short_forms_resolve_to_the_full_id(pack_db: xdb.Database) -> None:
    for form in ("Dancing", "Dancing:3", full("Dancing")):
        concept = pack_db.get_concept(concept_id=form).concept
        assert concept.id == full("Dancing")
    concept = pack_db.get_concept(concept_id="Dancing").concept
    assert concept.parent_id == full("BodyMotion") and concept.layer == 3
    assert "terpsichore" in concept.aliases and concept.risk_level == "low"
    assert concept.definition.startswith("taking a series of rhythmical steps")


def test_a_concept_keeps_what_the_pack_says(pack_db: xdb.Database, first_light: Path) -> None:
    raw = next(c for c in concept_files(first_light) if c["relationships"].get("has_part"))
    concept = pack_db.get_concept(concept_id=raw["term"]).concept
    assert concept.has_part == raw["relationships"]["has_part"]
    assert concept.related == raw["relationships"]["related"]
    assert concept.antonyms == raw["relationships"]["antonyms"]
    assert concept.treaty_relevant == raw["safety_tags"]["treaty_relevant"]
    assert concept.details["wordnet"] == raw["wordnet"]
    assert json.dumps(concept.details["training_hints"]) == json.dumps(raw["training_hints"])


def test_unknown_concepts_and_packs_are_not_found(pack_db: xdb.Database) -> None:
    with pytest.raises(NotFound, match="NoSuchThing") as caught:
        pack_db.get_concept(concept_id="NoSuchThing")
    assert caught.value.field == "concept_id"
    with pytest.raises(NotFound) as caught:
        pack_db.concepts(pack="nope")
    assert caught.value.field == "pack"


def test_versions_coexist_and_short_forms_mean_the_newest(target: str, tmp_path: Path) -> None:
    with xdb.connect(target, embedder="hash") as db:
        db.import_concepts(path=str(write_pack(tmp_path / "v1", version="1.0.0")))
        db.import_concepts(path=str(write_pack(tmp_path / "v2", version="2.0.0")))
        assert [p.version for p in db.concept_packs().packs] == ["1.0.0", "2.0.0"]
        assert db.get_concept(concept_id="Leaf").concept.pack == "org.test/tiny@2.0.0"
        old = db.get_concept(concept_id="org.test/tiny@1.0.0::concept/Leaf").concept
        assert old.parent_id == "org.test/tiny@1.0.0::concept/Child"
        assert db.concepts(pack="tiny").total_count == 2  # a root per version
        assert db.concepts(pack="org.test/tiny@1.0.0").total_count == 1
        db.import_concepts(path=str(write_pack(tmp_path / "other", pack_id="other")))
        with pytest.raises(InvalidRequest, match="several packs") as caught:
            db.get_concept(concept_id="Leaf")
        assert caught.value.field == "concept_id"


def _spoil(pack: Path, name: str, value: object) -> Path:
    """``pack`` with the file called ``name`` replaced by ``value`` as JSON."""
    (target,) = pack.rglob(name)
    target.write_text(json.dumps(value))
    return pack


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda p: p, ["not a directory"]),
        (lambda p: (p.mkdir(), p)[1], ["no pack.json"]),
        (lambda p: (p.mkdir(), (p / "pack.json").write_text("{"), p)[2], ["not valid JSON"]),
        # A filesystem error on the given path (ENAMETOOLONG) is the caller's, not ours.
        (lambda p: p / ("word " * 1000), ["cannot use", "File name too long"]),
        (lambda p: _spoil(write_pack(p), "leaf.json", {"term": "Leaf", "layer": "two"}), ["layer"]),
        (lambda p: _spoil(write_pack(p), "leaf.json", ["Leaf"]), ["needs a term"]),
        (lambda p: _spoil(write_pack(p), "hierarchy.json", []), ["child_to_parent"]),
    ],
)
def test_a_bad_pack_is_a_clear_error_and_writes_nothing(
    target: str, tmp_path: Path, make: object, words: list[str]
) -> None:
    folder = make(tmp_path / "bad")  # type: ignore[operator]
    with xdb.connect(target, embedder="hash") as db:
        with pytest.raises(InvalidRequest) as caught:
            db.import_concepts(path=str(folder))
        assert caught.value.field == "path"
        for word in words:
            assert word in caught.value.message
        assert db.concept_packs().packs == []
