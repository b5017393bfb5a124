"""One resolver for every place a request names a concept (``concepts/requests.py``), on
both stores: a short name means its pack concept's full id in filters, lookups and writes;
an ambiguous one is refused listing the candidates; an unknown one is refused naming the
field; a concept the caller may not see is never a candidate and is as unknown as any."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import xdb
from tests.concepts.packs import write_pack

ALPHA = "org.test/alpha@1.0.0"
BETA = "org.test/beta@1.0.0"
GAMMA = "org.test/gamma@1.0.0"
PARTNER = xdb.Caller(id="acme-bot", roles=("partner",), treaty_ids=("t-acme",))


def alpha(term: str) -> str:
    return f"{ALPHA}::concept/{term}"


@pytest.fixture(scope="module")
def world(module_target: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Packs alpha (Emotion > Anger, Calm, Joy), beta and gamma (each a Joy of its own);
    the log written with full ids, as a probe writes them, and a concept of the agent's
    own (``Hunch``) that no pack holds. The partner sees alpha and gamma, Anger aside."""
    folder = tmp_path_factory.mktemp("packs")
    tree = {"Emotion": None, "Anger": "Emotion", "Calm": "Emotion", "Joy": "Emotion"}
    with xdb.connect(module_target, embedder="hash", session_id="s1") as db:
        db.import_concepts(path=str(write_pack(folder / "alpha", pack_id="alpha", tree=tree)))
        for pack in ("beta", "gamma"):
            made = write_pack(folder / pack, pack_id=pack, tree={"Root": None, "Joy": "Root"})
            db.import_concepts(path=str(made))
        db.record(event_type="input", content="you lied to me",
                  concept_activations={alpha("Anger"): 0.8, "Hunch": 0.3})  # fmt: skip
        episode = db.add_episode(
            content="an angry reply about the refund",
            concept_tags=[{"concept_id": alpha("Anger"), "score": 0.9},
                          {"concept_id": "Hunch", "score": 0.4, "kind": "candidate"}],
            labels=[{"concept_id": alpha("Anger"), "label": "positive"}],
        ).episode_id  # fmt: skip
        db.add_episode(content="a calm walk", concept_tags=[{"concept_id": alpha("Calm"),
                                                             "score": 0.7}])  # fmt: skip
        db.add_exemplar(concept_id=alpha("Anger"), label="positive", episode_id=episode)
        admin = db.as_caller(xdb.Caller(id="ops", roles=("admin",)))
        admin.set_disclosure_policy(id="view", allow={"packs": ["alpha", "gamma"]},
                                    deny={"concepts": ["Anger"]})  # fmt: skip
        admin.set_treaty(id="t-acme", partner="acme", disclosure_policy_id="view")
        yield db, episode


def fail(call: Any) -> xdb.XdbError:
    with pytest.raises(xdb.XdbError) as caught:
        call()
    return caught.value


def test_a_short_name_means_its_full_id_in_every_read(world: Any) -> None:
    db, episode = world
    for name in ("Anger", "Anger:1", alpha("Anger")):
        found = db.search_episodes(concept_filters=[{"concept_id": name, "min_score": 0.5}])
        assert [e.episode_id for e in found.episodes] == [episode], name
        labelled = db.search_episodes(label_filters={"concept_id": name, "label": "positive"})
        assert [e.episode_id for e in labelled.episodes] == [episode], name
        steps = db.query(all_sessions=True, concept_activations={name: {"min": 0.5}})
        assert [t.content for t in steps.timesteps] == ["you lied to me"], name
        assert db.get_concept(concept_id=name).concept.id == alpha("Anger")
        (usage,) = db.concept_usage_summary(concept_ids=[name]).concept_summaries
        assert (usage.concept_id, usage.episode_count) == (alpha("Anger"), 1), name
        assert {x.episode_id for x in db.exemplars(concept_id=name).exemplars} == {episode}
    calm = db.search_episodes(concept_filters=[{"concept_id": "Anger", "polarity": "absent"}])
    assert [e.summary for e in calm.episodes] == ["a calm walk"]


def test_a_short_name_is_the_target_of_a_dataset(world: Any) -> None:
    db, _ = world
    made = db.build_dataset(target_concept_id="Anger", sampling={"balance": "skewed"})
    assert made.positive_exemplar_ids  # the episode tagged with the full id
    (dataset,) = db.datasets(concept_id="Anger").datasets
    assert (dataset.id, dataset.concept_id) == (made.dataset_id, alpha("Anger"))
    assert db.datasets(concept_id="Anger:1").datasets[0].concept_id == alpha("Anger")


