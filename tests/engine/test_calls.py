"""The structure of tool calls (issue 33): shell commands split into simple commands with
their programs, subcommands, normalised flags, arguments' kinds and redirections; edits,
writes and patches with their files' kinds and roles and what they add and remove."""

from __future__ import annotations

import json
from typing import Any

import pytest

from xdb.engine.calls import Command, parse_call, parse_event, parse_shell
from xdb.engine.calls.files import file_kind, file_roles
from xdb.engine.calls.kinds import env_of
from xdb.engine.dialects import parse

CWD = "/work/shop"


def commands(line: str) -> tuple[Command, ...]:
    found, complete = parse_shell(line, CWD)
    assert complete, line
    return found


def one(line: str, program: str | None = None) -> Command:
    """The command of ``line`` that runs ``program`` (the only one when None)."""
    found = [c for c in commands(line) if program is None or c.program == program]
    assert len(found) == 1, (line, found)
    return found[0]


# line -> what its (only, or named) command is: program, subcommand, flags {name: value},
# args [(text, kind)], and anything else named.
STRUCTURE: list[tuple[str, dict[str, Any]]] = [
    ("rm -rf build", {"program": "rm", "flags": {"--recursive": None, "--force": None},
                      "args": [("build", "project_path")]}),
    ("rm -r -f build", {"flags": {"--recursive": None, "--force": None}}),
    ("rm --recursive --force build", {"flags": {"--recursive": None, "--force": None}}),
    ("rm -fR /var/lib/app", {"flags": {"--recursive": None, "--force": None},
                             "args": [("/var/lib/app", "outside_path")]}),
    ("sudo rm -rf $DIR/*", {"program": "rm", "wrappers": ("sudo",),
                            "args": [("$DIR/*", "variable")]}),
    ("rm -rf ${BUILD_DIR}", {"args": [("${BUILD_DIR}", "variable")]}),
    ("rm -rf '$DIR'", {"args": [("$DIR", "project_path")]}),  # quoted: a name
    ("rm *.log", {"args": [("*.log", "glob")]}),
    ("rm '*.log'", {"args": [("*.log", "project_path")]}),
    ("rm ../other/file.txt", {"args": [("../other/file.txt", "outside_path")]}),
    ("rm ~/.bashrc", {"args": [("~/.bashrc", "outside_path")]}),
    ("rm /work/shop/tmp/x", {"args": [("/work/shop/tmp/x", "project_path")]}),
    ("git push -f origin main", {"program": "git", "subcommand": ("push",),
                                 "flags": {"--force": None},
                                 "args": [("origin", "word"), ("main", "branch")]}),
    ("git push --force origin feature/login", {"flags": {"--force": None},
                                               "args": [("origin", "word"),
                                                        ("feature/login", "branch")]}),
    ("git push --force-with-lease origin HEAD", {"flags": {"--force-with-lease": None}}),
    ("git stash drop stash@{0}", {"subcommand": ("stash", "drop")}),
    ("git branch -D old", {"subcommand": ("branch",), "flags": {"--delete": None,
                                                                 "--force": None}}),
    ("git -C repo status", {"subcommand": ("status",), "flags": {"-C": "repo"},
                            "global": {"-C"}}),
    ("git --no-pager log -n 5", {"subcommand": ("log",),
                                 "flags": {"--no-pager": None, "--max-count": "5"}}),
    ("git -c user.name=x commit -am wip", {"subcommand": ("commit",),
                                           "flags": {"-c": "user.name=x", "--all": None,
                                                     "--message": "wip"}}),
    ("git checkout -b feature/x", {"flags": {"--branch": "feature/x"}}),
    ("git clean -fdx", {"flags": {"--force": None, "--dirs": None, "--ignored-too": None}}),
    ("git clean -n", {"flags": {"--dry-run": None}}),
    ("git reset --hard HEAD~1", {"subcommand": ("reset",), "flags": {"--hard": None},
                                 "args": [("HEAD~1", "branch")]}),
    ("git diff HEAD -- src/app.py", {"args": [("HEAD", "branch"),
                                              ("src/app.py", "project_path")]}),
    ("git config --global user.email a@b.c", {"subcommand": ("config",),
                                              "flags": {"--global": None}}),
    ("git remote add origin git@github.com:acme/shop.git",
     {"subcommand": ("remote", "add"), "args": [("origin", "word"),
                                                ("git@github.com:acme/shop.git", "url")]}),
    ("kubectl rollout restart deploy/api -n prod",
     {"program": "kubectl", "subcommand": ("rollout", "restart"),
      "flags": {"--namespace": "prod"}, "args": [("deploy/api", "word")]}),
    ("kubectl -n prod get pods", {"subcommand": ("get",), "flags": {"--namespace": "prod"},
                                  "global": {"--namespace"}, "args": [("pods", "word")]}),
    ("kubectl --namespace=staging delete pod x", {"flags": {"--namespace": "staging"}}),
    ("kubectl --context prod-eu get pods -oyaml", {"flags": {"--context": "prod-eu",
                                                             "--output": "yaml"}}),
    ("kubectl delete pod x --dry-run=client", {"flags": {"--dry-run": "client"}}),
    ("kubectl delete pod x --dry-run", {"flags": {"--dry-run": None},
                                        "args": [("pod", "word"), ("x", "word")]}),
    ("kubectl config set-context --current --namespace=x",
     {"subcommand": ("config", "set-context")}),
    ("helm upgrade api ./chart -n prod --atomic -f values-prod.yaml",
     {"subcommand": ("upgrade",), "flags": {"--namespace": "prod", "--atomic": None,
                                            "--values": "values-prod.yaml"},
      "args": [("api", "word"), ("./chart", "project_path")]}),
    ("helm -n x list", {"subcommand": ("list",), "flags": {"--namespace": "x"}}),
    ("helm repo add bitnami https://charts.bitnami.com/bitnami",
     {"subcommand": ("repo", "add"), "args": [("bitnami", "word"),
                                              ("https://charts.bitnami.com/bitnami", "url")]}),
    ("terraform -chdir=envs/prod destroy -auto-approve",
     {"program": "terraform", "subcommand": ("destroy",),
      "flags": {"-chdir": "envs/prod", "-auto-approve": None}, "global": {"-chdir"}}),
    ("terraform apply -var 'region=eu' -target=module.db",
     {"subcommand": ("apply",), "flags": {"-var": "region=eu", "-target": "module.db"}}),
    ("terraform state rm aws_instance.web", {"subcommand": ("state", "rm")}),
    ("tofu plan -out=tf.plan", {"program": "tofu", "subcommand": ("plan",),
                                "flags": {"-out": "tf.plan"}}),
    ("docker --context prod rm -f web", {"subcommand": ("rm",), "flags": {"--context": "prod",
                                                                           "--force": None}}),
    ("docker compose -f docker-compose.prod.yml up -d",
     {"subcommand": ("compose", "up"), "flags": {"--file": "docker-compose.prod.yml",
                                                 "-d": None}}),
    ("docker run -it --rm -p 8080:80 -v $(pwd):/app nginx",
     {"program": "docker", "subcommand": ("run",),
      "flags": {"--interactive": None, "--tty": None, "--rm": None, "--publish": "8080:80",
                "--volume": "$(pwd):/app"}, "args": [("nginx", "word")]}),
    ("docker image prune -af", {"subcommand": ("image", "prune"),
                                "flags": {"--all": None, "--force": None}}),
    ("npm install -D typescript", {"subcommand": ("install",), "flags": {"--save-dev": None}}),
    ("npm cache clean --force", {"subcommand": ("cache", "clean"), "flags": {"--force": None}}),
    ("pip install -r requirements.txt -U", {"subcommand": ("install",),
                                            "flags": {"--requirement": "requirements.txt",
                                                      "--upgrade": None}}),
    ("python -m pip install requests==2.31", {"program": "pip", "wrappers": ("python -m",),
                                              "subcommand": ("install",)}),
    ("python3 -m pytest -x tests", {"program": "pytest", "wrappers": ("python3 -m",)}),
    ("rsync -avz --delete src/ user@host:/srv/app",
     {"flags": {"--archive": None, "--verbose": None, "--compress": None, "--delete": None},
      "args": [("src/", "project_path"), ("user@host:/srv/app", "url")]}),
    ("rsync -an --delete a/ b/", {"flags": {"--archive": None, "--dry-run": None,
                                            "--delete": None}}),
    ("sed -i.bak 's/foo/bar/g' config.ini",
     {"flags": {"--in-place": ".bak"}, "args": [("s/foo/bar/g", "word"),
                                                ("config.ini", "project_path")]}),
    ("sed -n -e '1,5p' f", {"flags": {"--quiet": None, "--expression": "1,5p"}}),
    ("chmod -R 755 scripts", {"flags": {"--recursive": None},
                              "args": [("755", "number"), ("scripts", "project_path")]}),
    ("chmod -x run.sh", {"flags": {}, "args": [("-x", "word"), ("run.sh", "project_path")]}),
    ("curl -sSL -X POST -d @body.json https://api.example.com/v1",
     {"flags": {"--silent": None, "--show-error": None, "--location": None,
                "--request": "POST", "--data": "@body.json"},
      "args": [("https://api.example.com/v1", "url")]}),
    ("tar -czvf backup.tgz data", {"flags": {"--create": None, "--gzip": None,
                                             "--verbose": None, "--file": "backup.tgz"}}),
    ("tar xzf a.tgz -C /opt", {"flags": {"--extract": None, "--gzip": None,
                                         "--file": "a.tgz", "--directory": "/opt"}}),
    ("systemctl --user restart api.service", {"subcommand": ("restart",),
                                              "flags": {"--user": None}}),
    ("head -n 20 log.txt", {"flags": {"--lines": "20"}}),
    ("grep -rn TODO src", {"flags": {"--recursive": None, "--line-number": None},
                           "args": [("TODO", "word"), ("src", "project_path")]}),
    ("find . -name '*.pyc' -delete", {"program": "find", "flags": {"-name": "*.pyc",
                                                                   "-delete": None},
                                      "args": [(".", "project_path")]}),
    ("aws s3 rm s3://bucket/key --recursive", {"subcommand": ("s3", "rm"),
                                               "args": [("s3://bucket/key", "url")]}),
    ("dotnet ef database update --context ShopDb", {"subcommand": ("ef", "database", "update"),
                                                    "flags": {"--context": "ShopDb"}}),
    ("DEBUG=1 env LANG=C npm test", {"program": "npm", "assignments": ("DEBUG=1", "LANG=C"),
                                     "wrappers": ("env",)}),
    ("nohup time nice -n 5 make build", {"program": "make", "wrappers": ("nohup", "time",
                                                                         "nice")}),
    ("timeout 30s kubectl get pods", {"program": "kubectl", "wrappers": ("timeout",)}),
    ("psql -c 'DELETE FROM users' prod", {"program": "psql", "args": [("prod", "env")],
                                          "flags": {"--command": "DELETE FROM users"}}),
    ("deploy.sh --env production 3", {"program": "deploy.sh",
                                      "flags": {"--env": None},
                                      "args": [("production", "env"), ("3", "number")]}),
]  # fmt: skip


