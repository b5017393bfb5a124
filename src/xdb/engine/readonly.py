"""Layer 1 of the experience engine: which tool calls cannot change anything (seed 003).

A read-only call (``ls``, ``cat``, ``git log``, ``docker ps``, a file read, a search)
bypasses the engine: no lookup, no warning, no cost. A shell command is read-only only if
every part of it is: each command of a chain (``&&``, ``||``, ``;``, ``|``, ``&``, a
newline), of a subshell (``( )``, ``$( )``, backticks) and of ``xargs``/``find -exec``, and
no redirection writes a file (``>``, ``>>``, ``&>``, ``tee``; ``/dev/null`` and ``2>&1``
write nothing). Anything not known to be read-only counts as mutating: a warning too many
costs a line of context, a missed one a repeated mistake.

Standard library only: the hook that runs this on every tool call starts a Python process
each time, and importing nothing else keeps the skip path at interpreter start-up cost.
"""

from __future__ import annotations

import re
import shlex

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence
    from typing import Any

__all__ = ["READ_ONLY_TOOLS", "command_is_read_only", "is_read_only"]

# Tool names (Claude Code, Codex, Gemini CLI) that only read; matched case-insensitively.
READ_ONLY_TOOLS = frozenset(
    name.lower()
    for name in (
        "Read", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "NotebookRead", "TodoRead",
        "TodoWrite", "ExitPlanMode", "BashOutput", "ListMcpResourcesTool", "ReadMcpResourceTool",
        "read_file", "read_many_files", "list_directory", "glob", "search_file_content",
        "grep", "web_fetch", "google_web_search", "read_file_content", "view_image",
    )
)  # fmt: skip
SHELL_TOOLS = frozenset({"bash", "shell", "run_shell_command", "exec_command", "local_shell"})

# Commands that only read, whatever their arguments (those that write with some option
# are checked below).
_PLAIN = frozenset(
    (
        "ls", "ll", "la", "dir", "cat", "head", "tail", "less", "more", "grep", "egrep",
        "fgrep", "rg", "ag", "ack", "pwd", "echo", "printf", "wc", "uniq", "diff", "cmp",
        "comm", "file", "stat", "du", "df", "which", "whereis", "type", "tree", "whoami",
        "id", "groups", "date", "cal", "uname", "hostname", "ps", "pgrep", "top", "htop",
        "jq", "yq", "cut", "tr", "column", "basename", "dirname", "realpath", "readlink",
        "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "nl", "tac", "rev", "od",
        "xxd", "hexdump", "strings", "test", "[", "true", "false", "sleep", "man",
        "help", "history", "cd", "pushd", "popd", "printenv", "env", "uptime", "free",
        "lsof", "netstat", "ss", "ping", "dig", "nslookup", "host", "whois", "tput",
        "clear", "set", "export", "alias", "unalias", "locale", "seq", "expr", "bc",
        "fold", "fmt", "paste", "join", "look", "zcat", "zgrep", "zless", "bzcat",
        "xzcat", "lsblk", "mount", "findmnt", "nproc", "arch", "getconf",
    )
)  # fmt: skip
# Wrappers that run the command that follows them (their own options skipped).
_WRAPPERS = frozenset({"sudo", "time", "nice", "nohup", "command", "builtin", "exec", "stdbuf"})
_GIT_READ = frozenset(
    (
        "log", "status", "diff", "show", "blame", "rev-parse", "ls-files", "ls-tree",
        "ls-remote", "describe", "shortlog", "reflog", "grep", "cat-file", "rev-list",
        "name-rev", "merge-base", "whatchanged", "show-ref", "show-branch",
        "count-objects", "fsck", "verify-commit", "verify-tag", "for-each-ref", "help",
        "version", "var", "check-ignore", "check-attr",
    )
)  # fmt: skip
_DOCKER_READ = frozenset(
    (
        "ps", "images", "logs", "inspect", "version", "info", "stats", "top", "port",
        "history", "diff", "search", "events",
    )
)  # fmt: skip
_KUBECTL_READ = frozenset(
    (
        "get", "describe", "logs", "top", "version", "explain", "api-resources",
        "api-versions", "cluster-info",
    )
)  # fmt: skip
_PACKAGE_READ = {
    "npm": {"ls", "list", "view", "info", "show", "outdated", "why", "search", "root", "prefix",
            "help", "explain", "doctor", "-v", "--version", "audit"},
    "pnpm": {"ls", "list", "why", "outdated", "info", "view", "root", "-v", "--version"},
    "yarn": {"list", "why", "info", "outdated", "--version", "-v"},
    "pip": {"list", "show", "freeze", "check", "search", "--version", "-V", "help", "index"},
    "pip3": {"list", "show", "freeze", "check", "search", "--version", "-V", "help", "index"},
    "cargo": {"tree", "metadata", "--version", "-V", "search", "pkgid", "verify-project"},
    "go": {"version", "env", "list", "doc", "vet"},
    "dotnet": {"--info", "--version", "--list-sdks", "--list-runtimes", "list"},
    "gem": {"list", "search", "info", "environment", "--version"},
    "brew": {"list", "info", "search", "outdated", "--version", "config", "doctor"},
    "apt": {"list", "show", "search", "policy"},
    "conda": {"list", "info", "search", "--version"},
}  # fmt: skip
_VERSION_ONLY = frozenset(
    (
        "python", "python3", "node", "deno", "bun", "ruby", "java", "javac", "rustc",
        "gcc", "clang", "tsc", "perl", "php",
    )
)  # fmt: skip
_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", "|&", ";;", "(", ")", "\n"})
_WRITES = frozenset({">", ">>", ">|", "&>", "&>>"})
_SUBSTITUTION = re.compile(r"\$\(|`")


