"""What an edit, write or patch changes (``model.FileChange``): the file's path, its kind
(language or format, by extension or name) and roles (lock file, generated file,
migration, secrets, CI config, infrastructure, test, config, docs, source), and the lines
and tokens the change adds and removes.

Tool inputs read: Claude Code's Edit (``file_path``, ``old_string``, ``new_string``),
MultiEdit (``edits``), Write (``content``), NotebookEdit (``notebook_path``,
``new_source``); Gemini CLI's ``replace`` and ``write_file``; the Codex CLI's
``apply_patch`` (``*** Begin Patch`` ... ``*** End Patch``, as its input or inside a shell
command) and a unified diff. Nothing is read from disk: the change is what the call says.
"""

from __future__ import annotations

import posixpath
import re

from xdb.engine.calls.call_structure import FileChange
from xdb.engine.calls.kinds import env_of, path_inside

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["file_changes", "file_kind", "file_roles", "patch_changes"]

EDIT_TOOLS = frozenset(("edit", "multiedit", "replace", "notebookedit", "str_replace_editor",
                        "str_replace_based_edit_tool", "edit_file"))  # fmt: skip
WRITE_TOOLS = frozenset(("write", "write_file", "create_file"))
PATCH_TOOLS = frozenset(("apply_patch", "applypatch", "patch"))
_PATH_KEYS = ("file_path", "path", "absolute_path", "notebook_path", "filename")

_EXTENSIONS = {
    "python": "py pyi pyw", "notebook": "ipynb", "typescript": "ts tsx mts cts",
    "javascript": "js jsx mjs cjs", "go": "go", "rust": "rs", "java": "java",
    "kotlin": "kt kts", "csharp": "cs csx", "fsharp": "fs fsx", "msbuild": "csproj fsproj"
    " vbproj sln props targets", "ruby": "rb rake gemspec", "php": "php", "swift": "swift",
    "c": "c h", "cpp": "cpp cc cxx hpp hh hxx", "scala": "scala", "elixir": "ex exs",
    "dart": "dart", "lua": "lua", "r": "r", "julia": "jl", "sql": "sql", "yaml": "yml yaml",
    "json": "json jsonc json5", "toml": "toml", "xml": "xml xsd xsl plist", "ini": "ini cfg"
    " conf properties", "shell": "sh bash zsh ksh fish", "powershell": "ps1 psm1",
    "markdown": "md markdown mdx", "rst": "rst", "text": "txt", "html": "html htm",
    "css": "css scss sass less", "vue": "vue", "svelte": "svelte", "terraform": "tf tfvars hcl",
    "protobuf": "proto", "graphql": "graphql gql", "gradle": "gradle", "dockerfile":
    "dockerfile", "makefile": "mk", "groovy": "groovy", "nix": "nix", "dotenv": "env",
}  # fmt: skip
_KIND_OF_EXT = {ext: kind for kind, exts in _EXTENSIONS.items() for ext in exts.split()}
_KIND_OF_NAME = {
    "dockerfile": "dockerfile", "containerfile": "dockerfile", "makefile": "makefile",
    "gnumakefile": "makefile", "jenkinsfile": "groovy", "gemfile": "ruby", "rakefile": "ruby",
    "vagrantfile": "ruby", "go.mod": "gomod", "go.sum": "gomod", "yarn.lock": "lock",
    "cmakelists.txt": "cmake", "pipfile": "toml", "procfile": "text", ".env": "dotenv",
    "bun.lockb": "lock",
}  # fmt: skip
_LOCKS = frozenset((
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb",
    "bun.lock", "poetry.lock", "pipfile.lock", "uv.lock", "cargo.lock", "go.sum",
    "composer.lock", "gemfile.lock", "packages.lock.json", "flake.lock", "mix.lock",
    "pubspec.lock", "podfile.lock", ".terraform.lock.hcl", "pdm.lock", "conan.lock",
))  # fmt: skip
_SECRET_NAMES = frozenset((
    ".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "credentials", "credentials.json",
    ".npmrc", ".pypirc", ".netrc", ".htpasswd", "kubeconfig", ".dockercfg", "secrets.json",
    "secrets.yaml", "secrets.yml", "secrets.toml", "secret.yaml", "secret.yml",
    "service-account.json", "token.json", ".git-credentials",
))  # fmt: skip
_SECRET_EXTENSIONS = frozenset(("pem", "key", "p12", "pfx", "jks", "keystore", "asc", "gpg"))
_ENV_TEMPLATES = (".example", ".sample", ".template", ".dist", ".defaults")
_GENERATED_DIRS = frozenset(("node_modules", "dist", "build", "out", "target", "vendor",
                             "__generated__", "generated", ".next", ".nuxt", "__pycache__",
                             "obj", "bin", "gen", ".terraform", "coverage"))  # fmt: skip
