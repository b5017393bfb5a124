"""The development set's figures for lessons EXTRACTED from transcripts (issue 33's "the same
figures for lessons extracted from transcripts"):

    python -m bench.engine_cv_extracted [--folds 5] [--seed 33] [--filler 60]
                                        [--embedder default|hash] [--families a,b,...]
                                        [--correct-every 3] [--per-family]

For each family a Claude Code session transcript is written (JSONL, the rows Claude Code writes,
as ``tests/engine/transcript_logs.ClaudeLog`` builds them) in the folder Claude Code keeps them
in (``$CLAUDE_CONFIG_DIR/projects/<project>/<session>.jsonl``), then read by ``engine.extract``
as the stop hook asks for it (agent, session, the project's cwd, the transcript's path). The
lessons it stores are the family's; no lesson is added by hand. The store is then scored by
``bench.engine_cv`` unchanged (probes, judge, folds, ``tune``).

A session, by the family's failing call:

- a shell command: the user asks for the task; the agent runs the failing command; Claude Code
  answers ``Exit code 1`` and an error line of that program (a protected branch, a permission
  denied, a state lock ...); the agent runs the fix, which passes;
- an edit or write: the user asks; the agent reads the file (an edit), makes the failing change
  (the tool succeeds: editing does not fail), runs the project's check (pytest, go test, tsc,
  dotnet test, docker build ...), which fails with ``Exit code 1`` and a line naming the file;
  the agent makes the fix and the check passes;
- every ``--correct-every``-th family instead: the failing call succeeds and the user corrects
  the agent in words (one of several phrasings, the lesson's answer in them); the agent then
  makes the fix.

The lessons are what a user would get: their questions and answers are the extraction's, not the
family's. A family yields no lesson when extraction finds none (or only one it deems known).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shlex
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from tests.engine.transcript_logs import ClaudeLog

from bench.engine_cv import ONLY_HELP, _cwd, only_grid, per_family, report, run
from bench.engine_devset import DEVSET, kind_of
from bench.engine_families import Call, Family

CORRECT_EVERY = 3
# How a user stops an agent, each with the lesson's answer in its words.
CORRECTIONS = (
    "Wait, no! {answer}.",
    "No, don't do that. {answer}.",
    "Stop. {answer}.",
    "That's wrong: {answer}.",
    "Actually, {answer}.",
    "I told you before: {answer}.",
    "Please revert that. {answer}.",
    "Hmm, not like that. {answer}.",
)
# The error line of a failing command, by "program subcommand" then program ({arg}: its
# first argument). Written per program, as each says it.
SHELL_ERRORS = {
    "git push": "remote: error: GH006: Protected branch update failed for refs/heads/{arg}.",
    "git clean": "warning: failed to remove .venv/lib/python3.12: Permission denied",
    "git reset": "error: unable to unlink old 'config/local.yml': Permission denied",
    "git commit": "fatal: cannot lock ref 'HEAD': Unable to create '.git/HEAD.lock': File exists.",
    "git add": "error: 'vendor/acme-sdk/' does not have a commit checked out",
    "git": "fatal: {sub} failed",
    "kubectl": 'Error from server (Forbidden): User "dev" cannot {sub} resource in namespace'
    ' "default"',
    "helm": "Error: UPGRADE FAILED: context deadline exceeded",
    "terraform": "Error: Error acquiring the state lock: ConditionalCheckFailedException",
    "rsync": "rsync error: some files/attrs were not transferred (see previous errors) (code 23)"
    " at main.c(1338) [sender=3.2.7]",
    "rm": "rm: cannot remove '/usr/lib': Permission denied",
    "find": "find: './.git/objects/pack': Permission denied",
    "sed": "sed: couldn't edit ./assets/logo.png: not a regular file",
    "chmod": "chmod: changing permissions of '/var/www/uploads/.htaccess': Operation not permitted",
    "curl": "sh: 12: [[: not found",
    "crontab": "crontab: no crontab for deploy",
    "systemctl": "Job for nginx.service failed because the control process exited with error code.",
    "docker": "Error response from daemon: a prune operation is already running",
    "yarn": 'error An unexpected error occurred: "https://registry.yarnpkg.com/react:'
    ' ESOCKETTIMEDOUT".',
    "pip": "ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied:"
    " '/usr/lib/python3/dist-packages/requests'",
    "poetry": "Because no versions of pytest match >8.3,<9.0 version solving failed.",
    "cargo": "error: failed to publish to registry at https://crates.io",
    "go": "go: golang.org/x/net@v0.30.0 requires go >= 1.23 (running go 1.22.5)",
    "make": "make: *** [Makefile:42: install] Error 1",
    "psql": "ERROR:  permission denied for table sessions",
    "mysqldump": "mysqldump: Got error: 1044: Access denied for user 'root'@'localhost' to"
    " database 'shop' when using LOCK TABLES",
    "aws": "delete failed: An error occurred (AccessDenied) when calling the DeleteObject"
    " operation: Access Denied",
    "gcloud": "ERROR: (gcloud.run.deploy) PERMISSION_DENIED: Permission 'run.services.get'"
    " denied on resource",
    "az": "(ScopeLocked) The scope cannot perform delete operation because following scope(s)"
    " are locked",
    "ansible-playbook": 'fatal: [web3]: UNREACHABLE! => {{"changed": false, "msg": "Failed to'
    ' connect to the host via ssh"}}',
    "redis-cli": "(error) NOAUTH Authentication required.",
    "ssh": "sudo: a terminal is required to read the password",
    "npm": "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree",
}
_SKIP = {"sudo", "cd", "&&", "||", ";", "env", "time", "nohup"}


def _program(command: str) -> tuple[str, str, str]:
    """The command's program, subcommand and first argument (past cd, sudo, assignments)."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = command.split()
    rest, skip_next = [], False
    for word in words:
        if skip_next:
            skip_next = False
        elif word == "cd":
            skip_next = True
        elif word not in _SKIP and not re.match(r"^\w+=", word):
            rest.append(word)
    rest += ["", "", ""]
    positional = [w for w in rest[1:] if not w.startswith("-")] + ["", ""]
    return rest[0], positional[0], positional[1]


