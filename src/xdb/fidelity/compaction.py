"""Compaction: a session's oldest unpinned HOT timesteps become COLD reply records.

The newest HOT tokens up to ``keep_tokens`` stay (and always the session's newest tick);
everything HOT before them is read a batch at a time, grouped into replies (an event's
ticks, or a run of ticks outside events), summarized, and replaced by one record per reply
in one transaction per batch: the ticks go as their records come, so each tick is
compacted once and a crash loses nothing (the batch is there, or its records are).

An event's episode (made when the event ended) becomes the reply's record itself instead
of a second copy, unless exemplars sit on the ticks (their labels go on a new record).

``ContextWatch`` compacts by itself when a recording pushes a session's HOT window past
the contract's threshold.
"""

from __future__ import annotations

import contextlib
import heapq
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from xdb.errors import Conflict, PermissionDenied, XdbError
from xdb.fidelity import record_merge
from xdb.fidelity.contract import effective
from xdb.fidelity.fidelity_models import CompactResponse
from xdb.fidelity.record_merge import Part
from xdb.gcpause import collector_paused
from xdb.store.episode_row import default_summary
from xdb.store.fidelity import tokens_of
from xdb.store.fidelity_methods import CompactedReply
from xdb.store.row_models import parsed_json
from xdb.timeutil import now_us

if TYPE_CHECKING:
    from xdb.fidelity.summarize import Summarizer
    from xdb.ops.registry import Context

log = logging.getLogger(__name__)

BATCH = 2000  # ticks per transaction
RUN = 256  # ticks outside any event that make one reply at most
RETRIES = 3
LIMITS_FOR = 60.0  # seconds a contract's limits are trusted


class Tick(NamedTuple):
    tick: int
    ts_us: int
    event_type: str
    event_id: str | None
    content: str
    token_id: int | None
    policy: str | None
    activations: str | dict[str, Any] | None  # as stored: JSON text, or decoded by the driver

    @property
    def tokens(self) -> int:
        return tokens_of(self.content, self.token_id)


def _ticks(rows: Sequence[tuple[Any, ...]]) -> list[Tick]:
    # ``fidelity.COMPACT_COLUMNS`` in Tick's order, typed by the schema already (BIGINT,
    # TEXT): a tuple each, no casts.
    return [Tick._make(row) for row in rows]


def reply_concepts(group: Sequence[Tick], k: int) -> dict[str, tuple[float, int]]:
    """A reply's ``k`` concepts of most weight, each with (its highest activation, the ticks
    carrying it). Weight is the two multiplied, ties broken by the concept id as Python orders
    strings (``record_merge.top_concepts`` ranks them so): only these ``k`` can be the reply's."""
    best: dict[str, float] = {}
    count: dict[str, int] = {}
    seen = best.get
    for t in group:
        acts = t.activations
        if acts is None:
            continue
        for concept, score in parsed_json(acts).items():
            old = seen(concept)
            if old is None:
                best[concept] = score
                count[concept] = 1
            else:
                count[concept] += 1
                if score > old:
                    best[concept] = score
    top = heapq.nsmallest(k, [(-score * count[c], c) for c, score in best.items()])
    return {c: (float(best[c]), count[c]) for _, c in top}


def group_replies(ticks: Sequence[Tick], batch_full: bool) -> list[list[Tick]]:
    """Consecutive ticks of one event (or up to ``RUN`` outside events) under one access
    policy. When the batch was cut short, its last group may go on in the next batch: it
    waits for it (unless it is the only one)."""
    groups: list[list[Tick]] = []
    for t in ticks:
        last = groups[-1] if groups else None
        if (
            last is not None
            and last[-1].event_id == t.event_id
            and last[-1].policy == t.policy
            and (t.event_id is not None or len(last) < RUN)
        ):
            last.append(t)
        else:
            groups.append([t])
    if batch_full and len(groups) > 1:
        groups.pop()
    return groups


def _ranges(session: str, ticks: Sequence[int]) -> list[list[Any]]:
    """[session, first, last] runs of ``ticks`` (ascending, as a reply's are)."""
    out: list[list[Any]] = []
    for t in ticks:
        if out and t == out[-1][2] + 1:
            out[-1][2] = t
        else:
            out.append([session, t, t])
    return out


