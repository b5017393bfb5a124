"""Whether a parsed command only reads: each program's subcommands and options that write
or read (layer 1, ``xdb.engine.readonly``, skips a call whose every command reads).

A subcommand that writes is never read-only because its first word looks harmless
(``git stash drop``, ``git remote add``, ``kubectl config set-context``, ``npm cache
clean``, ``docker image prune``, ``helm repo add``); a read is read-only whatever global
options come before it (``git -C repo status``, ``kubectl -n prod get pods``), since the
parser has taken them off. An explicit dry run of a program that has one reads (``git clean
-n``, ``kubectl delete --dry-run=client``, ``helm upgrade --dry-run``, ``rsync -n``, ``make
-n``, ``apt-get -s``, ``npm publish --dry-run``), and so does ``terraform plan`` without
``-out`` (it changes no infrastructure and no state; with ``-out`` it writes the plan file a
later ``apply`` runs). A program not known here writes.
"""

from __future__ import annotations

import re

from xdb.engine.calls.programs import same_as

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Callable

    from xdb.engine.calls.call_structure import Command

__all__ = ["reads"]

# Programs that only read, whatever their options (those that write with some option or
# argument have a rule below).
_PLAIN = frozenset(
    (
        "ls", "ll", "la", "dir", "cat", "head", "tail", "less", "more", "grep", "egrep",
        "fgrep", "rg", "ag", "ack", "pwd", "echo", "printf", "wc", "uniq", "diff", "cmp",
        "comm", "file", "stat", "du", "df", "which", "whereis", "type", "tree", "whoami",
        "id", "groups", "cal", "uname", "ps", "pgrep", "top", "htop", "jq", "cut", "tr",
        "column", "basename", "dirname", "realpath", "readlink", "md5sum", "sha1sum",
        "sha256sum", "sha512sum", "cksum", "nl", "tac", "rev", "od", "xxd", "hexdump",
        "strings", "test", "[", "[[", "true", "false", "sleep", "man", "help", "history",
        "cd", "pushd", "popd", "printenv", "env", "uptime", "free", "lsof", "netstat", "ss",
        "ping", "dig", "nslookup", "host", "whois", "tput", "clear", "set", "export", "alias",
        "unalias", "locale", "seq", "expr", "bc", "fold", "fmt", "paste", "join", "look",
        "zcat", "zgrep", "zless", "bzcat", "xzcat", "lsblk", "findmnt", "nproc", "arch",
        "getconf", "xargs", "command", "exit", "return", "wait", "read", "local", "declare",
        "typeset", "unset", "shift", "shopt", ":", "let", "getent", "who", "w", "lscpu",
        "vmstat", "iostat", "base64", "sha224sum", "sha384sum", "b2sum", "numfmt", "tsort",
        "apt-cache",
    )
)  # fmt: skip
_VERSION_ONLY = frozenset(
    (
        "python", "python3", "node", "deno", "bun", "ruby", "java", "javac", "rustc",
        "gcc", "clang", "tsc", "perl", "php", "rustup", "kotlin", "scala", "swift", "elixir",
    )
)  # fmt: skip
_VERSION_FLAGS = frozenset(("--version", "-V", "-v", "version", "--help", "-h"))


def reads(c: Command) -> bool:
    """Whether the command only reads (its redirections included)."""
    if c.writes_file:
        return False
    if not c.program:
        return True  # only assignments and input redirections
    name = same_as(c.program)
    if name in _PLAIN:
        return True
    rule = _RULES.get(name)
    if rule is not None:
        return rule(c)
    if name in _VERSION_ONLY or name.removeprefix("python").replace(".", "", 1).isdigit():
        return len(c.words) > 1 and all(w in _VERSION_FLAGS for w in c.words[1:])
    return False


def _second(c: Command, reads: set[str] | frozenset[str]) -> bool:
    """A group's subcommand (``git stash list``) reads."""
    return len(c.subcommand) > 1 and c.subcommand[1] in reads


def _package(c: Command) -> bool:
    # The package managers' tables load only when one runs: most calls are not theirs.
    from xdb.engine.calls.packages import package

    return package(c)


def _apt_get(c: Command) -> bool:
    from xdb.engine.calls.packages import apt_get

    return apt_get(c)


