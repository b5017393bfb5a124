"""Running the CLI in-process for tests: one invocation, its JSON, or its one error line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from xdb.interfaces.cli import cli


def run(db: Path, *args: str, session: str | None = "s1", stdin: str | None = None) -> Result:
    prefix = ["--db", str(db)] + (["--session", session] if session else [])
    # The hashing embedder: episodes get vectors without loading a model.
    env = {"XDB_DEBUG": "", "XDB_EMBEDDER": "hash"}
    return CliRunner().invoke(cli, [*prefix, *args], input=stdin, env=env)


def ok(db: Path, *args: str, **kwargs: Any) -> Any:
    result = run(db, *args, **kwargs)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def fails(db: Path, *args: str, **kwargs: Any) -> str:
    """Run a command that must fail the documented way; return its one error line."""
    result = run(db, *args, **kwargs)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]