@pytest.mark.parametrize(("line", "expected"), STRUCTURE, ids=[s[0] for s in STRUCTURE])
def test_structure(line: str, expected: dict[str, Any]) -> None:
    command = one(line, expected.get("program"))
    if "subcommand" in expected:
        assert command.subcommand == expected["subcommand"]
    if "flags" in expected:
        assert {f.name: f.value for f in command.flags} == expected["flags"]
    if "global" in expected:
        assert {f.name for f in command.flags if f.is_global} == expected["global"]
    if "args" in expected:
        assert [(a.text, a.kind) for a in command.args] == expected["args"]
    for key in ("wrappers", "assignments"):
        if key in expected:
            assert getattr(command, key) == expected[key]


def test_the_structure_table_is_broad() -> None:
    programs = {one(line, e.get("program")).program for line, e in STRUCTURE}
    assert len(STRUCTURE) >= 70
    assert {"rm", "git", "kubectl", "helm", "terraform", "docker", "npm", "pip", "rsync",
            "find", "sed", "chmod", "curl", "tar", "systemctl"} <= programs  # fmt: skip


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("git status && git stash drop", [("git", "", ()), ("git", "&&", ())]),
        ("make || echo failed", [("make", "", ()), ("echo", "||", ())]),
        ("ls; rm x", [("ls", "", ()), ("rm", ";", ())]),
        ("cat a | grep b | wc -l", [("cat", "", ()), ("grep", "|", ()), ("wc", "|", ())]),
        ("(cd build && make install)", [("cd", "", ("subshell",)), ("make", "&&", ("subshell",))]),
        ("echo $(git rev-parse HEAD)", [("git", "", ("substitution",)), ("echo", "", ())]),
        ("echo `date`", [("date", "", ("substitution",)), ("echo", "", ())]),
        ('echo "$(rm -rf x)"', [("rm", "", ("substitution",)), ("echo", "", ())]),
        (
            "diff <(sort a) <(sort b)",
            [("sort", "", ("substitution",)), ("sort", "", ("substitution",)), ("diff", "", ())],
        ),
        (
            "bash -c 'cd /srv && rm -rf cache'",
            [("cd", "", ("shell -c",)), ("rm", "&&", ("shell -c",))],
        ),
        ('sudo sh -c "echo 1 > /proc/sys/x"', [("echo", "", ("shell -c",))]),
        ("bash -euxc 'terraform destroy'", [("terraform", "", ("shell -c",))]),
        ('eval "kubectl delete ns $NS"', [("kubectl", "", ("eval",))]),
        (
            "find . -name '*.tmp' -exec rm -f {} \\;",
            [("find", "", ()), ("rm", "", ("find -exec",))],
        ),
        ("ls *.log | xargs -n1 rm", [("ls", "", ()), ("rm", "|", ("xargs",))]),
        (
            "ssh deploy@prod 'sudo systemctl restart api'",
            [("ssh", "", ()), ("systemctl", "", ("ssh",))],
        ),
        ("nohup ./server &\nsleep 1", [("server", "", ()), ("sleep", ";", ())]),
        ("if [ -f x ]; then rm x; fi", [("[", "", ()), ("rm", ";", ())]),
        ("for f in *.py; do black $f; done", [("black", ";", ())]),
        ("[[ -f a && -f b ]] && cat a", [("[[", "", ()), ("cat", "&&", ())]),
        ("X=$(kubectl get pods -o name)", [("kubectl", "", ("substitution",)), ("", "", ())]),
        ("# a comment\nls # trailing", [("ls", ";", ())]),
        ("ls \\\n  -la", [("ls", "", ())]),
    ],
)
def test_splitting(line: str, expected: list[tuple[str, str, tuple[str, ...]]]) -> None:
    assert [(c.program, c.op, c.via) for c in commands(line)] == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("echo hi > out.txt", [(">", "", "out.txt", True)]),
        ("echo hi >> out.txt", [(">>", "", "out.txt", True)]),
        ("make &> build.log", [("&>", "", "build.log", True)]),
        ("ls 2>&1", [(">&", "2", "1", False)]),
        ("ls 2>/dev/null", [(">", "2", "/dev/null", False)]),
        ("ls >& all.log", [(">&", "", "all.log", True)]),
        ("sort < in.txt", [("<", "", "in.txt", False)]),
        (
            "cat <<'EOF' > config.yaml\na: 1\nEOF",
            [("<<", "", "EOF", False), (">", "", "config.yaml", True)],
        ),
        ("> empty.txt", [(">", "", "empty.txt", True)]),
    ],
)
def test_redirections(line: str, expected: list[tuple[str, str, str, bool]]) -> None:
    (command,) = commands(line)
    assert [(r.op, r.fd, r.target, r.writes) for r in command.redirects] == expected


