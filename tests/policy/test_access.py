"""Access policies on objects: what a caller may not read is absent from every answer of
every read operation (results, counts, pages, statistics), asking for it by id answers as
for an unknown id, and writes a caller may not make are refused and change nothing. On
both stores."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import xdb
from tests.serving import served
from xdb.episodes.graph_models import GraphNeighborhoodResponse
from xdb.errors import XdbError
from xdb.interfaces.http import create_app
from xdb.ops.catalog import operations

SECRET = "zanzibar"  # in every private object's text: it must never reach the partner
PRIVATE_SESSION = f"{SECRET}-session"  # holds only a private timestep
PARTNER = xdb.Caller(id="acme-bot", roles=("partner",), treaty_ids=("t-acme",))
ADMIN = xdb.Caller(id="ops", roles=("self", "admin"))
STRANGER = xdb.Caller(id="nobody", roles=("guest",))


@pytest.fixture(scope="module")
def world(module_target: str) -> Iterator[Any]:
    with xdb.connect(module_target, embedder="hash", session_id="s1") as db:
        admin = db.as_caller(ADMIN)
        admin.set_access_policy(id="private", read_roles=["self"], write_roles=["self"])
        admin.set_access_policy(
            id="shared", read_roles=["self"], read_treaties=["t-acme"], write_roles=["self"]
        )
        admin.set_disclosure_policy(id="everything", allow_all=True)
        admin.set_treaty(id="t-acme", partner="acme", disclosure_policy_id="everything")
        made: dict[str, Any] = {}
        for i in range(3):
            db.record(event_type="input", content=f"weather report {i}")
        made["secret_tick"] = db.record(
            event_type="output", content=f"the {SECRET} plan", access_policy_id="private",
            event_id="ev-secret", event_end=True,
        ).timestep_id  # fmt: skip
        db.record(event_type="output", content="shared weather note", access_policy_id="shared")
        db.record(event_type="input", content=f"{SECRET} in a private session",
                  session_id=PRIVATE_SESSION, access_policy_id="private")  # fmt: skip
        made["public_ep"] = db.add_episode(content="a walk along the river", session_id="s1",
                                           kind="walk").episode_id  # fmt: skip
        secret = db.add_episode(content=f"the river {SECRET} meeting", kind="meeting",
                                session_id="s1", access_policy_id="private")  # fmt: skip
        made["secret_ep"] = secret.episode_id
        made["shared_ep"] = db.add_episode(content="river cleanup shared", kind="walk",
                                           access_policy_id="shared").episode_id  # fmt: skip
        db.create_tag(name=f"{SECRET}-tag", tag_type="custom", access_policy_id="private")
        db.create_tag(name="weather", tag_type="custom")
        db.tag(tag_name_or_id=f"{SECRET}-tag", tick_range={"start": 1, "end": 2})
        db.tag(tag_name_or_id="weather", timestep_id=made["secret_tick"])
        db.tag(tag_name_or_id="weather", tick_range={"start": 1, "end": 2})
        db.comment(content=f"note on {SECRET}", timestep_id="ts-s1-1", access_policy_id="private")
        db.comment(content="a comment on the hidden tick", timestep_id=made["secret_tick"])
        db.comment(content="plain comment", timestep_id="ts-s1-1")
        made["decision"] = db.add_node(node_type="Decision", name=f"go to {SECRET}",
                                       access_policy_id="private").node_id  # fmt: skip
        db.link(src=made["decision"], dst=made["public_ep"])
        made["open_decision"] = db.add_node(node_type="Decision", name="stay home").node_id
        db.link(src=made["open_decision"], dst=made["public_ep"], access_policy_id="private")
        learning_world(db, made)
        # Compacted experience, private: its COLD record is as hidden as its timesteps.
        for text in (f"{SECRET} kept cold", "more cold words", "the newest stays"):
            db.record(event_type="output", content=text, session_id="s-cold",
                      access_policy_id="private")  # fmt: skip
        (made["secret_record"],) = db.compact(session_id="s-cold", keep_tokens=0).record_ids
        db.wait_for_embeddings(60)
        yield db, made


def learning_world(db: xdb.Database, made: dict[str, Any]) -> None:
    """Buds, exemplars, datasets and training runs, some private."""
    db.create_tag(name=f"candidate/{SECRET}", tag_type="bud", access_policy_id="private")
    db.create_tag(name="candidate/open", tag_type="bud")
    db.tag(tag_name_or_id="candidate/open", timestep_id=made["secret_tick"])
    db.tag(tag_name_or_id="candidate/open", timestep_id="ts-s1-1")
    river: dict[str, Any] = {"concept_id": "c/river", "label": "positive"}
    made["secret_exemplar"] = db.add_exemplar(**river, episode_id=made["secret_ep"]).exemplar.id
    db.add_exemplar(**river, episode_id=made["shared_ep"], notes=f"{SECRET} note",
                    access_policy_id="private")  # fmt: skip
    db.add_exemplar(**river, episode_id=made["public_ep"])
    tick = int(made["secret_tick"].rsplit("-", 1)[1])
    db.add_exemplar(concept_id="c/river", label="negative", tick_range={"start": tick, "end": tick})
    skewed: dict[str, Any] = {"target_concept_id": "c/river", "sampling": {"balance": "skewed"}}
    made["secret_dataset"] = db.build_dataset(
        **skewed, name=f"{SECRET}-set", access_policy_id="private"
    ).dataset_id
    made["open_dataset"] = db.build_dataset(**skewed, name="open-set").dataset_id
    made["secret_run"] = db.record_training_run(
        type="lens", concept_ids=["c/river"], dataset_ids=[made["secret_dataset"]],
        notes=SECRET, access_policy_id="private",
    ).training_run_id  # fmt: skip
    db.record_artifact(kind="lens", training_run_id=made["secret_run"],
                       checksum="sha256:" + "0" * 64, location=f"blob://{SECRET}")  # fmt: skip
    made["open_run"] = db.record_training_run(
        type="lens", concept_ids=["c/river"], dataset_ids=[made["open_dataset"]]
    ).training_run_id


def reads(made: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A call of every read operation, reaching for the hidden objects where it can."""
    return {
        "xdb.query": {"all_sessions": True, "text_search": SECRET},
        "xdb.recent": {"n": 50},
        "xdb.tags": {},
        "xdb.annotations": {"session_id": "s1"},
        "xdb.status": {},
        "xdb.quota": {},
        "xdb.context": {},
        "engine.lessons": {},
        "engine.lesson": {"lesson_id": "a1b2c3"},
        "engine.lesson_stats": {},
        "engine.timeline": {"topic": SECRET},
        "engine.session_start": {"session_id": "s1"},
        "xdb.concept_packs": {},
        "xdb.concepts": {},
        "xdb.get_concept": {"concept_id": "Weather"},
        "xdb.find_concept": {"query": "weather"},
        "xdb.graph_neighborhood": {"seed_ids": ["Weather"]},
        "experience.search_episodes": {"text_query": f"river {SECRET}"},
        "experience.get_episode_detail": {
            "episode_id": made["public_ep"],
            "include_graph_neighbors": {"depth": 2},
        },
        "experience.similar_episodes": {"seed_episode_id": made["public_ep"]},
        "experience.graph_neighborhood": {"seed_node_ids": [made["public_ep"]], "max_depth": 3},
        "experience.concept_usage_summary": {"concept_ids": ["Weather"]},
        "xdb.buds": {},
        "xdb.bud_examples": {"bud_tag_id": "candidate/open"},
        "experience.list_candidate_concepts": {},
        "experience.exemplars": {"concept_id": "c/river"},
        "experience.datasets": {},
        "experience.dataset": {"dataset_id": made["open_dataset"]},
        "experience.training_runs": {},
        "experience.training_run": {"training_run_id": made["open_run"]},
        "memcp.search_episodes": {"query": f"river {SECRET}"},
        "memcp.get_episode": {"id": made["public_ep"]},
        "policy.policies": {},
        "policy.keys": {},
        "audit.list": {},
        "audit.show": {"seq": 1},
        "audit.verify": {},
    }


