"""The default session: several processes starting on an empty database share one.

The rule (``Database.session_id``): a handle without a session records into the most
recently active session of the database; when there is none, the first record of the
first process makes one (``Store.claim_session``, one write transaction) and every other
process joins it. Processes start together on a ``go`` line: no sleeps.
"""

from __future__ import annotations

import json
import subprocess
import sys

import xdb

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
