"""The judge's verdicts on shown warnings, by its deterministic rules, and as a worker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import xdb
from xdb.engine.judge import WINDOW, Pending, verdict

LESSON = {
    "question": "registering the EF Core DbContext with AddSingleton in Startup.cs",
    "answer": "use AddScoped for DbContext",
    "framework": "dotnet",
    "domain": "data",
}
PENDING = Pending("l1", LESSON["question"], LESSON["answer"], "csharp", shown_at=3)


@pytest.mark.parametrize(
    ("call", "text", "language", "expected"),
    [
        (3, "services.AddSingleton<DbContext>()", "csharp", None),  # the call it came with
        (4, "services.AddScoped<DbContext>()", "csharp", ("followed", None)),
        (4, "services.AddSingleton<DbContext>() again", "csharp", ("ignored", None)),
        (4, "renamed a variable", "csharp", None),
        (3 + WINDOW, "renamed a variable", "csharp", ("unclear", None)),
        (4, "AddScoped in app.ts", "typescript", ("irrelevant", "wrong_language")),
    ],
)
def test_the_rules(call: int, text: str, language: str | None, expected: Any) -> None:
    assert verdict(PENDING, call, text, language) == expected


def test_a_call_in_another_language_after_one_in_the_lessons_decides_nothing() -> None:
    on_csharp = Pending("l1", LESSON["question"], LESSON["answer"], "csharp", shown_at=3,
                        shown_on_language="csharp")  # fmt: skip
    assert verdict(on_csharp, 4, "AddScoped in app.ts", "typescript") is None
    assert verdict(on_csharp, 3 + WINDOW, "AddScoped in app.ts", "typescript") == ("unclear", None)


def _edit(text: str) -> dict[str, Any]:
    return {"file_path": "/src/shop/Startup.cs", "new_string": text}


def test_a_followed_warning_counts_and_three_promote(db: xdb.Database) -> None:
    made = db.add_lesson(**LESSON).lesson
    for session in ("a", "b", "c"):
        shown = db.check(session_id=session, tool_name="Edit", cwd="/src/shop",
                         tool_input=_edit("services.AddSingleton<DbContext>();"))  # fmt: skip
        assert [w.lesson_id for w in shown.warnings] == [made.lesson_id]
        same = db.judge(session_id=session, tool_name="Edit",
                        tool_input=_edit("services.AddSingleton<DbContext>();"))  # fmt: skip
        assert same.verdicts == [] and same.pending == 1  # the warned call itself
        fixed = db.judge(session_id=session, tool_name="Edit",
                         tool_input=_edit("services.AddScoped<DbContext>();"))  # fmt: skip
        assert [(v.lesson_id, v.verdict) for v in fixed.verdicts] == [(made.lesson_id, "followed")]
    assert db.lesson(made.lesson_id).lesson.tier == "T1"


def test_the_worker_records_a_verdict(db: xdb.Database, target: str, tmp_path: Path) -> None:
    if target.startswith("postgresql"):
        pytest.skip("the worker opens XDB_DB, a file path; the operation is tested on both")
    made = db.add_lesson(**LESSON).lesson
    db.check(session_id="w", tool_name="Edit", cwd="/src/shop",
             tool_input=_edit("services.AddSingleton<DbContext>();"))  # fmt: skip
    db.judge(session_id="w", tool_name="Edit", tool_input=_edit("x"))
    request = {"agent": "claude", "session_id": "w", "tool_name": "Edit",
               "tool_input": _edit("services.AddSingleton<DbContext>() anyway")}  # fmt: skip
    env = {**os.environ, "XDB_DB": target, "XDB_EMBEDDER": "hash",
           "XDB_ENGINE_URL": "http://127.0.0.1:9"}  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "xdb.engine.judge_worker"],
                          input=json.dumps({"op": "judge", "request": request}), env=env,
                          capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "")
    assert db.lesson(made.lesson_id).lesson.ignores == 1


def test_parallel_calls_are_judged_by_their_ids(db: xdb.Database) -> None:
    made = db.add_lesson(**LESSON).lesson
    other = {"file_path": "/src/shop/README.md", "new_string": "docs"}
    warned = _edit("services.AddSingleton<DbContext>();")
    # Pre A, Pre B (warned), Post A, Post B: B's warning came too late for B itself.
    assert not db.check(session_id="p", tool_name="Edit", tool_input=other,
                        tool_use_id="A").warnings  # fmt: skip
    assert db.check(session_id="p", tool_name="Edit", tool_input=warned,
                    tool_use_id="B").warnings  # fmt: skip
    assert (
        db.judge(session_id="p", tool_name="Edit", tool_input=other, tool_use_id="A").verdicts == []
    )
    own = db.judge(session_id="p", tool_name="Edit", tool_input=warned, tool_use_id="B")
    assert own.verdicts == [] and own.pending == 1  # not "ignored" on its own call
    fixed = db.judge(session_id="p", tool_name="Edit", tool_use_id="C",
                     tool_input=_edit("services.AddScoped<DbContext>();"))  # fmt: skip
    assert [(v.lesson_id, v.verdict) for v in fixed.verdicts] == [(made.lesson_id, "followed")]


def test_a_warning_whose_lesson_is_gone_is_dropped(db: xdb.Database) -> None:
    db.add_lesson(**LESSON)
    db.check(session_id="g", tool_name="Edit", tool_input=_edit("AddSingleton<DbContext>()"))
    db.judge(session_id="g", tool_name="Edit", tool_input=_edit("AddSingleton<DbContext>()"))
    key = "self:claude:g"
    session = db.store.learning_object("engine_session", key)
    assert session is not None and len(session.body["pending"]) == 1
    ghost = {**session.body["pending"][0], "lesson_id": "episode-gone", "call_id": "x"}
    session.body = {**session.body, "pending": [*session.body["pending"], ghost]}
    db.store.put_learning_object(session)
    done = db.judge(session_id="g", tool_name="Edit", tool_input=_edit("AddScoped<DbContext>()"))
    assert [v.verdict for v in done.verdicts] == ["followed"] and done.pending == 0
