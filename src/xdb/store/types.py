"""The rows and filters that cross the store protocol: what the operations hand a store to
write, and what a store hands back. Plain data, no behaviour beyond a derived property."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple


class NewTimestep(NamedTuple):
    """A timestep to append; the store assigns its tick and id."""

    session_id: str
    ts_us: int
    event_type: str
    role: str
    content: str
    token_id: int | None
    event_id: str | None
    event_start: bool
    event_end: bool
    activations: dict[str, float]
    access_policy_id: str | None = None  # None: the database's default
    # What a session this timestep makes is (None: an ordinary one; ``HOOK``: an agent's
    # hook session, never a handle's default session). A session's origin is set when the
    # session is made and never changes.
    session_origin: str | None = None


# The origin of the sessions the engine's hooks make (``<agent>-<the agent's session id>``).
HOOK = "hook"


@dataclass(frozen=True)
class ResolvedTarget:
    """Where a tag application or comment points, checked to exist."""

    target_type: str
    session_id: str
    tick: int | None = None
    event_id: str | None = None
    range_start: int | None = None
    range_end: int | None = None


@dataclass
class TimestepFilter:
    """A conjunction of conditions on timesteps; None means no condition."""

    session_ids: list[str] | None = None
    tick_start: int | None = None
    tick_end: int | None = None
    time_start_us: int | None = None
    time_end_us: int | None = None
    event_types: list[str] | None = None
    tag_ids: list[str] = field(default_factory=list)
    activations: dict[str, tuple[float, float]] = field(default_factory=dict)
    text: str | None = None
    descending: bool = False


@dataclass
class NewEpisode:
    """An episode row as stored: times in microseconds, structures as plain values."""

    id: str
    namespace: str
    kind: str
    session_id: str | None
    summary: str
    content: str
    start_us: int
    end_us: int
    created_us: int
    created_by: str
    concept_tags: list[dict[str, Any]]  # {concept_id, score, kind}
    labels: list[dict[str, Any]]  # {concept_id, label, confidence, label_source}
    motive_profile: dict[str, float]
    metadata: dict[str, Any]
    provenance: dict[str, Any]
    access_policy_id: str | None = None  # None: the database's default


class ConceptCondition(NamedTuple):
    concept_id: str
    min_score: float
    kind: str | None  # stable | candidate | None for any
    absent: bool
    as_tag: bool  # match concept tags
    as_label: bool  # match exemplar labels


@dataclass
class EpisodeFilter:
    """A conjunction of conditions on episodes; None means no condition."""

    namespace: str | None = None
    start_us: int | None = None  # the episode's window must overlap [start_us, end_us]
    end_us: int | None = None
    kinds: list[str] | None = None
    concepts: list[ConceptCondition] = field(default_factory=list)
    label_concept: str | None = None
    label: str | None = None
    label_min_confidence: float | None = None
    max_seq: int | None = None  # a paging snapshot: ignore episodes added later
    session_id: str | None = None

    @property
    def needs_allowlist(self) -> bool:
        """Whether in-memory indexes need SQL's list of matching episodes: they hold the
        namespace, time window and kind themselves, not concepts, labels or sessions."""
        labels = self.label_concept or self.label or self.label_min_confidence
        return bool(self.concepts or labels or self.session_id)


@dataclass
class PackRow:
    """A loaded concept pack."""

    spec_id: str  # e.g. org.hatcat/first-light@1.0.1
    pack_id: str
    version: str
    description: str
    concept_count: int
    imported_us: int


@dataclass
class ConceptRow:
    """A concept of a pack, as stored; ``details`` holds what has no column of its own."""

    id: str  # <spec_id>::concept/<Term>
    spec_id: str
    term: str
    layer: int
    parent_id: str | None
    domain: str | None
    definition: str
    aliases: list[str]
    child_count: int
    risk_level: str | None
    treaty_relevant: bool
    harness_relevant: bool
    details: dict[str, Any]


class ConceptFact(NamedTuple):
    """What disclosure rules read of a concept."""

    id: str
    spec_id: str
    pack_id: str
    term: str
    layer: int
    parent_id: str | None
    risk_level: str | None


class GraphEdgeRow(NamedTuple):
    src: str
    relation: str
    dst: str


class Place(NamedTuple):
    """Where an episode sits, as a search's session boost and recency read it."""

    session_id: str | None
    end_us: int
    namespace: str = ""
    start_us: int = 0


class TextDocument(NamedTuple):
    """What the text index holds of an episode: its words and what filters test."""

    text: str
    namespace: str
    start_us: int
    end_us: int
    kind: str
    tags: tuple[tuple[str, str], ...]  # (concept_id, kind) of each concept tag, once each
    positive: tuple[str, ...]  # concepts the episode is a positive exemplar of


TextChange = tuple[int, int, TextDocument | None]  # (change, seq, None once deleted)


class HierarchyStep(NamedTuple):
    """A concept reached by a walk of the hierarchy, at its smallest depth."""

    id: str
    parent_id: str | None
    term: str
    depth: int


class RankedMatches(NamedTuple):
    """A filter's matches and their vector ranking, read together (``VectorSearch``)."""

    matches: list[tuple[int, str | None, float | None]]  # as ``episode_matches`` gives
    ranking: list[tuple[int, float]] | None  # None: too many matches to score exactly
    max_vseq: int  # the vector snapshot the ranking saw
    text_change: int  # the newest text change (``latest_text_change``) in the same snapshot


class StoredEpisode(NamedTuple):
    seq: int
    episode: NewEpisode


# The dimension of the vectors the importing database's embedder makes for a model id (None:
# not its model): ``Database.import_records``'s word to its store (``records.VectorDimensions``).
Made = Callable[[str], int | None]
