"""The leak hunter, on what leaves in bulk: a treaty partner's export (Python, and ``xdb
export --caller`` in a real process) and a sync bundle for its treaty hold no hidden
concept in any record's kind and no object under an access policy the partner cannot
read; the export holds what the partner reads through the API. On both stores, in the
leak hunter's world (``test_leak_hunter.world``) with private and shared objects added.
(There is no HTTP route that exports records: ``sync.export`` is a write, the agent's.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import xdb
from tests.policy import test_leak_hunter as hunt

ADMIN, PARTNER, cid = hunt.ADMIN, hunt.PARTNER, hunt.cid
PRIVATE = "PRIVATE"  # in every object under the self-only policy
SHARED = "SHARED"  # in the objects under the policy the treaty reads
HIDDEN_RUN = "blob://of-a-hidden-run"

world = hunt.world  # the leak hunter's world, made again for this module


@pytest.fixture(scope="module")
def guarded(world: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The world, with objects of each kind under a self-only access policy and some
    under one the treaty reads; yields (db, ids of the private objects)."""
    db, _ = world
    db.data_root = tmp_path_factory.mktemp("files")  # where its bundles go
    admin = db.as_caller(ADMIN)
    admin.set_access_policy(id="home", read_roles=["self"])
    admin.set_access_policy(id="shared", read_roles=["self"], read_treaties=["t-acme"])
    admin.set_caller(id="acme-bot", roles=["partner"], treaty_ids=["t-acme"])
    joy = [{"concept_id": cid("Joy"), "score": 0.7}]
    home = {"access_policy_id": "home"}
    ep = db.add_episode(content=f"a {PRIVATE} walk", session_id="s1", concept_tags=joy, **home)
    exemplar = db.add_exemplar(
        concept_id=cid("Joy"), label="positive", episode_id=ep.episode_id, notes=PRIVATE, **home
    )
    dataset = db.build_dataset(
        target_concept_id=cid("Calm"), name=f"{PRIVATE}-set", sampling={"balance": "skewed"},
        **home,
    )  # fmt: skip
    run = db.record_training_run(type="lens", concept_ids=[cid("Calm")], notes=PRIVATE, **home)
    node = db.add_node(node_type="Decision", name=f"{PRIVATE} call", **home)
    tag = db.create_tag(name=f"{PRIVATE}-tag", tag_type="custom", **home)
    private = [ep.episode_id, exemplar.exemplar.id, dataset.dataset_id, run.training_run_id,
               node.node_id, tag.tag_id]  # fmt: skip
    db.record(event_type="input", content=f"a {PRIVATE} thought", session_id="s1",
              concept_activations={cid("Joy"): 0.5}, **home)  # fmt: skip
    # An artifact about a concept it sees, of a run about one it does not: it goes with its
    # run (listed after it in an export).
    joint = db.record_training_run(type="joint", concept_ids=[cid("Joy"), cid("Plot")])
    db.record_artifact(kind="lens", training_run_id=joint.training_run_id, location=HIDDEN_RUN,
                       checksum="sha256:" + "3" * 64, concept_id=cid("Joy"))  # fmt: skip
    shared = {"access_policy_id": "shared"}
    db.record_training_run(type="lens", concept_ids=[cid("Joy")], notes=SHARED, **shared)
    db.add_node(node_type="Decision", name=f"{SHARED} call", **shared)
    db.add_episode(content=f"a {SHARED} walk", session_id="s1", concept_tags=joy, **shared)
    yield db, private


def partner_export(target: str) -> list[dict[str, Any]]:
    with xdb.connect(target, embedder="hash", caller=PARTNER) as theirs:
        return list(theirs.export_records())


def assert_holds_nothing_hidden(records: Any, private: list[str], where: str) -> None:
    text = json.dumps(records, sort_keys=True)
    hunt.assert_clean(records, where)
    for secret in (PRIVATE, HIDDEN_RUN, *private):
        assert secret not in text, f"{where}: {secret} in the export"


def test_a_partners_export_holds_no_hidden_concept_and_nothing_private(
    guarded: Any, module_target: str
) -> None:
    _, private = guarded
    records = partner_export(module_target)
    assert_holds_nothing_hidden(records, private, "export")
    kinds = {r["kind"] for r in records}
    assert not {"policy_object", "access", "timestep_hold", "compaction"} & kinds
    # What it may see, it gets: every kind that names concepts, with visible ones.
    assert {"tag", "timestep", "episode", "exemplar", "learning_object", "dataset_member",
            "memory_record", "concept", "concept_pack", "graph_edge"} <= kinds  # fmt: skip
    text = json.dumps(records)
    assert cid("Joy") in text and SHARED in text


def test_a_partners_cold_records_name_only_what_its_export_holds(
    guarded: Any, module_target: str
) -> None:
    """A COLD record lists the tags, comments and exemplars its timesteps carried: the
    partner's names only those it reads (as ``query``'s records do), not the hidden
    concept's tag (s-cold's timesteps were tagged Anger before they were compacted)."""
    db, _ = guarded
    records = partner_export(module_target)
    held = {r["id"] for r in records if isinstance(r.get("id"), str)}
    cold = [r for r in records if r["kind"] == "memory_record"]
    assert cold
    named = {i for r in cold for f in ("tag_ids", "comment_ids", "exemplar_ids")
             for i in r["body"].get(f, ())}  # fmt: skip
    assert named <= held, named - held
    anger = {t.id for t in db.tags().tags if t.name == "Anger"}
    assert anger and not anger & named
    shown = db.as_caller(PARTNER).query(session_id="s-cold", limit=1000).records
    assert {r["id"]: list(r["body"]["tag_ids"]) for r in cold if r["session_id"] == "s-cold"} == {
        m.record_id: m.tag_ids for m in shown
    }


