"""Which subcommands of the package managers (npm, pnpm, yarn, pip, uv, cargo, go, gem,
brew, apt, conda, dotnet) only read (``effects``, layer 1)."""

from __future__ import annotations

from xdb.engine.calls.programs import same_as

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from xdb.engine.calls.call_structure import Command

__all__ = ["apt_get", "package"]

_VERSION_FLAGS = frozenset(("--version", "-V", "-v", "version", "--help", "-h"))


_PACKAGE_READ = {
    "npm": {"ls", "list", "ll", "la", "view", "v", "info", "show", "outdated", "why",
            "explain", "search", "s", "root", "prefix", "help", "doctor", "fund", "ping",
            "whoami", "query", "sbom"},
    "pnpm": {"ls", "list", "ll", "why", "outdated", "info", "view", "root", "licenses"},
    "yarn": {"list", "why", "info", "outdated"},
    "pip": {"list", "show", "freeze", "check", "search", "help", "index", "debug", "inspect"},
    "cargo": {"tree", "metadata", "search", "pkgid", "verify-project", "locate-project",
              "read-manifest", "help", "version"},
    "go": {"version", "list", "doc", "vet", "help"},
    "gem": {"list", "search", "info", "environment", "contents", "dependency", "specification",
            "which", "query"},
    "brew": {"list", "ls", "info", "search", "outdated", "config", "doctor", "deps", "uses",
             "leaves", "desc", "log"},
    "apt": {"list", "show", "search", "policy", "depends", "rdepends", "madison"},
    "conda": {"list", "info", "search"},
    "uv": {"tree"},
}  # fmt: skip
_PACKAGE_GROUP_READS = {
    "npm": {"config": {"get", "list", "ls"}, "cache": {"ls"}, "pkg": {"get"},
            "dist-tag": {"ls"}, "owner": {"ls"}, "token": {"list"}, "audit": {"signatures"}},
    "pnpm": {"store": {"path", "status"}, "config": {"get", "list"}},
    "yarn": {"config": {"get", "list"}, "workspaces": {"list", "info"}},
    "pip": {"config": {"list", "get", "debug"}, "cache": {"dir", "info", "list"}},
    "uv": {"pip": {"list", "show", "freeze", "tree", "check"}, "python": {"list", "find", "dir"},
           "tool": {"list", "dir"}, "cache": {"dir"}},
    "dotnet": {"list": {"package", "reference"}, "sln": {"list"}, "tool": {"list", "search"},
               "nuget": {"list", "why"}, "workload": {"list", "search"},
               "new": {"list", "search", "details"}, "ef migrations": {"list"},
               "ef dbcontext": {"list", "info"}},
    "conda": {"env": {"list"}},
    "brew": {"services": {"list", "info"}, "bundle": {"check", "list"}},
}  # fmt: skip
# Subcommands whose --dry-run changes nothing.
_PACKAGE_DRY_RUNS = {"npm": {"install", "i", "ci", "uninstall", "update", "publish", "pack",
                             "prune", "dedupe", "audit"},
                     "pnpm": {"publish"}, "pip": {"install"},
                     "cargo": {"publish", "package"}}  # fmt: skip


def package(c: Command) -> bool:
    name = same_as(c.program)
    sub = c.subcommand
    if not sub:
        # yarn alone installs; the others print their help or version
        return name != "yarn" or bool(c.flag_names & _VERSION_FLAGS)
    if name == "npm" and sub[0] in ("audit", "version", "run", "run-script") and len(sub) == 1:
        return not c.args  # npm audit (not fix), npm version (no bump), npm run (lists)
    groups = _PACKAGE_GROUP_READS.get(name, {})
    for size in (2, 1):
        key = " ".join(sub[:size])
        if len(sub) > size and key in groups:
            return sub[size] in groups[key]
    if sub[0] in _PACKAGE_READ.get(name, ()):
        return True
    if name == "go" and sub[0] == "env":
        return not c.flag_names & {"-w", "-u"}  # go env -w writes the go env file
    if name == "go" and sub[:2] in (("mod", "graph"), ("mod", "why"), ("mod", "verify")):
        return True
    if name == "cargo" and sub[0] == "fmt":
        return c.has("--check")
    if name == "conda" and sub[0] == "config":
        return bool(c.flag_names & {"--show", "--get", "--show-sources", "--describe"})
    if name == "brew" and sub[0] == "tap":
        return not c.args
    return sub[0] in _PACKAGE_DRY_RUNS.get(name, ()) and c.has("--dry-run")


def apt_get(c: Command) -> bool:
    return c.has("--simulate") or c.subcommand[:1] in (("check",), ("changelog",))
