"""What the agent learned: buds and their examples, datasets and training runs (each with a
page), the memory gauges, and the experience engine's lessons by tier (each with a page)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode

from fastapi import Request

from xdb.explorer.render import Page, page

if TYPE_CHECKING:
    from xdb.explorer.routes import Reader

BUD_STATUSES = ("collecting", "ready", "training", "validating", "promoted", "rejected")


def learning_page(read: Reader, request: Request) -> Page:
    status = request.query_params.get("status") or None
    buds = read("xdb.buds", {"status": status} if status else {})
    datasets = read("experience.datasets", {})
    runs = read("experience.training_runs", {})
    quota = read("xdb.quota", {})
    context = read("xdb.context", {})
    return page("learning.html", buds=buds.buds, status=status, statuses=BUD_STATUSES,
                datasets=datasets.datasets, runs=runs.training_runs, quota=quota,
                context=context)  # fmt: skip


def _page_of(
    read: Reader, request: Request, op: str, param: str, key: str, base: str
) -> tuple[Any, str | None]:
    """Page ``op`` of the object the path parameter ``param`` names (as ``key``; 50 at a
    time, from the query's cursor), and the next page's URL under ``base``, if any."""
    name = request.path_params[param]
    asked: dict[str, Any] = {key: name, "limit": 50}
    if request.query_params.get("cursor"):
        asked["cursor"] = request.query_params["cursor"]
    found = read(op, asked)
    following = None
    if found.next_cursor:
        following = f"{base}/{quote(name, safe='')}?" + urlencode({"cursor": found.next_cursor})
    return found, following


def bud_page(read: Reader, request: Request) -> Page:
    found, following = _page_of(read, request, "xdb.bud_examples", "bud", "bud_tag_id", "/buds")
    return page("bud.html", found=found, next_url=following)


def dataset_page(read: Reader, request: Request) -> Page:
    found, following = _page_of(
        read, request, "experience.dataset", "dataset_id", "dataset_id", "/datasets"
    )
    return page("dataset.html", dataset=found.dataset, members=found.members,
                next_url=following)  # fmt: skip


def run_page(read: Reader, request: Request) -> Page:
    found = read("experience.training_run", {"training_run_id": request.path_params["run_id"]})
    return page("run.html", run=found.training_run, artifacts=found.artifacts)


def lessons_page(read: Reader, request: Request) -> Page:
    tier = request.query_params.get("tier") or None
    topic = request.query_params.get("topic") or None
    listed = read("engine.lessons", {"tier": tier} if tier else {})
    stats = read("engine.lesson_stats", {})
    timeline = read("engine.timeline", {"topic": topic, "limit": 100}) if topic else None
    # The warnings agents were shown: the engine records each as a steering timestep of
    # the xdb session <agent>-<session id>.
    warned = read("xdb.query", {"all_sessions": True, "event_types": ["steering"],
                                "order": "desc", "limit": 20,
                                "include_records": False}).timesteps  # fmt: skip
    return page("lessons.html", lessons=listed.lessons, total=listed.total, stats=stats,
                tier=tier, topic=topic, timeline=timeline, warned=warned)  # fmt: skip


def lesson_page(read: Reader, request: Request) -> Page:
    found = read("engine.lesson", {"lesson_id": request.path_params["lesson_id"]})
    lesson = found.lesson
    others = [e.dst if e.src == lesson.lesson_id else e.src for e in found.edges]
    return page("lesson.html", lesson=lesson, edges=found.edges, others=others)
