"""The leak hunter: a treaty partner calls every read operation, with and without filters,
sorts and seeds on concepts it may not see, and no hidden concept's id or name appears in
any answer; asking about a hidden concept answers exactly as asking about an unknown one.
On both stores. (The other interfaces run the same ``Database.run``: tests/policy/
test_interfaces.py checks each skin's caller.)"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

import xdb
from tests.concepts.packs import write_pack
from tests.serving import served
from xdb.errors import XdbError
from xdb.interfaces.http import create_app
from xdb.ops.catalog import operations

ALPHA = "org.test/alpha@1.0.0"
BETA = "org.test/beta@1.0.0"
VISIBLE = {"Emotion", "Joy", "Calm"}
# Hidden: a denied subtree (Anger and its child Rage), above the risk ceiling (Panic),
# a pack the treaty does not grant (Secret, Plot), a candidate concept (the bud Hunch).
HIDDEN_TERMS = ["Anger", "Rage", "Panic", "Secret", "Plot", "Hunch"]
UNKNOWN = "Zzyzx"
PARTNER = xdb.Caller(id="acme-bot", roles=("partner",), treaty_ids=("t-acme",))
ADMIN = xdb.Caller(id="ops", roles=("admin",))


def cid(term: str) -> str:
    return f"{BETA if term in ('Secret', 'Plot') else ALPHA}::concept/{term}"


BETA_JOY = f"{BETA}::concept/Joy"  # a term alpha shares: granted there, not here


def hidden_strings() -> list[str]:
    return [*HIDDEN_TERMS, *(cid(t) for t in HIDDEN_TERMS if t != "Hunch"), BETA_JOY]


@pytest.fixture(scope="module")
def world(module_target: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    folder = tmp_path_factory.mktemp("packs")
    alpha = write_pack(
        folder / "alpha",
        pack_id="alpha",
        tree={
            "Emotion": None,
            "Joy": "Emotion",
            "Calm": "Emotion",
            "Anger": "Emotion",
            "Rage": "Anger",
            "Panic": "Emotion",
        },
        related={"Joy": ["Anger", "Calm"]},
        risk={"Panic": "high"},
    )
    beta = write_pack(
        folder / "beta", pack_id="beta", tree={"Secret": None, "Plot": "Secret", "Joy": "Secret"}
    )
    with xdb.connect(module_target, embedder="hash", session_id="s1") as db:
        admin = db.as_caller(ADMIN)
        # A hidden concept written as its term: recorded before its pack was loaded (since,
        # a term is recorded as the full id it names), the log keeps the term.
        db.record(event_type="input", content="an old report", session_id="s-old",
                  concept_activations={"Anger": 0.7, cid("Joy"): 0.3})  # fmt: skip
        db.call("import_concepts", {"path": str(alpha)})
        db.call("import_concepts", {"path": str(beta)})
        admin.set_disclosure_policy(
            id="partner-view",
            allow={"subtrees": ["Emotion"]},
            deny={"subtrees": ["Anger"]},
            max_risk_level="medium",
        )
        admin.set_treaty(id="t-acme", partner="acme", disclosure_policy_id="partner-view")
        every = {cid(t): 0.2 + 0.1 * i for i, t in enumerate([*VISIBLE, *HIDDEN_TERMS[:-1]])}
        every["Hunch"] = 0.6  # a candidate concept, by its bud's name
        every[BETA_JOY] = 0.5
        for i in range(4):
            db.record(event_type="input", content=f"the weather report number {i}",
                      concept_activations=every, event_id=f"ev{i}", event_end=True)  # fmt: skip
        db.create_tag(name="Joy", tag_type="concept", concept_id=cid("Joy"))
        db.create_tag(name="Anger", tag_type="concept", concept_id=cid("Anger"))
        db.create_tag(name="Hunch", tag_type="bud", related_concepts=[cid("Joy"), cid("Rage")])
        db.create_tag(name="weather", tag_type="custom")
        for name in ("Joy", "Anger", "Hunch", "weather"):
            db.tag(tag_name_or_id=name, tick_range={"start": 1, "end": 2})
        episodes = []
        for i in range(6):
            tags = [{"concept_id": cid("Joy"), "score": 0.9}, {"concept_id": cid("Calm"),
                    "score": 0.5}, {"concept_id": cid(HIDDEN_TERMS[i % 5]), "score": 0.95},
                    {"concept_id": "Hunch", "score": 0.8, "kind": "candidate"}]  # fmt: skip
            episodes.append(
                db.add_episode(
                    content=f"a walk along the river, day {i}",
                    session_id="s1",
                    concept_tags=tags,
                    motive_profile={cid("Joy"): 0.4, cid("Rage"): 0.9},
                    labels=[{"concept_id": cid("Secret"), "label": "positive"}],
                ).episode_id
            )
        decision = db.add_node(node_type="Decision", name="go outside").node_id
        db.link(src=decision, dst=episodes[0])
        learn(db, episodes)
        # Compacted experience: COLD records carry the activations of what they replaced.
        for i in range(3):
            db.record(event_type="output", content=f"a cold report {i}", session_id="s-cold",
                      concept_activations=every, event_id=f"cold{i}")  # fmt: skip
        db.tag(tag_name_or_id="Anger", tick_range={"start": 1, "end": 2}, session_id="s-cold")
        db.compact(session_id="s-cold", keep_tokens=0)
        db.wait_for_embeddings(60)
        yield db, episodes


LEARNED: dict[str, str] = {}  # the learning objects' ids (for reads())


def learn(db: xdb.Database, episodes: list[str]) -> None:
    """Exemplars, datasets and training runs about visible and hidden concepts."""
    db.add_exemplar(concept_id=cid("Joy"), label="positive", episode_id=episodes[0])
    db.add_exemplar(concept_id=cid("Anger"), label="negative", episode_id=episodes[1])
    db.add_exemplar(concept_id="Hunch", label="positive", tick_range={"start": 1, "end": 1})
    for term in ("Joy", "Anger"):
        built = db.build_dataset(target_concept_id=cid(term), sampling={"balance": "skewed"})
        LEARNED[f"dataset {term}"] = built.dataset_id
    db.build_dataset(target_concept_id="Hunch", sampling={"balance": "skewed"})
    run = db.record_training_run(
        type="lens", concept_ids=[cid("Joy")], dataset_ids=[LEARNED["dataset Joy"]]
    )
    LEARNED["run"] = run.training_run_id
    db.record_artifact(kind="lens", training_run_id=run.training_run_id, location="blob://a",
                       checksum="sha256:" + "1" * 64, concept_id=cid("Rage"))  # fmt: skip
    db.record_artifact(kind="lens", training_run_id=run.training_run_id, location="blob://b",
                       checksum="sha256:" + "2" * 64, concept_id=cid("Joy"))  # fmt: skip
    db.record_training_run(type="joint", concept_ids=[cid("Joy"), cid("Plot")])


def assert_clean(answer: Any, where: str, asked: str | None = None) -> None:
    """No hidden id or name in ``answer``, but for the caller's own words echoed back
    (``asked``, exactly: not as the tail of a longer id)."""
    text = json.dumps(answer, sort_keys=True, default=str)
    if asked is not None:
        text = re.sub(rf"(?<![\w/]){re.escape(asked)}(?![\w/])", "<asked>", text)
    for secret in hidden_strings():
        assert not re.search(rf"\b{re.escape(secret)}\b", text), f"{where}: {secret} in {text}"


def answer(call: Callable[[], Any]) -> Any:
    try:
        return call().model_dump(mode="json")
    except XdbError as exc:
        return {"error": exc.to_dict()}


def reads(episodes: list[str], concept: str) -> dict[str, dict[str, Any]]:
    """A call of every read operation; ``concept`` is where a concept is asked about."""
    return {
        "xdb.query": {
            "all_sessions": True,
            "concept_activations": {concept: {"min": 0.0, "max": 1.0}},
        },
        "xdb.recent": {"n": 10},
        "xdb.tags": {},
        "xdb.annotations": {"session_id": "s1"},
        "xdb.status": {},
        "xdb.quota": {},
        "xdb.context": {},
        "engine.lessons": {},
        "engine.lesson": {"lesson_id": "a1b2c3"},
        "engine.lesson_stats": {},
        "engine.timeline": {},
        "engine.session_start": {"session_id": "s1"},
        "xdb.concept_packs": {},
        "xdb.concepts": {"parent_id": concept},
        "xdb.get_concept": {"concept_id": concept},
        "xdb.find_concept": {"query": concept},
        "xdb.graph_neighborhood": {"seed_ids": [concept], "direction": "both"},
        "experience.search_episodes": {
            "text_query": "river",
            "concept_filters": [{"concept_id": concept, "polarity": "present"}],
        },
        "experience.get_episode_detail": {
            "episode_id": episodes[0],
            "include_graph_neighbors": {"depth": 2},
        },
        "experience.similar_episodes": {"seed_episode_id": episodes[1]},
        "experience.graph_neighborhood": {"seed_node_ids": [f"concept:{concept}"]},
        "experience.concept_usage_summary": {
            "concept_ids": [concept, cid("Emotion")],
            "include_descendants": True,
            "include_activations": True,
        },
        "xdb.buds": {},
        "xdb.bud_examples": {"bud_tag_id": concept},
        "experience.list_candidate_concepts": {},
        "experience.exemplars": {"concept_id": concept},
        "experience.datasets": {"concept_id": concept},
        "experience.dataset": {"dataset_id": LEARNED.get("dataset Joy", "d")},
        "experience.training_runs": {"concept_id": concept},
        "experience.training_run": {"training_run_id": LEARNED.get("run", "r")},
        "memcp.search_episodes": {"query": "river"},
        "memcp.get_episode": {"id": episodes[0]},
        "policy.policies": {},
        "policy.keys": {},
        # Auditors only: the partner is refused (tests/policy/test_authorize.py).
        "audit.list": {},
        "audit.show": {"seq": 1},
        "audit.verify": {},
    }


def test_every_read_operation_is_hunted() -> None:
    readers = {f"{op.group}.{op.name}" for op in operations() if op.readonly}
    assert readers == set(reads(["e", "e"], "c")), "add the new read operation to reads()"


def test_a_treaty_partner_sees_no_hidden_concept_anywhere(world: Any) -> None:
    db, episodes = world
    partner = db.as_caller(PARTNER)
    plain = reads(episodes, cid("Joy"))
    plain["experience.graph_neighborhood"] = {"seed_node_ids": [episodes[0]], "max_depth": 3}
    plain["xdb.concepts"] = {}
    seen_any = 0
    for name, payload in plain.items():
        got = answer(functools.partial(partner.call, name, payload))
        assert_clean(got, name)
        seen_any += "Joy" in json.dumps(got)
    assert seen_any >= 8  # what it may see, it sees
    for hidden in hidden_strings():
        for name, payload in reads(episodes, hidden).items():
            got = answer(functools.partial(partner.call, name, payload))
            assert_clean(got, f"{name} {hidden}", asked=hidden)


@pytest.mark.parametrize(
    "hidden",
    ["Anger", "Anger:01", "anger", cid("Rage"), cid("Panic"), cid("Plot"), "Hunch", "Secret:0"],
)
def test_asking_about_a_hidden_concept_answers_as_an_unknown_one(world: Any, hidden: str) -> None:
    db, episodes = world
    partner = db.as_caller(PARTNER)
    for name in reads(episodes, hidden):
        asked = answer(functools.partial(partner.call, name, reads(episodes, hidden)[name]))
        unknown = answer(functools.partial(partner.call, name, reads(episodes, UNKNOWN)[name]))
        mine = json.dumps(asked, sort_keys=True)
        theirs = json.dumps(unknown, sort_keys=True).replace(UNKNOWN, hidden)
        assert _no_cursor(mine) == _no_cursor(theirs), name


@pytest.mark.parametrize("seed", ["Hunch", "concept:Hunch", "concept:Anger", "Anger:01"])
def test_a_walk_seeded_on_a_hidden_concept_is_refused_as_unknown(world: Any, seed: str) -> None:
    db, _ = world
    partner = db.as_caller(PARTNER)
    with pytest.raises(xdb.NotFound) as hidden:
        partner.graph_neighborhood(seed_node_ids=[seed])
    unknown = seed.replace("Hunch", UNKNOWN).replace("Anger:01", UNKNOWN).replace("Anger", UNKNOWN)
    with pytest.raises(xdb.NotFound) as other:
        partner.graph_neighborhood(seed_node_ids=[unknown])
    assert hidden.value.message == other.value.message.replace(unknown, seed)


def test_a_term_two_packs_hold_resolves_among_the_visible_only(world: Any) -> None:
    db, _ = world
    # Joy is in alpha (granted) and beta (not): no ambiguity error naming beta's id.
    assert db.as_caller(PARTNER).get_concept("Joy").concept.id == cid("Joy")
    with pytest.raises(xdb.InvalidRequest, match="several packs"):
        db.get_concept("Joy")  # the agent sees both


def _no_cursor(text: str) -> str:
    """Without cursors (opaque) and the file's size (the audit log grows with each call)."""
    text = re.sub(r'"next_cursor": "[^"]*"', '"next_cursor": "…"', text)
    return re.sub(r'"(total_bytes|utilization)": [0-9.e-]+', r'"\1": 0', text)