def test_a_here_document_is_input_not_commands() -> None:
    (command,) = commands("kubectl apply -f - <<EOF\nkind: Namespace\nrm -rf /\nEOF")
    assert command.program == "kubectl"
    assert command.redirects[0].body == "kind: Namespace\nrm -rf /"


def test_a_bash_c_scripts_commands_keep_the_shells_wrappers_and_redirections() -> None:
    (command,) = commands("sudo bash -c 'apt-get install -y nginx' > log.txt")
    assert command.program == "apt-get"
    assert command.wrappers == ("sudo",)
    assert command.writes_file


def test_an_unclosed_quote_is_incomplete() -> None:
    assert parse_shell("echo 'unclosed", CWD)[1] is False
    assert parse_shell('echo "$(ls', CWD)[1] is False
    assert parse_shell("echo `ls", CWD)[1] is False


def test_environments_named_anywhere() -> None:
    assert one("kubectl --context prod-eu -n payments get pods").envs == ("production",)
    assert one("terraform -chdir=envs/staging apply").envs == ("staging",)
    assert one("ls /dev/null").envs == ()
    assert [env_of(t) for t in ("appsettings.Production.json", "values-dev.yaml", "test",
                                "tests/test_x.py", "qa")] == [
        "production", "development", "test", None, "test"]  # fmt: skip


