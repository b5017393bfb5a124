"""Pydantic models: the kernel's vocabulary, shared by every capability and by storage:
``common`` (enums, ranges, the caller, the base request), ``log_objects`` (the log's
records), ``episode_objects`` (an episode as it is written) and ``concept_markers`` (the
field markers the policy reads). Each capability's requests and responses are in its room
(``xdb.log.log_models``, ``xdb.concepts``, ``xdb.episodes``, ``xdb.learning``,
``xdb.policy.policy_models``, ``xdb.fidelity.fidelity_models``,
``xdb.engine.engine_models``), which re-exports the kernel's objects it names.

This package re-exports ``common``'s names only: importing it loads nothing else."""

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
