"""Recording operations through the Python API, on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import xdb
from xdb.log.log_models import TagResponse
from xdb.models.common import BudStatus, Role, TagType, TargetType


@pytest.fixture
def db(target: str) -> Iterator[xdb.Database]:
    database = xdb.connect(target, session_id="s1")
    yield database
    database.close()


def test_record_returns_id_and_increasing_ticks(db: xdb.Database) -> None:
    first = db.record(event_type="input", content="hello")
    second = db.record(event_type="output", content="hi", token_id=42)
    assert (first.timestep_id, first.tick) == ("ts-s1-1", 1)
    assert (second.timestep_id, second.tick) == ("ts-s1-2", 2)
    stored = db.recent(n=2).timesteps
    assert [t.role for t in stored] == [Role.USER, Role.ASSISTANT]  # derived from event_type
    assert stored[1].token_id == 42


def test_record_keeps_every_field(db: xdb.Database) -> None:
    db.record(
        event_type="tool_call",
        content='{"cmd": "ls"}',
        concept_activations={"org.hatcat/first-light@1.0.1::concept/Tool": 0.75},
        event_id="call-1",
        event_start=True,
        role="assistant",
        timestamp="2025-11-29T01:23:45+02:00",  # type: ignore[arg-type]  # a string is parsed
    )
    (ts,) = db.recent(n=1).timesteps
    assert ts.event_id == "call-1" and ts.event_start and not ts.event_end
    assert ts.concept_activations == {"org.hatcat/first-light@1.0.1::concept/Tool": 0.75}
    assert ts.timestamp.isoformat() == "2025-11-28T23:23:45+00:00"  # converted to UTC
    assert ts.fidelity.value == "hot"


def test_naive_timestamp_is_read_as_utc(db: xdb.Database) -> None:
    db.record(event_type="input", content="x", timestamp="2025-01-01T00:00:00")  # type: ignore[arg-type]
    assert db.recent(n=1).timesteps[0].timestamp.isoformat() == "2025-01-01T00:00:00+00:00"


def test_record_batch_keeps_order_and_sessions(db: xdb.Database) -> None:
    out = db.record_batch(
        [
            {"event_type": "output", "content": "a"},
            {"event_type": "output", "content": "b", "session_id": "other"},
            {"event_type": "output", "content": "c"},
        ]
    )
    assert [(r.timestep_id, r.tick) for r in out.results] == [
        ("ts-s1-1", 1),
        ("ts-other-1", 1),
        ("ts-s1-2", 2),
    ]


def test_record_batch_is_all_or_nothing(db: xdb.Database) -> None:
    with pytest.raises(xdb.InvalidRequest) as err:
        db.record_batch([{"event_type": "output", "content": "a"}, {"event_type": "output"}])
    assert "timesteps[1].content" in err.value.message
    assert db.status().experience_stats.total_timesteps == 0


def test_tag_creates_custom_tag_once(db: xdb.Database) -> None:
    ts = db.record(event_type="input", content="hello")
    first = db.tag(tag_name_or_id="interesting", timestep_id=ts.timestep_id, note="why")
    again = db.tag(tag_name_or_id="interesting", timestep_id=ts.timestep_id, confidence=0.5)
    assert first.created and not again.created
    assert first.tag_id == again.tag_id
    assert first.target_type is TargetType.TIMESTEP and first.timestep_count == 1
    (tag,) = db.tags().tags
    assert tag.tag_type is TagType.CUSTOM and tag.application_count == 2


def test_tag_event_and_range_cover_timesteps(db: xdb.Database) -> None:
    db.record(event_type="tool_call", content="call", event_id="e1", event_start=True)
    db.record(event_type="tool_response", content="reply", event_id="e1", event_end=True)
    db.record(event_type="output", content="done")
    assert db.tag(tag_name_or_id="tool", event_id="e1").timestep_count == 2
    assert db.tag(tag_name_or_id="late", tick_range={"start": 2, "end": 3}).timestep_count == 2
    # The XAPI's nested target form and start_tick/end_tick names are accepted too.
    # (A request form, not a keyword of the typed method: through call, as the skins send it.)
    nested = db.call(
        "tag",
        {"tag_name_or_id": "late", "target": {"tick_range": {"start_tick": 3, "end_tick": 3}}},
    )
    assert isinstance(nested, TagResponse)
    assert nested.timestep_count == 1


def test_tag_by_id_and_type_prefix(db: xdb.Database) -> None:
    ts = db.record(event_type="input", content="money")
    bud = db.create_tag(name="financial-ambiguity", tag_type="bud")
    by_id = db.tag(tag_name_or_id=bud.tag_id, timestep_id=ts.timestep_id)
    # created: the tag's first application to this timestep (the tag existed already).
    assert by_id.tag_id == bud.tag_id and by_id.created
    db.create_tag(name="financial-ambiguity", tag_type="custom")
    with pytest.raises(xdb.InvalidRequest, match="ambiguous"):
        db.tag(tag_name_or_id="financial-ambiguity", timestep_id=ts.timestep_id)
    typed = db.tag(tag_name_or_id="bud:financial-ambiguity", timestep_id=ts.timestep_id)
    assert typed.tag_id == bud.tag_id and not typed.created  # the timestep has it already


def test_create_tag_types_and_idempotence(db: xdb.Database) -> None:
    bud = db.create_tag(name="b", tag_type="BUD", related_concepts=["c/Money"], description="d")  # type: ignore[arg-type]
    assert bud.tag_type is TagType.BUD and bud.bud_status is BudStatus.COLLECTING and bud.created
    again = db.create_tag(name="b", tag_type="bud")
    assert again.tag_id == bud.tag_id and not again.created
    person = db.create_tag(name="person:Alice", tag_type="entity", entity_type="person")
    concept = db.create_tag(name="Honesty", tag_type="concept", concept_id="pack::Honesty")
    tags = {t.id: t for t in db.tags().tags}
    entity_type = tags[person.tag_id].entity_type
    assert entity_type is not None and entity_type.value == "person"
    assert tags[concept.tag_id].concept_id == "pack::Honesty"
    assert tags[bud.tag_id].related_concepts == ["c/Money"]
    assert [t.name for t in db.tags(tag_type="bud", bud_status="collecting").tags] == ["b"]


def test_comment_targets(db: xdb.Database) -> None:
    ts = db.record(event_type="input", content="x", event_id="e")
    ids = {
        db.comment(content="on timestep", timestep_id=ts.timestep_id).comment_id,
        db.comment(content="on event", event_id="e").comment_id,
        db.comment(content="on range", tick_range={"start": 1, "end": 1}).comment_id,
        db.comment(content="on session").comment_id,
    }
    assert len(ids) == 4 and all(i.startswith("comment-") for i in ids)
    assert db.status().experience_stats.total_comments == 4


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"tag_name_or_id": "x", "timestep_id": "ts-s1-99"}, "timestep_id"),
        ({"tag_name_or_id": "x", "timestep_id": "not-an-id"}, "timestep_id"),
        ({"tag_name_or_id": "x", "event_id": "missing"}, "event_id"),
        ({"tag_name_or_id": "tag-doesnotexist", "timestep_id": "ts-s1-1"}, "tag_name_or_id"),
        (
            {"tag_name_or_id": "x", "tick_range": {"start": 1, "end": 2}, "session_id": "no"},
            "session_id",
        ),
    ],
)
def test_tag_unknown_target_writes_nothing(
    db: xdb.Database, fields: dict[str, Any], field: str
) -> None:
    db.record(event_type="input", content="x")
    with pytest.raises(xdb.NotFound) as err:
        db.tag(**fields)
    assert err.value.field == field
    assert db.tags().tags == []  # the custom tag was not created either
    assert db.status().experience_stats.total_tag_applications == 0


def test_comment_on_unknown_targets_is_not_found(db: xdb.Database) -> None:
    with pytest.raises(xdb.NotFound):
        db.comment(content="x")  # the session has no timesteps yet
    db.record(event_type="input", content="x")
    with pytest.raises(xdb.NotFound):
        db.comment(content="x", event_id="nope")
    assert db.status().experience_stats.total_comments == 0
