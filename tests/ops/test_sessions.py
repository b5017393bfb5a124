"""The default session: several processes starting on an empty database share one.

The rule (``Database.session_id``): a handle without a session records into the most
recently active session of the database; when there is none, the first record of the
first process makes one (``Store.claim_session``, one write transaction) and every other
process joins it. Processes start together on a ``go`` line: no sleeps.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

import anyio
import httpx
from mcp import Client

import xdb
from tests.serving import served
from xdb.interfaces.http import create_app
from xdb.interfaces.mcp import build_server

WRITERS = 4
RECORDS = 5

# A writer: opens the database, waits for "go", records, and prints the session of each.
_CHILD = """
import json, sys, xdb
db = xdb.connect(sys.argv[1], embedder="hash")
db.status()  # looks before it records: the session it reports must not split the writers
print("ready", flush=True)
sys.stdin.readline()
made = [db.record(event_type="input", content=f"w{sys.argv[2]} {i}").timestep_id
        for i in range(int(sys.argv[3]))]
db.close()
print(json.dumps(made), flush=True)
"""


def _writers(target: str, count: int) -> list[list[str]]:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _CHILD, target, str(i), str(RECORDS)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(count)
    ]
    try:
        for p in procs:  # every child has opened the empty database before any records
            assert p.stdout is not None
            line = p.stdout.readline()
            assert line == "ready\n", (line, p.stderr.read() if p.stderr else "")
        for p in procs:
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        out = []
        for p in procs:
            stdout, stderr = p.communicate(timeout=120)
            assert p.returncode == 0, stderr
            out.append(json.loads(stdout))
        return out
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()


def _session(timestep_id: str) -> str:
    return timestep_id[len("ts-") : timestep_id.rindex("-")]


def test_writers_starting_on_an_empty_database_share_one_session(target: str) -> None:
    made = _writers(target, WRITERS)
    sessions = {_session(ts) for ids in made for ts in ids}
    assert len(sessions) == 1, sessions
    with xdb.connect(target, embedder="hash") as db:
        status = db.status()
        assert status.session_id in sessions  # a later process continues it
        assert status.current_tick == WRITERS * RECORDS
        page = db.query(all_sessions=True)
        assert {t.session_id for t in page.timesteps} == sessions
        assert sorted(t.tick for t in page.timesteps) == list(range(1, WRITERS * RECORDS + 1))


def test_a_second_process_continues_the_latest_session(target: str) -> None:
    (first,) = _writers(target, 1)
    (second,) = _writers(target, 1)
    assert {_session(ts) for ts in first + second} == {_session(first[0])}


def test_reading_an_empty_database_makes_no_session(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        proposed = db.session_id
        assert db.query().timesteps == []
        assert db.recent().timesteps == []
        assert db.store.latest_session() is None  # reads claimed nothing
        # The handle's first record makes the session it proposed.
        made = db.record(event_type="input", content="hello")
        assert _session(made.timestep_id) == proposed == db.session_id


def test_claim_session_makes_one_session_then_returns_it(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        assert db.store.claim_session("session-a", 1) == "session-a"
        assert db.store.claim_session("session-b", 2) == "session-a"
        db.record(event_type="input", content="x", session_id="session-c")
        assert db.store.claim_session("session-d", 3) == "session-c"  # the latest


def test_an_explicit_session_is_never_claimed_over(target: str) -> None:
    with xdb.connect(target, session_id="mine", embedder="hash") as db:
        db.record(event_type="input", content="x")
    with xdb.connect(target, embedder="hash") as db:
        assert db.record(event_type="input", content="y").timestep_id == "ts-mine-2"


# What a hook asks before an agent's edit the lesson is about (``engine.check``, as the hook
# runs it on the database when no serve answers): it records the warning as a steering
# timestep of the session ``claude-<the agent's session id>``.
_CHECK = {"agent": "claude", "cwd": "/src/shop", "tool_name": "Edit",
          "tool_input": {"file_path": "/src/shop/Startup.cs",
                         "new_string": "services.AddSingleton<DbContext>();"}}  # fmt: skip


def _hook_warns(target: str, agent_session: str) -> None:
    with xdb.connect(target, embedder="hash") as db:  # a hook process of its own
        found = db.call("engine.check", {**_CHECK, "session_id": agent_session})
        assert found.model_dump()["warnings"], "the hook warned: it made its session"


def _cli(target: str, *args: str) -> dict[str, object]:
    line = [sys.executable, "-m", "xdb", "--db", target, *args]
    done = subprocess.run(line, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "XDB_EMBEDDER": "hash"})  # fmt: skip
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


async def _mcp(db: xdb.Database, tool: str) -> dict[str, Any]:
    async with Client(build_server(db)) as client:
        result = await client.call_tool(tool, {})
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


def test_hook_sessions_never_become_the_default_session(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        db.add_lesson(question="registering the EF Core DbContext as a singleton in Startup.cs",
                      answer="register it scoped", framework="dotnet", domain="data")  # fmt: skip
        mine = _session(db.record(event_type="input", content="my own work").timestep_id)
    _hook_warns(target, "abc")  # later than mine: the most recently active session
    with xdb.connect(target, embedder="hash") as db:
        assert db.store.sessions(10)[1][0].session_id == "claude-abc"  # it is there, latest
        assert db.session_id == mine
        assert db.status().session_id == mine
        made = db.record(event_type="output", content="more of mine")
        assert _session(made.timestep_id) == mine
        assert [t.content for t in db.recent().timesteps] == ["my own work", "more of mine"]
        with served(create_app(db, mcp=False)) as url:  # the explorer's overview
            home = httpx.get(url + "/", timeout=60).text
        shown = re.search(r"<dt>Current session</dt><dd>([^<]*)</dd>", home)
        assert shown is not None and shown[1] == mine
        assert anyio.run(_mcp, db, "xdb_status")["session_id"] == mine
        recent = anyio.run(_mcp, db, "xdb_recent")["timesteps"]
        assert [t["content"] for t in recent] == ["my own work", "more of mine"]
    # The command line's record, recent and status the same way.
    assert _session(str(_cli(target, "record", "--event-type", "input", "--content", "cli")
                        ["timestep_id"])) == mine  # fmt: skip
    assert _cli(target, "status")["session_id"] == mine
    recent = _cli(target, "recent")["timesteps"]
    assert isinstance(recent, list) and recent[-1]["content"] == "cli"


def test_a_database_with_only_hook_sessions_gets_a_new_one(target: str) -> None:
    with xdb.connect(target, embedder="hash") as db:
        db.add_lesson(question="registering the EF Core DbContext as a singleton in Startup.cs",
                      answer="register it scoped", framework="dotnet", domain="data")  # fmt: skip
    _hook_warns(target, "abc")
    with xdb.connect(target, embedder="hash") as db:
        assert db.store.latest_session() is None
        assert db.store.claim_session("session-new", 1) == "session-new"
    _hook_warns(target, "def")  # a hook after the user's session was made: still not it
    with xdb.connect(target, embedder="hash") as db:
        assert db.session_id == "session-new"
        made = db.record(event_type="input", content="mine")
        assert made.timestep_id == "ts-session-new-1"
        assert db.status().session_id == "session-new"
