"""Where a search's candidate lists come from: one strategy per handle, chosen at ``connect``.

A relevance search (``ops.search.Ranking``) plans which lists it needs, asks this module
for them, then fuses and pages. The lists are the same whatever the store; how they are
read is not:

- ``StoreCandidates``: everything from SQL (FTS5's BM25, no vectors). A context made
  without an embedding worker (a benchmark's, a test's) uses it.
- ``IndexedCandidates``: BM25 from the tantivy index (``index/text.py``, FTS5 when it
  cannot serve) and cosine similarity from the in-memory vector index (``index/vectors.py``)
  that this process loads from the store: SQLite.
- ``DatabaseVectorCandidates``: as above, but vectors are ranked by the database itself
  (pgvector's HNSW index, ``store.protocol.VectorSearch``), and a filtered search reads its
  allowlist, vector ranking and the text change log's head in one statement: PostgreSQL.

Concept rankings (the postings of ``episode_concepts``) come from SQL in every strategy.
``choose`` makes the capability check once; handlers never ask what the store is.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from xdb.store.protocol import VectorSearch

if TYPE_CHECKING:
    from xdb.index.embedding import Indexer
    from xdb.store.protocol import Store
    from xdb.store.types import EpisodeFilter

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
    sessions: dict[int, str] | None = None  # the session of each that has one, when read
    concepts: Ranked | None = None  # the requested concepts' summed scores, best first
    vectors: Ranked | None = None  # the vector ranking under this allowlist, when read
    text_change: int | None = None  # the text change log's head in the same snapshot


class Candidates(Protocol):
    """The ranked lists a relevance search fuses, each under the search's filter."""

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

    def vector_ranking(
        self, flt: EpisodeFilter, query: VectorQuery, limit: int, allowed: Allowlist | None
    ) -> Ranked:
        return []

    def concept_ranking(self, flt: EpisodeFilter, concept_ids: Sequence[str], limit: int) -> Ranked:
        return self.store.episode_concept_ranking(flt, concept_ids, limit)

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

    def embedded(self, seqs: Sequence[int], query: VectorQuery) -> set[int]:
        if not seqs:
            return set()
        return self.indexer.index().embedded(seqs, query.max_vseq)

    def catch_up(self, timeout: float) -> str | None:
        # The text index catches up on every search by itself (the change log); the vectors
        # are the embedding worker's, which may be behind.
        # Read your writes: the episodes written since this handle opened (its own and any
        # other process's), not an older backlog the worker resumes behind them.
        if self.indexer.wait(timeout, fresh=True):
            return None
        if self.indexer.failure:
            return f"embedding failed: {self.indexer.failure}"
        return (
            f"the embedding worker had not reached the episodes written since this database"
            f" was opened after {timeout:g} s ({self.indexer.count_left()} episodes without"
            " a vector in all)"
        )

    def vector_ranking(
        self, flt: EpisodeFilter, query: VectorQuery, limit: int, allowed: Allowlist | None
    ) -> Ranked:
        index = self.indexer.index()
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


def _allowlist(
    matches: list[tuple[int, str | None, float | None]], scored: bool = True
) -> Allowlist:
    sessions = {seq: s for seq, s, _ in matches if s is not None}
    concepts = None
    if scored:
        concepts = [(seq, v) for seq, _, v in matches if v is not None]
        concepts.sort(key=lambda item: (-item[1], -item[0]))
    return Allowlist([seq for seq, _, _ in matches], sessions, concepts)


def choose(store: Store, indexer: Indexer | None) -> Candidates:
    """The strategy for this store, decided once (``Database`` calls it at ``connect``)."""
    if indexer is None:
        return StoreCandidates(store)
    if isinstance(store, VectorSearch):
        return DatabaseVectorCandidates(store, store, indexer)
    return IndexedCandidates(store, indexer)
