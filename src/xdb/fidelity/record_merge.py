"""What a COLD record holds, and how finer ones merge into it (XDB section 8.2's algorithm):
concept activations aggregated (frequency-weighted, top-k), tags by frequency, text
summarized, token and timestep counts kept, and lineage to everything it replaces.

A record is stored twice, in one transaction: as an episode (kind ``compressed``, found by
search, graph walks and usage statistics like any episode) and as a ``memory_records`` row
(its level, span and carried annotations, for ``query`` and maintenance). The episode's
provenance details hold the level and the lineage, so ``get_episode_detail`` shows them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdb.ids import new_id
from xdb.store.cold_records import RecordRow
from xdb.store.types import NewEpisode

KIND = "compressed"
TOP_K = 10
MIN_SCORE = 0.05
# How much text a record keeps, by level: a reply a paragraph, a year a page.
SUMMARY_CHARS = 300
CONTENT_CHARS = {"reply": 1000, "session": 1500}
DEFAULT_CONTENT_CHARS = 2000


@dataclass
class Part:
    """One thing being merged: a reply's ticks (as one part) or a finer record or episode."""

    text: str
    concepts: dict[str, tuple[float, int]]  # concept -> (score, weight)
    weight: int  # timesteps (or 1 for an episode without any)
    tokens: int
    tag_ids: dict[str, int] = field(default_factory=dict)
    labels: list[dict[str, Any]] = field(default_factory=list)
    lineage: dict[str, Any] = field(default_factory=dict)
    comment_ids: list[str] = field(default_factory=list)
    exemplar_ids: list[str] = field(default_factory=list)
    event_types: list[str] = field(default_factory=list)


def top_concepts(parts: Iterable[Part], k: int = TOP_K) -> list[dict[str, Any]]:
    """Concepts by frequency-weighted score: each part's score weighted by its timesteps,
    ranked by that weighted sum, shown as the weighted mean over the parts carrying it."""
    total: dict[str, float] = {}
    weight: dict[str, int] = {}
    for part in parts:
        for concept, (score, w) in part.concepts.items():
            total[concept] = total.get(concept, 0.0) + score * w
            weight[concept] = weight.get(concept, 0) + w
    ranked = sorted(total, key=lambda c: (-total[c], c))[:k]
    out = []
    for concept in ranked:
        score = round(min(total[concept] / weight[concept], 1.0), 6)
        if score >= MIN_SCORE:
            out.append({"concept_id": concept, "score": score, "kind": "stable"})
    return out


def merged_labels(parts: Iterable[Part]) -> list[dict[str, Any]]:
    """Every exemplar label the parts carry, once per (concept, label), most confident."""
    best: dict[tuple[str, str], dict[str, Any]] = {}
    for part in parts:
        for label in part.labels:
            key = (label["concept_id"], label["label"])
            if key not in best or label.get("confidence", 1.0) > best[key].get("confidence", 1.0):
                best[key] = dict(label)
    return [best[k] for k in sorted(best)]


