"""Training runs and their artifacts: the requests and answers of recording how a lens,
patch or graft was trained and what it made (references and checksums, never weights)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field

from xdb.models.common import DeferredModel, Model, NonEmpty, Page, access_policy_field
from xdb.models.concept_markers import ConceptList, ConceptRef


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


class TrainingRun(DeferredModel):
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


class RecordTrainingRunResponse(DeferredModel):
    training_run_id: str
    created: bool
    status: RunStatus


class TrainingRunsRequest(Model):
    """List training runs, oldest first, by status or concept."""

    status: RunStatus | None = None
    concept_id: Annotated[NonEmpty | None, ConceptRef()] = None
    page: Page = Field(default_factory=Page)


class TrainingRunsResponse(DeferredModel):
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


class Artifact(DeferredModel):
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


class RecordArtifactResponse(DeferredModel):
    artifact_id: str
    created: bool


class TrainingRunRequest(Model):
    """One training run with its artifacts."""

    training_run_id: NonEmpty


class TrainingRunResponse(DeferredModel):
    training_run: TrainingRun
    artifacts: list[Artifact]
