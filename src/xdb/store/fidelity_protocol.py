"""Fidelity's part of the ``Store`` protocol (``xdb.store.protocol``): holds, the HOT
window, compaction and compression, and the space the database takes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from xdb.store.cold_records import RecordRow
    from xdb.store.fidelity_methods import CompactedReply, Merge


class FidelityStore(Protocol):
    """Holds (pins, submitted evidence), the HOT window, compaction and compression
    (``store/fidelity_methods.py``, shared by both stores)."""

    def ticks_present(self, session: str, ticks: Sequence[int]) -> dict[int, tuple[int, str]]:
        """(tokens, fidelity) of each of ``ticks`` of ``session`` the caller reads."""
        ...

    def add_holds(
        self,
        kind: str,
        holder: str,
        reason: str | None,
        ticks: dict[str, dict[int, int]],
        at: int,
        by: str,
        quota: int | None = None,
    ) -> int: ...

    def drop_holds(self, kind: str, holder: str, ticks: dict[str, Sequence[int]]) -> int: ...

    def held_by(self, kind: str, holder: str) -> dict[str, list[int]]: ...

    def hold_tokens(self, holder: str | None) -> tuple[int, int]: ...

    def hot_window(self, session: str) -> tuple[int, int, int]:
        """(HOT tokens, current tick, compactions so far) of ``session``."""
        ...

    def compaction_cutoff(self, session: str, keep_tokens: int) -> int: ...

    def compactable(
        self, session: str, below: int, limit: int, after: int = -1
    ) -> list[tuple[Any, ...]]: ...

    def reply_annotations(
        self, session: str, lo: int, hi: int, events: Sequence[str]
    ) -> tuple[
        list[tuple[str, str | None, int | None, int | None, int | None]],
        list[str],
        list[dict[str, Any]],
    ]: ...

    def event_episodes(
        self, session: str, events: Sequence[str], lo_us: int, hi_us: int
    ) -> dict[str, tuple[str, str | None]]: ...

    def compact_replies(
        self, replies: Sequence[CompactedReply], at: int, count: bool = True
    ) -> int: ...

    def memory_records(
        self,
        sessions: Sequence[str] | None,
        ticks: tuple[int | None, int | None],
        times: tuple[int | None, int | None],
        descending: bool,
        limit: int,
    ) -> list[RecordRow]:
        """Records of ``sessions`` (None: any) overlapping the tick and time ranges."""
        ...

    def memory_records_by_ids(self, ids: Sequence[str]) -> dict[str, RecordRow]: ...

    def compression_candidates(
        self, level: str | None, before_us: int, limit: int
    ) -> list[tuple[str, str, str | None, int, int, str | None]]:
        """(id, namespace, session, start_us, end_us, access policy) of records of
        ``level`` (None: full episodes) that ended before ``before_us``, oldest first."""
        ...

    def visible_ids(self, kind: str, ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` (``kind`` comment or exemplar) that exist for the caller."""
        ...

    def record_levels(self, concept_ids: Sequence[str]) -> dict[int, str]:
        """seq -> compression level of each record carrying any of ``concept_ids``."""
        ...

    def cold_timesteps(self) -> int:
        """Timesteps compacted into the COLD records there are (that the caller reads)."""
        ...

    def retained(self) -> tuple[set[str], set[str]]:
        """(episode ids frozen into datasets, sessions holding an incident episode)."""
        ...

    def merge_records(self, merges: Sequence[Merge]) -> int: ...

    def storage_bytes(self, live: bool = False) -> int:
        """Bytes the database takes (SQLite: its file and log; PostgreSQL: its relations);
        ``live``: less what the file holds free (SQLite's free pages)."""
        ...

    # Whether ``storage_bytes(live=True)`` drops as rows are deleted (SQLite's free pages);
    # when not (PostgreSQL), maintenance estimates what it freed.
    live_bytes_exact: bool

    def reclaim_space(self, full: bool = False) -> None:
        """Return freed space (SQLite incremental vacuum; PostgreSQL VACUUM, or with ``full``
        VACUUM FULL)."""
        ...
