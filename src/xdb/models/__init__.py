"""Pydantic models: the domain objects shared by every capability (``common``). Each
capability's requests and responses are in its room (``xdb.log.log_models``,
``xdb.concepts``, ``xdb.episodes``, ``xdb.learning``, ``xdb.policy.policy_models``,
``xdb.fidelity.fidelity_models``, ``xdb.engine.engine_models``).

This package re-exports ``common``'s names only: the log's models import fidelity's
models, which import ``common``, so importing this package must not load the log's."""

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
