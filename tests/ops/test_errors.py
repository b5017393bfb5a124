"""Bad input gets an InvalidRequest that names the field and what is allowed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import xdb
from xdb.models.common import INT64_MAX
from xdb.ops import Operation, operations


@pytest.fixture
def db(target: str) -> Iterator[xdb.Database]:
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


def _schema_nodes(value: object) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from _schema_nodes(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _schema_nodes(inner)


@pytest.mark.parametrize("op", operations(), ids=lambda op: f"{op.group}.{op.name}")
def test_every_request_bounds_its_numbers_and_checks_its_text(op: Operation[Any, Any]) -> None:
    # Structural, so a field added later is held to it too: a whole number past 64 bits,
    # or text that is not Unicode, must be refused by validation before any write (both
    # once reached the store and failed inside it as internal errors).
    schema = op.request.model_json_schema()
    for node in _schema_nodes(schema):
        if node.get("type") == "integer":
            assert node.get("maximum", 2**64) <= INT64_MAX, (op.name, node)
            assert node.get("minimum", -(2**64)) >= -(2**63), (op.name, node)
        if node.get("type") == "string" and not {"enum", "const", "format"} & node.keys():
            assert "maxLength" in node, (op.name, node)  # checked in Rust: Unicode only
    for name, definition in schema.get("$defs", {}).items():
        if definition.get("type") == "object" and "properties" in definition:
            assert definition.get("additionalProperties") is False, (op.name, name)


@pytest.mark.parametrize(
    ("op", "fields", "field"),
    [
        ("record", {"event_type": "input", "content": "x", "token_id": 2**63}, "token_id"),
        ("record", {"event_type": "input", "content": "x\ud800"}, "content"),
        ("status", {"session_id": "\ud83d"}, "session_id"),
        ("experience.add_episode", {"content": "a", "summary": "\ud800"}, "summary"),
        (
            "experience.add_episode",
            {"content": "a", "metadata": {"k": ["ok", "\ud800"]}},
            "metadata.k[1]",
        ),
        ("query", {"tick_range": {"start": 0, "end": 2**63}}, "tick_range.end"),
    ],
)
def test_numbers_past_64_bits_and_text_that_is_not_unicode_are_refused(
    db: xdb.Database, op: str, fields: dict[str, Any], field: str
) -> None:
    before = db.status().experience_stats
    with pytest.raises(xdb.InvalidRequest) as caught:
        db.call(op, fields)
    assert caught.value.field == field
    caught.value.message.encode("utf-8")  # the message itself can be sent
    assert db.status().experience_stats == before
    assert db.search_episodes(text_query="a").episodes == []
