"""The log's records: timesteps, tags, tag applications, comments and sessions' summaries.

They are the kernel's vocabulary, not the log room's: storage reads and writes them (its
rows, its export and import, both stores' methods), and every room shows them. The log's
models (``xdb.log.log_models``) re-export them under the names they always had."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import Field

from xdb.models.common import (
    BudStatus,
    DeferredModel,
    EntityType,
    EventType,
    Fidelity,
    Role,
    TagSource,
    TagType,
    TargetType,
)
from xdb.models.concept_markers import ConceptKeys, ConceptList, NoConcept


class Timestep(DeferredModel):
    """One recorded moment: a token, a message, a tool call or response, steering."""

    id: str
    session_id: str
    tick: int
    timestamp: datetime
    event_type: EventType
    role: Role
    content: str
    token_id: int | None = None
    event_id: str | None = None
    event_start: bool = False
    event_end: bool = False
    concept_activations: Annotated[dict[str, float], ConceptKeys()] = Field(default_factory=dict)
    fidelity: Fidelity = Fidelity.HOT


class Tag(DeferredModel):
    """A folksonomy label: a concept, an entity, a bud (candidate concept) or a custom tag."""

    id: str
    name: str
    tag_type: TagType
    description: str | None = None
    concept_id: Annotated[str | None, NoConcept()] = None  # disclosed_concepts() says
    entity_type: EntityType | None = None
    bud_status: BudStatus | None = None
    related_concepts: Annotated[list[str], ConceptList()] = Field(default_factory=list)
    created_at: datetime
    created_by: str
    application_count: int | None = None

    def disclosed_concepts(self) -> list[tuple[str, bool]]:
        """The concepts the tag is about, and whether each is a candidate (policy.release):
        a concept tag its concept, a bud itself; entity and custom tags none."""
        if self.tag_type is TagType.CONCEPT:
            return [(self.concept_id or self.name, False)]
        if self.tag_type is TagType.BUD:
            return [(self.name, True), (self.id, True)]
        return []


class Targeted(DeferredModel):
    """Where an annotation points: a timestep, an event's timesteps, a tick range, a session."""

    id: str
    target_type: TargetType
    session_id: str
    timestep_id: str | None = None
    event_id: str | None = None
    range_start: int | None = None
    range_end: int | None = None


class TagApplication(Targeted):
    """A tag applied to one timestep, to every timestep of an event, or to a tick range."""

    tag_id: str
    confidence: float
    source: TagSource
    note: str | None = None
    created_at: datetime
    created_by: str


class Comment(Targeted):
    """Commentary on a timestep, an event, a tick range, or a whole session."""

    content: str
    created_at: datetime
    updated_at: datetime
    created_by: str


class SessionSummary(DeferredModel):
    session_id: str
    timesteps: int
    current_tick: int | None = Field(
        description="The session's latest tick; null for a caller that access policies keep"
        " from part of the log (its ticks would say how much it does not read)."
    )
    first_time: datetime | None = None
    last_time: datetime | None = None
