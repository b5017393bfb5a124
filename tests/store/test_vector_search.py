"""Vector search in the database: the optional ``VectorSearch`` capability, which only the
PostgreSQL store has (pgvector HNSW, cosine). SQLite's answer is the in-memory index, so
the comparison here is with that index built from the SQLite store holding the same data.

The corpus is small, so PostgreSQL's answers are exact whichever plan it picks (an HNSW
walk over 120 vectors with ``ef_search`` of 40 or more reaches them all): each filter's
answer is compared with a brute-force ranking over the episodes SQL says match. The
HNSW walk under a selective filter, where a plain scan would come back short, is forced
separately and checked to be the plan that ran.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import psycopg
import pytest
from psycopg import sql

from tests.conftest import PostgresServer
from tests.store._data import T0, episode
from xdb.errors import InvalidRequest
from xdb.index.in_memory_vectors import VectorIndex
from xdb.store.postgres import PostgresStore, schema, vector_search
from xdb.store.postgres.vector_index import index_name
from xdb.store.protocol import VectorSearch
from xdb.store.sqlite import SQLiteStore
from xdb.store.types import ConceptCondition, EpisodeFilter, NewEpisode

N, DIM, MODEL = 120, 16, "m:16"
HOUR = 3_600_000_000
Vectors = dict[int, npt.NDArray[np.float32]]


def _unit(v: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    out: npt.NDArray[np.float32] = (v / np.linalg.norm(v)).astype("<f4")
    return out


def _corpus() -> tuple[list[NewEpisode], Vectors]:
    rng = random.Random(7)
    gen = np.random.default_rng(7)
    episodes, vectors = [], {}
    for n in range(1, N + 1):
        concepts = [
            (c, round(rng.random(), 2), rng.choice(["stable", "candidate"]))
            for c in ("c/a", "c/b")
            if rng.random() < 0.4
        ]
        labels = [("c/a", rng.choice(["positive", "negative"]), 0.8)] if n % 6 == 0 else []
        episodes.append(
            episode(
                n,
                f"episode {n}",
                namespace=f"ns{n % 3}",
                kind="rare" if n % 20 == 0 else ("task" if n % 2 else "turn"),
                session=None if n % 5 == 0 else f"s{n % 4}",
                start_us=T0 + n * HOUR,
                concepts=concepts,
                labels=labels,
            )
        )
        if n % 11:  # every eleventh episode has no vector yet
            vectors[n] = _unit(gen.normal(size=DIM))
    return episodes, vectors


class Stores(NamedTuple):
    pg: PostgresStore
    lite: SQLiteStore
    vectors: Vectors  # the corpus's, by seq
    url: str  # the PostgreSQL database's


@pytest.fixture(scope="module")
def stores(
    postgres_server: PostgresServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Stores]:
    url = postgres_server.lend_database()
    pg = PostgresStore(url)
    lite = SQLiteStore(tmp_path_factory.mktemp("vectors") / "v.sqlite3")
    episodes, vectors = _corpus()
    rows = [(seq, v.tobytes()) for seq, v in vectors.items()]
    for store in (pg, lite):
        for ep in episodes:
            store.add_episode(ep)
        store.store_vectors(MODEL, rows)
        # Another model's vectors, of another dimension, in the same table.
        store.store_vectors("other:4", [(seq, _unit(np.ones(4)).tobytes()) for seq in (1, 2)])
    yield Stores(pg, lite, vectors, url)
    pg.close()
    lite.close()
    postgres_server.give_back(url)


def _query(vectors: Vectors, near: int, noise: float = 0.3) -> npt.NDArray[np.float32]:
    """A query near episode ``near``'s vector: its top hit is clear, the rest are not."""
    gen = np.random.default_rng(near)
    return _unit(vectors[near] + noise * gen.normal(size=DIM))


