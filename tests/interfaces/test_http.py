"""The HTTP interface over real HTTP: uvicorn on a free localhost port, a real SQLite file."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from starlette.requests import Request

import xdb
from tests.concepts.packs import write_pack
from xdb.interfaces import http
from xdb.interfaces.http import create_app
from xdb.interfaces.http_params import query_payload
from xdb.ops.catalog import REGISTRY, operations

HONEST = "org.hatcat/sumo-wordnet-v4::Honesty"
TOOL = "org.hatcat/sumo-wordnet-v4::Tool"


@contextmanager
def running(app: FastAPI) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 (the OS picks the port) in a thread; yield its base URL."""
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", log_config=None)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert thread.is_alive(), "uvicorn exited during startup"
        assert time.monotonic() < deadline, "uvicorn did not start within 15 s"
        time.sleep(0.005)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        assert not thread.is_alive(), "uvicorn did not stop"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[xdb.Database]:
    database = xdb.connect(tmp_path / "x.sqlite3", session_id="s1")
    yield database
    database.close()


@pytest.fixture
def base_url(db: xdb.Database) -> Iterator[str]:
    with running(create_app(db)) as url:  # the default app, MCP included
        yield url


@pytest.fixture
def client(base_url: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base_url, timeout=15) as c:
        yield c


def ok(response: httpx.Response) -> Any:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    return response.json()


def post(client: httpx.Client, path: str, body: Any = None) -> Any:
    return ok(client.post(path, json=body))


def record(client: httpx.Client, **body: Any) -> dict[str, Any]:
    result: dict[str, Any] = post(client, "/v1/xdb/record", body)
    return result


def snapshot(client: httpx.Client) -> tuple[Any, ...]:
    """Everything a failed request must leave unchanged."""
    status = post(client, "/v1/xdb/status")
    return (
        status["current_tick"],
        status["experience_stats"],
        status["tag_stats"],
        post(client, "/v1/xdb/tags")["tags"],
        post(client, "/v1/xdb/query", {"all_sessions": True})["total_count"],
    )


# --------------------------------------------------------------------------- recording


def test_healthz_and_version(client: httpx.Client) -> None:
    assert ok(client.get("/healthz")) == {"status": "ok"}
    assert ok(client.get("/openapi.json"))["info"]["version"] == xdb.__version__


def test_record_returns_timestep_id_and_tick(client: httpx.Client) -> None:
    # The XAPI reference's example body, field for field.
    first = record(
        client,
        session_id="s1",
        event_type="input",
        content="Is the applicant eligible?",
        concept_activations={HONEST: 0.87},
        event_id="turn-1",
        event_start=True,
        event_end=False,
        role="user",
    )
    assert first == {"timestep_id": "ts-s1-1", "tick": 1}
    second = record(client, event_type="output", content="Yes", token_id=42)
    assert second == {"timestep_id": "ts-s1-2", "tick": 2}
    (stored,) = post(client, "/v1/xdb/query", {"text_search": "applicant"})["timesteps"]
    assert stored["id"] == "ts-s1-1"
    assert stored["concept_activations"] == {HONEST: 0.87}
    assert stored["role"] == "user" and stored["event_id"] == "turn-1"


def test_record_batch_in_order(client: httpx.Client) -> None:
    tokens = [{"event_type": "output", "content": t, "token_id": i} for i, t in enumerate("abc")]
    result = post(client, "/v1/xdb/record-batch", {"timesteps": tokens})
    assert result == {"results": [{"timestep_id": f"ts-s1-{n}", "tick": n} for n in (1, 2, 3)]}
    other = post(client, "/v1/xdb/record-batch", {"timesteps": [{**tokens[0], "session_id": "s2"}]})
    assert other["results"] == [{"timestep_id": "ts-s2-1", "tick": 1}]
    recent = post(client, "/v1/xdb/recent", {"n": 10})["timesteps"]
    assert [t["content"] for t in recent] == ["a", "b", "c"]


