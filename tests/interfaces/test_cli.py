"""The command line, through click's CliRunner and as real processes, on real SQLite files."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import click
import httpx
import pytest
from click.testing import CliRunner

import xdb
from tests.concepts.packs import write_pack
from tests.interfaces.cli_runner import fails, ok, run
from xdb.interfaces.cli import cli
from xdb.ops.catalog import operations


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "cli.sqlite3"


# --------------------------------------------------------------------------- operations


def test_record_recent_and_status(db: Path) -> None:
    first = ok(db, "record", "hello", "--event-type", "input")
    assert first == {"timestep_id": "ts-s1-1", "tick": 1}
    ok(
        db,
        "record",
        "--content", "Paris",
        "--event-type", "OUTPUT",  # enum names are case-insensitive, as everywhere
        "--token-id", "42",
        "--event-id", "call-1",
        "--event-start",
        "--concept-activations", '{"geo": 0.9}',
        "--timestamp", "2025-01-01T12:00:00",
    )  # fmt: skip
    recent = ok(db, "recent", "-n", "1")["timesteps"]
    assert len(recent) == 1
    last = recent[0]
    assert (last["content"], last["role"], last["token_id"]) == ("Paris", "assistant", 42)
    assert last["event_start"] is True and last["event_end"] is False
    assert last["concept_activations"] == {"geo": 0.9}
    assert last["timestamp"].startswith("2025-01-01T12:00:00")  # no zone: read as UTC
    status = ok(db, "status")
    assert status["session_id"] == "s1"
    assert status["current_tick"] == 2
    assert status["experience_stats"]["total_timesteps"] == 2


def test_current_session_is_the_most_recent_one(db: Path) -> None:
    first = ok(db, "record", "a", "--event-type", "input", session=None)
    second = ok(db, "record", "b", "--event-type", "input", session=None)
    session = first["timestep_id"].rsplit("-", 1)[0]
    assert second["timestep_id"] == f"{session}-2"


def test_database_and_session_from_the_environment(db: Path) -> None:
    env = {"XDB_DB": str(db), "XDB_SESSION": "from-env"}
    result = CliRunner().invoke(cli, ["record", "x", "--event-type", "input"], env=env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["timestep_id"] == "ts-from-env-1"
    assert ok(db, "status", session="from-env")["current_tick"] == 1


def test_record_batch_from_jsonl_a_json_list_and_stdin(db: Path, tmp_path: Path) -> None:
    lines = tmp_path / "tokens.jsonl"
    tokens = [{"event_type": "output", "content": t, "token_id": i} for i, t in enumerate("abc")]
    lines.write_text("\n".join(json.dumps(t) for t in tokens) + "\n\n")
    out = ok(db, "record-batch", "--file", str(lines))
    assert [r["tick"] for r in out["results"]] == [1, 2, 3]
    listing = tmp_path / "tokens.json"
    listing.write_text(json.dumps(tokens[:2]))
    assert len(ok(db, "record-batch", "--file", str(listing))["results"]) == 2
    piped = ok(db, "record-batch", "--file", "-", stdin=json.dumps(tokens[2]) + "\n")
    assert piped["results"] == [{"timestep_id": "ts-s1-6", "tick": 6}]
    inline = ok(db, "record-batch", "--timesteps", json.dumps(tokens[:1]))
    assert inline["results"][0]["tick"] == 7
    assert [t["content"] for t in ok(db, "recent")["timesteps"]] == list("abcabca")


def test_record_batch_bad_line_names_it(db: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"event_type": "output", "content": "a"}\n{oops\n')
    assert "line 2" in fails(db, "record-batch", "--file", str(bad))
    bad.write_text('{"event_type": "output", "content": "a"}\n{"event_type": "noise"}\n')
    message = fails(db, "record-batch", "--file", str(bad))
    assert "timesteps[1].event_type" in message and "timesteps[1].content" in message
    assert not db.exists()  # bad input is refused before the database is opened (or made)
    xdb.connect(db).close()
    assert fails(db, "record-batch", "--file", str(bad)) == message
    assert ok(db, "status")["experience_stats"]["total_timesteps"] == 0


def test_tags_tagging_and_comments(db: Path) -> None:
    ok(db, "record", "q", "--event-type", "tool_call", "--event-id", "e1")
    ok(db, "record", "r", "--event-type", "tool_response", "--event-id", "e1")
    created = ok(db, "create-tag", "paris", "--tag-type", "entity", "--entity-type", "place")
    assert created["created"] is True and created["tag_type"] == "entity"
    bud = ok(db, "create-tag", "--name", "hunch", "--tag-type", "bud", "--related-concepts", "a",
             "--related-concepts", "b")  # fmt: skip
    assert bud["bud_status"] == "collecting"
    on_ts = ok(db, "tag", "paris", "--timestep-id", "ts-s1-1", "--confidence", "0.5")
    assert on_ts["tag_id"] == created["tag_id"] and on_ts["timestep_count"] == 1
    on_event = ok(db, "tag", "--tag-name-or-id", "tooling", "--event-id", "e1")
    assert on_event["created"] is True and on_event["timestep_count"] == 2
    on_range = ok(db, "tag", "hunch", "--tick-range", '{"start": 1, "end": 2}', "--note", "n")
    assert on_range["target_type"] == "range"
    for target in (["--timestep-id", "ts-s1-2"], ["--event-id", "e1"], []):
        assert ok(db, "comment", "note", *target)["comment_id"].startswith("comment-")
    tags = {t["name"]: t for t in ok(db, "tags")["tags"]}
    assert tags["paris"]["entity_type"] == "place"
    assert tags["hunch"]["related_concepts"] == ["a", "b"]
    assert tags["tooling"]["tag_type"] == "custom"
    assert [t["name"] for t in ok(db, "tags", "--tag-type", "BUD")["tags"]] == ["hunch"]
    assert ok(db, "status")["experience_stats"]["total_comments"] == 3


def test_query_filters_paging_and_jsonl(db: Path) -> None:
    ok(db, "record", "the cat sat", "--event-type", "input",
       "--concept-activations", '{"animal": 0.9}')  # fmt: skip
    ok(db, "record", "a dog ran", "--event-type", "output", "--concept-activations",
       '{"animal": 0.4}')  # fmt: skip
    ok(db, "record", "the cat ran", "--event-type", "output")
    ok(db, "tag", "pets", "--tick-range", '{"start": 1, "end": 2}')

    def contents(*args: str) -> list[str]:
        return [t["content"] for t in ok(db, "query", *args)["timesteps"]]

    assert contents("cat") == ["the cat sat", "the cat ran"]
    assert contents("--text-search", "cat", "--order", "desc") == ["the cat ran", "the cat sat"]
    assert contents("--event-types", "output", "--event-types", "tool_call") == [
        "a dog ran",
        "the cat ran",
    ]
    assert contents("--tags", "pets", "--event-types", "output") == ["a dog ran"]
    assert contents("--concept-activations", '{"animal": {"min": 0.5}}') == ["the cat sat"]
    assert contents("--tick-range", '{"start": 2, "end": 3}', "ran") == ["a dog ran", "the cat ran"]
    assert contents("--all-sessions", "--time-range", '{"start_time": "2000-01-01"}') != []

    page = run(db, "query", "--limit", "2", "--jsonl")
    assert page.exit_code == 0, page.output
    rows = [json.loads(line) for line in page.stdout.splitlines()]
    assert [r["tick"] for r in rows] == [1, 2]
    hint = page.stderr.strip()
    assert hint.startswith("more: pass --cursor ")
    cursor = hint.split("--cursor ")[1].split()[0]
    rest = run(db, "query", "--limit", "2", "--jsonl", "--cursor", cursor)
    assert [json.loads(line)["tick"] for line in rest.stdout.splitlines()] == [3]
    assert rest.stderr == ""
    recent = run(db, "recent", "-n", "2", "--jsonl")
    assert [json.loads(line)["tick"] for line in recent.stdout.splitlines()] == [2, 3]


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["record", "x", "--event-type", "speech"], ["event_type", "'input'", "speech"]),
        (
            ["record", "x", "--event-type", "input", "--concept-activations", "{bad"],
            ["concept_activations", "not valid JSON"],
        ),
        (
            ["record", "x", "--event-type", "input", "--concept-activations", '{"c": 2}'],
            ["concept_activations.c", "less than or equal to 1"],
        ),
        (["record", "--bogus"], ["--bogus", "xdb record --help"]),
        (["record", "x", "--content", "y", "--event-type", "input"], ["content", "not both"]),
        (["record", "--event-type", "input"], ["content", "required"]),
        (["query", "--limit", "many"], ["limit", "integer"]),
        (["query", "--tick-range", "[1, 2]"], ["tick_range"]),
        (["tag", "x"], ["exactly one target"]),
        (["tag", "x", "--timestep-id", "nope"], ["timestep_id"]),
        (["nosuchcommand"], ["nosuchcommand"]),
        (
            ["mcp", "--toolsets", "xdb,nope"],
            ["toolsets", "nope", "known: audit, engine, experience, memcp, policy, sync, xdb"],
        ),
        (["import", "missing.jsonl"], ["missing.jsonl"]),
        (["record-batch", "--file", "-", "--timesteps", "[]"], ["timesteps", "not both"]),
        (["export", "no/such/folder/x.jsonl"], ["file:", "no/such/folder/x.jsonl", "No such file"]),
        # A name the filesystem can't hold is named as given, not as the temporary file.
        (["export", "x" * 300], ["file:", "xxxxxxxxxx", "File name too long"]),
        (["export", "."], ["FILE", "is a directory"]),
    ],
)
def test_errors_are_one_line_and_exit_2(db: Path, args: list[str], words: list[str]) -> None:
    xdb.connect(db).close()  # a command that only reads would refuse a missing file first
    message = fails(db, *args)
    for word in words:
        assert word in message, message


def test_bare_xdb_prints_help() -> None:
    result = CliRunner().invoke(cli, [])
    assert result.exit_code == 0
    assert "Usage: xdb" in result.stdout and "record-batch" in result.stdout


def test_every_command_has_help_listing_its_fields() -> None:
    from xdb.ops.catalog import operations

    for op in operations():
        if not op.command:
            continue  # memcp's tools are MCP and HTTP only
        result = CliRunner().invoke(cli, [*op.command.split(), "--help"])
        assert result.exit_code == 0, result.output
        for field in op.request.model_fields:
            flag = "-n" if field == "n" else "--" + field.replace("_", "-")
            assert flag in result.stdout, (op.name, field)
    for name in ("serve", "mcp", "import", "export"):
        assert CliRunner().invoke(cli, [name, "-h"]).exit_code == 0


# --------------------------------------------------------------------------- export and import


def populate(db: Path) -> None:
    """A database with every kind of object and every target type."""
    ok(db, "record", "hi", "--event-type", "input", "--timestamp", "2025-03-01T10:00:00+02:00")
    ok(db, "record", "tool(x)", "--event-type", "tool_call", "--event-id", "e1", "--event-start",
       "--concept-activations", '{"c/one": 0.25, "c/two": 1}')  # fmt: skip
    ok(db, "record", "42", "--event-type", "tool_response", "--event-id", "e1", "--event-end",
       "--role", "tool", "--token-id", "7")  # fmt: skip
    ok(db, "record", "other", "--event-type", "steering", session="s2")
    ok(db, "create-tag", "Eligibility", "--tag-type", "concept", "--concept-id", "c/one",
       "--description", "a concept")  # fmt: skip
    ok(db, "create-tag", "acme", "--tag-type", "entity", "--entity-type", "organization")
    ok(db, "create-tag", "maybe", "--tag-type", "bud", "--related-concepts", "c/one")
    ok(db, "tag", "Eligibility", "--timestep-id", "ts-s1-1", "--confidence", "0.7", "--note", "n")
    ok(db, "tag", "acme", "--event-id", "e1", "--source", "auto")
    ok(db, "tag", "maybe", "--tick-range", '{"start": 1, "end": 3}')
    ok(db, "tag", "freeform", "--timestep-id", "ts-s2-1")  # a custom tag, made on the fly
    ok(db, "comment", "on a timestep", "--timestep-id", "ts-s1-2")
    ok(db, "comment", "on the event", "--event-id", "e1")
    ok(db, "comment", "on a range", "--tick-range", '{"start": 2, "end": 3}')
    ok(db, "comment", "on the session")


def export(db: Path) -> list[dict[str, Any]]:
    result = run(db, "export")
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_export_import_round_trip_loses_nothing(db: Path, tmp_path: Path) -> None:
    populate(db)
    dump = tmp_path / "dump.jsonl"
    counts = ok(db, "export", str(dump))
    # populate() ends event e1, and an ended event becomes an episode; its bud's details
    # are a learning object.
    expected = {"session": 2, "tag": 4, "timestep": 4, "tag_application": 4, "comment": 4}
    assert counts == {**expected, "learning_object": 1, "episode": 1}
    first = [json.loads(line) for line in dump.read_text().splitlines()]
    assert first == export(db)  # the file and stdout say the same
    assert first[0] == {"kind": "xdb-export", "version": 1}
    tags = {r["name"]: r for r in first if r["kind"] == "tag"}
    assert tags["Eligibility"]["description"] == "a concept"
    assert tags["maybe"]["bud_status"] == "collecting"
    assert {r["target_type"] for r in first if r["kind"] == "comment"} == {
        "timestep",
        "event",
        "range",
        "session",
    }

    copy = tmp_path / "copy.sqlite3"
    imported = ok(copy, "import", str(dump))
    assert imported == {**counts, "skipped": 0}
    assert export(copy) == first
    # The copy works like the original: same answers to the same questions.
    for args in (["query", "--tags", "maybe", "--tags", "acme"], ["tags"], ["recent"]):
        assert ok(copy, *args) == ok(db, *args)

    again = ok(copy, "import", str(dump))
    assert again == {**{k: 0 for k in counts}, "skipped": sum(counts.values())}
    assert export(copy) == first


def test_import_from_stdin_with_progress(db: Path, tmp_path: Path) -> None:
    populate(db)
    text = run(db, "export").stdout
    copy = tmp_path / "copy.sqlite3"
    result = run(copy, "import", "-", "--progress", stdin=text)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["timestep"] == 4
    assert "lines" in result.stderr  # the tqdm bar went to stderr, not into the JSON


@pytest.mark.parametrize(
    ("bad", "line", "words"),
    [
        ("{not json", 3, ["not valid JSON"]),
        ("[1, 2]", 3, ["expected a JSON object"]),
        ('{"kind": "timestep", "id": "x"}', 3, ["(timestep)", "session_id"]),
        ('{"kind": "gadget"}', 3, ["unknown kind 'gadget'"]),
    ],
)
def test_malformed_line_names_it_and_writes_nothing(
    db: Path, tmp_path: Path, bad: str, line: int, words: list[str]
) -> None:
    populate(db)
    lines = run(db, "export").stdout.splitlines()
    # The bad line comes after the header and a session, before everything else.
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join([lines[0], lines[1], bad, *lines[2:]]) + "\n")
    copy = tmp_path / "copy.sqlite3"
    message = fails(copy, "import", str(broken))
    assert f"line {line}" in message
    for word in words:
        assert word in message, message
    assert export(copy) == [{"kind": "xdb-export", "version": 1}]


def test_blank_lines_do_not_shift_line_numbers(db: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"kind": "xdb-export", "version": 1}\n\n\n{"kind": "session"}\n')
    assert "line 4 (session)" in fails(db, "import", str(broken))


# --------------------------------------------------------------------------- real processes


def _process(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("XDB_DB", "XDB_SESSION", "XDB_DEBUG")}
    return subprocess.run(
        [sys.executable, "-m", "xdb.interfaces.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_a_real_process_records_and_queries(db: Path) -> None:
    done = _process("--db", str(db), "--session", "p", "record", "über", "--event-type", "input")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"timestep_id": "ts-p-1", "tick": 1}
    found = _process("--db", str(db), "--session", "p", "query", "über", "--jsonl")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["content"] == "über"


def test_a_real_process_fails_with_one_line(db: Path) -> None:
    done = _process("--db", str(db), "record", "x", "--event-type", "speech")
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: event_type: ")


def test_the_console_script_pipes_an_export_into_an_import(db: Path, tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("xdb")
    if not script.exists():
        pytest.skip("the xdb console script is not installed next to this interpreter")
    populate(db)
    exported = subprocess.run(
        [str(script), "--db", str(db), "export"], capture_output=True, check=True, timeout=60
    )
    copy = tmp_path / "copy.sqlite3"
    imported = subprocess.run(
        [str(script), "--db", str(copy), "import", "-"],
        input=exported.stdout,
        capture_output=True,
        timeout=60,
    )
    assert imported.returncode == 0, imported.stderr
    assert json.loads(imported.stdout)["comment"] == 4
    assert export(copy) == export(db)


def placed(where: str, command: str, *options: str) -> list[str]:
    """A command line with the global options before or after the command's name."""
    return [*options, command] if where == "before" else [command, *options]