def shell_error(command: str) -> str:
    program, sub, arg = _program(command)
    program = {"pip3": "pip", "python3": "pip"}.get(program, program)
    line = SHELL_ERRORS.get(f"{program} {sub}") or SHELL_ERRORS.get(program)
    return (line or f"{program}: error: {sub or 'command'} failed").format(sub=sub, arg=arg)


def _check(path: str, text: str) -> tuple[str, str]:
    """The project's check an agent runs after changing ``path`` to hold ``text``, and how
    it fails there (naming the first symbol written, as checkers do)."""
    project = "/".join(path.split("/")[:3])
    rel = path[len(project) + 1 :] if path.startswith(project + "/") else path
    name = Path(path).name
    stem = re.sub(r"\W", "_", name.split(".")[0]) or "config"
    folder = Path(rel).parent.name or "app"
    symbol = next(iter(re.findall(r"[A-Za-z_]\w{3,}", text)), stem)
    if "/.github/workflows/" in path:
        return "actionlint", f'{rel}:14:9: workflow check failed at "{symbol}" [expression]'
    if name == "Dockerfile":
        return "docker build -t app .", (
            f'ERROR: failed to solve: process "/bin/sh -c {symbol}" did not complete'
            f" successfully: exit code: 1 ({rel})"
        )
    if name.endswith(".pb.go"):
        return "go build ./...", f"{rel}:12:2: undefined: file_orders_v1_{stem}_proto_init"
    if name == "package-lock.json":
        return "npm ci", (
            "npm ERR! `npm ci` can only install packages when your package.json and"
            " package-lock.json are in sync"
        )
    if name.startswith(".env"):
        return "npm run build", f"Error: build failed: {rel} was read into the client bundle"
    suffix = Path(name).suffix
    if suffix == ".py":
        return "pytest -q", (
            f"FAILED tests/{folder}/test_{stem}.py::test_{stem} - AssertionError:"
            f" {rel}:12 in {symbol}"
        )
    if suffix in (".ts", ".tsx"):
        return "npm test", f"FAIL {rel} > {symbol} > Error: expect(received).toEqual(expected)"
    if suffix == ".go":
        return (
            "go test ./...",
            f"--- FAIL: Test{stem.title()} (0.01s) {rel}:18: {symbol}: unexpected error",
        )
    if suffix == ".rs":
        return "cargo test", f"thread '{stem}::tests' panicked at {rel}:42:10: {symbol} failed"
    if suffix == ".cs":
        return "dotnet test", (
            f"Failed {stem}Tests.Handles_request [12 ms] Error Message:"
            f" System.InvalidOperationException ({rel}, {symbol})"
        )
    if suffix == ".java" or "/src/main/" in path:
        return (
            "./mvnw -q test",
            f"[ERROR] Tests run: 4, Failures: 1 in com.acme.{stem}Test ({rel}, {symbol})",
        )
    if suffix == ".sql":
        return (
            "make migrate",
            f'psql:{rel}:3: ERROR:  relation "{stem}" violates the migration near {symbol}',
        )
    if suffix in (".yml", ".yaml"):
        return f"kubectl apply --dry-run=server -f {rel}", (
            f'Error from server (Invalid): error when creating "{rel}": spec is invalid at {symbol}'
        )
    return "make check", f"{rel}: error: check failed"


