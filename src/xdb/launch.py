"""The ``xdb`` console script. ``xdb hook AGENT EVENT`` runs on every tool call of a coding
agent, so it is answered before the command line (click, the registry, pydantic) loads: a
read-only call then costs an interpreter start. Everything else is the command line."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Sequence

    from xdb.engine.dialects import HookEvent


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
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


def _full_path(call: HookEvent) -> str:
    # Imported only past the read-only skip.
    from xdb.engine.full import answer

    return answer(call)