_GENERATED = re.compile(
    r"(_pb2(_grpc)?\.pyi?|\.pb\.(go|cc|h)|\.g\.(cs|dart)|\.designer\.cs|\.generated\.\w+"
    r"|_generated\.go|^zz_generated.*\.go|\.gen\.\w+|\.min\.(js|css)|\.map|\.pyc"
    r"|modelsnapshot\.cs)$"
)
_MIGRATION_DIRS = frozenset(("migrations", "migration", "migrate", "alembic", "flyway",
                             "liquibase", "versions", "changelogs"))  # fmt: skip
_MIGRATION_NAME = re.compile(r"^v\d+(_\d+)*__\w+\.sql$|^\d{3,}[_-]\w+\.(sql|py|rb|js|ts|go)$")
_CI = re.compile(
    r"(^|/)(\.github/(workflows|actions)/|\.gitlab-ci|\.circleci/|jenkinsfile$|azure-pipelines"
    r"|\.travis\.yml$|bitbucket-pipelines\.yml$|\.buildkite/|\.drone\.yml$|appveyor\.yml$"
    r"|\.woodpecker|cloudbuild\.ya?ml$|buildspec\.ya?ml$|\.github/dependabot\.ya?ml$)"
)
_INFRA_DIRS = frozenset(("terraform", "k8s", "kubernetes", "kube", "manifests", "helm",
                         "charts", "kustomize", "overlays", "deploy", "deployment",
                         "deployments", "infra", "infrastructure", "ansible", "pulumi",
                         "environments", "envs", "argocd", "flux"))  # fmt: skip
_INFRA_NAMES = re.compile(
    r"^(chart\.ya?ml|values([.-][\w.-]+)?\.ya?ml|kustomization\.ya?ml|dockerfile(\..+)?"
    r"|containerfile|(docker-)?compose([.-][\w.-]+)?\.ya?ml|pulumi(\.[\w-]+)?\.ya?ml"
    r"|serverless\.ya?ml|vagrantfile|procfile|fly\.toml|.+\.dockerfile|.+\.nomad|nginx\.conf"
    r"|skaffold\.ya?ml|helmfile\.ya?ml|terragrunt\.hcl)$"
)
_TEST_DIRS = frozenset(("tests", "test", "__tests__", "spec", "specs", "testing", "e2e",
                        "cypress", "playwright", "testdata", "fixtures"))  # fmt: skip
