"""Each skin acts as its configured caller: the CLI as the person at the terminal (the agent,
with admin rights) or ``--caller``, ``xdb mcp`` as the agent (no management tools) or
``--caller``. What each caller then sees is the one policy's (test_leak_hunter.py)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters

import xdb
from tests.interfaces.test_cli import invoke

pytestmark = pytest.mark.anyio
SECRET = "org.test/t@1::concept/Secret"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    path = tmp_path / "p.sqlite3"
    with xdb.connect(path, embedder="hash") as db:
        admin = db.as_caller(xdb.Caller(id="ops", roles=("admin",)))
        admin.set_disclosure_policy(id="weather-only", allow={"prefixes": ["weather/"]})
        admin.set_treaty(id="t1", partner="acme", disclosure_policy_id="weather-only")
        admin.set_caller(id="acme-bot", roles=["partner"], treaty_ids=["t1"])
        db.record(event_type="input", content="hello",
                  concept_activations={SECRET: 0.9, "weather/rain": 0.4})  # fmt: skip
    return path


def activations(output: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(output)["timesteps"][0]["concept_activations"]
    return found


def test_the_cli_acts_as_the_named_caller(shared: Path) -> None:
    mine = invoke("--db", str(shared), "recent")
    assert set(activations(mine.stdout)) == {SECRET, "weather/rain"}
    theirs = invoke("--db", str(shared), "recent", "--caller", "acme-bot")
    assert activations(theirs.stdout) == {"weather/rain": 0.4}
    assert json.loads(invoke("--db", str(shared), "policies").stdout)["treaties"]
    refused = invoke("--db", str(shared), "--caller", "acme-bot", "policies")
    assert refused.exit_code == 2 and "needs one of the roles admin" in refused.stderr
    unknown = invoke("--db", str(shared), "--caller", "nobody", "recent")
    assert unknown.exit_code == 2 and "no caller 'nobody'" in unknown.stderr


async def _recent(path: Path, *extra: str) -> tuple[set[str], dict[str, Any]]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "xdb", "--db", str(path), "mcp", *extra]
    )
    async with Client(params, mode="legacy") as c:
        names = {t.name for t in (await c.list_tools()).tools}
        result = await c.call_tool("xdb_recent", {"n": 1})
        assert not result.is_error, result
        data: dict[str, Any] = result.structured_content or {}
        return names, data["timesteps"][0]["concept_activations"]


async def test_mcp_serves_the_agent_without_management_tools(shared: Path) -> None:
    names, seen = await _recent(shared)
    assert not any(n.startswith("policy_") for n in names) and "xdb_recent" in names
    assert set(seen) == {SECRET, "weather/rain"}


async def test_mcp_serves_a_named_caller_its_view(shared: Path) -> None:
    _, seen = await _recent(shared, "--caller", "acme-bot")
    assert seen == {"weather/rain": 0.4}


def test_the_python_example_in_the_policy_doc_runs(tmp_path: Path) -> None:
    text = (Path(__file__).parents[2] / "docs" / "policy.md").read_text()
    examples = re.findall(r"```python\n(.*?)```", text, re.S)
    # The one on the demo's database runs with the demo made (tests/test_doc_commands.py).
    examples = [code for code in examples if "demo.sqlite3" not in code]
    assert len(examples) == 2  # the treaty's and the access policy's
    for n, code in enumerate(examples):
        code = re.sub(r"/tmp/[\w-]+\.sqlite3", str(tmp_path / f"demo{n}.sqlite3"), code)
        exec(compile(code, "docs/policy.md", "exec"), {})  # its asserts are the test
