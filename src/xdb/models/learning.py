"""Exemplars and concept datasets: the requests and answers of the learning harness's data."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, Field, model_validator

from xdb.models.common import Int64, Model, NonEmpty, Score, TickRange, access_policy_field
from xdb.models.episodes import ConceptFilter, ConceptTag, Label, Page
from xdb.policy.markers import ConceptList, ConceptRef


class LabelSource(StrEnum):
    SENSOR = "sensor"
    TOOL = "tool"
    TEACHER = "teacher"
    HUMAN = "human"
    SELF = "self"


class AddExemplarRequest(Model):
    """Label an episode, or a tick range of a session, as an example of a concept."""

    concept_id: Annotated[NonEmpty, ConceptRef()] = Field(description="The concept (or bud).")
    label: Label = Field(description="positive, negative, neutral or other.")
    label_source: LabelSource = Field(default=LabelSource.SELF, description="Who labelled it.")
    confidence: Score = 1.0
    notes: str | None = Field(default=None, description="E.g. a teacher's rationale.")
    episode_id: NonEmpty | None = Field(default=None, description="The episode labelled.")
    tick_range: TickRange | None = Field(default=None, description="Or these ticks.")
    session_id: str | None = Field(default=None, description="The tick range's session.")
    access_policy_id: str | None = access_policy_field()

    @model_validator(mode="after")
    def _one_target(self) -> AddExemplarRequest:
        if (self.episode_id is None) == (self.tick_range is None):
            raise ValueError("give exactly one target: episode_id or tick_range")
        if self.session_id is not None and self.tick_range is None:
            raise ValueError("session_id goes with tick_range")
        return self


class Exemplar(BaseModel):
    """An episode or tick range labelled for a concept."""

    id: str
    concept_id: Annotated[str, ConceptRef()]
    label: Label
    label_source: str
    confidence: float
    notes: str | None = None
    episode_id: str | None = None
    session_id: str | None = None
    tick_range: TickRange | None = None
    protected: bool = Field(
        default=False, description="A dataset of a running training run holds it."
    )
    created_at: datetime
    created_by: str


class AddExemplarResponse(BaseModel):
    exemplar: Exemplar


class ExemplarsRequest(Model):
    """List exemplars, oldest first, by concept, episode or label."""

    concept_id: Annotated[NonEmpty | None, ConceptRef()] = None
    episode_id: NonEmpty | None = None
    label: Label | None = None
    page: Page = Field(default_factory=Page)


class ExemplarsResponse(BaseModel):
    exemplars: list[Exemplar]
    total_count: int
    next_cursor: str | None = None


class RemoveExemplarRequest(Model):
    """Remove an exemplar (an episode's label goes with it)."""

    exemplar_id: NonEmpty


class RemoveExemplarResponse(BaseModel):
    exemplar_id: str
    removed: bool


# --------------------------------------------------------------------------- datasets


class DatasetFilters(Model):
    concept_filters: list[ConceptFilter] = Field(default_factory=list)
    text_query: str | None = Field(
        default=None,
        description="Episodes whose summary or content holds every content word of it"
        " (whole words, any case).",
    )


class Balance(StrEnum):
    BALANCED = "balanced"
    SKEWED = "skewed"


class Sampling(Model):
    balance: Balance = Balance.BALANCED
    random_seed: Int64 = Field(default=0, description="Same inputs and seed, same dataset.")


class BuildDatasetRequest(Model):
    """Construct a ConceptDataset (positives and negatives) for a concept from the episodes;
    stored as the next version of its series, its members' content frozen."""

    target_concept_id: Annotated[NonEmpty, ConceptRef()] = Field(
        description="The concept (stable or candidate) the dataset is for."
    )
    positive_filters: DatasetFilters | None = Field(
        default=None, description="Default: episodes tagged or labelled positive for the target."
    )
    negative_filters: DatasetFilters | None = Field(
        default=None, description="Default: episodes without the target."
    )
    max_positive: int = Field(default=500, ge=1, le=100_000)
    max_negative: int = Field(default=500, ge=0, le=100_000)
    sampling: Sampling = Field(default_factory=Sampling)
    name: NonEmpty | None = Field(
        default=None, description="The series its versions share (default: the target)."
    )
    notes: str | None = None
    access_policy_id: str | None = access_policy_field()


class BuildDatasetResponse(BaseModel):
    dataset_id: str
    version: int
    positive_exemplar_ids: list[str]
    negative_exemplar_ids: list[str]
    source_mix: dict[str, float] = Field(description="Share of members by label source.")
    balance_note: str | None = Field(
        default=None, description="Why the counts are not what was asked, when they are not."
    )


class ConceptDataset(BaseModel):
    id: str
    series: str
    version: int
    concept_id: Annotated[str, ConceptRef()]
    positive_count: int
    negative_count: int
    source_mix: dict[str, float]
    balance_note: str | None = None
    notes: str | None = None
    request: BuildDatasetRequest = Field(description="What built it (rebuild with it).")
    protected: bool = Field(description="A running training run names it.")
    created_at: datetime
    created_by: str


class DatasetMember(BaseModel):
    """A member as frozen when the dataset was built."""

    exemplar_id: str
    episode_id: str
    polarity: str
    label: str
    label_source: str
    confidence: float
    text: str
    summary: str
    concept_tags: list[ConceptTag]
    content_sha256: str
    start_time: datetime
    end_time: datetime


class DatasetsRequest(Model):
    """List concept datasets, oldest first, by concept or series."""

    concept_id: Annotated[NonEmpty | None, ConceptRef()] = None
    series: NonEmpty | None = None
    page: Page = Field(default_factory=Page)


class DatasetsResponse(BaseModel):
    datasets: list[ConceptDataset]
    total_count: int
    next_cursor: str | None = None


class DatasetRequest(Model):
    """One dataset with a page of its frozen members."""

    dataset_id: NonEmpty
    limit: int = Field(default=100, ge=0, le=10_000, description="Members per page (0: none).")
    cursor: str | None = Field(default=None, description="next_cursor of the previous page.")


class DatasetResponse(BaseModel):
    dataset: ConceptDataset
    members: list[DatasetMember]
    next_cursor: str | None = None


class ExportFormat(StrEnum):
    JSONL = "jsonl"
    PARQUET = "parquet"


class ExportDatasetRequest(Model):
    """Write a dataset for a training script: text, label, confidence and provenance per
    member (JSON lines, or parquet through pyarrow), on the machine running xdb."""

    dataset_id: NonEmpty
    path: NonEmpty = Field(
        description="The file to write: a new one unless overwrite; over HTTP, MCP and Python,"
        " inside the data root (docs/policy.md)."
    )
    format: ExportFormat | None = Field(
        default=None, description="jsonl or parquet (default: from the path's extension)."
    )
    overwrite: bool = Field(default=False, description="Replace the file if it exists.")


class ExportDatasetResponse(BaseModel):
    path: str
    format: ExportFormat
    rows: int
    sha256: str = Field(description="Of the file written.")


def member_rows(dataset: ConceptDataset, members: list[DatasetMember]) -> list[dict[str, Any]]:
    """The rows an export writes."""
    return [
        {
            "text": m.text,
            "label": m.polarity,
            "label_value": 1 if m.polarity == "positive" else 0,
            "confidence": m.confidence,
            "label_source": m.label_source,
            "concept_id": dataset.concept_id,
            "dataset_id": dataset.id,
            "exemplar_id": m.exemplar_id,
            "episode_id": m.episode_id,
            "content_sha256": m.content_sha256,
            "start_time": m.start_time.isoformat(),
        }
        for m in members
    ]


# --------------------------------------------------------------------------- training


class RunType(StrEnum):
    PATCH = "patch"
    LENS = "lens"
    GRAFT = "graft"
    JOINT = "joint"


class RunStatus(StrEnum):
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    PARTIAL = "partial"


class RecordTrainingRunRequest(Model):
    """Record a training run: what was trained, from which datasets, how, and how it went.
    The same id again updates it (its status, metrics, logs); while it is running, its
    datasets and their exemplars are protected."""

    id: NonEmpty | None = Field(default=None, description="Default: a new trainrun-... id.")
    type: RunType
    concept_ids: Annotated[list[NonEmpty], ConceptList()] = Field(min_length=1)
    dataset_ids: list[NonEmpty] = Field(default_factory=list, description="Stored datasets.")
    substrate_id: str | None = Field(default=None, description="The model trained on.")
    hat_impl_id: str | None = None
    lens_pack_id: str | None = None
    regions_of_influence: list[dict[str, Any]] = Field(default_factory=list)
    hyperparams: dict[str, Any] = Field(default_factory=dict)
    metrics: dict[str, float] = Field(default_factory=dict)
    status: RunStatus = RunStatus.RUNNING
    logs_ref: str | None = Field(default=None, description="Where its logs are.")
    notes: str | None = None
    access_policy_id: str | None = access_policy_field()


class TrainingRun(BaseModel):
    id: str
    type: RunType
    concept_ids: Annotated[list[str], ConceptList()]
    dataset_ids: list[str]
    substrate_id: str | None = None
    hat_impl_id: str | None = None
    lens_pack_id: str | None = None
    regions_of_influence: list[dict[str, Any]]
    hyperparams: dict[str, Any]
    metrics: dict[str, float]
    status: RunStatus
    logs_ref: str | None = None
    notes: str | None = None
    created_at: datetime
    updated_at: datetime
    created_by: str

    def disclosed_concepts(self) -> list[tuple[str, bool]]:
        """A run about a concept the caller may not see is left out whole."""
        return [(c, False) for c in self.concept_ids]


class RecordTrainingRunResponse(BaseModel):
    training_run_id: str
    created: bool
    status: RunStatus


class TrainingRunsRequest(Model):
    """List training runs, oldest first, by status or concept."""

    status: RunStatus | None = None
    concept_id: Annotated[NonEmpty | None, ConceptRef()] = None
    page: Page = Field(default_factory=Page)


class TrainingRunsResponse(BaseModel):
    training_runs: list[TrainingRun]
    total_count: int
    next_cursor: str | None = None


class ArtifactKind(StrEnum):
    LENS = "lens"
    GRAFT = "graft"
    PATCH = "patch"


class RecordArtifactRequest(Model):
    """Record a deployable artifact a training run made: a reference and a checksum, never
    the weights."""

    id: NonEmpty | None = Field(default=None, description="Default: a new <kind>-... id.")
    kind: ArtifactKind
    training_run_id: NonEmpty
    location: NonEmpty = Field(description="Where it is, e.g. blob://... or a path.")
    checksum: Annotated[str, Field(pattern=r"^sha256:[0-9a-f]{64}$")] = Field(
        description="sha256:<64 hex digits> of the artifact's bytes."
    )
    concept_id: Annotated[NonEmpty | None, ConceptRef()] = None
    format: str | None = Field(default=None, description="E.g. graft, lora, safetensors.")
    applies_to: dict[str, Any] = Field(default_factory=dict, description="E.g. substrate_id.")


class Artifact(BaseModel):
    id: str
    kind: ArtifactKind
    training_run_id: str
    location: str
    checksum: str
    concept_id: Annotated[str | None, ConceptRef()] = None
    format: str | None = None
    applies_to: dict[str, Any]
    created_at: datetime
    created_by: str


class RecordArtifactResponse(BaseModel):
    artifact_id: str
    created: bool


class TrainingRunRequest(Model):
    """One training run with its artifacts."""

    training_run_id: NonEmpty


class TrainingRunResponse(BaseModel):
    training_run: TrainingRun
    artifacts: list[Artifact]
