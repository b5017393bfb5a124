"""Bad input gets an InvalidRequest that names the field and what is allowed."""

from __future__ import annotations

import pytest

import xdb


@pytest.fixture
def db(target: str) -> xdb.Database:
    database = xdb.connect(target, session_id="s")
    yield database
    database.close()


@pytest.mark.parametrize(
    ("op", "fields", "field", "words"),
    [
        ("record", {"event_type": "speech", "content": "x"}, "event_type", "'input'"),
        ("record", {"event_type": "input", "content": ""}, "content", "at least 1"),
        ("record", {"event_type": "input"}, "content", "required"),
        (
            "record",
            {"event_type": "input", "content": "x", "concept_activations": {"c": 1.5}},
            "concept_activations.c",
            "less than or equal to 1",
        ),
        (
            "record",
            {"event_type": "input", "content": "x", "concept_activations": {"c": -0.1}},
            "concept_activations.c",
            "greater than or equal to 0",
        ),
        ("record", {"event_type": "input", "content": "x", "role": "robot"}, "role", "'user'"),
        (
            "record",
            {"event_type": "input", "content": "x", "timestamp": "yesterday"},
            "timestamp",
            "datetime",
        ),
        (
            "record",
            {"event_type": "input", "content": "x", "colour": "red"},
            "colour",
            "not a known field",
        ),
        ("tag", {"tag_name_or_id": "x"}, None, "exactly one target"),
        (
            "tag",
            {"tag_name_or_id": "x", "timestep_id": "a", "event_id": "b"},
            None,
            "exactly one target",
        ),
        (
            "tag",
            {"tag_name_or_id": "x", "event_id": "e", "confidence": 2},
            "confidence",
            "less than or equal to 1",
        ),
        (
            "tag",
            {"tag_name_or_id": "x", "tick_range": {"start": 5, "end": 2}},
            "tick_range",
            "must be >= start",
        ),
        ("create_tag", {"name": "x", "tag_type": "label"}, "tag_type", "'concept'"),
        (
            "create_tag",
            {"name": "x", "tag_type": "bud", "entity_type": "person"},
            None,
            "entity_type applies only",
        ),
        (
            "create_tag",
            {"name": "x", "tag_type": "entity", "entity_type": "robot"},
            "entity_type",
            "'person'",
        ),
        (
            "query",
            {"time_range": {"start_time": "not a time"}},
            "time_range.start_time",
            "datetime",
        ),
        (
            "query",
            {"time_range": {"start_time": "2025-02-01", "end_time": "2025-01-01"}},
            "time_range",
            "before",
        ),
        ("query", {"cursor": "!!!"}, "cursor", "malformed"),
        ("query", {"limit": 0}, "limit", "greater than or equal to 1"),
        ("query", {"event_types": ["input", "dream"]}, "event_types[1]", "'output'"),
        ("tags", {"bud_status": "sleeping"}, "bud_status", "'collecting'"),
        ("recent", {"n": -1}, "n", "greater than or equal to 1"),
    ],
)
def test_bad_input_names_the_field(
    db: xdb.Database, op: str, fields: dict[str, object], field: str | None, words: str
) -> None:
    with pytest.raises(xdb.InvalidRequest) as err:
        db.call(op, fields)
    message = err.value.message
    assert words in message, message
    if field is not None:
        assert err.value.field == field
        assert message.startswith(field), message
    assert db.status().experience_stats.total_timesteps == 0


def test_cursor_from_other_filters_is_refused(db: xdb.Database) -> None:
    db.record_batch([{"event_type": "input", "content": f"m{i}"} for i in range(3)])
    page = db.query(limit=1)
    assert page.next_cursor
    with pytest.raises(xdb.InvalidRequest, match="different filters"):
        db.query(limit=1, event_types=["output"], cursor=page.next_cursor)


def test_unknown_operation(db: xdb.Database) -> None:
    with pytest.raises(xdb.NotFound, match="unknown operation"):
        db.call("forget_everything", {})


def test_errors_share_one_tree() -> None:
    for cls in (
        xdb.InvalidRequest,
        xdb.NotFound,
        xdb.Conflict,
        xdb.PermissionDenied,
        xdb.StoreError,
        xdb.MigrationError,
    ):
        assert issubclass(cls, xdb.XdbError)
    err = xdb.InvalidRequest("content: is required", field="content")
    assert err.to_dict() == {
        "type": "invalid_request",
        "message": "content: is required",
        "field": "content",
    }
    assert err.status == 400 and xdb.NotFound("x").status == 404