def test_a_concept_no_pack_holds_is_named_as_written(world: Any) -> None:
    db, episode = world
    found = db.search_episodes(concept_filters=[{"concept_id": "Hunch"}])
    assert [e.episode_id for e in found.episodes] == [episode]
    steps = db.query(all_sessions=True, concept_activations={"Hunch": {"min": 0.1}})
    assert len(steps.timesteps) == 1
    (usage,) = db.concept_usage_summary(concept_ids=["Hunch"]).concept_summaries
    assert (usage.concept_id, usage.episode_count) == ("Hunch", 1)


def test_a_short_name_written_is_recorded_as_its_full_id(target: str, tmp_path: Path) -> None:
    with xdb.connect(target, embedder="hash") as db:
        db.import_concepts(path=str(write_pack(tmp_path / "tiny")))  # Root > Child > Leaf
        db.record(event_type="input", content="x",
                  concept_activations={"Leaf": 0.5, "mine/own": 0.2})  # fmt: skip
        leaf = "org.test/tiny@1.0.0::concept/Leaf"
        assert db.recent(n=1).timesteps[0].concept_activations == {leaf: 0.5, "mine/own": 0.2}
        made = db.add_episode(content="y", concept_tags=[{"concept_id": "Child:1", "score": 1}],
                              motive_profile={"Leaf": 0.3})  # fmt: skip
        detail = db.get_episode_detail(episode_id=made.episode_id).episode
        assert [t.concept_id for t in detail.concept_tags] == ["org.test/tiny@1.0.0::concept/Child"]
        assert detail.motive_profile == {leaf: 0.3}
        twice = fail(lambda: db.record(event_type="input", content="z",
                                       concept_activations={"Leaf": 0.5, leaf: 0.4}))  # fmt: skip
        assert isinstance(twice, xdb.InvalidRequest) and twice.field == "concept_activations"
        # In a batch, among timesteps that give full ids (``_collect_flat``).
        db.record_batch([
            {"event_type": "output", "content": "a", "concept_activations": {leaf: 0.1}},
            {"event_type": "output", "content": "b", "concept_activations": {"Leaf": 0.2}},
        ])  # fmt: skip
        assert [t.concept_activations for t in db.recent(n=2).timesteps] == [
            {leaf: 0.1},
            {leaf: 0.2},
        ]
        db.import_concepts(path=str(write_pack(tmp_path / "other", pack_id="other")))
        in_batch = fail(lambda: db.record_batch([
            {"event_type": "output", "content": "a", "concept_activations": {leaf: 0.1}},
            {"event_type": "output", "content": "b", "concept_activations": {"Leaf": 0.2}},
        ]))  # fmt: skip
        assert isinstance(in_batch, xdb.InvalidRequest)
        assert in_batch.field == "timesteps[1].concept_activations"
        ambiguous = fail(lambda: db.record(event_type="input", content="z",
                                           concept_activations={"Leaf": 0.5}))  # fmt: skip
        assert isinstance(ambiguous, xdb.InvalidRequest)
        assert "org.test/other@1.0.0::concept/Leaf" in ambiguous.message


def test_an_ambiguous_name_is_refused_listing_the_candidates(world: Any) -> None:
    db, _ = world
    calls = {
        "concept_filters[0].concept_id": lambda: db.search_episodes(
            concept_filters=[{"concept_id": "Joy"}]
        ),
        "concept_activations": lambda: db.query(concept_activations={"Joy": {"min": 0.1}}),
        "concept_ids": lambda: db.concept_usage_summary(concept_ids=["Joy"]),
        "target_concept_id": lambda: db.build_dataset(target_concept_id="Joy"),
        "concept_id": lambda: db.get_concept(concept_id="Joy"),
    }
    for field, call in calls.items():
        error = fail(call)
        assert isinstance(error, xdb.InvalidRequest) and error.field == field, error
        assert "several packs" in error.message
        for spec in (ALPHA, BETA, GAMMA):
            assert f"{spec}::concept/Joy" in error.message