_TEST_NAMES = re.compile(
    r"^(test_.+\.py|.+_test\.(py|go|rs|exs|dart)|.+\.(test|spec)\.[jt]sx?|.+tests?\.(java|cs"
    r"|kt|swift|scala)|.+_spec\.rb|conftest\.py|.+\.bats)$"
)
_CONFIG_NAMES = re.compile(
    r"^(pyproject\.toml|setup\.(cfg|py)|tox\.ini|pytest\.ini|mypy\.ini|package\.json"
    r"|tsconfig.*\.json|\.eslintrc.*|\.prettierrc.*|.+\.config\.[cm]?[jt]s|babel\.config.*"
    r"|appsettings.*\.json|web\.config|app\.config|settings\.py|cargo\.toml|go\.mod|gemfile"
    r"|requirements.*\.txt|pipfile|directory\.build\.(props|targets)|nuget\.config"
    r"|\.editorconfig|\.git(ignore|attributes)|\.dockerignore|\.pre-commit-config\.ya?ml"
    r"|makefile|\.env\..+|.+\.csproj|.+\.sln|\.npmrc|\.nvmrc|\.python-version|ruff\.toml"
    r"|\.flake8|\.pylintrc|jest\.config.*|vite\.config.*|webpack\.config.*|renovate\.json)$"
)
_CONFIG_DIRS = frozenset(("config", "configs", "conf", "settings", ".vscode", ".idea"))
_CONFIG_KINDS = frozenset(("yaml", "json", "toml", "ini", "xml", "dotenv"))
_TOKEN = re.compile(r"--?[A-Za-z][\w-]*|[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d+)?")
_PATCH_FILE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+)$")


def file_kind(path: str) -> str:
    """The file's language or format ("other" when neither its name nor its extension
    says)."""
    name = posixpath.basename(path).lower()
    if name in _KIND_OF_NAME:
        return _KIND_OF_NAME[name]
    if name.startswith(".env"):
        return "dotenv"
    if name.startswith(("dockerfile.", "containerfile.")):
        return "dockerfile"
    ext = name.rsplit(".", 1)[-1] if "." in name.lstrip(".") else ""
    if ext == "lock":
        return "lock"
    return _KIND_OF_EXT.get(ext, "other")


def file_roles(path: str) -> tuple[str, ...]:
    """What the file is for, most specific first ("source" when nothing else)."""
    lowered = path.lower().replace("\\", "/")
    name = posixpath.basename(lowered)
    dirs = set(lowered.split("/")[:-1])
    ext = name.rsplit(".", 1)[-1] if "." in name else ""
    kind = file_kind(lowered)
    roles: list[str] = []
    template = name.endswith(_ENV_TEMPLATES)
    if not template and (
        name in _SECRET_NAMES or name.startswith(".env.") or ext in _SECRET_EXTENSIONS
        or "secrets" in dirs or name.startswith(("secret.", "secrets.", "credentials."))
    ):  # fmt: skip
        roles.append("secrets")
    if name in _LOCKS or ext == "lock":
        roles.append("lock")
    if dirs & _GENERATED_DIRS or _GENERATED.search(name):
        roles.append("generated")
    if (dirs & _MIGRATION_DIRS and kind not in ("markdown", "text")) or _MIGRATION_NAME.match(name):
        roles.append("migration")
    if _CI.search(lowered):
        roles.append("ci")
    if kind == "terraform" or _INFRA_NAMES.match(name) or (
        dirs & _INFRA_DIRS and kind in ("yaml", "json", "terraform", "toml", "shell", "other")
    ):  # fmt: skip
        roles.append("infrastructure")
    if dirs & _TEST_DIRS or _TEST_NAMES.match(name):
        roles.append("test")
    if _CONFIG_NAMES.match(name) or (
        kind in _CONFIG_KINDS and (dirs & _CONFIG_DIRS or not roles)
    ):  # fmt: skip
        roles.append("config")
    if kind in ("markdown", "rst") or (kind == "text" and "docs" in dirs):
        roles.append("docs")
    return tuple(roles) or ("source",)


