"""Concept datasets: the requests and answers of building, reading and exporting the
versioned, frozen sets of positive and negative episodes a concept is trained from."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field

from xdb.episodes.episode_models import ConceptFilter, ConceptTag
from xdb.models.common import DeferredModel, Int64, Model, NonEmpty, Page, access_policy_field
from xdb.models.concept_markers import ConceptRef


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


class BuildDatasetResponse(DeferredModel):
    dataset_id: str
    version: int
    positive_exemplar_ids: list[str]
    negative_exemplar_ids: list[str]
    source_mix: dict[str, float] = Field(description="Share of members by label source.")
    balance_note: str | None = Field(
        default=None, description="Why the counts are not what was asked, when they are not."
    )


class ConceptDataset(DeferredModel):
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


class DatasetMember(DeferredModel):
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


class DatasetsResponse(DeferredModel):
    datasets: list[ConceptDataset]
    total_count: int
    next_cursor: str | None = None


class DatasetRequest(Model):
    """One dataset with a page of its frozen members."""

    dataset_id: NonEmpty
    limit: int = Field(default=100, ge=0, le=10_000, description="Members per page (0: none).")
    cursor: str | None = Field(default=None, description="next_cursor of the previous page.")


class DatasetResponse(DeferredModel):
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


class ExportDatasetResponse(DeferredModel):
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