def _edited(call: Call) -> str:
    path = call["tool_input"]["file_path"]
    if call["tool_name"] == "Write":
        return f"File created successfully at: {path}"
    return f"The file {path} has been updated. Here's the result of running `cat -n` on a snippet."


def _make(log: ClaudeLog, call: Call, output: str = "") -> None:
    """A call that succeeds, with Claude Code's answer."""
    if call["tool_name"] == "Bash":
        log.bash(call["tool_input"]["command"], output or "done")
    else:
        log.call(call["tool_name"], dict(call["tool_input"]), _edited(call))


def transcript(family: Family, correct: bool, phrasing: int = 0) -> ClaudeLog:
    """The session in which the family's lesson is learned (see the module's doc)."""
    assert family.failing is not None
    failing, fix = family.failing, family.fix
    log = ClaudeLog(cwd=_cwd(family))
    log.user(f"Please take care of this ({family.topic or 'the project'}): {family.name}.")
    kind = kind_of(failing)
    if kind == "edit":
        path = failing["tool_input"]["file_path"]
        log.call("Read", {"file_path": path}, f"     1\t# {Path(path).name}\n     2\t")
    if correct:
        _make(log, failing)
        answer = family.lesson["answer"].rstrip(".")
        log.user(CORRECTIONS[phrasing % len(CORRECTIONS)].format(answer=answer))
        _make(log, fix)
    elif kind == "shell":
        command = failing["tool_input"]["command"]
        log.bash(command, shell_error(command), code=1)
        _make(log, fix)
    else:
        data = failing["tool_input"]
        check, error = _check(data["file_path"], data.get("new_string") or data["content"])
        _make(log, failing)
        log.bash(check, error, code=1)
        _make(log, fix)
        log.bash(check, "all checks passed")
    return log


@contextlib.contextmanager
def _claude_home(folder: Path) -> Iterator[Path]:
    """Claude Code's folder (``CLAUDE_CONFIG_DIR``) in ``folder``, for the stop hook's read."""
    before = os.environ.get("CLAUDE_CONFIG_DIR")
    os.environ["CLAUDE_CONFIG_DIR"] = str(folder)
    try:
        yield folder / "projects"
    finally:
        if before is None:
            os.environ.pop("CLAUDE_CONFIG_DIR", None)
        else:
            os.environ["CLAUDE_CONFIG_DIR"] = before