@dataclass
class _Annotations:
    tags: list[tuple[str, str | None, int | None, int | None, int | None]]
    comments: list[str]
    exemplars: list[dict[str, Any]]


def _tag_counts(group: Sequence[Tick], notes: _Annotations) -> dict[str, int]:
    """Per tag, how many of the group's ticks it covers (applied to a tick, its event or a
    range over it)."""
    ticks = {t.tick for t in group}
    events = {t.event_id for t in group if t.event_id is not None}
    out: dict[str, int] = {}
    for tag_id, event_id, tick, lo, hi in notes.tags:
        if tick is not None:
            n = 1 if tick in ticks else 0
        elif event_id is not None:
            n = sum(1 for t in group if t.event_id == event_id) if event_id in events else 0
        elif lo is not None and hi is not None:
            n = sum(1 for t in ticks if lo <= t <= hi)
        else:
            n = 0
        if n:
            out[tag_id] = out.get(tag_id, 0) + n
    return out


def _reply(
    ctx: Context,
    session: str,
    group: Sequence[Tick],
    concepts: dict[str, tuple[float, int]],
    notes: _Annotations,
    adoptable: dict[str, tuple[str, str | None]],
    summarizer: Summarizer,
    at: int,
) -> CompactedReply:
    tokens_only = all(t.token_id is not None for t in group)
    texts = [t.content for t in group]
    content = summarizer.summarize(
        texts if tokens_only else ["\n".join(texts)],
        level="reply",
        max_chars=record_merge.CONTENT_CHARS["reply"],
    )
    ticks = [t.tick for t in group]
    lo, hi = ticks[0], ticks[-1]
    # Exemplars on tick ranges over the reply, under its policy: a label is as private as
    # its exemplar, and the record as its timesteps.
    exemplars = [x for x in notes.exemplars if x.get("access_policy_id") == group[0].policy]
    part = Part(
        text=content,
        concepts=concepts,
        weight=len(group),
        tokens=sum(t.tokens for t in group),
        tag_ids=_tag_counts(group, notes),
        lineage={"ticks": _ranges(session, ticks)},
        comment_ids=notes.comments,
        exemplar_ids=[str(x["id"]) for x in exemplars],
        labels=[
            {k: v for k, v in x.items() if k not in ("id", "access_policy_id")} for x in exemplars
        ],
        event_types=sorted({t.event_type for t in group}),
    )
    event = group[0].event_id
    found = adoptable.get(event) if event is not None and not notes.exemplars else None
    # An event's episode stands for one reply only, of its own policy.
    adopt = found[0] if found is not None and found[1] == group[0].policy else None
    record, episode = record_merge.build(
        level="reply",
        parts=[part],
        summary=default_summary(content) if content else "",
        content=content,
        namespace="default",
        session_id=session,
        tick_span=(lo, hi),
        time_span=(min(t.ts_us for t in group), max(t.ts_us for t in group)),
        replaced=[],
        policy=group[0].policy,
        at=at,
        by=ctx.caller.id,
        record_id=adopt,
    )
    if adopt is None:
        return CompactedReply(session, ticks, record, episode)
    stored = ctx.store.episodes_by_ids([adopt]).get(adopt)
    provenance = dict(stored.episode.provenance) if stored is not None else {}
    provenance["details"] = {**(provenance.get("details") or {}), **episode.provenance["details"]}
    return CompactedReply(session, ticks, record, None, provenance)


def _annotations(ctx: Context, session: str, ticks: Sequence[Tick]) -> _Annotations:
    events = sorted({t.event_id for t in ticks if t.event_id is not None})
    tags, comments, exemplars = ctx.store.reply_annotations(
        session, ticks[0].tick, ticks[-1].tick, events
    )
    return _Annotations(tags, comments, exemplars)


def guard(ctx: Context, what: str) -> None:
    """Compaction and maintenance rewrite whatever they reach: only a caller who reads every
    access policy in use runs them (what it may not delete it leaves alone)."""
    if ctx.store.reading is not None:
        raise PermissionDenied(
            f"{what} rewrites experience under access policies this caller does not read;"
            " run it as the agent or an admin who reads them all"
        )


