"""A library user's script: README.md's Python examples, written as a user would.

``tests/test_api.py`` runs ``mypy --strict`` on this file (it must pass: plain strings for
enums, dicts for nested models, the responses' attributes typed) and runs the functions
on an in-memory database. Not collected by pytest; not part of ``make lint``'s mypy run.
"""

from __future__ import annotations

import xdb
from xdb.log.log_models import QueryResponse, RecordRequest
from xdb.models.common import EventType


def log(db: xdb.Database) -> QueryResponse:
    ts = db.record(
        event_type="input",
        content="Is the applicant eligible?",
        concept_activations={"org.hatcat/first-light@1.0.1::concept/Eligibility": 0.87},
    )
    db.record_batch(
        [
            {"event_type": "output", "content": tok, "token_id": i}
            for i, tok in enumerate(["Yes", ",", " they", " are"])
        ]
    )
    db.record_batch(
        [
            RecordRequest(event_type=EventType.OUTPUT, content="."),
            {"event_type": "system", "content": "done"},
        ]
    )
    db.tag(tag_name_or_id="interesting", timestep_id=ts.timestep_id, note="first question")
    db.comment(content="I was unsure about the income rule", tick_range={"start": 1, "end": 5})
    page = db.query(
        text_search="eligible",
        tags=["interesting"],
        concept_activations={"org.hatcat/first-light@1.0.1::concept/Eligibility": {"min": 0.5}},
    )
    while page.next_cursor:  # stable keyset paging
        page = db.query(text_search="eligible", tags=["interesting"], cursor=page.next_cursor)
    tick: int = page.timesteps[0].tick
    assert tick >= 1
    return page


def episodes(db: xdb.Database) -> str:
    db.add_episode(
        content="The deploy failed: the migration locked the users table.",
        kind="incident",
        namespace="shop",
        concept_tags=[{"concept_id": "Failure", "score": 0.9}],
    )
    found = db.search_episodes(
        text_query="why did the deploy fail?",
        namespace="shop",
        concept_filters=[{"concept_id": "Failure", "min_score": 0.5}],
        sort={"by": "relevance", "recency_weight": 0.2},
        page={"page_size": 10},
    )
    detail = db.get_episode_detail(
        episode_id=found.episodes[0].episode_id, include_graph_neighbors={"depth": 1}
    )
    db.similar_episodes(seed_episode_id=found.episodes[0].episode_id)
    episode_id: str = detail.episode.episode_id
    return episode_id


def concepts(db: xdb.Database, pack: str, episode_id: str) -> None:
    db.import_concepts(path=pack)
    db.concepts(parent_id="Deception")
    db.find_concept(query="decepton")
    db.concept_neighborhood(seed_ids=["Dancing"], direction="ancestors")
    decision = db.add_node(node_type="Decision", name="roll back")
    db.link(src=decision.node_id, dst=episode_id)  # INFLUENCED_BY
    db.graph_neighborhood(seed_node_ids=[decision.node_id], max_depth=2)
    db.concept_usage_summary(concept_ids=["Deception"], include_descendants=True)


def memcp(db: xdb.Database) -> None:
    added = db.memcp_add_episode(content="Notes from the standup", context="shop")
    db.memcp_search_episodes(query="standup", limit=5)
    db.memcp_get_episode(id=added.id)
    db.memcp_delete_episode(added.id)
    db.status()
