"""The learning harness on both stores: bud lifecycle, exemplars, reproducible datasets
(across runs, processes and stores), frozen members, training runs, and tribe sync."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import xdb

LIE = "c/lie"


def corpus(db: xdb.Database, n: int = 30) -> list[str]:
    """Episodes: every third tagged LIE; the content repeats every twelve (duplicates)."""
    ids = []
    for i in range(n):
        tags = (
            [{"concept_id": LIE, "score": 0.9}]
            if i % 3 == 0
            else [{"concept_id": "c/x", "score": 0.4}]
        )
        kind = "refund" if i % 2 else "weather"
        made = db.add_episode(content=f"talk {i % 12} about the {kind}", concept_tags=tags)
        ids.append(made.episode_id)
    return ids


def members(db: xdb.Database, dataset_id: str) -> list[tuple[str, str, str]]:
    found = db.dataset(dataset_id=dataset_id, limit=1000).members
    return [(m.episode_id, m.polarity, m.text) for m in found]


def test_the_same_inputs_and_seed_give_the_same_dataset(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        corpus(db)
        ask: dict[str, Any] = {"target_concept_id": LIE, "max_positive": 5, "max_negative": 5,
                               "sampling": {"random_seed": 11}}  # fmt: skip
        first = db.build_dataset(**ask)
        again = db.build_dataset(**ask)
        other = db.build_dataset(**{**ask, "sampling": {"random_seed": 12}})
        assert (first.version, again.version) == (1, 2)
        assert first.positive_exemplar_ids == again.positive_exemplar_ids
        assert members(db, first.dataset_id) == members(db, again.dataset_id)
        assert members(db, first.dataset_id) != members(db, other.dataset_id)
        mine = members(db, first.dataset_id)
    # Another process, on the same data, draws the same.
    script = (
        "import json, sys, xdb\n"
        "with xdb.connect(sys.argv[1], embedder='hash') as db:\n"
        "    made = db.build_dataset(**json.loads(sys.argv[2]))\n"
        "    found = db.dataset(dataset_id=made.dataset_id, limit=1000).members\n"
        "    print(json.dumps([[m.episode_id, m.polarity, m.text] for m in found]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, target, json.dumps(ask)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert [tuple(m) for m in json.loads(out.stdout)] == mine


def test_both_stores_draw_the_same_dataset(tmp_path: Path, postgres_url: str) -> None:
    drawn = []
    for target in (str(tmp_path / "a.sqlite3"), postgres_url):
        with xdb.connect(target, embedder="hash") as db:
            corpus(db)
            made = db.build_dataset(target_concept_id=LIE, max_positive=4, max_negative=6,
                                    sampling={"balance": "skewed", "random_seed": 5})  # fmt: skip
            drawn.append([(p, t) for _, p, t in members(db, made.dataset_id)])
    assert drawn[0] == drawn[1] and len(drawn[0]) == 10


def test_sides_are_disjoint_deduplicated_and_balanced_with_a_reason(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        ids = corpus(db)
        made = db.build_dataset(target_concept_id=LIE, max_positive=50, max_negative=50)
        got = members(db, made.dataset_id)
        positives = [e for e, p, _ in got if p == "positive"]
        negatives = [e for e, p, _ in got if p == "negative"]
        assert not set(positives) & set(negatives)
        assert all(ids.index(e) % 3 == 0 for e in positives)
        texts = [t for _, _, t in got]
        assert len(texts) == len(set(texts))  # one episode per content
        assert len(positives) == len(negatives) == 4  # 10 tagged, 4 distinct contents
        assert made.balance_note is not None and "positives" in made.balance_note
        skewed = db.build_dataset(target_concept_id=LIE, sampling={"balance": "skewed"})
        assert len(skewed.negative_exemplar_ids) > len(skewed.positive_exemplar_ids)
        with pytest.raises(xdb.NotFound, match="names no concept") as unknown:
            db.build_dataset(target_concept_id="c/nothing")  # nothing names it
        assert unknown.value.field == "target_concept_id"
        db.add_exemplar(concept_id="c/nothing", label="negative", episode_id=ids[0])
        with pytest.raises(xdb.InvalidRequest) as none:
            db.build_dataset(target_concept_id="c/nothing")  # named, but on no episode
        assert none.value.field == "positive_filters"


def test_polarity_absent_and_text_filters(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        ids = corpus(db)
        made = db.build_dataset(
            target_concept_id=LIE,
            positive_filters={"concept_filters": [{"concept_id": LIE}], "text_query": "refund"},
            negative_filters={"concept_filters": [{"concept_id": LIE, "polarity": "absent"}],
                              "text_query": "weather"},
            sampling={"balance": "skewed"},
        )  # fmt: skip
        for episode_id, polarity, text in members(db, made.dataset_id):
            if polarity == "positive":
                assert "refund" in text and ids.index(episode_id) % 3 == 0
            else:
                assert "weather" in text and ids.index(episode_id) % 3 != 0


def test_a_dataset_stays_as_built_when_its_episodes_change(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        corpus(db, 12)
        made = db.build_dataset(target_concept_id=LIE, sampling={"balance": "skewed"})
        before = members(db, made.dataset_id)
        for episode_id, _, _ in before:
            db.delete_episode(episode_id=episode_id)
        assert members(db, made.dataset_id) == before
        assert db.dataset(dataset_id=made.dataset_id).dataset.version == 1


def test_exemplars_label_episodes_and_ranges(target: str) -> None:
    with xdb.connect(target, embedder="hash", session_id="s") as db:
        ids = corpus(db, 6)
        for i in range(3):
            db.record(event_type="output", content=f"tok {i}")
        on_ep = db.add_exemplar(concept_id="c/new", label="positive", episode_id=ids[1],
                                label_source="teacher", confidence=0.7).exemplar  # fmt: skip
        on_ticks = db.add_exemplar(concept_id="c/new", label="negative",
                                   tick_range={"start": 0, "end": 1}).exemplar  # fmt: skip
        assert on_ticks.session_id == "s" and on_ticks.tick_range is not None
        role = [{"concept_id": "c/new", "role": "exemplar_label"}]
        assert [e.episode_id for e in db.search_episodes(concept_filters=role).episodes] == [ids[1]]
        detail = db.get_episode_detail(episode_id=ids[1]).episode
        assert [(lb.concept_id, lb.label_source) for lb in detail.labels] == [("c/new", "teacher")]
        assert db.exemplars(concept_id="c/new").total_count == 2
        with pytest.raises(xdb.NotFound) as missing:
            db.add_exemplar(
                concept_id="c/new", label="positive", tick_range={"start": 50, "end": 60}
            )
        assert missing.value.field == "tick_range"
        assert db.remove_exemplar(exemplar_id=on_ep.id).removed
        assert db.search_episodes(concept_filters=role).episodes == []
        assert db.get_episode_detail(episode_id=ids[1]).episode.labels == []


def test_illegal_bud_moves_change_nothing(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        bud = db.create_tag(name="hunch", tag_type="bud", review_required=True).tag_id
        with pytest.raises(xdb.InvalidRequest, match="ready, training, abandoned, rejected"):
            db.set_bud_status(bud_tag_id=bud, status="validating")
        db.set_bud_status(bud_tag_id=bud, status="training")
        with pytest.raises(xdb.InvalidRequest, match="approving review"):
            db.promote_bud(bud_tag_id=bud)
        assert db.buds().buds[0].status == "training"
        db.set_bud_status(bud_tag_id=bud, review_status="approved")
        tags = [{"concept_id": "hunch", "score": 0.7, "kind": "candidate"}]
        db.add_episode(content="a hunch it was", concept_tags=tags)
        assert db.promote_bud(bud_tag_id=bud).previous_status == "training"
        assert db.get_concept("hunch").concept.id == "hunch"
        usage = db.concept_usage_summary(concept_ids=["hunch"]).concept_summaries[0]
        assert usage.episode_count == 1 and usage.kind == "stable"
        assert db.list_candidate_concepts(status=["promoted"]).candidate_concepts[0].id == "hunch"


def test_sync_round_trip_is_equal_by_hash_idempotent_and_reports_conflicts(
    target: str, tmp_path: Path
) -> None:
    source = tmp_path / "source.sqlite3"
    with xdb.connect(source, embedder="hash") as db:
        ids = corpus(db, 9)
        db.create_tag(
            name="hunch", tag_type="bud", description="a feeling", relations={LIE: "overlaps"}
        )
        db.create_tag(name="clash", tag_type="bud", description="theirs")
        db.add_exemplar(concept_id=LIE, label="positive", episode_id=ids[0], notes="plain")
        built = db.build_dataset(target_concept_id=LIE, sampling={"balance": "skewed"})
        run = db.record_training_run(type="lens", concept_ids=[LIE], dataset_ids=[built.dataset_id])
        db.record_artifact(kind="lens", training_run_id=run.training_run_id, location="blob://l",
                           checksum="sha256:" + "a" * 64)  # fmt: skip
        decision = db.add_node(node_type="Decision", name="ask again").node_id
        db.link(src=decision, dst=ids[0])
        out = db.sync_export(path=str(tmp_path / "bundle"), to="tribeA")
    assert out.objects == {"candidate_concept": 2, "exemplar": 1, "dataset": 1,
                           "training_run": 1, "artifact": 1, "graph_fragment": 1}  # fmt: skip
    with xdb.connect(target, embedder="hash") as other:
        other.create_tag(name="clash", tag_type="bud", description="ours")
        first = other.sync_import(path=str(tmp_path / "bundle"))
        assert first.imported == {"candidate_concept": 1, "exemplar": 1, "dataset": 1,
                                  "training_run": 1, "artifact": 1,
                                  "graph_fragment": 1}  # fmt: skip
        assert [(c.kind, c.id) for c in first.conflicts] == [("candidate_concept", "clash")]
        again = other.sync_import(path=str(tmp_path / "bundle"))
        assert again.imported == {} and again.unchanged == 6 and len(again.conflicts) == 1
        copy = other.sync_export(path=str(tmp_path / "copy"), kinds=["dataset", "training_run"])
    names = {p.name for p in (tmp_path / "bundle" / "objects").iterdir()}
    assert {p.name for p in (tmp_path / "copy" / "objects").iterdir()} <= names
    assert copy.objects == {"dataset": 1, "training_run": 1}


def test_a_tampered_bundle_is_refused_whole(target: str, tmp_path: Path) -> None:
    with xdb.connect(tmp_path / "s.sqlite3", embedder="hash") as db:
        db.create_tag(name="hunch", tag_type="bud")
        corpus(db, 6)
        db.build_dataset(target_concept_id=LIE, sampling={"balance": "skewed"})
        db.sync_export(path=str(tmp_path / "b"))
    (victim,) = [p for p in (tmp_path / "b" / "objects").iterdir() if b"talk" in p.read_bytes()]
    victim.write_bytes(victim.read_bytes().replace(b"talk", b"walk"))  # the dataset's members
    with xdb.connect(target, embedder="hash") as other:
        with pytest.raises(xdb.InvalidRequest, match="does not match its hash") as bad:
            other.sync_import(path=str(tmp_path / "b"))
        assert bad.value.field == "path"
        assert other.buds().buds == [] and other.datasets().datasets == []


def test_a_receivers_disclosure_policy_leaves_hidden_concepts_out(tmp_path: Path) -> None:
    with xdb.connect(tmp_path / "s.sqlite3", embedder="hash") as db:
        corpus(db, 6)
        admin = db.as_caller(xdb.Caller(id="ops", roles=("admin",)))
        admin.set_disclosure_policy(id="only-x", allow={"concepts": ["c/x"]})
        db.build_dataset(target_concept_id=LIE, sampling={"balance": "skewed"})
        db.record_training_run(type="lens", concept_ids=["c/x"])
        out = db.sync_export(path=str(tmp_path / "b"), disclosure_policy_id="only-x")
    assert out.objects == {"training_run": 1}
    assert out.left_out == {"the receiver's disclosure policy hides its concept": 1}


def test_an_export_carries_what_was_learned_to_the_other_store(target: str, tmp_path: Path) -> None:
    with xdb.connect(tmp_path / "from.sqlite3", embedder="hash", session_id="s") as db:
        ids = corpus(db, 6)
        db.record(event_type="output", content="tok")
        db.create_tag(name="hunch", tag_type="bud", relations={LIE: "overlaps"})
        db.add_exemplar(concept_id=LIE, label="positive", episode_id=ids[1], notes="kept")
        db.add_exemplar(concept_id=LIE, label="negative", tick_range={"start": 1, "end": 1})
        built = db.build_dataset(target_concept_id=LIE, sampling={"balance": "skewed"})
        db.record_training_run(type="lens", concept_ids=[LIE], dataset_ids=[built.dataset_id])
        records = list(db.export_records())
        before = (
            [(e.id, e.notes) for e in db.exemplars(page={"page_size": 100}).exemplars],
            members(db, built.dataset_id),
            db.buds().buds[0].related_concepts,
        )
    with xdb.connect(target, embedder="hash") as other:
        other.import_records(records)
        other.import_records(records)  # again: nothing more
        after = (
            [(e.id, e.notes) for e in other.exemplars(page={"page_size": 100}).exemplars],
            members(other, built.dataset_id),
            other.buds().buds[0].related_concepts,
        )
        assert after == before
        assert other.training_runs().total_count == 1
        labels = other.get_episode_detail(episode_id=ids[1]).episode.labels
        assert [(lb.concept_id, lb.label) for lb in labels] == [(LIE, "positive")]


def test_an_exported_dataset_reads_back_with_pyarrow(target: str, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    with xdb.connect(target, embedder="hash") as db:
        corpus(db, 12)
        own = db.add_episode(
            content="a lie of its own", concept_tags=[{"concept_id": LIE, "score": 0.9}]
        )
        db.add_exemplar(concept_id=LIE, label="positive", episode_id=own.episode_id,
                        label_source="human", confidence=0.6)  # fmt: skip
        made = db.build_dataset(target_concept_id=LIE, sampling={"balance": "skewed"})
        written = db.export_dataset(dataset_id=made.dataset_id, path=str(tmp_path / "d.parquet"))
        frozen = db.dataset(dataset_id=made.dataset_id, limit=1000).members
    rows = pq.read_table(written.path).to_pylist()
    assert written.rows == len(rows) == len(frozen)
    assert [(r["episode_id"], r["label"], r["text"]) for r in rows] == [
        (m.episode_id, m.polarity, m.text) for m in frozen
    ]
    assert {r["label_value"] for r in rows} == {0, 1}
    human = [r for r in rows if r["label_source"] == "human"]
    assert len(human) == 1 and human[0]["confidence"] == 0.6
    assert json.loads(human[0]["provenance"])["episode_id"] == human[0]["episode_id"]


def test_sync_leaves_out_what_may_not_be_exported(tmp_path: Path) -> None:
    with xdb.connect(tmp_path / "s.sqlite3", embedder="hash") as db:
        corpus(db, 6)
        admin = db.as_caller(xdb.Caller(id="ops", roles=("self", "admin")))
        admin.set_access_policy(id="home-only", read_roles=["self"], allow_export=False)
        db.build_dataset(target_concept_id=LIE, sampling={"balance": "skewed"},
                         access_policy_id="home-only")  # fmt: skip
        db.build_dataset(target_concept_id=LIE, sampling={"balance": "skewed"}, name="shared")
        out = db.sync_export(path=str(tmp_path / "b"), kinds=["dataset"])
    assert out.objects == {"dataset": 1}
    assert out.left_out == {"access policy does not allow export": 1}


def test_sync_leaves_out_no_export_nodes_episodes_and_hidden_relations(tmp_path: Path) -> None:
    with xdb.connect(tmp_path / "s.sqlite3", embedder="hash") as db:
        ids = corpus(db, 3)
        admin = db.as_caller(xdb.Caller(id="ops", roles=("self", "admin")))
        admin.set_access_policy(id="home-only", read_roles=["self"], allow_export=False)
        admin.assign_access_policy(policy_id="home-only", episode_ids=[ids[0]])
        admin.set_disclosure_policy(id="no-secret", allow={"concepts": [LIE, "c/x", "hunch"]},
                                    candidates_visible=True)  # fmt: skip
        db.add_node(node_type="Decision", name="private call", access_policy_id="home-only")
        db.add_exemplar(concept_id=LIE, label="positive", episode_id=ids[0], notes="home")
        db.create_tag(name="hunch", tag_type="bud",
                      relations={"c/secret": "overlaps", LIE: "narrower"},
                      initial_episode_ids=[ids[0], ids[1]])  # fmt: skip
        db.sync_export(path=str(tmp_path / "b"), disclosure_policy_id="no-secret")
    bundle = [p.read_text() for p in (tmp_path / "b" / "objects").iterdir()]
    text = "\n".join(bundle)
    assert "private call" not in text and "home" not in text and "c/secret" not in text
    assert ids[0] not in text and ids[1] in text