def merged_lineage(parts: Sequence[Part], replaced: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """The union of the parts' lineage, plus ``replaced`` (id, level) as direct children:
    ``ticks`` as [session, first, last] ranges (coalesced), ``records`` every record ever
    merged below (with its parent), ``episodes`` the full episodes folded in."""
    ranges: list[list[Any]] = []
    records: list[dict[str, Any]] = []
    episodes: list[str] = []
    for part in parts:
        ranges.extend(part.lineage.get("ticks", []))
        records.extend(part.lineage.get("records", []))
        episodes.extend(part.lineage.get("episodes", []))
    return {
        "ticks": coalesce(ranges),
        "records": records + [{"id": i, "level": lv} for i, lv in replaced],
        "episodes": sorted(set(episodes)),
    }


def coalesce(ranges: Iterable[Sequence[Any]]) -> list[list[Any]]:
    """[session, first, last] ranges merged where they touch or overlap."""
    out: list[list[Any]] = []
    for session, lo, hi in sorted((str(s), int(a), int(b)) for s, a, b in ranges):
        if out and out[-1][0] == session and lo <= out[-1][2] + 1:
            out[-1][2] = max(out[-1][2], hi)
        else:
            out.append([session, lo, hi])
    return out


def build(
    *,
    level: str,
    parts: Sequence[Part],
    summary: str,
    content: str,
    namespace: str,
    session_id: str | None,
    tick_span: tuple[int, int] | None,
    time_span: tuple[int, int],
    replaced: Sequence[tuple[str, str]],
    policy: str | None,
    at: int,
    by: str,
    record_id: str | None = None,
) -> tuple[RecordRow, NewEpisode]:
    """The record and its episode, made of ``parts``."""
    rid = record_id or new_id("episode")
    tags: Counter[str] = Counter()
    for part in parts:
        tags.update(part.tag_ids)
    lineage = merged_lineage(parts, replaced)
    carried = {
        "tag_ids": dict(sorted(tags.items(), key=lambda kv: (-kv[1], kv[0]))),
        "comment_ids": sorted({c for p in parts for c in p.comment_ids}),
        "exemplar_ids": sorted({x for p in parts for x in p.exemplar_ids}),
        "event_types": sorted({e for p in parts for e in p.event_types}),
    }
    tokens = sum(p.tokens for p in parts)
    steps = sum(p.weight for p in parts)
    concepts = top_concepts(parts)
    body = {**carried, "lineage": lineage, "concepts": concepts, "text": content}
    record = RecordRow(
        rid,
        level,
        namespace,
        session_id,
        None if tick_span is None else tick_span[0],
        None if tick_span is None else tick_span[1],
        time_span[0],
        time_span[1],
        tokens,
        steps,
        body,
        at,
        policy,
    )
    # The tags, comments and exemplars carried are shown by query (what the caller reads of
    # them), not in the episode's provenance, which any reader of the record reads.
    details = {
        "compression_level": level,
        "tokens": tokens,
        "timesteps": steps,
        "event_types": carried["event_types"],
        "lineage": lineage,
    }
    episode = NewEpisode(
        id=rid,
        namespace=namespace,
        kind=KIND,
        session_id=session_id,
        summary=summary or "(nothing to summarize)",
        content=content or summary or "(nothing to summarize)",
        start_us=time_span[0],
        end_us=time_span[1],
        created_us=at,
        created_by=by,
        concept_tags=concepts,
        labels=merged_labels(parts),
        motive_profile={},
        metadata={},
        provenance={
            "session_id": session_id,
            "start_tick": None if tick_span is None else tick_span[0],
            "end_tick": None if tick_span is None else tick_span[1],
            "source": "compression",
            "details": details,
        },
        access_policy_id=policy,
    )
    return record, episode


def level_of(provenance: dict[str, Any]) -> str | None:
    """The compression level an episode's provenance names (None: a full episode)."""
    details = provenance.get("details")
    if isinstance(details, dict):
        level = details.get("compression_level")
        return level if isinstance(level, str) else None
    return None


def part_of_record(row: RecordRow, episode: NewEpisode) -> Part:
    """A stored record (and its episode) as a part of a coarser merge."""
    body = row.body
    return Part(
        text=episode.summary if len(episode.content) > 4 * SUMMARY_CHARS else episode.content,
        concepts={
            t["concept_id"]: (float(t["score"]), max(row.timesteps, 1))
            for t in episode.concept_tags
        },
        weight=max(row.timesteps, 1),
        tokens=row.tokens,
        tag_ids=dict(body.get("tag_ids", {})),
        labels=list(episode.labels),
        lineage=dict(body.get("lineage", {})),
        comment_ids=list(body.get("comment_ids", [])),
        exemplar_ids=list(body.get("exemplar_ids", [])),
        event_types=list(body.get("event_types", [])),
    )


def part_of_episode(episode: NewEpisode, tokens: int) -> Part:
    """A full episode (not a record) folded into a record under storage pressure."""
    return Part(
        text=episode.content,
        concepts={t["concept_id"]: (float(t["score"]), 1) for t in episode.concept_tags},
        weight=1,
        tokens=tokens,
        labels=list(episode.labels),
        lineage={"episodes": [episode.id]},
    )
