"""Recall however episodes arrive: without sessions, and while the embedding worker is
behind (the text leg stands in; ``wait_for_embeddings_s`` reads your writes)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import pytest

import xdb
from xdb.embed.hashing import HashEmbedder
from xdb.errors import NotReady
from xdb.index.candidates import VectorQuery
from xdb.store.protocol import Store
from xdb.store.types import EpisodeFilter

HELD_WORD = "moored"  # in an episode, never in a query here


class Held(HashEmbedder):
    """The hashing model, holding any batch with the held word until released: a worker
    that is behind on exactly those episodes. Queries embed at once."""

    def __init__(self) -> None:
        super().__init__()
        self.released = threading.Event()
        self.holding = threading.Event()

    def embed(self, texts: Sequence[str]) -> Any:
        if any(HELD_WORD in t for t in texts):
            self.holding.set()
            assert self.released.wait(60)
        return super().embed(texts)


def _open(target: str, embedder: Any) -> xdb.Database:
    from xdb.store.postgres import PostgresStore
    from xdb.store.sqlite import SQLiteStore

    store: Store = (
        PostgresStore(target) if target.startswith("postgresql://") else SQLiteStore(target)
    )
    return xdb.Database(store, embedder=embedder, embed_wait=0)


def _ids(found: Any) -> list[str]:
    return [h.episode_id for h in found.episodes]


def test_a_search_before_the_vectors_ranks_by_text_and_can_wait_for_them(target: str) -> None:
    held = Held()
    db = _open(target, held)
    try:
        for text in ["lunch in the park", "a walk by the river", "the kettle broke"]:
            db.add_episode(content=text)
        assert db.wait_for_embeddings(30)
        boat = db.add_episode(content=f"the boat is {HELD_WORD} at the harbour").episode_id
        # Not embedded yet: its words still find it, first.
        assert _ids(db.search_episodes(text_query="boat harbour"))[0] == boat
        with pytest.raises(NotReady) as refused:
            db.search_episodes(text_query="boat", wait_for_embeddings_s=0.05)
        assert refused.value.field == "wait_for_embeddings_s"
        assert "had not reached the episodes written since" in refused.value.message
        held.released.set()
        waited = db.search_episodes(text_query="boat", wait_for_embeddings_s=30)
        assert _ids(waited)[0] == boat
        assert db.status().embedding.backlog == 0
    finally:
        held.released.set()
        db.close()


def test_an_episode_deleted_before_its_vector_leaves_no_gap_in_ranking(target: str) -> None:
    # Episode numbers and vector numbers part ways here for good: the deleted episode used
    # a number and never got a vector. Whether an episode has a vector is asked, not
    # inferred from its number.
    held = Held()
    db = _open(target, held)
    try:
        apple = db.add_episode(content="apple pie recipe").episode_id
        assert db.wait_for_embeddings(30)
        first = VectorQuery("apple")  # the vector snapshot now: apple's alone
        db._context.candidates.vector_ranking(EpisodeFilter(), first, 10, None)
        boat = db.add_episode(content=f"the boat is {HELD_WORD}").episode_id
        assert held.holding.wait(30)
        db.delete_episode(episode_id=boat)
        held.released.set()
        assert db.wait_for_embeddings(30)
        car = db.add_episode(content="car engine oil").episode_id
        assert db.wait_for_embeddings(30)
        found = _ids(db.search_episodes(text_query="apple"))
        assert found[0] == apple and car in found  # the car by its (embedded) vector
        # Asked directly (a search asks when its vector list is full): which have vectors.
        seqs = {e: db.store.episodes_by_ids([e])[e].seq for e in (apple, car)}
        snapshot = VectorQuery("apple", max_vseq=10**9)
        unknown = seqs[car] + 1
        asked = db._context.candidates.embedded([seqs[apple], seqs[car], unknown], snapshot)
        assert asked == {seqs[apple], seqs[car]}
        assert db._context.candidates.embedded([seqs[apple], seqs[car]], first) == {seqs[apple]}
    finally:
        held.released.set()
        db.close()


def test_waiting_is_free_when_nothing_is_behind(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        made = db.add_episode(content="tea with lemon").episode_id
        found = db.search_episodes(text_query="lemon", wait_for_embeddings_s=30)
        assert _ids(found) == [made]
        # A search without text has nothing to wait for.
        assert _ids(db.search_episodes(wait_for_embeddings_s=0.001)) == [made]


def test_sessionless_turns_find_each_other_within_the_gap(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:

        def turn(text: str, minute: int, day: int = 8) -> str:
            when = f"2025-05-{day:02d}T10:{minute:02d}:00Z"
            return db.add_episode(
                content=text, time_window={"start_time": when, "end_time": when}
            ).episode_id

        question = turn("Where did you go hiking in May?", 0)
        answer = turn("Yes, the Alps, it was lovely!", 1)
        turn("Nice.", 2)
        later = turn("The Alps again next year, maybe.", 0, day=9)
        found = _ids(db.search_episodes(text_query="hiking", page={"page_size": 10}))
        # The answer never says "hiking"; the question next to it does. The next day's
        # talk is no neighbour of it: it ranks below both.
        assert {question, answer} <= set(found[:3])
        assert later not in found[:3]
        detail = db.get_episode_detail(episode_id=answer).episode
        assert detail.previous_episode_id == question
        assert db.get_episode_detail(episode_id=later).episode.previous_episode_id is None
