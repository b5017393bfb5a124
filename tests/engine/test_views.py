"""Reading the lessons back: their statistics and the timeline of a topic, through the
library, the CLI group and the HTTP route."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import xdb
from tests.engine.test_judge import _edit
from xdb.interfaces.http import create_app

DBCONTEXT: dict[str, Any] = {
    "question": "registering the DbContext with AddSingleton in Startup.cs",
    "answer": "use AddScoped for DbContext",
    "framework": "dotnet", "domain": "data",
}  # fmt: skip
OTHER: dict[str, Any] = {
    "question": "force pushing to main rewrote shared history",
    "answer": "push a branch and open a pull request", "domain": "git",
}  # fmt: skip


def _lived(db: xdb.Database) -> tuple[str, str, str]:
    """A lesson shown, followed and ignored; a newer one superseding it; another topic."""
    old = db.add_lesson(**DBCONTEXT).lesson.lesson_id
    other = db.add_lesson(**OTHER).lesson.lesson_id
    db.check(session_id="a", tool_name="Edit", tool_input=_edit("AddSingleton<DbContext>()"))
    db.judge(session_id="a", tool_name="Edit", tool_input=_edit("x"))
    db.judge(session_id="a", tool_name="Edit", tool_input=_edit("AddScoped<DbContext>()"))
    db.feedback(lesson_id=old, verdict="ignored")
    db.feedback(lesson_id=other, verdict="noise", reason="wrong_repo", project="shop")
    newer = db.add_lesson(question=DBCONTEXT["question"], framework="dotnet", domain="data",
                          answer="use a DbContext factory per unit of work").lesson  # fmt: skip
    return old, newer.lesson_id, other


def test_the_timeline_of_a_topic_in_order(db: xdb.Database) -> None:
    old, newer, other = _lived(db)
    got = db.timeline(topic="DbContext singleton")
    assert {les.lesson_id for les in got.lessons} == {old, newer}
    mine = [(e.event, e.detail, e.source) for e in got.events if e.lesson_id == old]
    assert mine == [
        ("created", "T2", "manual"),
        ("shown", "claude:a", None),
        ("followed", None, "judge"),
        ("ignored", None, "manual"),
        ("superseded", f"by {db.lesson(newer).lesson.short_id}", None),
    ]
    assert [e.at for e in got.events] == sorted(e.at for e in got.events)
    assert got.events[-1].lesson_id == newer and got.events[-1].event == "created"
    assert [(e.src, e.relation, e.dst) for e in got.edges] == [(newer, "SUPERSEDES", old)]
    everything = db.timeline(limit=2)
    assert everything.total == 9 and len(everything.events) == 2
    assert other in {les.lesson_id for les in everything.lessons}


def test_stats_count_tiers_and_verdicts(db: xdb.Database) -> None:
    _lived(db)
    stats = db.lesson_stats()
    assert (stats.total, stats.by_tier["T2"], stats.superseded) == (3, 3, 1)
    assert (stats.warnings_shown, stats.follows, stats.ignores) == (1, 1, 2)
    assert stats.noise == {"wrong_repo": 2}
    assert stats.follow_rate == 0.2 and stats.sessions == 1 and stats.pending == 0
    assert db.lesson_stats(project="elsewhere").total == 0


def test_the_cli_group_and_the_http_route(tmp_path: Path) -> None:
    path = tmp_path / "x.sqlite3"
    with xdb.connect(path, embedder="hash") as db:
        old, newer, _ = _lived(db)
        # (a Host the serve answers to: TestClient's own, "testserver", is not one)
        client = TestClient(create_app(db, mcp=False), base_url="http://localhost")
        answer = client.get("/api/timeline", params={"topic": "DbContext"})
        assert answer.status_code == 200
        assert {les["lesson_id"] for les in answer.json()["lessons"]} == {old, newer}
        bad = client.get("/api/timeline", params={"limit": "0"})
        assert bad.status_code == 400 and bad.json()["error"]["field"] == "limit"
    env_line = [sys.executable, "-m", "xdb", "--db", str(path), "lessons"]

    def cli(*args: str) -> Any:
        done = subprocess.run([*env_line, *args], capture_output=True, text=True, timeout=120,
                              env={"XDB_EMBEDDER": "hash", "PATH": ""})  # fmt: skip
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    assert cli("stats")["total"] == 3
    assert len(cli("list", "--tier", "T2")["lessons"]) == 3
    short = cli("show", old)["lesson"]["short_id"]
    assert cli("show", short)["lesson"]["lesson_id"] == old
    assert cli("timeline", "DbContext")["events"][0]["event"] == "created"
