"""Layer 1, the read-only skip: a table of shell commands (single, chained, piped, in
subshells, redirected) and tool calls, each read-only or not."""

from __future__ import annotations

import subprocess
import sys

import pytest

from xdb.engine.readonly import command_is_read_only, is_read_only

READ_ONLY = [
    "ls",
    "ls -la src/",
    "cat README.md",
    "head -n 20 src/xdb/core.py",
    "tail -f /var/log/syslog",
    "grep -rn 'def compact' src",
    "rg --files | head",
    "find . -name '*.py'",
    "find . -name '*.py' -exec grep -l compact {} \\;",
    "pwd",
    "echo hello",
    "wc -l src/xdb/*.py",
    "git status",
    "git log --oneline -5",
    "git diff HEAD~1 -- src",
    "git show HEAD:README.md",
    "git -C ../other log",
    "git --no-pager diff",
    "git branch",
    "git branch -a",
    "git branch --contains abc123",
    "git tag",
    "git tag -l 'v1.*'",
    "git remote -v",
    "git stash list",
    "git config --get user.name",
    "git blame src/xdb/core.py",
    "docker ps",
    "docker ps -a",
    "docker images",
    "docker logs web",
    "docker compose ps",
    "docker container ls",
    "kubectl get pods -n prod",
    "kubectl describe deployment api",
    "kubectl logs api-123",
    "kubectl config current-context",
    "npm ls",
    "npm view react version",
    "pip list",
    "pip show pydantic",
    "python --version",
    "node -v",
    "go version",
    "cargo tree",
    "dotnet --info",
    "sed -n '1,20p' file.txt",
    "awk '{print $1}' access.log",
    "sort data.txt | uniq -c",
    "ls && git status",
    "git status; git diff",
    "cat a.txt | grep foo | wc -l",
    "ls || echo none",
    "(cd src && ls)",
    "echo $(git rev-parse HEAD)",
    "echo `date`",
    "ls > /dev/null",
    "ls 2>&1 | head",
    "grep foo file 2>/dev/null",
    "FOO=bar env",
    "LC_ALL=C sort names.txt",
    "time ls",
    "timeout 5 cat big.log",
    "find . -type f | xargs grep -l TODO",
    "jq .version package.json",
    "diff -u a.py b.py",
    "make -n",
    "cat <<EOF\nhello\nEOF",
    "ls\ngit status",
]

MUTATING = [
    "rm -rf build",
    "touch x",
    "mkdir out",
    "mv a b",
    "cp a b",
    "echo hi > out.txt",
    "echo hi >> out.txt",
    "ls &> listing.txt",
    "cat a | tee b.txt",
    "git commit -m wip",
    "git push origin main",
    "git checkout -b feature",
    "git branch new-feature",
    "git branch -D old",
    "git tag v1.0",
    "git tag -a v1.0 -m release",
    "git stash",
    "git reset --hard HEAD",
    "git config user.name me",
    "git remote add origin url",
    "docker run -it ubuntu",
    "docker rm web",
    "docker compose up -d",
    "kubectl apply -f deploy.yaml",
    "kubectl delete pod api",
    "npm install",
    "pip install requests",
    "python script.py",
    "node build.js",
    "make",
    "sed -i 's/a/b/' file.txt",
    "sed -i.bak 's/a/b/' file.txt",
    "sort -o out.txt in.txt",
    "find . -name '*.pyc' -delete",
    "find . -exec rm {} \\;",
    "awk 'BEGIN { system(\"rm x\") }'",
    "ls && rm x",
    "git status; git add .",
    "cat a | sh",
    "ls | xargs rm",
    "(cd build && make install)",
    "echo $(rm -rf /tmp/x)",
    "echo `touch x`",
    'echo "$(git push)"',
    "sudo apt-get install foo",
    "some-unknown-tool --flag",
    "./configure",
    "cargo build",
    "go build ./...",
    "dotnet build",
    "terraform apply",
    "echo 'unclosed",
    "curl -o file http://x",
    "wget http://x",
    "chmod +x run.sh",
    "ln -s a b",
    "truncate -s 0 log",
    "dd if=/dev/zero of=disk.img",
]


@pytest.mark.parametrize("command", READ_ONLY)
def test_read_only_commands_skip(command: str) -> None:
    assert command_is_read_only(command), command


@pytest.mark.parametrize("command", MUTATING)
def test_mutating_or_unknown_commands_do_not(command: str) -> None:
    assert not command_is_read_only(command), command


def test_the_table_is_large() -> None:
    assert len(READ_ONLY) + len(MUTATING) >= 60
    assert not set(READ_ONLY) & set(MUTATING)


@pytest.mark.parametrize(
    ("tool", "tool_input", "expected"),
    [
        ("Read", {"file_path": "a.py"}, True),
        ("Grep", {"pattern": "x"}, True),
        ("Glob", {"pattern": "*.py"}, True),
        ("WebFetch", {"url": "https://example.com"}, True),
        ("Edit", {"file_path": "a.py", "old_string": "a", "new_string": "b"}, False),
        ("Write", {"file_path": "a.py", "content": ""}, False),
        ("MultiEdit", {"file_path": "a.py", "edits": []}, False),
        ("Bash", {"command": "git log"}, True),
        ("Bash", {"command": "git push"}, False),
        ("Bash", {}, False),
        ("run_shell_command", {"command": "ls -la"}, True),  # Gemini CLI
        ("read_file", {"absolute_path": "/a.py"}, True),
        ("replace", {"file_path": "/a.py"}, False),
        ("shell", {"command": ["ls", "-la"]}, True),  # Codex passes argv
        ("shell", {"command": ["bash", "-lc", "rm -rf x"]}, False),
        ("mcp__github__create_issue", {}, False),
    ],
)
def test_tool_calls(tool: str, tool_input: dict[str, object], expected: bool) -> None:
    assert is_read_only(tool, tool_input) is expected


def test_it_imports_only_the_standard_library() -> None:
    code = (
        "import sys, importlib.util\n"
        "spec = importlib.util.spec_from_file_location('ro', sys.argv[1])\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "print(sorted(k for k in sys.modules if k.split('.')[0] in"
        " ('xdb', 'pydantic', 'httpx', 'numpy')))"
    )
    from xdb.engine import readonly

    out = subprocess.run(
        [sys.executable, "-S", "-c", code, readonly.__file__],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "[]"
