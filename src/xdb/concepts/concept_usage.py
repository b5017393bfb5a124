"""``concept_usage_summary``: how concepts show up in experience.

For each concept (and, when asked, the concepts below it), over the episodes passing the
filters (time range: overlapping windows; kinds; namespace):

- ``episode_count`` and ``avg_score`` (an episode's best score among the concepts counted);
- ``recent_trend``: the filtered period (the time range, or first to last episode) is cut
  into 8 equal buckets by start time; in each, the concept's share of the episodes. A
  Mann-Kendall test on those shares (tie-corrected variance, continuity correction) gives
  ``trend_z``; |z| >= 1.96 (two-sided 5%) is increasing or decreasing, anything else stable.
  Shares, not counts: more activity overall is not a trend of the concept;
- ``top_cooccurring_concepts``: among the concepts sharing the most episodes with it (at
  least ``min_cooccurrence``), ranked by normalised pointwise mutual information,
  NPMI = log(p(a,b) / (p(a) p(b))) / -log p(a,b), over the filtered episodes: 1 means they
  only ever occur together, 0 independent, below 0 they avoid each other;
- ``activations``: count, mean, max and min of its activations on the log's timesteps in
  the time range.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from xdb.concepts.concept_usage_models import (
    ActivationStats,
    ConceptUsage,
    ConceptUsageSummaryRequest,
    ConceptUsageSummaryResponse,
    Cooccurrence,
    UsageBucket,
)
from xdb.concepts.resolve import try_resolve
from xdb.ops.registry import Context, Operation
from xdb.store.types import EpisodeFilter
from xdb.timeutil import from_us, to_us

BUCKETS = 8
SIGNIFICANT_Z = 1.96


def mann_kendall_z(values: Sequence[float]) -> float:
    """The Mann-Kendall trend statistic as a z score (0 for fewer than 3 values)."""
    n = len(values)
    if n < 3:
        return 0.0
    s = sum(
        (values[j] > values[i]) - (values[j] < values[i])
        for i in range(n - 1)
        for j in range(i + 1, n)
    )
    ties: dict[float, int] = {}
    for v in values:
        ties[v] = ties.get(v, 0) + 1
    var = (n * (n - 1) * (2 * n + 5) - sum(t * (t - 1) * (2 * t + 5) for t in ties.values())) / 18
    if var <= 0 or s == 0:
        return 0.0
    return (s - 1 if s > 0 else s + 1) / math.sqrt(var)


def npmi(shared: int, a: int, b: int, total: int) -> float:
    """Normalised PMI of two concepts over ``total`` episodes (see the module's doc)."""
    if shared <= 0 or total <= 0:
        return -1.0
    p_ab, p_a, p_b = shared / total, a / total, b / total
    if p_ab >= 1.0:
        return 1.0
    return math.log(p_ab / (p_a * p_b)) / -math.log(p_ab)


def concept_usage_summary(
    ctx: Context, req: ConceptUsageSummaryRequest
) -> ConceptUsageSummaryResponse:
    window = req.time_range
    start = to_us(window.start_time) if window and window.start_time else None
    end = to_us(window.end_time) if window and window.end_time else None
    flt = EpisodeFilter(
        namespace=req.namespace, start_us=start, end_us=end, kinds=req.episode_kinds
    )
    total, first, last = ctx.store.episode_span(flt)
    lo = start if start is not None else first
    hi = end if end is not None else last
    width = 1 if lo is None or hi is None else max(1, math.ceil((hi - lo + 1) / BUCKETS))
    per_bucket = (
        ctx.store.episode_buckets(flt, lo, width, BUCKETS) if total and lo is not None else []
    )
    scope = _Scope(flt, total, lo, width, per_bucket)
    summaries = []
    for value in req.concept_ids:
        full = try_resolve(ctx.store, value, "concept_ids", ctx.sees)
        cid = full or value  # a candidate concept need not be in any pack
        group = ctx.store.concept_subtree(cid) if req.include_descendants and full else [cid]
        if ctx.view.restricted:  # descendants the caller may not see count for nothing
            group = [g for g in group if g == cid or ctx.view.visible(g)]
        summaries.append(_summary(ctx, req, scope, cid, group, full is not None))
    return ConceptUsageSummaryResponse(concept_summaries=summaries, total_episodes=total)


def _cooccurring(
    ctx: Context, flt: EpisodeFilter, group: list[str], min_count: int, limit: int
) -> list[tuple[str, int, int]]:
    """The store's most-shared concepts, among those the caller may see: the first ``limit``
    of them exactly, as if hidden concepts were not stored (read deeper until enough)."""
    if not ctx.view.restricted:
        return ctx.store.cooccurring_concepts(flt, group, min_count, limit)
    depth = limit
    while True:
        rows = ctx.store.cooccurring_concepts(flt, group, min_count, depth)
        seen = [r for r in rows if ctx.view.visible(r[0])]
        if len(seen) >= limit or len(rows) < depth:
            return seen[:limit]
        depth *= 4


@dataclass
class _Scope:
    """The filtered episodes every summary of one request shares."""

    flt: EpisodeFilter
    total: int
    lo: int | None  # the first bucket's start
    width: int  # a bucket's span in microseconds
    per_bucket: list[int]  # episodes starting in each bucket


def _summary(
    ctx: Context,
    req: ConceptUsageSummaryRequest,
    scope: _Scope,
    cid: str,
    group: list[str],
    in_pack: bool,
) -> ConceptUsage:
    flt, total, lo, width = scope.flt, scope.total, scope.lo, scope.width
    carriers = ctx.store.concept_carriers(flt, group)
    count = len(carriers)
    # A concept a pack holds is stable (a promoted bud's old tags say candidate); any other
    # is what most of its tags say.
    candidate = not in_pack and (sum(1 for c in carriers if c[3]) * 2 > count if count else True)
    mine = [0] * BUCKETS
    for _, start_us, _, _ in carriers:
        if lo is not None:
            mine[min(max((start_us - lo) // width, 0), BUCKETS - 1)] += 1
    shares = [m / t for m, t in zip(mine, scope.per_bucket, strict=False) if t]
    z = mann_kendall_z(shares)
    trend: Literal["increasing", "stable", "decreasing"] = (
        "stable" if abs(z) < SIGNIFICANT_Z else "increasing" if z > 0 else "decreasing"
    )
    cooccurring: list[Cooccurrence] = []
    if req.include_cooccurrence and count:
        rows = _cooccurring(ctx, flt, group, req.min_cooccurrence, max(200, req.top_k * 10))
        scored = sorted(
            (
                (round(npmi(shared, count, alone, total), 6), shared, other)
                for other, shared, alone in rows
            ),
            key=lambda t: (-t[0], -t[1], t[2]),
        )
        cooccurring = [
            Cooccurrence(concept_id=other, cooccurrence_score=score, episode_count=shared)
            for score, shared, other in scored[: req.top_k]
        ]
    activations = None
    if req.include_activations:
        n, mean, high, low = ctx.store.activation_stats(group, flt.start_us, flt.end_us)
        activations = ActivationStats(timestep_count=n, mean=mean, max=high, min=low)
    starts = [c[1] for c in carriers]
    levels = ctx.store.record_levels(group) if count else {}
    by_fidelity: dict[str, int] = {}
    for seq, _, _, _ in carriers:
        level = levels.get(seq, "full")
        by_fidelity[level] = by_fidelity.get(level, 0) + 1
    return ConceptUsage(
        concept_id=cid,
        kind="candidate" if candidate else "stable",
        episode_count=count,
        avg_score=round(sum(c[2] for c in carriers) / count, 6) if count else None,
        recent_trend=trend,
        trend_z=round(z, 4),
        first_seen=from_us(min(starts)) if starts else None,
        last_seen=from_us(max(starts)) if starts else None,
        top_cooccurring_concepts=cooccurring,
        activations=activations,
        buckets=[
            UsageBucket(
                start=from_us(lo + i * width),
                end=from_us(lo + (i + 1) * width),
                episode_count=mine[i],
                total=scope.per_bucket[i],
            )
            for i in range(len(scope.per_bucket))
        ]
        if lo is not None
        else [],
        by_fidelity=by_fidelity,
    )


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="concept_usage_summary",
        group="experience",
        request=ConceptUsageSummaryRequest,
        response=ConceptUsageSummaryResponse,
        handler=concept_usage_summary,
        readonly=True,
        summary="How concepts are used: counts, scores, trend, co-occurrence, activations.",
        example="xdb concept-usage-summary --concept-ids Deception",
    ),
)
