"""Candidate strategies: chosen once per handle from the store, and equal in what they give."""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import xdb
from tests.ops.conftest import OPERATION_PACKAGES, is_postgres, new_target
from xdb.episodes.ranking import Ranking
from xdb.index.candidates import (
    DatabaseVectorCandidates,
    IndexedCandidates,
    StoreCandidates,
    VectorQuery,
    choose,
)
from xdb.models.common import Caller
from xdb.ops.registry import Context
from xdb.store.types import ConceptCondition, EpisodeFilter

WORDS = ["kayak", "river", "budget", "deploy", "garden", "server"]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def filled(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[xdb.Database]:
    for target in new_target(request.param, request, tmp_path_factory.mktemp("candidates")):
        with xdb.connect(target, embedder="hash") as db:
            for i in range(40):
                words = " ".join(WORDS[j] for j in range(len(WORDS)) if (i >> j) & 1)
                db.add_episode(
                    content=f"Episode {i}: {words or 'nothing'}.",
                    session_id=f"s{i % 4}",
                    namespace=f"ns{i % 2}",
                    concept_tags=[{"concept_id": "c/x", "score": (i % 10) / 10}] if i % 3 else [],
                )
            assert db.wait_for_embeddings(30)
            yield db


def test_the_strategy_follows_the_store_and_is_chosen_at_connect(filled: xdb.Database) -> None:
    chosen = filled._context.candidates
    expected = DatabaseVectorCandidates if is_postgres(filled.store.location) else IndexedCandidates
    assert type(chosen) is expected
    # A context of another caller reuses the handle's choice rather than asking again.
    other = filled.run(
        xdb.ops.catalog.REGISTRY["experience.search_episodes"],
        {"text_query": "kayak"},
        caller=Caller(id="someone-else"),
    )
    assert other.episodes  # type: ignore[attr-defined]
    bare = Context(filled.store, Caller(), lambda: "s0")  # no embedding worker
    assert type(bare.candidates) is StoreCandidates
    assert type(choose(filled.store, None)) is StoreCandidates


def test_every_strategy_gives_the_same_allowlist_and_text_matches(filled: xdb.Database) -> None:
    flt = EpisodeFilter(
        namespace="ns1", concepts=[ConceptCondition("c/x", 0.3, None, False, True, False)]
    )
    sql = StoreCandidates(filled.store)
    chosen = filled._context.candidates
    for concepts in ([], ["c/x"]):
        plain = sql.allowlist(flt, concepts, None, 50)
        query = VectorQuery("kayak river")
        rich = chosen.allowlist(flt, concepts, query, 50)
        assert sorted(plain.seqs) == sorted(rich.seqs) and plain.seqs
        assert (plain.concepts is None) == (not concepts)
        if concepts:
            assert plain.concepts == rich.concepts
            assert plain.sessions == rich.sessions
        fts = {s for s, _ in sql.text_ranking(flt, ["kayak"], 50, plain)}
        indexed = {s for s, _ in chosen.text_ranking(flt, ["kayak"], 50, rich)}
        assert fts == indexed and fts <= set(plain.seqs)
        vectors = chosen.vector_ranking(flt, query, 50, rich)
        assert {s for s, _ in vectors} == set(plain.seqs)  # every match has a vector
        assert query.max_vseq is not None and query.max_vseq > 0
        assert sql.vector_ranking(flt, VectorQuery("kayak"), 50, plain) == []


class CountingStore:
    """The real store, counting the calls made through it."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if not callable(found):
            return found

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return found(*args, **kwargs)

        return counted


def test_session_boost_and_recency_share_one_read_of_the_places(filled: xdb.Database) -> None:
    counting = CountingStore(filled.store)
    ctx = Context(counting, Caller(), lambda: "s0", indexer=filled.indexer)
    ranked = Ranking("kayak budget", ["c/x"], 0.5, 0.5).rank(ctx, EpisodeFilter(namespace="ns0"))
    assert ranked
    # SQLite's vector index holds where each embedded episode sits: no read at all there.
    postgres = is_postgres(filled.store.location)
    assert counting.calls["episode_places"] == (1 if postgres else 0)
    assert counting.calls["episodes_by_seqs"] == 0  # recency no longer loads whole episodes
    # The same ranking without recency, with a filter the indexes cannot apply: the
    # sessions come with the allowlist, and no separate read is made for them.
    counting.calls.clear()
    tagged = [ConceptCondition("c/x", 0.5, None, False, True, False)]
    flt = EpisodeFilter(kinds=["other"], concepts=tagged)
    assert Ranking("kayak budget", ["c/x"], 0.5, 0.0).rank(ctx, flt)
    assert counting.calls["episode_places"] == 0
    # A filter the concept rows answer alone: SQLite reads the allowlist from those rows,
    # not joined to their episodes (7.5 -> 1 ms at 1M), and places the ranked episodes
    # from its vector index.
    counting.calls.clear()
    assert Ranking("kayak budget", ["c/x"], 0.5, 0.0).rank(ctx, EpisodeFilter(concepts=tagged))
    assert counting.calls["episode_places"] == 0


def test_no_operation_asks_what_the_store_can_do() -> None:
    """Capability checks happen once, at connect: a handler that branched on the store's
    kind would put a second strategy where the first one lives."""
    package = Path(xdb.__file__).parent
    for module in sorted(p for room in OPERATION_PACKAGES for p in (package / room).glob("*.py")):
        tree = ast.parse(module.read_text())
        where = module.relative_to(package)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name | ast.alias):
                name = node.id if isinstance(node, ast.Name) else node.name
                assert name != "VectorSearch", f"{where} tests for VectorSearch"
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute):
                assert node.left.attr != "backend", f"{where} branches on the backend"


def test_the_indexes_place_episodes_as_the_store_does(filled: xdb.Database) -> None:
    """The vector index places the episodes it holds as ``episode_places`` reads them, and
    SQLite's allowlist from the concept rows alone matches the one joined to episodes."""
    seqs = list(range(1, 45))
    if not is_postgres(filled.store.location):
        held = filled.indexer.index().places(seqs)
        assert held and held == filled.store.episode_places(list(held))
    from xdb.store import sqlbuild
    from xdb.store.sqlite.store import SQLiteStore

    store = filled.store
    if isinstance(store, SQLiteStore):
        for min_score in (0.0, 0.5):
            tagged = [ConceptCondition("c/x", min_score, None, False, True, False)]
            flt = EpisodeFilter(namespace="ns1", end_us=2**62, concepts=tagged)
            rows = store.episode_matches(flt, ["c/x"])
            joined = store._read(
                lambda c, f=flt: sqlbuild.matches_with_scores(
                    c, f, ["c/x"], "c.episode_seq = e.seq", sqlbuild.SQLITE
                )
            )
            assert rows and {(s, v) for s, _, v in rows} == {(s, v) for s, _, v in joined}
            assert all(session is None for _, session, _ in rows)  # not read on this path
