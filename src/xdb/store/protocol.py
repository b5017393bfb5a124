"""The storage protocol every backend implements, composed from one protocol per
capability.

The operations layer validates requests and makes ids; a store keeps rows, assigns ticks
inside its write transaction (so concurrent writers never share one), and answers filters.
SQL dialect details stay inside each implementation. ``Store`` is every capability at once,
inheriting each capability's protocol from the module that declares it (``log_protocol``,
``episode_protocol``, ``concept_protocol``, ``policy_protocol``, ``learning_protocol``,
``fidelity_protocol``); a module that needs only some takes the narrower protocol from
there. The rows and filters that cross these protocols live in ``xdb.store.types``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, Self, runtime_checkable

from xdb.store.access import Readable
from xdb.store.audit import PendingCall
from xdb.store.concept_protocol import ConceptStore, GraphStore, UsageStore
from xdb.store.episode_protocol import EpisodeStore, VectorStore

# Re-exported: ``xdb.fidelity.recall`` takes it from here (import it from
# ``xdb.store.fidelity_protocol`` when that module is next edited).
from xdb.store.fidelity_protocol import FidelityStore as FidelityStore
from xdb.store.learning_protocol import LearningStore
from xdb.store.log_protocol import LogStore
from xdb.store.policy_protocol import AccessStore, AuditStore, PolicyObjectStore
from xdb.store.types import EpisodeFilter, Made, RankedMatches

if TYPE_CHECKING:
    import numpy.typing as npt


class Store(
    LogStore,
    EpisodeStore,
    VectorStore,
    ConceptStore,
    GraphStore,
    UsageStore,
    LearningStore,
    FidelityStore,
    AuditStore,
    PolicyObjectStore,
    AccessStore,
    Protocol,
):
    """A whole store: every capability, and what spans them all (transfer, closing).
    Code that needs only part of a store takes the narrower protocol."""

    backend: str
    location: str
    # Where the full-text index of episodes keeps its files, beside the database; None
    # keeps it in memory (an in-memory database; PostgreSQL, where each process keeps its
    # own, caught up from the shared change log).
    text_index_path: str | None

    def export_records(
        self, readable: Readable | None = None, *, restricted: bool = False, vectors: bool = False
    ) -> Iterator[dict[str, Any]]:
        """Every stored object as a plain dict with a "kind" key, in a restorable order;
        given ``readable``, only the objects under those access policies, and neither the
        policy objects nor which object carries which policy (``store/access.py``);
        ``restricted``: leave those out too when every object is read (for a caller who
        sees fewer concepts than the file holder); ``vectors``: episode records carry their
        vectors, in a whole export only (neither ``readable`` nor ``restricted``)."""
        ...

    def import_records(
        self, records: Iterable[dict[str, Any]], made: Made | None = None
    ) -> dict[str, int]:
        """Restore exported records in one transaction; existing ids are skipped. ``made``:
        the dimension the database's embedder makes for a model id, which the vectors of
        that model must have (``records.VectorDimensions``)."""
        ...

    def close(self) -> None: ...

    # The call this store is bound to (``store.binding``).
    def for_call(self, readable: Readable | None, pending: PendingCall | None) -> Self:
        """This store bound to a call: reads as ``readable`` allows, and its first write
        appends ``pending`` (the call's audit record)."""
        ...

    def unrestricted(self) -> Self:
        """The same call reading every row."""
        ...

    def reading_as(self, readable: Readable | None) -> Self:
        """The same call reading as ``readable`` allows."""
        ...

    @property
    def reading(self) -> Readable | None:
        """What this store's reads may see (None: every row)."""
        ...

    @property
    def unbound(self) -> Self:
        """The store itself, bound to no call (what a cache of the store's is kept per)."""
        ...


@runtime_checkable
class VectorSearch(Protocol):
    """An optional capability: a store that ranks episodes by vector similarity itself.

    Stores without it (SQLite) leave vector ranking to the in-memory index each process
    builds from ``load_vectors``; a store with it (PostgreSQL, with pgvector's HNSW index)
    answers from the database, so no process holds every vector in memory and a search
    sees vectors other processes stored at once. ``connect`` asks ``isinstance(store,
    VectorSearch)`` once and picks the candidate strategy (``index/candidates.py``).
    """

    def episode_vector_ranking(
        self,
        flt: EpisodeFilter,
        query: bytes | npt.NDArray[Any],
        model: str,
        limit: int,
        max_vseq: int | None = None,
        allowed: Sequence[int] | None = None,
    ) -> list[tuple[int, float]]:
        """Up to ``limit`` (seq, cosine similarity) of episodes with a vector from ``model``
        matching every condition of ``flt`` (and with a vseq up to ``max_vseq``), best
        first, ties by newer seq. ``allowed``, when given, is the list of the episodes
        matching ``flt`` (``episode_seqs``, ``episode_matches``), as for the in-memory
        index: a short one is scored exactly and ``flt`` is not tested again. ``query`` is
        float32 little-endian bytes or an array. Approximate indexes may miss a near
        neighbour, but never return fewer than ``limit`` while more matches exist."""
        ...

    def episode_max_vseq(self, model: str) -> int:
        """The newest vseq among ``model``'s vectors, 0 when there are none: the vector
        snapshot a paged search pins."""
        ...

    def episodes_embedded(self, model: str, seqs: Sequence[int], max_vseq: int) -> set[int]:
        """Those of ``seqs`` that have a ``model`` vector in the snapshot ``max_vseq``."""
        ...

    def episode_matches_ranked(
        self,
        flt: EpisodeFilter,
        concept_ids: Sequence[str],
        query: bytes | npt.NDArray[Any],
        model: str,
        limit: int,
        max_vseq: int | None = None,
    ) -> RankedMatches:
        """``episode_matches(flt, concept_ids)`` and, read with them, what
        ``episode_vector_ranking`` gives with those matches allowed, under ``max_vseq`` or
        (None) the newest vseq, which it returns, and ``latest_text_change()``: a filtered
        search's reads in one. The ranking is None when the matches are too many to score
        exactly (ask ``episode_vector_ranking`` with no allowlist then)."""
        ...
