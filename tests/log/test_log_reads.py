"""query, recent and tags through the Python API, on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

import xdb
from xdb.log.log_models import QueryResponse, RecentResponse

C_HONEST = "org.hatcat/first-light@1.0.1::concept/Honesty"
C_TOOL = "org.hatcat/first-light@1.0.1::concept/Tool"


@pytest.fixture
def db(target: str) -> Iterator[xdb.Database]:
    database = xdb.connect(target, session_id="s1")
    database.record_batch(
        [
            {
                "event_type": "input",
                "content": "Is the applicant eligible for welfare?",
                "timestamp": "2025-11-01T10:00:00Z",
                "concept_activations": {C_HONEST: 0.9},
            },
            {
                "event_type": "tool_call",
                "content": "search eligibility rules",
                "event_id": "e1",
                "timestamp": "2025-11-02T10:00:00Z",
                "concept_activations": {C_TOOL: 0.8},
            },
            {
                "event_type": "tool_response",
                "content": "rules: income below threshold",
                "event_id": "e1",
                "timestamp": "2025-11-03T10:00:00Z",
                "concept_activations": {C_TOOL: 0.4, C_HONEST: 0.2},
            },
            {
                "event_type": "output",
                "content": "The applicant is eligible.",
                "timestamp": "2025-11-04T10:00:00Z",
                "concept_activations": {C_HONEST: 0.6},
            },
            {
                "event_type": "output",
                "content": "Anything else?",
                "timestamp": "2025-11-05T10:00:00Z",
            },
        ]
    )
    database.record(
        event_type="input",
        content="eligible elsewhere",
        session_id="s2",
        timestamp=datetime(2025, 11, 6, 10, tzinfo=UTC),
    )
    database.tag(tag_name_or_id="tooling", event_id="e1")
    database.tag(tag_name_or_id="answer", timestep_id="ts-s1-4")
    database.tag(tag_name_or_id="answer", tick_range={"start": 4, "end": 5})
    database.tag(tag_name_or_id="late", tick_range={"start": 3, "end": 5})
    yield database
    database.close()


def ticks(resp: QueryResponse | RecentResponse) -> list[int]:
    return [t.tick for t in resp.timesteps]


FILTERS: dict[str, tuple[dict[str, Any], list[int]]] = {
    "none": ({}, [1, 2, 3, 4, 5]),
    "tick_range": ({"tick_range": {"start": 2, "end": 3}}, [2, 3]),
    "time_range": (
        {"time_range": {"start_time": "2025-11-02T00:00:00Z", "end_time": "2025-11-04T10:00:00"}},
        [2, 3, 4],
    ),
    "event_types": ({"event_types": ["output", "input"]}, [1, 4, 5]),
    "tag_on_event": ({"tags": ["tooling"]}, [2, 3]),
    "tag_on_timestep_and_range": ({"tags": ["answer"]}, [4, 5]),
    "two_tags_all_required": ({"tags": ["late", "tooling"]}, [3]),
    "unknown_tag": ({"tags": ["never-applied"]}, []),
    "activation": ({"concept_activations": {C_HONEST: {"min": 0.5}}}, [1, 4]),
    "activation_max": ({"concept_activations": {C_TOOL: {"min": 0.1, "max": 0.5}}}, [3]),
    "text": ({"text_search": "eligible"}, [1, 4]),
    "text_two_words": ({"text_search": "eligibility rules"}, [2]),
    "text_punctuation": ({"text_search": 'rules: "income'}, [3]),
    "combined": (
        {
            "text_search": "applicant",
            "event_types": ["output"],
            "tags": ["answer"],
            "concept_activations": {C_HONEST: {"min": 0.5, "max": 1}},
            "time_range": {"start_time": "2025-11-04T00:00:00Z"},
            "tick_range": {"start": 1, "end": 9},
        },
        [4],
    ),
    "combined_excluding": ({"text_search": "applicant", "tags": ["tooling"]}, []),
}


@pytest.mark.parametrize("name", FILTERS)
def test_each_filter_alone_and_combined(db: xdb.Database, name: str) -> None:
    fields, expected = FILTERS[name]
    resp = db.query(**fields)
    assert ticks(resp) == expected
    assert resp.total_count == len(expected)


def test_session_scoping(db: xdb.Database) -> None:
    assert ticks(db.query(session_id="s2")) == [1]
    everywhere = db.query(all_sessions=True, text_search="eligible")
    assert [(t.session_id, t.tick) for t in everywhere.timesteps] == [
        ("s1", 1),
        ("s1", 4),
        ("s2", 1),
    ]


def test_descending_order_and_paging(db: xdb.Database) -> None:
    seen: list[int] = []
    cursor = None
    while True:
        page = db.query(order="desc", limit=2, cursor=cursor)
        assert page.total_count == 5
        seen += ticks(page)
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [5, 4, 3, 2, 1]


def test_paging_is_stable_under_concurrent_writes(target: str) -> None:
    database = xdb.connect(target, session_id="p")
    # Appends only: under the default 8,192-token window a writer outpacing a slow reader
    # (a loaded machine) has the session compacted, which takes its oldest ticks away.
    admin = database.as_caller(xdb.Caller(id="admin", roles=("admin",)))
    admin.set_resource_contract(context_window_tokens=2**40)
    database.record_batch(
        [
            {"event_type": "output", "content": f"token {i}", "timestamp": "2025-01-01T00:00:00Z"}
            for i in range(300)
        ]
    )
    stop = threading.Event()

    def writer() -> None:
        while not stop.is_set():
            database.record(event_type="output", content="late token")

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        seen: list[str] = []
        cursor = None
        while True:
            page = database.query(
                limit=7,
                cursor=cursor,
                text_search="token",
                time_range={"end_time": "2025-01-01T00:00:00Z"},
            )
            seen += [t.id for t in page.timesteps]
            cursor = page.next_cursor
            if cursor is None:
                break
    finally:
        stop.set()
        thread.join()
    assert len(seen) == len(set(seen)) == 300
    assert database.status().experience_stats.total_timesteps > 300  # writes really happened
    database.close()


def test_recent_is_oldest_first(db: xdb.Database) -> None:
    assert ticks(db.recent(n=2)) == [4, 5]
    assert ticks(db.recent(n=100, session_id="s2")) == [1]


def test_memory_database_works() -> None:
    with xdb.connect(":memory:") as database:
        database.record(event_type="input", content="volatile")
        assert database.query(text_search="volatile").total_count == 1


def test_current_session_resumes_latest(target: str) -> None:
    with xdb.connect(target) as first:
        made = first.record(event_type="input", content="a")
        assert made.tick == 1 and first.session_id.startswith("session-")
    with xdb.connect(target) as second:
        again = second.record(event_type="input", content="b")
        assert again.tick == 2 and second.session_id == first.session_id
        fresh = second.start_session()
        assert second.record(event_type="input", content="c").tick == 1
        assert second.session_id == fresh != first.session_id


def test_annotations_are_read_back_in_tick_order_and_by_range(db: xdb.Database) -> None:
    """Tags and comments come back with their targets: a timestep's and a range's where
    they touch the ticks asked, an event's and the session's always."""
    for n in range(1, 6):
        db.record(event_type="output", content=f"t{n}", session_id="n", event_id=f"ev{n % 2}")
    at: dict[str, Any] = {"session_id": "n"}
    db.tag(tag_name_or_id="late", tick_range={"start": 3, "end": 4}, note="why", **at)
    db.tag(tag_name_or_id="first", timestep_id="ts-n-1")
    db.tag(tag_name_or_id="odd", event_id="ev1", **at)
    db.comment(content="on the whole session", **at)
    db.comment(content="on tick 5", timestep_id="ts-n-5")
    db.comment(content="on ticks 1-2", tick_range={"start": 1, "end": 2}, **at)
    everything = db.annotations(**at)
    assert everything.session_id == "n" and not everything.truncated
    names = [(a.tag.name, a.application.target_type.value) for a in everything.tags]
    assert names == [("odd", "event"), ("first", "timestep"), ("late", "range")]
    assert everything.tags[2].application.note == "why"
    said = [(c.content, c.timestep_id) for c in everything.comments]
    assert said == [("on the whole session", None), ("on ticks 1-2", None),
                    ("on tick 5", "ts-n-5")]  # fmt: skip
    later = db.annotations(tick_range={"start": 4, "end": 9}, **at)
    assert [a.tag.name for a in later.tags] == ["odd", "late"]
    assert [c.content for c in later.comments] == ["on the whole session", "on tick 5"]
    one = db.annotations(limit=1, **at)
    assert one.truncated and len(one.tags) == 1 and len(one.comments) == 1
    assert db.annotations(session_id="other").tags == []