_GIT_READ = frozenset(
    (
        "log", "status", "diff", "show", "blame", "rev-parse", "ls-files", "ls-tree",
        "ls-remote", "describe", "shortlog", "grep", "cat-file", "rev-list", "name-rev",
        "merge-base", "whatchanged", "show-ref", "show-branch", "count-objects", "fsck",
        "verify-commit", "verify-tag", "for-each-ref", "help", "version", "var",
        "check-ignore", "check-attr", "cherry", "range-diff", "diff-tree", "diff-files",
        "diff-index", "annotate", "check-ref-format", "check-mailmap", "verify-pack",
        "request-pull", "get-tar-commit-id", "show-index",
    )
)  # fmt: skip
_GIT_DRY_RUNS = frozenset(("clean", "push", "add", "rm", "mv", "fetch"))
_BRANCH_CHANGES = frozenset(("--delete", "--move", "--copy", "--force", "--set-upstream-to",
                             "--unset-upstream", "--edit-description", "--track", "--no-track",
                             "--annotate", "--sign", "--message", "--file", "--local-user",
                             "-u", "--create-reflog"))  # fmt: skip
_BRANCH_LISTS = frozenset(("--list", "--all", "--remotes", "--contains", "--no-contains",
                           "--merged", "--no-merged", "--show-current", "--points-at",
                           "--verbose", "--lines", "--format", "--sort", "--column"))  # fmt: skip
_CONFIG_WRITES = frozenset(("--unset", "--unset-all", "--add", "--replace-all",
                            "--rename-section", "--remove-section", "--edit"))  # fmt: skip
_CONFIG_READS = frozenset(("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list",
                           "--get-color", "--get-colorbool"))  # fmt: skip


def _git(c: Command) -> bool:
    sub, flags = c.subcommand, c.flag_names
    if not sub:
        return True  # git --version, git --help
    head = sub[0]
    if head in _GIT_READ:
        return "--output" not in flags  # git diff/log --output=FILE writes it
    if head in _GIT_DRY_RUNS and "--dry-run" in flags:
        return True
    if head in ("branch", "tag"):
        # Listing (no names, or a listing option) reads; creating, deleting, moving writes.
        if flags & _BRANCH_CHANGES:
            return False
        return not c.args or bool(flags & _BRANCH_LISTS)
    if head == "remote":
        return _second(c, {"show", "get-url"}) or (len(sub) == 1 and not c.args)
    if head == "stash":
        return _second(c, {"list", "show"})
    if head == "reflog":
        return len(sub) == 1 or _second(c, {"show", "exists", "list"})
    if head == "config":
        if len(sub) > 1:
            return sub[1] in ("get", "list")
        if flags & _CONFIG_WRITES:
            return False
        return bool(flags & _CONFIG_READS) or len(c.args) <= 1  # a name alone reads it
    if head in ("worktree", "notes", "submodule"):
        return (len(sub) == 1 and not c.args and head != "worktree") or _second(
            c, {"list", "show", "status", "summary"}
        )
    if head == "lfs":
        return _second(c, {"ls-files", "status", "env", "version", "logs"})
    if head == "bisect":
        return _second(c, {"log", "view", "visualize"})
    if head == "apply":
        return bool(flags & {"--check", "--stat", "--numstat", "--summary"}) and (
            "--apply" not in flags
        )
    if head == "symbolic-ref":
        return len(c.args) <= 1 and not flags & {"--delete", "-d"}
    return False


_DOCKER_READ = frozenset(("ps", "images", "logs", "inspect", "version", "info", "stats", "top",
                          "port", "history", "diff", "search", "events"))  # fmt: skip
_DOCKER_GROUP_READS = {
    "container": {"ls", "ps", "list", "inspect", "logs", "top", "port", "stats", "diff"},
    "image": {"ls", "list", "inspect", "history"},
    "network": {"ls", "list", "inspect"},
    "volume": {"ls", "list", "inspect"},
    "context": {"ls", "list", "inspect", "show"},
    "system": {"df", "info", "events"},
    "compose": {"ps", "logs", "config", "ls", "images", "top", "version", "port", "events"},
    "buildx": {"ls", "inspect", "du", "version"},
    "builder": {"ls", "inspect", "du"},
    "plugin": {"ls", "inspect"},
    "manifest": {"inspect"},
    "trust": {"inspect"},
    "scout": {"cves", "quickview", "compare", "recommendations", "version"},
    **{g: {"ls", "inspect", "ps", "logs", "services"}
       for g in ("secret", "config", "service", "stack", "node")},
}  # fmt: skip


