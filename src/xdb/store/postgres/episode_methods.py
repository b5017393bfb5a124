"""The PostgreSQL store's episode methods: ``episodes`` and ``vectors`` functions run in a
write transaction (under ``lock_episodes``) or on a pooled reader."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy.typing as npt

from xdb.store import sqlbuild
from xdb.store.postgres import episodes, vector_search
from xdb.store.postgres import vectors as vector_rows
from xdb.store.postgres.connection import CallConnections, Conn, Connections, T, lock_episodes
from xdb.store.postgres.vector_index import ModelIndex
from xdb.store.sqlbuild import POSTGRES
from xdb.store.types import (
    EpisodeFilter,
    NewEpisode,
    RankedMatches,
)

# Concept rows join their episodes on the distribution column too, so each shard joins
# its own rows.
_CONCEPT_JOIN = "e.namespace = c.namespace AND e.seq = c.episode_seq"


def _locked(fn: Callable[[Conn], T]) -> Callable[[Conn], T]:
    def job(conn: Conn) -> T:
        lock_episodes(conn)
        return fn(conn)

    return job


class EpisodeMethods:
    _db: Connections | CallConnections
    # A model's dimension and index kind never change once its first vector is stored
    # (dropping its vectors drops its entry); read once per process.
    _vector_models: dict[str, ModelIndex]
    _capabilities: dict[str, bool]  # "iterative_scan": pgvector's iterative scans (0.8+)

    def add_episode(self, episode: NewEpisode) -> int:
        return self._db.write(_locked(lambda c: episodes.insert(c, episode)))

    def delete_episode(self, episode_id: str) -> int | None:
        return self._db.write(_locked(lambda c: episodes.delete(c, episode_id)))

    def episode_text_ranking(
        self, flt: EpisodeFilter, terms: Sequence[str], limit: int
    ) -> list[tuple[int, float]]:
        """ts_rank over summary, content and context: episodes with any of ``terms``."""
        if not terms:
            return []
        return self._db.read(lambda c: episodes.text_rank(c, flt, terms, limit))

    def episode_matches(
        self, flt: EpisodeFilter, concept_ids: Sequence[str]
    ) -> list[tuple[int, str | None, float | None]]:
        return self._db.read(
            lambda c: sqlbuild.matches_with_scores(c, flt, concept_ids, _CONCEPT_JOIN, POSTGRES)
        )

    def missing_vectors(
        self, model: str, limit: int, after_seq: int = 0
    ) -> list[tuple[int, str, str]]:
        return self._db.read(lambda c: vector_rows.missing_vectors(c, model, limit, after_seq))

    def vector_counts(self, model: str) -> tuple[int, int]:
        return self._db.read(lambda c: vector_rows.vector_counts(c, model))

    def store_vectors(self, model: str, vectors: Sequence[tuple[int, bytes]]) -> list[int]:
        return self._db.write(_locked(lambda c: vector_rows.store_vectors(c, model, vectors)))

    def load_vectors(
        self, model: str, after_vseq: int = 0
    ) -> list[tuple[int, int, bytes, str, int, int, str, str | None]]:
        return self._db.read(lambda c: vector_rows.load_vectors(c, model, after_vseq))

    def drop_other_vectors(self, model: str) -> int:
        dropped = self._db.write(_locked(lambda c: vector_rows.drop_other_vectors(c, model)))
        for other in [m for m in self._vector_models if m != model]:  # (in place: shared)
            del self._vector_models[other]
        return dropped

    # ------------------------------------------------------------------ vector search

    def episode_vector_ranking(
        self,
        flt: EpisodeFilter,
        query: bytes | npt.NDArray[Any],
        model: str,
        limit: int,
        max_vseq: int | None = None,
        allowed: Sequence[int] | None = None,
    ) -> list[tuple[int, float]]:
        """pgvector's HNSW search (see ``vector_search``): (seq, cosine similarity) of the
        best ``limit`` matches of ``flt``, best first, ties by newer seq."""

        def run(conn: Conn) -> list[tuple[int, float]]:
            iterative = self._capabilities.get("iterative_scan")
            if iterative is None:
                iterative = vector_search.supports_iterative_scan(conn)
                self._capabilities["iterative_scan"] = iterative
            index = self._model_index(conn, model)
            return vector_search.ranking(
                conn, flt, query, model, limit, max_vseq, allowed, index, iterative
            )

        if vector_search.one_query(allowed):
            # No transaction: BEGIN, its settings and COMMIT were four round trips more.
            return self._db.read(run)
        # One transaction: the scan settings are local to it, and both scans of a short
        # answer see the same rows.
        with self._db.snapshot() as conn:
            return run(conn)

    def episode_matches_ranked(
        self,
        flt: EpisodeFilter,
        concept_ids: Sequence[str],
        query: bytes | npt.NDArray[Any],
        model: str,
        limit: int,
        max_vseq: int | None = None,
    ) -> RankedMatches:
        """One statement (``vector_search.matches_ranked``), so one snapshot too."""
        return self._db.read(
            lambda c: vector_search.matches_ranked(
                c,
                flt,
                concept_ids,
                _CONCEPT_JOIN,
                query,
                model,
                self._model_index(c, model),
                limit,
                max_vseq,
            )
        )

    def _model_index(self, conn: Conn, model: str) -> ModelIndex | None:
        index = self._vector_models.get(model)
        if index is None:
            index = vector_search.model_index(conn, model)
            if index is not None:
                self._vector_models[model] = index
        return index

    def episodes_embedded(self, model: str, seqs: Sequence[int], max_vseq: int) -> set[int]:
        return self._db.read(lambda c: vector_search.embedded(c, model, seqs, max_vseq))

    def episode_max_vseq(self, model: str) -> int:
        """The newest vseq of ``model``'s vectors (0 when none): a search's vector snapshot."""
        return self._db.read(lambda c: vector_search.max_vseq(c, model))
