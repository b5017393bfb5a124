"""The explorer's pages (``/``, ``/search``, ``/episodes/ID``, ``/concepts/ID``,
``/lessons``). Each gathers its data from read-only operations run for the request's caller
(``Database.run``, so access and disclosure policy apply exactly as over the API), then
renders a template. Bad input shows the operation's own error, naming the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from xdb.core import Database
from xdb.errors import InvalidRequest, XdbError
from xdb.explorer import charts, timeline
from xdb.explorer.login import add_login
from xdb.interfaces.auth import request_caller
from xdb.ops.registry import REGISTRY

__all__ = ["add_explorer"]

HERE = Path(__file__).parent
PAGE_SIZE = 20
_ENV = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)
# How a hit's ranking signals (EpisodeHit.signals) are named on the page.
_ENV.globals["signals"] = {"bm25": "words (BM25)", "vector": "meaning (vectors)",
                           "session": "its session", "concepts": "concepts",
                           "recency": "recency"}  # fmt: skip
_STATUS = {"invalid_request": 400, "not_found": 404, "permission_denied": 403}


class Reader:
    """Runs read-only operations for one request's caller."""

    def __init__(self, db: Database, request: Request) -> None:
        self.db = db
        self.caller = request_caller(request)

    def __call__(self, name: str, payload: dict[str, Any]) -> Any:
        op = REGISTRY[name]
        if not op.readonly:  # the explorer only reads
            raise ValueError(f"{name} writes; the explorer runs only read operations")
        answer: BaseModel = self.db.run(op, payload, caller=self.caller)
        return answer


def _render(template: str, http_status: int = 200, **values: Any) -> HTMLResponse:
    return HTMLResponse(_ENV.get_template(template).render(**values), status_code=http_status)


def _error(exc: XdbError) -> HTMLResponse:
    data = exc.to_dict()
    status = _STATUS.get(str(data.get("type")), 500)
    return _render("error.html", http_status=status, error=data)


def search_request(params: Any) -> dict[str, Any]:
    """A ``search_episodes`` request from the page's query string (what a shared URL holds):
    q, concept (present), without (absent), kind, label (CONCEPT:positive|negative), from,
    to, sort, concept_weight and recency (the relevance weights), cursor, size."""
    request: dict[str, Any] = {"page": {"page_size": int(params.get("size") or PAGE_SIZE)}}
    if params.get("q"):
        request["text_query"] = params["q"]
    filters = [{"concept_id": c, "polarity": "present"} for c in params.getlist("concept") if c]
    filters += [{"concept_id": c, "polarity": "absent"} for c in params.getlist("without") if c]
    if filters:
        request["concept_filters"] = filters
    kinds = [k for k in params.getlist("kind") if k]
    if kinds:
        request["episode_kinds"] = kinds
    label = params.get("label")
    if label:
        concept, _, word = label.rpartition(":")
        request["label_filters"] = {"concept_id": concept or None, "label": word or None}
    if params.get("from") or params.get("to"):
        request["time_range"] = {"start_time": params.get("from") or None,
                                 "end_time": params.get("to") or None}  # fmt: skip
    sort: dict[str, Any] = {"by": params["sort"]} if params.get("sort") else {}
    for name, key in (("concept_weight", "score_weight"), ("recency", "recency_weight")):
        if params.get(name):
            sort[key] = float(params[name])
    if sort:
        request["sort"] = sort
    if params.get("cursor"):
        request["page"]["cursor"] = params["cursor"]
    return request