def test_has_and_value() -> None:
    command = one("kubectl -n prod delete pod x --grace-period=0 --force")
    assert command.has("--force") and not command.has("--dry-run")
    assert command.value("--namespace") == "prod"
    assert command.value("--grace-period") == "0"
    assert command.flag_names == {"--namespace", "--grace-period", "--force"}


# Edits, writes and patches.


@pytest.mark.parametrize(
    ("path", "kind", "roles"),
    [
        ("src/app/models.py", "python", ("source",)),
        ("web/src/App.tsx", "typescript", ("source",)),
        ("cmd/server/main.go", "go", ("source",)),
        ("src/lib.rs", "rust", ("source",)),
        ("src/main/java/App.java", "java", ("source",)),
        ("Shop/Startup.cs", "csharp", ("source",)),
        ("package-lock.json", "json", ("lock",)),
        ("yarn.lock", "lock", ("lock",)),
        ("poetry.lock", "lock", ("lock",)),
        ("Cargo.lock", "lock", ("lock",)),
        ("go.sum", "gomod", ("lock",)),
        ("api/gen/user.pb.go", "go", ("generated",)),
        ("proto/user_pb2.py", "python", ("generated",)),
        ("dist/bundle.min.js", "javascript", ("generated",)),
        ("db/migrations/0042_add_index.sql", "sql", ("migration",)),
        ("alembic/versions/3f2a_add_users.py", "python", ("migration",)),
        ("Shop/Migrations/20240101_Init.cs", "csharp", ("migration",)),
        ("db/migrate/20240101_create_users.rb", "ruby", ("migration",)),
        (".env", "dotenv", ("secrets",)),
        (".env.production", "dotenv", ("secrets", "config")),
        (".env.example", "dotenv", ("config",)),
        ("certs/server.key", "other", ("secrets",)),
        ("k8s/prod/secrets.yaml", "yaml", ("secrets", "infrastructure")),
        (".github/workflows/deploy.yml", "yaml", ("ci",)),
        (".gitlab-ci.yml", "yaml", ("ci",)),
        ("Jenkinsfile", "groovy", ("ci",)),
        ("envs/prod/main.tf", "terraform", ("infrastructure",)),
        ("k8s/deployment.yaml", "yaml", ("infrastructure",)),
        ("charts/api/values-prod.yaml", "yaml", ("infrastructure",)),
        ("Dockerfile", "dockerfile", ("infrastructure",)),
        ("docker-compose.prod.yml", "yaml", ("infrastructure",)),
        ("tests/test_api.py", "python", ("test",)),
        ("web/src/App.test.tsx", "typescript", ("test",)),
        ("pkg/store/store_test.go", "go", ("test",)),
        ("pyproject.toml", "toml", ("config",)),
        ("tsconfig.json", "json", ("config",)),
        ("config/settings.yaml", "yaml", ("config",)),
        ("appsettings.Production.json", "json", ("config",)),
        ("docs/engine.md", "markdown", ("docs",)),
        ("scripts/deploy.sh", "shell", ("source",)),
    ],
)
def test_file_kind_and_roles(path: str, kind: str, roles: tuple[str, ...]) -> None:
    assert (file_kind(path), file_roles(path)) == (kind, roles)


