"""Where the database lives when nobody says: ``--db``, else ``XDB_DB``, else a file in the
user's data directory; and what opening a file may create.

A database file is made by the first write, never by a read: a typo in a path must not leave
an empty database (or a tree of directories) behind. Only the default file's directory, the
user's data directory, is made when missing.
"""

from __future__ import annotations

import os
from pathlib import Path

from xdb.errors import InvalidRequest, path_error


def default_file() -> str:
    """The default database file in the user's data directory (``XDB_DB`` aside)."""
    from platformdirs import user_data_dir

    return str(Path(user_data_dir("xdb", appauthor=False)) / "xdb.sqlite3")


def default_db() -> str:
    env = os.environ.get("XDB_DB")
    if env:
        return env
    return default_file()


def is_file_location(location: str) -> bool:
    """Whether ``location`` names a database file (not ``:memory:``, a ``file:`` URI or a
    PostgreSQL URL, which SQLite or the server resolve themselves)."""
    return location != ":memory:" and not location.startswith(
        ("file:", "postgresql://", "postgres://")
    )


def prepare_location(
    location: str,
    *,
    create: bool,
    name: str = "target",
    make: str = "connect with create=True to make a new one",
) -> None:
    """Check that the database file ``location`` may be opened, before anything is made.

    ``create=False``: the file must exist. ``create=True``: its directory must exist, except
    the default file's, which is made. ``name`` says where the path came from and ``make``
    (if anything) how to make a new database, for the error message. Raises
    ``InvalidRequest``.
    """
    if not is_file_location(location):
        return
    try:
        _check_location(Path(location), location, create, name, make)
    except OSError as exc:  # a name too long, a path through a file...
        error = path_error(name, location, exc)
        error.field = "target"  # the message names the option; the field, connect's argument
        raise error from None


def _check_location(path: Path, location: str, create: bool, name: str, make: str) -> None:
    exists = path.exists()  # raises for a name the filesystem can't hold, before SQLite would
    if exists and path.is_dir():
        raise InvalidRequest(
            f"database {location} is a directory; check {name}, or name a file in it "
            f"(e.g. {path / 'xdb.sqlite3'})",
            field="target",
        )
    if not create:
        if not exists:
            advice = f"check {name}, or {make}" if make else f"check {name}"
            raise InvalidRequest(f"database {location} does not exist; {advice}", field="target")
        return
    parent = path.parent
    if parent.is_dir():
        return
    if not parent.exists() and path.absolute() == Path(default_file()).absolute():
        parent.mkdir(parents=True, exist_ok=True)
        return
    problem = "is not a directory" if parent.exists() else "does not exist"
    raise InvalidRequest(
        f"directory {parent} {problem} (for database {location}); check {name}, "
        f"or make the directory first (mkdir -p {parent})",
        field="target",
    )
