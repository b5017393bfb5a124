"""Extraction from the Codex CLI's rollouts and Gemini CLI's session files, and the lessons
stored from any transcript: once each, different failures kept apart, with the calls they
were learned from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import xdb
from tests.engine.transcript_logs import ClaudeLog, CodexLog, GeminiLog
from xdb.engine.extract import codex_steps, gemini_steps, lessons


def codex_rollout() -> CodexLog:
    log = CodexLog()
    log.user("make the api tests pass")
    log.shell(
        ["bash", "-lc", "pytest -q tests/test_orders.py"],
        "E   ModuleNotFoundError: No module named 'requests'\n1 error in 0.1s",
        1,
    )
    log.shell(["bash", "-lc", "cat pyproject.toml"], "[project]\nname = 'api'")
    log.patch("*** Begin Patch\n*** Update File: pyproject.toml\n@@\n-dependencies = []\n"
              "+dependencies = [\"requests>=2.32\"]\n*** End Patch",
              "Success. Updated the following files:\nM pyproject.toml")  # fmt: skip
    log.shell(["bash", "-lc", "pytest -q tests/test_orders.py"], "4 passed in 0.3s")
    log.local_shell(["cargo", "build", "--release"],
                    "error[E0425]: cannot find value `cfg` in this scope", 101)  # fmt: skip
    log.local_shell(["cargo", "build", "--release", "--features", "cfg"], "Finished release")
    log.shell(["bash", "-lc", "git push origin HEAD:main"], "Everything up-to-date",
              text_output=True)  # fmt: skip
    log.user("Wait, no! Never push straight to main, open a pull request")
    log.shell(["bash", "-lc", "alembic upgrade head"],
              "sqlalchemy.exc.OperationalError: could not connect to server", 1,
              text_output=True)  # fmt: skip
    return log


def test_codex_rollouts_read_alike() -> None:
    lines = [*codex_rollout().lines(), "not json at all"]
    by_question = {f.question: f for f in lessons(codex_steps(lines))}
    assert list(by_question) == [
        "`pytest -q tests/test_orders.py` failed: E ModuleNotFoundError: No module named"
        " 'requests'",
        "`cargo build --release` failed: error[E0425]: cannot find value `cfg` in this scope",
        "shell git push origin HEAD:main",
        "`alembic upgrade head` failed: sqlalchemy.exc.OperationalError: could not connect to"
        " server",
    ]
    pytest_fix, cargo_fix, push, migrate = by_question.values()
    # The patch's lines are kept; the read between was not what fixed it.
    assert pytest_fix.answer == (
        "it passed after: apply_patch pyproject.toml: - dependencies = [] / + dependencies ="
        ' ["requests>=2.32"]'
    )
    assert cargo_fix.answer == (
        "it passed as `cargo build --release --features cfg` (added `--features=cfg`)"
    )
    assert cargo_fix.learned_from["fix"]["input"]["command"][-1] == "cfg"
    assert push.answer == "Wait, no! Never push straight to main, open a pull request"
    assert (migrate.rule, migrate.learned_from["fix"]) == ("failure", None)


def test_codex_outputs_without_an_exit_code_are_read_by_their_words() -> None:
    rows = [
        {"type": "response_item", "payload": {"type": "function_call", "name": "shell",
         "call_id": "c1", "arguments": json.dumps({"command": ["cargo", "test"]})}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1",
         "output": "error[E0425]: cannot find value `x`"}},
        {"type": "response_item", "payload": {"type": "function_call", "name": "shell",
         "call_id": "c2", "arguments": json.dumps({"command": ["cargo", "test"]})}},
        {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "c2",
         "output": "test result: ok. 4 passed"}},
    ]  # fmt: skip
    (fix,) = lessons(codex_steps(json.dumps(r) for r in rows))
    assert fix.question == "`cargo test` failed: error[E0425]: cannot find value `x`"
    assert fix.answer == "it passed when run again unchanged (a flaky failure)"


def gemini_session() -> GeminiLog:
    log = GeminiLog()
    log.user("fix the build")
    # run_shell_command reports success; its output says the exit code.
    log.shell("npm run build", "src/app.ts(3,7): error TS2322: Type 'string' is not assignable"
              " to type 'number'.", 2)  # fmt: skip
    log.call("replace", {"file_path": "/w/api/src/app.ts", "old_string": "const port: number"
             " = '8080'", "new_string": "const port: number = 8080",
             "instruction": "port is a number"}, "Successfully modified file")  # fmt: skip
    log.shell("npm run build", "", 0)
    log.call("read_file", {"absolute_path": "/w/api/src/errors.ts"}, "export class AppError")
    log.call("write_file", {"file_path": "/w/api/.env", "content": "DB_PASSWORD=hunter2\n"},
             "", status="cancelled")  # fmt: skip
    log.user("not like that: secrets go in the vault, never in .env")
    return log


def test_gemini_session_files_read_alike() -> None:
    document = gemini_session().document()
    as_file = json.dumps(document, indent=2).splitlines()
    as_lines = [json.dumps(m) for m in document["messages"]]  # one message a line
    for lines in (as_file, as_lines):
        fix, correction = lessons(gemini_steps(lines))
        assert fix.question == (
            "`npm run build` failed: src/app.ts(3,7): error TS2322: Type 'string' is not"
            " assignable to type 'number'."
        )
        assert fix.answer == (
            "it passed after: replace /w/api/src/app.ts: - const port: number = '8080' / +"
            " const port: number = 8080"
        )
        assert correction.question == "write_file /w/api/.env: + DB_PASSWORD=hunter2"
        assert correction.answer == "not like that: secrets go in the vault, never in .env"
    assert gemini_steps(["{not json"]) == []


def test_extraction_stores_raw_lessons_once(db: xdb.Database, tmp_path: Path) -> None:
    log = ClaudeLog()
    log.bash("pytest tests/test_api.py", "E   ImportError: cannot import name 'client'", 1)
    log.call("Edit", {"file_path": "/p/src/api.py", "old_string": "a", "new_string": "b"}, "ok")
    log.bash("pytest tests/test_api.py", "3 passed")
    log.bash("git push --force", "done")
    log.user("no, never force-push main")
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(log.lines()))
    made = db.extract(session_id="s", transcript_path=str(path), cwd="/home/u/shop")
    assert made.found == 2 and len(made.lesson_ids) == 2
    stored = db.lessons(tier="T3").lessons
    assert {s.project for s in stored} == {"shop"} and {s.tier for s in stored} == {"T3"}
    again = db.extract(session_id="s", transcript_path=str(path))
    assert again.found == 2 and again.lesson_ids == []  # each lesson once
    with pytest.raises(xdb.InvalidRequest, match="transcript_path"):
        db.extract(session_id="s", transcript_path=str(tmp_path / "missing.jsonl"))


def test_a_lesson_keeps_the_calls_it_was_learned_from(db: xdb.Database, tmp_path: Path) -> None:
    log = ClaudeLog()
    log.bash("helm upgrade web ./chart", "Exit code 1\nError: UPGRADE FAILED: timed out", 1)
    log.bash("helm upgrade web ./chart --atomic", "upgraded")
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join(log.lines()))
    (lesson_id,) = db.extract(session_id="s", transcript_path=str(path)).lesson_ids
    meta = db.get_episode_detail(episode_id=lesson_id).episode.metadata
    learned = meta["learned_from"]
    assert learned["rule"] == "fix" and learned["error"] == "Error: UPGRADE FAILED: timed out"
    assert learned["failing"]["input"] == {"command": "helm upgrade web ./chart",
                                           "description": "run"}  # fmt: skip
    assert learned["fix"]["input"]["command"] == "helm upgrade web ./chart --atomic"
    assert learned["changes"] == {"flags_added": ["--atomic"]}
    assert learned["signature"].startswith("helm upgrade web ./chart | ")


def test_failures_alike_only_in_generic_text_are_both_kept(
    db: xdb.Database, tmp_path: Path
) -> None:
    """Two sessions, the same command failing with the same "Exit code 101" for different
    reasons and fixed differently: both lessons stored, neither supersedes the other."""
    ids = []
    for n, (error, edit) in enumerate([
        ("error[E0425]: cannot find value `x` in this scope", ("let y = x;", "let y = 1;")),
        ("thread 'main' panicked at src/main.rs:9:5: attempt to subtract with overflow",
         ("a - b", "a.saturating_sub(b)")),
    ]):  # fmt: skip
        log = ClaudeLog()
        log.bash("cargo run", f"   Compiling app v0.1.0\n{error}", 101)
        log.call("Edit", {"file_path": "/w/app/src/main.rs", "old_string": edit[0],
                          "new_string": edit[1]}, "ok")  # fmt: skip
        log.bash("cargo run", "Finished")
        path = tmp_path / f"s{n}.jsonl"
        path.write_text("\n".join(log.lines()))
        ids += db.extract(session_id=f"s{n}", transcript_path=str(path)).lesson_ids
    assert len(ids) == 2
    stored = {s.lesson_id: s for s in db.lessons(tier="T3").lessons}
    assert not any(stored[i].superseded for i in ids)


def test_extraction_reads_a_gemini_session_file(db: xdb.Database, tmp_path: Path) -> None:
    path = tmp_path / "session-2026-11-25T10-00-9f1c.json"
    path.write_text(json.dumps(gemini_session().document()))
    made = db.extract(agent="gemini", session_id="g", transcript_path=str(path), cwd="/w/api")
    assert made.found == 2 and len(made.lesson_ids) == 2
    by_rule = {les.question.split()[0]: les for les in db.lessons(tier="T3").lessons}
    assert by_rule["`npm"].language == "typescript" and by_rule["write_file"].project == "api"
