"""Files only where the database keeps them: every operation that takes a path reads and
writes inside the data root when called as the agent over Python, over HTTP or over MCP;
the person at the terminal (the CLI) names any path (``xdb.paths``, docs/policy.md).

Each hostile path (absolute, ``../``, ``~``, a link inside the root leading out, an
existing file without ``overwrite``) is tried on each file-taking operation through each
skin, against real files: a refusal names the field and the root, reads the same whether
or not the place outside exists, and leaves every file outside as it was."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import httpx
import pytest
from mcp import Client

import xdb
from tests.concepts.packs import write_pack
from tests.engine.test_extract import claude_transcript
from tests.interfaces.cli_runner import ok
from tests.interfaces.test_fuzz import META
from tests.serving import served
from xdb.interfaces.http import create_app
from xdb.interfaces.mcp import build_server
from xdb.models.common import Caller
from xdb.ops.catalog import REGISTRY
from xdb.paths import at_terminal

pytestmark = pytest.mark.anyio

LIE = "c/lie"
HTTP_STATUS = {"invalid_request": 400, "permission_denied": 403, "conflict": 409}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


# --------------------------------------------------------------------------- the world


@dataclass
class World:
    db: xdb.Database
    root: Path  # the data root
    outside: Path  # beside it: what no caller but the terminal may reach
    home: Path  # $HOME, for "~"
    dataset_id: str

    def request(self, operation: str, path: str, **extra: Any) -> dict[str, Any]:
        field, _, _ = OPERATIONS[operation]
        base = {
            "experience.export_dataset": {"dataset_id": self.dataset_id},
            "engine.extract": {"session_id": "s"},
        }.get(operation, {})
        return {**base, field: path, **extra}


# operation -> (its path field, what it does with it, the name of a real one)
OPERATIONS = {
    "experience.export_dataset": ("path", "write", "train.jsonl"),
    "sync.export": ("path", "write", "new-bundle"),
    "sync.import": ("path", "read", "bundle"),
    "xdb.import_concepts": ("path", "read", "pack"),
    "engine.extract": ("transcript_path", "read", "session.jsonl"),
}


def make_real_things(folder: Path, db: xdb.Database) -> None:
    """A bundle, a pack and a transcript in ``folder`` (each operation's "real one")."""
    folder.mkdir(parents=True, exist_ok=True)
    with at_terminal():
        db.sync_export(path=str(folder / "bundle"))
    write_pack(folder / "pack")
    (folder / "session.jsonl").write_text("\n".join(json.dumps(r) for r in claude_transcript()))


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))  # "~" and the agents' transcript folders
    root, outside = tmp_path / "root", tmp_path / "outside"
    with xdb.connect(tmp_path / "agent.sqlite3", embedder="hash", data_root=root) as db:
        for i in range(6):
            tags = [{"concept_id": LIE if i % 2 else "c/x", "score": 0.9}]
            db.add_episode(content=f"talk {i} about the refund", concept_tags=tags)
        made = db.build_dataset(target_concept_id=LIE, max_positive=2, max_negative=2)
        make_real_things(outside, db)
        make_real_things(home, db)
        root.mkdir()
        (root / "link").symlink_to(outside, target_is_directory=True)
        (outside / "secret.jsonl").write_text("keep\n")
        (root / "existing.jsonl").write_text("keep\n")
        yield World(db, root, outside, home, made.dataset_id)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# --------------------------------------------------------------------------- the skins


@dataclass
class Failure:
    type: str
    message: str
    field: str | None


class Skin(Protocol):
    async def call(self, operation: str, arguments: dict[str, Any]) -> dict[str, Any] | Failure: ...


class PythonSkin:
    """The agent over Python: ``db.call`` as the handle's caller (``self``), or another."""

    def __init__(self, db: xdb.Database, caller: Caller | None = None) -> None:
        self.db, self.caller = db, caller

    async def call(self, operation: str, arguments: dict[str, Any]) -> dict[str, Any] | Failure:
        try:
            return self.db.call(operation, arguments, caller=self.caller).model_dump(mode="json")
        except xdb.XdbError as exc:
            return Failure(exc.code, exc.message, exc.field)


