"""Where a search's candidate lists come from: one strategy per handle, chosen at ``connect``.

A relevance search (``episodes.ranking.Ranking``) plans which lists it needs, asks this module
for them, then fuses and pages. The lists are the same whatever the store; how they are
read is not:

- ``StoreCandidates``: everything from SQL (FTS5's BM25, no vectors). A context made
  without an embedding worker (a benchmark's, a test's) uses it.
- ``IndexedCandidates``: BM25 from the tantivy index (``index/tantivy_index.py``, FTS5 when it
  cannot serve) and cosine similarity from the in-memory vector index
  (``index/in_memory_vectors.py``) that this process loads from the store: SQLite.
- ``DatabaseVectorCandidates``: as above, but vectors are ranked by the database itself
  (pgvector's HNSW index, ``store.protocol.VectorSearch``), and a filtered search reads its
  allowlist, vector ranking and the text change log's head in one statement: PostgreSQL.

Concept rankings (the postings of ``episode_concepts``) come from SQL in every strategy.
``choose`` makes the capability check once; handlers never ask what the store is.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Protocol, Self

from xdb.store.protocol import VectorSearch

if TYPE_CHECKING:
    from xdb.index.embedding import Indexer
    from xdb.store.protocol import Store
    from xdb.store.types import EpisodeFilter, Place

logger = logging.getLogger(__name__)

Ranked = list[tuple[int, float]]  # (seq, score), best first


@dataclass
class VectorQuery:
    """The query's side of vector ranking: its text, its embedding (made once, on first
    need, unless the caller gave it), and the vector snapshot it ranks under (None until
    the first list is read; a paged search carries it in its cursor)."""

    text: str
    vector: Any = None
    max_vseq: int | None = None
    failed: bool = False  # the embedder failed once: rank without vectors
    # This process's vector index the list was read from (``IndexedCandidates``): asking
    # it which matches have a vector in the snapshot needs no catch-up read first.
    index: Any = field(default=None, repr=False, compare=False)

    def embedded(self, indexer: Indexer) -> bool:
        """Make ``vector`` unless it is there; False when the embedder fails (recall then
        degrades to text and concepts rather than failing)."""
        if self.vector is None:
            if self.failed:
                return False  # the embedder would fail the same way again
            try:
                self.vector = indexer.embedder.embed([self.text])[0]
            except Exception as exc:
                logger.warning("query embedding failed, ranking without vectors: %s", exc)
                self.failed = True
                return False
        return True


@dataclass
class Allowlist:
    """The episodes a filter lets through (any order), read once for every list that needs
    them; with what the same read gave besides."""

    seqs: list[int]
    # The session of each that has one, when read (one missing may have one the store did
    # not read: a search reads the places of those it ranks).
    sessions: dict[int, str] | None = None
    concepts: Ranked | None = None  # the requested concepts' summed scores, best first
    vectors: Ranked | None = None  # the vector ranking under this allowlist, when read
    text_change: int | None = None  # the text change log's head in the same snapshot


class Candidates(Protocol):
    """The ranked lists a relevance search fuses, each under the search's filter."""

    def on(self, store: Store) -> Candidates:
        """The same lists, reading through ``store`` (a call's)."""
        ...

    def allowlist(
        self,
        flt: EpisodeFilter,
        concept_ids: Sequence[str],
        query: VectorQuery | None,
        depth: int,
    ) -> Allowlist:
        """The filter's matches (for a filter the indexes cannot apply themselves);
        ``depth``: how far a vector ranking read with them reaches."""
        ...

    def text_ranking(
        self,
        flt: EpisodeFilter,
        terms: Sequence[str],
        limit: int,
        allowed: Allowlist | None,
    ) -> Ranked:
        """BM25, higher better, of matches holding any of ``terms``."""
        ...

    def text_ranking_soon(
        self, flt: EpisodeFilter, terms: Sequence[str], limit: int
    ) -> Callable[[Allowlist | None], Ranked] | None:
        """Start reading the text list now, beside what the search reads next (its
        allowlist, its vectors), where no allowlist can change it (unrestricted reads);
        the function returns it, given the allowlist read meanwhile. None: read it with
        ``text_ranking`` then."""
        ...

    def vector_ranking(
        self, flt: EpisodeFilter, query: VectorQuery, limit: int, allowed: Allowlist | None
    ) -> Ranked:
        """Cosine similarity of the query's embedding to the matches' (current model),
        under ``query.max_vseq`` (set here when None); empty when there is nothing to rank
        or the embedder fails."""
        ...

    def concept_ranking(self, flt: EpisodeFilter, concept_ids: Sequence[str], limit: int) -> Ranked:
        """Matches carrying any of ``concept_ids``, by summed tag score."""
        ...

    def places(self, seqs: Sequence[int], query: VectorQuery | None) -> dict[int, Place]:
        """Where those of ``seqs`` the lists' indexes hold sit (the store's
        ``episode_places``, without a read); the others are read from the store."""
        ...

    def embedded(self, seqs: Sequence[int], query: VectorQuery) -> set[int]:
        """Those of ``seqs`` that have a vector in the snapshot the vector list was read
        under (``query.max_vseq``): the others are ranked by their text alone."""
        ...

    def catch_up(self, timeout: float) -> str | None:
        """Wait up to ``timeout`` seconds until every stored episode is in every list (the
        vectors' worker has reached them); None when it is, else why not."""
        ...


