"""Pydantic models: the domain objects shared by every capability (``common``), and the
requests and responses of the capabilities without a room of their own yet (log, concepts,
episodes, graph, usage, engine). Policy's, fidelity's and learning's are in their rooms
(``xdb.policy.policy_models``, ``xdb.fidelity.fidelity_models``, ``xdb.learning``).

This package re-exports ``common``'s names only: ``models.log`` imports fidelity's models,
which import ``common``, so importing this package must not load ``models.log``."""

from xdb.models.common import (
    BudStatus,
    Caller,
    EntityType,
    EventType,
    Fidelity,
    Role,
    TagSource,
    TagType,
    TargetType,
    TickRange,
    TimeRange,
)

__all__ = [
    "BudStatus",
    "Caller",
    "EntityType",
    "EventType",
    "Fidelity",
    "Role",
    "TagSource",
    "TagType",
    "TargetType",
    "TickRange",
    "TimeRange",
]
