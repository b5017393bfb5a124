"""The edit behind a failing check, for ``xdb.engine.extract``'s failure-then-fix rule.

A check (a test runner, a build, a linter, a type checker, a compiler, a dry run) that fails
and passes again after edits says little about itself: the mistake was the change it
caught. When a command failed and only edits and writes (and reads) came before it passed
again, an edit made before the failure is the mistake and the later edits of its file (else
all the later edits) the fix. A check blames the edit whose file its output names, else one
of a file edited again after the failure, else the latest; any other command (``make
migrate``, ``npm ci``) only an edit whose file its output names.

Which commands check is decided by program and subcommand (or the target a task runner or
package manager is given), as ``xdb.engine.calls`` parses them, written from what the tools
are for: no benchmark transcript was consulted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from xdb.engine.calls import Command, ToolCall
from xdb.engine.calls.programs import same_as
from xdb.engine.transcripts import Step

__all__ = ["Blamed", "blamed_edit", "is_check"]

# Programs that only check, whatever their arguments.
_CHECKERS = frozenset((
    "pytest", "py.test", "tox", "nox", "unittest", "py_compile", "compileall", "mypy", "pyright",
    "flake8", "pylint", "pyflakes", "bandit", "jest", "vitest", "mocha", "karma", "ava", "tap",
    "playwright", "cypress", "tsc", "vue-tsc", "eslint", "stylelint", "biome", "oxlint", "rspec",
    "rubocop", "phpunit", "phpstan", "psalm", "pest", "actionlint", "shellcheck", "hadolint",
    "yamllint", "tflint", "checkov", "golangci-lint", "staticcheck", "gcc", "g++", "clang",
    "clang++", "cc", "c++", "javac", "kotlinc", "rustc", "swiftc", "scalac", "ctest", "ktlint",
    "detekt", "checkstyle", "markdownlint", "htmlhint", "sqlfluff", "kubeval", "kubeconform",
    "cfn-lint", "ansible-lint", "xcodebuild", "msbuild",
))  # fmt: skip
# Programs whose subcommand (or first word) says whether they check.
_SUBCOMMANDS: dict[str, frozenset[str]] = {
    "go": frozenset(("test", "build", "vet")),
    "cargo": frozenset(("test", "build", "check", "clippy", "nextest", "bench")),
    "dotnet": frozenset(("test", "build", "msbuild")),
    "swift": frozenset(("test", "build")),
    "mix": frozenset(("test", "compile", "credo", "dialyzer")),
    "deno": frozenset(("test", "check", "lint")),
    "zig": frozenset(("test", "build")),
    "bazel": frozenset(("test", "build")),
    "stack": frozenset(("test", "build")),
    "cabal": frozenset(("test", "build")),
    "docker": frozenset(("build", "buildx")),
    "terraform": frozenset(("validate", "plan")),
    "helm": frozenset(("lint", "template")),
    "ruff": frozenset(("check",)),
    "cmake": frozenset(("--build",)),
    "php": frozenset(("-l",)),
    "dart": frozenset(("test", "analyze", "compile")),
    "flutter": frozenset(("test", "analyze", "build")),
}
# Package managers that run the project's scripts (``npm test``, ``yarn run lint``), task
# runners given targets (``make test``; make alone builds), and build tools given phases.
_SCRIPTS = frozenset(("npm", "yarn", "pnpm", "bun"))
_TASKS = frozenset(("make", "gmake", "just", "task", "ninja", "rake", "invoke", "mvn", "mvnw",
                    "gradle", "gradlew", "sbt", "lein", "ant", "nx", "turbo", "lerna"))  # fmt: skip
# Runners that run another program given next (``poetry run mypy``, ``bundle exec rspec``).
_RUN = {"uv": "run", "poetry": "run", "pipenv": "run", "hatch": "run", "pdm": "run",
        "rye": "run", "bundle": "exec", "npx": "", "pnpx": "", "bunx": ""}  # fmt: skip
# A script's or target's name that checks: test, test:unit, lint-ci, typecheck, build ...
_CHECK_NAME = re.compile(
    r"(?i)^(test|spec|e2e|build|compile|lint|check|typecheck|type-check|types|tsc|vet|verify"
    r"|validate|clippy)s?\b"
)
# Flags that make a command only check what it would do.
_CHECK_FLAGS = frozenset(("--dry-run", "--check", "-check", "--noEmit", "--validate"))


def _words(command: Command) -> list[str]:
    return [*command.subcommand, *(a.text for a in command.args)]


def _checks(program: str, words: Sequence[str], flags: frozenset[str]) -> bool:
    program = same_as(program)
    first = words[0] if words else ""
    if program in _CHECKERS or flags & _CHECK_FLAGS:
        return True
    if program in _SUBCOMMANDS:
        return first in _SUBCOMMANDS[program] or bool(flags & _SUBCOMMANDS[program])
    if program in _SCRIPTS:
        script = words[1] if first in ("run", "run-script") and len(words) > 1 else first
        return bool(_CHECK_NAME.match(script))
    if program in _TASKS:
        targets = [w for w in words if "=" not in w]
        return not targets or any(_CHECK_NAME.match(t) for t in targets)
    if program in _RUN and (not _RUN[program] or first == _RUN[program]):
        rest = list(words[1:] if _RUN[program] else words)
        return bool(rest) and _checks(rest[0], rest[1:], flags)
    return False


def is_check(call: ToolCall | None) -> bool:
    """Whether a shell call runs a check: a test runner, build, linter, type checker,
    compiler or dry run."""
    if call is None or call.kind != "shell":
        return False
    return any(c.program and _checks(c.program, _words(c), c.flag_names) for c in call.commands)


@dataclass
class Blamed:
    edit: Step  # the edit the check caught
    fixes: list[Step]  # the later edits of its file, before the check passed


def _file(call: ToolCall | None) -> str:
    """The file an edit or write changes ("" for any other call)."""
    if call is None or call.kind not in ("edit", "write", "patch") or not call.files:
        return ""
    return call.files[0].path


def _named(path: str, output: str) -> bool:
    """Whether an output names the file: its path, or a tail of it from its file name."""
    parts = path.replace("\\", "/").split("/")
    return any("/".join(parts[-n:]) in output for n in range(min(len(parts), 3), 0, -1)
               if parts[-1])  # fmt: skip


def blamed_edit(
    before: Sequence[Step],
    after: Sequence[Step],
    output: str,
    parsed: dict[str, ToolCall | None],
    failed: set[str],
    check: bool,
) -> Blamed | None:
    """The edit a failing command caught and its fix: ``before``, the steps from the
    command's last pass (or its previous failure) to the failing run; ``after``, those from
    the failure to the run that passed; ``failed``, the ids of calls that failed (an edit
    that did not apply changed nothing); ``check``: whether the command checks (then any
    edit may be blamed; else only one whose file its output names). None when anything but
    edits, reads and probes ran in between, or nothing was edited after."""
    changed: list[Step] = []
    for step in after:
        if step.kind != "call" or step.call_id in failed:
            continue
        call = parsed.get(step.call_id)
        if _file(call):
            changed.append(step)
        elif call is None or call.kind not in ("read", "shell") or _runs(call):
            return None  # something else was done: the fix may be it, not an edit
    fixed = {_file(parsed.get(s.call_id)) for s in changed}
    made = [s for s in before if s.kind == "call" and s.call_id not in failed
            and _file(parsed.get(s.call_id))]  # fmt: skip
    named = {s.call_id for s in made if _named(_file(parsed.get(s.call_id)), output)}
    if not changed or not (made if check else named):
        return None
    # (ties to the latest: max keeps the first of equals, so look from the end)
    edit = max(reversed(made), key=lambda s: (s.call_id in named,
                                              _file(parsed.get(s.call_id)) in fixed))  # fmt: skip
    path = _file(parsed.get(edit.call_id))
    same = [s for s in changed if _file(parsed.get(s.call_id)) == path]
    return Blamed(edit, same or changed)


# Shell programs that change nothing (reading, looking): allowed between a failure and its
# fix without taking the fix's place.
_LOOKS = frozenset(("grep", "rg", "ag", "ack", "ls", "cat", "head", "tail", "less", "more",
                    "find", "diff", "git", "wc", "file", "stat", "tree", "pwd", "echo", "which",
                    "type", "cd", "sed", "awk", "jq", "sort", "uniq", "cut", "nl"))  # fmt: skip
_GIT_LOOKS = frozenset(("status", "diff", "log", "show", "blame", "grep", "ls-files"))


def _runs(call: ToolCall) -> bool:
    """Whether a shell call does more than look (a ``sed -i`` edits, a ``git checkout``
    changes files): then it, not an edit, may be the fix."""
    for c in call.commands:
        if not c.program:
            continue
        if c.program not in _LOOKS or c.writes_file or c.has("--in-place", "-i"):
            return True
        if c.program == "git" and (c.subcommand[:1] or ("",))[0] not in _GIT_LOOKS:
            return True
    return False