def _docker(c: Command) -> bool:
    sub = c.subcommand
    if not sub:
        return True  # docker --version, docker --context x (nothing run)
    if sub[0] in _DOCKER_GROUP_READS:
        return _second(c, _DOCKER_GROUP_READS[sub[0]])
    return sub[0] in _DOCKER_READ


def _docker_compose(c: Command) -> bool:
    return not c.subcommand or c.subcommand[0] in _DOCKER_GROUP_READS["compose"]


_KUBECTL_READ = frozenset(("get", "describe", "logs", "top", "version", "explain",
                           "api-resources", "api-versions", "diff", "events", "wait"))  # fmt: skip
_KUBECTL_GROUP_READS = {
    "config": {"view", "get-contexts", "current-context", "get-clusters", "get-users"},
    "auth": {"can-i", "whoami"},
    "rollout": {"status", "history"},
    "apply": {"view-last-applied"},
    "plugin": {"list"},
}


def _dry_run(c: Command) -> bool:
    """``--dry-run`` (client or server; ``none`` is a real run)."""
    return c.has("--dry-run") and (c.value("--dry-run") or "client") != "none"


def _kubectl(c: Command) -> bool:
    sub = c.subcommand
    if not sub:
        return True
    if sub[0] in _KUBECTL_READ:
        return True
    if sub[0] == "cluster-info":
        return not c.has("--output-directory")
    if sub[0] in _KUBECTL_GROUP_READS and _second(c, _KUBECTL_GROUP_READS[sub[0]]):
        return True
    return _dry_run(c)


_HELM_READ = frozenset(("list", "ls", "status", "history", "template", "lint", "version",
                        "env", "verify", "search", "show", "inspect", "get", "help",
                        "diff"))  # fmt: skip


def _helm(c: Command) -> bool:
    sub = c.subcommand
    if not sub or sub[0] in _HELM_READ:
        return True
    if sub[0] in ("repo", "plugin", "dependency", "dep"):
        return _second(c, {"list", "ls"})
    return sub[0] in ("install", "upgrade", "uninstall", "delete", "rollback") and _dry_run(c)


def _terraform(c: Command) -> bool:
    sub, flags = c.subcommand, c.flag_names
    if not sub:
        return True  # terraform -version, -help
    head = sub[0]
    if head == "plan":
        return "-out" not in flags  # the plan file is what a later apply runs
    if head in ("show", "output", "validate", "version", "graph", "console", "modules"):
        return True
    if head == "fmt":
        return bool(flags & {"-check"}) or c.value("-write") == "false"
    if head == "providers":
        return len(sub) == 1 or _second(c, {"schema"})
    if head == "state":
        return _second(c, {"list", "show", "pull"})
    if head == "workspace":
        return _second(c, {"list", "show"})
    return False


_SYSTEMCTL_READ = frozenset(("status", "show", "cat", "list-units", "list-unit-files",
                             "list-timers", "list-sockets", "list-dependencies", "list-jobs",
                             "list-machines", "list-automounts", "list-paths", "is-active",
                             "is-enabled", "is-failed", "is-system-running", "get-default",
                             "show-environment", "help"))  # fmt: skip
_JOURNAL_WRITES = frozenset(("--vacuum-size", "--vacuum-time", "--vacuum-files", "--rotate",
                             "--flush", "--sync", "--relinquish-var", "--smart-relinquish-var",
                             "--setup-keys", "--update-catalog"))  # fmt: skip
_CURL_WRITES = frozenset(("--remote-name", "--remote-name-all", "--upload-file", "--data",
                          "--data-raw", "--data-binary", "--data-urlencode", "--json", "--form",
                          "--form-string", "--cookie-jar", "--trace", "--trace-ascii",
                          "--output-dir", "--config", "-K",
                          # (a request that skips the certificate check sends what it carries,
                          # a token or a cookie, to whoever answers: not harmless)
                          "--insecure", "--proxy-insecure"))  # fmt: skip
_QUIET_TARGETS = frozenset(("-", "/dev/null", "/dev/stdout", "/dev/stderr"))


def _curl(c: Command) -> bool:
    if c.flag_names & _CURL_WRITES:
        return False
    if (c.value("--output") or "-") not in _QUIET_TARGETS:
        return False
    if (c.value("--dump-header") or "-") not in _QUIET_TARGETS:
        return False
    return (c.value("--request") or "GET").upper() in ("GET", "HEAD", "OPTIONS")


def _wget(c: Command) -> bool:
    target = c.value("--output-document")
    return c.has("--spider") or (target is not None and target in _QUIET_TARGETS)