def test_create_tag(client: httpx.Client) -> None:
    bud = post(
        client,
        "/v1/xdb/create-tag",
        {
            "session_id": "s1",
            "name": "financial-ambiguity",
            "tag_type": "bud",
            "description": "Money questions with no clear answer",
            "related_concepts": ["org.hatcat/sumo-wordnet-v4::FinancialTransaction"],
        },
    )
    assert bud["tag_type"] == "bud" and bud["bud_status"] == "collecting" and bud["created"]
    assert bud["tag_id"].startswith("tag-")
    again = post(
        client,
        "/v1/xdb/create-tag",
        {
            "name": "financial-ambiguity",
            "tag_type": "BUD",  # the specs also write types in capitals
            "description": "Money questions with no clear answer",
            "related_concepts": ["org.hatcat/sumo-wordnet-v4::FinancialTransaction"],
        },
    )
    assert again["tag_id"] == bud["tag_id"] and not again["created"]
    person = post(
        client,
        "/v1/xdb/create-tag",
        {"name": "Alice", "tag_type": "entity", "entity_type": "person"},
    )
    assert person["tag_type"] == "entity" and person["bud_status"] is None


def test_tag_every_target_form(client: httpx.Client) -> None:
    record(client, event_type="input", content="look up the rules")
    record(client, event_type="tool_call", content="search(rules)", event_id="call-1")
    record(client, event_type="tool_response", content="rule 7", event_id="call-1")
    record(client, event_type="output", content="rule 7 applies")

    flat = post(client, "/v1/xdb/tag", {"tag_name_or_id": "interesting", "timestep_id": "ts-s1-1"})
    assert flat["created"] and flat["target_type"] == "timestep" and flat["timestep_count"] == 1
    nested = post(
        client,
        "/v1/xdb/tag",
        {
            "session_id": "s1",
            "tag_name_or_id": "interesting",
            "target": {"timestep_id": "ts-s1-4"},
            "confidence": 0.9,
            "note": "This was surprising",
        },
    )
    # The same tag, applied to another timestep for the first time: created there.
    assert nested["tag_id"] == flat["tag_id"] and nested["created"]
    event = post(client, "/v1/xdb/tag", {"tag_name_or_id": "tool-use", "event_id": "call-1"})
    assert event["target_type"] == "event" and event["timestep_count"] == 2
    span = post(
        client,
        "/v1/xdb/tag",
        {"tag_name_or_id": "episode", "target": {"tick_range": {"start_tick": 2, "end_tick": 4}}},
    )
    assert span["target_type"] == "range" and span["timestep_count"] == 3

    def ticks(*tags: str) -> list[int]:
        found = post(client, "/v1/xdb/query", {"tags": list(tags)})["timesteps"]
        return [t["tick"] for t in found]

    assert ticks("interesting") == [1, 4]
    assert ticks("tool-use") == [2, 3]
    assert ticks("episode", "custom:interesting") == [4]
    assert post(client, "/v1/xdb/status")["experience_stats"]["total_tag_applications"] == 4


def test_comment_on_timestep_and_session(client: httpx.Client) -> None:
    record(client, event_type="input", content="hello")
    on_step = post(
        client,
        "/v1/xdb/comment",
        {
            "session_id": "s1",
            "content": "I found this confusing because...",
            "target": {"timestep_id": "ts-s1-1"},
        },
    )
    on_session = post(client, "/v1/xdb/comment", {"content": "a calm session"})
    assert on_step["comment_id"].startswith("comment-")
    assert on_session["comment_id"] != on_step["comment_id"]
    assert post(client, "/v1/xdb/status")["experience_stats"]["total_comments"] == 2


# --------------------------------------------------------------------------- reading


def test_query_filters(client: httpx.Client) -> None:
    steps = [
        ("input", "Is the applicant eligible for welfare?", {HONEST: 0.9}, "2025-11-01"),
        ("tool_call", "search eligibility rules", {TOOL: 0.8}, "2025-11-02"),
        ("tool_response", "rules: income below threshold", {TOOL: 0.4, HONEST: 0.2}, "2025-11-03"),
        ("output", "The applicant is eligible.", {HONEST: 0.6}, "2025-12-01"),
    ]
    batch = [
        {"event_type": e, "content": c, "concept_activations": a, "timestamp": f"{d}T10:00:00Z"}
        for e, c, a, d in steps
    ]
    post(client, "/v1/xdb/record-batch", {"timesteps": batch})
    post(client, "/v1/xdb/tag", {"tag_name_or_id": "decision", "timestep_id": "ts-s1-4"})

    def ticks(**body: Any) -> list[int]:
        return [t["tick"] for t in post(client, "/v1/xdb/query", body)["timesteps"]]

    assert ticks(text_search="eligible applicant") == [1, 4]
    assert ticks(concept_activations={HONEST: {"min": 0.5, "max": 1.0}}) == [1, 4]
    assert ticks(concept_activations={TOOL: {"min": 0.3, "max": 0.5}}) == [3]
    assert ticks(tags=["decision"], text_search="applicant") == [4]
    assert ticks(event_types=["input", "output"], order="desc") == [4, 1]
    assert ticks(tick_range={"start": 2, "end": 3}) == [2, 3]
    november = {"start_time": "2025-11-01T00:00:00Z", "end_time": "2025-11-30T23:59:59Z"}
    assert ticks(time_range=november) == [1, 2, 3]
    assert ticks(tags=["no-such-tag"]) == []


