"""Progressive compression (``xdb_maintenance``): records merge into coarser ones, REPLY ->
SESSION -> DAY -> WEEK -> MONTH -> QUARTER -> YEAR, by age and under storage pressure.

- **By age**: a record of one level merges into the next once it ended longer ago than the
  contract's ``compression_after_days`` for that next level. Full episodes (written by
  add_episode, or made from events not yet compacted) are not aged away.
- **Under pressure**: while the database uses more than ``cold_storage_bytes``, the oldest
  of the finest data (full episodes and reply records first) merges into the next level
  whatever its age, a batch at a time, until it fits or nothing more may be merged.
- **Never**: HOT, WARM and SUBMITTED timesteps (compaction's business, and pinned or held
  evidence never); episodes frozen into a dataset (what training runs read); sessions
  holding an incident; data under an access policy a treaty in force reads.

Children merge only with others of the same namespace and access policy (a record is as
private as what it replaced). Each batch is one transaction, so a killed run loses nothing
and the next run goes on where it stopped. Then the audit log's records older than its
retention go, and the freed space is given back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from xdb.errors import Conflict
from xdb.fidelity import record_merge
from xdb.fidelity.compaction import guard, may_delete
from xdb.fidelity.contract import DATABASE, effective, stored_contracts
from xdb.fidelity.fidelity_models import LEVELS, Level, MaintenanceResponse
from xdb.store.episode_row import default_summary
from xdb.store.fidelity import tokens_of
from xdb.store.fidelity_methods import Merge
from xdb.timeutil import now_us

if TYPE_CHECKING:
    from xdb.fidelity.summarize import Summarizer
    from xdb.ops.registry import Context

DAY_US = 86_400 * 1_000_000
READ = 2000  # candidates read at a time under pressure (oldest first)
# By age, every candidate of a level is read at once (a small tuple each): read in start
# order a batch at a time, a session's replies could fall in two batches and make two
# session records.
AGE_READ = 1_000_000
GROUPS = 50  # merges per transaction

Candidate = tuple[str, str, str | None, int, int, str | None]


def next_level(level: str | None, session_id: str | None) -> str | None:
    """Where a candidate goes: a full episode or reply to its session (or, without one,
    its day), each level to the next; None after year."""
    if level is None or level == Level.REPLY:
        return Level.SESSION.value if session_id is not None else Level.DAY.value
    i = LEVELS.index(Level(level))
    return LEVELS[i + 1].value if i + 1 < len(LEVELS) else None


def period(level: str, start_us: int) -> str:
    """The calendar period (UTC) a record of ``level`` covers, from its start."""
    t = datetime.fromtimestamp(start_us / 1e6, UTC)
    if level == Level.DAY:
        return t.strftime("%Y-%m-%d")
    if level == Level.WEEK:
        year, week, _ = t.isocalendar()
        return f"{year}-W{week:02d}"
    if level == Level.MONTH:
        return t.strftime("%Y-%m")
    if level == Level.QUARTER:
        return f"{t.year}-Q{(t.month - 1) // 3 + 1}"
    return str(t.year)


def group_key(target: str, c: Candidate) -> tuple[Any, ...]:
    _id, namespace, session, start, _end, policy = c
    where = session if target == Level.SESSION else period(target, start)
    return (namespace, policy or "", target, where)


class Run:
    """One maintenance run's state and tallies."""

    def __init__(
        self,
        ctx: Context,
        summarizer: Summarizer,
        deadline: float | None,
        progress: Callable[[int], None] | None,
    ) -> None:
        self.ctx = ctx
        self.summarizer = summarizer
        self.deadline = deadline
        self.progress = progress
        self.contract = effective(ctx.store, ctx.caller.id)
        self.members, self.incident_sessions = ctx.store.retained()
        self.treaty_policies = _treaty_policies(ctx)
        self.deletable: dict[str | None, bool] = {}
        self.compressed = 0
        self.protected: set[str] = set()
        self.by_level: dict[str, int] = {}
        self.finished = True
        self.shed = 0  # bytes of text merged away (what a store without exact sizes counts)

    def out_of_time(self) -> bool:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.finished = False
            return True
        return False

    def kept(self, c: Candidate) -> bool:
        """Whether the retention rules keep ``c`` whole, or the caller may not delete it."""
        keep = (
            c[0] in self.members
            or (c[2] is not None and c[2] in self.incident_sessions)
            or (c[5] or "") in self.treaty_policies
        )
        if keep:
            self.protected.add(c[0])
        return keep or not may_delete(self.ctx, c[5], self.deletable)

    def merge(self, groups: Sequence[tuple[tuple[Any, ...], list[Candidate]]]) -> int:
        """Merge each group into one record, in one transaction; how many children went."""
        store = self.ctx.store
        ids = [c[0] for _, cs in groups for c in cs]
        rows = store.memory_records_by_ids(ids)
        episodes = store.episodes_by_ids(ids)
        at = now_us()
        merges = []
        for (namespace, policy, target, _where), children in groups:
            parts = []
            replaced = []
            for c in children:
                stored = episodes.get(c[0])
                if stored is None:
                    continue
                self.shed += len(stored.episode.content) + len(stored.episode.summary)
                row = rows.get(c[0])
                if row is None:
                    parts.append(
                        record_merge.part_of_episode(
                            stored.episode, tokens_of(stored.episode.content, None)
                        )
                    )
                else:
                    parts.append(record_merge.part_of_record(row, stored.episode))
                    replaced.append((row.id, row.level))
            if not parts:
                continue
            content = self.summarizer.summarize(
                [p.text for p in parts],
                level=target,
                max_chars=record_merge.CONTENT_CHARS.get(
                    target, record_merge.DEFAULT_CONTENT_CHARS
                ),
            )
            sessions = {c[2] for c in children}
            session = sessions.pop() if len(sessions) == 1 else None
            record, episode = record_merge.build(
                level=target,
                parts=parts,
                summary=default_summary(content) if content else "",
                content=content,
                namespace=namespace,
                session_id=session,
                tick_span=None,
                time_span=(min(c[3] for c in children), max(c[4] for c in children)),
                replaced=replaced,
                policy=policy or None,
                at=at,
                by=self.ctx.caller.id,
            )
            merges.append(Merge([c[0] for c in children if c[0] in episodes], record, episode))
        if not merges:
            return 0
        self.shed -= sum(len(m.episode.content) + len(m.episode.summary) for m in merges)
        try:
            merged = store.merge_records(merges)
        except Conflict:  # another run merged some of these first: read them again
            return 0
        self.compressed += merged
        for m in merges:
            self.by_level[m.record.level] = self.by_level.get(m.record.level, 0) + 1
        if self.progress is not None:
            self.progress(self.compressed)
        return merged

    def promote(
        self,
        level: str | None,
        before_us: int,
        pressure: Callable[[], bool],
        read: int = READ,
    ) -> bool:
        """Merge candidates of ``level`` that ended before ``before_us`` into the next
        level, oldest first, a batch at a time, while ``pressure()`` holds; whether any
        were merged."""
        store = self.ctx.store
        merged_any = False
        skip: set[str] = set()
        while pressure() and not self.out_of_time():
            found = [
                c
                for c in store.compression_candidates(level, before_us, read + len(skip))
                if c[0] not in skip
            ]
            if not found:
                return merged_any
            groups: dict[tuple[Any, ...], list[Candidate]] = {}
            for c in found[:read]:
                target = next_level(level, c[2])
                if target is None or self.kept(c):
                    skip.add(c[0])
                    continue
                groups.setdefault(group_key(target, c), []).append(c)
            if not groups:
                if len(found) <= read:
                    return merged_any
                continue
            batch = list(groups.items())
            for start in range(0, len(batch), GROUPS):
                part = batch[start : start + GROUPS]
                if self.merge(part):
                    merged_any = True
                else:  # gone meanwhile: not asked for again in this run
                    skip.update(c[0] for _, cs in part for c in cs)
                if not pressure() or self.out_of_time():
                    break
        return merged_any