def add_explorer(app: FastAPI, db: Database) -> None:
    """The explorer's pages and its stylesheet, on ``app``."""

    def page(path: str, build: Any, summary: str) -> None:
        async def endpoint(request: Request) -> Response:
            read = Reader(db, request)
            try:
                return await run_in_threadpool(build, read, request)
            except XdbError as exc:
                return _error(exc)
            except ValueError as exc:  # a query string that is not a number, a date
                return _error(InvalidRequest(str(exc)))

        app.add_api_route(path, endpoint, methods=["GET"], include_in_schema=False,
                          summary=f"Explorer (HTML): {summary}")  # fmt: skip

    add_login(app, db)
    page("/", _home, "the overview: state and the latest episodes.")
    page(
        "/search",
        _search,
        "search episodes (q, concept, without, kind, label, from, to, sort, cursor, size).",
    )
    page(
        "/sessions/{session_id:path}",
        _session,
        "a session's timeline (zoom: tick, 10, 100,"
        " 1000, minute, hour, day; from: a tick), its events, concepts and records.",
    )
    page(
        "/concepts",
        _hierarchy,
        "the concept hierarchy (parent), or concepts found by name"
        " (q; partial=1 answers the list alone, for find-as-you-type).",
    )
    page("/episodes/{episode_id:path}", _episode, "one episode, its neighbours, similar ones.")
    page(
        "/concepts/{concept_id:path}",
        _concept,
        "one concept: usage over time, co-occurring concepts, exemplars, datasets.",
    )
    page("/buds/{bud:path}", _bud, "a bud (candidate concept) and its examples.")
    page(
        "/graph",
        _graph,
        "the experience graph around a node (seed, depth, relation, type),"
        " each node a link to walk on.",
    )
    page(
        "/learning",
        _learning,
        "buds by status, datasets and their versions, training runs,"
        " the quota and context-window gauges.",
    )
    page("/lessons", _lessons, "the engine's lessons by tier, their stats, a topic's timeline.")

    @app.get("/explorer.css", include_in_schema=False, summary="Explorer: its stylesheet.")
    def stylesheet() -> Response:
        css = (HERE / "static" / "explorer.css").read_bytes()
        return Response(css, media_type="text/css", headers={"Cache-Control": "max-age=300"})

    @app.get("/explorer.js", include_in_schema=False,
             summary="Explorer: find-as-you-type (pages work without it).")  # fmt: skip
    def script() -> Response:
        js = (HERE / "static" / "explorer.js").read_bytes()
        return Response(js, media_type="text/javascript",
                        headers={"Cache-Control": "max-age=300"})  # fmt: skip


def _home(read: Reader, request: Request) -> HTMLResponse:
    status = read("xdb.status", {})
    recent = read("experience.search_episodes",
                  {"sort": {"by": "time_desc"}, "page": {"page_size": PAGE_SIZE}})  # fmt: skip
    return _render("home.html", status=status, hits=recent.episodes)


def _search(read: Reader, request: Request) -> HTMLResponse:
    params = request.query_params
    asked = search_request(params)
    found = read("experience.search_episodes", asked)
    following = None
    if found.next_cursor:  # the same search's next page, as a link to share
        rest = [(k, v) for k, v in params.multi_items() if k != "cursor"]
        following = "/search?" + urlencode([*rest, ("cursor", found.next_cursor)])
    why = {hit.episode_id: _why(hit, asked) for hit in found.episodes}
    return _render("search.html", params=params, hits=found.episodes, next_url=following, why=why,
                   kinds=params.getlist("kind"), concepts=params.getlist("concept"),
                   without=params.getlist("without"))  # fmt: skip


def _why(hit: Any, asked: dict[str, Any]) -> list[str]:
    """What of the search a hit shows: the query's words in its text, the concepts asked
    for that it carries (with their scores), the kinds asked for. What each signal added
    to its score is the ranking's own (``hit.signals``), shown beside."""
    reasons = []
    words = {w.lower() for w in str(asked.get("text_query") or "").split() if len(w) > 2}
    said = {w.strip(".,;:!?\"'()").lower() for w in f"{hit.summary} {hit.snippet}".split()}
    if words & said:
        reasons.append("words: " + ", ".join(sorted(words & said)))
    tags = {t.concept_id: t.score for t in hit.concept_tags}
    for flt in asked.get("concept_filters", []):
        concept = flt["concept_id"]
        if flt["polarity"] == "present":
            found = next(
                (v for k, v in tags.items() if k == concept or k.endswith("/" + concept)), None
            )
            reasons.append(f"carries {concept}" + (f" ({found:.2f})" if found is not None else ""))
        else:
            reasons.append(f"does not carry {concept}")
    if asked.get("episode_kinds"):
        reasons.append(f"kind {hit.kind}")
    return reasons


