"""Fidelity under access policy: records are as private as what they replaced, carry only
what the reader reads, follow their episode's policy; compaction and maintenance run only
for callers who read everything and leave what they may not delete."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypedDict, Unpack

import pytest

import xdb
from tests.fidelity.conftest import ADMIN

GUEST = xdb.Caller(id="guest", roles=("guest",))
OPS = xdb.Caller(id="ops", roles=("admin",))  # an admin who does not read "private"


@pytest.fixture
def db(target: str) -> Iterator[xdb.Database]:
    with xdb.connect(target, session_id="s1", embedder="hash") as handle:
        handle.as_caller(ADMIN).set_access_policy(
            id="private", read_roles=["self"], write_roles=["self"], delete_roles=["self"]
        )
        handle.as_caller(ADMIN).set_access_policy(
            id="open", read_roles=["*"], write_roles=["self"], delete_roles=["self"]
        )
        yield handle


class Where(TypedDict, total=False):
    access_policy_id: str
    session_id: str


def steps(db: xdb.Database, n: int, **kw: Unpack[Where]) -> list[str]:
    return [
        db.record(event_type="input", content=f"step {i} of the deploy", **kw).timestep_id
        for i in range(n)
    ]


def test_a_record_shows_a_reader_only_the_annotations_it_reads(db: xdb.Database) -> None:
    steps(db, 4, access_policy_id="open")
    hidden_tag = db.create_tag(name="plan", tag_type="custom", access_policy_id="private").tag_id
    db.tag(tag_name_or_id=hidden_tag, tick_range={"start": 1, "end": 2})
    db.tag(tag_name_or_id="weather", tick_range={"start": 1, "end": 2})
    hidden = db.comment(content="private remark", timestep_id="ts-s1-1",
                        access_policy_id="private").comment_id  # fmt: skip
    shown = db.comment(content="open remark", timestep_id="ts-s1-1").comment_id
    label: dict[str, Any] = {
        "concept_id": "c/secret",
        "label": "positive",
        "tick_range": {"start": 1, "end": 2},
    }
    db.add_exemplar(**label, access_policy_id="private")
    (record_id,) = db.compact(keep_tokens=0).record_ids
    (mine,) = db.query().records
    assert set(mine.comment_ids) == {hidden, shown} and len(mine.tag_ids) == 2
    guest = db.as_caller(GUEST)
    (theirs,) = guest.query().records
    assert theirs.record_id == record_id and theirs.comment_ids == [shown]
    assert theirs.tag_ids == [t.id for t in db.tags().tags if t.name == "weather"]
    assert hidden_tag in mine.tag_ids and theirs.exemplar_ids == []
    # The private exemplar's label is not the open record's label.
    episode = guest.get_episode_detail(episode_id=record_id).episode
    assert episode.labels == [] and "comment_ids" not in episode.provenance.details


def test_a_record_is_as_private_as_its_timesteps_and_follows_its_episode(
    db: xdb.Database,
) -> None:
    steps(db, 2, access_policy_id="private")
    steps(db, 2, access_policy_id="open")
    made = db.compact(keep_tokens=0).record_ids
    assert len(made) == 2  # one per policy: never mixed
    guest = db.as_caller(GUEST)
    (seen,) = guest.query().records
    assert seen.record_id == made[1]
    with pytest.raises(xdb.NotFound):
        guest.get_episode_detail(episode_id=made[0])
    db.as_caller(ADMIN).assign_access_policy(policy_id="private", episode_ids=[made[1]])
    assert guest.query().records == []
    assert db.delete_episode(episode_id=made[1]).deleted
    assert [r.record_id for r in db.query().records] == [made[0]]


def test_a_session_made_private_takes_its_records_along(db: xdb.Database) -> None:
    steps(db, 3)
    (record_id,) = db.compact(keep_tokens=0).record_ids
    db.as_caller(ADMIN).assign_access_policy(policy_id="private", session_ids=["s1"])
    guest = db.as_caller(GUEST)
    assert guest.query().records == []
    assert guest.search_episodes(text_query="deploy").episodes == []
    assert db.get_episode_detail(episode_id=record_id).episode.fidelity == "reply"


def test_an_exemplar_on_a_compacted_private_tick_stays_hidden(db: xdb.Database) -> None:
    steps(db, 1)
    steps(db, 1, access_policy_id="private")
    steps(db, 1)
    db.add_exemplar(concept_id="c/x", label="positive", tick_range={"start": 2, "end": 2},
                    notes="about the bank pin")  # fmt: skip
    db.tag(tag_name_or_id="weather", timestep_id="ts-s1-1")
    db.compact(keep_tokens=0)
    guest = db.as_caller(GUEST)
    with pytest.raises(xdb.NotFound, match="names no concept"):  # nothing it reads names c/x
        guest.exemplars(concept_id="c/x")
    assert [e.concept_id for e in db.exemplars(concept_id="c/x").exemplars] == ["c/x"]
    assert [t.application_count for t in guest.tags().tags if t.name == "weather"] == [1]


def test_only_a_caller_who_reads_everything_compacts_or_maintains(db: xdb.Database) -> None:
    steps(db, 3, access_policy_id="private")
    ops = db.as_caller(OPS)
    with pytest.raises(xdb.PermissionDenied, match="compaction"):
        ops.compact(keep_tokens=0)
    with pytest.raises(xdb.PermissionDenied, match="maintenance"):
        ops.maintenance()
    assert len(db.query().timesteps) == 3


def test_compaction_leaves_what_the_caller_may_not_delete(db: xdb.Database) -> None:
    admin = db.as_caller(ADMIN)
    admin.set_access_policy(id="kept", read_roles=["self", "admin"], delete_roles=["nobody"])
    steps(db, 2, access_policy_id="kept")
    steps(db, 2)
    made = db.compact(keep_tokens=0)
    assert made.timesteps_compacted == 1  # tick 3 (tick 4 is the newest)
    assert [t.tick for t in db.query().timesteps] == [1, 2, 4]


def test_interleaved_events_compact(db: xdb.Database) -> None:
    for event, end in (("a", False), ("b", False), ("a", True), ("b", True), ("c", True)):
        db.record(event_type="output", content=f"part of {event}", event_id=event, event_end=end)
    made = db.compact(keep_tokens=0)
    assert made.timesteps_compacted == 4 and len(set(made.record_ids)) == made.records_made
    again = db.compact(keep_tokens=0)
    assert again.timesteps_compacted == 0


def test_the_compaction_count_counts_compactions_not_batches(db: xdb.Database) -> None:
    db.record_batch(timesteps=[{"event_type": "output", "content": " t", "token_id": i}
                               for i in range(4500)])  # fmt: skip
    assert db.compact(keep_tokens=0).timesteps_compacted == 4499
    assert db.context().compaction_count == 1


def test_context_says_nothing_of_a_session_the_caller_cannot_read(db: xdb.Database) -> None:
    steps(db, 3, access_policy_id="private", session_id="hr-case")
    db.compact(session_id="hr-case", keep_tokens=0)
    guest = db.as_caller(GUEST)
    assert guest.context(session_id="hr-case").compaction_count == 0
    assert db.context(session_id="hr-case").compaction_count == 1


def test_graph_edges_on_a_compacted_tick_move_to_its_record(db: xdb.Database) -> None:
    first, *_ = steps(db, 3)
    decision = db.add_node(node_type="Decision", name="roll back").node_id
    db.link(src=decision, dst=first, relation="INFLUENCED_BY")
    (record_id,) = db.compact(keep_tokens=0).record_ids
    walked = db.graph_neighborhood(seed_node_ids=[decision]).nodes
    assert record_id in {n.node_id for n in walked}


def test_maintenance_keeps_the_audit_log_unless_an_admin_chose_a_retention(
    db: xdb.Database,
) -> None:
    steps(db, 2)
    assert db.maintenance().audit_records_pruned == 0
    db.as_caller(ADMIN).set_resource_contract(audit_log_retention_days=36500)
    assert db.maintenance().audit_records_pruned == 0  # nothing that old
    assert db.as_caller(xdb.Caller(id="a", roles=("auditor",))).audit_verify().ok


def test_contract_ages_are_bounded_and_a_bad_import_is_refused(db: xdb.Database) -> None:
    admin = db.as_caller(ADMIN)
    for bad in (1e9, float("inf"), float("nan"), -1):
        with pytest.raises(xdb.InvalidRequest, match="compression_after_days"):
            admin.set_resource_contract(compression_after_days={"session": bad})
    assert db.maintenance().finished
    with pytest.raises(xdb.InvalidRequest, match="memory_record"):
        db.import_records([{"kind": "xdb-export", "version": 1},
                           {"kind": "memory_record", "id": "r", "level": "decade"}])  # fmt: skip
    with pytest.raises(xdb.NotFound):
        db.pin(timestep_ids=["ts-s1-99999999999999999999"])
