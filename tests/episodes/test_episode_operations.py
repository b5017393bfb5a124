"""Episodes: add, get, delete, neighbours, similar episodes, embedding off the write path."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import pytest

import xdb
from xdb.errors import InvalidRequest, NotFound
from xdb.store.episode_row import default_summary


@pytest.fixture
def db(target: str) -> Any:
    with xdb.connect(target, embedder="hash") as database:
        yield database


def test_add_then_detail_round_trips_every_field(db: xdb.Database) -> None:
    made = db.add_episode(
        content="The deploy failed. We rolled back at 10:05.",
        kind="incident",
        namespace="proj",
        session_id="s1",
        time_window={"start_time": "2025-03-01T10:00:00", "end_time": "2025-03-01T11:05:00+01:00"},
        concept_tags=[
            {"concept_id": "Failure", "score": 0.9},
            {"concept_id": "bud/x", "score": 0.4, "kind": "candidate"},
        ],
        motive_profile={"Care": 0.6},
        metadata={"source": "slack"},
        labels=[{"concept_id": "Failure", "label": "positive", "confidence": 0.8}],
        provenance={"session_id": "s1", "start_tick": 3, "end_tick": 9, "source": "log"},
    )
    ep = db.get_episode_detail(episode_id=made.episode_id).episode
    assert ep.summary == "The deploy failed."  # the first sentence, honest and cheap
    assert ep.content == "The deploy failed. We rolled back at 10:05."
    assert (ep.kind, ep.namespace, ep.session_id) == ("incident", "proj", "s1")
    # A time without a zone is UTC; one with an offset is converted to UTC.
    assert ep.time_window.start_time.isoformat() == "2025-03-01T10:00:00+00:00"
    assert ep.time_window.end_time.isoformat() == "2025-03-01T10:05:00+00:00"
    assert [(t.concept_id, t.score, t.kind.value) for t in ep.concept_tags] == [
        ("Failure", 0.9, "stable"),
        ("bud/x", 0.4, "candidate"),
    ]
    assert ep.motive_profile == {"Care": 0.6} and ep.metadata == {"source": "slack"}
    assert ep.labels[0].label.value == "positive"
    assert (ep.provenance.start_tick, ep.provenance.end_tick) == (3, 9)


def test_ids_are_unique_even_when_added_in_the_same_microsecond(db: xdb.Database) -> None:
    ids = [db.add_episode(content=f"e{i}").episode_id for i in range(500)]
    assert len(set(ids)) == 500


def test_a_one_megabyte_episode_is_stored_whole_and_embedded(db: xdb.Database) -> None:
    big = ("lorem ipsum dolor sit amet " * 40_000)[:1_000_000]
    made = db.add_episode(content=big)
    assert db.get_episode_detail(episode_id=made.episode_id).episode.content == big
    assert db.wait_for_embeddings(30)
    assert db.store.missing_vectors("hash:384", 10) == []


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"content": ""}, "content"),
        ({"content": "x", "concept_tags": [{"concept_id": "c", "score": 1.5}]}, "concept_tags"),
        (
            {"content": "x", "time_window": {"start_time": "yesterday", "end_time": "now"}},
            "time_window",
        ),
        ({"content": "x", "labels": [{"concept_id": "c", "label": "maybe"}]}, "labels"),
        (
            {"content": "x", "time_window": {"start_time": "2025-01-02", "end_time": "2025-01-01"}},
            "time_window",
        ),
        ({"content": "x", "colour": "red"}, "colour"),
    ],
)
def test_bad_input_names_the_field_and_writes_nothing(
    db: xdb.Database, fields: dict[str, Any], field: str
) -> None:
    # Through call, as every skin sends a request: the typed method would refuse an unknown
    # keyword itself, in Python, before any request is made (tested in tests/test_api.py).
    with pytest.raises(InvalidRequest) as err:
        db.call("experience.add_episode", fields)
    assert field in str(err.value)
    assert db.search_episodes(sort={"by": "time_desc"}).episodes == []


def test_delete_is_idempotent_and_removes_everything(db: xdb.Database) -> None:
    made = db.add_episode(content="short lived", concept_tags=[{"concept_id": "C", "score": 1}])
    db.wait_for_embeddings(10)
    assert db.delete_episode(episode_id=made.episode_id).deleted is True
    assert db.delete_episode(episode_id=made.episode_id).deleted is False
    with pytest.raises(NotFound):
        db.get_episode_detail(episode_id=made.episode_id)
    assert db.search_episodes(text_query="short lived").episodes == []
    with pytest.raises(NotFound, match="names no concept"):  # nothing carries C now
        db.search_episodes(concept_filters=[{"concept_id": "C"}])


def test_next_links_follow_the_session_in_time_order(db: xdb.Database) -> None:
    times = ["2025-01-01T10:00:00Z", "2025-01-01T09:00:00Z", "2025-01-01T11:00:00Z"]
    ids = [
        db.add_episode(
            content=f"step {i}", session_id="s", time_window={"start_time": t, "end_time": t}
        ).episode_id
        for i, t in enumerate(times)
    ]
    db.add_episode(content="other session", session_id="t")
    middle = db.get_episode_detail(episode_id=ids[0]).episode
    assert (middle.previous_episode_id, middle.next_episode_id) == (ids[1], ids[2])
    first = db.get_episode_detail(episode_id=ids[1]).episode
    assert first.previous_episode_id is None and first.next_episode_id == ids[0]


def test_neighbourhood_walks_next_tagged_by_and_contains_to_a_depth(db: xdb.Database) -> None:
    ids = [
        db.add_episode(
            content=f"step {i}",
            session_id="s",
            time_window={
                "start_time": f"2025-01-01T1{i}:00:00Z",
                "end_time": f"2025-01-01T1{i}:00:00Z",
            },
            concept_tags=[{"concept_id": f"C{i}", "score": 0.5}],
            provenance={"session_id": "s", "start_tick": 10 * i + 1, "end_tick": 10 * i + 3},
        ).episode_id
        for i in range(4)
    ]
    one = db.get_episode_detail(episode_id=ids[1], include_graph_neighbors={"depth": 1})
    nodes = {n.node_id for n in one.graph_neighbors.nodes}
    assert {ids[0], ids[1], ids[2], "concept:C1", "ts-s-11", "ts-s-12", "ts-s-13"} == nodes
    edges = {(e.src, e.dst, e.type.value) for e in one.graph_neighbors.edges}
    assert (ids[0], ids[1], "NEXT") in edges and (ids[1], ids[2], "NEXT") in edges
    assert (ids[1], "concept:C1", "TAGGED_BY") in edges
    two = db.get_episode_detail(
        episode_id=ids[1], include_graph_neighbors={"depth": 2, "relation_filters": ["NEXT"]}
    )
    assert {n.node_id for n in two.graph_neighbors.nodes} == set(ids)
    assert {e.type.value for e in two.graph_neighbors.edges} == {"NEXT"}


def test_similar_episodes_share_concepts_and_exclude_the_seed(db: xdb.Database) -> None:
    def add(text: str, concepts: list[str], ns: str = "p") -> str:
        tags = [{"concept_id": c, "score": 0.9} for c in concepts]
        return db.add_episode(content=text, concept_tags=tags, namespace=ns).episode_id

    seed = add("database migration failed in production", ["Migration", "Failure"])
    close = add("the migration failed again on staging", ["Migration", "Failure"])
    half = add("a migration went fine", ["Migration"])
    far = add("we had lunch by the river", ["Food"])
    add("migration failed too", ["Migration", "Failure"], ns="elsewhere")
    db.wait_for_embeddings(10)
    found = db.similar_episodes(seed_episode_id=seed, concept_k=2)
    order = [n.episode_id for n in found.neighbors]
    assert seed not in order and found.seed_episode.episode_id == seed
    assert order.index(close) < order.index(half) < order.index(far)
    assert len(order) == 3  # the seed's namespace only
    overlap = {n.episode_id: set(n.concept_overlap) for n in found.neighbors}
    assert overlap[close] == {"Migration", "Failure"} and overlap[far] == set()
    with_seed = db.similar_episodes(seed_episode_id=seed, exclude_seed=False)
    assert with_seed.neighbors[0].episode_id == seed


def test_default_summary_is_bounded() -> None:
    assert default_summary("One. Two.") == "One."
    assert len(default_summary("x" * 5000)) == 200


def test_an_episode_is_vector_searchable_once_embedded_and_the_model_is_recorded(
    db: xdb.Database,
) -> None:
    made = db.add_episode(content="zebra crossing near the station")
    assert db.wait_for_embeddings(5)
    rows = db.store.load_vectors("hash:384")
    assert [r[1] for r in rows] == [1]
    found = db.search_episodes(text_query="zebra station")
    assert [h.episode_id for h in found.episodes] == [made.episode_id]


def _bare_store(target: str) -> Any:
    """The store of ``target`` without a Database (so no embedding worker)."""
    if target.startswith("postgresql://"):
        from xdb.store.postgres import PostgresStore

        return PostgresStore(target)
    from xdb.store.sqlite import SQLiteStore

    return SQLiteStore(target)


def test_a_crash_between_writing_and_embedding_loses_nothing(target: str) -> None:
    # The child adds episodes with an embedder that cannot answer (nothing listens on the
    # port), then dies without any chance to embed them.
    child = textwrap.dedent(
        f"""
        import os, signal, xdb
        db = xdb.connect({target!r}, embedder="openai")
        for i in range(20):
            db.add_episode(content=f"episode {{i}} about kites")
        print("added", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    env = {
        "XDB_EMBED_URL": "http://127.0.0.1:9/v1",
        "XDB_EMBED_MODEL": "none",
        "PATH": "/usr/bin:/bin",
    }
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env)
    assert done.stdout.strip() == "added", done.stderr
    # Counted on a bare store: a Database would start embedding the backlog as it opens.
    bare = _bare_store(target)
    try:
        assert len(bare.missing_vectors("hash:384", 100)) == 20
    finally:
        bare.close()
    with xdb.connect(target, embedder="hash") as db:
        assert db.wait_for_embeddings(30)
        assert db.store.missing_vectors("hash:384", 100) == []
        assert len(db.search_episodes(text_query="kites", page={"page_size": 50}).episodes) == 20


