"""Buds (candidate concepts): the requests and answers of their lifecycle.

A bud is a tag of type ``bud``; its name is the candidate concept's id (what episodes'
concept tags and timesteps' activations name while it is a candidate).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from xdb.log.log_models import Timestep
from xdb.models.common import BudStatus, DeferredModel, Model, NonEmpty, Page
from xdb.models.concept_markers import ConceptRef


class ReviewStatus(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"


class CandidateStatus(StrEnum):
    """The XDB specification's candidate-concept vocabulary (docs/learning.md)."""

    COLLECTING = "collecting"
    TRAINING = "training"
    VALIDATING = "validating"
    REJECTED = "rejected"
    PROMOTED = "promoted"


class RelatedConcept(Model):
    concept_id: Annotated[NonEmpty, ConceptRef()]
    relation: NonEmpty = Field(
        default="related", description="How it relates: related, overlaps, narrower, ..."
    )


class Governance(Model):
    tribe_id: str | None = Field(default=None, description="The tribe that governs it.")
    review_required: bool = Field(default=False, description="Promotion needs approval.")
    review_status: ReviewStatus | None = None


class BudChange(DeferredModel):
    """One step of a bud's history."""

    at: datetime
    by: str
    from_status: BudStatus | None
    to_status: BudStatus
    review_status: ReviewStatus | None = None
    reason: str | None = None


class Bud(DeferredModel):
    """A bud: a candidate concept in flight, with its history."""

    tag_id: str
    name: str
    status: BudStatus
    description: str | None = None
    related_concepts: list[RelatedConcept] = Field(default_factory=list)
    proposer: str
    governance: Governance
    initial_episode_ids: list[str] = Field(default_factory=list)
    dataset_id: str | None = None
    promoted_concept_id: Annotated[str | None, ConceptRef(on_hidden="clear")] = Field(
        default=None, description="The stable concept it became (its name, in the local pack)."
    )
    example_count: int
    history: list[BudChange]
    created_at: datetime
    updated_at: datetime

    def disclosed_concepts(self) -> list[tuple[str, bool]]:
        """A bud is a candidate concept, named by its name and its tag id (policy.release)."""
        return [(self.name, True), (self.tag_id, True)]


class BudRef(DeferredModel):
    tag_id: str
    name: str
    status: BudStatus

    def disclosed_concepts(self) -> list[tuple[str, bool]]:
        return [(self.name, True), (self.tag_id, True)]


class BudsRequest(Model):
    """List buds (candidate concepts), optionally by status, with their example counts."""

    status: BudStatus | None = Field(default=None, description="Only buds in this status.")
    session_id: str | None = Field(default=None, description="Accepted for XAPI compatibility.")
    page: Page = Field(default_factory=Page)


class BudsResponse(DeferredModel):
    buds: list[Bud]
    next_cursor: str | None = Field(description="Pass as page.cursor for the next page.")


class BudExamplesRequest(Model):
    """Every timestep tagged with a bud (directly, through its event or a tick range), a page
    at a time: the bud's training examples."""

    bud_tag_id: NonEmpty = Field(description="The bud's tag id (or its name).")
    session_id: str | None = Field(default=None, description="Accepted for XAPI compatibility.")
    limit: int = Field(default=100, ge=1, le=10_000)
    cursor: str | None = Field(default=None, description="next_cursor of the previous page.")


class BudExamplesResponse(DeferredModel):
    bud: BudRef
    examples: list[Timestep]
    example_count: int
    next_cursor: str | None = None


class BudReadyRequest(Model):
    """Mark a bud ready for training (collecting -> ready)."""

    bud_tag_id: NonEmpty = Field(description="The bud's tag id (or its name).")
    session_id: str | None = Field(default=None, description="Accepted for XAPI compatibility.")
    reason: str | None = Field(default=None, description="Kept in the bud's history.")


class BudReadyResponse(DeferredModel):
    tag_id: str
    previous_status: BudStatus
    new_status: BudStatus
    example_count: int


class SetBudStatusRequest(Model):
    """Move a bud along its lifecycle (docs/learning.md lists the legal moves), or record a
    review; an illegal move is refused with the moves allowed from where it is."""

    bud_tag_id: NonEmpty = Field(description="The bud's tag id (or its name).")
    status: BudStatus | None = Field(default=None, description="The new status.")
    review_status: ReviewStatus | None = Field(default=None, description="A review's verdict.")
    reason: str | None = Field(default=None, description="Kept in the bud's history.")


class SetBudStatusResponse(DeferredModel):
    tag_id: str
    previous_status: BudStatus
    new_status: BudStatus
    review_status: ReviewStatus | None = None
    allowed_next: list[BudStatus] = Field(description="Where it may go from here.")


class PromoteBudRequest(Model):
    """Promote a validated bud to a stable concept of the local concept pack (``local``):
    find_concept, the graph and usage statistics know it from then on; its history and
    examples stay."""

    bud_tag_id: NonEmpty = Field(description="The bud's tag id (or its name).")
    parent_concept_id: Annotated[str | None, ConceptRef(on_hidden="clear")] = Field(
        default=None, min_length=1, description="Its parent in the hierarchy (default: a root)."
    )
    definition: str | None = Field(default=None, description="Default: the bud's description.")
    reason: str | None = Field(default=None, description="Kept in the bud's history.")


class PromoteBudResponse(DeferredModel):
    tag_id: str
    concept_id: Annotated[str, ConceptRef()] = Field(
        description="The stable concept's id: the bud's name."
    )
    spec_id: str = Field(description="The local pack's spec id.")
    previous_status: BudStatus


class ListCandidateConceptsRequest(Model):
    """List candidate concepts in flight, optionally by status or tribe governance."""

    status: list[CandidateStatus] | None = Field(
        default=None, description="Any of these (the specification's vocabulary)."
    )
    tribe_id: str | None = Field(default=None, description="Only those this tribe governs.")
    page: Page = Field(default_factory=Page)


class CandidateConcept(DeferredModel):
    """A bud as the XDB specification's CandidateConcept."""

    id: str = Field(description="The candidate concept's id (the bud's name).")
    tag_id: str
    proposer_aal_id: str
    description: str | None = None
    initial_episode_ids: list[str]
    dataset_id: str | None = None
    status: CandidateStatus
    bud_status: BudStatus
    related_concepts: list[RelatedConcept]
    governance: Governance
    created_at: datetime
    updated_at: datetime

    def disclosed_concepts(self) -> list[tuple[str, bool]]:
        return [(self.id, True), (self.tag_id, True)]


class ListCandidateConceptsResponse(DeferredModel):
    candidate_concepts: list[CandidateConcept]
    next_cursor: str | None = None
