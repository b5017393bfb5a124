"""What the judge compares (issue 33): a tool call as the operations it performs, and a
lesson as what its mistake and its fix name, both read by the call parser
(``xdb.engine.calls``), never from the raw text: a shell comment (``# run it``), an
``echo``'s words or a commit message say nothing about what a call does.

- An ``Op`` is one thing a call does: a shell command (its program, first subcommand,
  normalised flags, wrappers, and the words of its arguments) or a file change (its kind
  and role, and the words of the lines it adds, comments left out).
- A ``Shape`` is a lesson read as operations: the programs it is about, the flags and
  words its mistake names (in its question, or the failing call it was learned from) and
  those its fix names (in its answer, or the fix it was learned from), each less what both
  sides name: a word in both the question and the answer tells nothing about which was done.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from xdb.engine.calls import Command, FileChange, parse_call, parse_shell
from xdb.engine.calls.programs import same_as, spec_of

# Programs whose arguments are text, not what the call does; and steps that do nothing.
_QUIET = frozenset(("echo", "printf", "cd", "pushd", "popd", "true", "false", ":", "sleep",
                    "set", "export", "exit", "source", ".", "test", "[", "[[", "read", "wait",
                    "logger", "notify-send"))  # fmt: skip
# Flags whose value is a message (a commit's, a PR's), not what the command does.
_MESSAGE_FLAGS = frozenset(("--message", "-m", "--title", "--body", "--description",
                            "--comment", "--note", "--reason", "--annotation"))  # fmt: skip
# Programs that do the same job (a lesson about npm speaks of pnpm too).
_FAMILY = {
    "pnpm": "npm", "yarn": "npm", "npx": "npm", "bun": "npm",
    "pip3": "pip", "poetry": "pip", "uv": "pip", "pipenv": "pip", "pipx": "pip",
    "oc": "kubectl", "k": "kubectl", "podman": "docker", "docker-compose": "docker",
    "mysql": "psql", "sqlite3": "psql", "mariadb": "psql", "python3": "python",
    "wget": "curl", "tofu": "terraform", "terragrunt": "terraform",
}  # fmt: skip
# Subcommands spelled two ways (``npm i`` is ``npm install``).
_SUB_ALIASES = {"i": "install", "in": "install", "isntall": "install", "add": "add",
                "un": "uninstall", "rm": "remove", "r": "remove", "up": "update",
                "upgrade": "update", "ls": "list"}  # fmt: skip
# Programs named in prose only when the clause gives them a flag, a value or a path: the
# same words are English (a "make" of a car, "go" on, "find" out).
_ENGLISH = frozenset((
    "make", "find", "go", "sort", "head", "tail", "tee", "touch", "patch", "service", "apt",
    "time", "kill", "top", "watch", "cut", "join", "split", "install", "run", "sh", "test",
    "file", "less", "more", "date", "env", "kind", "mount", "vault", "flux", "zip", "shred",
    "bun", "rails", "packer", "nomad", "consul", "vagrant", "bundle", "rake", "composer",
    "poetry",
))  # fmt: skip
_KNOWN = frozenset((
    "git", "gh", "kubectl", "helm", "terraform", "docker", "podman", "npm", "pnpm", "yarn",
    "npx", "pip", "pip3", "poetry", "uv", "cargo", "go", "dotnet", "rsync", "rm", "find",
    "sed", "chmod", "chown", "crontab", "curl", "wget", "ssh", "scp", "ssh-keyscan", "sudo",
    "make", "systemctl", "journalctl", "nginx", "redis-cli", "psql", "mysql", "mysqldump",
    "pg_dump", "ansible-playbook", "ansible", "aws", "gcloud", "az", "python", "python3",
    "pytest", "jest", "sha256sum", "gpg", "tar", "brew", "apt-get", "apt", "mv", "cp",
    "pre-commit", "alembic", "flyway", "argocd", "kustomize", "gofmt", "eslint", "prettier",
    "mvn", "gradle", "bundle", "gem", "composer", "rake", "bash", "sh", "chgrp", "dd",
    "mkfs", "truncate", "kill", "pkill", "killall", "shutdown", "reboot", "iptables", "ufw",
))  # fmt: skip
_STOP = frozenset((
    "the", "and", "for", "with", "that", "this", "from", "into", "onto", "its", "it's",
    "was", "were", "are", "been", "being", "has", "have", "had", "not", "but", "than",
    "then", "when", "which", "what", "who", "whom", "whose", "all", "any", "each", "every",
    "only", "also", "just", "more", "most", "one", "two", "out", "off", "over", "under",
    "after", "before", "first", "last", "next", "again", "once", "use", "used", "using",
    "instead", "never", "always", "don", "doesn", "didn", "can", "could", "should", "would",
    "will", "may", "might", "must", "our", "your", "their", "them", "they", "who", "you",
    "via", "per", "like", "such", "own", "same", "other", "another", "there", "here",
    "where", "how", "why", "about", "without", "within", "between", "because", "so",
    "let", "lets", "get", "got", "put", "make", "made", "take", "took", "give", "gave",
    "new", "old", "way", "thing", "things", "none", "some", "both", "either", "neither",
    "true", "false", "self", "this", "var", "let", "const", "def", "return",
    "import", "from", "async", "await", "function", "func", "fn", "pub", "public",
    "private", "static", "void", "int", "str", "string", "new", "class", "end", "else",
))  # fmt: skip
_IDENT = re.compile(
    r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*|(?<![\w.])\d{3,}(?![\w.])"
)
_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_COMMENT = re.compile(r"(?:^|(?<=\s))(?:#|//|-- |<!--|/\*).*$")
_LOOSE_FLAG = re.compile(r"(?<![\w/.\-])(--?[A-Za-z][\w-]*)")
_PINNED = re.compile(r"[\w\]/-](?:@v?|:|==)\d+\.\d+(?!\.\d+\.\d)")  # (not an IP address)
_FILE = re.compile(r"\.[A-Za-z]\w{0,4}$")
_PROPAGATED = re.compile(r"[\w)\]>]\?[;)\s]")  # Rust's ``?``: the error propagated
_CODE = re.compile(r"`([^`\n]+)`")
_CLAUSE = re.compile(r"[,;()]|: |\. |\b(?:and|then|or|before|after|instead of|so)\b")


def family(program: str) -> str:
    """The program a lesson about ``program`` is about (pnpm: npm; podman: docker)."""
    name = same_as(program)
    return _FAMILY.get(name, name)


def _stem(word: str) -> str:
    for end in ("ing", "ed", "es", "s"):
        if word.endswith(end) and len(word) - len(end) >= 3 and not word.endswith("ss"):
            return word[: -len(end)]
    return word


def words(text: str) -> frozenset[str]:
    """The significant words of code or prose: identifiers whole (lowercase) and split at
    dots, underscores and case changes, stemmed, common words left out; and the words for
    shapes of code a lesson names in words: a guarded variable (``${X:?}``: guard), a pinned
    version (``lodash@4.17.21``, ``node:20.11``: pin), an error propagated (Rust's ``?``)."""
    out: set[str] = set()
    if ":?" in text:
        out.add("guard")
    if _PINNED.search(text):
        out.add("pin")
    if _PROPAGATED.search(text):
        out.add("propagate")
    for ident in _IDENT.findall(text):
        for whole in {ident, *ident.split(".")}:
            low = whole.lower()
            if len(low) >= 3 and low not in _STOP:
                out.add(low)
        for part in _PART.findall(ident):
            stem = _stem(part.lower())
            if len(stem) >= 3 and stem not in _STOP:
                out.add(stem)
    return frozenset(out)


def _uncommented(lines: tuple[str, ...]) -> str:
    return "\n".join(_COMMENT.sub("", line) for line in lines)


@dataclass(frozen=True)
class Op:
    """One thing a call does: ``program`` (a program's family, or ``file:KIND``), ``sub``
    (its first subcommand, or the file's role), its ``flags`` (and ``sudo`` when run so) and
    its ``words``."""

    program: str
    sub: str
    flags: frozenset[str]
    words: frozenset[str]

    def same(self, other: Op) -> bool:
        """The same operation: the same program (family) and subcommand (when both have
        one), or a change of the same kind of file in the same role."""
        if self.program != other.program:
            return False
        if self.program.startswith("file:"):
            return True  # (a fix may well go in another file of the kind: settings, not specs)
        return not (self.sub and other.sub) or self.sub == other.sub


def _where(text: str, kind: str) -> bool:
    """Whether an argument is a path or URL (a word the parser could not tell from a
    relative path, such as ``StrictHostKeyChecking=no``, is kept)."""
    if kind == "url":
        return True
    return kind in ("project_path", "outside_path") and ("/" in text or bool(_FILE.search(text)))


def command_op(c: Command) -> Op | None:
    if not c.program or c.program in _QUIET:
        return None
    flags = {f.name for f in c.flags}
    flags |= {w for w in c.wrappers if w in ("sudo", "doas")}
    # Paths and URLs name where, not what: ``hosts.ini`` is no "hosts" of a lesson's fix.
    said = [a.text for a in c.args if not _where(a.text, a.kind)]
    text = [*c.subcommand, *said, *c.assignments]
    text += [f.value for f in c.flags if f.value and f.name not in _MESSAGE_FLAGS]
    text += [r.target for r in c.redirects if r.writes]
    # A flag's name is a word too: a lesson says "a hard reset" of ``--hard``.
    text += [f.name.lstrip("-").replace("-", " ") for f in c.flags if f.name.startswith("-")]
    # A program of command groups is read to its second word (``aws s3 rm`` is not ``aws
    # s3 sync``; ``docker system prune`` not ``docker volume prune``).
    spec = spec_of(c.program)
    deep = spec is not None and (spec.depth > 0 or c.subcommand[:1] in [(g,) for g in spec.groups])
    sub = " ".join(c.subcommand[: 2 if deep else 1])
    return Op(family(c.program), _SUB_ALIASES.get(sub, sub), frozenset(flags),
              words(" ".join(text)))  # fmt: skip


def file_op(change: FileChange) -> Op:
    # The lines it adds, less their comments: a comment saying what was meant is no change.
    return Op(f"file:{change.kind}", change.role, frozenset(), words(_uncommented(change.added)))


def call_ops(tool: str, tool_input: dict[str, Any] | None, cwd: str | None = None) -> list[Op]:
    """The operations of a tool call (a read does none)."""
    call = parse_call(tool, tool_input or {}, cwd)
    ops = [op for c in call.commands if (op := command_op(c)) is not None]
    return ops + [file_op(f) for f in call.files]


def _prose_ops(text: str) -> tuple[list[Op], frozenset[str]]:
    """The commands a lesson's text names (in backticks, or plainly: a known program and
    what follows it up to the end of its clause), and the flags it names without one."""
    ops: list[Op] = []
    spans = _CODE.findall(text)
    plain = _CODE.sub(" ", text)
    for clause in _CLAUSE.split(plain):
        tokens = (clause or "").split()
        starts = [n for n, token in enumerate(tokens) if _program(token.strip("'\""))]
        for n, end in zip(starts, [*starts[1:], len(tokens)], strict=False):
            name, rest = tokens[n].strip("'\""), " ".join(tokens[n + 1 : end])
            if name in _ENGLISH and not re.search(r"(?:^|\s)-|[=$/@]", rest):
                continue
            spans.append(f"{name} {rest}")
    for span in spans:
        commands, _ = parse_shell(span)
        ops += [op for c in commands if (op := command_op(c)) is not None]
    return ops, frozenset(_LOOSE_FLAG.findall(plain))


def _program(word: str) -> bool:
    return word in _KNOWN or spec_of(word) is not None


def _canonical(flags: frozenset[str], ops: list[Op], program: str | None) -> frozenset[str]:
    """Flags named in prose, as the lesson's program spells them (``-n`` of rsync is
    ``--dry-run``); as written when the lesson names no program."""
    out: set[str] = set()
    for flag in flags:
        found = None
        for op in [*ops, *([Op(program, "", frozenset(), frozenset())] if program else [])]:
            if op.program.startswith("file:"):
                continue
            commands, _ = parse_shell(f"{op.program} {op.sub} {flag}".replace("  ", " "))
            names = [f.name for c in commands for f in c.flags]
            if names:
                found = names
                break
        out.update(found or [flag])
    return frozenset(out)


@dataclass(frozen=True)
class Shape:
    """A lesson as operations. ``programs``: the programs (families) it is about;
    ``mistake``: the operations its question or failing call names; ``danger_flags`` and
    ``danger_words``: what the mistake names that the fix does not; ``fix_flags``,
    ``fix_words``, ``fix_ops``: what the fix names that the mistake does not (``fix_ops``:
    program and subcommand of a command only the fix names, such as ``git stash``)."""

    programs: frozenset[str]
    mistake: tuple[Op, ...]
    danger_flags: frozenset[str]
    danger_words: frozenset[str]
    fix_flags: frozenset[str]
    fix_words: frozenset[str]
    fix_ops: frozenset[tuple[str, str]]
    words: frozenset[str]  # every word it says
    culprits: frozenset[str]  # the programs its mistake (question, failing call) names
    shared: frozenset[str]  # words both sides name (``timeout``: "no timeout" -> "pass timeout=")


def _recorded(record: Any) -> list[Op]:
    """The operations of a call kept in a lesson's ``learned_from`` (extraction)."""
    if not isinstance(record, dict):
        return []
    data = record.get("input")
    if isinstance(data, dict) and isinstance(record.get("tool"), str):
        return call_ops(record["tool"], data)
    text = record.get("text")
    return call_ops("Bash", {"command": text}) if isinstance(text, str) else []


@lru_cache(maxsize=512)
def shape(question: str, answer: str, learned: str = "") -> Shape:
    """``learned``: the lesson's ``learned_from`` as JSON ("" when it has none)."""
    import json

    try:
        record = json.loads(learned) if learned else {}
    except ValueError:  # cut short where it was kept: the lesson's text alone then
        record = {}
    failing = _recorded(record.get("failing")) if isinstance(record, dict) else []
    fixed = _recorded(record.get("fix")) if isinstance(record, dict) else []
    q_ops, q_loose = _prose_ops(question)
    a_ops, a_loose = _prose_ops(answer)
    q_ops += failing
    a_ops += fixed
    shell = [op.program for op in [*q_ops, *a_ops] if not op.program.startswith("file:")]
    main = shell[0] if shell else None
    q_flags = _canonical(q_loose, q_ops, main).union(*(op.flags for op in q_ops))
    a_flags = _canonical(a_loose, a_ops, main).union(*(op.flags for op in a_ops))
    q_words = words(_CODE.sub(lambda m: m.group(1), question)).union(*(o.words for o in failing))
    a_words = words(_CODE.sub(lambda m: m.group(1), answer)).union(*(o.words for o in fixed))
    programs = frozenset(shell) - {"sudo"}
    q_subjects = {(op.program, op.sub) for op in q_ops}
    q_programs = {op.program for op in q_ops}
    return Shape(
        programs=programs,
        mistake=tuple(q_ops),
        danger_flags=frozenset(q_flags - a_flags),
        danger_words=frozenset(q_words - a_words - programs),
        fix_flags=frozenset(a_flags - q_flags),
        fix_words=frozenset(a_words - q_words - programs),
        fix_ops=frozenset(
            (op.program, op.sub)
            for op in a_ops
            if op.program not in q_programs or (op.sub and (op.program, op.sub) not in q_subjects)
        ),
        shared=frozenset(q_words & a_words - programs),
        words=q_words | a_words,
        culprits=frozenset(op.program for op in q_ops if not op.program.startswith("file:")),
    )
