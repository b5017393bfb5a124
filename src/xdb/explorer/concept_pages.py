"""The concept pages: the hierarchy (each concept's episodes, and those of the concepts
below it added up), a concept's page (usage over time as a chart with its axes, what it
occurs with, exemplars, datasets), and the experience graph around a node."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from fastapi import Request

from xdb.explorer import charts
from xdb.explorer.render import Page, node_href, node_label, page, term, with_params

if TYPE_CHECKING:
    from xdb.explorer.routes import Reader

RELATIONS = ("NEXT", "TAGGED_BY", "CONTAINS", "INFLUENCED_BY", "CHILD_OF", "RELATED_CONCEPT")
NODE_TYPES = ("Episode", "Concept", "Decision", "Tool", "Timestep")


def distinct_total(read: Reader, concept_id: str) -> int:
    """The episodes carrying a concept or any concept below it, each counted once (as the
    caller sees the hierarchy): ``concept_usage_summary`` with ``include_descendants``,
    without its co-occurrence and activations. It reads every carrier of the subtree (a
    root's is most of the database), so a concept's page counts so only when asked
    (``distinct=1``); by default pages show the kept counts added up
    (``summed_episode_count``), where an episode carrying two of them counts twice."""
    asked = {"concept_ids": [concept_id], "include_descendants": True,
             "include_cooccurrence": False, "include_activations": False}  # fmt: skip
    summaries = read("experience.concept_usage_summary", asked).concept_summaries
    return int(summaries[0].episode_count) if summaries else 0


def hierarchy(read: Reader, request: Request) -> Page:
    params = request.query_params
    q, parent = params.get("q") or None, params.get("parent") or None
    found = read("xdb.find_concept", {"query": q, "limit": 50}).matches if q else None
    listed = None if q else read("xdb.concepts", {"parent_id": parent} if parent else {})
    template = "concept_list.html" if params.get("partial") else "concepts.html"
    return page(template, query=q, parent=parent, found=found, listed=listed)


def concept_page(read: Reader, request: Request) -> Page:
    concept_id = request.path_params["concept_id"]
    concept = read("xdb.get_concept", {"concept_id": concept_id})
    cid = concept.concept.id
    usage = read("experience.concept_usage_summary",
                 {"concept_ids": [cid], "include_activations": True})  # fmt: skip
    summary = usage.concept_summaries[0] if usage.concept_summaries else None
    once = request.query_params.get("distinct") == "1" and bool(concept.concept.children)
    exemplars = read("experience.exemplars", {"concept_id": cid})
    datasets = read("experience.datasets", {"concept_id": cid})
    return page("concept.html", concept=concept, summary=summary,
                distinct=distinct_total(read, cid) if once else None,
                chart=usage_chart(cid, summary.buckets if summary else []),
                exemplars=exemplars, datasets=datasets)  # fmt: skip


def usage_chart(concept_id: str, buckets: list[Any]) -> str:
    """The trend's buckets as bars: episodes carrying the concept in each, dated along the
    bottom (times of day, under that day's date, when a bucket is shorter than a day),
    each bar a link to those episodes."""
    if not buckets:
        return charts.bars([])
    width = (buckets[0].end - buckets[0].start).total_seconds()
    first, last = buckets[0].start, buckets[-1].end

    def label(at: datetime) -> str:
        if width >= 86_400:
            return f"{at:%Y-%m-%d}"
        if width >= 60:
            return f"{at:%H:%M}"
        if width >= 1:
            return f"{at:%H:%M:%S}"
        return f"{at:%S}.{at.microsecond // 1000:03d} s"  # a burst within a second

    axis = "date (UTC)"
    if width < 1:
        axis = f"seconds (UTC), {first:%Y-%m-%d %H:%M}"
    elif width < 86_400:
        axis = f"time (UTC), {first:%Y-%m-%d}" + (
            f" to {last:%Y-%m-%d}" if last.date() != first.date() else ""
        )
    bars = [
        charts.Bar(
            label(b.start),
            b.episode_count,
            f"{b.start:%Y-%m-%d %H:%M:%S} to {b.end:%Y-%m-%d %H:%M:%S}: {b.episode_count} of"
            f" {b.total} episodes",
            with_params(
                "/search",
                concept=concept_id,
                sort="time_asc",
                **{"from": b.start.isoformat(), "to": b.end.isoformat()},
            ),
        )
        for b in buckets
    ]
    return charts.bars(bars, unit="episodes", axis=axis)


def graph_page(read: Reader, request: Request) -> Page:
    params = request.query_params
    seeds = [s for s in params.getlist("seed") if s]
    relations = [r for r in params.getlist("relation") if r]
    types = [t for t in params.getlist("type") if t]
    walked = None
    picture = ""
    if seeds:
        asked: dict[str, Any] = {"seed_node_ids": seeds, "max_depth": int(params.get("depth") or 1),
                                 "max_nodes": int(params.get("max") or 60)}  # fmt: skip
        if relations:
            asked["relation_filters"] = relations
        if types:
            asked["node_type_filters"] = types
        walked = read("experience.graph_neighborhood", asked)
        rest = [(k, v) for k, v in params.multi_items() if k != "seed"]
        nodes = [
            charts.Node(
                n.node_id,
                node_label(n),
                n.type,
                n.depth,
                _walk(n, rest),
                f"{n.type}: {node_label(n)} ({n.node_id})",
            )
            for n in walked.nodes
        ]
        picture = charts.neighbourhood(nodes, [(e.src, e.type, e.dst) for e in walked.edges])
    kinds = sorted({n.type for n in walked.nodes}) if walked else []
    shown = sorted({str(e.type) for e in walked.edges}) if walked else []
    return page("graph.html", params=params, seeds=seeds, walked=walked, picture=picture,
                relations=RELATIONS, types=NODE_TYPES, chosen_relations=relations,
                chosen_types=types, kinds=kinds, shown_relations=shown,
                nodes={n.node_id: n for n in walked.nodes} if walked else {},
                seed_label=_seed_label(walked, seeds))  # fmt: skip


def _seed_label(walked: Any, seeds: list[str]) -> str:
    """The walk's start as a person reads it (its node's label, or the id given)."""
    first = [n for n in walked.nodes if n.depth == 0] if walked else []
    return node_label(first[0]) if len(first) == 1 else ", ".join(term(s) for s in seeds)


def _walk(node: Any, rest: list[tuple[str, str]]) -> str:
    """Where a node of the picture leads: the walk from it (a timestep, which the walk may
    not start from once compacted, leads to its place in its session)."""
    if node.type == "Timestep":
        return node_href(node)
    return "/graph?" + urlencode([("seed", node.node_id), *rest])
