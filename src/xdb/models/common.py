"""Shared vocabulary: enums, ranges, the caller, and the base model every request uses."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator, model_validator

from xdb.timeutil import as_utc


class _AnyCase(StrEnum):
    """An enum whose names are case-insensitive: the specs write tag types both as CONCEPT
    and concept. (A ``_missing_`` hook, which pydantic calls only for a value it does not
    know; a model validator lowercasing fields cost every request ~4 us.)"""

    @classmethod
    def _missing_(cls, value: object) -> Any:
        return cls._value2member_map_.get(value.lower()) if isinstance(value, str) else None


class EventType(_AnyCase):
    INPUT = "input"
    OUTPUT = "output"
    TOOL_CALL = "tool_call"
    TOOL_RESPONSE = "tool_response"
    STEERING = "steering"
    SYSTEM = "system"


class Role(_AnyCase):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


class Fidelity(_AnyCase):
    HOT = "hot"
    WARM = "warm"
    SUBMITTED = "submitted"
    COLD = "cold"


class TagType(_AnyCase):
    CONCEPT = "concept"
    ENTITY = "entity"
    BUD = "bud"
    CUSTOM = "custom"


class EntityType(_AnyCase):
    PERSON = "person"
    ORGANIZATION = "organization"
    PLACE = "place"
    THING = "thing"


class BudStatus(_AnyCase):
    """A bud's lifecycle: both seeds' words (docs/learning.md maps them)."""

    COLLECTING = "collecting"
    READY = "ready"
    TRAINING = "training"
    VALIDATING = "validating"
    PROMOTED = "promoted"
    REJECTED = "rejected"
    ABANDONED = "abandoned"


class TagSource(_AnyCase):
    AUTO = "auto"
    MANUAL = "manual"
    INHERITED = "inherited"


class TargetType(StrEnum):
    TIMESTEP = "timestep"
    EVENT = "event"
    RANGE = "range"
    SESSION = "session"


class Level(StrEnum):
    """COLD compression levels, finest first (XDB section 8.2)."""

    REPLY = "reply"
    SESSION = "session"
    DAY = "day"
    WEEK = "week"
    MONTH = "month"
    QUARTER = "quarter"
    YEAR = "year"


# Which role a timestep gets when the caller names none.
DEFAULT_ROLE = {
    EventType.INPUT: Role.USER,
    EventType.OUTPUT: Role.ASSISTANT,
    EventType.TOOL_CALL: Role.ASSISTANT,
    EventType.TOOL_RESPONSE: Role.TOOL,
    EventType.STEERING: Role.SYSTEM,
    EventType.SYSTEM: Role.SYSTEM,
}


# Field types every request module shares.
NonEmpty = Annotated[str, Field(min_length=1)]
Score = Annotated[float, Field(ge=0.0, le=1.0)]


def access_policy_field() -> Any:
    """The ``access_policy_id`` field of a request that stores an object (docs/policy.md)."""
    return Field(
        default=None,
        min_length=1,
        description="The access policy it is stored under; default: the database's.",
    )


# Whole numbers reach the store as 64-bit integers: a larger one is the caller's error,
# refused by validation, not an overflow inside a write.
INT64_MAX = 2**63 - 1
Int64 = Annotated[int, Field(ge=-(2**63), le=INT64_MAX)]


class DeferredModel(BaseModel):
    """Base of every xdb model: its validator and serializer are built when first used,
    not when its module is imported. A command line runs one operation, but building the
    catalog's ~260 models took ~0.2 s of every ``xdb`` start (before a command did
    anything). pydantic >= 2.14 builds a model once, under a lock: concurrent first uses
    (a server's threads) do not race."""

    model_config = ConfigDict(defer_build=True)


class Model(DeferredModel):
    """Base of every request: unknown fields are errors."""

    # Any string limit makes pydantic check every str field in Rust, which refuses text that
    # is not Unicode (a lone surrogate, "\ud800", as JavaScript's JSON.stringify can send)
    # with the field's name, before anything is written; unchecked, such text reached the
    # store and failed there. The limit itself is never the binding one.
    model_config = ConfigDict(extra="forbid", use_enum_values=False, str_max_length=1 << 40)


class Caller(DeferredModel):
    """Who an operation runs for: an identity, its roles and the treaties it acts under.

    Roles xdb knows (docs/policy.md): ``self`` (the agent; sees every stable and candidate
    concept but hushed ones), ``admin`` (manages policies, treaties, hush and keys),
    ``auditor`` (reads the audit log; sees everything, hushed concepts included). A caller
    with none of them sees only the concepts its treaties' and its own disclosure policies
    allow."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(default="self", min_length=1, description="Who is calling.")
    roles: tuple[str, ...] = Field(default=("self",), description="self, admin, auditor, ...")
    treaty_ids: tuple[str, ...] = Field(default=(), description="Treaties the caller acts under.")
    disclosure_policy_id: str | None = Field(
        default=None, description="A disclosure policy of its own (for self: what it perceives)."
    )

    def has(self, role: str) -> bool:
        return role in self.roles


class TickRange(Model):
    """An inclusive range of ticks within one session."""

    start: int = Field(
        ge=0,
        le=INT64_MAX,
        validation_alias=AliasChoices("start", "start_tick"),
        description="First tick.",
    )
    end: int = Field(
        ge=0,
        le=INT64_MAX,
        validation_alias=AliasChoices("end", "end_tick"),
        description="Last tick (inclusive).",
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


# A page of a listing: its size, and where the previous page ended (every room's listings
# take it; no docstring: it would become the schema's description).
class Page(Model):
    page_size: int = Field(default=20, ge=1, le=1000)
    cursor: str | None = Field(default=None, description="next_cursor of the previous page.")
