"""A session's page: the conversation (its turns in order, like a chat: what the user said,
the agent's answers, tool calls and responses, steering), or its timeline in windows at a
zoom. A short session opens as the conversation; a long one at 10 ticks a window."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from fastapi import Request

from xdb.explorer import timeline
from xdb.explorer.render import Page, page, session_href

if TYPE_CHECKING:
    from xdb.explorer.routes import Reader

CHAT = "chat"
SHORT = 1000  # a session of at most this many timesteps opens as the conversation
PAGE = 1000  # timesteps a page reads


def session_page(read: Reader, request: Request) -> Page:
    session_id = request.path_params["session_id"]
    params = request.query_params
    zoom = params.get("zoom") or params.get("view") or ""
    if zoom and zoom != CHAT and zoom not in timeline.ZOOMS:
        raise ValueError(f"zoom: {CHAT} or one of {', '.join(timeline.ZOOMS)}")
    asked: dict[str, Any] = {"session_id": session_id, "limit": PAGE}
    if params.get("from"):
        asked["tick_range"] = {"start": int(params["from"]), "end": 2**63 - 1}
    found = read("xdb.query", asked)
    if not zoom:
        zoom = CHAT if found.total_count <= SHORT else "10"
    if zoom == CHAT:
        shown: list[Any] = timeline.messages(found.timesteps)
    else:
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
        later = (
            session_href(session_id)
            + "?"
            + urlencode({"zoom": zoom, "from": found.timesteps[-1].tick + 1})
        )
    zooms = [CHAT, *timeline.ZOOMS]
    return page("session.html", session_id=session_id, zoom=zoom, zooms=zooms, windows=shown,
                spans=timeline.spans(shown), records=found.records, episodes=episodes,
                on_session=on_session, marks_cut=marked.truncated, total=found.total_count,
                context=context, later=later, chat=zoom == CHAT,
                first=params.get("from"))  # fmt: skip