def test_an_edit_adds_and_removes() -> None:
    call = parse_call(
        "Edit",
        {"file_path": "/work/shop/Startup.cs",
         "old_string": "services.AddSingleton<ShopDbContext>();\n// keep",
         "new_string": "services.AddDbContext<ShopDbContext>(o => o.UseNpgsql(cs));\n// keep"},
        CWD,
    )  # fmt: skip
    assert call.kind == "edit"
    (change,) = call.files
    assert (change.path, change.kind, change.role, change.op) == (
        "/work/shop/Startup.cs", "csharp", "source", "edit")  # fmt: skip
    assert change.in_project is True
    assert change.added == ("services.AddDbContext<ShopDbContext>(o => o.UseNpgsql(cs));",)
    assert change.removed == ("services.AddSingleton<ShopDbContext>();",)
    assert change.added_tokens == ("AddDbContext", "o", "UseNpgsql", "cs")
    assert change.removed_tokens == ("AddSingleton",)


def test_what_a_fix_drops_is_seen() -> None:
    (change,) = parse_call(
        "replace",  # Gemini CLI
        {"file_path": "app/db.py", "old_string": "run(cmd, shell=True)",
         "new_string": "run(cmd, shell=True, check=True)"},
    ).files  # fmt: skip
    assert change.added_tokens == ("check",)
    assert change.removed_tokens == ()