class HttpSkin:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client

    async def call(self, operation: str, arguments: dict[str, Any]) -> dict[str, Any] | Failure:
        response = await self.client.post(REGISTRY[operation].http_path, json=arguments)
        body = response.json()
        if response.status_code == 200:
            return dict(body)
        failure = Failure(**body["error"])
        assert response.status_code == HTTP_STATUS[failure.type], response.text
        return failure


class McpSkin:
    def __init__(self, client: Client) -> None:
        self.client = client

    async def call(self, operation: str, arguments: dict[str, Any]) -> dict[str, Any] | Failure:
        result = await self.client.call_tool(REGISTRY[operation].tool_name(), arguments)
        if not result.is_error:
            assert isinstance(result.structured_content, dict)
            return result.structured_content
        block = result.content[0]
        assert block.type == "text"
        kind, _, message = block.text.partition(": ")
        field = message.partition(": ")[0] if ": " in message else None
        return Failure(kind, message, field)


@pytest.fixture(params=["python", "python-admin", "http", "mcp"])
async def skin(world: World, request: pytest.FixtureRequest) -> AsyncIterator[Skin]:
    if request.param == "http":
        with served(create_app(world.db)) as url:
            async with httpx.AsyncClient(base_url=url, timeout=30) as client:
                yield HttpSkin(client)
    elif request.param == "mcp":
        # Every group of the table, sync included (served only when named, as --toolsets).
        groups = {operation.split(".")[0] for operation in OPERATIONS}
        async with Client(build_server(world.db, groups=groups)) as client:
            yield McpSkin(client)
    else:
        # An admin over Python is held to the root as well: only the terminal is not.
        admin = Caller(roles=("self", "admin")) if request.param == "python-admin" else None
        yield PythonSkin(world.db, admin)


# --------------------------------------------------------------------------- the table


def hostile(world: World, name: str) -> dict[str, str]:
    """Each way out of the root, to the real ``name`` outside (or a new one, for a write)."""
    return {
        "absolute": str(world.outside / name),
        "absolute, missing": str(world.outside / "missing" / name),
        "dot-dot": f"../outside/{name}",
        "dot-dot inside first": f"sub/../../outside/{name}",
        "tilde": f"~/{name}",
        "link leading out": f"link/{name}",
        "the home": str(world.home / name),
    }


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
async def test_every_hostile_path_is_refused_the_same_way_and_touches_nothing(
    world: World, skin: Skin, operation: str
) -> None:
    field, _, name = OPERATIONS[operation]
    before = {d: snapshot(d) for d in (world.outside, world.home)}
    lessons = len(world.db.lessons().lessons)
    shapes: set[str] = set()
    for how, path in hostile(world, name).items():
        failure = await skin.call(operation, world.request(operation, path))
        assert isinstance(failure, Failure), f"{how}: {path!r} was served: {failure}"
        assert (failure.type, failure.field) == ("permission_denied", field), (how, failure)
        assert str(world.root.resolve()) in failure.message, failure.message
        assert "Traceback" not in failure.message
        # Existing or missing, inside a link or not: one message, but for the path named.
        shapes.add(failure.message.replace(repr(path), "PATH"))
    assert len(shapes) == 1, shapes
    assert {d: snapshot(d) for d in (world.outside, world.home)} == before
    assert len(world.db.lessons().lessons) == lessons  # no transcript outside was read


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
async def test_a_path_inside_the_root_works(world: World, skin: Skin, operation: str) -> None:
    _, does, name = OPERATIONS[operation]
    if does == "read":  # the real one, copied in
        (world.root / "in").mkdir()
        copy = shutil.copytree if (world.outside / name).is_dir() else shutil.copy
        copy(world.outside / name, world.root / "in" / name)
    relative = await skin.call(operation, world.request(operation, f"in/{name}"))
    assert not isinstance(relative, Failure), relative
    again = str(world.root / "in" / ("again-" + name if does == "write" else name))
    absolute = await skin.call(operation, world.request(operation, again))
    assert not isinstance(absolute, Failure), absolute
    if does == "write":
        assert (world.root / "in" / name).exists() and (
            world.root / "in" / f"again-{name}"
        ).exists()


