"""Exemplars: the requests and answers of labelling an episode, or a session's ticks, as an
example of a concept (or bud)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated

from pydantic import Field, model_validator

from xdb.episodes.episode_models import Label
from xdb.models.common import (
    DeferredModel,
    Model,
    NonEmpty,
    Page,
    Score,
    TickRange,
    access_policy_field,
)
from xdb.models.concept_markers import ConceptRef


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


class Exemplar(DeferredModel):
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


class AddExemplarResponse(DeferredModel):
    exemplar: Exemplar


class ExemplarsRequest(Model):
    """List exemplars, oldest first, by concept, episode or label."""

    concept_id: Annotated[NonEmpty | None, ConceptRef()] = None
    episode_id: NonEmpty | None = None
    label: Label | None = None
    page: Page = Field(default_factory=Page)


class ExemplarsResponse(DeferredModel):
    exemplars: list[Exemplar]
    total_count: int
    next_cursor: str | None = None


class RemoveExemplarRequest(Model):
    """Remove an exemplar (an episode's label goes with it)."""

    exemplar_id: NonEmpty


class RemoveExemplarResponse(DeferredModel):
    exemplar_id: str
    removed: bool