def test_self_sees_every_concept_and_an_admin_policy_changes_that(world: Any) -> None:
    db, episodes = world
    found = db.get_episode_detail(episode_id=episodes[0]).episode
    assert {t.concept_id for t in found.concept_tags} >= {cid("Joy"), cid("Anger")}
    assert cid("Rage") in found.motive_profile
    assert "Hunch" in {t.name for t in db.tags().tags}


def test_policies_are_the_admins_alone(world: Any) -> None:
    db, _ = world
    for caller in (PARTNER, xdb.Caller()):
        with pytest.raises(xdb.PermissionDenied, match="needs one of the roles admin"):
            db.as_caller(caller).policies()
    assert db.as_caller(ADMIN).policies().treaties[0].id == "t-acme"


def test_writes_by_a_treaty_partner_are_refused_and_change_nothing(world: Any) -> None:
    db, _ = world
    before = db.status().experience_stats.total_timesteps
    with pytest.raises(xdb.PermissionDenied, match="acme-bot"):
        db.as_caller(PARTNER).record(event_type="input", content="x")
    assert db.status().experience_stats.total_timesteps == before


def test_counts_leave_out_what_is_hidden(world: Any) -> None:
    db, _ = world
    mine, theirs = db.status().tag_stats, db.as_caller(PARTNER).status().tag_stats
    assert mine.by_type["concept"] == 2 and theirs.by_type["concept"] == 1
    assert mine.by_type["bud"] == 1 and theirs.by_type["bud"] == 0
    packs = {p.spec_id: p.concept_count for p in db.as_caller(PARTNER).concept_packs().packs}
    assert packs == {ALPHA: 3}  # Emotion, Joy, Calm; beta is not listed at all
    roots = db.as_caller(PARTNER).concepts()
    assert [(c.name, c.child_count) for c in roots.concepts] == [("Emotion", 2)]
    assert roots.total_count == 1


