"""The storage protocol every backend implements, split by capability.

The operations layer validates requests and makes ids; a store keeps rows, assigns ticks
inside its write transaction (so concurrent writers never share one), and answers filters.
SQL dialect details stay inside each implementation. ``Store`` is every capability at once;
a module that needs only some takes the narrower protocol (``VectorStore``, ...). The rows
and filters that cross these protocols live in ``xdb.store.types``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from xdb.models.log import Comment, SessionSummary, Tag, TagApplication, Timestep
from xdb.store.access import Readable
from xdb.store.types import (
    ConceptFact,
    ConceptRow,
    EpisodeFilter,
    GraphEdgeRow,
    HierarchyStep,
    NewEpisode,
    NewTimestep,
    PackRow,
    Place,
    RankedMatches,
    ResolvedTarget,
    StoredEpisode,
    TextChange,
    TimestepFilter,
)

if TYPE_CHECKING:
    import numpy.typing as npt

    from xdb.store.audit import AuditEntry, AuditRecord, Verdict
    from xdb.store.exemplars import ExemplarRow
    from xdb.store.fidelity import RecordRow
    from xdb.store.fidelity_methods import CompactedReply, Merge
    from xdb.store.learning import LearningObject


class LogStore(Protocol):
    """The experience log: timesteps, sessions, tags and comments."""

    def record(
        self,
        items: Sequence[NewTimestep],
        close_event: Callable[[Sequence[Timestep]], NewEpisode] | None = None,
        audit_by: tuple[str, str] | None = None,
    ) -> list[tuple[str, int]]:
        """Append timesteps in order in one transaction; return (timestep_id, tick) each.

        With ``close_event``, each event a timestep ends (``event_end`` and an
        ``event_id``) becomes the episode ``close_event(its timesteps)`` returns, written
        in the same transaction. With ``audit_by`` (caller, operation), each timestep is
        also appended to the audit log, as recorded, in the same transaction.
        """
        ...

    def latest_session(self) -> str | None:
        """The session with the most recent activity, if any, of those no hook made (a
        session's origin, ``store.session_origin``): a handle's default session."""
        ...

    def claim_session(self, candidate: str, ts_us: int) -> str:
        """``latest_session``, or ``candidate`` made as a new empty session when there is
        none, decided in one write transaction: processes that start on an empty database
        at once all get the same session."""
        ...

    def get_tag(self, tag_id: str) -> Tag | None: ...

    def find_tags(self, name: str, tag_type: str | None = None) -> list[Tag]: ...

    def create_tag(self, tag: Tag, access_policy_id: str | None = None) -> tuple[Tag, bool]:
        """Insert a tag unless one of the same type and name exists; (tag, created). A new
        tag is stored under ``access_policy_id`` (None: the default)."""
        ...

    def apply_tag(
        self, application: TagApplication, target: ResolvedTarget, new_tag: Tag | None
    ) -> tuple[Tag, bool, int]:
        """Check the target, create ``new_tag`` if given, store the application, atomically.

        Returns the tag applied, whether the target did not carry it before (true for a tag
        created here), and how many timesteps it covers.
        Raises NotFound when the target does not exist.
        """
        ...

    def add_comment(
        self, comment: Comment, target: ResolvedTarget | None, access_policy_id: str | None = None
    ) -> None: ...

    def query(
        self, flt: TimestepFilter, after: tuple[int, int] | None, limit: int
    ) -> tuple[list[Timestep], int, tuple[int, int] | None]:
        """Matching timesteps after a keyset position; (page, total_count, next_key)."""
        ...

    def recent(self, session_id: str, n: int) -> list[Timestep]: ...

    def list_tags(self, tag_type: str | None, bud_status: str | None) -> list[Tag]: ...

    def annotations(
        self, session_id: str, ticks: tuple[int, int] | None, limit: int
    ) -> tuple[list[tuple[TagApplication, Tag]], list[Comment]]:
        """A session's tag applications and comments (``tagging.session_annotations``)."""
        ...

    def stats(self) -> dict[str, Any]:
        """Counts by tag type and fidelity, totals, storage bytes."""
        ...

    def sessions(self, limit: int) -> tuple[int, list[SessionSummary]]: ...

    def session_summary(self, session_id: str) -> SessionSummary | None: ...


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


class ConceptStore(Protocol):
    """Concept packs and the concept hierarchy."""

    def import_concept_pack(
        self,
        pack: PackRow,
        concepts: Sequence[ConceptRow],
        related: Sequence[tuple[str, str]],
        created_by: str,
    ) -> bool:
        """Store a pack with its concepts and RELATED_CONCEPT edges in one transaction,
        unless its version is stored; whether it was new."""
        ...

    def concept_packs(self) -> list[PackRow]: ...

    def concepts_by_ids(self, ids: Sequence[str]) -> list[ConceptRow]: ...

    def audit_append(self, entries: Sequence[AuditEntry]) -> int:
        """Chain records onto the audit log in a transaction of their own; the last seq."""
        ...

    def audit_read(
        self,
        after: int,
        limit: int,
        kind: str | None = None,
        caller: str | None = None,
        operation: str | None = None,
    ) -> list[AuditRecord]: ...

    def audit_verify(self) -> Verdict:
        """Walk the whole chain (``store.audit.verify``)."""
        ...

    def audit_prune(self, before_us: int, at_us: int) -> int:
        """Remove records older than ``before_us`` behind a checkpoint; how many."""
        ...

    def concept_facts(self) -> list[ConceptFact]:
        """Every concept's pack, term, parent and risk level (what disclosure rules read)."""
        ...

    def policy_objects(self) -> list[tuple[str, str, dict[str, Any]]]:
        """(kind, id, body) of every disclosure policy, treaty, hush and named caller."""
        ...

    def put_policy_object(
        self, kind: str, key: str, body: dict[str, Any], at_us: int, by: str
    ) -> bool:
        """Insert or replace a policy object; whether it is new."""
        ...

    def delete_policy_object(self, kind: str, key: str) -> bool: ...

    def concept_names(self) -> list[tuple[str, str, str, int, list[str], str]]:
        """(id, spec_id, term, layer, aliases, definition) of every concept."""
        ...

    def concept_children(
        self, parent_id: str | None, spec_ids: Sequence[str] | None, limit: int
    ) -> tuple[list[ConceptRow], int]:
        """Children of ``parent_id`` (roots when None) by name, and how many there are."""
        ...

    def concepts_by_term(self, term: str, layer: int | None) -> list[tuple[str, str, int]]:
        """(id, pack_id, imported_us) of concepts named ``term``, newest import first."""
        ...

    def concept_episode_counts(self, concept_ids: Sequence[str]) -> dict[str, int]:
        """Episodes tagged with each concept itself (absent: none)."""
        ...

    def concepts_carried(self, values: Sequence[str]) -> set[str]:
        """Those of ``values`` some record names as a concept, whether or not a pack holds
        it: an episode's tag or label, an exemplar, a concept tag or bud, a learning object,
        a timestep's activation (``store.concepts.carried``)."""
        ...

    def concept_subtree(self, concept_id: str) -> list[str]:
        """The concept and all below it (a recursive walk of the hierarchy)."""
        ...

    def concept_walk(
        self, seeds: Sequence[str], max_depth: int, up: bool, down: bool
    ) -> list[HierarchyStep]:
        """Every concept within ``max_depth`` parent (``up``) and/or child (``down``) steps
        of the ``seeds`` concept ids, each at its smallest depth, in no order."""
        ...


class GraphStore(Protocol):
    """The experience graph: Decision and Tool nodes and the edges between all nodes."""

    def add_graph_node(
        self,
        node_id: str,
        node_type: str,
        name: str,
        namespace: str,
        metadata: dict[str, Any],
        created_us: int,
        created_by: str,
        access_policy_id: str | None = None,
    ) -> bool: ...

    def add_graph_edge(
        self,
        edge: GraphEdgeRow,
        note: str | None,
        created_us: int,
        created_by: str,
        access_policy_id: str | None = None,
    ) -> bool: ...

    def assign_access(self, kind: str, keys: Sequence[Sequence[Any]], policy_id: str | None) -> int:
        """Put objects under an access policy (``store/access.py``'s ``KEYS`` names their
        kinds and keys); how many changed."""
        ...

    def access_policies_of(
        self, kind: str, keys: Sequence[Sequence[Any]]
    ) -> dict[tuple[Any, ...], str | None]:
        """Each named object's policy, of those that exist and the current caller reads."""
        ...

    def episode_policies(self, seqs: Sequence[int]) -> dict[int, str]:
        """The access policy of each of ``seqs`` that has one, whoever is calling."""
        ...

    def access_in_use(self, policy_id: str) -> list[str]:
        """The tables holding objects under ``policy_id``."""
        ...

    def target_policies(self, target: ResolvedTarget) -> set[str | None]:
        """The access policies of the timesteps a tag or comment target covers, of those
        the current caller reads (empty: none it reads)."""
        ...

    def describe_nodes(self, ids: Sequence[str]) -> dict[str, tuple[str, str | None]]:
        """(type, name or summary) of each of ``ids`` that exists."""
        ...

    def graph_edges(
        self,
        nodes: Sequence[str],
        relations: set[str],
        outgoing: bool,
        incoming: bool,
        first: int | None = None,
        among: Sequence[str] = (),
    ) -> set[GraphEdgeRow]:
        """Edges of ``relations`` leaving and/or reaching any of ``nodes``; with ``first``,
        a concept's episodes only among its ``first`` smallest ids or in ``among``."""
        ...


class UsageStore(Protocol):
    """What concept usage statistics read: carriers, time buckets, co-occurrence, activations."""

    def concept_carriers(
        self, flt: EpisodeFilter, concept_ids: Sequence[str]
    ) -> list[tuple[int, int, float, bool]]:
        """(seq, start_us, best score, mostly candidate) of matching episodes carrying any
        of ``concept_ids``."""
        ...

    def episode_span(self, flt: EpisodeFilter) -> tuple[int, int | None, int | None]:
        """(count, first start, last start) of matching episodes."""
        ...

    def episode_buckets(self, flt: EpisodeFilter, lo: int, width: int, count: int) -> list[int]:
        """Matching episodes starting in each of ``count`` buckets of ``width`` from ``lo``."""
        ...

    def cooccurring_concepts(
        self, flt: EpisodeFilter, group: Sequence[str], min_count: int, limit: int
    ) -> list[tuple[str, int, int]]:
        """(concept, episodes shared with ``group``, its own episode count), most shared first."""
        ...

    def activation_stats(
        self, concept_ids: Sequence[str], start_us: int | None, end_us: int | None
    ) -> tuple[int, float | None, float | None, float | None]:
        """(count, mean, max, min) of the concepts' activations on timesteps in the range."""
        ...


class LearningStore(Protocol):
    """The learning harness: buds' details, exemplars, datasets, training runs, artifacts
    (``store/learning_methods.py``, shared by both stores)."""

    def create_bud(
        self, tag: Tag, details: LearningObject, access_policy_id: str | None
    ) -> tuple[Tag, bool]: ...

    def update_bud(self, tag_id: str, status: str, details: LearningObject) -> None: ...

    def promote_bud(
        self,
        tag_id: str,
        details: LearningObject,
        pack: PackRow,
        concept: ConceptRow,
        related: Sequence[str],
        by: str,
    ) -> None: ...

    def add_exemplar(self, row: ExemplarRow) -> None: ...

    def get_exemplar(self, exemplar_id: str) -> ExemplarRow | None: ...

    def remove_exemplar(self, exemplar_id: str) -> ExemplarRow | None: ...

    def list_exemplars(
        self,
        concept_id: str | None,
        episode_id: str | None,
        label: str | None,
        after: tuple[int, str] | None,
        limit: int,
    ) -> tuple[list[ExemplarRow], int]: ...

    def episode_exemplars(
        self, episode_ids: Sequence[str], concept_id: str
    ) -> list[ExemplarRow]: ...

    def put_learning_object(self, obj: LearningObject) -> None: ...

    def learning_object(self, kind: str, key: str) -> LearningObject | None: ...

    def learning_objects(self, kind: str, keys: Sequence[str]) -> dict[str, LearningObject]: ...

    def list_learning_objects(
        self, kind: str, filters: dict[str, Any], after: tuple[int, str] | None, limit: int
    ) -> tuple[list[LearningObject], int]: ...

    def create_dataset(
        self, make: Any, series: str, members: Sequence[dict[str, Any]], bud: Any = None
    ) -> LearningObject: ...

    def dataset_members(self, dataset_id: str, after: int, limit: int) -> list[dict[str, Any]]: ...

    def dataset_member_counts(self, dataset_id: str) -> dict[str, int]:
        """Members of each polarity, of those the current caller reads."""
        ...

    def episode_seq_span(self) -> tuple[int, int, int]:
        """(count, lowest seq, highest seq) of the episodes the caller reads."""
        ...

    def protected_datasets(self) -> set[str]: ...

    def graph_fragments(self) -> list[dict[str, Any]]:
        """Each Decision or Tool node with the stored edges touching it, as export records."""
        ...

    def sync_merge(self, objects: list[dict[str, Any]], at_us: int, by: str) -> dict[str, Any]:
        """Merge a verified sync bundle's objects in one transaction (store/sync_merge.py)."""
        ...


class FidelityStore(Protocol):
    """Holds (pins, submitted evidence), the HOT window, compaction and compression
    (``store/fidelity_methods.py``, shared by both stores)."""

    def ticks_present(self, session: str, ticks: Sequence[int]) -> dict[int, tuple[int, str]]:
        """(tokens, fidelity) of each of ``ticks`` of ``session`` the caller reads."""
        ...

    def add_holds(
        self,
        kind: str,
        holder: str,
        reason: str | None,
        ticks: dict[str, dict[int, int]],
        at: int,
        by: str,
        quota: int | None = None,
    ) -> int: ...

    def drop_holds(self, kind: str, holder: str, ticks: dict[str, Sequence[int]]) -> int: ...

    def held_by(self, kind: str, holder: str) -> dict[str, list[int]]: ...

    def hold_tokens(self, holder: str | None) -> tuple[int, int]: ...

    def hot_window(self, session: str) -> tuple[int, int, int]:
        """(HOT tokens, current tick, compactions so far) of ``session``."""
        ...

    def compactable(
        self, session: str, keep_tokens: int, limit: int, after: int = -1
    ) -> list[tuple[Any, ...]]: ...

    def reply_annotations(
        self, session: str, lo: int, hi: int, events: Sequence[str]
    ) -> tuple[
        list[tuple[str, str | None, int | None, int | None, int | None]],
        list[str],
        list[dict[str, Any]],
    ]: ...

    def event_episodes(
        self, session: str, events: Sequence[str], lo_us: int, hi_us: int
    ) -> dict[str, tuple[str, str | None]]: ...

    def compact_replies(
        self, replies: Sequence[CompactedReply], at: int, count: bool = True
    ) -> int: ...

    def memory_records(
        self,
        sessions: Sequence[str] | None,
        ticks: tuple[int | None, int | None],
        times: tuple[int | None, int | None],
        descending: bool,
        limit: int,
    ) -> list[RecordRow]:
        """Records of ``sessions`` (None: any) overlapping the tick and time ranges."""
        ...

    def memory_records_by_ids(self, ids: Sequence[str]) -> dict[str, RecordRow]: ...

    def compression_candidates(
        self, level: str | None, before_us: int, limit: int
    ) -> list[tuple[str, str, str | None, int, int, str | None]]:
        """(id, namespace, session, start_us, end_us, access policy) of records of
        ``level`` (None: full episodes) that ended before ``before_us``, oldest first."""
        ...

    def visible_ids(self, kind: str, ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` (``kind`` comment or exemplar) that exist for the caller."""
        ...

    def record_levels(self, concept_ids: Sequence[str]) -> dict[int, str]:
        """seq -> compression level of each record carrying any of ``concept_ids``."""
        ...

    def cold_timesteps(self) -> int:
        """Timesteps compacted into the COLD records there are (that the caller reads)."""
        ...

    def retained(self) -> tuple[set[str], set[str]]:
        """(episode ids frozen into datasets, sessions holding an incident episode)."""
        ...

    def merge_records(self, merges: Sequence[Merge]) -> int: ...

    def storage_bytes(self, live: bool = False) -> int:
        """Bytes the database takes (SQLite: its file and log; PostgreSQL: its relations);
        ``live``: less what the file holds free (SQLite's free pages)."""
        ...

    # Whether ``storage_bytes(live=True)`` drops as rows are deleted (SQLite's free pages);
    # when not (PostgreSQL), maintenance estimates what it freed.
    live_bytes_exact: bool

    def reclaim_space(self, full: bool = False) -> None:
        """Return freed space (SQLite incremental vacuum; PostgreSQL VACUUM, or with ``full``
        VACUUM FULL)."""
        ...


class Store(
    LogStore,
    EpisodeStore,
    VectorStore,
    ConceptStore,
    GraphStore,
    UsageStore,
    LearningStore,
    FidelityStore,
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
        self, readable: Readable | None = None, *, restricted: bool = False
    ) -> Iterator[dict[str, Any]]:
        """Every stored object as a plain dict with a "kind" key, in a restorable order;
        given ``readable``, only the objects under those access policies, and neither the
        policy objects nor which object carries which policy (``store/access.py``);
        ``restricted``: leave those out too when every object is read (for a caller who
        sees fewer concepts than the file holder)."""
        ...

    def import_records(self, records: Iterable[dict[str, Any]]) -> dict[str, int]:
        """Restore exported records in one transaction; existing ids are skipped."""
        ...

    def close(self) -> None: ...


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