def test_search_never_mixes_two_models(target: str) -> None:
    from xdb.embed.hashing import HashEmbedder

    with xdb.connect(target, embedder="hash") as db:
        db.add_episode(content="first model wrote this")
        assert db.wait_for_embeddings(10)
    small = HashEmbedder(dimension=64)
    with xdb.connect(target, embedder=small) as db:
        assert db.wait_for_embeddings(10)  # re-embedded with the new model
        index = db.indexer.index()
        assert (index.model, index.dimension, len(index)) == (small.model_id, 64, 1)
        assert db.search_episodes(text_query="model wrote").episodes


def test_waiting_for_embeddings_reports_a_failing_embedder(target: str) -> None:
    class Failing:
        model_id = "failing:1"
        dimension = 4

        def embed(self, texts: Any) -> Any:
            raise RuntimeError("the embeddings server is down")

    with xdb.connect(target, embedder=Failing()) as db:
        made = db.add_episode(content="still stored and searchable by its words")
        assert db.wait_for_embeddings(10) is False
        assert db.indexer.failure is not None and "server is down" in db.indexer.failure
        found = db.search_episodes(text_query="searchable words")
        assert [h.episode_id for h in found.episodes] == [made.episode_id]


def test_search_ranks_by_words_when_the_query_cannot_be_embedded(target: str) -> None:
    from xdb.embed.hashing import HashEmbedder

    class BreaksOnQueries(HashEmbedder):
        def embed(self, texts: Any) -> Any:
            if texts and texts[0].startswith("query:"):
                raise RuntimeError("the embeddings server went away")
            return super().embed(texts)

    with xdb.connect(target, embedder=BreaksOnQueries()) as db:
        made = db.add_episode(content="penguins waddle on the ice")
        assert db.wait_for_embeddings(10)
        found = db.search_episodes(text_query="query: penguins")
        assert [h.episode_id for h in found.episodes] == [made.episode_id]


def test_two_handles_on_one_database_see_each_others_episodes(target: str) -> None:
    # Two processes sharing one database, in one: each keeps its own indexes, caught up
    # from the database, so what one adds or deletes the other finds or loses at once.
    with xdb.connect(target, embedder="hash") as one, xdb.connect(target, embedder="hash") as two:
        made = one.add_episode(content="the lighthouse keeper counts ships")
        assert one.wait_for_embeddings(10)
        found = two.search_episodes(text_query="lighthouse ships").episodes
        assert [h.episode_id for h in found] == [made.episode_id]
        assert two.delete_episode(episode_id=made.episode_id).deleted
        assert one.search_episodes(text_query="lighthouse ships").episodes == []
        with pytest.raises(NotFound):
            one.get_episode_detail(episode_id=made.episode_id)