def is_read_only(tool_name: str, tool_input: Mapping[str, Any] | None) -> bool:
    """Whether a tool call only reads (Layer 1 lets it through untouched)."""
    name = tool_name.lower()
    if name in READ_ONLY_TOOLS:
        return True
    if name in SHELL_TOOLS:
        command = (tool_input or {}).get("command")
        if isinstance(command, list):  # Codex passes argv
            command = shlex.join(str(part) for part in command)
        return isinstance(command, str) and command_is_read_only(command)
    return False


def command_is_read_only(command: str) -> bool:
    """Whether every part of a shell command line only reads."""
    command = _without_heredocs(command)
    if not command.strip():
        return True
    # Command substitutions run commands: each is checked as a line of its own.
    for inner in _substitutions(command):
        if not command_is_read_only(inner):
            return False
    text = re.sub(r"\$\(|`", " ( ", command).replace("`", " ) ")
    try:
        lexer = shlex.shlex(text.replace("\n", " ; "), posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:  # an unclosed quote: not something to wave through
        return False
    return all(_simple_is_read_only(words) for words in _commands(tokens))


_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")


def _without_heredocs(command: str) -> str:
    """The command without its here-documents' bodies (input text, not commands)."""
    out: list[str] = []
    waiting: list[str] = []
    for line in command.split("\n"):
        if waiting:
            if line.strip() == waiting[0]:
                waiting.pop(0)
            continue
        out.append(line)
        waiting = [m.group(2) for m in _HEREDOC.finditer(line.replace("<<<", ""))]
    return "\n".join(out)


def _substitutions(command: str) -> Iterator[str]:
    """The text of each ``$( )`` and backtick substitution (the outermost ones)."""
    i = 0
    while (found := _SUBSTITUTION.search(command, i)) is not None:
        start = found.end()
        if found.group() == "`":
            end = command.find("`", start)
            if end < 0:
                yield command[start:]
                return
            yield command[start:end]
            i = end + 1
            continue
        depth, j = 1, start
        while j < len(command) and depth:
            depth += {"(": 1, ")": -1}.get(command[j], 0)
            j += 1
        yield command[start : j - 1 if depth == 0 else j]
        i = j


def _commands(tokens: Sequence[str]) -> Iterator[list[str]]:
    """The simple commands of a token list, with any write redirection kept as a marker."""
    words: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in _SEPARATORS:
            if words:
                yield words
            words = []
        elif token in _WRITES or (token.endswith(">") and token.rstrip(">&|").isdigit()):
            target = tokens[i + 1] if i + 1 < len(tokens) else ""
            if target == "&" or target.startswith("&"):  # 2>&1: a descriptor, not a file
                i += 2 if target == "&" else 1
            elif target != "/dev/null":
                words.append("\0writes")
                i += 1
            else:
                i += 1
        elif token in ("<", "<<", "<<<", "<>"):
            i += 1  # input: its source is not a command
        else:
            words.append(token)
        i += 1
    if words:
        yield words


def _simple_is_read_only(words: list[str]) -> bool:
    if "\0writes" in words:
        return False
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]):
        words = words[1:]  # VAR=value before a command
    if not words:
        return True
    name = words[0].rsplit("/", 1)[-1]
    args = words[1:]
    if name in _WRAPPERS or name == "timeout" or name == "xargs":
        return _simple_is_read_only(_after_options(name, args))
    if name == "env":
        return not args or _simple_is_read_only(args)
    if name in _PLAIN:
        return True
    checker = _CHECKS.get(name)
    if checker is not None:
        return checker(args)
    if name in _PACKAGE_READ:
        first = next((a for a in args if not a.startswith("-") or a in _PACKAGE_READ[name]), "")
        return first in _PACKAGE_READ[name]
    if name in _VERSION_ONLY:
        return bool(args) and all(a in ("--version", "-V", "-v", "version") for a in args)
    return False