def test_hidden_tags_take_no_place_on_a_page_of_annotations(world: Any) -> None:
    db, _ = world  # on ticks 1-2 of s1, in this order: Joy, Anger, Hunch, weather
    mine = db.annotations(session_id="s1", limit=2)
    assert [a.tag.name for a in mine.tags] == ["Joy", "Anger"] and mine.truncated
    theirs = db.as_caller(PARTNER).annotations(session_id="s1", limit=2)
    assert [a.tag.name for a in theirs.tags] == ["Joy", "weather"] and not theirs.truncated


def test_a_hush_hides_a_concept_from_self_until_lifted(world: Any) -> None:
    db, episodes = world
    admin = db.as_caller(ADMIN)
    admin.hush(id="quiet", concepts={"concepts": ["Joy"]}, session_id="s1")
    try:
        assert cid("Joy") not in db.recent(n=1).timesteps[0].concept_activations
        detail = db.get_episode_detail(episode_id=episodes[0]).episode
        assert cid("Joy") not in {t.concept_id for t in detail.concept_tags}
        auditor = db.as_caller(xdb.Caller(id="audit", roles=("auditor",)))
        assert cid("Joy") in auditor.recent(n=1).timesteps[0].concept_activations
    finally:
        admin.remove_policy(kind="hush", id="quiet")
    assert cid("Joy") in db.recent(n=1).timesteps[0].concept_activations