def _brute(
    vectors: Vectors, seqs: list[int], query: npt.NDArray[np.float32], k: int
) -> list[tuple[int, float]]:
    scored = [(s, float(vectors[s] @ query)) for s in seqs if s in vectors]
    return sorted(scored, key=lambda item: (-item[1], -item[0]))[:k]


def test_only_the_postgres_store_searches_vectors_itself(
    stores: Stores,
) -> None:
    pg, lite, _, _ = stores
    assert isinstance(pg, VectorSearch)
    assert not isinstance(lite, VectorSearch)


FILTERS = [
    EpisodeFilter(),
    EpisodeFilter(namespace="ns1"),
    EpisodeFilter(namespace="nowhere"),
    EpisodeFilter(session_id="s2"),
    EpisodeFilter(start_us=T0 + 30 * HOUR, end_us=T0 + 70 * HOUR),
    EpisodeFilter(kinds=["rare", "turn"]),
    EpisodeFilter(max_seq=50),
    EpisodeFilter(concepts=[ConceptCondition("c/a", 0.5, None, False, True, False)]),
    EpisodeFilter(concepts=[ConceptCondition("c/b", 0.0, "candidate", True, True, False)]),
    EpisodeFilter(concepts=[ConceptCondition("c/a", 0.5, None, False, True, True)]),
    EpisodeFilter(label_concept="c/a", label="positive"),
    EpisodeFilter(namespace="ns2", kinds=["task"], session_id="s1", max_seq=100),
]


@pytest.mark.parametrize("flt", FILTERS, ids=[str(i) for i in range(len(FILTERS))])
@pytest.mark.parametrize("k", [5, 200])
def test_every_filter_is_honoured(stores: Stores, flt: EpisodeFilter, k: int) -> None:
    pg, _, vectors, _ = stores
    query = _query(vectors, 8)
    got = pg.episode_vector_ranking(flt, query, MODEL, k)
    want = _brute(vectors, pg.episode_seqs(flt), query, k)
    assert [s for s, _ in got] == [s for s, _ in want]
    assert [v for _, v in got] == pytest.approx([v for _, v in want], abs=1e-5)


def test_the_vector_snapshot_and_an_allowlist_restrict_the_answer(
    stores: Stores,
) -> None:
    pg, _, vectors, _ = stores
    query = _query(vectors, 30)
    # vseqs follow the order vectors were stored in: the first 40 of the corpus's.
    first = sorted(vectors)[:40]
    got = pg.episode_vector_ranking(EpisodeFilter(), query.tobytes(), MODEL, 200, max_vseq=40)
    assert sorted(s for s, _ in got) == first
    allowed = [3, 30, 31, 33, 999]  # 33 has no vector; 999 is no episode
    got = pg.episode_vector_ranking(EpisodeFilter(), query, MODEL, 10, allowed=allowed)
    assert [s for s, _ in got] == [s for s, _ in _brute(vectors, allowed, query, 10)]
    assert pg.episode_max_vseq(MODEL) == len(vectors)
    assert pg.episode_max_vseq("never") == 0


def test_models_do_not_mix_and_queries_must_fit_the_model(stores: Stores) -> None:
    pg = stores.pg
    other = pg.episode_vector_ranking(EpisodeFilter(), np.ones(4), "other:4", 9)
    assert [s for s, _ in other] == [2, 1]  # equal similarities: the newer first
    assert pg.episode_vector_ranking(EpisodeFilter(), np.ones(DIM), "never:16", 5) == []
    assert pg.episode_vector_ranking(EpisodeFilter(), np.zeros(DIM), MODEL, 5) == []
    with pytest.raises(InvalidRequest, match="dimensions"):
        pg.episode_vector_ranking(EpisodeFilter(), np.ones(DIM + 1), MODEL, 5)
    with pytest.raises(InvalidRequest, match="dimensions"):
        pg.store_vectors(MODEL, [(11, _unit(np.ones(DIM + 1)).tobytes())])


