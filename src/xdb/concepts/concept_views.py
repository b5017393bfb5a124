"""The concept hierarchy as a restricted caller sees it: only visible concepts, each under
its nearest visible ancestor (``Visibility.hierarchy``), so browsing, counting and walking
never pass through, or count, a concept the caller may not see. Unrestricted callers take
the store's SQL paths in ``concept_operations``; these give the same answers when nothing is
hidden. ``subtree_counts`` serves both: it walks the caller's hierarchy, or the whole one
the concept index keeps."""

from __future__ import annotations

from collections.abc import Sequence

from xdb.ops.registry import Context
from xdb.store.types import ConceptRow, HierarchyStep


def children(
    ctx: Context, parent: str | None, spec_ids: Sequence[str] | None, limit: int
) -> tuple[list[ConceptRow], int, dict[str, int], dict[str, str | None]]:
    """Like ``Store.concept_children`` (by term, then id), with the caller's child counts
    and parents."""
    parents, kids = ctx.view.hierarchy()
    facts = ctx.view.index.facts
    ids = [c for c in kids.get(parent, []) if spec_ids is None or facts[c].spec_id in spec_ids]
    ids.sort(key=lambda c: (facts[c].term, c))
    rows = ctx.store.concepts_by_ids(ids[:limit]) if ids else []
    rows.sort(key=lambda r: (r.term, r.id))
    counts = {r.id: len(kids.get(r.id, [])) for r in rows}
    return rows, len(ids), counts, {r.id: parents[r.id] for r in rows}


def walk(
    ctx: Context, seeds: Sequence[str], max_depth: int, up: bool, down: bool
) -> list[HierarchyStep]:
    """Like ``Store.concept_walk``, over the caller's hierarchy: each visible concept within
    ``max_depth`` steps of a visible seed, at its smallest depth."""
    parents, kids = ctx.view.hierarchy()
    facts = ctx.view.index.facts
    depth = {s: 0 for s in seeds if s in parents}
    frontier = list(depth)
    for level in range(1, max_depth + 1):
        fresh = []
        for node in frontier:
            near: list[str] = []
            parent = parents[node]
            if up and parent is not None:
                near.append(parent)
            if down:
                near.extend(kids.get(node, []))
            for other in near:
                if other not in depth:
                    depth[other] = level
                    fresh.append(other)
        frontier = fresh
    return [HierarchyStep(c, parents[c], facts[c].term, d) for c, d in depth.items()]


def subtree_counts(ctx: Context, concept_ids: Sequence[str]) -> dict[str, int]:
    """Each concept's episode count summed with those of every concept below it, in the
    hierarchy the caller sees (a hidden concept's episodes are not counted in): a walk of
    the kept concept index (no query), then the store's count of each concept reached (a
    row each where it keeps them: ``Store.concept_episode_counts``)."""
    kids = ctx.view.hierarchy()[1] if ctx.view.restricted else ctx.view.index.children
    below: dict[str, set[str]] = {}
    for root in concept_ids:
        seen, todo = {root}, [root]
        while todo:
            fresh = [c for c in kids.get(todo.pop(), []) if c not in seen]
            seen.update(fresh)
            todo += fresh
        below[root] = seen
    counts = ctx.store.concept_episode_counts(sorted({c for ids in below.values() for c in ids}))
    totals = {root: sum(counts.get(c, 0) for c in ids) for root, ids in below.items()}
    return {root: n for root, n in totals.items() if n}