def test_concepts_and_find_concept_by_get_with_or_without_a_session(
    client: httpx.Client, tmp_path: Path
) -> None:
    tree: dict[str, str | None] = {"Root": None, "Honesty": "Root", "Candour": "Honesty"}
    pack = write_pack(tmp_path / "pack", tree=tree, aliases={"Candour": ["frankness"]})
    post(client, "/v1/xdb/import-concepts", {"path": str(pack)})
    by_post = post(client, "/v1/xdb/concepts", {"parent_id": "Root"})
    assert [c["name"] for c in by_post["concepts"]] == ["Honesty"]
    # The XAPI's form names the session; concepts are the same for every session.
    assert ok(client.get("/v1/xdb/concepts/s1", params={"parent_id": "Root"})) == by_post
    assert ok(client.get("/v1/xdb/concepts", params={"parent_id": "Root"})) == by_post
    found = ok(client.get("/v1/xdb/find-concept/s2", params={"query": "frankness"}))
    assert found == ok(client.get("/v1/xdb/find-concept", params={"query": "frankness"}))
    assert found["matches"][0]["name"] == "Candour"
    documented = client.get("/openapi.json").json()["paths"]["/v1/xdb/concepts/{session_id}"]
    assert [p["name"] for p in documented["get"]["parameters"] if p["in"] == "path"] == [
        "session_id"
    ]