def file_changes(
    tool: str, tool_input: Mapping[str, Any], cwd: str | None = None
) -> tuple[FileChange, ...]:
    """The files an edit, write or patch tool call changes (() for any other call)."""
    name = tool.lower()
    path = next((v for k in _PATH_KEYS if isinstance(v := tool_input.get(k), str) and v), "")
    if name in PATCH_TOOLS or (not path and name not in EDIT_TOOLS | WRITE_TOOLS):
        text = next((v for k in ("input", "patch", "command", "content")
                     if isinstance(v := tool_input.get(k), str)), "")  # fmt: skip
        found = patch_changes(text, cwd) if text else ()
        if found or not path or name not in PATCH_TOOLS:
            return found
        # A patch tool given an edit's fields (a path, old and new strings), as some
        # hook payloads carry it: read it as the edit it is.
        name = "edit"
    if not path:
        return ()
    if name in WRITE_TOOLS:
        content = tool_input.get("content")
        return (_change(path, "write", "", content if isinstance(content, str) else "", cwd),)
    if name == "notebookedit":
        source = tool_input.get("new_source")
        return (_change(path, "notebook", "", source if isinstance(source, str) else "", cwd),)
    if name in EDIT_TOOLS:
        edits = tool_input.get("edits")
        pairs = edits if isinstance(edits, list) else [tool_input]
        old = "\n".join(_str(e.get("old_string", e.get("old_str"))) for e in pairs
                        if isinstance(e, dict))  # fmt: skip
        new = "\n".join(_str(e.get("new_string", e.get("new_str"))) for e in pairs
                        if isinstance(e, dict))  # fmt: skip
        return (_change(path, "edit", old, new, cwd),)
    return ()


def patch_changes(text: str, cwd: str | None = None) -> tuple[FileChange, ...]:
    """The files a Codex ``apply_patch`` patch (or a unified diff) changes."""
    if "*** Begin Patch" not in text and "\n+++ " not in f"\n{text}":
        return ()
    out: list[FileChange] = []
    path, op, new_path = "", "", None
    added: list[str] = []
    removed: list[str] = []

    def close() -> None:
        if path:
            out.append(_change(path, op, "\n".join(removed), "\n".join(added), cwd, new_path,
                               diffed=True))  # fmt: skip

    for line in text.split("\n"):
        header = _PATCH_FILE.match(line)
        if header or line.startswith("+++ "):
            close()
            added, removed, new_path = [], [], None
            if header:
                op = {"Add": "create", "Update": "edit", "Delete": "delete"}[header.group(1)]
                path = header.group(2).strip()
            else:
                op, path = "edit", line[4:].strip().split("\t")[0]
                path = path[2:] if path.startswith(("a/", "b/")) else path
                if path == "/dev/null":
                    path = ""
        elif line.startswith("*** Move to: "):
            op, new_path = "move", line[len("*** Move to: ") :].strip()
        elif line.startswith("--- ") or line.startswith("***") or line.startswith("@@"):
            continue
        elif line.startswith("+"):
            added.append(line[1:])
        elif line.startswith("-"):
            removed.append(line[1:])
    close()
    return tuple(out)


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _change(
    path: str,
    op: str,
    old: str,
    new: str,
    cwd: str | None,
    new_path: str | None = None,
    diffed: bool = False,
) -> FileChange:
    """A FileChange from the text before and after (``diffed``: they are already the
    removed and added lines)."""
    old_lines = [s for line in old.split("\n") if (s := line.strip())]
    new_lines = [s for line in new.split("\n") if (s := line.strip())]
    if diffed:
        added, removed = new_lines, old_lines
    else:
        added, removed = _minus(new_lines, old_lines), _minus(old_lines, new_lines)
    new_tokens = dict.fromkeys(_TOKEN.findall("\n".join(added)))
    old_tokens = dict.fromkeys(_TOKEN.findall("\n".join(removed)))
    return FileChange(
        path=path,
        op=op,
        kind=file_kind(path),
        roles=file_roles(path),
        added=tuple(added),
        removed=tuple(removed),
        added_tokens=tuple(t for t in new_tokens if t not in old_tokens),
        removed_tokens=tuple(t for t in old_tokens if t not in new_tokens),
        in_project=path_inside(path, cwd) if (cwd or not path.startswith("/")) else None,
        env=env_of(path),
        new_path=new_path,
    )


def _minus(lines: list[str], other: list[str]) -> list[str]:
    """``lines`` less those ``other`` has (each as many times as it has it)."""
    counts: dict[str, int] = {}
    for line in other:
        counts[line] = counts.get(line, 0) + 1
    out = []
    for line in lines:
        if counts.get(line, 0):
            counts[line] -= 1
        else:
            out.append(line)
    return out
