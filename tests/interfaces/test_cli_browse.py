"""A command line that can be browsed (issue 34): ``xdb --help`` by capability with whole
summaries, plain defaults, an example in every command's help, the positional argument no
required option, ``xdb serve`` saying where its pages are, and progress bars that only a
terminal (or ``--progress``) sees. The examples themselves run in tests/test_doc_commands.py.
"""

from __future__ import annotations

import io
import json
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import click
import httpx
import pytest
from click.testing import CliRunner

import xdb
from tests.interfaces.cli_runner import fails, ok, run
from tests.interfaces.test_cli import command_paths
from xdb.interfaces import cli_help, cli_progress
from xdb.interfaces.cli import cli
from xdb.ops.catalog import operations


def command(path: list[str]) -> click.Command:
    found: click.Command = cli
    for word in path:
        assert isinstance(found, click.Group)
        found = found.commands[word]
    return found


def helped(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    return result.stdout


def flat(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------- xdb --help


def test_every_command_is_in_exactly_one_section() -> None:
    listed = [name for names in cli_help.SECTIONS.values() for name in names]
    assert len(listed) == len(set(listed)), [n for n in listed if listed.count(n) > 1]
    assert set(listed) == set(cli.commands)  # none left over, none that does not exist
    # Every operation with a command is reached through a listed one.
    for op in operations():
        if op.command:
            assert op.command.split()[0] in listed, op.name


def test_the_help_lists_the_commands_section_by_section_with_whole_summaries() -> None:
    text = helped()
    assert "Commands:" not in text and cli_help.OTHER not in text
    heads = [line[:-1] for line in text.splitlines() if line and not line[0].isspace()]
    assert [h for h in heads if h in cli_help.SECTIONS] == list(cli_help.SECTIONS)
    sections = re.split(r"\n(?=\S)", text)
    for title, names in cli_help.SECTIONS.items():
        (body,) = [s for s in sections if s.startswith(f"{title}:")]
        found = re.findall(r"^  (\S+)", body, flags=re.M)
        assert found == list(names), title
        for name in names:
            summary = command([name]).get_short_help_str(limit=1 << 16)
            assert not summary.endswith("..."), name  # cut off
            assert flat(summary) in flat(body), name
    # Summaries start in one column, whatever the section.
    starts = {
        line.index(line.split()[1])
        for line in text.split("Recording:", 1)[1].splitlines()
        if line.startswith("  ") and not line.startswith("   ") and len(line.split()) > 1
    }
    assert len(starts) == 1, starts


def test_a_group_lists_its_commands_with_whole_summaries() -> None:
    text = flat(helped("hooks"))
    assert "install Merge xdb's hook entries into the agent's settings file." in text
    assert "uninstall Remove exactly the hook entries xdb added to the agent's settings file." in (
        text
    )


# --------------------------------------------------------------------------- each command


STEP = re.compile(r"^[A-Z_]+=\$\(xdb .*\)$")


@pytest.mark.parametrize("path", command_paths(), ids=" ".join)
def test_every_command_has_an_example_of_itself(path: list[str]) -> None:
    found = cli_help.examples(command(path))
    assert found, f"xdb {' '.join(path)} has no example"
    # A line may be a step getting the real id the next names (LESSON=$(xdb lessons list
    # | ...)): no example names an id that is not there, like a1b2c3 or episode-01h...
    shown = [line for line in found if not STEP.match(line)]
    assert shown and not STEP.match(found[-1]), found
    for line in shown:
        assert cli_help.shows(line, path), line
    for line in found:
        assert not re.search(r"\.\.\.|a1b2c3|1a2b3c4d", line), line
    text = helped(*path)
    assert re.search(r"^  Examples?:$", text, flags=re.M), text
    for line in found:
        assert f"\n    {line}\n" in text + "\n"  # as written: never wrapped


@pytest.mark.parametrize("path", command_paths(), ids=" ".join)
def test_defaults_read_as_typed(path: list[str]) -> None:
    text = helped(*path).split("\n  Example")[0]  # (an example may set NAME=$(...))
    assert not re.search(r"<\w+\.\w+: ", text), text  # an enum's repr
    assert not re.search(r"\w+=\S", flat(re.sub(r"'[^']*'", "", text))), text  # a model's


def test_an_enum_and_a_model_default_are_shown_as_one_would_type_them() -> None:
    text = flat(helped("search"))
    assert 'Default: {"by": "relevance", "score_weight": 0.5,' in text
    assert "SortBy" not in text
    audit = flat(helped("audit", "list"))
    assert "<" not in audit.replace("<=", "")


def test_the_positional_argument_is_not_a_required_option(tmp_path: Path) -> None:
    text = helped("record")
    assert text.startswith("Usage: xdb record [OPTIONS] CONTENT\n")
    content = re.search(r"^  --content TEXT.*?(?=^  --)", text, flags=re.M | re.S)
    assert content is not None
    assert "[required]" not in content.group(0)
    assert "Required: give it as the argument CONTENT or as --content." in flat(content.group(0))
    # A positional the request need not have stays in brackets.
    assert helped("query").startswith("Usage: xdb query [OPTIONS] [TEXT_SEARCH]\n")
    db = tmp_path / "cli.sqlite3"
    # Either spelling records it; neither is the request model's one error line.
    assert ok(db, "record", "--content", "a", "--event-type", "input")["tick"] == 1
    assert ok(db, "record", "b", "--event-type", "input")["tick"] == 2
    assert fails(db, "record", "--event-type", "input") == "error: content: is required"


def test_serve_help_names_the_explorer_and_the_api_docs() -> None:
    text = flat(helped("serve"))
    assert "explorer" in text and "/docs" in text
    assert "Serve HTTP: the API (browsable at /docs), the explorer at /" in flat(helped())


# --------------------------------------------------------------------------- xdb tag


def test_tag_says_created_where_the_timestep_did_not_have_the_tag(tmp_path: Path) -> None:
    db = tmp_path / "cli.sqlite3"
    ok(db, "record", "one", "--event-type", "input")
    ok(db, "record", "two", "--event-type", "input")
    ok(db, "create-tag", "paris", "--tag-type", "entity")
    first = ok(db, "tag", "paris", "--timestep-id", "ts-s1-1")
    assert first["created"] is True  # the tag existed; this timestep did not have it
    assert ok(db, "tag", "paris", "--timestep-id", "ts-s1-1")["created"] is False
    assert ok(db, "tag", "paris", "--timestep-id", "ts-s1-2")["created"] is True


# --------------------------------------------------------------------------- xdb serve


def _lines_until(proc: subprocess.Popen[str], wanted: str, seconds: float = 60) -> list[str]:
    """Lines of the process's stderr up to the one containing ``wanted``. (Read by a thread:
    a select on the pipe would not see lines already in the text stream's buffer.)"""
    assert proc.stderr is not None
    stream = proc.stderr
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in iter(stream.readline, ""):
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    seen: list[str] = []
    deadline = time.monotonic() + seconds
    while not any(wanted in line for line in seen):
        try:
            seen.append(lines.get(timeout=max(0.0, deadline - time.monotonic())))
        except queue.Empty:
            raise AssertionError(f"no {wanted!r} in time (exit {proc.poll()}): {seen}") from None
    return seen


def test_serve_prints_where_the_explorer_and_the_api_docs_are(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDB_")}
    env.update(XDB_EMBEDDER="hash", XDB_DATA_ROOT=str(tmp_path))
    line = ["--db", str(tmp_path / "s.sqlite3"), "serve", "--port", str(port)]
    server = subprocess.Popen(
        [sys.executable, "-m", "xdb.interfaces.cli", *line],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        seen = _lines_until(server, "Uvicorn running on")  # printed once it listens
        base = f"http://127.0.0.1:{port}"
        assert seen[:3] == [
            f"explorer: {base}/\n",
            f"API docs: {base}/docs\n",
            f"MCP:      {base}/mcp\n",
        ]
        explorer = httpx.get(f"{base}/", follow_redirects=True, timeout=30)
        assert explorer.status_code == 200 and "text/html" in explorer.headers["content-type"]
        docs = httpx.get(f"{base}/docs", timeout=30)
        assert docs.status_code == 200 and "swagger" in docs.text.lower()
    finally:
        server.terminate()
        out, _ = server.communicate(timeout=30)
    assert "explorer" not in out  # stderr says it (stdout has uvicorn's access log)


def test_serve_without_mcp_names_no_mcp_url() -> None:
    from xdb.interfaces.cli_servers import _announce

    def said(*args: Any) -> str:
        err = io.StringIO()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sys, "stderr", err)
            _announce(*args)
        return err.getvalue()

    assert said("127.0.0.1", 9, "/docs", False) == (
        "explorer: http://127.0.0.1:9/\nAPI docs: http://127.0.0.1:9/docs\n"
    )
    assert said("0.0.0.0", 9, "/docs", True).startswith("explorer: http://127.0.0.1:9/\n")
    assert said("::1", 9, None, False) == "explorer: http://[::1]:9/\n"


# --------------------------------------------------------------------------- progress bars


@pytest.fixture
def dataset_db(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "cli.sqlite3"
    with xdb.connect(path, embedder="hash") as database:
        for i in range(6):
            tags = [{"concept_id": "c/x", "score": 0.7}] if i < 3 else []
            database.add_episode(content=f"note {i}", concept_tags=tags)
            database.record(event_type="input", content=f"step {i}", session_id="s1")
        built = database.build_dataset(target_concept_id="c/x", max_positive=3, max_negative=3)
    return path, built.dataset_id


def _long_commands(db: Path, dataset: str, tmp_path: Path) -> dict[str, list[str]]:
    return {
        "export": ["export", str(tmp_path / "out.jsonl")],
        "maintenance": ["maintenance"],
        "dataset export": ["dataset", "export", dataset, "--path", str(tmp_path / "d.jsonl")],
        "migrate": ["migrate", "--to", str(tmp_path / "moved.sqlite3")],
        "reindex": ["reindex"],
    }


def test_no_bar_where_stderr_is_no_terminal(dataset_db: tuple[Path, str], tmp_path: Path) -> None:
    db, dataset = dataset_db
    for name, args in _long_commands(db, dataset, tmp_path).items():
        result = run(db, *args)
        assert result.exit_code == 0, (name, result.output)
        json.loads(result.stdout)
        assert result.stderr == "", name
    exported = run(db, "export")  # to stdout: JSON Lines and nothing else
    assert exported.stderr == ""
    assert all(json.loads(line) for line in exported.stdout.splitlines())


@pytest.mark.parametrize(
    ("name", "unit"),
    [
        ("export", "records"),
        ("maintenance", "records"),
        ("dataset export", "rows"),
        ("migrate", "records"),
        ("reindex", "episodes"),
    ],
)
def test_progress_asks_for_the_bar_on_stderr(
    dataset_db: tuple[Path, str], tmp_path: Path, name: str, unit: str
) -> None:
    db, dataset = dataset_db
    result = run(db, *_long_commands(db, dataset, tmp_path)[name], "--progress")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)  # the bar stays out of the JSON
    assert f" {unit}" in result.stderr, result.stderr
    if name == "dataset export":
        assert f"{answer['rows']}/{answer['rows']}" in result.stderr  # ends where it counted
    if name == "export":
        total = sum(answer.values())
        assert f"{total}/{total}" in result.stderr
    assert "--progress / --no-progress" in helped(*name.split())


def test_export_to_stdout_with_a_bar_keeps_stdout_pure(dataset_db: tuple[Path, str]) -> None:
    db, _ = dataset_db
    result = run(db, "export", "--progress")
    assert result.exit_code == 0, result.output
    assert all(json.loads(line) for line in result.stdout.splitlines())
    assert "records" in result.stderr


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_shows_by_default_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with cli_progress.bar(None, "rows") as shown:
        assert shown.disable
    monkeypatch.setattr(sys, "stderr", _Terminal())
    with cli_progress.bar(None, "rows", lambda: 3) as shown:
        assert not shown.disable and shown.total == 3
        assert shown.delay == 0.5  # a quick run on a terminal flashes no bar
    with cli_progress.bar(False, "rows") as shown:
        assert shown.disable


def test_an_operation_reports_its_progress_only_to_who_listens() -> None:
    from xdb.progress import report, reporting

    heard: list[tuple[int, int | None]] = []
    report(1, 2)  # nobody listens: nothing happens
    with reporting(lambda done, total: heard.append((done, total))):
        report(1, 2)
        report(2)
    report(3, 3)
    assert heard == [(1, 2), (2, None)]