def _episode(read: Reader, request: Request) -> HTMLResponse:
    episode_id = request.path_params["episode_id"]
    detail = read("experience.get_episode_detail",
                  {"episode_id": episode_id, "include_graph_neighbors": {"depth": 1}})  # fmt: skip
    similar = read(
        "experience.similar_episodes", {"seed_episode_id": episode_id, "max_results": 10}
    )
    return _render("episode.html", episode=detail.episode, graph=detail.graph_neighbors,
                   similar=similar.neighbors, tools=_tool_calls(read, detail.episode))  # fmt: skip


def _tool_calls(read: Reader, episode: Any) -> list[Any]:
    """The tool calls and responses the episode covers: its provenance's ticks, or else its
    time window in its session (an episode without a session covers none it can name)."""
    where = episode.provenance
    session = where.session_id or episode.session_id
    if session is None:
        return []
    asked: dict[str, Any] = {"session_id": session, "event_types": ["tool_call", "tool_response"],
                             "limit": 50, "include_records": False}  # fmt: skip
    if where.start_tick is not None and where.end_tick is not None:
        asked["tick_range"] = {"start": where.start_tick, "end": where.end_tick}
    else:
        window = episode.time_window
        asked["time_range"] = {"start_time": window.start_time.isoformat(),
                               "end_time": window.end_time.isoformat()}  # fmt: skip
    try:
        return list(read("xdb.query", asked).timesteps)
    except XdbError:  # a session the caller may not read: no tool calls to show
        return []


def _session(read: Reader, request: Request) -> HTMLResponse:
    session_id = request.path_params["session_id"]
    params = request.query_params
    zoom = params.get("zoom") or "10"
    if zoom not in timeline.ZOOMS:
        raise ValueError(f"zoom: one of {', '.join(timeline.ZOOMS)}")
    asked: dict[str, Any] = {"session_id": session_id, "limit": 1000}
    if params.get("from"):
        asked["tick_range"] = {"start": int(params["from"]), "end": 2**63 - 1}
    found = read("xdb.query", asked)
    shown = timeline.windows(found.timesteps, zoom)
    ticks = {"start": shown[0].first_tick, "end": shown[-1].last_tick} if shown else None
    marked = read("xdb.annotations", {"session_id": session_id, "tick_range": ticks})
    on_session = timeline.place_marks(shown, marked)
    context = read("xdb.context", {"session_id": session_id})
    episodes: list[Any] = []
    if found.timesteps:  # the session's episodes from the first shown on
        window = {"start_time": found.timesteps[0].timestamp.isoformat()}
        hits = read("experience.search_episodes", {"session_id": session_id,
                    "time_range": window, "sort": {"by": "time_asc"},
                    "page": {"page_size": 200}}).episodes  # fmt: skip
        episodes = timeline.episode_spans(shown, hits)
    later = None
    if found.timesteps and found.total_count > len(found.timesteps):
        later = f"/sessions/{session_id}?" + urlencode(
            {"zoom": zoom, "from": found.timesteps[-1].tick + 1}
        )
    return _render("session.html", session_id=session_id, zoom=zoom, zooms=timeline.ZOOMS,
                   windows=shown, spans=timeline.spans(shown), records=found.records,
                   episodes=episodes, on_session=on_session, marks_cut=marked.truncated,
                   total=found.total_count, context=context, later=later)  # fmt: skip


