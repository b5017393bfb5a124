"""The experience and memcp episode tools through every skin: the official MCP client in
memory (both protocol eras), real HTTP on uvicorn, the CLI, and ``xdb mcp`` over stdio.

One scenario per toolset runs on each transport, so MCP and HTTP are held to the same
answers and the same errors."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import product
from pathlib import Path
from typing import Any, Protocol

import httpx
import pytest
from mcp import Client, StdioServerParameters

import xdb
from tests.interfaces.cli_runner import fails, ok
from tests.serving import served
from xdb.interfaces.http import create_app
from xdb.interfaces.mcp import build_server
from xdb.ops.catalog import REGISTRY, operations

pytestmark = pytest.mark.anyio

MEMCP_TOOLS = {"add_episode", "search_episodes", "get_episode", "delete_episode"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[xdb.Database]:
    with xdb.connect(tmp_path / "episodes.sqlite3", embedder="hash") as database:
        yield database


def episode_count(db: xdb.Database) -> int:
    return len(db.search_episodes(sort={"by": "time_asc"}, page={"page_size": 1000}).episodes)


# --------------------------------------------------------------------------- transports


@dataclass
class Failure:
    type: str
    message: str
    field: str | None


class Transport(Protocol):
    async def ok(self, operation: str, arguments: dict[str, Any]) -> dict[str, Any]: ...

    async def fail(self, operation: str, arguments: dict[str, Any]) -> Failure: ...


HTTP_STATUS = {"invalid_request": 400, "not_found": 404}
# An MCP error result reads "<type>: <field>: <message>" or "<type>: <message> (field <field>)".
MCP_ERROR = re.compile(
    r"^(?P<type>\w+): (?P<message>(?:(?P<head>[\w.\[\]]+): )?.*?)"
    r"(?: \(field (?P<field>[^)]+)\))?$",
    re.S,
)


class McpTransport:
    def __init__(self, client: Client) -> None:
        self.client = client

    async def ok(self, operation: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await self.client.call_tool(REGISTRY[operation].tool_name(), arguments)
        assert not result.is_error, result.content
        data = result.structured_content
        assert isinstance(data, dict)
        return data

    async def fail(self, operation: str, arguments: dict[str, Any]) -> Failure:
        result = await self.client.call_tool(REGISTRY[operation].tool_name(), arguments)
        assert result.is_error, result.structured_content
        block = result.content[0]
        assert block.type == "text"
        assert "Traceback" not in block.text
        found = MCP_ERROR.match(block.text)
        assert found is not None, block.text
        return Failure(found["type"], found["message"], found["field"] or found["head"])


class HttpTransport:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def ok(self, operation: str, arguments: dict[str, Any]) -> dict[str, Any]:
        response = await self.client.post(REGISTRY[operation].http_path, json=arguments)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    async def fail(self, operation: str, arguments: dict[str, Any]) -> Failure:
        response = await self.client.post(REGISTRY[operation].http_path, json=arguments)
        assert response.headers["content-type"].startswith("application/json")
        body = response.json()
        assert set(body) == {"error"}, body  # the one envelope
        failure = Failure(**body["error"])
        assert response.status_code == HTTP_STATUS[failure.type], response.text
        return failure


@contextmanager
def serving(db: xdb.Database) -> Iterator[str]:
    """The HTTP app (MCP included) on uvicorn in a thread; yields its base URL."""
    with served(create_app(db)) as url:
        yield url


# "auto" takes the 2026 per-request path; "legacy" the initialize handshake most clients use.
@pytest.fixture(params=["mcp-auto", "mcp-legacy", "http"])
async def via(db: xdb.Database, request: pytest.FixtureRequest) -> AsyncIterator[Transport]:
    if request.param == "http":
        with serving(db) as url:
            async with httpx.AsyncClient(base_url=url, timeout=30) as client:
                yield HttpTransport(client)
        return
    mode = request.param.removeprefix("mcp-")
    async with Client(build_server(db), mode=mode) as mcp_client:
        yield McpTransport(mcp_client)


# --------------------------------------------------------------------------- experience


def window(day: int, hours: int = 1) -> dict[str, str]:
    return {
        "start_time": f"2025-01-{day:02d}T10:00:00Z",
        "end_time": f"2025-01-{day:02d}T{10 + hours:02d}:00:00Z",
    }


# Session s1 in namespace p, in time order: failed, rolled back, lunch, succeeded.
EXPERIENCES: dict[str, dict[str, Any]] = {
    "failed": {
        "content": "Deploy to staging failed: the config was wrong.",
        "kind": "incident",
        "time_window": window(5),
        "concept_tags": [
            {"concept_id": "Failure", "score": 0.9},
            {"concept_id": "Deploy", "score": 0.7},
        ],
    },
    "rolled_back": {
        "content": "Rolled back the staging deploy and fixed the config.",
        "kind": "task",
        "time_window": window(6),
        "concept_tags": [{"concept_id": "Deploy", "score": 0.8}],
    },
    "lunch": {"content": "Ordered sandwiches for lunch.", "time_window": window(7)},
    "succeeded": {
        "content": "The production deploy succeeded after the fix.",
        "kind": "task",
        "time_window": window(10),
        "concept_tags": [
            {"concept_id": "Deploy", "score": 0.9},
            {"concept_id": "Success", "score": 0.6},
        ],
    },
}
ELSEWHERE = {  # another namespace: never in p's answers
    "content": "Deploy of the q service failed.",
    "namespace": "q",
    "time_window": window(6),
    "concept_tags": [{"concept_id": "Failure", "score": 0.8}],
}


async def add_experiences(via: Transport) -> dict[str, str]:
    ids = {}
    for name, fields in EXPERIENCES.items():
        made = await via.ok(
            "experience.add_episode", {**fields, "namespace": "p", "session_id": "s1"}
        )
        ids[name] = made["episode_id"]
    ids["elsewhere"] = (await via.ok("experience.add_episode", ELSEWHERE))["episode_id"]
    return ids


async def search(via: Transport, **request: Any) -> list[str]:
    found = await via.ok("experience.search_episodes", request)
    return [hit["episode_id"] for hit in found["episodes"]]


async def test_experience_tools_end_to_end(via: Transport, db: xdb.Database) -> None:
    ids = await add_experiences(via)
    assert db.wait_for_embeddings(30)  # vectors too: the hybrid path, not BM25 alone

    # Text: the three deploy episodes of p lead; q's never shows.
    deploys = await search(via, text_query="staging production deploy", namespace="p")
    # lunch sits between two deploy episodes of s1, and an episode is indexed with its
    # session neighbours' words (a conversation turn is found by the question before it),
    # so it may rank among them; the deploy episodes still lead.
    assert deploys[0] in {ids["failed"], ids["rolled_back"], ids["succeeded"]}
    assert {ids["failed"], ids["rolled_back"], ids["succeeded"]} <= set(deploys[:4])
    assert ids["elsewhere"] not in deploys
    # Text and a concept filter together: the concept is a hard condition.
    failures = await search(
        via,
        text_query="deploy",
        namespace="p",
        concept_filters=[{"concept_id": "Failure", "min_score": 0.5}],
    )
    assert failures == [ids["failed"]]
    absent = await search(
        via,
        text_query="deploy",
        namespace="p",
        concept_filters=[{"concept_id": "Deploy", "polarity": "absent"}],
    )
    assert absent == [ids["lunch"]]
    # Text and a time range (naive times read as UTC): windows overlapping 6-8 January.
    in_range = await search(
        via,
        text_query="deploy",
        namespace="p",
        time_range={"start_time": "2025-01-06T00:00:00", "end_time": "2025-01-08T00:00:00"},
    )
    assert ids["rolled_back"] in in_range
    assert set(in_range) <= {ids["rolled_back"], ids["lunch"]}
    # Paging by cursor returns the unpaged order, each episode once.
    everything = await search(via, text_query="deploy", page={"page_size": 50})
    assert len(everything) == 5
    walked: list[str] = []
    cursor = None
    while True:
        page = await via.ok(
            "experience.search_episodes",
            {"text_query": "deploy", "page": {"page_size": 2, "cursor": cursor}},
        )
        walked += [hit["episode_id"] for hit in page["episodes"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert walked == everything
    by_time = await search(via, namespace="p", sort={"by": "time_asc"})
    assert by_time == [ids[n] for n in ("failed", "rolled_back", "lunch", "succeeded")]

    # Detail with its graph neighbours: the NEXT links of session s1 and its concept.
    detail = await via.ok(
        "experience.get_episode_detail",
        {"episode_id": ids["rolled_back"], "include_graph_neighbors": {"depth": 1}},
    )
    episode = detail["episode"]
    assert episode["content"] == EXPERIENCES["rolled_back"]["content"]
    assert (episode["previous_episode_id"], episode["next_episode_id"]) == (
        ids["failed"],
        ids["lunch"],
    )
    graph = detail["graph_neighbors"]
    assert {n["node_id"] for n in graph["nodes"]} == {
        ids["failed"],
        ids["rolled_back"],
        ids["lunch"],
        "concept:Deploy",
    }
    assert {(e["src"], e["dst"], e["type"]) for e in graph["edges"]} == {
        (ids["failed"], ids["rolled_back"], "NEXT"),
        (ids["rolled_back"], ids["lunch"], "NEXT"),
        (ids["rolled_back"], "concept:Deploy", "TAGGED_BY"),
    }
    only_next = await via.ok(
        "experience.get_episode_detail",
        {
            "episode_id": ids["rolled_back"],
            "include_graph_neighbors": {"depth": 2, "relation_filters": ["NEXT"]},
        },
    )
    assert {e["type"] for e in only_next["graph_neighbors"]["edges"]} == {"NEXT"}
    assert len(only_next["graph_neighbors"]["nodes"]) == 4  # two hops reach "succeeded"
    bare = await via.ok("experience.get_episode_detail", {"episode_id": ids["lunch"]})
    assert bare["graph_neighbors"] == {"nodes": [], "edges": []}

    # Similar to "failed": in its own namespace, never itself, sharing its concepts.
    similar = await via.ok("experience.similar_episodes", {"seed_episode_id": ids["failed"]})
    assert similar["seed_episode"]["episode_id"] == ids["failed"]
    overlap = {n["episode_id"]: n["concept_overlap"] for n in similar["neighbors"]}
    assert ids["failed"] not in overlap and ids["elsewhere"] not in overlap
    assert overlap[ids["rolled_back"]] == ["Deploy"]
    assert overlap[ids["succeeded"]] == ["Deploy"]

    # Delete: idempotent, and the NEXT links close over the gap.
    gone = await via.ok("experience.delete_episode", {"episode_id": ids["lunch"]})
    assert gone == {"episode_id": ids["lunch"], "deleted": True}
    again = await via.ok("experience.delete_episode", {"episode_id": ids["lunch"]})
    assert again == {"episode_id": ids["lunch"], "deleted": False}
    missing = await via.fail("experience.get_episode_detail", {"episode_id": ids["lunch"]})
    assert (missing.type, missing.field) == ("not_found", "episode_id")
    after = await via.ok("experience.get_episode_detail", {"episode_id": ids["rolled_back"]})
    assert after["episode"]["next_episode_id"] == ids["succeeded"]
    assert ids["lunch"] not in await search(via, text_query="lunch sandwiches")


@pytest.mark.parametrize(
    ("operation", "arguments", "kind", "field", "words"),
    [
        ("experience.add_episode", {"content": ""}, "invalid_request", "content", []),
        (
            "experience.add_episode",
            {"content": "x", "concept_tags": [{"concept_id": "c", "score": 1.5}]},
            "invalid_request",
            "concept_tags[0].score",
            ["1.5"],
        ),
        (
            "experience.add_episode",
            {"content": "x", "time_window": window(5) | {"end_time": "2025-01-01T00:00:00Z"}},
            "invalid_request",
            "time_window",
            ["end_time must not be before start_time"],
        ),
        ("experience.add_episode", {"content": "x", "colour": 1}, "invalid_request", "colour", []),
        (
            "experience.search_episodes",
            {"page": {"page_size": 0}},
            "invalid_request",
            "page.page_size",
            [],
        ),
        pytest.param(
            "experience.search_episodes",
            {"text_query": "x", "page": {"cursor": "not-a-cursor"}},
            "invalid_request",
            "page.cursor",
            [],
        ),
        (
            "experience.get_episode_detail",
            {"episode_id": "episode-none"},
            "not_found",
            "episode_id",
            ["episode-none"],
        ),
        (
            "experience.get_episode_detail",
            {"episode_id": "x", "include_graph_neighbors": {"depth": 9}},
            "invalid_request",
            "include_graph_neighbors.depth",
            [],
        ),
        (
            "experience.similar_episodes",
            {"seed_episode_id": "episode-none"},
            "not_found",
            "seed_episode_id",
            [],
        ),
        (
            "experience.similar_episodes",
            {"seed_episode_id": "x", "max_results": 0},
            "invalid_request",
            "max_results",
            [],
        ),
        ("experience.delete_episode", {}, "invalid_request", "episode_id", ["required"]),
    ],
)
async def test_experience_errors_name_the_field_and_write_nothing(
    via: Transport,
    db: xdb.Database,
    operation: str,
    arguments: dict[str, Any],
    kind: str,
    field: str,
    words: list[str],
) -> None:
    await via.ok("experience.add_episode", {"content": "already here"})
    failure = await via.fail(operation, arguments)
    assert (failure.type, failure.field) == (kind, field), failure
    for word in words:
        assert word in failure.message, failure
    assert episode_count(db) == 1


# --------------------------------------------------------------------------- memcp


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


@dataclass
class Stored:
    id: str  # as memcp names it: "episode:<id>"
    context: str
    start: datetime
    end: datetime


async def test_memcp_search_filters_work_in_every_combination(
    via: Transport, db: xdb.Database
) -> None:
    stored: list[Stored] = []
    # Dated episodes (memcp's add stamps "now", so these come in through experience).
    for namespace, start, end in [
        ("p", "2025-02-01T10:00:00Z", "2025-02-01T11:00:00Z"),
        ("p", "2025-02-10T10:00:00Z", "2025-02-12T10:00:00Z"),
        ("q", "2025-02-05T10:00:00Z", "2025-02-05T11:00:00Z"),
        ("q", "2025-02-20T10:00:00Z", "2025-02-20T11:00:00Z"),
        ("p", "2025-01-30T00:00:00Z", "2025-02-06T00:00:00Z"),  # straddles the start
    ]:
        made = await via.ok(
            "experience.add_episode",
            {
                "content": f"flying kites in {namespace} from {start}",
                "namespace": namespace,
                "time_window": {"start_time": start, "end_time": end},
            },
        )
        stored.append(Stored("episode:" + made["episode_id"], namespace, utc(start), utc(end)))
    now = await via.ok("memcp.add_episode", {"content": "flying kites today", "context": "p"})
    stamp = utc(now["timestamp"])
    stored.append(Stored(now["id"], "p", stamp, stamp))
    assert db.wait_for_embeddings(30)

    time_start, time_end = "2025-02-04T00:00:00", "2025-02-15T00:00:00"  # no zone: UTC
    for use_start, use_end, context in product([False, True], [False, True], [None, "p", "q"]):
        request: dict[str, Any] = {"query": "kites", "limit": 50}
        if use_start:
            request["time_start"] = time_start
        if use_end:
            request["time_end"] = time_end
        if context:
            request["context"] = context
        expected = {
            s.id
            for s in stored
            if (context is None or s.context == context)
            and (not use_start or s.end >= utc(time_start + "Z"))
            and (not use_end or s.start <= utc(time_end + "Z"))
        }
        found = await via.ok("memcp.search_episodes", request)
        assert {e["id"] for e in found["episodes"]} == expected, request
        assert found["count"] == len(expected)
        for episode in found["episodes"]:
            assert episode["id"].startswith("episode:")
            assert episode["score"] is not None
            if context:
                assert episode["context"] == context


async def test_memcp_tools_end_to_end(via: Transport, db: xdb.Database) -> None:
    long_text = "Kites over the bay. " + "wind and string " * 80  # 1,300 characters
    made = await via.ok(
        "memcp.add_episode",
        {
            "content": long_text,
            "summary": "Kites",
            "context": "beach",
            "metadata": {"mood": "windy"},
            "entity_ids": ["entity-1"],
        },
    )
    assert made["id"].startswith("episode:")
    assert (made["context"], made["summary"], made["linked_entities"]) == ("beach", "Kites", 0)
    assert made["metadata"] == {"mood": "windy", "entity_ids": ["entity-1"]}
    bare_id = made["id"].removeprefix("episode:")

    # Search results carry the first 500 characters; get_episode the whole content.
    (hit,) = (await via.ok("memcp.search_episodes", {"query": "kites", "context": "beach"}))[
        "episodes"
    ]
    assert hit["content"] == long_text[:500]
    with_prefix = await via.ok("memcp.get_episode", {"id": made["id"]})
    without = await via.ok("memcp.get_episode", {"id": bare_id})
    assert with_prefix == without
    assert with_prefix["content"] == long_text
    assert with_prefix["entities"] is None
    entities = await via.ok("memcp.get_episode", {"id": bare_id, "include_entities": True})
    assert entities["entities"] == ["entity-1"]
    # One store: the experience tools see memcp's episode under its bare id.
    detail = await via.ok("experience.get_episode_detail", {"episode_id": bare_id})
    assert detail["episode"]["namespace"] == "beach"

    # limit is 1..50.
    await via.ok("memcp.add_episode", {"content": "more kites", "context": "beach"})
    one = await via.ok("memcp.search_episodes", {"query": "kites", "limit": 1})
    assert one["count"] == 1
    assert (await via.ok("memcp.search_episodes", {"query": "kites", "limit": 50}))["count"] == 2
    for limit in (0, 51):
        failure = await via.fail("memcp.search_episodes", {"query": "kites", "limit": limit})
        assert (failure.type, failure.field) == ("invalid_request", "limit")

    # Delete is idempotent, with or without the prefix.
    first = await via.ok("memcp.delete_episode", {"id": made["id"]})
    assert first == {"id": made["id"], "deleted": True}
    second = await via.ok("memcp.delete_episode", {"id": bare_id})
    assert second == {"id": made["id"], "deleted": False}
    missing = await via.fail("memcp.get_episode", {"id": made["id"]})
    assert (missing.type, missing.field) == ("not_found", "id")
    assert episode_count(db) == 1


@pytest.mark.parametrize(
    ("operation", "arguments", "field", "words"),
    [
        ("memcp.add_episode", {"content": ""}, "content", ["Episode content cannot be empty"]),
        ("memcp.add_episode", {"content": "  \n"}, "content", ["Episode content cannot be empty"]),
        ("memcp.add_episode", {}, "content", ["required"]),
        ("memcp.search_episodes", {"query": ""}, "query", []),
        ("memcp.search_episodes", {"query": "x", "time_start": "soon"}, "time_start", []),
        ("memcp.get_episode", {"id": ""}, "id", []),
        ("memcp.delete_episode", {}, "id", ["required"]),
    ],
)
async def test_memcp_bad_input_is_an_error_naming_the_field_and_writes_nothing(
    via: Transport,
    db: xdb.Database,
    request: pytest.FixtureRequest,
    operation: str,
    arguments: dict[str, Any],
    field: str,
    words: list[str],
) -> None:
    await via.ok("memcp.add_episode", {"content": "already here"})
    failure = await via.fail(operation, arguments)
    assert (failure.type, failure.field) == ("invalid_request", field), failure
    for word in words:
        assert word in failure.message, failure
    assert episode_count(db) == 1


async def test_xdb_mcp_toolsets_memcp_serves_exactly_memcps_four_tools(tmp_path: Path) -> None:
    path = tmp_path / "stdio.sqlite3"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "xdb", "--db", str(path), "mcp", "--toolsets", "memcp"],
        env={"XDB_EMBEDDER": "hash"},
    )
    async with Client(params, mode="legacy") as client:
        assert {tool.name for tool in (await client.list_tools()).tools} == MEMCP_TOOLS
        via = McpTransport(client)
        made = await via.ok("memcp.add_episode", {"content": "over a pipe", "context": "p"})
        found = await via.ok("memcp.search_episodes", {"query": "pipe", "context": "p"})
        assert [e["id"] for e in found["episodes"]] == [made["id"]]
        failure = await via.fail("memcp.add_episode", {"content": ""})
        assert failure.field == "content"
    with xdb.connect(path, embedder="hash") as reopened:
        assert episode_count(reopened) == 1


# --------------------------------------------------------------------------- the CLI


def test_the_cli_adds_searches_details_finds_similar_and_deletes(tmp_path: Path) -> None:
    db = tmp_path / "cli.sqlite3"
    failed = ok(db, "add-episode", "The staging deploy failed.", "--namespace", "p",
                "--session-id", "s1", "--kind", "incident",
                "--concept-tags", '[{"concept_id": "Deploy", "score": 0.9}]')  # fmt: skip
    fixed = ok(db, "add-episode", "Fixed the staging deploy.", "--namespace", "p",
               "--session-id", "s1", "--concept-tags", '[{"concept_id": "Deploy", "score": 0.7}]',
               )  # fmt: skip
    ok(db, "add-episode", "Deploy elsewhere.", "--namespace", "q")

    found = ok(db, "search", "staging deploy", "--namespace", "p")
    assert {e["episode_id"] for e in found["episodes"]} == {
        failed["episode_id"],
        fixed["episode_id"],
    }
    assert all(e["namespace"] == "p" for e in found["episodes"])
    page = ok(db, "search", "deploy", "--page", '{"page_size": 1}', "--namespace", "p")
    assert len(page["episodes"]) == 1 and page["next_cursor"]
    rest = ok(db, "search", "deploy", "--namespace", "p",
              "--page", json.dumps({"page_size": 1, "cursor": page["next_cursor"]}))  # fmt: skip
    assert {e["episode_id"] for e in page["episodes"] + rest["episodes"]} == {
        failed["episode_id"],
        fixed["episode_id"],
    }

    detail = ok(db, "get-episode-detail", "--episode-id", failed["episode_id"],
                "--include-graph-neighbors", '{"depth": 1}')  # fmt: skip
    assert detail["episode"]["kind"] == "incident"
    assert detail["episode"]["next_episode_id"] == fixed["episode_id"]
    assert {n["node_id"] for n in detail["graph_neighbors"]["nodes"]} == {
        failed["episode_id"],
        fixed["episode_id"],
        "concept:Deploy",
    }

    similar = ok(db, "similar-episodes", "--seed-episode-id", failed["episode_id"])
    assert [n["episode_id"] for n in similar["neighbors"]] == [fixed["episode_id"]]
    assert similar["neighbors"][0]["concept_overlap"] == ["Deploy"]

    gone = ok(db, "delete-episode", "--episode-id", fixed["episode_id"])
    assert gone == {"episode_id": fixed["episode_id"], "deleted": True}
    again = ok(db, "delete-episode", "--episode-id", fixed["episode_id"])
    assert again["deleted"] is False
    message = fails(db, "get-episode-detail", "--episode-id", fixed["episode_id"])
    assert fixed["episode_id"] in message


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["add-episode", ""], ["content"]),
        (["add-episode"], ["content", "required"]),
        (["add-episode", "x", "--concept-tags", "[{"], ["concept_tags", "not valid JSON"]),
        (["add-episode", "x", "--content", "y"], ["content", "not both"]),
        (["search", "x", "--page", '{"page_size": 0}'], ["page.page_size"]),
        (["search", "x", "--page", '{"cursor": "nope"}'], ["cursor is malformed"]),
        (["get-episode-detail"], ["episode_id", "required"]),
        (["get-episode-detail", "--episode-id", "episode-none"], ["episode-none"]),
        (["similar-episodes", "--seed-episode-id", "x", "--concept-k", "99"], ["concept_k"]),
        (["delete-episode"], ["episode_id", "required"]),
        (["get-episode", "--id", "x"], ["get-episode"]),  # memcp's tools are not commands
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, args: list[str], words: list[str]
) -> None:
    db = tmp_path / "cli.sqlite3"
    xdb.connect(db).close()  # an empty database: reads of a missing one fail earlier
    message = fails(db, *args)
    for word in words:
        assert word in message, message


def test_these_tests_cover_every_episode_operation() -> None:
    names = {f"{op.group}.{op.name}" for op in operations({"experience", "memcp"})}
    from tests.interfaces.test_learning_interfaces import LEARNING_OPERATIONS

    names -= set(LEARNING_OPERATIONS)  # tests/interfaces/test_learning_interfaces.py
    assert names == {
        "experience.add_episode",
        "experience.search_episodes",
        "experience.get_episode_detail",
        "experience.similar_episodes",
        "experience.delete_episode",
        *(f"memcp.{tool}" for tool in MEMCP_TOOLS),
        # the graph's operations: tests/interfaces/test_graph_interfaces.py
        "experience.graph_neighborhood",
        "experience.add_node",
        "experience.link",
        "experience.concept_usage_summary",
    }