def _tar(c: Command) -> bool:
    writes = {"--create", "--extract", "--append", "--update", "--delete", "--concatenate"}
    return c.has("--list") and not c.flag_names & writes


def _compressor(c: Command) -> bool:
    """gzip/xz/bzip2: listing, testing and writing to stdout read."""
    for flag in c.flags:
        if flag.name in ("--list", "--test", "--stdout", "--to-stdout"):
            return True
        if not flag.name.startswith("--") and set(flag.name[1:]) & {"l", "t", "c"}:
            return True
    return False


def _sed(c: Command) -> bool:
    if c.has("--in-place"):
        return False
    scripts = [a.text for a in c.args[:1]] + [f.value or "" for f in c.flags
                                              if f.name == "--expression"]  # fmt: skip
    return not any(re.search(r"(?:^|[;}\n/])\s*[wW]\s+\S", s) for s in scripts)


def _awk(c: Command) -> bool:
    texts = [a.text for a in c.args] + [f.value or "" for f in c.flags]
    return not any(
        "system(" in t or "inplace" in t or re.search(r'>\s*"|\|\s*"|"\s*\|\s*getline', t)
        for t in texts
    )


def _find(c: Command) -> bool:
    # The commands of -exec are parsed as commands of their own and judged as such.
    return not c.flag_names & {"-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}


def _tee(c: Command) -> bool:
    return all(a.text in _QUIET_TARGETS for a in c.args)


def _by_flags(*reads: str) -> Callable[[Command], bool]:
    """A program that reads only with one of these options."""
    wanted = frozenset(reads)
    return lambda c: bool(c.flag_names & wanted)


def _without_flags(*writes: str) -> Callable[[Command], bool]:
    """A program that reads unless one of these options is given."""
    unwanted = frozenset(writes)
    return lambda c: not c.flag_names & unwanted


# mount lists what is mounted only bare or with these (``-t ext4``: of that type); with any
# other option it mounts (``-a`` everything in fstab, ``-L data`` by label) or remounts.
_MOUNT_LISTS = frozenset(("--types", "--show-labels", "--verbose"))


def _cloud(c: Command) -> bool:
    """gcloud/az: the last word of the command path says what it does."""
    sub = c.subcommand
    return not sub or sub[-1] in ("list", "describe", "show", "get-value", "info", "version")


def _aws(c: Command) -> bool:
    sub = c.subcommand
    if not sub:
        return True
    if len(sub) < 2:
        return False
    return (sub == ("s3", "ls") or sub[1].startswith(("describe-", "list-"))
            or (sub[1] in ("get-caller-identity", "list", "get")
                and sub[0] in ("sts", "configure")))  # fmt: skip


_RULES: dict[str, Callable[[Command], bool]] = {
    "git": _git,
    "docker": _docker,
    "docker-compose": _docker_compose,
    "kubectl": _kubectl,
    "helm": _helm,
    "terraform": _terraform,
    "apt-get": _apt_get,
    "systemctl": lambda c: not c.subcommand or c.subcommand[0] in _SYSTEMCTL_READ,
    "journalctl": _without_flags(*_JOURNAL_WRITES),
    "service": lambda c: c.has("--status-all") or (len(c.args) == 2 and c.args[1].text == "status"),
    "curl": _curl,
    "wget": _wget,
    "tar": _tar,
    "unzip": _by_flags("-l", "-v", "-t", "-Z", "-z"),
    "gzip": _compressor,
    "gunzip": _compressor,
    "xz": _compressor,
    "bzip2": _compressor,
    "rsync": _by_flags("--dry-run", "--list-only"),
    "make": _by_flags("--dry-run", "--question"),
    "patch": _by_flags("--dry-run"),
    "sed": _sed,
    "awk": _awk,
    "gawk": _awk,
    "find": _find,
    "sort": _without_flags("--output"),
    "tee": _tee,
    "yq": _without_flags("-i", "--inplace"),
    "gofmt": _without_flags("--write"),
    "date": _without_flags("-s", "--set"),
    "hostname": lambda c: not c.args,
    "mount": lambda c: not c.args and c.flag_names <= _MOUNT_LISTS,
    "crontab": _by_flags("-l"),
    "aws": _aws,
    "gcloud": _cloud,
    "az": _cloud,
    **{name: _package for name in ("npm", "pnpm", "yarn", "pip", "uv", "cargo", "go", "gem",
                                    "brew", "apt", "conda", "dotnet")},
}  # fmt: skip
