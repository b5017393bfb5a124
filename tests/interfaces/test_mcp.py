"""The MCP interface, end to end through the official client: in memory, stdio and HTTP."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import jsonschema  # type: ignore[import-untyped]
import pytest
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult
from starlette.applications import Starlette
from starlette.routing import Route

import xdb
from tests.serving import served
from xdb.interfaces.mcp import build_server, streamable_http

pytestmark = pytest.mark.anyio

ALL_TOOLS = {
    "xdb_record",
    "xdb_record_batch",
    "xdb_tag",
    "xdb_create_tag",
    "xdb_comment",
    "xdb_query",
    "xdb_recent",
    "xdb_tags",
    "xdb_annotations",
    "xdb_status",
    "xdb_pin",
    "xdb_unpin",
    "xdb_quota",
    "xdb_context",
    "xdb_compact",
    "xdb_maintenance",
    "xdb_submit_evidence",
    "xdb_resolve_submission",
    "xdb_import_concepts",
    "xdb_concept_packs",
    "xdb_concepts",
    "xdb_get_concept",
    "xdb_find_concept",
    "xdb_graph_neighborhood",
    "xdb_buds",
    "xdb_bud_examples",
    "xdb_bud_ready",
    "xdb_set_bud_status",
    "xdb_promote_bud",
    "experience_search_episodes",
    "experience_add_episode",
    "experience_delete_episode",
    "experience_get_episode_detail",
    "experience_similar_episodes",
    "experience_graph_neighborhood",
    "experience_add_node",
    "experience_link",
    "experience_concept_usage_summary",
    "experience_list_candidate_concepts",
    "experience_add_exemplar",
    "experience_exemplars",
    "experience_remove_exemplar",
    "experience_build_dataset",
    "experience_datasets",
    "experience_dataset",
    "experience_export_dataset",
    "experience_record_training_run",
    "experience_training_runs",
    "experience_training_run",
    "experience_record_artifact",
    "engine_add_lesson",
    "engine_lessons",
    "engine_lesson",
    "engine_lesson_stats",
    "engine_timeline",
    "engine_feedback",
    "engine_check",
    "engine_judge",
    "engine_session_start",
    "engine_extract",
    "add_episode",
    "search_episodes",
    "get_episode",
    "delete_episode",
}
XDB_TOOLS = {name for name in ALL_TOOLS if name.startswith("xdb_")}
READONLY = {
    "xdb_query",
    "xdb_recent",
    "xdb_tags",
    "xdb_annotations",
    "xdb_status",
    "xdb_quota",
    "xdb_context",
    "xdb_concept_packs",
    "xdb_concepts",
    "xdb_get_concept",
    "xdb_find_concept",
    "xdb_graph_neighborhood",
    "experience_search_episodes",
    "experience_get_episode_detail",
    "experience_similar_episodes",
    "experience_graph_neighborhood",
    "experience_concept_usage_summary",
    "xdb_buds",
    "xdb_bud_examples",
    "experience_list_candidate_concepts",
    "experience_exemplars",
    "experience_datasets",
    "experience_dataset",
    "experience_training_runs",
    "experience_training_run",
    "engine_lessons",
    "engine_lesson",
    "engine_lesson_stats",
    "engine_timeline",
    "engine_session_start",
    "search_episodes",
    "get_episode",
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[xdb.Database]:
    with xdb.connect(tmp_path / "x.sqlite3") as database:
        yield database


# "auto" takes the 2026 per-request path; "legacy" the initialize handshake most clients use.
@pytest.fixture(params=["auto", "legacy"])
async def client(db: xdb.Database, request: pytest.FixtureRequest) -> AsyncIterator[Client]:
    async with Client(build_server(db), mode=request.param) as c:
        yield c


async def ok(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    data = result.structured_content
    assert isinstance(data, dict)
    # The text block carries the same JSON, for clients that ignore structured content.
    assert text_json(result) == data
    return data


def text_json(result: CallToolResult) -> Any:
    block = result.content[0]
    assert block.type == "text"
    return json.loads(block.text)


async def fails(client: Client, tool: str, arguments: dict[str, Any]) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    assert result.structured_content is None
    block = result.content[0]
    assert block.type == "text"
    assert "Traceback" not in block.text
    return block.text


# --------------------------------------------------------------------------- listing


async def test_lists_one_tool_per_operation_with_schemas_and_hints(client: Client) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == ALL_TOOLS
    for name, tool in tools.items():
        assert len("mcp__xdb__" + name) <= 64
        assert tool.description
        assert tool.input_schema["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
        assert tool.output_schema is not None
        assert tool.output_schema["type"] == "object"
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is (name in READONLY)
        # Deleting an episode or an exemplar removes what was stored, and compaction and
        # maintenance replace detail by summaries; nothing else does.
        assert tool.annotations.destructive_hint is name.endswith(
            ("delete_episode", "remove_exemplar", "xdb_compact", "xdb_maintenance")
        )
        assert tool.annotations.idempotent_hint is (
            name in READONLY
            or name.endswith(("delete_episode", "create_tag", "bud_ready", "remove_exemplar"))
            or name
            in {
                "xdb_pin",
                "xdb_unpin",
                "xdb_compact",
                "xdb_maintenance",
                "xdb_submit_evidence",
                "xdb_resolve_submission",
            }
        )
    record = tools["xdb_record"].input_schema
    assert {"event_type", "content", "concept_activations", "event_id"} <= set(record["properties"])
    assert set(record["required"]) == {"event_type", "content"}
    assert "$defs" in record  # EventType and Role are referenced, not inlined
    batch = tools["xdb_record_batch"].input_schema
    assert "RecordRequest" in batch["$defs"]
    assert {"text_search", "tags", "cursor", "limit"} <= set(
        tools["xdb_query"].input_schema["properties"]
    )
    assert {"tag_name_or_id", "timestep_id", "event_id", "tick_range"} <= set(
        tools["xdb_tag"].input_schema["properties"]
    )
    assert tools["xdb_create_tag"].annotations.idempotent_hint is True  # type: ignore[union-attr]


async def test_dotted_names_and_groups(db: xdb.Database) -> None:
    async with Client(build_server(db, dotted_names=True)) as c:
        names = {t.name for t in (await c.list_tools()).tools}
        assert names == {
            n.replace("xdb_", "xdb.", 1)
            .replace("experience_", "experience.", 1)
            .replace("engine_", "engine.", 1)
            for n in ALL_TOOLS
        }
        made = await ok(c, "xdb.record", {"event_type": "input", "content": "dotted"})
        assert made["tick"] == 1
        assert "unknown tool 'xdb_record'" in await fails(c, "xdb_record", {})
    async with Client(build_server(db, groups={"nothing"})) as c:
        assert (await c.list_tools()).tools == []


# --------------------------------------------------------------------------- every tool


async def test_every_tool_end_to_end(client: Client, db: xdb.Database) -> None:
    first = await ok(
        client,
        "xdb_record",
        {
            "event_type": "input",
            "content": "please deploy the staging cluster",
            "concept_activations": {"deployment": 0.9},
        },
    )
    assert first["tick"] == 1
    assert first["timestep_id"].endswith("-1")

    batch = await ok(
        client,
        "xdb_record_batch",
        {
            "timesteps": [
                {
                    "event_type": "tool_call",
                    "content": "kubectl apply",
                    "event_id": "call-1",
                    "event_start": True,
                },
                {
                    "event_type": "tool_response",
                    "content": "deployment created",
                    "event_id": "call-1",
                    "event_end": True,
                },
                {"event_type": "output", "content": "the staging cluster is deployed"},
            ]
        },
    )
    assert [r["tick"] for r in batch["results"]] == [2, 3, 4]

    created = await ok(client, "xdb_create_tag", {"name": "deployment", "tag_type": "concept"})
    assert created["created"] is True and created["tag_type"] == "concept"
    again = await ok(client, "xdb_create_tag", {"name": "deployment", "tag_type": "concept"})
    assert again == {**created, "created": False}

    by_ts = await ok(
        client, "xdb_tag", {"timestep_id": first["timestep_id"], "tag_name_or_id": "deployment"}
    )
    assert by_ts["tag_id"] == created["tag_id"]
    assert (by_ts["target_type"], by_ts["timestep_count"]) == ("timestep", 1)
    by_event = await ok(client, "xdb_tag", {"event_id": "call-1", "tag_name_or_id": "k8s"})
    assert by_event["created"] is True
    assert (by_event["target_type"], by_event["timestep_count"]) == ("event", 2)
    by_range = await ok(
        client,
        "xdb_tag",
        {"tick_range": {"start": 3, "end": 4}, "tag_name_or_id": "k8s", "confidence": 0.7},
    )
    assert (by_range["target_type"], by_range["timestep_count"]) == ("range", 2)
    assert by_range["tag_id"] == by_event["tag_id"]

    note = await ok(
        client, "xdb_comment", {"timestep_id": first["timestep_id"], "content": "urgent"}
    )
    assert note["comment_id"]
    await ok(client, "xdb_comment", {"content": "a smooth session"})

    found = await ok(client, "xdb_query", {"text_search": "staging", "tags": ["deployment"]})
    assert [t["tick"] for t in found["timesteps"]] == [1]
    assert found["timesteps"][0]["concept_activations"] == {"deployment": 0.9}
    k8s = await ok(client, "xdb_query", {"tags": ["k8s"], "limit": 2})
    assert k8s["total_count"] == 3 and len(k8s["timesteps"]) == 2
    rest = await ok(
        client, "xdb_query", {"tags": ["k8s"], "limit": 2, "cursor": k8s["next_cursor"]}
    )
    assert [t["tick"] for t in k8s["timesteps"] + rest["timesteps"]] == [2, 3, 4]
    assert rest["next_cursor"] is None

    recent = await ok(client, "xdb_recent", {"n": 2})
    assert [t["content"] for t in recent["timesteps"]] == [
        "deployment created",
        "the staging cluster is deployed",
    ]

    tags = await ok(client, "xdb_tags", {"tag_type": "custom"})
    assert [(t["name"], t["application_count"]) for t in tags["tags"]] == [("k8s", 2)]

    status = await ok(client, "xdb_status", {})
    assert status["current_tick"] == 4
    assert status["experience_stats"]["total_timesteps"] == 4
    assert status["experience_stats"]["total_comments"] == 2
    assert status["experience_stats"]["total_tag_applications"] == 3
    assert status["tag_stats"]["by_type"] == {"concept": 1, "entity": 0, "bud": 0, "custom": 1}
    # What the tools wrote is what the Python API reads.
    assert db.query(text_search="kubectl").total_count == 1


# --------------------------------------------------------------------------- errors


async def test_bad_input_is_an_error_result_naming_the_field_and_writes_nothing(
    client: Client, db: xdb.Database
) -> None:
    base = await ok(client, "xdb_record", {"event_type": "input", "content": "kept"})
    before = db.status().experience_stats

    text = await fails(client, "xdb_record", {"event_type": "thinking", "content": "x"})
    assert text.startswith("invalid_request: event_type:") and "'thinking'" in text
    text = await fails(
        client,
        "xdb_record",
        {"event_type": "output", "content": "x", "concept_activations": {"joy": 1.5}},
    )
    assert "concept_activations.joy" in text and "1.5" in text
    text = await fails(client, "xdb_record", {"event_type": "input", "content": ""})
    assert text.startswith("invalid_request: content:") and "(field" not in text
    # Each problem is named by its own field; none reads as another's.
    text = await fails(client, "xdb_record", {})
    assert text == "invalid_request: event_type: is required; content: is required"
    text = await fails(client, "xdb_record", {"content": "x"})
    assert text == "invalid_request: event_type: is required"
    text = await fails(
        client,
        "xdb_record_batch",
        {"timesteps": [{"event_type": "input", "content": "ok"}, {"event_type": "input"}]},
    )
    assert "timesteps[1].content" in text
    text = await fails(client, "xdb_record", {"event_type": "input", "content": "x", "colour": 1})
    assert "colour" in text

    missing = base["timestep_id"][: -len("-1")] + "-999"
    text = await fails(client, "xdb_tag", {"timestep_id": missing, "tag_name_or_id": "ghost"})
    assert text.startswith("not_found:") and "timestep_id" in text
    text = await fails(client, "xdb_tag", {"tag_name_or_id": "no-target"})
    assert "timestep_id, event_id or tick_range" in text
    text = await fails(client, "xdb_query", {"cursor": "not-a-cursor"})
    assert text.startswith("invalid_request:") and "(field cursor)" in text
    text = await fails(client, "xdb_forget", {})
    assert "unknown tool 'xdb_forget'" in text and "xdb_record" in text

    assert db.status().experience_stats == before
    assert db.tags().tags == []  # the failed tag call did not create "ghost"
    assert db.query().total_count == 1


async def test_a_storage_failure_is_an_error_result_and_the_server_keeps_serving(
    client: Client, db: xdb.Database
) -> None:
    db.close()
    text = await fails(client, "xdb_record", {"event_type": "input", "content": "late"})
    assert text.startswith("store_error:")
    assert (await fails(client, "xdb_status", {})).startswith("store_error:")
    assert {t.name for t in (await client.list_tools()).tools} == ALL_TOOLS


# --------------------------------------------------------------------------- transports


# `xdb mcp` serves the agent profile unless told otherwise (test_mcp_profiles.py).
# The agent profile's tools, in its order (test_mcp_profiles.py).
AGENT = [
    "xdb_record",
    "xdb_tag",
    "xdb_comment",
    "xdb_query",
    "xdb_recent",
    "xdb_status",
    "xdb_find_concept",
    "xdb_concept_neighborhood",
    "experience_add_episode",
    "experience_search_episodes",
    "experience_get_episode_detail",
    "experience_similar_episodes",
    "experience_graph_neighborhood",
    "engine_add_lesson",
]
AGENT_TOOLS = set(AGENT)


@pytest.mark.parametrize(
    ("extra", "expected"), [([], AGENT_TOOLS), (["--profile", "full"], ALL_TOOLS)]
)
async def test_stdio_subprocess_serves_the_tools(
    tmp_path: Path, extra: list[str], expected: set[str]
) -> None:
    path = tmp_path / "stdio.sqlite3"
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "xdb", "--db", str(path), "mcp", *extra]
    )
    started = time.perf_counter()
    async with Client(params, mode="legacy") as c:
        names = {t.name for t in (await c.list_tools()).tools}
        elapsed = time.perf_counter() - started
        print(f"\nstdio: spawn to tools/list answered in {elapsed:.2f} s")
        assert names == expected
        made = await ok(c, "xdb_record", {"event_type": "output", "content": "over a pipe"})
        assert made["tick"] == 1
        found = await ok(c, "xdb_query", {"text_search": "pipe"})
        assert [t["id"] for t in found["timesteps"]] == [made["timestep_id"]]
    with xdb.connect(path) as reopened:
        assert reopened.query(text_search="pipe").total_count == 1


def test_mcp_module_does_not_load_the_web_framework() -> None:
    code = "import sys, xdb.interfaces.mcp; print('fastapi' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.fixture
def http_url(db: xdb.Database) -> Iterator[str]:
    """The MCP endpoint mounted at /mcp of a Starlette app, served by uvicorn in a thread."""
    mcp_app, mcp_lifespan = streamable_http(db)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with mcp_lifespan():
            yield

    app = Starlette(routes=[Route("/mcp", endpoint=mcp_app)], lifespan=lifespan)
    with served(app) as url:
        yield f"{url}/mcp"


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_streamable_http_mounted_in_an_app(
    http_url: str, db: xdb.Database, mode: str
) -> None:
    async with Client(http_url, mode=mode) as c:
        assert {t.name for t in (await c.list_tools()).tools} == AGENT_TOOLS
        made = await ok(c, "xdb_record", {"event_type": "input", "content": "over http"})
        assert "content: is required" in await fails(c, "xdb_record", {"event_type": "input"})
        assert "unknown tool 'xdb_record_batch'" in await fails(c, "xdb_record_batch", {})
    assert db.query(text_search="http").timesteps[0].id == made["timestep_id"]
    # Another profile, named in the URL.
    async with Client(f"{http_url}?profile=full", mode=mode) as c:
        assert {t.name for t in (await c.list_tools()).tools} == ALL_TOOLS
        batch = await ok(
            c, "xdb_record_batch", {"timesteps": [{"event_type": "output", "content": "b"}]}
        )
        assert batch["results"][0]["tick"] == 2
    async with Client(f"{http_url}?profile=memcp", mode=mode) as c:
        names = [t.name for t in (await c.list_tools()).tools]
        assert names == ["add_episode", "search_episodes", "get_episode", "delete_episode"]
    # DNS rebinding protection: a foreign Host header is refused before any MCP handling.
    async with httpx.AsyncClient() as raw:
        refused = await raw.post(
            http_url,
            headers={"Host": "evil.example", "Content-Type": "application/json"},
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        )
    assert refused.status_code == 421
    # An unknown profile: a JSON-RPC error naming those there are.
    async with httpx.AsyncClient() as raw:
        unknown = await raw.post(
            f"{http_url}?profile=tiny",
            headers={"Content-Type": "application/json", "Accept": "application/json"},
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        )
    assert unknown.status_code == 400
    error = unknown.json()["error"]
    assert error["code"] == -32600
    assert error["message"] == (
        "profile: unknown profile 'tiny'; known: agent, xdb, experience, seeds, memcp, full"
    )