def answer(handle: Any, name: str, payload: dict[str, Any]) -> Any:
    try:
        return handle.call(name, payload).model_dump(mode="json")
    except XdbError as exc:
        return {"error": exc.to_dict()}


def hidden_strings(made: dict[str, Any]) -> list[str]:
    return [
        SECRET,
        made["secret_tick"],
        made["secret_ep"],
        made["decision"],
        PRIVATE_SESSION,
        made["secret_exemplar"],
        made["secret_dataset"],
        made["secret_run"],
        made["secret_record"],
    ]


def assert_clean(got: Any, where: str, made: dict[str, Any]) -> None:
    text = json.dumps(got, default=str)
    for secret in hidden_strings(made):
        assert secret not in text, f"{where}: {secret} in {text}"


def test_every_read_operation_is_hunted(world: Any) -> None:
    _, made = world
    readers = {f"{op.group}.{op.name}" for op in operations() if op.readonly}
    assert readers == set(reads(made)), "add the new read operation to reads()"


def test_a_partner_reads_nothing_private_through_any_operation(world: Any) -> None:
    db, made = world
    partner = db.as_caller(PARTNER)
    for name, payload in reads(made).items():
        assert_clean(answer(partner, name, payload), name, made)
    # and self, who reads everything, does see them (the hunt above is not vacuous)
    mine = json.dumps([answer(db, n, p) for n, p in reads(made).items()], default=str)
    for secret in hidden_strings(made):
        assert secret in mine