class StoreCandidates:
    """Every list from the store's SQL: FTS5 for text, no vectors."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def on(self, store: Store) -> Self:
        """These lists read through ``store``: a call's (``store.binding``), so that what
        they read from SQL is what the call may read."""
        if store is self.store:
            return self
        bound = copy.copy(self)
        bound.store = store
        bound._rebind(store)
        return bound

    def _rebind(self, store: Store) -> None:
        """A strategy that reads through the store by another name rebinds it here."""

    def allowlist(
        self,
        flt: EpisodeFilter,
        concept_ids: Sequence[str],
        query: VectorQuery | None,
        depth: int,
    ) -> Allowlist:
        if not concept_ids:
            return Allowlist(self.store.episode_seqs(flt))
        # One pass gives the seqs, their sessions and the concept scores.
        matches = self.store.episode_matches(flt, concept_ids)
        return _allowlist(matches)

    def text_ranking(
        self,
        flt: EpisodeFilter,
        terms: Sequence[str],
        limit: int,
        allowed: Allowlist | None,
    ) -> Ranked:
        return self.store.episode_text_ranking(flt, terms, limit)

    def text_ranking_soon(
        self, flt: EpisodeFilter, terms: Sequence[str], limit: int
    ) -> Callable[[Allowlist | None], Ranked] | None:
        return None  # SQL: one connection a thread, and FTS5 is the slow leg anyway

    def vector_ranking(
        self, flt: EpisodeFilter, query: VectorQuery, limit: int, allowed: Allowlist | None
    ) -> Ranked:
        return []

    def concept_ranking(self, flt: EpisodeFilter, concept_ids: Sequence[str], limit: int) -> Ranked:
        return self.store.episode_concept_ranking(flt, concept_ids, limit)

    def places(self, seqs: Sequence[int], query: VectorQuery | None) -> dict[int, Place]:
        return {}  # no index of its own

    def embedded(self, seqs: Sequence[int], query: VectorQuery) -> set[int]:
        return set()  # no vector list to mix with

    def catch_up(self, timeout: float) -> str | None:
        return None  # SQL reads every committed episode; there are no vectors to wait for


class IndexedCandidates(StoreCandidates):
    """Text from the tantivy index, vectors from the in-memory index of this process."""

    def __init__(self, store: Store, indexer: Indexer) -> None:
        super().__init__(store)
        self.indexer = indexer

    def text_ranking(
        self,
        flt: EpisodeFilter,
        terms: Sequence[str],
        limit: int,
        allowed: Allowlist | None,
    ) -> Ranked:
        seqs = allowed.seqs if allowed is not None else None
        change = allowed.text_change if allowed is not None else None
        ranked = self.indexer.text_ranking(flt, terms, limit, seqs, change)
        if ranked is None:  # the text index cannot serve: FTS5 does
            return super().text_ranking(flt, terms, limit, allowed)
        return ranked

    def text_ranking_soon(
        self, flt: EpisodeFilter, terms: Sequence[str], limit: int
    ) -> Callable[[Allowlist | None], Ranked] | None:
        """The tantivy list on a thread of its own (tantivy lets go of the GIL, as do faiss
        and SQLite), where the index applies the whole filter itself: it ranks the same
        episodes as with SQL's allowlist. A 1M corpus's bare question spent 20-30 ms in each
        of the text and the vector leg, one after the other."""
        from xdb.index.tantivy_index import answers

        if not answers(flt):
            return None  # the index needs SQL's allowlist
        # (The index serves every caller: it applies the filter, and what the call may not
        # read is cut from its list by the SQL the call's store reads.)
        future = _threads().submit(self.indexer.text_ranking, flt, terms, limit, None)

        def ranked(allowed: Allowlist | None) -> Ranked:
            found = future.result()
            if found is None:  # the index cannot serve: FTS5 does
                return StoreCandidates.text_ranking(self, flt, terms, limit, allowed)
            return found

        return ranked

    def places(self, seqs: Sequence[int], query: VectorQuery | None) -> dict[int, Place]:
        # The vector index the list was read from holds the place of every episode with a
        # vector (a 1M corpus's filtered search read ~350 episode rows for them: 1.4 ms).
        if not seqs or query is None or query.index is None:
            return {}
        found: dict[int, Place] = query.index.places(seqs)
        return found

    def embedded(self, seqs: Sequence[int], query: VectorQuery) -> set[int]:
        if not seqs:
            return set()
        # (What a catch-up would load lies past the snapshot, so the list's index will do.)
        index = query.index if query.index is not None else self.indexer.index()
        found: set[int] = index.embedded(seqs, query.max_vseq)
        return found

    def catch_up(self, timeout: float) -> str | None:
        # The text index catches up on every search by itself (the change log); the vectors
        # are the embedding worker's, which may be behind.
        # Read your writes: the episodes written since this handle opened (its own and any
        # other process's), not an older backlog the worker resumes behind them.
        if self.indexer.wait(timeout, fresh=True):
            return None
        if self.indexer.failure:
            return f"embedding failed: {self.indexer.failure}"
        left = self.indexer.count_left(self.store)  # (of what the call reads)
        return (
            f"the embedding worker had not reached the episodes written since this database"
            f" was opened after {timeout:g} s ({left} episodes without a vector in all)"
        )

    def vector_ranking(
        self, flt: EpisodeFilter, query: VectorQuery, limit: int, allowed: Allowlist | None
    ) -> Ranked:
        index = query.index = self.indexer.index()
        if len(index) == 0:
            return []
        if query.max_vseq is None:
            query.max_vseq = index.max_vseq
        if not query.embedded(self.indexer):
            return []
        seqs = allowed.seqs if allowed is not None else None
        return index.search(query.vector, limit, flt, max_vseq=query.max_vseq, allowed=seqs)


class DatabaseVectorCandidates(IndexedCandidates):
    """Vectors ranked by the database (pgvector); no process holds them all in memory, and
    a search sees vectors other processes stored at once."""

    def __init__(self, store: Store, search: VectorSearch, indexer: Indexer) -> None:
        super().__init__(store, indexer)
        self.search = search

    def _rebind(self, store: Store) -> None:
        if isinstance(store, VectorSearch):  # (it is the store, searched as vectors)
            self.search = store

    def allowlist(
        self,
        flt: EpisodeFilter,
        concept_ids: Sequence[str],
        query: VectorQuery | None,
        depth: int,
    ) -> Allowlist:
        if query is None or not query.embedded(self.indexer):
            return super().allowlist(flt, concept_ids, query, depth)
        found = self.search.episode_matches_ranked(
            flt, concept_ids, query.vector, self.indexer.embedder.model_id, depth, query.max_vseq
        )
        query.max_vseq = found.max_vseq
        allowed = _allowlist(found.matches, scored=bool(concept_ids))
        allowed.vectors, allowed.text_change = found.ranking, found.text_change
        return allowed

    def text_ranking_soon(
        self, flt: EpisodeFilter, terms: Sequence[str], limit: int
    ) -> Callable[[Allowlist | None], Ranked] | None:
        return None  # the allowlist's read brings the text change log's head: one trip less

    def vector_ranking(
        self, flt: EpisodeFilter, query: VectorQuery, limit: int, allowed: Allowlist | None
    ) -> Ranked:
        if allowed is not None and allowed.vectors is not None:
            return allowed.vectors[:limit]
        model = self.indexer.embedder.model_id
        if query.max_vseq is None:
            query.max_vseq = self.search.episode_max_vseq(model)
        if query.max_vseq == 0 or not query.embedded(self.indexer):
            return []
        # The allowlist, when there is one, tells the store the filter is selective enough
        # to score exactly (it applies the whole filter in its SQL either way).
        seqs = allowed.seqs if allowed is not None else None
        return self.search.episode_vector_ranking(
            flt, query.vector, model, limit, query.max_vseq, seqs
        )

    def embedded(self, seqs: Sequence[int], query: VectorQuery) -> set[int]:
        if not seqs or not query.max_vseq:
            return set()
        return self.search.episodes_embedded(self.indexer.embedder.model_id, seqs, query.max_vseq)


_score_then_seq = itemgetter(1, 0)


def _allowlist(
    matches: list[tuple[int, str | None, float | None]], scored: bool = True
) -> Allowlist:
    sessions = {seq: s for seq, s, _ in matches if s is not None}
    concepts = None
    if scored:
        concepts = [(seq, v) for seq, _, v in matches if v is not None]
        # Best first, the newer first among equals: (score, seq) descending (seqs differ).
        concepts.sort(key=_score_then_seq, reverse=True)
    return Allowlist([seq for seq, _, _ in matches], sessions, concepts)


_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _threads() -> ThreadPoolExecutor:
    """The threads text lists are read on beside the rest of a search (every handle's)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="xdb-text")
        return _pool


def choose(store: Store, indexer: Indexer | None) -> Candidates:
    """The strategy for this store, decided once (``Database`` calls it at ``connect``)."""
    if indexer is None:
        return StoreCandidates(store)
    if isinstance(store, VectorSearch):
        return DatabaseVectorCandidates(store, store, indexer)
    return IndexedCandidates(store, indexer)
