"""The explorer's routes. Each page gathers its data from read-only operations run for the
request's caller (``Database.run``, so access and disclosure policy apply exactly as over
the API), then renders a template. Bad input shows the operation's own error, naming the
field. The pages themselves live beside: ``search``, ``episode``, ``session``,
``concepts``, ``learning``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from xdb.core import Database
from xdb.errors import InvalidRequest, XdbError
from xdb.explorer import concept_pages, episode, learning_pages, search_page, session
from xdb.explorer.login import add_login
from xdb.explorer.render import HERE, Page, page, render
from xdb.interfaces.auth import request_caller
from xdb.ops.catalog import REGISTRY

__all__ = ["Reader", "add_explorer", "search_request"]

search_request = search_page.search_request  # (its old home)
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


def _error(exc: XdbError, **values: Any) -> HTMLResponse:
    data = exc.to_dict()
    status = _STATUS.get(str(data.get("type")), 500)
    return render("error.html", http_status=status, error=data, **values)


Build = Callable[[Reader, Request], Page]

# (path, page, summary): the pages, as the API's reference lists them.
ROUTES: list[tuple[str, Build, str]] = [
    ("/", lambda read, request: _home(read), "the overview: state and the latest episodes."),
    ("/search", search_page.search_page,
     "search episodes (q, concept, without, kind, label, from, to, sort, cursor, size)."),
    ("/sessions/{session_id:path}", session.session_page,
     "a session as a conversation (view=chat, the default for short sessions) or its timeline"
     " (zoom: tick, 10, 100, 1000, minute, hour, day; from: a tick)."),
    ("/concepts", concept_pages.hierarchy,
     "the concept hierarchy (parent), or concepts found by name"
     " (q; partial=1 answers the list alone, for find-as-you-type)."),
    ("/episodes/{episode_id:path}", episode.episode_page,
     "one episode, its tags, comments, labels, neighbours, similar ones (hl: words to mark)."),
    ("/concepts/{concept_id:path}", concept_pages.concept_page,
     "one concept: usage over time, co-occurring concepts, exemplars, datasets."),
    ("/buds/{bud:path}", learning_pages.bud_page, "a bud (candidate concept) and its examples."),
    ("/graph", concept_pages.graph_page,
     "the experience graph around a node (seed, depth, relation, type),"
     " each node a link to walk on."),
    ("/learning", learning_pages.learning_page,
     "buds by status, datasets and their versions, training runs,"
     " the quota and context-window gauges."),
    ("/datasets/{dataset_id:path}", learning_pages.dataset_page,
     "a dataset version: its concept, recipe and members (cursor)."),
    ("/training-runs/{run_id:path}", learning_pages.run_page,
     "a training run: its concepts, datasets, metrics and artifacts."),
    ("/lessons", learning_pages.lessons_page,
     "the engine's lessons by tier, their stats, a topic's timeline."),
    ("/lessons/{lesson_id:path}", learning_pages.lesson_page,
     "one lesson: its tier, scope, counts and edges."),
]  # fmt: skip


def add_explorer(app: FastAPI, db: Database) -> None:
    """The explorer's pages, its stylesheet and script, on ``app``."""

    def add(path: str, build: Build, summary: str) -> None:
        async def endpoint(request: Request) -> Response:
            read = Reader(db, request)
            common: dict[str, Any] = {"caller": read.caller, "here": request.url.path}
            try:
                made = await run_in_threadpool(build, read, request)
            except XdbError as exc:
                return _error(exc, **common)
            except ValueError as exc:  # a query string that is not a number, a date
                return _error(InvalidRequest(str(exc)), **common)
            return render(made.template, **common, **made.values)

        app.add_api_route(path, endpoint, methods=["GET"], include_in_schema=False,
                          summary=f"Explorer (HTML): {summary}")  # fmt: skip

    add_login(app, db)
    for path, build, summary in ROUTES:
        add(path, build, summary)

    def static(name: str, media_type: str) -> Callable[[], Response]:
        def serve() -> Response:
            body = (HERE / "static" / name).read_bytes()
            return Response(body, media_type=media_type,
                            headers={"Cache-Control": "max-age=300"})  # fmt: skip

        return serve

    app.add_api_route("/explorer.css", static("explorer.css", "text/css"), methods=["GET"],
                      include_in_schema=False, summary="Explorer: its stylesheet.")  # fmt: skip
    app.add_api_route("/explorer.js", static("explorer.js", "text/javascript"), methods=["GET"],
                      include_in_schema=False,
                      summary="Explorer: find-as-you-type (pages work without it).")  # fmt: skip
    app.add_api_route("/favicon.ico", static("favicon.svg", "image/svg+xml"), methods=["GET"],
                      include_in_schema=False, summary="Explorer: its icon.")  # fmt: skip


def _home(read: Reader) -> Page:
    status = read("xdb.status", {})
    latest = {"sort": {"by": "time_desc"}, "page": {"page_size": search_page.PAGE_SIZE}}
    recent = read("experience.search_episodes", latest)
    return page("home.html", status=status, hits=recent.episodes)