def test_results_counts_and_pages_leave_out_what_a_caller_may_not_read(world: Any) -> None:
    db, made = world
    partner, stranger = db.as_caller(PARTNER), db.as_caller(STRANGER)
    assert db.query().total_count == 5  # the current session, s1
    assert partner.query().total_count == 4  # the shared note, not the private two
    assert stranger.query().total_count == 3
    pages, cursor = [], None
    while True:
        page = partner.query(limit=1, cursor=cursor)
        pages += [t.content for t in page.timesteps]
        if (cursor := page.next_cursor) is None:
            break
    assert pages == [f"weather report {i}" for i in range(3)] + ["shared weather note"]
    stats = partner.status()
    assert stats.experience_stats.total_timesteps == 4
    assert stats.experience_stats.total_comments == 1  # not the private one, nor the hidden tick's
    assert stats.experience_stats.total_tag_applications == 1  # weather on ticks 1-2
    assert stats.sessions.total == 1  # s2 holds only a private timestep
    assert stats.tag_stats.total_tags == 1
    assert stats.embedding.episodes == 2
    found = {e.episode_id for e in partner.search_episodes(text_query="river").episodes}
    assert found == {made["public_ep"], made["shared_ep"]}
    assert {e.episode_id for e in stranger.search_episodes(text_query="river").episodes} == {
        made["public_ep"]
    }
    walks = partner.search_episodes(episode_kinds=["walk", "meeting"], sort={"by": "time_desc"})
    assert len(walks.episodes) == 2
    assert [t.name for t in partner.tags().tags] == ["weather"]
    assert partner.tags().tags[0].application_count == 1


def test_asking_for_a_hidden_object_answers_as_for_an_unknown_one(world: Any) -> None:
    db, made = world
    partner = db.as_caller(PARTNER)
    asks: dict[str, tuple[str, str | list[str], str | list[str]]] = {
        "experience.get_episode_detail": ("episode_id", made["secret_ep"], "ep-unknown"),
        "experience.similar_episodes": ("seed_episode_id", made["secret_ep"], "ep-unknown"),
        "memcp.get_episode": ("id", made["secret_ep"], "ep-unknown"),
        "experience.graph_neighborhood": ("seed_node_ids", [made["decision"]], ["decision-x"]),
        "xdb.query": ("tags", [f"{SECRET}-tag"], ["no-such-tag"]),
    }
    for name, (field, hidden, unknown) in asks.items():
        got = json.dumps(answer(partner, name, {field: hidden}))
        other = json.dumps(answer(partner, name, {field: unknown}))
        hiddens = [hidden] if isinstance(hidden, str) else hidden
        unknowns = [unknown] if isinstance(unknown, str) else unknown
        for h, u in zip(hiddens, unknowns, strict=True):
            got = got.replace(h, "<id>")
            other = other.replace(u, "<id>")
        assert got == other, name
    assert partner.recent(n=5, session_id=PRIVATE_SESSION).timesteps == []
    hidden_query = partner.query(session_id=PRIVATE_SESSION)
    assert hidden_query.total_count == 0