class Extracted:
    """A ``Teach`` for ``bench.engine_cv``: each family's lessons from its transcript, stored
    by ``engine.extract`` as the stop hook asks for it. ``yielded``: the lessons by family."""

    def __init__(self, folder: Path, correct_every: int = CORRECT_EVERY):
        self.folder = folder
        self.correct_every = correct_every
        self.yielded: dict[str, list[dict[str, str]]] = {}
        self.corrected: set[str] = set()
        self.crashed: dict[str, str] = {}  # families whose extraction raised: why

    def __call__(self, db: Any, families: Sequence[Family]) -> dict[str, str]:
        questions: dict[str, str] = {}
        with _claude_home(self.folder / "claude") as home:
            for n, family in enumerate(families):
                correct = (
                    self.correct_every > 0 and n % self.correct_every == self.correct_every - 1
                )
                if correct:
                    self.corrected.add(family.name)
                cwd = _cwd(family)
                session = f"{n:04d}-{family.name}"
                path = home / cwd.replace("/", "-") / f"{session}.jsonl"
                path.parent.mkdir(parents=True, exist_ok=True)
                log = transcript(family, correct, n // max(1, self.correct_every))
                path.write_text("\n".join(log.lines()) + "\n", encoding="utf-8")
                try:
                    got = db.extract(session_id=session, transcript_path=str(path), cwd=cwd)
                except Exception as exc:  # the stop hook's worker fails: no lesson (a bug)
                    self.crashed[family.name] = f"{type(exc).__name__}: {exc}"
                    self.yielded[family.name] = []
                    continue
                stored = [db.lesson(i).lesson for i in got.lesson_ids]
                self.yielded[family.name] = [
                    {"question": s.question, "answer": s.answer} for s in stored
                ]
                for lesson in stored:
                    questions.setdefault(lesson.question, family.name)
        return questions


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.engine_cv_extracted",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--filler", type=int, default=60)
    parser.add_argument("--embedder", default="default", help="default or hash")
    parser.add_argument("--families", default="", help="comma-separated names (default: all)")
    parser.add_argument("--correct-every", type=int, default=CORRECT_EVERY,
                        help="every Nth family is corrected by the user (0: none)")  # fmt: skip
    parser.add_argument("--per-family", action="store_true")
    parser.add_argument("--lessons", action="store_true", help="print the lessons extracted")
    parser.add_argument("--only", default="", help=ONLY_HELP)
    args = parser.parse_args(argv)
    only_grid(args.only)
    families = [f for f in DEVSET if not args.families or f.name in args.families.split(",")]
    embedder = None if args.embedder == "default" else args.embedder
    with tempfile.TemporaryDirectory() as folder:
        teach = Extracted(Path(folder), args.correct_every)
        got = run(Path(folder), families, args.folds, args.seed, args.filler, embedder, teach)
    yielded = [f.name for f in families if teach.yielded.get(f.name)]
    corrected = [n for n in yielded if n in teach.corrected]
    print(
        f"{len(families)} families ({len(teach.corrected)} corrected by the user),"
        f" {sum(map(len, teach.yielded.values()))} lessons extracted; {len(yielded)} families"
        f" yielded one ({len(corrected)} of the corrected); {got['sessions']} sessions in"
        f" {got['seconds']:.1f} s"
    )
    split = (("  corrected by the user", "  failure then fix"), teach.corrected.__contains__)
    report(got, split)
    missing = [f.name for f in families if not teach.yielded.get(f.name)]
    print(f"\nno lesson extracted ({len(missing)}): {', '.join(missing) or '-'}")
    for name, why in teach.crashed.items():
        print(f"  extraction raised on {name}: {why}")
    if args.per_family:
        print("\n".join(per_family(got["in-sample"])))
    if args.lessons:
        for name, found in teach.yielded.items():
            for lesson in found:
                print(f"\n[{name}] Q: {lesson['question']}\n    A: {lesson['answer']}")


if __name__ == "__main__":
    main()
