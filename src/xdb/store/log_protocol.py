"""The log's part of the ``Store`` protocol (``xdb.store.protocol``): timesteps, sessions,
tags and comments."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from xdb.models.log_objects import Comment, SessionSummary, Tag, TagApplication, Timestep
from xdb.store.types import NewEpisode, NewTimestep, ResolvedTarget, TimestepFilter


class LogStore(Protocol):
    """The experience log: timesteps, sessions, tags and comments."""

    def record(
        self,
        items: Sequence[NewTimestep],
        close_event: Callable[[Sequence[Timestep]], NewEpisode] | None = None,
        audit_by: tuple[str, str] | None = None,
    ) -> list[tuple[str, int]]:
        """Append timesteps in order in one transaction; return (timestep_id, tick) each.

        With ``close_event``, each event a timestep ends (``event_end`` and an
        ``event_id``) becomes the episode ``close_event(its timesteps)`` returns, written
        in the same transaction. With ``audit_by`` (caller, operation), each timestep is
        also appended to the audit log, as recorded, in the same transaction.
        """
        ...

    def latest_session(self) -> str | None:
        """The session with the most recent activity, if any, of those no hook made (a
        session's origin, ``store.session_origin``): a handle's default session."""
        ...

    def claim_session(self, candidate: str, ts_us: int) -> str:
        """``latest_session``, or ``candidate`` made as a new empty session when there is
        none, decided in one write transaction: processes that start on an empty database
        at once all get the same session."""
        ...

    def get_tag(self, tag_id: str) -> Tag | None: ...

    def find_tags(self, name: str, tag_type: str | None = None) -> list[Tag]: ...

    def create_tag(self, tag: Tag, access_policy_id: str | None = None) -> tuple[Tag, bool]:
        """Insert a tag unless one of the same type and name exists; (tag, created). A new
        tag is stored under ``access_policy_id`` (None: the default)."""
        ...

    def apply_tag(
        self, application: TagApplication, target: ResolvedTarget, new_tag: Tag | None
    ) -> tuple[Tag, bool, int]:
        """Check the target, create ``new_tag`` if given, store the application, atomically.

        Returns the tag applied, whether the target did not carry it before (true for a tag
        created here), and how many timesteps it covers.
        Raises NotFound when the target does not exist.
        """
        ...

    def add_comment(
        self, comment: Comment, target: ResolvedTarget | None, access_policy_id: str | None = None
    ) -> None: ...

    def query(
        self, flt: TimestepFilter, after: tuple[int, int] | None, limit: int
    ) -> tuple[list[Timestep], int, tuple[int, int] | None]:
        """Matching timesteps after a keyset position; (page, total_count, next_key)."""
        ...

    def recent(self, session_id: str, n: int) -> list[Timestep]: ...

    def list_tags(self, tag_type: str | None, bud_status: str | None) -> list[Tag]: ...

    def annotations(
        self, session_id: str, ticks: tuple[int, int] | None, limit: int
    ) -> tuple[list[tuple[TagApplication, Tag]], list[Comment]]:
        """A session's tag applications and comments (``tagging.session_annotations``)."""
        ...

    def stats(self) -> dict[str, Any]:
        """Counts by tag type and fidelity, totals, storage bytes."""
        ...

    def sessions(self, limit: int) -> tuple[int, list[SessionSummary]]: ...

    def session_summary(self, session_id: str) -> SessionSummary | None: ...