def may_delete(ctx: Context, policy: str | None, cache: dict[str | None, bool]) -> bool:
    if policy not in cache:
        try:
            ctx.require_access(policy, "delete", "compressed experience")
            cache[policy] = True
        except PermissionDenied:
            cache[policy] = False
    return cache[policy]


def _replies(
    ctx: Context,
    session: str,
    groups: Sequence[Sequence[Tick]],
    adopted: set[str],
    summarizer: Summarizer,
    at: int,
) -> list[CompactedReply]:
    """What stands for each of ``groups``; an event's episode adopted as its record is
    added to ``adopted``."""
    replies = []
    for group in groups:
        # Annotations per group: a range tag or comment applies to what it covers.
        notes = _annotations(ctx, session, group)
        events = [group[0].event_id] if group[0].event_id is not None else []
        adoptable = {
            event: found
            for event, found in ctx.store.event_episodes(
                session, events, group[0].ts_us, max(t.ts_us for t in group)
            ).items()
            if found[0] not in adopted
        }
        concepts = reply_concepts(group, record_merge.TOP_K)
        reply = _reply(ctx, session, group, concepts, notes, adoptable, summarizer, at)
        if reply.episode is None:
            adopted.add(reply.record.id)
        replies.append(reply)
    return replies


def compact(
    ctx: Context, session: str, keep_tokens: int, summarizer: Summarizer
) -> CompactResponse:
    """Compact ``session`` down to its newest ``keep_tokens`` HOT tokens."""
    guard(ctx, "compaction")
    before, _, _ = ctx.store.hot_window(session)
    made: list[str] = []
    compacted = 0
    failures = 0
    after_tick = -1  # ticks up to here are done (or left: the caller may not delete them)
    adopted: set[str] = set()
    deletable: dict[str | None, bool] = {}
    # Fixed when the compaction starts: what is recorded meanwhile is not chased.
    cutoff = ctx.store.compaction_cutoff(session, keep_tokens)
    while cutoff >= 0:
        rows = ctx.store.compactable(session, cutoff, BATCH, after_tick)
        if not rows:
            break
        ticks = _ticks(rows)
        groups = group_replies(ticks, batch_full=len(rows) == BATCH)
        at = now_us()
        kept = [g for g in groups if may_delete(ctx, g[0].policy, deletable)]
        # ~2,000 ticks' objects and no cycles (xdb.gcpause), unless the summarizer goes out
        # of the process (a model's HTTP calls): the collector stays on for those.
        paused = collector_paused() if summarizer.in_process else contextlib.nullcontext()
        with paused:
            replies = _replies(ctx, session, kept, adopted, summarizer, at)
        try:
            compacted += ctx.store.compact_replies(replies, at, count=not made)
        except Conflict:
            failures += 1  # pinned or compacted meanwhile: read the batch again
            if failures >= RETRIES:
                raise
            adopted.difference_update(r.record.id for r in replies)
            continue
        made.extend(r.record.id for r in replies)
        after_tick = groups[-1][-1].tick
    if made and ctx.indexer is not None:
        ctx.indexer.notify()  # the new records' episodes need vectors
    after, _, _ = ctx.store.hot_window(session)
    return CompactResponse(
        compacted=compacted > 0,
        timesteps_compacted=compacted,
        records_made=len(made),
        tokens_before=before,
        tokens_after=after,
        record_ids=made,
    )


