"""``python -m xdb.engine.judge_worker``: the detached judge one post-tool-use hook starts.
Reads the ``engine.judge`` request on stdin and asks the engine (``full.ask``); whatever goes
wrong, it exits quietly: nobody waits for it."""

from __future__ import annotations

import json
import sys

from xdb.engine.full import ask


def main() -> int:
    try:
        request = json.loads(sys.stdin.read())
        if isinstance(request, dict):
            ask("judge", request)
    except Exception:  # a judge that fails leaves the warning pending, nothing more
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
