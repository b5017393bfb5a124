"""The SQLite store's episode methods: thin wrappers running ``episodes`` functions on the
store's writer (writes) or a reader connection (reads)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdb.store import sqlbuild
from xdb.store.access import Readable
from xdb.store.sqlbuild import SQLITE
from xdb.store.sqlite import episodes
from xdb.store.sqlite import vectors as vector_rows
from xdb.store.types import EpisodeFilter, NewEpisode


class EpisodeMethods:
    _read: Callable[[Any], Any]
    _write: Callable[[Any], Any]
    _readable: Readable | None  # what the call reads (``store.binding``)

    def add_episode(self, episode: NewEpisode) -> int:
        result: int = self._write(lambda c: episodes.insert(c, episode))
        return result

    def delete_episode(self, episode_id: str) -> int | None:
        result: int | None = self._write(lambda c: episodes.delete(c, episode_id))
        return result

    def episode_text_ranking(
        self, flt: EpisodeFilter, terms: Sequence[str], limit: int
    ) -> list[tuple[int, float]]:
        """BM25 over summary and content: episodes with any of ``terms``, best first."""
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
        if not match:
            return []
        result: list[tuple[int, float]] = self._read(lambda c: episodes.bm25(c, flt, match, limit))
        return result

    def episode_matches(
        self, flt: EpisodeFilter, concept_ids: Sequence[str]
    ) -> list[tuple[int, str | None, float | None]]:
        # A restricted caller reads concept rows through a view that tests each row's
        # episode against every readable one: it reads the joined statement instead.
        restricted = self._readable is not None
        tagged = None if restricted else sqlbuild.tag_matches_sql(flt, concept_ids, SQLITE)
        if tagged is not None:
            rows: list[tuple[int, str | None, float | None]] = self._read(
                lambda c: list(c.execute(*tagged))
            )
            return rows
        result: list[tuple[int, str | None, float | None]] = self._read(
            lambda c: sqlbuild.matches_with_scores(
                c, flt, concept_ids, "c.episode_seq = e.seq", SQLITE
            )
        )
        return result

    def missing_vectors(
        self, model: str, limit: int, after_seq: int = 0
    ) -> list[tuple[int, str, str]]:
        result: list[tuple[int, str, str]] = self._read(
            lambda c: vector_rows.missing_vectors(c, model, limit, after_seq)
        )
        return result

    def vector_counts(self, model: str) -> tuple[int, int]:
        result: tuple[int, int] = self._read(lambda c: vector_rows.vector_counts(c, model))
        return result

    def store_vectors(self, model: str, vectors: Sequence[tuple[int, bytes]]) -> list[int]:
        result: list[int] = self._write(lambda c: vector_rows.store_vectors(c, model, vectors))
        return result

    def load_vectors(
        self, model: str, after_vseq: int = 0
    ) -> list[tuple[int, int, bytes, str, int, int, str, str | None]]:
        result: list[tuple[int, int, bytes, str, int, int, str, str | None]] = self._read(
            lambda c: list(vector_rows.load_vectors(c, model, after_vseq))
        )
        return result

    def drop_other_vectors(self, model: str) -> int:
        result: int = self._write(lambda c: vector_rows.drop_other_vectors(c, model))
        return result
