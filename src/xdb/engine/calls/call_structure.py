"""The structure of a tool call: what ``xdb.engine.calls`` parses a call into.

Plain classes with ``__slots__``: a dataclass would import ``inspect``, and this is on the
command hook's skip path (docs/engine.md, layer 1), which pays for every import.

- ``Command``: one simple command of a shell line (a part of a pipe, chain, subshell,
  substitution, ``bash -c`` script, ``xargs`` or ``find -exec``), with its program, its
  subcommand path, its flags (normalised per program), its positional arguments and their
  kinds, and its redirections;
- ``FileChange``: the file an edit, write or patch touches, its kind and roles, and what
  the change adds and removes;
- ``ToolCall``: a whole tool call, holding either.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from typing import Any

__all__ = ["ARG_KINDS", "Arg", "Command", "FileChange", "Flag", "Redirect", "ToolCall"]

# What a positional argument is, as far as the text alone tells (no file system access:
# the skip path cannot afford it, and the call has not run yet).
ARG_KINDS = (
    "variable",  # its value is known only when it runs: $X, ${X}, $(...), `...`
    "url",  # scheme://..., git@host:path, user@host:path
    "glob",  # an unquoted * ? [
    "number",  # 5, -1, 1.5, 10s, 80%, 1.2.3
    "env",  # an environment's name by itself: prod, production, staging, dev, qa ...
    "branch",  # main, origin/x, feature/x, HEAD~1, or a git ref where git takes one
    "project_path",  # a path inside the project (the call's cwd)
    "outside_path",  # a path outside it: absolute elsewhere, ~, ../ beyond the project
    "word",  # anything else
)


class _Record:
    """Equality and a readable repr over the slots (tests compare and print these)."""

    __slots__ = ()

    def _values(self) -> tuple[Any, ...]:
        names: tuple[str, ...] = self.__slots__
        return tuple(getattr(self, name) for name in names)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Record)
            and type(other) is type(self)
            and (self._values() == other._values())
        )

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        names: tuple[str, ...] = self.__slots__
        fields = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{type(self).__name__}({fields})"


class Arg(_Record):
    """A positional argument: its text (quotes removed) and kind; ``env`` is the
    environment it names anywhere in it (``envs/prod`` -> production), if any."""

    __slots__ = ("env", "kind", "text")

    def __init__(self, text: str, kind: str, env: str | None = None) -> None:
        self.text = text
        self.kind = kind
        self.env = env


class Flag(_Record):
    """An option as the program means it: ``name`` is its canonical spelling (``-rf`` for
    rm gives ``--recursive`` and ``--force``), ``value`` its value if it takes one,
    ``raw`` what was written, ``is_global`` whether it came before the subcommand."""

    __slots__ = ("is_global", "name", "raw", "value")

    def __init__(
        self, name: str, value: str | None = None, raw: str = "", is_global: bool = False
    ) -> None:
        self.name = name
        self.value = value
        self.raw = raw or name
        self.is_global = is_global


class Redirect(_Record):
    """A redirection: ``op`` (``>``, ``>>``, ``<``, ``<<``, ``&>``, ``>&`` ...), the
    descriptor it names (``2>``: "2"), its target, whether it writes a file (not
    ``/dev/null``, not ``2>&1``), and a here-document's body."""

    __slots__ = ("body", "fd", "op", "target", "writes")

    def __init__(
        self, op: str, target: str, writes: bool, fd: str = "", body: str | None = None
    ) -> None:
        self.op = op
        self.target = target
        self.writes = writes
        self.fd = fd
        self.body = body