class ContextWatch:
    """Compacts a session once recording pushes its HOT window past the threshold, off the
    recording path: the recording that crosses it hands the session to a background
    thread (one per database handle) and returns; its timesteps are committed already.

    Counting a session's HOT tokens is a scan of its window, too much for every record:
    the watch keeps a running estimate per session (the exact count when first seen, plus
    what this process records) and counts exactly only when the estimate crosses the
    threshold. Another process's records are counted when this one next counts.

    A compaction is one transaction per batch of ticks (``compact``): killed midway, what
    it committed is records and what it did not is still timesteps; a reader sees one or
    the other. Recording waits for it only when the session's HOT tokens would pass its
    whole window while one is under way (recording faster than compaction for that long),
    so the window stays bounded. ``settle`` waits for a session's (what ``context`` and
    ``compact`` read first), ``close`` for all of them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._estimates: dict[str, int] = {}
        # caller -> (threshold, keep, window) tokens, and when read: another process may
        # change a contract, so they are read again after LIMITS_FOR seconds.
        self._limits: dict[str, tuple[int, int, int, float]] = {}
        # Sessions waiting or being compacted, with what to run for each, in order.
        self._queue: dict[str, Callable[[], None]] = {}
        self._running: str | None = None
        self._idle = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._closed = False

    def forget(self) -> None:
        """Contracts changed: read them again."""
        with self._lock:
            self._limits.clear()

    def _limit(self, ctx: Context) -> tuple[int, int, int]:
        found = self._limits.get(ctx.caller.id)
        now = time.monotonic()
        if found is None or now - found[3] > LIMITS_FOR:
            contract = effective(ctx.store, ctx.caller.id)
            window = contract.context_window_tokens
            found = (
                int(window * contract.compaction_threshold),
                int(window * contract.compaction_target),
                window,
                now,
            )
            self._limits[ctx.caller.id] = found
        return found[0], found[1], found[2]

    def recorded(
        self, ctx: Context, counts: dict[str, int], summarizer: Callable[[], Summarizer]
    ) -> None:
        """``counts``: tokens just recorded per session; ``summarizer`` makes the summarizer
        when a compaction needs one (most recordings do not)."""
        for session, tokens in counts.items():
            with self._lock:
                estimate = self._estimates.get(session)
                pending = session in self._queue
            if estimate is None:
                estimate = ctx.store.hot_window(session)[0]
            else:
                estimate += tokens
            threshold, keep, window = self._limit(ctx)
            if pending:
                if estimate > window:  # recording outruns compaction: let it catch up
                    self.settle(session)
                    continue
            elif estimate > threshold:
                estimate = ctx.store.hot_window(session)[0]
                if estimate > threshold:
                    self._schedule(ctx, session, keep, summarizer)
            with self._lock:
                self._estimates[session] = estimate

    def _schedule(
        self, ctx: Context, session: str, keep: int, summarizer: Callable[[], Summarizer]
    ) -> None:
        # Run as the recording call ran: its caller, and what its store reads; but never
        # carrying its audit record, which belongs to the call's own first write.
        later = replace(ctx, store=ctx.store.for_call(ctx.store.reading, None))

        def run() -> None:
            compact(later, session, keep, summarizer())

        with self._lock:
            if self._closed:
                run_now = True
            else:
                run_now = False
                self._queue.setdefault(session, run)
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._work, name="xdb-compaction", daemon=True
                    )
                    self._thread.start()
                self._idle.notify_all()
        if run_now:
            run()

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._queue:
                    if self._closed:
                        self._thread = None
                        return
                    self._idle.wait()
                session = next(iter(self._queue))
                job = self._queue[session]
                self._running = session
            try:
                job()
            except XdbError as exc:
                log.warning("compaction after recording failed: %s", exc)
            except Exception:  # a broken summarizer: the next crossing tries again
                log.exception("compaction after recording failed")
            finally:
                with self._lock:
                    self._queue.pop(session, None)
                    self._running = None
                    # Counted again (exactly) by the next recording: what this left, plus
                    # what was recorded meanwhile.
                    self._estimates.pop(session, None)
                    self._idle.notify_all()

    def settle(self, session: str | None = None, timeout: float | None = None) -> bool:
        """Wait until ``session`` (None: every session) has no compaction waiting or under
        way; False if ``timeout`` seconds passed first."""
        if threading.current_thread() is self._thread:
            return True  # the worker itself (a compaction's own reads)
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while session in self._queue if session is not None else bool(self._queue):
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._idle.wait(left)
        return True

    def close(self, timeout: float | None = None) -> bool:
        """Finish the compactions under way or waiting, then stop the thread."""
        done = self.settle(None, timeout)
        with self._lock:
            self._closed = True
            self._idle.notify_all()
        return done