def test_an_expired_hush_and_an_expired_treaty_grant_and_hide_nothing(world: Any) -> None:
    db, _ = world
    admin = db.as_caller(ADMIN)
    admin.hush(id="old", concepts={"concepts": ["Joy"]}, expires_at="2000-01-01T00:00:00Z")
    admin.set_treaty(id="t-old", partner="old", disclosure_policy_id="partner-view",
                     expires_at="2000-01-01T00:00:00Z")  # fmt: skip
    try:
        assert cid("Joy") in db.recent(n=1).timesteps[0].concept_activations
        old = db.as_caller(xdb.Caller(id="old", roles=("partner",), treaty_ids=("t-old",)))
        assert old.recent(n=1).timesteps[0].concept_activations == {}
    finally:
        admin.remove_policy(kind="hush", id="old")
        admin.remove_policy(kind="treaty", id="t-old")


def test_a_named_caller_is_what_as_caller_acts_as(world: Any, tmp_path: Path) -> None:
    db, _ = world
    db.as_caller(ADMIN).set_caller(id="acme-bot", roles=["partner"], treaty_ids=["t-acme"])
    named = db.as_caller("acme-bot")
    assert named.caller == PARTNER
    with pytest.raises(xdb.NotFound, match="no caller 'nobody'"):
        db.as_caller("nobody")


