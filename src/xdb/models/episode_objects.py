"""An episode as it is written: add_episode's request and the objects it holds (its time
window, concept tags, exemplar labels, provenance).

They are the kernel's vocabulary, not the episodes room's: storage builds an episode's row
from the request (``store.episode_row``) and the export's episode record is the request
with what the store made (``store.records``). The episodes' models
(``xdb.episodes.episode_models``) re-export them under the names they always had."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import Field, field_validator, model_validator

from xdb.models.common import INT64_MAX, Model, NonEmpty, Score, access_policy_field
from xdb.models.concept_markers import ConceptKeys, ConceptRef, NoConcept
from xdb.timeutil import as_utc

DEFAULT_NAMESPACE = "default"


class TagKind(StrEnum):
    STABLE = "stable"
    CANDIDATE = "candidate"


class Label(StrEnum):
    POSITIVE = "positive"
    NEGATIVE = "negative"
    NEUTRAL = "neutral"
    OTHER = "other"


class ConceptTag(Model):
    """A concept an episode carries, with how strongly (0..1) and whether it is a bud."""

    concept_id: Annotated[NonEmpty, ConceptRef(candidate_if=("kind", "candidate"))]
    score: Score
    kind: TagKind = TagKind.STABLE


class ExemplarLabel(Model):
    """The episode as a labelled example of a concept (an exemplar, for training sets)."""

    concept_id: Annotated[NonEmpty, ConceptRef()]
    label: Label
    confidence: Score = 1.0
    label_source: str = Field(default="self", description="sensor, tool, teacher, human, self")


class TimeWindow(Model):
    """When the episode happened. A time without a zone is read as UTC."""

    start_time: datetime
    end_time: datetime

    @field_validator("start_time", "end_time")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        return as_utc(value)

    @model_validator(mode="after")
    def _ordered(self) -> TimeWindow:
        if self.end_time < self.start_time:
            raise ValueError("end_time must not be before start_time")
        return self


class Provenance(Model):
    """Where the episode came from: the timesteps it covers, and free-form source facts."""

    session_id: str | None = None
    start_tick: int | None = Field(default=None, ge=0, le=INT64_MAX)
    end_tick: int | None = Field(default=None, ge=0, le=INT64_MAX)
    source: Annotated[str, NoConcept()] = Field(
        default="manual", description="manual, log (made from an event), import"
    )
    details: dict[str, Any] = Field(default_factory=dict)


class AddEpisodeRequest(Model):
    """Store an episode; it is text-searchable at once and vector-searchable within a second."""

    content: NonEmpty = Field(description="What happened (stored whole; embedded from a prefix).")
    summary: str | None = Field(default=None, description="Default: the content's first sentence.")
    kind: NonEmpty = Field(default="other", description="reply, task, incident, conversation, ...")
    namespace: NonEmpty = Field(default=DEFAULT_NAMESPACE, description="Scope, e.g. a project.")
    session_id: NonEmpty | None = None
    time_window: TimeWindow | None = Field(default=None, description="Default: now.")
    concept_tags: list[ConceptTag] = Field(default_factory=list)
    motive_profile: Annotated[dict[NonEmpty, float], ConceptKeys()] = Field(default_factory=dict)
    metadata: dict[str, Any] = Field(default_factory=dict)
    labels: list[ExemplarLabel] = Field(default_factory=list)
    provenance: Provenance | None = None
    access_policy_id: str | None = access_policy_field()