@pytest.mark.parametrize("where", ["before", "after"])
def test_xdb_mcp_serves_stdio_with_the_cli_session(db: Path, where: str) -> None:
    from mcp import Client, StdioServerParameters

    line = placed(where, "mcp", "--db", str(db), "--session", "via-mcp")
    args = ["-m", "xdb.interfaces.cli", *line, "--toolsets", "xdb"]
    params = StdioServerParameters(command=sys.executable, args=args)

    async def session() -> tuple[set[str], Any]:
        async with Client(params, mode="legacy") as client:
            names = {t.name for t in (await client.list_tools()).tools}
            made = await client.call_tool("xdb_record", {"event_type": "input", "content": "x"})
            return names, made.structured_content

    names, made = anyio.run(session)
    assert "xdb_record" in names and "xdb_status" in names
    assert made == {"timestep_id": "ts-via-mcp-1", "tick": 1}
    assert ok(db, "status", session="via-mcp")["current_tick"] == 1  # it wrote to --db


@pytest.mark.parametrize("where", ["before", "after"])
def test_xdb_serve_answers_http(db: Path, where: str) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    line = placed(where, "serve", "--db", str(db), "--session", "web")
    command = ["-m", "xdb.interfaces.cli", *line]
    server = subprocess.Popen(
        [sys.executable, *command, "--port", str(port), "--no-mcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/v1/xdb"
        deadline = time.monotonic() + 30
        while True:
            try:
                response = httpx.post(f"{url}/record", json={"event_type": "input", "content": "x"})
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "xdb serve did not start"
                time.sleep(0.1)
        assert response.json() == {"timestep_id": "ts-web-1", "tick": 1}
        assert httpx.get(f"{url}/status").json()["session_id"] == "web"
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_cli_loads_no_server_or_progress_library() -> None:
    code = (
        "import sys, xdb.interfaces.cli; print(','.join(m for m in sys.modules if m.split('.')[0]"
        " in ('fastapi', 'uvicorn', 'starlette', 'mcp', 'tqdm')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# --------------------------------------------------------------------------- global options


def invoke(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> Any:
    """The CLI in-process with exactly these arguments (no --db added)."""
    base = {"XDB_DEBUG": "", "XDB_EMBEDDER": "hash", "XDB_DB": "", "XDB_SESSION": ""}
    return CliRunner().invoke(cli, list(args), env={**base, **(env or {})}, input=stdin)


def one_error(result: Any) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return str(lines[0])


def command_paths(group: click.Group = cli, prefix: tuple[str, ...] = ()) -> list[list[str]]:
    """Every command under ``xdb``, generated and hand-written, groups' subcommands too."""
    found: list[list[str]] = []
    for name, command in group.commands.items():
        found.append([*prefix, name])
        if isinstance(command, click.Group):
            found += command_paths(command, (*prefix, name))
    return found


def needed(path: list[str], tmp_path: Path) -> list[str]:
    """What a command needs besides its options to get as far as opening the database."""
    if path == ["concepts", "import"]:
        return [str(tmp_path)]
    if path == ["import"]:
        (tmp_path / "empty.jsonl").write_text('{"kind": "xdb-export", "version": 1}\n')
        return [str(tmp_path / "empty.jsonl")]
    if path == ["migrate"]:
        return ["--to", str(tmp_path / "target.sqlite3")]
    return []


@pytest.mark.parametrize("path", command_paths(), ids=" ".join)
def test_every_command_takes_the_global_options_after_its_name(
    path: list[str], tmp_path: Path
) -> None:
    helped = invoke(*path, "--help")
    assert helped.exit_code == 0, helped.output
    words = " ".join(helped.stdout.split())
    assert "--db PATH" in words and "--session ID" in words
    assert "given in both places, the values must be the same" in words
    # Before and after the command they are one option: two different values are refused
    # in one line naming the option and both values, and nothing is opened or made.
    first, second = tmp_path / "first.sqlite3", tmp_path / "second.sqlite3"
    rest = needed(path, tmp_path)
    message = one_error(invoke("--db", str(first), *path, "--db", str(second), *rest))
    assert "--db" in message and str(first) in message and str(second) in message
    message = one_error(invoke("--session", "a", *path, "--session", "b", *rest))
    assert "--session" in message and "'a'" in message and "'b'" in message
    assert not first.exists() and not second.exists()


def test_global_options_after_the_command_mean_the_same(db: Path, tmp_path: Path) -> None:
    where = ["--db", str(db), "--session", "late"]
    made = invoke("record", "hello", "--event-type", "input", *where)
    assert made.exit_code == 0, made.output
    assert json.loads(made.stdout) == {"timestep_id": "ts-late-1", "tick": 1}
    # The command line outranks the environment wherever the option stands.
    env = {"XDB_DB": str(tmp_path / "other.sqlite3"), "XDB_SESSION": "other"}
    status = invoke("status", *where, env=env)
    assert status.exit_code == 0, status.output
    assert json.loads(status.stdout)["current_tick"] == 1
    assert not (tmp_path / "other.sqlite3").exists()
    # The same value in both places is no conflict.
    again = invoke("--db", str(db), "recent", "--db", str(db), "--session", "late")
    assert [t["content"] for t in json.loads(again.stdout)["timesteps"]] == ["hello"]
    # The environment still stands in for an option given nowhere.
    from_env = invoke("status", env={"XDB_DB": str(db), "XDB_SESSION": "late"})
    assert json.loads(from_env.stdout)["session_id"] == "late"
    # Hand-written commands and a group's subcommand read it the same way.
    dump = tmp_path / "dump.jsonl"
    assert invoke("export", str(dump), "--db", str(db)).exit_code == 0
    copy = tmp_path / "copy.sqlite3"
    imported = invoke("import", str(dump), "--db", str(copy))
    assert json.loads(imported.stdout)["timestep"] == 1, imported.output
    moved = tmp_path / "moved.sqlite3"
    migrated = invoke("migrate", "--to", str(moved), "--db", str(copy), "--no-progress")
    assert json.loads(migrated.stdout)["copied"]["timestep"] == 1, migrated.output
    reindexed = invoke("reindex", "--db", str(moved), "--embedder", "hash", "--no-progress")
    assert reindexed.exit_code == 0, reindexed.output
    pack = tmp_path / "pack"
    write_pack(pack)
    loaded = invoke("concepts", "import", str(pack), "--db", str(moved))
    assert json.loads(loaded.stdout)["created"] is True, loaded.output
    listed = invoke("concepts", "--db", str(moved))
    assert [c["name"] for c in json.loads(listed.stdout)["concepts"]] == ["Root"], listed.output


# --------------------------------------------------------------------------- what a path makes

# Commands that only read, with what they need to pass validation (so that the database is
# what they stop at).
READERS = {
    **{
        op.command: [
            arg
            for name, info in op.request.model_fields.items()
            if info.is_required()
            for arg in ("--" + name.replace("_", "-"), "1" if name == "seq" else "x")
        ]
        for op in operations()
        if op.command and op.readonly
    },
    "export": [],
    "reindex": [],  # it writes vectors, but of episodes a missing database cannot have
}
WRITERS = {
    "record": ["x", "--event-type", "input"],
    "record-batch": ["--timesteps", '[{"event_type": "input", "content": "x"}]'],
    "tag": ["x", "--timestep-id", "ts-s1-1"],
    "create-tag": ["x", "--tag-type", "custom"],
    "comment": ["x"],
    "add-episode": ["x"],
    "delete-episode": ["--episode-id", "episode-x"],
    "add-node": ["--node-type", "Decision", "--name", "x"],
    "link": ["--src", "a", "--dst", "b"],
    "set-disclosure-policy": ["--id", "p"],
    "set-treaty": ["--id", "t", "--partner", "p", "--disclosure-policy-id", "p"],
    "hush": ["--id", "h", "--concepts", "{}"],
    "set-caller": ["--id", "c"],
    "remove-policy": ["--kind", "hush", "--id", "h"],
    "audit prune": ["--older-than-days", "1"],
    "keys create": ["--caller-id", "self"],
    "keys revoke": ["--id", "x"],
    "set-access-policy": ["--id", "p"],
    "set-default-access-policy": ["--policy-id", "p"],
    "assign-access-policy": ["--policy-id", "p", "--episode-ids", "e"],
    "bud-ready": ["x"],
    "set-bud-status": ["x", "--status", "ready"],
    "promote-bud": ["x"],
    "add-exemplar": ["--concept-id", "c", "--label", "positive", "--episode-id", "e"],
    "remove-exemplar": ["x"],
    "build-dataset": ["x"],
    "dataset export": ["x", "--path", "x.jsonl"],
    "sync export": ["bundle"],
    "sync import": ["bundle"],
    "record-training-run": ["--type", "lens", "--concept-ids", "c"],
    "add-lesson": ["--question", "q", "--answer", "a"],
    "feedback": ["x", "--verdict", "followed"],
    "check": ["--session-id", "s", "--tool-name", "Edit"],
    "judge": ["--session-id", "s", "--tool-name", "Edit"],
    "extract": ["--session-id", "s", "--transcript-path", "t.jsonl"],
    "pin": ["--timestep-ids", "ts-s1-1"],
    "unpin": ["--timestep-ids", "ts-s1-1"],
    "compact": [],
    "maintenance": [],
    "submit-evidence": ["--submission-id", "g", "--timestep-ids", "ts-s1-1"],
    "resolve-submission": ["g"],
    "set-resource-contract": ["--warm-quota-tokens", "10"],
    "record-artifact": [
        "--kind",
        "lens",
        "--training-run-id",
        "r",
        "--location",
        "x",
        "--checksum",
        "sha256:" + "0" * 64,
    ],
}


def test_the_tables_cover_every_generated_command() -> None:
    generated = {op.command for op in operations() if op.command}
    assert generated == (READERS.keys() | WRITERS.keys()) - {"export", "reindex"}


@pytest.mark.parametrize("command", sorted(READERS))
def test_a_command_that_only_reads_refuses_a_missing_database(command: str, tmp_path: Path) -> None:
    for missing in (tmp_path / "typo.sqlite3", tmp_path / "no" / "dir" / "x.sqlite3"):
        message = one_error(invoke(*command.split(), *READERS[command], "--db", str(missing)))
        assert f"database {missing} does not exist" in message
        assert "--db / XDB_DB" in message and "xdb record" in message
    assert list(tmp_path.iterdir()) == []  # no file, no directory


def test_migrate_refuses_a_missing_source_and_makes_no_target(tmp_path: Path) -> None:
    target = tmp_path / "target.sqlite3"
    missing = tmp_path / "typo.sqlite3"
    message = one_error(invoke("migrate", "--from", str(missing), "--to", str(target)))
    assert f"database {missing} does not exist; check --from" in message
    message = one_error(invoke("migrate", "--to", str(target), "--db", str(missing)))
    assert f"database {missing} does not exist; check --db / XDB_DB" in message
    xdb.connect(missing).close()
    nowhere = tmp_path / "no" / "target.sqlite3"
    message = one_error(invoke("migrate", "--from", str(missing), "--to", str(nowhere)))
    assert f"directory {nowhere.parent} does not exist" in message and "--to" in message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["typo.sqlite3"]


@pytest.mark.parametrize(
    "line", [[*c.split(), *args] for c, args in WRITERS.items()] + [["import", "-"]], ids=str
)
def test_a_command_that_writes_makes_the_file_but_no_directory(
    line: list[str], tmp_path: Path
) -> None:
    nowhere = tmp_path / "no" / "dir" / "x.sqlite3"
    message = one_error(invoke(*line, "--db", str(nowhere), stdin=""))
    assert f"directory {nowhere.parent} does not exist" in message
    assert "--db / XDB_DB" in message and f"mkdir -p {nowhere.parent}" in message
    assert list(tmp_path.iterdir()) == []


def test_a_write_makes_a_missing_file_and_a_read_then_finds_it(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    assert invoke("record", "x", "--event-type", "input", "--db", str(path)).exit_code == 0
    assert path.exists()
    status = invoke("status", "--db", str(path))
    assert json.loads(status.stdout)["experience_stats"]["total_timesteps"] == 1


def test_memory_is_no_file_to_refuse() -> None:
    status = invoke("status", "--db", ":memory:")
    assert status.exit_code == 0, status.output
    assert json.loads(status.stdout)["experience_stats"]["total_timesteps"] == 0


@pytest.mark.parametrize("command", [["mcp"], ["serve", "--port", "1"]], ids=str)
def test_servers_refuse_a_missing_directory_before_serving(
    command: list[str], tmp_path: Path
) -> None:
    nowhere = tmp_path / "no" / "x.sqlite3"
    done = _process(*command, "--db", str(nowhere), stdin="")
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"error: directory {nowhere.parent} does not exist (for database {nowhere}); "
        f"check --db / XDB_DB, or make the directory first (mkdir -p {nowhere.parent})\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_the_default_file_and_its_directory_are_made_by_a_write_only(tmp_path: Path) -> None:
    """A real process in a fresh home: a read makes nothing, the first write makes the user
    data directory and the file, and a read then finds it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDB_", "XDG_"))}
    env.update(HOME=str(tmp_path), XDB_EMBEDDER="hash")
    script = [sys.executable, "-m", "xdb.interfaces.cli"]

    def xdb_(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*script, *args], capture_output=True, text=True, env=env, timeout=60)

    default = tmp_path / ".local" / "share" / "xdb" / "xdb.sqlite3"
    refused = xdb_("status")
    assert refused.returncode == 2
    assert refused.stderr.startswith(f"error: database {default} does not exist;")
    assert list(tmp_path.iterdir()) == []
    made = xdb_("record", "hi", "--event-type", "input")
    assert made.returncode == 0, made.stderr
    assert default.is_file()
    status = xdb_("status")
    assert json.loads(status.stdout)["experience_stats"]["total_timesteps"] == 1


# --------------------------------------------------------------------------- help


def _command(name: str) -> click.Command:
    """A command by its full name: ``audit list`` is the audit group's ``list``."""
    found: click.Command = cli
    for word in name.split():
        assert isinstance(found, click.Group)
        found = found.commands[word]
    return found


def test_required_fields_are_marked_in_help_but_not_enforced_by_click(db: Path) -> None:
    ctx = click.Context(cli, info_name="xdb")
    for op in operations():
        if not op.command:
            continue
        command = _command(op.command)
        options = {p.name: p for p in command.params if isinstance(p, click.Option)}
        for name, info in op.request.model_fields.items():
            option = options[name]
            assert not option.required, (op.name, name)  # the request model checks it
            record = option.get_help_record(click.Context(command, parent=ctx))
            assert record is not None
            # The argument can stand in for the positional's option: never required itself.
            marked = info.is_required() and name != op.positional
            assert record[1].endswith("[required]") == marked, (op.name, name)
    helped = " ".join(invoke("record", "--help").stdout.split())
    choices = "[input|output|tool_call|tool_response|steering|system]"
    assert f"--event-type {choices} What happened. [required]" in helped
    # Missing, it is reported by the request model, in the words of every interface.
    message = one_error(invoke("record", "x", "--db", str(db)))
    assert message == "error: event_type: is required"


def test_two_spellings_of_one_database_file_are_the_same_option(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    xdb.connect(db).close()
    monkeypatch.chdir(db.parent)
    status = invoke("--db", f"./{db.name}", "status", "--db", db.name)
    assert status.exit_code == 0, status.output