def test_over_http_and_mcp_with_the_partners_key_nothing_hidden_leaks(world: Any) -> None:
    """The same hunt through the skins: every read operation over HTTP and as an MCP tool
    over HTTP, authenticated with a key that acts as the partner."""
    db, episodes = world
    admin = db.as_caller(ADMIN)
    admin.set_caller(id="acme-bot", roles=["partner"], treaty_ids=["t-acme"])
    key = admin.create_key(caller_id="acme-bot").key
    headers = {"Authorization": f"Bearer {key}"}
    ops = {f"{op.group}.{op.name}": op for op in operations()}
    with served(create_app(db, require_keys=True)) as url:
        for concept in (cid("Joy"), "Anger", cid("Plot"), "Hunch"):
            for name, payload in reads(episodes, concept).items():
                got = httpx.post(url + ops[name].http_path, json=payload, headers=headers)
                assert got.status_code in (200, 400, 403, 404), (name, got.text)
                assert_clean(got.json(), f"HTTP {name} {concept}", asked=concept)
        # Every tool an agent may be offered (the full profile), not only the agent's.
        anyio.run(_hunt_mcp, f"{url}/mcp?profile=full", headers, episodes)


async def _hunt_mcp(url: str, headers: dict[str, str], episodes: list[str]) -> None:
    transport = streamable_http_client(url, http_client=create_mcp_http_client(headers=headers))
    async with Client(transport, mode="legacy") as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        for concept in ("Anger", cid("Rage"), "Hunch"):
            for name, payload in reads(episodes, concept).items():
                tool = name.replace(".", "_")
                if tool not in tools:  # management and audit tools are not offered
                    continue
                result = await client.call_tool(tool, payload)
                answer = result.structured_content or [c.model_dump() for c in result.content]
                assert_clean(answer, f"MCP {tool} {concept}", asked=concept)
