"""The episodes' part of the ``Store`` protocol (``xdb.store.protocol``): episodes, their
filters and text rankings, the text change log, and their vectors. (Ranking by vector in
the database is the optional ``VectorSearch``, beside ``Store``.)"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from xdb.store.types import EpisodeFilter, NewEpisode, Place, StoredEpisode, TextChange


class EpisodeStore(Protocol):
    """Episodes, their SQL filters and text rankings, and the text change log that the
    full-text index follows."""

    def add_episode(self, episode: NewEpisode) -> int:
        """Store an episode with its concept and label rows and text index; its seq."""
        ...

    def delete_episode(self, episode_id: str) -> int | None:
        """Delete an episode and all that hangs on it; its seq, None if there was none."""
        ...

    def episodes_by_ids(self, ids: Sequence[str]) -> dict[str, StoredEpisode]: ...

    def episodes_by_seqs(self, seqs: Sequence[int]) -> dict[int, StoredEpisode]: ...

    def episode_neighbours(self, seq: int) -> tuple[str | None, str | None]:
        """Ids of the previous and next episode in the same session (the NEXT links)."""
        ...

    def episode_page(
        self,
        flt: EpisodeFilter,
        after: tuple[int, int] | None,
        limit: int,
        descending: bool,
        seed: int | None = None,
    ) -> list[tuple[int, int]]:
        """(key, seq) of matches by start time, or by a shuffle of ``seed``, after a key."""
        ...

    def episode_text_ranking(
        self, flt: EpisodeFilter, terms: Sequence[str], limit: int
    ) -> list[tuple[int, float]]:
        """BM25 (higher better) of matches holding any of ``terms``, best first."""
        ...

    def episode_concept_ranking(
        self, flt: EpisodeFilter, concept_ids: Sequence[str], limit: int
    ) -> list[tuple[int, float]]:
        """Matches carrying any of ``concept_ids``, by summed tag score, best first."""
        ...

    def episode_seqs(self, flt: EpisodeFilter) -> list[int]: ...

    def episode_matches(
        self, flt: EpisodeFilter, concept_ids: Sequence[str]
    ) -> list[tuple[int, str | None, float | None]]:
        """Every episode passing ``flt`` (any order): (seq, session, the summed score of
        the ``concept_ids`` tags it carries or None when it carries none of them). The
        session may be None where the store answered from the concept rows alone: None
        says only that it was not read (a search reads the places of those it ranks)."""
        ...

    def episode_places(self, seqs: Sequence[int]) -> dict[int, Place]:
        """Where each of ``seqs`` that exists sits (session or None, end time in µs,
        namespace, start time): what the session boost and recency of a search read, in
        one round trip."""
        ...

    def episode_max_seq(self) -> int: ...

    def text_changes(self, after: int, limit: int) -> list[TextChange]:
        """Changes to episodes' text index documents after ``after``, in order: (change,
        seq, document), the document None for a deleted episode."""
        ...

    def latest_text_change(self) -> int: ...


class VectorStore(Protocol):
    """Episode vectors, per model: what lacks one, storing and loading them."""

    def missing_vectors(
        self, model: str, limit: int, after_seq: int = 0
    ) -> list[tuple[int, str, str]]:
        """Episodes after ``after_seq`` without a vector from ``model``, oldest first:
        (seq, summary, content). (A caller walking forward passes the last seq it saw:
        scanning from the first episode each time made embedding quadratic.)"""
        ...

    def vector_counts(self, model: str) -> tuple[int, int]:
        """(episodes, episodes with a vector from ``model``): two counts over indexes."""
        ...

    def store_vectors(self, model: str, vectors: Sequence[tuple[int, bytes]]) -> list[int]: ...

    def load_vectors(
        self, model: str, after_vseq: int = 0
    ) -> list[tuple[int, int, bytes, str, int, int, str, str | None]]:
        """(vseq, seq, vector, namespace, start_us, end_us, kind, session_id) newer than
        ``after_vseq``."""
        ...

    def drop_other_vectors(self, model: str) -> int: ...
