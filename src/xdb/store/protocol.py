"""The storage protocol every backend implements.

The operations layer validates requests and makes ids; a store keeps rows, assigns ticks
inside its write transaction (so concurrent writers never share one), and answers filters.
SQL dialect details stay inside each implementation.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from xdb.models.log import Comment, SessionSummary, Tag, TagApplication, Timestep


class NewTimestep(NamedTuple):
    """A timestep to append; the store assigns its tick and id."""

    session_id: str
    ts_us: int
    event_type: str
    role: str
    content: str
    token_id: int | None
    event_id: str | None
    event_start: bool
    event_end: bool
    activations: dict[str, float]


@dataclass(frozen=True)
class ResolvedTarget:
    """Where a tag application or comment points, checked to exist."""

    target_type: str
    session_id: str
    tick: int | None = None
    event_id: str | None = None
    range_start: int | None = None
    range_end: int | None = None


@dataclass
class TimestepFilter:
    """A conjunction of conditions on timesteps; None means no condition."""

    session_ids: list[str] | None = None
    tick_start: int | None = None
    tick_end: int | None = None
    time_start_us: int | None = None
    time_end_us: int | None = None
    event_types: list[str] | None = None
    tag_ids: list[str] = field(default_factory=list)
    activations: dict[str, tuple[float, float]] = field(default_factory=dict)
    text: str | None = None
    descending: bool = False


class Store(Protocol):
    backend: str
    location: str

    def record(self, items: Sequence[NewTimestep]) -> list[tuple[str, int]]:
        """Append timesteps in order in one transaction; return (timestep_id, tick) each."""
        ...

    def latest_session(self) -> str | None:
        """The session with the most recent activity, if any."""
        ...

    def get_tag(self, tag_id: str) -> Tag | None: ...

    def find_tags(self, name: str, tag_type: str | None = None) -> list[Tag]: ...

    def create_tag(self, tag: Tag) -> tuple[Tag, bool]:
        """Insert a tag unless one of the same type and name exists; (tag, created)."""
        ...

    def apply_tag(
        self, application: TagApplication, target: ResolvedTarget, new_tag: Tag | None
    ) -> tuple[Tag, bool, int]:
        """Check the target, create ``new_tag`` if given, store the application, atomically.

        Returns the tag applied, whether it was created, and how many timesteps it covers.
        Raises NotFound when the target does not exist.
        """
        ...

    def add_comment(self, comment: Comment, target: ResolvedTarget | None) -> None: ...

    def query(
        self, flt: TimestepFilter, after: tuple[int, int] | None, limit: int
    ) -> tuple[list[Timestep], int, tuple[int, int] | None]:
        """Matching timesteps after a keyset position; (page, total_count, next_key)."""
        ...

    def recent(self, session_id: str, n: int) -> list[Timestep]: ...

    def list_tags(self, tag_type: str | None, bud_status: str | None) -> list[Tag]: ...

    def stats(self) -> dict[str, Any]:
        """Counts by tag type and fidelity, totals, storage bytes."""
        ...

    def sessions(self, limit: int) -> tuple[int, list[SessionSummary]]: ...

    def session_summary(self, session_id: str) -> SessionSummary | None: ...

    def export_records(self) -> Iterator[dict[str, Any]]:
        """Every stored object as a plain dict with a "kind" key, in a restorable order."""
        ...

    def import_records(self, records: Iterable[dict[str, Any]]) -> dict[str, int]:
        """Restore exported records in one transaction; existing ids are skipped."""
        ...

    def close(self) -> None: ...
