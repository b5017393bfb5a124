"""Pydantic models: the domain objects shared by every capability (``common``), and the
requests and responses of the engine's operations (``engine``), which has no room of its
own here yet. The other capabilities' are in their rooms (``xdb.log.log_models``,
``xdb.concepts``, ``xdb.episodes``, ``xdb.learning``, ``xdb.policy.policy_models``,
``xdb.fidelity.fidelity_models``); ``episodes`` here re-exports the two names
``ops/engine.py`` still imports from it.

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
