"""Episodes made from the log: when an event ends, its timesteps become one episode.

A timestep recorded with ``event_end`` and an ``event_id`` closes that event (a reply, a tool
call and its answer, a steering burst). Its episode gets:

- content: the event's timesteps in tick order, tokens joined as they are, messages (no
  ``token_id``) one per line; summary: the content's first sentence (``default_summary``);
- kind: ``reply`` for output events, otherwise the event type (``tool_call``, ``input``...);
- concept tags: per concept the **max** activation over the event's timesteps (a concept
  that fired strongly once matters more than its average over a long reply), the top
  ``TOP_K`` with a score of at least ``MIN_SCORE``, kind ``stable``;
- time window, session and provenance (``source: log``, first and last tick).

The episode is written in the same transaction as the timestep that ends the event: both or
neither survive a crash.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdb.episodes.episode_models import DEFAULT_NAMESPACE, AddEpisodeRequest, Provenance, TimeWindow
from xdb.ids import new_id
from xdb.log.log_models import Timestep
from xdb.ops.registry import Context
from xdb.store.episode_row import episode_row
from xdb.store.types import NewEpisode
from xdb.timeutil import now_us

TOP_K = 10
MIN_SCORE = 0.1


def concept_tags(steps: Sequence[Timestep]) -> list[dict[str, object]]:
    best: dict[str, float] = {}
    for step in steps:
        for concept, score in step.concept_activations.items():
            if score > best.get(concept, -1.0):
                best[concept] = score
    ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))
    return [
        {"concept_id": c, "score": s, "kind": "stable"} for c, s in ranked[:TOP_K] if s >= MIN_SCORE
    ]


def episode_request(steps: Sequence[Timestep]) -> AddEpisodeRequest:
    first, last = steps[0], steps[-1]
    tokens = all(s.token_id is not None for s in steps)
    content = ("" if tokens else "\n").join(s.content for s in steps).strip() or "(empty event)"
    kind = "reply" if first.event_type.value == "output" else first.event_type.value
    return AddEpisodeRequest.model_validate(
        {
            "content": content,
            "kind": kind,
            "namespace": DEFAULT_NAMESPACE,
            "session_id": first.session_id,
            # Given timestamps need not rise with the ticks: the window spans them all.
            "time_window": TimeWindow(
                start_time=min(s.timestamp for s in steps),
                end_time=max(s.timestamp for s in steps),
            ),
            "concept_tags": concept_tags(steps),
            "provenance": Provenance(
                session_id=first.session_id,
                start_tick=first.tick,
                end_tick=last.tick,
                source="log",
                details={"event_id": first.event_id},
            ),
        }
    )


def episode_maker(ctx: Context) -> Callable[[Sequence[Timestep]], NewEpisode]:
    """What the store calls, inside the transaction that ends an event, to turn the event's
    timesteps into the episode row it writes in that same transaction."""
    created_by = ctx.caller.id

    def make(steps: Sequence[Timestep]) -> NewEpisode:
        return episode_row(
            episode_request(steps),
            episode_id=new_id("episode"),
            created_us=now_us(),
            created_by=created_by,
        )

    return make
