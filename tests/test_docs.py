"""Everything an agent or a person can call is documented, and the reference is not stale."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import anyio
import click
import pytest

import xdb
from xdb.interfaces import docs
from xdb.interfaces.cli import cli
from xdb.ops.catalog import operations

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "reference.md"
# Claude Code shows a tool as mcp__<server>__<tool> and rejects names outside this pattern.
CLIENT_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


@pytest.fixture(scope="module")
def documented() -> str:
    readme = ROOT / "README.md"
    return REFERENCE.read_text(encoding="utf-8") + (
        readme.read_text(encoding="utf-8") if readme.exists() else ""
    )


@pytest.fixture
def db(tmp_path: Path) -> Iterator[xdb.Database]:
    with xdb.connect(tmp_path / "docs.sqlite3") as database:
        yield database


def served_tool_names(db: xdb.Database, dotted: bool) -> list[str]:
    """The names the MCP server really lists (the registry's, if the server is missing)."""
    try:
        from mcp import Client

        from xdb.interfaces.mcp import build_server
    except ImportError:
        return [op.tool_name(dotted) for op in operations()]

    async def listed() -> list[str]:
        every = {op.group for op in operations()}  # the management tools too, when named
        async with Client(build_server(db, dotted_names=dotted, groups=every)) as client:
            return [tool.name for tool in (await client.list_tools()).tools]

    return anyio.run(listed)


def test_every_mcp_tool_is_documented_with_a_valid_name(db: xdb.Database, documented: str) -> None:
    names = served_tool_names(db, dotted=False)
    assert names == [op.tool_name() for op in operations()]
    for name in names:
        assert f"`{name}`" in documented, name
        assert CLIENT_TOOL_NAME.match("mcp__xdb__" + name), name


def test_every_dotted_tool_name_is_documented(db: xdb.Database, documented: str) -> None:
    # Dotted names are opt-in (--dotted-names) precisely because they fail the pattern above.
    for name in served_tool_names(db, dotted=True):
        assert f"`{name}`" in documented, name


def _commands(group: click.Group, prefix: str) -> Iterator[str]:
    for name, command in group.commands.items():
        yield f"{prefix} {name}"
        if isinstance(command, click.Group):
            yield from _commands(command, f"{prefix} {name}")


def test_every_cli_command_is_documented(documented: str) -> None:
    commands = list(_commands(cli, "xdb"))
    with_commands = [op for op in operations() if op.command]
    # serve, mcp, import, export, migrate, reindex, concepts import, hook, hooks install and
    # uninstall; the audit, keys, dataset, sync, lessons and hooks groups
    assert len(commands) == len(with_commands) + len(docs.HAND_WRITTEN) + 6
    for command in commands:
        assert f"`{command}" in documented, command


def test_every_http_route_is_documented(db: xdb.Database, documented: str) -> None:
    http = pytest.importorskip("xdb.interfaces.http")
    from fastapi.routing import APIRoute

    routes = [r for r in http.create_app(db, mcp=False).routes if isinstance(r, APIRoute)]
    assert routes
    for route in routes:
        for method in route.methods or ():
            assert f"| {method} | `{route.path}` |" in documented, (method, route.path)


def test_every_request_field_is_documented_with_its_operation() -> None:
    text = REFERENCE.read_text(encoding="utf-8")
    for op in operations():
        section = text.split(f"### `{op.group}.{op.name}`\n", 1)[1].split("\n### ", 1)[0]
        for name in [*op.request.model_fields, *op.response.model_fields]:
            assert f"| `{name}` |" in section, (op.name, name)


def test_reference_is_up_to_date() -> None:
    current = REFERENCE.read_text(encoding="utf-8") if REFERENCE.exists() else ""
    assert current == docs.render(), (
        "docs/reference.md is stale: run `python -m xdb.interfaces.docs` and commit it"
    )


def test_generator_writes_and_checks(tmp_path: Path) -> None:
    target = tmp_path / "reference.md"
    assert docs.main(["--check", "--output", str(target)]) == 1  # missing counts as stale
    assert docs.main(["--output", str(target)]) == 0
    assert docs.main(["--check", "--output", str(target)]) == 0
    target.write_text(target.read_text() + "edited by hand\n")
    assert docs.main(["--check", "--output", str(target)]) == 1