class Command(_Record):
    """One simple command.

    ``program`` is the basename of what runs ("" for a line that is only assignments or
    redirections, e.g. ``> file``); ``words`` its argv as run (quotes removed, wrappers
    gone); ``subcommand`` the path of subcommand words (``("rollout", "restart")``);
    ``wrappers`` what ran it (``sudo``, ``env``, ``xargs``, ``timeout``...); ``via`` how
    it is nested (``subshell``, ``substitution``, ``shell -c``, ``find -exec``, ``ssh``,
    ``eval``); ``op`` the operator before it (``|``, ``&&``, ``||``, ``;``, ``&``, "").
    """

    __slots__ = (
        "args", "assignments", "flags", "op", "program", "redirects", "subcommand", "via",
        "words", "wrappers",
    )  # fmt: skip

    def __init__(
        self,
        program: str,
        words: tuple[str, ...] = (),
        subcommand: tuple[str, ...] = (),
        flags: tuple[Flag, ...] = (),
        args: tuple[Arg, ...] = (),
        redirects: tuple[Redirect, ...] = (),
        assignments: tuple[str, ...] = (),
        wrappers: tuple[str, ...] = (),
        via: tuple[str, ...] = (),
        op: str = "",
    ) -> None:
        self.program = program
        self.words = words
        self.subcommand = subcommand
        self.flags = flags
        self.args = args
        self.redirects = redirects
        self.assignments = assignments
        self.wrappers = wrappers
        self.via = via
        self.op = op

    def has(self, *names: str) -> bool:
        """Whether any of these flags (canonical names) is given."""
        return any(f.name in names for f in self.flags)

    def value(self, *names: str) -> str | None:
        """The value of the last of these flags given with one."""
        found = None
        for flag in self.flags:
            if flag.name in names and flag.value is not None:
                found = flag.value
        return found

    @property
    def flag_names(self) -> frozenset[str]:
        return frozenset(f.name for f in self.flags)

    @property
    def writes_file(self) -> bool:
        """Whether a redirection writes a file."""
        return any(r.writes for r in self.redirects)

    @property
    def envs(self) -> tuple[str, ...]:
        """The environments it names, in its arguments and flag values."""
        from xdb.engine.calls.kinds import env_of  # only when asked: not on the skip path

        found = [a.env for a in self.args]
        found += [env_of(f.value) for f in self.flags if f.value]
        return tuple(dict.fromkeys(e for e in found if e))


class FileChange(_Record):
    """A file an edit, write or patch touches.

    ``op``: edit, write, create, delete, move (``new_path`` then), notebook; ``kind``: the
    language or format (python, yaml, dockerfile, ...); ``roles``: what the file is for,
    most specific first (secrets, lock, generated, migration, ci, infrastructure, test,
    config, docs, source); ``added``/``removed``: the lines the change adds and removes
    (stripped, blank ones left out); ``added_tokens``/``removed_tokens``: the identifiers,
    numbers and flags only the added (removed) text has, in order of appearance.
    """

    __slots__ = (
        "added", "added_tokens", "env", "in_project", "kind", "new_path", "op", "path",
        "removed", "removed_tokens", "roles",
    )  # fmt: skip

    def __init__(
        self,
        path: str,
        op: str,
        kind: str,
        roles: tuple[str, ...],
        added: tuple[str, ...] = (),
        removed: tuple[str, ...] = (),
        added_tokens: tuple[str, ...] = (),
        removed_tokens: tuple[str, ...] = (),
        in_project: bool | None = None,
        env: str | None = None,
        new_path: str | None = None,
    ) -> None:
        self.path = path
        self.op = op
        self.kind = kind
        self.roles = roles
        self.added = added
        self.removed = removed
        self.added_tokens = added_tokens
        self.removed_tokens = removed_tokens
        self.in_project = in_project
        self.env = env
        self.new_path = new_path

    @property
    def role(self) -> str:
        return self.roles[0] if self.roles else "source"


class ToolCall(_Record):
    """A tool call's structure: ``kind`` is shell, edit, write, patch, read or other;
    ``commands`` its simple commands (shell), ``files`` what it changes (edit, write,
    patch, and a shell call that applies a patch); ``complete`` is False when the
    command line could not be read to its end (an unclosed quote)."""

    __slots__ = ("commands", "complete", "files", "kind", "text", "tool")

    def __init__(
        self,
        tool: str,
        kind: str,
        commands: tuple[Command, ...] = (),
        files: tuple[FileChange, ...] = (),
        text: str = "",
        complete: bool = True,
    ) -> None:
        self.tool = tool
        self.kind = kind
        self.commands = commands
        self.files = files
        self.text = text
        self.complete = complete

    @property
    def programs(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.program for c in self.commands if c.program))