def test_a_multiedit_joins_its_edits() -> None:
    (change,) = parse_call(
        "MultiEdit",
        {"file_path": "helm/values-prod.yaml",
         "edits": [{"old_string": "replicas: 3", "new_string": "replicas: 1"},
                   {"old_string": "limits: {}", "new_string": "limits: {cpu: 1}"}]},
    ).files  # fmt: skip
    assert change.roles == ("infrastructure",)
    assert change.env == "production"
    assert change.added == ("replicas: 1", "limits: {cpu: 1}")
    assert change.removed == ("replicas: 3", "limits: {}")


def test_a_write_adds_its_content() -> None:
    call = parse_call("Write", {"file_path": "/etc/nginx/nginx.conf", "content": "a\n\nb\n"}, CWD)
    (change,) = call.files
    assert (call.kind, change.op, change.added, change.in_project) == (
        "write", "write", ("a", "b"), False)  # fmt: skip
    (change,) = parse_call("write_file", {"file_path": ".env", "content": "KEY=1"}).files
    assert change.role == "secrets"


def test_a_codex_patch() -> None:
    patch = (
        "*** Begin Patch\n"
        "*** Update File: src/app.py\n"
        "@@ def main():\n"
        "-    run(cmd)\n"
        "+    run(cmd, check=True)\n"
        "*** Add File: db/migrations/0002_users.sql\n"
        "+CREATE TABLE users (id int);\n"
        "*** Delete File: old.txt\n"
        "*** Update File: a.py\n"
        "*** Move to: b.py\n"
        "*** End Patch"
    )
    for call in (
        parse_call("apply_patch", {"input": patch}, CWD),
        parse_call("shell", {"command": ["apply_patch", patch]}, CWD),
        parse_call("shell", {"command": f"apply_patch <<'EOF'\n{patch}\nEOF"}, CWD),
    ):
        files = [(f.path, f.op, f.role) for f in call.files]
        assert files == [("src/app.py", "edit", "source"),
                         ("db/migrations/0002_users.sql", "create", "migration"),
                         ("old.txt", "delete", "source"), ("a.py", "move", "source")]  # fmt: skip
        assert call.files[0].added_tokens == ("check", "True")
        assert call.files[3].new_path == "b.py"


def test_a_unified_diff() -> None:
    diff = "--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-let a = 1\n+const a = 1\n"
    (change,) = parse_call("apply_patch", {"patch": diff}).files
    assert (change.path, change.kind, change.added_tokens) == ("src/x.ts", "typescript",
                                                               ("const",))  # fmt: skip


def test_calls_from_hook_events() -> None:
    payload = {"session_id": "s", "cwd": "/work/shop", "tool_name": "Bash",
               "tool_input": {"command": "git push -f origin main"}}  # fmt: skip
    event = parse("claude", "pre-tool-use", json.dumps(payload))
    call = parse_event(event)
    assert (call.kind, call.programs, call.commands[0].has("--force")) == ("shell", ("git",), True)
    codex = parse("codex", "pre-tool-use", '{"session_id": "s", "tool_name": "shell", '
                  '"tool_input": {"command": ["bash", "-lc", "rm -rf dist"]}}')  # fmt: skip
    assert parse_event(codex).commands[0].program == "rm"
    assert parse_call("Read", {"file_path": "a.py"}).kind == "read"
    assert parse_call("mcp__github__create_issue", {"title": "x"}).kind == "other"
