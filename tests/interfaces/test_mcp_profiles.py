"""MCP profiles (``interfaces/mcp_profiles.py``): what each lists, what the agent's costs a
client's context, that every profile's tools still run for the caller through the policy,
and ``xdb mcp config CLIENT``'s configs, each started as its client would and listed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from mcp import Client, StdioServerParameters

import xdb
from tests.interfaces.test_mcp import AGENT, ALL_TOOLS
from xdb.interfaces.mcp import build_server, profile_sizes
from xdb.interfaces.mcp_config import CLIENTS
from xdb.interfaces.mcp_profiles import DEFAULT, PROFILES, clean_schema, specs
from xdb.ops.catalog import REGISTRY

pytestmark = pytest.mark.anyio

ROOT = Path(__file__).resolve().parents[2]
# Seed 002's xdb.* tools and seed 000's experience.* tools, in the seeds' order.
XDB_SEED = [
    f"xdb_{name}"
    for name in (
        *("record", "tag", "create_tag", "comment", "query", "recent", "tags", "status"),
        *("concepts", "find_concept", "graph_neighborhood", "buds", "bud_examples", "bud_ready"),
        *("pin", "unpin", "quota", "context", "compact", "maintenance"),
    )
]
EXPERIENCE_SEED = [
    f"experience_{name}"
    for name in (
        *("search_episodes", "get_episode_detail", "graph_neighborhood", "similar_episodes"),
        *("concept_usage_summary", "build_dataset", "list_candidate_concepts"),
    )
]
MEMCP = ["add_episode", "search_episodes", "get_episode", "delete_episode"]
EXPECTED = {
    "agent": AGENT,
    "xdb": XDB_SEED,
    "experience": EXPERIENCE_SEED,
    "seeds": XDB_SEED + EXPERIENCE_SEED,
    "memcp": MEMCP,
}
# Words of xdb's own design that mean nothing to a model meeting the tools for the first
# time (the "layers 2 and 3", "graft or meld", "tribe", and their kin).
INTERNAL = re.compile(
    r"\blayers? \d|\bgraft|\bmeld\b|\btribe|\bbuds?\b|\bHOT\b|\bWARM\b|\bCOLD\b|\bT[0-3]\b"
    r"|folksonomy|\bXAPI\b|\bseed 00\d|\bexemplar|Term:layer",
)
NO_LIMIT = 1 << 40


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def db(tmp_path: Path) -> Any:
    with xdb.connect(tmp_path / "p.sqlite3", embedder="hash") as database:
        yield database


async def listed(db: xdb.Database, **kwargs: Any) -> list[Any]:
    async with Client(build_server(db, **kwargs)) as client:
        return list((await client.list_tools()).tools)


# --------------------------------------------------------------------------- what is listed


@pytest.mark.parametrize("profile", list(PROFILES))
async def test_each_profile_lists_its_tools(db: xdb.Database, profile: str) -> None:
    names = [tool.name for tool in await listed(db, profile=profile)]
    if profile == "full":
        assert set(names) == ALL_TOOLS and len(names) == len(ALL_TOOLS)
    else:
        assert names == EXPECTED[profile]
    assert names == [spec.name for spec in specs(profile)]


async def test_the_default_profile_is_the_agents_and_build_server_alone_serves_full(
    db: xdb.Database,
) -> None:
    assert DEFAULT == "agent"
    assert [spec.name for spec in specs()] == AGENT
    assert {tool.name for tool in await listed(db)} == ALL_TOOLS  # a library caller's default
    with pytest.raises(ValueError, match="not both"):
        build_server(db, profile="agent", groups={"xdb"})
    with pytest.raises(ValueError, match="unknown MCP profile 'tiny'; known: agent, xdb"):
        build_server(db, profile="tiny")


async def test_dotted_names_keep_the_agents_names_apart(db: xdb.Database) -> None:
    names = [tool.name for tool in await listed(db, profile="agent", dotted_names=True)]
    assert names == [n.replace("_", ".", 1) for n in AGENT]
    assert "xdb.concept_neighborhood" in names and "experience.graph_neighborhood" in names


def test_the_agent_profile_fits_a_client() -> None:
    sizes = profile_sizes()
    print("\nprofile: tools, characters, tokens (characters / 4)")
    for name, (count, chars, tokens) in sizes.items():
        print(f"  {name}: {count}, {chars:,}, {tokens:,}")
    count, chars, tokens = sizes["agent"]
    assert count <= 15 and tokens <= 5000
    assert sizes["full"][0] == len(ALL_TOOLS)
    # The docs' table says the same (to within a tenth: the schemas may grow a little).
    table = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    for name, (count, _chars, tokens) in sizes.items():
        row = re.search(rf"^\| `{name}` \| (\d+) \| ([\d,]+) \| ([\d,]+) \|", table, re.M)
        assert row is not None, f"docs/mcp.md has no row for {name}"
        assert int(row[1]) == count, name
        documented = int(row[3].replace(",", ""))
        assert abs(documented - tokens) <= tokens / 10, (name, documented, tokens)


async def test_the_agent_profile_says_each_thing_once_in_plain_words(db: xdb.Database) -> None:
    tools = await listed(db, profile="agent")
    ops = [spec.op for spec in specs("agent")]
    # No two tools run the same operation, and memcp's episode tools (the same operations as
    # experience's, under memcp's contract) are not beside experience's.
    assert len({(op.group, op.name) for op in ops}) == len(ops)
    assert not {op.group for op in ops} & {"memcp", "policy", "audit", "sync"}
    # The two graph walks are told apart by their names, not by their group alone.
    walks = [t.name for t in tools if "neighborhood" in t.name]
    assert len(walks) == 2
    assert len({name.split("_", 1)[1] for name in walks}) == 2
    assert "concept" in walks[0] and "graph" in walks[1]
    text = json.dumps([t.model_dump(mode="json", exclude_none=True) for t in tools])
    assert INTERNAL.search(text) is None, INTERNAL.search(text)
    for tool in tools:
        assert tool.description and len(tool.description) <= 300
        assert tool.output_schema is None  # the text block carries the JSON
        schema = tool.input_schema
        assert schema["type"] == "object" and "description" not in schema  # said once
        jsonschema.Draft202012Validator.check_schema(schema)
        assert '"title"' not in json.dumps(schema)
        assert tool.annotations is not None and tool.annotations.open_world_hint is False


@pytest.mark.parametrize("profile", list(PROFILES))
async def test_no_schema_carries_the_internal_string_limit(db: xdb.Database, profile: str) -> None:
    for tool in await listed(db, profile=profile):
        text = json.dumps([tool.input_schema, tool.output_schema])
        assert str(NO_LIMIT) not in text, tool.name
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
    every = {op.group for op in REGISTRY.values()}
    for tool in await listed(db, groups=every):  # the management tools too
        assert str(NO_LIMIT) not in json.dumps([tool.input_schema, tool.output_schema])
    assert clean_schema({"maxLength": NO_LIMIT, "a": [{"maxLength": 5}]}) == {
        "a": [{"maxLength": 5}]
    }


# --------------------------------------------------------------------------- calls


async def test_the_agent_tools_run_and_take_the_fields_they_do_not_show(
    db: xdb.Database,
) -> None:
    async with Client(build_server(db, profile="agent")) as client:

        async def ok(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
            result = await client.call_tool(tool, arguments)
            assert not result.is_error, (tool, result.content)
            assert isinstance(result.structured_content, dict)
            block = result.content[0]
            assert block.type == "text" and json.loads(block.text) == result.structured_content
            return result.structured_content

        # token_id is not in the agent's schema of xdb_record, and is still taken.
        made = await ok("xdb_record", {"event_type": "output", "content": "hi", "token_id": 7})
        assert db.query().timesteps[0].token_id == 7
        await ok("xdb_tag", {"timestep_id": made["timestep_id"], "tag_name_or_id": "greeting"})
        await ok("xdb_comment", {"content": "a short session"})
        assert (await ok("xdb_query", {"tags": ["greeting"]}))["total_count"] == 1
        assert len((await ok("xdb_recent", {"n": 5}))["timesteps"]) == 1
        assert (await ok("xdb_status", {}))["current_tick"] == 1
        episode = await ok(
            "experience_add_episode", {"content": "The deploy failed on a locked table."}
        )
        found = await ok("experience_search_episodes", {"text_query": "deploy"})
        assert [e["episode_id"] for e in found["episodes"]] == [episode["episode_id"]]
        detail = await ok("experience_get_episode_detail", {"episode_id": episode["episode_id"]})
        assert detail["episode"]["episode_id"] == episode["episode_id"]
        await ok("experience_similar_episodes", {"seed_episode_id": episode["episode_id"]})
        walked = await ok(
            "experience_graph_neighborhood", {"seed_node_ids": [episode["episode_id"]]}
        )
        assert walked["nodes"]
        await ok("xdb_find_concept", {"query": "deploy"})
        refused = await client.call_tool("xdb_concept_neighborhood", {"seed_ids": ["Nothing"]})
        assert refused.is_error  # no pack loaded: the concept is unknown, said as for any tool
        assert "not_found" in refused.content[0].text  # type: ignore[union-attr]
        await ok("engine_add_lesson", {"question": "ran rm -rf /", "answer": "do not"})
        # A tool of another profile is not this one's.
        text = (await client.call_tool("xdb_graph_neighborhood", {"seed_ids": ["x"]})).content
        assert "unknown tool 'xdb_graph_neighborhood'" in text[0].text  # type: ignore[union-attr]


@pytest.mark.parametrize("profile", list(PROFILES))
async def test_every_profile_runs_for_the_caller_through_the_policy(
    db: xdb.Database, profile: str
) -> None:
    db.caller = xdb.Caller(id="acme-bot", roles=("partner",))  # may read, may not write
    writes = [s for s in specs(profile) if not s.op.readonly]
    assert writes
    async with Client(build_server(db, profile=profile)) as client:
        for spec in writes:
            result = await client.call_tool(spec.name, {})
            assert result.is_error
            assert result.content[0].text.startswith("permission_denied"), spec.name  # type: ignore[union-attr]


# --------------------------------------------------------------------------- client configs


def _xdb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xdb", *args], capture_output=True, text=True, timeout=60
    )


def _server_of(client: str, text: str) -> tuple[str, list[str]]:
    """The command and arguments a client reads from its config."""
    if client == "codex":
        entry = tomllib.loads(text)["mcp_servers"]["xdb"]
        return entry["command"], entry["args"]
    config = json.loads(text)
    entry = config["servers" if client == "vscode" else "mcpServers"]["xdb"]
    if client in ("vscode", "claude-code"):
        assert entry["type"] == "stdio"
    return entry["command"], entry["args"]


@pytest.mark.parametrize("client", CLIENTS)
async def test_each_clients_config_starts_the_server(tmp_path: Path, client: str) -> None:
    path = tmp_path / "agent.sqlite3"
    done = _xdb("--db", str(path), "mcp", "config", client)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("\n") == 1  # where it goes: one line
    command, args = _server_of(client, done.stdout)
    assert Path(command).is_absolute() and Path(command).exists()
    assert args[args.index("--db") + 1] == str(path)
    # Started from another directory, as a client starts it.
    params = StdioServerParameters(command=command, args=args, cwd=str(tmp_path.parent))
    async with Client(params, mode="legacy") as session:
        names = [tool.name for tool in (await session.list_tools()).tools]
        assert names == AGENT
        made = await session.call_tool("xdb_record", {"event_type": "input", "content": client})
        assert not made.is_error
    with xdb.connect(path) as opened:
        assert opened.query(text_search=client.split("-")[0]).total_count == 1


async def test_a_config_carries_the_options_given(tmp_path: Path) -> None:
    relative = "rel.sqlite3"
    line = ["mcp", "--dotted-names", "config", "cursor", "--profile", "memcp"]
    done = subprocess.run(
        [sys.executable, "-m", "xdb", *line, "--db", relative, "--name", "memory"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    entry = json.loads(done.stdout)["mcpServers"]["memory"]
    assert entry["args"][1:] == [
        "--db",
        str(tmp_path / relative),
        "--profile",
        "memcp",
        "--dotted-names",
    ]
    params = StdioServerParameters(command=entry["command"], args=entry["args"])
    async with Client(params) as session:
        names = [tool.name for tool in (await session.list_tools()).tools]
    assert names == MEMCP  # bare names: memcp's contract has no group to dot
    refused = _xdb("mcp", "config", "cursor", "--name", "my server")
    assert refused.returncode == 2 and refused.stderr.startswith("error: name:")
    both = _xdb("mcp", "--toolsets", "xdb", "config", "cursor", "--profile", "full")
    assert both.returncode == 2 and "not both" in both.stderr
    unknown = _xdb("mcp", "config", "emacs")
    assert unknown.returncode == 2 and "claude-code" in unknown.stderr


def test_xdb_mcp_refuses_a_profile_and_groups_together(tmp_path: Path) -> None:
    done = _xdb(
        "--db", str(tmp_path / "x.sqlite3"), "mcp", "--profile", "full", "--toolsets", "xdb"
    )
    assert done.returncode == 2
    assert done.stderr == "error: toolsets: give --profile or --toolsets, not both\n"
    assert not (tmp_path / "x.sqlite3").exists()
