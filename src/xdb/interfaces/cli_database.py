"""Which database a command of the ``xdb`` command line opens, and as whom: the global
options' ``--db`` (else ``XDB_DB``, else the default file), opened once per invocation, for
``--caller`` or the person at the terminal; and how a command prints its answer (JSON on
stdout)."""

from __future__ import annotations

import json
from typing import Any

import click

from xdb.core import Database, connect
from xdb.models.common import Caller

# How the CLI says where a database path came from, and how to make a new database.
DB_NAME = "--db / XDB_DB"
DB_MAKE = "make a new one with a command that writes (xdb record ...)"


def act_as(db: Database, caller_id: str | None, default: Caller) -> Caller:
    """The caller ``--caller`` names (a defined one), else ``default``."""
    if caller_id is None:
        return default
    from xdb.policy.load import named_caller

    return named_caller(db.store, caller_id)


def db_location() -> str:
    """The database path or URL the command line (or the environment) names."""
    from xdb.config import default_db

    path: str = click.get_current_context().find_root().obj["db_path"] or default_db()
    return path


def database(*, create: bool = True) -> Database:
    """The database named by the global options, opened once per invocation. ``create``:
    whether a missing file may be made (false for a command that only reads)."""
    root = click.get_current_context().find_root()
    if "db" not in root.obj:
        from xdb.config import prepare_location

        location = db_location()
        prepare_location(location, create=create, name=DB_NAME, make=DB_MAKE)
        db = connect(
            location,
            create=create,
            session_id=root.obj["session"],
            embedder=root.obj.get("embedder"),  # None: XDB_EMBEDDER, else minilm
        )
        root.obj["db"] = db
        root.call_on_close(db.close)
        # The person at the terminal holds the file: the agent's view, and admin rights
        # (an auditor's, for the audit commands).
        default = root.obj.get("default_caller") or Caller(roles=("self", "admin"))
        db.caller = act_as(db, root.obj.get("caller"), default)
    found: Database = root.obj["db"]
    return found


def emit(data: Any) -> None:
    """A command's answer on stdout, as indented JSON."""
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))
