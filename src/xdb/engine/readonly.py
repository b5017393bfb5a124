"""Layer 1 of the experience engine: which tool calls cannot change anything (seed 003).

A read-only call (``ls``, ``cat``, ``git log``, ``docker ps``, a file read, a search)
bypasses the engine: no lookup, no warning, no cost. A shell command is read-only only if
every simple command of it is (``xdb.engine.calls`` parses the line: each command of a
chain, pipe or subshell, of a ``$( )``/backtick substitution, a ``bash -c`` script,
``xargs`` and ``find -exec``) and none redirects into a file (``>``, ``>>``, ``&>``;
``/dev/null`` and ``2>&1`` write nothing).

Each command is judged by its parsed structure (``xdb.engine.calls.effects``): the
program, its subcommand path past global options (``git -C repo status``, ``kubectl -n
prod get pods``) and its options as the program means them (``git branch -D`` is
``--delete --force``). A subcommand that writes is never read-only because its first word
looks harmless (``git stash drop``, ``kubectl config set-context``, ``npm cache clean``);
an explicit dry run, and ``terraform plan`` without ``-out``, is. Anything not known to be
read-only counts as mutating: a warning too many costs a line of context, a missed one a
repeated mistake.

Standard library only (``re``, ``shlex``, and ``posixpath`` which the interpreter has
loaded already) and xdb's own light parser: the hook that runs this on every tool call
starts a Python process each time.
"""

from __future__ import annotations

from xdb.engine.calls import READ_TOOLS, SHELL_TOOLS, command_text
from xdb.engine.calls.effects import reads
from xdb.engine.calls.shell import parse_shell

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["READ_ONLY_TOOLS", "SHELL_TOOLS", "command_is_read_only", "is_read_only"]

READ_ONLY_TOOLS = READ_TOOLS


def is_read_only(tool_name: str, tool_input: Mapping[str, Any] | None) -> bool:
    """Whether a tool call only reads (Layer 1 lets it through untouched)."""
    name = tool_name.lower()
    if name in READ_TOOLS:
        return True
    if name in SHELL_TOOLS:
        command = command_text(tool_input or {})
        return command is not None and command_is_read_only(command)
    return False


def command_is_read_only(command: str) -> bool:
    """Whether every part of a shell command line only reads."""
    commands, complete = parse_shell(command)
    return complete and all(reads(c) for c in commands)
