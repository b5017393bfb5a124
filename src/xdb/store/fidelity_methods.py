"""The store methods of fidelity (holds, the HOT window, compaction, compression), shared by
both stores (``SharedMethods``): each runs ``store.fidelity`` SQL on a reader or in one
write transaction. A store supplies its own episode insert and delete, its episode lock,
and how a timestep leaves its text index (``EpisodeHooks``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from xdb.errors import Conflict, NotFound
from xdb.store import cold_records, fidelity
from xdb.store.cold_records import RecordRow
from xdb.store.shared_methods import SharedMethods
from xdb.store.types import NewEpisode


@dataclass(frozen=True)
class EpisodeHooks:
    insert: Callable[[Any, NewEpisode], int]
    delete: Callable[[Any, str], int | None]
    lock: Callable[[Any], None]
    # Delete the listed ticks of a session that are still HOT; how many went.
    delete_ticks: Callable[[Any, str, Sequence[int]], int]


@dataclass
class CompactedReply:
    """One reply's worth of compacted ticks, and what stands for them."""

    session_id: str
    ticks: list[int]
    record: RecordRow
    episode: NewEpisode | None  # None: ``record.id`` names an episode kept as the record
    adopted_provenance: dict[str, Any] | None = None


@dataclass
class Merge:
    """Records and episodes merged into one coarser record."""

    children: list[str]  # episode ids (each a record's or a full episode's)
    record: RecordRow
    episode: NewEpisode