def test_a_walk_never_reaches_a_hidden_node_or_edge(world: Any) -> None:
    db, made = world
    mine = db.graph_neighborhood(seed_node_ids=[made["public_ep"]], max_depth=2)
    theirs = db.as_caller(PARTNER).graph_neighborhood(
        seed_node_ids=[made["public_ep"]], max_depth=2
    )

    def ids(walk: GraphNeighborhoodResponse) -> set[str]:
        return {n.node_id for n in walk.nodes}

    assert {made["decision"], made["open_decision"]} <= ids(mine)
    assert made["decision"] not in ids(theirs)
    # The open decision is readable, but the only edge to it is private.
    assert made["open_decision"] not in ids(theirs)


def test_writes_a_policy_forbids_are_refused_and_change_nothing(world: Any) -> None:
    db, made = world
    admin = db.as_caller(ADMIN)
    admin.set_access_policy(id="locked", read_roles=["self"], write_roles=["admin"],
                            delete_roles=["admin"])  # fmt: skip
    agent = db.as_caller(xdb.Caller())  # self alone
    before = db.query().total_count
    with pytest.raises(xdb.PermissionDenied, match="'locked' lets only the roles admin write"):
        agent.record(event_type="input", content="x", access_policy_id="locked")
    with pytest.raises(xdb.NotFound, match="access_policy_id: no access policy 'nope'"):
        agent.record(event_type="input", content="x", access_policy_id="nope")
    with pytest.raises(xdb.PermissionDenied):
        agent.record_batch(timesteps=[{"event_type": "input", "content": "a"},
                                      {"event_type": "input", "content": "b",
                                       "access_policy_id": "locked"}])  # fmt: skip
    assert db.query().total_count == before
    tick = admin.record(event_type="input", content="locked tick", access_policy_id="locked")
    with pytest.raises(xdb.PermissionDenied, match="tag"):
        agent.tag(tag_name_or_id="weather", timestep_id=tick.timestep_id)
    with pytest.raises(xdb.PermissionDenied, match="comment"):
        agent.comment(content="hi", timestep_id=tick.timestep_id)
    applied = admin.tag(tag_name_or_id="weather", timestep_id=tick.timestep_id)
    assert applied.timestep_count == 1
    ep = admin.add_episode(content="locked episode", access_policy_id="locked").episode_id
    with pytest.raises(xdb.PermissionDenied, match="delete"):
        agent.delete_episode(episode_id=ep)
    assert db.get_episode_detail(episode_id=ep).episode.episode_id == ep
    # A caller who may not read it finds nothing to delete: as a missing episode.
    assert not db.as_caller(xdb.Caller(id="w", roles=("self",), disclosure_policy_id=None))\
        .delete_episode(episode_id="ep-missing").deleted  # fmt: skip
    assert admin.delete_episode(episode_id=ep).deleted
    with pytest.raises(xdb.NotFound, match="no such episode"):
        admin.assign_access_policy(policy_id="locked", episode_ids=[made["public_ep"], "ep-x"])
    assert made["public_ep"] in {
        e.episode_id for e in db.as_caller(STRANGER).search_episodes(text_query="river").episodes
    }