async def test_an_existing_file_is_replaced_only_when_asked(world: World, skin: Skin) -> None:
    ask = world.request("experience.export_dataset", "existing.jsonl")
    failure = await skin.call("experience.export_dataset", ask)
    assert isinstance(failure, Failure)
    assert (failure.type, failure.field) == ("conflict", "path"), failure
    assert "overwrite" in failure.message
    assert (world.root / "existing.jsonl").read_text() == "keep\n"
    # A link in the root to a file outside is refused before anything else is said of it.
    linked = world.request("experience.export_dataset", "link/secret.jsonl", overwrite=True)
    failure = await skin.call("experience.export_dataset", linked)
    assert isinstance(failure, Failure) and failure.type == "permission_denied", failure
    assert (world.outside / "secret.jsonl").read_text() == "keep\n"
    replaced = await skin.call("experience.export_dataset", {**ask, "overwrite": True})
    assert not isinstance(replaced, Failure), replaced
    assert (world.root / "existing.jsonl").read_text() != "keep\n"
    # A bundle is never written over: a directory with anything in it is refused.
    (world.root / "full").mkdir()
    (world.root / "full" / "note.txt").write_text("keep\n")
    failure = await skin.call("sync.export", {"path": "full"})
    assert isinstance(failure, Failure) and failure.field == "path", failure
    assert (world.root / "full" / "note.txt").read_text() == "keep\n"


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
async def test_a_name_the_filesystem_cannot_hold_is_the_callers_mistake(
    world: World, skin: Skin, operation: str
) -> None:
    """A name past the filesystem's limit (255 bytes a name here) is an invalid request
    naming the field, never an internal error (export_dataset's was a 500)."""
    field, _, _ = OPERATIONS[operation]
    for path in ("x" * 5000 + ".jsonl", "d/" * 3000 + "x.jsonl"):
        failure = await skin.call(operation, world.request(operation, path))
        assert isinstance(failure, Failure), failure
        assert (failure.type, failure.field) == ("invalid_request", field), failure


# --------------------------------------------------------------------------- inside the root


def test_links_inside_a_bundle_or_a_pack_may_not_lead_out(world: World) -> None:
    """A bundle or pack inside the root whose files link outside reads nothing outside."""
    bundle = world.root / "bundle"
    shutil.copytree(world.outside / "bundle", bundle)
    (bundle / "manifest.json").unlink()
    (bundle / "manifest.json").symlink_to(world.outside / "bundle" / "manifest.json")
    pack = world.root / "pack"
    shutil.copytree(world.outside / "pack", pack)
    (pack / "pack.json").unlink()
    (pack / "pack.json").symlink_to(world.outside / "pack" / "pack.json")
    for call in (lambda: world.db.sync_import(path="bundle"),
                 lambda: world.db.import_concepts(path="pack")):  # fmt: skip
        with pytest.raises(xdb.PermissionDenied, match="data root"):
            call()


def test_a_manifest_naming_files_outside_its_bundle_is_refused(world: World) -> None:
    bundle = world.root / "bundle"
    shutil.copytree(world.outside / "bundle", bundle)
    manifest = json.loads((bundle / "manifest.json").read_text())
    manifest["objects"][0]["sha256"] = "../../outside/secret"
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(xdb.InvalidRequest, match="no SHA-256") as caught:
        world.db.sync_import(path="bundle")
    assert "secret" in caught.value.message and "missing" not in caught.value.message


def test_extract_reads_the_agents_own_transcript_folder(world: World) -> None:
    """The Stop hook names a transcript where the agent keeps them: that is readable."""
    folder = world.home / ".claude" / "projects" / "p"
    folder.mkdir(parents=True)
    shutil.copy(world.outside / "session.jsonl", folder / "abc.jsonl")
    made = world.db.extract(session_id="s", transcript_path=str(folder / "abc.jsonl"))
    assert made.found == 3
    with pytest.raises(xdb.PermissionDenied, match="transcript_path"):  # not another agent's
        world.db.extract(agent="codex", session_id="s", transcript_path=str(folder / "abc.jsonl"))