@pytest.mark.parametrize(
    "flt",
    [
        EpisodeFilter(),
        EpisodeFilter(namespace="ns0"),
        EpisodeFilter(kinds=["task"], start_us=T0 + 10 * HOUR),
        EpisodeFilter(max_seq=90),
    ],
    ids=["all", "namespace", "kinds+time", "snapshot"],
)
def test_the_same_top_hit_as_the_in_memory_index(stores: Stores, flt: EpisodeFilter) -> None:
    # The in-memory index keeps 8-bit codes: similarities agree to ~0.01, and an order can
    # differ only between near ties, so the top hit (clear by construction) must agree,
    # and each list must hold what the other ranks well above its cut.
    pg, lite, vectors, _ = stores
    memory = VectorIndex(MODEL, DIM)
    memory.add(lite.load_vectors(MODEL))
    for near in (8, 41, 97):
        query = _query(vectors, near, noise=0.1)
        mine = memory.search(query, 10, flt)
        theirs = pg.episode_vector_ranking(flt, query, MODEL, 10)
        assert mine and theirs[0][0] == mine[0][0]
        assert theirs[0][1] == pytest.approx(mine[0][1], abs=0.01)
        for one, other in ((mine, theirs), (theirs, mine)):
            cut = one[-1][1]
            assert {s for s, v in other if v > cut + 0.02} <= {s for s, _ in one}


@pytest.mark.parametrize("flt", FILTERS, ids=[str(i) for i in range(len(FILTERS))])
@pytest.mark.parametrize("concepts", [[], ["c/a"], ["c/a", "c/b"]], ids=["none", "a", "ab"])
def test_matches_read_with_their_ranking_equal_both_read_apart(
    stores: Stores, flt: EpisodeFilter, concepts: list[str]
) -> None:
    pg, _, vectors, _ = stores
    query = _query(vectors, 8)
    found = pg.episode_matches_ranked(flt, concepts, query, MODEL, 10)
    matches = pg.episode_matches(flt, concepts)
    assert sorted(found.matches) == sorted(matches)
    allowed = [seq for seq, _, _ in matches]
    apart = pg.episode_vector_ranking(flt, query, MODEL, 10, allowed=allowed)
    assert found.ranking is not None
    assert [s for s, _ in found.ranking] == [s for s, _ in apart]
    assert [v for _, v in found.ranking] == pytest.approx([v for _, v in apart], abs=1e-6)
    assert found.max_vseq == pg.episode_max_vseq(MODEL) == len(vectors)
    assert found.text_change == pg.latest_text_change() > 0


