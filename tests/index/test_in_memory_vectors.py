"""The in-memory vector index: 8-bit codes, exact scoring over them, filters and allowlists."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from xdb.index.in_memory_vectors import NUMPY_ROWS, VectorIndex
from xdb.store.types import EpisodeFilter

DIM = 384


def unit_vectors(n: int, seed: int) -> Any:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, DIM)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def rows_for(
    vectors: Any, seqs: list[int]
) -> list[tuple[int, int, bytes, str, int, int, str, str | None]]:
    return [
        (seq, seq, vectors[i].tobytes(), f"ns{seq % 3}", seq * 10, seq * 10 + 5, "k" + str(seq % 2),
         f"s{seq % 4}" if seq % 5 else None)
        for i, seq in enumerate(seqs)
    ]  # fmt: skip


@pytest.fixture(scope="module")
def big() -> tuple[VectorIndex, Any]:
    n = 2 * NUMPY_ROWS + 2000  # enough rows that an unfiltered search takes the faiss scan
    vectors = unit_vectors(n, 1)
    index = VectorIndex("test", DIM)
    index.add(rows_for(vectors, list(range(1, n + 1))))
    return index, vectors


def test_scores_match_float32_cosine_within_quantisation(big: tuple[VectorIndex, Any]) -> None:
    index, vectors = big
    query = vectors[17]
    exact = vectors @ query
    for allowed in (None, list(range(1, 200))):  # the faiss scan, then the numpy decode
        hits = index.search(query, 10, EpisodeFilter(), allowed=allowed)
        assert hits[0][0] == 18  # itself
        for seq, score in hits:
            assert abs(score - float(exact[seq - 1])) < 0.01


def test_numpy_and_faiss_paths_rank_alike(big: tuple[VectorIndex, Any]) -> None:
    index, vectors = big
    query = unit_vectors(1, 9)[0]
    everything = list(range(1, len(vectors) + 1))
    by_faiss = index.search(query, 20, EpisodeFilter())  # all rows: faiss scan
    few = [seq for seq, _ in by_faiss] + everything[:50]
    by_numpy = index.search(query, 20, EpisodeFilter(), allowed=few)  # few rows: numpy
    assert [s for s, _ in by_numpy] == [s for s, _ in by_faiss]
    for (_, a), (_, b) in zip(by_numpy, by_faiss, strict=True):
        assert a == pytest.approx(b, abs=1e-4)


def test_large_allowlist_takes_the_bitmap_scan(big: tuple[VectorIndex, Any]) -> None:
    index, vectors = big
    query = vectors[40]
    allowed = list(range(2, len(vectors) + 1, 2))  # even seqs: more than NUMPY_ROWS of them
    assert len(allowed) > NUMPY_ROWS
    hits = index.search(query, 50, EpisodeFilter(), allowed=allowed + allowed[:10])
    assert all(seq % 2 == 0 for seq, _ in hits)
    assert len({seq for seq, _ in hits}) == len(hits) == 50
    best = max(allowed, key=lambda s: float(vectors[s - 1] @ query))
    assert hits[0][0] == best


def test_filters_mask_rows() -> None:
    vectors = unit_vectors(60, 2)
    index = VectorIndex("test", DIM)
    index.add(rows_for(vectors, list(range(1, 61))))
    query = vectors[0]

    def seqs(flt: EpisodeFilter, **kw: Any) -> set[int]:
        return {s for s, _ in index.search(query, 100, flt, **kw)}

    assert seqs(EpisodeFilter(namespace="ns1")) == {s for s in range(1, 61) if s % 3 == 1}
    assert seqs(EpisodeFilter(namespace="nowhere")) == set()
    assert seqs(EpisodeFilter(kinds=["k0"])) == {s for s in range(1, 61) if s % 2 == 0}
    # windows [10s, 10s+5] overlapping [200, 300]: seqs 20..30
    assert seqs(EpisodeFilter(start_us=200, end_us=300)) == set(range(20, 31))
    assert seqs(EpisodeFilter(max_seq=5)) == {1, 2, 3, 4, 5}
    assert seqs(EpisodeFilter(), max_vseq=3) == {1, 2, 3}
    assert seqs(EpisodeFilter(), allowed=[7, 9, 999]) == {7, 9}
    assert seqs(EpisodeFilter(), allowed=[7, 9], max_vseq=8) == {7}
    assert index.search(query, 5, EpisodeFilter(), allowed=[]) == []


def test_rows_out_of_seq_order_and_removal() -> None:
    vectors = unit_vectors(30, 3)
    index = VectorIndex("test", DIM)
    index.add(rows_for(vectors[:10], [30, 29, 28, 27, 26, 25, 24, 23, 22, 21]))
    index.add(rows_for(vectors[10:], list(range(1, 21))))
    assert len(index) == 30
    found = index.search(vectors[0], 3, EpisodeFilter(), allowed=[30, 5, 21])
    assert found[0][0] == 30 and {s for s, _ in found} == {30, 5, 21}
    index.remove(30)
    index.remove(12345)  # unknown: nothing happens
    assert len(index) == 29
    assert 30 not in {s for s, _ in index.search(vectors[0], 30, EpisodeFilter())}
    assert {s for s, _ in index.search(vectors[0], 3, EpisodeFilter(), allowed=[30, 5])} == {5}


def test_memory_per_episode_stays_under_a_kilobyte() -> None:
    index = VectorIndex("test", DIM)
    index.add(rows_for(unit_vectors(10_000, 4), list(range(1, 10_001))))
    assert index.memory_bytes() / len(index) <= 1024
    assert index.search(unit_vectors(1, 5)[0], 1, EpisodeFilter())


def test_rows_and_places_of_seqs_with_and_without_gaps() -> None:
    """Seqs with none missing map to rows by subtraction, others by binary search, alike;
    ``places`` gives each live row's session, window and namespace."""
    vectors = unit_vectors(30, 4)
    dense, gappy = VectorIndex("m", DIM), VectorIndex("m", DIM)
    dense.add(rows_for(vectors[:20], list(range(5, 25))))
    gappy.add(rows_for(vectors[:20], [s for s in range(5, 26) if s != 9]))
    asked = np.array([1, 5, 6, 12, 24, 25, 40], dtype=np.int64)
    assert dense._rows_of(asked).tolist() == [0, 1, 7, 19]
    assert gappy._rows_of(asked).tolist() == [0, 1, 6, 18, 19]
    gappy.remove(12)
    places = gappy.places([5, 6, 9, 12, 20])
    assert sorted(places) == [5, 6, 20]
    assert places[5] == (None, 55, "ns2", 50)
    assert places[6] == ("s2", 65, "ns0", 60)
    assert len(gappy) == 19


def test_a_vector_of_another_length_is_left_out_and_the_index_goes_on() -> None:
    index = VectorIndex("test", 4)
    good = np.array([1, 0, 0, 0], dtype=np.float32).tobytes()
    short = np.array([1, 0, 0], dtype=np.float32).tobytes()
    rows = [(1, 10, good, "ns", 0, 0, "other", None), (2, 11, short, "ns", 0, 0, "other", None)]
    assert index.add(rows) == 1
    assert index.max_vseq == 2  # read past: the next load starts after it
    assert index.embedded([10, 11], None) == {10}