def test_an_unknown_name_is_refused_naming_the_field(world: Any) -> None:
    db, _ = world
    calls = {
        "concept_filters[0].concept_id": lambda: db.search_episodes(
            concept_filters=[{"concept_id": "Zzyzx", "polarity": "absent"}]
        ),
        "label_filters.concept_id": lambda: db.search_episodes(
            label_filters={"concept_id": "Zzyzx"}
        ),
        "concept_activations": lambda: db.query(concept_activations={"Zzyzx": {"min": 0.1}}),
        "concept_ids": lambda: db.concept_usage_summary(concept_ids=[alpha("Calm"), "Zzyzx"]),
        "target_concept_id": lambda: db.build_dataset(target_concept_id="Zzyzx"),
        "concept_id": lambda: db.exemplars(concept_id="Zzyzx"),
    }
    for field, call in calls.items():
        error = fail(call)
        assert isinstance(error, xdb.NotFound) and error.field == field, error
        assert error.message.startswith(f"{field}: 'Zzyzx' names no concept"), error.message
    before = len(db.datasets().datasets)
    fail(lambda: db.build_dataset(target_concept_id="Zzyzx"))
    assert len(db.datasets().datasets) == before  # refused before anything was written


def test_a_hidden_concept_is_neither_a_candidate_nor_known(world: Any) -> None:
    db, _ = world
    partner = db.as_caller(PARTNER)
    # Joy is in alpha and gamma (granted) and beta (not): the error names only what it sees.
    error = fail(lambda: partner.search_episodes(concept_filters=[{"concept_id": "Joy"}]))
    assert isinstance(error, xdb.InvalidRequest)
    assert f"{ALPHA}::concept/Joy" in error.message and f"{GAMMA}::concept/Joy" in error.message
    assert BETA not in error.message
    # Calm is visible: its short name works for the partner too.
    found = partner.search_episodes(concept_filters=[{"concept_id": "Calm"}])
    assert [e.summary for e in found.episodes] == ["a calm walk"]
    # Anger is denied: asked by any name, the answer is an unknown concept's, in its words.
    for hidden in ("Anger", "Anger:1", alpha("Anger")):
        for call in (
            lambda n: partner.search_episodes(concept_filters=[{"concept_id": n}]),
            lambda n: partner.query(all_sessions=True, concept_activations={n: {"min": 0}}),
            lambda n: partner.concept_usage_summary(concept_ids=[n]),
            lambda n: partner.get_concept(concept_id=n),
        ):
            asked, unknown = fail(lambda c=call, h=hidden: c(h)), fail(lambda c=call: c("Zzyzx"))
            assert type(asked) is type(unknown) and asked.field == unknown.field
            assert asked.message == unknown.message.replace("'Zzyzx'", repr(hidden))
            assert alpha("Anger") not in asked.message or hidden == alpha("Anger")


def test_a_list_walked_in_one_loop_finds_what_the_model_walk_finds() -> None:
    from xdb.concepts import requests
    from xdb.episodes.episode_models import ConceptFilter, ConceptTag, GraphEdge, GraphNode
    from xdb.log.log_models import RecordRequest

    full = "org.test/tiny@1.0.0::concept/Leaf"
    lists: list[list[Any]] = [
        [
            RecordRequest(event_type="output", content="a", concept_activations={full: 0.1}),
            RecordRequest(event_type="output", content="b"),
            RecordRequest(
                event_type="output", content="c", concept_activations={"Leaf": 0.2, full: 0.3}
            ),
            RecordRequest(event_type="output", content="d", concept_activations={"Leaf": 0.4}),
        ],
        [ConceptTag(concept_id="Child", score=1), ConceptTag(concept_id=full, score=0.5)],
        [ConceptFilter(concept_id="Leaf"), ConceptFilter(concept_id="Root")],
        [GraphEdge(src="episode:1", dst="concept:x", type="TAGGED_BY")],  # (no concepts walked)
        [GraphNode(node_id="concept:x", type="Concept", concept_id="Leaf")],
        [ConceptTag(concept_id="Child", score=1), ConceptFilter(concept_id="Leaf")],  # mixed
    ]
    for items in lists:
        for every in (False, True):
            walked: dict[str, str] = {}
            for i, item in enumerate(items):
                requests._collect(item, f"xs[{i}].", walked, every)
            flat: dict[str, str] = {}
            if requests._collect_flat(items, "xs", flat, every):
                assert list(flat.items()) == list(walked.items()), (items, every)
    assert not requests._collect_flat(lists[-1], "xs", {}, False)  # (mixed: the walk's)