class FidelityMethods(SharedMethods):
    _episode_hooks: EpisodeHooks

    # ------------------------------------------------------------------ holds

    def ticks_present(self, session: str, ticks: Sequence[int]) -> dict[int, tuple[int, str]]:
        d = self._flavor.d
        return self._on_reader(lambda c: fidelity.ticks_present(c, d, session, ticks))

    def add_holds(
        self,
        kind: str,
        holder: str,
        reason: str | None,
        ticks: dict[str, dict[int, int]],
        at: int,
        by: str,
        quota: int | None = None,
    ) -> int:
        """Hold ticks (session -> tick -> tokens) in one transaction; how many are newly
        held. With ``quota``, refuse (Conflict, nothing held) when the holder's WARM tokens
        would exceed it."""
        d = self._flavor.d

        def job(c: Any) -> int:
            for session, by_tick in ticks.items():  # compacted since they were read?
                present = fidelity.ticks_present(c, d, session, list(by_tick))
                gone = sorted(set(by_tick) - set(present))
                if gone:
                    raise NotFound(
                        f"no such timestep: ts-{session}-{gone[0]} (compacted into a COLD"
                        " record meanwhile)",
                        field="timestep_ids",
                    )
            if quota is not None:
                used = fidelity.warm_tokens(c, d, holder)
                mine = {s: set(t) for s, t in fidelity.held_by(c, d, kind, holder).items()}
                adding = sum(
                    tokens
                    for session, by_tick in ticks.items()
                    for tick, tokens in by_tick.items()
                    if tick not in mine.get(session, ())
                )
                if used + adding > quota:
                    raise Conflict(
                        f"pinning these timesteps needs {adding} tokens of WARM quota and"
                        f" {max(quota - used, 0)} of {quota} are left; unpin others"
                        " (xdb_unpin) or raise warm_quota_tokens (set_resource_contract)",
                        field="timestep_ids",
                    )
            return sum(
                fidelity.add_holds(c, d, kind, holder, reason, session, by_tick, at, by)
                for session, by_tick in ticks.items()
            )

        result: int = self._in_transaction(job)
        return result

    def drop_holds(self, kind: str, holder: str, ticks: dict[str, Sequence[int]]) -> int:
        d = self._flavor.d

        def job(c: Any) -> int:
            return sum(
                fidelity.drop_holds(c, d, kind, holder, session, t) for session, t in ticks.items()
            )

        result: int = self._in_transaction(job)
        return result

    def held_by(self, kind: str, holder: str) -> dict[str, list[int]]:
        d = self._flavor.d
        return self._on_reader(lambda c: fidelity.held_by(c, d, kind, holder))

    def hold_tokens(self, holder: str | None) -> tuple[int, int]:
        """(WARM tokens ``holder`` pins, tokens held as submitted evidence)."""
        d = self._flavor.d
        return self._on_reader(
            lambda c: (fidelity.warm_tokens(c, d, holder), fidelity.submitted_tokens(c))
        )

    # ------------------------------------------------------------------ the HOT window

    def hot_window(self, session: str) -> tuple[int, int, int]:
        d = self._flavor.d
        return self._on_reader(lambda c: fidelity.hot_window(c, d, session))

    def compaction_cutoff(self, session: str, keep_tokens: int) -> int:
        """The first tick to keep when compacting ``session`` down to its newest
        ``keep_tokens`` HOT tokens (-1: nothing to compact; ``fidelity.compaction_cutoff``)."""
        d = self._flavor.d
        return self._on_reader(lambda c: fidelity.compaction_cutoff(c, d, session, keep_tokens))

    def compactable(
        self, session: str, below: int, limit: int, after: int = -1
    ) -> list[tuple[Any, ...]]:
        """The oldest HOT ticks of ``session`` after tick ``after`` and before tick
        ``below``, at most ``limit`` (``fidelity.COMPACT_COLUMNS``)."""
        d = self._flavor.d
        return self._on_reader(lambda c: fidelity.compactable(c, d, session, below, limit, after))

    def reply_annotations(
        self, session: str, lo: int, hi: int, events: Sequence[str]
    ) -> tuple[
        list[tuple[str, str | None, int | None, int | None, int | None]],
        list[str],
        list[dict[str, Any]],
    ]:
        """Tag applications, comment ids and exemplar ids on ticks ``lo``..``hi``."""
        d = self._flavor.d

        def read(c: Any) -> Any:
            tags, comments = fidelity.tick_annotations(c, d, session, lo, hi, events)
            return tags, comments, fidelity.exemplars_on(c, d, session, lo, hi)

        found: Any = self._on_reader(read)
        return found  # type: ignore[no-any-return]

    def event_episodes(
        self, session: str, events: Sequence[str], lo_us: int, hi_us: int
    ) -> dict[str, tuple[str, str | None]]:
        """(id, access policy) of the episode made from each of ``events`` of ``session``
        (its provenance names the event) within ``lo_us``..``hi_us``, of those no record
        yet."""
        d = self._flavor.d
        m = d.mark
        wanted = set(events)

        def read(c: Any) -> dict[str, tuple[str, str | None]]:
            out: dict[str, tuple[str, str | None]] = {}
            if not wanted:
                return out
            for ep_id, provenance, policy in c.execute(
                "SELECT id, provenance, access_policy_id FROM episodes"
                f" WHERE session_id = {m} AND start_us <= {m} AND end_us >= {m} AND NOT EXISTS"
                " (SELECT 1 FROM memory_records r WHERE r.namespace = episodes.namespace"
                " AND r.id = episodes.id)"
                " ORDER BY start_us, seq",
                (session, hi_us, lo_us),
            ):
                details = _json(provenance).get("details") or {}
                event = details.get("event_id")
                if event in wanted and event not in out:
                    out[event] = (str(ep_id), policy)
            return out

        return self._on_reader(read)

    def compact_replies(
        self, replies: Sequence[CompactedReply], at: int, count: bool = True
    ) -> int:
        """Delete each reply's ticks and write what stands for them, in one transaction;
        refused (Conflict, nothing changed) when a tick is no longer HOT and present.
        ``count``: this is a compaction's first batch (the session's count goes up)."""
        d = self._flavor.d
        hooks = self._episode_hooks

        def job(c: Any) -> int:
            if any(r.episode is not None for r in replies):
                hooks.lock(c)
            sessions = set()
            # Stored edges on ticks are rare: look for them once, not per reply.
            tick_edges = c.execute(
                "SELECT 1 FROM graph_edges WHERE src LIKE 'ts-%' OR dst LIKE 'ts-%' LIMIT 1"
            ).fetchone()
            for reply in replies:
                gone = hooks.delete_ticks(c, reply.session_id, reply.ticks)
                if gone != len(reply.ticks):
                    raise Conflict(
                        "the timesteps changed while being compacted (pinned, or compacted by"
                        " another process); compact again",
                        field="session_id",
                    )
                if reply.episode is not None:
                    hooks.insert(c, reply.episode)
                elif reply.adopted_provenance is not None:
                    c.execute(
                        f"UPDATE episodes SET provenance = {d.mark} WHERE id = {d.mark}",
                        (json.dumps(reply.adopted_provenance), reply.record.id),
                    )
                cold_records.insert_record(c, d, reply.record)
                if tick_edges:
                    cold_records.repoint_ticks(c, d, reply.session_id, reply.ticks, reply.record.id)
                sessions.add(reply.session_id)
            for session in sessions if count and replies else ():
                cold_records.count_compaction(c, d, session, at)
            return sum(len(r.ticks) for r in replies)

        result: int = self._in_transaction(job)
        return result

    # ------------------------------------------------------------------ records

    def memory_records(
        self,
        sessions: Sequence[str] | None,
        ticks: tuple[int | None, int | None],
        times: tuple[int | None, int | None],
        descending: bool,
        limit: int,
    ) -> list[RecordRow]:
        d = self._flavor.d
        return self._on_reader(
            lambda c: cold_records.records_where(c, d, sessions, ticks, times, descending, limit)
        )

    def memory_records_by_ids(self, ids: Sequence[str]) -> dict[str, RecordRow]:
        d = self._flavor.d
        return self._on_reader(lambda c: cold_records.records_by_ids(c, d, ids))

    def compression_candidates(
        self, level: str | None, before_us: int, limit: int
    ) -> list[tuple[str, str, str | None, int, int, str | None]]:
        d = self._flavor.d
        return self._on_reader(lambda c: cold_records.candidates(c, d, level, before_us, limit))

    def visible_ids(self, kind: str, ids: Sequence[str]) -> set[str]:
        d = self._flavor.d
        return self._on_reader(lambda c: cold_records.visible_ids(c, d, kind, ids))

    def record_levels(self, concept_ids: Sequence[str]) -> dict[int, str]:
        d = self._flavor.d
        return self._on_reader(lambda c: cold_records.record_levels(c, d, concept_ids))

    def cold_timesteps(self) -> int:
        return self._on_reader(cold_records.cold_timesteps)

    def retained(self) -> tuple[set[str], set[str]]:
        return self._on_reader(cold_records.retained)

    def merge_records(self, merges: Sequence[Merge]) -> int:
        """Replace each merge's children by its record, in one transaction; refused
        (Conflict) when a child is gone."""
        d = self._flavor.d
        hooks = self._episode_hooks
        m = d.mark

        def job(c: Any) -> int:
            hooks.lock(c)
            merged = 0
            for merge in merges:
                hooks.insert(c, merge.episode)
                for child in merge.children:
                    cold_records.repoint(c, d, child, merge.record.id)
                    if hooks.delete(c, child) is None:
                        raise Conflict(
                            f"episode {child!r} went while maintenance merged it; run again",
                            field="session_id",
                        )
                    c.execute(
                        f"UPDATE memory_records SET merged_into = {m} WHERE id = {m}",
                        (merge.record.id, child),
                    )
                    merged += 1
                cold_records.insert_record(c, d, merge.record)
            return merged

        result: int = self._in_transaction(job)
        return result


def _json(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    loaded = json.loads(value) if value else {}
    return loaded if isinstance(loaded, dict) else {}
