"""An episode's page: its content (the words a search asked for marked), concepts, labels,
the tags and comments on the experience it covers, the tool calls it covers, its
neighbours in the session and the graph, and similar episodes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import Request

from xdb.errors import XdbError
from xdb.explorer.render import Page, page
from xdb.explorer.search_page import content_words
from xdb.explorer.timeline import Mark, marks

if TYPE_CHECKING:
    from xdb.explorer.routes import Reader


def episode_page(read: Reader, request: Request) -> Page:
    episode_id = request.path_params["episode_id"]
    detail = read("experience.get_episode_detail",
                  {"episode_id": episode_id, "include_graph_neighbors": {"depth": 1}})  # fmt: skip
    similar = read(
        "experience.similar_episodes", {"seed_episode_id": episode_id, "max_results": 10}
    )
    episode = detail.episode
    ticks = _ticks(read, episode)
    graph = detail.graph_neighbors
    return page("episode.html", episode=episode, graph=graph, similar=similar.neighbors,
                nodes={n.node_id: n for n in graph.nodes}, tools=_tool_calls(read, episode, ticks),
                marks=_marks(read, episode, ticks), ticks=ticks,
                kinds={t.concept_id: t.kind.value for t in episode.concept_tags},
                terms=content_words(request.query_params.get("hl")))  # fmt: skip


def _session(episode: Any) -> str | None:
    return episode.provenance.session_id or episode.session_id  # type: ignore[no-any-return]


def _ticks(read: Reader, episode: Any) -> tuple[int, int] | None:
    """The ticks of its session the episode covers: its provenance's, or else those of the
    timesteps in its time window (None: no session, or no timestep of it in the window)."""
    where = episode.provenance
    if where.start_tick is not None and where.end_tick is not None:
        return int(where.start_tick), int(where.end_tick)
    session = _session(episode)
    if session is None:
        return None
    window = episode.time_window
    asked = {"session_id": session, "limit": 1, "include_records": False,
             "time_range": {"start_time": window.start_time.isoformat(),
                            "end_time": window.end_time.isoformat()}}  # fmt: skip
    try:
        first = read("xdb.query", asked).timesteps
        last = read("xdb.query", {**asked, "order": "desc"}).timesteps
    except XdbError:  # a session the caller may not read
        return None
    return (first[0].tick, last[0].tick) if first and last else None


def _tool_calls(read: Reader, episode: Any, ticks: tuple[int, int] | None) -> list[Any]:
    """The tool calls and responses the episode covers (an episode without ticks in a
    session covers none it can name)."""
    session = _session(episode)
    if session is None or ticks is None:
        return []
    asked = {"session_id": session, "event_types": ["tool_call", "tool_response"],
             "limit": 50, "include_records": False,
             "tick_range": {"start": ticks[0], "end": ticks[1]}}  # fmt: skip
    try:
        return list(read("xdb.query", asked).timesteps)
    except XdbError:  # a session the caller may not read: no tool calls to show
        return []


def _marks(read: Reader, episode: Any, ticks: tuple[int, int] | None) -> list[Mark]:
    """The tags applied and comments made on what the episode covers: its ticks, its event
    (``provenance.details.event_id``), and its session as a whole."""
    session = _session(episode)
    if session is None:
        return []
    asked: dict[str, Any] = {"session_id": session, "limit": 200}
    if ticks is not None:
        asked["tick_range"] = {"start": ticks[0], "end": ticks[1]}
    try:
        found = read("xdb.annotations", asked)
    except XdbError:
        return []
    event = episode.provenance.details.get("event_id")

    def covered(on: Any) -> bool:
        if on.timestep_id or on.range_start is not None:
            return ticks is not None  # the store kept those touching its ticks
        if on.event_id:
            return bool(event) and on.event_id == event
        return True  # on the session

    return marks(found, covered)
