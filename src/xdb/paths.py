"""Where an operation may read and write files: the database's data root.

Some operations take a path and use it on the machine serving xdb, with the process's
rights: ``export_dataset`` writes a file, ``sync.export`` a bundle, ``sync.import`` and
``import_concepts`` read a directory, ``engine.extract`` a transcript. The path comes from
whoever called, and over HTTP or MCP that is not the person who started the process. So
every call names paths inside the data root, relative to it (or absolute, inside it), and a
link may not lead out of it; only the person at the terminal (the CLI's own commands, run
inside ``at_terminal()``) names any path, as a shell would. docs/policy.md ("Files: the
data root") is the one place this is documented.

The root is ``connect(data_root=...)`` (``xdb serve`` / ``xdb mcp --data-root``), else
``$XDB_DATA_ROOT``, else a folder beside the database file: ``<stem>-files`` next to
``<stem>.sqlite3``; for ``:memory:`` and PostgreSQL, the default database file's
(``xdb-files`` in the user's data directory). It is made on the first write into it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from xdb.errors import Conflict, InvalidRequest, PermissionDenied, path_error

ENV = "XDB_DATA_ROOT"

# Set only around a CLI command's own call: a context variable, not a handle's setting,
# so that `xdb serve` (opened by the same CLI, answering others) never inherits it.
_TERMINAL: ContextVar[bool] = ContextVar("xdb_at_terminal", default=False)


@contextmanager
def at_terminal() -> Iterator[None]:
    """Calls made inside run for the person at the terminal: their paths are taken as
    given (``~`` expanded, relative to the working directory), anywhere."""
    token = _TERMINAL.set(True)
    try:
        yield
    finally:
        _TERMINAL.reset(token)


def default_root(location: str | None) -> Path:
    """The data root of a database at ``location`` when none is given: ``$XDB_DATA_ROOT``,
    else beside the file (absolute: the working directory may change later)."""
    env = os.environ.get(ENV)
    if env:
        return Path(env).expanduser().absolute()
    from xdb.config import default_file, is_file_location

    file = Path(location if location and is_file_location(location) else default_file())
    return file.absolute().parent / f"{file.stem}-files"


def chosen_root(given: str | os.PathLike[str] | None, location: str | None) -> Path:
    """The data root for a handle: the one ``given``, else the default for ``location``."""
    return Path(given).expanduser().absolute() if given is not None else default_root(location)


def root_of(settings: Mapping[str, Any]) -> Path:
    """The data root of the handle whose settings these are (``Database`` sets it)."""
    root = settings.get("data_root")
    return Path(root) if root is not None else default_root(None)


def _shown(given: str) -> str:
    # A 4,000-character name would drown the message (as in errors.path_error).
    return given if len(given) <= 120 else f"{given[:100]}...({len(given)} characters)"


def _inside(path: str, folder: str) -> bool:
    return path.startswith(folder.rstrip(os.sep) + os.sep)


def place(
    root: Path, field: str, given: str, *, write: bool = False, also: Iterable[Path] = ()
) -> Path:
    """The path a call names in ``field``, checked against the rule above.

    For the terminal: ``given`` as a shell reads it. For everyone else: resolved inside
    ``root`` (or one of the ``also`` folders, for reading), every link followed first, so
    a link inside pointing out is out. Whatever is refused gets one message, naming the
    field and the root, whether or not the place exists: it tells nothing about what lies
    outside. ``write``: the root and the folders up to the path are made."""
    if _TERMINAL.get():
        return Path(given).expanduser()
    real_root = os.path.realpath(root)
    folders = [real_root, *(os.path.realpath(a) for a in also)]
    try:
        # "~" is not expanded: the same words must not mean the server's home here and a
        # folder of the root there. An absolute path replaces the root in the join.
        found = None if given.startswith("~") else os.path.realpath(Path(real_root, given))
    except (OSError, ValueError):  # a NUL byte, a name the filesystem cannot hold
        raise InvalidRequest(
            f"{field}: {_shown(given)!r} is not a usable path", field=field
        ) from None
    if found is None or not any(_inside(found, f) for f in folders):
        extra = f" (or {', '.join(map(str, folders[1:]))})" if len(folders) > 1 else ""
        raise PermissionDenied(
            f"{field}: {_shown(given)!r} is not inside the data root {real_root}{extra}: name "
            "a path inside it, relative to it, with no ~ and no link leading out "
            f"(the data root: connect(data_root=...), --data-root or ${ENV})",
            field=field,
        )
    path = Path(found)
    if write and _inside(found, real_root):
        # A folder that cannot be made: the write itself says what is wrong, in the
        # operation's own words.
        with suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True)
    return path


def refuse_existing(field: str, path: Path, given: str, overwrite: bool) -> None:
    """Nothing is replaced unless the call says so: a file (or a link) at ``path`` is a
    conflict without ``overwrite``. A name the filesystem cannot hold (too long) is the
    caller's mistake, as the write would have said."""
    try:
        there = not overwrite and (path.exists() or path.is_symlink())
    except OSError as exc:  # exists() lets ENAMETOOLONG and the like through
        raise path_error(field, given, exc) from None
    if there:
        raise Conflict(
            f"{field}: {_shown(given)!r} exists; set overwrite to replace it, or name a new file",
            field=field,
        )
