"""Episodes made from the log when an event ends."""

from __future__ import annotations

from typing import Any

import pytest

import xdb
from xdb.episodes.auto_episodes import MIN_SCORE, TOP_K


def test_an_ended_reply_becomes_an_episode_with_max_aggregated_concepts(target: str) -> None:
    with xdb.connect(target, session_id="s", embedder="hash") as db:
        db.record(event_type="input", content="How do I roll back?", event_id="q1", event_end=True)
        tokens = ["Use ", "git ", "revert. ", "Then ", "redeploy."]
        acts = [{"Care": 0.2, "Deploy": 0.9}, {"Care": 0.7}, {"Deploy": 0.3}, {"Noise": 0.05}, {}]
        batch = [
            {
                "event_type": "output",
                "content": t,
                "token_id": i,
                "event_id": "r1",
                "event_start": i == 0,
                "event_end": i == len(tokens) - 1,
                "concept_activations": acts[i],
            }
            for i, t in enumerate(tokens)
        ]
        db.record_batch(batch)
        found = db.search_episodes(sort={"by": "time_asc"}).episodes
        assert [h.kind for h in found] == ["input", "reply"]
        reply = db.get_episode_detail(episode_id=found[1].episode_id).episode
        assert reply.content == "Use git revert. Then redeploy."
        assert reply.summary == "Use git revert."
        # max over the event, threshold MIN_SCORE drops Noise, best first
        assert [(t.concept_id, t.score) for t in reply.concept_tags] == [
            ("Deploy", 0.9),
            ("Care", 0.7),
        ]
        assert MIN_SCORE > 0.05 and TOP_K >= 2
        prov = reply.provenance
        assert (prov.source, prov.start_tick, prov.end_tick) == ("log", 2, 6)
        assert reply.previous_episode_id == found[0].episode_id  # NEXT within the session
        graph = db.get_episode_detail(
            episode_id=reply.episode_id,
            include_graph_neighbors={"depth": 1, "relation_filters": ["CONTAINS"]},
        ).graph_neighbors
        assert {n.node_id for n in graph.nodes if n.type == "Timestep"} == {
            f"ts-s-{t}" for t in range(2, 7)
        }


def test_timesteps_without_an_ended_event_make_no_episode(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        db.record(event_type="output", content="half a reply", event_id="r9")
        db.record(event_type="output", content="no event", event_end=True)
        assert db.search_episodes().episodes == []


def test_an_event_and_its_episode_are_written_together_or_not_at_all(target: str) -> None:
    from xdb.store.types import NewTimestep

    with xdb.connect(target, session_id="s", embedder="hash") as db:
        db.record(event_type="output", content="start", event_id="r1", token_id=0)

        def broken(steps: object) -> Any:
            raise RuntimeError("the episode could not be made")

        end = NewTimestep("s", 1, "output", "assistant", " end", 1, "r1", False, True, {})
        with pytest.raises(RuntimeError):
            db.store.record([end], close_event=broken)
        # The ending timestep rolled back with the episode that failed.
        assert [t.content for t in db.recent(n=10).timesteps] == ["start"]
        assert db.search_episodes().episodes == []
        db.record(event_type="output", content=" end", event_id="r1", token_id=1, event_end=True)
        assert [h.snippet for h in db.search_episodes().episodes] == ["start end"]