def test_an_admin_moves_objects_between_policies_and_the_default(world: Any) -> None:
    db, made = world
    admin = db.as_caller(ADMIN)
    stranger = db.as_caller(STRANGER)
    moved = admin.assign_access_policy(policy_id="private", episode_ids=[made["public_ep"]])
    assert moved.changed == 1
    assert (
        admin.assign_access_policy(policy_id="private", episode_ids=[made["public_ep"]]).changed
        == 0
    )
    try:
        assert stranger.search_episodes(text_query="river").episodes == []
    finally:
        admin.assign_access_policy(policy_id=None, episode_ids=[made["public_ep"]])
    assert len(stranger.search_episodes(text_query="river").episodes) == 1
    with pytest.raises(xdb.InvalidRequest, match="still covers objects in"):
        admin.remove_policy(kind="access_policy", id="private")
    admin.set_access_policy(id="closed", read_roles=["self"])
    admin.set_default_access_policy(policy_id="closed")
    try:
        assert stranger.query().total_count == 0
        assert stranger.status().sessions.total == 0
        # The default hidden: a search ranks within SQL's list of what it reads.
        assert stranger.search_episodes(text_query="river").episodes == []
        partner = db.as_caller(PARTNER)
        shared = partner.search_episodes(text_query="river").episodes
        assert [e.episode_id for e in shared] == [made["shared_ep"]]
        assert admin.policies().default_access_policy_id == "closed"
        with pytest.raises(xdb.InvalidRequest, match="is the database's default"):
            admin.remove_policy(kind="access_policy", id="closed")
    finally:
        admin.set_default_access_policy(policy_id=None)
    assert stranger.query().total_count == 3
    assert admin.remove_policy(kind="access_policy", id="closed").removed


def test_over_http_a_partners_key_reads_nothing_private(world: Any) -> None:
    db, made = world
    admin = db.as_caller(ADMIN)
    admin.set_caller(id="acme-bot", roles=["partner"], treaty_ids=["t-acme"])
    key = admin.create_key(caller_id="acme-bot").key
    ops = {f"{op.group}.{op.name}": op for op in operations()}
    with served(create_app(db, require_keys=True)) as url:
        for name, payload in reads(made).items():
            got = httpx.post(url + ops[name].http_path, json=payload,
                             headers={"Authorization": f"Bearer {key}"})  # fmt: skip
            assert got.status_code in (200, 403, 404), (name, got.text)
            assert_clean(got.json(), f"HTTP {name}", made)


def test_an_export_keeps_the_policies_and_a_restricted_one_leaves_out_what_it_hides(
    world: Any, module_target: str, tmp_path: Any
) -> None:
    db, made = world
    records = list(db.export_records())
    placed = {(r["object"], r["access_policy_id"]) for r in records if r["kind"] == "access"}
    assert {("timestep", "private"), ("episode", "private"), ("node", "private")} <= placed
    assert {"private", "shared"} <= {r["id"] for r in records if r["kind"] == "policy_object"}
    # A copy into the other store keeps who may read what.
    with xdb.connect(str(tmp_path / "copy.sqlite3"), embedder="hash") as copy:
        copy.import_records(iter(records))
        assert copy.as_caller(STRANGER).query(session_id="s1").total_count == 3
        assert copy.as_caller(PARTNER).query(session_id="s1").total_count == 4
        assert copy.query(session_id="s1").total_count >= 5
    # An export by a restricted caller holds only what it reads, and no policy.
    partner_db = xdb.connect(module_target, embedder="hash", caller=PARTNER)
    try:
        theirs = list(partner_db.export_records())
    finally:
        partner_db.close()
    text = json.dumps(theirs, default=str)
    for secret in hidden_strings(made):
        assert secret not in text
    assert not {"policy_object", "access"} & {r["kind"] for r in theirs}
    assert "shared weather note" in text
    # A sharing export leaves out what may not leave, even for self.
    db.as_caller(ADMIN).set_access_policy(id="stay", read_roles=["*"], allow_export=False)
    kept = db.as_caller(ADMIN).add_episode(content="never leaves", access_policy_id="stay")
    try:
        shared = json.dumps(list(db.export_records(sharing=True)), default=str)
        assert "never leaves" not in shared and SECRET in shared
        assert "never leaves" in json.dumps(list(db.export_records()), default=str)
    finally:
        db.as_caller(ADMIN).delete_episode(episode_id=kept.episode_id)


