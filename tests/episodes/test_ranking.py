"""Fusion of the ranked lists: weights, the session boost, recency, and reading once."""

from __future__ import annotations

import xdb
from xdb.episodes.ranking import RECENCY_SCALE_US, Ranking, Signals, Weights, fuse, normalised
from xdb.models.common import Caller
from xdb.ops.registry import Context
from xdb.store.types import EpisodeFilter, Place


def test_lists_are_min_max_normalised() -> None:
    assert normalised([(1, 4.0), (2, 2.0), (3, 3.0)]) == {1: 1.0, 2: 0.0, 3: 0.5}
    assert normalised([(1, 7.0), (2, 7.0)]) == {1: 1.0, 2: 1.0}  # no spread: all best
    assert normalised([]) == {}


def test_the_text_weight_moves_between_bm25_and_vectors() -> None:
    signals = Signals(bm25={1: 1.0, 2: 0.0}, vectors={1: 0.0, 2: 1.0, 3: 0.5}, has_text=True)
    assert [s for s, _ in fuse(signals, Weights(1.0, 0.0))][:1] == [1]
    assert [s for s, _ in fuse(signals, Weights(0.0, 0.0))][:1] == [2]
    half = dict(fuse(signals, Weights(0.5, 0.0)))
    assert half == {1: 0.5, 2: 0.5, 3: 0.25}
    # Without a vector list (nothing embedded yet), text relevance is BM25 alone.
    only = Signals(bm25={1: 1.0, 2: 0.25}, has_text=True)
    assert dict(fuse(only, Weights(0.2, 0.0))) == {1: 1.0, 2: 0.25}
    # Episodes without a vector (4, 5: the worker is behind) are ranked by BM25 alone; the
    # rest by the mix, whatever their numbers (6 is embedded and only in the vector list).
    behind = Signals(
        bm25={1: 1.0, 4: 0.5, 5: 0.25},
        vectors={1: 0.0, 2: 1.0, 6: 0.5},
        has_text=True,
        unembedded={4, 5},
    )
    assert dict(fuse(behind, Weights(0.5, 0.0))) == {1: 0.5, 2: 0.5, 4: 0.5, 5: 0.25, 6: 0.25}


def test_the_session_boost_lifts_an_episodes_session_mates() -> None:
    places = {1: Place("A", 0), 2: Place("A", 0), 3: Place("B", 0)}
    signals = Signals(bm25={1: 1.0, 2: 0.2, 3: 0.3, 4: 0.3}, places=places, has_text=True)
    plain = [s for s, _ in fuse(signals, Weights(1.0, 0.0))]
    lifted = dict(fuse(signals, Weights(1.0, 0.5)))
    assert plain == [1, 4, 3, 2]
    assert lifted[2] == 0.2 + 0.5 * 1.0 and lifted[3] == 0.3 + 0.5 * 0.3
    assert lifted[4] == 0.3  # placed nowhere: no lift


def test_without_a_session_the_lift_comes_from_the_namespace_nearby_in_time() -> None:
    minute = 60_000_000

    def loose(namespace: str, minutes: int) -> Place:
        return Place(None, 0, namespace, minutes * minute)

    # 1 and 2 are 20 minutes apart, 3 is 25 after 2 (45 after 1), 4 is elsewhere, 5 is in
    # a session of its own; each is lifted by the best within 30 minutes of it.
    places = {1: loose("n", 0), 2: loose("n", 20), 3: loose("n", 45), 4: loose("m", 0)}
    places[5] = Place("s", 0, "n", 0)
    bm25 = {1: 1.0, 2: 0.1, 3: 0.2, 4: 0.3, 5: 0.4}
    lifted = dict(fuse(Signals(bm25=bm25, places=places, has_text=True), Weights(1.0, 0.5)))
    assert lifted[1] == 1.0 + 0.5 * 1.0
    assert lifted[2] == 0.1 + 0.5 * 1.0
    assert lifted[3] == 0.2 + 0.5 * 0.2  # 1 is too long before it; 2 scored less
    assert lifted[4] == 0.3 + 0.5 * 0.3 and lifted[5] == 0.4 + 0.5 * 0.4


def test_concepts_mix_with_text_by_score_weight_and_recency_by_age() -> None:
    now = 10 * RECENCY_SCALE_US
    signals = Signals(
        bm25={1: 1.0, 2: 0.0},
        concepts={2: 1.0},
        places={1: Place(None, 0), 2: Place(None, now)},
        has_text=True,
    )
    assert [s for s, _ in fuse(signals, Weights(1.0, 0.0), score_weight=0.2)] == [1, 2]
    assert [s for s, _ in fuse(signals, Weights(1.0, 0.0), score_weight=0.8)] == [2, 1]
    aged = dict(fuse(signals, Weights(1.0, 0.0), 0.2, recency_weight=0.5, now=now))
    assert aged[2] > aged[1]  # the old episode lost its lead to the new one
    assert abs(aged[1] - (0.5 * 0.8 + 0.5 * 2.718281828459045**-10)) < 1e-9
    assert fuse(signals, Weights(), exclude={1, 2}) == []
    # At either end of the weight, the other list's episodes stay, ranked last at 0.
    apart = Signals(bm25={1: 1.0}, concepts={2: 1.0}, has_text=True)
    assert fuse(apart, Weights(1.0, 0.0), score_weight=0.0) == [(1, 1.0), (2, 0.0)]
    assert fuse(apart, Weights(1.0, 0.0), score_weight=1.0) == [(2, 1.0), (1, 0.0)]


def test_signals_read_once_fuse_as_the_ranking_does() -> None:
    with xdb.connect(":memory:", embedder="hash") as db:
        for i, text in enumerate(["kayak on the lake", "lunch", "kayak repair", "budget"]):
            db.add_episode(content=text, session_id=f"s{i % 2}")
        assert db.wait_for_embeddings(30)
        ctx = Context(db.store, Caller(), lambda: "s0", indexer=db.indexer)
        for weights in (Weights(), Weights(0.9, 0.0), Weights(0.2, 0.6)):
            ranking = Ranking("kayak", [], 0.5, 0.0, weights=weights)
            signals = Ranking("kayak", [], 0.5, 0.0).signals(ctx, EpisodeFilter(), sessions=True)
            assert ranking.rank(ctx, EpisodeFilter()) == fuse(signals, weights)