def _hierarchy(read: Reader, request: Request) -> HTMLResponse:
    params = request.query_params
    query, parent = params.get("q") or None, params.get("parent") or None
    found = read("xdb.find_concept", {"query": query, "limit": 50}).matches if query else None
    listed = None if query else read("xdb.concepts", {"parent_id": parent} if parent else {})
    template = "concept_list.html" if params.get("partial") else "concepts.html"
    return _render(template, query=query, parent=parent, found=found, listed=listed)


def _concept(read: Reader, request: Request) -> HTMLResponse:
    concept_id = request.path_params["concept_id"]
    concept = read("xdb.get_concept", {"concept_id": concept_id})
    usage = read("experience.concept_usage_summary",
                 {"concept_ids": [concept_id], "include_activations": True})  # fmt: skip
    summary = usage.concept_summaries[0] if usage.concept_summaries else None
    buckets = summary.buckets if summary else []
    # Label by day, or by time of day when the buckets are shorter than a day.
    short = bool(buckets) and (buckets[0].end - buckets[0].start).total_seconds() < 86_400
    chart = charts.bars(
        [
            charts.Bar(
                b.start.strftime("%H:%M" if short else "%Y-%m-%d"),
                b.episode_count,
                f"{b.start:%Y-%m-%d} to {b.end:%Y-%m-%d}: {b.episode_count} of {b.total} episodes",
            )
            for b in buckets
        ],
        unit="episodes",
    )
    exemplars = read("experience.exemplars", {"concept_id": concept_id})
    datasets = read("experience.datasets", {"concept_id": concept_id})
    return _render("concept.html", concept=concept, summary=summary, chart=chart,
                   exemplars=exemplars, datasets=datasets)  # fmt: skip


def _bud(read: Reader, request: Request) -> HTMLResponse:
    bud = request.path_params["bud"]
    asked: dict[str, Any] = {"bud_tag_id": bud, "limit": 50}
    if request.query_params.get("cursor"):
        asked["cursor"] = request.query_params["cursor"]
    found = read("xdb.bud_examples", asked)
    following = None
    if found.next_cursor:
        following = f"/buds/{bud}?" + urlencode({"cursor": found.next_cursor})
    return _render("bud.html", found=found, next_url=following)


RELATIONS = ("NEXT", "TAGGED_BY", "CONTAINS", "INFLUENCED_BY", "CHILD_OF", "RELATED_CONCEPT")
NODE_TYPES = ("Episode", "Concept", "Decision", "Tool", "Timestep")


def _graph(read: Reader, request: Request) -> HTMLResponse:
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
                n.name or n.summary or n.concept_id or n.node_id,
                n.type,
                n.depth,
                "/graph?" + urlencode([("seed", n.node_id), *rest]),
            )
            for n in walked.nodes
        ]
        picture = charts.neighbourhood(nodes, [(e.src, e.type, e.dst) for e in walked.edges])
    return _render("graph.html", params=params, seeds=seeds, walked=walked, picture=picture,
                   relations=RELATIONS, types=NODE_TYPES, chosen_relations=relations,
                   chosen_types=types)  # fmt: skip


def _learning(read: Reader, request: Request) -> HTMLResponse:
    status = request.query_params.get("status") or None
    buds = read("xdb.buds", {"status": status} if status else {})
    datasets = read("experience.datasets", {})
    runs = read("experience.training_runs", {})
    quota = read("xdb.quota", {})
    context = read("xdb.context", {})
    return _render("learning.html", buds=buds.buds, status=status, datasets=datasets.datasets,
                   runs=runs.training_runs, quota=quota, context=context)  # fmt: skip


def _lessons(read: Reader, request: Request) -> HTMLResponse:
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
    return _render("lessons.html", lessons=listed.lessons, stats=stats, tier=tier, topic=topic,
                   timeline=timeline, warned=warned)  # fmt: skip
