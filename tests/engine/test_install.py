"""``xdb hooks install|uninstall``: xdb's entries merged into each agent's settings, the
user's own left byte for byte; and ``xdb hook`` end to end, as an agent runs it."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import xdb
from tests.local_http import JsonHandler, serving
from tests.serving import served
from xdb.engine.install import install, is_hook_command, settings_path, uninstall
from xdb.interfaces.http import create_app

# What install writes to run this xdb: the script beside the interpreter, by absolute path.
XDB = shlex.quote(str(Path(sys.executable).absolute().with_name("xdb")))

USERS_OWN: dict[str, dict[str, Any]] = {
    "claude": {
        "model": "opus",
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                           "command": "~/bin/guard.sh"}]}],
            "Notification": [{"hooks": [{"type": "command", "command": "notify-send hi"}]}],
        },
        "permissions": {"allow": ["Bash(ls:*)"]},
    },
    "codex": {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}},
    "gemini": {
        "general": {"vimMode": True},
        "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [
            {"type": "command", "command": "./lint.sh", "name": "lint"}]}]},
    },
}  # fmt: skip


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
@pytest.mark.parametrize("indent", [2, 4, "\t"])
def test_install_then_uninstall_leaves_the_file_as_it_was(
    tmp_path: Path, agent: str, indent: int | str
) -> None:
    path = settings_path(agent, tmp_path)
    path.parent.mkdir(parents=True)
    original = json.dumps(USERS_OWN[agent], indent=indent, ensure_ascii=False) + "\n"
    path.write_text(original, encoding="utf-8")
    assert install(agent, tmp_path) == path
    installed = json.loads(path.read_text())
    for key, value in USERS_OWN[agent].items():
        if key != "hooks":
            assert installed[key] == value
    for event, groups in USERS_OWN[agent]["hooks"].items():  # theirs first, untouched
        assert installed["hooks"][event][: len(groups)] == groups
    commands = [h["command"] for gs in installed["hooks"].values() for g in gs for h in g["hooks"]]
    assert sum(c.startswith(f"{XDB} hook {agent} ") for c in commands) == 5
    assert install(agent, tmp_path).read_text() == path.read_text()  # again: no change
    assert uninstall(agent, tmp_path) == (path, 5)
    assert path.read_text(encoding="utf-8") == original
    assert uninstall(agent, tmp_path) == (path, 0)


def test_install_makes_a_missing_file_and_names_each_agents_events(tmp_path: Path) -> None:
    claude = json.loads(install("claude", tmp_path).read_text())["hooks"]
    assert set(claude) == {"PreToolUse", "PostToolUse", "Stop", "SessionStart",
                           "UserPromptSubmit"}  # fmt: skip
    assert claude["PreToolUse"][0]["matcher"] == "*"
    gemini = json.loads(install("gemini", tmp_path).read_text())["hooks"]
    assert set(gemini) == {"BeforeTool", "AfterTool", "AfterAgent", "SessionStart",
                           "BeforeAgent"}  # fmt: skip
    assert gemini["BeforeTool"][0]["hooks"][0]["command"] == f"{XDB} hook gemini pre-tool-use"
    uninstall("claude", tmp_path)
    assert not settings_path("claude", tmp_path).exists()  # it made the file: it goes


def test_the_users_layout_line_endings_and_empty_entries_come_back(tmp_path: Path) -> None:
    path = settings_path("claude", tmp_path)
    path.parent.mkdir(parents=True)
    original = (b'{\r\n  "permissions": {"allow": ["Bash(ls:*)"]},\r\n'
                b'  "hooks": {"PreToolUse": []}\r\n}\r\n')  # fmt: skip
    path.write_bytes(original)
    install("claude", tmp_path)
    assert path.read_bytes() != original
    assert uninstall("claude", tmp_path) == (path, 5)
    assert path.read_bytes() == original
    # Changed meanwhile: the user's change stays and xdb's entries go.
    install("claude", tmp_path)
    changed = json.loads(path.read_text())
    changed["model"] = "opus"
    path.write_text(json.dumps(changed, indent=2))
    uninstall("claude", tmp_path)
    assert json.loads(path.read_text()) == {"permissions": {"allow": ["Bash(ls:*)"]},
                                            "model": "opus"}  # fmt: skip
    assert sorted(p.name for p in path.parent.iterdir()) == ["settings.json"]


def test_the_cli_installs_into_the_project(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    line = [sys.executable, "-m", "xdb", "hooks", "install", "codex", "--project"]
    done = subprocess.run(line, cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["settings"] == str(tmp_path / ".codex" / "hooks.json")
    assert not (tmp_path / "home").exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def run_hook(
    agent: str, event: str, payload: Mapping[str, object], env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xdb", "hook", agent, event],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
    )


@pytest.fixture
def lessons_db(tmp_path: Path) -> Iterator[dict[str, str]]:
    path = tmp_path / "x.sqlite3"
    with xdb.connect(path, embedder="hash") as db:
        db.add_lesson(question="registering the EF Core DbContext as a singleton in Startup.cs",
                      answer="register it scoped", framework="dotnet", domain="data")  # fmt: skip
    # No serve listens on this port: the hook opens the database itself.
    yield {"XDB_DB": str(path), "XDB_EMBEDDER": "hash",
           "XDB_ENGINE_URL": f"http://127.0.0.1:{_free_port()}"}  # fmt: skip


EDIT = {
    "session_id": "abc",
    "cwd": "/src/shop",
    "hook_event_name": "PreToolUse",
    "tool_name": "Edit",
    "tool_input": {"file_path": "/src/shop/Startup.cs",
                   "new_string": "services.AddSingleton<DbContext>();"},
}  # fmt: skip


def test_the_hook_warns_an_agent_through_the_database(lessons_db: dict[str, str]) -> None:
    done = run_hook("claude", "pre-tool-use", EDIT, lessons_db)
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("Last time registering the EF Core DbContext")
    again = run_hook("claude", "pre-tool-use", EDIT, lessons_db)
    assert (again.returncode, again.stdout) == (0, "")  # shown once a session


def test_after_a_tool_the_hook_leaves_the_judge_to_a_worker(lessons_db: dict[str, str]) -> None:
    after = {**EDIT, "hook_event_name": "PostToolUse", "tool_response": {"success": True}}
    done = run_hook("claude", "post-tool-use", after, lessons_db)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_geminis_after_tool_carries_the_warning_its_before_tool_showed(
    lessons_db: dict[str, str],
) -> None:
    before = {**EDIT, "hook_event_name": "BeforeTool", "tool_name": "replace"}
    shown = run_hook("gemini", "pre-tool-use", before, lessons_db)
    warning = json.loads(shown.stdout)["systemMessage"]  # to the person: BeforeTool's reach
    assert warning.startswith("Last time registering the EF Core DbContext")
    after = {**before, "hook_event_name": "AfterTool", "tool_response": {"llmContent": "ok"}}
    done = run_hook("gemini", "post-tool-use", after, lessons_db)
    told = json.loads(done.stdout)["hookSpecificOutput"]
    assert told == {"hookEventName": "AfterTool", "additionalContext": warning}
    later = run_hook("gemini", "post-tool-use", after, lessons_db)
    assert (later.returncode, later.stdout) == (0, "")  # given to the model once


def test_with_a_serve_the_hook_relays_to_its_hook_route(
    lessons_db: dict[str, str], tmp_path: Path
) -> None:
    with (
        xdb.connect(lessons_db["XDB_DB"], embedder="hash") as db,
        served(create_app(db, mcp=False)) as url,
    ):
        # The database named to the hook does not exist: only the serve can answer.
        env = {**lessons_db, "XDB_ENGINE_URL": url, "XDB_DB": str(tmp_path / "none.sqlite3")}
        done = run_hook("claude", "pre-tool-use", EDIT, env)
        context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
        assert context.startswith("Last time registering the EF Core DbContext")
        after = {**EDIT, "hook_event_name": "PostToolUse", "tool_response": "ok"}
        assert run_hook("claude", "post-tool-use", after, env).stdout == ""
        assert db.lessons().lessons[0].hits == 1


def test_the_hook_fails_open(lessons_db: dict[str, str], tmp_path: Path) -> None:
    missing = {**lessons_db, "XDB_DB": str(tmp_path / "nowhere.sqlite3")}
    assert run_hook("claude", "pre-tool-use", EDIT, missing).stdout == ""
    line = [sys.executable, "-m", "xdb", "hook", "claude", "pre-tool-use"]
    broken = subprocess.run(line, input="{not json", capture_output=True, text=True, timeout=60)
    assert (broken.returncode, broken.stdout) == (0, "")


def test_a_locked_database_fails_open_in_time(lessons_db: dict[str, str]) -> None:
    holder = sqlite3.connect(lessons_db["XDB_DB"], isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing, for as long as it likes
    try:
        started = time.monotonic()
        done = run_hook("claude", "pre-tool-use", EDIT, {**lessons_db, "XDB_HOOK_TIMEOUT_S": "1"})
        took = time.monotonic() - started
    finally:
        holder.rollback()
        holder.close()
    assert (done.returncode, done.stdout) == (0, "")
    assert took < 30  # SQLite alone would have waited minutes


class Hanging(JsonHandler):
    server: ThreadingHTTPServer

    def do_POST(self) -> None:
        release.wait(30)  # a serve that accepts and never answers


release = threading.Event()


def test_a_serve_that_hangs_fails_open_in_time(lessons_db: dict[str, str]) -> None:
    with serving(ThreadingHTTPServer(("127.0.0.1", 0), Hanging)) as srv:
        env = {**lessons_db, "XDB_ENGINE_URL": f"http://127.0.0.1:{srv.server_address[1]}"}
        try:
            done = run_hook("codex", "pre-tool-use", EDIT, env)
        finally:
            release.set()
    assert (done.returncode, done.stdout) == (0, "")


# The hook payloads each agent sends before an edit of Startup.cs (the lesson's case).
BEFORE: dict[str, dict[str, Any]] = {
    "claude": EDIT,
    "codex": {**EDIT, "tool_name": "apply_patch"},
    "gemini": {**EDIT, "hook_event_name": "BeforeTool", "tool_name": "replace"},
}
# Where each agent puts the warning in its answer.
WARNING: dict[str, Callable[[Any], str]] = {
    "claude": lambda out: out["hookSpecificOutput"]["additionalContext"],
    "codex": lambda out: out["hookSpecificOutput"]["additionalContext"],
    "gemini": lambda out: out["systemMessage"],
}
BARE_PATH = "/usr/bin:/bin"  # what an agent started outside the venv has: no xdb on it


def as_the_agent_runs_it(
    line: str, payload: dict[str, Any], env: dict[str, str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    """The settings' command run as the agents run theirs: by a shell, in the project, with
    the agent's environment (no venv on ``PATH``, no ``XDB_DB``)."""
    return subprocess.run(["/bin/sh", "-c", line], input=json.dumps(payload), cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


@pytest.mark.parametrize("agent", ["claude", "codex", "gemini"])
def test_the_written_command_runs_without_xdb_on_the_path_and_names_the_database(
    agent: str, lessons_db: dict[str, str], tmp_path: Path
) -> None:
    assert shutil.which("xdb", path=BARE_PATH) is None  # a bare "xdb" would be exit 127
    project = tmp_path / "project dir"  # a space: the words are quoted for the shell
    project.mkdir()
    database = Path(lessons_db["XDB_DB"])
    relative = os.path.relpath(database, project)
    env = {"HOME": str(tmp_path / "home"), "PATH": BARE_PATH, "XDB_EMBEDDER": "hash",
           "XDB_ENGINE_URL": lessons_db["XDB_ENGINE_URL"]}  # fmt: skip
    line = [sys.executable, "-m", "xdb", "hooks", "install", agent, "--project", "--db", relative]
    done = subprocess.run(line, cwd=project, env={**os.environ, **env, "PATH": os.environ["PATH"]},
                          capture_output=True, text=True, check=True)  # fmt: skip
    path = Path(json.loads(done.stdout)["settings"])
    assert path == settings_path(agent, project)
    hooks = json.loads(path.read_text())["hooks"]
    commands = {g["hooks"][0]["command"] for gs in hooks.values() for g in gs}
    at = shlex.quote(str(database))
    assert commands == {
        f"{XDB} --db {at} hook {agent} {event}"
        for event in ("pre-tool-use", "post-tool-use", "stop", "session-start", "user-prompt")
    }
    before = next(c for c in commands if c.endswith(" pre-tool-use"))
    warned = as_the_agent_runs_it(before, BEFORE[agent], env, project)
    assert warned.returncode == 0, warned.stderr
    assert WARNING[agent](json.loads(warned.stdout)).startswith("Last time registering the EF")
    for event in ("session-start", "user-prompt", "stop"):  # the others answer too: exit 0
        other = next(c for c in commands if c.endswith(f" {event}"))
        ran = as_the_agent_runs_it(other, {**EDIT, "hook_event_name": event}, env, project)
        assert (ran.returncode, ran.stderr) == (0, ""), other
    # The hook opened the database it names (its session holds the warning), not the default.
    assert not (tmp_path / "home").exists()
    with xdb.connect(database, embedder="hash") as db:
        assert db.lessons().lessons[0].hits == 1
    uninstall(agent, project)
    assert not path.exists()


def test_an_older_install_is_replaced_in_place_and_every_form_is_uninstalled(
    tmp_path: Path,
) -> None:
    path = settings_path("claude", tmp_path)
    path.parent.mkdir(parents=True)
    original = json.dumps(USERS_OWN["claude"], indent=2) + "\n"
    path.write_text(original)
    install("claude", tmp_path, xdb=["xdb"])  # what an older xdb wrote: a bare "xdb"
    old = json.loads(path.read_text())["hooks"]
    assert old["PreToolUse"][1]["hooks"][0]["command"] == "xdb hook claude pre-tool-use"
    install("claude", tmp_path, db="agent.sqlite3")
    new: dict[str, Any] = json.loads(path.read_text())["hooks"]
    theirs: Any = USERS_OWN["claude"]
    assert new["PreToolUse"][0] == theirs["hooks"]["PreToolUse"][0]  # the user's own, as it was
    assert len(new["PreToolUse"]) == 2  # xdb's group replaced where it was, not added
    assert new["PreToolUse"][1]["hooks"][0]["command"] == (
        f"{XDB} --db {shlex.quote(os.path.abspath('agent.sqlite3'))} hook claude pre-tool-use"
    )
    assert uninstall("claude", tmp_path) == (path, 5)
    assert path.read_text() == original


def test_what_counts_as_xdbs_hook_command() -> None:
    for line in [
        "xdb hook claude pre-tool-use",
        "/home/me/.venv/bin/xdb hook codex stop",
        "'/opt/my tools/bin/xdb' --db '/data/a b.sqlite3' hook gemini session-start",
        "/usr/bin/python3 -m xdb hook claude user-prompt",
        "/usr/bin/python3 -m xdb --db postgresql://h/db hook claude post-tool-use",
        "xdb --db=/x.sqlite3 hook claude stop",
    ]:
        assert is_hook_command(line), line
    for line in [
        "~/bin/guard.sh",
        "echo xdb hook claude pre-tool-use",
        "/usr/bin/xdb-lint hook claude pre-tool-use",
        "xdb hook claude something-else",
        "xdb hook claude pre-tool-use && rm -rf x",
        "xdb 'unclosed",
    ]:
        assert not is_hook_command(line), line


@pytest.mark.parametrize(
    "words",
    [["--db", "{db}", "hook", "claude", "pre-tool-use"], ["--db={db}", "hook", "claude",
     "pre-tool-use"], ["hook", "claude", "pre-tool-use", "--db", "{db}"],
     ["hook", "claude", "pre-tool-use", "--db={db}"]],
)  # fmt: skip
def test_the_hook_opens_the_database_its_db_names(
    words: list[str], lessons_db: dict[str, str]
) -> None:
    xdb_script = Path(sys.executable).absolute().with_name("xdb")
    line = [str(xdb_script), *(w.format(db=lessons_db["XDB_DB"]) for w in words)]
    env = {k: v for k, v in os.environ.items() if k != "XDB_DB"}
    env.update({k: v for k, v in lessons_db.items() if k != "XDB_DB"})
    done = subprocess.run(line, input=json.dumps(EDIT), capture_output=True, text=True,
                          env=env, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("Last time registering the EF Core DbContext")