def test_a_caller_who_reads_every_object_but_sees_fewer_concepts_exports_none_hidden(
    guarded: Any, module_target: str
) -> None:
    """``self`` under a disclosure policy of its own reads every object: its export is the
    store's whole one, released; no policy objects (they name the hidden concepts)."""
    db, _ = guarded
    own = xdb.Caller(id="filtered", roles=("self",), disclosure_policy_id="partner-view")
    with xdb.connect(module_target, embedder="hash", caller=own) as filtered:
        records = list(filtered.export_records())
    hunt.assert_clean(records, "self under a policy")
    assert not {"policy_object", "access"} & {r["kind"] for r in records}
    assert PRIVATE in json.dumps(records)  # every object, as it reads them all
    assert "policy_object" in {r["kind"] for r in db.export_records()}  # the holder's: whole


def test_the_cli_export_as_the_partner_is_the_pythons(guarded: Any, module_target: str) -> None:
    script = Path(sys.executable).with_name("xdb")
    env = {**os.environ, "XDB_EMBEDDER": "hash", "XDB_DEBUG": ""}
    done = subprocess.run(
        [str(script), "--db", module_target, "--caller", "acme-bot", "export"],
        capture_output=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert_holds_nothing_hidden(records, guarded[1], "xdb export --caller acme-bot")
    assert records == partner_export(module_target)


def test_the_partners_export_holds_what_it_reads_through_the_api(
    guarded: Any, module_target: str, tmp_path: Path
) -> None:
    db, _ = guarded
    partner = db.as_caller(PARTNER)
    records = partner_export(module_target)

    def of(kind: str, obj: str | None = None) -> list[dict[str, Any]]:
        return [r for r in records if r["kind"] == kind and obj in (None, r.get("object"))]

    assert {r["name"] for r in of("tag")} == {t.name for t in partner.tags().tags}
    seen = partner.query(all_sessions=True, limit=1000).timesteps
    assert {r["id"]: r["concept_activations"] for r in of("timestep")} == {
        t.id: t.concept_activations for t in seen
    }
    for r in of("episode"):
        shown = partner.get_episode_detail(episode_id=r["episode_id"]).episode
        assert [t["concept_id"] for t in r["concept_tags"]] == [
            t.concept_id for t in shown.concept_tags
        ]
        assert set(r["motive_profile"]) == set(shown.motive_profile)
        assert [lb["concept_id"] for lb in r["labels"]] == [lb.concept_id for lb in shown.labels]
    page = {"page_size": 1000}
    assert {r["id"] for r in of("exemplar")} == {
        e.id for e in partner.exemplars(page=page).exemplars
    }
    assert {r["id"] for r in of("learning_object", "dataset")} == {
        d.id for d in partner.datasets(page=page).datasets
    }
    runs = {t.id for t in partner.training_runs(page=page).training_runs}
    assert {r["id"] for r in of("learning_object", "training_run")} == runs
    assert {r["id"] for r in of("learning_object", "artifact")} == {
        a.id for run in runs for a in partner.training_run(training_run_id=run).artifacts
    }
    packs = {p.spec_id: p.concept_count for p in partner.concept_packs().packs}
    assert {r["spec_id"]: r["concept_count"] for r in of("concept_pack")} == packs
    assert sum(packs.values()) == len(of("concept"))
    for r in of("concept"):
        shown = partner.get_concept(concept_id=r["id"]).concept
        assert (r["parent_id"], r["child_count"], r["details"]) == (
            shown.parent_id, len(shown.children), {}
        )  # fmt: skip
    # What it holds is an export: it imports whole into another database.
    with xdb.connect(tmp_path / "copy.sqlite3", embedder="hash") as copy:
        counts = copy.import_records(iter(records))
    assert counts["timestep"] == len(of("timestep")) and counts["episode"] == len(of("episode"))


def test_a_sync_bundle_for_the_treaty_holds_only_what_its_partner_reads(guarded: Any) -> None:
    db, private = guarded
    mine = db.sync_export(path="bundle-mine", to="acme")
    theirs = db.sync_export(path="bundle-acme", to="acme", treaty_id="t-acme")

    def bundle(path: str) -> list[Any]:
        files = sorted((Path(path) / "objects").iterdir())
        return [json.loads(f.read_text()) for f in files]

    everything = json.dumps(bundle(mine.path))
    assert PRIVATE in everything and all(i in everything for i in private[1:5])
    objects = bundle(theirs.path)
    assert_holds_nothing_hidden(objects, private, "a bundle for t-acme")
    text = json.dumps(objects)
    assert f"{SHARED} call" in text and SHARED in text and cid("Joy") in text
    assert {"exemplar", "dataset", "training_run", "graph_fragment"} <= set(theirs.objects)
