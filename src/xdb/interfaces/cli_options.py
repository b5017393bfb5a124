"""The command line's global options, ``--db``, ``--session`` and ``--caller``.

Each is accepted before the command (``xdb --db F status``) and after it (``xdb status --db
F``, the way ``claude mcp add xdb -- xdb mcp --db F`` writes it), with the same meaning; the
environment variables ``XDB_DB`` and ``XDB_SESSION`` stand in for either. Given on the command
line in more than one place, the values must be the same: two different databases in one
command line is a mistake worth one error line, not a silent choice.

The group's options are ordinary click options; the copies on every command store their value
in the root context's ``obj`` (``db_path``, ``session``) from a callback, so the command sees one
value wherever it was given. Only click is imported here: ``xdb --help`` stays fast.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import click
from click.core import ParameterSource

F = TypeVar("F", bound=Callable[..., Any])

PLACEMENT = (
    "Accepted before or after the command; given in both places, the values must be the same."
)

# destination in ctx.obj -> (flag, environment variable, metavar, help)
GLOBALS: dict[str, tuple[str, str, str, str]] = {
    "db_path": (
        "--db",
        "XDB_DB",
        "PATH",
        "Database file (or :memory:, or a postgresql:// URL). Default: $XDB_DB, else "
        "xdb/xdb.sqlite3 in the user data directory. A command that only reads refuses a "
        "file that does not exist; one that writes makes the file, but not a missing "
        "directory (except the default's).",
    ),
    "session": (
        "--session",
        "XDB_SESSION",
        "ID",
        "The current session. Default: $XDB_SESSION, else the most recently active session "
        "in the database, else a new one.",
    ),
    "caller": (
        "--caller",
        "XDB_CALLER",
        "ID",
        "Act as this caller (one defined with 'xdb set-caller'; 'self': the agent). Default: "
        "$XDB_CALLER, else the agent itself with the admin role (xdb mcp: the agent alone).",
    ),
}
# The same, shorter, for every command's own help.
SHORT = {
    "db_path": "Database file, :memory: or postgresql:// URL; default $XDB_DB, else the "
    "user data directory's file (see 'xdb --help').",
    "session": "The current session; default $XDB_SESSION, else the most recently active.",
    "caller": "Act as this defined caller; default $XDB_CALLER, else the agent (and admin).",
}


def group_options(command: F) -> F:
    """Decorate the ``xdb`` group with the global options, read from the environment too."""
    for dest, (flag, envvar, metavar, text) in reversed(GLOBALS.items()):
        command = click.option(
            flag, dest, envvar=envvar, metavar=metavar, help=f"{text} {PLACEMENT}"
        )(command)
    return command


def group_values(ctx: click.Context, values: dict[str, str | None]) -> dict[str, Any]:
    """The root context's ``obj`` from the group's own options: each value, and which of
    them came from the command line (for the same-value check when a command repeats one)."""
    given = {
        dest: value
        for dest, value in values.items()
        if value is not None and ctx.get_parameter_source(dest) == ParameterSource.COMMANDLINE
    }
    return {**values, "given": given}


def _store(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is None or ctx.resilient_parsing:
        return
    obj = ctx.find_root().obj
    dest = param.name
    assert isinstance(obj, dict) and dest is not None
    flag = GLOBALS[dest][0]
    earlier = obj["given"].get(dest)
    if earlier is not None and not _same(dest, earlier, value):
        raise click.UsageError(
            f"{flag}: given twice with different values ({earlier!r} and {value!r}); "
            f"give it once, before or after the command",
            ctx,
        )
    obj["given"][dest] = value
    obj[dest] = value  # the command line outranks the environment the group read


def _same(dest: str, one: str, other: str) -> bool:
    """Two spellings of one value: ``./a.sqlite3`` and ``a.sqlite3`` name the same file."""
    if one == other:
        return True
    if dest != "db_path" or "://" in one + other or ":memory:" in (one, other):
        return False
    return os.path.abspath(os.path.expanduser(one)) == os.path.abspath(os.path.expanduser(other))


def command_options() -> list[click.Option]:
    """Copies of the global options for one command (no environment: the group reads it)."""
    return [
        click.Option(
            [flag, dest],
            metavar=metavar,
            expose_value=False,
            callback=_store,
            help=f"{SHORT[dest]} {PLACEMENT}",
        )
        for dest, (flag, _envvar, metavar, _text) in GLOBALS.items()
    ]


def add_to(command: click.Command) -> None:
    """Give ``command`` (and, for a group, every command under it) the global options."""
    flags = {opt for param in command.params for opt in param.opts}
    clash = flags & {flag for flag, *_ in GLOBALS.values()}
    if clash:  # a request field spelled like a global option would be shadowed
        raise RuntimeError(f"{command.name}: option(s) {clash} clash with the global options")
    command.params.extend(command_options())
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            add_to(sub)