# --------------------------------------------------------------------------- the terminal


def test_the_cli_names_any_path(world: World, tmp_path: Path) -> None:
    """At the terminal every operation takes the paths refused above, as a shell would."""
    db = tmp_path / "agent.sqlite3"
    world.db.close()
    out = world.outside
    made = ok(db, "dataset", "export", world.dataset_id, "--path", str(out / "train.jsonl"))
    assert made["rows"] == 4 and (out / "train.jsonl").exists()
    ok(db, "sync", "export", str(out / "new-bundle"))
    assert (out / "new-bundle" / "manifest.json").exists()
    assert ok(db, "sync", "import", str(out / "bundle"))["verified"] >= 1
    assert ok(db, "concepts", "import", str(out / "pack"))["concept_count"] > 0
    lessons = ok(db, "extract", "--session-id", "s", "--transcript-path", "~/session.jsonl")
    assert lessons["found"] == 3  # "~" is the terminal's home
    # Nothing is written over without --overwrite, at the terminal too.
    result = ok(db, "dataset", "export", world.dataset_id, "--path", str(out / "secret.jsonl"),
                "--overwrite")  # fmt: skip
    assert result["rows"] == 4 and (out / "secret.jsonl").read_text() != "keep\n"


# --------------------------------------------------------------------------- where the root is


def test_the_root_is_beside_the_file_unless_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XDB_DATA_ROOT", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the user data directory
    with xdb.connect(tmp_path / "agent.sqlite3", embedder="hash") as db:
        assert db.data_root == tmp_path / "agent-files"
        made = db.sync_export(path="b")  # relative: to the root, which the write makes
        assert Path(made.path) == (tmp_path / "agent-files" / "b").resolve()
    with xdb.connect(":memory:", embedder="hash") as db:
        assert db.data_root == tmp_path / "data" / "xdb" / "xdb-files"
    monkeypatch.setenv("XDB_DATA_ROOT", str(tmp_path / "env"))
    with xdb.connect(tmp_path / "agent.sqlite3", embedder="hash") as db:
        assert db.data_root == tmp_path / "env"
    with xdb.connect(tmp_path / "agent.sqlite3", embedder="hash", data_root="there") as db:
        assert db.data_root == Path("there").absolute()


def test_postgres_keeps_its_files_in_the_user_data_directory(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XDB_DATA_ROOT", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with xdb.connect(postgres_url, embedder="hash") as db:
        root = tmp_path / "data" / "xdb" / "xdb-files"
        assert db.data_root == root
        assert Path(db.sync_export(path="b").path) == (root / "b").resolve()
        with pytest.raises(xdb.PermissionDenied, match="data root"):
            db.sync_export(path=str(tmp_path / "elsewhere"))


def test_xdb_mcp_over_stdio_keeps_files_in_its_data_root(tmp_path: Path) -> None:
    """``xdb mcp --data-root DIR``, as an agent's MCP client starts it (cwd: the project)."""
    root = tmp_path / "root"

    def call(n: int, path: str) -> str:
        params = {"name": "sync_export", "arguments": {"path": path}, **META}
        return json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": params})

    lines = "\n".join([call(1, "bundle"), call(2, "../escaped"), call(3, str(tmp_path / "x"))])
    command = ["--db", str(tmp_path / "agent.sqlite3"), "mcp", "--toolsets", "sync"]
    done = subprocess.run(
        [sys.executable, "-m", "xdb", *command, "--data-root", str(root)],
        input=lines.encode() + b"\n",
        capture_output=True,
        timeout=120,
        env={**os.environ, "XDB_EMBEDDER": "hash"},
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    answers = {a["id"]: a["result"] for a in map(json.loads, done.stdout.decode().splitlines())}
    assert answers[1]["isError"] is False and (root / "bundle" / "manifest.json").exists()
    for n in (2, 3):
        text = answers[n]["content"][0]["text"]
        assert answers[n]["isError"] and text.startswith("permission_denied: path:"), text
        assert str(root) in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["agent.sqlite3", "root"]
