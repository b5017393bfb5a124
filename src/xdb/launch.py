"""The ``xdb`` console script. ``xdb [--db DB] hook AGENT EVENT`` runs on every tool call of
a coding agent, so it is answered before the command line (click, the registry, pydantic)
loads: a read-only call then costs an interpreter start. Everything else is the command
line."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Sequence

    from xdb.engine.dialects import HookEvent


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    args = _hook_database(args)
    if args[:1] == ["hook"]:
        from xdb.engine import hook

        code = hook.main(args[1:], full=_full_path)
        if "threading" in sys.modules and sys.modules["threading"].active_count() > 1:
            # Work given up on (a locked database) still runs: the answer is out, so the
            # process ends without waiting for it.
            sys.stdout.flush()
            os._exit(code)
        return code
    from xdb.interfaces.cli import main as cli_main

    return cli_main(args)


def _hook_database(args: list[str]) -> list[str]:
    """``--db DB hook AGENT EVENT`` (what ``xdb hooks install --db`` writes; ``--db=DB``, or
    after the event, alike) is ``hook AGENT EVENT`` with ``XDB_DB`` set to DB, for this
    process and the workers it starts. Other lines are left to the command line."""
    rest, db = list(args), None
    while (found := _db_option(rest)) is not None:
        db, rest = found[0], rest[found[1] :]
    if rest[:1] != ["hook"]:
        return args
    after = _db_option(rest[3:])
    if after is not None and len(rest) == 3 + after[1]:
        db, rest = after[0], rest[:3]
    if db is not None:
        os.environ["XDB_DB"] = db
    return rest


def _db_option(words: list[str]) -> tuple[str, int] | None:
    """``--db DB`` or ``--db=DB`` at the start of ``words``: its value and length in words."""
    if words[:1] == ["--db"] and len(words) >= 2:
        return words[1], 2
    if words[:1] and words[0].startswith("--db="):
        return words[0][len("--db=") :], 1
    return None


def _full_path(call: HookEvent) -> str:
    # Imported only past the read-only skip.
    from xdb.interfaces.hook_client import answer

    return answer(call)