def _treaty_policies(ctx: Context) -> set[str]:
    """Access policies that a treaty in force reads (data under treaty obligations); "" for
    the database's default policy when it is one of them."""
    from xdb.policy.access_rules import default_policy
    from xdb.policy.load import live

    objects = ctx.policy_objects
    now = now_us()
    treaties = {t.id for t in objects["treaty"].values() if t.active and live(t.expires_at, now)}
    read = {p.id for p in objects["access_policy"].values() if set(p.read_treaties) & treaties}
    if set(default_policy(objects).read_treaties) & treaties:
        read.add("")
    return read


def maintain(
    ctx: Context,
    summarizer: Summarizer,
    max_seconds: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> MaintenanceResponse:
    guard(ctx, "maintenance")
    started = time.monotonic()
    run = Run(ctx, summarizer, None if max_seconds is None else started + max_seconds, progress)
    store = ctx.store
    bytes_before = store.storage_bytes()
    quota = run.contract.cold_storage_bytes
    now = now_us()
    # By age, finest first: reply records into sessions, then each level into the next.
    for level in LEVELS[:-1]:
        target = next_level(level.value, "s")
        assert target is not None
        age = run.contract.compression_after_days.get(Level(target))
        if age is not None:
            run.promote(level.value, now - int(age * DAY_US), lambda: True, AGE_READ)
    # Under pressure: the oldest finest data first, whatever its age.

    def over() -> bool:
        estimate = 0 if store.live_bytes_exact else run.shed - shed_before
        return store.storage_bytes(live=True) - estimate > quota

    shed_before = run.shed
    pressed = False
    for finest in [None, *[lv.value for lv in LEVELS[:-1]]]:
        if not over() or run.out_of_time():
            break
        pressed = run.promote(finest, now + 1, over) or pressed
    # The audit log is pruned only to a retention an admin chose: never by default.
    pruned = 0
    if "audit_log_retention_days" in stored_contracts(store).get(DATABASE, {}):
        days = run.contract.audit_log_retention_days
        pruned = store.audit_prune(now - days * DAY_US, now)
    store.reclaim_space(full=pressed)
    if run.by_level and ctx.indexer is not None:
        ctx.indexer.notify()  # the new records' episodes need vectors
    bytes_after = store.storage_bytes()
    return MaintenanceResponse(
        records_compressed=run.compressed,
        records_made=sum(run.by_level.values()),
        by_level=run.by_level,
        protected_kept=len(run.protected),
        audit_records_pruned=pruned,
        bytes_before=bytes_before,
        bytes_after=bytes_after,
        bytes_freed=max(bytes_before - bytes_after, 0),
        under_quota=bytes_after <= quota,
        finished=run.finished,
        duration_ms=int((time.monotonic() - started) * 1000),
    )