def _after_options(name: str, args: list[str]) -> list[str]:
    """The command a wrapper runs: its arguments after its own options (and ``timeout``'s
    duration, ``xargs``'s option values)."""
    takes_value = {"xargs": {"-n", "-I", "-L", "-P", "-s", "-d", "-E", "-a"}, "sudo": {"-u", "-g"}}
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 2 if args[i] in takes_value.get(name, ()) else 1
    if name == "timeout" and i < len(args):
        i += 1  # the duration
    return args[i:]


def _sed(args: list[str]) -> bool:
    return not any(
        a.startswith(("-i", "--in-place")) or re.fullmatch(r"-[a-zA-Z]*i.*", a) for a in args
    )


def _awk(args: list[str]) -> bool:
    return not any("system(" in a or "inplace" in a or re.search(r'>\s*"', a) for a in args)


def _find(args: list[str]) -> bool:
    writes = {"-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}
    if writes & set(args):
        return False
    for i, arg in enumerate(args):
        if arg in ("-exec", "-execdir", "-ok", "-okdir"):
            run = []
            for word in args[i + 1 :]:
                if word in (";", "+"):
                    break
                run.append(word)
            if not _simple_is_read_only(run):
                return False
    return True


def _sort(args: list[str]) -> bool:
    return not any(a == "-o" or a.startswith(("--output", "-o")) for a in args)


def _git(args: list[str]) -> bool:
    i = 0
    while i < len(args) and args[i].startswith("-"):  # -C dir, -c k=v, --no-pager ...
        i += 2 if args[i] in ("-C", "-c") else 1
    if i >= len(args):
        return True  # git --version, git --help
    sub, rest = args[i], args[i + 1 :]
    if sub in _GIT_READ:
        return not (sub == "diff" and "--output" in " ".join(rest))
    plain = [a for a in rest if not a.startswith("-")]
    if sub in ("branch", "tag"):
        # Listing (no names, or a listing option) reads; creating, deleting, moving writes.
        changing = {"-d", "-D", "-m", "-M", "-c", "-C", "-f", "-u", "--delete", "--move",
                    "--copy", "--force", "--set-upstream-to", "--unset-upstream",
                    "--edit-description"}  # fmt: skip
        if sub == "tag":
            changing |= {"-a", "-s", "--annotate", "--sign"}
        listing = {"-l", "--list", "-v", "-vv", "-a", "-r", "--all", "--remotes", "--contains",
                   "--merged", "--no-merged", "--show-current", "-n", "--points-at"}  # fmt: skip
        if set(rest) & changing:
            return False
        return not plain or bool(set(rest) & listing)
    if sub == "remote":
        return not plain or plain[0] in ("show", "get-url")
    if sub == "stash":
        return bool(plain) and plain[0] in ("list", "show")
    if sub == "config":
        return bool(set(rest) & {"--get", "--get-all", "--list", "-l", "--get-regexp"})
    if sub in ("worktree", "notes", "submodule"):
        return bool(plain) and plain[0] in ("list", "show", "status")
    return False


def _docker(args: list[str]) -> bool:
    plain = [a for a in args if not a.startswith("-")]
    if not plain:
        return True
    if plain[0] in ("compose",) or args[:1] == ["docker-compose"]:
        return len(plain) > 1 and plain[1] in (
            "ps",
            "logs",
            "config",
            "ls",
            "images",
            "top",
            "version",
        )
    if plain[0] in ("container", "image", "network", "volume", "context", "system"):
        return len(plain) > 1 and plain[1] in (
            "ls",
            "ps",
            "inspect",
            "logs",
            "history",
            "df",
            "show",
        )
    return plain[0] in _DOCKER_READ


def _docker_compose(args: list[str]) -> bool:
    return _docker(["compose", *args])


def _kubectl(args: list[str]) -> bool:
    plain = [a for a in args if not a.startswith("-")]
    if not plain:
        return True
    if plain[0] == "config":
        return len(plain) > 1 and plain[1] in ("view", "get-contexts", "current-context")
    if plain[0] == "auth":
        return len(plain) > 1 and plain[1] == "can-i"
    return plain[0] in _KUBECTL_READ


def _make(args: list[str]) -> bool:
    return bool(set(args) & {"-n", "--dry-run", "--just-print", "--recon", "-q", "--question"})


def _tee(args: list[str]) -> bool:
    return all(a == "/dev/null" or a.startswith("-") for a in args)


_CHECKS = {
    "sed": _sed,
    "awk": _awk,
    "gawk": _awk,
    "find": _find,
    "sort": _sort,
    "git": _git,
    "docker": _docker,
    "docker-compose": _docker_compose,
    "podman": _docker,
    "kubectl": _kubectl,
    "make": _make,
    "tee": _tee,
}