def test_relevance_pages_are_full_and_rank_only_what_the_caller_reads(world: Any) -> None:
    """No hidden episode takes a place on a page (a short page, a gap) or a share of the
    scores: paging one by one finds exactly the readable matches."""
    db, made = world
    partner = db.as_caller(PARTNER)
    seen, cursor = [], None
    while True:
        page = partner.search_episodes(text_query="river meeting", page={"page_size": 1,
                                       "cursor": cursor})  # fmt: skip
        assert len(page.episodes) == 1
        seen.append(page.episodes[0].episode_id)
        if (cursor := page.next_cursor) is None:
            break
    assert sorted(seen) == sorted([made["public_ep"], made["shared_ep"]])
    best = partner.search_episodes(text_query="river meeting").episodes
    assert [e.episode_id for e in best] == seen


def test_a_restricted_callers_first_search_leaves_the_indexes_whole(
    world: Any, module_target: str
) -> None:
    """The text and vector indexes and the handle's current session serve every caller: a
    new handle whose first calls are a restricted caller's must not load them from its
    views (self would then never find what the caller may not read)."""
    db, made = world
    db.record(event_type="input", content="late", session_id="s-late", access_policy_id="private")
    with xdb.connect(module_target, embedder="hash") as fresh:
        stranger = fresh.as_caller(STRANGER)
        assert stranger.search_episodes(text_query=f"river {SECRET}").episodes
        assert stranger.status().session_id == fresh.session_id
        found = fresh.search_episodes(text_query=f"{SECRET} meeting").episodes
        assert made["secret_ep"] in [e.episode_id for e in found]
        assert fresh.session_id == "s-late"  # the latest, though the stranger reads none of it


def test_a_hidden_bud_still_makes_its_name_a_candidate_concept(world: Any) -> None:
    """Candidate concepts are hidden from a treaty that does not show candidates; a bud the
    partner may not read is no less a bud (its name must not pass for a plain concept)."""
    db, _ = world
    db.create_tag(name="Hunchback", tag_type="bud", access_policy_id="private")
    db.record(event_type="input", content="a feeling", session_id="s-bud",
              concept_activations={"Hunchback": 0.6, "weather/rain": 0.3})  # fmt: skip
    theirs = db.as_caller(PARTNER).recent(n=1, session_id="s-bud").timesteps[0]
    assert theirs.concept_activations == {"weather/rain": 0.3}
    assert "Hunchback" in db.recent(n=1, session_id="s-bud").timesteps[0].concept_activations


def test_a_partner_pages_a_datasets_readable_members_once(world: Any) -> None:
    db, made = world
    partner = db.as_caller(PARTNER)
    seen: list[str] = []
    cursor = None
    while True:
        page = partner.dataset(dataset_id=made["open_dataset"], limit=1, cursor=cursor)
        seen += [m.episode_id for m in page.members]
        cursor = page.next_cursor
        if cursor is None:
            break
    shown = page.dataset
    assert len(seen) == len(set(seen)) == shown.positive_count + shown.negative_count
    assert made["secret_ep"] not in seen
    mine = db.dataset(dataset_id=made["open_dataset"]).dataset
    assert mine.positive_count + mine.negative_count > len(seen)  # (not vacuous)
    assert shown.balance_note is None and sum(shown.source_mix.values()) == pytest.approx(1)


def test_a_writer_may_not_overwrite_a_run_it_cannot_read(world: Any) -> None:
    db, _ = world
    other = db.as_caller(xdb.Caller(id="tool", roles=("admin",)))  # reads only the default
    other.set_access_policy(id="self-only", read_roles=["self"], write_roles=["self", "admin"])
    hidden = db.record_training_run(type="lens", concept_ids=["c/river"], notes="mine",
                                    access_policy_id="self-only").training_run_id  # fmt: skip
    with pytest.raises(xdb.Conflict) as taken:
        other.record_training_run(id=hidden, type="patch", concept_ids=["c/river"])
    assert taken.value.field == "id"
    assert db.training_run(training_run_id=hidden).training_run.notes == "mine"
