"""Raw lessons from Claude Code's session logs, by the extraction rules: the failing call is
the mistake and the call that then passed the fix, an edit keeps what it wrote, generic
error text makes no two failures alike, the user's corrections in their own words."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.engine.transcript_logs import ClaudeLog
from xdb.engine.calls import parse_call
from xdb.engine.extract import Found, claude_steps, informative_error, is_correction, lessons
from xdb.engine.extract_checks import is_check


def found(log: ClaudeLog) -> dict[str, Found]:
    return {f.rule: f for f in lessons(claude_steps(log.lines()))}


def claude_transcript() -> list[dict[str, Any]]:
    log = ClaudeLog()
    log.user("make the tests pass")
    log.bash(
        "pytest tests/test_api.py", "E   ImportError: cannot import name 'client'\n1 failed", 1
    )
    log.call("Read", {"file_path": "/p/src/api.py"}, "     1\tfrom x import y")
    log.call("Edit", {"file_path": "/p/src/api.py", "old_string": "a", "new_string": "b"}, "ok")
    log.bash("pytest tests/test_api.py", "3 passed")
    log.bash("git push --force", "done")
    log.user("no, never force-push main")
    for _ in range(3):
        log.bash("npm run build", "Error: cannot find module 'vite'", 1)
    return log.rows


def test_claude_code_transcripts_teach_three_kinds_of_lesson() -> None:
    steps = claude_steps(json.dumps(r) for r in claude_transcript())
    by_rule = {f.rule: f for f in lessons(steps)}
    assert set(by_rule) == {"fix", "correction", "retry"}  # the unfixed build: a retry loop
    fix = by_rule["fix"]
    assert fix.question == "`pytest tests/test_api.py` failed: E ImportError: cannot import name"\
        " 'client'"  # fmt: skip
    # What was done between, the edit with what it wrote (the read changed nothing).
    assert fix.answer == "it passed after: Edit /p/src/api.py: - a / + b"
    assert by_rule["correction"].question == "Bash git push --force"
    assert by_rule["correction"].answer == "no, never force-push main"
    assert by_rule["retry"].question == "retrying `npm run build`: Error: cannot find module 'vite'"


def test_the_failing_call_is_the_mistake_and_the_passing_one_its_fix() -> None:
    log = ClaudeLog()
    log.bash("helm upgrade web ./chart -n shop", "Error: UPGRADE FAILED: another operation"
             " (install/upgrade/rollback) is in progress", 1)  # fmt: skip
    log.bash("helm upgrade web ./chart -n shop --atomic --wait", 'Release "web" upgraded')
    fix = found(log)["fix"]
    # The call that failed, not the one that passed, is the mistake.
    assert fix.question.startswith("`helm upgrade web ./chart -n shop` failed: Error: UPGRADE")
    assert fix.answer == (
        "it passed as `helm upgrade web ./chart -n shop --atomic --wait` (added `--atomic`,"
        " `--wait`)"
    )
    learned = fix.learned_from
    assert learned["failing"]["input"]["command"] == "helm upgrade web ./chart -n shop"
    assert "another operation" in learned["failing"]["output"]
    assert learned["fix"]["input"]["command"].endswith("--atomic --wait")
    assert learned["changes"] == {"flags_added": ["--atomic", "--wait"]}


def test_a_fix_that_runs_the_failing_program_twice_is_read_once() -> None:
    log = ClaudeLog()
    log.bash("crontab -r", "crontab: no crontab for deploy", 1)
    log.bash("crontab -l > ~/crontab.bak && crontab -e", "installing new crontab")
    fix = found(log)["fix"]  # (the second crontab named the same failure again: a KeyError)
    assert fix.question.startswith("`crontab -r` failed: crontab: no crontab for deploy")


def test_a_fix_that_drops_a_flag_and_changes_an_argument() -> None:
    log = ClaudeLog()
    log.bash("git push --force origin main", "! [remote rejected] main -> main (protected branch"
             " hook declined)\nerror: failed to push some refs", 1)  # fmt: skip
    log.bash("git push origin fix/cart", "To github.com:acme/shop.git\n * [new branch]")
    fix = found(log)["fix"]
    assert fix.question.startswith("`git push --force origin main` failed: ! [remote rejected]")
    assert "dropped `--force`" in fix.answer and "`fix/cart` instead of `main`" in fix.answer
    assert fix.learned_from["changes"] == {
        "flags_dropped": ["--force"], "arguments_added": ["fix/cart"],
        "arguments_dropped": ["main"],
    }  # fmt: skip


def test_a_fix_that_runs_another_command_first() -> None:
    """The fix may run the failed command after another (``npm ci && npm test``); calls
    sent beside the failing one were not done about it."""
    log = ClaudeLog()
    log.rows.append(
        {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "a",
                        "name": "Bash",
                        "input": {"command": "cd web && npm test"},
                    },
                    {
                        "type": "tool_use",
                        "id": "b",
                        "name": "Bash",
                        "input": {"command": "make docs"},
                    },
                ],
            },
        }
    )
    log.rows.append({"type": "user", "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "a", "is_error": True,
         "content": "Exit code 127\nsh: 1: jest: not found"},
        {"type": "tool_result", "tool_use_id": "b", "content": "built"}]}})  # fmt: skip
    log.bash("npm ci && npm test", "Tests: 9 passed")
    fix = found(log)["fix"]
    assert fix.question == "`cd web && npm test` failed: sh: 1: jest: not found"
    assert fix.answer == "it passed as `npm ci && npm test` (added `npm ci`; dropped `cd web`)"
    assert fix.learned_from["between"] == []


def test_an_edit_that_failed_then_passed_keeps_what_it_wrote() -> None:
    log = ClaudeLog()
    path = "/home/dev/shop/app/settings.py"
    log.call("Edit", {"file_path": path, "old_string": "TIMEOUT = 30",
                      "new_string": "TIMEOUT = 60"},
             "<tool_use_error>String to replace not found in file.\nString: TIMEOUT = 30"
             "</tool_use_error>", error=True)  # fmt: skip
    log.call("Edit", {"file_path": path, "old_string": "TIMEOUT=30", "new_string": "TIMEOUT = 60"},
             f"The file {path} has been updated.")  # fmt: skip
    fix = found(log)["fix"]
    assert fix.question == (
        f"`{path}: - TIMEOUT = 30 / + TIMEOUT = 60` failed: String to replace not found in file."
    )
    assert fix.answer == (
        f"it passed as `{path}: - TIMEOUT=30 / + TIMEOUT = 60` (`- TIMEOUT=30` instead of"
        " `- TIMEOUT = 30`)"
    )
    assert fix.learned_from["changes"] == {
        "lines_added": ["- TIMEOUT=30"], "lines_dropped": ["- TIMEOUT = 30"]
    }  # fmt: skip


def test_a_lesson_from_a_write_or_an_edit_keeps_its_content() -> None:
    log = ClaudeLog()
    log.call("Write", {"file_path": "/home/dev/shop/.env", "content": "STRIPE_KEY=sk_live_1\n"},
             "File created successfully")  # fmt: skip
    log.user("Don't ever write live keys into .env, use the vault")
    log.call(
        "MultiEdit",
        {
            "file_path": "/home/dev/shop/db.py",
            "edits": [
                {"old_string": "conn.commit()", "new_string": ""},
                {"old_string": "def save(x):", "new_string": "def save(x, commit=False):"},
            ],
        },
        "ok",
    )
    log.user("that's wrong: save must still commit")
    first, second = lessons(claude_steps(log.lines()))
    assert first.question == "Write /home/dev/shop/.env: + STRIPE_KEY=sk_live_1"
    assert second.question == (
        "MultiEdit /home/dev/shop/db.py: - conn.commit() / - def save(x): / + def save(x,"
        " commit=False):"
    )
    assert second.answer == "that's wrong: save must still commit"
    assert second.learned_from["failing"]["input"]["edits"][0]["old_string"] == "conn.commit()"


def test_generic_error_text_makes_no_two_failures_alike() -> None:
    log = ClaudeLog()
    log.bash("npm test", "> shop@1.0.0 test\n> jest\n\nFAIL src/cart.test.ts\n  ● adds tax\n\n"
             "    TypeError: Cannot read properties of undefined (reading 'rate')\n"
             "npm ERR! code ELIFECYCLE\nnpm ERR! errno 1", 1)  # fmt: skip
    log.call("Edit", {"file_path": "/home/dev/shop/src/tax.ts", "old_string": "rates.rate",
                      "new_string": "rates?.rate ?? 0"}, "ok")  # fmt: skip
    log.bash(
        "npm test",
        "> shop@1.0.0 test\n> jest\n\nFAIL src/order.test.ts\n"
        "    Error: connect ECONNREFUSED 127.0.0.1:5432\nnpm ERR! code ELIFECYCLE",
        1,
    )
    log.bash("docker compose up -d db", "Container shop-db-1  Started")
    log.bash("npm test", "Tests: 42 passed, 42 total")
    fixes = [f for f in lessons(claude_steps(log.lines())) if f.rule == "fix"]
    assert [f.question for f in fixes] == [
        "`npm test` failed: TypeError: Cannot read properties of undefined (reading 'rate')",
        "`npm test` failed: Error: connect ECONNREFUSED 127.0.0.1:5432",
    ]
    # Each names what addressed it: the edit after the first, the database after the second.
    assert fixes[0].answer == "it passed after: Edit /home/dev/shop/src/tax.ts: - rates.rate /"\
        " + rates?.rate ?? 0"  # fmt: skip
    assert fixes[1].answer == "it passed after: Bash docker compose up -d db"
    assert len({f.signature for f in fixes}) == 2
    assert all("exit code" not in f.signature for f in fixes)


def test_the_informative_line_of_an_output() -> None:
    assert informative_error("Exit code 1\nnpm ERR! code ELIFECYCLE\nnpm ERR! errno 1") == ""
    assert informative_error(
        "Exit code 1\nTraceback (most recent call last):\n  File \"m.py\", line 3, in <module>\n"
        "ModuleNotFoundError: No module named 'requests'"
    ) == "ModuleNotFoundError: No module named 'requests'"  # fmt: skip
    assert (
        informative_error(
            "Exit code 2\nmake: *** [Makefile:12: test] Error 1\ncc: fatal error: no input files"
        )
        == "cc: fatal error: no input files"
    )
    assert (
        informative_error("Exit code 1\n===== 1 failed in 0.2s =====\nwarning: x") == "warning: x"
    )


def test_a_failure_never_fixed_is_a_lesson_without_a_fix() -> None:
    log = ClaudeLog()
    log.bash("terraform -chdir=envs/prod apply -auto-approve", "Error: Error acquiring the state"
             " lock\n\nLock Info:\n  ID: 8c1e", 1)  # fmt: skip
    log.bash("grep -r STATE_BUCKET envs/", "", 1)  # a probe finding nothing: no mistake
    log.bash("./scripts/deploy.sh", "", 1)  # nothing said but the exit code: nothing to learn
    log.bash("echo done", "done")
    (failure,) = lessons(claude_steps(log.lines()))
    assert failure.rule == "failure"
    assert failure.question == (
        "`terraform -chdir=envs/prod apply -auto-approve` failed: Error: Error acquiring the"
        " state lock"
    )
    assert failure.learned_from["fix"] is None
    assert failure.learned_from["failing"]["input"]["command"].startswith("terraform")


def test_a_success_with_no_failure_before_it_teaches_nothing() -> None:
    log = ClaudeLog()
    log.user("add a test for the cart")
    log.call("Read", {"file_path": "/home/dev/shop/src/cart.ts"}, "export function total() {}")
    log.call("Write", {"file_path": "/home/dev/shop/src/cart.test.ts", "content": "test()"}, "ok")
    log.bash("npm test -- cart", "Tests: 1 passed")
    log.user("great, now commit it")
    log.bash("git commit -am 'cart test'", "[main 1a2b3c] cart test")
    assert lessons(claude_steps(log.lines())) == []


CORRECTIONS = [
    "Wait, no! That's the production database.",
    "no, don't touch the lock file",
    "Stop. Use pnpm here, not npm.",
    "that's wrong, the settings live in config/base.py",
    "Actually, use `uv pip install` for this project",
    "never do a force push to main",
    "Don't ever commit the .env file",
    "I told you to run the migrations first",
    "not like that - edit the template, not the generated file",
    "please revert that change",
    "hold on, why did you delete the fixtures?",
    "Nope. The staging cluster, please.",
    "Hmm, you shouldn't have bumped the major version",
    "ok, but use the existing helper instead",
    "Undo that, the old query was right",
]
NOT_CORRECTIONS = [
    "great, now add a test for the cart",
    "looks good",
    "no problem, carry on",
    "Now run the linter and fix what it finds",
    "what does this function do?",
    "No, that's fine, keep going",
    "Never mind, carry on",
]


@pytest.mark.parametrize("words", CORRECTIONS)
def test_corrections_in_many_phrasings_keep_the_users_words(words: str) -> None:
    log = ClaudeLog()
    log.bash("psql $DATABASE_URL -c 'DELETE FROM carts'", "DELETE 1203")
    log.user(words)
    (lesson,) = lessons(claude_steps(log.lines()))
    assert lesson.rule == "correction"
    assert lesson.question == "Bash psql $DATABASE_URL -c 'DELETE FROM carts'"
    assert lesson.answer == words
    assert lesson.learned_from["correction"] == words


@pytest.mark.parametrize("words", NOT_CORRECTIONS)
def test_other_messages_are_not_corrections(words: str) -> None:
    assert not is_correction(words)


def test_a_refused_call_and_the_users_words_after_it() -> None:
    log = ClaudeLog()
    log.user("clean up the branch")
    log.call(
        "Bash",
        {"command": "git reset --hard origin/main"},
        "The user doesn't want to proceed with this tool use. The tool use was rejected"
        " (eg. if it was a file edit, the new_string was NOT written to the file). STOP what"
        " you are doing and wait for the user to tell you how to proceed.",
        error=True,
    )
    log._row("user", {"role": "user", "content": [
        {"type": "text", "text": "[Request interrupted by user for tool use]"}]})  # fmt: skip
    log.user("<command-name>/model</command-name>", isMeta=True)
    log.user("no, use git revert: others pulled these commits")
    (lesson,) = lessons(claude_steps(log.lines()))  # a refusal is not a failure
    assert (lesson.rule, lesson.question) == ("correction", "Bash git reset --hard origin/main")
    assert lesson.answer == "no, use git revert: others pulled these commits"


def test_a_correction_belongs_to_the_call_just_made() -> None:
    log = ClaudeLog()
    log.bash("rm -rf node_modules", "")
    log.user("thanks. Now explain the build")
    log.user("no, shorter")  # no call since the user last spoke: nothing to attach it to
    assert lessons(claude_steps(log.lines())) == []


def _edit(log: ClaudeLog, path: str, old: str, new: str) -> str:
    return log.call("Edit", {"file_path": path, "old_string": old, "new_string": new},
                    f"The file {path} has been updated.")  # fmt: skip


def test_a_check_that_caught_an_edit_teaches_about_the_edit() -> None:
    log = ClaudeLog()
    path = "/home/dev/shop/src/Program.cs"
    log.call("Read", {"file_path": path}, "     1\tvar app = builder.Build();")
    build = "var app = builder.Build();"
    _edit(log, path, build, f"builder.Services.AddSingleton<ShopDbContext>();\n{build}")
    log.bash("dotnet test", "Build succeeded.\nFailed Orders.Handles_request [12 ms]\n"
             "System.InvalidOperationException: Cannot consume scoped service 'ShopDbContext'"
             " from singleton (src/Program.cs:14)", 1)  # fmt: skip
    _edit(log, path, "builder.Services.AddSingleton<ShopDbContext>();",
          "builder.Services.AddScoped<ShopDbContext>();")  # fmt: skip
    log.bash("dotnet test", "Passed! - Failed: 0, Passed: 4")
    (fix,) = lessons(claude_steps(log.lines()))
    # The edit is the mistake, the check's error its consequence, the later edit the fix.
    assert fix.question == (
        f"Edit {path} adding `builder.Services.AddSingleton<ShopDbContext>();` broke `dotnet"
        " test`: System.InvalidOperationException: Cannot consume scoped service"
        " 'ShopDbContext' from singleton (src/Program.cs:14)"
    )
    assert fix.answer == (
        f"it passed after: Edit {path}: - builder.Services.AddSingleton<ShopDbContext>(); /"
        " + builder.Services.AddScoped<ShopDbContext>();"
    )
    learned = fix.learned_from
    assert learned["failing"]["tool"] == "Edit"
    assert "AddSingleton" in learned["failing"]["input"]["new_string"]
    assert learned["fix"]["input"]["new_string"] == "builder.Services.AddScoped<ShopDbContext>();"
    assert learned["check"]["input"]["command"] == "dotnet test"
    assert "Cannot consume" in learned["check"]["output"]


def test_a_check_that_failed_with_no_edit_before_it_keeps_the_old_rule() -> None:
    log = ClaudeLog()
    path = "/home/dev/shop/app/tax.py"
    log.bash("pytest -q", "FAILED tests/test_tax.py::test_rate - KeyError: 'rate'", 1)
    _edit(log, path, "rates['rate']", "rates.get('rate', 0)")
    log.bash("pytest -q", "4 passed")
    (fix,) = lessons(claude_steps(log.lines()))
    assert fix.question == "`pytest -q` failed: FAILED tests/test_tax.py::test_rate - KeyError:"\
        " 'rate'"  # fmt: skip
    assert fix.answer == f"it passed after: Edit {path}: - rates['rate'] / + rates.get('rate', 0)"
    assert fix.learned_from["failing"]["input"]["command"] == "pytest -q"


def test_an_edit_before_a_command_that_does_not_check_keeps_the_old_rule() -> None:
    log = ClaudeLog()
    path = "/home/dev/shop/deploy.sh"
    _edit(log, path, "set -e", "set -eu")
    log.bash("git push origin main", "error: failed to push some refs (hook declined)", 1)
    _edit(log, path, "set -eu", "set -e")
    log.bash("git push origin main", "main -> main")
    (fix,) = lessons(claude_steps(log.lines()))
    assert fix.question.startswith("`git push origin main` failed")


def test_a_fix_that_is_not_an_edit_keeps_the_old_rule() -> None:
    log = ClaudeLog()
    path = "/home/dev/web/src/cart.ts"
    _edit(log, path, "import x from 'lodash'", "import x from 'lodash-es'")
    log.bash("npm run build", "Error: Cannot find module 'lodash-es'", 1)
    log.bash("npm install lodash-es", "added 1 package")
    _edit(log, path, "x.sum", "x.sumBy")
    log.bash("npm run build", "built in 2.1s")
    (fix,) = lessons(claude_steps(log.lines()))
    assert fix.question == "`npm run build` failed: Error: Cannot find module 'lodash-es'"


@pytest.mark.parametrize("named", [True, False])
def test_of_two_edits_the_lesson_names_the_file_the_error_names(named: bool) -> None:
    log = ClaudeLog()
    handler, router = "/home/dev/api/internal/orders/handler.go", "/home/dev/api/cmd/router.go"
    _edit(log, handler, "return nil", "return ctx.Err()")
    _edit(log, router, 'r.Get("/orders", h.List)', 'r.Get("/orders", h.Lists)')
    where = "internal/orders/handler.go:18" if named else "orders_test.go:9"
    log.bash("go test ./...", f"--- FAIL: TestList (0.01s)\n    {where}: context canceled", 1)
    _edit(log, handler, "return ctx.Err()", "return nil")
    _edit(log, router, 'r.Get("/orders", h.Lists)', 'r.Get("/orders", h.List)')
    log.bash("go test ./...", "ok  	shop/internal/orders	0.02s")
    (fix,) = lessons(claude_steps(log.lines()))
    # The file the error names, else the last edit before the check.
    blamed = handler if named else router
    assert fix.question.startswith(f"Edit {blamed} adding ")
    assert fix.learned_from["failing"]["input"]["file_path"] == blamed
    assert fix.learned_from["fix"]["input"]["file_path"] == blamed
    assert fix.answer.startswith(f"it passed after: Edit {blamed}: ")


@pytest.mark.parametrize(
    ("command", "checks"),
    [("pytest -q", True), ("python -m pytest tests/", True), ("npm test", True),
     ("npm run build", True), ("yarn lint", True), ("npx tsc --noEmit", True),
     ("go vet ./...", True), ("cargo clippy -- -D warnings", True), ("dotnet build", True),
     ("./mvnw -q test", True), ("./gradlew test", True), ("make test", True), ("make", True),
     ("docker build -t app .", True), ("terraform validate", True), ("ruff check .", True),
     ("poetry run mypy src", True), ("actionlint", True), ("cd web && npm test | tail", True),
     ("npm install", False), ("npm ci", False), ("make deploy", False), ("git push", False),
     ("ruff format .", False), ("go mod tidy", False), ("docker run app", False)],
)  # fmt: skip
def test_which_commands_check(command: str, checks: bool) -> None:
    assert is_check(parse_call("Bash", {"command": command})) is checks


def test_another_command_blames_an_edit_only_when_its_output_names_the_file() -> None:
    log = ClaudeLog()
    sql = "/home/dev/shop/migrations/0040_currency.sql"
    _edit(log, sql, "", "ALTER TABLE orders ADD currency text NOT NULL;")
    log.bash("make migrate", "psql:migrations/0040_currency.sql:3: ERROR:  column"
             ' "currency" of relation "orders" contains null values', 1)  # fmt: skip
    _edit(log, sql, "ALTER TABLE orders ADD currency text NOT NULL;",
          "ALTER TABLE orders ADD currency text NOT NULL DEFAULT 'EUR';")  # fmt: skip
    log.bash("make migrate", "ALTER TABLE")
    (fix,) = lessons(claude_steps(log.lines()))
    assert fix.question.startswith(f"Edit {sql} adding `ALTER TABLE orders ADD currency text")
    assert fix.learned_from["fix"]["input"]["new_string"].endswith("DEFAULT 'EUR';")