def test_query_cursor_walks_every_page(client: httpx.Client) -> None:
    batch = [{"event_type": "output", "content": f"token {i}"} for i in range(23)]
    post(client, "/v1/xdb/record-batch", {"timesteps": batch})
    seen: list[int] = []
    cursor = None
    for _ in range(10):  # bounded: 3 pages expected
        page = post(client, "/v1/xdb/query", {"limit": 10, "cursor": cursor})
        assert page["total_count"] == 23
        seen += [t["tick"] for t in page["timesteps"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == list(range(1, 24))


def test_recent_tags_status_by_post_and_get(client: httpx.Client) -> None:
    for i in range(5):
        record(client, event_type="input", content=f"message {i}")
    record(client, event_type="input", content="elsewhere", session_id="s2")
    post(client, "/v1/xdb/create-tag", {"name": "maybe-a-concept", "tag_type": "bud"})
    post(client, "/v1/xdb/create-tag", {"name": "Honesty", "tag_type": "concept"})

    by_post = post(client, "/v1/xdb/recent", {"n": 2, "session_id": "s1"})
    assert [t["tick"] for t in by_post["timesteps"]] == [4, 5]
    assert ok(client.get("/v1/xdb/recent/s1", params={"n": 2})) == by_post
    assert ok(client.get("/v1/xdb/recent", params={"n": 2, "session_id": "s1"})) == by_post
    other = ok(client.get("/v1/xdb/recent/s2"))["timesteps"]
    assert [t["content"] for t in other] == ["elsewhere"]

    buds = ok(client.get("/v1/xdb/tags/s1", params={"type": "bud"}))["tags"]
    assert [t["name"] for t in buds] == ["maybe-a-concept"]
    assert buds[0]["bud_status"] == "collecting"
    assert ok(client.get("/v1/xdb/tags/s1?type=BUD&status=collecting"))["tags"] == buds
    assert ok(client.get("/v1/xdb/tags", params={"tag_type": "bud"}))["tags"] == buds
    assert post(client, "/v1/xdb/tags", {"tag_type": "bud"})["tags"] == buds
    assert len(ok(client.get("/v1/xdb/tags"))["tags"]) == 2

    status = ok(client.get("/v1/xdb/status/s1"))
    assert status["session_id"] == "s1" and status["current_tick"] == 5
    assert status["tag_stats"]["by_type"]["bud"] == 1
    assert status["experience_stats"]["total_timesteps"] == 6
    assert status["storage_stats"]["backend"] == "sqlite"
    assert post(client, "/v1/xdb/status", {"session_id": "s2"})["current_tick"] == 1
    assert ok(client.get("/v1/xdb/status"))["session_id"] == "s1"


def test_query_parameters_repeat_for_lists_and_take_aliases() -> None:
    # No GET route has a list field yet, so the parameter mapping is checked directly.
    scope = {
        "type": "http",
        "query_string": b"event_types=input&event_types=output&limit=5",
        "path_params": {"session_id": "s9"},
        "headers": [],
    }
    assert query_payload(REGISTRY["xdb.query"], Request(scope)) == {
        "event_types": ["input", "output"],
        "limit": "5",
        "session_id": "s9",
    }
    scope = {**scope, "query_string": b"type=bud&status=ready", "path_params": {}}
    assert query_payload(REGISTRY["xdb.tags"], Request(scope)) == {
        "tag_type": "bud",
        "bud_status": "ready",
    }


def test_concurrent_writers_get_distinct_ticks(client: httpx.Client, base_url: str) -> None:
    def write(worker: int) -> list[int]:
        with httpx.Client(base_url=base_url, timeout=15) as own:
            return [
                record(own, event_type="output", content=f"w{worker} {i}")["tick"]
                for i in range(10)
            ]

    with ThreadPoolExecutor(max_workers=6) as pool:
        ticks = [t for chunk in pool.map(write, range(6)) for t in chunk]
    assert sorted(ticks) == list(range(1, 61))


# --------------------------------------------------------------------------- errors

BAD_REQUESTS = [
    # (id, method, path, json body, status, error type, field, words the message must contain)
    (
        "unknown event_type",
        "POST",
        "/v1/xdb/record",
        {"event_type": "thought", "content": "hm"},
        400,
        "invalid_request",
        "event_type",
        ["event_type", "tool_call", "'thought'"],
    ),
    (
        "activation score above 1",
        "POST",
        "/v1/xdb/record",
        {"event_type": "input", "content": "x", "concept_activations": {HONEST: 1.5}},
        400,
        "invalid_request",
        f"concept_activations.{HONEST}",
        ["less than or equal to 1"],
    ),
    (
        "confidence above 1",
        "POST",
        "/v1/xdb/tag",
        {"tag_name_or_id": "t", "timestep_id": "ts-s1-1", "confidence": 2},
        400,
        "invalid_request",
        "confidence",
        ["confidence"],
    ),
    (
        "empty content",
        "POST",
        "/v1/xdb/record",
        {"event_type": "input", "content": ""},
        400,
        "invalid_request",
        "content",
        ["content", "at least 1 character"],
    ),
    (
        "tag on an unknown timestep",
        "POST",
        "/v1/xdb/tag",
        {"tag_name_or_id": "new-tag", "target": {"timestep_id": "ts-s1-999"}},
        404,
        "not_found",
        "timestep_id",
        ["ts-s1-999"],
    ),
    (
        "two tag targets",
        "POST",
        "/v1/xdb/tag",
        {"tag_name_or_id": "t", "timestep_id": "ts-s1-1", "event_id": "e"},
        400,
        "invalid_request",
        None,
        ["exactly one target"],
    ),
    (
        "one bad item in a batch",
        "POST",
        "/v1/xdb/record-batch",
        {"timesteps": [{"event_type": "input", "content": "ok"}, {"event_type": "input"}]},
        400,
        "invalid_request",
        "timesteps[1].content",
        ["is required"],
    ),
    (
        "malformed cursor",
        "POST",
        "/v1/xdb/query",
        {"cursor": "not-a-cursor"},
        400,
        "invalid_request",
        "cursor",
        ["cursor is malformed"],
    ),
    (
        "malformed time",
        "POST",
        "/v1/xdb/query",
        {"time_range": {"start_time": "last tuesday"}},
        400,
        "invalid_request",
        "time_range.start_time",
        ["datetime", "'last tuesday'"],
    ),
    (
        "unknown field",
        "POST",
        "/v1/xdb/record",
        {"event_type": "input", "content": "x", "importance": 3},
        400,
        "invalid_request",
        "importance",
        ["not a known field"],
    ),
    (
        "missing body",
        "POST",
        "/v1/xdb/record",
        None,
        400,
        "invalid_request",
        None,
        ["body is required"],
    ),
    (
        "bad query parameter",
        "GET",
        "/v1/xdb/recent/s1?n=many",
        None,
        400,
        "invalid_request",
        "n",
        ["integer", "'many'"],
    ),
    (
        "unknown query parameter",
        "GET",
        "/v1/xdb/tags?kind=bud",
        None,
        400,
        "invalid_request",
        "kind",
        ["not a known field"],
    ),
    (
        "unknown route",
        "POST",
        "/v1/xdb/forget",
        {},
        404,
        "not_found",
        None,
        ["/v1/xdb/forget", "/openapi.json"],
    ),
    (
        "wrong method",
        "GET",
        "/v1/xdb/record",
        None,
        405,
        "method_not_allowed",
        None,
        ["POST"],
    ),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "kind", "field", "words"),
    [pytest.param(*case[1:], id=case[0]) for case in BAD_REQUESTS],
)
def test_errors_use_one_envelope_and_write_nothing(
    client: httpx.Client,
    method: str,
    path: str,
    body: Any,
    status: int,
    kind: str,
    field: str | None,
    words: list[str],
) -> None:
    record(client, event_type="input", content="already here")
    before = snapshot(client)
    response = client.request(method, path, json=body)
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()["error"]
    assert set(response.json()) == {"error"}
    assert (error["type"], error["field"]) == (kind, field)
    for word in words:
        assert word in error["message"]
    assert snapshot(client) == before


@pytest.mark.parametrize(
    ("content", "headers", "words"),
    [
        (b'{"event_type": "input", "content": ', {"content-type": "application/json"}, "JSON"),
        (b'{"event_type": "input", "content": "x"}', {"content-type": "text/plain"}, "JSON"),
        (b'["input", "x"]', {"content-type": "application/json"}, "JSON object"),
    ],
    ids=["malformed JSON", "not sent as JSON", "not an object"],
)
def test_bad_bodies_use_the_envelope(
    client: httpx.Client, content: bytes, headers: dict[str, str], words: str
) -> None:
    before = snapshot(client)
    response = client.post("/v1/xdb/record", content=content, headers=headers)
    json_sent = headers["content-type"] == "application/json"  # else 415 (interfaces.guard)
    assert response.status_code == (400 if json_sent else 415)
    kind = "invalid_request" if json_sent else "unsupported_media_type"
    assert response.json()["error"]["type"] == kind
    assert words in response.json()["error"]["message"]
    assert snapshot(client) == before


def test_unexpected_exception_is_500_without_traceback(
    client: httpx.Client,
    db: xdb.Database,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(db.store, "recent", broken)
    with caplog.at_level(logging.ERROR, logger="xdb.http"):
        response = client.get("/v1/xdb/recent/s1")
    assert response.status_code == 500
    assert response.json()["error"]["type"] == "internal_error"
    assert "secret" not in response.text and "Traceback" not in response.text
    assert any("secret internals" in (r.exc_text or "") for r in caplog.records)

    def store_failure(*args: Any, **kwargs: Any) -> Any:
        raise xdb.StoreError("disk I/O error; nothing was written")

    monkeypatch.setattr(db.store, "recent", store_failure)
    response = client.post("/v1/xdb/recent", json={})
    assert response.status_code == 500
    assert response.json()["error"]["type"] == "store_error"


# --------------------------------------------------------------------------- documents


def test_openapi_documents_every_route(client: httpx.Client) -> None:
    spec = ok(client.get("/openapi.json"))
    paths = spec["paths"]
    for op in operations():
        post_op = paths[op.http_path]["post"]
        assert post_op["operationId"] == f"{op.group}_{op.name}"
        assert post_op["summary"] == op.summary
        assert post_op["tags"] == [op.group]
        body_ref = post_op["requestBody"]["content"]["application/json"]["schema"]
        assert op.request.__name__ in str(body_ref)
        answer = post_op["responses"]["200"]["content"]["application/json"]["schema"]
        assert op.response.__name__ in str(answer)
        assert "ErrorEnvelope" in str(post_op["responses"]["400"])
        for path in op.http_get:
            names = {p["name"] for p in paths[path]["get"]["parameters"]}
            assert names >= set(op.request.model_fields) | set(op.query_aliases)
        for path in op.http_post:
            names = {p["name"] for p in paths[path]["post"]["parameters"]}
            assert names >= {"session_id", "bud_tag_id"} & set(op.request.model_fields)
    assert "get" in paths["/healthz"]
    extra = {path for op in operations() for path in (*op.http_get, *op.http_post)}
    hooks = "/v1/hook/{agent}/{event}"  # the agents' hooks (interfaces.http_hooks)
    assert {op.http_path for op in operations()} | extra | {"/healthz", hooks} == set(paths)


def test_openapi_is_built_without_warnings(db: xdb.Database) -> None:
    """xdb's models are built at first use, so FastAPI's adapters of them are built with the
    schema, outside FastAPI's own silencing of pydantic's alias warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spec = create_app(db).openapi()
    assert len(spec["paths"]) > len(operations())


def test_serve_defaults_to_localhost(db: xdb.Database, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    http.serve(db, mcp=False)
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8765
    assert isinstance(seen["app"], FastAPI)


# --------------------------------------------------------------------------- MCP


def test_mcp_client_over_streamable_http(client: httpx.Client, base_url: str) -> None:
    from mcp import Client

    async def session() -> tuple[list[str], Any]:
        async with Client(f"{base_url}/mcp") as mcp_client:
            tools = await mcp_client.list_tools()
            result = await mcp_client.call_tool(
                "xdb_record", {"event_type": "input", "content": "hello over MCP"}
            )
            return [tool.name for tool in tools.tools], result

    names, result = anyio.run(session)
    assert {"xdb_record", "xdb_query", "xdb_status"} <= set(names)
    assert not result.is_error
    assert result.structured_content == {"timestep_id": "ts-s1-1", "tick": 1}
    found = post(client, "/v1/xdb/query", {"text_search": "MCP"})["timesteps"]
    assert [t["content"] for t in found] == ["hello over MCP"]


# --------------------------------------------------------------------------- request sizes


@pytest.fixture
def small(db: xdb.Database) -> Iterator[httpx.Client]:
    """The app with small limits: 4,096 bytes for a body, 65,536 for a batch or MCP message."""
    with (
        running(create_app(db, body_limit=4096, message_limit=65536)) as url,
        httpx.Client(base_url=url, timeout=15) as c,
    ):
        yield c


def too_large(response: httpx.Response, *words: str) -> str:
    assert response.status_code == 413, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.json() == {
        "error": {"type": "payload_too_large", "message": ANY, "field": None}
    }
    message: str = response.json()["error"]["message"]
    for word in words:
        assert word in message
    return message


class _Any:
    def __eq__(self, other: object) -> bool:
        return True


ANY: Any = _Any()


def test_a_body_over_its_limit_is_413_in_the_envelope_and_writes_nothing(
    small: httpx.Client,
) -> None:
    before = snapshot(small)
    body = json.dumps({"event_type": "input", "content": "x" * 5000}).encode()
    # Refused by its Content-Length, having read it to the end (so the client sees the
    # answer rather than a reset connection): the message names the size and the setting.
    message = too_large(
        small.post("/v1/xdb/record", content=body, headers={"content-type": "application/json"}),
        f"({len(body):,} bytes)",
        "limit of 4,096 bytes",
        "POST /v1/xdb/record",
        "XDB_MAX_BODY_BYTES",
    )
    assert "Traceback" not in message

    # Chunked (no Content-Length): counted as it streams in.
    def pieces() -> Iterator[bytes]:
        for start in range(0, len(body), 1000):
            yield body[start : start + 1000]

    chunked = small.post(
        "/v1/xdb/record", content=pieces(), headers={"content-type": "application/json"}
    )
    assert "content-length" not in chunked.request.headers
    too_large(chunked, "XDB_MAX_BODY_BYTES")
    # A body of exactly the limit is read as usual.
    exact = {"event_type": "input", "content": ""}
    exact["content"] = "e" * (4096 - len(json.dumps(exact)))
    assert len(json.dumps(exact)) == 4096
    made = record(small, **exact)
    # The batch route takes up to the message limit, and no more.
    batch = {"timesteps": [{"event_type": "output", "content": "y" * 100}] * 50}
    assert 4096 < len(json.dumps(batch)) < 65536
    assert len(post(small, "/v1/xdb/record-batch", batch)["results"]) == 50
    huge = {"timesteps": [{"event_type": "output", "content": "z" * 100}] * 700}
    too_large(
        small.post("/v1/xdb/record-batch", json=huge),
        "limit of 65,536 bytes",
        "XDB_MAX_MESSAGE_BYTES",
    )
    after = post(small, "/v1/xdb/query", {"all_sessions": True})
    assert after["total_count"] == before[-1] + 51
    assert made["tick"] == 1 and not any("z" in t["content"] for t in after["timesteps"])


def test_the_default_limit_refuses_a_huge_body_before_reading_it(base_url: str) -> None:
    host, port = base_url.removeprefix("http://").split(":")
    head = (
        "POST /v1/xdb/record HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        "Content-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n"
    )
    with socket.create_connection((host, int(port)), timeout=15) as sock:
        # Only the start of the body is sent: the answer must not wait for the rest.
        sock.sendall(head.encode() + b'{"event_type": "input", "content": "')
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status, _, rest = answer.partition(b"\r\n")
    assert status == b"HTTP/1.1 413 Request Entity Too Large", answer
    error = json.loads(rest.partition(b"\r\n\r\n")[2])["error"]
    assert error["type"] == "payload_too_large"
    assert "(1,000,000,000 bytes)" in error["message"]
    assert "4,194,304 bytes" in error["message"]


def test_the_default_limits_over_real_clients(client: httpx.Client, base_url: str) -> None:
    from mcp import Client

    # The 70 MB record. httpx sends the whole body before it reads: the server reads
    # it on, dropping it as it comes, and the client gets the 413.
    body = b'{"event_type": "input", "content": "' + b"r" * 70_000_000 + b'"}'
    refused = client.post(
        "/v1/xdb/record", content=body, headers={"content-type": "application/json"}
    )
    size, body = len(body), b""
    too_large(refused, "4,194,304 bytes", f"({size:,} bytes)")
    # A batch of 5 MiB is below its limit, over HTTP and over MCP (the SDK's own 4 MiB
    # limit for /mcp is raised to the message limit).
    batch = [{"event_type": "output", "content": f"{n} " + "b" * (1 << 20)} for n in range(5)]
    assert len(post(client, "/v1/xdb/record-batch", {"timesteps": batch})["results"]) == 5

    async def over_mcp() -> Any:
        # xdb_record_batch is in the full profile, not the agent's (docs/mcp.md).
        async with Client(f"{base_url}/mcp?profile=full") as mcp_client:
            return await mcp_client.call_tool("xdb_record_batch", {"timesteps": batch})

    result = anyio.run(over_mcp)
    assert not result.is_error, result.content
    assert post(client, "/v1/xdb/status")["current_tick"] == 10


def test_an_mcp_message_over_the_limit_is_a_jsonrpc_error(db: xdb.Database) -> None:
    from mcp import Client
    from mcp.shared.exceptions import MCPError

    with running(create_app(db, body_limit=4096, message_limit=65536)) as url:

        async def session() -> tuple[MCPError, Any]:
            async with Client(f"{url}/mcp") as mcp_client:
                big = {"event_type": "input", "content": "m" * 70000}
                with pytest.raises(MCPError) as refused:
                    await mcp_client.call_tool("xdb_record", big)
                # The session goes on: the next call is served.
                small = {"event_type": "input", "content": "small"}
                return refused.value, await mcp_client.call_tool("xdb_record", small)

        error, result = anyio.run(session)
        assert error.error.code == -32600
        assert "limit of 65,536 bytes" in error.error.message
        assert "XDB_MAX_MESSAGE_BYTES" in error.error.message
        assert result.structured_content == {"timestep_id": "ts-s1-1", "tick": 1}
        # Seen raw: 413 with a JSON-RPC error (id null: the body was not read).
        raw = httpx.post(
            f"{url}/mcp",
            content=b"{" + b" " * 70000 + b"}",
            headers={"content-type": "application/json", "accept": "application/json"},
        )
        assert raw.status_code == 413
        assert raw.json()["id"] is None and raw.json()["error"]["code"] == -32600