def test_matches_read_with_their_ranking_keep_a_snapshot_and_leave_long_lists(
    stores: Stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    pg, _, vectors, _ = stores
    query = _query(vectors, 30)
    found = pg.episode_matches_ranked(EpisodeFilter(), [], query, MODEL, 200, max_vseq=40)
    assert found.max_vseq == 40
    assert found.ranking is not None
    assert sorted(s for s, _ in found.ranking) == sorted(vectors)[:40]
    # Past the exact-scoring limit the ranking is left to the caller (the HNSW path).
    monkeypatch.setattr(vector_search, "EXACT_ROWS", N - 1)
    found = pg.episode_matches_ranked(EpisodeFilter(), [], query, MODEL, 5)
    assert found.ranking is None and len(found.matches) == N
    assert found.max_vseq == len(vectors)
    found = pg.episode_matches_ranked(EpisodeFilter(namespace="ns1"), [], query, MODEL, 5)
    assert found.ranking is not None and len(found.ranking) == 5


def test_matches_read_with_their_ranking_of_nothing_comparable(stores: Stores) -> None:
    pg = stores.pg
    flt = EpisodeFilter(session_id="s2")
    matches = sorted(pg.episode_matches(flt, ["c/b"]))
    for query, model, newest in (
        (np.zeros(DIM), MODEL, len(stores.vectors)),  # no direction
        (np.ones(DIM), "never:16", 0),  # a model with no vectors
    ):
        found = pg.episode_matches_ranked(flt, ["c/b"], query, model, 5)
        assert (sorted(found.matches), found.ranking, found.max_vseq) == (matches, [], newest)
    with pytest.raises(InvalidRequest, match="dimensions"):
        pg.episode_matches_ranked(flt, [], np.ones(DIM + 1), MODEL, 5)


def _forced_hnsw(
    url: str, flt: EpisodeFilter, query: npt.NDArray[Any], k: int, iterative: bool
) -> tuple[list[tuple[int, float]], str, int]:
    """``vector_search.ranking`` with every plan but the HNSW walk priced out: its answer,
    the plan, and how many rows the index scan alone gave (under the same settings)."""
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        for setting in ("enable_seqscan", "enable_sort", "enable_bitmapscan"):
            conn.execute(sql.SQL("SET LOCAL {} = off").format(sql.Identifier(setting)))
        index = vector_search.model_index(conn, MODEL)
        assert index is not None
        found = vector_search.ranking(conn, flt, query, MODEL, k, None, None, index, iterative)
        statement, params = vector_search._select(
            flt, MODEL, index, query.tolist(), k, None, None, True
        )
        scanned = len(conn.execute(statement, params).fetchall())
        explained = conn.execute(sql.SQL("EXPLAIN ") + statement, params)
        plan = "\n".join(str(r[0]) for r in explained)
    return found, plan, scanned


@pytest.mark.parametrize("iterative", [True, False], ids=["iterative", "fallback"])
def test_a_selective_filter_still_gets_k_results(stores: Stores, iterative: bool) -> None:
    # Six "rare" episodes in 120: the 40 nearest a query (ef_search) hold two or so, so a
    # plain HNSW scan comes back short. Iterative scans walk on; without them the exact
    # query answers.
    pg, _, vectors, url = stores
    flt = EpisodeFilter(kinds=["rare"])
    rare = pg.episode_seqs(flt)
    assert len(rare) == 6
    query = _query(vectors, 1)
    found, plan, scanned = _forced_hnsw(url, flt, query.astype(float), 6, iterative)
    assert index_name(MODEL, DIM) in plan
    assert (scanned == 6) if iterative else (scanned < 6)
    assert [s for s, _ in found] == [s for s, _ in _brute(vectors, rare, query, 6)]
    assert len(pg.episode_vector_ranking(flt, query, MODEL, 6)) == 6


def test_a_database_with_vectors_gets_its_index_when_migrated(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = postgres_server.new_database()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
    # The schema as it was before vector search: vectors stored, no index, no registry.
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:3])
    monkeypatch.setattr(schema, "LATEST", 3)
    old = PostgresStore(url)
    old.add_episode(episode(1, "one"))
    old.add_episode(episode(2, "two"))
    old.close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO episode_vectors (namespace, episode_seq, model, vector)"
            " VALUES ('default', 1, 'm:2', '[1,0]'), ('default', 2, 'm:2', '[0,1]')"
        )
    monkeypatch.undo()
    store = PostgresStore(url)
    try:
        found = store.episode_vector_ranking(EpisodeFilter(), np.array([0.1, 1]), "m:2", 5)
        assert [s for s, _ in found] == [2, 1]
        with psycopg.connect(url, autocommit=True) as conn:
            names = {r[0] for r in conn.execute("SELECT indexname FROM pg_indexes")}
        assert index_name("m:2", 2) in names
        # Dropping the model's vectors drops its index too.
        store.drop_other_vectors("m:3")
        with psycopg.connect(url, autocommit=True) as conn:
            names = {r[0] for r in conn.execute("SELECT indexname FROM pg_indexes")}
        assert index_name("m:2", 2) not in names
        assert store.episode_vector_ranking(EpisodeFilter(), np.array([0.1, 1]), "m:2", 5) == []
    finally:
        store.close()
