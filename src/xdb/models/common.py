"""Shared vocabulary: enums, ranges, the caller, and the base model every request uses."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator, model_validator

from xdb.timeutil import as_utc


class EventType(StrEnum):
    INPUT = "input"
    OUTPUT = "output"
    TOOL_CALL = "tool_call"
    TOOL_RESPONSE = "tool_response"
    STEERING = "steering"
    SYSTEM = "system"


class Role(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


class Fidelity(StrEnum):
    HOT = "hot"
    WARM = "warm"
    SUBMITTED = "submitted"
    COLD = "cold"


class TagType(StrEnum):
    CONCEPT = "concept"
    ENTITY = "entity"
    BUD = "bud"
    CUSTOM = "custom"


class EntityType(StrEnum):
    PERSON = "person"
    ORGANIZATION = "organization"
    PLACE = "place"
    THING = "thing"


class BudStatus(StrEnum):
    COLLECTING = "collecting"
    READY = "ready"
    TRAINING = "training"
    PROMOTED = "promoted"
    ABANDONED = "abandoned"


class TagSource(StrEnum):
    AUTO = "auto"
    MANUAL = "manual"
    INHERITED = "inherited"


class TargetType(StrEnum):
    TIMESTEP = "timestep"
    EVENT = "event"
    RANGE = "range"
    SESSION = "session"


# Which role a timestep gets when the caller names none.
DEFAULT_ROLE = {
    EventType.INPUT: Role.USER,
    EventType.OUTPUT: Role.ASSISTANT,
    EventType.TOOL_CALL: Role.ASSISTANT,
    EventType.TOOL_RESPONSE: Role.TOOL,
    EventType.STEERING: Role.SYSTEM,
    EventType.SYSTEM: Role.SYSTEM,
}

_ENUMS = (EventType, Role, Fidelity, TagType, EntityType, BudStatus, TagSource)


class Model(BaseModel):
    """Base of every request: unknown fields are errors, enum names are case-insensitive."""

    model_config = ConfigDict(extra="forbid", use_enum_values=False)

    @model_validator(mode="before")
    @classmethod
    def _lower_enum_strings(cls, data: Any) -> Any:
        # The specs write tag types both as CONCEPT and concept; accept either spelling.
        if isinstance(data, dict):
            for name in _enum_fields(cls):
                value = data.get(name)
                if isinstance(value, str) and not value.islower():
                    data = {**data, name: value.lower()}
        return data


_ENUM_FIELDS: dict[type, tuple[str, ...]] = {}


def _enum_fields(cls: type[BaseModel]) -> tuple[str, ...]:
    names = _ENUM_FIELDS.get(cls)
    if names is None:
        names = tuple(n for n, f in cls.model_fields.items() if _is_enum_field(f.annotation))
        _ENUM_FIELDS[cls] = names
    return names


def _is_enum_field(annotation: Any) -> bool:
    args = getattr(annotation, "__args__", None) or (annotation,)
    return any(isinstance(a, type) and issubclass(a, _ENUMS) for a in args)


class Caller(BaseModel):
    """Who an operation runs for. Policy (a later capability) decides what each may see."""

    model_config = ConfigDict(frozen=True)

    id: str = "agent"
    kind: str = Field(default="agent", description="agent, harness, operator or auditor")


class TickRange(Model):
    """An inclusive range of ticks within one session."""

    start: int = Field(
        ge=0, validation_alias=AliasChoices("start", "start_tick"), description="First tick."
    )
    end: int = Field(
        ge=0, validation_alias=AliasChoices("end", "end_tick"), description="Last tick (inclusive)."
    )

    @model_validator(mode="after")
    def _ordered(self) -> TickRange:
        if self.end < self.start:
            raise ValueError(f"end ({self.end}) must be >= start ({self.start})")
        return self


class TimeRange(Model):
    """An inclusive time window; ISO 8601 times, a time without a zone is read as UTC."""

    start_time: datetime | None = None
    end_time: datetime | None = None

    @field_validator("start_time", "end_time")
    @classmethod
    def _utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc(value)

    @model_validator(mode="after")
    def _ordered(self) -> TimeRange:
        if self.start_time and self.end_time and self.end_time < self.start_time:
            raise ValueError("end_time must not be before start_time")
        return self
